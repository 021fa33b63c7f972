<?php
// Replays every recorded Yioop vector of the active format (yioop.format)
// against the extension and demands identical typed-JSON results.
//
// No strict_types here on purpose: Yioop calls these functions in coercive
// mode, and the mode of the calling file decides how an internal function
// coerces its arguments.

namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

final class VectorTest extends TestCase
{
    /** Longer canonical texts get a short first-difference message instead
     *  of PHPUnit's line diff, which is slow and unreadable on huge lines. */
    private const DIFF_LIMIT = 4000;

    private const CONTEXT = 60;

    public static function globalCases(): array
    {
        return Vectors::cases(Vectors::format());
    }

    public static function namespacedCases(): array
    {
        return Vectors::cases(Vectors::format(), Vectors::NAMESPACED);
    }

    protected function setUp(): void
    {
        // Only reachable with YIOOP_HARNESS_ONLY=1 (bootstrap exits otherwise).
        if (!extension_loaded('yioop')) {
            $this->markTestSkipped('yioop extension not loaded');
        }
    }

    /** @dataProvider globalCases */
    #[DataProvider('globalCases')]
    public function testGlobalFunction(string $line): void
    {
        $this->replay($line, null);
    }

    /** @dataProvider namespacedCases */
    #[DataProvider('namespacedCases')]
    public function testNamespacedFunction(string $line): void
    {
        $this->replay($line, Vectors::NS);
    }

    private function replay(string $line, ?string $namespace): void
    {
        $case = Vectors::parseLine($line);
        $args = Vectors::decode($case->args);
        [$ret, $thrown] = self::invoke($case->fn, $namespace, $args);

        if (isset($case->throws)) {
            $this->assertInstanceOf($case->throws, $thrown,
                "expected {$case->throws} to be thrown");
        } elseif ($thrown !== null) {
            throw $thrown;
        } else {
            $this->assertTyped('return value', $case->ret, $ret);
        }
        $this->assertTyped('arguments after the call', $case->args_after, $args);
    }

    /**
     * Calls the function, passing $args so that by-reference parameters
     * write back into it. Warnings Yioop's code raised are recorded only
     * for information, so they are swallowed rather than failing the test.
     *
     * @return array{mixed, ?\Throwable}
     */
    private static function invoke(string $fn, ?string $namespace, array &$args): array
    {
        set_error_handler(static fn (): bool => true);
        try {
            $ret = $namespace === null
                ? self::callGlobal($fn, $args)
                : (($namespace . '\\' . $fn)(...$args));
            return [$ret, null];
        } catch (\Throwable $e) {
            return [null, $e];
        } finally {
            restore_error_handler();
        }
    }

    /** Direct calls by the global name, as Yioop's callers write them. */
    private static function callGlobal(string $fn, array &$a): mixed
    {
        return match ($fn) {
            'packPosting' => \packPosting(...$a),
            'unpackPosting' => \unpackPosting(...$a),
            'unpackListModified9' => \unpackListModified9(...$a),
            'deDeltaList' => \deDeltaList(...$a),
            'docIndexModified9' => \docIndexModified9(...$a),
            'unpackInt' => \unpackInt(...$a),
            'deltaList' => \deltaList(...$a),
            'encodeModified9' => \encodeModified9(...$a),
            'decodeModified9' => \decodeModified9(...$a),
            'nextPostString' => \nextPostString(...$a),
            'addDocIndexPostings' => \addDocIndexPostings(...$a),
            'decodeQueueWeightInfo' => \decodeQueueWeightInfo(...$a),
            'encodeQueueWeightInfo' => \encodeQueueWeightInfo(...$a),
            'adjustWeightCallback' => \adjustWeightCallback(...$a),
            default => throw new \LogicException("vector for unknown function $fn"),
        };
    }

    /** Compares canonical typed-JSON texts of the recorded and actual value. */
    private function assertTyped(string $what, mixed $expectedJson, mixed $actual): void
    {
        $expected = Vectors::toJson(Vectors::decode($expectedJson));
        $got = Vectors::toJson($actual);
        if ($expected === $got) {
            $this->addToAssertionCount(1);
            return;
        }
        if (strlen($expected) + strlen($got) <= self::DIFF_LIMIT) {
            $this->assertSame($expected, $got, "$what: mismatch");
        }
        $this->fail(self::firstDifference($what, $expected, $got));
    }

    private static function firstDifference(string $what, string $expected, string $got): string
    {
        $at = strspn($expected ^ $got, "\0");
        $from = max(0, $at - self::CONTEXT);
        $cut = static fn (string $s): string =>
            ($from > 0 ? '...' : '') . substr($s, $from, 2 * self::CONTEXT)
            . ($from + 2 * self::CONTEXT < strlen($s) ? '...' : '');
        return sprintf("%s: mismatch at byte %d of the typed JSON "
            . "(lengths: expected %d, got %d)\nexpected: %s\n     got: %s",
            $what, $at, strlen($expected), strlen($got),
            $cut($expected), $cut($got));
    }
}
