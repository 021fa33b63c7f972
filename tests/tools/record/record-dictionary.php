<?php
/**
 * Records what Yioop's own IndexDictionary (PHP, no extension) returns from
 * getWordInfo on a small dictionary it built itself, for
 * tests/index/DictionaryTest.php to replay against
 * yioop_codec\dictionary\getWordInfo without a Yioop tree.
 *
 *   PHP_INI_SCAN_DIR=<ini dir without yioop> \
 *       php tests/tools/record/record-dictionary.php YIOOP_DIR tests/fixtures/dictionary/recorded.json.gz
 *
 * Six shards (generations 0-5) of the bench corpus are added one by one
 * with Yioop's addShardDictionary, so its tiers merge and words of several
 * generations get auxiliary records. Then one dictionary object answers a
 * sequence of look-ups: common, middling, rare and absent words, with
 * IndexManager's argument forms (thresholds, start generations, distinct
 * generations as the installer's string) and over 200 files, so that the
 * handle queue evicts. Recorded: the dictionary's files, each call's
 * arguments, result and $this->read_tier, and the object's fhs (streams
 * as "stream"), file_lens and an md5 of serialize($this->blocks) after the
 * sequence. A second sequence on a copy with one file cut short records
 * which calls warn (the native function must leave those to Yioop's PHP).
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\IndexDictionary;
use seekquarry\yioop\library\IndexShard;
use yioop_codec\bench\Corpus;

[, $yioop, $out] = $argv + [null, null, null];
if (!$yioop || !$out || extension_loaded("yioop")) {
    fwrite(STDERR, "usage: php record-dictionary.php YIOOP_DIR OUT.json.gz, without the yioop extension\n");
    exit(2);
}
$root = dirname(__DIR__, 3);
require "$root/bench/e2e/corpus.php";
require "$root/bench/e2e/yioop-boot.php";
require "$root/tests/support/dictionary/state.php";
$work = sys_get_temp_dir() . "/yioop-record-dict-" . getmypid();
@mkdir($work);
bootYioop("$yioop/src", $work);
mt_srand(11);

$dir = "$work/dictionary";
$dictionary = new IndexDictionary($dir);
for ($generation = 0; $generation < 6; $generation++) {
    $file = "$work/index$generation";
    $shard = new IndexShard($file, $generation, NUM_DOCS_PER_GENERATION);
    foreach ((new Corpus(20 + $generation))->items(12) as [$keys, $offset, $words, $meta, $is_doc, $scores]) {
        $shard->addDocumentWords($keys, $offset, $words, $meta, $is_doc, false, $scores);
    }
    $shard->save();
    $dictionary->addShardDictionary(new IndexShard($file, $generation, NUM_DOCS_PER_GENERATION, true));
}

$ids = [];
foreach ([1, 2, 3, 5, 8, 20, 60, 200, 900] as $rank) {
    $ids[] = \seekquarry\yioop\library\crawlHashWord(Corpus::word($rank), true);
}
$ids[] = \seekquarry\yioop\library\crawlHashWord("zzyzxq", true);
// Absent ids over 150 first bytes: with two tiers, past the 200 handles.
for ($i = 0; $i < 150; $i++) {
    $ids[] = chr($i) . chr(255 - $i) . str_repeat("\x01", 18);
}
$forms = [
    [-1, -1, NUM_DISTINCT_GENERATIONS, true],   // WordIterator
    [-1, 0, NUM_DISTINCT_GENERATIONS, false],   // discountedNumDocsTerm
    [0, 3, NUM_DISTINCT_GENERATIONS, true],     // advanceGeneration
    [4, -1, -1, true],
    [-1, 2, "2", true],
    [-1, -1, 1, false],
];
$calls = [];
$calls = array_merge(recordSequence(new IndexDictionary($dir, parentWith(6)), $ids, $forms, false), $calls);
$first = ["calls" => $calls, "state" => \YioopCodec\Tests\dictionaryState($dictionary = end($GLOBALS["last_object"]))];
$files = [];
foreach (new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($dir, \FilesystemIterator::SKIP_DOTS)) as $path) {
    $files[substr($path, strlen($dir) + 1)] = base64_encode(file_get_contents($path));
}
// One file of the commonest word's folder cut short: calls reading it warn.
$cut = "$work/dictionary-cut";
exec("cp -r " . escapeshellarg($dir) . " " . escapeshellarg($cut));
$common = ord($ids[0][0]);
$target = "$cut/$common/" . (new IndexDictionary($cut))->active_tiers[0] . "A.dic";
file_put_contents($target, substr(file_get_contents($target), 0, 2048 + 45));
$cut_calls = recordSequence(new IndexDictionary($cut, parentWith(6)), array_slice($ids, 0, 10), $forms, true);
$recording = [
    "constants" => ["NUM_DOCS_PER_GENERATION" => NUM_DOCS_PER_GENERATION],
    "active_tiers" => $dictionary->active_tiers,
    "max_tier" => $dictionary->max_tier,
    "files" => $files,
    "sequence" => $first,
    "cut" => ["file" => substr($target, strlen($cut) + 1), "length" => 2048 + 45, "calls" => $cut_calls],
];
file_put_contents($out, gzencode(json_encode($recording), 9));
exec("rm -rf " . escapeshellarg($work));
fprintf(STDERR, "%d calls, %d files, %d bytes\n", count($calls), count($files), filesize($out));

/** A stand-in for the IndexArchiveBundle: only generation_info is read. */
function parentWith(int $active): object
{
    $parent = new \stdClass();
    $parent->generation_info = ["ACTIVE" => $active, "LAST_DICTIONARY_SHARD" => $active - 1];
    return $parent;
}

function recordSequence(IndexDictionary $dictionary, array $ids, array $forms, bool $note_warnings): array
{
    $calls = [];
    foreach ($ids as $n => $id) {
        // Every form for the corpus words; the first form for the rest.
        foreach (($n < 10 ? $forms : [$forms[0]]) as $form) {
            [$threshold, $start, $distinct, $with_total] = $form;
            // Yioop's reads put its own handler back, which prints.
            $warned = false;
            set_error_handler(function () use (&$warned) { $warned = true; return true; });
            ob_start();
            $result = $dictionary->getWordInfo($id, true, $threshold, $start, $distinct, $with_total);
            $warned = $warned || str_contains(ob_get_clean(), "<pre>");
            $calls[] = ["id" => base64_encode($id), "args" => [$threshold, $start, $distinct, $with_total],
                "result" => base64_encode(serialize($result)), "read_tier" => $dictionary->read_tier,
                "warned" => $warned];
        }
    }
    $GLOBALS["last_object"] = [$dictionary];
    return $calls;
}
