<?php
// Tests php/yioop-integrate.php, the tool that edits a Yioop checkout's
// src/library/Utility.php so its calls reach the extension's native codec.
//
// Every test builds its own small synthetic Yioop-shaped tree in the system
// temp directory (a namespace line, the codec function names with Yioop's
// signatures and trivial bodies that return "php:NAME", the
// extension_loaded guard block, a stub configs/Config.php) and runs the
// tool in a child php. Nothing here needs the extension, except
// testForwardersReachNativeFunctions, which skips when no php with the
// extension can be started.

declare(strict_types=1);

namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

final class IntegrateTest extends TestCase
{
    private const TOOL = __DIR__ . '/../php/yioop-integrate.php';
    private const NS = 'seekquarry\\yioop\\library';

    /** Unconditional in Yioop; wrapped and forwarded by the tool. */
    private const FORWARDED = ['packPosting', 'unpackPosting',
        'addDocIndexPostings', 'deltaList', 'deDeltaList', 'encodeModified9',
        'nextPostString', 'decodeModified9'];
    /** Guarded in Yioop; the extension registers them in the namespace. */
    private const GUARDED_2015 = ['unpackListModified9', 'docIndexModified9',
        'unpackInt'];
    private const QUEUE = ['decodeQueueWeightInfo', 'encodeQueueWeightInfo',
        'adjustWeightCallback'];

    /** @var string[] temp directories to remove */
    private array $dirs = [];

    protected function tearDown(): void
    {
        foreach ($this->dirs as $dir) {
            self::removeTree($dir);
        }
        $this->dirs = [];
    }

    /* ------------------------------------------------------------------ */
    /* Fixtures                                                           */
    /* ------------------------------------------------------------------ */

    /**
     * Synthetic Utility.php. $line is "2015" or "2019"; $change lets a test
     * damage one aspect of the shape.
     */
    private static function utility(string $line, array $change = []): string
    {
        $plus = $line === '2015';
        $guarded = ['unpackListModified9' => '$encoded_list',
            'docIndexModified9' => '$encoded_list'];
        if ($line === '2019') {
            $guarded += ['decodeQueueWeightInfo' => '$weight_info, '
                . '$crawl_order', 'encodeQueueWeightInfo' => '$weight, '
                . '$depth, $crawl_order', 'adjustWeightCallback' =>
                '$weight_info, $adjustment'];
        }
        $unpack_int = "function unpackInt(\$str)\n{\n"
            . "    return \"php:unpackInt\";\n}\n";
        $namespace = $change['namespace']
            ?? "namespace seekquarry\\yioop\\library;\n";
        $code = "<?php\n"
            . "/* Synthetic stand-in for a Yioop Utility.php, for tests. */\n"
            . $namespace . "\n"
            . "use seekquarry\\yioop\\configs as C;\n\n"
            . "require_once __DIR__ . \"/../configs/Config.php\";\n\n"
            . "function helperBefore(\$x)\n{\n    return \$x + 1;\n}\n"
            . "/**\n * Pack a posting (test double).\n"
            . " * @param int \$doc_index\n */\n"
            . "function packPosting(\$doc_index, \$position_list, "
            . "\$delta = true)\n{\n"
            . "    \$delta_list = (array)\$position_list;\n"
            . ($plus ? "    if (isset(\$delta_list[0])) {\n"
                . "        \$delta_list[0]++;\n    }\n" : "")
            . "    return \"php:packPosting\";\n}\n"
            . "/** Unpack a posting (test double). */\n"
            . "function unpackPosting(\$posting, &\$offset, "
            . "\$dedelta = true)\n{\n"
            . "    \$offset += 4;\n    \$delta_list = [1];\n"
            . ((!empty($change['no_minus']) || !$plus) ? ""
                : "    if (isset(\$delta_list[0])) {\n"
                . "        \$delta_list[0]--;\n    }\n")
            . "    return \"php:unpackPosting\";\n}\n"
            . "function addDocIndexPostings(&\$postings, \$add_offset)\n{\n"
            . "    \$postings .= \"\";\n"
            . "    return \"php:addDocIndexPostings\";\n}\n"
            // header split over lines, brace on the same line: tokenizer,
            // not line patterns, must find it
            . "function deltaList(\n    \$list\n) {\n"
            . "    return \"php:deltaList\";\n}\n"
            . ($change['deDeltaList'] ?? "/**\n * In place (test double).\n"
                . " */\nfunction deDeltaList(&\$delta_list)\n{\n"
                . "    \$delta_list = [];\n"
                . "    return \"php:deDeltaList\";\n}\n")
            . "\n/** Holder class; its method names must be ignored. */\n"
            . "class Mod9Holder\n{\n"
            . "    public static \$TABLE = [0, 24, 12];\n"
            . "    public function packPosting() { return {$line}; }\n}\n"
            . "function encodeModified9(\$list)\n{\n"
            . "    \$f = function (\$x) { return \$x; };\n"
            . "    return \"php:encodeModified9\";\n}\n"
            . "function packListModified9(\$continue_bits, \$cnt, "
            . "\$pack_list)\n{\n    return \"php:packListModified9\";\n}\n"
            . "function nextPostString(&\$input_string, &\$offset)\n{\n"
            . "    \$offset += 4;\n    return \"php:nextPostString\";\n}\n"
            . "function decodeModified9(\$input_string, &\$offset)\n{\n"
            . "    return \"php:\" . \"decodeModified9\";\n}\n"
            . ($change['extra'] ?? "")
            . (!empty($change['unpackInt_outside']) ? $unpack_int : "")
            . "\nif (!extension_loaded(\"yioop\") ) {\n";
        foreach ($guarded as $name => $params) {
            $code .= "/** $name (test double) */\n"
                . "function $name($params)\n{\n"
                . "    return \"php:$name\";\n}\n";
        }
        $code .= (empty($change['unpackInt_outside']) ? $unpack_int : "")
            . "}// end extension_loaded check\n\n"
            . "function packInt(\$my_int)\n{\n"
            . "    return \"php:packInt\";\n}\n";
        if (isset($change['drop'])) {
            $code = preg_replace('~function ' . $change['drop'] . '\(~',
                'function renamed_' . $change['drop'] . '(', $code);
        }
        return $code;
    }

    /** Creates a tree with $utility as src/library/Utility.php. */
    private function tree(string $utility): string
    {
        $root = $this->tempDir();
        mkdir("$root/src/library", 0777, true);
        mkdir("$root/src/configs", 0777, true);
        file_put_contents("$root/src/configs/Config.php", "<?php\n"
            . "namespace seekquarry\\yioop\\configs;\n\n"
            . "const NS_LIB = \"seekquarry\\\\yioop\\\\library\\\\\";\n");
        file_put_contents("$root/src/library/Utility.php", $utility);
        return $root;
    }

    private function tempDir(): string
    {
        $dir = sys_get_temp_dir() . '/yioop-integrate-test-'
            . bin2hex(random_bytes(6));
        mkdir($dir, 0777, true);
        $this->dirs[] = $dir;
        return $dir;
    }

    private static function removeTree(string $dir): void
    {
        if (!is_dir($dir) || is_link($dir)) {
            @unlink($dir);
            return;
        }
        foreach (scandir($dir) ?: [] as $entry) {
            if ($entry !== '.' && $entry !== '..') {
                self::removeTree("$dir/$entry");
            }
        }
        @rmdir($dir);
    }

    private static function utilityPath(string $root): string
    {
        return "$root/src/library/Utility.php";
    }

    /* ------------------------------------------------------------------ */
    /* Child processes                                                    */
    /* ------------------------------------------------------------------ */

    /**
     * Runs PHP_BINARY with $args; returns [exit status, stdout, stderr].
     * PHP's own warnings go to stderr so they cannot spoil parsed output.
     * @param string[] $args
     */
    private static function php(array $args): array
    {
        $process = proc_open(array_merge([PHP_BINARY, '-d',
            'display_errors=stderr'], $args),
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']],
            $pipes);
        self::assertIsResource($process);
        fclose($pipes[0]);
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        return [proc_close($process), (string)$out, (string)$err];
    }

    /**
     * php flags for a child that surely has no yioop extension but does
     * have the tokenizer the tool needs.
     * @return string[]
     */
    private static function bareFlags(): array
    {
        static $flags = null;
        if ($flags === null) {
            [, $out] = self::php(['-n', '-r',
                'echo function_exists("token_get_all") ? 1 : 0;']);
            $flags = trim($out) === '1' ? ['-n']
                : ['-n', '-d', 'extension=tokenizer'];
        }
        return $flags;
    }

    /**
     * Runs the tool on $root with $options; returns [status, stdout+stderr].
     * $flags are php flags (default: whatever php.ini says).
     */
    private static function tool(string $root, array $options = [],
        array $flags = []): array
    {
        [$status, $out, $err] = self::php(array_merge($flags,
            [self::TOOL, $root], $options));
        return [$status, $out . $err];
    }

    /** php -l in a bare child. */
    private function assertLints(string $path): void
    {
        [$status, $out, $err] = self::php(['-n', '-l', $path]);
        $this->assertSame(0, $status, "php -l $path: $out$err");
    }

    /**
     * Requires $utility in a child php and reports, per namespaced codec
     * function: "missing", "internal", or for a PHP function what calling
     * it returned (the fixture's PHP bodies return "php:NAME"; a forwarder
     * passes the dummy arguments on to native code, which may throw).
     */
    private function probe(string $utility, array $flags): array
    {
        $script = '<?php
            require $argv[1];
            $ns = "seekquarry\\\\yioop\\\\library\\\\";
            $names = json_decode($argv[2], true);
            $report = ["extension" => extension_loaded("yioop")];
            foreach ($names as $name) {
                $f = $ns . $name;
                if (!function_exists($f)) {
                    $report[$name] = "missing";
                } elseif ((new ReflectionFunction($f))->isInternal()) {
                    $report[$name] = "internal";
                } else {
                    $r = new ReflectionFunction($f);
                    $args = [];
                    foreach ($r->getParameters() as $p) {
                        $args[] = $p->isDefaultValueAvailable()
                            ? $p->getDefaultValue() : "1";
                    }
                    try {
                        $report[$name] = @$f(...$args);
                    } catch (Throwable $e) {
                        $report[$name] = "threw " . get_class($e);
                    }
                }
            }
            echo json_encode($report);';
        $file = $this->tempDir() . '/probe.php';
        file_put_contents($file, $script);
        $names = array_merge(self::FORWARDED, self::GUARDED_2015,
            self::QUEUE, ['packListModified9']);
        [$status, $out, $err] = self::php(array_merge($flags,
            [$file, $utility, json_encode($names)]));
        $this->assertSame(0, $status, "probe failed: $out$err");
        $report = json_decode($out, true);
        $this->assertIsArray($report, "probe output: $out$err");
        return $report;
    }

    /* ------------------------------------------------------------------ */
    /* Tests                                                              */
    /* ------------------------------------------------------------------ */

    public static function lines(): array
    {
        return ['2015 line' => ['2015'], '2019 line' => ['2019']];
    }

    /** @dataProvider lines */
    public function testApplyIsIdempotentAndRevertRestoresBytes(
        string $line): void
    {
        $original = self::utility($line);
        $root = $this->tree($original);
        $path = self::utilityPath($root);
        chmod($path, 0640);

        [$status, $out] = self::tool($root);
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString("Yioop line:   $line", $out);
        $this->assertStringContainsString("yioop.format=$line", $out);
        $edited = file_get_contents($path);
        $this->assertNotSame($original, $edited);
        $this->assertSame($original,
            file_get_contents($path . '.yioop-codec.bak'));
        $this->assertSame(0640, fileperms($path) & 0777);
        $this->assertLints($path);

        // second run: nothing more changes
        [$status, $out] = self::tool($root);
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString('Already integrated', $out);
        $this->assertSame($edited, file_get_contents($path));

        // --check changes nothing either
        [$status, $out] = self::tool($root, ['--check'], self::bareFlags());
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString('integrated by yioop-integrate',
            $out);
        $this->assertSame($edited, file_get_contents($path));

        [$status, $out] = self::tool($root, ['--revert']);
        $this->assertSame(0, $status, $out);
        $this->assertSame($original, file_get_contents($path));
        $this->assertFileDoesNotExist($path . '.yioop-codec.bak');

        [$status, $out] = self::tool($root, ['--revert']);
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString('nothing to revert', $out);
        $this->assertSame($original, file_get_contents($path));
    }

    /** @dataProvider lines */
    public function testEditWrapsOnlyTheGloballyRegisteredFunctions(
        string $line): void
    {
        $root = $this->tree(self::utility($line));
        [$status, $out] = self::tool($root);
        $this->assertSame(0, $status, $out);
        $edited = file_get_contents(self::utilityPath($root));
        foreach (self::FORWARDED as $name) {
            $this->assertSame(1, substr_count($edited,
                "yioop-codec:begin $name\n"), $name);
            $this->assertSame(1, substr_count($edited,
                "yioop-codec:native $name */"), $name);
        }
        foreach (array_merge(self::GUARDED_2015, self::QUEUE,
            ['packListModified9', 'packInt', 'helperBefore']) as $name) {
            $this->assertStringNotContainsString("yioop-codec:begin $name\n",
                $edited);
        }
        // by-reference parameters stay by reference, defaults are kept,
        // a multi-line header is carried over as written
        $this->assertStringContainsString("function nextPostString("
            . "&\$input_string, &\$offset)\n{\n    return "
            . "\\nextPostString(\$input_string, \$offset);\n}", $edited);
        $this->assertStringContainsString("function unpackPosting(\$posting,"
            . " &\$offset, \$dedelta = true)\n{\n    return "
            . "\\unpackPosting(\$posting, \$offset, \$dedelta);", $edited);
        $this->assertStringContainsString("function deltaList(\n    \$list\n"
            . ")\n{\n    return \\deltaList(\$list);", $edited);
        // the class method of the same name is untouched
        $this->assertStringContainsString("    public function packPosting()"
            . " { return $line; }\n}\n/* yioop-codec:begin encodeModified9\n",
            $edited);
    }

    /** @dataProvider lines */
    public function testPhpDefinitionsStillDefinedWithoutExtension(
        string $line): void
    {
        $root = $this->tree(self::utility($line));
        [$status, $out] = self::tool($root);
        $this->assertSame(0, $status, $out);
        $report = $this->probe(self::utilityPath($root), ['-n']);
        $this->assertFalse($report['extension']);
        $names = array_merge(self::FORWARDED, self::GUARDED_2015,
            ['packListModified9'], $line === '2019' ? self::QUEUE : []);
        foreach ($names as $name) {
            $this->assertSame("php:$name", $report[$name], $name);
        }
        if ($line === '2015') {
            foreach (self::QUEUE as $name) {
                $this->assertSame('missing', $report[$name], $name);
            }
        }
    }

    /** @dataProvider lines */
    public function testCheckWithoutExtensionReportsPhp(string $line): void
    {
        $root = $this->tree(self::utility($line));
        $path = self::utilityPath($root);
        $before = file_get_contents($path);
        [$status, $out] = self::tool($root, ['--check'], self::bareFlags());
        $this->assertSame(0, $status, $out);
        $this->assertSame($before, file_get_contents($path));
        $this->assertFileDoesNotExist($path . '.yioop-codec.bak');
        $this->assertStringContainsString('not integrated', $out);
        $this->assertStringContainsString('Extension:    not loaded', $out);
        $this->assertStringContainsString("yioop.format=$line", $out);
        foreach (self::FORWARDED as $name) {
            $this->assertMatchesRegularExpression(
                "~^$name +PHP \\(extension not loaded\\)$~m", $out);
        }
        $this->assertMatchesRegularExpression(
            '~^packListModified9 +PHP \(not provided by the extension\)$~m',
            $out);
        foreach (self::QUEUE as $name) {
            $this->assertMatchesRegularExpression($line === '2019'
                ? "~^$name +PHP \\(extension not loaded\\)$~m"
                : "~^$name +not declared by this tree~m", $out);
        }
    }

    public function testWindowsLineEndingsRoundTrip(): void
    {
        $original = str_replace("\n", "\r\n", self::utility('2019'));
        $root = $this->tree($original);
        $path = self::utilityPath($root);
        [$status, $out] = self::tool($root);
        $this->assertSame(0, $status, $out);
        $edited = file_get_contents($path);
        $this->assertSame(0, preg_match("~(?<!\r)\n~", $edited),
            'inserted text uses the file\'s line endings');
        $this->assertLints($path);
        [$status, $out] = self::tool($root);
        $this->assertSame(0, $status, $out);
        $this->assertSame($edited, file_get_contents($path));
        [$status, $out] = self::tool($root, ['--revert']);
        $this->assertSame(0, $status, $out);
        $this->assertSame($original, file_get_contents($path));
    }

    public function testNamespacedFunctionOutsideGuardIsGuardedOnly(): void
    {
        $original = self::utility('2015', ['unpackInt_outside' => true]);
        $root = $this->tree($original);
        $path = self::utilityPath($root);
        [$status, $out] = self::tool($root);
        $this->assertSame(0, $status, $out);
        $edited = file_get_contents($path);
        $this->assertStringContainsString("yioop-codec:begin unpackInt\n",
            $edited);
        $this->assertStringNotContainsString('yioop-codec:native unpackInt',
            $edited);
        $this->assertLints($path);
        $report = $this->probe($path, ['-n']);
        $this->assertSame('php:unpackInt', $report['unpackInt']);
        [$status, $out] = self::tool($root, ['--revert']);
        $this->assertSame(0, $status, $out);
        $this->assertSame($original, file_get_contents($path));
    }

    public static function unrecognisedUtilities(): array
    {
        $guarded_by_hand = "if (!extension_loaded('yioop')) {\n"
            . "function deDeltaList(&\$delta_list)\n{\n}\n}\n";
        return [
            'function missing' => [['drop' => 'nextPostString'],
                'not found in Utility.php: nextPostString'],
            'packListModified9 missing' => [['drop' => 'packListModified9'],
                'not found in Utility.php: packListModified9'],
            'other namespace' => [['namespace' =>
                "namespace somebody\\else;\n"], 'namespace'],
            'braced namespace' => [['namespace' =>
                "namespace seekquarry\\yioop\\library {}\n"
                . "namespace seekquarry\\yioop\\library;\n"], 'namespace'],
            'guarded by hand' => [['deDeltaList' => $guarded_by_hand],
                'modified by hand'],
            'declared twice' => [['extra' => "if (true) {\n"
                . "function deltaList(\$list)\n{\n}\n}\n"], 'deltaList'],
            'codec of neither line' => [['no_minus' => true],
                'neither the 2015 nor the 2019'],
            'does not parse' => [['extra' => "function broken(\n"],
                'does not parse'],
        ];
    }

    /** @dataProvider unrecognisedUtilities */
    public function testRefusesUnrecognisedUtility(array $change,
        string $message): void
    {
        $line = isset($change['no_minus']) ? '2015' : '2019';
        $original = self::utility($line, $change);
        $root = $this->tree($original);
        $path = self::utilityPath($root);
        foreach ([[], ['--check']] as $options) {
            [$status, $out] = self::tool($root, $options);
            $this->assertSame(1, $status, $out);
            $this->assertStringContainsString('refused', $out);
            $this->assertStringContainsString($message, $out);
            $this->assertSame($original, file_get_contents($path));
            $this->assertFileDoesNotExist($path . '.yioop-codec.bak');
        }
    }

    public function testRefusesTreesWithoutUtility(): void
    {
        $empty = $this->tempDir();
        [$status, $out] = self::tool($empty);
        $this->assertSame(1, $status, $out);
        $this->assertStringContainsString('src/library/Utility.php not found',
            $out);

        $old = $this->tempDir();
        mkdir("$old/lib");
        file_put_contents("$old/lib/utility.php", "<?php\n"
            . "function packPosting(\$doc_index, \$position_list)\n{\n}\n");
        [$status, $out] = self::tool($old);
        $this->assertSame(1, $status, $out);
        $this->assertStringContainsString('before 3.0', $out);
        $this->assertStringContainsString('Cannot redeclare', $out);

        [$status, $out] = self::tool("$empty/nowhere");
        $this->assertSame(1, $status, $out);
        [$status, $out] = self::tool($empty, ['--check', '--revert']);
        $this->assertSame(2, $status, $out);
    }

    public function testRefusesHandEditedIntegration(): void
    {
        $original = self::utility('2019');
        $root = $this->tree($original);
        $path = self::utilityPath($root);
        [$status, $out] = self::tool($root);
        $this->assertSame(0, $status, $out);
        // someone changes a forwarder by hand
        $tampered = str_replace("return \\deltaList(\$list);",
            "return \\deltaList(array_values(\$list));",
            file_get_contents($path));
        file_put_contents($path, $tampered);
        foreach ([[], ['--check']] as $options) {
            [$status, $out] = self::tool($root, $options);
            $this->assertSame(1, $status, $out);
            $this->assertStringContainsString('edited by hand', $out);
            $this->assertSame($tampered, file_get_contents($path));
        }
        // the original bytes are still recoverable: the backup matches
        [$status, $out] = self::tool($root, ['--revert']);
        $this->assertSame(0, $status, $out);
        $this->assertSame($original, file_get_contents($path));

        // a marker removed by hand: refused, file left alone
        [$status, $out] = self::tool($root);
        $this->assertSame(0, $status, $out);
        $broken = str_replace("/* yioop-codec:end deltaList */", "",
            file_get_contents($path));
        file_put_contents($path, $broken);
        unlink($path . '.yioop-codec.bak');
        foreach ([[], ['--check'], ['--revert']] as $options) {
            [$status, $out] = self::tool($root, $options);
            $this->assertSame(1, $status, $out);
            $this->assertSame($broken, file_get_contents($path));
        }
    }

    public function testStaleBackupIsNotOverwritten(): void
    {
        $root = $this->tree(self::utility('2019'));
        $path = self::utilityPath($root);
        file_put_contents($path . '.yioop-codec.bak', "<?php // older\n");
        [$status, $out] = self::tool($root);
        $this->assertSame(1, $status, $out);
        $this->assertStringContainsString('.yioop-codec.bak exists', $out);
        $this->assertSame(self::utility('2019'), file_get_contents($path));
        $this->assertSame("<?php // older\n",
            file_get_contents($path . '.yioop-codec.bak'));
    }

    public function testRevertKeepsLaterEditsOutsideMarkers(): void
    {
        $original = self::utility('2015');
        $root = $this->tree($original);
        $path = self::utilityPath($root);
        [$status, $out] = self::tool($root);
        $this->assertSame(0, $status, $out);
        file_put_contents($path, "\n// local change\n", FILE_APPEND);
        [$status, $out] = self::tool($root);
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString('Already integrated', $out);
        [$status, $out] = self::tool($root, ['--revert']);
        $this->assertSame(0, $status, $out);
        $this->assertSame($original . "\n// local change\n",
            file_get_contents($path));
        $this->assertSame($original,
            file_get_contents($path . '.yioop-codec.bak'));
    }

    /**
     * With the extension loaded, every namespaced codec function must reach
     * native code: forwarders for the eight global-only ones, the
     * extension's own namespaced functions for the guarded ones.
     *
     * @dataProvider lines
     */
    public function testForwardersReachNativeFunctions(string $line): void
    {
        $flags = self::extensionFlags();
        if ($flags === null) {
            $this->markTestSkipped('no php with the yioop extension '
                . '(target/release/libyioop_codec.so not built?)');
        }
        $root = $this->tree(self::utility($line));
        $path = self::utilityPath($root);
        [$status, $out] = self::tool($root, [], $flags);
        $this->assertSame(0, $status, $out);

        $report = $this->probe($path, $flags);
        $this->assertTrue($report['extension']);
        foreach (array_merge(self::FORWARDED, self::GUARDED_2015, self::QUEUE)
            as $name) {
            $this->assertNotSame("php:$name", $report[$name], $name);
            $this->assertNotSame('missing', $report[$name], $name);
        }
        foreach (array_merge(self::GUARDED_2015, self::QUEUE) as $name) {
            $this->assertSame('internal', $report[$name], $name);
        }
        $this->assertSame('php:packListModified9',
            $report['packListModified9']);

        // same results as the global native functions, by-ref included,
        // for fully qualified and unqualified in-namespace calls
        $script = '<?php
            namespace seekquarry\yioop\library;
            require $argv[1];
            $list = [3, 4, 10];
            $a = $list; deDeltaList($a);
            $b = $list; \deDeltaList($b);
            $posting = \packPosting(7, [2, 5, 9]);
            $off1 = 0; $off2 = 0;
            $s = $posting . $posting;
            $n1 = nextPostString($s, $off1);
            $n2 = \nextPostString($s, $off2);
            $u1 = 0; $u2 = 0;
            echo json_encode([
                bin2hex(packPosting(7, [2, 5, 9])) === bin2hex($posting),
                bin2hex(\seekquarry\yioop\library\packPosting(7, [2, 5, 9],
                    false)) === bin2hex(\packPosting(7, [2, 5, 9], false)),
                unpackPosting($posting, $u1) === \unpackPosting($posting,
                    $u2) && $u1 === $u2 && $u1 > 0,
                $a === $b && $a !== $list,
                $n1 === $n2 && $off1 === $off2 && $off1 > 0,
                deltaList([1, 4, 9]) === \deltaList([1, 4, 9]),
                unpackInt("\x01\x02\x03\x04") === 0x01020304,
                (new \ReflectionFunction(__NAMESPACE__ . "\\unpackInt"))
                    ->isInternal(),
            ]);';
        $file = $this->tempDir() . '/native.php';
        file_put_contents($file, $script);
        [$status, $out, $err] = self::php(array_merge($flags,
            [$file, $path]));
        $this->assertSame(0, $status, $out . $err);
        $this->assertSame('[true,true,true,true,true,true,true,true]',
            trim($out), $err);

        [$status, $out] = self::tool($root, ['--check'], $flags);
        $this->assertSame(0, $status, $out);
        $this->assertStringNotContainsString('BROKEN', $out);
        $this->assertStringNotContainsString('CONFLICT', $out);
        foreach (self::FORWARDED as $name) {
            $this->assertMatchesRegularExpression(
                "~^$name +native \\(PHP forwarder~m", $out);
        }
        foreach (self::GUARDED_2015 as $name) {
            $this->assertMatchesRegularExpression("~^$name +native \\(~m",
                $out);
        }
    }

    /**
     * php flags that give a child php the yioop extension, or null. Tried
     * in order: plain php (php.ini loads it), the extension= flag this
     * test process was started with, the release build of this crate.
     * @return string[]|null
     */
    private static function extensionFlags(): ?array
    {
        static $found = false;
        if ($found !== false) {
            return $found;
        }
        $candidates = [[]];
        $cmdline = @file_get_contents('/proc/self/cmdline');
        if (is_string($cmdline)) {
            $args = explode("\0", $cmdline);
            foreach ($args as $i => $arg) {
                $value = null;
                if ($arg === '-d' && isset($args[$i + 1])) {
                    $value = $args[$i + 1];
                } elseif (strncmp($arg, '-d', 2) === 0) {
                    $value = substr($arg, 2);
                }
                if ($value !== null
                    && strncmp($value, 'extension=', 10) === 0) {
                    $candidates[] = ['-d', $value];
                }
            }
        }
        $built = __DIR__ . '/../target/release/libyioop_codec.so';
        if (is_file($built)) {
            $candidates[] = ['-d', 'extension=' . realpath($built)];
        }
        $format = ini_get('yioop.format');
        foreach ($candidates as $flags) {
            if (is_string($format) && $format !== '') {
                $flags = array_merge($flags, ['-d', "yioop.format=$format"]);
            }
            [$status, $out] = self::php(array_merge($flags, ['-r',
                'echo extension_loaded("yioop") ? "yes" : "no";']));
            if ($status === 0 && $out === 'yes') {
                return $found = $flags;
            }
        }
        return $found = null;
    }
}
