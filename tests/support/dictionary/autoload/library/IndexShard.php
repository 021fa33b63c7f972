<?php
/**
 * Stand-in for Yioop's IndexShard.php where IndexDictionary's getWordInfo and mergeTierFiles are
 * concerned: naming IndexShard autoloads this file, which (as Yioop's does)
 * includes Utility.php first.
 */
namespace seekquarry\yioop\library;

require_once __DIR__ . "/Utility.php";

class IndexShard
{
    const WORD_KEY_LEN = 20;
    const WORD_DATA_LEN = 12;
    const BLANK = "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF";
}
