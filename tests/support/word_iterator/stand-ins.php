<?php
/**
 * Classes with the names of Yioop's, for running the native
 * findDocsWithWord without Yioop. Each method the native code requires
 * switched is its guard's call of the native function: the slices
 * (IndexShard), getPage (IndexArchiveBundle), discountedNumDocsTerm
 * (IndexManager) and findDocsWithWord itself. Where the iterator's native
 * function declines, the method counts it and returns "declined"; where the
 * discount's declines, it gives what Yioop gave for that term (run.php sets
 * the recorded answers) and keeps it in its static cache, as Yioop keeps
 * any answer but 0.0. Yioop's configuration constants are defined from the
 * recording (run.php). Loaded in a PHP process of its own.
 */
namespace seekquarry\yioop\library {
    require_once __DIR__ . "/../index-dictionary-stand-in.php";

    /** The fields the native slice reads, the header read as getShardHeader() reads it. */
    class IndexShard
    {
        const HEADER = ["prefixes_len", "words_len", "word_docs_len", "docids_len", "generation",
            "num_docs_per_generation", "num_docs", "num_link_docs", "len_all_docs", "len_all_link_docs"];
        public $file_len;
        public $read_only_from_disk;
        public $fh = null;
        public $blocks = [];
        public $blocks_words = [];
        public $prefixes_len, $words_len, $word_docs_len, $docids_len, $generation,
            $num_docs_per_generation, $num_docs, $num_link_docs, $len_all_docs, $len_all_link_docs,
            $word_doc_offset, $doc_info_offset;

        public function __construct(public $filename, $generation = 0, $num_docs_per_generation = 0,
            $read_only_from_disk = false)
        {
            $this->read_only_from_disk = $read_only_from_disk;
        }

        public function getShardHeader()
        {
            $this->file_len = filesize($this->filename);
            $fields = array_values(unpack("N*", file_get_contents($this->filename, false, null, 0, 40)));
            foreach (self::HEADER as $i => $field) {
                $this->$field = $fields[$i];
            }
            $this->word_doc_offset = 40 + $this->prefixes_len + $this->words_len;
            $this->doc_info_offset = $this->file_len - $this->docids_len;
        }

        public function postingsSliceAscending($start_offset, &$next_offset, $last_offset, $len)
        {
            return \yioop_codec\shard\postingsSliceAscending($this, $start_offset, $next_offset,
                $last_offset, $len);
        }

        public function postingsSliceDescending($start_offset, &$next_offset, $last_offset, $len)
        {
            return \yioop_codec\shard\postingsSliceDescending($this, $start_offset, $next_offset,
                $last_offset, $len);
        }
    }

    class IndexArchiveBundle
    {
        public $dir_name;
        public $generation_info;
        public $dictionary;
        public $current_shard;

        public function getPage($offset, $generation = -1)
        {
            return \yioop_codec\index_bundle\getPage($this, $offset, $generation);
        }
    }

    class IndexManager
    {
        public static $indexes = [];
        public static $index_times = [];
        /** Yioop's answers: term => serialized answer. */
        public static $answers = [];
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
            if (!isset(self::$answers[$term])) {
                throw new \RuntimeException("no recorded answer for $term");
            }
            $answer = unserialize(self::$answers[$term]);
            if ($answer !== 0.0) {
                $num_docs_cache[$index_name][$term] = $answer;
            }
            return $answer;
        }
    }
}

namespace seekquarry\yioop\library\index_bundle_iterators {
    /** WordIterator's and IndexBundleIterator's fields, and the switched method. */
    class WordIterator
    {
        public $word_key, $base64_word_key, $is_meta, $index_name, $start_generation,
            $no_more_generations, $next_offset, $dictionary_info, $num_generations,
            $generation_pointer, $current_generation, $current_offset, $start_offset,
            $last_offset, $empty, $filter, $current_doc_offset, $num_docs, $seen_docs,
            $count_block, $pages, $current_block_fresh, $results_per_block, $direction;
        public static $declined = 0;

        public function findDocsWithWord()
        {
            if (\extension_loaded("yioop") && static::class === self::class
                && ($result = \yioop_codec\word_iterator\findDocsWithWord($this)) !== null) {
                return $result;
            }
            self::$declined++;
            return "declined";
        }
    }
}
