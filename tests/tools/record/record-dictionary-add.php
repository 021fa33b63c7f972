<?php
/**
 * Records what Yioop's own IndexDictionary::addShardDictionary (PHP, no
 * extension) makes of a sequence of shards, for
 * tests/index/DictionaryAddTest.php to replay against
 * yioop_codec\dictionary\addShardDictionary without a Yioop tree.
 *
 *   PHP_INI_SCAN_DIR=<ini dir without yioop> \
 *       php tests/tools/record/record-dictionary-add.php YIOOP_DIR tests/fixtures/dictionary/adds.json.gz
 *
 * Five shards (generations 0-4) of the bench corpus, each saved by Yioop's
 * IndexShard, are added one by one to a fresh dictionary, so that its
 * tiers merge (after the second, fourth: two tiers up). Recorded per
 * shard: its file, its prefixes_len once its header is read, the method's
 * result, and afterwards every file of the dictionary (md5), max_tier and
 * active_tiers.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\IndexDictionary;
use seekquarry\yioop\library\IndexShard;
use yioop_codec\bench\Corpus;

[, $yioop, $out] = $argv + [null, null, null];
if (!$yioop || !$out || extension_loaded("yioop")) {
    fwrite(STDERR, "usage: php record-dictionary-add.php YIOOP_DIR OUT.json.gz, without the yioop extension\n");
    exit(2);
}
$root = dirname(__DIR__, 3);
require "$root/bench/e2e/corpus.php";
require "$root/bench/e2e/yioop-boot.php";
$work = sys_get_temp_dir() . "/yioop-record-add-" . getmypid();
@mkdir($work);
bootYioop("$yioop/src", $work);
mt_srand(13);

$dir = "$work/dictionary";
$dictionary = new IndexDictionary($dir);
$adds = [];
for ($generation = 0; $generation < 5; $generation++) {
    $file = "$work/index$generation";
    $shard = new IndexShard($file, $generation, NUM_DOCS_PER_GENERATION);
    foreach ((new Corpus(40 + $generation))->items(10) as [$keys, $offset, $words, $meta, $is_doc, $scores]) {
        $shard->addDocumentWords($keys, $offset, $words, $meta, $is_doc, false, $scores);
    }
    $shard->save();
    $read = new IndexShard($file, $generation, NUM_DOCS_PER_GENERATION, true);
    ob_start();
    $result = $dictionary->addShardDictionary($read);
    ob_end_clean();
    $files = [];
    foreach (new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($dir, \FilesystemIterator::SKIP_DOTS)) as $path) {
        $files[substr($path, strlen($dir) + 1)] = md5_file($path);
    }
    ksort($files);
    $adds[] = ["shard" => base64_encode(file_get_contents($file)), "generation" => $generation,
        "prefixes_len" => $read->prefixes_len, "result" => $result, "files" => $files,
        "max_tier" => $dictionary->max_tier, "active_tiers" => $dictionary->active_tiers];
}
file_put_contents($out, gzencode(json_encode(["header_length" => IndexShard::HEADER_LENGTH, "adds" => $adds]), 9));
exec("rm -rf " . escapeshellarg($work));
echo count($adds), " shards added, recorded into $out\n";
