<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

require_once __DIR__ . "/../support/LoadedExtension.php";
require_once __DIR__ . "/../support/SettingProcess.php";

/**
 * yioop_codec\dictionary\addShardDictionary against what Yioop's own
 * IndexDictionary::addShardDictionary (PHP) did with five shards added to a
 * fresh dictionary one after another, recorded by
 * tests/tools/record/record-dictionary-add.php into
 * tests/fixtures/dictionary/adds.json.gz: after each, every file of the
 * dictionary byte for byte (tier-0 files and the tiers merged up, through
 * mergeTier and the native mergeTierFiles), max_tier and its file, and the
 * result. In a process of its own, where a class of IndexShard's name can
 * be declared: stand-ins give the recorded shard files through
 * getShardSubstring, and the dictionary's mergeTier and
 * calculateActiveTiers as Yioop's do their work.
 */
class DictionaryAddTest extends TestCase
{
    public function testAddsAndMergesAsYioopDoes(): void
    {
        $fixture = __DIR__ . "/../fixtures/dictionary/adds.json.gz";
        $dir = sys_get_temp_dir() . "/yioop-add-test-" . getmypid();
        try {
            [$replayed] = SettingProcess::run("yioop.format", "2019", self::replay($fixture, $dir));
        } finally {
            exec("rm -rf " . escapeshellarg($dir));
        }
        $recorded = json_decode(gzdecode(file_get_contents($fixture)), true)["adds"];
        $this->assertCount(count($recorded), $replayed);
        foreach ($recorded as $i => $add) {
            $this->assertTrue($replayed[$i]["result"], "shard $i: added natively");
            $this->assertSame($add["files"], $replayed[$i]["files"], "shard $i: the dictionary's files are Yioop's");
            $this->assertSame($add["max_tier"], $replayed[$i]["max_tier"], "shard $i: max_tier");
            $this->assertSame($add["active_tiers"], $replayed[$i]["active_tiers"], "shard $i: active tiers");
        }
        $this->assertSame(["Adding shard data to index dictionary files...",
            "Incrementally Merging tiers of index dictionary",
            "...Done Incremental Merging of Index Dictionary Tiers"], $replayed[0]["log"]);
        $this->assertContains("..Merging index 0 to 1A", $replayed[1]["log"]);
    }

    /** The child's script: prints [one entry per shard added]. */
    private static function replay(string $fixture, string $dir): string
    {
        return 'namespace seekquarry\\yioop\\library;
            function crawlLog($msg) { $GLOBALS["log"][] = $msg; }
            function crawlTimeoutLog($msg, ...$args) {}
            class IndexShard {
                const HEADER_LENGTH = 40;
                const WORD_KEY_LEN = 20;
                const WORD_DATA_LEN = 12;
                const BLANK = "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF";
                public $prefixes_len = 0;
                public function __construct(private string $bytes, private int $len) {}
                public function getShardHeader() { $this->prefixes_len = $this->len; return true; }
                public function getShardSubstring($offset, $len, $cache = true) { return substr($this->bytes, $offset, $len); }
            }
            class DictionaryStandIn {
                const PREFIX_HEADER_SIZE = 2048;
                const PREFIX_ITEM_SIZE = 8;
                const NUM_PREFIX_LETTERS = 256;
                const AUX_RECORD_LEN = 10;
                const AUX_RECORD_BLANK = "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF";
                public $max_tier = 0;
                public $active_tiers = [];
                public function __construct(public $dir_name) {}
                public function mergeTier($tier, $out_slot) {
                    for ($i = 0; $i < 256; $i++) {
                        \yioop_codec\dictionary\mergeTierFiles($this, $i, $tier, $out_slot) or exit("merged by PHP");
                    }
                }
                public function calculateActiveTiers() {
                    $tiers = array_map(fn($f) => (int)basename($f, "A.dic"), glob($this->dir_name . "/0/*A.dic"));
                    rsort($tiers);
                    $this->active_tiers = array_map("strval", $tiers);
                }
            }
            $dir = ' . var_export($dir, true) . ';
            for ($i = 0; $i < 256; $i++) { mkdir("$dir/$i", 0777, true); }
            file_put_contents("$dir/max_tier.txt", serialize(0));
            $dictionary = new DictionaryStandIn($dir);
            $out = [];
            foreach (json_decode(gzdecode(file_get_contents(' . var_export($fixture, true) . ')), true)["adds"] as $add) {
                $GLOBALS["log"] = [];
                $shard = new IndexShard(base64_decode($add["shard"]), $add["prefixes_len"]);
                $result = \yioop_codec\dictionary\addShardDictionary($dictionary, $shard, null);
                $files = [];
                foreach (new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($dir, \FilesystemIterator::SKIP_DOTS)) as $path) {
                    $files[substr($path, strlen($dir) + 1)] = md5_file($path);
                }
                ksort($files);
                $out[] = ["result" => $result, "files" => $files, "max_tier" => $dictionary->max_tier,
                    "active_tiers" => $dictionary->active_tiers, "log" => $GLOBALS["log"]];
            }
            echo json_encode([$out]), "\n";';
    }
}
