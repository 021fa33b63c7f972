<?php
// The extension must present itself like Yioop's PHP code: same module name,
// same function names (global and namespaced), same parameter names,
// defaults and by-reference flags, so callers using named arguments or
// references behave the same.

declare(strict_types=1);

namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

final class RegistrationTest extends TestCase
{
    /**
     * Yioop's signatures: "&name" is by reference, "name=true" has that
     * default.
     */
    private const SIGNATURES = [
        'packPosting' => ['doc_index', 'position_list', 'delta=true'],
        'unpackPosting' => ['posting', '&offset', 'dedelta=true'],
        'unpackListModified9' => ['encoded_list'],
        'deDeltaList' => ['&delta_list'],
        'docIndexModified9' => ['encoded_list'],
        'unpackInt' => ['str'],
        'deltaList' => ['list'],
        'encodeModified9' => ['list'],
        'decodeModified9' => ['input_string', '&offset'],
        'nextPostString' => ['&input_string', '&offset'],
        'addDocIndexPostings' => ['&postings', 'add_offset'],
        'decodeQueueWeightInfo' => ['weight_info', 'crawl_order'],
        'encodeQueueWeightInfo' => ['weight', 'depth', 'crawl_order'],
        'adjustWeightCallback' => ['weight_info', 'adjustment'],
    ];

    protected function setUp(): void
    {
        if (!extension_loaded('yioop')) {
            $this->markTestSkipped('yioop extension not loaded');
        }
    }

    public function testModuleName(): void
    {
        $this->assertSame('yioop', (new \ReflectionExtension('yioop'))->getName());
    }

    public function testFormatSetting(): void
    {
        $this->assertContains(ini_get('yioop.format'), Vectors::FORMATS);
    }

    /** Every function in SIGNATURES, global and where Yioop has it, namespaced. */
    public static function functionNames(): array
    {
        $rows = [];
        foreach (array_keys(self::SIGNATURES) as $fn) {
            $rows[$fn] = [$fn, $fn];
        }
        foreach (Vectors::NAMESPACED as $fn) {
            $name = Vectors::NS . '\\' . $fn;
            $rows[$name] = [$name, $fn];
        }
        return $rows;
    }

    /** @dataProvider functionNames */
    #[DataProvider('functionNames')]
    public function testFunctionIsRegistered(string $name, string $fn): void
    {
        $this->assertTrue(function_exists($name), "$name is not defined");
        $reflection = new \ReflectionFunction($name);
        $this->assertTrue($reflection->isInternal(), "$name is not internal");
        $this->assertSame('yioop', $reflection->getExtensionName());
        // Registered with Yioop's capitalisation (shows in errors/reflection).
        $this->assertSame($name, $reflection->getName());
    }

    /** @dataProvider functionNames */
    #[DataProvider('functionNames')]
    public function testSignature(string $name, string $fn): void
    {
        $this->assertTrue(function_exists($name), "$name is not defined");
        $reflection = new \ReflectionFunction($name);
        $this->assertFalse($reflection->isVariadic(), "$name is variadic");
        $this->assertSame(self::SIGNATURES[$fn], self::describe($reflection),
            "signature of $name");
    }

    /** Same spelling as SIGNATURES, read back from reflection. */
    private static function describe(\ReflectionFunction $reflection): array
    {
        $parameters = [];
        foreach ($reflection->getParameters() as $parameter) {
            $text = ($parameter->isPassedByReference() ? '&' : '')
                . $parameter->getName();
            if ($parameter->isOptional()) {
                $text .= '=' . ($parameter->isDefaultValueAvailable()
                    ? var_export($parameter->getDefaultValue(), true)
                    : '?');
            }
            $parameters[] = $text;
        }
        return $parameters;
    }

    public function testNoOtherNamespacedFunctions(): void
    {
        // get_defined_functions() reports names in lower case.
        $prefix = strtolower(Vectors::NS) . '\\';
        $found = array_values(array_filter(
            get_defined_functions()['internal'],
            static fn (string $name): bool => str_starts_with($name, $prefix)));
        $expected = array_map(
            static fn (string $fn): string => $prefix . strtolower($fn),
            Vectors::NAMESPACED);
        sort($found);
        sort($expected);
        $this->assertSame($expected, $found);
    }
}
