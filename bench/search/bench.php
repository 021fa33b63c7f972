<?php
/**
 * bench/search/run.php's benchmark: four copies of the crawled install
 * served by nginx + php-fpm with opcache (stock-web.php's SearchPages), the
 * same queries asked of each, alternating request by request; the pages
 * must be byte-identical after stock-web.php's masks.
 */
declare(strict_types=1);

require_once __DIR__ . "/corpus.php";
require_once __DIR__ . "/profile-report.php";
require_once __DIR__ . "/load.php";

const JIT_INI = ["opcache.jit" => "tracing", "opcache.jit_buffer_size" => "64M"];
/** The configurations, in the order printed: [name, switched + extension, JIT] */
const CONFIGS = [["plain", false, false], ["switched", true, false],
    ["plain+jit", false, true], ["switched+jit", true, true]];

/**
 * $options["queries"]: the queries ([query, per page, first, class]) instead of the corpus's;
 * $options["link_indexes"]: every served copy's indexes hard-linked (copyWork).
 */
function benchSearchPages(string $dir, array $crawl, string $so, array $options): int
{
    if (!is_file($so)) {
        throw new SetUpFailure("no extension at $so (cargo build --release, or --so=PATH)");
    }
    $tmp = sys_get_temp_dir() . "/yioop-search-bench-" . getmypid();
    mkdir($tmp, 0711);
    try {
        return benchIn($tmp, $dir, $crawl, realpath($so), $options);
    } finally {
        if (!$options["keep"]) {
            exec("rm -rf " . escapeshellarg($tmp));
        } else {
            echo "served copies kept: $tmp\n";
        }
    }
}

function benchIn(string $tmp, string $dir, array $crawl, string $so, array $options): int
{
    $plain = new Php(phpIniWithoutYioop("cli", "$tmp/conf.d"), [], "plain");
    $queries = $options["queries"] ?? benchQueries($dir, $crawl, $options["quick"]);
    $link_indexes = $options["link_indexes"] ?? false;
    $pages = new SearchPages("$tmp/web", $link_indexes);
    $profiles = "$tmp/profiles";
    mkdir($profiles, 0777);
    chmod($profiles, 0777);
    $format = null;
    foreach (CONFIGS as [$name, $switched, $jit]) {
        $tree = copyTree("$dir/install", "$tmp/" . str_replace("+", "-", $name), "$dir/work");
        $ini = $jit ? JIT_INI : [];
        if ($switched) {
            // each switched copy, JIT's too, with its own work directory's
            // app/locale (the en_US Tokenizer Yioop loads)
            $own_work = ownWorkDirectory($tree, "$dir/work", $plain, $link_indexes);
            $format = switchOver($tree, $plain);
            $ini += ["extension" => $so, "yioop.format" => $format] + extensionIni();
        }
        $pool = ["php_admin_value[auto_prepend_file] = " . __DIR__
            . ($options["profile"] ? "/profile.php" : "/quiet.php"),
            "env[SEARCH_BENCH_PROFILE] = $profiles/" . str_replace("+", "-", $name) . ".txt"];
        $pages->add($name, $tree, $switched ? $own_work : "$dir/work", $plain, $ini, $switched,
            $pool, FPM_CHILDREN, !$switched);
    }
    try {
        $pages->start();
        echo count($queries) . " queries; plain on " . $pages->url("plain") . ", switched on "
            . $pages->url("switched") . " (nginx, php-fpm with opcache; +jit: "
            . "opcache.jit=tracing)\n";
        $timings = [];
        $different = askAllPasses($pages, $queries, $options, $timings);
        holdWhileAsked($pages);
        echo $pages->masked() . "requests Yioop made to its own site: "
            . $pages->ownRequests() . "\n";
        loadAndColdPhases($pages, $queries, $options);
    } finally {
        $pages->stop();
    }
    return reportRun($options, $timings, $queries, $profiles, "printProfiles", $different);
}

/**
 * With env SEARCH_BENCH_HOLD=FILE, after the timed passes: each
 * configuration's URL written to FILE ("name url" lines), and the pools
 * kept serving until FILE is removed, to profile or time warm workers from
 * outside (perf -p, strace -p, curl).
 */
function holdWhileAsked(SearchPages $pages): void
{
    $file = (string)getenv("SEARCH_BENCH_HOLD");
    if ($file === "") {
        return;
    }
    file_put_contents($file, implode("", array_map(fn($name) => "$name " . $pages->url($name) . "\n",
        array_column(CONFIGS, 0))));
    do {
        sleep(1);
        clearstatcache(true, $file); // else is_file answers from PHP's stat cache forever
    } while (is_file($file));
}

/**
 * Every query through every configuration (one pass for identity only,
 * else a warm-up and the timed rounds), and the set-up's problems counted
 * with the differing pages.
 */
function askAllPasses(SearchPages $pages, array $queries, array $options, array &$timings): int
{
    $different = askAll($pages, $queries, $options["identity_only"] ? 1 : 1 + $options["rounds"],
        $timings);
    foreach ($pages->problems() as $problem) {
        echo "PROBLEM    $problem\n";
        $different++;
    }
    return $different;
}

/**
 * The end of a run: timings unless only identity was asked, the profiles
 * (by $print_profiles) when asked, and the verdict; the exit status.
 */
function reportRun(array $options, mixed $timings, array $queries, mixed $profiles,
    callable $print_profiles, int $different): int
{
    if (!$options["identity_only"]) {
        printTimings($timings, $queries);
    }
    if ($options["profile"]) {
        $print_profiles($profiles, array_column(CONFIGS, 0));
    }
    printf("\n%d queries x %d configurations: %s\n", count($queries), count(CONFIGS),
        $different == 0 ? "all identical" : "$different DIFFERENT");
    return $different == 0 ? 0 : 1;
}

/**
 * The entry point the search benchmarks share: their options, a work
 * directory under $name (kept with --keep, --work or --reuse), $run's exit
 * status, a set-up failure as status 2.
 */
function benchMain(string $name, callable $run): never
{
    $options = getopt("", ["quick", "keep", "work:", "reuse:", "crawl-only", "identity-only",
        "rounds:", "so:", "profile", "corpus-port:"]);
    $yioop = rtrim((string)getenv("YIOOP_DIR"), "/");
    $dir = $options["reuse"] ?? $options["work"] ?? sys_get_temp_dir() . "/yioop-$name-"
        . getmypid();
    $keep = isset($options["keep"]) || isset($options["reuse"]) || isset($options["work"]);
    try {
        $status = $run($yioop, $dir, $options);
    } catch (Throwable $e) {
        fwrite(STDERR, "set-up failed: " . $e->getMessage() . ($e instanceof SetUpFailure ? ""
            : " (" . get_class($e) . " at " . basename($e->getFile()) . ":" . $e->getLine() . ")")
            . "\n");
        $status = 2;
    }
    if (!$keep && is_dir($dir)) {
        exec("rm -rf " . escapeshellarg($dir));
    } elseif (is_dir($dir)) {
        echo "kept: $dir\n";
    }
    exit($status);
}

/** The query set, from the corpus's words; checked to find results on the plain side later. */
function benchQueries(string $dir, array $crawl, bool $quick): array
{
    $port = (int)parse_url($crawl["corpus_url"], PHP_URL_PORT);
    $corpus = new DocCorpus("$dir/corpus", $port, $crawl["quick"]);
    return searchQueries($corpus->wordFrequencies(), count($corpus->pages), $quick,
        "127.0.0.1");
}

/**
 * Pass 0 warms every configuration up (and is compared); passes 1.. are
 * timed. Within a pass, each query is asked of every configuration in turn,
 * the first one rotating, so that no configuration is always first after
 * another's request. Returns how many pages differed from plain's.
 */
function askAll(SearchPages $pages, array $queries, int $passes, array &$timings): int
{
    $names = array_column(CONFIGS, 0);
    $reference = [];
    $different = 0;
    $found = 0;
    for ($pass = 0; $pass < $passes; $pass++) {
        foreach ($queries as $i => [$query, $per_page, $first, $class]) {
            $args = [$query, (string)$per_page, (string)$first];
            foreach (inTurn($names, $pass + $i) as $name) {
                $answer = $pages->page($name, $args);
                if ($pass > 0) {
                    $timings[$name][$class][] = $pages->last_seconds;
                }
                if (!$answer["answered"]) {
                    throw new SetUpFailure("$name gave no search page for '$query': "
                        . "$answer[how]\n" . tail($answer["out"]));
                }
                $reference[$i] ??= $name === "plain" ? $answer : null;
                $diff = isset($reference[$i]) && $reference[$i] != $answer;
                if ($diff) {
                    $different++;
                    echo "DIFFERENT  '$query' ($name, pass $pass)\n"
                        . firstDifference($reference[$i]["out"], $answer["out"]);
                }
            }
            if ($pass == 0) {
                $found += $reference[$i]["shown"] > 0 ? 1 : 0;
                printf("same       %-16s %s\n", shown($reference[$i]), "'$query' ($class)");
            }
        }
    }
    if ($found == 0) {
        throw new SetUpFailure("Yioop found nothing for any query: the index is not searched");
    }
    return $different;
}

/**
 * p50, p95 and requests/s per configuration and per query class, with the
 * ratios. $wall_rps (name => pages per wall second, under load): the
 * requests/s instead of one client's (pages per second of their latencies),
 * and no per-class requests/s.
 */
function printTimings(array $timings, array $queries, array $wall_rps = [],
    string $clients = "one client"): void
{
    $classes = array_values(array_unique(array_column($queries, 3)));
    $stats = [];
    foreach ($timings as $name => $by_class) {
        $stats[$name]["all"] = latencyStats(array_merge(...array_values($by_class)));
        foreach ($classes as $class) {
            $stats[$name][$class] = latencyStats($by_class[$class] ?? []);
        }
        $stats[$name]["all"]["rps"] = $wall_rps[$name] ?? $stats[$name]["all"]["rps"];
    }
    echo "\nsearch page latency (the page's own request; ms) and requests/s ($clients):\n";
    printf("%-14s %8s %8s %8s %6s\n", "", "p50", "p95", "req/s", "n");
    foreach (array_column(CONFIGS, 0) as $name) {
        $s = $stats[$name]["all"];
        printf("%-14s %8.1f %8.1f %8.2f %6d\n", $name, $s["p50"] * 1e3, $s["p95"] * 1e3,
            $s["rps"], $s["n"]);
    }
    foreach ([["switched", "plain"], ["switched+jit", "plain+jit"]] as [$a, $b]) {
        $x = $stats[$a]["all"];
        $y = $stats[$b]["all"];
        printf("ratio %-12s p50 %.2fx, p95 %.2fx, requests/s %.2fx\n", "$a/$b",
            $y["p50"] / $x["p50"], $y["p95"] / $x["p95"], $x["rps"] / $y["rps"]);
    }
    $tables = ["p50" => [1e3, "p50 by query class (ms)"], "p95" => [1e3, "p95 by query class (ms)"]]
        + ($wall_rps ? [] : ["rps" => [1, "requests/s by query class"]]);
    foreach ($tables as $stat => [$scale, $title]) {
        echo "\n$title:\n" . sprintf("%-14s", "");
        foreach ($classes as $class) {
            printf(" %10s", $class);
        }
        echo "\n";
        foreach (array_column(CONFIGS, 0) as $name) {
            printf("%-14s", $name);
            foreach ($classes as $class) {
                printf(" %10.1f", $stats[$name][$class][$stat] * $scale);
            }
            echo "\n";
        }
    }
}

/** $names starting at the $turn-th (modulo their count), so that none is always first. */
function inTurn(array $names, int $turn): array
{
    $turn %= count($names);
    return [...array_slice($names, $turn), ...array_slice($names, 0, $turn)];
}

function latencyStats(array $seconds): array
{
    sort($seconds);
    $n = count($seconds);
    $at = fn(float $q) => $n ? $seconds[min($n - 1, (int)ceil($q * $n) - 1)] : NAN;
    return ["p50" => $at(0.5), "p95" => $at(0.95), "n" => $n,
        "rps" => $n ? $n / array_sum($seconds) : NAN];
}

/**
 * More INI settings for the switched pools, from env YIOOP_CODEC_INI
 * ("yioop.summary_cache_size=64M yioop.block_cache_size=32M"): to compare
 * the extension's settings on one site.
 */
function extensionIni(): array
{
    $ini = [];
    foreach (preg_split('/\s+/', trim((string)getenv("YIOOP_CODEC_INI")), -1, PREG_SPLIT_NO_EMPTY) as $pair) {
        [$name, $value] = explode("=", $pair, 2) + [1 => ""];
        $ini[$name] = $value;
    }
    return $ini;
}
