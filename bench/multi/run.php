<?php
/**
 * Yioop's multi-machine shape, timed (issue 30):
 *
 *   YIOOP_DIR=/path/to/yioop-2021 php bench/multi/run.php [--quick] [--keep]
 *       [--work=DIR] [--reuse=DIR] [--crawl-only] [--identity-only] [--rounds=N]
 *       [--so=PATH] [--profile] [--corpus-port=8481]
 *
 * 1. Three Yioop installs by Yioop's installer (stock-setup.php), each with
 *    its own work directory: a name server and two queue servers, sharing one
 *    server key (ConfigureTool's Edit Server Key). Served by nginx + php-fpm,
 *    a pool each: the name server on 127.0.0.1, the queue servers on
 *    127.0.0.2 and 127.0.0.3 (other hosts to Model::isSingleLocalhost, so
 *    Yioop takes its network path), each queue server's NAME_SERVER the name
 *    server. The name server's machine table holds the two queue servers
 *    (MachineModel, as Manage Machines; crawl-control.php machines).
 * 2. The crawl: bench/search's Debian documentation corpus, each section on
 *    a host (port) of its own, since Yioop partitions URLs across queue
 *    servers by a hash of the host (Fetcher: calculatePartition with
 *    UrlParser::getHost). Each queue server runs Yioop's QueueServer and a
 *    Fetcher; the crawl is started and stopped from the name server as Manage
 *    Crawls does (sendStartCrawlMessage/sendStopCrawlMessage with the
 *    machine URLs) and set as its index.
 * 3. The search: four copies of all three (Yioop alone; switched + the
 *    extension; both with tracing JIT), every copy with its own work
 *    directory, pool and port. Queries (bench/search's classes) go to the
 *    name servers' search pages only, alternating copy by copy as
 *    bench/search does; pages must be identical (exit 1 if not).
 *
 * --profile: excimer in every pool (bench/multi/profile.php), each request
 * labelled by what it is; profile-report.php prints it process by process.
 * SEARCH_BENCH_HOLD=FILE: the name servers' URLs written to FILE and every
 * pool kept serving until FILE is removed, as bench/search does.
 */
declare(strict_types=1);

require_once dirname(__DIR__, 2) . "/tests/tools/yioop/stock-setup.php";
require_once dirname(__DIR__, 2) . "/tests/tools/yioop/stock-web.php";
require_once dirname(__DIR__) . "/search/crawl.php";
require_once dirname(__DIR__) . "/search/bench.php";
require_once __DIR__ . "/profile-report.php";

const MACHINES = ["name" => "127.0.0.1", "qs1" => "127.0.0.2", "qs2" => "127.0.0.3"];
const SERVER_KEY = "yioop-codec-bench-multi";
/** workers per pool: one client; a name server asks both queue servers at once */
const MULTI_CHILDREN = 2;

benchMain("multi", "runMulti");

function runMulti(string $yioop, string $dir, array $options): int
{
    $quick = isset($options["quick"]);
    if (!isset($options["reuse"])) {
        if ($yioop === "" || !is_file("$yioop/src/executables/QueueServer.php")) {
            throw new SetUpFailure("set YIOOP_DIR to a Yioop 2021-line tree");
        }
        if (file_exists($dir) && glob("$dir/*") !== []) {
            throw new SetUpFailure("--work=$dir is not empty");
        }
        @mkdir($dir, 0755, true);
        chmod($dir, 0755);
        $crawl = crawlMulti($yioop, realpath($dir), $quick,
            (int)($options["corpus-port"] ?? 8481));
    } else {
        $crawl = json_decode((string)@file_get_contents("$dir/crawl.json"), true);
        if (!is_array($crawl)) {
            throw new SetUpFailure("--reuse=$dir holds no finished crawl (no crawl.json)");
        }
        $quick = $crawl["quick"];
    }
    printf("crawl: %d corpus pages on %d hosts; URLs visited: %s in %ds (%ds with "
        . "installing); index %s\n", $crawl["corpus_pages"], $crawl["hosts"],
        json_encode($crawl["visited"]), $crawl["crawl_seconds"], $crawl["total_seconds"],
        json_encode(array_map(fn($b) => round($b / 1e6, 1) . " MB", $crawl["index_bytes"])));
    if (isset($options["crawl-only"])) {
        return 0;
    }
    $so = $options["so"] ?? (getenv("YIOOP_CODEC_SO") ?: dirname(__DIR__, 2)
        . "/target/release/libyioop_codec.so");
    if (!is_file($so)) {
        throw new SetUpFailure("no extension at $so (cargo build --release, or --so=PATH)");
    }
    $tmp = sys_get_temp_dir() . "/yioop-multi-bench-" . getmypid();
    mkdir($tmp, 0711);
    try {
        return benchMulti($tmp, realpath($dir), $crawl, realpath($so), ["quick" => $quick,
            "identity_only" => isset($options["identity-only"]), "rounds" =>
            (int)($options["rounds"] ?? ($quick ? 2 : 3)), "profile" => isset($options["profile"])]);
    } finally {
        if (!isset($options["keep"])) {
            exec("rm -rf " . escapeshellarg($tmp));
        } else {
            echo "served copies kept: $tmp\n";
        }
    }
}

function multiCorpus(string $dir, int $port, bool $quick): DocCorpus
{
    return new DocCorpus("$dir/corpus", $port, $quick, hosts: true,
        quick_sections: $quick ? DocCorpus::MULTI_QUICK_SECTIONS : null);
}

/** Installs the three machines, crawls the corpus across the queue servers; returns crawl.json. */
function crawlMulti(string $yioop, string $dir, bool $quick, int $corpus_port): array
{
    $started = microtime(true);
    $corpus = multiCorpus($dir, $corpus_port, $quick);
    $corpus->build();
    $plain = new Php(phpIniWithoutYioop("cli", "$dir/conf.d"), [], "plain");
    $plain->mustHaveExtension(false);
    mkdir("$dir/logs", 0777);
    $web = new SearchPages("$dir/crawl-web");
    $web->other_servers = $corpus->serverBlock();
    $served = [];
    foreach (MACHINES as $machine => $host) {
        mkdir("$dir/$machine", 0755);
        $tree = installYioop($yioop, "$dir/$machine/yioop", "$dir/$machine/work", $plain);
        setServerKey($tree, "$dir/$machine/work", SERVER_KEY, $plain);
        $served[$machine] = $web->add($machine, $tree, "$dir/$machine/work", $plain, [], false,
            ["php_admin_value[post_max_size] = 64M", "php_admin_value[memory_limit] = 512M",
            "php_admin_value[auto_prepend_file] = " . dirname(__DIR__) . "/search/quiet.php"],
            FPM_CHILDREN, false, $host);
        mkdir("$dir/logs/$machine", 0777);
    }
    $controls = joinMachines($served, $plain, $dir, "$dir/logs");
    $daemons = [];
    try {
        $web->start();
        echo "corpus: " . count($corpus->pages) . " pages on " . (count($corpus->ports) + 1)
            . " hosts; name server " . $served["name"]->url() . ", queue servers "
            . $served["qs1"]->url() . ", " . $served["qs2"]->url() . "\n";
        foreach (["qs1", "qs2"] as $qs) {
            $daemons[$qs] = new Daemons($plain, $served[$qs]->tree, "$dir/logs/$qs");
            $daemons[$qs]->start("QueueServer");
            $daemons[$qs]->start("Fetcher");
        }
        foreach (["qs1", "qs2"] as $qs) {
            $daemons[$qs]->waitForLocks("$dir/$qs/work/schedules");
        }
        $crawl_time = (int)trim($controls["name"]->control(["start", implode(" ", $corpus->seeds()),
            implode(" ", $corpus->allowedPrefixes()), "bench/multi corpus", "--network"]));
        echo "crawl $crawl_time started on both queue servers\n";
        [$crawl_seconds, $visited] = waitUntilAllDone($daemons, $controls, $dir);
        $controls["name"]->control(["stop", "--network"]);
        foreach (["qs1", "qs2"] as $qs) {
            waitForStop($daemons[$qs], "$dir/$qs/work", $crawl_time);
        }
        $controls["name"]->control(["set-index", (string)$crawl_time]);
    } finally {
        foreach ($daemons as $d) {
            $d->stop();
        }
        $web->stop();
    }
    $summary = ["crawl_time" => $crawl_time, "quick" => $quick,
        "corpus_pages" => count($corpus->pages), "corpus_port" => $corpus_port,
        "hosts" => count($corpus->ports) + 1, "crawl_seconds" => round($crawl_seconds),
        "visited" => $visited, "total_seconds" => round(microtime(true) - $started),
        "index_bytes" => array_map(fn($qs) => bytesIn("$dir/$qs/work/cache/IndexData$crawl_time"),
        ["qs1" => "qs1", "qs2" => "qs2"])];
    file_put_contents("$dir/crawl.json", json_encode($summary, JSON_PRETTY_PRINT) . "\n");
    return $summary;
}

/**
 * Makes the served machines one Yioop: each queue server's NAME_SERVER is
 * the name server (ConfigureTool), the name server's machine table lists the
 * queue servers (crawl-control.php machines). Returns a Daemons per machine
 * for crawl-control.php.
 * @param ServedCopy[] $served machine => copy
 */
function joinMachines(array $served, Php $php, string $work_of, string $logs): array
{
    $controls = [];
    foreach ($served as $machine => $copy) {
        @mkdir("$logs/$machine", 0777, true);
        $controls[$machine] = new Daemons($php, $copy->tree, "$logs/$machine");
    }
    foreach (["qs1", "qs2"] as $qs) {
        setNameServer($served[$qs]->tree, workOf($served[$qs]), $served["name"]->url(), $php);
    }
    $urls = json_decode($controls["name"]->control(["machines", "qs1=" . $served["qs1"]->url(),
        "qs2=" . $served["qs2"]->url()]), true);
    if ($urls != [$served["qs2"]->url(), $served["qs1"]->url()]) {
        throw new SetUpFailure("the name server's machine table lists " . json_encode($urls));
    }
    return $controls;
}

/** The work directory the copy's Config.php points at. */
function workOf(ServedCopy $copy): string
{
    preg_match("~nsdefine\('WORK_DIRECTORY', '([^']+)'\);~",
        (string)file_get_contents("$copy->tree/src/configs/Config.php"), $m);
    return $m[1] ?? throw new SetUpFailure("no WORK_DIRECTORY in $copy->tree");
}

/**
 * bench/search's waitUntilDone for each queue server: done when, for
 * IDLE_SECONDS on end, neither has uploads waiting, both queues are empty
 * and both Fetchers' last loops got "No data". Returns [seconds until the
 * last change, URLs visited per queue server].
 */
function waitUntilAllDone(array $daemons, array $controls, string $dir): array
{
    $start = microtime(true);
    $last = null;
    $moved = $idle_since = microtime(true);
    while (microtime(true) - $start < CRAWL_LIMIT_SECONDS) {
        sleep(POLL_SECONDS);
        $idle = true;
        $now = [];
        foreach ($daemons as $qs => $d) {
            $d->mustBeRunning();
            $status = json_decode($controls[$qs]->control(["status"]), true);
            $now[$qs] = $status["visited"] ?? 0;
            $idle = $idle && pendingSchedules("$dir/$qs/work/schedules") == 0
                && lastMatch("$dir/logs/$qs/QueueServer.log", '/Current queue size is:(\d+)/')
                === "0" && lastMatch("$dir/logs/$qs/Fetcher.log",
                '/(MAIN LOOP CASE|No data\. Sleeping)/') === "No data. Sleeping";
        }
        if ($now !== $last) {
            printf("  %4.0fs: URLs visited %s\n", microtime(true) - $start, json_encode($now));
            [$last, $moved] = [$now, microtime(true)];
        }
        if (!$idle || array_sum($now) == 0) {
            $idle_since = microtime(true);
        } elseif (microtime(true) - $idle_since > IDLE_SECONDS) {
            return [$moved - $start, $now];
        }
    }
    throw new SetUpFailure("the crawl was not done after " . CRAWL_LIMIT_SECONDS . " s");
}

/**
 * Four copies of the three machines, the name servers named as bench.php's
 * CONFIGS (so its askAll and printTimings serve), the queue servers
 * "NAME-qs1", "NAME-qs2"; every page through the name servers.
 */
function benchMulti(string $tmp, string $dir, array $crawl, string $so, array $options): int
{
    $plain = new Php(phpIniWithoutYioop("cli", "$tmp/conf.d"), [], "plain");
    $corpus = multiCorpus($dir, (int)$crawl["corpus_port"], $crawl["quick"]);
    $queries = searchQueries($corpus->wordFrequencies(), count($corpus->pages),
        $options["quick"], "127.0.0.1");
    $pages = new SearchPages("$tmp/web");
    $profiles = "$tmp/profiles";
    mkdir($profiles, 0777);
    chmod($profiles, 0777);
    mkdir("$tmp/logs", 0777);
    $format = null;
    foreach (CONFIGS as [$name, $switched, $jit]) {
        $served = [];
        foreach (MACHINES as $machine => $host) {
            $copy = ($machine === "name" ? "" : "-$machine");
            $label = str_replace("+", "-", $name) . $copy;
            $tree = copyTree("$dir/$machine/yioop", "$tmp/$label", "$dir/$machine/work");
            $ini = $jit ? JIT_INI : [];
            if ($switched) {
                $format = switchOver($tree, $plain);
                $ini += ["extension" => $so, "yioop.format" => $format];
            }
            $pool = ["php_admin_value[auto_prepend_file] = " . __DIR__
                . ($options["profile"] ? "/profile.php" : "/../search/quiet.php"),
                "env[SEARCH_BENCH_PROFILE] = $profiles/$label.txt"];
            $served[$machine] = $pages->add("$name$copy", $tree, "$dir/$machine/work", $plain,
                $ini, $switched, $pool, MULTI_CHILDREN, true, $host);
        }
        joinMachines($served, $plain, $dir, "$tmp/logs/" . str_replace("+", "-", $name));
    }
    try {
        $pages->start();
        echo count($queries) . " queries through the name servers; plain on "
            . $pages->url("plain") . " (queue servers " . $pages->url("plain-qs1") . ", "
            . $pages->url("plain-qs2") . "), switched on " . $pages->url("switched")
            . " (nginx, php-fpm with opcache; +jit: opcache.jit=tracing)\n";
        $timings = [];
        $different = askAllPasses($pages, $queries, $options, $timings);
        holdWhileAsked($pages);
        $sub = $pages->ownRequests();
        echo $pages->masked() . "requests the name servers made to the queue servers: $sub\n";
        if ($sub == 0) {
            echo "PROBLEM    no request reached a queue server: Yioop did not take its network path\n";
            $different++;
        }
    } finally {
        $pages->stop();
    }
    return reportRun($options, $timings, $queries, $profiles, "printMachineProfiles", $different);
}
