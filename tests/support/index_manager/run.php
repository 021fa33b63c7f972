<?php
/**
 * Runs IndexManager::discountedNumDocsTerm on the cases below over the
 * dictionary Yioop built for tests/fixtures/dictionary, and prints what
 * each gave as JSON.
 *
 *   php run.php yioop YIOOP_DIR   Yioop's own classes (records the fixture)
 *   php run.php stand-ins         stand-ins.php: the native function, with
 *                                 Yioop's recorded answer where it declines
 *
 * Per case: the result (serialized) and, with the stand-ins, whether the
 * native function declined. The cases run in order in one process, so a
 * term answered once is in the method's static cache for the next.
 */
namespace YioopCodec\Tests\IndexManager;

use seekquarry\yioop\library as L;

const INDEX = "1700000000";
const INDEX_AHEAD = "1700000001";
const INDEX_NO_ACTIVE = "1700000002";
const INDEX_SHARD_WRITTEN = "1700000003";

[, $mode] = $argv;
$recorded = dirname(__DIR__, 2) . "/fixtures/index_manager/yioop-2021.json";
$work = sys_get_temp_dir() . "/index-manager-" . getmypid();
mkdir($work);
if ($mode === "yioop") {
    require dirname(__DIR__, 3) . "/bench/e2e/yioop-boot.php";
    \seekquarry\yioop\configs\bootYioop($argv[2] . "/src", $work);
} else {
    require __DIR__ . "/stand-ins.php";
    $answers = array_column(json_decode(file_get_contents($recorded), true)["cases"], "result");
}

$dictionary = json_decode(gzdecode(file_get_contents(dirname(__DIR__, 2) . "/fixtures/dictionary/recorded.json.gz")), true);
foreach ($dictionary["files"] as $path => $bytes) {
    @mkdir(dirname("$work/dictionary/$path"), 0777, true);
    file_put_contents("$work/dictionary/$path", base64_decode($bytes));
}
/** An index over that dictionary, generation_info as given. */
function index(string $dir, array $generation_info): L\IndexArchiveBundle
{
    $index = (new \ReflectionClass(L\IndexArchiveBundle::class))->newInstanceWithoutConstructor();
    $index->dir_name = $dir;
    $index->generation_info = $generation_info;
    $index->dictionary = new L\IndexDictionary("$dir/dictionary", $index);
    return $index;
}
// The dictionary's shards are generations 0-5; a crawl past them (ACTIVE 7,
// LAST_DICTIONARY_SHARD 5) makes Yioop look for generation 7's shard too.
// Without an ACTIVE generation the dictionary answers its entries alone, not
// [total, entries]: IndexManager then reads the second entry as the list.
// Generation 6's shard written (a copy of shard fixture 1) makes Yioop open
// it as well.
$written = "$work/written";
mkdir("$written/posting_doc_shards", 0777, true);
symlink("$work/dictionary", "$written/dictionary");
copy(dirname(__DIR__, 2) . "/fixtures/shard/shard-1.bin", "$written/posting_doc_shards/index6");
L\IndexManager::$indexes = [INDEX => index($work, ["ACTIVE" => 5, "LAST_DICTIONARY_SHARD" => 5]),
    INDEX_AHEAD => index($work, ["ACTIVE" => 7, "LAST_DICTIONARY_SHARD" => 5]),
    INDEX_NO_ACTIVE => index($work, []),
    INDEX_SHARD_WRITTEN => index($written, ["ACTIVE" => 6, "LAST_DICTIONARY_SHARD" => 5])];
L\IndexManager::$index_times = array_fill_keys(array_keys(L\IndexManager::$indexes), time());

/** A subclass: the method's statics are shared with it (PHP 8.1+). */
class SubManager extends L\IndexManager
{
}

/** [case name, term, index name, the class called on]. */
function cases(): array
{
    $sub = SubManager::class;
    return [
        ["a term the index lacks", "link:VGhpc0lzTm90QVdvcmQ", INDEX, null],
        ["the same again (Yioop keeps no zero)", "link:VGhpc0lzTm90QVdvcmQ", INDEX, null],
        ["an absent word", "zzyzxq", INDEX, null],
        ["the index name as an int", "zzyzxq", (int)INDEX, null],
        ["the most frequent word", "w1", INDEX, null],
        ["the most frequent word again, from the cache", "w1", INDEX, null],
        ["a middling word", "w60", INDEX, null],
        ["a middling word again", "w60", INDEX, null],
        ["a rare word", "w900", INDEX, null],
        ["a word the cache holds, named by an int", "w1", (int)INDEX, null],
        ["a crawl past the dictionary: an absent word", "zzyzxq", INDEX_AHEAD, null],
        ["a crawl past the dictionary: a word", "w20", INDEX_AHEAD, null],
        ["an int term", 5, INDEX, null],
        ["called on a subclass", "qqqqqqq", INDEX, $sub],
        ["an empty term", "", INDEX, null],
        ["no ACTIVE generation: a rare word", "w900", INDEX_NO_ACTIVE, null],
        ["no ACTIVE generation: a frequent word", "w1", INDEX_NO_ACTIVE, null],
        ["a crawl past the dictionary: an absent word again", "zzyzxq", INDEX_AHEAD, null],
        ["a crawl past the dictionary: a term the index lacks", "link:VGhpc0lzTm90QVdvcmQ", INDEX_AHEAD, null],
        ["the active shard written: an absent word", "zzyzxq", INDEX_SHARD_WRITTEN, null],
        ["the active shard written: a word", "w20", INDEX_SHARD_WRITTEN, null],
    ];
}

$out = ["constants" => ["NUM_DISTINCT_GENERATIONS" => \seekquarry\yioop\configs\NUM_DISTINCT_GENERATIONS,
    "NUM_DOCS_PER_GENERATION" => \seekquarry\yioop\configs\NUM_DOCS_PER_GENERATION], "cases" => []];
foreach (cases() as $i => [$name, $term, $index_name, $class]) {
    $class ??= L\IndexManager::class;
    if ($mode !== "yioop") {
        L\IndexManager::$answers = [$term => $answers[$i]];
    }
    $declined_before = L\IndexManager::$declined ?? 0;
    // Yioop's error handler prints PHP 8.2's deprecation of a dynamic
    // property when it opens a shard: not the answer, so not kept.
    ob_start();
    $result = $class::discountedNumDocsTerm($term, $index_name);
    ob_end_clean();
    $case = ["name" => $name, "term" => $term, "result" => serialize($result)];
    if ($mode !== "yioop") {
        $case["declined"] = L\IndexManager::$declined > $declined_before;
    }
    $out["cases"][] = $case;
}
exec("rm -rf " . escapeshellarg($work));
echo json_encode($out, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
