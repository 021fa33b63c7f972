<?php
/**
 * A seeded synthetic corpus for the end-to-end benchmark: Zipf(1.0) words
 * over a fixed vocabulary, documents of 100-1,000 words with meta words and
 * description scores, and a few link items per document. The same seed gives
 * the same corpus in every PHP process (mt_rand is seeded explicitly).
 */
namespace yioop_codec\bench;

require_once __DIR__ . "/zipf.php";

final class Corpus
{
    public const VOCABULARY = 50000;
    private Zipf $zipf;

    public function __construct(private int $seed)
    {
        $this->zipf = new Zipf(self::VOCABULARY);
    }

    public static function word(int $rank): string
    {
        return "w$rank";
    }


    private static function key(string $what): string
    {
        return substr(md5($what, true), 0, 8);
    }

    /**
     * Yields, per item, the arguments of IndexShard::addDocumentWords:
     * [doc_keys, summary_offset, word_lists, meta_ids, is_doc,
     * description_scores]. Documents come with 0-3 link items pointing at
     * earlier documents.
     */
    public function items(int $num_docs): \Generator
    {
        mt_srand($this->seed);
        $summary_offset = 0;
        for ($d = 0; $d < $num_docs; $d++) {
            $url = "https://host" . mt_rand(0, 999) . ".example/page$d";
            $hash_url = self::key($url);
            $words = [];
            $length = mt_rand(100, 1000);
            for ($position = 0; $position < $length; $position++) {
                $words[self::word($this->zipf->rank())][] = $position;
            }
            $meta = ["info:" . rtrim(strtr(base64_encode($hash_url), "+/", "-_"), "="),
                "site:" . parse_url($url, PHP_URL_HOST), "media:text", "lang:en"];
            for ($m = 0; $m < 16; $m++) {
                $meta[] = "meta" . mt_rand(0, 200) . ":" . mt_rand(0, 20);
            }
            $scores = [];
            for ($s = 0, $at = 0; $s < mt_rand(0, 6); $s++) {
                $scores[$at] = mt_rand(1, 100) / 100;
                $at += mt_rand(10, 80);
            }
            yield [$hash_url . self::key("doc$d") . self::key(parse_url($url, PHP_URL_HOST)),
                $summary_offset, $words, array_unique($meta), true, $scores];
            $summary_offset += mt_rand(500, 5000);
            for ($l = mt_rand(0, 3); $l > 0 && $d > 0; $l--) {
                $target = "https://host" . mt_rand(0, 999) . ".example/page" . mt_rand(0, $d - 1);
                $anchor = [];
                for ($position = 0, $n = mt_rand(1, 6); $position < $n; $position++) {
                    $anchor[self::word($this->zipf->rank())][] = $position;
                }
                yield [self::key("link$d-$l") . self::key($target) . self::key("info:$target"),
                    $summary_offset, $anchor, ["link:" . $target], false, []];
            }
        }
    }

    /**
     * Query terms: ranks spread log-uniformly from the commonest word to
     * rare ones, so that long and short posting lists both appear.
     */
    public function queries(int $count, int $min_words, int $max_words, int $max_rank): array
    {
        mt_srand($this->seed * 7919 + $count + 31 * $max_words);
        $queries = [];
        for ($q = 0; $q < $count; $q++) {
            $terms = [];
            for ($n = mt_rand($min_words, $max_words); count($terms) < $n;) {
                $rank = (int)round(exp(mt_rand() / mt_getrandmax() * log($max_rank)));
                $terms[self::word(max(1, $rank))] = true;
            }
            $queries[] = array_keys($terms);
        }
        return $queries;
    }
}
