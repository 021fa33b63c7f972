<?php
/**
 * Turns captured fetcher uploads (FetchController "update" requests, one
 * serialized ["number", "time", "get", "post"] record a file, as the crawl
 * capture writes them) into the index-data files the replay takes:
 *
 *   php bench/crawl/uploads-to-batches.php UPLOAD_DIR OUT_DIR
 *
 * As FetchController does: the parts of one upload (`current_part` of
 * `num_parts`, same `hash_data`) are joined in order, then split by
 * `byte_counts` into robot,
 * cache-validation and schedule data and the index data, which is what
 * FetchController stores for the queue server. Uploads with no index data
 * are skipped. Needs no Yioop: the byte counts are webencoded serialize().
 */
[, $in, $out] = $argv + [null, null, null];
if (!$in || !$out) {
    fwrite(STDERR, "usage: php uploads-to-batches.php UPLOAD_DIR OUT_DIR\n");
    exit(2);
}
@mkdir($out, 0777, true);
$files = glob("$in/*.upload");
sort($files);
$pending = [];
$written = 0;
foreach ($files as $file) {
    $post = unserialize(file_get_contents($file))["post"] ?? [];
    if (($post["a"] ?? "") !== "update" || !isset($post["part"], $post["num_parts"])) {
        continue;
    }
    $key = $post["hash_data"] ?? $file;
    $pending[$key][(int)($post["current_part"] ?? 1)] = $post;
    if (count($pending[$key]) < (int)$post["num_parts"]) {
        continue;
    }
    ksort($pending[$key]);
    $data = implode("", array_column($pending[$key], "part"));
    unset($pending[$key]);
    $counts = unserialize(webdecode($post["byte_counts"] ?? ""));
    if (!is_array($counts) || ($counts["TOTAL"] ?? 0) <= 0) {
        continue;
    }
    $skip = $counts["ROBOT"] + $counts["CACHE_PAGE_VALIDATION"] + $counts["SCHEDULE"];
    $index = substr($data, $skip);
    if ($index !== "") {
        file_put_contents(sprintf("%s/batch%05d.txt", $out, $written++), $index);
    }
}
echo "$written batches in $out", $pending ? " (" . count($pending) . " incomplete uploads left out)" : "", "\n";

/** Yioop's webdecode: base64 with _ ~ . for / = +. */
function webdecode(string $s): string
{
    return (string)base64_decode(strtr($s, ["_" => "/", "~" => "=", "." => "+"]));
}
