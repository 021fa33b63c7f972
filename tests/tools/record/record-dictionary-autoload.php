<?php
/**
 * Records what a fresh process has loaded after one look-up with Yioop's
 * own IndexDictionary::getWordInfo (run WITHOUT the extension), for
 * tests/index/DictionaryTest.php
 * (testALookUpLoadsIndexShardAndUtilityAsYioopsBodyDoes): whether the
 * class IndexShard and Utility.php's functions (crawlHashWord) are loaded
 * before and after, with Yioop's autoloader (Config.php). The dictionary
 * is the one tests/fixtures/dictionary/recorded.json.gz holds.
 *
 *   php tests/tools/record/record-dictionary-autoload.php YIOOP_DIR tests/fixtures/dictionary/autoload.json
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\IndexDictionary;

[, $yioop, $out] = $argv + [null, null, null];
if (!$yioop || !$out || extension_loaded("yioop")) {
    fwrite(STDERR, "usage: php record-dictionary-autoload.php YIOOP_DIR OUT, without the yioop extension\n");
    exit(2);
}
$root = dirname(__DIR__, 3);
require "$root/bench/e2e/yioop-boot.php";
$recording = json_decode(gzdecode(file_get_contents("$root/tests/fixtures/dictionary/recorded.json.gz")), true);
$work = sys_get_temp_dir() . "/yioop-record-dict-autoload-" . getmypid();
@mkdir($work);
foreach ($recording["files"] as $path => $bytes) {
    @mkdir(dirname("$work/$path"), 0777, true);
    file_put_contents("$work/$path", base64_decode($bytes));
}
bootYioop("$yioop/src", $work);
$loaded = fn() => [class_exists("seekquarry\\yioop\\library\\IndexShard", false),
    function_exists("seekquarry\\yioop\\library\\crawlHashWord")];
$before = $loaded();
$dictionary = new IndexDictionary($work);
$dictionary->active_tiers = $recording["active_tiers"];
$call = $recording["sequence"]["calls"][0];
[$threshold, $start, $distinct, $with_total] = $call["args"];
$dictionary->getWordInfo(base64_decode($call["id"]), true, $threshold, $start, $distinct, $with_total);
$after = $loaded();
exec("rm -rf " . escapeshellarg($work));
file_put_contents($out, json_encode(["before" => $before, "after" => $after]) . "\n");
echo json_encode(["before" => $before, "after" => $after]), "\n";
