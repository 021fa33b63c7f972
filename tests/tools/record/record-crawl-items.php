<?php
/**
 * Records Yioop's ParallelModel::nonNetworkGetCrawlItems (YIOOP_DIR, run
 * WITHOUT the extension) on tests/support/crawl_items/cases.php, for
 * tests/search/CrawlItemsTest.php: each case's result, what PHP reported,
 * the model's callees in order and the partitions' iterator_pos.
 *
 *   YIOOP_DIR=... php tests/tools/record/record-crawl-items.php
 */
$yioop = getenv("YIOOP_DIR") ?: "/work/yioop-2021";
if (extension_loaded("yioop")) {
    fwrite(STDERR, "run without the extension: this records Yioop's PHP\n");
    exit(1);
}
$runner = __DIR__ . "/../../support/crawl_items/run.php";
$json = shell_exec(escapeshellarg(PHP_BINARY) . " " . escapeshellarg($runner) . " yioop " . escapeshellarg($yioop));
if (!is_array(json_decode((string)$json, true))) {
    fwrite(STDERR, "no result from $runner\n");
    exit(1);
}
file_put_contents(__DIR__ . "/../../fixtures/crawl_items/yioop-2021.json", $json);
echo "recorded ", count(json_decode($json, true)), " cases\n";
