<?php
/**
 * WebArchive::addObjects: Yioop's PHP against the native function, per
 * upload size, and the native function's wall and CPU time by
 * yioop.compress_threads (which cannot change mid-process: each setting
 * runs in a child PHP).
 *
 *   YIOOP_DIR=/path/to/yioop-2021 PHP_INI_SCAN_DIR=<ini dir without yioop> \
 *       php bench/archive-add.php [--so=target/release/libyioop_codec.so]
 *       [--records=1,2,4,8,16,64,400] [--threads=1,2,4]
 *
 * Summary-like records of 300 to 1,500 words (about 2 to 10 KB serialized)
 * from a seeded generator, added to a fresh archive with the queue server's
 * arguments ("SUMMARY_OFFSET", $return_flag false).
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\WebArchive;
use seekquarry\yioop\library\compressors\GzipCompressor;

$yioop = getenv("YIOOP_DIR");
$options = getopt("", ["records:", "threads:", "child:", "so:"]);
$so = realpath($options["so"] ?? dirname(__DIR__) . "/target/release/libyioop_codec.so");
if (!$yioop || !$so || (!isset($options["child"]) && extension_loaded("yioop"))) {
    fwrite(STDERR, "usage: YIOOP_DIR=<Yioop 2021 tree> PHP_INI_SCAN_DIR=<ini dir without yioop>"
        . " php bench/archive-add.php [--so=PATH] [--records=1,2,4,8,16,64,400] [--threads=1,2,4]\n");
    exit(2);
}
foreach (["CrawlConstants", "Utility", "compressors/Compressor", "compressors/GzipCompressor",
    "WebArchive"] as $file) {
    require_once "$yioop/src/library/$file.php";
}

function records(int $n): array
{
    mt_srand(3);
    $words = explode(" ", "the search engine index page debian documentation python java"
        . " class method function return value list file system user data");
    $records = [];
    for ($i = 0; $i < $n; $i++) {
        $text = [];
        for ($j = mt_rand(300, 1500); $j > 0; $j--) {
            $text[] = $words[mt_rand(0, count($words) - 1)] . mt_rand(0, 99);
        }
        $records[] = ["TITLE" => "page $i", "DESCRIPTION" => implode(" ", $text), "SCORE" => $i / 7];
    }
    return $records;
}

function cpuSeconds(): float
{
    $u = getrusage();
    return $u["ru_utime.tv_sec"] + $u["ru_utime.tv_usec"] / 1e6
        + $u["ru_stime.tv_sec"] + $u["ru_stime.tv_usec"] / 1e6;
}

/** [wall ms, CPU ms] per call of $add over $records, repeated to ~800 records. */
function timeAdd(callable $add, array $records): array
{
    $file = tempnam(sys_get_temp_dir(), "archive-add");
    unlink($file);
    $archive = new WebArchive($file, new GzipCompressor());
    $repeat = max(3, intdiv(800, max(1, count($records))));
    $cpu = cpuSeconds();
    $wall = hrtime(true);
    for ($r = 0; $r < $repeat; $r++) {
        $objects = $records;
        $add($archive, $objects);
    }
    $times = [(hrtime(true) - $wall) / 1e6 / $repeat, (cpuSeconds() - $cpu) * 1000 / $repeat];
    unlink($file);
    return $times;
}

$sizes = array_map("intval", explode(",", $options["records"] ?? "1,2,4,8,16,64,400"));
$native = fn($archive, &$objects) => \yioop_codec\archive\addObjects($archive, "SUMMARY_OFFSET",
    $objects, null, null, false);
if (isset($options["child"])) {
    echo json_encode(array_map(fn($n) => timeAdd($native, records($n)), $sizes));
    exit(0);
}
$threads = array_map("intval", explode(",", $options["threads"] ?? "1,2,4"));
$by_threads = [];
foreach ($threads as $t) {
    $cmd = escapeshellarg(PHP_BINARY) . " -d extension=" . escapeshellarg($so)
        . " -d yioop.compress_threads=$t " . escapeshellarg(__FILE__)
        . " --child=1 --records=" . escapeshellarg(implode(",", $sizes));
    $by_threads[$t] = json_decode(shell_exec($cmd), true);
}
printf("| records | Yioop ms | native ms (%s threads: wall / CPU) |\n| ---: | ---: | --- |\n",
    implode(", ", $threads));
foreach ($sizes as $i => $n) {
    [$yioop_ms] = timeAdd(fn($archive, &$objects) => $archive->addObjects("SUMMARY_OFFSET",
        $objects, null, null, false), records($n));
    $cells = array_map(fn($t) => sprintf("%d: %.2f / %.2f", $t, ...$by_threads[$t][$i]), $threads);
    printf("| %d | %.2f | %s |\n", $n, $yioop_ms, implode(", ", $cells));
}
