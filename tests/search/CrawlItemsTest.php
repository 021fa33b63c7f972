<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * yioop_codec\crawl_items\nonNetworkGetCrawlItems, with the two getPage
 * natives it reads pages through, against Yioop's own
 * ParallelModel::nonNetworkGetCrawlItems: the cases of
 * support/crawl_items/cases.php, run by support/crawl_items/run.php on
 * stand-ins of Yioop's classes in a PHP process of its own, against what
 * Yioop's PHP gave (fixtures/crawl_items, recorded by
 * tools/record/record-crawl-items.php). Where Yioop answered without a
 * warning, the native answer is the same: the result, byte for byte as
 * serialize() writes it, the model's callees in order and each partition's
 * iterator_pos. Where Yioop warned or threw, the native function declined.
 */
class CrawlItemsTest extends TestCase
{
    /** Cases the native function declines although Yioop answers them. */
    private const DECLINED = [
        'an int description' => 'trim() of an int: declined rather than converted',
        'a reference description' => 'Yioop writes the trimmed text through the reference',
    ];

    /** Cases whose record is damaged after earlier cases read it: the page (its title) read before must not come back. */
    private const DAMAGED = ['a record damaged underneath' => 'Alpha'];


    private static function recorded(): array
    {
        return json_decode(file_get_contents(__DIR__ . '/../fixtures/crawl_items/yioop-2021.json'), true);
    }

    public function testTheNativeFunctionGivesYioopsAnswersOrDeclines(): void
    {
        $native = CaseRunner::run(__DIR__ . '/../support/crawl_items/run.php', 'stand-ins');
        $recorded = self::recorded();
        $this->assertSame(array_keys($recorded), array_keys($native));
        $answered = 0;
        foreach ($recorded as $name => $yioop) {
            $result = unserialize(base64_decode($native[$name]['result']));
            $this->assertSame([], $native[$name]['reported'], "$name: the native run reported");
            if (isset(self::DAMAGED[$name])) {
                $this->assertNotSame([], $yioop['reported'], "$name: Yioop's gzinflate warns");
                $this->assertStringNotContainsString(self::DAMAGED[$name], serialize($result), "$name: not from the cache");
                continue;
            }
            if ($yioop['reported'] !== [] || isset(self::DECLINED[$name])) {
                $this->assertNull($result, "$name: Yioop warned or threw, or it is a known decline");
                continue;
            }
            $this->assertSame($yioop['result'], $native[$name]['result'], "$name: result");
            $this->assertSame($yioop['calls'], $native[$name]['calls'], "$name: callees");
            $this->assertSame($yioop['iterator_pos'], $native[$name]['iterator_pos'], "$name: iterator_pos");
            $answered++;
        }
        $this->assertGreaterThanOrEqual(20, $answered);
    }

    public function testTheRecordingIsStillYioops(): void
    {
        $yioop = getenv('YIOOP_DIR');
        if (!$yioop) {
            $this->markTestSkipped('YIOOP_DIR not set');
        }
        $live = CaseRunner::run(__DIR__ . '/../support/crawl_items/run.php', 'yioop', $yioop);
        $this->assertSame(self::recorded(), $live);
    }
}
