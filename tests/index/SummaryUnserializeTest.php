<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

require_once __DIR__ . "/../support/archive/stand-ins.php";

/**
 * The native getObjects unserializes each record's text itself where it
 * can (src/php_semantics/unserialize.rs) and calls PHP's unserialize for the rest.
 * Either way its object must be `@unserialize($text)`'s. Here archives of
 * such texts are written as Yioop's WebArchive writes them, and each native
 * object is compared with PHP's unserialize of the same text, by
 * debug_zval_dump (types, keys, order, -0.0, and which strings PHP interns)
 * and by where `$array[] =` would append in every array.
 *
 * The texts: serialize() of generated values (nested arrays, int and
 * numeric-string keys, floats from random bits in both serialize
 * precisions, strings of every short length and random bytes), texts
 * written by hand in forms serialize() never writes but unserialize reads
 * (duplicate keys, `+` signs, leading zeros, `5.e1`), and what the native
 * reader leaves to PHP (objects, references, NAN, out-of-range ints,
 * malformed and trailing bytes, depth past unserialize_max_depth), and
 * 1,500 serialized values damaged at random.
 */
class SummaryUnserializeTest extends TestCase
{
    private static string $dir = "";

    public static function setUpBeforeClass(): void
    {
        self::$dir = sys_get_temp_dir() . "/summary-unserialize-" . getmypid();
        @mkdir(self::$dir);
    }

    public static function tearDownAfterClass(): void
    {
        array_map('unlink', glob(self::$dir . "/*"));
        @rmdir(self::$dir);
    }

    public function testGeneratedValuesReadAsUnserializeReadsThem(): void
    {
        mt_srand(20261124);
        $texts = [];
        foreach ([-1, 17] as $precision) {
            ini_set("serialize_precision", (string)$precision);
            for ($i = 0; $i < 300; $i++) {
                $texts[] = serialize(self::value(3));
            }
        }
        ini_restore("serialize_precision");
        $this->assertObjectsAreUnserializes($texts);
    }

    public function testHandWrittenFormsReadAsUnserializeReadsThem(): void
    {
        $this->assertObjectsAreUnserializes([
            'a:3:{s:1:"k";i:1;s:1:"j";i:2;s:1:"k";i:3;}',          // a repeated key keeps its place
            'a:3:{i:5;s:1:"a";s:1:"5";s:1:"b";s:2:"05";s:1:"c";}', // "5" is the int key 5, "05" is not
            'a:2:{s:2:"-0";N;s:20:"-9223372036854775808";b:1;}',
            'a:2:{s:19:"9223372036854775808";N;i:-3;b:0;}',
            'a:1:{i:-7;a:0:{}}',
            'i:+0012;', 'i:-0;', 'i:999999999999999999;', 'i:-000000000000000000000000042;',
            'd:5.e1;', 'd:.25;', 'd:+1.5E+3;', 'd:1e-400;', 'd:1e400;', 'd:-0.0;', 'd:INF;', 'd:-INF;',
            'd:4.9406564584124654E-324;', 'd:2.2250738585072011e-308;',
            'd:0.1000000000000000055511151231257827021181583404541015625;',
            'd:1' . str_repeat('0', 30000) . 'e-30000;', 'd:0.' . str_repeat('0', 29999) . '1e30000;',
            'd:1e-0019999;', 'd:1e20000;', 'd:-1e999999999;', // zend_strtod caps exponents at 19999
            'd:9007199254740993;', 'd:179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791;',
            's:0:"";', 's:1:"x";', 's:2:"\"\"";', "s:3:\"a\0b\";",
            'a:0:{}', 'N;', 'b:0;', 'b:1;',
        ]);
    }

    public function testDamagedTextsReadAsUnserializeReadsThem(): void
    {
        // Bytes flipped, cut, doubled or dropped: the native reader must
        // build PHP's value or leave the text to PHP, never another value.
        mt_srand(24112026);
        $alphabet = 'aisdbN:;{}"0123456789.-+eE';
        $texts = [];
        for ($i = 0; $i < 1500; $i++) {
            $text = serialize(self::value(2));
            for ($n = mt_rand(1, 3); $n > 0 && $text !== ""; $n--) {
                $at = mt_rand(0, strlen($text) - 1);
                $text = match (mt_rand(0, 3)) {
                    0 => substr_replace($text, $alphabet[mt_rand(0, strlen($alphabet) - 1)], $at, 1),
                    1 => substr($text, 0, $at),
                    2 => substr_replace($text, $text[$at], $at, 0),
                    default => substr_replace($text, "", $at, 1),
                };
            }
            $texts[] = $text;
        }
        $this->assertObjectsAreUnserializes($texts);
    }

    public function testWhatTheNativeReaderLeavesIsStillUnserializes(): void
    {
        $nested = fn(int $n) => str_repeat('a:1:{i:0;', $n) . 'i:1;' . str_repeat('}', $n);
        $this->assertObjectsAreUnserializes([
            'a:2:{i:0;a:0:{}i:1;R:2;}', 'd:NAN;',
            'i:9999999999999999999;', 'S:1:"\61";', 'a:1:{d:1;i:0;}', 'a:2:{i:0;i:0;}',
            'i:1;trailing', 's:5:"abc";', 'd:1e;', 'b:2;', 'x', $nested(65), $nested(40),
        ]);
        ini_set("unserialize_max_depth", "3");
        try {
            // PHP fails past the limit; the native reader must not answer it.
            $this->assertObjectsAreUnserializes([$nested(3), $nested(4)]);
        } finally {
            ini_restore("unserialize_max_depth");
        }
    }

    /**
     * A record PHP's unserialize makes an object of: made under the native
     * frame, an Exception's trace would gain that frame and take its file
     * and line from the switched method. The call is Yioop's: it declines,
     * a record later in the call too; texts that only look like objects
     * are still read natively.
     */
    public function testRecordsThatMakeObjectsLeaveTheCallToYioop(): void
    {
        $objects = ['O:9:"Exception":0:{}', 'O:8:"stdClass":1:{s:1:"a";i:1;}',
            'a:2:{i:0;i:1;i:1;O:8:"stdClass":0:{}}', 'C:11:"ArrayObject":21:{x:i:0;a:0:{};m:a:0:{}}',
            'E:7:"Foo:Bar";'];
        $file = self::$dir . "/archive-objects.txt.gz";
        $offsets = self::writeArchive($file, array_merge(['i:1;'], $objects));
        $archive = new ArchiveStandIn($file);
        foreach ($objects as $i => $text) {
            $this->assertNull(\yioop_codec\archive\getObjects($archive, $offsets[$i + 1], 1, true, null, 100000000), $text);
        }
        $this->assertNull(\yioop_codec\archive\getObjects($archive, $offsets[0], 2, true, null, 100000000));
        $this->assertSame(7, $archive->iterator_pos, "declined: nothing changed");
        $this->assertObjectsAreUnserializes(['s:20:"O:9:"Exception":0:{}";', 'a:1:{s:2:"C:";s:2:"E:";}']);
    }

    /** Each text as one record of an archive, read natively, against @unserialize. */
    private function assertObjectsAreUnserializes(array $texts): void
    {
        $file = self::$dir . "/archive-" . count(glob(self::$dir . "/*")) . ".txt.gz";
        $offsets = self::writeArchive($file, $texts);
        $archive = new ArchiveStandIn($file);
        foreach ($texts as $i => $text) {
            $objects = \yioop_codec\archive\getObjects($archive, $offsets[$i], 1, true, null, 100000000);
            $this->assertNotNull($objects, "record $i read natively");
            $native = $objects[0][1];
            unset($objects); // refcounts as unserialize's: one holder
            $php = @unserialize($text);
            $shown = substr($text, 0, 80);
            $this->assertSame(self::dump($php), self::dump($native), "record $i: $shown");
            $this->assertSame(self::appendKeys($php), self::appendKeys($native), "record $i: $shown");
        }
    }

    /** Writes $texts as WebArchive records; their offsets. */
    private static function writeArchive(string $file, array $texts): array
    {
        $bytes = "";
        $offsets = [];
        foreach ($texts as $text) {
            $offsets[] = strlen($bytes);
            $record = gzencode($text);
            // The header: an empty gzip member whose mtime field holds the length.
            $bytes .= "\x1f\x8b\x08\x00" . pack("N", strlen($record)) . "\x00\x03" . str_repeat("\x00", 10);
            $bytes .= $record;
        }
        file_put_contents($file, $bytes . str_repeat("\x00", 20));
        return $offsets;
    }

    private static function dump(mixed $value): string
    {
        ob_start();
        debug_zval_dump($value);
        return preg_replace('/#\d+ /', '#N ', ob_get_clean()); // object ids differ

    }

    /** For every array in $value, the key `$array[] =` would take (or null). */
    private static function appendKeys(mixed $value): array
    {
        if (!is_array($value)) {
            return [];
        }
        $probe = $value;
        $probe[] = true;
        $keys = [array_key_last($probe)];
        foreach ($value as $child) {
            $keys[] = self::appendKeys($child);
        }
        return $keys;
    }

    private static function value(int $depth): mixed
    {
        $kind = mt_rand(0, $depth > 0 ? 9 : 6);
        return match ($kind) {
            0 => null,
            1 => (bool)mt_rand(0, 1),
            2 => mt_rand(0, 3) ? mt_rand(-1000, 1000) : mt_rand(PHP_INT_MIN, PHP_INT_MAX),
            3 => self::float(),
            4, 5, 6 => self::string(),
            default => self::array($depth - 1),
        };
    }

    private static function float(): float
    {
        return match (mt_rand(0, 3)) {
            0 => mt_rand() / mt_getrandmax(),
            1 => (float)mt_rand(-100000, 100000) / 1000,
            2 => -0.0,
            default => unpack("e", pack("P", mt_rand(0, PHP_INT_MAX) | (mt_rand(0, 1) << 63)))[1],
        };
    }

    private static function string(): string
    {
        $len = mt_rand(0, 3) ? mt_rand(0, 3) : mt_rand(4, 300);
        $s = "";
        for ($i = 0; $i < $len; $i++) {
            $s .= mt_rand(0, 3) ? chr(mt_rand(32, 126)) : chr(mt_rand(0, 255));
        }
        return $s;
    }

    private static function array(int $depth): array
    {
        $array = [];
        for ($i = mt_rand(0, 8); $i > 0; $i--) {
            $key = match (mt_rand(0, 4)) {
                0 => mt_rand(-5, 20),
                1 => (string)mt_rand(-5, 20), // PHP makes it an int key
                2 => "0" . mt_rand(0, 9),
                default => self::string(),
            };
            $array[$key] = self::value($depth);
        }
        return $array;
    }
}
