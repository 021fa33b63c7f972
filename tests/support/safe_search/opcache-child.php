<?php
/**
 * For tests/text/SafeSearchTest.php, run with opcache on (where a method's
 * statics sit behind an offset into PHP's map of them): every recorded
 * call through the stand-in method, and how many differ from Yioop's.
 */
namespace YioopCodec\Tests;

require __DIR__ . '/stand-ins.php';

$recorded = primedRecording();
$differ = 0;
foreach ($recorded['calls'] as $call) {
    $lists = array_map(fn($n) => $n ? range(1, $n) : [], $call['counts']);
    $differ += SafeSearchStandIn::computeSafeSearchScore($lists, $call['len'], $call['url']) !== $call['score'];
}
printf("opcache %s, %d calls, %d differ\n", function_exists("opcache_get_status") && opcache_get_status() ? "on" : "off", count($recorded['calls']), $differ);
