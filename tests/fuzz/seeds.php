<?php
// Rebuilds tests/fuzz/corpus/ from the recorded Yioop vectors (tests/fixtures/codec/vectors):
//   php tests/fuzz/seeds.php
// A few dozen small seeds per target, in each target's input layout (see the
// comments at the top of fuzz_targets/*.rs). Deterministic: the same vectors
// give the same files.

declare(strict_types=1);

const PER_TARGET = 36;
const MAX_BYTES = 2048;

$vectors = __DIR__ . '/../fixtures/codec/vectors';
$corpus = __DIR__ . '/corpus';

/** Every args list of one function's vectors, both formats, in file order. */
function vectorArgs(string $vectors, string $fn): array
{
    $all = [];
    foreach (['yioop-2019', 'yioop-2015'] as $dir) {
        $path = "$vectors/$dir/$fn.jsonl";
        if (!is_file($path)) {
            $path = "$vectors/common/$fn.jsonl"; // stored once for both formats
        }
        if (!is_file($path)) {
            continue;
        }
        foreach (file($path, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
            $all[] = json_decode($line, true, 512, JSON_BIGINT_AS_STRING)['args'];
        }
    }
    return $all;
}

/** Plain ints only (typed JSON floats and maps are left out). */
function intList(mixed $list): ?array
{
    if (!is_array($list) || !array_is_list($list)) {
        return null;
    }
    foreach ($list as $v) {
        if (!is_int($v)) {
            return null;
        }
    }
    return $list;
}

function i64(int $v): string
{
    return pack('P', $v);
}

/** Spreads picks over the whole candidate list. */
function pick(array $candidates, int $n): array
{
    $candidates = array_values(array_filter($candidates,
        static fn (string $s): bool => strlen($s) <= MAX_BYTES));
    $candidates = array_values(array_unique($candidates));
    if (count($candidates) <= $n) {
        return $candidates;
    }
    $step = count($candidates) / $n;
    $out = [];
    for ($i = 0; $i < $n; $i++) {
        $out[] = $candidates[(int)($i * $step)];
    }
    return $out;
}

/** decode: raw offset, add_offset, bytes; offsets in [-8, len + 8) are exact. */
function decodeSeed(string $bytes, int $offset, int $add): string
{
    $raw = ($offset >= -8 && $offset < strlen($bytes) + 8) ? (($offset + 8) << 2) : (($offset << 2) | 3);
    return i64($raw) . i64($add) . $bytes;
}

$seeds = ['decode' => [], 'encode' => [], 'roundtrip' => []];
foreach (['unpackPosting', 'decodeModified9', 'nextPostString'] as $fn) {
    foreach (vectorArgs($vectors, $fn) as $args) {
        if (isset($args[0]['hex']) && is_int($args[1])) {
            $seeds['decode'][] = decodeSeed(hex2bin($args[0]['hex']), $args[1], 0);
        }
    }
}
foreach (vectorArgs($vectors, 'addDocIndexPostings') as $args) {
    if (isset($args[0]['hex']) && is_int($args[1])) {
        $seeds['decode'][] = decodeSeed(hex2bin($args[0]['hex']), 0, $args[1]);
    }
}
foreach (vectorArgs($vectors, 'encodeModified9') as $args) {
    if (($list = intList($args[0])) !== null) {
        $seeds['encode'][] = "\x00" . i64(0) . implode('', array_map('i64', $list));
    }
}
foreach (vectorArgs($vectors, 'packPosting') as $args) {
    if (!is_int($args[0]) || ($list = intList($args[1])) === null) {
        continue;
    }
    $flags = ($args[2] ?? true) === false ? 0 : 1;
    $seeds['encode'][] = chr($flags) . i64($args[0]) . implode('', array_map('i64', $list));
    // Strictly increasing positions with first delta >= 1 round-trip.
    $deltas = [];
    $last = 0;
    foreach ($list as $p) {
        $deltas[] = $p - $last;
        $last = $p;
    }
    if ($args[0] >= 0 && $args[0] < (1 << 27) - 1 && min($deltas ?: [1]) >= 1 && max($deltas ?: [1]) < (1 << 28)) {
        $seeds['roundtrip'][] = "\x00" . pack('V', $args[0]) . implode('', array_map(
            static fn (int $d): string => pack('V', $d), $deltas));
    }
}

foreach ($seeds as $target => $candidates) {
    $dir = "$corpus/$target";
    if (!is_dir($dir)) {
        mkdir($dir, 0777, true);
    }
    foreach (glob("$dir/*") as $old) {
        unlink($old);
    }
    foreach (pick($candidates, PER_TARGET) as $seed) {
        file_put_contents("$dir/" . sha1($seed), $seed);
    }
    printf("%s: %d seeds\n", $target, count(glob("$dir/*")));
}
