<?php
/**
 * Crawl replay: recorded Fetcher uploads fed to Yioop's own QueueServer
 * indexing, Yioop alone against a switched tree with the extension, each
 * without JIT and with tracing JIT:
 *
 *   YIOOP_DIR=/path/to/yioop-2021 php bench/crawl/replay.php [--batches=DIR]
 *       [--repeat=3] [--per-generation=N] [--so=target/release/libyioop_codec.so]
 *       [--jit=off,tracing] [--modes=yioop,ext] [--keep] [--keep-index=DIR]
 *       [--pages=N] [--ext-ini=NAME=VALUE ...]
 *
 * --batches: a folder of the index-data files FetchController stores (one
 * fetcher upload each, taken in name order); --uploads: a folder of
 * captured fetcher requests (*.upload), turned into such files first by
 * uploads-to-batches.php; with neither, 2,000 StockCorpus pages made by
 * make-batches.php. --per-generation sets
 * NUM_DOCS_PER_GENERATION, so that a small crawl switches generations (and
 * merges dictionary tiers) as a large one does. --keep-index=DIR keeps the
 * first run's index directory (IndexData<timestamp>) of each mode and JIT
 * setting in DIR/MODE-JIT/ (bench/scale searches it); --pages=N adds the time per page
 * indexed (N pages in the batches); --ext-ini=NAME=VALUE, repeatable, sets
 * an INI value for the "ext" runs (yioop.compress_threads=1, say).
 *
 * "yioop" runs an unswitched copy of YIOOP_DIR's src/ without the extension,
 * "ext" a copy switched by php/yioop-integrate.php with it; every run is a
 * fresh PHP process on a fresh work directory (bench/crawl/worker.php) with
 * the installer's app/locale, switched too for "ext".
 * Reported: median CPU seconds of the queue server's indexing (taking in
 * the batches, then the crawl's stop: final shard build and dictionary
 * merge), its wall-clock seconds (rows "wall s": CPU seconds count every
 * thread, so yioop.compress_threads shows only there), the ratios, and whether every file of the index directory
 * (IndexData<timestamp>: summaries, shards, dictionary, generation info) is
 * byte-identical across all runs; the exit status is 1 when not. Nothing
 * is masked: the crawl time is fixed, and the index holds no clock reading.
 */
require_once __DIR__ . "/../runs.php";

$options = getopt("", ["batches:", "uploads:", "repeat:", "per-generation:", "so:", "jit:", "modes:", "keep",
    "keep-index:", "pages:", "ext-ini:"]);
// --ext-ini=NAME=VALUE (repeatable): INI settings for the "ext" runs, such
// as yioop.compress_threads=1.
$ext_ini = "";
foreach ((array)($options["ext-ini"] ?? []) as $setting) {
    $ext_ini .= " -d " . escapeshellarg($setting);
}
$repeat = (int)($options["repeat"] ?? 3);
$root = dirname(__DIR__, 2);
$so = realpath($options["so"] ?? "$root/target/release/libyioop_codec.so");
$jits = explode(",", $options["jit"] ?? "off,tracing");
$modes = explode(",", $options["modes"] ?? "yioop,ext");
$per_generation = $options["per-generation"] ?? "";
$yioop = getenv("YIOOP_DIR");
if (!$yioop || !is_file("$yioop/src/executables/QueueServer.php") || !$so) {
    fwrite(STDERR, "usage: YIOOP_DIR=<Yioop 2021 checkout> php bench/crawl/replay.php [options]; "
        . "needs a built extension (cargo build --release)\n");
    exit(2);
}
$tmp = sys_get_temp_dir() . "/yioop-replay-" . getmypid();
mkdir($tmp);
$batches = batchDir($options["batches"] ?? null, $options["uploads"] ?? null, $yioop, $tmp);
$trees = ["yioop" => copyYioop($yioop, "$tmp/plain", null) . "/src",
    "ext" => copyYioop($yioop, "$tmp/switched", $root) . "/src"];
$scan_dir = iniWithoutYioop($tmp);
$results = [];
for ($r = 0; $r < $repeat; $r++) {
    foreach ($jits as $jit) {
        foreach ($modes as $mode) {
            $flags = JIT_FLAGS[$jit] . ($mode == "ext" ? " -d extension=" . escapeshellarg($so) . $ext_ini : "");
            $keep_index = isset($options["keep-index"]) && $r == 0
                ? $options["keep-index"] . "/$mode-$jit" : null;
            $results[$mode][$jit][] = runWorker($scan_dir, $flags, $trees[$mode], "$tmp/work-$mode-$jit-$r",
                $batches, $per_generation, $mode == "ext" ? $root : null, $keep_index);
            fprintf(STDERR, "run %d/%d %s %s done\n", $r + 1, $repeat, $mode, $jit);
        }
    }
}
$identical = report($results, $modes, $jits, $batches, $repeat, (int)($options["pages"] ?? 0));
if (!isset($options["keep"])) {
    exec("rm -rf " . escapeshellarg($tmp));
}
exit($identical ? 0 : 1);

/** The batches to replay: given, made from captured uploads, or made here. */
function batchDir(?string $given, ?string $uploads, string $yioop, string $tmp): string
{
    if ($given !== null) {
        return $given;
    }
    $dir = "$tmp/batches";
    $cmd = $uploads !== null
        ? "php " . escapeshellarg(__DIR__ . "/uploads-to-batches.php") . " " . escapeshellarg($uploads)
        : "YIOOP_DIR=" . escapeshellarg($yioop) . " php " . escapeshellarg(__DIR__ . "/make-batches.php");
    passthru("$cmd " . escapeshellarg($dir) . ($uploads !== null ? "" : " 2000 1 100") . " >&2", $rc);
    if ($rc) {
        exit(2);
    }
    return $dir;
}

/**
 * One worker process; Yioop's log lines and error output go to its log. Its
 * work directory has the installer's layout: src/locale copied to app/locale,
 * where Yioop loads the en_US Tokenizer from; switched by
 * php/yioop-integrate.php in $root when that is given.
 * With $keep_index, its index directory is moved there (replacing one).
 */
function runWorker(string $scan_dir, string $flags, string $src, string $work, string $batches,
    string $per_generation, ?string $root, ?string $keep_index = null): array
{
    mkdir("$work/app", 0777, true);
    exec("cp -r " . escapeshellarg("$src/locale") . " " . escapeshellarg("$work/app/locale")
        . " 2>&1", $out, $rc);
    if (!$rc && $root !== null) {
        exec("php " . escapeshellarg("$root/php/yioop-integrate.php") . " "
            . escapeshellarg(dirname($src)) . " " . escapeshellarg("--work-dir=$work") . " 2>&1",
            $out, $rc);
    }
    $tokenizer = "$work/app/locale/en_US/resources/Tokenizer.php";
    if ($rc || ($root !== null
        && !str_contains((string)@file_get_contents($tokenizer), "yioop-codec:method"))) {
        fwrite(STDERR, "could not set up $work (or switch $tokenizer):\n" . implode("\n", $out)
            . "\n");
        exit(2);
    }
    $out = "$work/result.json";
    $cmd = "PHP_INI_SCAN_DIR=" . escapeshellarg($scan_dir) . " php $flags "
        . escapeshellarg(__DIR__ . "/worker.php") . " " . escapeshellarg($src) . " "
        . escapeshellarg($work) . " " . escapeshellarg($batches) . " " . escapeshellarg($out)
        . " $per_generation > " . escapeshellarg("$work/worker.log") . " 2>&1";
    passthru($cmd, $rc);
    $result = is_file($out) ? json_decode(file_get_contents($out), true) : null;
    if ($rc || !$result) {
        fwrite(STDERR, "worker failed ($rc): $cmd\n");
        exit(2);
    }
    if ($keep_index !== null) {
        exec("rm -rf " . escapeshellarg($keep_index) . " && mkdir -p "
            . escapeshellarg($keep_index) . " && mv " . escapeshellarg($work) . "/cache/IndexData* "
            . escapeshellarg($keep_index), $_, $rc);
        if ($rc) {
            fwrite(STDERR, "could not keep the index as $keep_index\n");
            exit(2);
        }
    }
    exec("rm -rf " . escapeshellarg("$work/cache") . " " . escapeshellarg("$work/schedules"));
    return $result;
}

function report(array $results, array $modes, array $jits, string $batches, int $repeat,
    int $pages): bool
{
    $first = reset($results[$modes[0]])[0];
    printf("Crawl replay: %d batches from %s, %d index files, median of %d, CPU seconds\n\n",
        $first["batches"], $batches, count($first["files"]), $repeat);
    $rows = [];
    foreach (["batches", "stop", "total"] as $part) {
        $rows[$part] = fn(string $mode, string $jit): array => array_map(
            fn($run) => $run["times"][$part], $results[$mode][$jit]);
    }
    // Wall-clock seconds: what threads (yioop.compress_threads) save; CPU
    // seconds count every thread's time.
    foreach (["batches", "total"] as $part) {
        $rows["$part, wall s"] = fn(string $mode, string $jit): array => array_map(
            fn($run) => $run["walls"][$part] ?? NAN, $results[$mode][$jit]);
    }
    if ($pages > 0) {
        $rows["total, ms per page"] = fn(string $mode, string $jit): array => array_map(
            fn($run) => 1000 * $run["times"]["total"] / $pages, $results[$mode][$jit]);
    }
    printMedianTable("part", $modes, $jits, $rows);
    return identity($results, $first["files"]);
}

/** Every run's index directory against the first's, file by file. */
function identity(array $results, array $reference): bool
{
    $differ = [];
    foreach ($results as $mode => $by_jit) {
        foreach ($by_jit as $jit => $runs) {
            foreach ($runs as $run) {
                $files = array_keys($reference + $run["files"]);
                foreach ($files as $file) {
                    if (($run["files"][$file] ?? null) !== ($reference[$file] ?? null)) {
                        $differ[$file][] = "$mode/$jit";
                    }
                }
            }
        }
    }
    echo "\nIndex directory: ", $differ ? "DIFFERS" : "identical", " (", count($reference), " files)\n";
    foreach ($differ as $file => $where) {
        echo "  $file: ", implode(", ", array_unique($where)), "\n";
    }
    return !$differ;
}
