<?php
/**
 * Records what Yioop's own IndexShard (read from disk, PHP, no extension)
 * returns on a small seeded shard, for tests/index/ShardTest.php to replay
 * against the native yioop_codec\shard\* functions without a Yioop tree.
 *
 *   PHP_INI_SCAN_DIR=<ini dir without yioop> \
 *       php tests/tools/record/record-shard.php YIOOP_DIR tests/fixtures/shard
 *
 * Writes shard-<n>.bin (the shard Yioop built from the bench corpus, and a
 * truncated copy of it) and shard-<n>.json: for each call, the method, its
 * arguments, the result and the by-reference arguments afterwards, typed
 * (strings base64-encoded, so bytes survive JSON), and whether Yioop warned
 * (a call the native functions must leave to Yioop's PHP). Slices of postings
 * (postingsSliceAscending/Descending) are recorded as serialize() output,
 * deflated: exact types, key order and float bits in little room. The
 * configuration constants makeItem reads are recorded beside the calls.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\IndexShard;
use yioop_codec\bench\Corpus;

[, $yioop, $out_dir] = $argv + [null, null, null];
if (!$yioop || !$out_dir || extension_loaded("yioop")) {
    fwrite(STDERR, "usage: php record-shard.php YIOOP_DIR OUT_DIR, without the yioop extension\n");
    exit(2);
}
$root = dirname(__DIR__, 3);
require "$root/bench/e2e/corpus.php";
require "$root/bench/e2e/yioop-boot.php";
$work = sys_get_temp_dir() . "/yioop-record-" . getmypid();
@mkdir($work);
bootYioop("$yioop/src", $work);
mt_srand(7);

$built = "$out_dir/shard-0.bin";
buildShard($built, 40);
$truncated = "$out_dir/shard-1.bin";
$bytes = file_get_contents($built);
file_put_contents($truncated, substr($bytes, 0, intdiv(strlen($bytes), 3) + 2)); // ragged tail
$crafted = "$out_dir/shard-2.bin";
buildCraftedShard($crafted);
foreach ([$built, $truncated, $crafted] as $n => $file) {
    $calls = ($file == $crafted) ? recordCraftedCalls($file) : recordCalls($file);
    $recording = $calls + ["constants" => scoringConstants()];
    file_put_contents("$out_dir/shard-$n.json", json_encode($recording, JSON_PRETTY_PRINT));
}
exec("rm -rf " . escapeshellarg($work));

function buildShard(string $file, int $docs): void
{
    @unlink($file);
    $shard = new IndexShard($file, 0, NUM_DOCS_PER_GENERATION);
    foreach ((new Corpus(3))->items($docs) as [$keys, $offset, $words, $meta, $is_doc, $scores]) {
        $shard->addDocumentWords($keys, $offset, $words, $meta, $is_doc, false, $scores);
    }
    $shard->save();
}

/**
 * A few documents the corpus never makes, for makeItem's rarer paths: ids
 * PHP turns into int keys (and near misses), a short id padded with
 * BLANK, a summary still needing its offset, archive ranks, links, and
 * description scores with a zero weight.
 */
function buildCraftedShard(string $file): void
{
    @unlink($file);
    $shard = new IndexShard($file, 0, NUM_DOCS_PER_GENERATION);
    // Ids of one or two keys get one key of padding, which makeItem trims.
    $docs = [
        ["1234567812345678", 100, true, false, [], []],
        ["-123456712345678", 200, true, false, [], []],
        ["0000000012345678", 300, true, false, [], []],
        ["12345678", 400, true, false, [], []],
        ["abcdefgh", 400, false, false, [], []],
        ["abcdefghijklmnop", 400, true, false, [], []],
        ["short id with 0x7FFFFFFF", 0x7FFFFFFF, true, false, [], []],
        ["ranked document with aux", 500, true, 5, [0 => 0.5, 10 => 0.0, 30 => 1.0], [0.5, 0.0]],
        ["ranked link to a page 01", 600, false, 3, [], []],
        ["plain link to a page  02", 700, false, false, [], []],
        ["document with user ranks", 800, true, false, [], [0.25, 0.75]],
    ];
    foreach ($docs as $i => [$keys, $offset, $is_doc, $rank, $scores, $user_ranks]) {
        $words = ["crafted" => [1 + $i, 45 + $i, 60, 61 + 7 * $i], "every$i" => [3]];
        if ($i % 2 == 0) {
            $words["even"] = range(2, 80, 3 + $i);
        }
        $shard->addDocumentWords($keys, $offset, $words, [], $is_doc, $rank, $scores, $user_ranks);
    }
    $shard->save();
}

function recordCraftedCalls(string $file): array
{
    $calls = [];
    foreach (["crafted", "even", "every4", "every5"] as $i => $word) {
        $info = diskShard($file)->getWordInfo(\seekquarry\yioop\library\crawlHashWord($word, true), true);
        array_push($calls, ...sliceCalls($file, $info[0], $info[1], $i));
    }
    return ["file" => basename($file), "calls" => $calls];
}

final class NeverReturns extends \Exception
{
}

/** The Yioop configuration constants makeItem reads, as Config.php set them. */
function scoringConstants(): array
{
    $names = ["PRECISION", "AVG_LINKS_PER_PAGE", "MAX_GENERATIONS", "AD_HOC_TITLE_LENGTH",
        "TITLE_WEIGHT", "DESCRIPTION_WEIGHT", "LINK_WEIGHT"];
    return array_combine($names, array_map(fn($name) => constant(__NAMESPACE__ . "\\$name"), $names));
}

function typed($value, bool $serialized = false)
{
    if ($serialized && is_array($value)) {
        return ["serialized" => base64_encode(gzdeflate(serialize($value), 9))];
    }
    return match (true) {
        is_string($value) => ["s" => base64_encode($value)],
        is_array($value) => ["a" => array_map("seekquarry\\yioop\\configs\\typed", $value)],
        default => $value,
    };
}

/** A fresh read-only disk shard, as IndexManager opens one. */
function diskShard(string $file): IndexShard
{
    return new IndexShard($file, 0, NUM_DOCS_PER_GENERATION, true);
}

function call(string $file, string $method, array $args, bool $header = true): array
{
    $given = $args; // slices change $next_offset (by reference)
    $shard = diskShard($file);
    if ($header) {
        $shard->getShardHeader();
    }
    $warned = false;
    set_error_handler(function ($type, $message) use (&$warned) {
        $warned = $warned || !str_starts_with($message, "Creation of dynamic property");
        return true;
    });
    pcntl_async_signals(true);
    pcntl_signal(SIGALRM, fn() => throw new NeverReturns());
    pcntl_alarm(2);
    try {
        $result = typed($shard->$method(...$args), str_starts_with($method, "postingsSlice"));
    } catch (NeverReturns) {
        $result = ["hangs" => true]; // Yioop's loop still going after 2 s
    } catch (\Throwable $e) {
        $result = ["throws" => get_class($e)];
    } finally {
        pcntl_alarm(0);
        restore_error_handler();
    }
    if ($warned && !isset($result["hangs"])) {
        $result = ["warns" => true, "returned" => $result]; // left to Yioop's PHP natively
    }
    $call = ["method" => $method, "header" => $header, "args" => array_map("seekquarry\\yioop\\configs\\typed", $args),
        "result" => $result];
    if (str_starts_with($method, "postingsSlice")) {
        $call["given"] = $given;
    }
    return $call;
}

function recordCalls(string $file): array
{
    $probe = diskShard($file);
    $probe->getShardHeader();
    $len = filesize($file);
    $word_docs_words = max(1, intdiv((int)$probe->word_docs_len, 4));
    $calls = [];
    foreach ([0, 4, 40, 4092, 4096, 8188, $len - 4, $len, $len + 4, -4, 6, 4094] as $offset) {
        $calls[] = call($file, "getShardWord", [$offset]);
    }
    foreach ([[0, 40], [4090, 20], [4000, 9000], [$len - 10, 30], [100, -10], [-8, 4], [$len + 8, 4], [12, 0]] as [$o, $l]) {
        $calls[] = call($file, "getShardSubstring", [$o, $l, true]);
        $calls[] = call($file, "getShardSubstring", [$o, $l, false]);
    }
    foreach ([0, 4096, $len - 100, $len, -4096, 17] as $bytes) {
        $calls[] = call($file, "readBlockShardAtOffset", [$bytes, false]);
        $calls[] = call($file, "readBlockShardAtOffset", [$bytes, true]);
    }
    for ($i = 0; $i < 300; $i++) {
        $current = mt_rand(-2, $word_docs_words + 2);
        $calls[] = call($file, "getWordDocsWord", [$current * 4]);
        $calls[] = call($file, "getDocIndexOfPostingAtOffset", [$current]);
        $calls[] = call($file, "getPostingAtOffset", [$current, 0, 0]);
    }
    foreach ([[0, 64, false], [16, 48, false], [160, 0, false], [mt_rand(0, 1000) * 16, 24, true]] as [$o, $l, $c]) {
        $calls[] = call($file, "getDocInfoSubstring", [$o, $l, $c]);
        $calls[] = call($file, "getWordDocsSubstring", [$o, $l, $c]);
    }
    $corpus_words = array_map(fn($r) => Corpus::word($r), [1, 2, 3, 5, 8, 13, 40, 100, 400, 2000, 49999]);
    foreach (array_merge($corpus_words, ["media:text", "lang:en", "not a word", "meta3:4"]) as $word) {
        $id = \seekquarry\yioop\library\crawlHashWord($word, true);
        $calls[] = call($file, "getWordInfo", [$id, true], false);
        $calls[] = call($file, "getWordInfo", [$id, true]);
        $info = diskShard($file)->getWordInfo($id, true);
        if (is_array($info) && is_int($info[0])) {
            [$first, $last] = $info;
            for ($i = 0; $i < 12; $i++) {
                $doc_offset = mt_rand(0, 200) * 16;
                $calls[] = call($file, "nextPostingOffsetDocOffset", [$first, $last, $doc_offset, 1]);
                $calls[] = call($file, "nextPostingOffsetDocOffset", [$last, $first, $doc_offset, -1]);
                $calls[] = call($file, "nextPostingOffsetDocOffset", [$first + 4 * mt_rand(0, 8), $last, $doc_offset, 1]);
            }
        }
    }
    foreach (["", "x", "\xFF\xFF", str_repeat("\x00", 20)] as $id) {
        $calls[] = call($file, "getWordInfo", [$id, true]);
    }
    foreach ($corpus_words as $i => $word) {
        $info = diskShard($file)->getWordInfo(\seekquarry\yioop\library\crawlHashWord($word, true), true);
        if (is_array($info) && is_int($info[0])) {
            array_push($calls, ...sliceCalls($file, $info[0], $info[1], $i));
        }
    }
    $wd_len = $len - (int)$probe->docids_len;
    $tail = $len - 40 - $probe->prefixes_len - $probe->words_len; // word_docs bytes in the file
    $calls[] = call($file, "postingsSliceAscending", [0, $tail - 200, $tail + 400, 50]);
    $calls[] = call($file, "postingsSliceDescending", [$tail - 400, $tail + 100, $tail + 100, 50]);
    $calls[] = call($file, "postingsSliceAscending", [0, 0, $wd_len + 64, 40]);
    $calls[] = call($file, "postingsSliceDescending", [$wd_len - 400, $wd_len - 4, $wd_len - 4, 40]);
    $calls[] = call($file, "postingsSliceAscending", [0, 0, 400, 10], false); // before the header
    $calls[] = call($file, "postingsSliceDescending", [0, 400, 400, 10], false);
    return ["file" => basename($file), "calls" => $calls];
}

/**
 * Slices of one word's postings (byte offsets $first..$last) as
 * WordIterator asks for them, both ways, from the ends and from inside
 * a posting, and past the ends; $salt varies the inner offsets.
 */
function sliceCalls(string $file, int $first, int $last, int $salt): array
{
    $inner = $first + 4 * intdiv(($last - $first) >> 2, 2 + $salt % 3);
    $calls = [];
    foreach ([1, 7, 200] as $len) {
        $calls[] = call($file, "postingsSliceAscending", [$first, $first, $last, $len]);
        $calls[] = call($file, "postingsSliceDescending", [$first, $last, $last, $len]);
    }
    foreach ([[$inner, 5], [$inner + 4, 3], [$last + 8, 5], [$first - 8, 2]] as [$next, $len]) {
        $calls[] = call($file, "postingsSliceAscending", [$first, $next, $last, $len]);
        $calls[] = call($file, "postingsSliceDescending", [$first, $next, $last, $len]);
    }
    return $calls;
}
