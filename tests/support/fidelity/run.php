<?php
/**
 * Runs one fidelity scenario (tests/support/fidelity/scenarios.php) and prints what
 * each step gave, as JSON:
 *
 *   php run.php yioop NAME YIOOP_DIR   through Yioop's own IndexShard (PHP,
 *                                      no extension): the recording
 *   php run.php native NAME            through the yioop_codec\shard\*
 *                                      functions, on objects with
 *                                      IndexShard's properties
 *
 * Each call step gives its result, the by-reference arguments after it, the
 * warnings and exception it raised (Yioop's loops that run past 2 s are
 * "hangs"), and the object's state: the properties the methods read and
 * write, with what Yioop's PHP reads the file through (fh, blocks,
 * blocks_words) apart: natively fh stays null until a call hands the object
 * over. Natively, a
 * call that returned null was declined (left to Yioop's PHP): the object's
 * block cache as the call handed it over is given, and the object's later
 * calls are skipped (Yioop's PHP would run them). At the end every object
 * still read natively hands its cache over, so that it can be compared
 * with Yioop's.
 */

namespace YioopCodec\Fidelity;

require_once __DIR__ . "/scenarios.php";

/** The configuration constants the native functions read. */
const READ_CONSTANTS = ["PRECISION", "AVG_LINKS_PER_PAGE", "MAX_GENERATIONS", "AD_HOC_TITLE_LENGTH",
    "TITLE_WEIGHT", "DESCRIPTION_WEIGHT", "LINK_WEIGHT", "NUM_DOCS_PER_GENERATION"];
/** The properties compared after each step (the block cache apart). */
const STATE = ["file_len", "prefixes_len", "words_len", "word_docs_len", "docids_len", "generation",
    "num_docs_per_generation", "num_docs", "num_link_docs", "len_all_docs", "len_all_link_docs",
    "word_doc_offset", "doc_info_offset", "last_flattened_words_count", "words", "num_docs_word",
    "doc_infos", "word_docs", "word_postings", "word_docs_packed", "prefixes"];

/** Methods that return nothing: natively true when done, which the switched method drops. */
const VOID_METHODS = ["mergeWordPostingsToString", "prepareWordsAndPrefixes", "packWords", "outputPostingLists"];

[, $mode, $name, $yioop] = $argv + [null, null, null, null];
$scenario = scenarios()[$name] ?? null;
if (!in_array($mode, ["yioop", "native"], true) || $scenario === null || ($mode === "yioop" && !$yioop)) {
    fwrite(STDERR, "usage: php run.php yioop NAME YIOOP_DIR | php run.php native NAME\n");
    exit(2);
}
$work = sys_get_temp_dir() . "/yioop-fidelity-" . getmypid();
@mkdir($work);
register_shutdown_function(fn() => exec("rm -rf " . escapeshellarg($work)));
ini_set("memory_limit", "-1");
ini_set("serialize_precision", "-1");
$profile = profileText($scenario["profile"]);
if ($mode === "yioop") {
    bootYioop($yioop, $work, $profile);
} else {
    require_once __DIR__ . "/native-shard.php";
    bootNative($work, $profile);
}
$constants = [];
foreach (READ_CONSTANTS as $constant) {
    $constants[$constant] = encode(constant("seekquarry\\yioop\\configs\\$constant"));
}
echo json_encode(["constants" => $constants, "steps" => runSteps($mode, $scenario["steps"], $work)]), "\n";

/** The Profile.php a scenario runs with: the installer's, with its overrides. */
function profileText($profile): string
{
    $text = file_get_contents(FIXTURES . "/stock-Profile.php");
    foreach (is_array($profile) ? $profile : [] as $name => $value) {
        $line = "nsdefine('$name', " . var_export($value, true) . ");";
        $count = 0;
        $text = preg_replace("/^nsdefine\('$name',.*$/m", addcslashes($line, '\\$'), $text, -1, $count);
        if ($count === 0) {
            $text .= "$line\n";
        }
    }
    return $text;
}

function bootYioop(string $yioop, string $work, string $profile): void
{
    if (extension_loaded("yioop")) {
        fwrite(STDERR, "run the yioop mode without the yioop extension\n");
        exit(2);
    }
    file_put_contents("$work/Profile.php", $profile);
    define("seekquarry\\yioop\\configs\\WORK_DIRECTORY", $work);
    foreach (["cache", "schedules", "log"] as $dir) {
        @mkdir("$work/$dir");
    }
    require "$yioop/src/configs/Config.php";
    // Yioop's handler prints what it is given; outside a call's own
    // handler (call()) that is constructors' dynamic-property deprecations.
    set_error_handler(fn() => true);
    error_reporting(E_ALL); // Config.php turns it off, fatal errors included
    ini_set("display_errors", "stderr");
    $_SERVER["NO_LOGGING"] = true; // crawlLog lines are not results
}

/** What a step's value becomes in the record: long values by their hash. */
function summary($value)
{
    if (is_array($value) || (is_string($value) && strlen($value) > 64)) {
        return ["sha1" => sha1(serialize($value))];
    }
    if (is_resource($value) || gettype($value) === "resource (closed)") {
        return ["resource" => get_resource_type($value)];
    }
    return encode($value);
}

/** The object's state: the properties the methods read and write. */
function state(object $shard): array
{
    $state = [];
    foreach (STATE as $property) {
        $state[$property] = summary($shard->$property ?? null);
    }
    return $state;
}

/**
 * What Yioop's PHP reads an object through: its file handle and its block
 * cache (natively, what a declined call hands over).
 */
function blockCache(object $shard): array
{
    return ["fh" => summary($shard->fh ?? null), "blocks" => summary($shard->blocks ?? null),
        "blocks_words" => summary($shard->blocks_words ?? null)];
}

function runSteps(string $mode, array $steps, string $work): array
{
    $objects = $refs = $handed_over = [];
    $outcomes = [];
    foreach ($steps as $i => $step) {
        $op = $step[0];
        $path = fn(string $file) => "$work/$file";
        switch ($op) {
            case "copy":
                file_put_contents($path($step[1]), source($step[2]));
                break;
            case "rewrite":
                // touch -r keeps the nanoseconds PHP's touch() would drop, as cp -p does.
                $reference = escapeshellarg($path($step[1]) . ".times");
                exec("touch -r " . escapeshellarg($path($step[1])) . " $reference");
                $fh = fopen($path($step[1]), "r+");
                fwrite($fh, source($step[2]));
                ftruncate($fh, strlen(source($step[2])));
                fclose($fh);
                if ($step[3]) {
                    exec("touch -r $reference " . escapeshellarg($path($step[1])));
                }
                break;
            case "replace":
                file_put_contents($path($step[1]) . ".new", source($step[2]));
                rename($path($step[1]) . ".new", $path($step[1]));
                break;
            case "truncate":
                fclose(fopen($path($step[1]), "wb"));
                break;
            case "append":
                file_put_contents($path($step[1]), substr(source($step[2]), $step[3]), FILE_APPEND);
                break;
            case "new":
            case "build":
                $objects[$step[1]] = newShard($mode, $path($step[2]), $op === "new");
                break;
            case "ref":
                $refs[$step[3]] = &$objects[$step[1]]->{$step[2]};
                break;
            case "assign":
                $refs[$step[1]] = decode($step[2]);
                break;
            case "call":
                [, $obj, $method, $args] = $step;
                if ($mode === "native" && isset($handed_over[$obj])) {
                    // Yioop's PHP runs it now, and it cannot here.
                    $outcomes[$i] = ["skipped" => true];
                    break;
                }
                $outcome = call($mode, $objects[$obj], $method, $args);
                if (!empty($outcome["declined"]) && !isset($handed_over[$obj])) {
                    $handed_over[$obj] = true;
                    $outcome["handed_over"] = blockCache($objects[$obj]);
                }
                $outcomes[$i] = $outcome;
                break;
        }
        unset($step);
    }
    $final = [];
    foreach ($objects as $obj => $shard) {
        if ($mode === "native" && !isset($handed_over[$obj])) {
            // A call the native functions decline makes the object hand over.
            $declined = \yioop_codec\shard\getShardWord($shard, "hand over") === null;
            $final[$obj] = blockCache($shard) + ["declined" => $declined];
        } else {
            $final[$obj] = blockCache($shard);
        }
        $final[$obj]["state"] = state($shard);
    }
    return ["calls" => $outcomes, "final" => $final];
}

function source(string $name): string
{
    return derivedShard($name) ?? shardBytes($name);
}

function newShard(string $mode, string $file, bool $on_disk): object
{
    $per_generation = \seekquarry\yioop\configs\NUM_DOCS_PER_GENERATION;
    return $mode === "yioop"
        ? new \seekquarry\yioop\library\IndexShard($file, 0, $per_generation, $on_disk)
        : new NativeShard($file, 0, $per_generation, $on_disk);
}

final class Hangs extends \Exception
{
}

/** One method call: its outcome, as the file comment says. */
function call(string $mode, object $shard, string $method, array $encoded): array
{
    $args = [];
    foreach ($encoded as $k => $arg) {
        $args[$k] = (is_array($arg) && ($arg[0] ?? null) === "ref") ? decode($arg[1]) : decode($arg);
    }
    $warnings = [];
    set_error_handler(function ($type, $message) use (&$warnings) {
        if (!str_starts_with($message, "Creation of dynamic property")) {
            $warnings[] = $message;
        }
        return true;
    });
    pcntl_async_signals(true);
    pcntl_signal(SIGALRM, fn() => throw new Hangs());
    pcntl_alarm(2);
    $outcome = [];
    try {
        $result = $mode === "yioop" ? $shard->$method(...$args) : ("yioop_codec\\shard\\$method")($shard, ...$args);
        if ($mode === "native" && $result === null) {
            $outcome["declined"] = true;
        }
        $outcome["result"] = summary(in_array($method, VOID_METHODS, true) && $result === true ? null : $result);
    } catch (Hangs) {
        $outcome["hangs"] = true;
    } catch (\Throwable $e) {
        $outcome["threw"] = get_class($e);
        $outcome["message"] = $e->getMessage();
    } finally {
        pcntl_alarm(0);
        restore_error_handler();
    }
    $outcome["warnings"] = $warnings;
    $outcome["refs"] = array_map(__NAMESPACE__ . "\\summary", array_values(array_filter($args, fn($k) =>
        is_array($encoded[$k]) && ($encoded[$k][0] ?? null) === "ref", ARRAY_FILTER_USE_KEY)));
    $outcome["state"] = state($shard);
    if ($mode === "yioop") {
        $outcome += blockCache($shard);
    }
    return $outcome;
}
