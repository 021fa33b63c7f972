<?php
/**
 * Searches a Yioop installed the way Yioop's own installer does it, with and
 * without the extension, and requires identical results:
 *
 *   php tests/tools/yioop/stock-install.php YIOOP_DIR [--web] [--queries=FILE]
 *       [--docs=4000] [--seed=1] [--so=PATH] [--profile=PATH] [--keep]
 *
 * YIOOP_DIR is a Yioop 2021-line tree; it is only read. In a temporary
 * directory this:
 *  1. installs a copy: the tree's bundled work_directory removed, Yioop's
 *     ConfigureTool creates a fresh work directory (its Profile.php holds
 *     every value as a string, as on a real site) and Createdb.php the
 *     databases;
 *  2. builds a crawl's index there with Yioop's own classes
 *     (stock-index.php) and makes it the current index;
 *  3. copies the installed tree twice: "plain" as Yioop wrote it, on that
 *     work directory, run without the extension; "switched", on a copy of
 *     the work directory of its own, by php/yioop-integrate.php, run with
 *     it (--so, else env YIOOP_CODEC_SO, else
 *     target/release/libyioop_codec.so). Both work directories have the
 *     installer's app/locale, so the switched side's en_US Tokenizer is the
 *     work directory's copy, switched by the tool;
 *  4. runs Yioop's QueryTool on both for each query and compares exit
 *     status, stdout and stderr byte for byte, except the ELAPSED TIME line
 *     and the blocks Yioop's error handler prints for PHP 8.2+ deprecations
 *     and warnings (Yioop's handler prints them whatever error_reporting
 *     says, and their backtraces name each copy's own files);
 *     or, with --web, serves each copy as an operator does, through nginx
 *     and php-fpm with opcache on 127.0.0.1 (stock-web.php), and compares
 *     Yioop's search page for each query, and the next results that page
 *     asks for, by HTTP status and HTML byte for byte, except those error
 *     blocks, the time the search took and each copy's own URL. Needs nginx
 *     and php-fpm (apt-get install -y nginx php-fpm); as root the
 *     servers' workers run as www-data.
 *
 * --queries=FILE: one query a line, optionally followed by a tab, results
 * per page, a tab and the first result; "#N" is the corpus word of rank N.
 * --profile=PATH keeps a copy of the generated Profile.php; --keep keeps the
 * whole temporary directory.
 *
 * Exit status: 0 all identical and the plain side found results (with
 * --web: answered every page with a search page); 1 a difference (with
 * --web also a worker that died, or opcache unused); 2 the set-up failed
 * (the message says where).
 */
declare(strict_types=1);

require __DIR__ . "/stock-corpus.php";
require_once __DIR__ . "/stock-setup.php";
require_once __DIR__ . "/stock-web.php";

use yioop_codec\live\StockCorpus;

/**
 * Stock Yioop finds results with QueryTool, none on its search page: the
 * page HTML-escapes the query's quotes before it parses the phrase.
 */
const QUERY_TOOL_ONLY = "QueryTool only";
/** [query, results per page, first result, whether stock Yioop finds results] */
const QUERIES = [
    ["#1", 10, 0, true],                        // in nearly every document
    ["#40", 10, 0, true],                       // in about a fifth
    ["#900", 10, 0, true],                      // a few dozen
    ["#3000", 10, 0, true],                     // a dozen
    ["#3 #25", 10, 0, true],
    ["#2 #10 #60", 10, 0, true],
    ["#5 #700", 10, 0, true],
    ['"' . StockCorpus::PHRASE . '"', 10, 0, QUERY_TOOL_ONLY],
    ["#1 site:site3.example.com", 10, 0, true],
    ["#200 | #300", 10, 0, true],
    ["#40 -#3", 10, 0, true],
    ["zzyzxq", 10, 0, false],                   // no such word
    ["#1", 10, 10, true],                       // the second page
    ["#40", 20, 20, true],
    ["#1", 50, 0, true],
];
const CRAWL_TIME = "1700000000";

[$yioop, $options] = arguments(array_slice($argv, 1));
$tmp = sys_get_temp_dir() . "/yioop-stock-" . getmypid();
try {
    $status = compareInstall($yioop, $options, $tmp);
} catch (Throwable $e) {
    fwrite(STDERR, "set-up failed: " . $e->getMessage() . ($e instanceof SetUpFailure ? ""
        : " (" . get_class($e) . " at " . basename($e->getFile()) . ":" . $e->getLine() . ")")
        . "\n");
    $status = 2;
}
if (isset($options["keep"])) {
    echo "kept: $tmp\n";
} elseif (is_dir($tmp)) {
    exec("rm -rf " . escapeshellarg($tmp));
}
exit($status);

/** [YIOOP_DIR, [option => value]]: getopt() would stop at YIOOP_DIR. */
function arguments(array $args): array
{
    $yioop = "";
    $options = [];
    foreach ($args as $arg) {
        if (preg_match('/^--(queries|docs|seed|so|profile)=(.+)$|^--(keep|web)$/', $arg, $m)) {
            $options[$m[1] ?: $m[3]] = $m[2] ?? true;
        } elseif ($yioop === "" && !str_starts_with($arg, "-")) {
            $yioop = rtrim($arg, "/");
        } else {
            return ["", []]; // the usage message follows
        }
    }
    return [$yioop, $options];
}

function compareInstall(string $yioop, array $options, string $tmp): int
{
    $so = $options["so"] ?? (getenv("YIOOP_CODEC_SO") ?: dirname(__DIR__, 3)
        . "/target/release/libyioop_codec.so");
    if ($yioop === "") {
        throw new SetUpFailure("usage: php tests/tools/yioop/" . basename(__FILE__) . " YIOOP_DIR "
            . "[--web] [--queries=FILE] [--docs=N] [--seed=N] [--so=PATH] [--profile=PATH] [--keep]");
    }
    if (!is_file("$yioop/src/configs/ConfigureTool.php")
        || !is_file("$yioop/src/executables/QueryTool.php")) {
        throw new SetUpFailure("'$yioop' is not a Yioop tree (no src/configs/ConfigureTool.php "
            . "or src/executables/QueryTool.php)");
    }
    $queries = isset($options["queries"]) ? queriesFromFile($options["queries"]) : QUERIES;
    mkdir($tmp, 0700);
    $scan_dir = phpIniWithoutYioop("cli", "$tmp/conf.d");
    $plain = new Php($scan_dir, [], "plain");
    $native = new Php($scan_dir, ["-d", "extension=$so"], "switched");
    $plain->mustHaveExtension(false);
    $native->mustHaveExtension(true);

    $start = microtime(true);
    $work = "$tmp/work";
    $install = installYioop($yioop, "$tmp/install", $work, $plain);
    $built = $plain->mustRun([__DIR__ . "/stock-index.php", $install,
        (string)(int)($options["docs"] ?? 4000), (string)(int)($options["seed"] ?? 1), CRAWL_TIME],
        $install, "building the index");
    $profile = $options["profile"] ?? "$tmp/Profile.php";
    copy("$work/Profile.php", $profile);
    $plain_tree = copyTree($install, "$tmp/plain", $work);
    $switched_tree = copyTree($install, "$tmp/switched", $work);
    $switched_work = ownWorkDirectory($switched_tree, $work, $plain);
    $format = switchOver($switched_tree, $plain);
    $native->addFlags(["-d", "yioop.format=$format"]);
    $tokenizer = tokenizerRunsNatively($native, $switched_tree, $switched_work);
    printf("installed and indexed in %.0fs: %s", microtime(true) - $start, $built);
    echo "Profile.php as Yioop's installer wrote it: $profile"
        . (isset($options["profile"]) || isset($options["keep"]) ? "\n"
        : " (removed at the end: --profile=PATH or --keep keeps it)\n");
    echo "plain:    $plain_tree, without the extension\n";
    echo "switched: $switched_tree, with $so\n";
    echo "switched side's en_US Tokenizer: $tokenizer\n\n";

    $web = isset($options["web"]);
    $queries = array_map(fn($q) => $q[3] === QUERY_TOOL_ONLY ? [$q[0], $q[1], $q[2], !$web] : $q,
        $queries);
    $different = $web ? compareSearchPages($queries, $tmp, $work, $switched_work, $plain_tree,
        $switched_tree,
        $plain, ["extension" => realpath($so), "yioop.format" => $format])
        : compareAnswers($queries, fn(array $args) => queryTool($plain, $plain_tree, $args),
        fn(array $args) => queryTool($native, $switched_tree, $args));
    printf("\n%d queries: %s (%.0fs in all)\n", count($queries), $different == 0
        ? "all identical" : "$different DIFFERENT", microtime(true) - $start);
    return $different == 0 ? 0 : 1;
}




/**
 * Set-up failure unless $tree loads the en_US Tokenizer from $work's
 * app/locale, switched, and PhraseParser's native stemCharGramSegment, which
 * needs its stem switched, runs there and gives Yioop's result
 * (stock-tokenizer.php); returns what was found, for the report.
 */
function tokenizerRunsNatively(Php $php, string $tree, string $work): string
{
    [$rc, $out, $err] = $php->run([__DIR__ . "/stock-tokenizer.php", $tree], $tree);
    $found = json_decode($out, true);
    if ($rc != 0 || !is_array($found)) {
        throw new SetUpFailure("stock-tokenizer.php exited $rc:\n" . tail("$out\n$err"));
    }
    if ($found["file"] !== "$work/" . WORK_TOKENIZER || !$found["switched"]
        || $found["native"] === null || $found["native"] !== $found["php"]) {
        throw new SetUpFailure("the switched side's en_US Tokenizer is not the work directory's "
            . "switched copy, or stemCharGramSegment does not run natively there: $out");
    }
    return "$found[file] (switched; stemCharGramSegment native, Yioop's result)";
}

/**
 * Asks both sides each query and prints how their answers compare; returns
 * how many differ. Set-up failure if the plain side, stock Yioop, does not
 * answer or finds results where none are expected, or none where some are.
 */
function compareAnswers(array $queries, callable $plain, callable $switched): int
{
    $different = 0;
    $found = 0;
    foreach ($queries as [$query, $per_page, $first, $expect_results]) {
        $args = [StockCorpus::expand($query), (string)$per_page, (string)$first];
        $a = $plain($args);
        $b = $switched($args);
        $same = $a == $b;
        $different += $same ? 0 : 1;
        $found += $a["shown"] > 0 ? 1 : 0;
        echo queryLine($args, $query, $a, $b, $same);
        if (!$a["answered"]) {
            throw new SetUpFailure("stock Yioop (plain side) gave no answer for '$args[0]': "
                . "$a[how]" . ($a["err"] ? ": " . trim($a["err"]) : "") . "\n"
                . tail($a["out"]));
        }
        if ($expect_results !== null && ($a["shown"] > 0) !== $expect_results) {
            throw new SetUpFailure("stock Yioop (plain side) found " . $a["shown"]
                . " results for '$args[0]', expected " . ($expect_results ? "some" : "none")
                . ": the index is not being searched ($a[how]"
                . ($a["err"] ? ": " . trim($a["err"]) : "") . ")");
        }
    }
    if ($found == 0) {
        throw new SetUpFailure("stock Yioop found nothing for any query: nothing was compared");
    }
    return $different;
}

/** QueryTool's answer, made comparable across the two trees. */
function queryTool(Php $php, string $tree, array $args): array
{
    [$rc, $out, $err] = $php->run(["-d", "auto_prepend_file=" . __DIR__ . "/stock-fatal.php",
        "src/executables/QueryTool.php", ...$args], $tree);
    $comparable = fn(string $s) => str_replace($tree, "<yioop>", preg_replace(
        '~^ELAPSED TIME: .*\n~m', "", withoutYioopErrorBlocks($s)));
    $out = $comparable($out);
    preg_match('/^TOTAL ROWS: (\d+)$/m', $out, $total);
    return ["rc" => $rc, "how" => "exit $rc", "out" => $out, "err" => $comparable($err),
        "answered" => true, // its exit status is compared; a failing plain side finds nothing
        "shown" => preg_match_all('/^TITLE: /m', $out),
        "total" => (int)($total[1] ?? 0)];
}


function queriesFromFile(string $file): array
{
    $lines = @file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES);
    if (!$lines) {
        throw new SetUpFailure("no queries in '$file'");
    }
    return array_map(function (string $line) {
        $fields = explode("\t", $line);
        return [$fields[0], (int)($fields[1] ?? 10), (int)($fields[2] ?? 0), null];
    }, $lines);
}

