<?php
/**
 * What the benchmarks that run Yioop in fresh PHP processes share
 * (bench/e2e/run.php, bench/crawl/replay.php): the copies of Yioop's tree,
 * the ini files, the JIT settings and the median.
 */

/** php flags of each JIT setting the benchmarks compare. */
const JIT_FLAGS = [
    "off" => "-d opcache.enable_cli=0",
    "tracing" => "-d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=256M",
];

/**
 * A copy of $yioop's src/ under $tree, switched over by
 * php/yioop-integrate.php when $root (this checkout) is given; exits 2 when
 * that fails. Returns $tree.
 */
function copyYioop(string $yioop, string $tree, ?string $root): string
{
    mkdir($tree, 0777, true);
    exec("cp -r " . escapeshellarg("$yioop/src") . " " . escapeshellarg($tree), $_, $rc);
    $out = [];
    $rc2 = 0;
    if ($root !== null) {
        exec("php " . escapeshellarg("$root/php/yioop-integrate.php") . " " . escapeshellarg($tree)
            . " 2>&1", $out, $rc2);
    }
    if ($rc || $rc2) {
        fwrite(STDERR, "could not copy or switch $yioop:\n" . implode("\n", $out) . "\n");
        exit(2);
    }
    return $tree;
}

/** PHP's own ini files, minus an installed yioop_codec. */
function iniWithoutYioop(string $tmp): string
{
    $dir = "$tmp/conf.d";
    mkdir($dir);
    foreach (glob(PHP_CONFIG_FILE_SCAN_DIR . "/*.ini") as $ini) {
        if (!str_contains($ini, "yioop")) {
            copy($ini, "$dir/" . basename($ini));
        }
    }
    return $dir;
}

function median(array $values): float
{
    sort($values);
    $n = count($values);
    return $n % 2 ? $values[$n >> 1] : ($values[$n / 2 - 1] + $values[$n / 2]) / 2;
}

/**
 * The median table both benchmarks print: a column per mode for each JIT
 * setting, and the ratio of the first mode to the second when there are
 * two. $rows: label => fn(string $mode, string $jit): float[] (the runs).
 */
function printMedianTable(string $first_column, array $modes, array $jits, array $rows): void
{
    $header = "| $first_column |";
    foreach ($jits as $jit) {
        foreach ($modes as $mode) {
            $header .= " $mode" . ($jit == "off" ? "" : " + JIT") . " |";
        }
        if (count($modes) == 2) {
            $header .= " ratio |";
        }
    }
    echo $header, "\n|", str_repeat(" --- |", substr_count($header, "|") - 1), "\n";
    foreach ($rows as $label => $runs) {
        $line = "| $label |";
        foreach ($jits as $jit) {
            $medians = [];
            foreach ($modes as $mode) {
                $medians[] = median($runs($mode, $jit));
                $line .= sprintf(" %.2f |", end($medians));
            }
            if (count($modes) == 2) {
                $line .= sprintf(" %.2fx |", $medians[0] / max($medians[1], 1e-9));
            }
        }
        echo $line, "\n";
    }
}
