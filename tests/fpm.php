<?php
// php-fpm as an operator runs it: this checkout's build in a php-fpmX.Y
// master (X.Y: the version of the PHP running this) started (and stopped, by
// pid) here, workers as an unprivileged user under fpm's default environment
// (clear_env: no PATH; HOME is the user's home), on unix sockets in a
// temporary directory, pm.max_requests recycling them. Requests go through
// cgi-fcgi.
//
// Checks: every worker replays the recorded vectors right with OpenCL off,
// auto and on; each reports a live context or an explicit reason; with the
// pool settings the README gives, contexts are live; no worker dies (fpm's
// log: "exited on signal"); RSS does not grow over 1,000 identical requests.
// Prints each worker's RSS with and without a context.
//
// Usage: php tests/fpm.php [path/to/libyioop_codec.so]   (tests/run.sh runs it)

declare(strict_types=1);

require __DIR__ . '/support/fpm/processes.php';

const REQUEST_TIMEOUT_S = 120;
const TOTAL_LIMIT_S = 900;
const MAX_REQUESTS = 20;
const PARTS = 8;
const RSS_REQUESTS = 1000;
const RSS_WARM_UP = 100;
const RSS_GROWTH_LIMIT_KB = 1024;
const FUNCTIONS = [
    'addDocIndexPostings', 'adjustWeightCallback', 'deDeltaList', 'decodeModified9',
    'decodeQueueWeightInfo', 'deltaList', 'docIndexModified9', 'encodeModified9',
    'encodeQueueWeightInfo', 'nextPostString', 'packPosting', 'unpackInt',
    'unpackListModified9', 'unpackPosting',
];

$started = time();
$failures = [];

function fail(string $why): void
{
    global $failures;
    $failures[] = $why;
    fwrite(STDERR, "FAIL: $why\n");
}

function need(string $program): string
{
    $path = trim((string)shell_exec('command -v ' . escapeshellarg($program) . ' 2>/dev/null'));
    if ($path === '') {
        fwrite(STDERR, "fpm test: $program not found (bash php/install.sh installs it)\n");
        exit(1);
    }
    return $path;
}

function copyTree(string $from, string $to): void
{
    @mkdir($to, 0755, true);
    foreach (scandir($from) as $name) {
        if ($name === '.' || $name === '..') {
            continue;
        }
        is_dir("$from/$name") ? copyTree("$from/$name", "$to/$name") : copy("$from/$name", "$to/$name");
    }
}

/** The pools: name => [INI values, env entries, pm lines]. */
function pools(string $dir, string $cache): array
{
    $fixed = ['PATH' => '/usr/bin:/bin', 'POCL_CACHE_DIR' => $cache];
    $replay = ['pm' => 'static', 'pm.max_children' => 2, 'pm.max_requests' => MAX_REQUESTS];
    $dynamic = ['pm' => 'dynamic', 'pm.max_children' => 4, 'pm.start_servers' => 2,
        'pm.min_spare_servers' => 1, 'pm.max_spare_servers' => 3, 'pm.max_requests' => MAX_REQUESTS];
    return [
        'off' => [['yioop.opencl' => 'off'], [], $replay],
        'auto' => [['yioop.opencl' => 'auto', 'yioop.opencl_min_length' => '64', 'yioop.opencl_prefix_min_length' => '64'], [], $dynamic],
        'on' => [['yioop.opencl' => 'on', 'yioop.opencl_min_length' => '0'], [], $replay],
        'on-no-path' => [['yioop.opencl' => 'on'], ['POCL_CACHE_DIR' => $cache], $replay],
        'on-fixed' => [['yioop.opencl' => 'on'], $fixed, $dynamic],
        'rss' => [['yioop.opencl' => 'on'], $fixed,
            ['pm' => 'static', 'pm.max_children' => 1, 'pm.max_requests' => 0]],
        // a fresh worker per request
        'summary' => [['yioop.opencl' => 'off'], [], ['pm' => 'static', 'pm.max_children' => 1,
            'pm.max_requests' => 1]],
    ];
}

function fpmConfig(string $dir, array $pools, string $user, string $group): string
{
    $text = "[global]\nerror_log = $dir/fpm.log\nlog_level = notice\ndaemonize = no\n";
    foreach ($pools as $name => [$ini, $env, $pm]) {
        $text .= "\n[$name]\nuser = $user\ngroup = $group\nlisten = $dir/$name.sock\n"
            . "listen.mode = 0600\ncatch_workers_output = yes\n";
        foreach ($pm as $key => $value) {
            $text .= "$key = $value\n";
        }
        foreach ($ini as $key => $value) {
            $text .= "php_admin_value[$key] = $value\n";
        }
        foreach ($env as $key => $value) {
            $text .= "env[$key] = $value\n";
        }
    }
    return $text;
}

/** One request; the decoded JSON body, or null after saying why. */
function request(string $dir, string $pool, string $query): ?array
{
    $env = ['SCRIPT_FILENAME' => "$dir/app/worker.php", 'REQUEST_METHOD' => 'GET',
        'QUERY_STRING' => $query, 'PATH' => getenv('PATH') ?: '/usr/bin:/bin'];
    $cmd = ['timeout', (string)REQUEST_TIMEOUT_S, 'cgi-fcgi', '-bind', '-connect', "$dir/$pool.sock"];
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    $status = proc_close($proc);
    $body = substr((string)$out, (int)strpos((string)$out, "\r\n\r\n") + 4);
    $json = json_decode($body, true);
    if ($status !== 0 || !is_array($json)) {
        fail("[$pool] $query: status $status, " . substr(trim("$out $err"), 0, 400));
        return null;
    }
    return $json;
}

function waitForSockets(string $dir, array $pools, $master): void
{
    for ($i = 0; $i < 300; $i++) {
        $missing = array_filter(array_keys($pools), fn ($p) => !file_exists("$dir/$p.sock"));
        if ($missing === []) {
            return;
        }
        if (!proc_get_status($master)['running']) {
            break;
        }
        usleep(100_000);
    }
    fwrite(STDERR, "fpm test: php-fpm did not start:\n" . @file_get_contents("$dir/fpm.log"));
    exit(1);
}

/** Replays every function's vectors in PARTS requests; gives worker pid => last report. */
function replayAll(string $dir, string $pool): array
{
    $workers = [];
    foreach (FUNCTIONS as $fn) {
        for ($part = 0; $part < PARTS; $part++) {
            $report = request($dir, $pool, http_build_query(
                ['do' => 'vectors', 'fn' => $fn, 'part' => $part, 'parts' => PARTS]));
            if ($report === null) {
                continue;
            }
            if ($report['failures'] > 0) {
                fail("[$pool] worker {$report['pid']}: " . implode('; ', $report['failed']));
            }
            $workers[$report['pid']] = $report;
        }
    }
    return $workers;
}

/** Each worker: a live context or an explicit reason, and the expected one. */
function checkWorkers(string $pool, array $workers, callable $expect): void
{
    if (count($workers) < 2) {
        fail("[$pool] only " . count($workers) . " worker(s) answered: pm.max_requests did not recycle");
    }
    foreach ($workers as $pid => $r) {
        $live = $r['context'] === 'live in this process';
        if (!$live && trim($r['reason']) === '') {
            fail("[$pool] worker $pid has no context and gives no reason");
        }
        $why = $expect($live, $r['reason']);
        if ($why !== null) {
            fail("[$pool] worker $pid: $why (context: {$r['context']}; reason: {$r['reason']})");
        }
    }
    $wrong = array_sum(array_column($workers, 'failures'));
    $one = reset($workers);
    $state = $one['context'] === 'live in this process' ? "live, probe {$one['probe']}" : $one['reason'];
    printf("  %-11s %3d workers seen, %s; e.g. %s\n", $pool, count($workers),
        $wrong === 0 ? 'all vectors right' : "$wrong vectors WRONG", substr($state, 0, 200));
}

/** Expectations: what a pool's workers must report, given what the CLI found. */
function expectations(bool $device, bool $pocl, bool $root): array
{
    $liveOr = fn (string $needle) => fn (bool $live, string $reason): ?string =>
        $live ? ($device ? null : 'live without a device?')
            : (($device && $pocl && !str_contains($reason, $needle)) ? "reason lacks '$needle'" : null);
    return [
        'off' => fn ($live, $reason) => $reason === 'yioop.opencl = off' ? null : 'not off',
        // HOME is the user's home: as www-data not writable, PoCL finds no device.
        'auto' => $root ? $liveOr('POCL_CACHE_DIR') : $liveOr(''),
        'on' => $root ? $liveOr('POCL_CACHE_DIR') : $liveOr(''),
        'on-no-path' => fn ($live, $reason) => ($device && $pocl)
            ? ($live ? 'live without ld on PATH?' : (str_contains($reason, 'no `ld` on PATH') ? null : 'reason lacks no `ld` on PATH'))
            : null,
        'on-fixed' => fn ($live, $reason) => ($device && !$live) ? 'no context with the README pool settings' : null,
    ];
}

/** RSS after RSS_WARM_UP and after RSS_REQUESTS identical requests, one worker. */
function checkRss(string $dir): ?int
{
    $first = null;
    $last = null;
    for ($i = 1; $i <= RSS_REQUESTS; $i++) {
        $r = request($dir, 'rss', 'do=fixed');
        if ($r === null || $r['failures'] > 0) {
            fail('[rss] request ' . $i . ' failed');
            return null;
        }
        if ($i === RSS_WARM_UP) {
            $first = $r;
        }
        $last = $r;
    }
    if ($first['pid'] !== $last['pid']) {
        fail('[rss] the worker changed mid-run');
    }
    $growth = $last['rss_kb'] - $first['rss_kb'];
    printf("  rss         one worker (%s): %d kB after %d requests, %d kB after %d (%+d kB)\n",
        $last['context'], $first['rss_kb'], RSS_WARM_UP, $last['rss_kb'], RSS_REQUESTS, $growth);
    if ($growth > RSS_GROWTH_LIMIT_KB) {
        fail("[rss] RSS grew by $growth kB over " . (RSS_REQUESTS - RSS_WARM_UP) . ' identical requests');
    }
    return $last['rss_kb'];
}

/**
 * The summary cache is one for the server: a summary one worker read is
 * not inflated again by the next worker fpm forks (the pool gives each
 * request a fresh worker).
 */
function checkSharedSummaries(string $dir): void
{
    $first = request($dir, 'summary', 'do=summary');
    $second = request($dir, 'summary', 'do=summary');
    if ($first === null || $second === null) {
        return;
    }
    $counts = fn (array $r) => [$r['summary_cache']['hits'], $r['summary_cache']['misses']];
    printf("  summary     workers %d then %d: hits and misses %s then %s\n", $first['pid'],
        $second['pid'], json_encode($counts($first)), json_encode($counts($second)));
    if ($first['failures'] + $second['failures'] > 0) {
        fail('[summary] ' . implode('; ', array_merge($first['failed'], $second['failed'])));
    }
    if ($first['pid'] === $second['pid']) {
        fail('[summary] the same worker answered twice (pm.max_requests = 1)');
    }
    $hits = $counts($second)[0] - $counts($first)[0];
    $misses = $counts($second)[1] - $counts($first)[1];
    if ([$hits, $misses] !== [1, 0]) {
        fail("[summary] the second worker's read: $hits hits, $misses misses; the first worker's "
            . 'record should have been found in the memory the workers share');
    }
}

/** A WebArchive file of one summary, as WebArchive writes its records. */
function summaryArchive(string $file): void
{
    $body = gzencode(serialize(['TITLE' => 'shared', 'DESCRIPTION' => str_repeat('words ', 200)]), 9);
    $header = "\x1f\x8b\x08\x00" . pack('N', strlen($body)) . "\x00\x03\x03\x00" . str_repeat("\x00", 8);
    file_put_contents($file, $header . $body . str_repeat("\0", 64));
}

function removeTree(string $path): void
{
    if (is_dir($path) && !is_link($path)) {
        foreach (scandir($path) as $name) {
            if ($name !== '.' && $name !== '..') {
                removeTree("$path/$name");
            }
        }
        @rmdir($path);
    } else {
        @unlink($path);
    }
}

// ---- main ----

$root = dirname(__DIR__);
$so = $argv[1] ?? "$root/target/release/libyioop_codec.so";
// Debian's php-fpmX.Y and /etc/php/X.Y of the PHP running this script.
$phpVersion = PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION;
$fpmBinary = need("php-fpm$phpVersion");
need('cgi-fcgi');
need('timeout');
if (!is_file($so)) {
    fwrite(STDERR, "fpm test: no $so (cargo build --release)\n");
    exit(1);
}
$worker = unprivilegedUser();
if ($worker === null) {
    fwrite(STDERR, "fpm test: no unprivileged user (www-data, nobody)\n");
    exit(1);
}
[$user, $group] = $worker;
$isRoot = posix_geteuid() === 0;

// What this machine has: the CLI with the ordinary environment.
$cli = (string)shell_exec(escapeshellarg(PHP_BINARY) . ' -n -d extension=' . escapeshellarg($so)
    . ' -d yioop.opencl=on --ri yioop 2>&1');
$device = str_contains($cli, 'OpenCL context => live in this process');
$pocl = str_contains($cli, 'Portable Computing Language');
echo "fpm test: workers as $user; OpenCL device here: " . ($device ? 'yes' : 'no')
    . ($pocl ? ' (PoCL)' : '') . "\n";

$dir = rtrim(sys_get_temp_dir(), '/') . '/yioop-fpm-' . getmypid() . '-' . bin2hex(random_bytes(4));
mkdir($dir, 0755);
$master = null;
$masterPid = 0;
// Killed by a time limit or ^C: still stop fpm and remove the directory.
pcntl_async_signals(true);
foreach ([SIGTERM, SIGINT, SIGHUP] as $signal) {
    pcntl_signal($signal, function () {
        fwrite(STDERR, "fpm test: interrupted\n");
        exit(1);
    });
}
register_shutdown_function(function () use (&$master, &$masterPid, $dir) {
    if ($master !== null) {
        stopProcess($master, $masterPid);
    }
    removeTree($dir);
});

// The vectors and their loader, laid out as in tests/ (support/Vectors.php
// finds ../fixtures/codec/vectors).
foreach (['yioop-2019', 'common'] as $vectors) {
    copyTree("$root/tests/fixtures/codec/vectors/$vectors", "$dir/app/fixtures/codec/vectors/$vectors");
}
mkdir("$dir/app/support");
copy("$root/tests/support/Vectors.php", "$dir/app/support/Vectors.php");
copy("$root/tests/support/fpm/worker.php", "$dir/app/worker.php");
mkdir("$dir/app/support/archive");
copy("$root/tests/support/archive/stand-ins.php", "$dir/app/support/archive/stand-ins.php");
summaryArchive("$dir/app/summaries.bin");
mkdir("$dir/pocl-cache", 0755);
chown("$dir/pocl-cache", $user);
$pools = pools($dir, "$dir/pocl-cache");
file_put_contents("$dir/fpm.conf", fpmConfig($dir, $pools, $user, $group));
mkdir("$dir/conf.d");
foreach (glob("/etc/php/$phpVersion/fpm/conf.d/*.ini") ?: [] as $ini) {
    if (!str_contains($ini, 'yioop')) {
        copy($ini, "$dir/conf.d/" . basename($ini));
    }
}

$master = proc_open(
    [$fpmBinary, '--nodaemonize', '--fpm-config', "$dir/fpm.conf", '-c', "/etc/php/$phpVersion/fpm/php.ini",
        '-d', "extension=$so"],
    [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/fpm.out", 'w'], 2 => ['file', "$dir/fpm.out", 'a']],
    $pipes, null, ['PHP_INI_SCAN_DIR' => "$dir/conf.d", 'PATH' => getenv('PATH') ?: '/usr/bin:/bin']
);
$masterPid = proc_get_status($master)['pid'];
waitForSockets($dir, $pools, $master);

$rssOf = [];
$expect = expectations($device, $pocl, $isRoot && $user === 'www-data');
foreach (array_keys($expect) as $pool) {
    $workers = replayAll($dir, $pool);
    checkWorkers($pool, $workers, $expect[$pool]);
    $rssOf[$pool] = array_sum(array_column($workers, 'rss_kb')) / max(1, count($workers));
    if (time() - $started > TOTAL_LIMIT_S) {
        fail('took longer than ' . TOTAL_LIMIT_S . ' s');
        break;
    }
}
$liveRss = checkRss($dir);
checkSharedSummaries($dir);

$log = (string)file_get_contents("$dir/fpm.log");
preg_match_all('/^.*exited on signal.*$/m', $log, $deaths);
foreach ($deaths[0] as $line) {
    fail("a worker died: $line");
}
$recycled = preg_match_all('/child \d+ exited with code 0/', $log);
if ($recycled < 4) {
    fail("only $recycled workers were recycled (pm.max_requests = " . MAX_REQUESTS . ')');
}
printf("  fpm log: %d workers recycled, %d died on a signal\n", $recycled, count($deaths[0]));
printf("  RSS per worker after replaying: OpenCL off %.0f MB, live context %.0f MB (rss pool: %.0f MB)\n",
    $rssOf['off'] / 1024, $rssOf['on-fixed'] / 1024, ($liveRss ?? 0) / 1024);

stopProcess($master, $masterPid);
$master = null;
if (str_contains(file_get_contents("$dir/fpm.log") . @file_get_contents("$dir/fpm.out"), 'exited on signal')) {
    fail('a worker died at shutdown');
}
if ($failures !== []) {
    fwrite(STDERR, count($failures) . " fpm check(s) failed\n");
    exit(1);
}
echo "fpm test: passed in " . (time() - $started) . " s\n";
