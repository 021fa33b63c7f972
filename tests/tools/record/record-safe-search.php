<?php
/**
 * Records what Yioop's own PhraseParser::computeSafeSearchScore gives, for
 * tests/text/SafeSearchTest.php:
 *
 *   php tests/tools/record/record-safe-search.php YIOOP_DIR SUMMARIES_ARCHIVE OUT [PAGES=100] [--compare]
 *
 * Inputs: the first PAGES pages of a crawl's summaries (web_archive_0.txt.gz),
 * their word lists made as the shard build makes them (extractPhrasesInLists
 * of the page's phrase string; its length; the page's URL), then crafted
 * word lists and URLs for each branch (unsafe terms, empty lists, URLs
 * the regex matches, "0", lengths whose quotient is exact). Stored: each
 * call's word lists (term => how many positions), length, URL and score,
 * and the method's statics afterwards (its unsafe terms and URL regex).
 * With --compare (the extension loaded, a tree switched by the
 * integration tool), the same calls are made and compared with OUT.
 */
namespace seekquarry\yioop\configs;

require __DIR__ . "/crawl-texts.php";
[$yioop, $archive, $out, $pages, $compare, $work] = startRecorder("safe-search", $argv, 100);

use seekquarry\yioop\library\PhraseParser;

$calls = [];
foreach (crawlTexts($archive, $pages) as [$text, $lang, $url]) {
    $lists = PhraseParser::extractPhrasesInLists($text, $lang)['WORD_LIST'];
    $calls[] = [array_map('count', $lists), strlen($text), $url];
}
$statics = fn() => (new \ReflectionMethod(PhraseParser::class, "computeSafeSearchScore"))->getStaticVariables();
// The first call works the unsafe terms out; the crafted calls use them.
$first = $calls[0];
$lists = array_map(fn($n) => range(1, $n), $first[0]);
PhraseParser::computeSafeSearchScore($lists, $first[1], $first[2]);
$unsafe = $statics()["unsafe_terms"];
$some = array_slice($unsafe, 0, 6);
$calls[] = [array_fill_keys($some, 2), 100, ""];
$calls[] = [array_fill_keys($some, 2), 11, "https://example.com/"];
$calls[] = [[$some[0] => 3, "debian" => 5, 42 => 1], 7, null];
$calls[] = [[$some[0] => 0, $some[1] => 4, "x" => 9], 3, "0"];
$calls[] = [[$some[0] => 1], 0, false];
$calls[] = [[$some[0] => 1, $some[1] => 1], 2, "http://porn.example.com/"];
$calls[] = [["debian" => 1], 2, "https://example.com/nude-art/"];
$calls[] = [[], 50, ""];
$calls[] = [[], 50, "http://xvideos.example/"];
$calls[] = [array_fill_keys($unsafe, 1), 1000, "https://wiki.debian.org/"];
foreach (array_slice($calls, 1, 5) as $i => [$counts, $len, $url]) {
    $calls[] = [$counts + array_fill_keys(array_slice($unsafe, 10 * $i, $i + 1), $i + 1), $len, $url];
}
$calls[] = [array_fill_keys(array_reverse($unsafe), 3), count($unsafe) * 9 - 1, ""];

$recorded = [];
foreach ($calls as [$counts, $len, $url]) {
    $lists = array_map(fn($n) => $n ? range(1, $n) : [], $counts);
    $score = PhraseParser::computeSafeSearchScore($lists, $len, $url);
    $recorded[] = ["counts" => $counts, "len" => $len, "url" => $url, "score" => $score,
        "type" => get_debug_type($score)];
}
$data = ["calls" => $recorded, "unsafe_terms" => $statics()["unsafe_terms"],
    "unsafe_url_regex" => $statics()["unsafe_url_regex"]];
exec("rm -rf " . escapeshellarg($work));
if (!$compare) {
    file_put_contents($out, gzencode(json_encode($data, JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION)));
    printf("%d calls, %d with a score above 0, %d unsafe terms\n", count($recorded),
        count(array_filter($recorded, fn($c) => $c["score"] > 0)), count($data["unsafe_terms"]));
    exit(0);
}
$want = json_decode(gzdecode(file_get_contents($out)), true);
$differ = 0;
foreach ($recorded as $i => $call) {
    $differ += $call["score"] !== $want["calls"][$i]["score"] || $call["type"] !== $want["calls"][$i]["type"];
}
printf("%d calls, %d differ\n", count($recorded), $differ);
exit($differ ? 1 : 0);
