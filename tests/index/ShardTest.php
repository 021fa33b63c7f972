<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

/**
 * The native yioop_codec\shard\* functions against what Yioop's own
 * IndexShard (PHP, read from disk) returned on the same shard files,
 * recorded by tests/tools/record/record-shard.php into tests/fixtures/shard/: a shard Yioop
 * built, and a truncated copy whose last block is ragged. Where Yioop warned
 * or threw, the native call must decline (return null, leaving the call to
 * Yioop's PHP, which warns or throws itself); where Yioop's loop never
 * returned ("hangs"), the native call must throw a ValueError instead of
 * looping.
 */
class ShardTest extends TestCase
{
    public static function recordedCalls(): iterable
    {
        foreach (glob(__DIR__ . "/../fixtures/shard/shard-*.json") as $json) {
            $recording = json_decode(file_get_contents($json), true);
            foreach ($recording["calls"] as $i => $call) {
                yield basename($json) . ":$i " . $call["method"] => [$recording["file"], $call, $recording["constants"]];
            }
        }
    }

    /** @dataProvider recordedCalls */
    #[DataProvider('recordedCalls')]
    public function testNativeCallReturnsWhatYioopReturned(string $file, array $call, array $constants): void
    {
        self::defineYioopConstants($constants);
        $shard = new RecordedShard(__DIR__ . "/../fixtures/shard/$file", $call["header"]);
        $args = array_map([self::class, "untyped"], $call["given"] ?? $call["args"]);
        $function = "yioop_codec\\shard\\" . $call["method"];
        $result = $call["result"];
        if (is_array($result) && isset($result["hangs"])) {
            $this->expectException(\ValueError::class);
        }
        $actual = $function($shard, ...$args);
        if (is_array($result) && (isset($result["throws"]) || isset($result["warns"]))) {
            $this->assertNull($actual, "declined: Yioop's PHP " . (isset($result["throws"]) ? "throws" : "warns"));
            return;
        }
        if (isset($result["serialized"])) {
            // Slices: serialize() shows types, key order and float bits.
            $this->assertSame(gzinflate(base64_decode($result["serialized"])), serialize($actual));
            $this->assertSame(self::untyped($call["args"][1]), $args[1], "next offset");
            return;
        }
        $this->assertSame(self::untyped($result), $actual);
        if ($call["method"] == "getPostingAtOffset") {
            $this->assertSame(self::untyped($call["args"][1]), $args[1], "posting start");
            $this->assertSame(self::untyped($call["args"][2]), $args[2], "posting end");
        }
    }

    /**
     * Yioop's configuration constants the native slices read, as Yioop's
     * Config.php defined them when the calls were recorded.
     */
    private static function defineYioopConstants(array $constants): void
    {
        foreach ($constants as $name => $value) {
            $name = "seekquarry\\yioop\\configs\\$name";
            if (!defined($name)) {
                define($name, $value);
            }
            if (constant($name) !== $value) {
                throw new \LogicException("$name is already defined as " . var_export(constant($name), true));
            }
        }
    }

    public function testSlicesReadTheConfigurationAtEachCall(): void
    {
        $recording = json_decode(file_get_contents(__DIR__ . "/../fixtures/shard/shard-2.json"), true);
        self::defineYioopConstants($recording["constants"]);
        $args = $recording["calls"][4]["given"];
        $shard = new RecordedShard(__DIR__ . "/../fixtures/shard/shard-2.bin", true);
        $items = \yioop_codec\shard\postingsSliceAscending($shard, ...$args);
        // A relevance that depends on the title weight; proximity is the weight itself.
        $this->assertSame(4.0, reset($items)["bo"]);
        $this->assertIsString(reset($items)["N"]);
        $this->assertMatchesRegularExpression('/^\d+\.\d{10}$/', reset($items)["N"], "number_format, PRECISION 10");
    }

    /** A recording's typed value back as PHP (strings were base64). */
    private static function untyped($value)
    {
        if (is_array($value) && array_key_exists("s", $value)) {
            return base64_decode($value["s"]);
        }
        if (is_array($value) && array_key_exists("a", $value)) {
            return array_map([self::class, "untyped"], $value["a"]);
        }
        return $value;
    }

    public function testShardObjectLearnsItsFileLengthOnFirstRead(): void
    {
        $file = __DIR__ . "/../fixtures/shard/shard-0.bin";
        $shard = new RecordedShard($file, false);
        $this->assertNull($shard->file_len);
        \yioop_codec\shard\getShardWord($shard, 0);
        $this->assertSame(filesize($file), $shard->file_len);
    }

    public function testWordInfoLoadsTheHeaderAsGetShardHeaderDoes(): void
    {
        $file = __DIR__ . "/../fixtures/shard/shard-0.bin";
        $shard = new RecordedShard($file, false);
        \yioop_codec\shard\getWordInfo($shard, "", true);
        $expected = new RecordedShard($file, true);
        foreach (RecordedShard::HEADER as $field) {
            $this->assertSame($expected->$field, $shard->$field, $field);
        }
        $this->assertSame($expected->word_doc_offset, $shard->word_doc_offset);
        $this->assertSame($expected->doc_info_offset, $shard->doc_info_offset);
    }

    public function testAMissingFileReadsAsYioopsFalse(): void
    {
        $shard = new RecordedShard("/nonexistent/shard", false);
        $this->assertFalse(\yioop_codec\shard\getShardWord($shard, 0));
        $this->assertSame("", \yioop_codec\shard\getShardSubstring($shard, 0, 10));
        $this->assertFalse(\yioop_codec\shard\getWordInfo($shard, "ab", true));
        $this->assertNull($shard->file_len);
    }

    public function testARewrittenFileIsNeverServedStale(): void
    {
        $file = tempnam(sys_get_temp_dir(), "shard");
        try {
            file_put_contents($file, pack("N*", 1, 2, 3));
            $this->assertSame(2, \yioop_codec\shard\getShardWord(new RecordedShard($file, false), 4));
            file_put_contents($file, pack("N*", 7, 8, 9, 10));
            $this->assertSame(8, \yioop_codec\shard\getShardWord(new RecordedShard($file, false), 4));
        } finally {
            unlink($file);
        }
    }
}
