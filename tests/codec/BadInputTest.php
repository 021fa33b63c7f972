<?php
// What each of the 14 functions does with input Yioop never writes: wrong
// types, damaged strings, offsets outside the string, negative numbers,
// values of 2^28 and more, and huge lists. The cases are data: one row each
// in tests/fixtures/codec/bad-input/ (the format, and how each outcome is marked, are in
// its README). Every row asserts one concrete outcome, and no call may raise
// a PHP warning, notice or deprecation (Yioop's PHP raises many on these
// inputs; the extension stays quiet). The namespaced registrations
// (seekquarry\yioop\library\...) run every row of their functions too.
//
// A known bug passes once the extension does what Yioop does, is marked
// incomplete while it still does the recorded wrong thing, and fails on
// anything else; YIOOP_BAD_INPUT_STRICT=1 makes known bugs fail.
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

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

final class BadInputTest extends TestCase
{
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
    /* The recorded cases                                                 */
    /* ------------------------------------------------------------------ */

    public static function recordedCases(): array
    {
        return BadInputTable::cases();
    }

    public static function namespacedCases(): array
    {
        return BadInputTable::cases(Vectors::NAMESPACED);
    }

    /** @dataProvider recordedCases */
    #[DataProvider('recordedCases')]
    public function testRecordedCase(string $fn, array $args, array $expect): void
    {
        $this->check($fn, $fn, $args, $expect);
    }

    /** @dataProvider namespacedCases */
    #[DataProvider('namespacedCases')]
    public function testNamespacedRegistration(string $fn, array $args, array $expect): void
    {
        $this->check(Vectors::NS . '\\' . $fn, $fn, $args, $expect);
    }

    /* ------------------------------------------------------------------ */
    /* Running and judging a case                                         */
    /* ------------------------------------------------------------------ */

    /** Calls $name, the registration of $fn under test, once. */
    private function check(string $name, string $fn, array $args, array $expect): void
    {
        $expect = self::complete($fn, $args, self::forFormat($expect, Vectors::format()));
        if ($expect[0] === 'declines') {
            // the native returns null and leaves its by-reference arguments
            // as they were; Yioop's PHP beside the forwarder gives $expect[1]
            // (testDeclinedCasesThroughSwitchedYioop)
            $expect = ['yioop', self::complete($fn, $args, ['returns', null, []])];
        } elseif ($expect[0] === 'calls') {
            // no switched tree in this process, so no Yioop PHP kept for the
            // native to call: its own outcome (testKeptYioopPhpCalledOnB6Inputs,
            // testDeclinedCasesThroughSwitchedYioop)
            $expect = ['yioop', $expect[3]];
        }
        [$actual, $raised] = self::call($name, $args);
        $this->assertSame([], $raised, "$name raised PHP errors");
        $this->judge($name, $expect, $actual);
    }

    /** The expectation for $format where the table records one per format. */
    private static function forFormat(array $expect, string $format): array
    {
        if ($expect[0] !== 'format') {
            return $expect;
        }
        return $format === '2015' ? $expect[2] : $expect[1];
    }

    /**
     * Fills in the by-reference arguments a 'returns' outcome leaves out:
     * those must come back unchanged.
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
                    ['returns', 'throws', 'never', 'yioop', 'deliberate', 'hangs', 'bug', 'declines', 'calls'], true)) {
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
                    $this->markTestIncomplete("known bug $id (docs/bad-input.md): $name "
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
     * by-reference arguments it names; for a 'never' shape only whether the
     * outcome is a ValueError that mentions its text).
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
    #[Group('huge')]
    public function testPackPostingHugeList(): void
    {
        $positions = self::hugePositions();
        $packed = $this->withinMemory('packPosting', fn () => packPosting(123456, $positions));
        [$length, $sha1] = self::HUGE_PACKED[Vectors::format()];
        $this->assertSame($length, strlen($packed));
        $this->assertSame($sha1, sha1($packed));
    }

    /** @group huge */
    #[Group('huge')]
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
    #[Group('huge')]
    public function testDeltaListHugeList(): void
    {
        $positions = self::hugePositions();
        $deltas = $this->withinMemory('deltaList', fn () => deltaList($positions));
        $this->assertTrue($deltas === self::hugeDeltas(), 'deltaList matches the PHP loop');
    }

    /** @group huge */
    #[Group('huge')]
    public function testDeDeltaListHugeList(): void
    {
        $deltas = self::hugeDeltas();
        $this->withinMemory('deDeltaList', function () use (&$deltas) { deDeltaList($deltas); });
        $this->assertTrue($deltas === self::hugePositions(), 'deDeltaList undoes the deltas');
    }

    /** @group huge */
    #[Group('huge')]
    public function testEncodeModified9HugeList(): void
    {
        $deltas = self::hugeDeltas();
        $encoded = $this->withinMemory('encodeModified9', fn () => encodeModified9($deltas));
        [$length, $sha1] = self::HUGE_ENCODED;
        $this->assertSame($length, strlen($encoded));
        $this->assertSame($sha1, sha1($encoded));
    }

    /** @group huge */
    #[Group('huge')]
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
    #[Group('live')]
    /** The codec line of a Utility.php: the 2015 line adds one to packPosting's first delta. */
    private static function lineOf(string $utility_source): string
    {
        preg_match('/function\s+packPosting\b.*?\n}/s', $utility_source, $m);
        return preg_match('/\[0\]\s*\+\+/', $m[0] ?? '') ? '2015' : '2019';
    }

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
        $format = self::lineOf($source);

        $compare = [];
        $hangs = [];
        foreach (BadInputTable::cases() as $where => [$fn, $args, $expect]) {
            if (!preg_match('/function\s+' . preg_quote($fn, '/') . '\s*\(/', $source)) {
                continue; // the extension's own functions; the 2015 line's missing queue weight ones
            }
            $expect = self::complete($fn, $args, self::forFormat($expect, $format));
            $case = [$where, $fn, $args, $expect];
            if ($expect[0] === 'hangs' || ($expect[0] === 'bug' && $expect[1][0] === 'never')) {
                $hangs[] = $case;
            } else {
                $compare[] = $case;
            }
        }
        $results = self::runInYioop($dir, array_map(fn ($c) => [$c[1], $c[2]], $compare), 0);
        $this->assertCount(count($compare), $results, "Yioop's side did not finish");
        foreach ($compare as $i => [$where, $fn, $args, $expect]) {
            $yioop = $results[$i];
            if ($expect[0] === 'declines' && $expect[1][0] === 'unrecorded') {
                continue;
            }
            $expected = in_array($expect[0], ['yioop', 'bug', 'declines', 'calls'], true) ? $expect[1] : null;
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
     * The cases where the native declines (B4-B10 fixed) or calls Yioop's
     * PHP (B6): through a copy of YIOOP_DIR switched by
     * php/yioop-integrate.php, with this extension, Yioop's namespaced
     * function gives Yioop's recorded outcome (its PHP kept beside the
     * forwarder, or in the else branch of its guard, runs), by-reference
     * arguments included.
     *
     * @group live
     */
    #[Group('live')]
    public function testDeclinedCasesThroughSwitchedYioop(): void
    {
        $dir = getenv('YIOOP_DIR') ?: null;
        if ($dir === null) {
            $this->markTestSkipped('Set YIOOP_DIR to a Yioop checkout to replay the declined '
                . 'bad-input cases through a switched copy of it.');
        }
        $format = Vectors::format();
        $line = self::lineOf((string)@file_get_contents("$dir/src/library/Utility.php"));
        if ($line !== $format) {
            // A switched tree runs with the yioop.format of its own line.
            $this->markTestSkipped("YIOOP_DIR is a $line-line Yioop; this run's yioop.format is "
                . "$format");
        }
        $cases = [];
        foreach (BadInputTable::cases() as $where => [$fn, $args, $expect]) {
            $expect = self::complete($fn, $args, self::forFormat($expect, $format));
            if (($expect[0] === 'declines' && $expect[1][0] !== 'unrecorded') || $expect[0] === 'calls') {
                $cases[] = [$where, $fn, $args, $expect[1]];
            }
        }
        $this->assertNotEmpty($cases, 'no declined cases in the table');
        $copy = sys_get_temp_dir() . '/yioop-bad-switched-' . getmypid();
        $this->assertTrue(mkdir($copy, 0700, true), "cannot create $copy");
        exec('cp -r ' . escapeshellarg("$dir/src") . ' ' . escapeshellarg("$copy/src") . ' 2>&1', $o, $status);
        try {
            $this->assertSame(0, $status, implode("\n", $o));
            $flags = self::extensionFlags();
            // the tool needs the tokenizer, so this php's own ini (with or
            // without the extension: switching does not need it)
            exec(implode(' ', array_map('escapeshellarg', [PHP_BINARY,
                __DIR__ . '/../../php/yioop-integrate.php', $copy])) . ' 2>&1', $out, $status);
            $this->assertSame(0, $status, implode("\n", $out));
            $results = self::runInYioop($copy, array_map(fn ($c) => [$c[1], $c[2]], $cases), 0, $flags);
            $this->assertCount(count($cases), $results, "the switched tree's side did not finish");
            foreach ($cases as $i => [$where, , , $expected]) {
                $this->assertSame(self::describe($expected, $expected), self::describe($results[$i], $expected),
                    "$where: the switched tree does not give Yioop's recorded outcome");
            }
        } finally {
            exec('rm -rf ' . escapeshellarg($copy));
        }
    }

    /**
     * Without YIOOP_DIR: in a child php with this extension, a stand-in
     * seekquarry\yioop\library\yioop_codec_php_encodeQueueWeightInfo (as a
     * switched tree declares it) is called by the native, global and
     * namespaced, with the same arguments and its result returned, on every
     * B6 case ("callsYioop"), and on none of the other recorded
     * encodeQueueWeightInfo cases; before it is declared, the native gives
     * the recorded outcome alone.
     */
    public function testKeptYioopPhpCalledOnB6Inputs(): void
    {
        $cases = [];
        foreach (BadInputTable::cases(['encodeQueueWeightInfo']) as $where => [$fn, $args, $expect]) {
            $cases[] = [$where, $args, self::complete($fn, $args, self::forFormat($expect, Vectors::format()))];
        }
        $cases[] = ['plain ints', [3, 2, 'ad'], ['yioop', ['returns', (3 << 8) + 253, []]]];
        $calls = array_filter($cases, static fn (array $case): bool => $case[2][0] === 'calls');
        $this->assertNotEmpty($calls, 'no callsYioop cases in the table');
        $script = '<?php
            namespace seekquarry\yioop\library;
            function run(string $name, array $args): array {
                $GLOBALS["kept"] = [];
                try {
                    $outcome = ["returns", @$name(...$args), $args];
                } catch (\Throwable $e) {
                    $outcome = ["throws", get_class($e), $e->getMessage()];
                }
                return [$outcome, $GLOBALS["kept"]];
            }
            $results = [];
            $cases = unserialize(file_get_contents($argv[1]));
            foreach ($cases as $args) {
                $results[] = [run("encodeQueueWeightInfo", $args)];
            }
            if (true) { // declared here, after the calls above
                function yioop_codec_php_encodeQueueWeightInfo($weight, $depth, $crawl_order) {
                    $GLOBALS["kept"][] = [$weight, $depth, $crawl_order];
                    return "stand-in";
                }
            }
            foreach ($cases as $i => $args) {
                $results[$i][] = run("encodeQueueWeightInfo", $args);
                $results[$i][] = run(__NAMESPACE__ . chr(92) . "encodeQueueWeightInfo", $args);
            }
            file_put_contents($argv[2], serialize($results));';
        $dir = sys_get_temp_dir() . '/yioop-bad-kept-' . getmypid();
        $this->assertTrue(is_dir($dir) || mkdir($dir, 0700, true), "cannot create $dir");
        try {
            file_put_contents("$dir/run.php", $script);
            file_put_contents("$dir/in", serialize(array_map(fn ($c) => $c[1], $cases)));
            $command = implode(' ', array_map('escapeshellarg', array_merge([PHP_BINARY, '-n'],
                self::extensionFlags(), ["$dir/run.php", "$dir/in", "$dir/out"])));
            exec("$command 2>&1", $output, $status);
            $this->assertSame(0, $status, implode("\n", $output));
            $results = unserialize(file_get_contents("$dir/out"));
        } finally {
            exec('rm -rf ' . escapeshellarg($dir));
        }
        $this->assertCount(count($cases), $results);
        foreach ($cases as $i => [$where, $args, $expect]) {
            [[$alone, $none], $global, $namespaced] = $results[$i];
            $this->assertSame([], $none, "$where: called before it was declared");
            $recorded = $expect[0] === 'calls' ? $expect[3] : $expect[1];
            if ($expect[0] !== 'deliberate') {
                $this->assertSame(self::describe($recorded, $recorded), self::describe($alone, $recorded),
                    "$where: the native alone");
            }
            foreach (['global' => $global, 'namespaced' => $namespaced] as $which => [$outcome, $kept]) {
                if ($expect[0] === 'calls') {
                    $this->assertSame(['returns', 'stand-in'], array_slice($outcome, 0, 2),
                        "$where ($which): the kept PHP's result");
                    $this->assertSame(serialize([$args]), serialize($kept),
                        "$where ($which): the kept PHP called once, with the same arguments");
                } else {
                    $this->assertSame([], $kept, "$where ($which): the kept PHP called on an input the native takes");
                    $this->assertSame(self::describe($alone, $alone), self::describe($outcome, $alone),
                        "$where ($which): not the native's outcome");
                }
            }
        }
    }

    /** php flags that load the extension this test runs with, yioop.format included. */
    private static function extensionFlags(): array
    {
        $flags = [];
        $cmdline = (string)@file_get_contents('/proc/self/cmdline');
        $args = explode("\0", $cmdline);
        foreach ($args as $i => $arg) {
            $value = $arg === '-d' ? ($args[$i + 1] ?? '') : (str_starts_with($arg, '-d') ? substr($arg, 2) : '');
            if (str_starts_with($value, 'extension=')) {
                $flags = ['-d', $value];
            }
        }
        if ($flags === []) {
            // php.ini loads it: ask php where its extension directory is
            $flags = ['-d', 'extension=yioop_codec'];
        }
        return array_merge($flags, ['-d', 'yioop.format=' . Vectors::format()]);
    }

    /**
     * Runs the calls through Yioop's Utility.php in a child PHP without the
     * extension, or, given $flags that load it, through a switched tree.
     * With a time limit, null means the limit was hit.
     */
    private static function runInYioop(string $dir, array $calls, int $seconds, array $flags = []): ?array
    {
        $in = tempnam(sys_get_temp_dir(), 'yioop-bad-in');
        $out = tempnam(sys_get_temp_dir(), 'yioop-bad-out');
        try {
            file_put_contents($in, serialize($calls));
            $command = implode(' ', array_map('escapeshellarg', array_merge([PHP_BINARY, '-n'], $flags,
                [__DIR__ . '/../tools/yioop/bad-input-runner.php', $dir, $in, $out, (string)$seconds],
                $flags === [] ? [] : ['switched'])));
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
}
