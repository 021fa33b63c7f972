<?php
/**
 * Classes with the names of Yioop's, for running the native
 * findDocsWithWord without Yioop. Each method the native code requires
 * switched is its guard's call of the native function: the slices
 * (IndexShard), getPage (IndexArchiveBundle), discountedNumDocsTerm
 * (IndexManager, ../index-manager-stand-in.php, given Yioop's recorded
 * answers by run.php) and findDocsWithWord itself. Where the iterator's
 * native function declines, the method counts it and returns "declined".
 * Yioop's configuration constants are defined from the recording
 * (run.php). Loaded in a PHP process of its own.
 */
namespace seekquarry\yioop\library {
    require_once __DIR__ . "/../index-dictionary-stand-in.php";
    require_once __DIR__ . "/../index-manager-stand-in.php";
    require_once __DIR__ . "/../RecordedShard.php";

    /** The fields the native slice reads; the header's as the shard tests' RecordedShard reads them. */
    class IndexShard
    {
        const WORD_KEY_LEN = 20;
        const WORD_DATA_LEN = 12;
        const BLANK = "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF";
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
            $header = new \YioopCodec\Tests\RecordedShard($this->filename, true);
            foreach ([...\YioopCodec\Tests\RecordedShard::HEADER, "file_len", "word_doc_offset",
                "doc_info_offset"] as $field) {
                $this->$field = $header->$field;
            }
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
