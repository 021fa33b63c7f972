<?php
/**
 * Records what Yioop's Model::formatSinglePageResult gets and returns
 * during QueryTool searches, one base64(serialize([[page, words,
 * description_length], result])) line a call, for replay.php.
 *
 *   php bench/snippets/record.php TREE LOG [query ...]
 *
 * TREE is a COPY of an installed Yioop tree (e.g. of
 * /work/crawl-data/full/install, its Config.php pointing at a copy of the
 * work directory): this adds two logging lines to its src/models/Model.php.
 * Run it without the yioop extension (PHP_INI_SCAN_DIR without the ini).
 */
const QUERIES = ["python", "git commit", "the", "function", "return", "data",
    "value", "type", "string", "list", "file", "table", "widget", "django",
    "postgres", "commit", "rebase", "vacuum", "tabnanny", "syslog",
    "python string format", "gtk widget", "create table", "select from where",
    "signal handler", "unicode", "regex", "merge conflict", "index", "query",
    "http request", "git log", "template", "0", "10", "1e1", "c++", "o'reilly",
    "foo-bar", "ünïcode", "python -django", "python OR django"];

[$tree, $log] = [$argv[1] ?? "", $argv[2] ?? ""];
$queries = array_slice($argv, 3) ?: QUERIES;
$model = "$tree/src/models/Model.php";
if (!is_file($model) || $log === "") {
    fwrite(STDERR, "usage: php record.php TREE LOG [query ...]\n");
    exit(2);
}
instrument($model);
@unlink($log);
foreach ($queries as $query) {
    $cmd = [PHP_BINARY, "src/executables/QueryTool.php", $query, "10", "0"];
    $proc = proc_open($cmd, [1 => ["file", "/dev/null", "w"],
        2 => ["file", "/dev/null", "w"]], $pipes, $tree, ["SNIP_LOG" => $log] + getenv());
    proc_close($proc);
}
echo count(file($log)), " calls recorded in $log\n";

/** Logs the arguments on entry and the result before the return (once). */
function instrument(string $model): void
{
    $src = file_get_contents($model);
    if (str_contains($src, "SNIP_LOG")) {
        return;
    }
    $entry = '/(public function formatSinglePageResult\([^{]*\{)/';
    $src = preg_replace($entry, "$1\n        \$snip_in = func_get_args() + [1 => null, 2 => self::DEFAULT_DESCRIPTION_LENGTH];", $src, 1, $n1);
    // the method's only return: "return $page;" after its last assignment
    $at = strpos($src, "return \$page;", strpos($src, "function formatSinglePageResult"));
    $n2 = $at === false ? 0 : 1;
    if ($n1 != 1 || $n2 != 1) {
        fwrite(STDERR, "$model: formatSinglePageResult not as expected\n");
        exit(1);
    }
    $log = "file_put_contents(getenv('SNIP_LOG'), base64_encode(serialize("
        . "[\$snip_in, \$page])) . \"\\n\", FILE_APPEND);\n        ";
    file_put_contents($model, substr_replace($src, $log, $at, 0));
}
