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

    /**
     * run.php --mirrors: an upload as the queue server reads it, each site
     * of it at another host, every other byte the same. Needs no Yioop.
     */
    public function testAMirroredUploadHoldsEverySiteAtTheMirrorsAddress(): void
    {
        require_once dirname(__DIR__) . '/tools/yioop/stock-setup.php';
        require_once dirname(__DIR__, 2) . '/bench/scale/mirrors.php';
        $at = fn(string $host) => [
            ['l' => "http://$host:8471/java/a.html", 'au' => [$host], 'o' => "\x00127.0.0\xff",
                'w' => ["http://$host:8471/java/b.html" => 'next', 'https://example.org/' => 'out']],
            ['l' => "http://$host:8471/java/b.html", 's' => 'B', 'o' => "\x01"],
        ];
        $mirrored = atHost(self::upload($at('127.0.0.1')), '127.0.0.3');
        $this->assertSame($at("127.0.0.3"), $this->sites($mirrored));
        $addresses = array_map('mirrorAddress', range(1, MAX_MIRRORS));
        $this->assertSame(['127.0.0.1', '127.0.0.9', '127.0.1.1', '127.0.1.9'],
            [$addresses[0], $addresses[8], $addresses[9], $addresses[17]]);
        $this->assertSame([9], array_unique(array_map('strlen', $addresses)), 'same length');
        $this->assertCount(MAX_MIRRORS, array_unique($addresses));
        $this->expectException(\RuntimeException::class);
        atHost(self::upload($at('127.0.0.1')) . 'AAAA', '127.0.0.2');
    }

    /** Sites as a Fetcher uploads them: Yioop's web encoding of their lengths and texts. */
    private static function upload(array $sites): string
    {
        $packed = '';
        foreach ($sites as $site) {
            $text = gzcompress(serialize($site));
            $packed .= pack('N', strlen($text)) . $text;
        }
        return strtr(base64_encode(pack('N', strlen($packed)) . $packed), '+=/', '.~_');
    }

    private function sites(string $upload): array
    {
        $bytes = base64_decode(strtr($upload, '.~_', '+=/'));
        $sites = [];
        for ($at = 4; $at < strlen($bytes); $at += 4 + $size) {
            $size = unpack('N', $bytes, $at)[1];
            $sites[] = unserialize(gzuncompress(substr($bytes, $at + 4, $size)));
        }
        $this->assertSame(strlen($bytes) - 4, unpack('N', $bytes)[1]);
        return $sites;
    }
}
