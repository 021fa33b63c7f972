<?php
namespace seekquarry\yioop\library;

/** The fields of Yioop's BloomFilterFile, under its name, for tests/text/NWordGramsTest.php. */
if (!class_exists(BloomFilterFile::class, false)) {
    class BloomFilterFile
    {
        public $num_keys;
        public $filter_size;
        public $filter;
    }
}
