<?php
/**
 * Runs calls through Yioop's own Utility.php for BadInputTest's live replay,
 * in a PHP process without the extension:
 *   php -n tests/tools/yioop/bad-input-runner.php YIOOP_DIR CALLS RESULTS SECONDS
 * or, with "switched" after SECONDS, through a tree switched by
 * php/yioop-integrate.php in a PHP process with the extension.
 * CALLS holds serialize()d [[fn, args], ...]; RESULTS gets serialize()d
 * [['returns', ret, args after] | ['throws', class, message], ...].
 * serialize() rather than typed JSON: these inputs include objects. SECONDS
 * > 0 sets a time limit, for the calls Yioop never finishes.
 */
require_once __DIR__ . '/load-yioop.php';

[, $yioop_dir, $calls_file, $results_file, $seconds] = $argv;
// a fifth argument "switched": YIOOP_DIR was switched by yioop-integrate.php
// and this php has the extension (the natives, and Yioop's PHP where they
// decline)
loadYioop($yioop_dir, ($argv[5] ?? '') === 'switched');
if ((int)$seconds > 0) {
    // Yioop's Config.php may turn error reporting off: report the time limit
    // from a shutdown function instead of relying on the fatal error text.
    register_shutdown_function(function (): void {
        $error = error_get_last();
        if ($error !== null && str_contains($error['message'], 'Maximum execution time')) {
            while (ob_get_level() > 0) {
                ob_end_clean();
            }
            echo "bad-input-runner: Maximum execution time reached\n";
        }
    });
    set_time_limit((int)$seconds);
}

$results = [];
foreach (unserialize(file_get_contents($calls_file)) as [$fn, $args]) {
    try {
        $ret = ('seekquarry\\yioop\\library\\' . $fn)(...$args);
        $results[] = ['returns', $ret, $args];
    } catch (\Throwable $e) {
        $results[] = ['throws', get_class($e), $e->getMessage()];
    }
    if (ob_get_level() > 0) {
        ob_clean();
    }
}
file_put_contents($results_file, serialize($results));
