<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * yioop_codec\word_iterator\findDocsWithWord against Yioop's own
 * WordIterator::findDocsWithWord: the cases of
 * support/word_iterator/run.php, over a shard and dictionary Yioop built,
 * run on stand-ins of Yioop's classes in a PHP process of its own, against
 * what Yioop's PHP gave (fixtures/word_iterator, recorded by
 * tools/record/record-word-iterator.php): the result, the iterator's
 * next_offset, count_block and pages, and what the search filter was
 * asked. The native function answers in the steady state a search is in
 * and leaves the rest to Yioop's PHP.
 */
class WordIteratorTest extends TestCase
{
    /** The cases the native function leaves to Yioop's PHP, and why. */
    private const DECLINED = [
        "another generation than the current shard's" => 'setCurrentShard would switch the shard',
        'DISK_BASED not yet set' => 'setCurrentShard would set it',
        'a shard whose header is not read' => 'getPostingsSlice would read it first',
        'an index not loaded' => "getIndex would load it",
        'a filter that is a string' => 'Yioop throws calling isFiltered on it',
        'results_per_block as a string' => "the slice's len: an int only",
        'base64_word_key as an int' => 'a string only',
    ];


    private static function recorded(): array
    {
        $path = __DIR__ . '/../fixtures/word_iterator/yioop-2021.json.gz';
        return json_decode(gzdecode(file_get_contents($path)), true);
    }

    public function testTheNativeFunctionGivesYioopsBlocksOrDeclines(): void
    {
        $native = CaseRunner::run(__DIR__ . '/../support/word_iterator/run.php', 'stand-ins')['cases'];
        $yioop = self::recorded()['cases'];
        $this->assertSame(array_column($yioop, 'name'), array_column($native, 'name'));
        $answered = 0;
        foreach ($yioop as $i => $case) {
            $name = $case['name'];
            $this->assertSame(isset(self::DECLINED[$name]), $native[$i]['declined'], "$name: declined");
            if ($native[$i]['declined']) {
                continue;
            }
            unset($native[$i]['declined']);
            $this->assertSame($case, $native[$i], "$name: result and iterator state");
            $answered++;
        }
        $this->assertSame(count($yioop) - count(self::DECLINED), $answered);
    }

    public function testTheRecordingIsStillYioops(): void
    {
        $yioop = getenv('YIOOP_DIR');
        if (!$yioop) {
            $this->markTestSkipped('YIOOP_DIR not set');
        }
        $live = CaseRunner::run(__DIR__ . '/../support/word_iterator/run.php', 'yioop', $yioop);
        $this->assertSame(self::recorded(), $live);
    }
}
