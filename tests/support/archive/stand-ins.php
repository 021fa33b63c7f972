<?php
/**
 * Stand-ins for the Yioop classes the native getObjects looks at, for
 * tests/index/SummariesTest.php without a Yioop tree: a compressor of the class
 * name Yioop's GzipCompressor has (the native reads reproduce its methods,
 * and only its class name is checked), and an archive object with the
 * properties WebArchive keeps.
 */
namespace seekquarry\yioop\library\compressors;

if (!class_exists(GzipCompressor::class, false)) {
    class GzipCompressor
    {
    }
}

namespace YioopCodec\Tests;

/** The properties of a WebArchive the native getObjects reads and sets. */
class ArchiveStandIn
{
    public $filename;
    public $iterator_pos = 7;
    public $compressor;
    public $count;
    public $version;
    public $is_string = false;
    public $storage;

    public function __construct(string $filename, ?object $compressor = null)
    {
        $this->filename = $filename;
        $this->compressor = $compressor
            ?? new \seekquarry\yioop\library\compressors\GzipCompressor();
    }
}
