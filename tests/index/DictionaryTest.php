<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

require_once __DIR__ . "/../support/dictionary/state.php";
require_once __DIR__ . "/../support/dictionary/autoload/register.php";
require_once __DIR__ . "/../support/LoadedExtension.php";

/**
 * yioop_codec\dictionary\getWordInfo against what Yioop's own
 * IndexDictionary::getWordInfo (PHP) returned, recorded by
 * tests/tools/record/record-dictionary.php into tests/fixtures/dictionary/recorded.json.gz:
 * a dictionary of six generations in two tiers that Yioop built, one
 * object answering a sequence of look-ups (results, $this->read_tier after
 * each), and the object's file queue, lengths and blocks after them, which
 * the native state must hand over to Yioop's PHP exactly. A copy with one
 * file cut short checks the reads at a file's end. Where the native
 * function must leave the call to Yioop's PHP, it returns null and changes
 * nothing.
 */
class DictionaryTest extends TestCase
{
    private const CONFIGS = "seekquarry\\yioop\\configs\\";
    private static array $recording;
    private static string $dir;

    public static function setUpBeforeClass(): void
    {
        self::$recording = json_decode(gzdecode(file_get_contents(__DIR__ . "/../fixtures/dictionary/recorded.json.gz")), true);
        self::$dir = sys_get_temp_dir() . "/yioop-dictionary-test-" . getmypid();
        foreach (self::$recording["files"] as $path => $bytes) {
            @mkdir(dirname(self::$dir . "/$path"), 0777, true);
            file_put_contents(self::$dir . "/$path", base64_decode($bytes));
        }
        foreach (self::$recording["constants"] + ["NS_CONFIGS" => self::CONFIGS] as $name => $value) {
            if (!defined(self::CONFIGS . $name)) {
                define(self::CONFIGS . $name, $value);
            }
        }
        if (!function_exists(self::CONFIGS . "yioop_error_handler")) {
            eval("namespace seekquarry\\yioop\\configs; function yioop_error_handler() { return true; }");
        }
    }

    public static function tearDownAfterClass(): void
    {
        exec("rm -rf " . escapeshellarg(self::$dir));
        @unlink(dirname(self::$dir) . "/" . self::dataNamedLink());
    }

    private static function dataNamedLink(): string
    {
        return "data:," . basename(self::$dir);
    }

    /** Marks where the error-handler stack stood when the test began. */
    private \Closure $handlerMark;

    protected function setUp(): void
    {
        $this->handlerMark = static fn() => false;
        set_error_handler($this->handlerMark);
    }

    /**
     * Leaves the error-handler stack as the test found it: Yioop's reads,
     * and so the native ones, stack set_error_handler(null) and Yioop's
     * handler for each file they open, which a request's end would clear.
     * (PHPUnit 11 checks the stack after each test.)
     */
    protected function tearDown(): void
    {
        for ($popped = 0; $popped < 100000; $popped++) {
            $top = set_error_handler(null); // the current handler ...
            restore_error_handler();
            restore_error_handler(); // ... taken off
            if ($top === $this->handlerMark) {
                return;
            }
        }
        $this->fail("the error handler setUp stacked is gone");
    }

    private function dictionary(string $dir = null): DictionaryStandIn
    {
        $parent = new \stdClass();
        $parent->generation_info = ["ACTIVE" => 6, "LAST_DICTIONARY_SHARD" => 5];
        return new DictionaryStandIn($dir ?? self::$dir, self::$recording["active_tiers"],
            self::$recording["max_tier"], $parent);
    }

    private static function call(DictionaryStandIn $dictionary, array $call, bool $raw = true): mixed
    {
        [$threshold, $start, $distinct, $with_total] = $call["args"];
        return \yioop_codec\dictionary\getWordInfo($dictionary, base64_decode($call["id"]), $raw,
            $threshold, $start, $distinct, $with_total);
    }

    public function testLookUpsAndTheStateHandedOverAreYioops(): void
    {
        $dictionary = $this->dictionary();
        $calls = self::$recording["sequence"]["calls"];
        $this->assertGreaterThan(200, count($calls));
        foreach ($calls as $i => $call) {
            $result = self::call($dictionary, $call);
            $this->assertNotNull($result, "call $i declined");
            $this->assertSame(base64_decode($call["result"]), serialize($result), "call $i");
            $this->assertSame($call["read_tier"], $dictionary->read_tier, "call $i: read_tier");
        }
        // Natively the object's arrays stay as the constructor left them ...
        $this->assertSame(["QUEUE" => []], $dictionary->fhs);
        $this->assertNull($dictionary->blocks);
        // ... until a call declines (raw ids only): then they are Yioop's.
        $this->assertNull(self::call($dictionary, $calls[0], false));
        $this->assertSame(self::$recording["sequence"]["state"], dictionaryState($dictionary));
        // From then on the object is Yioop's PHP's.
        $this->assertNull(self::call($dictionary, $calls[0]));
    }

    public function testResultsUnchangedWhenTheFilesAreReadAgain(): void
    {
        // A second object reads the same files (through the shared blocks).
        $dictionary = $this->dictionary();
        foreach (array_slice(self::$recording["sequence"]["calls"], 0, 60) as $i => $call) {
            $this->assertSame(base64_decode($call["result"]), serialize(self::call($dictionary, $call)), "call $i");
        }
    }

    public function testLookUpsAskedAgainAnswerAsYioopsObjectDoes(): void
    {
        // Yioop's object keeps every block it read, so the same look-ups
        // again give the same results and read_tier, and read nothing new.
        $dictionary = $this->dictionary();
        $calls = self::$recording["sequence"]["calls"];
        foreach ([1, 2] as $pass) {
            foreach ($calls as $i => $call) {
                $this->assertSame(base64_decode($call["result"]), serialize(self::call($dictionary, $call)), "pass $pass, call $i");
                $this->assertSame($call["read_tier"], $dictionary->read_tier, "pass $pass, call $i: read_tier");
            }
        }
        $this->assertNull(self::call($dictionary, $calls[0], false));
        $this->assertSame(self::$recording["sequence"]["state"], dictionaryState($dictionary));
    }

    public function testALookUpAskedAgainSeesATierFileThatWasMissing(): void
    {
        // Yioop caches no read of a missing file: asked again, its object
        // looks for the file again and finds it.
        $copy = self::$dir . "-missing";
        exec("cp -r " . escapeshellarg(self::$dir) . " " . escapeshellarg($copy));
        try {
            $call = self::$recording["sequence"]["calls"][0];
            $file = "$copy/" . ord(base64_decode($call["id"])[0]) . "/1A.dic";
            rename($file, "$file.away");
            $dictionary = $this->dictionary($copy);
            $without = serialize(self::call($dictionary, $call));
            $this->assertNotSame(base64_decode($call["result"]), $without, "tier 1 holds part of the answer");
            $this->assertSame($without, serialize(self::call($dictionary, $call)), "still missing");
            rename("$file.away", $file);
            $this->assertSame(base64_decode($call["result"]), serialize(self::call($dictionary, $call)));
        } finally {
            exec("rm -rf " . escapeshellarg($copy));
        }
    }

    public function testAFileCutShortReadsAsYioopsOrDeclines(): void
    {
        $cut = self::$dir . "-cut";
        exec("cp -r " . escapeshellarg(self::$dir) . " " . escapeshellarg($cut));
        try {
            $file = "$cut/" . self::$recording["cut"]["file"];
            file_put_contents($file, substr(file_get_contents($file), 0, self::$recording["cut"]["length"]));
            $dictionary = $this->dictionary($cut);
            foreach (self::$recording["cut"]["calls"] as $i => $call) {
                $result = self::call($dictionary, $call);
                if ($call["warned"]) {
                    $this->assertNull($result, "call $i: Yioop warned");
                    return;
                }
                $this->assertSame(base64_decode($call["result"]), serialize($result), "call $i");
            }
        } finally {
            exec("rm -rf " . escapeshellarg($cut));
        }
    }

    public function testEachFileOpenedLeavesYioopsErrorHandlerStacked(): void
    {
        set_error_handler(fn() => false);
        try {
            $dictionary = $this->dictionary();
            $this->assertNotNull(self::call($dictionary, self::$recording["sequence"]["calls"][0]));
            // Yioop: set_error_handler(null), then its own handler, per file.
            $this->assertSame(self::CONFIGS . "yioop_error_handler", set_error_handler(null));
            restore_error_handler();
            restore_error_handler();
            $this->assertNull(set_error_handler(null));
            restore_error_handler();
        } finally {
            while (set_error_handler(null) !== null) {
                restore_error_handler();
                restore_error_handler();
            }
            restore_error_handler();
            restore_error_handler();
        }
    }

    public static function declinedCalls(): iterable
    {
        yield "not a raw id" => [fn(&$args, $d) => $args[1] = false];
        yield "threshold a string" => [fn(&$args, $d) => $args[2] = "5"];
        yield "start generation a float" => [fn(&$args, $d) => $args[3] = 1.0];
        yield "distinct generations not an int's string" => [fn(&$args, $d) => $args[4] = "2.5"];
        yield "a one-byte id" => [fn(&$args, $d) => $args[0] = "a"];
        yield "fhs used by PHP" => [fn(&$args, $d) => $d->fhs["QUEUE"][] = [1, "1"]];
        yield "blocks used by PHP" => [fn(&$args, $d) => $d->blocks = [1 => []]];
        yield "a tier not a string" => [fn(&$args, $d) => $d->active_tiers = [2, 1]];
        yield "a tier not canonical" => [fn(&$args, $d) => $d->active_tiers = ["02"]];
        yield "no dir_name" => [fn(&$args, $d) => $d->dir_name = null];
        yield "ACTIVE not an int" => [fn(&$args, $d) => $d->parent_archive_bundle->generation_info["ACTIVE"] = "6"];
        // PHP opens "data:..." as a URL (RFC 2397), even where a directory
        // of that name holds the dictionary: the native reads must not.
        yield "a data: URL that is also a directory's name" => [function (&$args, $d) {
            $name = self::dataNamedLink();
            is_link(dirname(self::$dir) . "/$name") || symlink(self::$dir, dirname(self::$dir) . "/$name");
            chdir(dirname(self::$dir));
            $d->dir_name = $name;
        }];
    }

    /** @dataProvider declinedCalls */
    #[DataProvider('declinedCalls')]
    public function testDeclinesChangeNothing(\Closure $change): void
    {
        $dictionary = $this->dictionary();
        $call = self::$recording["sequence"]["calls"][0];
        [$threshold, $start, $distinct, $with_total] = $call["args"];
        $args = [base64_decode($call["id"]), true, $threshold, $start, $distinct, $with_total];
        $change($args, $dictionary);
        $before = serialize($dictionary);
        $this->assertNull(\yioop_codec\dictionary\getWordInfo($dictionary, ...$args));
        $this->assertSame($before, serialize($dictionary));
    }

    /**
     * Yioop's body names IndexShard::WORD_DATA_LEN: in a fresh process its
     * autoload includes Utility.php, whose functions Yioop's callers then
     * use (crawlHashWord, ...), as recorded from Yioop
     * (tests/tools/record/record-dictionary-autoload.php). After a native
     * look-up they must be loaded too (a child process with an autoloader
     * of Yioop's kind over stand-ins of the two files).
     */
    public function testALookUpLoadsIndexShardAndUtilityAsYioopsBodyDoes(): void
    {
        $call = self::$recording["sequence"]["calls"][0];
        $setup = tempnam(sys_get_temp_dir(), "dictionary-autoload");
        file_put_contents($setup, json_encode(["dir" => self::$dir,
            "active_tiers" => self::$recording["active_tiers"], "max_tier" => self::$recording["max_tier"],
            "constants" => self::$recording["constants"], "id" => $call["id"], "args" => $call["args"]]));
        $cmd = [PHP_BINARY, "-d", "extension=" . LoadedExtension::path(),
            __DIR__ . "/../support/dictionary/autoload-child.php", $setup];
        $p = proc_open($cmd, [1 => ["pipe", "w"], 2 => ["pipe", "w"]], $pipes);
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        proc_close($p);
        unlink($setup);
        $this->assertSame("", $err);
        // What Yioop's own body left loaded (record-dictionary-autoload.php).
        $yioop = json_decode(file_get_contents(__DIR__ . "/../fixtures/dictionary/autoload.json"), true);
        $this->assertSame([true, true], $yioop["after"]);
        $this->assertSame(["before" => $yioop["before"], "answered" => true, "after" => $yioop["after"]],
            json_decode($out, true), $out);
    }

    public function testAnUnreadableObjectDeclines(): void
    {
        $this->assertNull(\yioop_codec\dictionary\getWordInfo(new \stdClass(), "ab", true));
    }
}
