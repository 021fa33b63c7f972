<?php
/**
 * PHP's tokenizer, as the integration tool uses it: declarations are found
 * in tokens, never with regular expressions over a file.
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

use ParseError;

final class Tokens
{
    /** Tokens that carry no syntax. */
    public const TRIVIA = [T_WHITESPACE, T_COMMENT, T_DOC_COMMENT];

    /**
     * $code as a list of [id, text, byte offset]; id is the character
     * itself for one-character tokens. Refuses code that does not parse.
     */
    public static function of(string $code, string $file): array
    {
        try {
            $raw = token_get_all($code, TOKEN_PARSE);
        } catch (ParseError $e) {
            throw new Refusal("$file does not parse: " . $e->getMessage()
                . " on line " . $e->getLine());
        }
        $tokens = [];
        $pos = 0;
        foreach ($raw as $t) {
            $text = is_array($t) ? $t[1] : $t;
            $tokens[] = [is_array($t) ? $t[0] : $t, $text, $pos];
            $pos += strlen($text);
        }
        if ($pos !== strlen($code)) {
            throw new Refusal("tokenizer did not cover the whole of $file");
        }
        return $tokens;
    }

    /** Index of the next token after $i that is not trivia, or the count. */
    public static function next(array $tokens, int $i): int
    {
        $n = count($tokens);
        for ($i++; $i < $n; $i++) {
            if (!in_array($tokens[$i][0], self::TRIVIA, true)) {
                return $i;
            }
        }
        return $n;
    }

    /** Index of the previous token before $i that is not trivia, or -1. */
    public static function prev(array $tokens, int $i): int
    {
        for ($i--; $i >= 0; $i--) {
            if (!in_array($tokens[$i][0], self::TRIVIA, true)) {
                return $i;
            }
        }
        return -1;
    }

    /** Index of the ) or ] matching the ( or [ at $open. */
    public static function matching(array $tokens, int $open): int
    {
        $depth = 0;
        $n = count($tokens);
        for ($i = $open; $i < $n; $i++) {
            $id = $tokens[$i][0];
            if ($id === '(' || $id === '[') {
                $depth++;
            } elseif (($id === ')' || $id === ']') && --$depth === 0) {
                return $i;
            }
        }
        throw new Refusal("unbalanced parentheses");
    }

    /** Token opens a brace block closed by a plain "}". */
    public static function opensBrace($id): bool
    {
        return $id === '{' || $id === T_CURLY_OPEN
            || $id === T_DOLLAR_OPEN_CURLY_BRACES;
    }

    /** Index of the "}" closing the brace block opened at $open. */
    public static function closingBrace(array $tokens, int $open): int
    {
        $depth = 0;
        $n = count($tokens);
        for ($i = $open; $i < $n; $i++) {
            if (self::opensBrace($tokens[$i][0])) {
                $depth++;
            } elseif ($tokens[$i][0] === '}' && --$depth === 0) {
                return $i;
            }
        }
        throw new Refusal("unbalanced braces");
    }

    /** Index of the first token at or after $i with id $id, or the count. */
    public static function find(array $tokens, int $i, $id): int
    {
        $n = count($tokens);
        while ($i < $n && $tokens[$i][0] !== $id) {
            $i++;
        }
        return $i;
    }

    /** Indexes of the tokens with id $id, in order. */
    public static function indexesOf(array $tokens, $id): array
    {
        return array_keys(array_column($tokens, 0), $id, true);
    }

    /**
     * Index of the "{" opening a function body whose parameter list closes
     * at $params_close, or of the ";" of a declaration without a body.
     */
    public static function bodyStart(array $tokens, int $params_close): int
    {
        $n = count($tokens);
        for ($k = $params_close + 1; $k < $n && $tokens[$k][0] !== '{'
            && $tokens[$k][0] !== ';'; $k++) {
        }
        return $k;
    }

    /** The tokens strictly between $from and $to that are not trivia. */
    public static function significant(array $tokens, int $from, int $to):
        array
    {
        $sig = [];
        for ($i = $from + 1; $i < $to; $i++) {
            if (!in_array($tokens[$i][0], self::TRIVIA, true)) {
                $sig[] = $tokens[$i];
            }
        }
        return $sig;
    }

    /**
     * Significant text strictly between two token indexes, lower case:
     * how a condition or a return type is compared.
     */
    public static function squeeze(array $tokens, int $from, int $to): string
    {
        return strtolower(implode('', array_column(
            self::significant($tokens, $from, $to), 1)));
    }

    /**
     * Token hash of tokens $from to $to (both included): SHA-256 over their
     * texts, whitespace and comments left out, each text followed by a NUL
     * byte; the first 16 hex digits. Reformatting keeps it, any change to
     * the code changes it.
     */
    public static function hash(array $tokens, int $from, int $to): string
    {
        $text = '';
        foreach (self::significant($tokens, $from - 1, $to + 1) as $t) {
            $text .= $t[1] . "\0";
        }
        return substr(hash('sha256', $text), 0, 16);
    }

    /** Variable names of a parameter list, "..." kept on a variadic one. */
    public static function parameterNames(array $tokens, int $open,
        int $close): array
    {
        $args = [];
        $depth = 0;
        $spread = false;
        for ($i = $open + 1; $i < $close; $i++) {
            $id = $tokens[$i][0];
            if ($id === '(' || $id === '[') {
                $depth++;
            } elseif ($id === ')' || $id === ']') {
                $depth--;
            } elseif ($depth === 0 && $id === T_ELLIPSIS) {
                $spread = true;
            } elseif ($depth === 0 && $id === T_VARIABLE) {
                $args[] = ($spread ? '...' : '') . $tokens[$i][1];
                $spread = false;
            }
        }
        return $args;
    }
}
