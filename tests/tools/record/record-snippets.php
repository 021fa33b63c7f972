<?php
/**
 * Records Yioop's Model::getSnippets (YIOOP_DIR, run WITHOUT the
 * extension) for tests/search/SnippetsTest.php: real descriptions and query words
 * from bench/snippets/record.php's log of QueryTool searches on the real
 * crawl (the text as formatSinglePageResult hands it over), each text with
 * its own recorded words and with other recorded word lists, then the
 * fuzz inputs of tests/support/snippets/fuzz-inputs.php; in call order (the method
 * keeps static state).
 *
 *   YIOOP_DIR=... php tests/tools/record/record-snippets.php LOG [TEXTS]
 */
$yioop = getenv("YIOOP_DIR") ?: "/work/yioop-2021";
require_once "$yioop/src/library/CrawlConstants.php";
require_once "$yioop/src/models/Model.php";
require_once __DIR__ . "/../../support/snippets/fuzz-inputs.php";
use seekquarry\yioop\library\CrawlConstants;

[$log, $want] = [$argv[1], (int)($argv[2] ?? 110)];
$texts = [];
$real = [];
$word_lists = [];
foreach (file($log) as $line) {
    [[$page, $words, $length]] = unserialize(base64_decode($line));
    if ($words === null || isset($page[CrawlConstants::IS_FEED])) {
        continue;
    }
    $text = strip_tags(preg_replace("/\<\s+([a-zA-Z])/", '<$1',
        $page[CrawlConstants::DESCRIPTION] ?? ""));
    $texts[$text] = true;
    $real[] = [$text, $words, $length];
    $word_lists[serialize($words)] = $words;
}
// every k-th distinct text, and the real calls on them
$all = array_keys($texts);
$step = max(1, intdiv(count($all), $want));
$chosen = [];
foreach ($all as $i => $text) {
    if ($i % $step == 0 && count($chosen) < $want) {
        $chosen[$text] = count($chosen);
    }
}
$word_lists = array_values($word_lists);
$calls = [];
foreach ($real as [$text, $words, $length]) {
    if (isset($chosen[$text])) {
        $calls[] = [$chosen[$text], $words, $length];
    }
}
mt_srand(7);
foreach ($chosen as $text => $index) {
    for ($n = 0; $n < 24; $n++) {
        $calls[] = [$index, $word_lists[mt_rand(0, count($word_lists) - 1)],
            [150, 150, 150, 60, 400][mt_rand(0, 4)]];
    }
}
$model = (new ReflectionClass('seekquarry\yioop\models\Model'))
    ->newInstanceWithoutConstructor();
$out = ["texts" => array_map('base64_encode', array_keys($chosen)),
    "calls" => [], "fuzz" => []];
foreach ($calls as [$index, $words, $length]) {
    $result = $model->getSnippets(array_keys($chosen)[$index], $words, $length);
    $out["calls"][] = [$index, $words, $length, base64_encode($result)];
}
foreach (yioop_codec_snippet_fuzz_inputs(3000) as [$text, $words, $length]) {
    $out["fuzz"][] = base64_encode($model->getSnippets($text, $words, $length));
}
$file = __DIR__ . "/../../fixtures/snippets/recorded.json.gz";
file_put_contents($file, gzencode(json_encode($out), 9));
printf("%d texts, %d calls, %d fuzz calls, %d bytes\n", count($chosen),
    count($out["calls"]), count($out["fuzz"]), filesize($file));
