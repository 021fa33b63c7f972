<?php
/**
 * Where Utility.php declares its functions: at the top level, inside
 * Yioop's `if (!extension_loaded("yioop"))` block, or elsewhere. Functions
 * of classes, and closures, do not count.
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

final class FunctionScan
{
    /**
     * The functions declared outside classes: lower-case name => records
     * (name, function, params_open, params_close, body_open, body_close,
     * context: "top", "guard" inside Yioop's extension guard, or "other").
     * Refuses a file that is not in Yioop's namespace.
     */
    public static function declarations(array $tokens,
        string $namespace): array
    {
        $n = count($tokens);
        $labels = [];      // token index of "{" => what the block is
        $stack = [];       // labels of the open blocks
        $declared = [];
        $namespaces = [];
        $alternative = [T_ENDIF, T_ENDWHILE, T_ENDFOR, T_ENDFOREACH,
            T_ENDSWITCH, T_ENDDECLARE];
        for ($i = 0; $i < $n; $i++) {
            $id = $tokens[$i][0];
            if (in_array($id, $alternative, true)) {
                throw new Refusal("Utility.php uses the alternative control "
                    . "syntax (" . $tokens[$i][1] . "), which this tool does "
                    . "not handle");
            }
            if ($id === T_NAMESPACE) {
                $namespaces = array_merge($namespaces,
                    self::namespaceStatement($tokens, $i));
            } elseif ($id === T_IF || $id === T_ELSEIF) {
                $open = Tokens::next($tokens, $i);
                $close = Tokens::matching($tokens, $open);
                $k = Tokens::next($tokens, $close);
                if ($k < $n && $tokens[$k][0] === '{') {
                    $labels[$k] = ['kind' => self::isGuard(Tokens::squeeze(
                        $tokens, $open, $close)) && $id === T_IF ? 'guard'
                        : 'if'];
                }
            } elseif ($id === T_CLASS || $id === T_INTERFACE
                || $id === T_TRAIT
                || (defined('T_ENUM') && $id === constant('T_ENUM'))) {
                $p = Tokens::prev($tokens, $i);
                if ($p >= 0 && $tokens[$p][0] === T_DOUBLE_COLON) {
                    continue; // Foo::class
                }
                $labels[Tokens::find($tokens, $i + 1, '{')] = ['kind'
                    => 'class'];
            } elseif ($id === T_FUNCTION) {
                $record = self::functionRecord($tokens, $i);
                if ($record !== null) {
                    $labels[$record['body_open']] = ['kind' => 'function',
                        'record' => $record];
                }
            } elseif (Tokens::opensBrace($id)) {
                $stack[] = self::enter($labels[$i] ?? ['kind' => 'other'],
                    $stack);
            } elseif ($id === '}') {
                $label = array_pop($stack);
                if ($label === null) {
                    throw new Refusal("unbalanced braces");
                }
                if ($label['kind'] === 'function'
                    && isset($label['record']['context'])) {
                    $record = $label['record'];
                    $record['body_close'] = $i;
                    $declared[strtolower($record['name'])][] = $record;
                }
            }
        }
        self::checkNamespace($namespaces, $namespace);
        return $declared;
    }

    /**
     * [[name, ";" or "{"]] for the namespace statement at $i; [] for the
     * operator namespace\name (PHP 7 tokens).
     */
    private static function namespaceStatement(array $tokens, int $i): array
    {
        $n = count($tokens);
        $j = Tokens::next($tokens, $i);
        if ($j < $n && $tokens[$j][0] === T_NS_SEPARATOR) {
            return [];
        }
        $name = '';
        for (; $j < $n && $tokens[$j][0] !== ';' && $tokens[$j][0] !== '{';
            $j = Tokens::next($tokens, $j)) {
            $name .= $tokens[$j][1];
        }
        return [[$name, $j < $n ? $tokens[$j][0] : '']];
    }

    /**
     * The record of a named function whose keyword is at $i and that has a
     * body; null for a closure or a declaration without a body.
     */
    private static function functionRecord(array $tokens, int $i): ?array
    {
        $n = count($tokens);
        $j = Tokens::next($tokens, $i);
        if ($j < $n && $tokens[$j][0] === '&') {
            $j = Tokens::next($tokens, $j);
        }
        if ($j >= $n || $tokens[$j][0] !== T_STRING) {
            return null; // closure
        }
        $open = Tokens::next($tokens, $j);
        $close = Tokens::matching($tokens, $open);
        $k = Tokens::bodyStart($tokens, $close);
        if ($k >= $n || $tokens[$k][0] !== '{') {
            return null;
        }
        return ['name' => $tokens[$j][1], 'function' => $i,
            'params_open' => $open, 'params_close' => $close,
            'body_open' => $k];
    }

    /**
     * $label of a block being opened inside $stack; a function not inside
     * a class learns where it is declared.
     */
    private static function enter(array $label, array $stack): array
    {
        $kinds = array_column($stack, 'kind');
        if ($label['kind'] === 'function'
            && !in_array('class', $kinds, true)) {
            $label['record']['context'] = $kinds === [] ? 'top'
                : ($kinds === ['guard'] ? 'guard' : 'other');
        }
        return $label;
    }

    /** Refuses unless $namespaces is the one statement of Yioop's. */
    private static function checkNamespace(array $namespaces,
        string $expected): void
    {
        if (count($namespaces) === 1 && $namespaces[0][1] === ';'
            && strtolower(ltrim($namespaces[0][0], '\\'))
            === strtolower($expected)) {
            return;
        }
        throw new Refusal("Utility.php should contain exactly one statement"
            . " \"namespace $expected;\"; found " . ($namespaces
            === [] ? "none" : implode(', ', array_map(function ($ns) {
                return '"' . $ns[0] . '"' . ($ns[1] === '{' ? ' (braced)'
                    : '');
            }, $namespaces))));
    }

    /** Whether a squeezed if-condition is Yioop's extension guard. */
    private static function isGuard(string $condition): bool
    {
        return (bool)preg_match('~^!\\\\?extension_loaded\\((["\'])'
            . preg_quote(Patch::MODULE, '~') . '\\1\\)$~', $condition);
    }
}
