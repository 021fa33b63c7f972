<?php
/**
 * Classes with the names of Yioop's, for running the native
 * discountedNumDocsTerm without Yioop: IndexManager's method is its
 * guard's call of the native function, and where that declines it counts
 * the decline and gives what Yioop gave in that case (run.php sets it),
 * keeping it in the method's static cache as Yioop does any answer but
 * 0.0. IndexDictionary's getWordInfo is the native look-up (the native
 * function requires it switched). Loaded in a PHP process of its own.
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
    class IndexShard
    {
        const WORD_DATA_LEN = 12;
    }

    class IndexDictionary
    {
        public $fhs = ["QUEUE" => []];
        public $file_lens;
        public $blocks;
        public $read_tier;
        public $active_tiers;
        public $max_tier;

        public function __construct(public $dir_name, public $parent_archive_bundle = null)
        {
            $this->max_tier = unserialize(file_get_contents("$dir_name/max_tier.txt"));
            $this->active_tiers = array_map("strval", range($this->max_tier, 1));
            $this->read_tier = $this->max_tier;
        }

        public function getWordInfo($word_id, $raw = false, $threshold = -1, $start_generation = -1,
            $num_distinct_generations = -1, $with_remaining_total = false)
        {
            return \yioop_codec\dictionary\getWordInfo($this, $word_id, $raw, $threshold,
                $start_generation, $num_distinct_generations, $with_remaining_total);
        }
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
