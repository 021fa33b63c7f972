<?php
/**
 * A class with the name of Yioop's IndexDictionary, for the stand-ins of
 * the bindings that look words up through it: its getWordInfo is the
 * native look-up, as on a switched tree (where the native code requires
 * it switched), over a dictionary Yioop wrote.
 */
namespace seekquarry\yioop\library;

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
