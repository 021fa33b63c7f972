<?php
// auto_prepend_file of every pool with bench/multi/run.php --profile: as
// bench/search/profile.php (quiet.php's filter, excimer sampling the
// request's CPU time every millisecond, collapsed stacks appended to the
// pool's file), with each stack's first frame naming what the request is:
// "{page}" a name server's search page (or the next results it asks for),
// "{raw}" a queue server's raw query (NetworkIterator), "{getCrawlItems}"
// a queue server's summaries (ParallelModel::networkGetCrawlItems), then
// one line "{request} KIND 1" per request and its CPU milliseconds.
require dirname(__DIR__) . "/search/quiet.php";
if (class_exists("ExcimerProfiler") && !empty($_SERVER["SEARCH_BENCH_PROFILE"])) {
    // ParallelModel::execMachines POSTs its c=crawl&a=... (getCrawlItems)
    $multi_bench_kind = !empty($_REQUEST["raw"]) ? "{raw}" : ((($_REQUEST["a"] ?? "")
        === "getCrawlItems") ? "{getCrawlItems}" : ((($_REQUEST["c"] ?? "") === "crawl")
        ? "{crawl:" . preg_replace('/\W/', "", (string)($_REQUEST["a"] ?? "")) . "}"
        : "{page}"));
    $multi_bench_profiler = new ExcimerProfiler();
    $multi_bench_profiler->setPeriod(0.001);
    $multi_bench_profiler->setEventType(EXCIMER_CPU);
    $multi_bench_start = getrusage();
    $multi_bench_profiler->start();
    register_shutdown_function(function () use ($multi_bench_profiler, $multi_bench_kind,
        $multi_bench_start): void {
        $multi_bench_profiler->stop();
        $end = getrusage();
        $cpu = fn(array $r) => $r["ru_utime.tv_sec"] * 1e3 + $r["ru_utime.tv_usec"] / 1e3
            + $r["ru_stime.tv_sec"] * 1e3 + $r["ru_stime.tv_usec"] / 1e3;
        $lines = "";
        foreach (explode("\n", trim($multi_bench_profiler->getLog()->formatCollapsed()))
            as $line) {
            $lines .= $line === "" ? "" : "$multi_bench_kind;$line\n";
        }
        file_put_contents($_SERVER["SEARCH_BENCH_PROFILE"], $lines . sprintf(
            "{request} %s %.3f\n", $multi_bench_kind, $cpu($end) - $cpu($multi_bench_start)),
            FILE_APPEND | LOCK_EX);
    });
}
