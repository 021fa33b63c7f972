<?php
/**
 * The fetcher side of bench/scale, in its own PHP process (Yioop alone):
 *
 *   php fetch.php YIOOP_SRC WORK_DIR OUT_DIR PAGES [SEED]
 *
 * Yioop's own Fetcher class (its executable's file, less the two lines
 * that start its loop) is handed the pages of scalePages(PAGES, SEED) as
 * its download step hands them over (downloaded()), NUM_MULTI_CURL_PAGES
 * at a time, with no crawl pacing and nothing fetched over the network:
 * processFetchPages (the page
 * processors: HtmlProcessor), then updateFoundSites, which sends an update
 * whenever the Fetcher would (more than SEEN_URLS_BEFORE_UPDATE_SCHEDULER
 * pages seen) and, at the end, the rest. Its uploadCrawlData is replaced by
 * writing the upload's index data, as FetchController stores it for the
 * queue server, to OUT_DIR/batchNNNNN.txt: what bench/crawl/worker.php
 * takes in. Every timestamp is fixed, so the batches depend only on the
 * pages, the seed and Yioop.
 */
namespace seekquarry\yioop\executables;

use seekquarry\yioop\configs as C;
use seekquarry\yioop\library\CrawlConstants as K;
use seekquarry\yioop\library\FetchUrl;
use seekquarry\yioop\library\WebArchiveBundle;

const CRAWL_TIMESTAMP = 1700000000; // as bench/crawl/worker.php's crawl

[, $yioop_src, $work_dir, $out_dir, $pages] = $argv;
$seed = (int)($argv[5] ?? 1);
require dirname(__DIR__) . "/e2e/yioop-boot.php";
require __DIR__ . "/pages.php";
C\writeCrawlProfile($work_dir);
// What the installer's Profile adds for a Fetcher: the robot's name (each
// summary records it) and the site's path (an upload names it).
file_put_contents("$work_dir/Profile.php", "nsdefine('ROBOT_INSTANCE', 'scale');\n"
    . "nsdefine('WEB_URI', '/');\n", FILE_APPEND);
C\bootYioop($yioop_src, $work_dir);
loadFetcherClass("$yioop_src/executables/Fetcher.php", $work_dir);
require __DIR__ . "/batch-fetcher.php"; // extends the class just loaded
set_error_handler(fn() => true);
// (the file loaded set memory_limit to FETCHER_MEMORY_LIMIT, as a Fetcher runs)

$fetcher = new BatchFetcher($out_dir);
$fetcher->crawl_time = CRAWL_TIMESTAMP;
$fetcher->fetcher_num = 0;
$fetcher->web_archive = new WebArchiveBundle(C\CRAWL_DIR . "/cache/0-"
    . Fetcher::archive_base_name . CRAWL_TIMESTAMP, false);
// A schedule that is not empty: the Fetcher then sends when enough pages are seen.
$fetcher->to_crawl = [["http://127.0.0.1:" . \SCALE_PORT . "/", 1.0, 0]];
$i = 0;
foreach (array_chunk(\scalePages((int)$pages, $seed), C\NUM_MULTI_CURL_PAGES, true) as $chunk) {
    $downloaded = [];
    foreach ($chunk as $url => $file) {
        $downloaded[] = downloaded($url, $file, CRAWL_TIMESTAMP + $i++);
    }
    $fetcher->updateFoundSites($fetcher->processFetchPages($downloaded));
}
// The rest: the last pages, then the link summaries their upload left for the next.
while (!empty($fetcher->found_sites[K::SEEN_URLS])
    || !empty($fetcher->found_sites[K::LINK_SEEN_URLS][0])) {
    $fetcher->updateFoundSites([], true);
}
printf("%d pages, %d batches in %s\n", $i, $fetcher->written, $out_dir);

/**
 * A page as FetchUrl::getPages leaves it for processFetchPages: the
 * schedule's fields (URL, weight, crawl delay), then what nginx would have
 * answered the Fetcher's range request (bytes 0-PAGE_RANGE_REQUEST: 206,
 * the first PAGE_RANGE_REQUEST + 1 bytes of the file), cut to
 * PAGE_RANGE_REQUEST bytes with its header, as getPages cuts it, and parsed
 * by Yioop's own FetchUrl::parseHeaderPage.
 */
function downloaded(string $url, string $file, int $time): array
{
    $whole = (string)file_get_contents($file);
    $body = substr($whole, 0, C\PAGE_RANGE_REQUEST + 1);
    $modified = CRAWL_TIMESTAMP - 86400;
    $response = "HTTP/1.1 206 Partial Content\r\nServer: nginx/1.22.1\r\nDate: "
        . gmdate("D, d M Y H:i:s", $time) . " GMT\r\nContent-Type: text/html\r\n"
        . "Content-Length: " . strlen($body) . "\r\nLast-Modified: "
        . gmdate("D, d M Y H:i:s", $modified) . " GMT\r\nConnection: keep-alive\r\n"
        . sprintf("ETag: \"%x-%x\"\r\n", $modified, strlen($whole))
        . "Content-Range: bytes 0-" . (strlen($body) - 1) . "/" . strlen($whole) . "\r\n\r\n"
        . $body;
    $site = [K::URL => $url, K::WEIGHT => 1.0, K::CRAWL_DELAY => 0];
    $content = substr($response, 0, C\PAGE_RANGE_REQUEST);
    if (strlen($content) != strlen($response)) {
        $site[K::CONTENT_SIZE] = strlen($response);
    }
    $site = array_merge($site, FetchUrl::parseHeaderPage($content, K::PAGE));
    return $site + [K::SIZE => strlen($body), K::DNS_TIME => 0, K::TOTAL_TIME => 0,
        K::HTTP_CODE => 206, K::IP_ADDRESSES => ["127.0.0.1"], K::TIMESTAMP => $time];
}

/**
 * Yioop's Fetcher.php declares the class and then starts it; this loads
 * the declaration only (the file less its last two statements, its
 * __DIR__ made the real directory), from a copy in $work_dir.
 */
function loadFetcherClass(string $file, string $work_dir): void
{
    $source = (string)file_get_contents($file);
    $start = strrpos($source, "\$fetcher =  new Fetcher();");
    if ($start === false || trim(substr($source, $start)) !== "\$fetcher =  new Fetcher();\n"
        . "\$fetcher->start();") {
        fwrite(STDERR, "$file does not end as Yioop 2021's Fetcher.php does\n");
        exit(2);
    }
    $copy = "$work_dir/FetcherClass.php";
    file_put_contents($copy, str_replace("__DIR__", var_export(dirname($file), true),
        substr($source, 0, $start)));
    require $copy;
}
