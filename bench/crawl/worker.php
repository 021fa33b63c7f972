<?php
/**
 * One configuration of the crawl replay, in its own PHP process:
 *
 *   php worker.php YIOOP_SRC WORK_DIR BATCH_DIR OUT.json [DOCS_PER_GENERATION]
 *
 * Sets up a QueueServer (Yioop's own class, constructed as its process
 * does) with a fresh non-incremental IndexArchiveBundle, as startCrawl
 * makes one, then hands it BATCH_DIR's fetcher uploads one at a time: each
 * is put where FetchController stores it and taken in by the queue server's
 * own processIndexData (processIndexArchive: summaries, generation
 * switches with their shard build and dictionary merge). Last,
 * shutdownDictionary, as stopping a crawl does (the final shard build and
 * the merge of all dictionary tiers). Writes the CPU seconds of each part
 * and the SHA-1 of every file of the index directory to OUT.json.
 * Environment: REPLAY_PROFILE=FILE (excimer's stacks), REPLAY_MEMORY=FILE
 * (memory after each upload).
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\executables\QueueServer;
use seekquarry\yioop\library\CrawlConstants as K;
use seekquarry\yioop\library\IndexArchiveBundle;

const CRAWL_TIMESTAMP = 1700000000;

[, $yioop_src, $work_dir, $batch_dir, $out] = $argv;
if (isset($argv[5])) {
    define("seekquarry\\yioop\\configs\\NUM_DOCS_PER_GENERATION", (int)$argv[5]);
}
require __DIR__ . "/../e2e/yioop-boot.php";
writeCrawlProfile($work_dir);
bootYioop($yioop_src, $work_dir);
define("seekquarry\\yioop\\configs\\UNIT_TEST_MODE", true);
require "$yioop_src/executables/QueueServer.php";
set_error_handler(fn() => true); // Yioop's handler prints PHP 8.2+ deprecations
// QueueServer sets Yioop's handler again after its first upload, which
// prints every warning with a backtrace: at 1,000,000 documents 19 GB of
// worker.log. Printed as before (the same work on both sides), kept only
// up to LOG_KEPT bytes.
const LOG_KEPT = 1 << 20;
ob_start(function (string $out) {
    static $printed = 0;
    $kept = substr($out, 0, max(0, LOG_KEPT - $printed));
    $printed += strlen($out);
    return $kept;
}, 65536);
ini_set("memory_limit", QUEUE_SERVER_MEMORY_LIMIT); // as QueueServer runs

$server = queueServer(CRAWL_TIMESTAMP);
$inbox = CRAWL_DIR . "/schedules/IndexData" . CRAWL_TIMESTAMP . "/0";
@mkdir($inbox, 0777, true);
$times = ["batches" => 0.0, "stop" => 0.0];
// Wall-clock seconds beside the CPU seconds: getrusage counts every
// thread of the process, so record compression on several threads
// (yioop.compress_threads) shows only in the wall-clock time.
$walls = ["batches" => 0.0, "stop" => 0.0];
$profiler = profiler(getenv("REPLAY_PROFILE") ?: null);
$batches = glob("$batch_dir/*.txt");
sort($batches);
if (getenv("REPLAY_SETUP_ONLY")) {
    $batches = []; // instructions.sh's baseline: everything but the indexing
}
foreach ($batches as $i => $batch) {
    copy($batch, sprintf("%s/At%010dFrom127-0-0-1WithHash%s.txt", $inbox, $i, sha1_file($batch)));
    $start = cpuSeconds();
    $wall = hrtime(true);
    $server->processIndexData(false);
    $times["batches"] += cpuSeconds() - $start;
    $walls["batches"] += (hrtime(true) - $wall) / 1e9;
    logMemory(getenv("REPLAY_MEMORY") ?: null, $i);
}
$start = cpuSeconds();
$wall = hrtime(true);
if ($batches) {
    $server->shutdownDictionary();
}
$times["stop"] = cpuSeconds() - $start;
$walls["stop"] = (hrtime(true) - $wall) / 1e9;
$times["total"] = $times["batches"] + $times["stop"];
$walls["total"] = $walls["batches"] + $walls["stop"];
if ($profiler) {
    $profiler->stop();
    file_put_contents(getenv("REPLAY_PROFILE"), $profiler->getLog()->formatCollapsed());
}
$index_dir = CRAWL_DIR . "/cache/IndexData" . CRAWL_TIMESTAMP;
file_put_contents($out, json_encode(["times" => $times, "walls" => $walls, "batches" => count($batches),
    "files" => fileHashes($index_dir), "peak_memory" => memory_get_peak_usage()]));

/** A queue server as its constructor and startCrawl leave it, for one indexer. */
function queueServer(int $timestamp): QueueServer
{
    $server = new QueueServer();
    $server->crawl_time = $timestamp;
    $server->channel = 0;
    $server->crawl_status_file_name = CRAWL_DIR . "/schedules/0-crawl_status.txt";
    $info = [K::CRAWL_TIME => $timestamp, K::DESCRIPTION => "crawl replay",
        K::CRAWL_TYPE => K::WEB_CRAWL, K::CRAWL_ORDER => K::PAGE_IMPORTANCE];
    $server->index_archive = new IndexArchiveBundle(CRAWL_DIR . "/cache/IndexData$timestamp",
        false, serialize($info), NUM_DOCS_PER_GENERATION, false);
    return $server;
}

/**
 * With REPLAY_MEMORY set: a line to that file after each upload, in MB
 * (and which side: "yioop" or "ext"):
 * the process's own memory (RssAnon), PHP's heap (memory_get_usage(true)),
 * glibc's heap and the part of it in use (mallinfo2: the extension's
 * Rust allocations), and the extension's block cache.
 */
function logMemory(?string $file, int $upload): void
{
    static $libc = null;
    if ($file === null) {
        return;
    }
    $libc ??= \FFI::cdef("struct mallinfo2 { size_t arena, ordblks, smblks, hblks, hblkhd, usmblks,
        fsmblks, uordblks, fordblks, keepcost; }; struct mallinfo2 mallinfo2(void);", "libc.so.6");
    $heap = $libc->mallinfo2();
    $own = preg_match('/^RssAnon:\s+(\d+)/m', (string)file_get_contents("/proc/self/status"), $m)
        ? (int)$m[1] << 10 : 0;
    $blocks = function_exists("yioop_codec\\shard\\blockCacheStats")
        ? \yioop_codec\shard\blockCacheStats()["held_bytes"] : 0;
    $mb = fn(int $bytes) => round($bytes / 1048576);
    $side = extension_loaded("yioop") ? "ext" : "yioop";
    file_put_contents($file, sprintf("%s upload %d: rss_anon %d, php_heap %d, libc_heap %d "
        . "(in use %d), block_cache %d\n", $side, $upload, $mb($own), $mb(memory_get_usage(true)),
        $mb($heap->arena), $mb($heap->uordblks), $mb($blocks)), FILE_APPEND);
}

/** With REPLAY_PROFILE set: php-excimer samples CPU time every millisecond. */
function profiler(?string $file): ?\ExcimerProfiler
{
    if ($file === null) {
        return null;
    }
    $profiler = new \ExcimerProfiler();
    $profiler->setEventType(EXCIMER_CPU);
    $profiler->setPeriod(0.001);
    $profiler->start();
    return $profiler;
}

function cpuSeconds(): float
{
    $u = getrusage();
    return $u["ru_utime.tv_sec"] + $u["ru_utime.tv_usec"] / 1e6
        + $u["ru_stime.tv_sec"] + $u["ru_stime.tv_usec"] / 1e6;
}

/** Relative path => SHA-1 of every file under $dir, sorted. */
function fileHashes(string $dir): array
{
    $hashes = [];
    $files = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($dir,
        \FilesystemIterator::SKIP_DOTS));
    foreach ($files as $file) {
        $hashes[substr($file->getPathname(), strlen($dir) + 1)] = sha1_file($file->getPathname());
    }
    ksort($hashes);
    return $hashes;
}
