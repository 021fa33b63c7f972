<?php
// auto_prepend_file of every pool with run.php --profile: quiet.php's
// filter, and excimer sampling this request's CPU time every millisecond;
// the stacks are appended, collapsed ("frame;frame;... count"), to the
// pool's file (env SEARCH_BENCH_PROFILE) for profile-report.php.
require __DIR__ . "/quiet.php";
if (class_exists("ExcimerProfiler") && !empty($_SERVER["SEARCH_BENCH_PROFILE"])) {
    $search_bench_profiler = new ExcimerProfiler();
    $search_bench_profiler->setPeriod(0.001);
    $search_bench_profiler->setEventType(EXCIMER_CPU);
    $search_bench_profiler->start();
    register_shutdown_function(function () use ($search_bench_profiler): void {
        $search_bench_profiler->stop();
        file_put_contents($_SERVER["SEARCH_BENCH_PROFILE"],
            $search_bench_profiler->getLog()->formatCollapsed(), FILE_APPEND | LOCK_EX);
    });
}
