<?php
/**
 * The queue server's inflate of each uploaded site: PHP's gzuncompress
 * against seekquarry\yioop\executables\gzuncompress (the extension's, which
 * QueueServer's unqualified call reaches), in one run, on recorded uploads:
 *
 *   php -d extension=yioop_codec.so bench/crawl/uploads-inflate.php BATCHES_DIR [ROUNDS=3]
 *
 * Each upload is taken apart as processIndexArchive does and its sites
 * inflated by both, alternating upload by upload; every output must be the
 * same (exit 1 if not).
 */
[, $dir] = $argv + [1 => ""];
$rounds = (int)($argv[2] ?? 3);
$files = glob("$dir/batch*.txt") ?: [];
$native = 'seekquarry\yioop\executables\gzuncompress';
if (!$files || !function_exists($native)) {
    fwrite(STDERR, "usage: php -d extension=yioop_codec.so bench/crawl/uploads-inflate.php BATCHES_DIR [ROUNDS]\n");
    exit(2);
}
$time = ['php' => 0, 'extension' => 0];
$sites = 0;
for ($round = 0; $round < $rounds; $round++) {
    foreach ($files as $file) {
        $upload = base64_decode(strtr(file_get_contents($file), ["." => "+", "~" => "=", "_" => "/"]));
        $all = substr($upload, 4, (int)hexdec(bin2hex(substr($upload, 0, 4))));
        $strings = [];
        for ($pos = 0; $pos < strlen($all); $pos += $len) {
            $len = (int)hexdec(bin2hex(substr($all, $pos, 4)));
            $pos += 4;
            $strings[] = substr($all, $pos, $len);
        }
        $out = [];
        foreach (['php' => 'gzuncompress', 'extension' => $native] as $side => $function) {
            $start = hrtime(true);
            foreach ($strings as $i => $string) {
                $out[$side][$i] = $function($string);
            }
            $time[$side] += hrtime(true) - $start;
        }
        if ($out['php'] !== $out['extension']) {
            fwrite(STDERR, "$file: the outputs differ\n");
            exit(1);
        }
        $sites += count($strings);
    }
}
printf("%d sites inflated (%d rounds of %d uploads), every output the same\n", $sites, $rounds, count($files));
printf("PHP's gzuncompress %.0f ms, the extension's %.0f ms: %.2fx\n", $time['php'] / 1e6,
    $time['extension'] / 1e6, $time['php'] / $time['extension']);
