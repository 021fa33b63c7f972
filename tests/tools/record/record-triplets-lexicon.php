<?php
/**
 * Records how Yioop's own en_US Tokenizer::tagTokenizePartOfSpeech (run
 * WITHOUT the extension) warns with a damaged lexicon.txt.gz in the work
 * directory (TripletsRecording::lexiconFile: "data", "cut", and "good"),
 * for tests/text/TripletsTest.php
 * (testADamagedLexiconDeclinesWithoutAWarningOfItsOwn): the warnings of
 * each of two calls in a fresh process.
 *
 *   php tests/tools/record/record-triplets-lexicon.php YIOOP_DIR tests/fixtures/triplets/lexicon.json
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\locale\en_US\resources\Tokenizer;

[, $yioop, $out, $damage] = $argv + [null, null, null, null];
if (!$yioop || !$out || extension_loaded("yioop")) {
    fwrite(STDERR, "usage: php record-triplets-lexicon.php YIOOP_DIR OUT, without the yioop extension\n");
    exit(2);
}
$root = dirname(__DIR__, 3);
if ($damage === null) { // the parent: a fresh process a damage
    $recorded = [];
    foreach (["data", "cut", "good"] as $damage) {
        $recorded[$damage] = json_decode(shell_exec(implode(" ", array_map("escapeshellarg",
            [PHP_BINARY, __FILE__, $yioop, $out, $damage]))), true);
    }
    file_put_contents($out, json_encode($recorded) . "\n");
    echo json_encode($recorded), "\n";
    exit(0);
}
require "$root/bench/e2e/yioop-boot.php";
require "$root/tests/support/triplets/recording.php";
$work = sys_get_temp_dir() . "/yioop-record-lexicon-" . getmypid();
@mkdir("$work/app/locale/en_US/resources", 0777, true);
$recording = \YioopCodec\Tests\TripletsRecording::load();
foreach (glob("$yioop/src/locale/en_US/resources/*") as $file) {
    copy($file, "$work/app/locale/en_US/resources/" . basename($file));
}
file_put_contents("$work/app/locale/en_US/resources/lexicon.txt.gz",
    \YioopCodec\Tests\TripletsRecording::lexiconFile($recording, $damage));
bootYioop("$yioop/src", $work);
$calls = [];
foreach (['the big dog quickly ate a bone', 'a cat sat on the mat'] as $text) {
    $warnings = [];
    set_error_handler(function (int $no, string $message) use (&$warnings) {
        $warnings[] = $message;
        return true;
    });
    Tokenizer::tagTokenizePartOfSpeech($text);
    restore_error_handler();
    $calls[] = $warnings;
}
exec("rm -rf " . escapeshellarg($work));
echo json_encode(["locale_dir" => LOCALE_DIR === "$work/app/locale", "warnings" => $calls]);
