<?php
/**
 * What tests/support/fidelity/run.php needs of Yioop to run a scenario through the
 * native functions, without a Yioop tree: an object with IndexShard's
 * properties as its constructor sets them (the native functions read and
 * write only those), and the configuration constants as Yioop defines
 * them from a Profile.php and its Config.php defaults. FidelityTest checks
 * the constants against the ones recorded from Yioop's own Config.php.
 */

namespace seekquarry\yioop\configs {
    /** Defines a constant in Yioop's configs namespace, as Yioop's own does. */
    function nsdefine($constant, $value)
    {
        define("seekquarry\\yioop\\configs\\" . $constant, $value);
    }
}

namespace YioopCodec\Fidelity {
    /**
     * IndexShard's properties (blocks_words, hash_name and the section
     * offsets are dynamic ones there, hence AllowDynamicProperties).
     */
    #[\AllowDynamicProperties]
    final class NativeShard
    {
        public $filename, $unsaved_operations, $save_frequency;
        public $doc_infos, $docids_len, $word_docs, $word_docs_len, $words, $words_len, $prefixes, $prefixes_len;
        public $generation, $num_docs_per_generation, $num_docs, $num_docs_word, $num_link_docs;
        public $len_all_docs, $len_all_link_docs, $fh, $blocks, $read_only_from_disk, $word_docs_packed;
        public $file_len, $last_flattened_words_count, $word_postings;

        public function __construct($fname, $generation, $num_docs_per_generation, $read_only_from_disk)
        {
            $this->filename = $fname;
            $this->unsaved_operations = 0;
            $this->save_frequency = -1;
            $this->hash_name = sha1($fname);
            $this->generation = $generation;
            $this->num_docs_per_generation = $num_docs_per_generation;
            $this->word_docs = "";
            $this->word_postings = "";
            $this->words_len = 0;
            $this->word_docs_len = 0;
            $this->last_flattened_words_count = 0;
            $this->words = [];
            $this->docids_len = 0;
            $this->doc_infos = "";
            $this->num_docs = 0;
            $this->num_link_docs = 0;
            $this->len_all_docs = 0;
            $this->len_all_link_docs = 0;
            $this->blocks = [];
            $this->fh = null;
            $this->read_only_from_disk = $read_only_from_disk;
            $this->word_docs_packed = false;
            $this->blocks_words = [];
        }

        /**
         * The auxiliary keys addDocumentWords asks of its shard: what
         * Yioop's method packs for no scores and no ranks (one key of zero
         * padding), the only input the scenarios give it.
         */
        public function packAuxiliaryDocumentKeys($description_scores = [], $user_ranks = [])
        {
            if ($description_scores !== [] || $user_ranks !== []) {
                throw new \LogicException("the scenarios add no scores or ranks");
            }
            return str_repeat("\0", 8);
        }
    }

    /** Yioop's defaults (Config.php) for what a Profile.php leaves out. */
    const CONFIG_DEFAULTS = ["PRECISION" => 10, "AVG_LINKS_PER_PAGE" => 24, "MAX_GENERATIONS" => 10000,
        "AD_HOC_TITLE_LENGTH" => 50, "NUM_DOCS_PER_GENERATION" => 40000];

    function bootNative(string $work, string $profile): void
    {
        require_once __DIR__ . "/../yioop-log-stand-ins.php"; // what the save steps log through
        file_put_contents("$work/Profile.php", $profile);
        require "$work/Profile.php";
        foreach (CONFIG_DEFAULTS as $name => $value) {
            if (!defined("seekquarry\\yioop\\configs\\$name")) {
                define("seekquarry\\yioop\\configs\\$name", $value);
            }
        }
    }
}
