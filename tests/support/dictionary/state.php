<?php
/**
 * An IndexDictionary's read state as tests/index/DictionaryTest.php compares it
 * and tests/tools/record/record-dictionary.php records it: its open-file queue
 * (streams as "stream"), file lengths, blocks (as an md5) and read tier.
 */

namespace YioopCodec\Tests;

function dictionaryState(object $dictionary): array
{
    $fhs = $dictionary->fhs;
    array_walk_recursive($fhs, function (&$value) {
        if (is_resource($value)) {
            $value = "stream";
        }
    });
    return ["fhs" => $fhs, "file_lens" => $dictionary->file_lens,
        "blocks_md5" => md5(serialize($dictionary->blocks)), "read_tier" => $dictionary->read_tier];
}

/** IndexDictionary's properties, as its constructor leaves them. */
final class DictionaryStandIn
{
    public $fhs = ["QUEUE" => []];
    public $file_lens;
    public $blocks;
    public $read_tier;
    public $shard_doc_lens;

    public function __construct(public $dir_name, public $active_tiers, public $max_tier,
        public $parent_archive_bundle)
    {
        $this->read_tier = $max_tier;
    }
}
