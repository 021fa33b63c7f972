<?php
/**
 * Reads every record of a web archive (a crawl's summaries) the way a
 * search does, WebArchiveBundle::getPage's way: open() then getObjects($offset, 1, true, $fh).
 * Once with Yioop's PHP (a process without the extension), once with the
 * native yioop_codec\archive\getObjects (this build), each given the handle,
 * and once native without a handle (the shared descriptor). Prints the time
 * per record and checks that all sides read the same objects.
 *
 *   YIOOP_DIR=/path/to/yioop php -d extension=target/release/libyioop_codec.so \
 *       bench/archive.php ARCHIVE [--rounds=5] [--side=php|native|native-nofh] [--pages=N]
 *
 * ARCHIVE is a web_archive_N.txt.gz (e.g. a crawl's
 * summaries/web_archive_0.txt.gz in its IndexData directory). With --side only
 * that side runs and prints its line (for instruction counts under
 * callgrind: --rounds=0 gives the fixed cost to subtract). --pages=N reads
 * only the first N records that hold a page, as a search's summaries do.
 */

namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\WebArchive;
use seekquarry\yioop\library\compressors\GzipCompressor;

$options = ["rounds" => 5, "side" => "", "pages" => 0];
$file = null;
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--(rounds|side|pages)=(.*)$/', $arg, $m)) {
        $options[$m[1]] = $m[1] == "side" ? $m[2] : (int)$m[2];
    } else {
        $file = $arg;
    }
}
$yioop = getenv("YIOOP_DIR");
if (!$file || !is_file($file) || !$yioop) {
    fwrite(STDERR, "usage: YIOOP_DIR=... php bench/archive.php ARCHIVE [--rounds=N] [--side=S]\n");
    exit(2);
}

if ($options["side"] === "") {
    // Each side in its own process: Yioop's PHP without the extension.
    $sides = ["php" => [], "native" => ["-d", "extension=" . extensionPath()],
        "native-nofh" => ["-d", "extension=" . extensionPath()]];
    $lines = [];
    foreach ($sides as $side => $flags) {
        $env = ["PHP_INI_SCAN_DIR" => scanDirWithoutYioop()] + getenv();
        $cmd = [PHP_BINARY, ...$flags, __FILE__, $file, "--rounds={$options['rounds']}", "--side=$side",
            "--pages={$options['pages']}"];
        $p = proc_open($cmd, [1 => ["pipe", "w"], 2 => STDERR], $pipes, null, $env);
        $lines[$side] = json_decode(trim(stream_get_contents($pipes[1])), true);
        proc_close($p);
    }
    $base = $lines["php"];
    foreach ($lines as $side => $line) {
        printf("%-12s %8.2f us/record  %d records  digest %s%s\n", $side, $line["us"], $line["records"],
            $line["digest"], $side == "php" ? "" : sprintf("  %.2fx", $base["us"] / $line["us"]));
    }
    $same = count(array_unique(array_column($lines, "digest"))) == 1;
    echo $same ? "identical objects on every side\n" : "DIFFERENT objects\n";
    exit($same ? 0 : 1);
}

ini_set("memory_limit", "-1");
require_once "$yioop/src/library/CrawlConstants.php";
require_once "$yioop/src/library/Utility.php";
require_once "$yioop/src/library/compressors/Compressor.php";
require_once "$yioop/src/library/compressors/GzipCompressor.php";
require_once "$yioop/src/library/WebArchive.php";

$archive = new WebArchive($file, new GzipCompressor(), true);
$offsets = recordOffsets($file, $options["pages"]);
$side = $options["side"];
$read = match ($side) {
    "php" => fn(int $at) => $archive->getObjects($at, 1, true, $archive->open()),
    "native" => fn(int $at) => \yioop_codec\archive\getObjects($archive, $at, 1, true,
        $archive->open(), MAX_ARCHIVE_OBJECT_SIZE),
    "native-nofh" => fn(int $at) => \yioop_codec\archive\getObjects($archive, $at, 1, true,
        null, MAX_ARCHIVE_OBJECT_SIZE),
};
$digest = hash_init("md5");
foreach ($offsets as $at) {
    $objects = $read($at);
    if ($objects === null) {
        fwrite(STDERR, "$side declined the record at $at\n");
        exit(1);
    }
    hash_update($digest, serialize($objects));
}
$start = hrtime(true);
for ($r = 0; $r < $options["rounds"]; $r++) {
    foreach ($offsets as $at) {
        $read($at);
    }
}
$ns = hrtime(true) - $start;
echo json_encode(["us" => $ns / 1000 / max(1, $options["rounds"] * count($offsets)),
    "records" => count($offsets), "digest" => hash_final($digest)]), "\n";

/**
 * The offset of every record, from the headers up to the info block; with
 * $pages > 0 only the first $pages records that hold a page (a summary
 * with the page's text, as a search reads them; not a link's record).
 */
function recordOffsets(string $file, int $pages = 0): array
{
    $bytes = file_get_contents($file);
    $info_len = unpack("N", substr($bytes, -20 + 4, 4))[1];
    $end = strlen($bytes) - $info_len;
    $offsets = [];
    for ($at = 0; $at + 20 <= $end; $at += 20 + $len) {
        $len = unpack("N", substr($bytes, $at + 4, 4))[1];
        if ($pages > 0) {
            $summary = @unserialize(gzinflate(substr($bytes, $at + 30, $len - 10)));
            if (!isset($summary[\seekquarry\yioop\library\CrawlConstants::PAGE])) {
                continue;
            }
        }
        $offsets[] = $at;
        if (count($offsets) === $pages) {
            break;
        }
    }
    return $offsets;
}

function extensionPath(): string
{
    return getenv("YIOOP_CODEC_SO") ?: dirname(__DIR__) . "/target/release/libyioop_codec.so";
}

/** This PHP's ini scan dir without the installed yioop extension. */
function scanDirWithoutYioop(): string
{
    static $dir = null;
    if ($dir !== null) {
        return $dir;
    }
    $dir = sys_get_temp_dir() . "/archive-bench-ini-" . getmypid();
    @mkdir($dir);
    foreach (glob(PHP_CONFIG_FILE_SCAN_DIR . "/*.ini") as $ini) {
        if (!str_contains($ini, "yioop")) {
            copy($ini, "$dir/" . basename($ini));
        }
    }
    register_shutdown_function(fn() => exec("rm -rf " . escapeshellarg($dir)));
    return $dir;
}
