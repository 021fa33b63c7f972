<?php
/**
 * The English Tokenizer's extractTripletsPhrases over the sentence lists
 * recorded in tests/fixtures/triplets/recorded.json.gz, in one process:
 *
 *   php bench/crawl/triplets.php YIOOP_SRC [PASSES=5]
 *
 * YIOOP_SRC is a Yioop 2021 src/ (unswitched, run without the extension,
 * for Yioop's PHP; switched by php/yioop-integrate.php and run with it for
 * the native method). Prints milliseconds per pass over every list.
 */
namespace seekquarry\yioop\configs;

require dirname(__DIR__) . "/e2e/yioop-boot.php";

use seekquarry\yioop\locale\en_US\resources\Tokenizer;

[, $src] = $argv;
$passes = (int)($argv[2] ?? 5);
$work = sys_get_temp_dir() . "/triplets-bench-" . getmypid();
mkdir($work);
bootYioop($src, $work);
$recorded = json_decode(gzdecode(file_get_contents(dirname(__DIR__, 2) . "/tests/fixtures/triplets/recorded.json.gz")), true);
$lists = [];
foreach ($recorded["calls"] as [$sentences]) {
    $list = [];
    foreach ($sentences as [$sentence, $positions]) {
        $list[base64_decode($sentence)] = $positions;
    }
    $lists[] = $list;
}
Tokenizer::extractTripletsPhrases($lists[0]); // loads the lexicon
$start = microtime(true);
for ($pass = 0; $pass < $passes; $pass++) {
    foreach ($lists as $list) {
        Tokenizer::extractTripletsPhrases($list);
    }
}
printf("%.1f ms per pass over %d lists\n", (microtime(true) - $start) * 1000 / $passes, count($lists));
exec("rm -rf " . escapeshellarg($work));
