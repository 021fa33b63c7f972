<?php
/**
 * WordIterator's blocks, timed on Yioop's own classes over an index the
 * scale benchmark built (bench/scale): each word's list walked block by
 * block with nextDocsWithWord(), as a search's iterators walk it, and a
 * digest of every block, so that a run on Yioop's PHP and one on a switched
 * tree can be compared.
 *
 *   php bench/word_iterator.php YIOOP_DIR INDEX_DIR [--block=N] [word ...]
 *   php -d extension=target/release/libyioop_codec.so bench/word_iterator.php SWITCHED_TREE INDEX_DIR [--block=N] [word ...]
 *
 * INDEX_DIR: an IndexData<crawl time> directory, for example
 * /var/tmp/yioop-scale/100000-gdefault/ext-off/IndexData1700000000.
 * --block=N: postings a block (results_per_block; Yioop's default else).
 * A search's intersections take one at a time: --block=1 times the cost
 * of a call rather than of a posting.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library as L;
use seekquarry\yioop\library\index_bundle_iterators\WordIterator;

const ROUNDS = 5;
[, $tree, $index_dir] = $argv + [null, null, null];
$args = array_slice($argv, 3);
$block = null;
foreach ($args as $i => $arg) {
    if (preg_match('/^--block=(\d+)$/', $arg, $match)) {
        $block = (int)$match[1];
        unset($args[$i]);
    }
}
$words = array_values($args) ?: ["the", "and", "function", "postgresql", "kernel"];
if (!is_dir("$tree/src") || !preg_match('/IndexData(\d+)$/', rtrim((string)$index_dir, "/"), $m)) {
    fwrite(STDERR, "usage: php [-d extension=...] bench/word_iterator.php YIOOP_TREE INDEX_DIR [word ...]\n");
    exit(2);
}
$index_name = $m[1];
$work = sys_get_temp_dir() . "/bench-word-iterator-" . getmypid();
mkdir("$work/cache", 0777, true);
symlink(realpath($index_dir), "$work/cache/IndexData$index_name");
require __DIR__ . "/e2e/yioop-boot.php";
bootYioop("$tree/src", $work);

/**
 * Walks the word's list once: [blocks, postings, digest of the blocks,
 * microseconds in nextDocsWithWord].
 */
function walk(string $word, string $index_name, ?int $block): array
{
    $iterator = $block === null ? new WordIterator(L\crawlHashWord($word, true), $index_name, true)
        : new WordIterator(L\crawlHashWord($word, true), $index_name, true, null, $block);
    [$blocks, $postings, $digest, $ns] = [0, 0, "", 0];
    while (true) {
        $start = hrtime(true);
        $block = $iterator->nextDocsWithWord();
        $ns += hrtime(true) - $start;
        if ($block === null) {
            break;
        }
        $blocks++;
        $postings += count($block);
        $digest = md5($digest . serialize($block) . $iterator->next_offset . $iterator->count_block);
    }
    return [$blocks, $postings, $digest, $ns / 1e3];
}

$mode = extension_loaded("yioop") ? "switched, with the extension" : "Yioop's PHP";
printf("%s (%s), JIT %s, %s postings a block, best of %d walks:\n", $tree, $mode,
    ini_get("opcache.jit") ?: "off", $block ?? "Yioop's default", ROUNDS);
foreach ($words as $word) {
    $best = INF;
    for ($round = 0; $round < ROUNDS; $round++) {
        // Yioop's handler (Config.php sets it again as it goes) prints PHP
        // 8.2's notes on its dynamic properties: alike in both runs, unshown.
        ob_start();
        [$blocks, $postings, $digest, $us] = walk($word, $index_name, $block);
        $best = min($best, $us);
        ob_end_clean();
    }
    printf("  %-12s %5d blocks %7d postings  %8.2f us a block  %s\n", $word, $blocks, $postings,
        $best / max($blocks, 1), $digest);
}
exec("rm -rf " . escapeshellarg($work));
