<?php
/**
 * Two per-page passes of the shard build over the inputs recorded in
 * tests/, in one process: the English Tokenizer's
 * canonicalizePunctuatedTerms over tests/fixtures/canonical/recorded.gz's texts,
 * and PhraseParser::computeSafeSearchScore over
 * tests/fixtures/safe_search/recorded.json.gz's word lists:
 *
 *   php bench/crawl/passes.php YIOOP_SRC [PASSES=20]
 *
 * YIOOP_SRC is a Yioop 2021 src/ (unswitched, run without the extension,
 * for Yioop's PHP; switched by php/yioop-integrate.php and run with it for
 * the native methods). Prints milliseconds per pass of each, median of
 * the passes.
 */
namespace seekquarry\yioop\configs;

require dirname(__DIR__) . "/e2e/yioop-boot.php";

use seekquarry\yioop\library\PhraseParser;
use seekquarry\yioop\locale\en_US\resources\Tokenizer;

[, $src] = $argv;
$passes = (int)($argv[2] ?? 20);
$work = sys_get_temp_dir() . "/passes-bench-" . getmypid();
mkdir($work);
bootYioop($src, $work);
$tests = dirname(__DIR__, 2) . "/tests";
$texts = array_filter(array_column(unserialize(gzdecode(file_get_contents("$tests/fixtures/canonical/recorded.gz")))["calls"], 0),
    fn($text) => mb_check_encoding($text, "UTF-8"));
$calls = json_decode(gzdecode(file_get_contents("$tests/fixtures/safe_search/recorded.json.gz")), true)["calls"];
foreach ($calls as &$call) {
    $call["lists"] = array_map(fn($n) => $n ? range(1, $n) : [], $call["counts"]);
}
unset($call);
$tokenizer = new Tokenizer();
$median = function (callable $pass) use ($passes): float {
    $times = [];
    for ($i = 0; $i < $passes; $i++) {
        $start = hrtime(true);
        $pass();
        $times[] = (hrtime(true) - $start) / 1e6;
    }
    sort($times);
    return $times[intdiv($passes, 2)];
};
$first = $calls[0]["lists"];
PhraseParser::computeSafeSearchScore($first, 1); // Yioop works its terms out
printf("canonicalizePunctuatedTerms: %.2f ms per pass over %d texts\n", $median(function () use ($texts, $tokenizer) {
    foreach ($texts as $text) {
        $tokenizer->canonicalizePunctuatedTerms($text);
    }
}), count($texts));
printf("computeSafeSearchScore: %.2f ms per pass over %d word lists\n", $median(function () use (&$calls) {
    foreach ($calls as &$call) {
        PhraseParser::computeSafeSearchScore($call["lists"], $call["len"], $call["url"]);
    }
}), count($calls));
exec("rm -rf " . escapeshellarg($work));
