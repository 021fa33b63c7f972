<?php
/**
 * Records what Yioop's own English stemmer gives, for tests/text/StemTest.php:
 *
 *   php tests/tools/record/record-stem.php YIOOP_DIR tests/fixtures/stem/recorded.json.gz
 *
 * Run without the yioop extension. Words: every 16th distinct word of
 * Yioop's en_US lexicon, words ending in each suffix the stemmer knows,
 * and odd ones (hyphens, short words, no-stem words, non-ASCII bytes).
 * Stored: the class's no-stem list, and per word the stem and the class's scratch (`$buffer`, `$k`,
 * `$j`, read by reflection) after the call.
 */
namespace seekquarry\yioop\configs;

[, $yioop, $out] = $argv;
if (extension_loaded("yioop")) {
    fwrite(STDERR, "run this without the yioop extension\n");
    exit(2);
}
require dirname(__DIR__, 3) . "/bench/e2e/yioop-boot.php";
$work = sys_get_temp_dir() . "/record-stem-" . getmypid();
mkdir($work);
bootYioop("$yioop/src", $work);
$class = \seekquarry\yioop\locale\en_US\resources\Tokenizer::class;
$words = [];
$lexicon = gzfile("$yioop/src/locale/en_US/resources/lexicon.txt.gz");
foreach ($lexicon as $i => $line) {
    $word = strtolower(strtok($line, " \t\n"));
    if ($word !== "" && ($i % 16 == 0 || preg_match('/(ational|tional|enci|anci|izer|abli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|icate|ative|alize|iciti|ical|ful|ness|ement|ible|ism|sses|ies|eed|ing|ed|bl|iz|at|y)$/', $word) && $i % 5 == 0)) {
        $words[$word] = true;
    }
}
foreach (["", "a", "ab", "abc", "abc-", "-owned", "state-owned", "fly-fishing", "fishing", "blues",
    "ies", "sses", "eed", "yyy", "y", "ys", "bly", "ñandú", "東京", "x-", "--", "a-b-c-ing", "hopping",
    "controlling", "fizzed", "filing", "happy", "sky", "agreed", "feed", "ponies", "\xff\xfe"] as $word) {
    $words[$word] = true;
}
$scratch = new \ReflectionClass($class);
$recorded = [];
foreach (array_keys($words) as $word) {
    $word = (string)$word;
    $stem = $class::stem($word);
    $recorded[] = [base64_encode($word), base64_encode($stem),
        base64_encode((string)$scratch->getStaticPropertyValue("buffer")),
        $scratch->getStaticPropertyValue("k"), $scratch->getStaticPropertyValue("j")];
}
file_put_contents($out, gzencode(json_encode(["no_stem_list" => $class::$no_stem_list,
    "calls" => $recorded]), 9));
exec("rm -rf " . escapeshellarg($work));
printf("%d words\n", count($recorded));
