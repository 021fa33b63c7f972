<?php
/**
 * Records Yioop's own en_US Tokenizer::canonicalizePunctuatedTerms (run
 * WITHOUT the extension) under several pcre.backtrack_limit settings, JIT
 * on and off, on texts long enough for PCRE to give up (its one
 * preg_replace then leaves NULL), for tests/text/CanonicalTest.php
 * (testPcreLimitsAsYioopsPregReplaceMeetsThem).
 *
 *   php tests/tools/record/record-canonical-limits.php YIOOP_DIR OUT
 */
namespace seekquarry\yioop\configs;

require_once dirname(__DIR__, 3) . "/bench/e2e/yioop-boot.php";
use seekquarry\yioop\locale\en_US\resources\Tokenizer;

[, $yioop, $out] = $argv;
if (extension_loaded("yioop")) {
    fwrite(STDERR, "run without the yioop extension\n");
    exit(2);
}
$work = sys_get_temp_dir() . "/record-canonical-limits-" . getmypid();
mkdir($work);
bootYioop("$yioop/src", $work);
$texts = [
    str_repeat("a", 2000) . " don't", str_repeat("b", 20000) . " can't", "x" . str_repeat("ab ", 3000) . "we'll",
    str_repeat("word ", 400) . "it's he's", str_repeat("é", 3000) . " I'd", "I don't know, he can't",
    str_repeat("a", 1000001), str_repeat("a", 1000001) . " ma'am", str_repeat("a", 300000) . "'d",
];
$tokenizer = new Tokenizer();
$recorded = [];
foreach (["1", "0"] as $jit) {
    ini_set("pcre.jit", $jit);
    foreach (["1000", "10000", "100000", "1000000"] as $limit) {
        ini_set("pcre.backtrack_limit", $limit);
        foreach ($texts as $i => $text) {
            $canonical = $text;
            $tokenizer->canonicalizePunctuatedTerms($canonical);
            $recorded[] = [$jit, $limit, $i, $canonical === null ? null : md5($canonical)];
        }
    }
}
exec("rm -rf " . escapeshellarg($work));
file_put_contents($out, gzencode(serialize(["texts" => $texts, "calls" => $recorded])));
printf("%d calls, %d null\n", count($recorded), count(array_filter($recorded, fn($r) => $r[3] === null)));
