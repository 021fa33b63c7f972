<?php
/**
 * For the recorders of tests/tools/record that read a crawl's pages: their common
 * start (arguments, Yioop booted) and the phrase strings of a crawl's
 * first pages, as Yioop's shard build makes them (host words, title, path
 * words, description).
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\CrawlConstants as K;
use seekquarry\yioop\library\UrlParser;
use seekquarry\yioop\library\WebArchive;
use seekquarry\yioop\library\compressors\GzipCompressor;

require_once dirname(__DIR__, 3) . "/bench/e2e/yioop-boot.php";

/**
 * A crawl recorder's arguments, `YIOOP_DIR SUMMARIES_ARCHIVE OUT [PAGES]
 * [--compare]`, with Yioop booted in a fresh work directory named after
 * $name: [yioop dir, archive, out, pages, compare, work directory].
 */
function startRecorder(string $name, array $argv, int $default_pages): array
{
    [, $yioop, $archive, $out] = $argv;
    $pages = (int)($argv[4] ?? $default_pages);
    $work = sys_get_temp_dir() . "/record-$name-" . getmypid();
    mkdir($work);
    bootYioop("$yioop/src", $work);
    return [$yioop, $archive, $out, $pages, in_array("--compare", $argv, true), $work];
}

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
