<?php
/**
 * run.php --mirrors=K: an index past what Debian's packages hold, made of
 * the same documentation served by K hosts, as a crawl that finds it
 * mirrored does.
 */
declare(strict_types=1);

require_once __DIR__ . "/uploads.php";

/** Hosts 127.0.0.1-9, then 127.0.1.1-9: the rewrite keeps every string's length. */
const MAX_MIRRORS = 18;

/** The address of mirror $host (1 is the batches' own, 127.0.0.1). */
function mirrorAddress(int $host): string
{
    return sprintf("127.0.%d.%d", intdiv($host - 1, 9), ($host - 1) % 9 + 1);
}

/**
 * $source's batches (N pages served by 127.0.0.1), then the same batches
 * once more for each further host (mirrorAddress): every "127.0.0.1" in
 * each site (its URL, links, addresses, header and cached page) becomes
 * the mirror's address. Same-length, so each serialized site stays valid;
 * the content hash stays, so Yioop groups the copies. $source's files are
 * hard-linked, not copied. Kept in $dir (DATA/batches-N-sSEED, as
 * search.php reads the words of N pages) and reused.
 */
function mirroredBatches(string $source, string $dir, int $mirrors): string
{
    if (is_file("$dir/DONE")) {
        $done = trim((string)file_get_contents("$dir/DONE"));
        if (mirrorsOf($dir) !== $mirrors) {
            throw new SetUpFailure("$dir holds other batches ($done)");
        }
        echo "batches: reusing $dir ($done)\n";
        return $dir;
    }
    exec("rm -rf " . escapeshellarg($dir));
    mkdir($dir, 0777, true);
    $files = glob("$source/batch*.txt");
    sort($files);
    $start = microtime(true);
    foreach (range(1, $mirrors) as $host) {
        foreach ($files as $i => $file) {
            $to = sprintf("%s/batch%05d.txt", $dir, ($host - 1) * count($files) + $i);
            if ($host == 1) {
                link($file, $to);
            } else {
                file_put_contents($to, atHost((string)file_get_contents($file), mirrorAddress($host)));
            }
        }
    }
    $summary = sprintf("%s at %d hosts, %d batches, made in %.0f s", trim(explode(",",
        (string)file_get_contents("$source/DONE"))[0]), $mirrors, $mirrors * count($files),
        microtime(true) - $start);
    file_put_contents("$dir/DONE", "$summary\n");
    echo "batches: $summary\n";
    return $dir;
}

/** K for batches mirroredBatches made at K hosts (their DONE says so), else 1. */
function mirrorsOf(string $dir): int
{
    return preg_match('/ at (\d+) hosts,/', (string)@file_get_contents("$dir/DONE"), $m) ? (int)$m[1] : 1;
}

/** $upload (uploads.php) with 127.0.0.1 replaced by $address in every site. */
function atHost(string $upload, string $address): string
{
    return uploadOf(array_map(fn($site) => str_replace("127.0.0.1", $address, $site),
        uploadSites($upload)));
}
