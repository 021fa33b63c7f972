<?php
/**
 * Which Yioop codec line a Utility.php belongs to, and the yioop.format
 * the extension needs for it:
 *   2015 (Yioop 3.x): packPosting stores the first position delta plus one
 *                     ($delta_list[0]++), unpackPosting takes it off again.
 *   2019:             no such +1; Utility.php also guards
 *                     decodeQueueWeightInfo/encodeQueueWeightInfo/
 *                     adjustWeightCallback.
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

final class CodecLine
{
    /** The queue-weight functions, present (guarded) in the 2019 line only. */
    public const QUEUE = ['decodeQueueWeightInfo', 'encodeQueueWeightInfo',
        'adjustWeightCallback'];

    /**
     * line (text) and format ("2015"/"2019") of the codec whose functions
     * (lower-case name => declaration record) are $functions. The deciding
     * fact is whether packPosting adds one to the first position delta;
     * unpackPosting must agree, otherwise the codec is none the extension
     * reproduces.
     */
    public static function detect(array $tokens, array $functions): array
    {
        $plus = self::adjustsFirstElement($tokens,
            $functions['packposting'], T_INC);
        $minus = self::adjustsFirstElement($tokens,
            $functions['unpackposting'], T_DEC);
        if ($plus !== $minus) {
            throw new Refusal("packPosting "
                . ($plus ? "adds" : "does not add") . " one to the first "
                . "position delta but unpackPosting "
                . ($minus ? "takes one off" : "does not take it off")
                . "; that is neither the 2015 nor the 2019 Yioop codec");
        }
        $queue = count(array_filter(self::QUEUE, function ($name)
            use ($functions) {
            return isset($functions[strtolower($name)]);
        }));
        if ($plus) {
            $line = "2015 (Yioop 3.x; packPosting stores the first delta "
                . "plus one)";
            if ($queue > 0) {
                $line .= "; note: Utility.php also has queue-weight "
                    . "functions, unlike Yioop 3.x";
            }
            return ['line' => $line, 'format' => '2015'];
        }
        $line = "2019 (packPosting stores the first delta as is";
        $line .= $queue === count(self::QUEUE)
            ? "; queue-weight functions in Utility.php)"
            : "; note: Utility.php lacks some queue-weight functions of the "
                . "2019 line)";
        return ['line' => $line, 'format' => '2019'];
    }

    /**
     * Whether the body of $fn applies ++ (or --) to element [0] of some
     * variable: $x[0]++, ++$x[0], $x[0] += 1 (or the minus forms).
     */
    private static function adjustsFirstElement(array $tokens, array $fn,
        $op): bool
    {
        $sig = Tokens::significant($tokens, $fn['body_open'],
            $fn['body_close']);
        $assign = $op === T_INC ? T_PLUS_EQUAL : T_MINUS_EQUAL;
        $count = count($sig);
        for ($i = 0; $i + 3 < $count; $i++) {
            if ($sig[$i][0] !== T_VARIABLE || $sig[$i + 1][0] !== '['
                || $sig[$i + 2][0] !== T_LNUMBER || $sig[$i + 2][1] !== '0'
                || $sig[$i + 3][0] !== ']') {
                continue;
            }
            $after = $sig[$i + 4] ?? null;
            $before = $sig[$i - 1] ?? null;
            if (($after !== null && $after[0] === $op)
                || ($before !== null && $before[0] === $op)
                || ($after !== null && $after[0] === $assign
                && ($sig[$i + 5][1] ?? '') === '1'
                && ($sig[$i + 6][0] ?? '') === ';')) {
                return true;
            }
        }
        return false;
    }
}
