<?php
// Calibration for operators: scalar against OpenCL on this machine's device,
// through the extension's own PHP calls (transfers, kernel launches and PHP
// arrays included), from 2^10 to 2^24 elements. Prints the
// yioop.opencl_min_length (decode) and yioop.opencl_prefix_min_length
// (deDeltaList's prefix sum) to put in php.ini, each "never" where OpenCL
// did not win.
//
//   php bench/opencl-calibrate.php                  # the installed extension
//   php -d extension=$PWD/target/release/libyioop_codec.so bench/opencl-calibrate.php
//   options: --min-log2=10 --max-log2=24 --seconds=0.3 (time per size and path)
//
// Each path runs in its own PHP process (yioop.opencl is read per request,
// not per call): yioop.opencl=off, and yioop.opencl=on with min length 0.
// Two operations are timed: decodeModified9 (its length is counted in words,
// as the setting counts a decode) and deDeltaList (in elements).

declare(strict_types=1);

const MIN_REPEATS = 3;
const MAX_REPEATS = 50;

/** The options given as --name=value, with defaults. */
function options(array $argv): array
{
    $options = ['min-log2' => 10, 'max-log2' => 24, 'seconds' => 0.3, 'child' => ''];
    foreach (array_slice($argv, 1) as $arg) {
        if (!preg_match('/^--([a-z0-9-]+)=(.*)$/', $arg, $m) || !array_key_exists($m[1], $options)) {
            fwrite(STDERR, "unknown argument $arg\n");
            exit(2);
        }
        $options[$m[1]] = is_string($options[$m[1]]) ? $m[2] : $m[2] + 0;
    }
    return $options;
}

/** The -n, -c and -d options this PHP was started with, for the child processes. */
function inheritedPhpOptions(): array
{
    $args = explode("\0", rtrim((string)@file_get_contents('/proc/self/cmdline'), "\0"));
    $kept = [];
    for ($i = 1; $i < count($args); $i++) {
        $arg = $args[$i];
        if ($arg === '-n') {
            $kept[] = $arg;
        } elseif (($arg === '-c' || $arg === '-d') && isset($args[$i + 1])) {
            array_push($kept, $arg, $args[++$i]);
        } elseif (preg_match('/^-[cd]./', $arg)) {
            $kept[] = $arg;
        } elseif ($arg[0] !== '-') {
            break; // the script: the rest are its own arguments
        }
    }
    return $kept;
}

/** Realistic position gaps (1 to 400), the same for both processes. */
function gaps(int $n): array
{
    mt_srand(20241121 + $n);
    $list = [];
    for ($i = 0; $i < $n; $i++) {
        $list[] = mt_rand(1, 400);
    }
    return $list;
}

/** Median seconds of $call, repeated for about $seconds (3 to 50 times). */
function timeCall(callable $call, float $seconds): float
{
    $times = [];
    $spent = 0.0;
    while (count($times) < MIN_REPEATS || ($spent < $seconds && count($times) < MAX_REPEATS)) {
        $start = hrtime(true);
        $call();
        $took = (hrtime(true) - $start) / 1e9;
        $times[] = $took;
        $spent += $took;
    }
    sort($times);
    return $times[intdiv(count($times), 2)];
}

/** This process's OpenCL context row and reason, from phpinfo. */
function openclState(): array
{
    ob_start();
    phpinfo(INFO_MODULES);
    $text = (string)ob_get_clean();
    $live = str_contains($text, 'OpenCL context => live in this process');
    $reason = preg_match('/^OpenCL off because => (.*)$/m', $text, $m) ? $m[1] : '';
    $device = preg_match('/^OpenCL device => (.*)$/m', $text, $d) ? $d[1] : '';
    return ['live' => $live, 'reason' => $reason, 'device' => $device];
}

/** In a child process: times both operations at every size on this process's path. */
function measure(array $o): array
{
    $rows = [];
    for ($k = $o['min-log2']; $k <= $o['max-log2']; $k++) {
        $n = 1 << $k;
        $list = gaps($n);
        $encoded = encodeModified9($list);
        $decode = timeCall(function () use ($encoded) {
            $offset = 0;
            decodeModified9($encoded, $offset);
        }, $o['seconds']);
        $prefix = timeCall(function () use ($list) {
            $copy = $list; // deDeltaList separates it: both paths pay that copy
            deDeltaList($copy);
        }, $o['seconds']);
        $rows[$n] = ['words' => intdiv(strlen($encoded), 4), 'decode' => $decode, 'prefix' => $prefix];
        unset($list, $encoded);
        fwrite(STDERR, '.');
    }
    return ['state' => openclState(), 'rows' => $rows];
}

/** Runs this script as a child on one path; its measurements. */
function runChild(string $path, array $o, array $mode): array
{
    $cmd = array_merge([PHP_BINARY], inheritedPhpOptions(), ['-d', 'memory_limit=-1'], $mode,
        [__FILE__, "--child=$path", "--min-log2={$o['min-log2']}", "--max-log2={$o['max-log2']}",
            "--seconds={$o['seconds']}"]);
    fwrite(STDERR, "timing the $path path ");
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => STDERR], $pipes);
    $out = (string)stream_get_contents($pipes[1]);
    $status = proc_close($proc);
    fwrite(STDERR, "\n");
    $result = json_decode($out, true);
    if ($status !== 0 || !is_array($result)) {
        throw new RuntimeException("the $path measurement failed (status $status): " . substr($out, 0, 500));
    }
    return $result;
}

/**
 * The smallest length from which OpenCL is faster at every larger measured
 * length, counted as the setting counts it; null if there is none.
 */
function crossover(array $scalar, array $opencl, string $op, string $unit): ?int
{
    $from = null;
    foreach ($scalar as $n => $row) {
        if ($opencl[$n][$op] < $row[$op]) {
            $from ??= $unit === 'words' ? $row['words'] : $n;
        } else {
            $from = null;
        }
    }
    return $from;
}

function printTable(array $scalar, array $opencl): void
{
    $ms = fn (float $s) => sprintf('%.3f', $s * 1000);
    printf("%10s %10s | %12s %12s %6s | %12s %12s %6s\n", 'elements', 'words', 'decode ms', 'OpenCL ms',
        'x', 'prefix ms', 'OpenCL ms', 'x');
    foreach ($scalar as $n => $row) {
        $cl = $opencl[$n];
        printf("%10d %10d | %12s %12s %6.2f | %12s %12s %6.2f\n", $n, $row['words'],
            $ms($row['decode']), $ms($cl['decode']), $row['decode'] / $cl['decode'],
            $ms($row['prefix']), $ms($cl['prefix']), $row['prefix'] / $cl['prefix']);
    }
    echo "(x: scalar time / OpenCL time; above 1, OpenCL is faster)\n";
}

function main(array $argv): int
{
    $o = options($argv);
    if ($o['child'] !== '') {
        echo json_encode(measure($o));
        return 0;
    }
    if (!extension_loaded('yioop')) {
        fwrite(STDERR, "the yioop extension is not loaded: php -d extension=/path/to/libyioop_codec.so $argv[0]\n");
        return 1;
    }
    $opencl = runChild('OpenCL', $o, ['-d', 'yioop.opencl=on', '-d', 'yioop.opencl_min_length=0']);
    $scalar = runChild('scalar', $o, ['-d', 'yioop.opencl=off']);
    $state = $opencl['state'];
    echo $state['live'] ? "OpenCL device: {$state['device']}\n" : "no OpenCL context: {$state['reason']}\n";
    printTable($scalar['rows'], $opencl['rows']);
    $decode = crossover($scalar['rows'], $opencl['rows'], 'decode', 'words');
    $prefix = crossover($scalar['rows'], $opencl['rows'], 'prefix', 'elements');
    if (!$state['live']) {
        echo "\nno OpenCL context: keep the defaults (never), or set yioop.opencl = off\n";
        return 0;
    }
    // The two operations cross over apart (on an H200 the decode pays from
    // 2^18 words, the prefix sum at no length): a setting each.
    echo "\nPut in php.ini:\n\n";
    foreach (['yioop.opencl_min_length' => $decode, 'yioop.opencl_prefix_min_length' => $prefix] as $name => $from) {
        echo "$name = " . ($from ?? '18446744073709551615 ; never: OpenCL was not faster up to the longest length measured') . "\n";
    }
    return 0;
}

exit(main($argv));
