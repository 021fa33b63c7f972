<?php
// php/yioop_codec.stub.php must describe the extension as it is: every
// function it declares exists with the same parameter names, by-reference
// flags and default values, and every function the extension registers is
// declared there. The stub's docblocks are the one place each function's
// contract is written, so every registered function must have one, opening
// with a summary line, whose @param tags name its parameters. The stub is
// read with token_get_all(), never included (its empty bodies would clash
// with the real functions).

declare(strict_types=1);

namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

final class StubTest extends TestCase
{
    private const STUB = __DIR__ . '/../../php/yioop_codec.stub.php';

    /** @var array<string, array>|null declared functions, parsed once */
    private static ?array $declared = null;

    /** @var array<string, string|null> each declared function's docblock, parsed with them */
    private static array $docblocks = [];

    protected function setUp(): void
    {
        if (!extension_loaded('yioop')) {
            $this->markTestSkipped('yioop extension not loaded');
        }
    }

    /**
     * The functions the stub declares: fully qualified name => list of
     * parameters ['name', 'byRef', 'variadic', 'hasDefault', 'default'].
     *
     * @return array<string, list<array{name: string, byRef: bool, variadic: bool, hasDefault: bool, default: mixed}>>
     */
    private static function declared(): array
    {
        if (self::$declared === null) {
            [self::$declared, self::$docblocks] = self::parseStub((string)file_get_contents(self::STUB));
        }
        return self::$declared;
    }

    public static function declaredFunctions(): array
    {
        $rows = [];
        foreach (array_keys(self::declared()) as $name) {
            $rows[$name] = [$name];
        }
        return $rows;
    }

    public function testStubParses(): void
    {
        $declared = self::declared();
        // At least Yioop's 14 functions, and the 6 of them Yioop keeps inside
        // its extension_loaded guard again in its own namespace.
        $yioop = ['packPosting', 'unpackPosting', 'unpackListModified9', 'deDeltaList',
            'docIndexModified9', 'unpackInt', 'deltaList', 'encodeModified9', 'decodeModified9',
            'nextPostString', 'addDocIndexPostings', 'decodeQueueWeightInfo',
            'encodeQueueWeightInfo', 'adjustWeightCallback'];
        foreach (Vectors::NAMESPACED as $name) {
            $yioop[] = Vectors::NS . '\\' . $name;
        }
        $this->assertSame([], array_values(array_diff($yioop, array_keys($declared))),
            'Yioop functions the stub does not declare (or the parser missed)');
        $this->assertSame(
            [['name' => 'doc_index', 'byRef' => false, 'variadic' => false, 'hasDefault' => false, 'default' => null],
             ['name' => 'position_list', 'byRef' => false, 'variadic' => false, 'hasDefault' => false, 'default' => null],
             ['name' => 'delta', 'byRef' => false, 'variadic' => false, 'hasDefault' => true, 'default' => true]],
            $declared['packPosting'] ?? null,
            'the parser reads packPosting as the stub writes it');
        preg_match_all('/@param\s[^$\n]*\$(\w+)/', self::$docblocks['packPosting'] ?? '', $tags);
        $this->assertSame(['doc_index', 'position_list', 'delta'], $tags[1],
            "the parser finds packPosting's docblock and its @param tags");
    }

    /** @dataProvider declaredFunctions */
    #[DataProvider('declaredFunctions')]
    public function testDeclaredFunctionExistsWithTheSameSignature(string $name): void
    {
        $this->assertTrue(function_exists($name), "$name is declared in the stub but not defined");
        $function = new \ReflectionFunction($name);
        $this->assertSame('yioop', $function->getExtensionName(), "$name comes from another extension");
        $this->assertSame($name, $function->getName(), 'spelling of the name');

        $expected = self::declared()[$name];
        $actual = [];
        foreach ($function->getParameters() as $parameter) {
            $hasDefault = $parameter->isDefaultValueAvailable();
            $actual[] = [
                'name' => $parameter->getName(),
                'byRef' => $parameter->isPassedByReference(),
                'variadic' => $parameter->isVariadic(),
                'hasDefault' => $hasDefault,
                'default' => $hasDefault ? $parameter->getDefaultValue() : null,
            ];
            $this->assertSame($hasDefault, $parameter->isOptional(),
                "$name: \${$parameter->getName()} is optional exactly when it has a default");
        }
        $this->assertSame($expected, $actual, "parameters of $name: stub vs extension");
        $this->assertSame(count(array_filter($expected, fn (array $p): bool => !$p['hasDefault'])),
            $function->getNumberOfRequiredParameters(), "$name: number of required parameters");
    }

    public function testEveryRegisteredFunctionIsDeclared(): void
    {
        $registered = array_map(static fn (\ReflectionFunction $f): string => $f->getName(),
            array_values((new \ReflectionExtension('yioop'))->getFunctions()));
        $declared = array_keys(self::declared());
        // PHP function names are case-insensitive; the spelling is checked above.
        $missing = array_diff(array_map('strtolower', $registered), array_map('strtolower', $declared));
        $this->assertSame([], array_values($missing), 'registered by the extension but not in the stub');
        $this->assertCount(count($declared), $registered, 'as many functions registered as declared');
    }

    public function testEveryRegisteredFunctionHasADocblockWithASummary(): void
    {
        self::declared();
        $docblocks = array_change_key_case(self::$docblocks, CASE_LOWER);
        $problems = [];
        foreach ((new \ReflectionExtension('yioop'))->getFunctions() as $function) {
            $name = $function->getName();
            $docblock = $docblocks[strtolower($name)] ?? null;
            if ($docblock === null) {
                $problems[] = "$name: no docblock right before its declaration";
                continue;
            }
            $summary = self::docblockLines($docblock)[0] ?? '';
            if ($summary === '' || $summary[0] === '@') {
                $problems[] = "$name: the docblock does not open with a summary line";
            }
        }
        $this->assertSame([], $problems, 'registered functions without a contract in the stub');
    }

    /** @dataProvider declaredFunctions */
    #[DataProvider('declaredFunctions')]
    public function testDocblockParamTagsNameTheParameters(string $name): void
    {
        $docblock = self::$docblocks[$name] ?? null;
        $this->assertNotNull($docblock, "$name has no docblock in the stub");
        $parameters = array_column(self::declared()[$name], 'name');
        preg_match_all('/@param\s[^$\n]*\$(\w+)/', $docblock, $tags);
        $this->assertSame([], array_values(array_diff($tags[1], $parameters)),
            "$name: @param tags naming no parameter of it");
        $this->assertSame(array_values(array_unique($tags[1])), $tags[1], "$name: a parameter tagged twice");
    }

    /** @return list<string> the docblock's text lines, trimmed, without the comment markers */
    private static function docblockLines(string $docblock): array
    {
        $text = preg_replace(['#^/\*\*#', '#\*/$#'], '', trim($docblock));
        $lines = array_map(static fn (string $line): string => trim(preg_replace('/^\s*\*\s?/', '', $line)),
            explode("\n", (string)$text));
        return array_values(array_filter($lines, static fn (string $line): bool => $line !== ''));
    }

    /* ------------------------------------------------------------------ */
    /* A small reader for the stub's declarations                         */
    /* ------------------------------------------------------------------ */

    /**
     * Finds every function declaration at namespace level (not methods, not
     * closures), with its namespace, in both "namespace X;" and
     * "namespace X { ... }" styles, and the docblock right before each.
     *
     * @return array{array<string, list<array>>, array<string, string|null>}
     */
    private static function parseStub(string $source): array
    {
        $tokens = array_values(array_filter(token_get_all($source), static fn ($t): bool =>
            !is_array($t) || !in_array($t[0], [T_WHITESPACE, T_COMMENT], true)));
        $functions = [];
        $docblocks = [];
        $docblock = null;     // the last docblock, until a declaration or brace takes it
        $pendingDocblock = null;
        $namespace = '';
        $depth = 0;           // brace depth
        $namespaceDepth = 0;  // depth of the code directly inside the namespace
        $count = count($tokens);
        for ($i = 0; $i < $count; $i++) {
            $token = $tokens[$i];
            $text = is_array($token) ? $token[1] : $token;
            if (is_array($token) && $token[0] === T_DOC_COMMENT) {
                $docblock = $token[1];
                continue;
            }
            [$pendingDocblock, $docblock] = [$docblock, null];
            if ($text === '{' || (is_array($token) && in_array($token[0], [T_CURLY_OPEN, T_DOLLAR_OPEN_CURLY_BRACES], true))) {
                $depth++;
                continue;
            }
            if ($text === '}') {
                $depth--;
                continue;
            }
            if (is_array($token) && $token[0] === T_NAMESPACE) {
                [$namespace, $i] = self::readName($tokens, $i + 1);
                $next = $tokens[$i];
                $namespaceDepth = ($next === '{') ? $depth + 1 : $depth;
                $i--; // let the loop see the '{' or ';'
                continue;
            }
            if (is_array($token) && $token[0] === T_FUNCTION && $depth === $namespaceDepth) {
                $nameToken = $tokens[$i + 1];
                if (!is_array($nameToken) || $nameToken[0] !== T_STRING) {
                    continue; // a closure
                }
                $name = ($namespace === '' ? '' : $namespace . '\\') . $nameToken[1];
                [$parameters, $i] = self::readParameters($tokens, $i + 2);
                $functions[$name] = $parameters;
                $docblocks[$name] = $pendingDocblock;
            }
        }
        return [$functions, $docblocks];
    }

    /** @return array{string, int} the (possibly empty) name and the index after it */
    private static function readName(array $tokens, int $i): array
    {
        $name = '';
        while (is_array($tokens[$i]) && in_array($tokens[$i][0],
                [T_STRING, T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, T_NS_SEPARATOR], true)) {
            $name .= $tokens[$i][1];
            $i++;
        }
        return [ltrim($name, '\\'), $i];
    }

    /**
     * Reads "( ... )" starting at $i.
     *
     * @return array{list<array>, int} the parameters and the index of ')'
     */
    private static function readParameters(array $tokens, int $i): array
    {
        if ($tokens[$i] !== '(') {
            throw new \UnexpectedValueException('expected ( after a function name');
        }
        $parameters = [];
        $current = null;
        $default = null;
        $nesting = 0;
        for ($i++;; $i++) {
            $token = $tokens[$i];
            $text = is_array($token) ? $token[1] : $token;
            if ($default !== null) {
                if ($nesting === 0 && ($text === ',' || $text === ')')) {
                    $current['hasDefault'] = true;
                    $current['default'] = self::evaluate($default);
                    $default = null;
                } else {
                    $nesting += in_array($text, ['(', '['], true) ? 1 : (in_array($text, [')', ']'], true) ? -1 : 0);
                    $default[] = $token;
                    continue;
                }
            }
            if ($text === ')' || $text === ',') {
                if ($current !== null) {
                    $parameters[] = $current;
                    $current = null;
                }
                if ($text === ')') {
                    return [$parameters, $i];
                }
                continue;
            }
            if ($text === '&') {
                $pendingByRef = true;
                continue;
            }
            if (is_array($token) && $token[0] === T_ELLIPSIS) {
                $pendingVariadic = true;
                continue;
            }
            if (is_array($token) && $token[0] === T_VARIABLE) {
                $current = ['name' => substr($token[1], 1), 'byRef' => $pendingByRef ?? false,
                    'variadic' => $pendingVariadic ?? false, 'hasDefault' => false, 'default' => null];
                $pendingByRef = $pendingVariadic = false;
                continue;
            }
            if ($text === '=' && $current !== null) {
                $default = [];
                continue;
            }
            // Anything else is part of a type declaration.
            if (is_array($token) && defined('T_AMPERSAND_FOLLOWED_BY_VAR_OR_VARARG')
                && in_array($token[0], [T_AMPERSAND_FOLLOWED_BY_VAR_OR_VARARG, T_AMPERSAND_NOT_FOLLOWED_BY_VAR_OR_VARARG], true)) {
                $pendingByRef = true;
            }
        }
    }

    /** The value of a constant default expression: literals only. */
    private static function evaluate(array $tokens): mixed
    {
        $text = trim(implode('', array_map(static fn ($t): string => is_array($t) ? $t[1] : $t, $tokens)));
        $lower = strtolower($text);
        if (in_array($lower, ['true', 'false', 'null'], true)) {
            return ['true' => true, 'false' => false, 'null' => null][$lower];
        }
        if ($text === '[]' || $lower === 'array()') {
            return [];
        }
        if (preg_match('/^-?\d+$/', $text)) {
            return (int)$text;
        }
        if (is_numeric($text)) {
            return (float)$text;
        }
        if (preg_match('/^\'((?:[^\'\\\\]|\\\\.)*)\'$/s', $text, $m)) {
            return str_replace(["\\'", '\\\\'], ["'", '\\'], $m[1]);
        }
        if (preg_match('/^"([^"\\\\$]*)"$/', $text, $m)) {
            return $m[1];
        }
        throw new \UnexpectedValueException("unsupported default value in the stub: $text");
    }
}
