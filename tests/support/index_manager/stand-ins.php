<?php
/**
 * Classes with the names of Yioop's, for running the native
 * discountedNumDocsTerm without Yioop: IndexManager's method is its
 * guard's call of the native function, and where that declines it counts
 * the decline and gives what Yioop gave in that case (run.php sets it),
 * keeping it in the method's static cache as Yioop does any answer but
 * 0.0. IndexDictionary is ../index-dictionary-stand-in.php. Loaded in a
 * PHP process of its own.
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

    class IndexShard
    {
        const WORD_DATA_LEN = 12;
    }

    class IndexArchiveBundle
    {
        public $dir_name;
        public $generation_info;
        public $dictionary;
    }

    class IndexManager
    {
        public static $indexes = [];
        public static $index_times = [];
        /** What Yioop answered in the case being run, serialized. */
        public static $answer;
        public static $declined = 0;

        public static function getIndex($index_name)
        {
            return self::$indexes[trim($index_name)] ?? false;
        }

        public static function discountedNumDocsTerm($term, $index_name)
        {
            if (($result = \yioop_codec\index_manager\discountedNumDocsTerm(static::class, $term,
                $index_name)) !== null) {
                return $result;
            }
            static $num_docs_cache = [];
            self::$declined++;
            $answer = unserialize(self::$answer);
            if ($answer !== 0.0) {
                $num_docs_cache[$index_name][$term] = $answer;
            }
            return $answer;
        }
    }
}
