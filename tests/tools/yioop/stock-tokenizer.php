<?php
/**
 * Which en_US Tokenizer a Yioop tree loads, and whether the native passes
 * that need its stem switched run on it:
 *
 *   php -d extension=... tests/tools/yioop/stock-tokenizer.php TREE
 *
 * Prints JSON: "file", the file the Tokenizer class came from (Yioop's
 * loader takes the work directory's app/locale copy before src/locale);
 * "switched", whether that file carries yioop-integrate's lines; "native",
 * what yioop_codec\phrase\stemCharGramSegment returns when called as
 * PhraseParser's switched method calls it (null: it declined, as it does
 * unless the loaded Tokenizer's stem is switched); "php", what Yioop's
 * PhraseParser::stemCharGramSegment returns. stock-install.php requires
 * the native result, and that it is Yioop's.
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\PhraseParser;

const TEXT = "Running jumps, the runner's cats ran; organizations generalized";

chdir($argv[1]);
require "$argv[1]/src/configs/Config.php";
set_error_handler(fn() => true); // Yioop's handler prints PHP 8.2 deprecations
$tokenizer = PhraseParser::getTokenizer("en-US");
$file = is_object($tokenizer) ? (new \ReflectionClass($tokenizer))->getFileName() : null;
echo json_encode([
    "file" => $file,
    "switched" => $file !== null && str_contains(file_get_contents($file), "yioop-codec:method"),
    "native" => function_exists('yioop_codec\phrase\stemCharGramSegment')
        ? \yioop_codec\phrase\stemCharGramSegment(PhraseParser::class, TEXT, "en-US", true)
        : null,
    "php" => PhraseParser::stemCharGramSegment(TEXT, "en-US", true),
]), "\n";
