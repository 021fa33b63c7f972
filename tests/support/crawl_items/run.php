<?php
/**
 * Runs ParallelModel::nonNetworkGetCrawlItems on the cases of cases.php
 * over archives written here, and prints what each gave as JSON.
 *
 *   php run.php yioop YIOOP_DIR   Yioop's own classes (records the fixture)
 *   php run.php stand-ins         stand-ins.php: the native function alone
 *
 * Per case: the result (serialized), what PHP reported (warnings,
 * deprecations, an exception), the calls made to the model's
 * lookupSummaryOffsetGeneration and formatSinglePageResult in order, and
 * every partition's iterator_pos after it.
 */
namespace YioopCodec\Tests\CrawlItems;

use seekquarry\yioop\library as L;

[, $mode] = $argv;
if ($mode === 'yioop') {
    $src = $argv[2] . '/src';
    foreach (['library/CrawlConstants', 'library/Utility', 'library/compressors/Compressor',
        'library/compressors/GzipCompressor', 'library/WebArchive', 'library/WebArchiveBundle',
        'library/IndexArchiveBundle', 'library/IndexManager', 'models/Model',
        'models/ParallelModel'] as $file) {
        require_once "$src/$file.php";
    }
} else {
    require __DIR__ . '/stand-ins.php';
}
require __DIR__ . '/cases.php';

/** The model Yioop's method runs on, its two PHP callees recorded. */
class TestModel extends \seekquarry\yioop\models\ParallelModel
{
    public array $found = [];
    public array $calls = [];

    public function __construct()
    {
    }

    public function lookupSummaryOffsetGeneration($url_or_key, $index_name = "", $is_key = false)
    {
        $this->calls[] = ['lookup', $url_or_key, $index_name, $is_key];
        return $this->found[$url_or_key] ?? false;
    }

    public function formatSinglePageResult($page, $words = null, $description_length = 0)
    {
        $this->calls[] = ['format', $words, $description_length];
        return ['formatted' => $page, 'length' => $description_length];
    }
}

/** A record as WebArchive writes it: the 20-byte length header, then gzencode($text, 9). */
function record(string $text): string
{
    $body = gzencode($text, 9);
    return "\x1f\x8b\x08\x00" . pack("N", strlen($body)) . "\x00\x03\x03\x00" . str_repeat("\x00", 8) . $body;
}

$dir = sys_get_temp_dir() . '/crawl-items-' . getmypid();
@mkdir($dir);
$offsets = [];
$partitions = [];
foreach (archiveRecords() as $generation => $records) {
    $bytes = record(serialize(["DUMMY"]));
    foreach ($records as $name => $text) {
        $offsets[$name] = [strlen($bytes), $generation];
        $bytes .= record($text);
    }
    $file = "$dir/web_archive_$generation.txt.gz";
    file_put_contents($file, $bytes . str_repeat("\0", 64));
    $partitions[$generation] = new L\WebArchive($file, new L\compressors\GzipCompressor(), true);
}
$bundle = (new \ReflectionClass(L\WebArchiveBundle::class))->newInstanceWithoutConstructor();
$bundle->partition = $partitions;
$bundle->compressor = 'GzipCompressor';
$index = (new \ReflectionClass(L\IndexArchiveBundle::class))->newInstanceWithoutConstructor();
$index->summaries = $bundle;
$index->generation_info = ['ACTIVE' => 1, 'CURRENT' => 1];
L\IndexManager::$indexes = ['1700000000' => $index];

$out = [];
foreach (crawlItemsCases($offsets) as $name => $case) {
    foreach ($partitions as $partition) {
        $partition->iterator_pos = 0;
    }
    if (isset($case['damage'])) {
        // A byte of the record's deflate data flipped: same length, same trailer.
        [$at, $generation] = $offsets[$case['damage']];
        $fh = fopen($partitions[$generation]->filename, 'r+');
        fseek($fh, $at + 40);
        $byte = fread($fh, 1);
        fseek($fh, $at + 40);
        fwrite($fh, chr(ord($byte) ^ 0xff));
        fclose($fh);
    }
    $model = new TestModel();
    $model->found = $case['found'] ?? [];
    $reported = [];
    set_error_handler(function ($no, $message) use (&$reported) {
        $reported[] = "$no $message";
        return true;
    });
    try {
        $result = base64_encode(serialize($model->nonNetworkGetCrawlItems($case['lookups'],
            $case['exclude'], $case['format_words'] ?? null, $case['length'] ?? 2000)));
    } catch (\Throwable $e) {
        $result = null;
        $reported[] = get_class($e);
    }
    restore_error_handler();
    $out[$name] = ['result' => $result, 'reported' => $reported, 'calls' => $model->calls,
        'iterator_pos' => array_map(fn($p) => $p->iterator_pos, $partitions)];
}
foreach (glob("$dir/*") as $file) {
    unlink($file);
}
rmdir($dir);
echo json_encode($out, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
