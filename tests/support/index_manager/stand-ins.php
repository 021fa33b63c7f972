<?php
/**
 * Classes with the names of Yioop's, for running the native
 * discountedNumDocsTerm without Yioop: IndexManager is
 * ../index-manager-stand-in.php (run.php gives it, for each case, what
 * Yioop answered), IndexDictionary ../index-dictionary-stand-in.php.
 * Loaded in a PHP process of its own.
 */
namespace seekquarry\yioop\configs {
    const NUM_DISTINCT_GENERATIONS = "20"; // as the installer writes it
    const NUM_DOCS_PER_GENERATION = 40000;
    const NS_CONFIGS = "seekquarry\\yioop\\configs\\";

    function yioop_error_handler()
    {
        return true;
    }
}

namespace seekquarry\yioop\library {
    require_once __DIR__ . "/../index-dictionary-stand-in.php";
    require_once __DIR__ . "/../index-manager-stand-in.php";

    class IndexShard
    {
        const WORD_KEY_LEN = 20;
        const WORD_DATA_LEN = 12;
        const BLANK = "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF";
    }

    class IndexArchiveBundle
    {
        public $dir_name;
        public $generation_info;
        public $dictionary;
    }
}
