<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use seekquarry\yioop\library\YioopLog;

require_once __DIR__ . "/../support/dictionary/autoload/register.php";
require_once __DIR__ . "/../support/yioop-log-stand-ins.php";

/** IndexDictionary's constants and the property mergeTierFiles reads. */
class MergeDictionaryStandIn
{
    const PREFIX_HEADER_SIZE = 2048;
    const NUM_PREFIX_LETTERS = 256;
    const AUX_RECORD_LEN = 10;
    const AUX_RECORD_BLANK = "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF";

    public function __construct(public $dir_name)
    {
    }
}

/** The same with another prefix index size: not the layout the native merges. */
final class OtherLayoutStandIn extends MergeDictionaryStandIn
{
    const PREFIX_HEADER_SIZE = 1024;
}

/**
 * yioop_codec\dictionary\mergeTierFiles against what Yioop's own
 * IndexDictionary::mergeTierFiles (PHP) made of the same pairs of tier
 * files, recorded by tests/tools/record/record-dictionary-merge.php into
 * tests/fixtures/dictionary/merges.json.gz: the merged file byte for byte
 * and both inputs removed; where the inputs are not whole records, false
 * with nothing changed.
 */
class DictionaryMergeTest extends TestCase
{
    /** The recorded cases whose files are not whole records. */
    private const LEFT_TO_YIOOP = ["a record cut off", "off the grid"];

    private static array $merges;
    private string $dir;

    public static function setUpBeforeClass(): void
    {
        self::$merges = json_decode(gzdecode(file_get_contents(__DIR__ . "/../fixtures/dictionary/merges.json.gz")), true)["merges"];
    }

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . "/yioop-merge-test-" . getmypid() . "-" . mt_rand();
        YioopLog::$lines = [];
    }

    protected function tearDown(): void
    {
        exec("rm -rf " . escapeshellarg($this->dir));
    }

    public static function merges(): array
    {
        $merges = json_decode(gzdecode(file_get_contents(__DIR__ . "/../fixtures/dictionary/merges.json.gz")), true)["merges"];
        return array_combine(array_column($merges, "name"), array_map(fn($m) => [$m], $merges));
    }

    /** The case's two files written where Yioop keeps them; their paths. */
    private function inputs(array $merge): array
    {
        $folder = "$this->dir/{$merge['prefix']}";
        @mkdir($folder, 0777, true);
        $paths = [];
        foreach (["A" => "a", "B" => "b"] as $slot => $key) {
            $paths[$slot] = "$folder/{$merge['tier']}$slot.dic";
            file_put_contents($paths[$slot], base64_decode($merge[$key]));
        }
        return $paths;
    }

    private function mergedPath(array $merge): string
    {
        return "$this->dir/{$merge['prefix']}/" . ($merge["tier"] + 1) . "{$merge['slot']}.dic";
    }

    /** @dataProvider merges */
    #[DataProvider('merges')]
    public function testMergesAsYioopDoes(array $merge): void
    {
        $paths = $this->inputs($merge);
        $done = \yioop_codec\dictionary\mergeTierFiles(new MergeDictionaryStandIn($this->dir),
            $merge["prefix"], $merge["tier"], $merge["slot"]);
        if (in_array($merge["name"], self::LEFT_TO_YIOOP, true)) {
            $this->assertFalse($done, "not whole records: Yioop's PHP merges them");
            $this->assertFileDoesNotExist($this->mergedPath($merge));
            $this->assertSame(base64_decode($merge["a"]), file_get_contents($paths["A"]));
            $this->assertSame(base64_decode($merge["b"]), file_get_contents($paths["B"]));
            return;
        }
        $this->assertTrue($done);
        $this->assertSame(md5(base64_decode($merge["out"])), md5_file($this->mergedPath($merge)),
            "the merged file is Yioop's");
        $this->assertSame($merge["remaining"], array_values(array_filter(["A", "B"], fn($s) => file_exists($paths[$s]))));
    }

    public function testOffersTheFirstProgressLineOfEachLoop(): void
    {
        $merge = self::$merges[0];
        $this->inputs($merge);
        $this->assertTrue(\yioop_codec\dictionary\mergeTierFiles(new MergeDictionaryStandIn($this->dir),
            $merge["prefix"], $merge["tier"], $merge["slot"]));
        $this->assertSame(["..merging index tier files for prefix {$merge['prefix']} tier {$merge['tier']}.",
            "..processing second index prefix 0 of 256."], YioopLog::$lines);
    }

    public function testLeavesOtherLayoutsAndArgumentsToYioop(): void
    {
        $merge = self::$merges[0];
        $paths = $this->inputs($merge);
        $dictionary = new MergeDictionaryStandIn($this->dir);
        foreach ([[new OtherLayoutStandIn($this->dir), $merge["prefix"], $merge["tier"]],
            [$dictionary, (string)$merge["prefix"], $merge["tier"]],
            [$dictionary, $merge["prefix"], 0.0 + $merge["tier"]],
            [new MergeDictionaryStandIn("data:,$this->dir"), $merge["prefix"], $merge["tier"]],
            [$dictionary, $merge["prefix"] + 1, $merge["tier"]]] as [$object, $prefix, $tier]) {
            $this->assertFalse(\yioop_codec\dictionary\mergeTierFiles($object, $prefix, $tier, $merge["slot"]));
        }
        $this->assertFileDoesNotExist($this->mergedPath($merge));
        $this->assertSame(base64_decode($merge["a"]), file_get_contents($paths["A"]));
        $this->assertSame(["A", "B"], array_values(array_filter(["A", "B"], fn($s) => file_exists($paths[$s]))));
    }
}
