<?php
/**
 * Indexes of N real pages built through Yioop's own queue-server path, Yioop
 * alone against a switched tree with the extension (issue 28):
 *
 *   YIOOP_DIR=/path/to/yioop-2021 php bench/scale/run.php --pages=N
 *       [--per-generation=M] [--data=/var/tmp/yioop-scale] [--seed=1]
 *       [--repeat=1] [--jit=off,tracing] [--modes=yioop,ext] [--so=PATH]
 *       [--batches-only] [--mirrors=K]
 *
 * 1. Batches (fetch.php): N pages of Debian's documentation (pages.php)
 *    turned into fetcher uploads by Yioop's own Fetcher and page processors
 *    (HtmlProcessor), without a crawl's pacing, Yioop alone. Kept in
 *    DATA/batches-N-sSEED and reused.
 * 2. Indexing (bench/crawl/replay.php): the uploads taken in one at a time
 *    by Yioop's QueueServer with a fresh IndexArchiveBundle, generations
 *    switching every NUM_DOCS_PER_GENERATION documents (the installer's,
 *    MEMORY_PROFILE x 10,000; --per-generation=M sets it, as a Profile
 *    would, for a small test) and the dictionary tiers merging as in a
 *    crawl, then the crawl's stop. Each mode and JIT setting in turn
 *    (interleaved, --repeat times), every index file compared across all
 *    runs; exit 1 if any differs. The first run's index of each is kept in
 *    DATA/N-gM/MODE-JIT/IndexData1700000000 for the search benchmark.
 *
 * --so: the extension (else env YIOOP_CODEC_SO, else target/release).
 * --mirrors=K: N pages past what Debian's packages hold (about 108,000):
 * the batches of N/K pages, then the same batches K-1 more times, each time
 * as served by another host (mirroredBatches), as a crawl that finds the
 * documentation mirrored finds it. The index then holds N documents, each
 * text K times; Yioop groups the copies by their content hash.
 */
declare(strict_types=1);

require_once __DIR__ . "/pages.php";
require_once __DIR__ . "/mirrors.php";
require_once dirname(__DIR__) . "/runs.php";

$options = getopt("", ["pages:", "per-generation:", "data:", "seed:", "repeat:", "jit:", "modes:",
    "so:", "batches-only", "mirrors:"]);
$yioop = rtrim((string)getenv("YIOOP_DIR"), "/");
$pages = (int)($options["pages"] ?? 0);
if ($pages <= 0 || !is_file("$yioop/src/executables/Fetcher.php")) {
    fwrite(STDERR, "usage: YIOOP_DIR=<Yioop 2021 tree> php bench/scale/run.php --pages=N "
        . "[--per-generation=M] [--data=DIR] [--seed=S] [--repeat=R] [--jit=off,tracing] "
        . "[--modes=yioop,ext] [--so=PATH] [--batches-only] [--mirrors=K]\n");
    exit(2);
}
$root = dirname(__DIR__, 2);
$data = rtrim($options["data"] ?? "/var/tmp/yioop-scale", "/");
$seed = (int)($options["seed"] ?? 1);
$per_generation = $options["per-generation"] ?? "";
$so = $options["so"] ?? (getenv("YIOOP_CODEC_SO") ?: "$root/target/release/libyioop_codec.so");
$mirrors = (int)($options["mirrors"] ?? 1);
if ($mirrors < 1 || $mirrors > MAX_MIRRORS || $pages % $mirrors != 0) {
    fwrite(STDERR, "--mirrors: 1 to " . MAX_MIRRORS . ", dividing --pages\n");
    exit(2);
}
@mkdir($data, 0777, true);
try {
    $batches = $mirrors == 1 ? batches($yioop, $data, $pages, $seed)
        : mirroredBatches(batches($yioop, $data, intdiv($pages, $mirrors), $seed),
        "$data/batches-$pages-s$seed", $mirrors);
} catch (SetUpFailure $e) {
    fwrite(STDERR, "set-up failed: " . $e->getMessage() . "\n");
    exit(2);
}
if (isset($options["batches-only"])) {
    exit(0);
}
$index_dir = "$data/$pages-g" . ($per_generation === "" ? "default" : $per_generation);
$cmd = "YIOOP_DIR=" . escapeshellarg($yioop) . " php "
    . escapeshellarg("$root/bench/crawl/replay.php") . " --batches=" . escapeshellarg($batches)
    . " --pages=$pages --keep-index=" . escapeshellarg($index_dir)
    . " --repeat=" . (int)($options["repeat"] ?? 1)
    . " --jit=" . escapeshellarg($options["jit"] ?? "off")
    . " --modes=" . escapeshellarg($options["modes"] ?? "yioop,ext")
    . " --so=" . escapeshellarg($so)
    . ($per_generation === "" ? "" : " --per-generation=" . (int)$per_generation);
printf("indexing %d pages%s (%s documents a generation), indexes kept in %s\n", $pages,
    $mirrors > 1 ? sprintf(" (%d pages at %d hosts)", intdiv($pages, $mirrors), $mirrors) : "",
    $per_generation === "" ? "the installer's" : $per_generation, $index_dir);
passthru($cmd, $rc);
exit($rc);

/** DATA/batches-N-sSEED, made by fetch.php unless an earlier run finished it. */
function batches(string $yioop, string $data, int $pages, int $seed): string
{
    $dir = "$data/batches-$pages-s$seed";
    if (is_file("$dir/DONE")) {
        $done = trim((string)file_get_contents("$dir/DONE"));
        if (mirrorsOf($dir) > 1) {
            throw new SetUpFailure("$dir holds mirrored batches ($done): run with --mirrors");
        }
        echo "batches: reusing $dir ($done)\n";
        return $dir;
    }
    scalePages($pages, $seed); // fails early when the packages hold too few pages
    $tmp = "$data/tmp-" . getmypid();
    exec("rm -rf " . escapeshellarg($dir) . " " . escapeshellarg($tmp));
    mkdir("$tmp/work", 0777, true);
    $start = microtime(true);
    $cmd = "PHP_INI_SCAN_DIR=" . escapeshellarg(iniWithoutYioop($tmp)) . " php "
        . escapeshellarg(__DIR__ . "/fetch.php") . " " . escapeshellarg("$yioop/src") . " "
        . escapeshellarg("$tmp/work") . " " . escapeshellarg($dir) . " $pages $seed > "
        . escapeshellarg("$tmp/fetch.log") . " 2>&1";
    passthru($cmd, $rc);
    $log = (string)file_get_contents("$tmp/fetch.log");
    if ($rc || !preg_match('/(\d+) pages, (\d+) batches/', $log, $m) || (int)$m[1] !== $pages) {
        throw new SetUpFailure("fetch.php failed ($rc), its log: $tmp/fetch.log");
    }
    $summary = sprintf("%d pages, %d batches, %.1f MB, made in %.0f s by Yioop's Fetcher",
        $pages, $m[2], array_sum(array_map("filesize", glob("$dir/*.txt"))) / 1e6,
        microtime(true) - $start);
    file_put_contents("$dir/DONE", "$summary\n");
    exec("rm -rf " . escapeshellarg($tmp));
    echo "batches: $summary\n";
    return $dir;
}
