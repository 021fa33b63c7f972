<?php
// What each of the 14 functions does with input Yioop never writes: wrong
// types, damaged strings, offsets outside the string, negative numbers,
// values of 2^28 and more, and huge lists. Every case asserts one concrete
// outcome, and no call may raise a PHP warning, notice or deprecation (Yioop's
// PHP raises many on these inputs; the extension stays quiet). The namespaced
// registrations (seekquarry\yioop\library\...) run every case too.
//
// How each expected outcome is marked:
// - self::yioop(...): observed by running Yioop's own src/library/Utility.php
//   (the 2019 line, and the 2015 line: self::perFormat() where yioop.format
//   changes the result) on PHP 8.2 without the extension. The extension must
//   do exactly this.
// - self::deliberate(why, ...): the extension deliberately differs; the
//   comment above the case says what Yioop does instead.
// - self::yioopNeverReturns(...): Yioop's code loops forever on this input;
//   the extension throws instead: self::valueError() (a ValueError that
//   mentions 2^62) for values of 2^62 and more, a TypeError where an array
//   or a non-numeric string would keep Yioop's bit-length loop going, and
//   self::offsetNeverReturns() (a ValueError that says nextPostString would
//   read a word forever) for float offsets that adding 4 cannot move.
// - self::knownBug(id, what Yioop does, what the extension does now): a
//   reported bug (ids in tests/BAD_INPUT.md). The case passes once the
//   extension does what Yioop does, is marked incomplete while it still does
//   the recorded wrong thing, and fails on anything else.
//   YIOOP_BAD_INPUT_STRICT=1 makes known bugs fail.
//
// With YIOOP_DIR set to a Yioop checkout, testRecordedOutcomesAgainstLiveYioop
// replays the recorded cases through that checkout's Utility.php (in a PHP
// process without the extension) and checks the recorded Yioop outcomes,
// that deliberate differences still differ, and that the never-returning
// cases still do not return. Without YIOOP_DIR it is skipped.
//
// The huge-list tests (@group huge) push 10^7 positions through the codec
// and bound the memory each call adds (not under valgrind); leave them out
// with --exclude-group huge.
//
// No strict_types here on purpose: Yioop calls these functions in coercive
// mode, and the calling file's mode decides how arguments are coerced.

namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

final class BadInputTest extends TestCase
{
    /** Every provider, for the live replay. */
    private const PROVIDERS = [
        'packPostingWrongTypes',
        'packPostingNegativeNumbers',
        'packPostingValuesFrom2Pow28',
        'unpackPostingWrongTypes',
        'unpackPostingDamagedStrings',
        'unpackPostingOffsets',
        'unpackListModified9WrongTypes',
        'unpackListModified9DamagedWords',
        'unpackListModified9NegativeNumbers',
        'unpackListModified9LargeValues',
        'docIndexModified9WrongTypes',
        'docIndexModified9DamagedWords',
        'docIndexModified9NegativeNumbers',
        'docIndexModified9LargeValues',
        'unpackIntWrongTypes',
        'unpackIntDamagedStrings',
        'deltaListWrongTypes',
        'deltaListNegativeNumbers',
        'deltaListLargeValues',
        'deDeltaListWrongTypes',
        'deDeltaListNegativeNumbers',
        'deDeltaListLargeValues',
        'encodeModified9WrongTypes',
        'encodeModified9NegativeNumbers',
        'encodeModified9ValuesFrom2Pow28',
        'decodeModified9WrongTypes',
        'decodeModified9DamagedStrings',
        'decodeModified9Offsets',
        'nextPostStringWrongTypes',
        'nextPostStringDamagedStrings',
        'nextPostStringOffsets',
        'addDocIndexPostingsWrongTypes',
        'addDocIndexPostingsDamagedStrings',
        'addDocIndexPostingsNegativeNumbers',
        'addDocIndexPostingsValuesFrom2Pow28',
        'decodeQueueWeightInfoWrongTypes',
        'decodeQueueWeightInfoNegativeNumbers',
        'decodeQueueWeightInfoLargeValues',
        'encodeQueueWeightInfoWrongTypes',
        'encodeQueueWeightInfoNegativeNumbers',
        'encodeQueueWeightInfoLargeValues',
        'adjustWeightCallbackWrongTypes',
        'adjustWeightCallbackNegativeNumbers',
        'adjustWeightCallbackLargeValues',
    ];

    /** By-reference parameters (position => name), as Yioop declares them. */
    private const BY_REF = [
        'unpackPosting' => [1 => 'offset'],
        'unpackPostings' => [1 => 'offset'],
        'yioop_codec\\floorPosting' => [1 => 'offset'],
        'yioop_codec\\floorPostings' => [1 => 'offset'],
        'deDeltaList' => [0 => 'delta_list'],
        'decodeModified9' => [1 => 'offset'],
        'nextPostString' => [0 => 'input_string', 1 => 'offset'],
        'addDocIndexPostings' => [0 => 'postings'],
    ];

    /**
     * Three postings as the 2019 line packs them: doc 5 with positions
     * [300000, 600000] (3 words, offsets 0-11: flags 11, 10, 01), doc 40000
     * with [3, 10] (folded doc index, offsets 12-19) and doc 7 with [1, 2, 3]
     * (one word, offsets 20-23).
     */
    private const POSTINGS = "\xfc\x00\x00\x06\x80\x04\x93\xe0\x40\x04\x93\xe0"
        . "\xc9\x38\x80\x03\x78\x00\x00\x07\x38\x00\x81\x11";

    /** One posting of one word (continuation bits 00): POSTINGS' last. */
    private const ONE_WORD = "\x38\x00\x81\x11";

    /** A continuation word (10), which does not start a posting. */
    private const CONTINUATION_WORD = "\x80\x04\x93\xe0";

    /** Length of the huge lists. */
    private const HUGE = 10_000_000;

    /**
     * Peak memory one call on a huge list may add, per element: three times
     * what a packed PHP array of ints takes (16 bytes an element). Measured
     * on the reference machine: at most 23 bytes (scalar) and 35 bytes
     * (yioop.opencl=on, PoCL) an element.
     */
    private const HUGE_BYTES_PER_ELEMENT = 48;

    /** @var int[]|null the huge position list, built once */
    private static ?array $hugePositions = null;

    protected function setUp(): void
    {
        // Only reachable with YIOOP_HARNESS_ONLY=1 (bootstrap exits otherwise).
        if (!extension_loaded('yioop')) {
            $this->markTestSkipped('yioop extension not loaded');
        }
    }

    public static function tearDownAfterClass(): void
    {
        self::$hugePositions = null;
    }

    /* ------------------------------------------------------------------ */
    /* Expected outcomes                                                  */
    /* ------------------------------------------------------------------ */

    /**
     * The call returns $ret; $byRef gives the by-reference arguments that
     * the call changes (position => value after the call). The others must
     * come back unchanged.
     */
    private static function returns(mixed $ret, array $byRef = []): array
    {
        return ['returns', $ret, $byRef];
    }

    private static function throws(string $class, string $message): array
    {
        return ['throws', $class, $message];
    }

    /**
     * A ValueError whose message mentions 2^62: what the extension throws
     * where Yioop's encoder would never return. The exact wording (which
     * argument and element it names) is the binding's to choose.
     */
    private static function valueError(): array
    {
        return ['never', '2^62'];
    }

    /**
     * A ValueError saying that Yioop's nextPostString would read a word
     * forever: what the extension throws for a float offset that adding 4
     * cannot move (-INF, -1e300), on a word whose continuation bits say
     * that more words follow.
     */
    private static function offsetNeverReturns(): array
    {
        return ['never', 'would read forever'];
    }

    /** Observed from Yioop's Utility.php: the extension must do the same. */
    private static function yioop(array $outcome): array
    {
        return ['yioop', $outcome];
    }

    /** A deliberate difference from Yioop, with the reason. */
    private static function deliberate(string $why, array $outcome): array
    {
        return ['deliberate', $outcome, $why];
    }

    /** Yioop's code never returns here; the extension gives $outcome. */
    private static function yioopNeverReturns(array $outcome): array
    {
        return ['hangs', $outcome];
    }

    /**
     * A reported bug: Yioop does $yioop (the expected outcome), the
     * extension currently does $now.
     */
    private static function knownBug(string $id, array $yioop, array $now): array
    {
        return ['bug', $yioop, $id, $now];
    }

    private static function perFormat(array $for2019, array $for2015): array
    {
        return ['format', $for2019, $for2015];
    }

    /* ------------------------------------------------------------------ */
    /* Running and judging a case                                         */
    /* ------------------------------------------------------------------ */

    private function check(string $fn, array $args, array $expect): void
    {
        if ($expect[0] === 'format') {
            $expect = Vectors::format() === '2015' ? $expect[2] : $expect[1];
        }
        $expect = self::complete($fn, $args, $expect);
        $names = [$fn];
        if (in_array($fn, Vectors::NAMESPACED, true)) {
            $names[] = Vectors::NS . '\\' . $fn;
        }
        foreach ($names as $name) {
            $copy = $args;
            [$actual, $raised] = self::call($name, $copy);
            $this->assertSame([], $raised, "$name raised PHP errors");
            $this->judge($name, $expect, $actual);
        }
    }

    /**
     * Fills in the by-reference arguments a returns() leaves out: those must
     * come back unchanged.
     */
    private static function complete(string $fn, array $args, array $expect): array
    {
        if ($expect[0] === 'returns') {
            foreach (array_keys(self::BY_REF[$fn] ?? []) as $position) {
                if (!array_key_exists($position, $expect[2])) {
                    $expect[2][$position] = $args[$position];
                }
            }
            ksort($expect[2]);
            return $expect;
        }
        foreach ($expect as $i => $part) {
            if ($i > 0 && is_array($part) && in_array($part[0] ?? null,
                    ['returns', 'throws', 'never', 'yioop', 'deliberate', 'hangs', 'bug'], true)) {
                $expect[$i] = self::complete($fn, $args, $part);
            }
        }
        return $expect;
    }

    /**
     * Calls $name with $args (by-reference parameters write into $args).
     *
     * @return array{array, string[]} the outcome and every PHP error raised
     */
    private static function call(string $name, array &$args): array
    {
        $raised = [];
        set_error_handler(static function (int $level, string $message) use (&$raised): bool {
            $raised[] = "level $level: $message";
            return true;
        });
        try {
            $ret = $name(...$args);
            return [['returns', $ret, $args], $raised];
        } catch (\Throwable $e) {
            return [['throws', get_class($e), $e->getMessage()], $raised];
        } finally {
            restore_error_handler();
        }
    }

    private function judge(string $name, array $expect, array $actual): void
    {
        switch ($expect[0]) {
            case 'yioop':
            case 'deliberate':
            case 'hangs':
                $this->assertOutcome($name, $expect[1], $actual);
                return;
            case 'bug':
                [, $yioop, $id, $now] = $expect;
                if (self::sameOutcome($yioop, $actual)) {
                    $this->addToAssertionCount(1);
                    return;
                }
                if (self::sameOutcome($now, $actual) && getenv('YIOOP_BAD_INPUT_STRICT') !== '1') {
                    $this->markTestIncomplete("known bug $id (tests/BAD_INPUT.md): $name "
                        . self::describe($actual, $now) . '; Yioop ' . self::describe($yioop, $yioop));
                }
                $this->assertOutcome($name, $yioop, $actual);
                return;
        }
        throw new \LogicException('unknown expectation ' . $expect[0]);
    }

    private function assertOutcome(string $name, array $expected, array $actual): void
    {
        $this->assertSame(self::describe($expected, $expected),
            self::describe($actual, $expected), "outcome of $name");
    }

    private static function sameOutcome(array $expected, array $actual): bool
    {
        return self::describe($expected, $expected) === self::describe($actual, $expected);
    }

    /**
     * Canonical text of an outcome, showing only what $shape expects (the
     * by-reference arguments it names; for valueError() only whether the
     * outcome is such a ValueError).
     */
    private static function describe(array $outcome, array $shape): string
    {
        if ($shape[0] === 'never') {
            if ($outcome[0] === 'never'
                || ($outcome[0] === 'throws' && $outcome[1] === 'ValueError' && str_contains($outcome[2], $shape[1]))) {
                return "throws ValueError (... $shape[1] ...)";
            }
        }
        if ($outcome[0] === 'throws') {
            return "throws $outcome[1]: $outcome[2]";
        }
        if ($outcome[0] !== 'returns') {
            return 'never returns';
        }
        $text = 'returns ' . self::export($outcome[1]);
        foreach (array_keys($shape[0] === 'returns' ? $shape[2] : []) as $position) {
            $text .= "\nargument $position after: " . self::export($outcome[2][$position] ?? null);
        }
        return $text;
    }

    /** Exact, readable text of a value: types, float spelling and bytes kept. */
    private static function export(mixed $value): string
    {
        if (is_string($value)) {
            return preg_match('/^[\x20-\x7e]*$/', $value)
                ? "'" . addcslashes($value, "'\\") . "'"
                : '"' . implode('', array_map(
                    static fn (string $c): string => sprintf('\x%02x', ord($c)), str_split($value))) . '"';
        }
        if (is_float($value)) {
            return 'float ' . var_export($value, true);
        }
        if (is_array($value)) {
            $items = [];
            foreach ($value as $key => $item) {
                $items[] = var_export($key, true) . ' => ' . self::export($item);
            }
            return '[' . implode(', ', $items) . ']';
        }
        if ($value instanceof \ArrayObject) {
            return 'ArrayObject(' . self::export($value->getArrayCopy()) . ')';
        }
        if (is_object($value)) {
            return get_class($value) . '(' . self::export(get_object_vars($value)) . ')';
        }
        return var_export($value, true);
    }

    /* ------------------------------------------------------------------ */
    /* The cases                                                          */
    /* ------------------------------------------------------------------ */

    /** @dataProvider packPostingWrongTypes */
    public function testPackPostingWrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider packPostingNegativeNumbers */
    public function testPackPostingNegativeNumbers(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider packPostingValuesFrom2Pow28 */
    public function testPackPostingValuesFrom2Pow28(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider unpackPostingWrongTypes */
    public function testUnpackPostingWrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider unpackPostingDamagedStrings */
    public function testUnpackPostingDamagedStrings(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider unpackPostingOffsets */
    public function testUnpackPostingOffsets(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider unpackListModified9WrongTypes */
    public function testUnpackListModified9WrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider unpackListModified9DamagedWords */
    public function testUnpackListModified9DamagedWords(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider unpackListModified9NegativeNumbers */
    public function testUnpackListModified9NegativeNumbers(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider unpackListModified9LargeValues */
    public function testUnpackListModified9LargeValues(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider docIndexModified9WrongTypes */
    public function testDocIndexModified9WrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider docIndexModified9DamagedWords */
    public function testDocIndexModified9DamagedWords(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider docIndexModified9NegativeNumbers */
    public function testDocIndexModified9NegativeNumbers(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider docIndexModified9LargeValues */
    public function testDocIndexModified9LargeValues(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider unpackIntWrongTypes */
    public function testUnpackIntWrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider unpackIntDamagedStrings */
    public function testUnpackIntDamagedStrings(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider deltaListWrongTypes */
    public function testDeltaListWrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider deltaListNegativeNumbers */
    public function testDeltaListNegativeNumbers(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider deltaListLargeValues */
    public function testDeltaListLargeValues(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider deDeltaListWrongTypes */
    public function testDeDeltaListWrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider deDeltaListNegativeNumbers */
    public function testDeDeltaListNegativeNumbers(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider deDeltaListLargeValues */
    public function testDeDeltaListLargeValues(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider encodeModified9WrongTypes */
    public function testEncodeModified9WrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider encodeModified9NegativeNumbers */
    public function testEncodeModified9NegativeNumbers(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider encodeModified9ValuesFrom2Pow28 */
    public function testEncodeModified9ValuesFrom2Pow28(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider decodeModified9WrongTypes */
    public function testDecodeModified9WrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider decodeModified9DamagedStrings */
    public function testDecodeModified9DamagedStrings(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider decodeModified9Offsets */
    public function testDecodeModified9Offsets(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider nextPostStringWrongTypes */
    public function testNextPostStringWrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider nextPostStringDamagedStrings */
    public function testNextPostStringDamagedStrings(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider nextPostStringOffsets */
    public function testNextPostStringOffsets(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider batchOffsets */
    public function testBatchOffsetsWhereYioopNeverReturns(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider addDocIndexPostingsWrongTypes */
    public function testAddDocIndexPostingsWrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider addDocIndexPostingsDamagedStrings */
    public function testAddDocIndexPostingsDamagedStrings(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider addDocIndexPostingsNegativeNumbers */
    public function testAddDocIndexPostingsNegativeNumbers(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider addDocIndexPostingsValuesFrom2Pow28 */
    public function testAddDocIndexPostingsValuesFrom2Pow28(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider decodeQueueWeightInfoWrongTypes */
    public function testDecodeQueueWeightInfoWrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider decodeQueueWeightInfoNegativeNumbers */
    public function testDecodeQueueWeightInfoNegativeNumbers(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider decodeQueueWeightInfoLargeValues */
    public function testDecodeQueueWeightInfoLargeValues(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider encodeQueueWeightInfoWrongTypes */
    public function testEncodeQueueWeightInfoWrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider encodeQueueWeightInfoNegativeNumbers */
    public function testEncodeQueueWeightInfoNegativeNumbers(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider encodeQueueWeightInfoLargeValues */
    public function testEncodeQueueWeightInfoLargeValues(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider adjustWeightCallbackWrongTypes */
    public function testAdjustWeightCallbackWrongTypes(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider adjustWeightCallbackNegativeNumbers */
    public function testAdjustWeightCallbackNegativeNumbers(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /** @dataProvider adjustWeightCallbackLargeValues */
    public function testAdjustWeightCallbackLargeValues(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $args, $expect);
    }

    /* ------------------------------------------------------------------ */
    /* Damaged strings in bulk                                            */
    /* ------------------------------------------------------------------ */

    /**
     * Seeded random bytes at every offset: nothing throws or warns, offsets
     * move forward by whole words, nextPostString returns the bytes it moved
     * over (or nothing), decodeModified9 is exactly Yioop's
     * definition on top of nextPostString (unpack("N*") of the posting
     * string, each word through unpackListModified9, merged), every decoded
     * value is below 2^28, and addDocIndexPostings always gives whole words.
     */
    public function testDamagedStringsRandomBytes(): void
    {
        mt_srand(20190605);
        for ($round = 0; $round < 200; $round++) {
            $bytes = '';
            for ($i = mt_rand(0, 48); $i > 0; $i--) {
                $bytes .= chr(mt_rand(0, 255));
            }
            $length = strlen($bytes);
            for ($start = -$length - 5; $start <= $length + 5; $start++) {
                $context = bin2hex($bytes) . " at $start";
                $offset = $start;
                $input = $bytes;
                [$post, $raised] = self::callQuietly(
                    function () use (&$input, &$offset) { return nextPostString($input, $offset); });
                $this->assertSame([], $raised, $context);
                $this->assertSame($bytes, $input, $context);
                $this->assertIsString($post, $context);
                // The words from $start on, the last one possibly cut short.
                $this->assertSame($post === '' ? '' : substr($bytes, $start, $offset - $start), $post, $context);
                $this->assertGreaterThanOrEqual($start + 4, $offset, $context);
                $this->assertSame(0, ($offset - $start) % 4, $context);

                $words = $post === '' ? [] : array_values(unpack('N*', $post));
                $expected = array_merge([], ...array_map('unpackListModified9', $words));
                $decodeOffset = $start;
                [$decoded, $raised] = self::callQuietly(
                    function () use ($bytes, &$decodeOffset) { return decodeModified9($bytes, $decodeOffset); });
                $this->assertSame([], $raised, $context);
                $this->assertSame($expected, $decoded, $context);
                $this->assertSame($offset, $decodeOffset, $context);
                foreach ($decoded as $value) {
                    $this->assertTrue($value >= 0 && $value < (1 << 28), $context);
                }

                $unpackOffset = $start;
                [$posting, $raised] = self::callQuietly(
                    function () use ($bytes, &$unpackOffset) { return unpackPosting($bytes, $unpackOffset); });
                $this->assertSame([], $raised, $context);
                $this->assertSame($offset, $unpackOffset, $context);
                $this->assertCount(2, $posting, $context);
                // No decoded word: Yioop's array_shift() of nothing is null.
                $this->assertSame($decoded === [], $posting[0] === null, $context);
            }
            $input = $bytes;
            [$moved, $raised] = self::callQuietly(
                function () use (&$input) { return addDocIndexPostings($input, mt_rand(-70000, 70000)); });
            $this->assertSame([], $raised, bin2hex($bytes));
            $this->assertSame(0, strlen($moved) % 4, bin2hex($bytes));
        }
    }

    /** @return array{mixed, string[]} */
    private static function callQuietly(callable $call): array
    {
        $raised = [];
        set_error_handler(static function (int $level, string $message) use (&$raised): bool {
            $raised[] = "level $level: $message";
            return true;
        });
        try {
            return [$call(), $raised];
        } finally {
            restore_error_handler();
        }
    }

    /* ------------------------------------------------------------------ */
    /* Huge lists                                                         */
    /* ------------------------------------------------------------------ */

    /**
     * 10^7 increasing positions: gaps of 1 to 13, and 2^20 every 1000th,
     * so the deltas need 1x28, 4x6, 5x5, ... words.
     */
    private static function hugePositions(): array
    {
        if (self::$hugePositions === null) {
            $list = [];
            $position = 0;
            for ($i = 0; $i < self::HUGE; $i++) {
                $position += $i % 1000 === 999 ? 1 << 20 : 1 + $i * 7919 % 13;
                $list[] = $position;
            }
            self::$hugePositions = $list;
        }
        return self::$hugePositions;
    }

    /** The deltas of hugePositions(), computed in PHP. */
    private static function hugeDeltas(): array
    {
        $deltas = [];
        $last = 0;
        foreach (self::hugePositions() as $position) {
            $deltas[] = $position - $last;
            $last = $position;
        }
        return $deltas;
    }

    /**
     * Runs $call and asserts the peak memory it adds to the process (resident
     * set, which includes the extension's own allocations) stays within
     * HUGE_BYTES_PER_ELEMENT per element. Without /proc/self/clear_refs
     * (not Linux), or under valgrind (whose shadow memory counts in the
     * resident set), only the result is checked.
     */
    private function withinMemory(string $what, callable $call): mixed
    {
        $measure = !str_contains((string)getenv('LD_PRELOAD'), 'vgpreload')
            && @file_put_contents('/proc/self/clear_refs', '5') !== false;
        $before = $measure ? self::procStatusKb('VmRSS') : 0;
        [$result, $raised] = self::callQuietly($call);
        $this->assertSame([], $raised, "$what raised PHP errors");
        if ($measure) {
            $added = (self::procStatusKb('VmHWM') - $before) * 1024;
            $limit = self::HUGE * self::HUGE_BYTES_PER_ELEMENT;
            $this->assertLessThan($limit, $added, sprintf('%s added %.0f MB at its peak (limit %.0f MB)',
                $what, $added / 1048576, $limit / 1048576));
        }
        return $result;
    }

    private static function procStatusKb(string $field): int
    {
        foreach (file('/proc/self/status') as $line) {
            if (str_starts_with($line, "$field:")) {
                return (int)preg_replace('/\D/', '', $line);
            }
        }
        throw new \RuntimeException("no $field in /proc/self/status");
    }

    /** Length and SHA-1 observed from Yioop's Utility.php on the same list. */
    private const HUGE_PACKED = [
        '2019' => [7729236, 'fd760b5b549f22296fb1fd6a03a1ae2c9549081f'],
        '2015' => [7729236, 'ce53d1571f14915cd7ec88f54b39a4b123cafa27'],
    ];
    private const HUGE_ENCODED = [7729232, 'a941c279c3601c806b39b4014242b0a181018b55'];

    /** @group huge */
    public function testPackPostingHugeList(): void
    {
        $positions = self::hugePositions();
        $packed = $this->withinMemory('packPosting', fn () => packPosting(123456, $positions));
        [$length, $sha1] = self::HUGE_PACKED[Vectors::format()];
        $this->assertSame($length, strlen($packed));
        $this->assertSame($sha1, sha1($packed));
    }

    /** @group huge */
    public function testUnpackPostingHugeList(): void
    {
        $positions = self::hugePositions();
        $packed = packPosting(123456, $positions);
        $offset = 0;
        $posting = $this->withinMemory('unpackPosting',
            function () use ($packed, &$offset) { return unpackPosting($packed, $offset); });
        $this->assertSame(strlen($packed), $offset);
        $this->assertSame(123456, $posting[0]);
        $this->assertTrue($posting[1] === $positions, 'positions come back unchanged');
        unset($posting);

        $offset = 0;
        $posting = $this->withinMemory('unpackPosting without dedelta',
            function () use ($packed, &$offset) { return unpackPosting($packed, $offset, false); });
        $this->assertTrue($posting[1] === self::hugeDeltas(), 'deltas come back unchanged');
    }

    /** @group huge */
    public function testDeltaListHugeList(): void
    {
        $positions = self::hugePositions();
        $deltas = $this->withinMemory('deltaList', fn () => deltaList($positions));
        $this->assertTrue($deltas === self::hugeDeltas(), 'deltaList matches the PHP loop');
    }

    /** @group huge */
    public function testDeDeltaListHugeList(): void
    {
        $deltas = self::hugeDeltas();
        $this->withinMemory('deDeltaList', function () use (&$deltas) { deDeltaList($deltas); });
        $this->assertTrue($deltas === self::hugePositions(), 'deDeltaList undoes the deltas');
    }

    /** @group huge */
    public function testEncodeModified9HugeList(): void
    {
        $deltas = self::hugeDeltas();
        $encoded = $this->withinMemory('encodeModified9', fn () => encodeModified9($deltas));
        [$length, $sha1] = self::HUGE_ENCODED;
        $this->assertSame($length, strlen($encoded));
        $this->assertSame($sha1, sha1($encoded));
    }

    /** @group huge */
    public function testDecodeModified9HugeList(): void
    {
        $deltas = self::hugeDeltas();
        $encoded = encodeModified9($deltas);
        $offset = 0;
        $decoded = $this->withinMemory('decodeModified9',
            function () use ($encoded, &$offset) { return decodeModified9($encoded, $offset); });
        $this->assertSame(strlen($encoded), $offset);
        $this->assertTrue($decoded === $deltas, 'decodeModified9 undoes encodeModified9');
    }

    /* ------------------------------------------------------------------ */
    /* Live replay against a Yioop checkout                               */
    /* ------------------------------------------------------------------ */

    /** @group live */
    public function testRecordedOutcomesAgainstLiveYioop(): void
    {
        $dir = getenv('YIOOP_DIR') ?: null;
        if ($dir === null) {
            $this->markTestSkipped('Set YIOOP_DIR to a Yioop checkout to replay the recorded '
                . "bad-input cases through its own Utility.php.");
        }
        $utility = "$dir/src/library/Utility.php";
        $this->assertFileExists($utility, 'YIOOP_DIR is not a Yioop checkout');
        $source = file_get_contents($utility);
        // The 2015 line adds one to the first delta in packPosting.
        preg_match('/function\s+packPosting\b.*?\n}/s', $source, $m);
        $format = preg_match('/\[0\]\s*\+\+/', $m[0] ?? '') ? '2015' : '2019';

        $compare = [];
        $hangs = [];
        foreach (self::PROVIDERS as $provider) {
            foreach (self::$provider() as $label => [$fn, $args, $expect]) {
                if (!preg_match('/function\s+' . $fn . '\s*\(/', $source)) {
                    continue; // the 2015 line has no queue weight functions
                }
                if ($expect[0] === 'format') {
                    $expect = $format === '2015' ? $expect[2] : $expect[1];
                }
                $expect = self::complete($fn, $args, $expect);
                $case = ["$provider: $label", $fn, $args, $expect];
                if ($expect[0] === 'hangs' || ($expect[0] === 'bug' && $expect[1][0] === 'never')) {
                    $hangs[] = $case;
                } else {
                    $compare[] = $case;
                }
            }
        }
        $results = self::runInYioop($dir, array_map(fn ($c) => [$c[1], $c[2]], $compare), 0);
        $this->assertCount(count($compare), $results, "Yioop's side did not finish");
        foreach ($compare as $i => [$where, $fn, $args, $expect]) {
            $yioop = $results[$i];
            $expected = $expect[0] === 'yioop' ? $expect[1] : ($expect[0] === 'bug' ? $expect[1] : null);
            if ($expected !== null) {
                $this->assertSame(self::describe($expected, $expected), self::describe($yioop, $expected),
                    "$where: Yioop's outcome is not the recorded one");
            } else {
                $this->assertNotSame(self::describe($expect[1], $expect[1]), self::describe($yioop, $expect[1]),
                    "$where: marked as a deliberate difference, but Yioop does the same");
            }
        }
        foreach ($hangs as [$where, $fn, $args]) {
            $this->assertNull(self::runInYioop($dir, [[$fn, $args]], 1),
                "$where: Yioop was expected never to return");
        }
    }

    /**
     * Runs the calls through Yioop's Utility.php in a child PHP without the
     * extension. With a time limit, null means the limit was hit.
     */
    private static function runInYioop(string $dir, array $calls, int $seconds): ?array
    {
        $in = tempnam(sys_get_temp_dir(), 'yioop-bad-in');
        $out = tempnam(sys_get_temp_dir(), 'yioop-bad-out');
        try {
            file_put_contents($in, serialize($calls));
            $command = implode(' ', array_map('escapeshellarg', [PHP_BINARY, '-n',
                __DIR__ . '/live/bad-input-runner.php', $dir, $in, $out, (string)$seconds]));
            exec("$command 2>&1", $output, $status);
            if ($status !== 0) {
                if ($seconds > 0 && str_contains(implode("\n", $output), 'Maximum execution time')) {
                    return null;
                }
                throw new \RuntimeException("Yioop's side failed ($status):\n" . implode("\n", $output));
            }
            return unserialize(file_get_contents($out));
        } finally {
            @unlink($in);
            @unlink($out);
        }
    }

    /* ------------------------------------------------------------------ */
    /* Recorded cases                                                     */
    /* ------------------------------------------------------------------ */

    public static function packPostingWrongTypes(): array
    {
        return [
            'doc index array' => ['packPosting', [[1], [1, 2]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: array + int'))],
            'doc index object' => ['packPosting', [(object) ['a' => 3, 'b' => 10], [1, 2]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: stdClass + int'))],
            'doc index null' => ['packPosting', [null, [1, 2]],
                self::perFormat(
                    self::yioop(self::returns("?\x00\x00\x07")),
                    self::yioop(self::returns(">\x00\x00\x19")))],
            'doc index true' => ['packPosting', [true, [1, 2]],
                self::perFormat(
                    self::yioop(self::returns(">\x00\x00%")),
                    self::yioop(self::returns(">\x00\x00)")))],
            'doc index false' => ['packPosting', [false, [1, 2]],
                self::perFormat(
                    self::yioop(self::returns("?\x00\x00\x07")),
                    self::yioop(self::returns(">\x00\x00\x19")))],
            'doc index float' => ['packPosting', [5.7, [1, 2]],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01\x89")),
                    self::yioop(self::returns("<\x00\x01\x91")))],
            'doc index float in fold range' => ['packPosting', [40000.5, [1, 2]],
                self::perFormat(
                    self::yioop(self::returns("\xc98\x80\x01\x7f\x00\x00\x01")),
                    self::yioop(self::returns("\xc98\x80\x02\x7f\x00\x00\x01")))],
            'doc index NAN' => ['packPosting', [NAN, [3]],
                self::perFormat(
                    self::deliberate("B8: NAN, INF and fractional doc indexes are converted to ints first, as PHP's (int) does", self::returns(">\x00\x00\x07")),
                    self::deliberate("B8: NAN, INF and fractional doc indexes are converted to ints first, as PHP's (int) does", self::returns("<\x00\x00\x0c")))],
            'doc index INF' => ['packPosting', [INF, [3]],
                self::perFormat(
                    self::yioopNeverReturns(self::valueError()),
                    self::yioopNeverReturns(self::valueError()))],
            'doc index -INF' => ['packPosting', [-INF, [3]],
                self::perFormat(
                    self::deliberate("B8: NAN, INF and fractional doc indexes are converted to ints first, as PHP's (int) does", self::returns(">\x00\x00\x07")),
                    self::deliberate("B8: NAN, INF and fractional doc indexes are converted to ints first, as PHP's (int) does", self::returns("<\x00\x00\x0c")))],
            'doc index numeric string' => ['packPosting', ['12', [1, 2]],
                self::perFormat(
                    self::yioop(self::returns("8\x00\x0d\x11")),
                    self::yioop(self::returns("8\x00\x0d!")))],
            'doc index numeric string with blanks' => ['packPosting', [' 12 ', [1, 2]],
                self::perFormat(
                    self::yioop(self::returns("8\x00\x0d\x11")),
                    self::yioop(self::returns("8\x00\x0d!")))],
            'doc index exponent string' => ['packPosting', ['1e3', [1, 2]],
                self::perFormat(
                    self::yioop(self::returns("\xd0\xfa@\x01\x7f\x00\x00\x01")),
                    self::yioop(self::returns("\xd0\xfa@\x02\x7f\x00\x00\x01")))],
            'doc index non-numeric string' => ['packPosting', ['abc', [1, 2]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: string + int'))],
            'doc index leading-numeric string' => ['packPosting', ['12abc', [1, 2]],
                self::perFormat(
                    self::yioop(self::returns("8\x00\x0d\x11")),
                    self::yioop(self::returns("8\x00\x0d!")))],
            'doc index leading-numeric string in fold range' => ['packPosting', ['40000abc', [1, 2]],
                self::perFormat(
                    self::deliberate("B4: leading-numeric strings are taken as their number; Yioop's PHP 8 compares them with ints as strings", self::returns("\xc98\x80\x01\x7f\x00\x00\x01")),
                    self::deliberate("B4: leading-numeric strings are taken as their number; Yioop's PHP 8 compares them with ints as strings", self::returns("\xc98\x80\x02\x7f\x00\x00\x01")))],
            'position list int' => ['packPosting', [5, 7],
                self::knownBug('B2',
                    self::returns("<\x00\x00\x06"),
                    self::throws(\TypeError::class,
                        'packPosting(): Argument #2 ($position_list) must be of type '
                        . 'array, int given'))],
            'position list null' => ['packPosting', [5, null],
                self::knownBug('B2',
                    self::returns("<\x00\x00\x06"),
                    self::throws(\TypeError::class,
                        'packPosting(): Argument #2 ($position_list) must be of type '
                        . 'array, null given'))],
            'position list string' => ['packPosting', [5, 'abc'],
                self::knownBug('B2',
                    self::returns("<\x00\x00\x06"),
                    self::throws(\TypeError::class,
                        'packPosting(): Argument #2 ($position_list) must be of type '
                        . 'array, string given'))],
            // Yioop (2019 line) returns "<\x00\x01\x9f"
            // Yioop (2015 line) returns "<\x00\x01\xa7"
            'position list object' => ['packPosting', [5, (object) ['a' => 3, 'b' => 10]],
                self::deliberate('objects are refused where Yioop iterates their properties',
                    self::throws(\TypeError::class,
                        'packPosting(): Argument #2 ($position_list) must be of type '
                        . 'array, stdClass given'))],
            // Yioop (2019 line) returns "<\x00\x01\x9f"
            // Yioop (2015 line) returns "<\x00\x01\xa7"
            'position list ArrayObject' => ['packPosting', [5, new \ArrayObject([3, 10])],
                self::deliberate('objects are refused where Yioop iterates them',
                    self::throws(\TypeError::class,
                        'packPosting(): Argument #2 ($position_list) must be of type '
                        . 'array, ArrayObject given'))],
            // Yioop throws TypeError: array_unshift(): Argument #1 ($array) must
            //   be of type array, int given
            'position list int, no delta' => ['packPosting', [5, 7, false],
                self::deliberate('the TypeError names packPosting() instead of array_unshift()',
                    self::throws(\TypeError::class,
                        'packPosting(): Argument #2 ($position_list) must be of type '
                        . 'array, int given'))],
            // Yioop throws TypeError: array_unshift(): Argument #1 ($array) must
            //   be of type array, null given
            'position list null, no delta' => ['packPosting', [5, null, false],
                self::deliberate('the TypeError names packPosting() instead of array_unshift()',
                    self::throws(\TypeError::class,
                        'packPosting(): Argument #2 ($position_list) must be of type '
                        . 'array, null given'))],
            // Yioop (2019 line) throws TypeError: array_unshift(): Argument #1
            //   ($array) must be of type array, stdClass given
            // Yioop (2015 line) throws Error: Cannot use object of type stdClass
            //   as array
            'position list object, no delta' => ['packPosting', [5, (object) ['a' => 3, 'b' => 10], false],
                self::deliberate('the TypeError names packPosting() instead of array_unshift()',
                    self::throws(\TypeError::class,
                        'packPosting(): Argument #2 ($position_list) must be of type '
                        . 'array, stdClass given'))],
            'nested array' => ['packPosting', [5, [[1]]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: array - int'))],
            // Yioop (2015 line) throws TypeError: Cannot increment array
            'nested array, no delta' => ['packPosting', [5, [[1]], false],
                self::perFormat(
                    self::yioopNeverReturns(self::throws(\TypeError::class, 'Unsupported operand types: array + int')),
                    self::deliberate('TypeError (2015 line: TypeError "Cannot increment array")',
                        self::throws(\TypeError::class, 'Unsupported operand types: array + int')))],
            'null and bool positions' => ['packPosting', [5, [null, true, 3]],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x0c\x0a")),
                    self::yioop(self::returns("<\x00\x0cJ")))],
            'numeric string positions' => ['packPosting', [5, ['3', ' 10', '1e2']],
                self::perFormat(
                    self::yioop(self::returns("\xfc\x00\x01\x9f`\x00\x00Z")),
                    self::yioop(self::returns("\xfc\x00\x01\xa7`\x00\x00Z")))],
            'non-numeric string position' => ['packPosting', [5, ['abc']],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: string - int'))],
            'non-numeric string position, no delta' => ['packPosting', [5, ['abc'], false],
                self::yioopNeverReturns(self::throws(\TypeError::class, 'Unsupported operand types: string + int'))],
            'leading-numeric string position' => ['packPosting', [5, ['7abc', 9]],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01\xba")),
                    self::yioop(self::returns("8\x00\x06\x82")))],
            'leading-numeric string position, no delta' => ['packPosting', [5, ['7abc', 9], false],
                self::perFormat(
                    self::deliberate("B4: leading-numeric strings are taken as their number; Yioop's PHP 8 compares them with ints as strings", self::returns("8\x00\x06y")),
                    self::deliberate("B4: leading-numeric strings are taken as their number; Yioop's PHP 8 compares them with ints as strings", self::returns("8\x00\x06\x89")))],
            'float positions' => ['packPosting', [5, [1.5, 3.7]],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01\x8a")),
                    self::yioop(self::returns("<\x00\x01\x92")))],
            'float positions, no delta' => ['packPosting', [5, [1.5, 3.7], false],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01\x8b")),
                    self::yioop(self::returns("<\x00\x01\x93")))],
            'NAN position' => ['packPosting', [5, [NAN]],
                self::perFormat(
                    self::deliberate("B9: float list elements are converted to ints first, as PHP's (int) does", self::returns("<\x00\x000")),
                    self::deliberate("B9: float list elements are converted to ints first, as PHP's (int) does", self::returns("<\x00\x001")))],
            'keyed position list' => ['packPosting', [5, [5 => 3, 9 => 4]],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01\x99")),
                    self::yioop(self::returns("<\x00\x01\xa1")))],
            'keyed list without key 0, no delta, fold range' => ['packPosting', [40000, [5 => 3, 9 => 4], false],
                self::yioop(self::returns("\xc0\x00\x9cAx\x00\x004"))],
            'key 0 second, no delta, fold range' => ['packPosting', [40000, [1 => 3, 0 => 4], false],
                self::perFormat(
                    self::yioop(self::returns("\xfe\x00\x00\x03I8\x80\x04")),
                    self::yioop(self::returns("\xfe\x00\x00\x03I8\x80\x05")))],
            'empty position list' => ['packPosting', [5, []],
                self::yioop(self::returns("<\x00\x00\x06"))],
            'empty position list, fold range' => ['packPosting', [40000, []],
                self::yioop(self::returns("\x00\x00\x9cA"))],
            'delta flag int 0' => ['packPosting', [5, [1, 2], 0],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01\x8a")),
                    self::yioop(self::returns("<\x00\x01\x92")))],
            'delta flag int 1' => ['packPosting', [5, [1, 2], 1],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01\x89")),
                    self::yioop(self::returns("<\x00\x01\x91")))],
            'delta flag null' => ['packPosting', [5, [1, 2], null],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01\x8a")),
                    self::yioop(self::returns("<\x00\x01\x92")))],
            'delta flag string' => ['packPosting', [5, [1, 2], 'abc'],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01\x89")),
                    self::yioop(self::returns("<\x00\x01\x91")))],
            'delta flag string 0' => ['packPosting', [5, [1, 2], '0'],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01\x8a")),
                    self::yioop(self::returns("<\x00\x01\x92")))],
            'delta flag float' => ['packPosting', [5, [1, 2], 0.0],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01\x8a")),
                    self::yioop(self::returns("<\x00\x01\x92")))],
            'delta flag empty array' => ['packPosting', [5, [1, 2], []],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01\x8a")),
                    self::yioop(self::returns("<\x00\x01\x92")))],
            'delta flag object' => ['packPosting', [5, [1, 2], (object) ['a' => 3, 'b' => 10]],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01\x89")),
                    self::yioop(self::returns("<\x00\x01\x91")))],
        ];
    }

    public static function packPostingNegativeNumbers(): array
    {
        return [
            'doc index -1' => ['packPosting', [-1, [1, 2]],
                self::perFormat(
                    self::yioop(self::returns("?\x00\x00\x03")),
                    self::yioop(self::returns(">\x00\x00\x09")))],
            'doc index -5' => ['packPosting', [-5, [1, 2]],
                self::perFormat(
                    self::yioop(self::returns(">\xff\xff\xf3")),
                    self::yioop(self::returns("=\xff\xff\xc9")))],
            'doc index PHP_INT_MIN' => ['packPosting', [PHP_INT_MIN, [1]],
                self::perFormat(
                    self::yioop(self::returns("?\x00\x00\x03")),
                    self::yioop(self::returns(">\x00\x00\x06")))],
            'negative position' => ['packPosting', [5, [-3, 4]],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01o")),
                    self::yioop(self::returns("<\x00\x01w")))],
            'negative position, no delta' => ['packPosting', [5, [-3, 4], false],
                self::perFormat(
                    self::yioop(self::returns("<\x00\x01l")),
                    self::yioop(self::returns("<\x00\x01t")))],
            'decreasing positions' => ['packPosting', [5, [10, 4]],
                self::perFormat(
                    self::yioop(self::returns("8\x00\x06\x9a")),
                    self::yioop(self::returns("8\x00\x06\xaa")))],
            'decreasing positions, fold range' => ['packPosting', [40000, [10, 4]],
                self::perFormat(
                    self::yioop(self::returns("\xc98\x80\x0a~\xff\xff\xfa")),
                    self::yioop(self::returns("\xc98\x80\x0b~\xff\xff\xfa")))],
            'negative float position' => ['packPosting', [5, [3, -2.5], false],
                self::perFormat(
                    self::deliberate("B9: float list elements are converted to ints first, as PHP's (int) does", self::returns("<\x00\x01\x96")),
                    self::deliberate("B9: float list elements are converted to ints first, as PHP's (int) does", self::returns("<\x00\x01\x9e")))],
            '-INF position' => ['packPosting', [5, [-INF]],
                self::perFormat(
                    self::deliberate("B9: float list elements are converted to ints first, as PHP's (int) does", self::returns("<\x00\x000")),
                    self::deliberate("B9: float list elements are converted to ints first, as PHP's (int) does", self::returns("<\x00\x001")))],
            'difference overflows into a float' => ['packPosting', [5, [PHP_INT_MIN, PHP_INT_MAX]],
                self::yioopNeverReturns(self::valueError())],
            'difference overflows below PHP_INT_MIN' => ['packPosting', [5, [PHP_INT_MAX, PHP_INT_MIN]],
                self::yioopNeverReturns(self::valueError())],
        ];
    }

    public static function packPostingValuesFrom2Pow28(): array
    {
        return [
            'doc index 2^28' => ['packPosting', [268435456, [1, 2]],
                self::perFormat(
                    self::yioop(self::returns("\xd0\x00\x00\x01\x7f\x00\x00\x03")),
                    self::yioop(self::returns("\xd0\x00\x00\x01|\x00\x00\x11")))],
            'doc index 2^18 (just past the fold range)' => ['packPosting', [262144, [1, 2]],
                self::perFormat(
                    self::yioop(self::returns("\xc0\x04\x00\x01\x7f\x00\x00\x03")),
                    self::yioop(self::returns("\xc0\x04\x00\x01|\x00\x00\x11")))],
            'position 2^28' => ['packPosting', [5, [268435456]],
                self::perFormat(
                    self::yioop(self::returns("\xfc\x00\x00\x06P\x00\x00\x00")),
                    self::yioop(self::returns("\xfc\x00\x00\x06P\x00\x00\x01")))],
            'position 2^40' => ['packPosting', [5, [1099511627776]],
                self::perFormat(
                    self::yioop(self::returns("\xfc\x00\x00\x06@\x00\x00\x00")),
                    self::yioop(self::returns("\xfc\x00\x00\x06@\x00\x00\x01")))],
            'position 2^62 - 1' => ['packPosting', [5, [4611686018427387903]],
                self::perFormat(
                    self::yioop(self::returns("\xfc\x00\x00\x06?\xff\xff\xff")),
                    self::yioopNeverReturns(self::valueError()))],
            'doc index 2^62 - 2' => ['packPosting', [4611686018427387902, [1]],
                self::perFormat(
                    self::yioop(self::returns("\xff\x00\x00\x00\x7f\xff\xff\xff\x7f\x00\x00\x01")),
                    self::yioop(self::returns("\xff\x00\x00\x00\x7f\xff\xff\xff|\x00\x00\x02")))],
            'position 2^62' => ['packPosting', [5, [4611686018427387904]],
                self::yioopNeverReturns(self::valueError())],
            'position PHP_INT_MAX' => ['packPosting', [5, [PHP_INT_MAX]],
                self::yioopNeverReturns(self::valueError())],
            'doc index 2^62 - 1 (stored plus one)' => ['packPosting', [4611686018427387903, [3]],
                self::yioopNeverReturns(self::valueError())],
            'doc index PHP_INT_MAX' => ['packPosting', [PHP_INT_MAX, [3]],
                self::yioopNeverReturns(self::valueError())],
            'doc index 1e30' => ['packPosting', [1.0E+30, [3]],
                self::yioopNeverReturns(self::valueError())],
            'position float 1e19' => ['packPosting', [5, [1.0E+19]],
                self::yioopNeverReturns(self::valueError())],
            'position INF' => ['packPosting', [5, [INF]],
                self::yioopNeverReturns(self::valueError())],
        ];
    }

    public static function unpackPostingWrongTypes(): array
    {
        return [
            // Yioop returns [null, []], leaves $offset = 4
            'posting array' => ['unpackPosting', [[1], 0],
                self::deliberate('arrays are refused where Yioop indexes into them',
                    self::throws(\TypeError::class,
                        'unpackPosting(): Argument #1 ($posting) must be of type '
                        . 'string, array given'))],
            // Yioop throws TypeError: strlen(): Argument #1 ($string) must be of
            //   type string, array given
            'posting array of 4' => ['unpackPosting', [[1, 2, 3, 4], 0],
                self::deliberate('arrays are refused where Yioop indexes into them',
                    self::throws(\TypeError::class,
                        'unpackPosting(): Argument #1 ($posting) must be of type '
                        . 'string, array given'))],
            // Yioop throws Error: Cannot use object of type stdClass as array
            'posting object' => ['unpackPosting', [(object) ['a' => 3, 'b' => 10], 0],
                self::deliberate('TypeError where Yioop throws Error (cannot use object as array)',
                    self::throws(\TypeError::class,
                        'unpackPosting(): Argument #1 ($posting) must be of type '
                        . 'string, stdClass given'))],
            'posting null' => ['unpackPosting', [null, 0],
                self::yioop(self::returns([null, []], [1 => 4]))],
            'posting int' => ['unpackPosting', [12345678, 0],
                self::yioop(self::returns([null, []], [1 => 4]))],
            'posting float' => ['unpackPosting', [1.5, 0],
                self::yioop(self::returns([null, []], [1 => 4]))],
            'posting true' => ['unpackPosting', [true, 0],
                self::yioop(self::returns([null, []], [1 => 4]))],
            'offset array' => ['unpackPosting', [self::POSTINGS, [0]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: array + int'))],
            'offset object' => ['unpackPosting', [self::POSTINGS, (object) ['a' => 3, 'b' => 10]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: stdClass + int'))],
            'offset null' => ['unpackPosting', [self::POSTINGS, null],
                self::perFormat(
                    self::yioop(self::returns([5, [300000, 600000]], [1 => 12])),
                    self::yioop(self::returns([5, [299999, 599999]], [1 => 12])))],
            'offset true' => ['unpackPosting', [self::POSTINGS, true],
                self::yioop(self::returns([1663, []], [1 => 5]))],
            'offset false' => ['unpackPosting', [self::POSTINGS, false],
                self::perFormat(
                    self::yioop(self::returns([5, [300000, 600000]], [1 => 12])),
                    self::yioop(self::returns([5, [299999, 599999]], [1 => 12])))],
            'offset numeric string' => ['unpackPosting', [self::POSTINGS, '12'],
                self::perFormat(
                    self::yioop(self::returns([40000, [3, 10]], [1 => 20])),
                    self::yioop(self::returns([40000, [2, 9]], [1 => 20])))],
            'offset non-numeric string' => ['unpackPosting', [self::POSTINGS, 'abc'],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: string + int'))],
            'offset leading-numeric string' => ['unpackPosting', [self::POSTINGS, '12abc'],
                self::perFormat(
                    self::knownBug('B3',
                        self::throws(\TypeError::class,
                        'substr(): Argument #2 ($offset) must be of type int, string '
                        . 'given'),
                        self::returns([40000, [3, 10]], [1 => 20])),
                    self::knownBug('B3',
                        self::throws(\TypeError::class,
                        'substr(): Argument #2 ($offset) must be of type int, string '
                        . 'given'),
                        self::returns([40000, [2, 9]], [1 => 20])))],
            'offset float' => ['unpackPosting', [self::POSTINGS, 12.7],
                self::perFormat(
                    self::knownBug('B3',
                        self::returns([40000, [3, 10]], [1 => 20.7]),
                        self::returns([40000, [3, 10]], [1 => 20])),
                    self::knownBug('B3',
                        self::returns([40000, [2, 9]], [1 => 20.7]),
                        self::returns([40000, [2, 9]], [1 => 20])))],
            'offset NAN' => ['unpackPosting', [self::POSTINGS, NAN],
                self::perFormat(
                    self::knownBug('B3',
                        self::throws(\TypeError::class,
                        'substr(): Argument #2 ($offset) must be of type int, float '
                        . 'given'),
                        self::returns([5, [300000, 600000]], [1 => 12])),
                    self::knownBug('B3',
                        self::throws(\TypeError::class,
                        'substr(): Argument #2 ($offset) must be of type int, float '
                        . 'given'),
                        self::returns([5, [299999, 599999]], [1 => 12])))],
            'offset INF' => ['unpackPosting', [self::POSTINGS, INF],
                self::perFormat(
                    self::knownBug('B3',
                        self::throws(\TypeError::class,
                        'substr(): Argument #2 ($offset) must be of type int, float '
                        . 'given'),
                        self::returns([5, [300000, 600000]], [1 => 12])),
                    self::knownBug('B3',
                        self::throws(\TypeError::class,
                        'substr(): Argument #2 ($offset) must be of type int, float '
                        . 'given'),
                        self::returns([5, [299999, 599999]], [1 => 12])))],
            'dedelta flag int 0' => ['unpackPosting', [self::POSTINGS, 20, 0],
                self::perFormat(
                    self::yioop(self::returns([7, [1, 1, 1]], [1 => 24])),
                    self::yioop(self::returns([7, [0, 1, 1]], [1 => 24])))],
            'dedelta flag null' => ['unpackPosting', [self::POSTINGS, 20, null],
                self::perFormat(
                    self::yioop(self::returns([7, [1, 1, 1]], [1 => 24])),
                    self::yioop(self::returns([7, [0, 1, 1]], [1 => 24])))],
            'dedelta flag string' => ['unpackPosting', [self::POSTINGS, 20, 'no'],
                self::perFormat(
                    self::yioop(self::returns([7, [1, 2, 3]], [1 => 24])),
                    self::yioop(self::returns([7, [0, 1, 2]], [1 => 24])))],
            'dedelta flag array' => ['unpackPosting', [self::POSTINGS, 20, []],
                self::perFormat(
                    self::yioop(self::returns([7, [1, 1, 1]], [1 => 24])),
                    self::yioop(self::returns([7, [0, 1, 1]], [1 => 24])))],
        ];
    }

    public static function unpackPostingDamagedStrings(): array
    {
        return [
            'empty string' => ['unpackPosting', ['', 0],
                self::yioop(self::returns([null, []], [1 => 4]))],
            'shorter than a word' => ['unpackPosting', ["\xfc\x00\x00", 0],
                self::yioop(self::returns([null, []], [1 => 4]))],
            'truncated after first word' => ['unpackPosting', ["\xfc\x00\x00\x06", 0],
                self::yioop(self::returns([5, []], [1 => 4]))],
            'truncated mid second word' => ['unpackPosting', ["\xfc\x00\x00\x06\x80\x04", 0],
                self::yioop(self::returns([5, []], [1 => 8]))],
            'truncated before the end word' => ['unpackPosting', ["\xfc\x00\x00\x06\x80\x04\x93\xe0", 0],
                self::perFormat(
                    self::yioop(self::returns([5, [300000]], [1 => 8])),
                    self::yioop(self::returns([5, [299999]], [1 => 8])))],
            'start at a continuation word (10)' => ['unpackPosting', [self::POSTINGS, 4],
                self::yioop(self::returns([null, []], [1 => 8]))],
            'start at an end word (01)' => ['unpackPosting', [self::POSTINGS, 8],
                self::yioop(self::returns([null, []], [1 => 12]))],
            'start word then a one-word posting (11, 00)' => ['unpackPosting', ["\xfc\x00\x00\x068\x00\x81\x11", 0],
                self::perFormat(
                    self::yioop(self::returns([5, [8, 9, 10, 11]], [1 => 8])),
                    self::yioop(self::returns([5, [7, 8, 9, 10]], [1 => 8])))],
            'start word then another start word (11, 11)' => ['unpackPosting', ["\xfc\x00\x00\x06\xfc\x00\x00\x06@\x04\x93\xe0", 0],
                self::perFormat(
                    self::yioop(self::returns([5, [6, 300006]], [1 => 12])),
                    self::yioop(self::returns([5, [5, 300005]], [1 => 12])))],
            'continuation words to the end, no end word' => ['unpackPosting', ["\xfc\x00\x00\x06\x80\x04\x93\xe0\x80\x04\x93\xe0", 0],
                self::perFormat(
                    self::yioop(self::returns([5, [300000, 600000]], [1 => 12])),
                    self::yioop(self::returns([5, [299999, 599999]], [1 => 12])))],
            'all zero word' => ['unpackPosting', ["\x00\x00\x00\x00", 0],
                self::yioop(self::returns([-1, []], [1 => 4]))],
            'all ones' => ['unpackPosting', ["\xff\xff\xff\xff\xff\xff\xff\xff", 0],
                self::perFormat(
                    self::yioop(self::returns([
                    0,
                    [
                        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                        16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                        29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41,
                        42, 43, 44, 45, 46, 47,
                    ],
                ], [1 => 8])),
                    self::yioop(self::returns([
                    0,
                    [
                        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                        16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                        29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41,
                        42, 43, 44, 45, 46,
                    ],
                ], [1 => 8])))],
            'empty 24x1 word' => ['unpackPosting', ["?\x00\x00\x00", 0],
                self::yioop(self::returns([null, []], [1 => 4]))],
            'fold flag in a 28-bit word' => ['unpackPosting', ["\x0f\x0f\xf0\xf0", 0],
                self::perFormat(
                    self::yioop(self::returns([231416, [240]], [1 => 4])),
                    self::yioop(self::returns([231416, [239]], [1 => 4])))],
            'fold flag with first delta 512-1023' => ['unpackPosting', ["\x098\xa2\xbc", 0],
                self::perFormat(
                    self::yioop(self::returns([40017, [188]], [1 => 4])),
                    self::yioop(self::returns([40016, [699]], [1 => 4])))],
            'random bytes 1' => ['unpackPosting', ["\xd3\xa1\xb2\xc4\xe5\xf6\x07\x18):K\x5c", 0],
                self::perFormat(
                    self::yioop(self::returns([
                    3717, [12996, 13377, 13636, 13916, 13994, 14287, 14635],
                ], [1 => 12])),
                    self::yioop(self::returns([
                    3717, [12995, 13376, 13635, 13915, 13993, 14286, 14634],
                ], [1 => 12])))],
            'random bytes 2' => ['unpackPosting', ["\xc7\xe1\xf0\xaa\x91\xb3\xc4\xd5\xe6\xf7\x08\x19J[l}", 0],
                self::perFormat(
                    self::yioop(self::returns([132247721, [1743, 2980, 3425, 3813, 3838, 173767547]], [1 => 16])),
                    self::yioop(self::returns([132247721, [1742, 2979, 3424, 3812, 3837, 173767546]], [1 => 16])))],
            'random bytes 3, unaligned offset' => ['unpackPosting', ["\x05\xc7\xe1\xf0\xaa\x91\xb3\xc4\xd5\xe6\xf7\x08\x19", 1],
                self::perFormat(
                    self::yioop(self::returns([132247721, [1743, 2980, 3425, 3813, 3838]], [1 => 13])),
                    self::yioop(self::returns([132247721, [1742, 2979, 3424, 3812, 3837]], [1 => 13])))],
        ];
    }

    public static function unpackPostingOffsets(): array
    {
        return [
            'second posting' => ['unpackPosting', [self::POSTINGS, 12],
                self::perFormat(
                    self::yioop(self::returns([40000, [3, 10]], [1 => 20])),
                    self::yioop(self::returns([40000, [2, 9]], [1 => 20])))],
            'last posting' => ['unpackPosting', [self::POSTINGS, 20],
                self::perFormat(
                    self::yioop(self::returns([7, [1, 2, 3]], [1 => 24])),
                    self::yioop(self::returns([7, [0, 1, 2]], [1 => 24])))],
            'offset at the end' => ['unpackPosting', [self::POSTINGS, 24],
                self::yioop(self::returns([null, []], [1 => 28]))],
            'offset 3 bytes before the end' => ['unpackPosting', [self::POSTINGS, 21],
                self::yioop(self::returns([null, []], [1 => 25]))],
            'offset far past the end' => ['unpackPosting', [self::POSTINGS, 1000],
                self::yioop(self::returns([null, []], [1 => 1004]))],
            'offset 2^28' => ['unpackPosting', [self::POSTINGS, 268435456],
                self::yioop(self::returns([null, []], [1 => 268435460]))],
            'offset -4' => ['unpackPosting', [self::POSTINGS, -4],
                self::perFormat(
                    self::yioop(self::returns([7, [1, 2, 3]], [1 => 0])),
                    self::yioop(self::returns([7, [0, 1, 2]], [1 => 0])))],
            'offset -12' => ['unpackPosting', [self::POSTINGS, -12],
                self::perFormat(
                    self::yioop(self::returns([40000, [3, 10]], [1 => -4])),
                    self::yioop(self::returns([40000, [2, 9]], [1 => -4])))],
            'offset -24 (start, counted from the end)' => ['unpackPosting', [self::POSTINGS, -24],
                self::perFormat(
                    self::yioop(self::returns([5, [300000, 600000]], [1 => -12])),
                    self::yioop(self::returns([5, [299999, 599999]], [1 => -12])))],
            'offset -25 (before the start)' => ['unpackPosting', [self::POSTINGS, -25],
                self::yioop(self::returns([5, []], [1 => -21]))],
            'offset -2' => ['unpackPosting', [self::POSTINGS, -2],
                self::yioop(self::returns([null, []], [1 => 2]))],
            'offset -1000' => ['unpackPosting', [self::POSTINGS, -1000],
                self::yioop(self::returns([null, []], [1 => -996]))],
            'offset PHP_INT_MAX overflows into a float' => ['unpackPosting', [self::POSTINGS, PHP_INT_MAX],
                self::yioop(self::returns([null, []], [1 => 9.223372036854776E+18]))],
            'offset PHP_INT_MAX - 3' => ['unpackPosting', [self::POSTINGS, 9223372036854775804],
                self::yioop(self::returns([null, []], [1 => 9.223372036854776E+18]))],
            'offset PHP_INT_MIN' => ['unpackPosting', [self::POSTINGS, PHP_INT_MIN],
                self::yioop(self::returns([null, []], [1 => -9223372036854775804]))],
            'offset float 1e30' => ['unpackPosting', [self::POSTINGS, 1.0E+30],
                self::knownBug('B3',
                    self::returns([null, []]),
                    self::returns([null, []], [1 => 5076964154930102276]))],
            'offset float -1.5' => ['unpackPosting', [self::POSTINGS, -1.5],
                self::knownBug('B3',
                    self::returns([null, []], [1 => 2.5]),
                    self::returns([null, []], [1 => 3]))],
        ] + self::offsetsAddingFourCannotMove('unpackPosting', [null, []]);
    }

    /**
     * Float offsets so far out that adding 4 leaves them where they are
     * (B11, B13), and string offsets that are not integers (B12), for the
     * three functions that frame with Yioop's nextPostString. As an int, a
     * string position of -INF, -1e300 and -2^64 is 0: the first word.
     * $skipped is what $fn returns for a word it drops.
     */
    private static function offsetsAddingFourCannotMove(string $fn, mixed $skipped): array
    {
        $substr = self::throws(\TypeError::class, 'substr(): Argument #2 ($offset) must be of type int, float given');
        $stringOffset = self::throws(\TypeError::class, 'Cannot access offset of type string on string');
        return [
            // Yioop's loop reads the first word (11) at the same offset forever.
            'offset -INF on a first word' => [$fn, [self::POSTINGS, -INF],
                self::yioopNeverReturns(self::offsetNeverReturns())],
            'offset -1e300 on a first word' => [$fn, [self::POSTINGS, -1.0E+300],
                self::yioopNeverReturns(self::offsetNeverReturns())],
            'offset -2^64 on a first word' => [$fn, [self::POSTINGS, -1.8446744073709552E+19],
                self::yioopNeverReturns(self::offsetNeverReturns())],
            'offset -INF on a one-word posting' => [$fn, [self::ONE_WORD, -INF],
                self::yioop($substr)],
            'offset -1e300 on a one-word posting' => [$fn, [self::ONE_WORD, -1.0E+300],
                self::yioop($substr)],
            'offset -1e300 on a continuation word' => [$fn, [self::CONTINUATION_WORD, -1.0E+300],
                self::yioop(self::returns($skipped, [1 => -1.0E+300]))],
            'offset -INF on an empty string' => [$fn, ['', -INF],
                self::yioop(self::returns($skipped, [1 => -INF]))],
            'offset float 1e300' => [$fn, [self::POSTINGS, 1.0E+300],
                self::yioop($substr)],
            'offset string -1e300' => [$fn, [self::POSTINGS, '-1e300'],
                self::yioop($stringOffset)],
            'offset string -1e300 on a continuation word' => [$fn, [self::CONTINUATION_WORD, '-1e300'],
                self::yioop($stringOffset)],
            'offset string 1.0' => [$fn, [self::POSTINGS, '1.0'],
                self::yioop($stringOffset)],
            'offset string 1e1' => [$fn, [self::POSTINGS, '1e1'],
                self::yioop($stringOffset)],
            'offset string 1e0 past the end' => [$fn, [self::ONE_WORD, '1e0'],
                self::yioop(self::returns($skipped, [1 => 5.0]))],
            'offset string -1e300abc' => [$fn, [self::ONE_WORD, '-1e300abc'],
                self::yioop($stringOffset)],
        ];
    }

    public static function unpackListModified9WrongTypes(): array
    {
        return [
            'array' => ['unpackListModified9', [[1]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: array & int'))],
            'object' => ['unpackListModified9', [(object) ['a' => 3, 'b' => 10]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: stdClass & int'))],
            'null' => ['unpackListModified9', [null],
                self::yioop(self::returns([0]))],
            'true' => ['unpackListModified9', [true],
                self::yioop(self::returns([1]))],
            'float' => ['unpackListModified9', [1500000000.0],
                self::yioop(self::returns([9632, 12032]))],
            'float 1e30' => ['unpackListModified9', [1.0E+30],
                self::yioop(self::returns([0]))],
            'NAN' => ['unpackListModified9', [NAN],
                self::yioop(self::returns([0]))],
            'INF' => ['unpackListModified9', [INF],
                self::yioop(self::returns([0]))],
            'numeric string' => ['unpackListModified9', ['1610612741'],
                self::yioop(self::returns([5]))],
            'non-numeric string' => ['unpackListModified9', ['abc'],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: string & int'))],
            'leading-numeric string' => ['unpackListModified9', ['12abc'],
                self::yioop(self::returns([12]))],
            'empty string' => ['unpackListModified9', [''],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: string & int'))],
            'binary word as a string' => ['unpackListModified9', ["?\x00\x00\x05"],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: string & int'))],
        ];
    }

    public static function unpackListModified9DamagedWords(): array
    {
        return [
            'continuation bits 01 (end word)' => ['unpackListModified9', [2130706437],
                self::yioop(self::returns([1]))],
            'continuation bits 10' => ['unpackListModified9', [3204448261],
                self::yioop(self::returns([1]))],
            'continuation bits 11' => ['unpackListModified9', [4278190085],
                self::yioop(self::returns([1]))],
            'zero word' => ['unpackListModified9', [0],
                self::yioop(self::returns([0]))],
            '2x14 word with a zero low slot' => ['unpackListModified9', [268517376],
                self::yioop(self::returns([]))],
            '4x6 word, empty' => ['unpackListModified9', [805306368],
                self::yioop(self::returns([]))],
            '24x1 word, all ones' => ['unpackListModified9', [1073741823],
                self::yioop(self::returns([
                    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                    1, 1, 1, 1, 1,
                ]))],
            'all 32 bits set' => ['unpackListModified9', [4294967295],
                self::yioop(self::returns([
                    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                    1, 1, 1, 1, 1,
                ]))],
        ];
    }

    public static function unpackListModified9NegativeNumbers(): array
    {
        return [
            '-1' => ['unpackListModified9', [-1],
                self::yioop(self::returns([
                    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                    1, 1, 1, 1, 1,
                ]))],
            '-5' => ['unpackListModified9', [-5],
                self::yioop(self::returns([1, 1]))],
            'PHP_INT_MIN' => ['unpackListModified9', [PHP_INT_MIN],
                self::yioop(self::returns([0]))],
        ];
    }

    public static function unpackListModified9LargeValues(): array
    {
        return [
            '2^28' => ['unpackListModified9', [268435456],
                self::yioop(self::returns([]))],
            '2^32 + 5' => ['unpackListModified9', [4294967301],
                self::yioop(self::returns([5]))],
            '2^40 | 2x14 word' => ['unpackListModified9', [1099780079621],
                self::yioop(self::returns([1, 5]))],
            '2^40 | 3x9 word' => ['unpackListModified9', [1100048761345],
                self::yioop(self::returns([1, 1, 1]))],
            '2^40 | 24x1 word' => ['unpackListModified9', [1100568592389],
                self::yioop(self::returns([1]))],
            '2^62' => ['unpackListModified9', [4611686018427387904],
                self::yioop(self::returns([0]))],
            'PHP_INT_MAX' => ['unpackListModified9', [PHP_INT_MAX],
                self::yioop(self::returns([
                    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                    1, 1, 1, 1, 1,
                ]))],
        ];
    }

    public static function docIndexModified9WrongTypes(): array
    {
        return [
            'array' => ['docIndexModified9', [[1]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: array & int'))],
            'object' => ['docIndexModified9', [(object) ['a' => 3, 'b' => 10]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: stdClass & int'))],
            'null' => ['docIndexModified9', [null],
                self::yioop(self::returns(-1))],
            'true' => ['docIndexModified9', [true],
                self::yioop(self::returns(0))],
            'float' => ['docIndexModified9', [1500000000.0],
                self::yioop(self::returns(9631))],
            'NAN' => ['docIndexModified9', [NAN],
                self::yioop(self::returns(-1))],
            'numeric string' => ['docIndexModified9', ['1610612741'],
                self::yioop(self::returns(4))],
            'non-numeric string' => ['docIndexModified9', ['abc'],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: string & int'))],
            'leading-numeric string' => ['docIndexModified9', ['12abc'],
                self::yioop(self::returns(11))],
        ];
    }

    public static function docIndexModified9DamagedWords(): array
    {
        return [
            'continuation bits 01' => ['docIndexModified9', [2130706437],
                self::yioop(self::returns(0))],
            'continuation bits 10' => ['docIndexModified9', [3204448261],
                self::yioop(self::returns(0))],
            'zero word' => ['docIndexModified9', [0],
                self::yioop(self::returns(-1))],
            '4x6 word, empty' => ['docIndexModified9', [805306368],
                self::yioop(self::returns(0))],
            '24x1 word, empty' => ['docIndexModified9', [1056964608],
                self::yioop(self::returns(0))],
            'folded 28-bit word' => ['docIndexModified9', [154697735],
                self::yioop(self::returns(40000))],
            'all 32 bits set' => ['docIndexModified9', [4294967295],
                self::yioop(self::returns(0))],
        ];
    }

    public static function docIndexModified9NegativeNumbers(): array
    {
        return [
            '-1' => ['docIndexModified9', [-1],
                self::yioop(self::returns(0))],
            '-5' => ['docIndexModified9', [-5],
                self::yioop(self::returns(0))],
            'PHP_INT_MIN' => ['docIndexModified9', [PHP_INT_MIN],
                self::yioop(self::returns(-1))],
        ];
    }

    public static function docIndexModified9LargeValues(): array
    {
        return [
            '2^28' => ['docIndexModified9', [268435456],
                self::yioop(self::returns(0))],
            '2^32 + 5' => ['docIndexModified9', [4294967301],
                self::yioop(self::returns(4))],
            '2^40 | 2x14 word' => ['docIndexModified9', [1099780079621],
                self::yioop(self::returns(0))],
            '2^40 | 3x9 word' => ['docIndexModified9', [1100048761345],
                self::yioop(self::returns(0))],
            '2^40 | 24x1 word' => ['docIndexModified9', [1100568592389],
                self::yioop(self::returns(0))],
            'PHP_INT_MAX' => ['docIndexModified9', [PHP_INT_MAX],
                self::yioop(self::returns(0))],
        ];
    }

    public static function unpackIntWrongTypes(): array
    {
        return [
            'array' => ['unpackInt', [[1]],
                self::yioop(self::returns(false))],
            'object' => ['unpackInt', [(object) ['a' => 3, 'b' => 10]],
                self::yioop(self::returns(false))],
            'null' => ['unpackInt', [null],
                self::yioop(self::returns(false))],
            'true' => ['unpackInt', [true],
                self::yioop(self::returns(false))],
            'int' => ['unpackInt', [5],
                self::yioop(self::returns(false))],
            'float' => ['unpackInt', [1.5],
                self::yioop(self::returns(false))],
        ];
    }

    public static function unpackIntDamagedStrings(): array
    {
        return [
            'empty string' => ['unpackInt', [''],
                self::yioop(self::returns(0))],
            'one byte' => ['unpackInt', ["\xab"],
                self::yioop(self::returns(171))],
            '8 bytes, high bit clear' => ['unpackInt', ["\x7f\xff\xff\xff\xff\xff\xff\xff"],
                self::yioop(self::returns(PHP_INT_MAX))],
            '8 bytes, high bit set (through a float)' => ['unpackInt', ["\xff\xff\xff\xff\xff\xff\xff\xff"],
                self::yioop(self::returns(0))],
            '9 bytes' => ['unpackInt', ["\x01\x00\x00\x00\x00\x00\x00\x00\x00"],
                self::yioop(self::returns(0))],
            'leading zero bytes' => ['unpackInt', ["\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01"],
                self::yioop(self::returns(1))],
            '40 bytes' => ['unpackInt', [str_repeat("\xab", 40)],
                self::yioop(self::returns(0))],
            '300 bytes of 0xff (past the float range)' => ['unpackInt', [str_repeat("\xff", 300)],
                self::yioop(self::returns(0))],
            'text' => ['unpackInt', ['Yioop!'],
                self::yioop(self::returns(98309376012321))],
        ];
    }

    public static function deltaListWrongTypes(): array
    {
        return [
            'int' => ['deltaList', [5],
                self::yioop(self::returns([]))],
            'null' => ['deltaList', [null],
                self::yioop(self::returns([]))],
            'string' => ['deltaList', ['abc'],
                self::yioop(self::returns([]))],
            'true' => ['deltaList', [true],
                self::yioop(self::returns([]))],
            'float' => ['deltaList', [1.5],
                self::yioop(self::returns([]))],
            // Yioop returns [3, 7]
            'object' => ['deltaList', [(object) ['a' => 3, 'b' => 10]],
                self::deliberate('objects are refused where Yioop iterates their properties',
                    self::throws(\TypeError::class,
                        'deltaList(): Argument #1 ($list) must be of type array, '
                        . 'stdClass given'))],
            // Yioop returns [3, 7]
            'ArrayObject' => ['deltaList', [new \ArrayObject([3, 10])],
                self::deliberate('objects are refused where Yioop iterates them',
                    self::throws(\TypeError::class,
                        'deltaList(): Argument #1 ($list) must be of type array, '
                        . 'ArrayObject given'))],
            'nested array' => ['deltaList', [[[1]]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: array - int'))],
            'null and bool elements' => ['deltaList', [[null, true, false]],
                self::yioop(self::returns([0, 1, -1]))],
            'numeric strings' => ['deltaList', [['3', ' 10', '1e2']],
                self::yioop(self::returns([3, 7, 90.0]))],
            'non-numeric string' => ['deltaList', [['abc']],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: string - int'))],
            'leading-numeric string' => ['deltaList', [['7abc', 9]],
                self::yioop(self::returns([7, 2]))],
            'floats' => ['deltaList', [[1.5, 4.25]],
                self::yioop(self::returns([1.5, 2.75]))],
            'NAN and INF' => ['deltaList', [[INF, NAN]],
                self::yioop(self::returns([INF, NAN]))],
            'object element' => ['deltaList', [[(object) ['a' => 3, 'b' => 10]]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: stdClass - int'))],
            'string keys' => ['deltaList', [[5 => 3, 'x' => 10]],
                self::yioop(self::returns([3, 7]))],
            'empty' => ['deltaList', [[]],
                self::yioop(self::returns([]))],
        ];
    }

    public static function deltaListNegativeNumbers(): array
    {
        return [
            'negatives' => ['deltaList', [[-3, 5, -10]],
                self::yioop(self::returns([-3, 8, -15]))],
            'overflow into a float' => ['deltaList', [[PHP_INT_MIN, PHP_INT_MAX]],
                self::yioop(self::returns([PHP_INT_MIN, 1.8446744073709552E+19]))],
            'overflow below PHP_INT_MIN' => ['deltaList', [[PHP_INT_MAX, PHP_INT_MIN]],
                self::yioop(self::returns([PHP_INT_MAX, -1.8446744073709552E+19]))],
        ];
    }

    public static function deltaListLargeValues(): array
    {
        return [
            '2^28 and up' => ['deltaList', [[
                    268435456, 1099511627776, 4611686018427387904,
                    PHP_INT_MAX,
                ]],
                self::yioop(self::returns([
                    268435456, 1099243192320, 4611684918915760128,
                    4611686018427387903,
                ]))],
        ];
    }

    public static function deDeltaListWrongTypes(): array
    {
        return [
            'int' => ['deDeltaList', [5],
                self::yioop(self::throws(\TypeError::class,
                    'count(): Argument #1 ($value) must be of type '
                    . 'Countable|array, int given'))],
            'null' => ['deDeltaList', [null],
                self::yioop(self::throws(\TypeError::class,
                    'count(): Argument #1 ($value) must be of type '
                    . 'Countable|array, null given'))],
            'string' => ['deDeltaList', ['abc'],
                self::yioop(self::throws(\TypeError::class,
                    'count(): Argument #1 ($value) must be of type '
                    . 'Countable|array, string given'))],
            'true' => ['deDeltaList', [true],
                self::yioop(self::throws(\TypeError::class,
                    'count(): Argument #1 ($value) must be of type '
                    . 'Countable|array, bool given'))],
            'float' => ['deDeltaList', [1.5],
                self::yioop(self::throws(\TypeError::class,
                    'count(): Argument #1 ($value) must be of type '
                    . 'Countable|array, float given'))],
            'object' => ['deDeltaList', [(object) ['a' => 3, 'b' => 10]],
                self::yioop(self::throws(\TypeError::class,
                    'count(): Argument #1 ($value) must be of type '
                    . 'Countable|array, stdClass given'))],
            // Yioop returns null, leaves $delta_list = new \ArrayObject([3, 13])
            'ArrayObject' => ['deDeltaList', [new \ArrayObject([3, 10])],
                self::deliberate('objects are refused where Yioop counts and indexes an ArrayObject',
                    self::throws(\TypeError::class,
                        'count(): Argument #1 ($value) must be of type '
                        . 'Countable|array, ArrayObject given'))],
            'nested arrays (array union in Yioop)' => ['deDeltaList', [[[1], [2]]],
                self::deliberate("B5: operand-type errors name the types in the extension's order, and arrays are refused as list elements (Yioop would add arrays as unions)", self::throws(\TypeError::class, 'Unsupported operand types: array + int'))],
            'one nested array (never added)' => ['deDeltaList', [[[1]]],
                self::yioop(self::returns(null))],
            'int then array' => ['deDeltaList', [[1, [2]]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: array + int'))],
            'arrays then int' => ['deDeltaList', [[[1], [2], 3]],
                self::deliberate("B5: operand-type errors name the types in the extension's order, and arrays are refused as list elements (Yioop would add arrays as unions)", self::throws(\TypeError::class, 'Unsupported operand types: array + int'))],
            'null and bool elements' => ['deDeltaList', [[null, true, false, 2]],
                self::yioop(self::returns(null, [[null, 1, 1, 3]]))],
            'numeric strings' => ['deDeltaList', [['3', ' 10', '1e2']],
                self::yioop(self::returns(null, [['3', 13, 113.0]]))],
            'one non-numeric string (never added)' => ['deDeltaList', [['abc']],
                self::yioop(self::returns(null))],
            'non-numeric string first' => ['deDeltaList', [['abc', 1]],
                self::deliberate("B5: operand-type errors name the types in the extension's order, and arrays are refused as list elements (Yioop would add arrays as unions)", self::throws(\TypeError::class, 'Unsupported operand types: string + int'))],
            'non-numeric string second' => ['deDeltaList', [[1, 'abc']],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: string + int'))],
            'non-numeric strings' => ['deDeltaList', [['abc', 'd']],
                self::deliberate("B5: operand-type errors name the types in the extension's order, and arrays are refused as list elements (Yioop would add arrays as unions)", self::throws(\TypeError::class, 'Unsupported operand types: string + int'))],
            'leading-numeric strings' => ['deDeltaList', [['7abc', 3, '2x']],
                self::yioop(self::returns(null, [['7abc', 10, 12]]))],
            'floats' => ['deDeltaList', [[1.5, 4.25, 2]],
                self::yioop(self::returns(null, [[1.5, 5.75, 7.75]]))],
            'NAN and INF' => ['deDeltaList', [[INF, NAN, 1]],
                self::yioop(self::returns(null, [[INF, NAN, NAN]]))],
            'object element' => ['deDeltaList', [[(object) ['a' => 3, 'b' => 10], 1]],
                self::deliberate("B5: operand-type errors name the types in the extension's order, and arrays are refused as list elements (Yioop would add arrays as unions)", self::throws(\TypeError::class, 'Unsupported operand types: stdClass + int'))],
            'keys 5, 6' => ['deDeltaList', [[5 => 1, 6 => 2]],
                self::yioop(self::returns(null, [[5 => 1, 6 => 2, 1 => 0]]))],
            'keys 1, 2' => ['deDeltaList', [[1 => 5, 2 => 6]],
                self::yioop(self::returns(null))],
            'keys 1, 0' => ['deDeltaList', [[1 => 3, 0 => 10]],
                self::yioop(self::returns(null, [[1 => 13, 0 => 10]]))],
            'a hole' => ['deDeltaList', [[0 => 1, 2 => 5, 3 => 7]],
                self::yioop(self::returns(null, [[0 => 1, 2 => 6, 3 => 7, 1 => 1]]))],
            'string keys' => ['deDeltaList', [['a' => 1, 'b' => 2, 'c' => 3]],
                self::yioop(self::returns(null, [['a' => 1, 'b' => 2, 'c' => 3, 1 => 0, 2 => 0]]))],
            'string key holding a non-numeric string' => ['deDeltaList', [[0 => 1, 'x' => 'abc', 1 => 3]],
                self::yioop(self::returns(null, [[0 => 1, 'x' => 'abc', 1 => 4, 2 => 4]]))],
            'empty' => ['deDeltaList', [[]],
                self::yioop(self::returns(null))],
        ];
    }

    public static function deDeltaListNegativeNumbers(): array
    {
        return [
            'negatives' => ['deDeltaList', [[-3, 5, -10]],
                self::yioop(self::returns(null, [[-3, 2, -8]]))],
            'overflow into a float, then negative' => ['deDeltaList', [[PHP_INT_MAX, 1, -5]],
                self::yioop(self::returns(null, [[
                        PHP_INT_MAX, 9.223372036854776E+18,
                        9.223372036854776E+18,
                    ]]))],
            'overflow below PHP_INT_MIN' => ['deDeltaList', [[PHP_INT_MIN, -1, 0]],
                self::yioop(self::returns(null, [[
                        PHP_INT_MIN, -9.223372036854776E+18,
                        -9.223372036854776E+18,
                    ]]))],
        ];
    }

    public static function deDeltaListLargeValues(): array
    {
        return [
            '2^28 and up' => ['deDeltaList', [[
                    268435456, 1099511627776, 4611686018427387904,
                    4611686018427387904,
                ]],
                self::yioop(self::returns(null, [[
                        268435456, 1099780063232, 4611687118207451136,
                        9.22337313663484E+18,
                    ]]))],
        ];
    }

    public static function encodeModified9WrongTypes(): array
    {
        return [
            'int' => ['encodeModified9', [5],
                self::yioop(self::returns("?\x00\x00\x00"))],
            'null' => ['encodeModified9', [null],
                self::yioop(self::returns("?\x00\x00\x00"))],
            'string' => ['encodeModified9', ['abc'],
                self::yioop(self::returns("?\x00\x00\x00"))],
            'true' => ['encodeModified9', [true],
                self::yioop(self::returns("?\x00\x00\x00"))],
            'float' => ['encodeModified9', [1.5],
                self::yioop(self::returns("?\x00\x00\x00"))],
            // Yioop returns "8\x00\x00:"
            'object' => ['encodeModified9', [(object) ['a' => 3, 'b' => 10]],
                self::deliberate('objects are refused where Yioop iterates their properties',
                    self::throws(\TypeError::class,
                        'encodeModified9(): Argument #1 ($list) must be of type '
                        . 'array, stdClass given'))],
            // Yioop returns "8\x00\x00:"
            'ArrayObject' => ['encodeModified9', [new \ArrayObject([3, 10])],
                self::deliberate('objects are refused where Yioop iterates them',
                    self::throws(\TypeError::class,
                        'encodeModified9(): Argument #1 ($list) must be of type '
                        . 'array, ArrayObject given'))],
            'nested array' => ['encodeModified9', [[[1]]],
                self::yioopNeverReturns(self::throws(\TypeError::class, 'Unsupported operand types: array + int'))],
            'null and bool elements' => ['encodeModified9', [[null, false, true]],
                self::yioop(self::returns("?\x00\x00\x01"))],
            'numeric strings' => ['encodeModified9', [['3', ' 4', '5 ', '1e2']],
                self::yioop(self::returns("\xfc\x00\x00\xe5`\x00\x00d"))],
            'non-numeric string' => ['encodeModified9', [['abc']],
                self::yioopNeverReturns(self::throws(\TypeError::class, 'Unsupported operand types: string + int'))],
            'leading-numeric string' => ['encodeModified9', [['7abc', 9]],
                self::deliberate("B4: leading-numeric strings are taken as their number; Yioop's PHP 8 compares them with ints as strings", self::returns("8\x00\x00y"))],
            'floats' => ['encodeModified9', [[1.5, 3.7, 2.5]],
                self::deliberate("B9: float list elements are converted to ints first, as PHP's (int) does", self::returns(">\x00\x00\x1e"))],
            'NAN last' => ['encodeModified9', [[1, NAN]],
                self::deliberate("B9: float list elements are converted to ints first, as PHP's (int) does", self::returns("?\x00\x00\x02"))],
            'NAN first' => ['encodeModified9', [[NAN, 1]],
                self::yioop(self::returns("?\x00\x00\x01"))],
            'object element' => ['encodeModified9', [[(object) ['a' => 3, 'b' => 10]]],
                self::deliberate("B5: operand-type errors name the types in the extension's order, and arrays are refused as list elements (Yioop would add arrays as unions)", self::throws(\TypeError::class, 'Unsupported operand types: stdClass + int'))],
            'string keys' => ['encodeModified9', [[5 => 3, 'x' => 10]],
                self::yioop(self::returns("8\x00\x00:"))],
        ];
    }

    public static function encodeModified9NegativeNumbers(): array
    {
        return [
            'zero' => ['encodeModified9', [[0]],
                self::yioop(self::returns("?\x00\x00\x00"))],
            'zeros' => ['encodeModified9', [[0, 0, 0]],
                self::yioop(self::returns("?\x00\x00\x00"))],
            'zero in the middle' => ['encodeModified9', [[3, 0, 5]],
                self::yioop(self::returns("<\x00\x00\xc5"))],
            '-1' => ['encodeModified9', [[-1]],
                self::yioop(self::returns(">\xff\xff\xff"))],
            '-1 first' => ['encodeModified9', [[-1, 5, 7]],
                self::yioop(self::returns(";\xff\xff\xef"))],
            '-1 in the middle' => ['encodeModified9', [[5, -1, 7]],
                self::yioop(self::returns("<\x00\x01?"))],
            'PHP_INT_MIN' => ['encodeModified9', [[PHP_INT_MIN]],
                self::yioop(self::returns("?\x00\x00\x00"))],
            'negative float last' => ['encodeModified9', [[3, -2.5]],
                self::deliberate("B9: float list elements are converted to ints first, as PHP's (int) does", self::returns(">\x00\x00\x0a"))],
            '-INF last' => ['encodeModified9', [[3, -INF]],
                self::deliberate("B9: float list elements are converted to ints first, as PHP's (int) does", self::returns(">\x00\x00\x0c"))],
            'float -1e19' => ['encodeModified9', [[-1.0E+19]],
                self::deliberate('B10: float list elements are converted to ints first; a negative float that wraps to 2^62 or more is refused',
                    self::valueError())],
        ];
    }

    public static function encodeModified9ValuesFrom2Pow28(): array
    {
        return [
            '2^28 - 1' => ['encodeModified9', [[268435455]],
                self::yioop(self::returns("\x0f\xff\xff\xff"))],
            '2^28' => ['encodeModified9', [[268435456]],
                self::yioop(self::returns("\x10\x00\x00\x00"))],
            '2^30 then 1' => ['encodeModified9', [[1073741824, 1]],
                self::yioop(self::returns("\x00\x00\x00\x00\x7f\x00\x00\x01"))],
            '2^31' => ['encodeModified9', [[2147483648]],
                self::yioop(self::returns("\xff\x00\x00\x00\xc0\x00\x00\x00"))],
            '2^32' => ['encodeModified9', [[4294967296]],
                self::yioop(self::returns("\xff\x00\x00\x00@\x00\x00\x00"))],
            '2^40' => ['encodeModified9', [[1099511627776]],
                self::yioop(self::returns("\xff\x00\x00\x00@\x00\x00\x00"))],
            '2^62 - 1' => ['encodeModified9', [[4611686018427387903]],
                self::yioop(self::returns("\xff\x00\x00\x00?\xff\xff\xff"))],
            'float below 2^62' => ['encodeModified9', [[1.9E+18]],
                self::yioop(self::returns("\xff\x00\x00\x001>\x00\x00"))],
            '2^62' => ['encodeModified9', [[4611686018427387904]],
                self::yioopNeverReturns(self::valueError())],
            '2^62 after small values' => ['encodeModified9', [[1, 2, 4611686018427387904]],
                self::yioopNeverReturns(self::valueError())],
            'PHP_INT_MAX' => ['encodeModified9', [[PHP_INT_MAX]],
                self::yioopNeverReturns(self::valueError())],
            'float 1e19' => ['encodeModified9', [[1.0E+19]],
                self::yioopNeverReturns(self::valueError())],
            'float 1e300' => ['encodeModified9', [[1.0E+300]],
                self::yioopNeverReturns(self::valueError())],
            'INF' => ['encodeModified9', [[INF]],
                self::yioopNeverReturns(self::valueError())],
            'numeric string 1e19' => ['encodeModified9', [['1e19']],
                self::yioopNeverReturns(self::valueError())],
        ];
    }

    public static function decodeModified9WrongTypes(): array
    {
        return [
            // Yioop returns [], leaves $offset = 4
            'input array' => ['decodeModified9', [[1], 0],
                self::deliberate('arrays are refused where Yioop indexes into them',
                    self::throws(\TypeError::class,
                        'decodeModified9(): Argument #1 ($input_string) must be of '
                        . 'type string, array given'))],
            // Yioop throws TypeError: strlen(): Argument #1 ($string) must be of
            //   type string, array given
            'input array of 4' => ['decodeModified9', [[1, 2, 3, 4], 0],
                self::deliberate('arrays are refused where Yioop indexes into them',
                    self::throws(\TypeError::class,
                        'decodeModified9(): Argument #1 ($input_string) must be of '
                        . 'type string, array given'))],
            // Yioop throws Error: Cannot use object of type stdClass as array
            'input object' => ['decodeModified9', [(object) ['a' => 3, 'b' => 10], 0],
                self::deliberate('TypeError where Yioop throws Error (cannot use object as array)',
                    self::throws(\TypeError::class,
                        'decodeModified9(): Argument #1 ($input_string) must be of '
                        . 'type string, stdClass given'))],
            'input null' => ['decodeModified9', [null, 0],
                self::yioop(self::returns([], [1 => 4]))],
            'input int' => ['decodeModified9', [12345678, 0],
                self::yioop(self::returns([], [1 => 4]))],
            'input true' => ['decodeModified9', [true, 0],
                self::yioop(self::returns([], [1 => 4]))],
            'offset array' => ['decodeModified9', [self::POSTINGS, [0]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: array + int'))],
            'offset object' => ['decodeModified9', [self::POSTINGS, (object) ['a' => 3, 'b' => 10]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: stdClass + int'))],
            'offset null' => ['decodeModified9', [self::POSTINGS, null],
                self::yioop(self::returns([6, 300000, 300000], [1 => 12]))],
            'offset true' => ['decodeModified9', [self::POSTINGS, true],
                self::yioop(self::returns([1664], [1 => 5]))],
            'offset numeric string' => ['decodeModified9', [self::POSTINGS, '12'],
                self::yioop(self::returns([154697731, 7], [1 => 20]))],
            'offset non-numeric string' => ['decodeModified9', [self::POSTINGS, 'abc'],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: string + int'))],
            'offset leading-numeric string' => ['decodeModified9', [self::POSTINGS, '12abc'],
                self::knownBug('B3',
                    self::throws(\TypeError::class,
                        'substr(): Argument #2 ($offset) must be of type int, string '
                        . 'given'),
                    self::returns([154697731, 7], [1 => 20]))],
            'offset float' => ['decodeModified9', [self::POSTINGS, 12.7],
                self::knownBug('B3',
                    self::returns([154697731, 7], [1 => 20.7]),
                    self::returns([154697731, 7], [1 => 20]))],
            'offset NAN' => ['decodeModified9', [self::POSTINGS, NAN],
                self::knownBug('B3',
                    self::throws(\TypeError::class,
                        'substr(): Argument #2 ($offset) must be of type int, float '
                        . 'given'),
                    self::returns([6, 300000, 300000], [1 => 12]))],
        ];
    }

    public static function decodeModified9DamagedStrings(): array
    {
        return [
            'empty string' => ['decodeModified9', ['', 0],
                self::yioop(self::returns([], [1 => 4]))],
            'shorter than a word' => ['decodeModified9', ["\xfc\x00\x00", 0],
                self::yioop(self::returns([], [1 => 4]))],
            'truncated mid second word' => ['decodeModified9', ["\xfc\x00\x00\x06\x80\x04", 0],
                self::yioop(self::returns([6], [1 => 8]))],
            'truncated before the end word' => ['decodeModified9', ["\xfc\x00\x00\x06\x80\x04\x93\xe0", 0],
                self::yioop(self::returns([6, 300000], [1 => 8]))],
            'start at a continuation word (10)' => ['decodeModified9', [self::POSTINGS, 4],
                self::yioop(self::returns([], [1 => 8]))],
            'start at an end word (01)' => ['decodeModified9', [self::POSTINGS, 8],
                self::yioop(self::returns([], [1 => 12]))],
            'start word then another start word (11, 11)' => ['decodeModified9', ["\xfc\x00\x00\x06\xfc\x00\x00\x06@\x04\x93\xe0", 0],
                self::yioop(self::returns([6, 6, 300000], [1 => 12]))],
            'all ones' => ['decodeModified9', ["\xff\xff\xff\xff\xff\xff\xff\xff", 0],
                self::yioop(self::returns([
                    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                    1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                ], [1 => 8]))],
            'zero word' => ['decodeModified9', ["\x00\x00\x00\x00", 0],
                self::yioop(self::returns([0], [1 => 4]))],
            'random bytes' => ['decodeModified9', ["\xc7\xe1\xf0\xaa\x91\xb3\xc4\xd5\xe6\xf7\x08\x19J[l}", 0],
                self::yioop(self::returns([132247722, 1743, 1237, 445, 388, 25, 173763709], [1 => 16]))],
            'random bytes, unaligned offset' => ['decodeModified9', ["\x05\xc7\xe1\xf0\xaa\x91\xb3\xc4\xd5\xe6\xf7\x08\x19", 1],
                self::yioop(self::returns([132247722, 1743, 1237, 445, 388, 25], [1 => 13]))],
        ];
    }

    public static function decodeModified9Offsets(): array
    {
        return [
            'offset at the end' => ['decodeModified9', [self::POSTINGS, 24],
                self::yioop(self::returns([], [1 => 28]))],
            'offset 3 bytes before the end' => ['decodeModified9', [self::POSTINGS, 21],
                self::yioop(self::returns([], [1 => 25]))],
            'offset far past the end' => ['decodeModified9', [self::POSTINGS, 1000],
                self::yioop(self::returns([], [1 => 1004]))],
            'offset -8' => ['decodeModified9', [self::POSTINGS, -8],
                self::yioop(self::returns([], [1 => -4]))],
            'offset -24' => ['decodeModified9', [self::POSTINGS, -24],
                self::yioop(self::returns([6, 300000, 300000], [1 => -12]))],
            'offset -25' => ['decodeModified9', [self::POSTINGS, -25],
                self::yioop(self::returns([6], [1 => -21]))],
            'offset PHP_INT_MAX' => ['decodeModified9', [self::POSTINGS, PHP_INT_MAX],
                self::yioop(self::returns([], [1 => 9.223372036854776E+18]))],
            'offset PHP_INT_MIN' => ['decodeModified9', [self::POSTINGS, PHP_INT_MIN],
                self::yioop(self::returns([], [1 => -9223372036854775804]))],
            'offset float 1e30' => ['decodeModified9', [self::POSTINGS, 1.0E+30],
                self::knownBug('B3',
                    self::returns([]),
                    self::returns([], [1 => 5076964154930102276]))],
        ] + self::offsetsAddingFourCannotMove('decodeModified9', []);
    }

    public static function nextPostStringWrongTypes(): array
    {
        return [
            // Yioop returns '', leaves $offset = 4
            'input array' => ['nextPostString', [[1], 0],
                self::deliberate('arrays are refused where Yioop indexes into them',
                    self::throws(\TypeError::class,
                        'nextPostString(): Argument #1 ($input_string) must be of '
                        . 'type string, array given'))],
            // Yioop throws Error: Cannot use object of type stdClass as array
            'input object' => ['nextPostString', [(object) ['a' => 3, 'b' => 10], 0],
                self::deliberate('TypeError where Yioop throws Error (cannot use object as array)',
                    self::throws(\TypeError::class,
                        'nextPostString(): Argument #1 ($input_string) must be of '
                        . 'type string, stdClass given'))],
            'input null' => ['nextPostString', [null, 0],
                self::yioop(self::returns('', [1 => 4]))],
            'input int' => ['nextPostString', [12345678, 0],
                self::yioop(self::returns('', [1 => 4]))],
            'input float' => ['nextPostString', [1.5, 0],
                self::yioop(self::returns('', [1 => 4]))],
            'offset array' => ['nextPostString', [self::POSTINGS, [0]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: array + int'))],
            'offset object' => ['nextPostString', [self::POSTINGS, (object) ['a' => 3, 'b' => 10]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: stdClass + int'))],
            'offset null' => ['nextPostString', [self::POSTINGS, null],
                self::yioop(self::returns("\xfc\x00\x00\x06\x80\x04\x93\xe0@\x04\x93\xe0", [1 => 12]))],
            'offset false' => ['nextPostString', [self::POSTINGS, false],
                self::yioop(self::returns("\xfc\x00\x00\x06\x80\x04\x93\xe0@\x04\x93\xe0", [1 => 12]))],
            'offset numeric string' => ['nextPostString', [self::POSTINGS, '12'],
                self::yioop(self::returns("\xc98\x80\x03x\x00\x00\x07", [1 => 20]))],
            'offset non-numeric string' => ['nextPostString', [self::POSTINGS, 'abc'],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: string + int'))],
            'offset leading-numeric string' => ['nextPostString', [self::POSTINGS, '0abc'],
                self::knownBug('B3',
                    self::throws(\TypeError::class,
                        'substr(): Argument #2 ($offset) must be of type int, string '
                        . 'given'),
                    self::returns("\xfc\x00\x00\x06\x80\x04\x93\xe0@\x04\x93\xe0", [1 => 12]))],
            'offset float' => ['nextPostString', [self::POSTINGS, 12.7],
                self::knownBug('B3',
                    self::returns("\xc98\x80\x03x\x00\x00\x07", [1 => 20.7]),
                    self::returns("\xc98\x80\x03x\x00\x00\x07", [1 => 20]))],
            'offset INF' => ['nextPostString', [self::POSTINGS, INF],
                self::knownBug('B3',
                    self::throws(\TypeError::class,
                        'substr(): Argument #2 ($offset) must be of type int, float '
                        . 'given'),
                    self::returns("\xfc\x00\x00\x06\x80\x04\x93\xe0@\x04\x93\xe0", [1 => 12]))],
        ];
    }

    public static function nextPostStringDamagedStrings(): array
    {
        return [
            'empty string' => ['nextPostString', ['', 0],
                self::yioop(self::returns('', [1 => 4]))],
            'shorter than a word' => ['nextPostString', ["\xfc\x00\x00", 0],
                self::yioop(self::returns('', [1 => 4]))],
            'truncated mid second word' => ['nextPostString', ["\xfc\x00\x00\x06\x80\x04", 0],
                self::yioop(self::returns("\xfc\x00\x00\x06\x80\x04", [1 => 8]))],
            'start at a continuation word (10)' => ['nextPostString', [self::POSTINGS, 4],
                self::yioop(self::returns('', [1 => 8]))],
            'start at an end word (01)' => ['nextPostString', [self::POSTINGS, 8],
                self::yioop(self::returns('', [1 => 12]))],
            'start word then a one-word posting (11, 00)' => ['nextPostString', ["\xfc\x00\x00\x068\x00\x81\x11", 0],
                self::yioop(self::returns("\xfc\x00\x00\x068\x00\x81\x11", [1 => 8]))],
            'continuation words to the end, no end word' => ['nextPostString', ["\xfc\x00\x00\x06\x80\x04\x93\xe0\x80\x04\x93\xe0", 0],
                self::yioop(self::returns("\xfc\x00\x00\x06\x80\x04\x93\xe0\x80\x04\x93\xe0", [1 => 12]))],
            'random bytes' => ['nextPostString', ["\xc7\xe1\xf0\xaa\x91\xb3\xc4\xd5\xe6\xf7\x08\x19J[l}", 0],
                self::yioop(self::returns("\xc7\xe1\xf0\xaa\x91\xb3\xc4\xd5\xe6\xf7\x08\x19J[l}", [1 => 16]))],
            'unaligned offset' => ['nextPostString', [self::POSTINGS, 13],
                self::yioop(self::returns("8\x80\x03x", [1 => 17]))],
        ];
    }

    public static function nextPostStringOffsets(): array
    {
        return [
            'offset at the end' => ['nextPostString', [self::POSTINGS, 24],
                self::yioop(self::returns('', [1 => 28]))],
            'offset 3 bytes before the end' => ['nextPostString', [self::POSTINGS, 21],
                self::yioop(self::returns('', [1 => 25]))],
            'offset far past the end' => ['nextPostString', [self::POSTINGS, 1000],
                self::yioop(self::returns('', [1 => 1004]))],
            'offset -12' => ['nextPostString', [self::POSTINGS, -12],
                self::yioop(self::returns("\xc98\x80\x03x\x00\x00\x07", [1 => -4]))],
            'offset -24' => ['nextPostString', [self::POSTINGS, -24],
                self::yioop(self::returns("\xfc\x00\x00\x06\x80\x04\x93\xe0@\x04\x93\xe0", [1 => -12]))],
            'offset -25' => ['nextPostString', [self::POSTINGS, -25],
                self::yioop(self::returns("\xfc\x00\x00\x06", [1 => -21]))],
            'offset -2' => ['nextPostString', [self::POSTINGS, -2],
                self::yioop(self::returns('', [1 => 2]))],
            'offset PHP_INT_MAX' => ['nextPostString', [self::POSTINGS, PHP_INT_MAX],
                self::yioop(self::returns('', [1 => 9.223372036854776E+18]))],
            'offset PHP_INT_MAX - 4' => ['nextPostString', [self::POSTINGS, 9223372036854775803],
                self::yioop(self::returns('', [1 => PHP_INT_MAX]))],
            'offset PHP_INT_MIN' => ['nextPostString', [self::POSTINGS, PHP_INT_MIN],
                self::yioop(self::returns('', [1 => -9223372036854775804]))],
            'offset float -1.5' => ['nextPostString', [self::POSTINGS, -1.5],
                self::knownBug('B3',
                    self::returns("\x11", [1 => 2.5]),
                    self::returns("\x11", [1 => 3]))],
        ] + self::offsetsAddingFourCannotMove('nextPostString', '');
    }

    /**
     * unpackPostings and the benchmark floors (not in Yioop, so the live
     * replay skips them) on the offsets of offsetsAddingFourCannotMove() and
     * far before the string. "yioop" here means: what a loop of Yioop's
     * unpackPosting gives; "never returns": where that loop never would.
     */
    public static function batchOffsets(): array
    {
        $floor = [0, [1, 2, 3, 4, 5, 1]];
        $farBefore = -(1 << 40);
        $tooMany = static fn (string $fn) => self::throws(\ValueError::class, "$fn(): Argument #2 (\$offset) is "
            . 'so far before the start of the string that it would give over 1048576 empty postings; '
            . 'pass a $max_count');
        $twoPostings = "\xe0\x51\xc0\x2c\x80\x00\x00\x05";
        return [
            'unpackPostings, offset -INF on a first word' => ['unpackPostings', [self::POSTINGS, -INF],
                self::yioopNeverReturns(self::offsetNeverReturns())],
            'unpackPostings, offset -INF on a first word, max_count 5' => ['unpackPostings', [self::POSTINGS, -INF, 5],
                self::yioopNeverReturns(self::offsetNeverReturns())],
            'unpackPostings, offset -1e300 on a first word, max_count 5' => ['unpackPostings', [self::POSTINGS, -1.0E+300, 5],
                self::yioopNeverReturns(self::offsetNeverReturns())],
            'unpackPostings, offset -INF, max_count 0' => ['unpackPostings', [self::POSTINGS, -INF, 0],
                self::yioop(self::returns([], [1 => -INF]))],
            'unpackPostings, offset -INF on a continuation word, max_count 3' => ['unpackPostings', [self::CONTINUATION_WORD, -INF, 3],
                self::yioop(self::returns([[null, []], [null, []], [null, []]], [1 => -INF]))],
            'unpackPostings, offset string -1e300' => ['unpackPostings', [self::POSTINGS, '-1e300', 5],
                self::yioop(self::throws(\TypeError::class, 'Cannot access offset of type string on string'))],
            // A loop of unpackPosting would build 2^38 empty postings first.
            'unpackPostings, offset -2^40' => ['unpackPostings', [$twoPostings, $farBefore],
                self::deliberate('refused where the loop would exhaust memory', $tooMany('unpackPostings'))],
            'floorPosting, offset -INF on a first word' => ['yioop_codec\\floorPosting', [self::POSTINGS, -INF],
                self::yioopNeverReturns(self::offsetNeverReturns())],
            'floorPosting, offset -INF on a one-word posting' => ['yioop_codec\\floorPosting', [self::ONE_WORD, -INF],
                self::yioop(self::throws(\TypeError::class, 'substr(): Argument #2 ($offset) must be of type int, float given'))],
            'floorPostings, offset -INF on a first word, max_count 5' => ['yioop_codec\\floorPostings', [self::POSTINGS, -INF, 5],
                self::yioopNeverReturns(self::offsetNeverReturns())],
            'floorPostings, offset -2^40' => ['yioop_codec\\floorPostings', [$twoPostings, $farBefore],
                self::deliberate('refused where the loop would exhaust memory', $tooMany('yioop_codec\\floorPostings'))],
            'floorPostings, offset -2^40, max_count 3' => ['yioop_codec\\floorPostings', [$twoPostings, $farBefore, 3],
                self::yioop(self::returns([$floor, $floor, $floor], [1 => $farBefore + 12]))],
        ];
    }

    public static function addDocIndexPostingsWrongTypes(): array
    {
        return [
            // Yioop throws TypeError: strlen(): Argument #1 ($string) must be of
            //   type string, array given
            'postings array' => ['addDocIndexPostings', [[1], 5],
                self::deliberate('TypeError naming addDocIndexPostings where Yioop\'s strlen() throws it',
                    self::throws(\TypeError::class,
                        'addDocIndexPostings(): Argument #1 ($postings) must be of '
                        . 'type string, array given'))],
            // Yioop throws TypeError: strlen(): Argument #1 ($string) must be of
            //   type string, stdClass given
            'postings object' => ['addDocIndexPostings', [(object) ['a' => 3, 'b' => 10], 5],
                self::deliberate('TypeError naming addDocIndexPostings where Yioop\'s strlen() throws it',
                    self::throws(\TypeError::class,
                        'addDocIndexPostings(): Argument #1 ($postings) must be of '
                        . 'type string, stdClass given'))],
            'postings null' => ['addDocIndexPostings', [null, 5],
                self::yioop(self::returns(''))],
            'postings int' => ['addDocIndexPostings', [12345678, 5],
                self::yioop(self::returns(''))],
            'postings float' => ['addDocIndexPostings', [1.5, 5],
                self::yioop(self::returns(''))],
            'offset array' => ['addDocIndexPostings', [self::POSTINGS, [1]],
                self::deliberate("B5: operand-type errors name the types in the extension's order, and arrays are refused as list elements (Yioop would add arrays as unions)", self::throws(\TypeError::class, 'Unsupported operand types: array + int'))],
            'offset object' => ['addDocIndexPostings', [self::POSTINGS, (object) ['a' => 3, 'b' => 10]],
                self::deliberate("B5: operand-type errors name the types in the extension's order, and arrays are refused as list elements (Yioop would add arrays as unions)", self::throws(\TypeError::class, 'Unsupported operand types: stdClass + int'))],
            'offset null' => ['addDocIndexPostings', [self::POSTINGS, null],
                self::yioop(self::returns(self::POSTINGS))],
            'offset true' => ['addDocIndexPostings', [self::POSTINGS, true],
                self::yioop(self::returns("\xfc\x00\x00\x07\x80\x04\x93\xe0"
                    . "@\x04\x93\xe0\xc98\x82\x03"
                    . "x\x00\x00\x078\x00\x91\x11"))],
            'offset numeric string' => ['addDocIndexPostings', [self::POSTINGS, '7'],
                self::yioop(self::returns("\xf8\x00\x00\x0d\x80\x04\x93\xe0"
                    . "@\x04\x93\xe0\xc98\x8e\x03"
                    . "x\x00\x00\x078\x00\xf1\x11"))],
            'offset non-numeric string' => ['addDocIndexPostings', [self::POSTINGS, 'abc'],
                self::deliberate("B5: operand-type errors name the types in the extension's order, and arrays are refused as list elements (Yioop would add arrays as unions)", self::throws(\TypeError::class, 'Unsupported operand types: string + int'))],
            'offset leading-numeric string' => ['addDocIndexPostings', [self::POSTINGS, '7abc'],
                self::yioop(self::returns("\xf8\x00\x00\x0d\x80\x04\x93\xe0"
                    . "@\x04\x93\xe0\xc98\x8e\x03"
                    . "x\x00\x00\x078\x00\xf1\x11"))],
            'offset float' => ['addDocIndexPostings', [self::POSTINGS, 7.9],
                self::deliberate("B8: NAN, INF and fractional doc indexes are converted to ints first, as PHP's (int) does", self::returns("\xf8\x00\x00\x0d\x80\x04\x93\xe0"
                        . "@\x04\x93\xe0\xc98\x8e\x03"
                        . "x\x00\x00\x078\x00\xf1\x11"))],
            'offset NAN' => ['addDocIndexPostings', [self::POSTINGS, NAN],
                self::deliberate("B8: NAN, INF and fractional doc indexes are converted to ints first, as PHP's (int) does", self::returns(self::POSTINGS))],
            'offset INF' => ['addDocIndexPostings', [self::POSTINGS, INF],
                self::yioopNeverReturns(self::valueError())],
        ];
    }

    public static function addDocIndexPostingsDamagedStrings(): array
    {
        return [
            'empty string' => ['addDocIndexPostings', ['', 1],
                self::yioop(self::returns(''))],
            'shorter than a word' => ['addDocIndexPostings', ["\xfc\x00\x00", 1],
                self::yioop(self::returns(''))],
            'truncated mid second word' => ['addDocIndexPostings', ["\xfc\x00\x00\x06\x80\x04", 1],
                self::yioop(self::returns("<\x00\x00\x07"))],
            'truncated before the end word' => ['addDocIndexPostings', ["\xfc\x00\x00\x06\x80\x04\x93\xe0", 1],
                self::yioop(self::returns("\xfc\x00\x00\x07@\x04\x93\xe0"))],
            'a stray end word first' => ['addDocIndexPostings', ["@\x04\x93\xe0" . self::POSTINGS, 1],
                self::yioop(self::returns("\xfc\x00\x00\x07\x80\x04\x93\xe0"
                    . "@\x04\x93\xe0\xc98\x82\x03"
                    . "x\x00\x00\x078\x00\x91\x11"))],
            'a stray continuation word first' => ['addDocIndexPostings', ["\xbf\x00\x00\x05" . self::POSTINGS, 1],
                self::yioop(self::returns("\xfc\x00\x00\x07\x80\x04\x93\xe0"
                    . "@\x04\x93\xe0\xc98\x82\x03"
                    . "x\x00\x00\x078\x00\x91\x11"))],
            'trailing byte' => ['addDocIndexPostings', [self::POSTINGS . "\x01", 1],
                self::yioop(self::returns("\xfc\x00\x00\x07\x80\x04\x93\xe0"
                    . "@\x04\x93\xe0\xc98\x82\x03"
                    . "x\x00\x00\x078\x00\x91\x11"))],
            'trailing 3 bytes' => ['addDocIndexPostings', [self::POSTINGS . "\x01\x02\x03", 1],
                self::yioop(self::returns("\xfc\x00\x00\x07\x80\x04\x93\xe0"
                    . "@\x04\x93\xe0\xc98\x82\x03"
                    . "x\x00\x00\x078\x00\x91\x11"))],
            'all ones' => ['addDocIndexPostings', ["\xff\xff\xff\xff\xff\xff\xff\xff", 1],
                self::yioop(self::returns("\xfe\x95UU\xbf\xff\xff\xff\x7f\x00\x0f\xff"))],
            'zero word' => ['addDocIndexPostings', ["\x00\x00\x00\x00", 1],
                self::yioop(self::returns("?\x00\x00\x01"))],
            'empty 24x1 word' => ['addDocIndexPostings', ["?\x00\x00\x00", 1],
                self::yioop(self::returns(">\x00\x00\x02"))],
            'empty 24x1 word into the fold range' => ['addDocIndexPostings', ["?\x00\x00\x00", 40000],
                self::yioop(self::returns("\x00\x00\x9cA"))],
            'fold flag with first delta 512-1023' => ['addDocIndexPostings', ["\x098\xa2\xbc", 1],
                self::yioop(self::returns("\x098\xa4\xbc"))],
            'random bytes' => ['addDocIndexPostings', [
                "\xd3\xa1\xb2\xc4\xe5\xf6\x07\x18"
                    . "):K\x5c\xc7\xe1\xf0\xaa"
                    . "\x91\xb3\xc4\xd5\xe6\xf7\x08\x19"
                    . 'J[l}',
                1,
            ],
                self::yioop(self::returns("\xd3\xa1\xf2\xc4\x90_A\x03"
                    . "\x90F\x00NPIA\x5c"
                    . "\xc7\xe1\xf0\xab\x91\xb3\xc4\xd5"
                    . "\x90oA\x84\xb0\x00\x00\x19"
                    . 'J[l}'))],
        ];
    }

    public static function addDocIndexPostingsNegativeNumbers(): array
    {
        return [
            'offset -3' => ['addDocIndexPostings', [self::POSTINGS, -3],
                self::yioop(self::returns("\xfe\x00\x00\x03\x80\x04\x93\xe0"
                    . "@\x04\x93\xe0\xc98z\x03"
                    . "x\x00\x00\x07<\x00\x0aI"))],
            'offset -6 (doc index -1)' => ['addDocIndexPostings', [self::POSTINGS, -6],
                self::yioop(self::returns("\xff\x00\x00\x00\x80\x04\x93\xe0"
                    . "@\x04\x93\xe0\xc98t\x03"
                    . "x\x00\x00\x07>\x00\x00\x95"))],
            'offset -7 (doc index -2)' => ['addDocIndexPostings', [self::POSTINGS, -7],
                self::yioop(self::returns("\xfe\xff\xff\xff\x80\x04\x93\xe0"
                    . "@\x04\x93\xe0\xc98r\x03"
                    . "x\x00\x00\x07?\x00\x00\x0f"))],
            'offset -40000 (leaves the fold range)' => ['addDocIndexPostings', [self::POSTINGS, -40000],
                self::yioop(self::returns("\xfe\xffc\xc6\x80\x04\x93\xe0@\x04\x93\xe0<\x00\x00_>\xfb\x1eG"))],
            'offset PHP_INT_MIN' => ['addDocIndexPostings', [self::POSTINGS, PHP_INT_MIN],
                self::yioop(self::returns("\xff\x00\x00\x06\x80\x04\x93\xe0@\x04\x93\xe0<'\x10_?\x00\x00G"))],
        ];
    }

    public static function addDocIndexPostingsValuesFrom2Pow28(): array
    {
        return [
            'offset 40000 (into the fold range)' => ['addDocIndexPostings', [self::POSTINGS, 40000],
                self::yioop(self::returns("\xc0\x00\x9cF\x80\x04\x93\xe0"
                    . "@\x04\x93\xe0\xcaq\x00\x03"
                    . "x\x00\x00\x07\xc98\x8e\x01"
                    . "\x7f\x00\x00\x03"))],
            'offset 2^28' => ['addDocIndexPostings', [self::POSTINGS, 268435456],
                self::yioop(self::returns("\xd0\x00\x00\x06\x80\x04\x93\xe0"
                    . "@\x04\x93\xe0\xd0\x00\x9cA"
                    . "x\x00\x007\xd0\x00\x00\x08"
                    . "\x7f\x00\x00\x07"))],
            'offset 2^40 onto a full 28-bit word' => ['addDocIndexPostings', ["\x0f\xff\xff\xff", 1099511627776],
                self::yioop(self::returns("\xff\x00\x00\x00\x80\x03\xff\xffP\x00\x03\xff"))],
            'offset 2^62 - 40002 (doc 40000 stored as 2^62 - 1)' => ['addDocIndexPostings', [self::POSTINGS, 4611686018427347902],
                self::knownBug('B7',
                    self::returns("\xff\x00\x00\x00\x7f\xffc\xc4"
                        . "\x80\x04\x93\xe0@\x04\x93\xe0"
                        . "\xff\x00\x00\x00\x7f\xff\xff\xff"
                        . "x\x00\x007\xff\x00\x00\x00"
                        . "\x7f\xffc\xc6\x7f\x00\x00\x07"),
                    self::throws(\ValueError::class,
                        'addDocIndexPostings(): Argument #2 ($add_offset) leads to a '
                        . 'value of 2^62 or more (element 0), which Yioop\'s encoder '
                        . 'never finishes encoding'))],
            'offset 2^62 - 40001 (doc 40000 stored as 2^62)' => ['addDocIndexPostings', [self::POSTINGS, 4611686018427347903],
                self::yioopNeverReturns(self::valueError())],
            'offset PHP_INT_MAX' => ['addDocIndexPostings', [self::POSTINGS, PHP_INT_MAX],
                self::yioopNeverReturns(self::valueError())],
            'offset float 1e30' => ['addDocIndexPostings', [self::POSTINGS, 1.0E+30],
                self::yioopNeverReturns(self::valueError())],
            'offset float 2^64 (wraps to 0 as an int)' => ['addDocIndexPostings', [self::POSTINGS, 1.8446744073709552E+19],
                self::yioopNeverReturns(self::valueError())],
        ];
    }

    public static function decodeQueueWeightInfoWrongTypes(): array
    {
        return [
            'weight info array' => ['decodeQueueWeightInfo', [[1], 'ad'],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: array & int'))],
            'weight info object' => ['decodeQueueWeightInfo', [(object) ['a' => 3, 'b' => 10], 'ad'],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: stdClass & int'))],
            'weight info null' => ['decodeQueueWeightInfo', [null, 'ad'],
                self::yioop(self::returns([0, 255]))],
            'weight info non-numeric string' => ['decodeQueueWeightInfo', ['abc', 'ad'],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: string & int'))],
            'weight info numeric string' => ['decodeQueueWeightInfo', ['1234', 'ad'],
                self::yioop(self::returns([4, 45]))],
            'weight info leading-numeric string' => ['decodeQueueWeightInfo', ['1234abc', 'ad'],
                self::yioop(self::returns([4, 45]))],
            'weight info float' => ['decodeQueueWeightInfo', [1500.0, 'ad'],
                self::yioop(self::returns([5, 35]))],
            'weight info NAN' => ['decodeQueueWeightInfo', [NAN, 'ad'],
                self::yioop(self::returns([0, 255]))],
            'weight info true' => ['decodeQueueWeightInfo', [true, 'ad'],
                self::yioop(self::returns([0, 254]))],
            'weight info array, other order' => ['decodeQueueWeightInfo', [[1], 'bf'],
                self::yioop(self::returns([0, [1]]))],
            'weight info object, other order' => ['decodeQueueWeightInfo', [(object) ['a' => 3, 'b' => 10], 'bf'],
                self::yioop(self::returns([0, (object) ['a' => 3, 'b' => 10]]))],
            'crawl order null' => ['decodeQueueWeightInfo', [1234, null],
                self::yioop(self::returns([0, 1234]))],
            'crawl order true' => ['decodeQueueWeightInfo', [1234, true],
                self::yioop(self::returns([4, 45]))],
            'crawl order 0' => ['decodeQueueWeightInfo', [1234, 0],
                self::yioop(self::returns([0, 1234]))],
            'crawl order 1' => ['decodeQueueWeightInfo', [1234, 1],
                self::yioop(self::returns([0, 1234]))],
            'crawl order float' => ['decodeQueueWeightInfo', [1234, 1.5],
                self::yioop(self::returns([0, 1234]))],
            'crawl order empty array' => ['decodeQueueWeightInfo', [1234, []],
                self::yioop(self::returns([0, 1234]))],
            'crawl order [ad]' => ['decodeQueueWeightInfo', [1234, ['ad']],
                self::yioop(self::returns([0, 1234]))],
            'crawl order object' => ['decodeQueueWeightInfo', [1234, (object) ['a' => 3, 'b' => 10]],
                self::yioop(self::returns([0, 1234]))],
            'crawl order AD' => ['decodeQueueWeightInfo', [1234, 'AD'],
                self::yioop(self::returns([0, 1234]))],
            'crawl order "ad "' => ['decodeQueueWeightInfo', [1234, 'ad '],
                self::yioop(self::returns([0, 1234]))],
            'crawl order "0"' => ['decodeQueueWeightInfo', [1234, '0'],
                self::yioop(self::returns([0, 1234]))],
            'crawl order ""' => ['decodeQueueWeightInfo', [1234, ''],
                self::yioop(self::returns([0, 1234]))],
        ];
    }

    public static function decodeQueueWeightInfoNegativeNumbers(): array
    {
        return [
            '-1' => ['decodeQueueWeightInfo', [-1, 'ad'],
                self::yioop(self::returns([-1, 0]))],
            'PHP_INT_MIN' => ['decodeQueueWeightInfo', [PHP_INT_MIN, 'ad'],
                self::yioop(self::returns([-36028797018963968, 255]))],
        ];
    }

    public static function decodeQueueWeightInfoLargeValues(): array
    {
        return [
            '2^40' => ['decodeQueueWeightInfo', [1099511627776, 'ad'],
                self::yioop(self::returns([4294967296, 255]))],
            'PHP_INT_MAX' => ['decodeQueueWeightInfo', [PHP_INT_MAX, 'ad'],
                self::yioop(self::returns([36028797018963967, 0]))],
            'float 1e30' => ['decodeQueueWeightInfo', [1.0E+30, 'ad'],
                self::yioop(self::returns([19831891230195712, 255]))],
        ];
    }

    public static function encodeQueueWeightInfoWrongTypes(): array
    {
        return [
            'weight array' => ['encodeQueueWeightInfo', [[1], 5, 'ad'],
                self::deliberate("B6: weight and depth are converted to ints first; Yioop's min()/max() keep floats", self::throws(\TypeError::class, 'Unsupported operand types: array << int'))],
            'depth array' => ['encodeQueueWeightInfo', [5, [1], 'ad'],
                self::deliberate("B6: weight and depth are converted to ints first; Yioop's min()/max() keep floats", self::throws(\TypeError::class, 'Unsupported operand types: array - int'))],
            'weight object' => ['encodeQueueWeightInfo', [(object) ['a' => 3, 'b' => 10], 5, 'ad'],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: stdClass << int'))],
            'depth object' => ['encodeQueueWeightInfo', [5, (object) ['a' => 3, 'b' => 10], 'ad'],
                self::deliberate("B6: weight and depth are converted to ints first; Yioop's min()/max() keep floats", self::throws(\TypeError::class, 'Unsupported operand types: stdClass - int'))],
            'nulls' => ['encodeQueueWeightInfo', [null, null, 'ad'],
                self::yioop(self::returns(255))],
            'weight non-numeric string' => ['encodeQueueWeightInfo', ['abc', 5, 'ad'],
                self::deliberate("B6: weight and depth are converted to ints first; Yioop's min()/max() keep floats", self::throws(\TypeError::class, 'Unsupported operand types: string << int'))],
            'depth non-numeric string' => ['encodeQueueWeightInfo', [5, 'abc', 'ad'],
                self::deliberate("B6: weight and depth are converted to ints first; Yioop's min()/max() keep floats", self::throws(\TypeError::class, 'Unsupported operand types: string - int'))],
            'numeric strings' => ['encodeQueueWeightInfo', ['12', '3', 'ad'],
                self::yioop(self::returns(3324))],
            'leading-numeric strings' => ['encodeQueueWeightInfo', ['12abc', '3abc', 'ad'],
                self::deliberate("B6: weight and depth are converted to ints first; Yioop's min()/max() keep floats", self::returns(3324))],
            'floats' => ['encodeQueueWeightInfo', [1.5, 2.5, 'ad'],
                self::deliberate("B6: weight and depth are converted to ints first; Yioop's min()/max() keep floats", self::returns(509))],
            'NAN' => ['encodeQueueWeightInfo', [NAN, NAN, 'ad'],
                self::deliberate("B6: weight and depth are converted to ints first; Yioop's min()/max() keep floats", self::returns(255))],
            'INF and -INF' => ['encodeQueueWeightInfo', [INF, -INF, 'ad'],
                self::deliberate("B6: weight and depth are converted to ints first; Yioop's min()/max() keep floats", self::returns(255))],
            'bools' => ['encodeQueueWeightInfo', [true, false, 'ad'],
                self::yioop(self::returns(511))],
            'arrays, other order' => ['encodeQueueWeightInfo', [[1], [2], 'bf'],
                self::yioop(self::returns([2]))],
            'depth object, other order' => ['encodeQueueWeightInfo', [5, (object) ['a' => 3, 'b' => 10], 'bf'],
                self::yioop(self::returns((object) ['a' => 3, 'b' => 10]))],
            'crawl order null' => ['encodeQueueWeightInfo', [5, 7, null],
                self::yioop(self::returns(7))],
            'crawl order true' => ['encodeQueueWeightInfo', [5, 7, true],
                self::yioop(self::returns(1528))],
            'crawl order 0' => ['encodeQueueWeightInfo', [5, 7, 0],
                self::yioop(self::returns(7))],
            'crawl order empty array' => ['encodeQueueWeightInfo', [5, 7, []],
                self::yioop(self::returns(7))],
            'crawl order object' => ['encodeQueueWeightInfo', [5, 7, (object) ['a' => 3, 'b' => 10]],
                self::yioop(self::returns(7))],
        ];
    }

    public static function encodeQueueWeightInfoNegativeNumbers(): array
    {
        return [
            '-1, -1' => ['encodeQueueWeightInfo', [-1, -1, 'ad'],
                self::yioop(self::returns(-1))],
            'negative weight, depth past 255' => ['encodeQueueWeightInfo', [-5, 300, 'ad'],
                self::yioop(self::returns(-1280))],
            'weight PHP_INT_MIN' => ['encodeQueueWeightInfo', [PHP_INT_MIN, 5, 'ad'],
                self::yioop(self::returns(250))],
            'depth PHP_INT_MIN' => ['encodeQueueWeightInfo', [5, PHP_INT_MIN, 'ad'],
                self::yioop(self::returns(1535))],
        ];
    }

    public static function encodeQueueWeightInfoLargeValues(): array
    {
        return [
            'weight 2^24 - 1' => ['encodeQueueWeightInfo', [16777215, 0, 'ad'],
                self::yioop(self::returns(4294967295))],
            'weight 2^24' => ['encodeQueueWeightInfo', [16777216, 5, 'ad'],
                self::yioop(self::returns(4294967290))],
            'weight 2^28' => ['encodeQueueWeightInfo', [268435456, 5, 'ad'],
                self::yioop(self::returns(4294967290))],
            'PHP_INT_MAX, PHP_INT_MAX' => ['encodeQueueWeightInfo', [PHP_INT_MAX, PHP_INT_MAX, 'ad'],
                self::yioop(self::returns(4294967040))],
            'weight float 1e30' => ['encodeQueueWeightInfo', [1.0E+30, 5, 'ad'],
                self::yioop(self::returns(4294967290))],
        ];
    }

    public static function adjustWeightCallbackWrongTypes(): array
    {
        return [
            'array' => ['adjustWeightCallback', [[1], 5],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: array & int'))],
            'array second' => ['adjustWeightCallback', [5, [1]],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: array & int'))],
            'object' => ['adjustWeightCallback', [(object) ['a' => 3, 'b' => 10], 5],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: stdClass & int'))],
            'nulls' => ['adjustWeightCallback', [null, null],
                self::yioop(self::returns(0))],
            'non-numeric string' => ['adjustWeightCallback', ['abc', 5],
                self::yioop(self::throws(\TypeError::class, 'Unsupported operand types: string & int'))],
            'numeric strings' => ['adjustWeightCallback', ['12', '300'],
                self::yioop(self::returns(300))],
            'leading-numeric string' => ['adjustWeightCallback', ['1234abc', 5],
                self::yioop(self::returns(1234))],
            'floats' => ['adjustWeightCallback', [1500.0, 2500.0],
                self::yioop(self::returns(3804))],
            'NAN and INF' => ['adjustWeightCallback', [NAN, INF],
                self::yioop(self::returns(0))],
            'bools' => ['adjustWeightCallback', [true, false],
                self::yioop(self::returns(1))],
        ];
    }

    public static function adjustWeightCallbackNegativeNumbers(): array
    {
        return [
            '-1, -1' => ['adjustWeightCallback', [-1, -1],
                self::yioop(self::returns(-257))],
            'PHP_INT_MIN, PHP_INT_MIN' => ['adjustWeightCallback', [PHP_INT_MIN, PHP_INT_MIN],
                self::yioop(self::returns(0))],
        ];
    }

    public static function adjustWeightCallbackLargeValues(): array
    {
        return [
            'PHP_INT_MAX, PHP_INT_MAX' => ['adjustWeightCallback', [PHP_INT_MAX, PHP_INT_MAX],
                self::yioop(self::returns(4294967295))],
            'PHP_INT_MAX, 256' => ['adjustWeightCallback', [PHP_INT_MAX, 256],
                self::yioop(self::returns(4294967295))],
            '2^40 + 3, 2^40 + 7' => ['adjustWeightCallback', [1099511627779, 1099511627783],
                self::yioop(self::returns(4294967047))],
            'weights summing past 2^24 - 1' => ['adjustWeightCallback', [4294967040, 256],
                self::yioop(self::returns(4294967040))],
            'float 1e30' => ['adjustWeightCallback', [1.0E+30, 5],
                self::yioop(self::returns(4294967045))],
        ];
    }
}
