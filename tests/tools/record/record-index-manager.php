<?php
/**
 * Records Yioop's IndexManager::discountedNumDocsTerm (YIOOP_DIR, run
 * WITHOUT the extension) on tests/support/index_manager/run.php's cases,
 * for tests/index/IndexManagerTest.php: each case's result.
 *
 *   YIOOP_DIR=... php tests/tools/record/record-index-manager.php
 */
$yioop = getenv("YIOOP_DIR") ?: "/work/yioop-2021";
if (extension_loaded("yioop")) {
    fwrite(STDERR, "run without the extension: this records Yioop's PHP\n");
    exit(1);
}
$runner = __DIR__ . "/../../support/index_manager/run.php";
$json = shell_exec(escapeshellarg(PHP_BINARY) . " " . escapeshellarg($runner) . " yioop " . escapeshellarg($yioop));
if (!is_array(json_decode((string)$json, true))) {
    fwrite(STDERR, "no result from $runner\n");
    exit(1);
}
file_put_contents(__DIR__ . "/../../fixtures/index_manager/yioop-2021.json", $json);
echo "recorded ", count(json_decode($json, true)["cases"]), " cases\n";
