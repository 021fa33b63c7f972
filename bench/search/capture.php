<?php
// auto_prepend_file of the crawl's name server pool (bench/search/run.php):
// saves every upload of the Fetcher (c=fetch, a=update: the request the
// fetch controller turns into the schedule files the QueueServer processes)
// before Yioop handles it, numbered in arrival order. Format: batches/README.md.
require __DIR__ . "/quiet.php";
if (($_REQUEST["c"] ?? "") === "fetch" && ($_REQUEST["a"] ?? "") === "update") {
    (function (string $dir): void {
        $lock = fopen("$dir/.counter", "c+");
        flock($lock, LOCK_EX); // one number per upload, whatever the workers' order
        $n = (int)stream_get_contents($lock) + 1;
        file_put_contents(sprintf("%s/%06d.upload", $dir, $n), serialize(["number" => $n,
            "time" => microtime(true), "get" => $_GET, "post" => $_POST,
            "remote_addr" => $_SERVER["REMOTE_ADDR"] ?? ""]));
        ftruncate($lock, 0);
        rewind($lock);
        fwrite($lock, (string)$n);
        fflush($lock);
        flock($lock, LOCK_UN);
        fclose($lock);
    })($_SERVER["SEARCH_BENCH_CAPTURE"]);
}
