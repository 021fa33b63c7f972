<?php
/**
 * Records what Yioop's own IndexShard (read from disk, PHP, no extension)
 * returns on a small seeded shard, for tests/ShardTest.php to replay
 * against the native yioop_codec\shard\* functions without a Yioop tree.
 *
 *   PHP_INI_SCAN_DIR=<ini dir without yioop> \
 *       php tests/live/record-shard.php YIOOP_DIR tests/shards
 *
 * Writes shard-<n>.bin (the shard Yioop built from the bench corpus, and a
 * truncated copy of it) and shard-<n>.json: for each call, the method, its
 * arguments, the result and the by-reference arguments afterwards, typed
 * (strings base64-encoded, so bytes survive JSON).
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\IndexShard;
use yioop_codec\bench\Corpus;

[, $yioop, $out_dir] = $argv + [null, null, null];
if (!$yioop || !$out_dir || extension_loaded("yioop")) {
    fwrite(STDERR, "usage: php record-shard.php YIOOP_DIR OUT_DIR, without the yioop extension\n");
    exit(2);
}
$root = dirname(__DIR__, 2);
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
foreach ([$built, $truncated] as $n => $file) {
    file_put_contents("$out_dir/shard-$n.json", json_encode(recordCalls($file), JSON_PRETTY_PRINT));
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

final class NeverReturns extends \Exception
{
}

function typed($value)
{
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
    $shard = diskShard($file);
    if ($header) {
        $shard->getShardHeader();
    }
    pcntl_async_signals(true);
    pcntl_signal(SIGALRM, fn() => throw new NeverReturns());
    pcntl_alarm(2);
    try {
        $result = typed($shard->$method(...$args));
    } catch (NeverReturns) {
        $result = ["hangs" => true]; // Yioop's loop still going after 2 s
    } catch (\Throwable $e) {
        $result = ["throws" => get_class($e)];
    } finally {
        pcntl_alarm(0);
    }
    return ["method" => $method, "header" => $header, "args" => array_map("seekquarry\\yioop\\configs\\typed", $args),
        "result" => $result];
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
    return ["file" => basename($file), "calls" => $calls];
}
