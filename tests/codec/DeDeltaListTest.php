<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

/**
 * deDeltaList on a list that another variable shares takes a different path
 * (the summed list is built as PHP's copy-on-write copy) from one it owns
 * (summed in place). Both must give Yioop's result, and the other variable
 * must keep its values.
 */
class DeDeltaListTest extends TestCase
{
    public static function lists(): iterable
    {
        yield 'ints' => [[3, 0, 7, 400, 1]];
        yield 'empty' => [[]];
        yield 'overflow into float' => [[PHP_INT_MAX - 5, 3, 10, 1]];
        yield 'a float inside' => [[1, 2.5, 3]];
        yield 'numeric strings' => [[1, '2', ' 3']];
        yield 'null and bools' => [[null, true, false, 4]];
        yield 'long' => [range(1, 100000)];
    }

    /** @dataProvider lists */
    #[DataProvider('lists')]
    public function testSharedAndOwnedListsGiveTheSameSums(array $list): void
    {
        $owned = self::fresh($list);
        deDeltaList($owned);

        $original = self::fresh($list);
        $shared = $original;
        deDeltaList($shared);

        $this->assertSame($owned, $shared);
        $this->assertSame(self::fresh($list), $original, 'the sharing variable keeps its values');
    }

    /** @dataProvider lists */
    #[DataProvider('lists')]
    public function testSumsMatchYioopsLoop(array $list): void
    {
        $expected = self::fresh($list);
        $num = count($expected);
        for ($i = 1; $i < $num; $i++) {
            $expected[$i] += $expected[$i - 1];
        }
        $actual = $list;
        deDeltaList($actual);
        $this->assertSame($expected, $actual);
    }

    /** A copy that shares nothing with $list. */
    private static function fresh(array $list): array
    {
        return array_map(fn($v) => $v, $list);
    }
}
