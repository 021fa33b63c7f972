<?php
// A php-fpm worker's page for tests/fpm.php: replays recorded vectors (or a
// fixed workload) and reports this worker's pid, OpenCL state and RSS as
// JSON. Copied above support/Vectors.php and fixtures/ in the test's directory.

declare(strict_types=1);

require __DIR__ . '/support/Vectors.php';

use YioopCodec\Tests\Vectors;

/** The yioop section of phpinfo() as label => value (fpm writes it as HTML). */
function yioopInfo(): array
{
    ob_start();
    phpinfo(INFO_MODULES);
    $html = (string)ob_get_clean();
    $section = substr($html, (int)strpos($html, 'name="module_yioop"'));
    $section = substr($section, 0, strpos($section, '<h2>') ?: strlen($section));
    preg_match_all('#<tr><td class="e">(.*?)</td><td class="v">(.*?)</td></tr>#s', $section, $rows, PREG_SET_ORDER);
    $info = [];
    foreach ($rows as [, $label, $value]) {
        $info[trim(html_entity_decode($label))] ??= trim(html_entity_decode($value, ENT_QUOTES));
    }
    return $info;
}

function rssKb(): int
{
    $status = (string)file_get_contents('/proc/self/status');
    return preg_match('/^VmRSS:\s+(\d+) kB/m', $status, $m) ? (int)$m[1] : -1;
}

/** Replays one vector; null if it matches, else what differs. */
function replay(string $line): ?string
{
    $case = Vectors::parseLine($line);
    $args = Vectors::decode($case->args);
    $fn = $case->fn;
    set_error_handler(static fn (): bool => true);
    try {
        $ret = $fn(...$args);
        $thrown = null;
    } catch (\Throwable $e) {
        $ret = null;
        $thrown = $e;
    } finally {
        restore_error_handler();
    }
    if (isset($case->throws)) {
        return $thrown instanceof $case->throws ? null : "$fn: expected {$case->throws}";
    }
    if ($thrown !== null) {
        return "$fn threw " . get_class($thrown) . ': ' . $thrown->getMessage();
    }
    if (Vectors::toJson(Vectors::decode($case->ret)) !== Vectors::toJson($ret)) {
        return "$fn: return value differs";
    }
    if (Vectors::toJson(Vectors::decode($case->args_after)) !== Vectors::toJson($args)) {
        return "$fn: arguments after the call differ";
    }
    return null;
}

/** Every line of one function's vectors whose number is $part modulo $parts. */
function replayPart(string $fn, int $part, int $parts): array
{
    $files = Vectors::files('2019');
    $failed = [];
    $count = 0;
    foreach (Vectors::lines($files[$fn]) as $number => $line) {
        if ($number % $parts !== $part) {
            continue;
        }
        $count++;
        $why = replay($line);
        if ($why !== null) {
            $failed[] = "$fn:$number $why";
        }
    }
    return [$count, $failed];
}

/** The same work every time: a long posting through unpackPosting and deDeltaList. */
function fixedWorkload(): array
{
    mt_srand(7);
    $positions = [];
    $p = 0;
    for ($i = 0; $i < 20000; $i++) {
        $p += mt_rand(1, 300);
        $positions[] = $p;
    }
    $offset = 0;
    $ok = unpackPosting(packPosting(4242, $positions), $offset) === [4242, $positions];
    $deltas = deltaList($positions);
    deDeltaList($deltas);
    $ok = $ok && $deltas === $positions;
    return [1, $ok ? [] : ['the fixed workload decoded wrong']];
}

/**
 * The first record of summaries.bin (the test wrote it: a WebArchive file
 * of one summary) read as WebArchiveBundle::getPage reads it, through the
 * summary cache; fails unless its title is right.
 */
function summaryRead(): array
{
    require_once __DIR__ . '/support/archive/stand-ins.php';
    $archive = new YioopCodec\Tests\ArchiveStandIn(__DIR__ . '/summaries.bin');
    $page = yioop_codec\archive\getObjects($archive, 0, 1, false, null, 1 << 30)[0][1] ?? null;
    return [1, ($page['TITLE'] ?? null) === 'shared' ? [] : ['the summary read wrong']];
}

parse_str($_SERVER['QUERY_STRING'] ?? '', $query);
[$count, $failed] = match ($query['do'] ?? '') {
    'vectors' => replayPart((string)$query['fn'], (int)$query['part'], (int)$query['parts']),
    'summary' => summaryRead(),
    default => fixedWorkload(),
};
$info = yioopInfo();
header('Content-Type: application/json');
echo json_encode([
    'pid' => getmypid(),
    'replayed' => $count,
    'failed' => array_slice($failed, 0, 5),
    'failures' => count($failed),
    'context' => $info['OpenCL context'] ?? '',
    'reason' => $info['OpenCL off because'] ?? '',
    'probe' => $info['OpenCL probe'] ?? '',
    'rss_kb' => rssKb(),
    'summary_cache' => yioop_codec\archive\summaryCacheStats(),
], JSON_UNESCAPED_SLASHES);
