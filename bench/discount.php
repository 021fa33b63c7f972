<?php
/**
 * The look-ups a word iterator makes at every posting, per call, on Yioop's
 * own classes over the dictionary Yioop built for tests/fixtures/dictionary:
 * IndexDictionary::getWordInfo asked the same id again (a word the
 * dictionary holds, one it lacks), and IndexManager::discountedNumDocsTerm
 * of a term the index lacks and of one in its static cache.
 *
 *   php bench/discount.php YIOOP_DIR                     Yioop's PHP
 *   php -d extension=target/release/libyioop_codec.so bench/discount.php SWITCHED_TREE
 *
 * SWITCHED_TREE: a copy of YIOOP_DIR switched by php/yioop-integrate.php.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library as L;

const CALLS = 50000;
[, $tree] = $argv + [null, null];
if (!is_dir("$tree/src")) {
    fwrite(STDERR, "usage: php [-d extension=...] bench/discount.php YIOOP_TREE\n");
    exit(2);
}
$work = sys_get_temp_dir() . "/bench-discount-" . getmypid();
mkdir($work);
require __DIR__ . "/e2e/yioop-boot.php";
bootYioop("$tree/src", $work);
$recorded = json_decode(gzdecode(file_get_contents(dirname(__DIR__) . "/tests/fixtures/dictionary/recorded.json.gz")), true);
foreach ($recorded["files"] as $path => $bytes) {
    @mkdir(dirname("$work/dictionary/$path"), 0777, true);
    file_put_contents("$work/dictionary/$path", base64_decode($bytes));
}
$index = (new \ReflectionClass(L\IndexArchiveBundle::class))->newInstanceWithoutConstructor();
$index->dir_name = $work;
$index->generation_info = ["ACTIVE" => 5, "LAST_DICTIONARY_SHARD" => 5];
$index->dictionary = new L\IndexDictionary("$work/dictionary", $index);
L\IndexManager::$indexes = ["1700000000" => $index];
L\IndexManager::$index_times = ["1700000000" => time()];

/** Microseconds a call of $call, after one call to warm it. */
function perCall(callable $call): float
{
    $call();
    $start = hrtime(true);
    for ($i = 0; $i < CALLS; $i++) {
        $call();
    }
    return (hrtime(true) - $start) / 1e3 / CALLS;
}

$mode = extension_loaded("yioop") ? "switched, with the extension" : "Yioop's PHP";
printf("%s (%s), %d calls each:\n", $tree, $mode, CALLS);
foreach (["w1" => "a word it holds", "absent" => "a word it lacks"] as $word => $what) {
    $id = L\crawlHashWord($word, true);
    printf("  IndexDictionary::getWordInfo, %s, again: %.3f us\n", $what,
        perCall(fn() => $index->dictionary->getWordInfo($id, true, -1, 0, NUM_DISTINCT_GENERATIONS, true)));
}
foreach (["link:VGhpc0lzTm90QVdvcmQ" => "a term the index lacks", "w1" => "a term in its cache"] as $term => $what) {
    printf("  IndexManager::discountedNumDocsTerm, %s: %.3f us\n", $what,
        perCall(fn() => L\IndexManager::discountedNumDocsTerm($term, "1700000000")));
}
exec("rm -rf " . escapeshellarg($work));
