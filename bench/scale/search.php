<?php
/**
 * Yioop's search page on an index bench/scale/run.php built (issue 28):
 *
 *   YIOOP_DIR=/path/to/yioop-2021 php bench/scale/search.php --pages=N
 *       [--per-generation=M] [--data=/var/tmp/yioop-scale] [--seed=1]
 *       [--rounds=3] [--so=PATH] [--identity-only] [--keep] [--profile]
 *       [--clients=4 [--load-requests=10000]] [--cold] [--classes=frequent,mid]
 *
 * 1. Site: YIOOP_DIR installed as its installer does (stock-setup.php) in
 *    DATA/site-N-gM, the kept index DATA/N-gM/yioop-off/IndexData* hard-linked
 *    into its work directory and made the current index (crawl-control.php
 *    set-index). Reused when it exists.
 * 2. Queries (about 120), drawn with the seed from the document
 *    frequencies of the words the index holds (indexedWords): "frequent",
 *    the 12 most frequent words; "high", 12 other words in at least 30% of
 *    the pages (fewer if the band has fewer); "mid", in 1-5%; "low", in at
 *    most 10 pages; "and2" and "and3", 24 conjunctions each of high words
 *    and one high or mid word; "operator", quoted title phrases, exclusion, site: and
 *    alternatives.
 * 3. bench/search/bench.php's benchmark on that site: four copies (plain,
 *    switched + extension, each without and with tracing JIT) served by
 *    nginx + php-fpm, each its own NAME_SERVER, each copy's index hard-linked
 *    (exit 1 if a search changed a file of it); p50, p95 and requests/s per
 *    class; every page must be identical (exit 1 if not). --profile: excimer
 *    in every worker, shares by function and class per configuration.
 * 4. --clients=C: then each configuration under C concurrent clients for
 *    --load-requests pages (default 2,000), with its php-fpm workers' RSS
 *    and, with the extension, the block cache's hit rate; --cold: then one
 *    pass after a restart with the page cache dropped (bench/search/load.php).
 *
 * The index is DATA/N-gM/yioop-off's, or ext-off's where only the
 * extension built it (sizes past the ones checked for identical indexes).
 */
declare(strict_types=1);

require_once __DIR__ . "/pages.php";
require_once __DIR__ . "/mirrors.php";
require_once dirname(__DIR__, 2) . "/tests/tools/yioop/stock-web.php";
require_once dirname(__DIR__) . "/search/bench.php";

const CRAWL_TIME = "1700000000"; // bench/crawl/worker.php's crawl
const PER_CLASS = 12;

$options = getopt("", ["pages:", "per-generation:", "data:", "seed:", "rounds:", "so:",
    "identity-only", "keep", "profile", "clients:", "load-requests:", "cold", "classes:"]);
$yioop = rtrim((string)getenv("YIOOP_DIR"), "/");
$pages = (int)($options["pages"] ?? 0);
if ($pages <= 0 || !is_file("$yioop/src/executables/QueueServer.php")) {
    fwrite(STDERR, "usage: YIOOP_DIR=<Yioop 2021 tree> php bench/scale/search.php --pages=N "
        . "[--per-generation=M] [--data=DIR] [--seed=S] [--rounds=R] [--so=PATH] "
        . "[--identity-only] [--keep] [--profile] [--clients=C [--load-requests=R]] [--cold] "
        . "[--classes=C1,C2]\n");
    exit(2);
}
$data = rtrim($options["data"] ?? "/var/tmp/yioop-scale", "/");
$generation = "g" . ($options["per-generation"] ?? "default");
$seed = (int)($options["seed"] ?? 1);
$so = $options["so"] ?? (getenv("YIOOP_CODEC_SO") ?: dirname(__DIR__, 2)
    . "/target/release/libyioop_codec.so");
try {
    $site = site($yioop, $data, "$pages-$generation");
    $mirrors = mirrorsOf("$data/batches-$pages-s$seed");
    if ($mirrors > 1) {
        printf("index: %d documents, %d pages each served by %d hosts (run.php --mirrors)\n",
            $pages, intdiv($pages, $mirrors), $mirrors);
    }
    $queries = scaleQueries(indexedWords($data, $pages, $seed), $pages, $seed);
    if (isset($options["classes"])) { // the same draw, fewer classes (to profile one)
        $classes = explode(",", $options["classes"]);
        $queries = array_values(array_filter($queries, fn($q) => in_array($q[3], $classes, true)));
    }
    $index_before = indexFiles($site);
    $status = benchSearchPages($site, json_decode((string)file_get_contents("$site/crawl.json"), true),
        $so, ["quick" => false, "identity_only" => isset($options["identity-only"]),
        "rounds" => (int)($options["rounds"] ?? 3), "profile" => isset($options["profile"]),
        "keep" => isset($options["keep"]), "queries" => $queries,
        "clients" => (int)($options["clients"] ?? 0),
        "load_requests" => (int)($options["load-requests"] ?? 2000),
        "cold" => isset($options["cold"]), "link_indexes" => true]);
    if (indexFiles($site) !== $index_before) {
        fwrite(STDERR, "the index changed while it was searched: its hard-linked copies are not "
            . "independent (site-*'s work/cache/IndexData*)\n");
        exit(1);
    }
    exit($status);
} catch (SetUpFailure $e) {
    fwrite(STDERR, "set-up failed: " . $e->getMessage() . "\n");
    exit(2);
}

/**
 * Each file of the site's index with its size and modification time. The
 * site and every served copy hard-link the index built in DATA, so a search
 * that wrote into it would show here.
 */
function indexFiles(string $site): array
{
    $files = [];
    foreach (glob("$site/work/cache/IndexData*") as $index) {
        $walk = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($index,
            FilesystemIterator::SKIP_DOTS));
        foreach ($walk as $path => $file) {
            $files[$path] = [$file->getSize(), $file->getMTime()];
        }
    }
    ksort($files);
    return $files;
}

/**
 * DATA/site-NAME: an installed Yioop whose current index is DATA/NAME's,
 * hard-linked (searches only read an index; main checks that none changed).
 */
function site(string $yioop, string $data, string $name): string
{
    $site = "$data/site-$name";
    if (is_file("$site/crawl.json")) {
        return $site;
    }
    $index = glob("$data/$name/{yioop,ext}-off/IndexData*", GLOB_BRACE)[0] ?? null;
    if ($index === null) {
        throw new SetUpFailure("no index in $data/$name/yioop-off or ext-off: run "
            . "bench/scale/run.php first");
    }
    exec("rm -rf " . escapeshellarg($site));
    mkdir($site, 0755, true);
    $plain = new Php(phpIniWithoutYioop("cli", "$site/conf.d"), [], "plain");
    $tree = installYioop($yioop, "$site/install", "$site/work", $plain);
    shell("cp -al " . escapeshellarg($index) . " " . escapeshellarg("$site/work/cache/"));
    $plain->mustRun([dirname(__DIR__) . "/search/crawl-control.php", $tree, "set-index",
        CRAWL_TIME], $tree, "crawl-control.php set-index");
    file_put_contents("$site/crawl.json", json_encode(["crawl_time" => (int)CRAWL_TIME,
        "quick" => false, "corpus_url" => "http://127.0.0.1:" . SCALE_PORT . "/",
        "index" => $index], JSON_PRETTY_PRINT) . "\n");
    return $site;
}

/**
 * What the index holds of the N pages, read from their batches (cached in
 * DATA): the document frequency of each word of 3-20 letters in the pages'
 * titles and descriptions (the text Yioop indexes of a page, not the whole
 * HTML), most frequent first, and the pairs of adjacent title words (for
 * quoted phrases).
 */
function indexedWords(string $data, int $pages, int $seed): array
{
    $file = "$data/words-$pages-s$seed.json";
    if (!is_file($file)) {
        $frequency = [];
        $pairs = [];
        foreach (glob("$data/batches-$pages-s$seed/*.txt") as $batch) {
            foreach (uploadSites((string)file_get_contents($batch)) as $text) {
                $site = unserialize($text);
                if (($site["e"] ?? "") === "link") { // CrawlConstants::TYPE
                    continue;
                }
                // CrawlConstants::TITLE, DESCRIPTION
                preg_match_all('/\b[a-z]{3,20}\b/', strtolower(($site["s"] ?? "") . " "
                    . ($site["t"] ?? "")), $words);
                foreach (array_unique($words[0]) as $word) {
                    $frequency[$word] = ($frequency[$word] ?? 0) + 1;
                }
                if (preg_match('/\b([a-z]{3,20}) ([a-z]{3,20})\b/', strtolower($site["s"] ?? ""),
                    $pair)) {
                    $pairs[] = "$pair[1] $pair[2]";
                }
            }
        }
        uksort($frequency, fn($a, $b) => [$frequency[$b], $a] <=> [$frequency[$a], $b]);
        file_put_contents($file, json_encode(["frequency" => $frequency, "pairs" => $pairs]));
    }
    return json_decode((string)file_get_contents($file), true);
}

/**
 * The query mix (see the file's comment): [query, 10, 0, class], drawn
 * with $seed; within a class no query twice, and the bands leave out the
 * "frequent" words.
 */
function scaleQueries(array $words, int $pages, int $seed): array
{
    mt_srand($seed, MT_RAND_MT19937);
    $frequency = $words["frequency"];
    $frequent = array_slice(array_keys($frequency), 0, PER_CLASS);
    $rest = array_diff_key($frequency, array_flip($frequent));
    $bands = [
        "high" => array_keys(array_filter($rest, fn($f) => $f >= 0.3 * $pages)),
        "mid" => array_keys(array_filter($rest, fn($f) => $f >= 0.01 * $pages
            && $f <= 0.05 * $pages)),
        "low" => array_keys(array_filter($rest, fn($f) => $f <= 10)),
    ];
    $draw = function (array $from, int $n): array {
        $picked = [];
        for ($tries = 0; count($picked) < min($n, count($from)) && $tries < 100 * $n; $tries++) {
            $picked[$from[mt_rand(0, count($from) - 1)]] = true;
        }
        return array_keys($picked);
    };
    $queries = [];
    foreach ($frequent as $word) {
        $queries[] = [$word, "frequent"];
    }
    foreach ($bands as $band => $candidates) {
        foreach ($draw($candidates, PER_CLASS) as $word) {
            $queries[] = [$word, $band];
        }
    }
    // Conjunctions of words that occur often enough to meet: all high but
    // the last, which is high or mid.
    $high_or_mid = array_merge($bands["high"], $bands["mid"]);
    $and = fn(int $n) => implode(" ", array_unique([...$draw($bands["high"] ?: $frequent, $n - 1),
        ...$draw($high_or_mid, 1)]));
    for ($i = 0; $i < 2 * PER_CLASS; $i++) {
        $queries[] = [$and(2), "and2"];
        $queries[] = [$and(3), "and3"];
    }
    $phrases = $draw($words["pairs"], PER_CLASS / 2);
    $high = $draw($bands["high"] ?: $frequent, PER_CLASS / 2);
    $mid = $draw($bands["mid"], PER_CLASS);
    $low = $draw($bands["low"], PER_CLASS / 2);
    for ($i = 0; $i < PER_CLASS / 2; $i++) {
        $queries[] = ["\"" . $phrases[$i % count($phrases)] . "\"", "operator"];
        $queries[] = [$high[$i % count($high)] . " -" . $mid[$i], "operator"];
        $queries[] = [$mid[PER_CLASS / 2 + $i] . " site:127.0.0.1", "operator"];
        $queries[] = [$mid[$i] . " | " . $low[$i], "operator"];
    }
    return array_map(fn($q) => [$q[0], 10, 0, $q[1]], $queries);
}
