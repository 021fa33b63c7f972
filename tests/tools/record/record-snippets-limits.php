<?php
/**
 * Records Yioop's Model::getSnippets (YIOOP_DIR, run WITHOUT the
 * extension) on the fuzz inputs of tests/support/snippets/fuzz-inputs.php
 * under pcre.backtrack_limit and pcre.recursion_limit strings that PHP
 * reads otherwise than as the number they spell: PHP hands PCRE the value
 * truncated to 32 bits, so "4294967316" is a limit of 20. For
 * tests/search/SnippetsTest.php (testLimitsAreReadAsPhpHandsThemToPcre).
 * PCRE counts its steps otherwise without its JIT, so with pcre.jit=0 the
 * results go to limits-nojit.json.gz.
 *
 *   YIOOP_DIR=... php tests/tools/record/record-snippets-limits.php
 *   YIOOP_DIR=... php -d pcre.jit=0 tests/tools/record/record-snippets-limits.php
 */
$yioop = getenv("YIOOP_DIR") ?: "/work/yioop-2021";
require_once "$yioop/src/library/CrawlConstants.php";
require_once "$yioop/src/models/Model.php";
require_once __DIR__ . "/../../support/snippets/fuzz-inputs.php";

if (extension_loaded("yioop")) {
    fwrite(STDERR, "run without the yioop extension\n");
    exit(2);
}
$model = (new ReflectionClass('seekquarry\yioop\models\Model'))
    ->newInstanceWithoutConstructor();
$out = ["count" => 400, "settings" => []];
// [backtrack_limit, recursion_limit]: 2^32 + 20 (PCRE sees 20); 2^33 + 50
// (PCRE sees 50); and the stock limits, for comparison.
foreach ([["4294967316", "3000"], ["1000000", "8589934642"], ["1000000", "3000"]]
    as [$backtrack, $recursion]) {
    ini_set("pcre.backtrack_limit", $backtrack);
    ini_set("pcre.recursion_limit", $recursion);
    $results = [];
    foreach (yioop_codec_snippet_fuzz_inputs($out["count"]) as [$text, $words, $length]) {
        $result = $model->getSnippets($text, $words, $length);
        $results[] = base64_encode(serialize($result));
    }
    $out["settings"][] = ["backtrack_limit" => $backtrack, "recursion_limit" => $recursion,
        "results" => $results];
}
$file = __DIR__ . "/../../fixtures/snippets/limits" . (ini_get("pcre.jit") ? "" : "-nojit")
    . ".json.gz";
file_put_contents($file, gzencode(json_encode($out), 9));
printf("%d settings x %d calls, %d bytes\n", count($out["settings"]), $out["count"], filesize($file));
