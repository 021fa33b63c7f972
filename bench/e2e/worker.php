<?php
/**
 * One phase of the end-to-end benchmark, in its own PHP process (so that
 * JIT and extension settings are per process):
 *
 *   php worker.php build YIOOP_SRC WORK_DIR DOCS SEED OUT.json
 *   php worker.php query YIOOP_SRC WORK_DIR DOCS SEED OUT.json
 *
 * build: adds the seeded corpus to a new IndexShard and saves it, as
 * IndexArchiveBundle does; CPU time of add + save, and the shard's SHA-1.
 * query: runs the three workloads read-only from disk through Yioop's own
 * WordIterator, IntersectIterator and GroupIterator; CPU time and a hash of
 * every result per workload.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\IndexShard;
use seekquarry\yioop\library\IndexManager;
use seekquarry\yioop\library\IndexArchiveBundle;
use seekquarry\yioop\library\index_bundle_iterators\WordIterator;
use seekquarry\yioop\library\index_bundle_iterators\IntersectIterator;
use seekquarry\yioop\library\index_bundle_iterators\GroupIterator;
use yioop_codec\bench\Corpus;

const INDEX_NAME = "1700000000";

[, $phase, $yioop_src, $work_dir, $num_docs, $seed, $out] = $argv;
require __DIR__ . "/corpus.php";
require __DIR__ . "/yioop-boot.php";
bootYioop($yioop_src, $work_dir);
$corpus = new Corpus((int)$seed);
$bundle = CRAWL_DIR . "/cache/IndexData" . INDEX_NAME;
$result = match ($phase) {
    "build" => build($corpus, (int)$num_docs, $bundle),
    "query" => query($corpus),
};
$result["peak_memory"] = memory_get_peak_usage();
file_put_contents($out, json_encode($result));

function cpuSeconds(): float
{
    $u = getrusage();
    return $u["ru_utime.tv_sec"] + $u["ru_utime.tv_usec"] / 1e6
        + $u["ru_stime.tv_sec"] + $u["ru_stime.tv_usec"] / 1e6;
}

function build(Corpus $corpus, int $num_docs, string $bundle): array
{
    if (!is_dir($bundle)) {
        new IndexArchiveBundle($bundle, false);
    }
    $file = "$bundle/posting_doc_shards/index0";
    @unlink($file);
    $items = iterator_to_array($corpus->items($num_docs), false);
    $start = cpuSeconds();
    $shard = new IndexShard($file, 0, NUM_DOCS_PER_GENERATION);
    foreach ($items as [$keys, $offset, $words, $meta, $is_doc, $scores]) {
        $shard->addDocumentWords($keys, $offset, $words, $meta, $is_doc, false, $scores);
    }
    $added = cpuSeconds();
    $shard->save();
    $saved = cpuSeconds();
    return ["times" => ["add" => $added - $start, "save" => $saved - $added,
        "build" => $saved - $start], "shard_sha1" => sha1_file($file),
        "shard_bytes" => filesize($file), "items" => count($items)];
}

/** Hashing is the benchmark's own work: its CPU time ($hash_seconds) is kept apart. */
function hashBlock(\HashContext $h, $block): void
{
    global $hash_seconds;
    $start = cpuSeconds();
    hash_update($h, serialize($block));
    $hash_seconds += cpuSeconds() - $start;
}

function wordIterator(string $word): WordIterator
{
    return new WordIterator(\seekquarry\yioop\library\crawlHashWord($word, true), INDEX_NAME, true);
}

/** Single words drained in blocks of 200. */
function drain(array $queries, \HashContext $h): void
{
    foreach ($queries as [$word]) {
        $it = wordIterator($word);
        while (is_array($block = $it->nextDocsWithWord())) {
            hashBlock($h, $block);
        }
    }
}

/** 2-3-word AND queries, at most 1,000 matches each. */
function conjunctions(array $queries, \HashContext $h): void
{
    foreach ($queries as $words) {
        $its = array_map("seekquarry\\yioop\\configs\\wordIterator", $words);
        $it = new IntersectIterator($its, array_keys($its));
        for ($n = 0; $n < 1000 && is_array($block = $it->nextDocsWithWord()); $n++) {
            hashBlock($h, $block);
        }
    }
}

/** First pages of 200 grouped results, for 1-3-word queries. */
function firstPages(array $queries, \HashContext $h): void
{
    foreach ($queries as $words) {
        $its = array_map("seekquarry\\yioop\\configs\\wordIterator", $words);
        $inner = count($its) == 1 ? $its[0] : new IntersectIterator($its, array_keys($its));
        $it = new GroupIterator($inner);
        hashBlock($h, $it->nextDocsWithWord());
    }
}

function query(Corpus $corpus): array
{
    global $hash_seconds;
    $workloads = [
        "drain" => ["seekquarry\\yioop\\configs\\drain", $corpus->queries(30, 1, 1, Corpus::VOCABULARY)],
        "and" => ["seekquarry\\yioop\\configs\\conjunctions", $corpus->queries(40, 2, 3, 3000)],
        "page" => ["seekquarry\\yioop\\configs\\firstPages", $corpus->queries(40, 1, 3, 3000)],
    ];
    $times = [];
    $hashes = [];
    foreach ($workloads as $name => [$run, $queries]) {
        IndexManager::clearCache();
        $h = hash_init("sha1");
        $hash_seconds = 0.0;
        $start = cpuSeconds();
        $before = memory_get_usage();
        memory_reset_peak_usage();
        $run($queries, $h);
        $times[$name] = cpuSeconds() - $start - $hash_seconds;
        $hashes[$name] = hash_final($h);
        $peaks[$name] = memory_get_peak_usage() - $before;
    }
    return ["times" => $times, "hashes" => $hashes, "peak_per_workload" => $peaks];
}
