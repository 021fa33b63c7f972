<?php
namespace YioopCodec\Tests;

/**
 * Stands in for Yioop's IndexShard: the fields the native functions read,
 * and with $header the fields getShardHeader() sets.
 */
final class RecordedShard
{
    public const HEADER = ["prefixes_len", "words_len", "word_docs_len", "docids_len", "generation",
        "num_docs_per_generation", "num_docs", "num_link_docs", "len_all_docs", "len_all_link_docs"];
    public $file_len = null;
    public $read_only_from_disk = true;
    public $fh = null;
    public $blocks = [];
    public $blocks_words = [];
    public $prefixes_len, $words_len, $word_docs_len, $docids_len, $generation,
        $num_docs_per_generation, $num_docs, $num_link_docs, $len_all_docs, $len_all_link_docs,
        $word_doc_offset, $doc_info_offset;

    public function __construct(public string $filename, bool $header)
    {
        if ($header) {
            $this->file_len = filesize($filename);
            $fields = array_values(unpack("N*", file_get_contents($filename, false, null, 0, 40)));
            foreach (self::HEADER as $i => $field) {
                $this->$field = $fields[$i];
            }
            $this->word_doc_offset = 40 + $this->prefixes_len + $this->words_len;
            $this->doc_info_offset = $this->file_len - $this->docids_len;
        }
    }
}
