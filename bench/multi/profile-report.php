<?php
/**
 * bench/multi/run.php --profile's report, process by process: for each
 * configuration, the name server's pages and each queue server's raw
 * queries and getCrawlItems requests (profile.php labels them), with the
 * requests' median CPU milliseconds (getrusage) and the shares of excimer's
 * 1 ms CPU samples by part (multiPart), then the top functions, inclusive.
 *
 *   php bench/multi/profile-report.php PROFILES_DIR   (a --keep run's profiles/)
 */
declare(strict_types=1);

require_once dirname(__DIR__) . "/search/profile-report.php";
require_once dirname(__DIR__, 2) . "/php/integrate/Guards.php";
require_once dirname(__DIR__, 2) . "/php/integrate/SwitchTable.php";

/**
 * "Class::method" of every method the integration tool switches. Excimer
 * samples user frames only: time in a native function is the calling
 * frame's, so on a switched tree a sample whose innermost frame is a
 * switched method is (almost all) the extension's work; on plain trees the
 * same frames are Yioop's PHP for that work.
 */
function switchedMethods(): array
{
    static $methods = null;
    if ($methods === null) {
        $methods = [];
        foreach (\YioopCodec\Integrate\SwitchTable::byFile() as $rows) {
            foreach ($rows as $row) {
                $methods["$row->class::$row->method"] = true;
            }
        }
    }
    return $methods;
}

/**
 * The parts of a request, first match from the top: the stack (frames
 * shortened by shortFrame, outermost first) => part.
 */
function multiPart(array $frames, string $kind): string
{
    $stack = implode(";", $frames);
    $leaf = preg_replace('/^.*\\\\/', "", end($frames));
    if (isset(switchedMethods()[$leaf])) {
        return "switched methods (native when switched)";
    }
    if (preg_match('/(^|;)(views\\\\|\S*View::|\S*Element::|\S*Layout::|\S*Helper::render)/', $stack)
        || str_contains($stack, "Controller::displayView")) {
        return "rendering (views, elements)";
    }
    if (preg_match('/FetchUrl::getPages/', $stack)) {
        return "HTTP to the queue servers (curl)";
    }
    // the frames that encode or decode what machines exchange, their own
    // time (PHP's serialize, unserialize, gzdeflate, gzinflate, webencode
    // and webdecode run in them): a queue server's answer to a raw query
    // (SearchController, f=serial) and to getCrawlItems (CrawlController),
    // the name server's reading of both (NetworkIterator, ParallelModel)
    if (preg_match('/(NetworkIterator::findDocsWithWord|ParallelModel::getCrawlItems|'
        . 'CrawlController::getCrawlItems|library\\\\web(en|de)code)$/', end($frames))
        || ($kind === "{raw}" && preg_match('/SearchController::processQuery$/', end($frames)))) {
        return "encoding/decoding answers";
    }
    if (preg_match('/IndexManager|IndexShard|IndexDictionary|IndexArchiveBundle|'
        . 'WebArchive|Iterator::|PhraseParser|Stemmer|Tokenizer|BloomFilter|NWordGrams|'
        . 'PhraseModel::|ParallelModel::|CrawlModel::(nonNetwork)?GetCrawlItems|'
        . 'Model::getSnippets|Model::formatSinglePageResult/', $stack)) {
        return "index path (PHP)";
    }
    if (!preg_match('/Controller::processRequest|Controller->processRequest|'
        . 'Controller::(search|getCrawlItems|processQuery)/', $stack)
        || preg_match('/Model::__construct|DatasourceManager|Sqlite3Manager|PDO|'
        . 'LocaleFunctions|library\\\\(tl|getLocale|setLocaleObject)|Locale|parse_ini/',
        $stack)) {
        return "start-up (configs, locale, SQLite, ini, autoload)";
    }
    return "controller, other";
}

function printMachineProfiles(string $dir, array $names): void
{
    foreach ($names as $name) {
        $label = str_replace("+", "-", $name);
        echo "\n=== $name: CPU per request (getrusage, median ms) and excimer's samples by part\n";
        foreach (["name server" => "$dir/$label.txt", "queue server 1" => "$dir/$label-qs1.txt",
            "queue server 2" => "$dir/$label-qs2.txt"] as $machine => $file) {
            [$requests, $stacks] = readMultiProfile($file);
            foreach ($stacks as $kind => $by_stack) {
                $total = array_sum($by_stack);
                $cpu = $requests[$kind] ?? [];
                sort($cpu);
                printf("%-15s %-16s %5d requests, median %6.2f ms CPU, %6d samples\n",
                    $machine, $kind, count($cpu), $cpu ? $cpu[intdiv(count($cpu), 2)] : NAN,
                    $total);
                $parts = [];
                $inclusive = [];
                foreach ($by_stack as $stack => $samples) {
                    $frames = array_map("shortFrame", explode(";", $stack));
                    $part = multiPart($frames, $kind);
                    $parts[$part] = ($parts[$part] ?? 0) + $samples;
                    foreach (array_unique($frames) as $frame) {
                        $inclusive[$frame] = ($inclusive[$frame] ?? 0) + $samples;
                    }
                }
                arsort($parts);
                foreach ($parts as $part => $samples) {
                    printf("    %5.1f%%  %s\n", 100 * $samples / $total, $part);
                }
                if (getenv("MULTI_PROFILE_TOP")) {
                    arsort($inclusive);
                    echo "    top functions, inclusive:\n";
                    foreach (array_slice($inclusive, 0, (int)getenv("MULTI_PROFILE_TOP"), true)
                        as $frame => $samples) {
                        printf("      %5.1f%%  %s\n", 100 * $samples / $total, $frame);
                    }
                }
            }
        }
    }
}

/** [kind => [CPU ms per request], kind => [stack without the kind => samples]] */
function readMultiProfile(string $file): array
{
    $requests = $stacks = [];
    foreach (is_file($file) ? file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) : []
        as $line) {
        if (str_starts_with($line, "{request} ")) {
            [, $kind, $ms] = explode(" ", $line);
            $requests[$kind][] = (float)$ms;
            continue;
        }
        $at = strrpos($line, " ");
        [$kind, $stack] = explode(";", substr($line, 0, $at), 2) + [1 => "(empty)"];
        $stacks[$kind][$stack] = ($stacks[$kind][$stack] ?? 0) + (int)substr($line, $at + 1);
    }
    ksort($stacks);
    return [$requests, $stacks];
}

if (realpath($_SERVER["SCRIPT_FILENAME"] ?? "") === __FILE__) {
    $dir = $argv[1] ?? "";
    printMachineProfiles($dir, array_unique(array_map(fn($f) => preg_replace('/-qs\d$/', "",
        basename($f, ".txt")), glob("$dir/*.txt"))));
}
