<?php
/**
 * Replays record.php's log through Yioop's own Model (YIOOP_DIR, no
 * extension), in the recorded order (getSnippets keeps static state).
 *
 *   YIOOP_DIR=... php bench/snippets/replay.php LOG MODE
 *
 * MODE check: every result must equal the recording (exit 1 otherwise);
 * load: only reads the log (the baseline for instruction counts);
 * format: formatSinglePageResult over the log once;
 * scan: getSnippets' preg_match_all on each long text source, as Yioop
 *   builds it, and nothing else (callgrind: the PCRE part alone);
 * skip: the same matches found by starting PCRE 20 characters before the
 *   next ASCII-caseless occurrence of a word (ASCII words only; what a
 *   native getSnippets could save), and nothing else;
 * verify: scan and skip, each source's matches required equal (exit 1);
 * snippets: Model::getSnippets on each recorded description;
 * lazy: getSnippets' algorithm with matches found as in skip, only as many
 *   as its loop takes before the snippet is full, required equal to
 *   Model::getSnippets (NO_CHECK=1: not compared, for instruction counts
 *   against "snippets"; NO_SKIP=1: lazy only, PCRE from the last match);
 * fuzz (LOG = a count): lazy against Model::getSnippets on random texts
 *   made of the search words in mixed case, their caseless partners,
 *   non-ASCII letters, punctuation and ".. " separators.
 */
$yioop = getenv("YIOOP_DIR") ?: "/work/yioop-2021";
require_once "$yioop/src/library/CrawlConstants.php";
require_once "$yioop/src/models/Model.php";
const DESCRIPTION = seekquarry\yioop\library\CrawlConstants::DESCRIPTION;
const FEED = seekquarry\yioop\library\CrawlConstants::IS_FEED;
[$log, $mode] = [$argv[1], $argv[2] ?? "check"];
if ($mode == "fuzz") {
    exit(fuzz((int)$log));
}
$records = array_map(fn($line) => unserialize(base64_decode($line)), file($log));
if ($mode == "load") {
    exit(0);
}
if ($mode == "check" || $mode == "format") {
    $model = (new ReflectionClass('seekquarry\yioop\models\Model'))
        ->newInstanceWithoutConstructor();
    $differ = 0;
    foreach ($records as [[$page, $words, $length], $result]) {
        $differ += $model->formatSinglePageResult($page, $words, $length) !== $result;
    }
    printf("%d calls, %d differ\n", count($records), $differ);
    exit($mode == "check" && $differ > 0 ? 1 : 0);
}
if ($mode == "snippets" || $mode == "lazy") {
    exit(compareSnippets($records, $mode == "lazy"));
}
$stats = ["sources" => 0, "bytes" => 0, "matches" => 0, "different" => 0,
    "declined" => 0, "pcre_calls" => 0];
foreach ($records as [[$page, $words, $length]]) {
    foreach (longSources($page, $words, $length) as [$source, $regex, $search]) {
        $stats["sources"]++;
        $stats["bytes"] += strlen($source);
        if ($mode != "skip") {
            preg_match_all($regex, $source, $all);
            $stats["matches"] += count($all[0]);
        }
        if ($mode == "skip") {
            $stats["matches"] += count(skipAhead($regex, $source, $search,
                $stats["pcre_calls"]) ?? []);
        } elseif ($mode == "verify") {
            $skipped = skipAhead($regex, $source, $search, $stats["pcre_calls"]);
            if ($skipped === null) {
                $stats["declined"]++;
            } elseif ($skipped !== $all[0]) {
                $stats["different"]++;
            }
        }
    }
}
echo json_encode($stats), "\n";
exit($stats["different"] > 0 ? 1 : 0);

/**
 * The text sources getSnippets gives preg_match_all, with its regex and
 * its search words (the description as formatSinglePageResult cleans it).
 */
function longSources(array $page, $words, $length): array
{
    $text = strip_tags(preg_replace("/\<\s+([a-zA-Z])/", '<$1', $page[DESCRIPTION] ?? ""));
    if (empty($words) || mb_strlen($text) < $length || isset($page[FEED])) {
        return [];
    }
    $search = array_filter(array_unique(explode(" ", implode(" ", $words))));
    $alternatives = array_map(fn($w) => "\\b" . preg_quote($w, "/") . ".{0,3}?\\b", $search);
    $regex = "/\\b(\\w{3}.{0,17})?(?:(?:" . implode("|", $alternatives) . ").{0,40}\\b)+/ui";
    $out = [];
    foreach (array_filter(array_unique(explode(".. ", $text))) as $source) {
        if (mb_strlen($source) >= 100) {
            $out[] = [$source, $regex, $search];
        }
    }
    return $out;
}

/**
 * preg_match_all's whole matches, found by starting each match 20
 * characters (the most \w{3}.{0,17} takes) before the next occurrence of a
 * search word; null where that is not certain to be exact: no words, a
 * non-ASCII word, or a word with k/s and a Kelvin sign or long s in the
 * text (their caseless partners under /ui).
 */
function skipAhead(string $regex, string $source, array $search, int &$calls): ?array
{
    if ($search == [] || preg_match('/[^\x20-\x7e]/', implode("", $search))) {
        return null;
    }
    if (preg_match('/[ks]/i', implode("", $search))
        && preg_match("/\u{212A}|\u{017F}/u", $source)) {
        return null;
    }
    $found = [];
    for ($offset = 0; ; ) {
        $next = PHP_INT_MAX;
        foreach ($search as $word) {
            $at = stripos($source, $word, $offset);
            $next = $at === false ? $next : min($next, $at);
        }
        if ($next == PHP_INT_MAX) {
            return $found;
        }
        $calls++;
        if (!preg_match($regex, $source, $m, PREG_OFFSET_CAPTURE,
            charsBack($source, $next, $offset, 20))) {
            return $found;
        }
        $found[] = $m[0][0];
        $offset = $m[0][1] + strlen($m[0][0]);
    }
}

/** The byte offset $chars UTF-8 characters before $at, not before $floor. */
function charsBack(string $s, int $at, int $floor, int $chars): int
{
    for ($n = 0; $at > $floor && $n < $chars; $n++) {
        do {
            $at--;
        } while ($at > $floor && (ord($s[$at]) & 0xC0) == 0x80);
    }
    return $at;
}

/**
 * Model::getSnippets (Yioop's) on every recorded description, or, with
 * $lazy, lazySnippets checked against it; returns the exit status.
 */
function compareSnippets(array $records, bool $lazy): int
{
    $model = (new ReflectionClass('seekquarry\yioop\models\Model'))
        ->newInstanceWithoutConstructor();
    $stats = ["calls" => 0, "declined" => 0, "different" => 0, "pcre_calls" => 0];
    foreach ($records as [[$page, $words, $length]]) {
        if ($words === null || isset($page[FEED])) {
            continue;
        }
        $text = strip_tags(preg_replace("/\<\s+([a-zA-Z])/", '<$1', $page[DESCRIPTION] ?? ""));
        $stats["calls"]++;
        if (!$lazy) {
            $model->getSnippets($text, $words, $length);
            continue;
        }
        $mine = lazySnippets($text, $words, $length, $stats["pcre_calls"]);
        if ($mine === null) {
            $stats["declined"]++;
        } elseif (!getenv("NO_CHECK")
            && $mine !== $model->getSnippets($text, $words, $length)) {
            $stats["different"]++;
        }
    }
    echo json_encode($stats), "\n";
    return $stats["different"] > 0 ? 1 : 0;
}

/**
 * getSnippets' result (as this file's author reads Model::getSnippets:
 * text sources split on ".. ", short ones kept whole when a word occurs,
 * long ones cut into its regex's matches, stopping once the snippet has
 * $length characters), with the long sources' matches found one at a time
 * as skipAhead does and no more than the loop takes; null where that is
 * not certain to be exact. The static cache of Yioop's method is not
 * modelled: a numeric word string declines.
 */
function lazySnippets(string $text, $words, $length, int &$calls): ?string
{
    if (!is_int($length) || !is_array($words) || $words == []
        || is_numeric(implode(" ", $words))) {
        return null;
    }
    if (mb_strlen($text) < $length) {
        return $text;
    }
    $search = array_filter(array_unique(explode(" ", implode(" ", $words))));
    if ($search == [] || preg_match('/[^\x20-\x7e]/', implode("", $search))
        || (preg_match('/[ks]/i', implode("", $search))
        && preg_match("/\u{212A}|\u{017F}/u", $text))) {
        return null;
    }
    $alternatives = implode("|", array_map(fn($w) => "\\b" . preg_quote($w, "/")
        . ".{0,3}?\\b", $search));
    $short = "/$alternatives/ui";
    $long = "/\\b(\\w{3}.{0,17})?(?:(?:$alternatives).{0,40}\\b)+/ui";
    $snippet = "";
    $ellipsis = "";
    foreach (array_filter(array_unique(explode(".. ", $text))) as $source) {
        if (mb_strlen($source) < 100) {
            if (preg_match($short, $source) && stristr($snippet, $source) === false) {
                $snippet .= $ellipsis . $source;
                $ellipsis = " ... ";
            }
        } else {
            foreach (lazyMatches($long, $source, $search, $calls) as $match) {
                $match = trim($match, ".");
                if (stristr($snippet, $match) === false) {
                    $snippet .= $ellipsis . $match;
                    $ellipsis = " ... ";
                    if (mb_strlen($snippet) >= $length) {
                        break;
                    }
                }
            }
        }
        if (mb_strlen($snippet) >= $length) {
            $snippet = mb_substr($snippet, 0, $length);
            $cut = preg_replace('/[^\s]+$/', "", $snippet);
            return empty($cut) ? $snippet : $cut;
        }
    }
    return $snippet;
}

/** skipAhead's matches, one at a time (NO_SKIP=1: from the last match's end). */
function lazyMatches(string $regex, string $source, array $search, int &$calls): Generator
{
    for ($offset = 0; ; ) {
        $next = PHP_INT_MAX;
        foreach ($search as $word) {
            $at = stripos($source, $word, $offset);
            $next = $at === false ? $next : min($next, $at);
        }
        $calls++;
        $start = getenv("NO_SKIP") ? $offset : charsBack($source, $next, $offset, 20);
        if ((!getenv("NO_SKIP") && $next == PHP_INT_MAX)
            || !preg_match($regex, $source, $m, PREG_OFFSET_CAPTURE, $start)) {
            return;
        }
        yield $m[0][0];
        $offset = $m[0][1] + strlen($m[0][0]);
    }
}

/** lazySnippets against Model::getSnippets on $count random inputs. */
function fuzz(int $count): int
{
    mt_srand(18);
    $model = (new ReflectionClass('seekquarry\yioop\models\Model'))
        ->newInstanceWithoutConstructor();
    $vocabulary = ["git", "Git", "GIT", "commit", "commits", "committed", "s",
        "kit", "c++", "o'reilly", "a.b", "x", "the", "élan", "ünïcode", "naïve",
        "\u{212A}it", "\u{017F}ee", "see", "_git_", "git_", "42", "日本", "—",
        ".", "..", "...", ".. ", "\n", "\t", " ", "  ", "-", "/", "'"];
    $queries = [["git"], ["commit"], ["git", "commit"], ["git commit"], ["s"],
        ["kit"], ["see"], ["c++"], ["o'reilly"], ["a.b"], ["the", "x"],
        ["git", "git"], ["Git"], ["GIT", "commit"]];
    $stats = ["calls" => 0, "declined" => 0, "different" => 0, "pcre_calls" => 0];
    for ($i = 0; $i < $count; $i++) {
        $text = "";
        for ($n = mt_rand(20, 600); $n > 0; $n--) {
            $text .= $vocabulary[mt_rand(0, count($vocabulary) - 1)]
                . (mt_rand(0, 3) ? " " : "");
        }
        $words = $queries[mt_rand(0, count($queries) - 1)];
        $length = [150, 150, 40, 300][mt_rand(0, 3)];
        $stats["calls"]++;
        $mine = lazySnippets($text, $words, $length, $stats["pcre_calls"]);
        if ($mine === null) {
            $stats["declined"]++;
        } elseif ($mine !== ($yioop = $model->getSnippets($text, $words, $length))) {
            $stats["different"]++;
            if ($stats["different"] <= 3) {
                fwrite(STDERR, json_encode([$text, $words, $length, $yioop, $mine],
                    JSON_UNESCAPED_UNICODE) . "\n");
            }
        }
    }
    echo json_encode($stats), "\n";
    return $stats["different"] > 0 ? 1 : 0;
}
