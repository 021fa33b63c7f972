<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

require_once __DIR__ . "/../support/archive/stand-ins.php";
require_once __DIR__ . "/../support/archive/add-objects-cases.php";
require_once __DIR__ . "/../support/LoadedExtension.php";

/**
 * The native yioop_codec\archive\addObjects against what Yioop's own
 * WebArchive::addObjects (PHP) wrote and returned, recorded by
 * tests/tools/record/record-archive-add.php into
 * tests/fixtures/archive/add-objects.json.gz (the cases are
 * tests/support/archive/add-objects-cases.php): the archive file byte for
 * byte, the count, the result ($return_flag true) or the objects updated in
 * place (false), the callback's data in the info block. Also: each record
 * is PHP's gzencode($text, 9) of the object as stored, for many varied
 * records (another deflate than the zlib PHP runs would differ), and the
 * inputs it leaves to Yioop change nothing.
 */
class AddObjectsTest extends TestCase
{
    private static ?array $recording = null;

    private static function recording(): array
    {
        return self::$recording ??= json_decode(gzdecode(file_get_contents(
            __DIR__ . "/../fixtures/archive/add-objects.json.gz")), true, 512, JSON_THROW_ON_ERROR);
    }

    private static function file(string $bytes): string
    {
        $file = tempnam(sys_get_temp_dir(), "add-objects-test");
        file_put_contents($file, $bytes);
        return $file;
    }

    public static function recordedCases(): iterable
    {
        foreach (self::recording() as $case) {
            yield $case["name"] => [$case];
        }
    }

    /** @dataProvider recordedCases */
    #[DataProvider('recordedCases')]
    public function testNativeAddGivesWhatYioopGave(array $case): void
    {
        [$field, $objects, $data, $callback, $flag] = unserialize(base64_decode($case["args"]));
        $file = self::file(base64_decode($case["before"]));
        $archive = new ArchiveWriterStandIn($file);
        $archive->count = $case["count_before"];
        try {
            $result = \yioop_codec\archive\addObjects($archive, $field, $objects, $data,
                $callback, $flag);
            clearstatcache();
            $this->assertSame($case["after_length"], filesize($file), "the file's length");
            $this->assertSame($case["after"], hash_file("sha256", $file), "the file's bytes");
            $this->assertSame($case["count_after"], $archive->count);
            $this->assertSame($case["objects_after"], hash("sha256", serialize($objects)),
                "the objects after the call");
            $this->assertSame($case["result"], hash("sha256", serialize($flag ? $result : null)),
                "the result");
            // false: done, and the switched method returns nothing.
            $this->assertSame($flag ? "array" : "boolean", gettype($result));
            $this->assertSame(["seekEndObjects", "writeInfoBlock"], $archive->calls);
        } finally {
            unlink($file);
        }
    }

    /** Records as PHP's own gzencode writes them, the offsets as stored. */
    public function testEveryRecordIsPhpsGzencode(): void
    {
        mt_srand(29);
        $objects = [];
        for ($i = 0; $i < 300; $i++) {
            $len = [0, 1, 50, 700, 4000, 20000, 70000][$i % 7];
            $text = match ($i % 3) {
                0 => addObjectsText(intdiv($len, 6) + 1),
                1 => substr(str_repeat(md5((string)$i, true) . "abcabcabc", intdiv($len, 25) + 1), 0, $len),
                2 => implode("", array_map(fn() => chr(mt_rand(0, 255)), range(0, $len))),
            };
            $objects[] = ["T" => $text, "N" => $i, "F" => $i / 3];
        }
        $file = self::file(base64_decode(self::recording()[0]["before"]));
        $archive = new ArchiveWriterStandIn($file);
        $archive->count = 0;
        // Records start where the info block did: its length (itself and the 20
        // bytes after) is in the last 20 bytes.
        $start = filesize($file) - unpack("N", substr(file_get_contents($file), -16, 4))[1];
        $stored = \yioop_codec\archive\addObjects($archive, "AT", $objects, null, null, true);
        $bytes = file_get_contents($file);
        unlink($file);
        $at = $start;
        foreach ($stored as $i => $object) {
            $this->assertSame($at, $object["AT"], "record $i's offset");
            $len = unpack("N", substr($bytes, $at + 4, 4))[1];
            $this->assertSame(gzencode(serialize($object), 9), substr($bytes, $at + 20, $len),
                "record $i");
            $at += 20 + $len;
        }
        $this->assertCount(300, $stored);
    }

    /**
     * The records' texts are serialize()'s for every kind of value a plain
     * object holds (nested arrays, int and string keys, bools, nulls, ints
     * at the ends of their range, floats of every form: halfway cases,
     * exponents, negative zero, INF, NAN), written natively at
     * serialize_precision -1 and by PHP's serialize at any other.
     */
    public function testRecordsOfEveryKindAreSerializesText(): void
    {
        mt_srand(31);
        $floats = [0.0, -0.0, 0.1, 1e15, 1e16, 1e17, 1000000000000000.25, 1.5e-7, 0.0001,
            0.00001, 5e-324, PHP_FLOAT_MAX, INF, -INF, NAN, 100.0, -2.5e21];
        $objects = [];
        for ($i = 0; $i < 200; $i++) {
            $float = $i < count($floats) ? $floats[$i]
                : unpack("d", pack("q", mt_rand() << 32 ^ mt_rand()))[1];
            $objects[] = ["T" => addObjectsText(20 + $i), "F" => $float, "B" => $i % 2 == 0,
                "Z" => null, "I" => [PHP_INT_MIN, PHP_INT_MAX, -$i][$i % 3],
                "L" => [7 => "x", "k" => [$float, [true, "é\"\0"]], -3 => []], 12 => $i / 7];
        }
        $before = ini_get("serialize_precision");
        try {
            foreach (["-1", "17", "5"] as $precision) {
                ini_set("serialize_precision", $precision);
                $file = self::file(base64_decode(self::recording()[0]["before"]));
                $archive = new ArchiveWriterStandIn($file);
                $archive->count = 0;
                $stored = \yioop_codec\archive\addObjects($archive, "AT", $objects, null, null, true);
                $bytes = file_get_contents($file);
                unlink($file);
                $this->assertCount(200, $stored);
                foreach ($stored as $i => $object) {
                    $len = unpack("N", substr($bytes, $object["AT"] + 4, 4))[1];
                    $this->assertSame(serialize($object), gzdecode(substr($bytes, $object["AT"] + 20,
                        $len)), "record $i at serialize_precision $precision");
                }
            }
        } finally {
            ini_set("serialize_precision", $before);
        }
    }

    /** The records compressed ahead in this process, made and used, as phpinfo says. */
    private static function aheadCounts(): array
    {
        ob_start();
        phpinfo(INFO_MODULES);
        preg_match('/Records compressed ahead in this process => (\d+) made, (\d+) used/', ob_get_clean(), $m);
        return [(int)$m[1], (int)$m[2]];
    }

    /** An archive as Yioop starts a partition: its info block, then the one record it puts first. */
    private static function newPartition(): ArchiveWriterStandIn
    {
        $archive = new ArchiveWriterStandIn(self::file(""));
        $archive->count = 0;
        $fh = fopen($archive->filename, "r+");
        $archive->writeInfoBlock($fh);
        fclose($fh);
        $archive->calls = [];
        $first = [["DUMMY"]];
        \yioop_codec\archive\addObjects($archive, "DUMMY_OFFSET", $first, null, null, false);
        return $archive;
    }

    /**
     * With yioop.compress_threads above 1, an upload's records are
     * compressed ahead while the queue server builds a shard: it takes the
     * upload in (webdecode, then each site's gzuncompress), reads an archive
     * (the build), starts a new partition, then adds the sites there as
     * processIndexArchive changes them (a document gets its URL's crawlHash
     * and IS_DOC). Every record is still gzencode(serialize($site), 9) at
     * its offset, where a site was changed past what its upload says too,
     * and the records compressed ahead were used up to that site.
     */
    public function testAnUploadsRecordsCompressedAheadAreYioops(): void
    {
        $sites = [];
        for ($i = 0; $i < 60; $i++) {
            $sites[] = ["e" => $i % 5 == 0 ? "link" : "text/html", "l" => "https://example.com/$i.html",
                "t" => addObjectsText(200 + 37 * $i), "n" => $i, "r" => $i / 7];
        }
        $streams = array_map(fn($site) => gzcompress(serialize($site)), $sites);
        $part = implode("", array_map(fn($stream) => pack("N", strlen($stream)) . $stream, $streams));
        $upload = strtr(base64_encode(pack("N", strlen($part)) . $part . "the index part"),
            ['+' => '.', '/' => '_', '=' => '~']);
        $threads = (int)ini_get("yioop.compress_threads");
        foreach ([null, 23] as $changed) {
            [$made_before, $used_before] = self::aheadCounts();
            $old = self::newPartition();
            \yioop_codec\webcode\webdecode($upload);
            $taken = [];
            foreach ($streams as $stream) {
                $taken[] = unserialize(\seekquarry\yioop\executables\gzuncompress($stream));
            }
            \yioop_codec\archive\getObjects($old, 0, 1, true, null, -1);
            // The build's seconds: the records are made on an idle core
            // (under valgrind, slowly).
            for ($wait = 0; $threads > 1 && self::aheadCounts()[0] < $made_before + 60 && $wait < 600; $wait++) {
                usleep(100000);
            }
            $new = self::newPartition();
            for ($i = 0; $i < count($taken); $i++) {
                if ($taken[$i]["e"] != "link") {
                    $hash = md5($taken[$i]["l"], true);
                    $taken[$i]["T"] = substr($hash, 0, 8) ^ substr($hash, 8, 8);
                    $taken[$i]["at"] = true;
                }
            }
            if ($changed !== null) {
                $taken[$changed]["t"] .= "!";
            }
            \yioop_codec\archive\addObjects($new, "U", $taken, null, null, false);
            $bytes = file_get_contents($new->filename);
            $at = $taken[0]["U"];
            $this->assertGreaterThan(0, $at, "after the partition's first record");
            foreach ($taken as $i => $site) {
                $this->assertSame($at, $site["U"], "record $i's offset");
                $len = unpack("N", substr($bytes, $at + 4, 4))[1];
                $this->assertSame(gzencode(serialize($site), 9), substr($bytes, $at + 20, $len), "record $i");
                $at += 20 + $len;
            }
            [, $used] = self::aheadCounts();
            $this->assertSame($threads > 1 ? $changed ?? 60 : 0, $used - $used_before);
            unlink($old->filename);
            unlink($new->filename);
        }
    }

    /** KiB of written records the process keeps, as phpinfo says. */
    private static function writtenKept(): int
    {
        ob_start();
        phpinfo(INFO_MODULES);
        preg_match('/yioop\.written_cache_size\) => \d+ KiB, (\d+) KiB held/', ob_get_clean(), $m);
        return (int)$m[1];
    }

    /** Objects of summary-like texts, for records of a few KiB each. */
    private static function summaries(int $n, string $seed): array
    {
        $objects = [];
        for ($i = 0; $i < $n; $i++) {
            $objects[] = ["T" => addObjectsText(300 + $i) . $seed, "N" => $i, "AT" => 0];
        }
        return $objects;
    }

    /**
     * Read back right after they are written (as buildInvertedIndexShard
     * reads a generation), the records give the objects as stored, from the
     * texts kept (drained as they are read); a record whose bytes on disk
     * are no longer those written gives what the file holds.
     */
    public function testReadBackGivesWhatTheFileHolds(): void
    {
        $file = self::file(base64_decode(self::recording()[0]["before"]));
        $archive = new ArchiveWriterStandIn($file);
        $archive->count = 0;
        $start = filesize($file) - unpack("N", substr(file_get_contents($file), -16, 4))[1];
        // A write to another file, while this one exists (another inode), drops
        // what earlier tests' writes left; writing this one then drops that.
        $other = self::file(base64_decode(self::recording()[0]["before"]));
        $one = [["X" => "x", "AT" => 0]];
        \yioop_codec\archive\addObjects(new ArchiveWriterStandIn($other), "AT", $one, null, null, false);
        unlink($other);
        try {
            $objects = self::summaries(40, "a");
            $stored = \yioop_codec\archive\addObjects($archive, "AT", $objects, null, null, true);
            $this->assertGreaterThan(0, self::writtenKept(), "the records written are kept");
            $read = \yioop_codec\archive\getObjects($archive, $start, 40, true, null, 1 << 30);
            $this->assertSame($stored, array_column($read, 1));
            $this->assertSame(0, self::writtenKept(), "each handed back once");

            // The same offsets, other records: written by PHP as Yioop's loop writes them.
            $stored = \yioop_codec\archive\addObjects($archive, "AT", $objects, null, null, true);
            $at = $stored[0]["AT"];
            $others = self::summaries(40, "b");
            $bytes = "";
            foreach ($others as $i => $object) {
                $others[$i]["AT"] = $at + strlen($bytes);
                $record = gzencode(serialize($others[$i]), 9);
                $bytes .= "\x1f\x8b\x08\x00" . pack("N", strlen($record)) . "\x00\x03\x03"
                    . str_repeat("\0", 9) . $record;
            }
            $tail = substr(file_get_contents($file), -20);
            $fh = fopen($file, "r+");
            ftruncate($fh, $at);
            fseek($fh, $at);
            fwrite($fh, $bytes . $tail);
            fclose($fh);
            $read = \yioop_codec\archive\getObjects($archive, $at, 40, true, null, 1 << 30);
            $this->assertSame($others, array_column($read, 1));
            $this->assertNotSame($stored, $others);
        } finally {
            unlink($file);
        }
    }

    public static function declined(): iterable
    {
        $records = [["A" => "a"], ["B" => "b"]];
        yield "a string archive" => [fn($a) => $a->is_string = true, "F", $records];
        yield "another compressor" => [fn($a) => $a->compressor = new \stdClass(), "F", $records];
        yield "not a list" => [fn($a) => null, "F", [1 => ["A"], 2 => ["B"]]];
        yield "a list with a hole" => [fn($a) => null, "F", [0 => ["A"], 2 => ["B"]]];
        yield "not an array" => [fn($a) => null, "F", "records"];
        yield "a record not an array" => [fn($a) => null, "F", [["A"], "B"]];
        yield "an object inside" => [fn($a) => null, "F", [["A" => new \stdClass()]]];
        yield "an object deeper" => [fn($a) => null, "F", [["A" => [[new \ArrayObject()]]]]];
        yield "a float field" => [fn($a) => null, 1.5, $records];
        yield "a null field" => [fn($a) => null, null, $records];
        yield "no filename" => [function ($a) { unset($a->filename); }, "F", $records];
        yield "a callback not callable" => [fn($a) => null, "F", $records, ["d" => 1],
            "no_such_function_anywhere"];
    }

    /** @dataProvider declined */
    #[DataProvider('declined')]
    public function testLeftToYioopChangingNothing(callable $change, $field, $objects,
        $data = null, $callback = null): void
    {
        $bytes = base64_decode(self::recording()[0]["before"]);
        $file = self::file($bytes);
        $archive = new ArchiveWriterStandIn($file);
        $archive->count = 1;
        $change($archive);
        $before = serialize($objects);
        try {
            $this->assertNull(\yioop_codec\archive\addObjects($archive, $field, $objects, $data,
                $callback, false));
            $this->assertSame($bytes, file_get_contents($file));
            $this->assertSame($before, serialize($objects));
            $this->assertSame(1, $archive->count);
            $this->assertSame([], $archive->calls);
        } finally {
            unlink($file);
        }
    }

    /** A reference among the records: the by-reference array is Yioop's. */
    public function testReferenceInsideDeclines(): void
    {
        $x = ["A" => 1];
        $objects = [["R" => &$x]];
        $file = self::file(base64_decode(self::recording()[0]["before"]));
        $archive = new ArchiveWriterStandIn($file);
        $this->assertNull(\yioop_codec\archive\addObjects($archive, "F", $objects, null, null,
            true));
        $this->assertSame([], $archive->calls);
        unlink($file);
    }

    /**
     * yioop.compress_threads as phpinfo shows it, with one startup warning
     * for a value it does not take; and the zlib the records are compressed
     * with is the one PHP's own zlib extension was built with, whose bytes
     * the native deflate writes.
     */
    public function testCompressThreadsSettingAndZlibInPhpinfo(): void
    {
        $auto = (string)min(4, max(1, (int)shell_exec("nproc")));
        // "": not set, the default (1: threads only where asked for)
        foreach (["" => "1", "3" => "3", "1" => "1", "64" => "64", "auto" => $auto, "0" => "1",
            "65" => "1", "two" => "1"] as $value => $shown) {
            $value = (string)$value; // "3" is an int key
            $cmd = [PHP_BINARY, "-n", "-d", "extension=" . LoadedExtension::path(),
                ...($value === "" ? [] : ["-d", "yioop.compress_threads=$value"]),
                "-r", "phpinfo(INFO_MODULES);"];
            $p = proc_open($cmd, [1 => ["pipe", "w"], 2 => ["pipe", "w"]], $pipes);
            $out = stream_get_contents($pipes[1]);
            $err = stream_get_contents($pipes[2]);
            proc_close($p);
            $this->assertStringContainsString(
                "Record compression threads (yioop.compress_threads) => $shown\n", $out, $value);
            $this->assertStringContainsString("Record compression zlib => " . ZLIB_VERSION . "\n",
                $out);
            // Debian 12's zlib 1.2.13 and 13's 1.3.1: records up to 64 KiB native.
            $this->assertStringContainsString(
                "Record deflate up to 64 KiB => native, as zlib " . ZLIB_VERSION . " writes\n", $out);
            $warned = str_contains($out . $err, "yioop.compress_threads: '$value' is neither auto");
            $this->assertSame(!in_array($value, ["", "3", "1", "64", "auto"], true), $warned, $value);
        }
    }
}
