<?php
/**
 * For tests/text/SafeSearchTest.php, run under other PCRE settings: a URL
 * holding one of the regex's words after a long path, as preg_match and
 * as the stand-in method's score see it.
 */
namespace YioopCodec\Tests;

require __DIR__ . '/stand-ins.php';

$recorded = primedRecording();
$none = [];
$url = 'https://example.org/' . str_repeat('n/', 200) . 'porn';
printf("preg_match %s, score %s\n", var_export(preg_match($recorded['unsafe_url_regex'], $url), true),
    var_export(SafeSearchStandIn::computeSafeSearchScore($none, 5, $url), true));
