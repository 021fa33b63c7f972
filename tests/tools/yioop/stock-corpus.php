<?php
/**
 * Seeded web pages for tests/tools/yioop/stock-install.php: titles, descriptions,
 * URLs on a few dozen hosts and links between pages, in made-up words with
 * Zipf frequencies, so that queries can ask for a common, a middling or a
 * rare word by its rank (StockCorpus::word). Plain data only: turning a page
 * into what Yioop stores is stock-index.php's job.
 */
namespace yioop_codec\live;

use yioop_codec\bench\Zipf;

require_once __DIR__ . "/../../../bench/e2e/zipf.php";

final class StockCorpus
{
    public const VOCABULARY = 6000;
    /** Planted in some descriptions so that a quoted phrase has matches. */
    public const PHRASE = "open source search engine";
    private const CONSONANTS = "bdfgklmnprstvz";
    private const VOWELS = "aeiou";
    private Zipf $zipf;

    public function __construct(private int $seed)
    {
        $this->zipf = new Zipf(self::VOCABULARY);
    }

    /** The word of frequency rank $rank (1 = commonest): two or more syllables. */
    public static function word(int $rank): string
    {
        $syllables = strlen(self::CONSONANTS) * strlen(self::VOWELS);
        $word = "";
        for ($n = $rank - 1 + $syllables; $n > 0; $n = intdiv($n, $syllables)) {
            $s = $n % $syllables;
            $word = self::CONSONANTS[intdiv($s, 5)] . self::VOWELS[$s % 5] . $word;
        }
        return $word;
    }

    /** Expands "#N" in a query to the word of rank N. */
    public static function expand(string $query): string
    {
        return preg_replace_callback('/#(\d+)/', fn($m) => self::word((int)$m[1]), $query);
    }

    public static function url(int $doc): string
    {
        return "https://site" . ($doc % 37) . ".example.com/page/" . self::word($doc % 500 + 1)
            . "-$doc.html";
    }

    /**
     * Yields one page per document: url, title, description, description
     * scores (position => weight, as a fetcher's summarizer gives), links
     * (url => anchor text, to earlier pages).
     */
    public function pages(int $count): \Generator
    {
        mt_srand($this->seed);
        for ($doc = 0; $doc < $count; $doc++) {
            $sentences = [];
            for ($s = mt_rand(3, 14); $s > 0; $s--) {
                $sentences[] = ucfirst($this->words(mt_rand(5, 18))) . ".";
            }
            if (mt_rand(1, 12) == 1) {
                $sentences[mt_rand(0, count($sentences) - 1)] .= " An " . self::PHRASE . ".";
            }
            $scores = [];
            for ($at = 0, $n = mt_rand(0, 5); $n > 0; $n--, $at += mt_rand(8, 60)) {
                $scores[$at] = mt_rand(5, 100) / 100;
            }
            $links = [];
            for ($n = ($doc > 0 ? mt_rand(0, 3) : 0); $n > 0; $n--) {
                $links[self::url(mt_rand(0, $doc - 1))] = $this->words(mt_rand(1, 4));
            }
            yield ["url" => self::url($doc), "title" => ucwords($this->words(mt_rand(2, 7))),
                "description" => implode(" ", $sentences), "scores" => $scores,
                "links" => $links];
        }
    }

    private function words(int $count): string
    {
        $words = [];
        while ($count-- > 0) {
            $words[] = self::word($this->zipf->rank());
        }
        return implode(" ", $words);
    }

}
