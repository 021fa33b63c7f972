<?php
/**
 * Runs SearchverticalsModel::isFiltered on the cases below and prints what
 * each gave as JSON.
 *
 *   php run.php yioop YIOOP_DIR   Yioop's own class, made without its
 *                                 constructor (no database: a host it must
 *                                 look up throws), records the fixture
 *   php run.php stand-ins         stand-in.php: the native function
 *
 * Per case: the result (serialized, or the class of what it threw) and,
 * with the stand-in, whether the native function declined.
 */
namespace YioopCodec\Tests\SearchFilter;

use seekquarry\yioop\models\SearchverticalsModel;

[, $mode] = $argv;
if ($mode === "yioop") {
    $work = sys_get_temp_dir() . "/search-filter-" . getmypid();
    mkdir($work);
    require dirname(__DIR__, 3) . "/bench/e2e/yioop-boot.php";
    \seekquarry\yioop\configs\bootYioop($argv[2] . "/src", $work);
} else {
    require __DIR__ . "/stand-in.php";
}

/** A model without a database, remembering these answers. */
function model(array $memory, array $set = []): SearchverticalsModel
{
    $model = (new \ReflectionClass(SearchverticalsModel::class))->newInstanceWithoutConstructor();
    $model->memory_filter = $memory;
    foreach ($set as $name => $value) {
        $model->$name = $value;
    }
    return $model;
}

$remembered = ["ost0001" => true, "ost0002" => false, 12345 => true, "ost0003" => null,
    "https://host4.example" => true];
/** [name, model, url, compute_hash_key] */
$cases = [
    ["a host remembered as filtered", model($remembered), "ost0001", false],
    ["a host remembered as not filtered", model($remembered), "ost0002", false],
    ["an integer-like host, an int key", model($remembered), "12345", false],
    ["the host as an int", model($remembered), 12345, false],
    ["a host not remembered: the database", model($remembered), "ost0009", false],
    ["a host remembered as null: the database", model($remembered), "ost0003", false],
    ["a query_filter holding the URL", model($remembered, ["query_filter" => ["ost0001"]]), "ost0001", false],
    ["an empty query_filter", model($remembered, ["query_filter" => []]), "ost0001", false],
    ["a URL whose host to work out", model($remembered), "https://host4.example/page", true],
    ["compute_hash_key as a string", model($remembered), "ost0001", "0"],
];
$out = [];
foreach ($cases as [$name, $model, $url, $compute]) {
    $declined_before = SearchverticalsModel::$declined ?? 0;
    ob_start(); // Yioop's handler prints PHP 8.2's notes on dynamic properties
    try {
        $result = serialize($model->isFiltered($url, $compute));
    } catch (\Throwable $e) {
        $result = "threw " . get_class($e);
    }
    ob_end_clean();
    $case = ["name" => $name, "result" => $result, "memory_filter" => serialize($model->memory_filter)];
    if ($mode !== "yioop") {
        $case["declined"] = SearchverticalsModel::$declined > $declined_before;
    }
    $out[] = $case;
}
if ($mode === "yioop") {
    exec("rm -rf " . escapeshellarg($work));
}
echo json_encode(["cases" => $out], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
