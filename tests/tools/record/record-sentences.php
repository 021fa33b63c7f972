<?php
/**
 * Records what Yioop's own PhraseParser::extractTermSentencePositionsTags
 * gives, for tests/text/SentencesTest.php:
 *
 *   php tests/tools/record/record-sentences.php YIOOP_DIR OUT [--compare]
 *
 * Texts: every text of tests/fixtures/phrase/recorded.json.gz hyphenated
 * (what extractPhrasesInLists passes on), then crafted ones
 * for the sentence split (each delimiter, runs of newlines, trim's
 * characters, "0", integer-like sentences, repeats, quotes and hyphens
 * that str_word_count weighs, non-ASCII case). Stored per text: the
 * method's result with sentences, and the en_US Tokenizer's scratch after
 * it. Run without the extension; with it, on a tree switched
 * by the integration tool, "--compare" compares with OUT instead of
 * writing it.
 */
namespace seekquarry\yioop\configs;

require __DIR__ . "/crawl-texts.php";
require dirname(__DIR__, 2) . "/support/stem/scratch.php";
[, $yioop, $out] = $argv;
$compare = in_array("--compare", $argv, true);
$work = sys_get_temp_dir() . "/record-sentences-" . getmypid();
mkdir($work);
bootYioop("$yioop/src", $work);

use seekquarry\yioop\library\PhraseParser;

$phrase = json_decode(gzdecode(file_get_contents(dirname(__DIR__, 2) . "/fixtures/phrase/recorded.json.gz")), true);
$texts = [];
foreach ($phrase["calls"] as [, $lang, $hyphenated]) {
    $texts[] = [$hyphenated, $lang];
}
$crafted = ["", "0", ".", "0. 0", "One two. three!\n\nfour ?0. one two.\n\n\n x。y z！-z？w'",
    "a\nb.\n.\n\n\n12. 12 .  0 .00. don't re-do it-. ", "42. -7. 007. 1e3. 9223372036854775808. 3.14",
    "\t\x0B\0 tabbed \r\n. \x0C form feed kept \x0C.", "Ünïcödé ÀÉÎ. straße İstanbul! ΣΟΦΊΑ Ωμέγα?",
    "-dash first. 'quote first. last dash-. mid-word it's. --. ''", "a..b...c!?!d", "\n\n\n\n", "x\n \ny\n\n z",
    "same. Same. SAME. same", "１２３。ＡＢＣ！ｘｙｚ？", "word。", "no delimiter at all", "Mr. Smith went to Washington. He said: \"hi!\"",
    "e-mail: a@b.c? http://x.y/z. ok"];
foreach ($crafted as $text) {
    $texts[] = [$text, "en-US"];
}
$tokenizer = \seekquarry\yioop\locale\en_US\resources\Tokenizer::class;
PhraseParser::getTokenizer("en-US");
$recorded = [];
foreach ($texts as [$text, $lang]) {
    $recorded[] = [$text, $lang, PhraseParser::extractTermSentencePositionsTags($text, $lang, true),
        \YioopCodec\Tests\stemScratch($tokenizer)];
}
exec("rm -rf " . escapeshellarg($work));
$data = serialize(["calls" => $recorded]);
if ($compare) {
    $expected = unserialize(gzdecode(file_get_contents($out)))["calls"];
    $differ = count(array_filter(array_keys($expected), fn($i) => $expected[$i] !== ($recorded[$i] ?? null)));
    printf("%d texts, %d differ\n", count($expected), $differ);
    exit($differ ? 1 : 0);
}
file_put_contents($out, gzencode($data, 9));
printf("%d texts\n", count($recorded));
