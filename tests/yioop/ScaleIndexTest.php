<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * bench/scale/run.php on 300 real pages (Debian documentation turned into
 * fetcher uploads by Yioop's own Fetcher and HtmlProcessor): the uploads
 * hold every page, and Yioop's QueueServer writes the same index files in
 * an unswitched tree without the extension and in a switched one with
 * this process's build, over several generations (1,000 documents each,
 * links included). Needs a Yioop 2021-line tree (YIOOP_DIR), pdo_sqlite
 * and the packages of bench/scale/setup.sh; skipped otherwise.
 */
class ScaleIndexTest extends TestCase
{
    public function testRealPagesIndexTheSameWithAndWithoutTheExtensionOverGenerations(): void
    {
        $yioop = getenv('YIOOP_DIR');
        if (!$yioop) {
            $this->markTestSkipped('set YIOOP_DIR to a Yioop 2021-line checkout');
        }
        $java = '/usr/share/doc/openjdk-17-jre-headless/api';
        if (!extension_loaded('pdo_sqlite') || !is_dir($java)) {
            $this->markTestSkipped('needs pdo_sqlite and the packages of bench/scale/setup.sh');
        }
        $so = LoadedExtension::path();
        $this->assertNotSame('', $so, 'run with the extension loaded');
        $root = dirname(__DIR__, 2);
        $data = sys_get_temp_dir() . '/scale-index-test-' . getmypid();
        exec('YIOOP_DIR=' . escapeshellarg($yioop) . ' php '
            . escapeshellarg("$root/bench/scale/run.php") . ' --pages=300 --per-generation=1000'
            . ' --data=' . escapeshellarg($data) . ' --so=' . escapeshellarg($so) . ' 2>&1', $out,
            $rc);
        $index = "$data/300-g1000/ext-off/IndexData1700000000";
        $generation = @file_get_contents("$index/generation.txt");
        $summaries = @file_get_contents("$index/summaries/description.txt");
        exec('rm -rf ' . escapeshellarg($data));
        $report = implode("\n", $out);
        $this->assertSame(0, $rc, $report);
        $this->assertMatchesRegularExpression('/batches: 300 pages, \d+ batches/', $report);
        $this->assertStringContainsString('Index directory: identical', $report);
        $info = unserialize((string)$generation);
        $this->assertIsArray($info, 'the index was kept');
        $this->assertGreaterThanOrEqual(2, $info['ACTIVE'], 'generations switched');
        $archive = unserialize((string)$summaries);
        $this->assertSame(300, $archive['VISITED_URLS_COUNT'] ?? null, 'every page indexed');
    }
}
