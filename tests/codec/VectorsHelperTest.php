<?php
// Guards the harness itself, without the extension: if the typed-JSON
// decoder/encoder lost or changed anything, VectorTest could pass or fail
// for the wrong reason. Run alone with:
//   YIOOP_HARNESS_ONLY=1 phpunit --filter VectorsHelperTest

declare(strict_types=1);

namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

final class VectorsHelperTest extends TestCase
{
    /** Every vector file of every format, not just the active one. */
    public static function vectorFiles(): array
    {
        $rows = [];
        foreach (Vectors::FORMATS as $format) {
            foreach (Vectors::files($format) as $fn => $path) {
                $rows["yioop-$format/$fn.jsonl"] = [$fn, $path];
            }
        }
        return $rows;
    }

    /**
     * decode -> encode of args, ret and args_after must reproduce each
     * line byte for byte, so the canonical encoding VectorTest compares is
     * exactly what the recorder wrote.
     *
     * @dataProvider vectorFiles
     */
    #[DataProvider('vectorFiles')]
    public function testEveryLineRoundTrips(string $fn, string $path): void
    {
        $lines = Vectors::lines($path);
        $this->assertNotEmpty($lines);
        foreach ($lines as $number => $line) {
            $where = Vectors::where($path, $number);
            $case = Vectors::parseLine($line);
            $this->assertSame($fn, $case->fn, "$where: fn field");
            $this->assertSame(count($case->args), count($case->args_after),
                "$where: args/args_after count");
            foreach (['args', 'ret', 'args_after'] as $field) {
                $case->$field = Vectors::encode(Vectors::decode($case->$field));
            }
            $this->assertSame($line, Vectors::jsonText($case), "$where: round trip");
        }
    }

    public function testIntegerLimitsStayIntegers(): void
    {
        $case = Vectors::parseLine('{"fn":"x","args":[9223372036854775807,'
            . '-9223372036854775808],"ret":null,"args_after":[]}');
        $this->assertSame([PHP_INT_MAX, PHP_INT_MIN], Vectors::decode($case->args));
    }

    public function testIntegerOverflowIsRejected(): void
    {
        $case = Vectors::parseLine('{"fn":"x","args":[9223372036854775808],'
            . '"ret":null,"args_after":[]}');
        $this->expectException(\UnexpectedValueException::class);
        Vectors::decode($case->args);
    }

    /** PHP turns int overflow into a float; the vectors spell it like this. */
    public function testOverflowFloatSpelling(): void
    {
        $overflow = PHP_INT_MAX + 1;
        $this->assertIsFloat($overflow);
        $this->assertSame('{"float":"9.223372036854776E+18"}', Vectors::toJson($overflow));
        $this->assertSame($overflow, self::decodeText('{"float":"9.223372036854776E+18"}'));
        $this->assertSame('{"float":"1.0"}', Vectors::toJson(1.0));
        $this->assertSame('{"float":"-0.0"}', Vectors::toJson(-0.0));
        $this->assertSame('{"float":"INF"}', Vectors::toJson(INF));
        $this->assertNan(self::decodeText('{"float":"NAN"}'));
    }

    public function testNonCanonicalFloatIsRejected(): void
    {
        $this->expectException(\UnexpectedValueException::class);
        self::decodeText('{"float":"1.50"}');
    }

    public function testBinaryStrings(): void
    {
        $this->assertSame('', self::decodeText('{"hex":""}'));
        $this->assertSame("\x00\xff\x80a", self::decodeText('{"hex":"00ff8061"}'));
        $this->assertSame('{"hex":"00ff8061"}', Vectors::toJson("\x00\xff\x80a"));
        // A numeric string stays a string, never an int.
        $this->assertSame('{"hex":"3132"}', Vectors::toJson('12'));
    }

    public function testScalarsAndLists(): void
    {
        $this->assertSame([null, true, false, 0, -1], self::decodeText('[null,true,false,0,-1]'));
        $this->assertSame('[]', Vectors::toJson([]));
        $this->assertSame('[[1,[]],{"hex":"61"}]', Vectors::toJson([[1, []], 'a']));
    }

    /** Non-list arrays keep their keys and iteration order. */
    public function testMapsKeepKeyOrder(): void
    {
        $map = self::decodeText('{"map":[[5,1],[7,2],[1,0]]}');
        $this->assertSame([5 => 1, 7 => 2, 1 => 0], $map);
        $this->assertSame([5, 7, 1], array_keys($map));
        $this->assertSame('{"map":[[5,1],[7,2],[1,0]]}', Vectors::toJson($map));
        // Keys 0..n-1 out of order are not a list either.
        $this->assertSame('{"map":[[1,3],[0,2]]}', Vectors::toJson([1 => 3, 0 => 2]));
        $this->assertSame('{"map":[[{"hex":"6b"},1]]}', Vectors::toJson(['k' => 1]));
    }

    public function testUntypedValuesAreRejected(): void
    {
        foreach (['"text"', '1.5', '{"hex":"ABCD"}', '{"hex":"abc"}',
                  '{"blob":"00"}', '{"hex":"00","float":"1.0"}'] as $json) {
            try {
                self::decodeText($json);
                $this->fail("accepted $json");
            } catch (\UnexpectedValueException) {
                $this->addToAssertionCount(1);
            }
        }
    }

    private static function decodeText(string $json): mixed
    {
        return Vectors::decode(json_decode($json, false, 512,
            JSON_BIGINT_AS_STRING | JSON_THROW_ON_ERROR));
    }
}
