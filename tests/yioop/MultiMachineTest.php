<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * bench/multi/run.php's identity check on its small corpus (--quick
 * --identity-only, no timing): three installs by Yioop's installer (a name
 * server and two queue servers on 127.0.0.1-3, each its own work directory,
 * nginx server and php-fpm pool), a crawl of a few hundred Debian
 * documentation pages on three hosts split across the queue servers by
 * their own QueueServers and Fetchers, then searches through the name
 * server's page (a raw query and getCrawlItems to each queue server) must
 * be byte-identical between Yioop alone everywhere and switched trees + the
 * extension everywhere, each with and without tracing JIT. Needs YIOOP_DIR,
 * nginx, php-fpm, php8.2-curl and the corpus (bench/search/setup.sh);
 * skipped otherwise. The crawl takes a few minutes: YIOOP_MULTI_CRAWL=DIR
 * reuses one kept by `php bench/multi/run.php --quick --crawl-only --work=DIR`.
 */
class MultiMachineTest extends TestCase
{
    public function testSearchesThroughANameServerAreIdenticalWithTheExtension(): void
    {
        $yioop = getenv('YIOOP_DIR');
        if (!$yioop) {
            $this->markTestSkipped('set YIOOP_DIR to a Yioop 2021-line tree (and run '
                . 'bench/search/setup.sh once) to compare a multi-machine Yioop\'s search page '
                . 'with and without the extension: YIOOP_DIR=... php bench/multi/run.php '
                . '--quick --identity-only');
        }
        if (filter_var(ini_get('yioop.opencl'), FILTER_VALIDATE_BOOLEAN)
            || ini_get('yioop.format') === '2015') {
            $this->markTestSkipped('the same check as in the default pass: the benchmark sets '
                . 'its own pools\' ini');
        }
        foreach (['nginx', 'php-fpm' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION] as $program) {
            exec('PATH="$PATH:/usr/sbin:/sbin" command -v ' . escapeshellarg($program), $out,
                $status);
            if ($status !== 0) {
                $this->markTestSkipped("$program is not installed: run bench/search/setup.sh");
            }
        }
        exec(escapeshellarg(PHP_BINARY) . ' -m', $modules);
        if (!in_array('curl', $modules, true) || !is_file('/usr/share/doc/git-doc/git.html')) {
            $this->markTestSkipped('no php curl or no corpus: run bench/search/setup.sh');
        }
        $crawl = getenv('YIOOP_MULTI_CRAWL');
        $script = dirname(__DIR__, 2) . '/bench/multi/run.php';
        exec(implode(' ', array_map('escapeshellarg', [PHP_BINARY, $script,
            ...($crawl ? ["--reuse=$crawl"] : []), '--quick', '--identity-only'])) . ' 2>&1',
            $output, $status);
        $report = implode("\n", $output);
        $this->assertSame(0, $status, $report);
        $this->assertMatchesRegularExpression('/^\d+ queries x 4 configurations: all identical$/m',
            $report);
        $this->assertDoesNotMatchRegularExpression('/^(DIFFERENT|PROBLEM)/m', $report);
        $this->assertMatchesRegularExpression('/^same +[1-9]/m', $report, 'nothing found');
        // both queue servers hold part of the crawl, and the name server asked them
        $this->assertMatchesRegularExpression('/URLs visited: \{"qs1":[1-9]\d*,"qs2":[1-9]\d*\}/',
            $report);
        $this->assertMatchesRegularExpression('/made to the queue servers: [1-9]/', $report);
    }
}
