<?php
/**
 * For tests/text/SafeSearchTest.php, run under other PCRE settings: a URL
 * holding one of the regex's words after a long path, as preg_match and
 * as the stand-in method's score see it.
 */
namespace YioopCodec\Tests;

require __DIR__ . '/stand-ins.php';

$recorded = json_decode(gzdecode(file_get_contents(__DIR__ . '/../../fixtures/safe_search/recorded.json.gz')), true);
SafeSearchStandIn::$terms = $recorded['unsafe_terms'];
SafeSearchStandIn::$regex = $recorded['unsafe_url_regex'];
$none = [];
SafeSearchStandIn::computeSafeSearchScore($none, 0);
$url = 'https://example.org/' . str_repeat('n/', 200) . 'porn';
printf("preg_match %s, score %s\n", var_export(preg_match($recorded['unsafe_url_regex'], $url), true),
    var_export(SafeSearchStandIn::computeSafeSearchScore($none, 5, $url), true));
