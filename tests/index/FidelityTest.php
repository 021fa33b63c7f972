<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use function YioopCodec\Fidelity\runScenario;

require_once __DIR__ . "/../support/fidelity/scenarios.php";

/**
 * The native IndexShard functions against Yioop's own IndexShard in the
 * fidelity scenarios (tests/support/fidelity/scenarios.php): a stock install's
 * string-valued profile and other constants PHP accepts, references to the
 * shard's properties, arguments Yioop never passes, shard files that change
 * while objects have them open, and damaged shards. What Yioop's PHP did is
 * recorded in tests/fixtures/shard/fidelity/recorded.json.gz (tests/tools/record/record-fidelity.php;
 * PHP 8.2), with recorded-phpX.Y.json.gz over it where Yioop did otherwise on
 * PHP X.Y (8.4: two scenarios, its stat cache);
 * each scenario runs natively in a PHP process of its own, with this
 * process's build of the extension.
 *
 * The rule held to: a native call gives Yioop's result, by-reference
 * arguments and object state, or declines (returns null, so that the
 * switched method runs Yioop's PHP). It must decline where Yioop warned or
 * threw, and may elsewhere only where the step allows it. A declined call
 * hands the object's block cache over exactly as Yioop's own reads would
 * have left it, and at the end every object's cache must be Yioop's.
 * Where Yioop's loop never returns, the native call throws a ValueError.
 *
 * With YIOOP_DIR set, the same scenarios are recorded afresh from that
 * tree first (FIDELITY_MUTANTS=N tries the first N damaged shards; by
 * default 26 of them).
 */
class FidelityTest extends TestCase
{
    private static ?array $recorded = null;

    private static function recorded(): array
    {
        if (self::$recorded === null) {
            $yioop = getenv("YIOOP_DIR");
            if ($yioop) {
                $file = tempnam(sys_get_temp_dir(), "fidelity");
                exec(escapeshellarg(PHP_BINARY) . " " . escapeshellarg(__DIR__ . "/../tools/record/record-fidelity.php")
                    . " " . escapeshellarg($yioop) . " " . escapeshellarg($file) . " 2>/dev/null", $_, $status);
                self::assertSame(0, $status, "recording from $yioop");
                self::$recorded = json_decode(gzdecode(file_get_contents($file)), true);
                unlink($file);
            } else {
                $fixtures = __DIR__ . "/../fixtures/shard/fidelity";
                self::$recorded = json_decode(gzdecode(file_get_contents("$fixtures/recorded.json.gz")), true);
                // Scenarios in which Yioop's PHP does otherwise on this PHP
                // version (recorded there; tests/tools/record/record-fidelity.php).
                $version = "$fixtures/recorded-php" . PHP_MAJOR_VERSION . "." . PHP_MINOR_VERSION . ".json.gz";
                if (is_file($version)) {
                    self::$recorded = json_decode(gzdecode(file_get_contents($version)), true) + self::$recorded;
                }
            }
        }
        return self::$recorded;
    }

    public static function scenarioNames(): iterable
    {
        foreach (array_keys(\YioopCodec\Fidelity\scenarios()) as $name) {
            yield $name => [$name];
        }
    }

    /** @dataProvider scenarioNames */
    #[DataProvider('scenarioNames')]
    public function testNativeCallsDoWhatYioopDid(string $name): void
    {
        $scenario = \YioopCodec\Fidelity\scenarios()[$name];
        if (ini_get("yioop.format") === "2015" && in_array("build", array_column($scenario["steps"], 0), true)) {
            $this->markTestSkipped("recorded from Yioop's 2021 line, whose postings are built in the 2019 format");
        }
        $yioop = self::recorded()[$name] ?? null;
        $this->assertNotNull($yioop, "scenario '$name' is recorded (tests/tools/record/record-fidelity.php)");
        $settings = ["-n", "-d", "extension=" . LoadedExtension::path()];
        foreach (["yioop.format", "yioop.opencl", "yioop.opencl_min_length"] as $setting) {
            array_push($settings, "-d", "$setting=" . ini_get($setting)); // this run's mode
        }
        $native = runScenario("native", $name, [], [], $settings);
        $this->assertSame($yioop["constants"], $native["constants"], "configuration constants as Yioop defines them");
        $php = []; // objects handed over to Yioop's PHP
        $before = []; // each object's block cache in Yioop before its current call
        foreach ($scenario["steps"] as $i => $step) {
            if ($step[0] === "new" || $step[0] === "build") {
                $before[$step[1]] = null;
                unset($php[$step[1]]);
            }
            if ($step[0] !== "call") {
                continue;
            }
            [, $obj, $method] = $step;
            if (!empty($native["steps"]["calls"][$i]["skipped"])) {
                $this->assertTrue(isset($php[$obj]), "$name, step $i: skipped only after its object declined");
                continue;
            }
            $may = in_array("may_decline", $step[4] ?? [], true);
            $this->compareCall("$name, step $i: $method", $yioop["steps"]["calls"][$i], $native["steps"]["calls"][$i],
                $may, $php, $obj, $before[$obj]);
            $before[$obj] = self::cache($yioop["steps"]["calls"][$i]);
        }
        foreach ($yioop["steps"]["final"] as $obj => $final) {
            if (isset($php[$obj])) {
                continue; // Yioop's PHP's since a call declined
            }
            $got = $native["steps"]["final"][$obj];
            $this->assertSame($final["state"], $got["state"], "$name: $obj's state at the end");
            $this->assertTrue($got["declined"], "$name: $obj hands over when a call declines");
            $this->assertSame(self::cache($final), self::cache($got),
                "$name: $obj's file handle and block cache at the end are Yioop's");
        }
    }

    private function compareCall(string $what, array $yioop, array $native, bool $may, array &$php, string $obj, ?array $before): void
    {
        $yioop_raised = $yioop["warnings"] !== [] || isset($yioop["threw"]);
        if (!empty($native["declined"])) {
            $this->assertTrue($may || $yioop_raised || isset($php[$obj]),
                "$what: declined, where Yioop neither warned nor threw");
            if (!isset($php[$obj])) {
                $empty = ["sha1" => sha1(serialize([]))];
                $this->assertSame($before ?? [null, $empty, $empty], self::cache($native["handed_over"]),
                    "$what: the file handle and block cache handed over are Yioop's before the call");
                $php[$obj] = true;
            }
            $this->assertSame([], $native["warnings"], "$what: a declined call raises nothing itself");
            return;
        }
        if (!empty($yioop["hangs"])) {
            $this->assertSame("ValueError", $native["threw"] ?? null, "$what: Yioop never returns; a ValueError");
            return;
        }
        $this->assertFalse($yioop_raised, "$what: Yioop warned or threw (" . json_encode($yioop["warnings"])
            . ($yioop["threw"] ?? "") . "), and the native call did not decline");
        $this->assertSame($yioop["result"] ?? null, $native["result"] ?? null, "$what: result");
        $this->assertSame($yioop["refs"], $native["refs"], "$what: by-reference arguments");
        $this->assertNull($native["threw"] ?? null, "$what: " . ($native["message"] ?? ""));
        $this->assertSame($yioop["warnings"], $native["warnings"], "$what: warnings");
        $this->assertSame($yioop["state"], $native["state"], "$what: the object's state");
    }

    /** What Yioop's PHP reads an object through: fh, blocks, blocks_words. */
    private static function cache(array $outcome): array
    {
        return [$outcome["fh"], $outcome["blocks"], $outcome["blocks_words"]];
    }
}
