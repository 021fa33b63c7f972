<?php
/**
 * bench/search/run.php's crawl: Yioop installed as its installer does it,
 * serving as its own name server (nginx + php-fpm, Yioop alone), crawls the
 * corpus with its own QueueServer and Fetcher in terminal mode; every upload
 * of the Fetcher is saved (capture.php); when the crawl has nothing left to
 * do it is stopped and made the current index. Everything lives in $dir:
 *
 *   corpus/   the site crawled       install/  the Yioop tree
 *   work/     its work directory     batches/  the Fetcher's uploads
 *   crawl-web/, logs/  servers' and daemons' files   crawl.json  the summary
 */
declare(strict_types=1);

require_once __DIR__ . "/corpus.php";

/** Seconds the crawl must have had nothing to do before it is done. */
const IDLE_SECONDS = 40;
const POLL_SECONDS = 5;
const CRAWL_LIMIT_SECONDS = 3600;

/** Crawls; returns the summary it also writes to $dir/crawl.json. */
function crawlCorpus(string $yioop, string $dir, bool $quick, int $corpus_port): array
{
    $started = microtime(true);
    $corpus = new DocCorpus("$dir/corpus", $corpus_port, $quick);
    $corpus->build();
    $plain = new Php(phpIniWithoutYioop("cli", "$dir/conf.d"), [], "plain");
    $plain->mustHaveExtension(false);
    $tree = installYioop($yioop, "$dir/install", "$dir/work", $plain);
    foreach (["batches", "logs"] as $sub) {
        mkdir("$dir/$sub", 0777);
    }
    chmod("$dir/batches", 0777); // the web user's workers write there
    $web = new SearchPages("$dir/crawl-web");
    $web->other_servers = $corpus->serverBlock();
    $name_server = $web->add("crawl", $tree, "$dir/work", $plain, [], false, [
        "php_admin_value[post_max_size] = 64M", "php_admin_value[memory_limit] = 512M",
        "php_admin_value[auto_prepend_file] = " . __DIR__ . "/capture.php",
        "env[SEARCH_BENCH_CAPTURE] = $dir/batches"], FPM_CHILDREN, false);
    $daemons = new Daemons($plain, $tree, "$dir/logs");
    try {
        $web->start();
        [$status] = http($corpus->url("/index.html"));
        if ($status != 200) {
            throw new SetUpFailure("nginx does not serve the corpus at " . $corpus->url());
        }
        echo "corpus: " . count($corpus->pages) . " pages at " . $corpus->url()
            . "; name server " . $name_server->url() . "\n";
        $daemons->start("QueueServer");
        $daemons->start("Fetcher");
        $daemons->waitForLocks("$dir/work/schedules");
        $crawl_time = (int)trim($daemons->control(["start", $corpus->url("/index.html"),
            $corpus->url("/"), "bench/search corpus"]));
        echo "crawl $crawl_time started\n";
        [$crawl_seconds, $visited] = waitUntilDone($daemons, $dir);
        $daemons->control(["stop"]);
        waitForStop($daemons, "$dir/work", $crawl_time);
        $daemons->control(["set-index", (string)$crawl_time]);
    } finally {
        $daemons->stop();
        $web->stop();
    }
    $summary = ["crawl_time" => $crawl_time, "quick" => $quick, "corpus_pages" =>
        count($corpus->pages), "corpus_url" => $corpus->url(), "crawl_seconds" =>
        round($crawl_seconds), "visited" => $visited, "total_seconds" => round(microtime(true) - $started),
        "index_bytes" => bytesIn("$dir/work/cache/IndexData$crawl_time")]
        + verifyCapture($dir);
    file_put_contents("$dir/crawl.json", json_encode($summary, JSON_PRETTY_PRINT) . "\n");
    copy(__DIR__ . "/BATCHES.md", "$dir/batches/README.md");
    return $summary;
}

/**
 * Polls the crawl until it has nothing left to do, continuously for
 * IDLE_SECONDS: no upload waiting for the QueueServer, its queue empty, and
 * the Fetcher's last loop told "No data" by the scheduler. Returns [seconds
 * until the last upload or visited URL, URLs visited].
 */
function waitUntilDone(Daemons $daemons, string $dir): array
{
    $start = microtime(true);
    $last = null;
    $moved = $idle_since = microtime(true);
    while (microtime(true) - $start < CRAWL_LIMIT_SECONDS) {
        sleep(POLL_SECONDS);
        $daemons->mustBeRunning();
        $status = json_decode($daemons->control(["status"]), true);
        $now = [$status["visited"] ?? 0, count(glob("$dir/batches/*.upload"))];
        if ($now !== $last) {
            printf("  %4.0fs: %d URLs visited, %d uploads\n", microtime(true) - $start, ...$now);
            [$last, $moved] = [$now, microtime(true)];
        }
        if (!($now[0] > 0 && pendingSchedules("$dir/work/schedules") == 0
            && lastMatch("$dir/logs/QueueServer.log", '/Current queue size is:(\d+)/') === "0"
            && lastMatch("$dir/logs/Fetcher.log", '/(MAIN LOOP CASE|No data\. Sleeping)/')
            === "No data. Sleeping")) {
            $idle_since = microtime(true);
        } elseif (microtime(true) - $idle_since > IDLE_SECONDS) {
            return [$moved - $start, $now[0]];
        }
    }
    throw new SetUpFailure("the crawl was not done after " . CRAWL_LIMIT_SECONDS . " s");
}

/** The first group of $pattern's last match in the end of $log, or null. */
function lastMatch(string $log, string $pattern): ?string
{
    $size = (int)@filesize($log);
    $tail = (string)@file_get_contents($log, false, null, max(0, $size - 65536));
    return preg_match_all($pattern, $tail, $m) ? end($m[1]) : null;
}

/** Upload files the fetch controller wrote that the QueueServer has not processed yet. */
function pendingSchedules(string $schedules): int
{
    return count(glob("$schedules/{ScheduleData,IndexData,RobotData}*/*/*",
        GLOB_BRACE | GLOB_NOSORT));
}

/** After the stop message: the QueueServer has closed the index and removed its status file. */
function waitForStop(Daemons $daemons, string $work, int $crawl_time): void
{
    $closed = "$work/schedules/IndexClosed$crawl_time.txt";
    for ($deadline = time() + 600; time() < $deadline; sleep(2)) {
        $daemons->mustBeRunning();
        clearstatcache();
        if (is_file($closed) && !is_file("$work/schedules/0-crawl_status.txt")) {
            return;
        }
    }
    throw new SetUpFailure("the QueueServer did not stop the crawl in 10 minutes");
}

/**
 * Every upload captured, once: the captured files are numbered 1..N without
 * a gap, and N is the number of POSTs nginx passed to the name server (the
 * Fetcher's only POSTs are its uploads) and of parts the Fetcher logged sending.
 */
function verifyCapture(string $dir): array
{
    $files = glob("$dir/batches/*.upload");
    $numbers = array_map(fn($f) => (int)basename($f, ".upload"), $files);
    $log = (string)file_get_contents("$dir/crawl-web/nginx-access.log");
    $posts = substr_count($log, '"POST ');
    $sent = substr_count((string)file_get_contents("$dir/logs/Fetcher.log"),
        "Sending Queue Server Part");
    $bytes = array_sum(array_map("filesize", $files));
    if ($numbers !== range(1, count($files)) || count($files) != $posts || $posts != $sent) {
        throw new SetUpFailure("captured " . count($files) . " uploads (numbers "
            . (count($numbers) ? min($numbers) . "-" . max($numbers) : "none") . "), but nginx "
            . "passed $posts POSTs and the Fetcher logged $sent parts sent");
    }
    return ["uploads" => count($files), "upload_bytes" => $bytes];
}

function bytesIn(string $dir): int
{
    $bytes = 0;
    foreach (new RecursiveIteratorIterator(new RecursiveDirectoryIterator($dir,
        FilesystemIterator::SKIP_DOTS)) as $file) {
        $bytes += $file->getSize();
    }
    return $bytes;
}

/**
 * Yioop's QueueServer and Fetcher in terminal mode, and crawl-control.php,
 * run as the web user (as root) so that they and the name server's workers
 * can write each other's files; stopped by pid.
 */
final class Daemons
{
    /** name => [process, pid] */
    private array $running = [];

    public function __construct(private Php $php, private string $tree, private string $logs)
    {
    }

    public function start(string $name): void
    {
        $log = "$this->logs/$name.log";
        $process = proc_open($this->asWebUser($this->php->command(
            ["src/executables/$name.php", "terminal"])), [0 => ["file", "/dev/null", "r"],
            1 => ["file", $log, "a"], 2 => ["file", $log, "a"]], $pipes, $this->tree,
            $this->php->env());
        if ($process === false) {
            throw new SetUpFailure("could not start $name");
        }
        $this->running[$name] = [$process, proc_get_status($process)["pid"]];
    }

    /** Until both have written their lock files: the start message then starts no others. */
    public function waitForLocks(string $schedules): void
    {
        for ($deadline = time() + 60; count(glob("$schedules/*Lock.txt")) < 2; usleep(200_000)) {
            $this->mustBeRunning();
            if (time() > $deadline) {
                throw new SetUpFailure("QueueServer and Fetcher wrote no lock files in "
                    . "$schedules in 60 s");
            }
        }
    }

    public function mustBeRunning(): void
    {
        foreach ($this->running as $name => [$process]) {
            if (!proc_get_status($process)["running"]) {
                throw new SetUpFailure("$name exited:\n"
                    . tail((string)file_get_contents("$this->logs/$name.log")));
            }
        }
    }

    /** crawl-control.php's output for $args. */
    public function control(array $args): string
    {
        $out = tmpfile();
        $process = proc_open($this->asWebUser($this->php->command([__DIR__
            . "/crawl-control.php", $this->tree, ...$args])), [0 => ["file", "/dev/null", "r"],
            1 => $out, 2 => ["file", "$this->logs/crawl-control.log", "a"]], $pipes,
            $this->tree, $this->php->env());
        $rc = proc_close($process);
        rewind($out);
        $text = (string)stream_get_contents($out);
        if ($rc != 0) {
            throw new SetUpFailure("crawl-control.php " . implode(" ", $args) . " exited $rc: "
                . tail($text . file_get_contents("$this->logs/crawl-control.log")));
        }
        return $text;
    }

    public function stop(): void
    {
        foreach (array_reverse($this->running) as [$process, $pid]) {
            stopProcess($process, $pid);
        }
        $this->running = [];
    }

    private function asWebUser(array $command): array
    {
        if (posix_geteuid() !== 0) {
            return $command;
        }
        [$user, $group] = unprivilegedUser();
        return ["setpriv", "--reuid=$user", "--regid=$group", "--init-groups", ...$command];
    }
}
