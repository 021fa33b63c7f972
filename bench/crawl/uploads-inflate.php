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
declare(strict_types=1);

require_once dirname(__DIR__, 2) . "/tests/tools/yioop/stock-setup.php";
require_once dirname(__DIR__) . "/scale/uploads.php";

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
        $strings = compressedUploadSites(file_get_contents($file));
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
