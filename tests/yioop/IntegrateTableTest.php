<?php
// Tests that follow from the switch table of php/yioop-integrate.php
// (php/integrate/SwitchTable.php): every class and method in it, on
// synthetic Yioop files that declare them, and with YIOOP_DIR on a copy of
// a real Yioop tree. A class or method added to the table is tested here
// without a change to this file. IntegrateTest holds the tests of the
// tool's details (guards at work, hand edits, line ends, refusals).

declare(strict_types=1);

namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;
use YioopCodec\Integrate\FunctionPatch;
use YioopCodec\Integrate\Guards;
use YioopCodec\Integrate\SwitchedMethod;
use YioopCodec\Integrate\SwitchTable;

require_once __DIR__ . '/../../php/yioop-integrate.php';

final class IntegrateTableTest extends TestCase
{
    private const TOOL = __DIR__ . '/../../php/yioop-integrate.php';

    /** Temp directory of a test: the Yioop tree in yioop/, the wrapper. */
    private string $dir;

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/yioop-integrate-table-'
            . bin2hex(random_bytes(6));
        mkdir("$this->dir/yioop", 0777, true);
    }

    protected function tearDown(): void
    {
        exec('rm -rf ' . escapeshellarg($this->dir));
    }

    public function testEntriesAreWellFormed(): void
    {
        $count = 0;
        foreach (SwitchTable::CLASSES as $class => $entry) {
            $this->assertMatchesRegularExpression('~^src/[\w/]+\.php$~',
                $entry['file'], $class);
            $this->assertNotSame('', $entry['namespace'], $class);
            $this->assertNotSame('', $entry['native'], $class);
            foreach ($entry['methods'] as $method => $row) {
                $this->assertMatchesRegularExpression('~^[0-9a-f]{16}$~',
                    $row[0], "$class::$method");
                $this->assertArrayHasKey($row[1], Guards::FORMS,
                    "$class::$method");
                $count++;
            }
        }
        $this->assertSame($count, count(array_merge(...array_values(
            SwitchTable::byFile()))));
    }

    /**
     * Synthetic files with the table's classes and methods: every method
     * switched with its guard, reported, idempotent, and reverted to the
     * original bytes.
     */
    public function testSyntheticTreeFollowsTheTable(): void
    {
        $root = "$this->dir/yioop";
        [$files, $hashes] = self::syntheticTree();
        self::write($root, $files);

        [$status, $out] = $this->tool($root, [], $hashes);
        $this->assertSame(0, $status, $out);
        $switched = [];
        foreach (SwitchTable::byFile() as $file => $methods) {
            $switched[$file] = file_get_contents("$root/$file");
            foreach ($methods as $m) {
                $this->assertSame(1, substr_count($switched[$file],
                    Guards::statement($m, ['$value'])
                    . " /* yioop-codec:method {$m->method} */"), $m->method);
            }
            $this->assertLints("$root/$file");
        }

        [$status, $out] = $this->tool($root, [], $hashes);
        $this->assertSame(0, $status, $out);
        foreach ($switched as $file => $code) {
            $this->assertStringContainsString(basename($file)
                . ': already switched', $out);
            $this->assertSame($code, file_get_contents("$root/$file"));
        }

        [$status, $out] = $this->tool($root, ['--check'], $hashes);
        $this->assertSame(0, $status, $out);
        $this->assertStringNotContainsString('BROKEN', $out);
        foreach (array_merge(...array_values(SwitchTable::byFile())) as $m) {
            $this->assertMatchesRegularExpression('~^' . $m->method
                . ' +native( when|$)~m', $out);
        }

        [$status, $out] = $this->tool($root, ['--revert'], $hashes);
        $this->assertSame(0, $status, $out);
        $this->assertUnchanged($root, $files);
    }

    /**
     * A method the native code reproduces ('reads') that is not Yioop's
     * leaves every method of its class on Yioop's PHP, and --check says
     * why; the other classes are switched.
     */
    public function testChangedReadKeepsItsClassOnPhp(): void
    {
        $root = "$this->dir/yioop";
        [$files, $hashes] = self::syntheticTree();
        $read = null;
        foreach (SwitchTable::byFile() as $file => $methods) {
            foreach ($methods as $m) {
                if ($m->reads !== [] && $read === null) {
                    $read = [$file, $m->class, array_key_first($m->reads)];
                }
            }
        }
        $this->assertNotNull($read, 'the table has a class with reads');
        [$file, $class, $method] = $read;
        $files[$file] = str_replace("\"php:$method\"", "\"changed\"",
            $files[$file]);
        self::write($root, $files);

        [$status, $out] = $this->tool($root, [], $hashes);
        $this->assertSame(0, $status, $out);
        $switched = file_get_contents("$root/$file");
        foreach (SwitchTable::byFile()[$file] as $m) {
            $this->assertSame($m->class === $class ? 0 : 1, substr_count(
                $switched, " /* yioop-codec:method {$m->method} */"),
                "{$m->class}::{$m->method}");
        }
        [, $out] = $this->tool($root, ['--check'], $hashes);
        $this->assertStringContainsString(
            "the native code reproduces $method, which is not recognised",
            $out);
    }

    /**
     * The tool as shipped on a copy of a real Yioop tree (YIOOP_DIR): the
     * table's hashes recognise every method of it.
     */
    public function testLiveYioopTreeSwitchesEveryTableMethod(): void
    {
        $dir = getenv('YIOOP_DIR') ?: null;
        if ($dir === null) {
            $this->markTestSkipped('Set YIOOP_DIR to a Yioop 2021 checkout '
                . 'to switch a copy of its files.');
        }
        $files = [];
        foreach (array_merge([FunctionPatch::UTILITY],
            array_keys(SwitchTable::byFile())) as $file) {
            $this->assertFileExists("$dir/$file");
            $files[$file] = file_get_contents("$dir/$file");
        }
        $root = "$this->dir/yioop";
        self::write($root, $files);

        [$status, $out] = $this->tool($root);
        $this->assertSame(0, $status, $out);
        foreach (SwitchTable::byFile() as $file => $methods) {
            $this->assertSame(count($methods), substr_count(
                file_get_contents("$root/$file"), 'yioop-codec:method'));
            $this->assertLints("$root/$file");
        }
        [$status, $out] = $this->tool($root, ['--check']);
        $this->assertSame(0, $status, $out);
        foreach (array_merge(...array_values(SwitchTable::byFile())) as $m) {
            $this->assertMatchesRegularExpression('~^' . $m->method
                . ' +native( when|$)~m', $out);
        }
        [$status, $out] = $this->tool($root, ['--revert']);
        $this->assertSame(0, $status, $out);
        $this->assertUnchanged($root, $files);
    }

    /* ------------------------------------------------------------------ */
    /* Fixtures                                                           */
    /* ------------------------------------------------------------------ */

    /** The smallest Utility.php the tool recognises (the 2019 line). */
    private static function utility(): string
    {
        $code = "<?php\nnamespace " . FunctionPatch::NS . ";\n\n";
        $unguarded = array_merge(FunctionPatch::GLOBAL_ONLY,
            FunctionPatch::PHP_ONLY);
        foreach ($unguarded as $name) {
            $code .= self::declaration($name, '');
        }
        $code .= "if (!extension_loaded(\"yioop\")) {\n";
        foreach (array_diff(FunctionPatch::required(), $unguarded) as
            $name) {
            $code .= self::declaration($name, '');
        }
        return $code . "}\n";
    }

    /**
     * Synthetic Yioop files for the whole table, and the hashes of their
     * methods (Class::method => hash), switched ones and 'reads'.
     * @return array{0: array<string, string>, 1: array<string, string>}
     */
    private static function syntheticTree(): array
    {
        $files = ['src/library/Utility.php' => self::utility()];
        $hashes = [];
        foreach (SwitchTable::byFile() as $file => $methods) {
            $files[$file] = self::classFile($methods);
            foreach ($methods as $m) {
                $all = \YioopIntegrate::methodHashes($files[$file],
                    $m->class);
                foreach (array_merge([$m->method], array_keys($m->reads))
                    as $name) {
                    $hashes["{$m->class}::$name"] = $all[strtolower($name)];
                }
            }
        }
        return [$files, $hashes];
    }

    /**
     * A file declaring the classes of $methods in their namespace, each
     * method, and each method their native code reproduces, with a body of
     * its own.
     * @param SwitchedMethod[] $methods
     */
    private static function classFile(array $methods): string
    {
        $classes = [];
        foreach ($methods as $m) {
            $classes[$m->class][$m->method] = self::declaration($m->method,
                '    ');
            foreach (array_keys($m->reads) as $read) {
                $classes[$m->class][$read] = self::declaration($read, '    ');
            }
        }
        $code = "<?php\nnamespace {$methods[0]->namespace};\n";
        foreach ($classes as $class => $bodies) {
            $code .= "\nclass $class\n{\n" . implode('', $bodies) . "}\n";
        }
        return $code;
    }

    private static function declaration(string $name, string $indent): string
    {
        return $indent . ($indent === '' ? '' : 'public ')
            . "function $name(\$value = null)\n$indent{\n"
            . "$indent    return \"php:$name\";\n$indent}\n";
    }

    /** @param array<string, string> $files path in $root => content */
    private static function write(string $root, array $files): void
    {
        foreach ($files as $file => $code) {
            @mkdir(dirname("$root/$file"), 0777, true);
            file_put_contents("$root/$file", $code);
        }
    }

    /**
     * Runs the tool on $root in a child php; $hashes replace the table's.
     * Returns [exit status, stdout and stderr].
     */
    private function tool(string $root, array $options = [],
        array $hashes = []): array
    {
        $wrapper = "$this->dir/tool.php";
        file_put_contents($wrapper, "<?php\nrequire "
            . var_export(realpath(self::TOOL), true) . ";\n"
            . "YioopIntegrate::\$shard_hashes = " . var_export($hashes, true)
            . ";\nexit(YioopIntegrate::main(\$argv));\n");
        return self::php(array_merge([$wrapper, $root], $options));
    }

    /** Runs PHP_BINARY with $args; [exit status, stdout and stderr]. */
    private static function php(array $args): array
    {
        $process = proc_open(array_merge([PHP_BINARY, '-d',
            'display_errors=stderr'], $args), [1 => ['pipe', 'w'],
            2 => ['pipe', 'w']], $pipes);
        self::assertIsResource($process);
        $out = stream_get_contents($pipes[1]) . stream_get_contents(
            $pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        return [proc_close($process), $out];
    }

    private function assertLints(string $path): void
    {
        [$status, $out] = self::php(['-n', '-l', $path]);
        $this->assertSame(0, $status, "php -l $path: $out");
    }

    /** Every file of $files as it was, and no backup left. */
    private function assertUnchanged(string $root, array $files): void
    {
        foreach ($files as $file => $code) {
            $this->assertSame($code, file_get_contents("$root/$file"), $file);
            $this->assertFileDoesNotExist("$root/$file.yioop-codec.bak");
        }
    }
}
