<?php
/**
 * Records what Yioop's own PhraseParser gives for the text passes that
 * src/text/phrase.rs makes native, for tests/text/PhraseTest.php:
 *
 *   php tests/tools/record/record-phrase.php YIOOP_DIR SUMMARIES_ARCHIVE OUT [PAGES=120]
 *
 * Texts: the phrase strings of the first PAGES pages of a crawl's
 * summaries (web_archive_0.txt.gz), built as the shard build builds them
 * (host words, title, path words, description), after
 * canonicalizePunctuatedTerms, as extractPhrasesInLists passes them on;
 * then crafted ones (every separator, NULs, "0", hyphens, underscores,
 * non-ASCII letters, numbers). Stored per text: hyphenateEntities' result,
 * stemCharGramSegment's terms of that result, and the en_US Tokenizer's
 * scratch after it. And a small n-word-gram filter for the test: built
 * with Yioop's own BloomFilterFile from every window of these texts that
 * Yioop's en_US filter says it holds (as a phrase or, with "*", as the
 * start of a longer one), checked to hold none of the windows Yioop's
 * filter does not. Run without the extension, or with it on a tree
 * switched by the integration tool to compare (OUT is then compared, not
 * written: "--compare" as a fifth argument).
 */
namespace seekquarry\yioop\configs;

require __DIR__ . "/crawl-texts.php";
require dirname(__DIR__, 2) . "/support/stem/scratch.php";
[$yioop, $archive, $out, $pages, $compare, $work] = startRecorder("phrase", $argv, 120);

use seekquarry\yioop\library\PhraseParser;

$texts = crawlTexts($archive, $pages);
$odd = ["", "0", " 0 ", "a 0 b", "\0", "\0abc\0 def", "\u{180E}\0abc", "x\u{180E}y", "New York City",
    "United States of America", "state-of-the-art well-known e-mail", "snake_case_word", "IBM's A.B.C. x&y",
    "Ünïcödé ÀÉÎ straße İstanbul ΣΟΦΊΑ Ωμέγα", "１２３ ＡＢＣ", "2019 3.14 1e3 0x1A 007",
    "tab\there\nnew\rline\x0B\x0C end", "。，！？《》「」【】·—―…©®™℠", "a--b -- -x- x-", "\u{3000}\u{2003}a\u{A0}b\u{85}"];
foreach (mb_str_split(implode("", array_map(fn($c) => mb_chr($c), array_merge(range(0x20, 0x7e), range(0xa0, 0x24f), range(0x2000, 0x206f), range(0x3000, 0x303f))))) as $i => $c) {
    $odd[] = "w{$c}w x$c y {$c}z";
}
foreach ($odd as $text) {
    $texts[] = [$text, "en-US"];
}
$tokenizer = \seekquarry\yioop\locale\en_US\resources\Tokenizer::class;
PhraseParser::getTokenizer("en-US");
$recorded = [];
foreach ($texts as [$text, $lang]) {
    PhraseParser::canonicalizePunctuatedTerms($text, $lang);
    $hyphenated = $text;
    PhraseParser::hyphenateEntities($hyphenated, $lang);
    $terms = PhraseParser::stemCharGramSegment($hyphenated, $lang);
    $joined = PhraseParser::stemCharGramSegment($text, $lang, true);
    $recorded[] = [$text, $lang, $hyphenated, $terms, $joined,
        \YioopCodec\Tests\stemScratch($tokenizer)];
}
$json = json_encode(["calls" => $recorded, "no_stem_list" => $tokenizer::$no_stem_list, "punct" => PUNCT,
    "programming_language_map" => PhraseParser::$programming_language_map,
    "filter" => $compare ? null : smallFilter($texts, "$work/filter.ftr")], JSON_INVALID_UTF8_IGNORE | JSON_THROW_ON_ERROR);
exec("rm -rf " . escapeshellarg($work));
if ($compare) {
    $expected = json_decode(gzdecode(file_get_contents($out)), true)["calls"];
    $differ = 0;
    foreach ($expected as $i => $call) {
        if (json_encode($call) !== json_encode(json_decode(json_encode($recorded[$i]), true))) {
            $differ++;
            if ($differ <= 3) {
                fwrite(STDERR, "differs: " . substr(json_encode($call), 0, 300) . "\n   got: " . substr(json_encode($recorded[$i]), 0, 300) . "\n");
            }
        }
    }
    printf("%d texts, %d differ\n", count($expected), $differ);
    exit($differ ? 1 : 0);
}
file_put_contents($out, gzencode($json, 9));
printf("%d texts\n", count($recorded));

/** The small filter's fields: every window Yioop's filter holds, no other. */
function smallFilter(array $texts, string $file): array
{
    $held = $not_held = [];
    foreach ($texts as [$text, $lang]) {
        PhraseParser::canonicalizePunctuatedTerms($text, $lang);
        $words = array_values(array_filter(preg_split("/\\s+/u", $text)));
        // From each word on, the windows Yioop's loop can ask: longer ones
        // only while the filter holds the last as the start of one ("*").
        for ($i = 0; $i < count($words); $i++) {
            for ($n = 2; $i + $n <= count($words); $n++) {
                $window = mb_strtolower(trim(implode(" ", array_slice($words, $i, $n))));
                foreach ([$window, "$window*"] as $phrase) {
                    $answer = \seekquarry\yioop\library\NWordGrams::ngramsContains($phrase, $lang, "all");
                    if ($answer) {
                        $held[$phrase] = true;
                    } else {
                        $not_held[$phrase] = true;
                    }
                }
                if (!$answer) {
                    break;
                }
            }
        }
    }
    $filter = new \seekquarry\yioop\library\BloomFilterFile($file, 4000, PHP_INT_MAX);
    foreach (array_keys($held) as $phrase) {
        $filter->add((string)$phrase);
    }
    foreach (array_keys($not_held) as $phrase) {
        if ($filter->contains((string)$phrase)) {
            throw new \RuntimeException("the small filter holds '$phrase'");
        }
    }
    printf("small filter: %d phrases held, %d not\n", count($held), count($not_held));
    return ["num_keys" => $filter->num_keys, "filter_size" => $filter->filter_size,
        "filter" => base64_encode($filter->filter)];
}
