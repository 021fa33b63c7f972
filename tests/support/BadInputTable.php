<?php
// Reads the recorded bad-input cases (tests/fixtures/codec/bad-input/README.md) into the
// expectations BadInputTest judges.

declare(strict_types=1);

namespace YioopCodec\Tests;

final class BadInputTable
{
    private const FIELDS = ['group', 'id', 'fn', 'args', 'expect', 'note'];

    public static function dir(): string
    {
        return __DIR__ . '/../fixtures/codec/bad-input';
    }

    /**
     * Data-provider rows: "group: id" => [fn, args, expectation].
     *
     * @param list<string>|null $only restrict to these functions
     * @return array<string,array{string,array,array}>
     */
    public static function cases(?array $only = null): array
    {
        $cases = [];
        foreach (glob(self::dir() . '/*.jsonl') ?: [] as $path) {
            foreach (Vectors::lines($path) as $number => $line) {
                [$name, $case] = self::row($line, Vectors::where($path, $number));
                if (isset($cases[$name])) {
                    throw new \UnexpectedValueException("case '$name' is recorded twice");
                }
                $cases[$name] = $case;
            }
        }
        if ($cases === []) {
            throw new \RuntimeException('no bad-input cases in ' . self::dir());
        }
        return $only === null ? $cases
            : array_filter($cases, static fn (array $case): bool => in_array($case[0], $only, true));
    }

    /** @return array{string,array{string,array,array}} the name and the case */
    private static function row(string $line, string $where): array
    {
        try {
            $row = json_decode($line, false, 512, JSON_BIGINT_AS_STRING | JSON_THROW_ON_ERROR);
            if (!$row instanceof \stdClass
                || array_diff(array_keys(get_object_vars($row)), self::FIELDS) !== []
                || !is_string($row->group ?? null) || !is_string($row->id ?? null)
                || !is_string($row->fn ?? null) || !is_array($row->args ?? null)
                || !($row->expect ?? null) instanceof \stdClass) {
                throw new \UnexpectedValueException('fields missing, mistyped or unknown');
            }
            return ["$row->group: $row->id",
                [$row->fn, self::value($row->args), self::expectation($row->expect)]];
        } catch (\JsonException|\UnexpectedValueException $e) {
            throw new \UnexpectedValueException("$where: {$e->getMessage()}", 0, $e);
        }
    }

    /** Per-format pair, or a kind (yioop, deliberate, ...) with its outcome. */
    private static function expectation(\stdClass $json): array
    {
        if (isset($json->{'2019'}, $json->{'2015'})) {
            return ['format', self::expectation($json->{'2019'}), self::expectation($json->{'2015'})];
        }
        if (($json->kind ?? null) === 'declinesToYioop' && isset($json->unrecorded)) {
            // the native declines; Yioop's outcome for this line is not recorded
            return ['declines', ['unrecorded', self::string($json->unrecorded)], self::string($json->bug ?? null)];
        }
        $outcome = self::outcome($json);
        return match ($json->kind ?? null) {
            'yioop' => ['yioop', $outcome],
            'deliberate' => ['deliberate', $outcome, self::string($json->why ?? null)],
            'yioopNeverReturns' => ['hangs', $outcome],
            'declinesToYioop' => ['declines', $outcome, self::string($json->bug ?? null)],
            // the native calls Yioop's PHP kept in a switched tree (B6); alone
            // (no such function declared), it gives the outcome in "alone"
            'callsYioop' => ['calls', $outcome, self::string($json->bug ?? null),
                self::outcome($json->alone ?? throw new \UnexpectedValueException('callsYioop without alone'))],
            'knownBug' => ['bug', $outcome, self::string($json->bug ?? null), self::outcome($json->now)],
            default => throw new \UnexpectedValueException('unknown kind ' . json_encode($json)),
        };
    }

    /**
     * ['returns', value, by-reference arguments after the call], ['throws',
     * class, message], or ['never', text]: a ValueError mentioning text.
     */
    private static function outcome(\stdClass $json): array
    {
        if (property_exists($json, 'returns')) {
            $after = [];
            foreach (get_object_vars($json->after ?? new \stdClass()) as $position => $value) {
                $after[(int)$position] = self::value($value);
            }
            return ['returns', self::value($json->returns), $after];
        }
        if (isset($json->throws)) {
            return ['throws', self::string($json->throws), self::string($json->message ?? null)];
        }
        if (isset($json->valueErrorMentions)) {
            return ['never', self::string($json->valueErrorMentions)];
        }
        throw new \UnexpectedValueException('no outcome in ' . json_encode($json));
    }

    /**
     * Typed JSON -> the exact PHP value: Vectors' typed JSON, plus
     * {"text": ...} for printable strings and the two object types.
     */
    public static function value(mixed $json): mixed
    {
        if (is_array($json)) {
            return array_map([self::class, 'value'], $json);
        }
        if (!$json instanceof \stdClass || count(get_object_vars($json)) !== 1) {
            return Vectors::decode($json);
        }
        $tag = array_key_first(get_object_vars($json));
        $inner = $json->$tag;
        return match ($tag) {
            'text' => self::printable($inner),
            'map' => self::map($inner),
            'stdClass' => (object)self::map($inner),
            'ArrayObject' => new \ArrayObject(self::value($inner)),
            default => Vectors::decode($json),
        };
    }

    /** Only printable ASCII is text, so hex stays the one spelling of bytes. */
    private static function printable(mixed $text): string
    {
        if (!is_string($text) || !preg_match('/^[\x20-\x7e]*$/', $text)) {
            throw new \UnexpectedValueException('text is not printable ASCII: ' . json_encode($text));
        }
        return $text;
    }

    /** [[key, value], ...] with bare int or string keys, as PHP keys them. */
    private static function map(mixed $pairs): array
    {
        if (!is_array($pairs) || array_filter($pairs, [self::class, 'isPair']) !== $pairs) {
            throw new \UnexpectedValueException('map needs [key, value] pairs: ' . json_encode($pairs));
        }
        return array_combine(array_column($pairs, 0),
            array_map([self::class, 'value'], array_column($pairs, 1)));
    }

    private static function isPair(mixed $pair): bool
    {
        return is_array($pair) && array_keys($pair) === [0, 1]
            && (is_int($pair[0]) || is_string($pair[0]));
    }

    private static function string(mixed $json): string
    {
        if (!is_string($json)) {
            throw new \UnexpectedValueException('expected a string, got ' . json_encode($json));
        }
        return $json;
    }
}
