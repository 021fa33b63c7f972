<?php
/**
 * The phrase strings of a crawl's first pages, as Yioop's shard build
 * makes them (host words, title, path words, description), for the
 * recorders of tests/live; Yioop must be booted (bench/e2e/yioop-boot.php).
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\CrawlConstants as K;
use seekquarry\yioop\library\UrlParser;
use seekquarry\yioop\library\WebArchive;
use seekquarry\yioop\library\compressors\GzipCompressor;

/**
 * [phrase string, locale, URL] of the first $pages pages with a description in
 * the summaries archive $archive (web_archive_0.txt.gz).
 */
function crawlTexts(string $archive, int $pages): array
{
    $texts = [];
    $web = new WebArchive($archive, new GzipCompressor(), true);
    while (count($texts) < $pages && !empty($objects = $web->nextObjects(50))) {
        foreach ($objects as [, $site]) {
            if (!is_array($site) || empty($site[K::DESCRIPTION]) || count($texts) >= $pages) {
                continue;
            }
            $url = $site[K::URL] ?? "";
            $text = UrlParser::getWordsInHostUrl($url) . " .. " . ($site[K::TITLE] ?? "")
                . " ..  " . UrlParser::getWordsLastPathPartUrl($url) . " .. " . $site[K::DESCRIPTION];
            $texts[] = [$text, $site[K::LANG] ?? "en-US", $url];
        }
    }
    return $texts;
}
