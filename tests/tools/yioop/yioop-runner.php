<?php
/**
 * Runs calls through Yioop's own Utility.php, in a PHP process without the
 * extension: php -n tests/tools/yioop/yioop-runner.php YIOOP_DIR CALLS RESULTS
 * CALLS holds one {"fn", "args"} per line in the vectors' typed JSON;
 * RESULTS gets one {"ret", "args_after"} (or {"throws"}) per line.
 */
require_once __DIR__ . '/../../support/Vectors.php';
require_once __DIR__ . '/load-yioop.php';

use YioopCodec\Tests\Vectors;

[, $yioop_dir, $calls_file, $results_file] = $argv;
loadYioop($yioop_dir);

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
