<?php
/**
 * Runs one of Yioop's own unit tests (YIOOP_DIR/tests/NAME.php, a subclass of
 * Yioop's seekquarry\yioop\library\UnitTest) on a Yioop tree, from the
 * command line:
 *
 *   php tests/tools/yioop/yioop-unit-test.php /path/to/yioop IndexShardTest
 *
 * Whether the yioop extension is loaded is up to the php running this; run it
 * once without the extension and once with it on a tree switched by
 * php/yioop-integrate.php, and both must pass.
 *
 * Test cases are found and run as Yioop's UnitTest::run() does: every method
 * whose name ends in "TestCase", in get_class_methods() order, each after
 * setUp() and before tearDown(), its assert* calls appending NAME/PASS
 * records to test_case_results. Unlike run(), a test case that throws is
 * recorded as one failure and the others still run, and setUp()/tearDown()
 * run around test cases only. Yioop runs in a fresh temporary work directory
 * with a minimal Profile.php (removed afterwards).
 *
 * Prints the pass/fail counts per test case and in total. Exit status: 0 when
 * at least one assertion ran and none failed, 1 otherwise, 2 usage error.
 */

declare(strict_types=1);

const CONFIGS = "seekquarry\\yioop\\configs\\";

function usage(string $message): never
{
    fwrite(STDERR, "$message\nusage: php " . basename(__FILE__)
        . " /path/to/yioop TestName   (a class in YIOOP/tests, e.g. "
        . "IndexShardTest)\n");
    exit(2);
}

function removeTree(string $dir): void
{
    foreach (scandir($dir) ?: [] as $entry) {
        if ($entry === '.' || $entry === '..') {
            continue;
        }
        $path = "$dir/$entry";
        is_dir($path) && !is_link($path) ? removeTree($path) : unlink($path);
    }
    rmdir($dir);
}

/** Loads Yioop's configuration with $work_dir as its work directory. */
function bootYioop(string $yioop, string $work_dir): void
{
    file_put_contents("$work_dir/Profile.php", "<?php\n"
        . "namespace seekquarry\\yioop\\configs;\n"
        . "nsdefine('NAME_SERVER', 'http://localhost/');\n"
        . "nsdefine('DEBUG_LEVEL', 0);\n"
        . "nsdefine('USER_AGENT_SHORT', 'yioop-unit-test');\n"
        . "nsdefine('TITLE_WEIGHT', 4);\n"
        . "nsdefine('DESCRIPTION_WEIGHT', 1);\n"
        . "nsdefine('LINK_WEIGHT', 2);\n"
        . "nsdefine('MIN_RESULTS_TO_GROUP', 200);\n");
    foreach (['cache', 'schedules', 'temp'] as $sub) {
        mkdir("$work_dir/$sub");
    }
    ini_set('memory_limit', '-1');
    define(CONFIGS . 'WORK_DIRECTORY', $work_dir);
    require "$yioop/src/configs/Config.php";
    // Yioop's handler prints PHP 8.2+'s dynamic-property deprecations
    set_error_handler(fn() => true);
    $_SERVER['NO_LOGGING'] = true;
    $_SERVER['LOG_TO_FILES'] = false;
}

/**
 * Runs the test cases of $test; returns test case name => list of
 * [assertion name, passed].
 */
function runCases(object $test): array
{
    $results = [];
    foreach (get_class_methods($test) as $method) {
        if (!str_ends_with($method, 'TestCase')) {
            continue;
        }
        $test->test_objects = null;
        $test->setUp();
        $test->test_case_results = [];
        try {
            $test->$method();
            $thrown = null;
        } catch (Throwable $e) {
            $thrown = get_class($e) . ": " . $e->getMessage() . " at "
                . basename($e->getFile()) . ":" . $e->getLine();
        }
        $cases = [];
        foreach ($test->test_case_results as $record) {
            $cases[] = [(string)($record['NAME'] ?? '?'),
                !empty($record['PASS'])];
        }
        if ($thrown !== null) {
            $cases[] = ["threw $thrown", false];
        }
        $results[$method] = $cases;
        $test->tearDown();
        set_error_handler(fn() => true); // tearDown may install Yioop's
    }
    return $results;
}

[, $yioop, $name] = array_pad($argv, 3, null);
if ($yioop === null || $name === null || isset($argv[3])) {
    usage("two arguments, please");
}
$yioop = rtrim($yioop, '/');
$name = basename($name, '.php');
if (!is_file("$yioop/src/configs/Config.php")) {
    usage("$yioop is not a Yioop tree (no src/configs/Config.php)");
}
if (!preg_match('~^\w+$~', $name) || !is_file("$yioop/tests/$name.php")) {
    usage("no test $yioop/tests/$name.php");
}
$work_dir = sys_get_temp_dir() . '/yioop-unit-test-' . bin2hex(random_bytes(6));
mkdir($work_dir, 0700);
register_shutdown_function('removeTree', $work_dir);

bootYioop($yioop, $work_dir);
$class = "seekquarry\\yioop\\tests\\$name";
if (!class_exists($class)
    || !is_subclass_of($class, "seekquarry\\yioop\\library\\UnitTest")) {
    usage("$yioop/tests/$name.php does not declare $class, a UnitTest");
}
$shard = @file_get_contents("$yioop/src/library/IndexShard.php");
echo "$name on $yioop\n"
    . "extension yioop: " . (extension_loaded('yioop') ? "loaded ("
        . phpversion('yioop') . ", yioop.format=" . ini_get('yioop.format')
        . ")" : "not loaded") . "\n"
    . "IndexShard.php: " . (is_string($shard) && str_contains($shard,
        'yioop-codec:method') ? "switched by yioop-integrate.php"
        : "not switched") . "\n";

$passed = 0;
$failed = 0;
foreach (runCases(new $class()) as $method => $cases) {
    $bad = array_filter($cases, fn($c) => !$c[1]);
    printf("%s %s: %d of %d passed\n", $bad === [] ? "PASS" : "FAIL",
        $method, count($cases) - count($bad), count($cases));
    foreach ($bad as [$assertion]) {
        echo "    failed: $assertion\n";
    }
    $failed += count($bad);
    $passed += count($cases) - count($bad);
}
echo "$passed passed, $failed failed\n";
exit($failed === 0 && $passed > 0 ? 0 : 1);
