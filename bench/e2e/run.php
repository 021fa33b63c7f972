<?php
/**
 * End-to-end benchmark: Yioop's own IndexShard and iterators, with Yioop's
 * PHP against the extension, without JIT and with tracing JIT, in one run.
 *
 *   YIOOP_DIR=/path/to/yioop-2021 php bench/e2e/run.php \
 *       [--docs=30000] [--seed=1] [--repeat=5] [--so=target/release/libyioop_codec.so]
 *       [--jit=off,tracing] [--modes=yioop,ext]
 *
 * It copies YIOOP_DIR's src/ into a temporary tree, switches it over with
 * php/yioop-integrate.php, and runs every phase in a fresh PHP process: in
 * "yioop" mode without the extension (so the switched tree runs Yioop's own
 * PHP), in "ext" mode with it. Each process builds a shard from the seeded
 * corpus (add + save) and then queries it from disk (three workloads).
 * Reported: median CPU seconds per phase and workload, the ratios, and the
 * identity check: shard bytes and result hashes must agree across every
 * mode; the exit status is 1 when they do not.
 */
require_once __DIR__ . "/../runs.php";

$options = getopt("", ["docs:", "seed:", "repeat:", "so:", "jit:", "modes:", "keep"]);
$docs = (int)($options["docs"] ?? 30000);
$seed = (int)($options["seed"] ?? 1);
$repeat = (int)($options["repeat"] ?? 5);
$root = dirname(__DIR__, 2);
$so = realpath($options["so"] ?? "$root/target/release/libyioop_codec.so");
$jits = explode(",", $options["jit"] ?? "off,tracing");
$modes = explode(",", $options["modes"] ?? "yioop,ext");
$yioop = getenv("YIOOP_DIR");
if (!$yioop || !is_file("$yioop/src/library/IndexShard.php") || !$so) {
    fwrite(STDERR, "usage: YIOOP_DIR=<Yioop 2021 checkout> php bench/e2e/run.php [options]; "
        . "needs a built extension (cargo build --release)\n");
    exit(2);
}

$tmp = sys_get_temp_dir() . "/yioop-e2e-" . getmypid();
$tree = copyYioop($yioop, "$tmp/yioop", $root);
$scan_dir = iniWithoutYioop($tmp);
$results = [];
for ($r = 0; $r < $repeat; $r++) {
    foreach ($jits as $jit) {
        foreach ($modes as $mode) {
            $flags = JIT_FLAGS[$jit] . ($mode == "ext" ? " -d extension=" . escapeshellarg($so) : "");
            $work = "$tmp/work-$mode-$jit";
            @mkdir($work);
            foreach (["build", "query"] as $phase) {
                $results[$mode][$jit][$phase][] =
                    runPhase($scan_dir, $flags, $phase, "$tree/src", $work, $docs, $seed);
            }
            fprintf(STDERR, "run %d/%d %s %s done\n", $r + 1, $repeat, $mode, $jit);
        }
    }
}
$identical = report($results, $modes, $jits, $docs, $seed, $repeat);
if (!isset($options["keep"])) {
    exec("rm -rf " . escapeshellarg($tmp));
}
exit($identical ? 0 : 1);

function runPhase(string $scan_dir, string $flags, string $phase, string $src,
    string $work, int $docs, int $seed): array
{
    $out = "$work/$phase.json";
    @unlink($out);
    $cmd = "PHP_INI_SCAN_DIR=" . escapeshellarg($scan_dir) . " php $flags "
        . escapeshellarg(__DIR__ . "/worker.php") . " $phase " . escapeshellarg($src) . " "
        . escapeshellarg($work) . " $docs $seed " . escapeshellarg($out);
    passthru($cmd, $rc);
    $result = is_file($out) ? json_decode(file_get_contents($out), true) : null;
    if ($rc || !$result) {
        fwrite(STDERR, "phase $phase failed ($rc): $cmd\n");
        exit(2);
    }
    return $result;
}

function report(array $results, array $modes, array $jits, int $docs, int $seed, int $repeat): bool
{
    $first = reset($results[$modes[0]])["build"][0];
    printf("End to end: %d documents (%d items, %.1f MB shard), seed %d, median of %d, CPU seconds\n\n",
        $docs, $first["items"], $first["shard_bytes"] / 1e6, $seed, $repeat);
    $rows = ["add" => "build", "save" => "build", "build" => "build",
        "drain" => "query", "and" => "query", "page" => "query", "query total" => "query"];
    $table = [];
    foreach ($rows as $row => $phase) {
        $table[$row] = fn(string $mode, string $jit): array => array_map(
            fn($run) => $row == "query total" ? array_sum($run["times"]) : $run["times"][$row],
            $results[$mode][$jit][$phase]);
    }
    printMedianTable("phase", $modes, $jits, $table);
    return identity($results, $modes, $jits);
}

/** Shard bytes and every workload's result hash agree across all runs. */
function identity(array $results, array $modes, array $jits): bool
{
    $seen = [];
    foreach ($modes as $mode) {
        foreach ($jits as $jit) {
            foreach ($results[$mode][$jit]["build"] as $run) {
                $seen["shard bytes"][$run["shard_sha1"]][] = "$mode/$jit";
            }
            foreach ($results[$mode][$jit]["query"] as $run) {
                foreach ($run["hashes"] as $workload => $hash) {
                    $seen["$workload results"][$hash][] = "$mode/$jit";
                }
                foreach ($run["peak_per_workload"] as $workload => $bytes) {
                    $peaks[$mode][$workload] = max($peaks[$mode][$workload] ?? 0, $bytes);
                }
            }
        }
    }
    $ok = true;
    echo "\nIdentity:\n";
    foreach ($seen as $what => $hashes) {
        $same = count($hashes) == 1;
        $ok = $ok && $same;
        printf("  %-16s %s\n", $what, $same ? "identical (" . substr(array_key_first($hashes), 0, 12) . ")"
            : "DIFFER: " . json_encode(array_map(fn($m) => array_unique($m), $hashes)));
    }
    echo "\nPeak PHP memory per workload (MB, max over runs):\n";
    foreach ($peaks as $mode => $by_workload) {
        echo "  $mode: ", implode(", ", array_map(fn($w, $b) => sprintf("%s %.1f", $w, $b / 1e6),
            array_keys($by_workload), $by_workload)), "\n";
    }
    return $ok;
}
