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
    /* The work directory's copies (Yioop loads app/... before src/...)   */
    /* ------------------------------------------------------------------ */

    /**
     * A synthetic tree whose Config.php points at a work directory outside
     * it, with the installer's layout there: a copy of every locale file
     * of the table under app/locale. Applying switches both copies, --check
     * reports the work directory's as the one loaded, a second run changes
     * nothing, a fresh copy from src/locale (the installer run again) is
     * switched by running again, and --revert restores every byte.
     */
    public function testWorkDirectoryCopiesAreSwitchedCheckedAndReverted():
        void
    {
        $root = "$this->dir/yioop";
        $work = "$this->dir/work";
        [$files, $hashes] = self::syntheticTree();
        $files['src/configs/Config.php'] = self::config(
            "nsdefine('WORK_DIRECTORY', '$work');");
        self::write($root, $files);
        $copies = self::installLocale($root, $work, $files);
        $this->assertNotSame([], $copies, 'the table has a locale class');
        // Without a Profile.php, Yioop's loader still looks in app/.
        file_put_contents("$work/Profile.php", "<?php\n");

        [$status, $out] = $this->tool($root, [], $hashes);
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString("Work directory: $work "
            . "(src/configs/Config.php; its Profile.php is there)", $out);
        $switched = [];
        foreach ($copies as $file => $copy) {
            $switched[$file] = file_get_contents("$work/$copy");
            $this->assertSame(file_get_contents("$root/$file"),
                $switched[$file], "$copy is switched as $file is");
            $this->assertStringContainsString(' /* yioop-codec:method ',
                $switched[$file]);
            $this->assertLints("$work/$copy");
        }

        [$status, $out] = $this->tool($root, ['--check'], $hashes);
        $this->assertSame(0, $status, $out);
        foreach ($copies as $file => $copy) {
            $loaded = self::block($out, "$work/$copy");
            $this->assertStringContainsString("the work directory's copy; "
                . "Yioop loads it", $loaded);
            $this->assertStringContainsString('methods switched by', $loaded);
            foreach (SwitchTable::byFile()[$file] as $m) {
                $this->assertMatchesRegularExpression('~^' . $m->method
                    . ' +native( when|$)~m', $loaded);
            }
            $tree = self::block($out, "$root/$file");
            $this->assertStringContainsString("not loaded: Yioop loads the "
                . "work directory's", $tree);
            $this->assertStringNotContainsString('native', $tree);
        }
        foreach (array_diff_key(SwitchTable::byFile(), $copies) as $file
            => $methods) {
            $this->assertStringContainsString("Yioop loads it: the work "
                . "directory has none", self::block($out, "$root/$file"));
        }

        [$status, $out] = $this->tool($root, [], $hashes);
        $this->assertSame(0, $status, $out);
        foreach ($copies as $file => $copy) {
            $this->assertSame($switched[$file],
                file_get_contents("$work/$copy"));
        }
        $this->assertSame(2 * count($copies), substr_count($out,
            "Tokenizer.php: already switched"));

        // The installer's copy run again: Yioop's original over the switch.
        foreach ($copies as $file => $copy) {
            file_put_contents("$work/$copy", $files[$file]);
        }
        [, $out] = $this->tool($root, ['--check'], $hashes);
        foreach ($copies as $file => $copy) {
            $loaded = self::block($out, "$work/$copy");
            $this->assertStringContainsString('not switched (Yioop', $loaded);
            $this->assertStringNotContainsString('native', $loaded);
        }
        [$status, $out] = $this->tool($root, [], $hashes);
        $this->assertSame(0, $status, $out);
        foreach ($copies as $file => $copy) {
            $this->assertSame($switched[$file],
                file_get_contents("$work/$copy"));
        }

        [$status, $out] = $this->tool($root, ['--revert'], $hashes);
        $this->assertSame(0, $status, $out);
        $this->assertUnchanged($root, $files);
        $this->assertUnchanged($work, array_combine($copies,
            array_intersect_key($files, $copies)));
    }

    /**
     * A work directory copy whose code is not Yioop's (a site's own
     * Tokenizer) stays on PHP and --check says so, while the tree's copy is
     * switched; --revert leaves it as it is.
     */
    public function testWorkDirectoryCopyNotYioopsStaysOnPhp(): void
    {
        $root = "$this->dir/yioop";
        $work = "$root/work_directory"; // Yioop's default: no define
        [$files, $hashes] = self::syntheticTree();
        self::write($root, $files);
        $copies = self::installLocale($root, $work, $files);
        $own = [];
        foreach ($copies as $file => $copy) {
            $own[$copy] = str_replace('return "php:', 'return "site:',
                $files[$file]);
            file_put_contents("$work/$copy", $own[$copy]);
        }

        [$status, $out] = $this->tool($root, [], $hashes);
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString("Work directory: $work (Yioop's "
            . "default; no Profile.php in it", $out);
        $this->assertStringContainsString('no method recognised; left '
            . 'unchanged', $out);
        [$status, $out] = $this->tool($root, ['--check'], $hashes);
        $this->assertSame(0, $status, $out);
        foreach ($copies as $file => $copy) {
            $this->assertSame($own[$copy], file_get_contents("$work/$copy"));
            $this->assertFileDoesNotExist("$work/$copy.yioop-codec.bak");
            $this->assertStringContainsString(' /* yioop-codec:method ',
                file_get_contents("$root/$file"));
            $loaded = self::block($out, "$work/$copy");
            $this->assertStringContainsString('no method recognised',
                $loaded);
            foreach (SwitchTable::byFile()[$file] as $m) {
                $this->assertMatchesRegularExpression('~^' . $m->method
                    . ' +PHP \(not recognised: its code differs~m', $loaded);
            }
        }
        [$status, $out] = $this->tool($root, ['--revert'], $hashes);
        $this->assertSame(0, $status, $out);
        $this->assertUnchanged($root, array_diff_key($files, $copies)
            + array_intersect_key($files, $copies));
        foreach ($own as $copy => $code) {
            $this->assertSame($code, file_get_contents("$work/$copy"));
        }
    }

    /**
     * Which work directory: --work-dir when given (a missing one refused,
     * nothing changed), else LocalConfig.php's define before Config.php's,
     * else work_directory in the tree; one that is not there is reported
     * and the tree is switched all the same.
     */
    public function testWorkDirectoryNamedOrReadFromTheTree(): void
    {
        $root = "$this->dir/yioop";
        [$files, $hashes] = self::syntheticTree();
        $elsewhere = "$this->dir/elsewhere";
        $files['src/configs/Config.php'] = self::config(
            "if (!nsdefined('WORK_DIRECTORY')) {\n"
            . "nsdefine('WORK_DIRECTORY', '$this->dir/missing');\n}");
        self::write($root, $files);
        $copies = self::installLocale($root, $elsewhere, $files);
        $local = "$this->dir/local";
        self::installLocale($root, $local, $files);

        // Config.php's directory is not there: reported, tree switched.
        [$status, $out] = $this->tool($root, ['--check'], $hashes);
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString("Work directory: $this->dir/missing"
            . " (src/configs/Config.php): is not a directory; only the "
            . "tree's files", $out);
        $this->assertStringContainsString("Yioop loads it, unless the work "
            . "directory, unknown here, has one", $out);

        // Named but not there: refused before anything is changed.
        [$status, $out] = $this->tool($root, ["--work-dir=$this->dir/none"],
            $hashes);
        $this->assertSame(1, $status, $out);
        $this->assertStringContainsString("--work-dir $this->dir/none is not"
            . " a directory", $out);
        $this->assertUnchanged($root, $files);

        // Named: that one is switched, the one LocalConfig.php names is not.
        $files['src/configs/LocalConfig.php'] = "<?php\nnamespace "
            . "seekquarry\\yioop\\configs;\n\n"
            . "define('seekquarry\\yioop\\configs\\WORK_DIRECTORY', '"
            . dirname($local) . "' . '/' . \"local\");\n";
        self::write($root, $files);
        [$status, $out] = $this->tool($root, ["--work-dir=$elsewhere/"],
            $hashes);
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString("Work directory: $elsewhere "
            . "(--work-dir;", $out);
        foreach ($copies as $file => $copy) {
            $this->assertStringContainsString(' /* yioop-codec:method ',
                file_get_contents("$elsewhere/$copy"));
            $this->assertSame($files[$file], file_get_contents("$local/$copy"));
        }

        // Read from LocalConfig.php, which Yioop reads before Config.php.
        [$status, $out] = $this->tool($root, [], $hashes);
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString("Work directory: $local "
            . "(src/configs/LocalConfig.php;", $out);
        foreach ($copies as $file => $copy) {
            $this->assertSame(file_get_contents("$elsewhere/$copy"),
                file_get_contents("$local/$copy"));
        }
        [$status, $out] = $this->tool($root, ['--revert',
            "--work-dir=$elsewhere"], $hashes);
        $this->assertSame(0, $status, $out);
        $this->assertUnchanged($elsewhere, array_combine($copies,
            array_intersect_key($files, $copies)));
        [$status, $out] = $this->tool($root, ['--revert'], $hashes);
        $this->assertSame(0, $status, $out);
        $this->assertUnchanged($root, $files);
        $this->assertUnchanged($local, array_combine($copies,
            array_intersect_key($files, $copies)));

        // An expression the tool does not work out: reported, not guessed.
        file_put_contents("$root/src/configs/LocalConfig.php", "<?php\n"
            . "nsdefine('WORK_DIRECTORY', getenv('YIOOP_WORK'));\n");
        [$status, $out] = $this->tool($root, ['--check'], $hashes);
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString('Work directory: (unknown) '
            . '(src/configs/LocalConfig.php): defines WORK_DIRECTORY by an '
            . 'expression this tool does not evaluate', $out);
    }

    /**
     * The tool as shipped on a copy of a real Yioop tree (YIOOP_DIR) with
     * its bundled work directory, which Config.php names by Yioop's default:
     * the en_US Tokenizer Yioop loads from there is switched, reported,
     * switched again after the installer's copy, and reverted.
     */
    public function testLiveYioopWorkDirectoryTokenizer(): void
    {
        $dir = getenv('YIOOP_DIR') ?: null;
        if ($dir === null) {
            $this->markTestSkipped('Set YIOOP_DIR to a Yioop 2021 checkout '
                . 'to switch a copy of its work directory\'s Tokenizer.');
        }
        $tokenizer = 'src/locale/en_US/resources/Tokenizer.php';
        $copy = 'work_directory/app/locale/en_US/resources/Tokenizer.php';
        $files = [];
        foreach (array_merge([FunctionPatch::UTILITY,
            'src/configs/Config.php', $copy],
            array_keys(SwitchTable::byFile())) as $file) {
            $this->assertFileExists("$dir/$file");
            $files[$file] = file_get_contents("$dir/$file");
        }
        $root = "$this->dir/yioop";
        self::write($root, $files);
        $methods = SwitchTable::byFile()[$tokenizer];

        [$status, $out] = $this->tool($root);
        $this->assertSame(0, $status, $out);
        $this->assertSame(count($methods), substr_count(
            file_get_contents("$root/$copy"), 'yioop-codec:method'));
        $this->assertLints("$root/$copy");
        [$status, $out] = $this->tool($root, ['--check']);
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString("Work directory: $root/"
            . "work_directory (src/configs/Config.php", $out);
        $loaded = self::block($out, "$root/$copy");
        $this->assertStringContainsString("Yioop loads it", $loaded);
        foreach ($methods as $m) {
            $this->assertMatchesRegularExpression('~^' . $m->method
                . ' +native( when|$)~m', $loaded);
        }
        copy("$root/$tokenizer.yioop-codec.bak", "$root/$copy");
        [, $out] = $this->tool($root, ['--check']);
        $this->assertStringNotContainsString('native',
            self::block($out, "$root/$copy"));
        [$status, $out] = $this->tool($root);
        $this->assertSame(0, $status, $out);
        $this->assertSame(file_get_contents("$root/$tokenizer"),
            file_get_contents("$root/$copy"));
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

    /** A Config.php in Yioop's namespace whose body is $body. */
    private static function config(string $body): string
    {
        return "<?php\nnamespace seekquarry\\yioop\\configs;\n\n$body\n";
    }

    /**
     * Copies the table's src/locale files of $files to $work/app/locale,
     * as Yioop's installer does; returns tree file => path in $work.
     * @return array<string, string>
     */
    private static function installLocale(string $root, string $work,
        array $files): array
    {
        $copies = [];
        foreach (array_keys(SwitchTable::byFile()) as $file) {
            if (str_starts_with($file, 'src/locale/')) {
                $copies[$file] = 'app/' . substr($file, 4);
            }
        }
        self::write($work, array_combine($copies,
            array_intersect_key($files, $copies)));
        return $copies;
    }

    /**
     * The part of --check's output $out about the file at $path: from its
     * "NAME: $path" line to the next blank line.
     */
    private static function block(string $out, string $path): string
    {
        $at = strpos($out, basename($path) . ": $path\n");
        self::assertNotFalse($at, "no report on $path in:\n$out");
        $end = strpos($out, "\n\n", $at);
        return substr($out, $at, $end === false ? null : $end - $at);
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
