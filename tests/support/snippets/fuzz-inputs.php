<?php
/**
 * Fuzz-made getSnippets inputs, the same on every run (seeded mt_rand):
 * texts of search words in mixed case, their caseless partners (Kelvin
 * sign, long s), non-ASCII letters, dots and ".. " separators, with word
 * lists in random order so that a cache keyed on the last words is
 * exercised. Shared by tests/tools/record/record-snippets.php (which records
 * Yioop's results for them) and tests/search/SnippetsTest.php.
 */
function yioop_codec_snippet_fuzz_inputs(int $count): array
{
    mt_srand(2026);
    $vocabulary = ["git", "Git", "GIT", "commit", "commits", "committed", "s",
        "kit", "c++", "o'reilly", "a.b", "x", "the", "élan", "naïve",
        "\u{212A}it", "\u{017F}ee", "see", "_git_", "git_", "42", "日本", "—",
        ".", "..", "...", ".. ", "\n", "\t", " ", "  ", "-", "/", "'", "0"];
    $queries = [["git"], ["commit"], ["git", "commit"], ["git commit"], ["s"],
        ["kit"], ["see"], ["c++"], ["o'reilly"], ["a.b"], ["the", "x"],
        ["git", "git"], ["Git"], ["GIT", "commit"], ["42"], ["0"], [],
        ["élan"], ["..."], ["x 0"]];
    $inputs = [];
    for ($i = 0; $i < $count; $i++) {
        $text = "";
        for ($n = mt_rand(5, 400); $n > 0; $n--) {
            $text .= $vocabulary[mt_rand(0, count($vocabulary) - 1)]
                . (mt_rand(0, 3) ? " " : "");
        }
        $inputs[] = [$text, $queries[mt_rand(0, count($queries) - 1)],
            [150, 150, 40, 300, 0][mt_rand(0, 4)]];
    }
    return $inputs;
}
