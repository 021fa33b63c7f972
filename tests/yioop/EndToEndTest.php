<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * The differential end-to-end check on a small corpus: Yioop's own
 * IndexShard and iterators, on a copy of YIOOP_DIR switched over by
 * yioop-integrate.php, build a seeded shard and query it from disk with and
 * without the extension; shard bytes and every query result must be
 * identical (bench/e2e/run.php exits 1 otherwise). Needs a Yioop 2021-line
 * checkout; skipped without YIOOP_DIR.
 */
class EndToEndTest extends TestCase
{
    public function testShardBytesAndQueryResultsAreIdenticalWithAndWithoutTheExtension(): void
    {
        $yioop = getenv('YIOOP_DIR');
        if (!$yioop) {
            $this->markTestSkipped('set YIOOP_DIR to a Yioop 2021-line checkout to compare '
                . 'IndexShard and its iterators end to end, with and without the extension');
        }
        $root = dirname(__DIR__, 2);
        $so = getenv('YIOOP_CODEC_SO') ?: "$root/target/release/libyioop_codec.so";
        $command = 'YIOOP_DIR=' . escapeshellarg($yioop) . ' php ' . escapeshellarg("$root/bench/e2e/run.php")
            . ' --docs=300 --repeat=1 --jit=off --so=' . escapeshellarg($so) . ' 2>&1';
        exec($command, $output, $status);
        $report = implode("\n", $output);
        $this->assertSame(0, $status, $report);
        foreach (['shard bytes', 'drain results', 'and results', 'page results'] as $what) {
            $this->assertMatchesRegularExpression("/$what\\s+identical/", $report);
        }
    }
}
