<?php
/**
 * Records what Yioop's own BloomFilterFile answers, for tests/index/BloomTest.php:
 *
 *   php tests/tools/record/record-bloom.php YIOOP_DIR tests/fixtures/bloom/recorded.json.gz
 *
 * Run without the yioop extension. A filter made by Yioop's constructor
 * for 300 values (its sizes floats, as ceil() leaves them) holds 300
 * StockCorpus phrases; asked are those, 1,500 others (some false positives
 * among them), and a few odd strings. Stored: the filter's fields as Yioop
 * keeps them (types included) and each value with Yioop's answer.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\BloomFilterFile;
use yioop_codec\live\StockCorpus;

[, $yioop, $out] = $argv;
if (extension_loaded("yioop")) {
    fwrite(STDERR, "run this without the yioop extension\n");
    exit(2);
}
require __DIR__ . "/../yioop/stock-corpus.php";
require dirname(__DIR__, 3) . "/bench/e2e/yioop-boot.php";
$work = sys_get_temp_dir() . "/record-bloom-" . getmypid();
mkdir($work);
bootYioop("$yioop/src", $work);
$filter = new BloomFilterFile("$work/filter.ftr", 300);
$phrase = fn(int $i) => StockCorpus::word($i % 97 + 1) . " " . StockCorpus::word($i * 7 % 211 + 1);
$values = [];
for ($i = 0; $i < 300; $i++) {
    $filter->add($phrase($i));
    $values[] = $phrase($i);
}
for ($i = 300; $i < 1800; $i++) {
    $values[] = $phrase($i) . ($i % 3 ? "" : " $i");
}
array_push($values, "", "x", "new york", "élan vital", "東京 大学", str_repeat("a", 300), "\0\xff");
$answers = array_map(fn($v) => [base64_encode($v), $filter->contains($v)], $values);
$fields = ["num_keys" => $filter->num_keys, "filter_size" => $filter->filter_size,
    "filter" => base64_encode($filter->filter)];
file_put_contents($out, gzencode(json_encode(["fields" => $fields, "answers" => $answers],
    JSON_PRESERVE_ZERO_FRACTION), 9));
exec("rm -rf " . escapeshellarg($work));
printf("%d answers (%d true), num_keys %s, filter_size %s\n", count($answers),
    count(array_filter(array_column($answers, 1))), var_export($filter->num_keys, true),
    var_export($filter->filter_size, true));
