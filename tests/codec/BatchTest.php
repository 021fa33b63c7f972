<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

/**
 * unpackPostings() must equal unpackPosting() called in a loop while the
 * offset is inside the string: same pairs, same final offset, damaged
 * input included.
 */
class BatchTest extends TestCase
{
    /** unpackPosting in a loop, as Yioop's posting-slice loop does it. */
    private static function loop(string $postings, $offset, int $max_count, bool $dedelta): array
    {
        $out = [];
        while (($max_count < 0 || count($out) < $max_count) && $offset < strlen($postings)) {
            $out[] = unpackPosting($postings, $offset, $dedelta);
        }
        return [$out, $offset];
    }

    private function assertSameAsLoop(string $postings, int $offset, int $max_count = -1, bool $dedelta = true): void
    {
        [$expected, $expected_offset] = self::loop($postings, $offset, $max_count, $dedelta);
        $actual_offset = $offset;
        $actual = unpackPostings($postings, $actual_offset, $max_count, $dedelta);
        $this->assertSame($expected, $actual);
        $this->assertSame($expected_offset, $actual_offset);
    }

    /** Every posting string in the recorded unpackPosting vectors. */
    public static function vectorStrings(): iterable
    {
        $format = ini_get('yioop.format') ?: '2019';
        $lines = file(Vectors::files($format)["unpackPosting"]);
        foreach ($lines as $i => $line) {
            $vector = json_decode($line, true);
            yield "unpackPosting.jsonl:" . ($i + 1) => [hex2bin($vector['args'][0]['hex']), $vector['args'][1]];
        }
    }

    /** @dataProvider vectorStrings */
    #[DataProvider('vectorStrings')]
    public function testBatchEqualsLoopOnRecordedPostings(string $postings, int $offset): void
    {
        $this->assertSameAsLoop($postings, $offset);
        $this->assertSameAsLoop($postings, $offset, 1, false);
    }

    public function testBatchEqualsLoopOnRandomStrings(): void
    {
        mt_srand(7);
        for ($i = 0; $i < 300; $i++) {
            $length = mt_rand(0, 64);
            $bytes = $length ? random_bytes($length) : "";
            $this->assertSameAsLoop($bytes, mt_rand(-70, 70), mt_rand(-1, 5), (bool)mt_rand(0, 1));
        }
    }

    public function testMaxCountStopsEarlyAndOffsetResumes(): void
    {
        $postings = packPosting(1, [5, 9]) . packPosting(40000, [3]) . packPosting(7, [1]);
        $offset = 0;
        $first = unpackPostings($postings, $offset, 2);
        $rest = unpackPostings($postings, $offset);
        $this->assertSame([[1, [5, 9]], [40000, [3]]], $first);
        $this->assertSame([[7, [1]]], $rest);
        $this->assertSame(strlen($postings), $offset);
    }
}
