<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

require_once __DIR__ . "/../support/archive/stand-ins.php";

/**
 * The native yioop_codec\archive\getObjects against what Yioop's own
 * WebArchive::getObjects (PHP) returned, recorded by
 * tests/tools/record/record-archive.php into tests/fixtures/archive/archive.json.gz: an
 * archive Yioop wrote and damaged copies of it, read at every record with
 * several counts, flags, handles and limits. Where Yioop logged a blank line
 * or warned, the native call must decline (return null) having changed
 * nothing; where the recording says the native code may decline, it either
 * declines or gives Yioop's answer; everywhere else it gives Yioop's answer:
 * the objects (compared as serialize() output: types, keys and order), the
 * iterator position and the handle's position.
 */
class SummariesTest extends TestCase
{
    private static ?array $recording = null;
    private static string $dir = "";

    private static function recording(): array
    {
        if (self::$recording === null) {
            self::$recording = json_decode(gzdecode(file_get_contents(
                __DIR__ . "/../fixtures/archive/archive.json.gz")), true, 512, JSON_THROW_ON_ERROR);
        }
        return self::$recording;
    }

    /** The recorded archive $name as a file. */
    private static function archiveFile(string $name): string
    {
        if (self::$dir === "") {
            self::$dir = sys_get_temp_dir() . "/summaries-test-" . getmypid();
            @mkdir(self::$dir);
            register_shutdown_function(function () {
                array_map('unlink', glob(self::$dir . "/*"));
                @rmdir(self::$dir);
            });
        }
        $file = self::$dir . "/$name.txt.gz";
        if (!is_file($file)) {
            [$splices, $length] = self::recording()["versions"][$name];
            $bytes = base64_decode(self::recording()["good"]);
            foreach ($splices as [$at, $removed, $put]) {
                $bytes = substr_replace($bytes, base64_decode($put), $at, $removed);
            }
            file_put_contents($file, $length < 0 ? $bytes : substr($bytes, 0, $length));
        }
        return $file;
    }

    public static function recordedCalls(): iterable
    {
        foreach (self::recording()["calls"] as $i => $call) {
            yield "$i {$call['archive']} @{$call['offset']} x{$call['num']}"
                . ($call["handle"] ? " fh" : "") => [$call];
        }
    }

    /** @dataProvider recordedCalls */
    #[DataProvider('recordedCalls')]
    public function testNativeCallGivesWhatYioopGave(array $call): void
    {
        $file = self::archiveFile($call["archive"]);
        $archive = new ArchiveStandIn(empty($call["url"]) ? $file
            : "data:application/octet-stream;base64," . base64_encode(file_get_contents($file)));
        $fh = null;
        if ($call["handle"]) {
            $fh = fopen($file, "r");
            fseek($fh, 3);
        }
        [$result, $errors] = self::quietly(fn() => \yioop_codec\archive\getObjects($archive,
            $call["offset"], $call["num"], $call["next_flag"], $fh, $call["max_size"]));
        $this->assertSame([], $errors, "no warning, notice or output of its own");
        if ($result === null) {
            $this->assertTrue($call["noisy"] || $call["may_decline"] !== "",
                "declined where Yioop is quiet and the recording does not allow it");
            $this->assertSame(7, $archive->iterator_pos, "a decline changes nothing");
            if ($fh) {
                $this->assertSame(3, ftell($fh), "a decline leaves the handle");
            }
            return;
        }
        $this->assertFalse($call["noisy"], "Yioop logged or warned: the call is Yioop's");
        $expected = base64_decode(self::recording()["results"][$call["result"]]);
        $this->assertSame($expected, serialize($result));
        $this->assertSame($call["iterator_pos"], serialize($archive->iterator_pos));
        if ($fh) {
            $this->assertSame($call["tell"], ftell($fh), "the handle where Yioop's reads leave it");
            $this->assertSame($call["eof"], feof($fh));
        }
    }

    public function testEveryKindOfRecordedCallIsAnswered(): void
    {
        // The decline rules must not swallow what Yioop reads quietly.
        $answered = 0;
        foreach (self::recording()["calls"] as $call) {
            if (!$call["noisy"] && $call["may_decline"] === "") {
                $answered++;
            }
        }
        $this->assertGreaterThan(150, $answered);
    }

    /** [what $run returns, the errors raised and the output printed during it] */
    private static function quietly(callable $run): array
    {
        $errors = [];
        set_error_handler(function (int $no, string $message) use (&$errors) {
            if (error_reporting() & $no) {
                $errors[] = $message;
            }
            return true;
        });
        $before = error_reporting();
        ob_start();
        try {
            $result = $run();
        } finally {
            $printed = ob_get_clean();
            restore_error_handler();
        }
        if ($printed !== "") {
            $errors[] = "printed: $printed";
        }
        if (error_reporting() !== $before) {
            $errors[] = "error_reporting changed";
        }
        return [$result, $errors];
    }

    /** A good record's offset and what reading it gives, for the decline cases. */
    private static function goodCall(): array
    {
        foreach (self::recording()["calls"] as $call) {
            if ($call["archive"] === "good" && !$call["noisy"] && !$call["handle"]
                && $call["num"] === 1 && $call["offset"] > 0) {
                return $call;
            }
        }
        throw new \LogicException("no good call recorded");
    }

    public static function declines(): iterable
    {
        $other = new class {
        };
        yield "another compressor" => [fn(string $f) => new ArchiveStandIn($f, $other), null];
        yield "a string archive" => [function (string $f) {
            $a = new ArchiveStandIn($f);
            $a->is_string = true;
            return $a;
        }, null];
        yield "no such file" => [fn(string $f) => new ArchiveStandIn("$f.missing"), null];
        yield "a stream wrapper" => [fn(string $f) => new ArchiveStandIn("file://$f"), null];
        // fopen reads "data:..." as a URL (RFC 2397), even where a file of
        // that name exists: the native reads must not open the file.
        yield "a data: URL that is also a file's name" => [function (string $f) {
            $name = "data:,yioop";
            copy($f, dirname($f) . "/$name");
            chdir(dirname($f));
            return new ArchiveStandIn($name);
        }, null];
        yield "a filename that is no string" => [function (string $f) {
            $a = new ArchiveStandIn($f);
            $a->filename = [$f];
            return $a;
        }, null];
        yield "a memory stream" => [fn(string $f) => new ArchiveStandIn($f),
            fn(string $f) => fopen("php://memory", "r+")];
        yield "a write-only handle" => [fn(string $f) => new ArchiveStandIn($f),
            fn(string $f) => fopen($f, "a")];
        yield "a handle with a read filter" => [fn(string $f) => new ArchiveStandIn($f),
            function (string $f) {
                $fh = fopen($f, "r");
                stream_filter_append($fh, "string.rot13", STREAM_FILTER_READ);
                return $fh;
            }];
        yield "a handle that is no resource" => [fn(string $f) => new ArchiveStandIn($f),
            fn(string $f) => "is_string"];
    }

    /** @dataProvider declines */
    #[DataProvider('declines')]
    public function testDeclinesWhatItDoesNotReproduce(callable $archive, ?callable $handle): void
    {
        $call = self::goodCall();
        $file = self::archiveFile("good");
        $cwd = getcwd();
        try {
            $a = $archive($file);
            $fh = $handle ? $handle($file) : null;
            [$result, $errors] = self::quietly(fn() => \yioop_codec\archive\getObjects($a,
                $call["offset"], 1, true, $fh, $call["max_size"]));
        } finally {
            chdir($cwd);
        }
        $this->assertNull($result);
        $this->assertSame([], $errors);
        $this->assertSame(7, $a->iterator_pos);
    }

    public function testArgumentsOfOtherTypesDecline(): void
    {
        $call = self::goodCall();
        $a = new ArchiveStandIn(self::archiveFile("good"));
        $get = fn(...$args) => \yioop_codec\archive\getObjects($a, ...$args);
        $this->assertNotNull($get($call["offset"], 1, true, null, 100000000));
        $this->assertNull($get((float)$call["offset"], 1, true, null, 100000000));
        $this->assertNull($get($call["offset"], null, true, null, 100000000));
        $this->assertNull($get($call["offset"], 1, true, null, "1e8"));
        $this->assertNull($get($call["offset"], 1, true, null, null));
        $this->assertNull($get($call["offset"], 1, true, 0, 100000000));
    }

    public function testTheArchiveFileIsReadAsItIsNow(): void
    {
        // The descriptor is shared by inode: a file renamed over the archive
        // is read, as a fresh fopen would read it.
        $call = self::goodCall();
        $good = self::archiveFile("good");
        $copy = self::$dir . "/renamed.txt.gz";
        copy($good, $copy);
        $a = new ArchiveStandIn($copy);
        $first = \yioop_codec\archive\getObjects($a, $call["offset"], 1, true, null, 100000000);
        $this->assertNotNull($first);
        $cut = self::$dir . "/cut-copy.txt.gz";
        file_put_contents($cut, substr(file_get_contents($good), 0, $call["offset"]));
        rename($cut, $copy);
        $this->assertNull(\yioop_codec\archive\getObjects($a, $call["offset"], 1, true, null,
            100000000), "the new file ends before the record: Yioop's read, declined");
        unlink($copy);
    }

    /**
     * With open_basedir set, PHP decides which files a script may open:
     * the native read declines (Yioop's fopen applies the setting), even
     * for an archive inside the allowed directory; without it, the same
     * call is answered natively.
     */
    public function testOpenBasedirLeavesTheReadToPhp(): void
    {
        $call = self::goodCall();
        $file = self::archiveFile("good");
        $script = 'namespace seekquarry\\yioop\\library\\compressors { class GzipCompressor {} }
            namespace { class Archive { public $filename; public $iterator_pos = 7;
                public $compressor; public $count; public $version; public $is_string = false;
                public $storage; }
            $a = new Archive; $a->filename = ' . var_export($file, true) . ';
            $a->compressor = new seekquarry\\yioop\\library\\compressors\\GzipCompressor;
            echo json_encode([yioop_codec\\archive\\getObjects($a, ' . $call["offset"]
            . ', 1, true, null, 100000000) === null]); }';
        foreach (["/nonexistent", dirname($file)] as $basedir) {
            [$declined] = SettingProcess::run("open_basedir", $basedir, $script);
            $this->assertTrue($declined, "open_basedir=$basedir");
        }
        [$declined] = SettingProcess::run("yioop.format", "2019", $script);
        $this->assertFalse($declined, "the same call without open_basedir");
    }
}
