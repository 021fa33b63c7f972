<?php
/**
 * The search benchmarks' load and cold phases (bench/scale/search.php's
 * --clients, --load-requests and --cold), after the one-client rounds:
 *
 * - load: each configuration in turn gets LOAD_BLOCK search pages from
 *   $clients concurrent clients (curl_multi), the configurations taking
 *   turns block by block (the first one rotating) until each has had
 *   $requests; requests/s is pages per second of wall time, and after each
 *   block the resident set size of the configuration's php-fpm workers is
 *   read from /proc. Only the search page itself is asked (not the next
 *   results), with the query's first result; the one-client rounds have
 *   already checked every page for identity.
 * - cold: every server restarted and the page cache dropped
 *   (SearchPages::restartCold), then one pass of the queries, each asked of
 *   every configuration in turn, timed.
 */
declare(strict_types=1);

const LOAD_BLOCK = 200;

/** $options: clients (0: no load phase), load_requests, cold. */
function loadAndColdPhases(SearchPages $pages, array $queries, array $options): void
{
    $names = array_column(CONFIGS, 0);
    if (($options["clients"] ?? 0) > 0) {
        $load = loadPhase($pages, $queries, $names, $options["clients"],
            $options["load_requests"]);
        printLoad($load, $queries, $options["clients"]);
        printCacheStats($pages, $names);
    }
    if ($options["cold"] ?? false) {
        $cold = coldPass($pages, $queries, $names);
        if ($cold === null) {
            echo "\ncold: not measured (dropping the page cache needs root)\n";
        } else {
            printTimings($cold, $queries, [], "cold: the first pass after every server restarted"
                . " and the page cache dropped, one client");
        }
    }
}

/**
 * Timings per configuration: ["seconds" => [class => [...]], "wall" => s,
 * "rss" => [[requests so far, max kB, total kB, workers, max kB less the pool's shared
 * memory], ...]].
 */
function loadPhase(SearchPages $pages, array $queries, array $names, int $clients,
    int $requests): array
{
    $paths = array_map(fn($q) => searchPath($q[0], (string)$q[2]), $queries);
    $load = [];
    for ($done = 0, $block = 0; $done < $requests; $block++) {
        $n = min(LOAD_BLOCK, $requests - $done);
        // the same queries for every configuration in a block, in query order rotated
        $picks = array_map(fn($i) => ($block * LOAD_BLOCK + $i) % count($queries), range(0, $n - 1));
        foreach (inTurn($names, $block) as $name) {
            [$seconds, $wall] = concurrentPages($pages->url($name), $paths, $picks, $clients);
            foreach ($seconds as $k => $s) {
                $load[$name]["seconds"][$queries[$picks[$k]][3]][] = $s;
            }
            $load[$name]["wall"] = ($load[$name]["wall"] ?? 0.0) + $wall;
            $rss = $pages->workerRss($name);
            $shared = $pages->workerRss($name, "RssShmem");
            $own = array_map(fn($pid) => $rss[$pid] - ($shared[$pid] ?? 0), array_keys($rss));
            $load[$name]["rss"][] = [$done + $n, $rss ? max($rss) : 0, array_sum($rss),
                count($rss), $own ? max($own) : 0];
        }
        $done += $n;
        fprintf(STDERR, "\rload: %d of %d requests per configuration", $done, $requests);
    }
    fwrite(STDERR, "\n");
    return $load;
}

/**
 * $picks (indexes into $paths) asked of $base by $clients clients at once:
 * [the seconds each took, in $picks' order; wall seconds for all].
 */
function concurrentPages(string $base, array $paths, array $picks, int $clients): array
{
    $multi = curl_multi_init();
    $handles = [];
    $seconds = [];
    $next = 0;
    $add = function () use (&$next, &$handles, $multi, $base, $paths, $picks): void {
        $handle = curl_init(rtrim($base, "/") . $paths[$picks[$next]]);
        curl_setopt_array($handle, [CURLOPT_RETURNTRANSFER => true,
            CURLOPT_USERAGENT => USER_AGENT, CURLOPT_TIMEOUT => PAGE_SECONDS]);
        curl_multi_add_handle($multi, $handle);
        $handles[spl_object_id($handle)] = [$handle, $next++];
    };
    $start = microtime(true);
    while ($next < min($clients, count($picks))) {
        $add();
    }
    do {
        curl_multi_exec($multi, $running);
        while (($done = curl_multi_info_read($multi)) !== false) {
            [$handle, $k] = $handles[spl_object_id($done["handle"])];
            unset($handles[spl_object_id($handle)]);
            $status = curl_getinfo($handle, CURLINFO_RESPONSE_CODE);
            if ($status != 200) {
                throw new SetUpFailure("$base: HTTP $status for " . $paths[$picks[$k]]
                    . " under load");
            }
            $seconds[$k] = curl_getinfo($handle, CURLINFO_TOTAL_TIME);
            curl_multi_remove_handle($multi, $handle);
            if ($next < count($picks)) {
                $add();
                $running = true;
            }
        }
        if ($running) {
            curl_multi_select($multi, 1.0);
        }
    } while ($running || $handles);
    curl_multi_close($multi);
    ksort($seconds);
    return [$seconds, microtime(true) - $start];
}

/** One timed pass after a cold restart: [name => [class => seconds...]], or null (not root). */
function coldPass(SearchPages $pages, array $queries, array $names): ?array
{
    if (!$pages->restartCold()) {
        return null;
    }
    $cold = [];
    foreach ($queries as $i => [$query, , $first, $class]) {
        foreach (inTurn($names, $i) as $name) {
            $start = microtime(true);
            [$status] = http($pages->url($name) . ltrim(searchPath($query, (string)$first), "/"));
            if ($status != 200) {
                throw new SetUpFailure("$name: HTTP $status for '$query' after a cold start");
            }
            $cold[$name][$class][] = microtime(true) - $start;
        }
    }
    return $cold;
}

/** The load phase's table: requests/s, p50 and p95 per configuration and class; RSS. */
function printLoad(array $load, array $queries, int $clients): void
{
    $timings = [];
    foreach ($load as $name => $run) {
        $timings[$name] = $run["seconds"];
    }
    echo "\nunder load: $clients concurrent clients, "
        . array_sum(array_map("count", reset($timings))) . " pages per configuration\n";
    printTimings($timings, $queries, array_map(fn($run) => array_sum(array_map("count",
        $run["seconds"])) / $run["wall"], $load), "$clients clients");
    echo "\nphp-fpm worker RSS (MB) after each block of " . LOAD_BLOCK . " requests: first, "
        . "last and highest (of any worker), and the workers' total at the end; then the "
        . "same less the memory the pool shares (the summary cache, held once but counted "
        . "in each worker's RSS as far as it has touched it):\n";
    foreach ($load as $name => $run) {
        $last = end($run["rss"]);
        foreach ([1 => "", 4 => "  own"] as $column => $label) {
            $max = array_column($run["rss"], $column);
            printf("%-14s first %6.1f  last %6.1f  highest %6.1f%s\n", $name . $label,
                $max[0] / 1024, end($max) / 1024, max($max) / 1024, $column === 1
                ? sprintf("  total %7.1f (%d workers, after %d requests)", $last[2] / 1024,
                $last[3], $last[0]) : "");
        }
    }
    // first/last/highest cannot tell a step (one more chunk kept) from a slope
    echo "the same less shared memory (the highest worker) at each tenth of the requests:\n";
    foreach ($load as $name => $run) {
        printf("%-14s %s\n", "$name  own", implode(" ", array_map(fn($kb) => sprintf("%.1f", $kb / 1024),
            tenths(array_column($run["rss"], 4)))));
    }
}

/** The samples that end each tenth of the run (each one once, where there are fewer than ten). */
function tenths(array $samples): array
{
    $n = count($samples);
    $ends = array_unique(array_map(fn($i) => max(0, intdiv($n * $i, 10) - 1), range(1, 10)));
    return $n === 0 ? [] : array_map(fn($k) => $samples[$k], array_values($ends));
}

function printCacheStats(SearchPages $pages, array $names): void
{
    foreach ($names as $name) {
        $stats = $pages->cacheStats($name, "block_cache", 4 * FPM_CHILDREN);
        if ($stats === null) {
            continue;
        }
        $reads = $stats["hits"] + $stats["misses"];
        printf("block cache %-14s %d workers: %d hits, %d misses (hit rate %.1f%%), %d start-overs,"
            . " %d version resets, %.1f MB held of %.0f MB each\n", $name, $stats["workers"],
            $stats["hits"], $stats["misses"], $reads ? 100 * $stats["hits"] / $reads : 0,
            $stats["start_overs"], $stats["version_resets"], $stats["held_bytes"] / 1048576,
            $stats["limit_bytes"] / max(1, $stats["workers"]) / 1048576);
        $stats = $pages->cacheStats($name, "summary_cache", 4 * FPM_CHILDREN);
        if ($stats !== null) {
            $reads = $stats["hits"] + $stats["misses"];
            printf("summary cache %-12s shared by %d workers: %d hits, %d misses (hit rate %.1f%%),"
                . " %d turnovers, %d records in %.1f MB (%.1f KB each, as read and as kept) of %.0f MB\n",
                $name, $stats["workers"], $stats["hits"], $stats["misses"],
                $reads ? 100 * $stats["hits"] / $reads : 0, $stats["turnovers"], $stats["entries"] ?? 0,
                $stats["held_bytes"] / 1048576, $stats["held_bytes"] / max(1, $stats["entries"] ?? 0) / 1024,
                $stats["limit_bytes"] / 1048576);
        }
    }
}
