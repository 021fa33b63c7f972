<?php
/**
 * For tests/text/SafeSearchTest.php, run with opcache on (where a method's
 * statics sit behind an offset into PHP's map of them): every recorded
 * call through the stand-in method, and how many differ from Yioop's.
 */
namespace YioopCodec\Tests;

require __DIR__ . '/stand-ins.php';

$recorded = json_decode(gzdecode(file_get_contents(__DIR__ . '/../../fixtures/safe_search/recorded.json.gz')), true);
SafeSearchStandIn::$terms = $recorded['unsafe_terms'];
SafeSearchStandIn::$regex = $recorded['unsafe_url_regex'];
$none = [];
SafeSearchStandIn::computeSafeSearchScore($none, 0);
$differ = 0;
foreach ($recorded['calls'] as $call) {
    $lists = array_map(fn($n) => $n ? range(1, $n) : [], $call['counts']);
    $differ += SafeSearchStandIn::computeSafeSearchScore($lists, $call['len'], $call['url']) !== $call['score'];
}
printf("opcache %s, %d calls, %d differ\n", function_exists("opcache_get_status") && opcache_get_status() ? "on" : "off", count($recorded['calls']), $differ);
