<?php
/**
 * Zipf(1.0) ranks over a vocabulary, drawn with mt_rand (seeded by the
 * caller, so that every PHP process draws the same sequence): the word
 * frequencies of the benchmark's and the live tests' synthetic corpora.
 */
namespace yioop_codec\bench;

final class Zipf
{
    /** @var float[] cumulative probability of ranks 1..n, at index rank - 1 */
    private array $cumulative = [];

    public function __construct(private int $vocabulary)
    {
        $sum = 0.0;
        for ($rank = 1; $rank <= $vocabulary; $rank++) {
            $sum += 1.0 / $rank;
            $this->cumulative[] = $sum;
        }
        foreach ($this->cumulative as $i => $c) {
            $this->cumulative[$i] = $c / $sum;
        }
    }

    /** The rank (1-based) of one draw: a binary search of the cumulative sums. */
    public function rank(): int
    {
        $u = mt_rand() / mt_getrandmax();
        [$low, $high] = [0, $this->vocabulary - 1];
        while ($low < $high) {
            $mid = ($low + $high) >> 1;
            if ($this->cumulative[$mid] < $u) {
                $low = $mid + 1;
            } else {
                $high = $mid;
            }
        }
        return $low + 1;
    }
}
