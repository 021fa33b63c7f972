<?php
namespace YioopCodec\Tests;

/**
 * A PHP process of its own with this build's extension and one INI setting
 * given on its command line, as an operator's php.ini gives it: for tests
 * of settings read at startup (the caches' sizes).
 */
final class SettingProcess
{
    /**
     * Runs $script, whose last line of output is a JSON array: that
     * array's elements, then what PHP printed before it (startup warnings).
     */
    public static function run(string $setting, string $value, string $script): array
    {
        $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . LoadedExtension::path(), '-d',
            "$setting=$value", '-r', $script];
        $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        proc_close($proc);
        $lines = explode("\n", rtrim($out));
        $result = json_decode(array_pop($lines), true);
        if (!is_array($result)) {
            throw new \RuntimeException("no result: $out $err");
        }
        return [...$result, implode("\n", $lines)];
    }
}
