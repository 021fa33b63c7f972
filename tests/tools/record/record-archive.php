<?php
/**
 * Records what Yioop's own WebArchive::getObjects (PHP, no extension)
 * returns from small web archives Yioop itself writes, for
 * tests/index/SummariesTest.php to replay against the native
 * yioop_codec\archive\getObjects without a Yioop tree.
 *
 *   PHP_INI_SCAN_DIR=<ini dir without yioop> \
 *       php tests/tools/record/record-archive.php YIOOP_DIR tests/fixtures/archive
 *
 * Writes archive.json.gz: the archive Yioop wrote (base64), summary-like
 * records, and the splices that make damaged copies of it; the distinct
 * results; and for each call its
 * archive, offset, num, next_flag, whether a handle was passed, max_size,
 * and what Yioop gave: the result (a key of the results, which are
 * serialize() output, base64) and iterator_pos (serialize() output),
 * the handle's position after, whether Yioop printed or warned (a call
 * the native function must leave to Yioop's PHP), and whether the archive's
 * file name was a data: URL of the archive rather than its path.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\WebArchive;
use seekquarry\yioop\library\compressors\GzipCompressor;

[, $yioop, $out_dir] = $argv + [null, null, null];
if (!$yioop || !$out_dir || extension_loaded("yioop")) {
    fwrite(STDERR, "usage: php record-archive.php YIOOP_DIR OUT_DIR, without the yioop extension\n");
    exit(2);
}
// Yioop's crawlLog writes to php://stdout, past output buffering: the
// recording runs with its stdout in a file, whose growth tells a call logged.
if (!getenv("YIOOP_RECORD_ARCHIVE_CHILD")) {
    $log = tempnam(sys_get_temp_dir(), "record-archive-log");
    $cmd = [PHP_BINARY, __FILE__, $yioop, $out_dir];
    $p = proc_open($cmd, [1 => ["file", $log, "w"], 2 => STDERR], $pipes, null,
        ["YIOOP_RECORD_ARCHIVE_CHILD" => "1"] + getenv());
    $rc = proc_close($p);
    $lines = file($log);
    echo end($lines);
    unlink($log);
    exit($rc);
}
ini_set('memory_limit', '-1');
ini_set('serialize_precision', '-1');
require_once "$yioop/src/library/CrawlConstants.php";
require_once "$yioop/src/library/Utility.php";
require_once "$yioop/src/library/compressors/Compressor.php";
require_once "$yioop/src/library/compressors/GzipCompressor.php";
require_once "$yioop/src/library/WebArchive.php";

mt_srand(18);
$tmp = sys_get_temp_dir() . "/record-archive-" . getmypid();
@mkdir($tmp);

/** Summary-like records: small and large, text and incompressible bytes. */
function records(): array
{
    $records = [["DUMMY"]];
    $words = ["search", "engine", "yioop", "index", "shard", "archive", "page",
        "summary", "crawl", "fetch", "queue", "server", "\u{e9}t\u{e9}", "\x00"];
    foreach ([5, 40, 200, 2000, 7000] as $n) {
        $text = [];
        for ($i = 0; $i < $n; $i++) {
            $text[] = $words[mt_rand(0, count($words) - 1)];
        }
        $records[] = ["TITLE" => "page $n", "DESCRIPTION" => implode(" ", $text),
            "URL" => "https://example.com/$n", "SCORE" => $n / 7, "LINKS" => [$n, true, null],
            "NESTED" => ["a" => ["b" => ["c" => $n]]]];
    }
    $records[] = ["RANDOM" => random_bytes(17000)]; // past the first read
    $records[] = ["EMPTY" => []];
    return $records;
}

$path = "$tmp/web_archive_0.txt.gz";
$archive = new WebArchive($path, new GzipCompressor());
$objects = records();
$archive->addObjects("OFFSET", $objects, ["some" => "info"], null, false);
$good = file_get_contents($path);
// The offsets of every record, from the headers.
$starts = [];
for ($at = 0, $i = 0; $i < count($objects); $i++) {
    $starts[] = $at;
    $at += 20 + unpack("N", substr($good, $at + 4, 4))[1];
}
$end_of_records = $at;

// Each archive is the good one with splices [at, bytes removed, bytes
// put in], applied in order, and cut to a length (-1: none).
$versions = ["good" => [[], -1]];
// A record whose deflate data is damaged, one whose trailer is, one whose
// length is 0, one cut short, and a file ending right after a record.
$flip = fn(int $at, int $bits) => [$at, 1, chr(ord($good[$at]) ^ $bits)];
$versions["bad-data"] = [[$flip($starts[2] + 20 + 15, 0x55)], -1];
$versions["bad-trailer"] = [[$flip($starts[3] - 6, 1)], -1];
$versions["zero-length"] = [[[$starts[4] + 4, 4, "\0\0\0\0"]], -1];
$versions["cut"] = [[], $starts[5] + 100];
$versions["no-info"] = [[], $starts[6]];
// A record that inflates fine but is no serialization, for record 1.
$gzip = new GzipCompressor();
$bad_text = $gzip->compress("a:1:{i:0;s:9:\"short\";}");
$versions["not-serialized"] = [[[$starts[1], $starts[2] - $starts[1],
    $gzip->compressInt(strlen($bad_text)) . $bad_text]], -1];
$archives = [];
foreach ($versions as $name => [$splices, $length]) {
    $bytes = $good;
    foreach ($splices as [$at, $removed, $put]) {
        $bytes = substr_replace($bytes, $put, $at, $removed);
    }
    $archives[$name] = $length < 0 ? $bytes : substr($bytes, 0, $length);
}
$results = [];

$calls = [];
$call = function (string $name, int|string $offset, int|string $num, $next_flag, bool $handle,
    $max_size, string $why = "", bool $url = false) use (&$calls, &$results, $archives, $tmp) {
    $file = "$tmp/$name.txt.gz";
    file_put_contents($file, $archives[$name]);
    $a = new WebArchive($file, new GzipCompressor(), true);
    if ($url) { // fopen reads a data: URL (RFC 2397) through PHP's wrapper
        $a->filename = "data:application/octet-stream;base64," . base64_encode($archives[$name]);
    }
    $a->iterator_pos = 7;
    $fh = $handle ? fopen($file, "r") : null;
    if ($handle) {
        fseek($fh, 3);
    }
    $noisy = false;
    // What `@` silences (unserialize's notice) is no warning of Yioop's.
    set_error_handler(function (int $no) use (&$noisy) {
        $noisy = $noisy || (error_reporting() & $no) != 0;
        return true;
    });
    ob_start();
    $logged = fstat(STDOUT)["size"];
    $result = $a->getObjects($offset, $num, $next_flag, $fh, $max_size);
    $printed = ob_get_clean() . str_repeat("-", fstat(STDOUT)["size"] - $logged);
    restore_error_handler();
    $calls[] = ["archive" => $name, "offset" => $offset, "num" => $num,
        "next_flag" => $next_flag, "handle" => $handle, "max_size" => $max_size,
        "result" => $key = substr(md5(serialize($result)), 0, 12),
        "iterator_pos" => serialize($a->iterator_pos),
        "tell" => $handle ? ftell($fh) : null, "eof" => $handle ? feof($fh) : null,
        "noisy" => $noisy || $printed !== "", "may_decline" => $why, "url" => $url];
    $results[$key] = base64_encode(serialize($result));
};

$limit = MAX_ARCHIVE_OBJECT_SIZE;
foreach (["good", "bad-data", "bad-trailer", "zero-length", "cut", "no-info", "not-serialized"] as $name) {
    // gzinflate reads no trailer; the native reads require it to match.
    $why = $name == "bad-trailer" ? "a damaged gzip trailer" : "";
    foreach ($starts as $k => $start) {
        foreach ([1, 2, 3] as $num) {
            foreach ([false, true] as $handle) {
                $call($name, $start, $num, $k % 2 == 0, $handle, $limit, $why);
            }
        }
    }
    $call($name, 0, count($starts), true, false, $limit, $why);
    $call($name, 0, count($starts) + 1, true, true, $limit, $why);
}
// Offsets off the records, counts of none, past the end, flags and limits
// of other types (the installer writes constants as strings).
$call("good", $starts[2] + 1, 1, true, false, $limit);
$call("good", $end_of_records, 1, true, false, $limit);
$call("good", strlen($good) + 10, 2, true, true, $limit);
$call("good", -5, 1, true, false, $limit, "negative offset");
$call("good", -5, 1, true, true, $limit, "negative offset");
$call("good", $starts[3], 0, true, true, $limit);
$call("good", $starts[3], -2, true, false, $limit);
$call("good", $starts[3], 1, 0, false, $limit);
$call("good", $starts[3], 1, "", false, $limit);
$call("good", $starts[3], 1, "0", true, $limit);
$call("good", $starts[3], 1, [1], false, $limit);
$call("good", $starts[3], 1, true, false, "100000000");
$call("good", $starts[3], 1, true, false, 100000000.0);
$call("good", $starts[5], 2, true, false, 1000);
$len5 = unpack("N", substr($good, $starts[5] + 4, 4))[1];
$call("good", $starts[5], 1, true, false, $len5);
$call("good", $starts[5], 1, true, false, $len5 + 1);
$call("good", $starts[5], 1, true, false, (string)($len5 + 1));
$call("good", $starts[5], 1, true, false, $len5 + 0.5);
$call("good", $starts[5], 1, true, false, " 1000000", "a numeric string with a space");
$call("good", (string)$starts[3], 1, true, false, $limit, "a string offset");
$call("good", $starts[3], "2", true, false, $limit, "a string count");
$call("no-info", $starts[5], 2, true, true, $limit, "the end of the file with more to read");
$call("no-info", $starts[5], 2, true, false, $limit, "the end of the file with more to read");
// The archive's file name a data: URL: Yioop's fopen reads the URL.
foreach (["good", "bad-data"] as $name) {
    $call($name, $starts[3], 2, true, false, $limit, "a data: URL", true);
    $call($name, $starts[3], 1, true, true, $limit, "a data: URL", true);
}

is_dir($out_dir) || mkdir($out_dir, 0777, true);
file_put_contents("$out_dir/archive.json.gz", gzencode(json_encode([
    "good" => base64_encode($good),
    "versions" => array_map(fn($v) => [array_map(fn($s) => [$s[0], $s[1], base64_encode($s[2])],
        $v[0]), $v[1]], $versions),
    "results" => $results, "calls" => $calls],
    JSON_PRETTY_PRINT | JSON_THROW_ON_ERROR), 9));
array_map('unlink', glob("$tmp/*"));
rmdir($tmp);
printf("%d calls on %d archives: %s/archive.json.gz\n", count($calls), count($archives), $out_dir);
