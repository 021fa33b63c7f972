<?php
/**
 * Runs calls through Yioop's own Utility.php, in a PHP process without the
 * extension: php -n tests/live/yioop-runner.php YIOOP_DIR CALLS RESULTS
 * CALLS holds one {"fn", "args"} per line in the vectors' typed JSON;
 * RESULTS gets one {"ret", "args_after"} (or {"throws"}) per line.
 */
require_once __DIR__ . '/../Vectors.php';

use YioopCodec\Tests\Vectors;

[, $yioop_dir, $calls_file, $results_file] = $argv;
if (extension_loaded('yioop')) {
    fwrite(STDERR, "run this without the yioop extension\n");
    exit(2);
}
ini_set('memory_limit', '-1');
ini_set('serialize_precision', '-1');
ob_start(); // Yioop's crawlLog prints on damaged input
require_once "$yioop_dir/src/library/CrawlConstants.php";
require_once "$yioop_dir/src/library/Utility.php";
set_error_handler(fn() => true); // Yioop's warnings are not part of the result

$out = fopen($results_file, 'w');
foreach (file($calls_file, FILE_IGNORE_NEW_LINES) as $line) {
    $call = json_decode($line, false, 512, JSON_BIGINT_AS_STRING | JSON_THROW_ON_ERROR);
    $args = Vectors::decode($call->args);
    $function = 'seekquarry\\yioop\\library\\' . $call->fn;
    try {
        $ret = $function(...$args);
        $result = ['ret' => Vectors::encode($ret), 'args_after' => Vectors::encode($args)];
    } catch (\Throwable $e) {
        $result = ['throws' => get_class($e)];
    }
    fwrite($out, json_encode($result, JSON_UNESCAPED_SLASHES) . "\n");
    ob_clean();
}
fclose($out);
