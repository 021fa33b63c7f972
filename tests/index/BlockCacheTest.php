<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

/**
 * yioop.block_cache_size and yioop_codec\shard\blockCacheStats(): shard
 * objects of one file share the blocks read, up to the limit, and the
 * counts say so. Each case runs in a PHP process of its own, the setting
 * given on its command line, as an operator's php.ini gives it.
 */
class BlockCacheTest extends TestCase
{
    /**
     * Two objects of one shard each read the same 16 blocks: [stats,
     * phpinfo row, what PHP printed before them].
     */
    private static function readTwice(string $size): array
    {
        $script = 'require ' . var_export(__DIR__ . '/../support/RecordedShard.php', true) . ';'
            . '$file = ' . var_export(__DIR__ . '/../fixtures/shard/shard-0.bin', true) . ';'
            . 'foreach ([0, 1] as $object) {'
            . '  $shard = new YioopCodec\Tests\RecordedShard($file, true);'
            . '  for ($i = 0; $i < 16; $i++) {'
            . '    yioop_codec\shard\getShardSubstring($shard, 40 + $i * 4096, 8);'
            . '  }'
            . '}'
            . 'ob_start(); phpinfo(INFO_MODULES); $info = ob_get_clean();'
            . 'preg_match("/^Block cache per process.*$/m", $info, $row);'
            . 'echo json_encode([yioop_codec\shard\blockCacheStats(), $row[0] ?? ""]);';
        return SettingProcess::run('yioop.block_cache_size', $size, $script);
    }

    public static function sizes(): iterable
    {
        // [setting, hits, misses, start-overs]: 16 blocks of 4 KiB read twice
        yield 'default 64M: the second object hits' => ['64M', 16, 16, 0];
        yield 'none (0): every read misses' => ['0', 0, 32, 32];
        yield '8 KiB: past two blocks it starts over, every third read' => ['8K', 0, 32, 10];
    }

    /** @dataProvider sizes */
    #[DataProvider('sizes')]
    public function testHitsAndMissesFollowTheLimit(string $size, int $hits, int $misses, int $start_overs): void
    {
        [$stats] = self::readTwice($size);
        $this->assertSame([$hits, $misses, $start_overs],
            [$stats['hits'], $stats['misses'], $stats['start_overs']]);
        $this->assertSame([
            '64M' => 64 << 20, '0' => 0, '8K' => 8 << 10][$size], $stats['limit_bytes']);
    }

    public function testPhpinfoShowsTheLimit(): void
    {
        [, $row] = self::readTwice('512K');
        $this->assertStringContainsString('512 KiB', $row);
    }

    public function testAnUnreadableSizeKeepsTheDefault(): void
    {
        [$stats, , $printed] = self::readTwice('lots');
        $this->assertSame(64 << 20, $stats['limit_bytes']);
        $this->assertStringContainsString("yioop.block_cache_size: 'lots' is not a size", $printed);
    }
}
