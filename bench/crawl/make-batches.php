<?php
/**
 * Makes Fetcher-style index-data uploads from the seeded StockCorpus, for
 * developing the replay without a real crawl:
 *
 *   YIOOP_DIR=... php bench/crawl/make-batches.php OUT_DIR [DOCS=2000] [SEED=1] [PER_BATCH=100]
 *
 * Each file is what FetchController stores for the index part of one
 * fetcher upload and QueueServer::processIndexArchive reads: webencode of a
 * packed length and, per site, a packed length and gzcompress(serialize(site)).
 * The sites are documents and one link summary per outgoing link, shaped as
 * tests/tools/yioop/stock-index.php shapes them (docSummary, linkSummary).
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library as L;
use yioop_codec\live\StockCorpus;

[$out_dir, $docs, $seed, $per_batch] = array_slice($argv, 1) + [null, 2000, 1, 100];
$yioop = getenv("YIOOP_DIR");
if (!$out_dir || !$yioop) {
    fwrite(STDERR, "usage: YIOOP_DIR=... php make-batches.php OUT_DIR [DOCS] [SEED] [PER_BATCH]\n");
    exit(2);
}
$root = dirname(__DIR__, 2);
require "$root/tests/tools/yioop/stock-corpus.php";
require "$root/tests/tools/yioop/stock-summaries.php";
require __DIR__ . "/../e2e/yioop-boot.php";
$work = sys_get_temp_dir() . "/yioop-batches-" . getmypid();
@mkdir($work);
bootYioop("$yioop/src", $work);
require_once "$yioop/src/library/Utility.php";
require_once "$yioop/src/library/LocaleFunctions.php";
@mkdir($out_dir, 0777, true);
const TIME0 = 1700000000;
$batch = [];
$n = 0;
foreach ((new StockCorpus((int)$seed))->pages((int)$docs) as $i => $page) {
    $batch[] = docSummary($page, TIME0 + $i);
    foreach ($page["links"] as $url => $text) {
        $batch[] = linkSummary($page["url"], $url, $text, TIME0 + $i);
    }
    if (($i + 1) % $per_batch == 0) {
        writeBatch($out_dir, $n++, $batch);
        $batch = [];
    }
}
if ($batch) {
    writeBatch($out_dir, $n++, $batch);
}
exec("rm -rf " . escapeshellarg($work));
echo "$n batches in $out_dir\n";

function writeBatch(string $dir, int $n, array $sites): void
{
    $seen = "";
    foreach ($sites as $site) {
        $one = gzcompress(serialize($site));
        $seen .= L\packInt(strlen($one)) . $one;
    }
    file_put_contents(sprintf("%s/batch%05d.txt", $dir, $n),
        L\webencode(L\packInt(strlen($seen)) . $seen));
}
