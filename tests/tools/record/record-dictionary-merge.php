<?php
/**
 * Records what Yioop's own IndexDictionary::mergeTierFiles (PHP, no
 * extension) makes of pairs of tier files, for
 * tests/index/DictionaryMergeTest.php to replay against
 * yioop_codec\dictionary\mergeTierFiles without a Yioop tree.
 *
 *   PHP_INI_SCAN_DIR=<ini dir without yioop> \
 *       php tests/tools/record/record-dictionary-merge.php YIOOP_DIR tests/fixtures/dictionary/merges.json.gz
 *
 * The pairs are drawn from a seed: ids shared by both files or in one,
 * auxiliary records full and part full (where combineDictionaryRecord's
 * array union drops entries), over 256 auxiliary records (their count's
 * high byte), second bytes in runs and out of order, empty files, both
 * prefix bits; and files that are not whole records (a record cut off, a
 * length off the 32-byte grid), which the native function leaves to
 * Yioop's PHP. Recorded per pair: the prefix, tier and slot, both inputs,
 * the output and which inputs remain.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\IndexDictionary;

[, $yioop, $out] = $argv + [null, null, null];
if (!$yioop || !$out || extension_loaded("yioop")) {
    fwrite(STDERR, "usage: php record-dictionary-merge.php YIOOP_DIR OUT.json.gz, without the yioop extension\n");
    exit(2);
}
$root = dirname(__DIR__, 3);
require "$root/bench/e2e/yioop-boot.php";
$work = sys_get_temp_dir() . "/yioop-record-merge-" . getmypid();
@mkdir($work);
bootYioop("$yioop/src", $work);
mt_srand(29);

/** 32 bytes: a 20-byte id, the count of auxiliary records, one entry. */
function item(string $id, int $aux): string
{
    return $id . pack("n", $aux) . random_bytes(10);
}

/** An auxiliary record of 1-3 entries, padded as Yioop pads it. */
function auxItem(int $n, int $entries, int $prefix_bit): string
{
    $item = chr($prefix_bit + ($n >> 8)) . chr($n & 255) . random_bytes(10 * $entries);
    return str_pad($item, 32, "\xFF");
}

function record(string $id, int $aux, int $prefix_bit): string
{
    $record = item($id, $aux);
    for ($n = 0; $n < $aux; $n++) {
        $record .= auxItem($n, $n + 1 < $aux ? 3 : mt_rand(1, 3), $prefix_bit);
    }
    return $record;
}

/** A tier file of $ids' records (in the order given). */
function tierFile(array $ids, int $prefix_bit, int $max_aux): string
{
    $file = random_bytes(2048);
    foreach ($ids as $id) {
        $file .= record($id, mt_rand(0, 3) ? mt_rand(0, min(2, $max_aux)) : mt_rand(0, $max_aux), $prefix_bit);
    }
    return $file;
}

/** $n ids of first byte $prefix, second bytes from $seconds, sorted. */
function ids(int $prefix, int $n, array $seconds): array
{
    $ids = [];
    for ($i = 0; $i < $n; $i++) {
        $ids[] = chr($prefix) . chr($seconds[array_rand($seconds)]) . random_bytes(18);
    }
    sort($ids, SORT_STRING);
    return array_values(array_unique($ids));
}

/** Two tier files sharing about a third of their ids. */
function pair(int $prefix, int $n, array $seconds, int $max_aux): array
{
    $prefix_bit = ($prefix & 128) ? 0 : 128;
    $all = ids($prefix, $n, $seconds);
    [$a, $b] = [[], []];
    foreach ($all as $id) {
        $r = mt_rand(0, 2);
        if ($r != 1) {
            $a[] = $id;
        }
        if ($r != 0) {
            $b[] = $id;
        }
    }
    return [tierFile($a, $prefix_bit, $max_aux), tierFile($b, $prefix_bit, $max_aux)];
}

$cases = [];
$add = function (string $name, int $prefix, int $tier, string $slot, string $a, string $b) use (&$cases) {
    $cases[] = compact("name", "prefix", "tier", "slot", "a", "b");
};
for ($k = 0; $k < 12; $k++) {
    $prefix = [0, 5, 127, 128, 200, 255][$k % 6];
    [$a, $b] = pair($prefix, mt_rand(50, 400), range(0, mt_rand(1, 255)), 6);
    $add("random $k", $prefix, $k % 3, $k % 2 ? "B" : "A", $a, $b);
}
[$a, $b] = pair(9, 40, [1, 2], 300);
$add("over 256 auxiliary records", 9, 0, "A", $a, $b);
$empty = random_bytes(2048);
[$a, $b] = pair(17, 100, range(0, 40), 4);
$add("A empty", 17, 1, "A", $empty, $b);
$add("B empty", 17, 1, "B", $a, $empty);
$add("both empty", 17, 2, "A", $empty, $empty);
// Second bytes out of order: a second byte seen again starts its count
// afresh in Yioop's prefix index.
$ids = array_merge(ids(33, 30, [7]), ids(33, 30, [3]), ids(33, 30, [7]));
$add("second bytes out of order", 33, 0, "A", tierFile($ids, 128, 3), tierFile(ids(33, 20, [7]), 128, 3));
// Not whole records: the last record's auxiliary records cut off, and a
// file off the 32-byte grid.
[$a, $b] = pair(40, 60, range(0, 9), 3);
$cut = tierFile(ids(40, 5, [1]), 128, 0) . item(chr(40) . chr(200) . random_bytes(18), 2);
$add("a record cut off", 40, 0, "A", $a, $cut);
$add("off the grid", 40, 0, "A", $a . "xyz", $b);

$recorded = [];
foreach ($cases as $case) {
    $dir = "$work/dict-" . count($recorded);
    $dictionary = new IndexDictionary($dir);
    $base = "$dir/{$case['prefix']}/{$case['tier']}";
    file_put_contents("{$base}A.dic", $case["a"]);
    file_put_contents("{$base}B.dic", $case["b"]);
    ob_start();
    $dictionary->mergeTierFiles($case["prefix"], $case["tier"], $case["slot"]);
    ob_end_clean();
    $output = "$dir/{$case['prefix']}/" . ($case["tier"] + 1) . "{$case['slot']}.dic";
    $recorded[] = ["name" => $case["name"], "prefix" => $case["prefix"], "tier" => $case["tier"],
        "slot" => $case["slot"], "a" => base64_encode($case["a"]), "b" => base64_encode($case["b"]),
        "out" => base64_encode(file_get_contents($output)),
        "remaining" => array_values(array_filter(["A", "B"], fn($s) => file_exists("{$base}$s.dic")))];
}
file_put_contents($out, gzencode(json_encode(["merges" => $recorded], JSON_PRETTY_PRINT), 9));
exec("rm -rf " . escapeshellarg($work));
echo count($recorded), " merges recorded into $out\n";
