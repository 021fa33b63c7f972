<?php
/**
 * Yioop's real search page, timed (issue 18):
 *
 *   YIOOP_DIR=/path/to/yioop-2021 php bench/search/run.php [--quick] [--keep]
 *       [--work=DIR] [--reuse=DIR] [--crawl-only] [--identity-only] [--rounds=N]
 *       [--so=PATH] [--profile] [--corpus-port=8471]
 *
 * 1. crawl.php: installs YIOOP_DIR as Yioop's installer does, serves the
 *    Debian documentation corpus with nginx on 127.0.0.1 and crawls it with
 *    Yioop's own QueueServer and Fetcher (the Fetcher's uploads saved in
 *    DIR/batches); the crawl becomes the current index. --reuse=DIR takes a
 *    finished crawl from an earlier --work=DIR (--keep) instead.
 * 2. bench.php: serves four copies of the installed tree with nginx + php-fpm
 *    (opcache on): plain (Yioop alone), plain + tracing JIT, switched by
 *    php/yioop-integrate.php with the extension (--so, else env
 *    YIOOP_CODEC_SO, else target/release/libyioop_codec.so), and switched +
 *    JIT; asks each the same queries, alternating request by request, and
 *    prints p50, p95 and requests/s per configuration with the ratios.
 *
 * Exit status: 0 every page identical; 1 a difference; 2 the set-up failed.
 * --quick: a few hundred pages and a short query set; --identity-only: one
 * pass, no timing (the test's check); --profile: excimer in the fpm workers,
 * shares by function and class per configuration.
 */
declare(strict_types=1);

require_once dirname(__DIR__, 2) . "/tests/tools/yioop/stock-setup.php";
require_once dirname(__DIR__, 2) . "/tests/tools/yioop/stock-web.php";
require_once __DIR__ . "/crawl.php";
require_once __DIR__ . "/bench.php";

benchMain("search", "runBenchmark");

function runBenchmark(string $yioop, string $dir, array $options): int
{
    if (!isset($options["reuse"])) {
        if ($yioop === "" || !is_file("$yioop/src/executables/QueueServer.php")) {
            throw new SetUpFailure("set YIOOP_DIR to a Yioop 2021-line tree (usage: "
                . "YIOOP_DIR=... php bench/search/run.php [--quick] [--keep] [--work=DIR] "
                . "[--reuse=DIR] [--crawl-only] [--identity-only] [--rounds=N] [--so=PATH] "
                . "[--profile])");
        }
        if (file_exists($dir) && (glob("$dir/*") !== [])) {
            throw new SetUpFailure("--work=$dir is not empty");
        }
        @mkdir($dir, 0755, true);
        chmod($dir, 0755);
        $crawl = crawlCorpus($yioop, realpath($dir), isset($options["quick"]),
            (int)($options["corpus-port"] ?? 8471));
    } else {
        $crawl = json_decode((string)@file_get_contents("$dir/crawl.json"), true);
        if (!is_array($crawl)) {
            throw new SetUpFailure("--reuse=$dir holds no finished crawl (no crawl.json)");
        }
    }
    printf("crawl: %d corpus pages, %d URLs indexed in %ds (%ds with installing), "
        . "index %.1f MB, %d Fetcher uploads (%.1f MB) captured\n", $crawl["corpus_pages"],
        $crawl["visited"] ?? 0, $crawl["crawl_seconds"], $crawl["total_seconds"],
        $crawl["index_bytes"] / 1e6, $crawl["uploads"], $crawl["upload_bytes"] / 1e6);
    if (isset($options["crawl-only"])) {
        return 0;
    }
    $so = $options["so"] ?? (getenv("YIOOP_CODEC_SO") ?: dirname(__DIR__, 2)
        . "/target/release/libyioop_codec.so");
    return benchSearchPages(realpath($dir), $crawl, $so, [
        "quick" => isset($options["quick"]) || $crawl["quick"],
        "identity_only" => isset($options["identity-only"]),
        "rounds" => (int)($options["rounds"] ?? (isset($options["quick"]) ? 2 : 3)),
        "profile" => isset($options["profile"]), "keep" => isset($options["keep"])]);
}
