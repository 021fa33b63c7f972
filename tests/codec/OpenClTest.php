<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * The OpenCL path seen from PHP: phpinfo's report, and contexts across
 * fork(). tests/run.sh runs the whole suite with yioop.opencl=on and again
 * with no OpenCL driver (an empty OCL_ICD_VENDORS directory).
 */
class OpenClTest extends TestCase
{
    /** The yioop section of phpinfo(), as "label => value" lines. */
    private static function info(): array
    {
        ob_start();
        phpinfo(INFO_MODULES);
        $text = ob_get_clean();
        $section = substr($text, strpos($text, "\nyioop\n"));
        $rows = [];
        foreach (explode("\n", $section) as $line) {
            if (str_contains($line, ' => ')) {
                [$label, $value] = explode(' => ', $line, 2);
                $rows[$label] ??= $value;
            }
        }
        return $rows;
    }

    /** yioop.opencl as the extension reads it (PHP's INI parser turns "on" into "1"). */
    private static function mode(): string
    {
        $value = strtolower(trim((string)ini_get('yioop.opencl')));
        return match ($value) {
            '1', 'on', 'true', 'yes' => 'on',
            '0', '', 'off', 'false', 'no', 'none' => 'off',
            default => $value,
        };
    }

    private static function noDriver(): bool
    {
        $vendors = getenv('OCL_ICD_VENDORS');
        return $vendors !== false && is_dir($vendors) && count(scandir($vendors)) === 2;
    }

    public function testPhpinfoShowsModeAndMinLength(): void
    {
        $info = self::info();
        $this->assertSame(self::mode(), $info['OpenCL mode (yioop.opencl)']);
        $this->assertSame(ini_get('yioop.opencl_min_length'), $info['OpenCL min length (yioop.opencl_min_length)']);
        $this->assertSame(ini_get('yioop.opencl_prefix_min_length'),
            $info['OpenCL prefix-sum min length (yioop.opencl_prefix_min_length)']);
        $this->assertArrayHasKey('OpenCL context', $info);
    }

    /** The decode's and the prefix sum's thresholds are read apart (a GPU pays for one only). */
    public function testDecodeAndPrefixSumThresholdsAreSeparate(): void
    {
        $code = 'ob_start(); phpinfo(INFO_MODULES); $t = ob_get_clean();'
            . ' preg_match_all("/^OpenCL (?:prefix-sum )?min length \\(([a-z_.]+)\\) => (.*)$/m", $t, $m);'
            . ' echo json_encode(array_combine($m[1], $m[2]));';
        $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . LoadedExtension::path(), '-d', 'yioop.opencl=off',
            '-d', 'yioop.opencl_min_length=262144', '-d', 'yioop.opencl_prefix_min_length=7', '-r', $code];
        $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        proc_close($proc);
        $this->assertSame(['yioop.opencl_min_length' => '262144', 'yioop.opencl_prefix_min_length' => '7'],
            json_decode($out, true), $out);
    }

    public function testWithoutADriverPhpinfoSaysWhyOpenClIsOff(): void
    {
        if (!self::noDriver()) {
            $this->markTestSkipped('runs when OCL_ICD_VENDORS is an empty directory (tests/run.sh does that)');
        }
        $info = self::info();
        $this->assertSame('none', $info['OpenCL context']);
        $this->assertStringContainsString('no OpenCL platform', $info['OpenCL off because']);
    }

    public function testWithADeviceAndOpenClOnPhpinfoShowsIt(): void
    {
        if (self::mode() !== 'on' || self::noDriver()) {
            $this->markTestSkipped('runs with -d yioop.opencl=on and a driver (tests/run.sh does that)');
        }
        $info = self::info();
        $this->assertSame('live in this process', $info['OpenCL context'], json_encode($info));
        $this->assertNotEmpty($info['OpenCL platform']);
        $this->assertNotEmpty($info['OpenCL device']);
        $this->assertGreaterThan(0, (int)$info['OpenCL compute units']);
    }

    /** A long posting: 300,000 positions, about 100,000 words. */
    private static function longPosting(): array
    {
        mt_srand(11);
        $positions = [];
        $p = 0;
        for ($i = 0; $i < 300000; $i++) {
            $p += mt_rand(1, 400);
            $positions[] = $p;
        }
        return [packPosting(123, $positions), $positions];
    }

    /**
     * The parent decodes through OpenCL, forks, and both decode again. A
     * driver's threads do not survive fork(), so a child forked after its
     * parent set OpenCL up (on PoCL, its first kernel never finishes) must
     * not touch the parent's context: it decodes on the scalar path, right,
     * and its phpinfo says why. Workers of php-fpm or Apache prefork are
     * forked before any OpenCL use and build their own on their first request.
     */
    public function testParentAndForkedChildBothDecodeRight(): void
    {
        if (!function_exists('pcntl_fork')) {
            $this->markTestSkipped('needs the pcntl extension');
        }
        if (self::mode() !== 'on' || self::noDriver()) {
            $this->markTestSkipped('runs with -d yioop.opencl=on and a driver (tests/run.sh does that)');
        }
        [$posting, $positions] = self::longPosting();
        $decode = function () use ($posting) {
            $offset = 0;
            return unpackPosting($posting, $offset);
        };
        $this->assertSame([123, $positions], $decode(), 'parent, before fork');
        $this->assertSame('live in this process', self::info()['OpenCL context']);
        $report = tempnam(sys_get_temp_dir(), 'yioop-fork');
        $pid = pcntl_fork();
        if ($pid === 0) {
            // The child: decode, report, and leave without running PHPUnit's shutdown.
            $ok = $decode() === [123, $positions];
            $info = self::info();
            file_put_contents($report, json_encode(['ok' => $ok, 'context' => $info['OpenCL context'],
                'why' => $info['OpenCL off because'] ?? '']));
            posix_kill(posix_getpid(), SIGKILL);
        }
        $this->assertSame([123, $positions], $decode(), 'parent, after fork');
        pcntl_waitpid($pid, $status);
        $child = json_decode(file_get_contents($report), true);
        unlink($report);
        $this->assertTrue($child['ok'], 'the child decoded the same list');
        $this->assertSame('none', $child['context']);
        $this->assertStringContainsString('forked', $child['why']);
        $info = self::info();
        $this->assertSame('live in this process', $info['OpenCL context'], 'the parent keeps its context');
        $this->assertArrayNotHasKey('OpenCL last error', $info);
    }

    /**
     * A PHP process with only $env for environment and OpenCL on: its exit
     * status, its decode of [1,2,3], and its phpinfo reason.
     */
    private static function runWithEnvironment(array $env): array
    {
        $code = '$o = 0; echo json_encode(decodeModified9(encodeModified9([1, 2, 3]), $o)), "\n";'
            . ' ob_start(); phpinfo(INFO_MODULES); $t = ob_get_clean();'
            . ' preg_match("/^OpenCL off because => (.*)$/m", $t, $m); echo $m[1] ?? "", "\n";';
        $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . LoadedExtension::path(), '-d', 'yioop.opencl=on',
            '-d', 'yioop.opencl_min_length=0', '-r', $code];
        $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
        $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        $status = proc_close($proc);
        $lines = explode("\n", $out);
        return [$status, $lines[0], $lines[1] ?? '', $out];
    }

    private function requirePoclWithOpenClOn(): void
    {
        if (self::mode() !== 'on' || self::noDriver()) {
            $this->markTestSkipped('runs with -d yioop.opencl=on and a driver (tests/run.sh does that)');
        }
        if ((self::info()['OpenCL platform'] ?? '') !== 'Portable Computing Language') {
            $this->markTestSkipped('the causes named here are PoCL\'s');
        }
    }

    /** fpm's clear_env leaves no PATH: PoCL aborted at its first kernel link. */
    public function testWithoutPathTheProcessLivesRunsScalarAndNamesLd(): void
    {
        $this->requirePoclWithOpenClOn();
        $cache = sys_get_temp_dir() . '/yioop-no-path-' . getmypid();
        mkdir($cache);
        try {
            [$status, $decoded, $reason, $all] = self::runWithEnvironment(['POCL_CACHE_DIR' => $cache]);
        } finally {
            exec('rm -rf ' . escapeshellarg($cache));
        }
        $this->assertSame(0, $status, $all);
        $this->assertSame('[1,2,3]', $decoded);
        $this->assertStringContainsString('no `ld` on PATH', $reason);
        $this->assertStringContainsString('env[PATH] = /usr/bin:/bin', $reason);
        $this->assertStringContainsString('SIGABRT', $reason);
    }

    /** fpm's workers get the pool user's HOME: PoCL finds no device when it cannot cache there. */
    public function testWithAnUnwritableCacheDirectoryPhpinfoNamesPoclCacheDir(): void
    {
        $this->requirePoclWithOpenClOn();
        [$status, $decoded, $reason, $all] = self::runWithEnvironment(
            ['HOME' => '/proc/yioop-no-home', 'PATH' => '/usr/bin:/bin']);
        $this->assertSame(0, $status, $all);
        $this->assertSame('[1,2,3]', $decoded);
        $this->assertStringContainsString('/proc/yioop-no-home/.cache/pocl/kcache (from HOME) is not writable', $reason);
        $this->assertStringContainsString('set POCL_CACHE_DIR', $reason);
    }

    public function testALiveContextShowsItsProbe(): void
    {
        if (self::mode() !== 'on' || self::noDriver()) {
            $this->markTestSkipped('runs with -d yioop.opencl=on and a driver (tests/run.sh does that)');
        }
        $this->assertMatchesRegularExpression('/^passed in \d+\.\d\d s \(child process, limit \d+ s\)$/',
            self::info()['OpenCL probe'] ?? '');
        $this->assertSame('60 s', self::info()['OpenCL probe time limit (yioop.opencl_probe_timeout)']);
    }
}
