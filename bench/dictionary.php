<?php
/**
 * IndexDictionary::getWordInfo on a dictionary Yioop wrote: the native
 * function against Yioop's own PHP (a tree's unswitched classes).
 *
 *   php -d extension=target/release/libyioop_codec.so bench/dictionary.php \
 *       YIOOP_DIR DICTIONARY_DIR [compare|native|php|none]
 *
 * The ids: every 7th word record of every file, and 300 random (absent)
 * ids; each looked up by one object in IndexManager's two argument forms.
 * compare: every result, read_tier after each, and the object's fhs,
 * file_lens and blocks once the native state is handed over, against a
 * second object read by Yioop's PHP. native, php, none: only those calls
 * (none: the loop alone), for instruction counts under callgrind.
 */
namespace seekquarry\yioop\configs;
use seekquarry\yioop\library\IndexDictionary;
[, $yioop, $dir, $mode] = $argv + [null, null, null, "compare"];
if (!$yioop || !is_dir((string)$dir) || !extension_loaded("yioop")) {
    fwrite(STDERR, "usage: php -d extension=... bench/dictionary.php YIOOP_DIR DICTIONARY_DIR [compare|native|php|none]\n");
    exit(2);
}
require __DIR__ . "/e2e/yioop-boot.php";
$work = sys_get_temp_dir() . "/realdict-" . getmypid(); @mkdir($work);
bootYioop("$yioop/src", $work);
$gen = unserialize(file_get_contents(dirname($dir) . "/generation.txt"));
$parent = new \stdClass(); $parent->generation_info = $gen;
$ids = [];
foreach (glob("$dir/*/*.dic") as $f) {
    $bytes = file_get_contents($f);
    $aux_bit = (intval(basename(dirname($f))) & 128) ? 0 : 32768;
    for ($o = 2048; $o + 32 <= strlen($bytes); $o += 32 * 7) {
        $p = (ord($bytes[$o]) << 8) + ord($bytes[$o + 1]);
        if (($p & 32768) != $aux_bit) { $ids[] = substr($bytes, $o, 20); }
    }
}
mt_srand(5);
for ($i = 0; $i < 300; $i++) { $ids[] = random_bytes(20); }
$a = new IndexDictionary($dir, $parent); $b = new IndexDictionary($dir, $parent);
$forms = [[-1, 0, NUM_DISTINCT_GENERATIONS, false], [-1, -1, NUM_DISTINCT_GENERATIONS, true]];
$n = 0; $diff = 0; $declined = 0; $entries = 0;
foreach ($ids as $id) foreach ($forms as [$t, $s, $g, $w]) {
    if ($mode == "none") { $n++; continue; }
    if ($mode == "native") { \yioop_codec\dictionary\getWordInfo($a, $id, true, $t, $s, $g, $w); $n++; continue; }
    if ($mode == "php") { $b->getWordInfo($id, true, $t, $s, $g, $w); $n++; continue; }
    $x = \yioop_codec\dictionary\getWordInfo($a, $id, true, $t, $s, $g, $w);
    ob_start(); $y = $b->getWordInfo($id, true, $t, $s, $g, $w); ob_end_clean();
    $n++;
    if ($x === null) { $declined++; continue; }
    if (serialize($x) !== serialize($y) || $a->read_tier !== $b->read_tier) { $diff++; }
    $entries += count($w ? $y[1] : $y);
}
if ($mode == "compare") {
    \yioop_codec\dictionary\getWordInfo($a, $ids[0], false);  // declines: hand-over
    $st = function ($d) { $f = $d->fhs; array_walk_recursive($f, function (&$v) { if (is_resource($v)) $v = "stream"; });
        return serialize([$f, $d->file_lens, md5(serialize($d->blocks)), $d->read_tier]); };
    printf("%d ids, %d calls, %d entries, %d differ, %d declined; state after hand-over %s\n", count($ids), $n, $entries, $diff, $declined, $st($a) === $st($b) ? "identical" : "DIFFERS");
} else { fprintf(STDERR, "%d calls\n", $n); }
exec("rm -rf " . escapeshellarg($work));
