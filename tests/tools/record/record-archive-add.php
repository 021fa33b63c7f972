<?php
/**
 * Records what Yioop's own WebArchive::addObjects (PHP, no extension)
 * writes and returns, for tests/index/AddObjectsTest.php to replay against
 * the native yioop_codec\archive\addObjects without a Yioop tree.
 *
 *   PHP_INI_SCAN_DIR=<ini dir without yioop> \
 *       php tests/tools/record/record-archive-add.php YIOOP_DIR tests/fixtures/archive
 *
 * Writes add-objects.json.gz: for each case its name, the arguments
 * (offset_field, objects, data, callback name, return_flag: serialize()
 * output, base64), the archive file before (base64) and after (its length
 * and SHA-256), the count before and after, and the SHA-256 of what
 * addObjects returned and of the objects after the call (serialize()
 * output): hashes keep the fixture small, and any byte differing fails.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\WebArchive;
use seekquarry\yioop\library\compressors\GzipCompressor;

[, $yioop, $out_dir] = $argv + [null, null, null];
if (!$yioop || !$out_dir || extension_loaded("yioop")) {
    fwrite(STDERR, "usage: php record-archive-add.php YIOOP_DIR OUT_DIR, without the yioop extension\n");
    exit(2);
}
ini_set('serialize_precision', '-1');
require_once "$yioop/src/library/CrawlConstants.php";
require_once "$yioop/src/library/Utility.php";
require_once "$yioop/src/library/compressors/Compressor.php";
require_once "$yioop/src/library/compressors/GzipCompressor.php";
require_once "$yioop/src/library/WebArchive.php";
require_once __DIR__ . "/../../support/archive/add-objects-cases.php";

$tmp = sys_get_temp_dir() . "/record-archive-add-" . getmypid();
@mkdir($tmp);
$cases = [];
foreach (\YioopCodec\Tests\addObjectsCases() as $name => $case) {
    $path = "$tmp/$name.txt.gz";
    if (file_exists($path)) {
        unlink($path);
    }
    $archive = new WebArchive($path, new GzipCompressor());
    foreach ($case["before"] as $earlier) {
        $archive->addObjects($case["field"], $earlier, null, null, false);
    }
    $before = file_get_contents($path);
    $count_before = $archive->count;
    $objects = $case["objects"];
    $result = $archive->addObjects($case["field"], $objects, $case["data"],
        $case["callback"], $case["return_flag"]);
    clearstatcache();
    $cases[] = [
        "name" => $name,
        "args" => base64_encode(serialize([$case["field"], $case["objects"],
            $case["data"], $case["callback"], $case["return_flag"]])),
        "before" => base64_encode($before),
        "count_before" => $count_before,
        "after_length" => filesize($path),
        "after" => hash_file("sha256", $path),
        "count_after" => $archive->count,
        "result" => hash("sha256", serialize($result)),
        "objects_after" => hash("sha256", serialize($objects)),
    ];
    unlink($path);
}
rmdir($tmp);
if (!is_dir($out_dir)) {
    mkdir($out_dir, 0777, true);
}
file_put_contents("$out_dir/add-objects.json.gz", gzencode(json_encode($cases,
    JSON_PRETTY_PRINT), 9));
echo count($cases), " cases recorded in $out_dir/add-objects.json.gz\n";
