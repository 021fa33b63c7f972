<?php
/**
 * stock-install.php --web: Yioop's search page as an operator serves it,
 * nginx in front of php-fpmX.Y (this PHP's version) with opcache, all on 127.0.0.1.
 *
 * Each copy of the tree gets its own work directory (a copy of the indexed
 * one), whose Profile.php names the copy's own server as NAME_SERVER, set
 * through ConfigureTool as an installer would; its own fpm master and pool;
 * and its own nginx server block, routing every request to the tree's
 * index.php as Yioop's .htaccess does. The two configurations are the same
 * but for paths and ports, and the extension: only the switched master
 * loads it. The servers are our own processes, stopped by pid.
 */
declare(strict_types=1);

require_once dirname(__DIR__, 2) . "/support/fpm/processes.php";
require_once __DIR__ . "/stock-setup.php";

/**
 * Yioop can request its own site while it serves a page (NAME_SERVER): three
 * workers per client at least, or it waits on itself.
 */
const FPM_CHILDREN = 4;
const PAGE_SECONDS = 60;
const START_SECONDS = 20;
const PROBE = "/yioop-codec-probe.php";
const USER_AGENT = "yioop-codec-stock-web";

/**
 * Serves both trees and compares their search pages for $queries; returns
 * how many differ. $work, $switched_work: each tree's work directory (the
 * switched one switched with its tree). $php runs ConfigureTool; $ini: what
 * the switched pool adds.
 */
function compareSearchPages(array $queries, string $tmp, string $work, string $switched_work,
    string $plain_tree, string $switched_tree, Php $php, array $ini): int
{
    chmod($tmp, 0711); // the servers' workers run as the web user
    $pages = new SearchPages("$tmp/web");
    try {
        $pages->add("plain", $plain_tree, $work, $php, [], false);
        $pages->add("switched", $switched_tree, $switched_work, $php, $ini, true, [],
            FPM_CHILDREN, false);
        $pages->start();
        echo "serving plain on " . $pages->url("plain") . ", switched on "
            . $pages->url("switched") . " (nginx, php-fpm with opcache)\n\n";
        $different = compareAnswers($queries, fn(array $args) => $pages->page("plain", $args),
            fn(array $args) => $pages->page("switched", $args));
        foreach ($pages->problems() as $problem) {
            echo "PROBLEM    $problem\n";
            $different++;
        }
        echo "\n" . $pages->masked() . "requests Yioop made to its own site: "
            . $pages->ownRequests() . "\n";
        return $different;
    } finally {
        $pages->stop();
    }
}

/** One copy of the tree as served. */
final class ServedCopy
{
    /**
     * $pool: lines added to the fpm pool (bench/search: an upload capture,
     * the Fetcher's upload size); $children: the pool's workers.
     */
    public function __construct(public string $name, public string $tree, public string $dir,
        public int $port, public array $ini, public bool $extension, public array $pool = [],
        public int $children = FPM_CHILDREN, public string $host = "127.0.0.1")
    {
    }

    public function url(string $path = "/"): string
    {
        return "http://$this->host:$this->port$path";
    }
}

/** Both copies served; page() asks one of them for a search page. */
final class SearchPages
{
    /** @var ServedCopy[] name => copy */
    private array $copies = [];
    /** [process, pid, what, log] */
    private array $processes = [];
    /** copy name => mask => how many times it applied */
    private array $masked = [];
    private ?array $user;
    /** nginx server blocks served beside the copies (bench/search: the crawled corpus) */
    public string $other_servers = "";
    /** Seconds the last page() took for the page itself, without the next results */
    public float $last_seconds = 0.0;

    /** $link_indexes: each copy's indexes hard-linked, not copied (copyWork). */
    public function __construct(private string $dir, private bool $link_indexes = false)
    {
        $this->user = unprivilegedUser();
        if ($this->user === null) {
            throw new SetUpFailure("no unprivileged user (www-data, nobody) for the workers");
        }
        mkdir($dir, 0755);
        file_put_contents("$dir/probe.php", PROBE_SCRIPT);
    }

    /**
     * Serves $tree from a copy of $work of its own, with NAME_SERVER its own
     * URL; $ini: the fpm master's -d settings; $extension: whether they load yioop.
     * $pool, $children: see ServedCopy; $copy_work false serves $work itself
     * (a crawl's name server shares the queue server's work directory).
     * $host: the loopback address it listens on (bench/multi's queue servers
     * are "other machines" to Yioop's isSingleLocalhost: 127.0.0.2, ...).
     */
    public function add(string $name, string $tree, string $work, Php $php, array $ini,
        bool $extension, array $pool = [], int $children = FPM_CHILDREN,
        bool $copy_work = true, string $host = "127.0.0.1"): ServedCopy
    {
        $copy = new ServedCopy($name, $tree, "$this->dir/$name", freeLoopbackPort(), $ini,
            $extension, $pool, $children, $host);
        mkdir($copy->dir, 0755);
        $own_work = $copy_work ? dirname($tree) . "/work" : $work;
        if ($copy_work) {
            copyWork($work, $own_work, $this->link_indexes);
        }
        configureWorkDirectory($tree, $own_work, $php);
        setNameServer($tree, $own_work, $copy->url(), $php);
        if (posix_geteuid() === 0) {
            // the web user owns the work directory, as on a served site
            shell("chown -R " . escapeshellarg(implode(":", $this->user)) . " "
                . escapeshellarg($own_work));
        }
        $this->copies[$name] = $copy;
        return $copy;
    }

    public function start(): void
    {
        pcntl_async_signals(true);
        foreach ([SIGINT, SIGTERM, SIGHUP] as $signal) {
            pcntl_signal($signal, fn() => throw new SetUpFailure("interrupted"));
        }
        foreach ($this->copies as $copy) {
            $this->startFpm($copy);
        }
        $this->startNginx();
        foreach ($this->copies as $copy) {
            $probe = $this->probe($copy);
            if ($probe["yioop"] !== $copy->extension || !$probe["opcache"]
                || $probe["format"] !== ($copy->ini["yioop.format"] ?? false)) {
                throw new SetUpFailure("the $copy->name pool should " . ($copy->extension ? ""
                    : "not ") . "load the yioop extension (yioop.format "
                    . json_encode($copy->ini["yioop.format"] ?? false) . "), with opcache on: "
                    . json_encode($probe));
            }
        }
    }

    public function url(string $name): string
    {
        return $this->copies[$name]->url();
    }

    /**
     * A visitor's search: the page, then the next results the page itself
     * asks for. Links/Page other than the default (10, continuous) is the
     * visitor's setting, saved in a session after cookie consent.
     */
    public function page(string $name, array $args): array
    {
        [$query, $per_page, $first] = $args;
        $copy = $this->copies[$name];
        $cookie = $per_page == "10" ? "" : $this->linksPerPage($copy, $query, $per_page);
        $start = microtime(true);
        [$status, $body] = http($copy->url(searchPath($query, $first)), $cookie);
        $this->last_seconds = microtime(true) - $start;
        $next = nextResultsPath($body);
        [$next_status, $next_body] = $next === null ? [0, ""]
            : http($copy->url($next), $cookie);
        preg_match('~<h2 class="search-stats">([^<]*)</h2>~', $body, $stats);
        preg_match('~([\d,]+)\D*$~', $stats[1] ?? "", $total);
        return ["rc" => $status, "how" => "HTTP $status" . ($next ? ", next HTTP $next_status" : ""),
            "out" => $this->comparable($body, $copy) . ($next === null ? ""
            : "\n<!-- next results: $next -->\n" . $this->comparable($next_body, $copy)),
            "err" => "", "answered" => $status == 200 && ($next === null || $next_status == 200)
            && str_contains($body, '<div class="search-results">'),
            "shown" => results($body), "more" => results($next_body),
            "total" => (int)str_replace(",", "", $total[1] ?? "0")];
    }

    /** How much each mask took out of each copy's pages. */
    public function masked(): string
    {
        $copies = [];
        foreach ($this->masked as $name => $counts) {
            $copies[] = "$name " . implode(", ", array_map(fn($mask, $n) => "$n $mask",
                array_keys($counts), $counts));
        }
        return "masked: " . implode("; ", $copies) . "\n";
    }

    /** Requests nginx served that were not ours: Yioop asking its own site. */
    public function ownRequests(): int
    {
        $log = (string)@file_get_contents("$this->dir/nginx-access.log");
        return substr_count($log, "\n") - substr_count($log, '"' . USER_AGENT . '"');
    }

    /** What went wrong in the servers after the pages: crashed workers, unused opcache. */
    public function problems(): array
    {
        $problems = [];
        foreach ($this->copies as $copy) {
            $log = (string)@file_get_contents("$copy->dir/fpm.log");
            if (preg_match_all('/^.*exited on signal.*$/m', $log, $crashes)) {
                array_push($problems, ...array_map(fn($line) => "$copy->name: $line",
                    $crashes[0]));
            }
            if ($this->probe($copy)["cached"] == 0) {
                $problems[] = "$copy->name: opcache cached no scripts";
            }
        }
        return $problems;
    }

    /**
     * Resident set sizes (kB) of $name's php-fpm workers, pid => kB: the
     * master's children, as /proc shows them now. $part "RssShmem": only
     * the pages of memory shared with the pool (the summary cache) each
     * has touched, counted in each worker's VmRSS though held once.
     */
    public function workerRss(string $name, string $part = "VmRSS"): array
    {
        $master = null;
        foreach ($this->processes as [, $pid, $what]) {
            $master = $what === "$name php-fpm" ? $pid : $master;
        }
        $rss = [];
        foreach (glob("/proc/[0-9]*/status") as $status) {
            $text = (string)@file_get_contents($status);
            if (preg_match('/^PPid:\s+(\d+)$/m', $text, $ppid) && (int)$ppid[1] === $master
                && preg_match('/^' . $part . ':\s+(\d+) kB$/m', $text, $kb)) {
                $rss[(int)basename(dirname($status))] = (int)$kb[1];
            }
        }
        return $rss;
    }

    /**
     * The counts of one of the extension's caches ("block_cache":
     * blockCacheStats(), per worker, summed over the distinct workers $asks
     * probes reached; "summary_cache": summaryCacheStats(), the pool's one
     * cache) in $name's workers; null without the extension.
     */
    public function cacheStats(string $name, string $cache, int $asks): ?array
    {
        $by_pid = [];
        for ($i = 0; $i < $asks; $i++) {
            $probe = $this->probe($this->copies[$name]);
            if (($probe[$cache] ?? null) === null) {
                return null;
            }
            $by_pid[$probe["pid"]] = $probe[$cache];
        }
        $sum = ["workers" => count($by_pid)];
        if ($cache === "summary_cache") {
            // one cache for the whole pool: every worker reports the same counts
            return $sum + end($by_pid);
        }
        foreach ($by_pid as $stats) {
            foreach ($stats as $key => $value) {
                $sum[$key] = ($sum[$key] ?? 0) + $value;
            }
        }
        return $sum;
    }

    /**
     * Cold: every server stopped, the kernel's page cache dropped, the
     * servers started again (fresh workers, empty opcache). False where
     * the page cache could not be dropped (not root).
     */
    public function restartCold(): bool
    {
        $this->stop();
        shell("sync");
        $dropped = @file_put_contents("/proc/sys/vm/drop_caches", "3\n") !== false;
        $this->start();
        return $dropped;
    }

    public function stop(): void
    {
        foreach (array_reverse($this->processes) as [$process, $pid]) {
            stopProcess($process, $pid);
        }
        $this->processes = [];
        foreach ([SIGINT, SIGTERM, SIGHUP] as $signal) {
            pcntl_signal($signal, SIG_DFL);
        }
    }

    /**
     * The page without what legitimately differs per request or per copy:
     * the blocks Yioop's error handler prints (withoutYioopErrorBlocks), the
     * time the search took, and the copy's own server in links.
     */
    private function comparable(string $body, ServedCopy $copy): string
    {
        $body = withoutYioopErrorBlocks($body, $errors);
        $body = preg_replace('~(<h2 class="search-stats">)\s*\d+\.\d+ seconds\.~',
            '$1 <elapsed> seconds.', $body, -1, $elapsed);
        $body = str_replace($copy->url(""), "<server>", $body, $urls);
        foreach (["error-handler blocks" => $errors, "elapsed times" => $elapsed,
            "own server URLs" => $urls] as $mask => $n) {
            $this->masked[$copy->name][$mask] = ($this->masked[$copy->name][$mask] ?? 0) + $n;
        }
        return $body;
    }

    /** A session cookie whose Links/Page is $per_page: consent, then the settings form. */
    private function linksPerPage(ServedCopy $copy, string $query, string $per_page): string
    {
        [, , $headers] = http($copy->url("/?cookieconsent=true"));
        preg_match('/^Set-Cookie: (yioopbiscuit=[^;]+)/mi', implode("\n", $headers), $cookie);
        [$status] = http($copy->url("/"), $cookie[1] ?? "", ["q" => $query,
            "timeperiod" => "all", "lang" => "en-US", "perpage" => $per_page,
            "safe_search" => "true"]);
        if (!isset($cookie[1]) || $status != 302) {
            throw new SetUpFailure("$copy->name: Yioop did not save Links/Page $per_page in a "
                . "session (settings form: HTTP $status)");
        }
        return $cookie[1];
    }

    private function startFpm(ServedCopy $copy): void
    {
        file_put_contents("$copy->dir/fpm.conf", $this->fpmConfig($copy));
        $flags = [];
        foreach ($copy->ini as $key => $value) {
            array_push($flags, "-d", "$key=$value");
        }
        $this->launch([programPath("php-fpm" . PHP_MAJOR_VERSION . "." . PHP_MINOR_VERSION),
            "--nodaemonize", "--fpm-config", "$copy->dir/fpm.conf", "-c", phpConfig("fpm")
            . "/php.ini", ...$flags],
            ["PHP_INI_SCAN_DIR" => phpIniWithoutYioop("fpm", "$copy->dir/conf.d")],
            "$copy->dir/fpm.out", "$copy->name php-fpm");
        $this->waitFor(fn() => file_exists("$copy->dir/fpm.sock"), "$copy->name php-fpm",
            "$copy->dir/fpm.log");
    }

    private function fpmConfig(ServedCopy $copy): string
    {
        [$user, $group] = $this->user;
        return "[global]\nerror_log = $copy->dir/fpm.log\ndaemonize = no\n\n[yioop]\n"
            . "user = $user\ngroup = $group\nlisten = $copy->dir/fpm.sock\n"
            . "listen.owner = $user\nlisten.group = $group\nlisten.mode = 0660\n"
            . "pm = static\npm.max_children = $copy->children\n"
            . "catch_workers_output = yes\n"
            // Yioop prints deprecations before it sends headers; their length
            // (each copy's own paths) must not decide whether headers still go out
            . "php_admin_value[output_buffering] = On\n"
            . implode("", array_map(fn($line) => "$line\n", $copy->pool));
    }

    private function startNginx(): void
    {
        $conf = "$this->dir/nginx.conf";
        is_dir("$this->dir/nginx-temp") || mkdir("$this->dir/nginx-temp");
        file_put_contents($conf, $this->nginxConfig());
        $this->launch([programPath("nginx"), "-p", "$this->dir/", "-c", $conf, "-e",
            "$this->dir/nginx-error.log", "-g", "daemon off;"], [], "$this->dir/nginx.out",
            "nginx");
        foreach ($this->copies as $copy) {
            $this->waitFor(fn() => ($s = @stream_socket_client("tcp://$copy->host:$copy->port"))
                && fclose($s), "nginx on port $copy->port", "$this->dir/nginx-error.log");
        }
    }

    private function nginxConfig(): string
    {
        $text = (posix_geteuid() === 0 ? "user {$this->user[0]} {$this->user[1]};\n" : "")
            . "worker_processes 1;\npid $this->dir/nginx.pid;\n"
            . "events {\n    worker_connections 64;\n}\nhttp {\n"
            . "    access_log $this->dir/nginx-access.log;\n"
            // a Fetcher's uploads to its name server are about 2 MB
            . "    client_max_body_size 64m;\n";
        foreach (["client_body", "fastcgi", "proxy", "scgi", "uwsgi"] as $temp) {
            $text .= "    {$temp}_temp_path $this->dir/nginx-temp/$temp;\n";
        }
        foreach ($this->copies as $copy) {
            $text .= serverBlock($copy, "$this->dir/probe.php");
        }
        return "$text$this->other_servers}\n";
    }

    /** Starts a server of ours, its output to $log, in PHP's environment plus $env. */
    private function launch(array $command, array $env, string $log, string $what): void
    {
        $process = proc_open($command, [0 => ["file", "/dev/null", "r"], 1 => ["file", $log, "a"],
            2 => ["file", $log, "a"]], $pipes, $this->dir, $env + getenv());
        if ($process === false) {
            throw new SetUpFailure("could not start $what");
        }
        $this->processes[] = [$process, proc_get_status($process)["pid"], $what, $log];
    }

    private function waitFor(callable $ready, string $what, string $log): void
    {
        for ($deadline = microtime(true) + START_SECONDS; !$ready(); usleep(100_000)) {
            [$process, , , $out] = end($this->processes);
            if (microtime(true) > $deadline || !proc_get_status($process)["running"]) {
                throw new SetUpFailure("$what did not start:\n" . tail(@file_get_contents($out)
                    . @file_get_contents($log)));
            }
        }
    }

    private function probe(ServedCopy $copy): array
    {
        [$status, $body] = http($copy->url(PROBE));
        $probe = json_decode($body, true);
        if ($status != 200 || !is_array($probe)) {
            throw new SetUpFailure("the $copy->name pool's probe answered $status: "
                . tail($body));
        }
        return $probe;
    }
}

/** What the pool's PHP is: the extension, opcache and how much it has cached. */
const PROBE_SCRIPT = <<<'PHP'
<?php
$opcache = function_exists("opcache_get_status") ? opcache_get_status(false) : false;
echo json_encode(["yioop" => extension_loaded("yioop"), "format" => ini_get("yioop.format"),
    "opcache" => is_array($opcache) && $opcache["opcache_enabled"],
    "cached" => is_array($opcache) ? $opcache["opcache_statistics"]["num_cached_scripts"] : 0,
    "pid" => getmypid(), "block_cache" => function_exists('yioop_codec\shard\blockCacheStats')
    ? yioop_codec\shard\blockCacheStats() : null,
    "summary_cache" => function_exists('yioop_codec\archive\summaryCacheStats')
    ? yioop_codec\archive\summaryCacheStats() : null]);
PHP;

/**
 * A copy's nginx server: every request to the tree's index.php with
 * YIOOP_REDIRECTS_ON, as Yioop's .htaccess routes it; the probe beside it.
 */
function serverBlock(ServedCopy $copy, string $probe): string
{
    $pass = "fastcgi_pass unix:$copy->dir/fpm.sock; include /etc/nginx/fastcgi_params;";
    return "    server {\n        listen $copy->host:$copy->port;\n"
        . "        server_name $copy->host;\n        root $copy->tree;\n"
        . "        location = " . PROBE . " { $pass fastcgi_param SCRIPT_FILENAME $probe; }\n"
        . "        location / { $pass fastcgi_param SCRIPT_FILENAME \$document_root/index.php;\n"
        . "            fastcgi_param SCRIPT_NAME /index.php; fastcgi_param YIOOP_REDIRECTS_ON true; }\n"
        . "    }\n";
}

/** The page Yioop's search box asks for, from result $first on. */
function searchPath(string $query, string $first): string
{
    return "/?" . http_build_query(["q" => $query] + ($first != "0" ? ["limit" => $first] : []));
}

/**
 * The next results a search page asks for: in continuous mode, the batch
 * its script fetches on scrolling; otherwise its Next link. Null at the end.
 */
function nextResultsPath(string $page): ?string
{
    if (preg_match("~initNextResultsPage\((\d+), (\d+), (\d+), '(\?[^']*)'~", $page, $m)) {
        [, $limit, $total, $per_page, $base] = $m;
        return $limit + $per_page < $total ? "/$base&limit=" . ($limit + $per_page) . "&f=api"
            : null;
    }
    if (preg_match("~<a href='(\?[^']*)'\s+rel='nofollow'\s*>Next</a>~", $page, $m)) {
        return "/" . html_entity_decode($m[1], ENT_QUOTES);
    }
    return null;
}

function results(string $html): int
{
    return substr_count($html, "<div class='result'>");
}

/** [HTTP status (0: none), body or why there is none, headers]; a form is POSTed. */
function http(string $url, string $cookie = "", ?array $form = null): array
{
    $headers = ["User-Agent: " . USER_AGENT, ...($cookie === "" ? [] : ["Cookie: $cookie"])];
    $http = ["timeout" => PAGE_SECONDS, "ignore_errors" => true, "follow_location" => 0];
    if ($form !== null) {
        $headers[] = "Content-Type: application/x-www-form-urlencoded";
        $http += ["method" => "POST", "content" => http_build_query($form)];
    }
    $body = @file_get_contents($url, false, stream_context_create(["http" => $http
        + ["header" => $headers]]));
    if ($body === false) {
        return [0, error_get_last()["message"] ?? "no answer", []];
    }
    preg_match('~^HTTP/\S+ (\d+)~', $http_response_header[0] ?? "", $status);
    return [(int)($status[1] ?? 0), $body, $http_response_header];
}

function freeLoopbackPort(): int
{
    $server = stream_socket_server("tcp://127.0.0.1:0", $errno, $error);
    if ($server === false) {
        throw new SetUpFailure("no free port on 127.0.0.1: $error");
    }
    $port = (int)substr(strrchr(stream_socket_get_name($server, false), ":"), 1);
    fclose($server);
    return $port;
}

function programPath(string $program): string
{
    $path = trim((string)shell_exec("PATH=\"\$PATH:/usr/sbin:/sbin\" command -v "
        . escapeshellarg($program) . " 2>/dev/null"));
    if ($path === "") {
        throw new SetUpFailure("$program is not installed (apt-get install -y nginx php"
            . PHP_MAJOR_VERSION . "." . PHP_MINOR_VERSION . "-fpm)");
    }
    return $path;
}
