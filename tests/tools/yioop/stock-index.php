<?php
/**
 * Builds a crawl's index in a configured Yioop install, through Yioop's own
 * classes, the way a QueueServer indexer does, and makes it the current
 * index, as Manage Crawls' "Set as Index" does:
 *
 *   php tests/tools/yioop/stock-index.php YIOOP_DIR DOCS SEED TIMESTAMP
 *
 * Pages from StockCorpus become fetcher-style summaries (documents, then
 * one link summary per outgoing link); they are handed to the
 * IndexArchiveBundle in batches (initGenerationToAdd, addPages), and
 * stopping the crawl (stopIndexingBundle) inverts them into the shard and
 * merges the dictionary. Run it without the yioop extension: the index is
 * stock Yioop's. Prints one line: documents, links, index bytes.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library as L;
use seekquarry\yioop\library\CrawlConstants as K;
use seekquarry\yioop\library\IndexArchiveBundle;
use seekquarry\yioop\models\CrawlModel;
use yioop_codec\live\StockCorpus;

const BATCH = 400;

[, $yioop, $num_docs, $seed, $timestamp] = $argv;
require __DIR__ . "/stock-corpus.php";
require __DIR__ . "/stock-summaries.php";
require "$yioop/src/library/Utility.php";
require "$yioop/src/library/LocaleFunctions.php";
set_error_handler(fn() => true); // Yioop's handler prints PHP 8.2+ deprecations
// as QueueServer does; with the CLI's unlimited -1 every batch would start a new generation
ini_set("memory_limit", QUEUE_SERVER_MEMORY_LIMIT);
$_SERVER["NO_LOGGING"] = true;
if (extension_loaded("yioop")) {
    fwrite(STDERR, "run this without the yioop extension: the index must be stock Yioop's\n");
    exit(2);
}

$dir = CRAWL_DIR . "/cache/IndexData$timestamp";
$info = [K::CRAWL_TIME => $timestamp, K::DESCRIPTION => "stock-install harness",
    K::CRAWL_TYPE => K::WEB_CRAWL, K::CRAWL_ORDER => K::PAGE_IMPORTANCE];
$bundle = new IndexArchiveBundle($dir, false, serialize($info), NUM_DOCS_PER_GENERATION, false);
$links = 0;
$batch = [];
foreach ((new StockCorpus((int)$seed))->pages((int)$num_docs) as $i => $page) {
    $batch[] = docSummary($page, (int)$timestamp + $i);
    foreach ($page["links"] as $url => $text) {
        $batch[] = linkSummary($page["url"], $url, $text, (int)$timestamp + $i);
        $links++;
    }
    if (count($batch) >= BATCH) {
        addBatch($bundle, $batch);
        $batch = [];
    }
}
addBatch($bundle, $batch);
$bundle->stopIndexingBundle();
(new CrawlModel())->setCurrentIndexDatabaseName($timestamp);
echo "$num_docs documents, $links links, " . bytesUnder($dir) . " bytes in $dir\n";

/** One indexer step, as QueueServer::processIndexArchive takes a fetcher's batch. */
function addBatch(IndexArchiveBundle $bundle, array $sites): void
{
    if ($sites === []) {
        return;
    }
    $generation = $bundle->initGenerationToAdd(count($sites));
    $visited = 0;
    foreach ($sites as $i => $site) {
        if ($site[K::TYPE] != "link") {
            $sites[$i][K::HASH_URL] = L\crawlHash($site[K::URL], true);
            $sites[$i][K::IS_DOC] = true;
            $visited++;
        }
    }
    $bundle->addPages($generation, K::SUMMARY_OFFSET, $sites, $visited);
}

function bytesUnder(string $dir): int
{
    $bytes = 0;
    $files = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($dir,
        \FilesystemIterator::SKIP_DOTS));
    foreach ($files as $file) {
        $bytes += $file->getSize();
    }
    return $bytes;
}
