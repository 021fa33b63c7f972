<?php
/**
 * Records what Yioop's own IndexShard::addDocumentWords (PHP, no extension)
 * does to a new shard, for tests/ShardBuildTest.php to replay against the
 * native yioop_codec\shard\addDocumentWords without a Yioop tree.
 *
 *   PHP_INI_SCAN_DIR=<ini dir without yioop> \
 *       php tests/live/record-build.php YIOOP_DIR tests/shards
 *
 * Writes build.json: the state a new IndexShard starts in, then per
 * sequence of calls, each call's arguments, what Yioop's
 * packAuxiliaryDocumentKeys made of them (the replay's stand-in returns it),
 * the result (or the exception Yioop threw), and a SHA-1 of every state
 * property afterwards. Values go through serialize(), so types, key order
 * and float bits all count.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\IndexShard;
use yioop_codec\bench\Corpus;

const STATE = ["words", "num_docs_word", "doc_infos", "docids_len", "word_docs_len", "num_docs",
    "num_link_docs", "len_all_docs", "len_all_link_docs", "word_docs", "word_docs_packed"];

[, $yioop, $out_dir] = $argv + [null, null, null];
if (!$yioop || !$out_dir || extension_loaded("yioop")) {
    fwrite(STDERR, "usage: php record-build.php YIOOP_DIR OUT_DIR, without the yioop extension\n");
    exit(2);
}
$root = dirname(__DIR__, 2);
require "$root/bench/e2e/corpus.php";
require "$root/bench/e2e/yioop-boot.php";
$work = sys_get_temp_dir() . "/yioop-record-build-" . getmypid();
@mkdir($work);
bootYioop("$yioop/src", $work);

$recording = [
    "initial" => base64_encode(serialize(state(newShard()))),
    "sequences" => ["corpus" => record(corpusCalls()), "crafted" => record(craftedCalls())]
        + array_map("seekquarry\\yioop\\configs\\record", rejectedCalls()),
];
file_put_contents("$out_dir/build.json", json_encode($recording, JSON_PRETTY_PRINT));
exec("rm -rf " . escapeshellarg($work));

function newShard(): IndexShard
{
    return new IndexShard(sys_get_temp_dir() . "/never-written", 0, NUM_DOCS_PER_GENERATION);
}

function state(IndexShard $shard): array
{
    return array_combine(STATE, array_map(fn($p) => $shard->$p, STATE));
}

/** Documents and links of the benchmark's corpus, with description scores. */
function corpusCalls(): array
{
    $calls = [];
    foreach ((new Corpus(11))->items(25) as [$keys, $offset, $words, $meta, $is_doc, $scores]) {
        $calls[] = [$keys, $offset, $words, $meta, $is_doc, false, $scores, []];
    }
    return $calls;
}

/**
 * What the corpus never passes: meta ids that name a word already there
 * (also as "123" for the int key 123), repeated meta ids, int meta ids,
 * ranks, truthy and falsy is_doc, an even number of keys (padded), keys
 * that are not whole (false), user ranks, empty word lists, positions as
 * strings and floats, and a packed shard reopened for adding.
 */
function craftedCalls(): array
{
    $key = fn($s) => str_pad($s, 8, "k");
    return [
        [$key("a") . $key("b") . $key("c"), 10, ["alpha" => [1, 5], 123 => [2], "beta" => []],
            ["123", "site:x", "site:x", 7, "alpha"], true, false, [], []],
        [$key("d") . $key("e"), 20, ["alpha" => [3, 4, 9], "gamma" => ["4", 6.0, "8"]], [], 1, 5, [], []],
        [$key("f") . $key("g") . $key("h"), 30, ["beta" => [1]], ["7"], 0, 0x1f, [], [0.25, 0.5]],
        [$key("i") . "xyz", 40, ["alpha" => [1]], [], true, false, [], []],
        [$key("j") . $key("k") . $key("l"), 50, [], ["only:meta"], "yes", false, [3 => 0.5, 9 => 1.0], []],
        ["packed", "word_docs_packed"],
        [$key("m") . $key("n") . $key("o"), 60, ["alpha" => [2, 3], "delta" => [1]], [], true, 2, [], []],
    ];
}

/**
 * Input outside the types the native function takes, each last in a
 * sequence of its own: the native function declines it (null, nothing
 * changed) and Yioop's PHP, which the switched method then runs, gives what
 * was recorded here.
 */
function rejectedCalls(): array
{
    $first = [str_repeat("k", 24), 10, ["alpha" => [1, 5]], [], true, false, [], []];
    $declined = [
        "position list not an array" => [str_repeat("p", 24), 70, ["alpha" => "not a list"], [], true, false, [], []],
        "float summary offset" => [str_repeat("s", 24), 80.5, ["alpha" => [1]], [], true, false, [], []],
        "float meta id" => [str_repeat("m", 24), 90, ["alpha" => [1]], [1.5], true, false, [], []],
        "string rank" => [str_repeat("r", 24), 95, ["alpha" => [1]], [], true, "3", [], []],
    ];
    return array_map(fn($call) => [$first, $call], $declined);
}

function record(array $calls): array
{
    $shard = newShard();
    $recorded = [];
    foreach ($calls as $args) {
        if ($args === ["packed", "word_docs_packed"]) {
            $shard->word_docs_packed = true;
            $recorded[] = ["set" => "word_docs_packed", "state" => digest($shard)];
            continue;
        }
        $aux = $shard->packAuxiliaryDocumentKeys($args[6], $args[7]);
        try {
            $result = ["returns" => base64_encode(serialize($shard->addDocumentWords(...$args)))];
        } catch (\Throwable $e) {
            $result = ["throws" => get_class($e)];
        }
        $recorded[] = ["args" => base64_encode(serialize($args)), "aux" => base64_encode($aux),
            "result" => $result, "state" => digest($shard)];
    }
    return $recorded;
}

/** A SHA-1 of each state property's serialize(). */
function digest(IndexShard $shard): array
{
    return array_map(fn($value) => sha1(serialize($value)), state($shard));
}
