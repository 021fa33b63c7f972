<?php
/**
 * Records what Yioop's own IndexShard (PHP, without the extension) does in
 * every fidelity scenario (tests/support/fidelity/scenarios.php), for
 * tests/index/FidelityTest.php to hold the native functions to without a Yioop
 * tree:
 *
 *   php tests/tools/record/record-fidelity.php YIOOP_DIR [OUT [BASE]]
 *
 * OUT defaults to tests/fixtures/shard/fidelity/recorded.json.gz. Each scenario runs in a
 * PHP process of its own (its configuration constants are its own), with
 * PHP's ini files minus the yioop extension's.
 *
 * With BASE (a recording made on another PHP version), OUT keeps only the
 * scenarios whose record differs from BASE's: what FidelityTest lays over
 * recorded.json.gz on this PHP version. Made on PHP 8.4 as
 *   php tests/tools/record/record-fidelity.php YIOOP_DIR \
 *       tests/fixtures/shard/fidelity/recorded-php8.4.json.gz \
 *       tests/fixtures/shard/fidelity/recorded.json.gz
 * (8.4 clears its stat cache when a plain file is written, so Yioop's
 * filesize() sees a shard file grow where 8.2's saw the old size.)
 */

namespace YioopCodec\Fidelity;

require_once __DIR__ . "/../../support/fidelity/scenarios.php";

[, $yioop, $out, $base] = $argv + [null, null, FIXTURES . "/recorded.json.gz", null];
if (!$yioop || !is_file("$yioop/src/library/IndexShard.php")) {
    fwrite(STDERR, "usage: php record-fidelity.php YIOOP_DIR [OUT [BASE]]\n");
    exit(2);
}
$recorded = [];
foreach (array_keys(scenarios()) as $name) {
    $recorded[$name] = runScenario("yioop", $name, [realpath($yioop)], withoutExtension());
    fwrite(STDERR, "recorded $name\n");
}
if ($base !== null) {
    $baseRecorded = json_decode(gzdecode(file_get_contents($base)), true);
    $recorded = array_filter($recorded, fn($record, $name) => ($baseRecorded[$name] ?? null) !== $record,
        ARRAY_FILTER_USE_BOTH);
}
file_put_contents($out, gzencode(json_encode($recorded, JSON_PRESERVE_ZERO_FRACTION), 9));
fwrite(STDERR, count($recorded) . " scenarios recorded in $out\n");

/** PHP's ini files minus the yioop extension's, as tests/run.sh sets them. */
function withoutExtension(): array
{
    $dir = sys_get_temp_dir() . "/yioop-fidelity-ini-" . getmypid();
    @mkdir($dir);
    foreach (glob(PHP_CONFIG_FILE_SCAN_DIR . "/*.ini") as $ini) {
        if (!str_contains($ini, "yioop")) {
            copy($ini, "$dir/" . basename($ini));
        }
    }
    register_shutdown_function(fn() => exec("rm -rf " . escapeshellarg($dir)));
    return ["PHP_INI_SCAN_DIR" => $dir];
}
