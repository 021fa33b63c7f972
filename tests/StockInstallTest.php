<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * Yioop installed as its installer does it (ConfigureTool writes every
 * Profile.php value as a string), indexed, and searched with QueryTool, once
 * as Yioop wrote it without the extension and once switched over by
 * yioop-integrate.php with it: every answer must be identical
 * (tests/live/stock-install.php). Needs a Yioop 2021-line tree; skipped
 * without YIOOP_DIR. The extension tested is YIOOP_CODEC_SO, else this
 * checkout's target/release build.
 */
class StockInstallTest extends TestCase
{
    public function testAStockInstallSearchesTheSameWithAndWithoutTheExtension(): void
    {
        $yioop = getenv('YIOOP_DIR');
        if (!$yioop) {
            $this->markTestSkipped('set YIOOP_DIR to a Yioop 2021-line tree to search a stock '
                . 'install with and without the extension, e.g. YIOOP_DIR=/path/to/yioop '
                . 'php -d extension=target/release/libyioop_codec.so /usr/bin/phpunit '
                . '--filter StockInstall (or run php tests/live/stock-install.php YIOOP_DIR)');
        }
        $script = dirname(__DIR__) . '/tests/live/stock-install.php';
        exec(escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg($script) . ' '
            . escapeshellarg($yioop) . ' 2>&1', $output, $status);
        $report = implode("\n", $output);
        $this->assertSame(0, $status, $report);
        $this->assertMatchesRegularExpression('/^\d+ queries: all identical/m', $report);
        $this->assertDoesNotMatchRegularExpression('/^DIFFERENT/m', $report);
    }
}
