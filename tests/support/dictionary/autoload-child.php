<?php
/**
 * A fresh process for tests/index/DictionaryTest.php: one native
 * getWordInfo look-up with Yioop's kind of autoloader registered, then
 * whether IndexShard and the Utility.php functions are loaded, as they are
 * after Yioop's own body (which names IndexShard::WORD_DATA_LEN).
 *
 *   php -d extension=... autoload-child.php SETUP.json
 * SETUP: dir, active_tiers, max_tier, constants, id (base64), args.
 */
require __DIR__ . "/state.php";
require __DIR__ . "/autoload/register.php";

$setup = json_decode(file_get_contents($argv[1]), true);
foreach ($setup["constants"] + ["NS_CONFIGS" => "seekquarry\\yioop\\configs\\"] as $name => $value) {
    define("seekquarry\\yioop\\configs\\$name", $value);
}
eval("namespace seekquarry\\yioop\\configs; function yioop_error_handler() { return true; }");
$parent = new stdClass();
$parent->generation_info = ["ACTIVE" => 6, "LAST_DICTIONARY_SHARD" => 5];
$dictionary = new YioopCodec\Tests\DictionaryStandIn($setup["dir"], $setup["active_tiers"],
    $setup["max_tier"], $parent);
$loaded = fn() => [class_exists("seekquarry\\yioop\\library\\IndexShard", false),
    function_exists("seekquarry\\yioop\\library\\yioopCodecUtilityStandIn")];
$before = $loaded();
[$threshold, $start, $distinct, $with_total] = $setup["args"];
$result = yioop_codec\dictionary\getWordInfo($dictionary, base64_decode($setup["id"]), true,
    $threshold, $start, $distinct, $with_total);
echo json_encode(["before" => $before, "answered" => $result !== null, "after" => $loaded()]);
