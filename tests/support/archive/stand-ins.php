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

namespace seekquarry\yioop\library;

// The summary fields the queue server's records are made of, as Yioop's
// CrawlConstants names them (the native read-ahead of an upload's records
// reads them, and the shard build's phrase lists made ahead).
if (!interface_exists(CrawlConstants::class, false)) {
    interface CrawlConstants
    {
        const TYPE = 'e';
        const URL = 'l';
        const HASH_URL = 'T';
        const SUMMARY_OFFSET = 'U';
        const IS_DOC = 'at';
        const TITLE = 's';
        const DESCRIPTION = 't';
        const LANG = 'bg';
        const JUST_METAS = 'aw';
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

/**
 * An archive object whose file steps the native addObjects calls through
 * PHP, as WebArchive's own: the info block's length sits in the file's last
 * 20 bytes (an empty gzip member holding it big-endian where the
 * modification time goes); the block before it is gzencode(serialize(
 * [version, count, data]), 9).
 */
class ArchiveWriterStandIn extends ArchiveStandIn
{
    public $version = 1.0;
    public array $calls = [];

    public function seekEndObjects($fh)
    {
        $this->calls[] = "seekEndObjects";
        fseek($fh, -20, SEEK_END);
        $block_len = unpack("N", substr(fread($fh, 20), 4, 4))[1];
        fseek($fh, -$block_len, SEEK_END);
        return $block_len - 20;
    }

    public function writeInfoBlock($fh = null, &$data = null)
    {
        $this->calls[] = "writeInfoBlock";
        $info = ["version" => 1.0, "count" => $this->count];
        if ($data != null) {
            $info["data"] = $data;
        }
        $block = gzencode(serialize($info), 9);
        $len = strlen($block) + 20;
        ftruncate($fh, ftell($fh));
        $out = $block . "\x1f\x8b\x08\x00" . pack("N", $len) . "\x00\x03\x03"
            . str_repeat("\0", 9);
        fwrite($fh, $out, $len);
    }
}
