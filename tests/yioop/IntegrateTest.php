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
//
// IndexShard.php: synthetic trees get a class IndexShard whose ten switched
// methods have Yioop's names and parameters but this file's own bodies. The
// tool only switches methods whose token hash it knows, so those tests run
// it through a wrapper that sets YioopIntegrate::$shard_hashes to hashes
// computed here, independently, from the fixture's method sources.
// testLiveYioopTree runs the tool as shipped on a copy of YIOOP_DIR.

declare(strict_types=1);

namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

final class IntegrateTest extends TestCase
{
    private const TOOL = __DIR__ . '/../../php/yioop-integrate.php';
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

    /**
     * Creates a tree with $utility as src/library/Utility.php and, unless
     * null, $shard as src/library/IndexShard.php.
     */
    private function tree(string $utility, ?string $shard = null): string
    {
        $root = $this->tempDir();
        mkdir("$root/src/library", 0777, true);
        mkdir("$root/src/configs", 0777, true);
        file_put_contents("$root/src/configs/Config.php", "<?php\n"
            . "namespace seekquarry\\yioop\\configs;\n\n"
            . "const NS_LIB = \"seekquarry\\\\yioop\\\\library\\\\\";\n");
        file_put_contents("$root/src/library/Utility.php", $utility);
        if ($shard !== null) {
            file_put_contents("$root/src/library/IndexShard.php", $shard);
        }
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

    /**
     * A tree with $utility as its Utility.php, switched by the tool (which
     * must succeed): [root, Utility.php's path].
     */
    private function switchedTree(string $utility): array
    {
        $root = $this->tree($utility);
        [$status, $out] = self::tool($root);
        $this->assertSame(0, $status, $out);
        return [$root, self::utilityPath($root)];
    }

    /* ------------------------------------------------------------------ */
    /* Child processes                                                    */
    /* ------------------------------------------------------------------ */

    /**
     * Runs PHP_BINARY with $args; returns [exit status, stdout, stderr].
     * PHP's own warnings go to stderr so they cannot spoil parsed output.
     * @param string[] $args
     */
    /**
     * Runs $file with PHP's $flags and $path as its argument, which must
     * exit 0: [stdout, stderr].
     */
    private function phpSucceeds(array $flags, string $file, string $path): array
    {
        [$status, $out, $err] = self::php(array_merge($flags, [$file, $path]));
        $this->assertSame(0, $status, $out . $err);
        return [$out, $err];
    }

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
    /**
     * A switched $path lints, a second run leaves it ("Already
     * integrated"), and --revert gives $original back byte for byte.
     */
    private function assertSwitchedStaysAndReverts(string $root, string $path,
        string $original): void
    {
        $this->assertLints($path);
        [$status, $out] = self::tool($root);
        $this->assertStringContainsString('Already integrated', $out);
        [$status, $out] = self::tool($root, ['--revert']);
        $this->assertSame(0, $status, $out);
        $this->assertSame($original, file_get_contents($path));
    }

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
    #[DataProvider('lines')]
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
    #[DataProvider('lines')]
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
        // by-reference parameters stay by-reference, defaults are kept,
        // a multi-line header is carried over as written; where the native
        // declines (null), Yioop's PHP kept beside it runs with the same
        // arguments
        $this->assertStringContainsString("function nextPostString("
            . "&\$input_string, &\$offset)\n{\n    return "
            . "\\nextPostString(\$input_string, \$offset)\n        ?? "
            . "yioop_codec_php_nextPostString(\$input_string, \$offset);\n}",
            $edited);
        $this->assertStringContainsString("function unpackPosting(\$posting,"
            . " &\$offset, \$dedelta = true)\n{\n    return "
            . "\\unpackPosting(\$posting, \$offset, \$dedelta)\n        ?? "
            . "yioop_codec_php_unpackPosting(\$posting, \$offset, \$dedelta);",
            $edited);
        $this->assertStringContainsString("function deltaList(\n    \$list\n"
            . ")\n{\n    return \\deltaList(\$list)\n        ?? "
            . "yioop_codec_php_deltaList(\$list);", $edited);
        // Yioop's declaration, renamed, body as written, by-reference kept
        $this->assertStringContainsString("function yioop_codec_php_"
            . "nextPostString(&\$input_string, &\$offset)\n{\n"
            . "    \$offset += 4;\n    return \"php:nextPostString\";\n}\n"
            . "} /* yioop-codec:end nextPostString */", $edited);
        $this->assertStringContainsString("function yioop_codec_php_"
            . "deltaList(\n    \$list\n) {\n    return \"php:deltaList\";"
            . "\n}\n} /* yioop-codec:end deltaList */", $edited);
        foreach (self::FORWARDED as $name) {
            $this->assertSame($name === 'deDeltaList' ? 0 : 1,
                substr_count($edited, "function yioop_codec_php_$name("),
                $name);
        }
        // deDeltaList's native returns nothing: a plain forwarder
        $this->assertStringContainsString("function deDeltaList(&\$delta_list)"
            . "\n{\n    return \\deDeltaList(\$delta_list);\n}\n"
            . "} /* yioop-codec:end deDeltaList */", $edited);
        // the class method of the same name is untouched
        $this->assertStringContainsString("    public function packPosting()"
            . " { return $line; }\n}\n/* yioop-codec:begin encodeModified9\n",
            $edited);
    }

    /** @dataProvider lines */
    #[DataProvider('lines')]
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
    #[DataProvider('lines')]
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
        [$root, $path] = $this->switchedTree($original);
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
        [$root, $path] = $this->switchedTree($original);
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
    #[DataProvider('unrecognisedUtilities')]
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
        [$root, $path] = $this->switchedTree($original);
        // someone changes a forwarder by hand
        $tampered = str_replace("return \\deltaList(\$list)",
            "return \\deltaList(array_values(\$list))",
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
        [$root, $path] = $this->switchedTree($original);
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
     * Utility.php as the tool wrote it before it kept Yioop's
     * encodeQueueWeightInfo in an else branch of Yioop's guard: the
     * current edit with that branch taken out again.
     */
    private static function withoutKept(string $edited, int $expected):
        string
    {
        $older = preg_replace("~ else \\{ /\\* yioop-codec:kept "
            . "encodeQueueWeightInfo \\*/\n.*?\n\\} /\\* yioop-codec:end kept "
            . "encodeQueueWeightInfo \\*/~s", "", $edited, -1, $branches);
        self::assertSame($expected, $branches);
        self::assertStringNotContainsString(
            'yioop_codec_php_encodeQueueWeightInfo', $older);
        return $older;
    }

    /**
     * Utility.php as the tool wrote it before the PHP fallback: forwarders
     * only. Made from the current edit by taking the fallbacks out again.
     */
    private static function legacyEdit(string $edited, string $line):
        string
    {
        $legacy = preg_replace("~(// with the extension: forwarder to the "
            . "native global function); where it declines \\(returns null\\),"
            . "\n// Yioop's PHP version, kept below as \\w+\n~", "\$1\n",
            self::withoutKept($edited, $line === '2019' ? 1 : 0), -1,
            $comments);
        $legacy = preg_replace("~\n        \\?\\? yioop_codec_php_\\w+\\("
            . "[^)]*\\);~", ";", $legacy, -1, $calls);
        $legacy = preg_replace("~(\n\\}\n)function yioop_codec_php_\\w+.*?"
            . "\n(\\} /\\* yioop-codec:end )~s", "\$1\$2", $legacy, -1,
            $bodies);
        $expected = count(self::FORWARDED) - 1; // deDeltaList has none
        self::assertSame([$expected, $expected, $expected],
            [$comments, $calls, $bodies]);
        self::assertStringNotContainsString('yioop_codec_php_', $legacy);
        return $legacy;
    }

    /**
     * Trees switched by the older tools (without the kept
     * encodeQueueWeightInfo; forwarders without fallback): --check says
     * so, --revert gives the original bytes, and a re-run switches it
     * again to the current shape, keeping the original backup.
     *
     * @dataProvider lines
     */
    #[DataProvider('lines')]
    public function testTreeSwitchedByOlderToolIsRecognised(string $line):
        void
    {
        $original = self::utility($line);
        [$root, $path] = $this->switchedTree($original);
        $current = file_get_contents($path);
        $shapes = [self::legacyEdit($current, $line)];
        if ($line === '2019') { // the 2015 line has no queue functions
            array_unshift($shapes, self::withoutKept($current, 1));
        }
        foreach ($shapes as $legacy) {
            $this->assertNotSame($current, $legacy);
            file_put_contents($path . '.yioop-codec.bak', $original);

            // without a backup: revert from the markers alone
            file_put_contents($path, $legacy);
            unlink($path . '.yioop-codec.bak');
            [$status, $out] = self::tool($root, ['--check'], self::bareFlags());
            $this->assertSame(0, $status, $out);
            $this->assertStringContainsString('integrated by an older '
                . 'yioop-integrate.php', $out);
            $this->assertSame($legacy, file_get_contents($path));
            [$status, $out] = self::tool($root, ['--revert']);
            $this->assertSame(0, $status, $out);
            $this->assertSame($original, file_get_contents($path));

            // re-run on the older shape: switched again, backup is Yioop's
            file_put_contents($path, $legacy);
            [$status, $out] = self::tool($root);
            $this->assertSame(0, $status, $out);
            $this->assertStringContainsString('older yioop-integrate.php', $out);
            $this->assertSame($current, file_get_contents($path));
            $this->assertSame($original,
                file_get_contents($path . '.yioop-codec.bak'));
            $this->assertSwitchedStaysAndReverts($root, $path, $original);
        }
    }

    /**
     * Yioop's guard gets an else branch keeping its encodeQueueWeightInfo
     * as yioop_codec_php_encodeQueueWeightInfo: declared only with the
     * extension, reached by the native on B6 inputs (floats, arrays,
     * non-numeric strings) and not on ints; --revert gives the original.
     */
    public function testGuardKeepsYioopsEncodeQueueWeightInfo(): void
    {
        $original = self::utility('2019');
        [$root, $path] = $this->switchedTree($original);
        $edited = file_get_contents($path);
        $this->assertStringContainsString("    return \"php:unpackInt\";\n}"
            . "\n} else { /* yioop-codec:kept encodeQueueWeightInfo */\n",
            $edited);
        $this->assertStringContainsString("function yioop_codec_php_"
            . "encodeQueueWeightInfo(\$weight, \$depth, \$crawl_order)\n{\n"
            . "    return \"php:encodeQueueWeightInfo\";\n}\n"
            . "} /* yioop-codec:end kept encodeQueueWeightInfo */"
            . "// end extension_loaded check\n", $edited);
        $this->assertSame(1, substr_count($edited, 'function yioop_codec_php_'
            . 'encodeQueueWeightInfo('));
        $this->assertLints($path);
        $script = '<?php
            namespace seekquarry\yioop\library;
            require $argv[1];
            $kept = function_exists(__NAMESPACE__
                . "\\yioop_codec_php_encodeQueueWeightInfo");
            echo json_encode(extension_loaded("yioop") ? [$kept,
                encodeQueueWeightInfo(1.5, 2, "ad"),
                encodeQueueWeightInfo(3, [1], "ad"),
                \encodeQueueWeightInfo("abc", 2, "ad"),
                encodeQueueWeightInfo(3, 2, "ad"),
                encodeQueueWeightInfo("3", "2", "ad")]
                : [$kept, encodeQueueWeightInfo(1.5, 2, "ad")]);';
        $file = $this->tempDir() . '/kept.php';
        file_put_contents($file, $script);
        [$out, $err] = $this->phpSucceeds(['-n'], $file, $path);
        $this->assertSame(json_encode([false, 'php:encodeQueueWeightInfo']),
            trim($out), $err);
        $flags = self::extensionFlags();
        if ($flags !== null) {
            [$out, $err] = $this->phpSucceeds($flags, $file, $path);
            $php = 'php:encodeQueueWeightInfo';
            $this->assertSame(json_encode([true, $php, $php, $php,
                (3 << 8) + 253, (3 << 8) + 253]), trim($out), $err);
        }
        [$status, $out] = self::tool($root, ['--revert']);
        $this->assertSame(0, $status, $out);
        $this->assertSame($original, file_get_contents($path));
    }

    /**
     * An encodeQueueWeightInfo declared outside a guard is wrapped, and
     * the wrapper's else branch keeps Yioop's PHP version for the native.
     */
    public function testEncodeQueueWeightInfoOutsideGuardIsKept(): void
    {
        $original = self::utility('2015', ['extra' => "function "
            . "encodeQueueWeightInfo(\$weight, \$depth, \$crawl_order)\n{\n"
            . "    return \"php:encodeQueueWeightInfo\";\n}\n"]);
        [$root, $path] = $this->switchedTree($original);
        $edited = file_get_contents($path);
        $this->assertStringContainsString("yioop-codec:begin "
            . "encodeQueueWeightInfo\n", $edited);
        $this->assertStringContainsString("} else { /* yioop-codec:native "
            . "encodeQueueWeightInfo */\n// with the extension: Yioop's PHP "
            . "version, kept as yioop_codec_php_encodeQueueWeightInfo\n",
            $edited);
        $this->assertStringContainsString("function yioop_codec_php_"
            . "encodeQueueWeightInfo(\$weight, \$depth, \$crawl_order)\n{\n"
            . "    return \"php:encodeQueueWeightInfo\";\n}\n"
            . "} /* yioop-codec:end encodeQueueWeightInfo */", $edited);
        $this->assertStringNotContainsString('yioop-codec:kept', $edited);
        $this->assertSwitchedStaysAndReverts($root, $path, $original);
    }

    /**
     * Where a native declines, the forwarder runs Yioop's PHP kept beside
     * it (the fixture's PHP returns "php:NAME"); where it does not, the
     * native result comes back. The global native itself returns null.
     */
    public function testForwarderFallsBackWhereTheNativeDeclines(): void
    {
        $flags = self::extensionFlags();
        if ($flags === null) {
            $this->markTestSkipped('no php with the yioop extension '
                . '(target/release/libyioop_codec.so not built?)');
        }
        $root = $this->tree(self::utility('2019'));
        $path = self::utilityPath($root);
        [$status, $out] = self::tool($root, [], $flags);
        $this->assertSame(0, $status, $out);
        $script = '<?php
            namespace seekquarry\yioop\library;
            require $argv[1];
            echo json_encode([
                encodeModified9([1.5, 3.7, 2.5]),
                \encodeModified9([1.5, 3.7, 2.5]),
                bin2hex(encodeModified9([1, 2, 3])),
            ]);';
        $file = $this->tempDir() . '/fallback.php';
        file_put_contents($file, $script);
        [$out, $err] = $this->phpSucceeds($flags, $file, $path);
        $this->assertSame(json_encode(['php:encodeModified9', null,
            '3e00001b']), trim($out), $err);
    }

    /**
     * With the extension loaded, every namespaced codec function must reach
     * native code: forwarders for the eight global-only ones, the
     * extension's own namespaced functions for the guarded ones.
     *
     * @dataProvider lines
     */
    #[DataProvider('lines')]
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
        [$out, $err] = $this->phpSucceeds($flags, $file, $path);
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
        $built = __DIR__ . '/../../target/release/libyioop_codec.so';
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

    /* ------------------------------------------------------------------ */
    /* IndexShard.php                                                     */
    /* ------------------------------------------------------------------ */

    private const DISK = '$this->read_only_from_disk';
    /** Every guard's first condition: an object of IndexShard itself. */
    private const EXACT_CLASS = 'static::class === self::class';
    /**
     * The switched methods: name => [parameter list as declared, extra
     * guard, arguments the native function must get after $this].
     */
    private const SHARD = [
        'readBlockShardAtOffset' => ['$bytes, $cache = true', '',
            '$bytes, $cache'],
        'getShardSubstring' => ['$offset, $len, $cache = true', '',
            '$offset, $len, $cache'],
        'getShardWord' => ['$offset', '', '$offset'],
        'getWordDocsWord' => ['$offset', self::DISK, '$offset'],
        'getWordDocsSubstring' => ['$offset = 0, $len = 0, $cache = true',
            self::DISK, '$offset, $len, $cache'],
        'getDocInfoSubstring' => ['$offset = 0, $len = 0, $cache = false',
            self::DISK, '$offset, $len, $cache'],
        'getDocIndexOfPostingAtOffset' => ['$current', self::DISK,
            '$current'],
        'getPostingAtOffset' => ['$current, &$posting_start, &$posting_end',
            self::DISK, '$current, $posting_start, $posting_end'],
        'nextPostingOffsetDocOffset' => ["\$start_offset, \$end_offset,\n"
            . "        \$doc_offset, \$direction = self::ASCENDING",
            self::DISK, '$start_offset, $end_offset, $doc_offset, $direction'],
        'getWordInfo' => ['$word_id, $raw = false', self::DISK
            . ' && $raw', '$word_id, $raw'],
        'postingsSliceAscending' => ["\$start_offset, &\$next_offset,\n"
            . "        \$last_offset, \$len", self::DISK,
            '$start_offset, $next_offset, $last_offset, $len'],
        'postingsSliceDescending' => ["\$start_offset, &\$next_offset,\n"
            . "        \$last_offset, \$len", self::DISK,
            '$start_offset, $next_offset, $last_offset, $len'],
        // Native unless the native function declines (returns null).
        'addDocumentWords' => ["\$doc_keys, \$summary_offset, \$word_lists,\n"
            . "        \$meta_ids = [], \$is_doc = false, \$rank = false,\n"
            . "        \$description_scores = [], \$user_ranks = []", '',
            '$doc_keys, $summary_offset, $word_lists, $meta_ids, $is_doc, '
            . '$rank, $description_scores, $user_ranks'],
        // Methods that return nothing: native unless it declines (null).
        'mergeWordPostingsToString' => ['$replace = false', '', '$replace'],
        'prepareWordsAndPrefixes' => ['$with_logging = false', '',
            '$with_logging'],
        'packWords' => ['$fh = null, $with_logging = false', '',
            '$fh, $with_logging'],
        'outputPostingLists' => ['$fh = null, $with_logging = false', '',
            '$fh, $with_logging'],
    ];
    /** SHARD's methods that return nothing. */
    private const VOID = ['mergeWordPostingsToString',
        'prepareWordsAndPrefixes', 'packWords', 'outputPostingLists'];

    /** Source of one fixture method, from "public" to its closing brace. */
    private static function method(string $name): string
    {
        $params = self::SHARD[$name][0];
        if ($name === 'getShardWord') { // whole body on one line
            return "public function $name($params) { return \"php:$name\";"
                . " }";
        }
        $body = $name === 'getPostingAtOffset'
            ? "        \$posting_start = \$current - 1;\n"
                . "        \$posting_end = \$current + 1;\n" : "";
        return "public function $name($params)\n    {\n$body"
            . "        return \"php:$name\";\n    }";
    }

    /**
     * Synthetic IndexShard.php; $methods replaces the source of some
     * methods, $eol the line ends.
     */
    private static function shard(array $methods = [],
        string $eol = "\n"): string
    {
        $code = "<?php\n/* Synthetic stand-in for Yioop's IndexShard.php. */"
            . "\nnamespace seekquarry\\yioop\\library;\n\n"
            . "class IndexShard\n{\n    const ASCENDING = 1;\n"
            . "    public \$read_only_from_disk = false;\n"
            . "    public \$num_docs = 0;\n";
        foreach (array_keys(self::SHARD) as $name) {
            $code .= "    /** $name (test double) */\n    "
                . ($methods[$name] ?? self::method($name)) . "\n";
            if ($name === 'getShardWord') {
                $code .= "    public function helper()\n    {\n"
                    . "        \$f = function () { return 1; };\n"
                    . "        return \"{\$this->num_docs}\" . \$f();\n    }\n";
            }
        }
        $code .= "    public static function getWordInfoFromString(\$s)\n"
            . "    {\n        return [\$s];\n    }\n}\n\n"
            . "class OtherShard\n{\n    public function getWordInfo(\$word_id,"
            . " \$raw = false)\n    {\n        return 0;\n    }\n}\n";
        return str_replace("\n", $eol, $code);
    }

    /**
     * The token hash the tool documents: SHA-256 over the texts of the
     * tokens without whitespace and comments, each followed by NUL; 16 hex
     * digits.
     */
    private static function tokenHash(string $source): string
    {
        $text = '';
        foreach (token_get_all("<?php\n" . $source) as $t) {
            if (is_array($t) && in_array($t[0], [T_OPEN_TAG, T_WHITESPACE,
                T_COMMENT, T_DOC_COMMENT], true)) {
                continue;
            }
            $text .= (is_array($t) ? $t[1] : $t) . "\0";
        }
        return substr(hash('sha256', $text), 0, 16);
    }

    /** Hashes of the unchanged fixture methods. */
    private static function shardHashes(): array
    {
        $hashes = [];
        foreach (array_keys(self::SHARD) as $name) {
            $hashes[$name] = self::tokenHash(self::method($name));
        }
        return $hashes;
    }

    /**
     * The line the tool must insert into method $name: the native function
     * is called under the guard's conditions, and its null (declined)
     * lets the method's own PHP run.
     */
    private static function shardLine(string $name): string
    {
        [, $guard, $args] = self::SHARD[$name];
        $when = "\\extension_loaded(\"yioop\") && " . self::EXACT_CLASS
            . ($guard === '' ? '' : " && $guard");
        $call = "\\yioop_codec\\shard\\$name(\$this, $args)";
        if (in_array($name, self::VOID, true)) {
            return "if ($when && $call) { return; } "
                . "/* yioop-codec:method $name */";
        }
        return "if ($when && (\$yioop_codec_result = $call) !== null) "
            . "{ return \$yioop_codec_result; } "
            . "/* yioop-codec:method $name */";
    }

    /** Runs the tool with the fixture's hashes; [status, output]. */
    private function shardTool(string $root, array $options = [],
        array $flags = []): array
    {
        return $this->toolAfter("YioopIntegrate::\$shard_hashes = "
            . var_export(self::shardHashes(), true) . ";\n"
            // The fixture declares only the switched methods.
            . "YioopIntegrate::\$reads = [];\n", $root, $options, $flags);
    }

    /**
     * Runs the tool after $setup (PHP statements setting its test hooks);
     * [status, output].
     */
    private function toolAfter(string $setup, string $root, array $options,
        array $flags): array
    {
        $wrapper = $this->tempDir() . '/tool.php';
        file_put_contents($wrapper, "<?php\nrequire "
            . var_export(realpath(self::TOOL), true) . ";\n" . $setup
            . "exit(YioopIntegrate::main(\$argv));\n");
        [$status, $out, $err] = self::php(array_merge($flags,
            [$wrapper, $root], $options));
        return [$status, $out . $err];
    }

    private static function shardPath(string $root): string
    {
        return "$root/src/library/IndexShard.php";
    }

    public function testFixtureHashesMatchTheTools(): void
    {
        require_once self::TOOL;
        $tool = \YioopIntegrate::methodHashes(self::shard());
        foreach (self::shardHashes() as $name => $hash) {
            $this->assertSame($hash, $tool[strtolower($name)], $name);
        }
        // comments and whitespace do not count, code does
        $this->assertSame(self::tokenHash(self::method('getWordInfo')),
            self::tokenHash(str_replace("\n    {", " /* x */ {\n// y\n",
            self::method('getWordInfo'))));
        $this->assertNotSame(self::tokenHash(self::method('getWordInfo')),
            self::tokenHash(str_replace('php:', 'PHP:',
            self::method('getWordInfo'))));
    }

    public static function lineEnds(): array
    {
        return ['LF' => ["\n"], 'CRLF' => ["\r\n"]];
    }

    /** @dataProvider lineEnds */
    #[DataProvider('lineEnds')]
    public function testShardMethodsSwitchedRevertedAndIdempotent(
        string $eol): void
    {
        $utility = str_replace("\n", $eol, self::utility('2019'));
        $original = self::shard([], $eol);
        $root = $this->tree($utility, $original);
        $path = self::shardPath($root);

        [$status, $out] = $this->shardTool($root);
        $this->assertSame(0, $status, $out);
        $edited = file_get_contents($path);
        $this->assertSame($original, file_get_contents($path
            . '.yioop-codec.bak'));
        $this->assertSame(count(self::SHARD),
            substr_count($edited, 'yioop-codec:method'));
        foreach (array_keys(self::SHARD) as $name) {
            // the first statement of the method's body
            $method = str_replace("\n", $eol, self::method($name));
            $brace = strpos($method, '{') + 1;
            $this->assertSame(1, substr_count($edited, substr($method, 0,
                $brace) . "$eol        " . self::shardLine($name)
                . substr($method, $brace)), $name);
        }
        $this->assertStringContainsString(str_replace("\n", $eol,
            "class OtherShard\n{\n    public function getWordInfo(\$word_id,"
            . " \$raw = false)\n    {\n        return 0;"), $edited);
        $this->assertLints($path);
        $this->assertNotSame($utility, file_get_contents(
            self::utilityPath($root)));

        [$status, $out] = $this->shardTool($root);
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString('IndexShard.php: already switched',
            $out);
        $this->assertSame($edited, file_get_contents($path));

        [$status, $out] = $this->shardTool($root, ['--check'],
            self::bareFlags());
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString('methods switched by '
            . 'yioop-integrate', $out);
        foreach (self::SHARD as $name => [, $guard]) {
            $this->assertMatchesRegularExpression("~^$name +native when the "
                . "extension is loaded and " . preg_quote(self::EXACT_CLASS
                . ($guard === '' ? '' : " && $guard"), '~') . "\r?$~m", $out);
        }

        [$status, $out] = $this->shardTool($root, ['--revert']);
        $this->assertSame(0, $status, $out);
        $this->assertSame($original, file_get_contents($path));
        $this->assertSame($utility, file_get_contents(
            self::utilityPath($root)));
        $this->assertFileDoesNotExist($path . '.yioop-codec.bak');
    }

    /**
     * The switched methods in a child php, with \extension_loaded("yioop")
     * replaced by true and stand-ins for the native functions that report
     * their arguments: each guard picks the right branch, arguments
     * (defaults and by-reference ones included) reach the native function.
     * Without the replacement, Yioop's PHP answers every call.
     */
    public function testSwitchedMethodsCallNativeFunctionsUnderTheirGuards():
        void
    {
        $root = $this->tree(self::utility('2019'), self::shard());
        [$status, $out] = $this->shardTool($root);
        $this->assertSame(0, $status, $out);
        $switched = file_get_contents(self::shardPath($root));
        $forced = $this->tempDir() . '/IndexShard.php';
        file_put_contents($forced, str_replace('\\extension_loaded("yioop")',
            'true', $switched, $count));
        $this->assertSame(count(self::SHARD), $count);

        // Each stand-in declines (null) when given "decline".
        $stubs = '';
        foreach (array_keys(self::SHARD) as $name) {
            $stubs .= $name === 'getPostingAtOffset'
                ? "function $name(\$shard, \$current, &\$start, &\$end) {\n"
                    . "    if (\\is_string(\$current)) { return null; }\n"
                    . "    \$start = 100; \$end = 200;\n"
                    . "    return \\json_encode(['native', \$current]); }\n"
                : (in_array($name, self::VOID, true)
                ? "function $name(\$shard, ...\$args) {\n"
                    . "    \$GLOBALS['native'][] = ['$name', ...\$args];\n"
                    . "    return \$args[0] === 'decline' ? null : true; }\n"
                : "function $name(\$shard, ...\$args) {\n"
                    . "    return \\in_array('decline', \$args, true) ? null : \\json_encode("
                    . "['native', \\get_class(\$shard), ...\$args]); }\n");
        }
        $script = "<?php\nnamespace yioop_codec\\shard {\n$stubs}\n"
            . 'namespace seekquarry\yioop\library {
            require $GLOBALS["argv"][1];
            final class SubShard extends IndexShard
            {
            }
        }
        namespace {
            $r = [];
            foreach (["IndexShard", "SubShard"] as $c) {
            $s = new ("seekquarry\\\\yioop\\\\library\\\\" . $c)();
            foreach ([false, true] as $disk) {
                $s->read_only_from_disk = $disk;
                $d = ($disk ? "disk" : "memory") . ($c === "SubShard" ? " subclass" : "");
                $r["$d block"] = $s->readBlockShardAtOffset(8);
                $r["$d substring"] = $s->getShardSubstring(1, 2, false);
                $r["$d word"] = $s->getShardWord(4);
                $r["$d docs word"] = $s->getWordDocsWord(12);
                $r["$d docs substring"] = $s->getWordDocsSubstring(3);
                $r["$d info substring"] = $s->getDocInfoSubstring(5, 6);
                $r["$d doc index"] = $s->getDocIndexOfPostingAtOffset(7);
                $a = $b = 0;
                $r["$d posting"] = [$s->getPostingAtOffset(9, $a, $b), $a,
                    $b];
                $r["$d next"] = $s->nextPostingOffsetDocOffset(1, 2, 3);
                $r["$d info"] = $s->getWordInfo("id", true);
                $s->num_docs = 5;
                $r["$d info docs"] = $s->getWordInfo("id", true);
                $r["$d info hashed"] = $s->getWordInfo("id");
                $s->num_docs = 0;
                $n = 8;
                $r["$d ascending"] = $s->postingsSliceAscending(1, $n, 3, 4);
                $r["$d descending"] = $s->postingsSliceDescending(1, $n, 3, 4);
                $r["$d float offset"] = $s->postingsSliceAscending(1, $n, 3.5, 4);
                $r["$d add"] = $s->addDocumentWords("k", 2, ["w" => [1]]);
                foreach (["mergeWordPostingsToString" => [],
                    "prepareWordsAndPrefixes" => [true], "packWords" => ["fh"],
                    "outputPostingLists" => ["decline"]] as $m => $a) {
                    $GLOBALS["native"] = [];
                    $r["$d $m"] = [$s->$m(...$a), $GLOBALS["native"]];
                }
                // Declined: the method carries on in its own PHP.
                $a = $b = 0;
                $n = "decline";
                $r["$d declined"] = [$s->readBlockShardAtOffset("decline"),
                    $s->getShardSubstring(1, "decline"), $s->getShardWord("decline"),
                    $s->getWordDocsWord("decline"), $s->getWordDocsSubstring("decline"),
                    $s->getDocInfoSubstring("decline"), $s->getDocIndexOfPostingAtOffset("decline"),
                    [$s->getPostingAtOffset("9", $a, $b), $a, $b],
                    $s->nextPostingOffsetDocOffset(1, 2, "decline"), $s->getWordInfo("decline", true),
                    $s->postingsSliceAscending(1, $n, 3, 4), $s->postingsSliceDescending(1, $n, 3, 4),
                    $s->addDocumentWords("decline", 2, [])];
            }
            }
            echo json_encode($r);
        }';
        $file = $this->tempDir() . '/probe.php';
        file_put_contents($file, $script);
        $native = function (...$args) {
            return json_encode(array_merge(['native'], $args));
        };
        $class = 'seekquarry\\yioop\\library\\IndexShard';
        $expected = [];
        foreach (['memory', 'disk'] as $d) {
            $on_disk = $d === 'disk';
            $expected += [
                "$d block" => $native($class, 8, true),
                "$d substring" => $native($class, 1, 2, false),
                "$d word" => $native($class, 4),
                "$d docs word" => $on_disk ? $native($class, 12)
                    : 'php:getWordDocsWord',
                "$d docs substring" => $on_disk ? $native($class, 3, 0, true)
                    : 'php:getWordDocsSubstring',
                "$d info substring" => $on_disk
                    ? $native($class, 5, 6, false)
                    : 'php:getDocInfoSubstring',
                "$d doc index" => $on_disk ? $native($class, 7)
                    : 'php:getDocIndexOfPostingAtOffset',
                "$d posting" => $on_disk ? [$native(9), 100, 200]
                    : ['php:getPostingAtOffset', 8, 10],
                "$d next" => $on_disk ? $native($class, 1, 2, 3, 1)
                    : 'php:nextPostingOffsetDocOffset',
                "$d info" => $on_disk ? $native($class, 'id', true)
                    : 'php:getWordInfo',
                "$d info docs" => $on_disk ? $native($class, 'id', true)
                    : 'php:getWordInfo',
                "$d info hashed" => 'php:getWordInfo',
                "$d ascending" => $on_disk ? $native($class, 1, 8, 3, 4)
                    : 'php:postingsSliceAscending',
                "$d descending" => $on_disk ? $native($class, 1, 8, 3, 4)
                    : 'php:postingsSliceDescending',
                // Any argument reaches the native function, which declines
                // what it leaves to Yioop's PHP.
                "$d float offset" => $on_disk ? $native($class, 1, 8, 3.5, 4)
                    : 'php:postingsSliceAscending',
                "$d add" => $native($class, 'k', 2, ['w' => [1]], [],
                    false, false, [], []),
                // Done natively, the method returns nothing.
                "$d mergeWordPostingsToString" => [null,
                    [['mergeWordPostingsToString', false]]],
                "$d prepareWordsAndPrefixes" => [null,
                    [['prepareWordsAndPrefixes', true]]],
                "$d packWords" => [null, [['packWords', 'fh', false]]],
                "$d outputPostingLists" => ['php:outputPostingLists',
                    [['outputPostingLists', 'decline', false]]],
                "$d declined" => self::declined(),
            ];
        }
        foreach (['memory', 'disk'] as $d) {
            // A subclass's objects stay on Yioop's PHP, every method.
            $expected += [
                "$d subclass block" => 'php:readBlockShardAtOffset',
                "$d subclass substring" => 'php:getShardSubstring',
                "$d subclass word" => 'php:getShardWord',
                "$d subclass docs word" => 'php:getWordDocsWord',
                "$d subclass docs substring" => 'php:getWordDocsSubstring',
                "$d subclass info substring" => 'php:getDocInfoSubstring',
                "$d subclass doc index" => 'php:getDocIndexOfPostingAtOffset',
                "$d subclass posting" => ['php:getPostingAtOffset', 8, 10],
                "$d subclass next" => 'php:nextPostingOffsetDocOffset',
                "$d subclass info" => 'php:getWordInfo',
                "$d subclass info docs" => 'php:getWordInfo',
                "$d subclass info hashed" => 'php:getWordInfo',
                "$d subclass ascending" => 'php:postingsSliceAscending',
                "$d subclass descending" => 'php:postingsSliceDescending',
                "$d subclass float offset" => 'php:postingsSliceAscending',
                "$d subclass add" => 'php:addDocumentWords',
                "$d subclass mergeWordPostingsToString" => ['php:mergeWordPostingsToString', []],
                "$d subclass prepareWordsAndPrefixes" => ['php:prepareWordsAndPrefixes', []],
                "$d subclass packWords" => ['php:packWords', []],
                "$d subclass outputPostingLists" => ['php:outputPostingLists', []],
                "$d subclass declined" => self::declined(),
            ];
        }
        [$status, $out, $err] = self::php(['-n', $file, $forced]);
        $this->assertSame(0, $status, $out . $err);
        $this->assertSame($expected, json_decode($out, true), $err);

        // as switched, in a php without the extension: Yioop's PHP only
        [$status, $out, $err] = self::php(['-n', $file,
            self::shardPath($root)]);
        $this->assertSame(0, $status, $out . $err);
        $this->assertStringNotContainsString('native', $out);
        $this->assertSame('php:getShardWord',
            json_decode($out, true)['disk word']);
    }

    /** What the probe's declined calls give: each method's own PHP. */
    private static function declined(): array
    {
        return ['php:readBlockShardAtOffset', 'php:getShardSubstring',
            'php:getShardWord', 'php:getWordDocsWord', 'php:getWordDocsSubstring',
            'php:getDocInfoSubstring', 'php:getDocIndexOfPostingAtOffset',
            ['php:getPostingAtOffset', 8, 10],
            'php:nextPostingOffsetDocOffset', 'php:getWordInfo',
            'php:postingsSliceAscending', 'php:postingsSliceDescending',
            'php:addDocumentWords'];
    }

    public function testChangedMethodStaysOnPhpReformattedOneIsSwitched():
        void
    {
        $changed = str_replace('php:', 'PHP:', self::method('getShardWord'));
        $reformatted = str_replace("\n    {\n", " // reflowed\n    {\n\n",
            str_replace(', $raw', ",\n        /* raw? */ \$raw",
            self::method('getWordInfo')));
        $original = self::shard(['getShardWord' => $changed,
            'getWordInfo' => $reformatted]);
        $root = $this->tree(self::utility('2019'), $original);
        $path = self::shardPath($root);

        [$status, $out] = $this->shardTool($root);
        $this->assertSame(0, $status, $out);
        $this->assertMatchesRegularExpression('~^getShardWord +PHP \(not '
            . 'recognised: its code differs~m', $out);
        $edited = file_get_contents($path);
        $this->assertStringContainsString("    $changed\n", $edited);
        $this->assertStringNotContainsString('method getShardWord ',
            $edited);
        $this->assertStringContainsString(self::shardLine('getWordInfo'),
            $edited);
        $this->assertSame(count(self::SHARD) - 1,
            substr_count($edited, 'yioop-codec:method'));
        $this->assertLints($path);

        [$status, $out] = $this->shardTool($root, ['--check'],
            self::bareFlags());
        $this->assertSame(0, $status, $out);
        $this->assertMatchesRegularExpression('~^getShardWord +PHP \(not '
            . 'recognised: its code differs~m', $out);
        $this->assertMatchesRegularExpression('~^getWordInfo +native~m',
            $out);

        [$status, $out] = $this->shardTool($root);
        $this->assertSame(0, $status, $out);
        $this->assertSame($edited, file_get_contents($path));
        [$status, $out] = $this->shardTool($root, ['--revert']);
        $this->assertSame(0, $status, $out);
        $this->assertSame($original, file_get_contents($path));
    }

    public static function unusableShards(): array
    {
        return [
            'no IndexShard.php' => [null, 'IndexShard.php: none'],
            'does not parse' => [str_replace('class OtherShard',
                'class OtherShard(', self::shard()), 'does not parse'],
            'no class IndexShard' => [str_replace('class IndexShard',
                'class Shard', self::shard()), 'declares class IndexShard 0'],
            'other namespace' => [str_replace('yioop\\library;',
                'yioop\\elsewhere;', self::shard()), 'namespace'],
        ];
    }

    /** @dataProvider unusableShards */
    #[DataProvider('unusableShards')]
    public function testUtilitySwitchedWithoutUsableShard(?string $shard,
        string $message): void
    {
        $utility = self::utility('2015');
        $root = $this->tree($utility, $shard);
        $path = self::shardPath($root);
        foreach ([[], ['--check']] as $options) {
            [$status, $out] = $this->shardTool($root, $options);
            $this->assertSame(0, $status, $out);
            $this->assertStringContainsString($message, $out);
        }
        $this->assertStringContainsString('yioop-codec:begin packPosting',
            file_get_contents(self::utilityPath($root)));
        $this->assertStringNotContainsString('native', substr($out,
            (int)strpos($out, 'IndexShard.php')));
        if ($shard !== null) {
            $this->assertSame($shard, file_get_contents($path));
            $this->assertFileDoesNotExist($path . '.yioop-codec.bak');
        }
        [$status, $out] = $this->shardTool($root, ['--revert']);
        $this->assertSame(0, $status, $out);
        $this->assertSame($utility, file_get_contents(
            self::utilityPath($root)));
    }

    public function testHandEditedShardLineIsLeftAlone(): void
    {
        $original = self::shard();
        $root = $this->tree(self::utility('2019'), $original);
        $path = self::shardPath($root);
        [$status, $out] = $this->shardTool($root);
        $this->assertSame(0, $status, $out);
        $tampered = str_replace('&& $this->read_only_from_disk && '
            . '($yioop_codec_result = \\yioop_codec\\shard\\getWordDocsWord',
            '&& ($yioop_codec_result = \\yioop_codec\\shard\\getWordDocsWord',
            file_get_contents($path), $count);
        $this->assertSame(1, $count);
        file_put_contents($path, $tampered);
        foreach ([[], ['--check']] as $options) {
            [$status, $out] = $this->shardTool($root, $options);
            $this->assertSame(0, $status, $out);
            $this->assertStringContainsString('edited by hand', $out);
            $this->assertSame($tampered, file_get_contents($path));
        }
        // the backup has the original: revert uses it
        [$status, $out] = $this->shardTool($root, ['--revert']);
        $this->assertSame(0, $status, $out);
        $this->assertSame($original, file_get_contents($path));
        // without a backup, revert refuses and leaves the file alone
        [$status, $out] = $this->shardTool($root);
        $this->assertSame(0, $status, $out);
        file_put_contents($path, $tampered);
        unlink($path . '.yioop-codec.bak');
        [$status, $out] = $this->shardTool($root, ['--revert']);
        $this->assertSame(1, $status, $out);
        $this->assertStringContainsString('IndexShard.php not reverted',
            $out);
        $this->assertSame($tampered, file_get_contents($path));
    }

    /** A stand-in for Yioop's parse_ini_with_fallback, its own code. */
    private const INI_STAND_IN = "function parse_ini_with_fallback(\$file)\n"
        . "{\n    return [\"php\" => \$file];\n}\n";

    /**
     * A library function is switched only where its declaration is the one
     * the tool records (by token hash): the stand-in is not Yioop's, so it
     * stays PHP, and --check says so.
     */
    public function testLibraryFunctionDeclaredOtherwiseStaysPhp(): void
    {
        $root = $this->tree(self::utility('2019',
            ['extra' => self::INI_STAND_IN]));
        [$status, $out] = self::tool($root);
        $this->assertSame(0, $status, $out);
        $edited = file_get_contents(self::utilityPath($root));
        $this->assertStringNotContainsString('begin parse_ini_with_fallback',
            $edited);
        $this->assertStringContainsString(self::INI_STAND_IN, $edited);
        $flags = self::extensionFlags();
        if ($flags !== null) {
            [, $out] = self::tool($root, ['--check'], $flags);
            $this->assertMatchesRegularExpression('~^parse_ini_with_fallback'
                . ' +PHP \(Yioop\'s declaration is not~m', $out);
        }
    }

    /**
     * With the stand-in's hash as the recorded one, its declaration is
     * wrapped: the forwarder calls the native function, whose null (a
     * relative path, left to PHP) lets the kept PHP version run; --revert
     * gives the bytes back.
     */
    public function testLibraryFunctionSwitchedForwardsAndFallsBack(): void
    {
        $flags = self::extensionFlags();
        if ($flags === null) {
            $this->markTestSkipped('no php with the yioop extension '
                . '(target/release/libyioop_codec.so not built?)');
        }
        $utility = self::utility('2019', ['extra' => self::INI_STAND_IN]);
        $root = $this->tree($utility);
        $path = self::utilityPath($root);
        [$status, $out] = $this->libraryTool($root, [], $flags);
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString("function parse_ini_with_fallback("
            . "\$file)\n{\n    return \\yioop_codec\\locale\\"
            . "parse_ini_with_fallback(\$file)\n        ?? "
            . "yioop_codec_php_parse_ini_with_fallback(\$file);\n}",
            file_get_contents($path));
        [, $out] = $this->libraryTool($root, ['--check'], $flags);
        $this->assertMatchesRegularExpression('~^parse_ini_with_fallback +'
            . 'native \(PHP forwarder~m', $out);
        $ini = $this->tempDir() . '/plain.ini';
        file_put_contents($ini, "[a]\nk = \"v\"\n");
        $script = $this->tempDir() . '/ini.php';
        file_put_contents($script, '<?php
            namespace seekquarry\yioop\library;
            require $argv[1];
            echo json_encode([parse_ini_with_fallback($argv[2]),
                parse_ini_with_fallback("relative.ini")]);');
        [$status, $out, $err] = self::php(array_merge($flags,
            [$script, $path, $ini]));
        $this->assertSame(0, $status, $err);
        $this->assertSame(json_encode([['a' => ['k' => 'v']],
            ['php' => 'relative.ini']]), trim($out), $err);
        [$status, $out] = $this->libraryTool($root, ['--revert'], $flags);
        $this->assertSame(0, $status, $out);
        $this->assertSame($utility, file_get_contents($path));
    }

    /**
     * A tree switched by the tool before it switched library functions:
     * --check says so and calls the function PHP, a re-run switches it
     * (its backup still Yioop's), and --revert gives the original.
     */
    public function testTreeSwitchedBeforeLibraryFunctionsIsSwitchedAgain():
        void
    {
        $original = self::utility('2019', ['extra' => self::INI_STAND_IN]);
        $root = $this->tree($original);
        $path = self::utilityPath($root);
        [$status, $out] = $this->libraryTool($root, [], self::bareFlags());
        $this->assertSame(0, $status, $out);
        $current = file_get_contents($path);
        $older = preg_replace('~/\* yioop-codec:begin parse_ini_with_fallback'
            . '\n.*?\} /\* yioop-codec:end parse_ini_with_fallback \*/~s',
            rtrim(self::INI_STAND_IN), $current, -1, $segments);
        $this->assertSame(1, $segments);
        file_put_contents($path, $older);
        [$status, $out] = $this->libraryTool($root, ['--check'],
            self::bareFlags());
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString('integrated by an older '
            . 'yioop-integrate.php (without the library functions', $out);
        [$status, $out] = $this->libraryTool($root, [], self::bareFlags());
        $this->assertSame(0, $status, $out);
        $this->assertStringContainsString('switching again', $out);
        $this->assertSame($current, file_get_contents($path));
        $this->assertSame($original,
            file_get_contents($path . '.yioop-codec.bak'));
        [$status, $out] = $this->libraryTool($root, ['--revert'],
            self::bareFlags());
        $this->assertSame(0, $status, $out);
        $this->assertSame($original, file_get_contents($path));
    }

    /** Runs the tool with the stand-in's hash recorded; [status, output]. */
    private function libraryTool(string $root, array $options,
        array $flags): array
    {
        return $this->toolAfter("YioopCodec\\Integrate\\FunctionPatch::"
            . "\$library_hashes = " . var_export(['parse_ini_with_fallback'
            => self::tokenHash(self::INI_STAND_IN)], true) . ";\n", $root,
            $options, $flags);
    }

    /**
     * The tool as shipped, on a copy of a real Yioop tree (YIOOP_DIR): its
     * stored hashes must recognise every switched method of Yioop's 2021 line.
     */
    public function testLiveYioopTree(): void
    {
        $dir = getenv('YIOOP_DIR') ?: null;
        if ($dir === null) {
            $this->markTestSkipped('Set YIOOP_DIR to a Yioop 2021 checkout '
                . 'to switch a copy of its IndexShard.php (see README, '
                . '"Using it with Yioop").');
        }
        $root = $this->tempDir();
        mkdir("$root/src/library", 0777, true);
        foreach (['Utility.php', 'IndexShard.php'] as $file) {
            $this->assertFileExists("$dir/src/library/$file");
            copy("$dir/src/library/$file", "$root/src/library/$file");
        }
        $originals = [self::utilityPath($root) => file_get_contents(
            self::utilityPath($root)), self::shardPath($root) =>
            file_get_contents(self::shardPath($root))];

        [$status, $out] = self::tool($root, [], self::bareFlags());
        $this->assertSame(0, $status, $out);
        foreach (array_keys($originals) as $path) {
            $this->assertLints($path);
        }
        $this->assertSame(count(self::SHARD), substr_count(
            file_get_contents(self::shardPath($root)), 'yioop-codec:method'));
        // the library functions' recorded hashes are Yioop's declarations'
        foreach (['parse_ini_with_fallback', 'webencode', 'webdecode'] as $name) {
            $this->assertStringContainsString("yioop-codec:begin $name",
                file_get_contents(self::utilityPath($root)));
        }
        [$status, $out] = self::tool($root, ['--check'], self::bareFlags());
        $this->assertSame(0, $status, $out);
        foreach (array_keys(self::SHARD) as $name) {
            $this->assertMatchesRegularExpression("~^$name +native~m", $out);
        }
        [$status, $out] = self::tool($root, ['--revert'], self::bareFlags());
        $this->assertSame(0, $status, $out);
        foreach ($originals as $path => $code) {
            $this->assertSame($code, file_get_contents($path), $path);
            $this->assertFileDoesNotExist($path . '.yioop-codec.bak');
        }
    }
}
