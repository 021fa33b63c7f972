<?php
/**
 * The benchmarks' realistic postings, as Yioop's index holds them: 1-12
 * positions each, gaps 1-400, doc indexes across 0..2^27. Seeded, so every
 * process (the extension's, Yioop's) gets the same ones; the generator
 * stays seeded for what the caller draws next.
 */

const SEED = 20191121;

/** $count [doc_index, positions] pairs. */
function realisticPostings(int $count): array
{
    mt_srand(SEED);
    $postings = [];
    for ($i = 0; $i < $count; $i++) {
        $positions = [];
        $position = 0;
        for ($j = mt_rand(1, 12); $j > 0; $j--) {
            $position += mt_rand(1, 400);
            $positions[] = $position;
        }
        $postings[] = [mt_rand(0, (1 << 27) - 1), $positions];
    }
    return $postings;
}
