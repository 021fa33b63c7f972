<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

/**
 * yioop.summary_cache_size and yioop_codec\archive\summaryCacheStats(): a
 * record read alone (WebArchiveBundle::getPage's read) again is not
 * inflated again, yet every read answers with the bytes on disk now. Each
 * case runs in a PHP process of its own, the setting on its command line.
 */
class SummaryCacheTest extends TestCase
{
    /** A record as WebArchive writes it: the 20-byte length header, then gzencode($text, 9). */
    private const RECORD = 'function record(string $text): string {'
        . '  $body = gzencode($text, 9);'
        . '  return "\x1f\x8b\x08\x00" . pack("N", strlen($body)) . "\x00\x03\x03\x00"'
        . '    . str_repeat("\x00", 8) . $body;'
        . '}';

    /**
     * Runs $body after an archive of three summaries is written to $file
     * ($offsets: where each starts; $archive: its stand-in); prints
     * json_encode([$result, summaryCacheStats(), phpinfo's row]).
     */
    private static function runWith(string $size, string $body): array
    {
        $file = tempnam(sys_get_temp_dir(), 'summary-cache-');
        $script = 'require ' . var_export(__DIR__ . '/../support/archive/stand-ins.php', true) . ';'
            . self::RECORD
            . '$file = ' . var_export($file, true) . ';'
            . '$summaries = [["TITLE" => "one", "DESCRIPTION" => str_repeat("a b ", 300)],'
            . '  ["TITLE" => "two", "LINKS" => range(1, 400)], ["TITLE" => "three"]];'
            . '$offsets = []; $bytes = "";'
            . 'foreach ($summaries as $s) { $offsets[] = strlen($bytes); $bytes .= record(serialize($s)); }'
            . 'file_put_contents($file, $bytes . str_repeat("\0", 64));'
            . '$archive = new YioopCodec\Tests\ArchiveStandIn($file);'
            . 'function one($archive, $at) { return yioop_codec\archive\getObjects($archive, $at, 1, false, null, 1 << 30)[0][1] ?? null; }'
            . $body
            . 'ob_start(); phpinfo(INFO_MODULES); $info = ob_get_clean();'
            . 'preg_match("/^Summary cache shared.*$/m", $info, $row);'
            . 'echo json_encode([$result, yioop_codec\archive\summaryCacheStats(), $row[0] ?? ""]);';
        try {
            return SettingProcess::run('yioop.summary_cache_size', $size, $script);
        } finally {
            unlink($file);
        }
    }

    /** Each summary read alone twice: what the reads gave, as titles. */
    private const READ_TWICE = '$result = [];'
        . 'foreach ([0, 1] as $round) { foreach ($offsets as $at) { $result[] = one($archive, $at)["TITLE"]; } }';

    public static function sizes(): iterable
    {
        // [setting, hits, misses]: three records read alone, twice
        yield 'default 64M: the second reads hit' => ['64M', 3, 3];
        yield 'none (0): nothing kept or looked up' => ['0', 0, 0];
    }

    /** @dataProvider sizes */
    #[DataProvider('sizes')]
    public function testSecondReadsHitWithinTheLimit(string $size, int $hits, int $misses): void
    {
        [$titles, $stats] = self::runWith($size, self::READ_TWICE);
        $this->assertSame(['one', 'two', 'three', 'one', 'two', 'three'], $titles);
        $this->assertSame([$hits, $misses], [$stats['hits'], $stats['misses']]);
        $this->assertSame(['64M' => 64 << 20, '0' => 0][$size], $stats['limit_bytes']);
        $this->assertSame($size === '0', $stats['held_bytes'] === 0);
        $this->assertSame($size === '0' ? 0 : 3, $stats['entries']);
    }

    public function testARecordRewrittenUnderneathIsReadAsItIsNow(): void
    {
        // The second record replaced in place, the file otherwise as it was.
        $body = '$before = one($archive, $offsets[1]);'
            . '$other = record(serialize(["TITLE" => "TWO", "LINKS" => range(1, 400)]));'
            . '$fh = fopen($file, "r+"); fseek($fh, $offsets[1]); fwrite($fh, $other . str_repeat("\0", 64)); fclose($fh);'
            . '$result = [$before["TITLE"], one($archive, $offsets[1])["TITLE"], one($archive, $offsets[1])["TITLE"]];';
        [$result, $stats] = self::runWith('64M', $body);
        $this->assertSame(['two', 'TWO', 'TWO'], $result);
        $this->assertSame([1, 2], [$stats['hits'], $stats['misses']]);
    }

    public function testARecordDamagedUnderneathIsNotAnsweredFromTheCache(): void
    {
        // A byte of the deflate data flipped: same length, same trailer.
        $body = '$before = one($archive, $offsets[1]);'
            . '$fh = fopen($file, "r+"); fseek($fh, $offsets[1] + 60); $b = fread($fh, 1);'
            . 'fseek($fh, $offsets[1] + 60); fwrite($fh, chr(ord($b) ^ 0xff)); fclose($fh);'
            . '$result = [$before["TITLE"], yioop_codec\archive\getObjects($archive, $offsets[1], 1, false, null, 1 << 30)];';
        [$result] = self::runWith('64M', $body);
        $this->assertSame(['two', null], $result, "declined, left to Yioop's gzinflate");
    }

    public function testReadsOfSeveralRecordsAreNotKept(): void
    {
        // nextObjects while indexing reads each record once.
        $body = '$all = yioop_codec\archive\getObjects($archive, 0, 3, false, null, 1 << 30);'
            . '$result = array_map(fn($pair) => $pair[1]["TITLE"], $all);';
        [$titles, $stats] = self::runWith('64M', $body);
        $this->assertSame(['one', 'two', 'three'], $titles);
        $this->assertSame([0, 0, 0], [$stats['hits'], $stats['misses'], $stats['held_bytes']]);
    }

    public function testPhpinfoShowsTheLimit(): void
    {
        [, , $row] = self::runWith('512K', '$result = null;');
        $this->assertStringContainsString('512 KiB', $row);
    }

    public function testAnUnreadableSizeKeepsTheDefault(): void
    {
        [, $stats, , $printed] = self::runWith('lots', '$result = null;');
        $this->assertSame(64 << 20, $stats['limit_bytes']);
        $this->assertStringContainsString("yioop.summary_cache_size: 'lots' is not a size", $printed);
    }
}
