<?php
/**
 * Child process of tests/text/TripletsTest.php: PHRASE_THRESHOLD defined as the
 * string argv[1], as Yioop's installer writes constants; prints the first
 * 20 recorded calls' native results as JSON.
 */
namespace YioopCodec\Tests;

require __DIR__ . '/../phrase/stand-ins.php';
require __DIR__ . '/recording.php';

$recorded = TripletsRecording::load();
TripletsRecording::defineConstants($recorded, (string)$argv[1]);
TripletsRecording::setStatics($recorded);
$results = [];
foreach (array_slice($recorded['calls'], 0, 20) as [$sentences]) {
    $results[] = \yioop_codec\triplets_en\extractTripletsPhrases(
        \seekquarry\yioop\locale\en_US\resources\Tokenizer::class, TripletsRecording::sentences($sentences));
}
echo json_encode($results), "\n";
