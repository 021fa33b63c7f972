<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * bench/search/run.php's identity check on its small corpus (--quick
 * --identity-only, no timing): Yioop installed by its installer, a crawl by
 * its own QueueServer and Fetcher of a few hundred Debian documentation
 * pages, then Yioop's search page served by nginx + php-fpm from four
 * copies (plain, switched + the extension, each with and without tracing
 * JIT) must be byte-identical for every query. Needs YIOOP_DIR and the
 * packages of bench/search/setup.sh; skipped otherwise. The crawl takes a
 * few minutes: YIOOP_SEARCH_CRAWL=DIR reuses one kept by
 * `php bench/search/run.php --quick --crawl-only --work=DIR`.
 * The extension tested is YIOOP_CODEC_SO, else target/release's build; the
 * switched pool's yioop.format is the one yioop-integrate.php recommends for
 * the tree, so this runs in tests/run.sh's first PHPUnit pass only.
 */
class SearchPageTest extends TestCase
{
    public function testYioopsSearchPageOnACrawledCorpusIsIdenticalWithTheExtension(): void
    {
        $yioop = getenv('YIOOP_DIR');
        if (!$yioop) {
            $this->markTestSkipped('set YIOOP_DIR to a Yioop 2021-line tree (and run '
                . 'bench/search/setup.sh once) to crawl a small corpus with Yioop and compare '
                . 'its search page with and without the extension: YIOOP_DIR=/path/to/yioop '
                . 'php /usr/bin/phpunit --filter SearchPage (or YIOOP_DIR=... php '
                . 'bench/search/run.php --quick --identity-only)');
        }
        if (filter_var(ini_get('yioop.opencl'), FILTER_VALIDATE_BOOLEAN) || ini_get('yioop.format') === '2015') {
            $this->markTestSkipped('the same check as in the default pass: the benchmark sets '
                . 'its own pools\' ini');
        }
        $this->needs(['nginx', 'php-fpm' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION],
            '/usr/share/doc/git-doc/git.html');
        $crawl = getenv('YIOOP_SEARCH_CRAWL');
        [$status, $report] = $this->runBenchmark([...($crawl ? ["--reuse=$crawl"] : []), '--quick',
            '--identity-only']);
        $this->assertSame(0, $status, $report);
        $this->assertMatchesRegularExpression('/^\d+ queries x 4 configurations: all identical$/m',
            $report);
        $this->assertDoesNotMatchRegularExpression('/^(DIFFERENT|PROBLEM)/m', $report);
        $this->assertMatchesRegularExpression('/^same +[1-9]/m', $report, 'nothing found');
    }

    private function needs(array $programs, string $corpus_file): void
    {
        foreach ($programs as $program) {
            exec('PATH="$PATH:/usr/sbin:/sbin" command -v ' . escapeshellarg($program), $out,
                $status);
            if ($status !== 0) {
                $this->markTestSkipped("$program is not installed: run bench/search/setup.sh");
            }
        }
        if (!is_file($corpus_file)) {
            $this->markTestSkipped("no corpus ($corpus_file): run bench/search/setup.sh");
        }
    }

    /** [exit status, report] of bench/search/run.php ...$options */
    private function runBenchmark(array $options): array
    {
        $script = dirname(__DIR__, 2) . '/bench/search/run.php';
        exec(implode(' ', array_map('escapeshellarg', [PHP_BINARY, $script, ...$options]))
            . ' 2>&1', $output, $status);
        return [$status, implode("\n", $output)];
    }
}
