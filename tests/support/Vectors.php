<?php
// Reads the recorded Yioop vectors (tests/fixtures/codec/vectors/README.md) and converts
// between their typed JSON and exact PHP values.

declare(strict_types=1);

namespace YioopCodec\Tests;

final class Vectors
{
    /** Namespace in which Yioop also defines six of the functions. */
    public const NS = 'seekquarry\yioop\library';

    /** The functions that are registered under NS as well as globally. */
    public const NAMESPACED = [
        'unpackListModified9', 'docIndexModified9', 'unpackInt',
        'decodeQueueWeightInfo', 'encodeQueueWeightInfo',
        'adjustWeightCallback',
    ];

    public const FORMATS = ['2015', '2019'];

    private const JSON_OUT = JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR;

    /** The codec format under test: the extension's ini setting. */
    public static function format(): string
    {
        $format = ini_get('yioop.format');
        // Unset only when the extension is absent (harness-only runs).
        if ($format === false || $format === '') {
            return '2019';
        }
        if (!in_array($format, self::FORMATS, true)) {
            throw new \UnexpectedValueException(
                "yioop.format is '$format', expected 2015 or 2019");
        }
        return $format;
    }

    /** The vectors' folder: yioop-2015/, yioop-2019/ and common/. */
    public const ROOT = __DIR__ . '/../fixtures/codec/vectors';

    public static function dir(string $format): string
    {
        return self::ROOT . "/yioop-$format";
    }

    /**
     * A format's files and the files both formats give byte for byte the
     * same results on, which are stored once, in common/.
     *
     * @return array<string,string> function name => vector file path
     */
    public static function files(string $format): array
    {
        $files = [];
        foreach ([self::dir($format), self::ROOT . '/common'] as $dir) {
            foreach (glob("$dir/*.jsonl") ?: [] as $path) {
                $fn = basename($path, '.jsonl');
                if (isset($files[$fn])) {
                    throw new \UnexpectedValueException("$fn is stored twice: $files[$fn], $path");
                }
                $files[$fn] = $path;
            }
        }
        if ($files === []) {
            throw new \RuntimeException("no vectors in " . self::dir($format));
        }
        ksort($files);
        return $files;
    }

    /**
     * Data-provider rows for one format: "yioop-F/fn.jsonl:N" => [raw line]
     * (named after the format, common/ files included).
     * Rows carry the raw line only; parsing happens in the test so that
     * building ~16,000 data sets stays cheap.
     *
     * @param list<string>|null $only restrict to these functions
     * @return array<string,array{string}>
     */
    public static function cases(string $format, ?array $only = null): array
    {
        $rows = [];
        foreach (self::files($format) as $fn => $path) {
            if ($only !== null && !in_array($fn, $only, true)) {
                continue;
            }
            foreach (self::lines($path) as $number => $line) {
                $rows["yioop-$format/" . basename($path) . ":$number"] = [$line];
            }
        }
        return $rows;
    }

    /** @return array<int,string> 1-based line number => non-empty line */
    public static function lines(string $path): array
    {
        $raw = file($path, FILE_IGNORE_NEW_LINES);
        if ($raw === false) {
            throw new \RuntimeException("cannot read $path");
        }
        $lines = [];
        foreach ($raw as $i => $line) {
            if ($line !== '') {
                $lines[$i + 1] = $line;
            }
        }
        return $lines;
    }

    /** Where a line is stored: "yioop-2019/packPosting.jsonl:12". */
    public static function where(string $path, int $number): string
    {
        return basename(dirname($path)) . '/' . basename($path) . ":$number";
    }

    /**
     * One vector line as parsed JSON (objects as stdClass so that typed
     * wrappers stay distinguishable from lists). Integers beyond int64
     * would come back as strings, which decode() rejects.
     */
    public static function parseLine(string $line): \stdClass
    {
        $case = json_decode($line, false, 512,
            JSON_BIGINT_AS_STRING | JSON_THROW_ON_ERROR);
        if (!$case instanceof \stdClass || !isset($case->fn)
            || !is_array($case->args ?? null)
            || !is_array($case->args_after ?? null)
            || !property_exists($case, 'ret')) {
            throw new \UnexpectedValueException("malformed vector: $line");
        }
        return $case;
    }

    /** Parsed typed JSON -> the exact PHP value it stands for. */
    public static function decode(mixed $json): mixed
    {
        if (is_int($json) || is_bool($json) || $json === null) {
            return $json;
        }
        if (is_array($json)) {
            return array_map([self::class, 'decode'], $json);
        }
        if ($json instanceof \stdClass) {
            return self::decodeObject($json);
        }
        // A bare string is an int64 overflow (JSON_BIGINT_AS_STRING) and a
        // bare float cannot be written by the recorder: both mean bad data.
        throw new \UnexpectedValueException(
            'untyped JSON value ' . var_export($json, true));
    }

    private static function decodeObject(\stdClass $json): mixed
    {
        $fields = get_object_vars($json);
        if (count($fields) !== 1) {
            throw new \UnexpectedValueException(
                'typed object needs one field: ' . json_encode($json));
        }
        $tag = array_key_first($fields);
        $value = $fields[$tag];
        return match ($tag) {
            'hex' => self::decodeHex($value),
            'float' => self::decodeFloat($value),
            'map' => self::decodeMap($value),
            default => throw new \UnexpectedValueException(
                "unknown typed-JSON tag '$tag'"),
        };
    }

    private static function decodeHex(mixed $hex): string
    {
        // strspn, not a regex: PCRE gives up on megabyte-long strings.
        if (!is_string($hex) || strlen($hex) % 2 !== 0
            || strspn($hex, '0123456789abcdef') !== strlen($hex)) {
            throw new \UnexpectedValueException(
                'bad hex ' . substr(var_export($hex, true), 0, 80));
        }
        return hex2bin($hex);
    }

    private static function decodeFloat(mixed $text): float
    {
        if (!is_string($text)) {
            throw new \UnexpectedValueException('bad float ' . var_export($text, true));
        }
        $value = match ($text) {
            'INF' => INF,
            '-INF' => -INF,
            'NAN' => NAN,
            default => is_numeric($text) ? (float)$text : null,
        };
        // Accept only the canonical spelling, so encode(decode(x)) === x.
        if ($value === null || self::floatText($value) !== $text) {
            throw new \UnexpectedValueException("non-canonical float '$text'");
        }
        return $value;
    }

    private static function decodeMap(mixed $pairs): array
    {
        if (!is_array($pairs)) {
            throw new \UnexpectedValueException('map needs a list of pairs');
        }
        $array = [];
        foreach ($pairs as $pair) {
            if (!is_array($pair) || count($pair) !== 2) {
                throw new \UnexpectedValueException('map entry is not a pair');
            }
            $key = self::decode($pair[0]);
            if (!is_int($key) && !is_string($key)) {
                throw new \UnexpectedValueException('map key is not int/string');
            }
            $array[$key] = self::decode($pair[1]);
        }
        return $array;
    }

    /** Exact PHP value -> typed JSON structure (ready for json_encode). */
    public static function encode(mixed $value): mixed
    {
        return match (true) {
            is_int($value), is_bool($value), $value === null => $value,
            is_string($value) => ['hex' => bin2hex($value)],
            is_float($value) => ['float' => self::floatText($value)],
            is_array($value) => self::encodeArray($value),
            default => throw new \UnexpectedValueException(
                'cannot encode ' . get_debug_type($value)),
        };
    }

    private static function encodeArray(array $array): array
    {
        if (array_is_list($array)) {
            return array_map([self::class, 'encode'], $array);
        }
        $pairs = [];
        foreach ($array as $key => $item) {
            $pairs[] = [self::encode($key), self::encode($item)];
        }
        return ['map' => $pairs];
    }

    /** Canonical typed-JSON text of a PHP value: what tests compare. */
    public static function toJson(mixed $value): string
    {
        return json_encode(self::encode($value), self::JSON_OUT);
    }

    /** Re-serialise already parsed JSON the way the vector files are written. */
    public static function jsonText(mixed $json): string
    {
        return json_encode($json, self::JSON_OUT);
    }

    /** var_export's spelling: shortest round-trip digits, "1.0", "INF". */
    private static function floatText(float $value): string
    {
        return var_export($value, true);
    }
}
