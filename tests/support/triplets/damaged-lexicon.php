<?php
/**
 * Child process of tests/text/TripletsTest.php: LOCALE_DIR's lexicon.txt.gz
 * damaged as argv[1] says ("data": a byte of the deflate data changed,
 * "cut": the file cut short, "good": intact). Yioop's gzdecode of it warns
 * once a call; the native tagging must then decline without a warning of
 * its own. Prints, for two calls, whether each declined and the warnings
 * raised, as JSON.
 */
namespace YioopCodec\Tests;

require __DIR__ . '/../phrase/stand-ins.php';
require __DIR__ . '/recording.php';

$recorded = TripletsRecording::load();
$dir = sys_get_temp_dir() . '/yioop-damaged-lexicon-' . getmypid();
@mkdir("$dir/en_US/resources", 0777, true);
file_put_contents("$dir/en_US/resources/lexicon.txt.gz", TripletsRecording::lexiconFile($recorded, $argv[1]));
define('seekquarry\yioop\configs\LOCALE_DIR', $dir);
TripletsRecording::defineConstants($recorded, $recorded['threshold']);
TripletsRecording::setStatics($recorded);
$warnings = [];
set_error_handler(function (int $no, string $message) use (&$warnings) {
    $warnings[] = $message;
    return true;
});
$declined = [];
foreach (['the big dog quickly ate a bone', 'a cat sat on the mat'] as $text) {
    $declined[] = \yioop_codec\triplets_en\tagTokenizePartOfSpeech(
        \seekquarry\yioop\locale\en_US\resources\Tokenizer::class, $text) === null;
}
exec('rm -rf ' . escapeshellarg($dir));
echo json_encode(['declined' => $declined, 'warnings' => $warnings]), "\n";
