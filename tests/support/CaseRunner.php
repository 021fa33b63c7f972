<?php
namespace YioopCodec\Tests;

/**
 * The runners of tests/support/<name>/run.php, as the tests call them: one
 * PHP process of their own, printing their cases as JSON.
 */
final class CaseRunner
{
    /**
     * What $runner printed: in 'stand-ins' mode under the extension, in
     * 'yioop' mode on Yioop's own classes ($yioop) without it.
     */
    public static function run(string $runner, string $mode, ?string $yioop = null): array
    {
        $command = $mode === 'yioop' ? [PHP_BINARY, '-n', $runner, 'yioop', $yioop]
            : [PHP_BINARY, '-n', '-d', 'extension=' . LoadedExtension::path(), $runner, 'stand-ins'];
        $out = shell_exec(implode(' ', array_map('escapeshellarg', $command)) . ' 2>&1');
        $cases = json_decode((string)$out, true);
        if (!is_array($cases)) {
            throw new \RuntimeException("no result: $out");
        }
        return $cases;
    }
}
