<?php
/**
 * Records what Yioop's own en_US Tokenizer::canonicalizePunctuatedTerms
 * gives, for tests/text/CanonicalTest.php:
 *
 *   php tests/tools/record/record-canonical.php YIOOP_DIR SUMMARIES_ARCHIVE OUT [PAGES=100] [--compare]
 *
 * Inputs: the phrase strings of the first PAGES pages of a crawl's
 * summaries (web_archive_0.txt.gz) as the shard build makes them, then
 * crafted texts for each replacement (contractions, words before 's,
 * titles, Latin-1 and UTF-8 letters beside ASCII ones). Stored: each text
 * and what the method made of it (null where unchanged), and the method's
 * replacement list as its statics hold it. With --compare (the extension
 * loaded, a tree switched by the integration tool) the same calls are
 * made and compared with OUT.
 */
namespace seekquarry\yioop\configs;

require __DIR__ . "/crawl-texts.php";
[$yioop, $archive, $out, $pages, $compare, $work] = startRecorder("canonical", $argv, 100);

use seekquarry\yioop\locale\en_US\resources\Tokenizer;

$texts = array_column(crawlTexts($archive, $pages), 0);
$crafted = ["I don't know, he can't", "n't xn't 9an't _an't a_bn't", "don'tdon't", "café'd I'd", "a\u{e9}'d b\u{c9}'ll",
    "It's here, everyone's there, SHE'S gone", "someone's bits's whys x'S", "he's'she's", "WHY'S THAT'S",
    "we'll they've you're it's John's cat's", "Mr. Smith and Dr. Jones, Mrs.Brown in. The end", "Vs. X, Capt.",
    "gimme gonna gotta ma'am 'tis 'twas y'all I'm I ain't You ain't", "is been is had shan't", ",A. B ,é. x",
    "l'été c'est d'accord", "rock'n'roll", "o'clock O'Neil", "ªb'd µc've ºd're", "\u{2019}s it\u{2019}s", "",
    "0", "'s 's'", "x'sS", "aa'd'd", "Ünïcödé wörds' Änd'll", "it\u{0}'s", "don't\nwon't\tcan't", "élan'd",
    str_repeat("word's ", 200), str_repeat("ab\u{e9}", 300) . "'d", "\xff\xfe don't", "CAN'T WON'T"];
$texts = array_merge($texts, $crafted);
$tokenizer = new Tokenizer();
$recorded = [];
foreach ($texts as $text) {
    $canonical = $text;
    $tokenizer->canonicalizePunctuatedTerms($canonical);
    $recorded[] = [$text, $canonical === $text ? null : $canonical, get_debug_type($canonical)];
}
$substitutions = (new \ReflectionMethod(Tokenizer::class, "canonicalizePunctuatedTerms"))
    ->getStaticVariables()["substitutions"];
exec("rm -rf " . escapeshellarg($work));
if (!$compare) {
    // serialize: the texts include bytes that are not UTF-8.
    file_put_contents($out, gzencode(serialize(["calls" => $recorded, "substitutions" => $substitutions])));
    printf("%d texts, %d changed\n", count($recorded), count(array_filter($recorded, fn($r) => $r[1] !== null)));
    exit(0);
}
$want = unserialize(gzdecode(file_get_contents($out)));
$differ = 0;
foreach ($recorded as $i => $call) {
    $differ += $call !== $want["calls"][$i];
}
printf("%d texts, %d differ\n", count($recorded), $differ);
exit($differ ? 1 : 0);
