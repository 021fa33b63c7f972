<?php
/**
 * Records what Yioop's own en_US Tokenizer gives for the passes that
 * src/text/en_us/triplets makes native, for tests/text/TripletsTest.php:
 *
 *   php tests/tools/record/record-triplets.php YIOOP_DIR SUMMARIES_ARCHIVE OUT [PAGES=100]
 *
 * Inputs: the sentences of the first PAGES pages of a crawl's summaries
 * (web_archive_0.txt.gz), made as the shard build makes them (the page's
 * phrase string through canonicalizePunctuatedTerms, hyphenateEntities
 * and extractTermSentencePositionsTags), then crafted sentences for each
 * of the tagger's, compressor's and parser's rules. Stored: each page's
 * extractTripletsPhrases result and the stemmer's scratch after it, the
 * first pages' texts tagged by tagTokenizePartOfSpeech, the Tokenizer's
 * statics and PHRASE_THRESHOLD, and the lines of Yioop's lexicon that
 * tag a word of these texts (the whole lexicon is 1.1 MB). Run without
 * the extension, or with it on a tree switched by the integration tool to
 * compare (OUT is then compared, not written: "--compare" as a fifth
 * argument).
 */
namespace seekquarry\yioop\configs;

require __DIR__ . "/crawl-texts.php";
[$yioop, $archive, $out, $pages, $compare, $work] = startRecorder("triplets", $argv, 100);

use seekquarry\yioop\library\PhraseParser;
use seekquarry\yioop\locale\en_US\resources\Tokenizer;

$texts = array_column(crawlTexts($archive, $pages), 0);
$lists = [];
foreach ($texts as $text) {
    PhraseParser::canonicalizePunctuatedTerms($text, "en-US");
    PhraseParser::hyphenateEntities($text, "en-US");
    $lists[] = PhraseParser::extractTermSentencePositionsTags($text, "en-US", true)["SENTENCES"] ?? [];
}
$crafted = [
    "the big dog quickly ate a bone", "The big dog quickly ate a bone", "dogs and cats ran", "it is very big",
    "the cat was on the mat", "paris is the capital of france", "in the dark of winter, he walked silently",
    "the man who sold the world is famous", "the dog that barked ran away", "he left because she came home",
    "a b", "one two three", "don't re-do the thing", "-a- b c d", "42", "0", "1 2 3 4", "the 0 cat ate 0 mice",
    "at this point, we go home today", "as a matter of fact, the team won", "quickly, he ran to the store",
    "and, so it goes on and on", "for the record we won the game", "we, however; went to the park",
    "the results are furthermore quite good", "joe, 51, went to town", "joe, aged 24, went to town",
    "the dog, which barked, ran to the house, when it rained", "the salsoda is also sold here",
    "the (big) dog [really] ate {a} bone", "a () b [c] {d} e f g", "(a (b) c) the dog ate food",
    "the car would run fast", "the run was long", "the quickly running dog barked loudly",
    "a medal for the national team was awarded", "he walked and talked and sang", "the stone house is old",
    "cats dogs and birds eat seeds and nuts", "the king of the north and the queen of the south ruled",
    "all the cows low in the field", "it is known in over 20 countries", "snake_case words are odd here",
    "ünïcödé words café résumé are here", "the 2019 report was published by the w3c",
    "the drought happened in many countries over many years", "who is the president of the united states",
    "he is a very good man", "the very big dog is very happy", "she likes that he likes that",
    "the cat and ran home", "dogs run and bark and the cats sleep", "the tall and fast runner won the race",
    "the cat is the cat", "the cat was the dog", "x is y is z", "the the the the cat is", "is is is is",
    str_repeat("the cat and the dog ", 40) . "ran home", str_repeat("in the house of ", 60) . "the man is old",
];
foreach ($crafted as $i => $sentence) {
    $lists[] = [$sentence => [$i + 1]];
}
// Sentence lists as PHP builds them: integer-like sentences are int keys.
$lists[] = array_combine(array_values($crafted), range(1, count($crafted)));
$tokenizer = new \ReflectionClass(Tokenizer::class);
$scratch = fn() => [$tokenizer->getStaticPropertyValue("buffer"), $tokenizer->getStaticPropertyValue("k"),
    $tokenizer->getStaticPropertyValue("j")];
// The scratch as a fresh process has it, so that calls that stem nothing
// leave what the test starts from.
foreach (["buffer", "k", "j"] as $name) {
    (new \ReflectionProperty(Tokenizer::class, $name))->setValue(null, null);
}
$calls = [];
foreach ($lists as $sentences) {
    $result = Tokenizer::extractTripletsPhrases($sentences);
    $calls[] = [base64Keys($sentences), $result, $scratch()];
}
$tagged = [];
foreach (array_merge(array_slice($texts, 0, 40), $crafted, ["", "x.y-z_1 2", "ÀÉ caf\xC3 é9", "THE Run runs"]) as $text) {
    $tagged[] = [base64_encode($text), Tokenizer::tagTokenizePartOfSpeech($text)];
}
$statics = [];
foreach (["adjective_type", "adverb_type", "conjunction_type", "determiner_type", "noun_type", "verb_type",
    "question_token", "no_stem_list"] as $name) {
    $statics[$name] = Tokenizer::$$name;
}
$json = json_encode(["calls" => $calls, "tagged" => $tagged, "statics" => $statics,
    "threshold" => PHRASE_THRESHOLD, "lexicon" => $compare ? null : lexiconLines($lists, $tagged)],
    JSON_THROW_ON_ERROR);
exec("rm -rf " . escapeshellarg($work));
if ($compare) {
    $expected = json_decode(gzdecode(file_get_contents($out)), true);
    $differ = 0;
    foreach (["calls", "tagged"] as $part) {
        foreach ($expected[$part] as $i => $call) {
            if (json_encode($call) !== json_encode(json_decode($json, true)[$part][$i])) {
                $differ++;
                fwrite(STDERR, "$part $i differs\n");
            }
        }
    }
    printf("%d calls, %d tagged, %d differ\n", count($expected["calls"]), count($expected["tagged"]), $differ);
    exit($differ ? 1 : 0);
}
file_put_contents($out, gzencode($json, 9));
printf("%d calls, %d tagged\n", count($calls), count($tagged));

/** Sentences => positions, keys base64-encoded (they may not be UTF-8). */
function base64Keys(array $sentences): array
{
    $out = [];
    foreach ($sentences as $sentence => $positions) {
        $out[] = [base64_encode((string)$sentence), $positions];
    }
    return $out;
}

/**
 * The lines of Yioop's lexicon whose word is a word of these texts (lower
 * case), in the lexicon's order, and the lines with a comma after the word
 * (which Yioop's reading splits there).
 */
function lexiconLines(array $lists, array $tagged): string
{
    $words = [];
    $all = array_merge(array_map('base64_decode', array_column($tagged, 0)), ...array_map('array_keys', $lists));
    foreach ($all as $text) {
        preg_match_all("/[\w\d]+/", (string)$text, $m);
        foreach ($m[0] as $word) {
            $words[strtolower($word)] = true;
        }
    }
    $kept = [];
    foreach (explode("\n", gzdecode(file_get_contents(LOCALE_DIR . "/en_US/resources/lexicon.txt.gz"))) as $line) {
        $word = preg_split("/[\s,]/", $line)[0];
        if (isset($words[$word]) || preg_match('/^[^\s,]+,/', $line)) {
            $kept[] = $line;
        }
    }
    printf("lexicon: %d lines kept\n", count($kept));
    return implode("\n", $kept) . "\n";
}
