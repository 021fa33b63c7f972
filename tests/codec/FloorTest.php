<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * The benchmark floors must do what the functions they stand in for do,
 * minus the decoding: the same framing (offsets, posting counts) and results
 * of the same shape. Otherwise bench/php-bench.php compares unlike work.
 */
class FloorTest extends TestCase
{
    private static function postings(): string
    {
        $string = '';
        foreach ([[5, [3, 9]], [40000, [700]], [7, [1, 2, 3, 4, 5, 6, 7, 8]]] as [$doc, $positions]) {
            $string .= packPosting($doc, $positions);
        }
        return $string . "\x80\x00\x00\x01"; // a damaged word: skipped as unpackPosting skips it
    }

    public function testFloorPostingFramesAsUnpackPostingDoes(): void
    {
        $string = self::postings();
        $offset = $floor_offset = 0;
        while ($offset < strlen($string)) {
            unpackPosting($string, $offset);
            $posting = \yioop_codec\floorPosting($string, $floor_offset);
            $this->assertSame($offset, $floor_offset);
            $this->assertIsInt($posting[0]);
            $this->assertCount(6, $posting[1]);
        }
    }

    public function testFloorPostingsFramesAsUnpackPostingsDoes(): void
    {
        $string = self::postings();
        foreach ([-1, 0, 2, 100] as $max_count) {
            $offset = $floor_offset = 0;
            $postings = unpackPostings($string, $offset, $max_count);
            $floor = \yioop_codec\floorPostings($string, $floor_offset, $max_count);
            $this->assertSame($offset, $floor_offset, "max_count $max_count");
            $this->assertCount(count($postings), $floor, "max_count $max_count");
            foreach ($floor as $pair) {
                $this->assertSame([0, [1, 2, 3, 4, 5, 1]], $pair);
            }
        }
    }

    public function testFloorListHasTheLengthAsked(): void
    {
        foreach ([0, 1, 3, 28] as $length) {
            $this->assertSame($length === 0 ? [] : range(1, $length), \yioop_codec\floorList($length));
        }
        $this->assertSame([], \yioop_codec\floorList(-5));
    }
}
