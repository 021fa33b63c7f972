<?php
/**
 * What compressing a queue server's summaries costs, by record size:
 *
 *   php bench/crawl/deflate-records.php BATCHES_DIR [MAX_BATCHES=4] [DUMP_FILE]
 *
 * Decodes fetcher uploads as processIndexArchive does (webdecode, then each
 * site's gzuncompress and unserialize), serializes each site with an offset
 * field added as WebArchive::addObjects would, and times PHP's gzencode at
 * levels 1, 6 and 9 (addObjects uses 9) over records up to 32 KiB and
 * over it. Stand-in records: the summaries Yioop stores are these sites
 * with a few more fields. DUMP_FILE: the records also written there, each
 * after its length (4 bytes, big-endian), for bench/deflate.rs
 * (DEFLATE_RECORDS=DUMP_FILE).
 */
declare(strict_types=1);

require_once dirname(__DIR__, 2) . "/tests/tools/yioop/stock-setup.php";
require_once dirname(__DIR__) . "/scale/uploads.php";

[, $dir] = $argv + [1 => ""];
$max_batches = (int)($argv[2] ?? 4);
$files = array_slice(glob("$dir/batch*.txt") ?: [], 0, $max_batches);
if (!$files) {
    fwrite(STDERR, "usage: php bench/crawl/deflate-records.php BATCHES_DIR [MAX_BATCHES]\n");
    exit(2);
}
$records = [];
foreach ($files as $file) {
    foreach (uploadSites(file_get_contents($file)) as $text) {
        $site = unserialize($text);
        $site["offset"] = 1234567;
        $records[] = serialize($site);
    }
}
if (isset($argv[3])) {
    file_put_contents($argv[3], implode("", array_map(fn($r) => pack("N", strlen($r)) . $r, $records)));
}
$lens = array_map("strlen", $records);
sort($lens);
$quantile = fn($q) => $lens[(int)($q * (count($lens) - 1))];
printf("%d records from %d uploads, %.1f MB; length p10 %d, p50 %d, p90 %d, max %d\n",
    count($records), count($files), array_sum($lens) / 1e6, $quantile(0.1), $quantile(0.5),
    $quantile(0.9), end($lens));
foreach (["up to 32 KiB" => fn($r) => strlen($r) <= 32768, "over 32 KiB" => fn($r) => strlen($r) > 32768]
    as $class => $in) {
    $set = array_values(array_filter($records, $in));
    $bytes = array_sum(array_map("strlen", $set));
    printf("%s: %d records, %.1f%% of the bytes;", $class, count($set), 100 * $bytes / array_sum($lens));
    foreach ([1, 6, 9] as $level) {
        $start = hrtime(true);
        foreach ($set as $record) {
            gzencode($record, $level);
        }
        printf(" level %d %.0f ms", $level, (hrtime(true) - $start) / 1e6);
    }
    echo "\n";
}
