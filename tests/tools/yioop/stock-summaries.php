<?php
/**
 * The summaries a fetcher sends for StockCorpus pages: one for a page it
 * downloaded, one for each link found on it. Shared by stock-index.php and
 * bench/crawl/make-batches.php.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library as L;
use seekquarry\yioop\library\CrawlConstants as K;

/** What a fetcher sends for a page it downloaded. */
function docSummary(array $page, int $time): array
{
    $address = "10.0." . (crc32($page["url"]) % 250) . ".1";
    return [K::URL => $page["url"], K::TITLE => $page["title"],
        K::DESCRIPTION => $page["description"], K::DESCRIPTION_SCORES => $page["scores"],
        K::LINKS => $page["links"], K::HASH => L\crawlHash($page["description"], true),
        K::TYPE => "text/html", K::HTTP_CODE => 200, K::LANG => "en-US",
        K::ENCODING => "UTF-8", K::IP_ADDRESSES => [$address], K::TIMESTAMP => $time,
        K::SIZE => strlen($page["description"])];
}

/** What a fetcher sends for one link found on a page: keys as its link_keys. */
function linkSummary(string $from, string $to, string $text, int $time): array
{
    $from_host = L\UrlParser::getHost($from);
    $external = L\UrlParser::getHost($to) != $from_host;
    $link_id = "url|$to|text|" . urlencode($text) . "|" . ($external ? "eref" : "iref") . "|$from";
    $keys = L\crawlHash($to, true) . L\crawlHash($link_id, true) . ($external ? "e" : "i")
        . substr(L\crawlHash("$from_host/", true), 1);
    return [K::URL => $link_id, K::TITLE => $to, K::DESCRIPTION => $text,
        K::TIMESTAMP => $time, K::ENCODING => "UTF-8", K::HASH => $link_id,
        K::TYPE => "link", K::HTTP_CODE => $keys, K::LANG => "en-US"];
}
