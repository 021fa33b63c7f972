<?php
/**
 * Classes with the names of Yioop's, for running the native
 * nonNetworkGetCrawlItems without Yioop: each switched method is a guard's
 * call of its native function (so the native code's run-time check that
 * they are switched passes), and IndexManager::getIndex hands out the
 * indexes a test puts in $indexes. Loaded in a PHP process of its own.
 */
namespace seekquarry\yioop\configs {
    const MAX_ARCHIVE_OBJECT_SIZE = 100000000;
}

namespace seekquarry\yioop\library\compressors {
    class GzipCompressor
    {
    }
}

namespace seekquarry\yioop\library {
    class WebArchive
    {
        public $filename;
        public $iterator_pos = 0;
        public $compressor;
        public $is_string = false;
        public $count;
        public $storage;
        public $version;

        public function __construct($fname, $compressor, $fast_construct = false)
        {
            $this->filename = $fname;
            $this->compressor = $compressor;
        }

        public function getObjects($offset, $num, $next_flag = true, $fh = null,
            $max_size = \seekquarry\yioop\configs\MAX_ARCHIVE_OBJECT_SIZE)
        {
            return \yioop_codec\archive\getObjects($this, $offset, $num, $next_flag, $fh, $max_size);
        }
    }

    class WebArchiveBundle
    {
        public $partition = [];
        public $compressor;

        public function getPage($offset, $partition)
        {
            return \yioop_codec\archive\getPage($this, $offset, $partition);
        }
    }

    class IndexArchiveBundle
    {
        public $summaries;
        public $generation_info = [];

        public function getPage($offset, $generation = -1)
        {
            return \yioop_codec\index_bundle\getPage($this, $offset, $generation);
        }
    }

    class IndexManager
    {
        public static $indexes = [];

        public static function getIndex($index_name)
        {
            return self::$indexes[trim($index_name)] ?? false;
        }
    }
}

namespace seekquarry\yioop\models {
    class ParallelModel
    {
        const MIN_DESCRIPTION_LENGTH = 100;

        public function nonNetworkGetCrawlItems($lookups, $exclude_fields = [],
            $format_words = null, $description_length = 2000)
        {
            return \yioop_codec\crawl_items\nonNetworkGetCrawlItems($this, $lookups,
                $exclude_fields, $format_words, $description_length);
        }
    }
}
