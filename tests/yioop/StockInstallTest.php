<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * Yioop installed as its installer does it (ConfigureTool writes every
 * Profile.php value as a string), indexed, and searched once as Yioop wrote
 * it without the extension and once switched over by yioop-integrate.php
 * with it: every answer must be identical (tests/tools/yioop/stock-install.php).
 * First through QueryTool, then through Yioop's search page served by nginx
 * and php-fpm with opcache (--web). Needs a Yioop 2021-line tree; skipped
 * without YIOOP_DIR. The extension tested is YIOOP_CODEC_SO, else this
 * checkout's target/release build.
 */
class StockInstallTest extends TestCase
{
    public function testAStockInstallSearchesTheSameWithAndWithoutTheExtension(): void
    {
        $this->assertAllIdentical($this->stockInstall($this->yioopDir(), []));
    }

    public function testItsSearchPageServedByNginxAndPhpFpmIsTheSameWithAndWithoutTheExtension(): void
    {
        $yioop = $this->yioopDir();
        $fpm = 'php-fpm' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION;
        foreach (['nginx' => 'nginx', $fpm => $fpm] as $program => $package) {
            if (!$this->installed($program)) {
                $this->markTestSkipped("$program is not installed: apt-get install -y $package "
                    . '(the test starts its own servers on 127.0.0.1 and needs no service of '
                    . "the package's)");
            }
        }
        $this->assertAllIdentical($this->stockInstall($yioop, ['--web']));
    }

    private function yioopDir(): string
    {
        $yioop = getenv('YIOOP_DIR');
        if (!$yioop) {
            $this->markTestSkipped('set YIOOP_DIR to a Yioop 2021-line tree to search a stock '
                . 'install with and without the extension, e.g. YIOOP_DIR=/path/to/yioop '
                . 'php -d extension=target/release/libyioop_codec.so /usr/bin/phpunit '
                . '--filter StockInstall (or run php tests/tools/yioop/stock-install.php YIOOP_DIR '
                . '[--web])');
        }
        return $yioop;
    }

    /** [exit status, report] of tests/tools/yioop/stock-install.php $yioop ...$options */
    private function stockInstall(string $yioop, array $options): array
    {
        $script = dirname(__DIR__, 2) . '/tests/tools/yioop/stock-install.php';
        exec(implode(' ', array_map('escapeshellarg', [PHP_BINARY, $script, $yioop, ...$options]))
            . ' 2>&1', $output, $status);
        return [$status, implode("\n", $output)];
    }

    private function assertAllIdentical(array $run): void
    {
        [$status, $report] = $run;
        $this->assertSame(0, $status, $report);
        $this->assertMatchesRegularExpression('/^\d+ queries: all identical/m', $report);
        $this->assertDoesNotMatchRegularExpression('/^(DIFFERENT|PROBLEM)/m', $report);
    }

    private function installed(string $program): bool
    {
        exec('PATH="$PATH:/usr/sbin:/sbin" command -v ' . escapeshellarg($program), $out, $status);
        return $status === 0;
    }
}
