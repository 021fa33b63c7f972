<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * Yioop's QueueServer indexing the same fetcher uploads (StockCorpus pages,
 * made by bench/crawl/make-batches.php) in an unswitched tree without the
 * extension and in a switched one with this process's build: every file of
 * the index directory (summaries, shards, dictionary tiers) must be
 * identical (bench/crawl/replay.php exits 1 otherwise), with one
 * `yioop.compress_threads` and with two (the work done ahead on another
 * thread). Small generations, so that generations switch and dictionary
 * tiers merge. Needs a Yioop
 * 2021-line tree; skipped without YIOOP_DIR.
 */
class QueueReplayTest extends TestCase
{
    public function testTheQueueServerWritesTheSameIndexWithAndWithoutTheExtension(): void
    {
        $yioop = getenv('YIOOP_DIR');
        if (!$yioop) {
            $this->markTestSkipped('set YIOOP_DIR to a Yioop 2021-line checkout');
        }
        $so = LoadedExtension::path();
        $this->assertNotSame('', $so, 'run with the extension loaded');
        $root = dirname(__DIR__, 2);
        $batches = sys_get_temp_dir() . '/queue-replay-test-' . getmypid();
        $env = 'YIOOP_DIR=' . escapeshellarg($yioop);
        exec("$env php " . escapeshellarg("$root/bench/crawl/make-batches.php") . ' '
            . escapeshellarg($batches) . ' 400 3 50 2>&1', $made, $rc);
        $this->assertSame(0, $rc, implode("\n", $made));
        // One thread, the default; two: the uploads read ahead, the records
        // compressed during the shard build, its phrase lists made ahead.
        foreach ([1, 2] as $threads) {
            $out = [];
            exec("$env php " . escapeshellarg("$root/bench/crawl/replay.php") . ' --batches='
                . escapeshellarg($batches) . ' --repeat=1 --jit=off --per-generation=300 --so='
                . escapeshellarg($so) . " --ext-ini=yioop.compress_threads=$threads 2>&1", $out, $rc);
            $report = implode("\n", $out);
            $this->assertSame(0, $rc, $report);
            $this->assertStringContainsString('Index directory: identical', $report, "$threads threads");
        }
        exec('rm -rf ' . escapeshellarg($batches));
    }
}
