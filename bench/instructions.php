<?php
/**
 * One workload for bench/instructions.sh to count under callgrind: the
 * realistic postings of php-bench.php (bench/postings.php), each function
 * called from a PHP loop as Yioop calls it. RUN names the workload ("" runs the set-up
 * only, which the script subtracts); YIOOP_DIR loads Yioop's Utility.php
 * instead of the extension's functions.
 */

namespace seekquarry\yioop\library;

const POSTINGS = 20000;

$yioop = getenv('YIOOP_DIR');
if ($yioop) {
    require_once "$yioop/src/library/CrawlConstants.php";
    require_once "$yioop/src/library/Utility.php";
}
require_once __DIR__ . '/postings.php';
$postings = \realisticPostings(POSTINGS);
$string = '';
foreach ($postings as [$doc_index, $positions]) {
    $string .= packPosting($doc_index, $positions);
}
// As many words as postings, so that every count is per call.
$words = array_values(unpack('N*', substr($string, 0, 4 * POSTINGS)));
$len = strlen($string);
$offset = 0;
$run = (string)getenv('RUN');
// The floor of unpackListModified9 needs its result lengths: set-up.
$lengths = str_starts_with($run, 'list') ? array_map(fn($w) => count(\unpackListModified9($w)), $words) : [];
switch ($run) {
    case 'packPosting':
        foreach ($postings as [$doc_index, $positions]) {
            packPosting($doc_index, $positions);
        }
        break;
    case 'unpackPosting':
        while ($offset < $len) {
            unpackPosting($string, $offset);
        }
        break;
    case 'unpackPostings':
        while ($offset < $len) {
            \unpackPostings($string, $offset, 100);
        }
        break;
    case 'floorPosting':
        while ($offset < $len) {
            \yioop_codec\floorPosting($string, $offset);
        }
        break;
    case 'floorPostings':
        while ($offset < $len) {
            \yioop_codec\floorPostings($string, $offset, 100);
        }
        break;
    case 'words':
        foreach ($words as $word) {
        }
        break;
    case 'unpackListModified9':
        foreach ($words as $word) {
            unpackListModified9($word);
        }
        break;
    case 'lists':
        foreach ($lengths as $length) {
        }
        break;
    case 'listsFloorList':
        foreach ($lengths as $length) {
            \yioop_codec\floorList($length);
        }
        break;
}
