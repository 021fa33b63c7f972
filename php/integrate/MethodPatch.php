<?php
/**
 * The class-method patch: in one Yioop file, each recognised method of
 * the switch table gets one marked line as the first statement of its
 * body: the guard (Guards) that hands the call to the native function,
 * on one line ending in the comment "yioop-codec:method NAME". Without
 * the extension Yioop's PHP runs as before. A method is switched only
 * when its token hash is the table's: a reformatted method is recognised,
 * a changed one stays on PHP, and --check says why.
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

final class MethodPatch extends Patch
{
    /** Modifiers that may precede a method's function keyword. */
    private const MODIFIERS = [T_PUBLIC, T_PROTECTED, T_PRIVATE, T_STATIC,
        T_FINAL, T_ABSTRACT];

    /**
     * @param string $file the file's name
     * @param SwitchedMethod[] $methods the table's methods in it, in order
     */
    public function __construct(string $file, private readonly array $methods)
    {
        parent::__construct($file);
    }

    /* ------------------------------------------------------------------ */
    /* Analysis                                                           */
    /* ------------------------------------------------------------------ */

    /**
     * Which of the file's table methods $code lets this tool switch.
     * Returned array, keyed by position in the file's methods: lines
     * ([byte offset after the body's "{", text to insert there]), reasons
     * (why a method stays on PHP). Refuses a file that does not parse, or
     * lacks a class of the table in its namespace.
     */
    public function analyze(string $code): array
    {
        $tokens = Tokens::of($code, $this->file);
        $eol = Files::eol($code);
        $classes = [];
        $lines = [];
        $reasons = [];
        foreach ($this->methods as $i => $method) {
            $classes[$method->class] ??= $this->classMethods($tokens,
                $method->class, $method->namespace);
            $records = $classes[$method->class][strtolower($method->method)]
                ?? [];
            $reason = $this->unrecognised($tokens, $records, $method->hash)
                ?? $this->unrecognisedRead($tokens, $classes[$method->class],
                $method);
            if ($reason !== null) {
                $reasons[$i] = $reason;
                continue;
            }
            $lines[$i] = $this->insertion($tokens, $records[0], $method,
                $eol);
        }
        return ['lines' => $lines, 'reasons' => $reasons];
    }

    /** Why the declarations $records are not the table's, or null. */
    private function unrecognised(array $tokens, array $records,
        string $expected): ?string
    {
        if (count($records) !== 1) {
            return $records === [] ? "not declared in {$this->file}"
                : "declared more than once";
        }
        $hash = Tokens::hash($tokens, $records[0]['start'],
            $records[0]['body_close']);
        if ($records[0]['body_open'] === null || $hash !== $expected) {
            return "not recognised: its code differs from Yioop's (token "
                . "hash $hash, expected $expected)";
        }
        return null;
    }

    /**
     * Why a method that $method's native code reproduces is not the
     * table's ($methods: the class's methods, as classMethods gives them),
     * or null.
     */
    private function unrecognisedRead(array $tokens, array $methods,
        SwitchedMethod $method): ?string
    {
        foreach ($method->reads as $read => $expected) {
            $reason = $this->unrecognised($tokens,
                $methods[strtolower($read)] ?? [], $expected);
            if ($reason !== null) {
                return "the native code reproduces $read, which is $reason";
            }
        }
        return null;
    }

    /** Where the guard of $method goes, and the line, indented as Yioop's. */
    private function insertion(array $tokens, array $record,
        SwitchedMethod $method, string $eol): array
    {
        $after = $tokens[$record['body_open'] + 1];
        $nl = $after[0] === T_WHITESPACE ? strrpos($after[1], "\n") : false;
        $indent = $nl === false ? '        ' : substr($after[1], $nl + 1);
        $args = Tokens::parameterNames($tokens, $record['params_open'],
            $record['params_close']);
        return [$tokens[$record['body_open']][2] + 1, $eol . $indent
            . Guards::statement($method, $args) . ' '
            . self::marker($method->method)];
    }

    /** Marker that ends every line inserted into the file. */
    private static function marker(string $method): string
    {
        return "/* " . self::MARK . "method $method */";
    }

    /**
     * The methods of class $class: lower-case name => list of records
     * (start: first modifier, params_open, params_close, body_open and
     * body_close; body_open null and body_close the ";" without a body).
     */
    private function classMethods(array $tokens, string $class,
        string $namespace): array
    {
        if ($this->namespaces($tokens) !== [strtolower($namespace)]) {
            throw new Refusal("{$this->file} should contain exactly one "
                . "statement \"namespace $namespace;\"");
        }
        $declarations = $this->classDeclarations($tokens, $class);
        if (count($declarations) !== 1) {
            throw new Refusal("{$this->file} declares class $class "
                . count($declarations) . " times");
        }
        $open = Tokens::find($tokens, $declarations[0], '{');
        $close = Tokens::closingBrace($tokens, $open);
        $methods = [];
        $depth = 0;
        for ($i = $open; $i < $close; $i++) {
            $id = $tokens[$i][0];
            if (Tokens::opensBrace($id)) {
                $depth++;
            } elseif ($id === '}') {
                $depth--;
            } elseif ($depth === 1 && $id === T_FUNCTION) {
                $j = Tokens::next($tokens, $i);
                // By reference: PHP 8.1 names the "&" token
                // T_AMPERSAND_NOT_FOLLOWED_BY_VAR_OR_VARARG.
                if ($tokens[$j][1] === '&') {
                    $j = Tokens::next($tokens, $j);
                }
                $methods[strtolower($tokens[$j][1])][] = $this->methodRecord(
                    $tokens, $i, Tokens::next($tokens, $j));
            }
        }
        return $methods;
    }

    /** The record of the method whose function keyword is at $function. */
    private function methodRecord(array $tokens, int $function,
        int $params_open): array
    {
        $params_close = Tokens::matching($tokens, $params_open);
        $k = Tokens::bodyStart($tokens, $params_close);
        $start = $function;
        for ($p = Tokens::prev($tokens, $function); $p >= 0 && in_array(
            $tokens[$p][0], self::MODIFIERS, true);
            $p = Tokens::prev($tokens, $p)) {
            $start = $p;
        }
        $body = $tokens[$k][0] === '{';
        return ['start' => $start, 'params_open' => $params_open,
            'params_close' => $params_close,
            'body_open' => $body ? $k : null,
            'body_close' => $body ? Tokens::closingBrace($tokens, $k) : $k];
    }

    /** The file's namespace statements, lower case; " (braced)" marked. */
    private function namespaces(array $tokens): array
    {
        $namespaces = [];
        foreach (Tokens::indexesOf($tokens, T_NAMESPACE) as $i) {
            $j = Tokens::next($tokens, $i);
            if ($j < count($tokens) && $tokens[$j][0] !== T_NS_SEPARATOR) {
                $namespaces[] = strtolower($tokens[$j][1]) . (($tokens[
                    Tokens::next($tokens, $j)][0] ?? '') === ';' ? ''
                    : ' (braced)');
            }
        }
        return $namespaces;
    }

    /** Token indexes of the class keywords that declare class $class. */
    private function classDeclarations(array $tokens, string $class): array
    {
        return array_values(array_filter(Tokens::indexesOf($tokens, T_CLASS),
            function (int $i) use ($tokens, $class): bool {
                $p = Tokens::prev($tokens, $i);
                $j = Tokens::next($tokens, $i);
                return ($p < 0 || !in_array($tokens[$p][0],
                    [T_DOUBLE_COLON, T_NEW], true)) && $j < count($tokens)
                    && strcasecmp($tokens[$j][1], $class) === 0;
            }));
    }

    /**
     * Token hash of every method of class $class in $code, lower-case name
     * => hash (how the table's hashes are computed).
     * @return array<string, string>
     */
    public function hashes(string $code, string $class,
        string $namespace): array
    {
        $tokens = Tokens::of($code, $this->file);
        $hashes = [];
        foreach ($this->classMethods($tokens, $class, $namespace) as $name
            => $records) {
            $hashes[$name] = Tokens::hash($tokens, $records[0]['start'],
                $records[0]['body_close']);
        }
        return $hashes;
    }

    /* ------------------------------------------------------------------ */
    /* The edit and its inverse                                           */
    /* ------------------------------------------------------------------ */

    /** The file with the planned lines inserted. */
    public function transform(string $code, array $info): string
    {
        return self::insert($code, $info['lines']);
    }

    /**
     * The file with every marked line taken out (from the line break
     * before it to its marker), or null when it has none.
     */
    public function strip(string $code): ?string
    {
        if (strpos($code, self::MARK) === false) {
            return null;
        }
        preg_match_all('~/\* ' . preg_quote(self::MARK, '~')
            . 'method \w+ \*/~', $code, $m, PREG_OFFSET_CAPTURE);
        foreach (array_reverse($m[0]) as [$marker, $at]) {
            $from = strrpos(substr($code, 0, $at), "\n");
            if ($from === false) {
                throw new Refusal("a yioop-integrate line in {$this->file} "
                    . "was edited by hand");
            }
            if ($from > 0 && $code[$from - 1] === "\r") {
                $from--;
            }
            $code = substr($code, 0, $from)
                . substr($code, $at + strlen($marker));
        }
        if (strpos($code, self::MARK) !== false) {
            throw new Refusal("{$this->file} has yioop-integrate markers "
                . "this tool did not write (edited by hand)");
        }
        return $code;
    }
}
