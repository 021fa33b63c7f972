<?php
/**
 * Records what Yioop's own IndexShard::addDocumentWords and the steps of
 * save() (PHP, no extension) do to a new shard, for tests/index/ShardBuildTest.php
 * to replay against the native yioop_codec\shard functions without a Yioop
 * tree.
 *
 *   PHP_INI_SCAN_DIR=<ini dir without yioop> \
 *       php tests/tools/record/record-build.php YIOOP_DIR tests/fixtures/shard
 *
 * Writes build.json: the state a new IndexShard starts in, then per
 * sequence of calls, each call's arguments, what Yioop's
 * packAuxiliaryDocumentKeys made of them (the replay's stand-in returns it),
 * the result (or the exception Yioop threw), and a SHA-1 of every state
 * property afterwards. Values go through serialize(), so types, key order
 * and float bits all count. A save step (mergeWordPostingsToString,
 * prepareWordsAndPrefixes, packWords, outputPostingLists, in save()'s
 * order) also records a SHA-1 of the bytes it wrote to its stream ("STREAM" in its
 * arguments: a php://memory stream); a "set" step assigns properties, as
 * save() does between and after its steps.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\IndexShard;
use yioop_codec\bench\Corpus;

const STATE = ["words", "num_docs_word", "doc_infos", "docids_len", "word_docs_len", "num_docs",
    "num_link_docs", "len_all_docs", "len_all_link_docs", "word_docs", "word_docs_packed",
    "word_postings", "prefixes", "prefixes_len", "words_len", "last_flattened_words_count", "generation"];
/** What save() sets once its steps are done, ready for more documents. */
const AFTER_SAVE = ["set" => ["words" => [], "word_docs" => "", "prefixes" => "", "word_docs_packed" => false]];

[, $yioop, $out_dir] = $argv + [null, null, null];
if (!$yioop || !$out_dir || extension_loaded("yioop")) {
    fwrite(STDERR, "usage: php record-build.php YIOOP_DIR OUT_DIR, without the yioop extension\n");
    exit(2);
}
$root = dirname(__DIR__, 3);
require "$root/bench/e2e/corpus.php";
require "$root/bench/e2e/yioop-boot.php";
$work = sys_get_temp_dir() . "/yioop-record-build-" . getmypid();
@mkdir($work);
bootYioop("$yioop/src", $work);
$_SERVER["NO_LOGGING"] = true; // crawlLog() would write to standard output

$recording = [
    "initial" => base64_encode(serialize(state(newShard()))),
    "sequences" => ["corpus" => record(corpusCalls()), "crafted" => record(craftedCalls()),
        "saved twice" => record(savedTwiceCalls()), "crafted saves" => record(craftedSaveCalls())]
        + array_map("seekquarry\\yioop\\configs\\record", rejectedCalls() + rejectedSaveCalls()),
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
function corpusCalls(int $seed = 11, int $docs = 25): array
{
    $calls = [];
    foreach ((new Corpus($seed))->items($docs) as [$keys, $offset, $words, $meta, $is_doc, $scores]) {
        $calls[] = [$keys, $offset, $words, $meta, $is_doc, false, $scores, []];
    }
    return $calls;
}

/** save()'s steps: to a file (STREAM) with logging, or to a string. */
function saveSteps(bool $to_file): array
{
    $fh = $to_file ? "STREAM" : null;
    return [
        ["step" => "mergeWordPostingsToString", "args" => []],
        ["step" => "prepareWordsAndPrefixes", "args" => [$to_file]],
        ["step" => "packWords", "args" => [$fh, $to_file]],
        ["step" => "outputPostingLists", "args" => [$fh, $to_file]],
        AFTER_SAVE,
    ];
}

/**
 * A shard saved, given more documents (many of the same words), saved
 * again and given more: the merge of new words into the saved postings.
 */
function savedTwiceCalls(): array
{
    return array_merge(corpusCalls(11, 8), saveSteps(true), corpusCalls(12, 6), saveSteps(false),
        corpusCalls(13, 3), [["step" => "mergeWordPostingsToString", "args" => []]]);
}

/**
 * Saves the corpus never makes: of nothing; a word equal to the saved
 * postings' last word (Yioop writes it twice); postings
 * kept in the dictionary (16 bytes starting with four 0xff); saved
 * postings out of order, and a prefix that comes back after another.
 */
function craftedSaveCalls(): array
{
    $id = fn($tag) => str_pad($tag, 20, "\0");
    $record = fn($id, $postings) => $id . pack("N", strlen($postings)) . $postings;
    $inline = "\xff\xff\xff\xff" . "abcdefghijkl";
    $key = str_repeat("k", 24);
    return array_merge(saveSteps(false), [
        [$key, 10, ["alpha" => [1, 5]], [], true, false, [], []],
    ], saveSteps(false), [
        [$key, 20, ["alpha" => [2]], [], true, false, [], []],
        ["step" => "mergeWordPostingsToString", "args" => []],
        ["set" => ["words" => [$id("zz") => $inline, $id("ab") => "0123456789abcdef"],
            "num_docs_word" => [$id("zz") => 1, $id("ab") => 40000, $id("bx1") => 1, $id("ax") => 2, $id("bx2") => 3],
            "word_postings" => $record($id("bx1"), "x") . $record($id("ax"), "yy") . $record($id("bx2"), "zzz"),
            "generation" => 3]],
    ], saveSteps(true));
}

/**
 * Save steps on input the native functions leave to Yioop's PHP, each
 * last in a sequence of its own.
 */
function rejectedSaveCalls(): array
{
    $first = [str_repeat("k", 24), 10, ["alpha" => [1, 5], "beta" => [2]], [], true, false, [], []];
    $merged = ["step" => "mergeWordPostingsToString", "args" => []];
    return [
        "merge with replace" => [$first, $merged, $first, ["step" => "mergeWordPostingsToString", "args" => [true]]],
        // Word ids are 20 bytes; an int key (never made by
        // addDocumentWords) merges as its digits, and the string no longer
        // reads as whole records.
        "int word key" => [$first, ["set" => ["words" => [123 => "int-key", "b" => "x"]]],
            $merged, ["step" => "prepareWordsAndPrefixes", "args" => []]],
        "word without a count" => [$first, $merged, ["set" => ["num_docs_word" => []]],
            ["step" => "packWords", "args" => [null]]],
        "cut posting string" => [$first, $merged, ["set" => ["word_postings" => str_repeat("w", 30)]],
            ["step" => "prepareWordsAndPrefixes", "args" => []]],
        "stream that is not one" => [$first, $merged, ["step" => "outputPostingLists", "args" => [true]]],
    ];
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
            $args = ["set" => ["word_docs_packed" => true]];
        }
        if (isset($args["set"])) {
            foreach ($args["set"] as $name => $value) {
                $shard->$name = $value;
            }
            $recorded[] = ["set" => base64_encode(serialize($args["set"])), "state" => digest($shard)];
            continue;
        }
        if (isset($args["step"])) {
            $recorded[] = recordStep($shard, $args["step"], $args["args"]);
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

/** One save step: its result, what it wrote to its stream, the state. */
function recordStep(IndexShard $shard, string $step, array $args): array
{
    $stream = fopen("php://memory", "w+b");
    $call = array_map(fn($arg) => $arg === "STREAM" ? $stream : $arg, $args);
    try {
        $result = ["returns" => base64_encode(serialize($shard->$step(...$call)))];
    } catch (\Throwable $e) {
        $result = ["throws" => get_class($e)];
    }
    rewind($stream);
    return ["step" => $step, "args" => base64_encode(serialize($args)), "result" => $result,
        "written" => sha1(stream_get_contents($stream)), "state" => digest($shard)];
}

/** A SHA-1 of each state property's serialize(). */
function digest(IndexShard $shard): array
{
    return array_map(fn($value) => sha1(serialize($value)), state($shard));
}
