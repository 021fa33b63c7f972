<?php
/**
 * Times every codec function on one data set: the yioop extension in this
 * process, and Yioop's own Utility.php (when YIOOP_DIR points at a Yioop
 * checkout) in separate PHP processes without the extension, once without
 * JIT and once with opcache.jit=tracing. Prints one table with the ratios.
 *
 *   php -d extension=target/release/libyioop_codec.so bench/php-bench.php
 *       [--postings=N] [--repeat=R] [--only=A,B]
 *
 * --only=A,B times only the workloads whose names contain A or B.
 *
 * The data set is realistic postings as Yioop's index holds them: 1-12
 * positions each, gaps 1-400, doc indexes across 0..2^27. deDeltaList runs
 * on a list of 10^6 ints.
 */

require_once __DIR__ . '/postings.php';

function options(array $argv): array
{
    $options = ['postings' => 100000, 'repeat' => 5, 'child' => null, 'only' => ''];
    foreach (array_slice($argv, 1) as $arg) {
        if (preg_match('/^--(postings|repeat|child|only)=(.+)$/', $arg, $m)) {
            $options[$m[1]] = is_numeric($m[2]) ? (int)$m[2] : $m[2];
        }
    }
    return $options;
}

/** The data set, the same in every process (seeded). */
function dataSet(int $count, string $ns): array
{
    $postings = realisticPostings($count);
    $pack = $ns . 'packPosting';
    $string = '';
    foreach ($postings as [$doc_index, $positions]) {
        $string .= $pack($doc_index, $positions);
    }
    $long = [];
    for ($i = 0; $i < 1000000; $i++) {
        $long[] = mt_rand(1, 400);
    }
    $words = array_values(unpack('N*', substr($string, 0, 4 * 100000)));
    $weights = [];
    for ($i = 0; $i < 100000; $i++) {
        $weights[] = [mt_rand(0, PHP_INT_MAX >> 30), mt_rand(0, PHP_INT_MAX >> 30)];
    }
    // Only the extension's floor uses these: the lengths unpackListModified9
    // gives on $words (the same in every line and format).
    $list_lengths = $ns === '\\' ? array_map(fn($w) => count(\unpackListModified9($w)), $words) : [];
    return compact('postings', 'string', 'long', 'words', 'weights', 'list_lengths');
}

/**
 * The workloads: name => [calls per run, closure]. $ns is '\\' for the
 * extension's global functions or Yioop's namespace for its PHP.
 */
function workloads(array $d, string $ns): array
{
    // Bound once, called directly: a string callable would be lowercased
    // and looked up on every call, which Yioop's static call sites never pay.
    $f = fn(string $name) => Closure::fromCallable($ns . $name);
    $packPosting = $f('packPosting');
    $unpackPosting = $f('unpackPosting');
    $deDeltaList = $f('deDeltaList');
    $deltaList = $f('deltaList');
    $unpackListModified9 = $f('unpackListModified9');
    $docIndexModified9 = $f('docIndexModified9');
    $encodeModified9 = $f('encodeModified9');
    $decodeModified9 = $f('decodeModified9');
    $nextPostString = $f('nextPostString');
    $addDocIndexPostings = $f('addDocIndexPostings');
    $unpackInt = $f('unpackInt');
    $adjust = $f('adjustWeightCallback');
    $string = $d['string'];
    $n = count($d['postings']);
    $slice = substr($string, 0, 200000);
    $w = [
        'packPosting' => [$n, function () use ($d, $packPosting) {
            foreach ($d['postings'] as [$doc_index, $positions]) {
                $packPosting($doc_index, $positions);
            }
        }],
        'unpackPosting' => [$n, function () use ($string, $unpackPosting) {
            $offset = 0;
            $len = strlen($string);
            while ($offset < $len) {
                $unpackPosting($string, $offset);
            }
        }],
        'decodeModified9' => [$n, function () use ($string, $decodeModified9) {
            $offset = 0;
            $len = strlen($string);
            while ($offset < $len) {
                $decodeModified9($string, $offset);
            }
        }],
        'nextPostString' => [$n, function () use ($string, $nextPostString) {
            $offset = 0;
            $len = strlen($string);
            while ($offset < $len) {
                $nextPostString($string, $offset);
            }
        }],
        'encodeModified9' => [$n, function () use ($d, $encodeModified9) {
            foreach ($d['postings'] as [, $positions]) {
                $encodeModified9($positions);
            }
        }],
        'deltaList' => [$n, function () use ($d, $deltaList) {
            foreach ($d['postings'] as [, $positions]) {
                $deltaList($positions);
            }
        }],
        // On a list the caller owns, as Yioop's are (fresh from decoding):
        // the copy-on-write copy of a shared 10^6-element list alone costs
        // more than summing it, so it is made before the clock starts.
        'deDeltaList (10^6 ints)' => [1, function () use ($d, $deDeltaList) {
            $list = $d['long'];
            $list[0] = $list[0];
            $start = hrtime(true);
            $deDeltaList($list);
            return hrtime(true) - $start;
        }],
        'unpackListModified9' => [count($d['words']), function () use ($d, $unpackListModified9) {
            foreach ($d['words'] as $word) {
                $unpackListModified9($word);
            }
        }],
        'docIndexModified9' => [count($d['words']), function () use ($d, $docIndexModified9) {
            foreach ($d['words'] as $word) {
                $docIndexModified9($word);
            }
        }],
        'unpackInt' => [count($d['words']), function () use ($d, $unpackInt) {
            foreach ($d['words'] as $word) {
                $unpackInt(pack('N', $word));
            }
        }],
        'addDocIndexPostings (200 kB)' => [1, function () use ($slice, $addDocIndexPostings) {
            $postings = $slice;
            $addDocIndexPostings($postings, 1000);
        }],
        'adjustWeightCallback' => [count($d['weights']), function () use ($d, $adjust) {
            foreach ($d['weights'] as [$a, $b]) {
                $adjust($a, $b);
            }
        }],
    ];
    return $w;
}

/** Workloads only the extension has: the batch call and the floor. */
function nativeOnlyWorkloads(array $d): array
{
    $string = $d['string'];
    $n = count($d['postings']);
    return [
        // A query reads a slice of postings at a time, not a whole shard.
        'unpackPostings (batch of 100)' => [$n, function () use ($string) {
            $offset = 0;
            $len = strlen($string);
            while ($offset < $len) {
                \unpackPostings($string, $offset, 100);
            }
        }],
        'floor: native no-op, same shape' => [$n, function () use ($string) {
            $floor = Closure::fromCallable('yioop_codec\\floorPosting');
            $offset = 0;
            $len = strlen($string);
            while ($offset < $len) {
                $floor($string, $offset);
            }
        }],
        'floor: batch no-op, same shape' => [$n, function () use ($string) {
            $offset = 0;
            $len = strlen($string);
            while ($offset < $len) {
                \yioop_codec\floorPostings($string, $offset, 100);
            }
        }],
        'floor: list no-op, same shape' => [count($d['words']), function () use ($d) {
            $floor = Closure::fromCallable('yioop_codec\\floorList');
            foreach ($d['list_lengths'] as $length) {
                $floor($length);
            }
        }],
    ];
}

/** Each function's floor: a native no-op returning the same shape. */
const FLOORS = [
    'unpackPosting' => 'floor: native no-op, same shape',
    'unpackPostings (batch of 100)' => 'floor: batch no-op, same shape',
    'unpackListModified9' => 'floor: list no-op, same shape',
];

/** Whether $name contains one of the comma-separated $parts ("" matches all). */
function matchesAny(string $name, string $parts): bool
{
    foreach (explode(',', $parts) as $part) {
        if (str_contains($name, $part)) {
            return true;
        }
    }
    return false;
}

/**
 * Best-of-R nanoseconds per call for each workload. A workload that returns
 * an int has timed its own region (set-up excluded).
 */
function timeAll(array $workloads, int $repeat, string $only): array
{
    $result = [];
    foreach ($workloads as $name => [$calls, $run]) {
        if (!matchesAny($name, $only)) {
            continue;
        }
        $run(); // warm up (and let the JIT trace)
        $best = PHP_INT_MAX;
        for ($r = 0; $r < $repeat; $r++) {
            $start = hrtime(true);
            $timed = $run();
            $best = min($best, is_int($timed) ? $timed : hrtime(true) - $start);
        }
        $result[$name] = $best / $calls;
    }
    return $result;
}

/** Runs the Yioop side in a child PHP without the extension. */
function timeYioop(string $yioop_dir, array $options, bool $jit): ?array
{
    $ini = ['-n', '-d', 'memory_limit=-1'];
    if ($jit) {
        $ini = array_merge($ini, ['-d', 'zend_extension=opcache', '-d', 'opcache.enable_cli=1',
            '-d', 'opcache.jit=tracing', '-d', 'opcache.jit_buffer_size=128M']);
    }
    $command = array_merge([PHP_BINARY], $ini, [__FILE__, '--child=' . $yioop_dir,
        '--postings=' . $options['postings'], '--repeat=' . $options['repeat'], '--only=' . $options['only']]);
    $out = shell_exec(implode(' ', array_map('escapeshellarg', $command)));
    $timings = json_decode((string)$out, true);
    if (!is_array($timings)) {
        fwrite(STDERR, "Yioop run failed" . ($jit ? " (JIT)" : "") . ":\n$out\n");
        return null;
    }
    return $timings;
}

function runChild(array $options): void
{
    $dir = rtrim($options['child'], '/');
    require_once "$dir/src/library/CrawlConstants.php";
    require_once "$dir/src/library/Utility.php";
    $ns = 'seekquarry\\yioop\\library\\';
    $d = dataSet($options['postings'], $ns);
    echo json_encode(timeAll(workloads($d, $ns), $options['repeat'], $options['only']));
}

function report(array $native, ?array $php, ?array $jit): void
{
    printf("%-32s %12s %14s %14s %9s %9s %9s\n", 'function', 'native ns', 'Yioop PHP ns',
        'Yioop JIT ns', 'x PHP', 'x JIT', 'x floor');
    foreach ($native as $name => $ns) {
        $p = $php[$name] ?? null;
        $j = $jit[$name] ?? null;
        $floor = $native[FLOORS[$name] ?? ''] ?? null;
        $vsFloor = $floor === null ? null : $ns / $floor;
        printf("%-32s %12.1f %14s %14s %9s %9s %9s\n", $name, $ns,
            $p === null ? '-' : sprintf('%.1f', $p), $j === null ? '-' : sprintf('%.1f', $j),
            $p === null ? '-' : sprintf('%.1f', $p / $ns), $j === null ? '-' : sprintf('%.1f', $j / $ns),
            $vsFloor === null ? '-' : sprintf('%.2f', $vsFloor));
    }
    if (isset($native['unpackPosting'], $native['unpackPostings (batch of 100)'])) {
        printf("\nunpackPostings (100 per call) vs unpackPosting loop: %.1fx per posting\n",
            $native['unpackPosting'] / $native['unpackPostings (batch of 100)']);
    }
    $single = $native[FLOORS['unpackPosting']] ?? null;
    $batch = $native[FLOORS['unpackPostings (batch of 100)']] ?? null;
    if ($single !== null && $batch !== null) {
        // What batching could win if decoding cost nothing: the rest is
        // PHP's two arrays per posting, which both calls must build.
        printf("the same for the floors (decoding free): %.1fx per posting\n", $single / $batch);
    }
}

$options = options($argv);
if ($options['child'] !== null) {
    runChild($options);
    exit(0);
}
if (!extension_loaded('yioop')) {
    fwrite(STDERR, "Load the extension: php -d extension=.../libyioop_codec.so " . __FILE__ . "\n");
    exit(1);
}
$d = dataSet($options['postings'], '\\');
$native = timeAll(workloads($d, '\\') + nativeOnlyWorkloads($d), $options['repeat'], $options['only']);
$yioop_dir = getenv('YIOOP_DIR') ?: null;
$php = $jit = null;
if ($yioop_dir === null) {
    fwrite(STDERR, "YIOOP_DIR is not set: timing the extension only.\n");
} else {
    $php = timeYioop($yioop_dir, $options, false);
    $jit = timeYioop($yioop_dir, $options, true);
}
printf("PHP %s, %s, %d postings, best of %d runs\n\n", PHP_VERSION, php_uname('m'),
    $options['postings'], $options['repeat']);
report($native, $php, $jit);
