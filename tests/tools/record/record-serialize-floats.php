<?php
/**
 * Records PHP's serialize of floats, for php_semantics::serialize's test:
 *
 *   php tests/tools/record/record-serialize-floats.php > tests/fixtures/serialize/floats.txt
 *
 * One line a float: its bits (16 hex digits, most significant first) and
 * serialize()'s text at serialize_precision -1. Drawn from a fixed seed,
 * in turn: any bits, decimals of up to 15 digits, large integers, the
 * neighbours of powers of ten, and halfway cases (a quarter past an
 * integer near 10^15, where two 17-digit forms are equally near and PHP
 * takes the even one).
 */
if (ini_get("serialize_precision") !== "-1") {
    fwrite(STDERR, "run this with serialize_precision=-1\n");
    exit(2);
}
mt_srand(7);
$from_bits = fn(int $bits): float => unpack("d", pack("q", $bits))[1];
$bits_of = fn(float $d): string => bin2hex(strrev(pack("d", $d)));
for ($i = 0; $i < 5000; $i++) {
    $d = match ($i % 5) {
        0 => $from_bits(mt_rand() << 32 ^ mt_rand() << 1 ^ mt_rand(0, 1)),
        1 => mt_rand(0, 10 ** mt_rand(1, 15)) / 10 ** mt_rand(0, 20),
        2 => (float)mt_rand(1, 99999) * 10 ** mt_rand(10, 25),
        3 => $from_bits(unpack("q", pack("d", 10.0 ** mt_rand(-30, 30)))[1] + mt_rand(-3, 3)),
        4 => mt_rand(1 << 50, (1 << 51) - 1) + [0.25, 0.75][mt_rand(0, 1)],
    };
    $d = mt_rand(0, 1) ? -(float)$d : (float)$d;
    echo $bits_of($d), " ", serialize($d), "\n";
}
