<?php
/**
 * The fidelity scenarios: what an operator's Yioop can do to a switched
 * IndexShard method that Yioop's own tests never do. Each scenario is data:
 * a profile (the configuration constants), and steps on files and shard
 * objects. tests/support/fidelity/run.php runs one through Yioop's PHP (recording,
 * tests/tools/record/record-fidelity.php) or through the native functions
 * (tests/index/FidelityTest.php), and the two must agree.
 *
 * Steps:
 *   ["copy", FILE, SOURCE]            SOURCE's bytes (tests/fixtures/shard/...) into FILE
 *   ["rewrite", FILE, SOURCE, KEEP]   FILE rewritten in place (same inode) with
 *                                     SOURCE's bytes; KEEP: mtime put back
 *   ["replace", FILE, SOURCE]         SOURCE written beside FILE, renamed over it
 *   ["truncate", FILE]                FILE emptied in place (fopen "wb", as save())
 *   ["append", FILE, SOURCE, FROM]    SOURCE's bytes from FROM appended to FILE
 *   ["new", OBJ, FILE]                a shard read from disk, as IndexManager opens one
 *   ["build", OBJ, FILE]              a shard being built in memory
 *   ["call", OBJ, METHOD, ARGS, FLAGS] a method call; FLAGS: "may_decline" where
 *                                     the native function may leave the call to
 *                                     Yioop's PHP though Yioop neither warns nor throws
 *   ["ref", OBJ, PROPERTY, NAME]      $refs[NAME] = &$obj->PROPERTY
 *   ["assign", NAME, VALUE]           $refs[NAME] = VALUE
 * Arguments are typed with fidelityEncode(); ["ref"] marks a by-reference one.
 */

namespace YioopCodec\Fidelity;

const SHARDS = __DIR__ . "/../../fixtures/shard";
/** The recording (recorded.json.gz) and the stock Profile.php the scenarios run. */
const FIXTURES = SHARDS . "/fidelity";

/** Where a method's call leaves Yioop's PHP no choice: it must run natively. */
const MUST = [];
const MAY = ["may_decline"];

/** A value as JSON keeps it exactly: strings base64, floats by their text. */
function encode($value)
{
    return match (true) {
        is_string($value) => ["s" => base64_encode($value)],
        is_float($value) => ["f" => var_export($value, true)],
        is_array($value) => ["a" => array_map(__NAMESPACE__ . "\\encode", $value)],
        default => $value,
    };
}

function decode($value)
{
    if (!is_array($value)) {
        return $value;
    }
    if (array_key_exists("s", $value)) {
        return base64_decode($value["s"]);
    }
    if (array_key_exists("f", $value)) {
        return ["NAN" => NAN, "INF" => INF, "-INF" => -INF][$value["f"]] ?? (float)$value["f"];
    }
    return array_map(__NAMESPACE__ . "\\decode", $value["a"]);
}

/**
 * Dictionary records of a shard file, spread over it, as [id, first
 * offset, last offset] (the dictionary's format: 20-byte id, generation,
 * first offset, and a length that carries a count in its upper half when
 * its top bit is set).
 */
function dictionaryWords(string $bytes, int $count): array
{
    [, $prefixes_len, $words_len] = unpack("N3", $bytes);
    $words = [];
    $records = intdiv($words_len, 32);
    for ($i = 0; $i < $records && count($words) < $count; $i += max(1, intdiv($records, $count))) {
        $record = substr($bytes, 40 + $prefixes_len + 32 * $i, 32);
        [, , $first, $len] = unpack("N3", substr($record, 20));
        $len = ($len & (1 << 31)) ? $len & 65535 : $len;
        $words[] = [substr($record, 0, 20), $first, $first + $len - 4];
    }
    return $words;
}

/** The calls a search makes on one word: its info, slices both ways, seeks. */
function searchCalls(string $obj, array $word, array $flags = MUST): array
{
    [$id, $first, $last] = $word;
    $steps = [["call", $obj, "getWordInfo", [encode($id), true], $flags]];
    foreach ([1, 7, 200] as $len) {
        $steps[] = ["call", $obj, "postingsSliceAscending", [$first, ["ref", $first], $last, $len], $flags];
        $steps[] = ["call", $obj, "postingsSliceDescending", [$first, ["ref", $last], $last, $len], $flags];
    }
    $middle = $first + 4 * intdiv(($last - $first) >> 2, 2);
    foreach ([0, 160, 1600] as $doc_offset) {
        $steps[] = ["call", $obj, "nextPostingOffsetDocOffset", [$first, $last, $doc_offset, 1], $flags];
        $steps[] = ["call", $obj, "nextPostingOffsetDocOffset", [$last, $first, $doc_offset, -1], $flags];
    }
    $steps[] = ["call", $obj, "getPostingAtOffset", [$middle >> 2, ["ref", 0], ["ref", 0]], $flags];
    $steps[] = ["call", $obj, "getDocIndexOfPostingAtOffset", [$middle >> 2], $flags];
    return $steps;
}

/** The disk reads of a shard file at a few places. */
function readCalls(string $obj, int $len, array $flags = MUST): array
{
    $steps = [];
    foreach ([0, 4096, $len - 100, $len + 4096] as $at) {
        $steps[] = ["call", $obj, "getShardWord", [$at - $at % 4], $flags];
    }
    foreach ([[0, 40, true], [4090, 20, true], [8000, 9000, false], [$len - 10, 30, true]] as [$o, $l, $c]) {
        $steps[] = ["call", $obj, "getShardSubstring", [$o, $l, $c], $flags];
    }
    foreach ([[0, 64, false], [16, 48, true], [160, 0, false]] as [$o, $l, $c]) {
        $steps[] = ["call", $obj, "getDocInfoSubstring", [$o, $l, $c], $flags];
        $steps[] = ["call", $obj, "getWordDocsSubstring", [$o, $l, $c], $flags];
        $steps[] = ["call", $obj, "getWordDocsWord", [$o], $flags];
    }
    foreach ([[8192, true], [8192, false], [$len, true]] as [$bytes, $cache]) {
        $steps[] = ["call", $obj, "readBlockShardAtOffset", [$bytes, $cache], $flags];
    }
    return $steps;
}

function shardBytes(string $name): string
{
    return file_get_contents(SHARDS . "/$name");
}

/** Every scenario, by name. */
function scenarios(): array
{
    $built = shardBytes("shard-0.bin");
    $crafted = shardBytes("shard-2.bin");
    $words = dictionaryWords($built, 6);
    $crafted_words = dictionaryWords($crafted, 4);
    $search = fn(string $obj, array $words, array $flags = MUST) => array_merge(...array_map(fn($w) => searchCalls($obj, $w, $flags), $words));
    $scenarios = [];

    // The profile Yioop's installer writes: every value a string.
    $scenarios["stock profile"] = ["profile" => "stock", "steps" => array_merge(
        [["copy", "a.bin", "shard-0.bin"], ["new", "o", "a.bin"], ["copy", "c.bin", "shard-2.bin"], ["new", "c", "c.bin"]],
        $search("o", $words), $search("c", $crafted_words), readCalls("o", strlen($built)))];

    // Other types PHP's arithmetic accepts for the constants the slices read.
    $variants = [
        "TITLE_WEIGHT float string" => ["TITLE_WEIGHT" => "4.5"],
        "TITLE_WEIGHT float" => ["TITLE_WEIGHT" => 4.5],
        "weights with spaces" => ["TITLE_WEIGHT" => " 4", "DESCRIPTION_WEIGHT" => "1 ", "LINK_WEIGHT" => "\n2"],
        "weights as ints" => ["TITLE_WEIGHT" => 4, "DESCRIPTION_WEIGHT" => 1, "LINK_WEIGHT" => 2],
        "int constants as strings" => ["PRECISION" => "10", "AVG_LINKS_PER_PAGE" => "24", "MAX_GENERATIONS" => "10000", "AD_HOC_TITLE_LENGTH" => "50"],
        "PRECISION 3" => ["PRECISION" => "3"],
    ];
    foreach ($variants as $name => $profile) {
        $scenarios["profile: $name"] = ["profile" => $profile, "steps" => array_merge(
            [["copy", "c.bin", "shard-2.bin"], ["new", "c", "c.bin"]], $search("c", $crafted_words))];
    }
    $odd = [
        "TITLE_WEIGHT leading-numeric" => ["TITLE_WEIGHT" => "4abc"],
        "TITLE_WEIGHT true" => ["TITLE_WEIGHT" => true],
        "DESCRIPTION_WEIGHT not numeric" => ["DESCRIPTION_WEIGHT" => "heavy"],
        "AD_HOC_TITLE_LENGTH float" => ["AD_HOC_TITLE_LENGTH" => 50.0],
        "PRECISION float string" => ["PRECISION" => "10.5"],
        "LINK_WEIGHT null" => ["LINK_WEIGHT" => null],
    ];
    foreach ($odd as $name => $profile) {
        $scenarios["profile: $name"] = ["profile" => $profile, "steps" => array_merge(
            [["copy", "c.bin", "shard-2.bin"], ["new", "c", "c.bin"]], $search("c", $crafted_words, MAY))];
    }

    // References to the properties the native functions read and write.
    $scenarios["references to properties"] = ["profile" => "stock", "steps" => array_merge(
        [["copy", "a.bin", "shard-0.bin"], ["new", "o", "a.bin"],
            ["ref", "o", "num_docs", "num_docs"], ["ref", "o", "generation", "generation"],
            ["ref", "o", "docids_len", "docids_len"], ["ref", "o", "file_len", "file_len"]],
        $search("o", array_slice($words, 0, 3)),
        [["assign", "num_docs", 7], ["assign", "file_len", strlen($built) - 4096]],
        $search("o", array_slice($words, 3, 1), MAY),
        [["build", "b", "b.bin"]], buildCalls("b"),
        [["ref", "b", "num_docs", "b_num_docs"], ["call", "b", "mergeWordPostingsToString", [], MUST],
            ["assign", "b_num_docs", 1000]])];

    // Arguments of types Yioop itself never passes, but PHP accepts.
    $first = $words[0];
    $scenarios["arguments"] = ["profile" => "stock", "steps" => array_merge(
        [["copy", "a.bin", "shard-0.bin"]],
        oddArguments($first, strlen($built)))];

    $scenarios["addDocumentWords edge cases"] = ["profile" => "stock", "steps" => array_merge(
        [["build", "b", "b.bin"]], [
            ["call", "b", "addDocumentWords", [encode("aaaaaaaabbbbbbbbcccccccc"), 5, encode([])], MUST],
            // Yioop's PHP throws midway, having changed the object: its own one.
            ["build", "t", "t.bin"],
            ["call", "t", "addDocumentWords", [encode("aaaaaaaabbbbbbbbcccccccd"), 6, encode(["word" => 5])], MAY],
            ["call", "b", "addDocumentWords", [encode("aaaaaaaabbbbbbbbccccccce"), 7, encode(
                ["" => [1, 2], "123" => [3], "\x00\xff\x80" => [4], "-5" => [5], "07" => [6], "word" => []])], MUST],
            ["call", "b", "addDocumentWords", [encode("aaaaaaaabbbbbbbbcccccccf"), 8, encode(["word" => [9]]),
                encode(["meta:x", "123", ""]), true], MUST],
        ])];

    return $scenarios + lifecycleScenarios($built, $words) + mutantScenarios($built, $words, mutantNumbers());
}

/** A few documents added to a shard being built. */
function buildCalls(string $obj): array
{
    $steps = [];
    foreach (range(1, 3) as $i) {
        $steps[] = ["call", $obj, "addDocumentWords", [encode(str_repeat(chr(64 + $i), 24)), 100 * $i,
            encode(["alpha" => [1, 5], "beta$i" => [2], "gamma" => range(3, 3 + $i)]), encode([]), true], MUST];
    }
    return $steps;
}

/** Each method with arguments Yioop's own callers never pass. */
function oddArguments(array $word, int $len): array
{
    [$id, $first, $last] = $word;
    $calls = [
        ["getShardWord", [null]], ["getShardWord", ["0"]], ["getShardWord", [4.0]], ["getShardWord", [6]],
        ["getWordInfo", [123, true]], ["getWordInfo", [null, true]], ["getWordInfo", [encode("x"), true]],
        ["readBlockShardAtOffset", [encode("abc")]], ["readBlockShardAtOffset", [true]],
        ["readBlockShardAtOffset", [encode(4096.0)]], ["readBlockShardAtOffset", [6, true]],
        ["readBlockShardAtOffset", [6, false]], ["readBlockShardAtOffset", [-4096, true]],
        ["getShardSubstring", [0, null]], ["getShardSubstring", [100, PHP_INT_MAX, false]],
        ["getShardSubstring", [encode("4090"), 20]], ["getShardSubstring", [4090, encode("20")]],
        ["nextPostingOffsetDocOffset", [$first, $last, 160, encode(1.5)]],
        ["nextPostingOffsetDocOffset", [encode((string)$first), $last, 160, 1]],
        ["getPostingAtOffset", [encode("12"), ["ref", 0], ["ref", 0]]],
        ["getPostingAtOffset", [encode(12.0), ["ref", 0], ["ref", 0]]],
        ["getDocIndexOfPostingAtOffset", [encode("5")]],
        ["getWordDocsWord", [encode("8")]],
        ["getWordDocsSubstring", [encode("0"), encode("8")]],
        ["getDocInfoSubstring", [0, 16, encode("yes")]],
        ["postingsSliceAscending", [encode((string)$first), ["ref", $first], $last, 5]],
        ["postingsSliceAscending", [$first, ["ref", $first], $last, encode(5.0)]],
    ];
    $steps = [];
    foreach ($calls as $i => [$method, $args]) {
        // A fresh object each: a declined call hands its object to Yioop's PHP.
        $steps[] = ["new", "o$i", "a.bin"];
        $steps[] = ["call", "o$i", "getWordInfo", [encode($id), true], MUST];
        $steps[] = ["call", "o$i", $method, $args, MAY];
    }
    return $steps;
}

/** Shard files that change while objects have them open. */
function lifecycleScenarios(string $built, array $words): array
{
    $len = strlen($built);
    $search = fn(string $obj, array $flags = MUST) => array_merge(...array_map(fn($w) => searchCalls($obj, $w, $flags), array_slice($words, 0, 2)));
    $blocks = fn(string $obj, array $flags = MUST) => [
        ["call", $obj, "readBlockShardAtOffset", [0, true], $flags],
        ["call", $obj, "readBlockShardAtOffset", [0, false], $flags],
        ["call", $obj, "readBlockShardAtOffset", [$len - $len % 4096, true], $flags],
        ["call", $obj, "getShardWord", [4096 * 200], $flags],
        ["call", $obj, "getShardSubstring", [4096 * 300 + 8, 16, false], $flags],
    ];
    return [
        "lifecycle: same-size rewrite, mtime kept" => ["profile" => "stock", "steps" => array_merge(
            [["copy", "a.bin", "shard-0.bin"], ["new", "o", "a.bin"]], $search("o"), $blocks("o"),
            [["rewrite", "a.bin", "shard-0-altered.bin", true], ["new", "p", "a.bin"]],
            $search("p"), $blocks("p"), $search("o"), $blocks("o"))],
        "lifecycle: replaced by rename" => ["profile" => "stock", "steps" => array_merge(
            [["copy", "a.bin", "shard-0.bin"], ["new", "o", "a.bin"]], $search("o"),
            [["replace", "a.bin", "shard-0-altered.bin"], ["new", "p", "a.bin"]],
            $search("p"), $blocks("p"), $search("o"), $blocks("o"))],
        "lifecycle: truncated, then rewritten" => ["profile" => "stock", "steps" => array_merge(
            [["copy", "a.bin", "shard-0.bin"], ["new", "o", "a.bin"], ["new", "q", "a.bin"], ["new", "r", "a.bin"],
                ["call", "r", "getShardWord", [0], MUST]],
            $search("o"), $blocks("q"),
            // r reads a block it had not: empty now, which Yioop's split into words throws on.
            [["truncate", "a.bin"], ["call", "r", "getShardWord", [4096 * 50], MAY]], $blocks("q", MAY), $search("o", MAY),
            [["append", "a.bin", "shard-0-altered.bin", 0], ["new", "p", "a.bin"]],
            $search("p"), $blocks("q", MAY), $blocks("o", MAY))],
        "lifecycle: grown" => ["profile" => "stock", "steps" => array_merge(
            [["copy", "a.bin", "shard-0-head.bin"], ["new", "o", "a.bin"]], $blocks("o", MAY),
            [["append", "a.bin", "shard-0.bin", 600000], ["new", "p", "a.bin"]],
            $search("p"), $blocks("p"), $blocks("o", MAY), $search("o", MAY))],
    ];
}

/** Derived shard files: made by run.php from tests/fixtures/shard/, never stored. */
function derivedShard(string $name): ?string
{
    return match ($name) {
        // Same size; a byte changed in every 16th block from block 2 on, and
        // every document's summary offset (each 16 bytes of doc_infos), which
        // every slice reads.
        "shard-0-altered.bin" => (function () {
            $bytes = shardBytes("shard-0.bin");
            for ($at = 2 * 4096 + 100; $at < strlen($bytes); $at += 16 * 4096) {
                $bytes[$at] = chr(ord($bytes[$at]) ^ 0x5A);
            }
            // A record: summary offset, length and key count, the keys (a
            // key of padding after an even count).
            for ($at = strlen($bytes) - unpack("N", $bytes, 12)[1]; $at + 8 <= strlen($bytes);) {
                $bytes[$at + 2] = chr(ord($bytes[$at + 2]) ^ 0x01);
                $keys = ord($bytes[$at + 7]);
                $at += 8 + 8 * ($keys + ($keys % 2 == 0 ? 1 : 0));
            }
            return $bytes;
        })(),
        "shard-0-head.bin" => substr(shardBytes("shard-0.bin"), 0, 600000),
        default => str_starts_with($name, "mutant-") ? mutant(shardBytes("shard-0.bin"), (int)substr($name, 7)) : null,
    };
}

/**
 * The damaged shards the mutation scenarios try: the first 24, and two that
 * a run of 1,280 found a slice reading postings in before it declines
 * (what such a call cached must not be handed over); FIDELITY_MUTANTS=N
 * tries the first N instead.
 */
function mutantNumbers(): array
{
    $count = (int)getenv("FIDELITY_MUTANTS");
    return $count > 0 ? range(0, $count - 1) : [...range(0, 23), 55, 140];
}

/**
 * Damaged copy number $n of a shard: seeded byte changes, runs of bytes
 * swapped or zeroed, or a cut, in one of its sections.
 */
function mutant(string $bytes, int $n): string
{
    mt_srand(1000 + $n);
    [, $prefixes_len, $words_len, $word_docs_len] = unpack("N3", $bytes);
    $sections = [[0, 40], [40, $prefixes_len], [40 + $prefixes_len, $words_len],
        [40 + $prefixes_len + $words_len, $word_docs_len], [40 + $prefixes_len + $words_len + $word_docs_len, 0]];
    $sections[4][1] = strlen($bytes) - $sections[4][0];
    [$from, $span] = $sections[[0, 2, 3, 3, 3, 4, 1][mt_rand(0, 6)]];
    switch (mt_rand(0, 3)) {
        case 0: // a few bytes changed
            for ($i = mt_rand(1, 8); $i > 0; $i--) {
                $at = $from + mt_rand(0, max(0, $span - 1));
                $bytes[$at] = chr(mt_rand(0, 255));
            }
            break;
        case 1: // a word's flag bits changed
            $at = $from + 4 * mt_rand(0, max(0, intdiv($span, 4) - 1));
            $bytes[$at] = chr(ord($bytes[$at]) ^ (mt_rand(1, 3) << 6));
            break;
        case 2: // a run zeroed
            $at = $from + mt_rand(0, max(0, $span - 1));
            $bytes = substr(substr_replace($bytes, str_repeat("\0", 64), $at, 64), 0, strlen($bytes));
            break;
        default: // cut short
            $bytes = substr($bytes, 0, $from + mt_rand(0, max(0, $span - 1)));
    }
    return $bytes;
}

function mutantScenarios(string $built, array $words, array $numbers): array
{
    $scenarios = [];
    foreach ($numbers as $n) {
        mt_srand(5000 + $n);
        // A fresh object for each group: a declined call leaves the rest
        // of its object's calls to Yioop's PHP.
        $steps = [["copy", "m.bin", "mutant-$n"]];
        foreach ([$words[mt_rand(0, count($words) - 1)], $words[mt_rand(0, count($words) - 1)]] as $k => $word) {
            $steps = array_merge($steps, [["new", "o$k", "m.bin"]], searchCalls("o$k", $word));
        }
        $current = mt_rand(0, intdiv(strlen($built), 4));
        $steps[] = ["new", "p", "m.bin"];
        $steps[] = ["call", "p", "getPostingAtOffset", [$current, ["ref", 0], ["ref", 0]], MUST];
        $steps[] = ["new", "q", "m.bin"];
        $steps[] = ["call", "q", "getShardSubstring", [mt_rand(0, strlen($built)), mt_rand(1, 9000)], MUST];
        $scenarios["mutant $n"] = ["profile" => "stock", "steps" => $steps];
    }
    return $scenarios;
}

/**
 * Runs scenario $name through run.php in a PHP process of its own (PHP
 * options $php, environment $env on top of this one's): what it printed.
 */
function runScenario(string $mode, string $name, array $args, array $env, array $php = []): array
{
    $command = array_merge([PHP_BINARY], $php, [__DIR__ . "/run.php", $mode, $name], $args);
    $process = proc_open($command, [1 => ["pipe", "w"], 2 => ["pipe", "w"]], $pipes, null, $env + getenv());
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    $status = proc_close($process);
    $outcome = json_decode($out, true);
    if ($status !== 0 || !is_array($outcome)) {
        throw new \RuntimeException("scenario '$name' ($mode) failed with exit status $status:\n$err"
            . substr($out, 0, 2000));
    }
    return $outcome;
}
