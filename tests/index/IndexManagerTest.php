<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * yioop_codec\index_manager\discountedNumDocsTerm against Yioop's own
 * IndexManager::discountedNumDocsTerm: the cases of
 * support/index_manager/run.php, on the dictionary Yioop built for
 * fixtures/dictionary, run on stand-ins of Yioop's classes in a PHP process
 * of its own, against what Yioop's PHP gave (fixtures/index_manager,
 * recorded by tools/record/record-index-manager.php). The native function
 * answers a term the index lacks (0.0, which Yioop does not cache) and a
 * term in the method's static cache, also where a crawl is past the
 * dictionary but its active generation has no shard file yet (how Yioop
 * leaves a stopped crawl's index); it leaves the rest to Yioop's PHP.
 */
class IndexManagerTest extends TestCase
{
    /** The cases the native function leaves to Yioop's PHP, and why. */
    private const DECLINED = [
        'the most frequent word' => 'the index holds it: Yioop works out the total and caches it',
        'a middling word' => 'the index holds it',
        'a rare word' => 'the index holds it',
        'a crawl past the dictionary: a word' => 'the index holds it',
        'the active shard written: an absent word' => "Yioop opens the active generation's shard too",
        'the active shard written: a word' => "Yioop opens the active generation's shard too",
        'an int term' => 'md5() of an int: left to Yioop',
        'called on a subclass' => 'another class: left to Yioop',
        // Without an ACTIVE generation Yioop reads the dictionary's second
        // entry as the list of entries, and caches what that gives (0.0).
        'no ACTIVE generation: a rare word' => 'the index holds it',
        'no ACTIVE generation: a frequent word' => 'the index holds it',
    ];


    private static function recorded(): array
    {
        return json_decode(file_get_contents(__DIR__ . '/../fixtures/index_manager/yioop-2021.json'), true)['cases'];
    }

    public function testTheNativeFunctionGivesYioopsAnswersOrDeclines(): void
    {
        $native = CaseRunner::run(__DIR__ . '/../support/index_manager/run.php', 'stand-ins')['cases'];
        $yioop = self::recorded();
        $this->assertSame(array_column($yioop, 'name'), array_column($native, 'name'));
        $answered = 0;
        foreach ($yioop as $i => $case) {
            $name = $case['name'];
            $this->assertSame(isset(self::DECLINED[$name]), $native[$i]['declined'], "$name: declined");
            $this->assertSame($case['result'], $native[$i]['result'], "$name: result");
            $answered += $native[$i]['declined'] ? 0 : 1;
        }
        $this->assertSame(count($yioop) - count(self::DECLINED), $answered);
    }

    public function testTheRecordingIsStillYioops(): void
    {
        $yioop = getenv('YIOOP_DIR');
        if (!$yioop) {
            $this->markTestSkipped('YIOOP_DIR not set');
        }
        $live = CaseRunner::run(__DIR__ . '/../support/index_manager/run.php', 'yioop', $yioop)['cases'];
        $this->assertSame(self::recorded(), $live);
    }
}
