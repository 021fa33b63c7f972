<?php
/**
 * Runs WordIterator::findDocsWithWord on the cases below, over one
 * generation's shard and dictionary that Yioop built from the documents
 * below, and prints what each case gave as JSON.
 *
 *   php run.php yioop YIOOP_DIR   Yioop's own classes: builds the files and
 *                                 records them with the results (the
 *                                 fixture, gzipped by the recorder)
 *   php run.php stand-ins         stand-ins.php over the recorded files: the
 *                                 native function, and Yioop's recorded
 *                                 discounts where the native look-up declines
 *
 * Per case: the result (serialized, or the class of what it threw), the
 * iterator's next_offset, count_block and pages afterwards, and the host
 * keys the search filter was asked about; with the stand-ins, whether the
 * native function declined. The cases run in order in one process, so
 * discounts answered once are in IndexManager's static cache for the next.
 */
namespace YioopCodec\Tests\WordIterator;

use seekquarry\yioop\configs as C;
use seekquarry\yioop\library as L;
use seekquarry\yioop\library\index_bundle_iterators\WordIterator;
use seekquarry\yioop\models\SearchverticalsModel;

const INDEX = "1700000000";
const CONSTANTS = ["PRECISION", "AVG_LINKS_PER_PAGE", "MAX_GENERATIONS", "AD_HOC_TITLE_LENGTH",
    "TITLE_WEIGHT", "DESCRIPTION_WEIGHT", "LINK_WEIGHT", "NUM_DISTINCT_GENERATIONS", "NUM_DOCS_PER_GENERATION"];

/** base64Hash. */
function b64(string $bytes): string
{
    return strtr(rtrim(base64_encode($bytes), "="), "+/", "-_");
}

/** A search filter: says the host key $filtered is filtered, and notes what it was asked. */
final class HostFilter
{
    public array $asked = [];

    public function __construct(private string $filtered)
    {
    }

    public function isFiltered($host_key)
    {
        $this->asked[] = b64($host_key);
        return $host_key === $this->filtered;
    }
}

/**
 * [doc key, summary offset, words, meta words, is a document]: pages
 * that hold "alpha", some with their "info:" term, some discounted for
 * "alpha" by a "link:" term; links to a page the index holds and to one it
 * lacks; a link whose URL hash equals a page's only as a number; a key PHP
 * makes an int and a one-part key; and a page holding "link:" . alpha's key.
 */
function documents(string $alpha_key): array
{
    $docs = [];
    for ($i = 0; $i < 12; $i++) {
        $url = sprintf("url%05d", $i);
        $meta = ["info:" . b64($url)];
        if ($i % 3 == 0) {
            $meta[] = "link:$alpha_key:" . b64($url);
        }
        $docs[] = [$url . sprintf("hash%04d", $i) . sprintf("host%04d", $i % 4), 1000 * $i,
            ["alpha" => range(1, 1 + $i % 5), "beta" => [2]], $meta, true];
        if ($i == 4) {
            $docs[] = ["url00002linkhashhost0009", 777, ["alpha" => [1]], [], false];
            $docs[] = ["urlnotinlinkhashhost0009", 778, ["alpha" => [1]], [], false];
        }
    }
    $docs[] = ["10000000hashnumrhost0001", 20000, ["alpha" => [2]], ["info:" . b64("10000000")], true];
    $docs[] = ["1.00e+07linkhas2host0002", 20001, ["alpha" => [1]], [], false];
    $docs[] = ["1234567812345678", 20002, ["alpha" => [3]], [], true];
    $docs[] = ["abcdefgh", 20003, ["alpha" => [4]], [], true];
    $docs[] = ["urllinkshashlinkhost0003", 20004, ["gamma" => [1]], ["link:$alpha_key"], true];
    return $docs;
}

/** Yioop builds the shard and its dictionary: the files, by path under $dir. */
function buildFiles(string $dir): array
{
    mkdir("$dir/posting_doc_shards", 0777, true);
    $file = "$dir/posting_doc_shards/index0";
    $shard = new L\IndexShard($file, 0, C\NUM_DOCS_PER_GENERATION);
    foreach (documents(b64(L\crawlHashWord("alpha", true))) as [$key, $offset, $words, $meta, $is_doc]) {
        $shard->addDocumentWords($key, $offset, $words, $meta, $is_doc, false, []);
    }
    $shard->save();
    (new L\IndexDictionary("$dir/dictionary"))->addShardDictionary(
        new L\IndexShard($file, 0, C\NUM_DOCS_PER_GENERATION, true));
    $files = [];
    foreach (new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($dir,
        \FilesystemIterator::SKIP_DOTS)) as $path) {
        $files[substr($path, strlen($dir) + 1)] = base64_encode(file_get_contents($path));
    }
    ksort($files);
    return $files;
}

/** A fresh index over the files, its current shard generation 0's as getCurrentShard(true) leaves it. */
function index(string $dir): L\IndexArchiveBundle
{
    $index = (new \ReflectionClass(L\IndexArchiveBundle::class))->newInstanceWithoutConstructor();
    $index->dir_name = $dir;
    $index->generation_info = ["ACTIVE" => 0, "LAST_DICTIONARY_SHARD" => 0, "CURRENT" => 0,
        "DISK_BASED" => true];
    $index->dictionary = new L\IndexDictionary("$dir/dictionary", $index);
    $shard = new L\IndexShard("$dir/posting_doc_shards/index0", 0, C\NUM_DOCS_PER_GENERATION, true);
    $shard->getShardHeader(true);
    $shard->read_only_from_disk = true;
    $index->current_shard = $shard;
    return $index;
}

/** An iterator on $word (id, [start, last]) as WordIterator's constructor and reset() leave it, then $set. */
function iterator(array $word, array $set = []): WordIterator
{
    [$id, [$start, $last]] = $word;
    $iterator = (new \ReflectionClass(WordIterator::class))->newInstanceWithoutConstructor();
    $fields = ["word_key" => $id, "base64_word_key" => b64($id), "is_meta" => false, "index_name" => INDEX,
        "filter" => null, "results_per_block" => 5, "direction" => 1, "empty" => false,
        "num_generations" => 1, "generation_pointer" => 0, "current_generation" => 0,
        "start_offset" => $start, "last_offset" => $last, "current_offset" => $start,
        "next_offset" => null, "count_block" => 0, "seen_docs" => 0];
    foreach ($set + $fields as $name => $value) {
        $iterator->$name = $value;
    }
    return $iterator;
}

/**
 * [name, the iterator (given the last case's), a change to the index]; the
 * cases continuing a walk move to the last call's next_offset.
 */
function cases(array $words): array
{
    $alpha = $words["alpha"];
    $next = fn(WordIterator $last) => tap($last, fn($it) => $it->current_offset = $it->next_offset);
    $unchanged = fn(L\IndexArchiveBundle $index) => null;
    return [
        ["five items from the start", fn() => iterator($alpha), $unchanged],
        ["the next five", $next, $unchanged],
        ["the next five again", $next, $unchanged],
        ["the rest", fn($last) => tap($next($last), fn($it) => $it->results_per_block = 100), $unchanged],
        ["the whole list in one block", fn() => iterator($alpha, ["results_per_block" => 100]), $unchanged],
        ["descending from the end", fn() => iterator($alpha, ["direction" => -1,
            "current_offset" => $alpha[1][1]]), $unchanged],
        ["descending, the next block", $next, $unchanged],
        ["a search filter", fn() => iterator($alpha, ["results_per_block" => 100,
            "filter" => new HostFilter("ost0001")]), $unchanged],
        ["Yioop's search filter, every host remembered", fn() => iterator($alpha, ["results_per_block" => 100,
            "filter" => verticals(["ost0000" => false, "ost0001" => true, "ost0002" => false,
            "ost0003" => false, "ost0009" => false, "" => false])]), $unchanged],
        ["a meta word's iterator: no link discount", fn() => iterator($alpha, ["results_per_block" => 100,
            "is_meta" => true]), $unchanged],
        ["a word whose link: term the index lacks", fn() => iterator($words["beta"],
            ["results_per_block" => 100]), $unchanged],
        ["an empty iterator", fn() => iterator($alpha, ["empty" => true]), $unchanged],
        ["past the last generation", fn() => iterator($alpha, ["generation_pointer" => 1]), $unchanged],
        ["the last generation, past its end", fn() => iterator($alpha, ["current_offset" => $alpha[1][1] + 4]),
            $unchanged],
        ["not the last generation: an empty slice", fn() => iterator($alpha, ["num_generations" => 2,
            "current_offset" => $alpha[1][1] + 4]), $unchanged],
        ["the index name as an int", fn() => iterator($alpha, ["index_name" => (int)INDEX]), $unchanged],
        ["another generation than the current shard's", fn() => iterator($alpha, ["current_generation" => 1]),
            $unchanged],
        ["DISK_BASED not yet set", fn() => iterator($alpha),
            fn($index) => $index->generation_info["DISK_BASED"] = false],
        ["a shard whose header is not read", fn() => iterator($alpha),
            fn($index) => $index->current_shard->num_docs = 0],
        ["an index not loaded", fn() => iterator($alpha, ["index_name" => "1700000009"]), $unchanged],
        ["a filter that is a string", fn() => iterator($alpha, ["filter" => "yes"]), $unchanged],
        ["results_per_block as a string", fn() => iterator($alpha, ["results_per_block" => "5"]), $unchanged],
        ["base64_word_key as an int", fn() => iterator($alpha, ["base64_word_key" => 5]), $unchanged],
    ];
}

/** SearchverticalsModel, without its database, remembering these answers for host keys. */
function verticals(array $remembered): SearchverticalsModel
{
    $model = (new \ReflectionClass(SearchverticalsModel::class))->newInstanceWithoutConstructor();
    $model->memory_filter = $remembered;
    return $model;
}

function tap($value, callable $change)
{
    $change($value);
    return $value;
}

[, $mode] = $argv;
$recording = dirname(__DIR__, 2) . "/fixtures/word_iterator/yioop-2021.json.gz";
$work = sys_get_temp_dir() . "/word-iterator-" . getmypid();
mkdir($work);
$dir = "$work/IndexData" . INDEX;
if ($mode === "yioop") {
    require dirname(__DIR__, 3) . "/bench/e2e/yioop-boot.php";
    C\bootYioop($argv[2] . "/src", $work);
    // Yioop's handler prints PHP 8.2's notes on its dynamic properties.
    ob_start();
    $files = buildFiles($dir);
    $constants = [];
    foreach (CONSTANTS as $name) {
        $constants[$name] = constant("seekquarry\\yioop\\configs\\$name");
    }
    $words = [];
    foreach (["alpha", "beta"] as $word) {
        $id = L\crawlHashWord($word, true);
        $words[$word] = [$id, array_slice(index($dir)->current_shard->getWordInfo($id, true), 0, 2)];
    }
} else {
    $recorded = json_decode(gzdecode(file_get_contents($recording)), true);
    foreach ($recorded["constants"] as $name => $value) {
        define("seekquarry\\yioop\\configs\\$name", $value);
    }
    require __DIR__ . "/stand-ins.php";
    require dirname(__DIR__) . "/search_filter/stand-in.php";
    foreach ($recorded["files"] as $path => $bytes) {
        @mkdir(dirname("$dir/$path"), 0777, true);
        file_put_contents("$dir/$path", base64_decode($bytes));
    }
    $words = array_map(fn($w) => [base64_decode($w[0]), $w[1]], $recorded["words"]);
    L\IndexManager::$answers = $recorded["discounts"];
}
L\IndexManager::$indexes = [INDEX => null];
L\IndexManager::$index_times = [INDEX => time()];

$out = ["cases" => []];
$iterator = null;
foreach (cases($words) as [$name, $make, $change_index]) {
    $index = index($dir);
    $change_index($index);
    L\IndexManager::$indexes[INDEX] = $index;
    $iterator = $make($iterator);
    $declined_before = WordIterator::$declined ?? 0;
    try {
        $result = serialize($iterator->findDocsWithWord());
    } catch (\Throwable $e) {
        $result = "threw " . get_class($e);
    }
    $case = ["name" => $name, "result" => $result, "next_offset" => $iterator->next_offset,
        "count_block" => $iterator->count_block, "pages" => md5(serialize($iterator->pages)),
        "asked" => $iterator->filter instanceof HostFilter ? $iterator->filter->asked : null,
        "remembered" => $iterator->filter instanceof SearchverticalsModel
            ? serialize($iterator->filter->memory_filter) : null];
    if ($mode !== "yioop") {
        $case["declined"] = WordIterator::$declined > $declined_before;
    }
    $out["cases"][] = $case;
}
if ($mode === "yioop") {
    // Yioop's discount of every term a case can ask for.
    $discounts = [];
    $terms = [];
    foreach ($words as [$id]) {
        $terms[] = "link:" . b64($id);
        foreach (documents(b64($id)) as [$key]) {
            $terms[] = "info:" . b64(substr($key, 0, 8));
            $terms[] = "link:" . b64($id) . ":" . b64(substr($key, 0, 8));
        }
    }
    foreach (array_unique($terms) as $term) {
        $discounts[$term] = serialize(L\IndexManager::discountedNumDocsTerm($term, INDEX));
    }
    $out = ["constants" => $constants, "words" => array_map(fn($w) => [base64_encode($w[0]), $w[1]], $words),
        "discounts" => $discounts, "files" => $files] + $out;
    ob_end_clean();
}
exec("rm -rf " . escapeshellarg($work));
echo json_encode($out, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
