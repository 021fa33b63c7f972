<?php
/**
 * yioop-integrate.php -- point a Yioop checkout at the native functions of
 * the yioop_codec PHP extension (PHP module name "yioop").
 *
 * Usage:
 *     php php/yioop-integrate.php /path/to/yioop            (apply)
 *     php php/yioop-integrate.php /path/to/yioop --check    (report only)
 *     php php/yioop-integrate.php /path/to/yioop --revert   (undo)
 *   each with --work-dir=DIR to name the work directory Yioop uses, which
 *   is otherwise read from the tree (integrate/WorkDir.php).
 *
 * Two kinds of edit, each only inserting marked text, so --revert gets the
 * original bytes back (backups NAME.yioop-codec.bak are kept as well) and
 * a second run changes nothing:
 *   - src/library/Utility.php: the codec functions the extension registers
 *     only globally get a guard and a forwarder to the native function
 *     (integrate/FunctionPatch.php);
 *   - the methods of integrate/SwitchTable.php, in their Yioop files: a
 *     guard line that hands the call to the native function, for methods
 *     whose code is Yioop's (integrate/MethodPatch.php, Guards.php); also
 *     in the work directory's copies of those files (app/..., which Yioop
 *     loads instead of src/...: its installer copies src/locale there).
 * Without the extension Yioop's PHP runs as before. Pre-3.0 trees
 * (lib/utility.php, no namespaces) are refused: with them the extension
 * is a "Cannot redeclare" fatal error.
 *
 * Exit status: 0 done / nothing to do / report printed, 1 tree refused,
 * 2 usage error, 3 file system error (see integrate/Cli.php).
 */

declare(strict_types=1);

use YioopCodec\Integrate\Cli;
use YioopCodec\Integrate\MethodPatch;
use YioopCodec\Integrate\SwitchTable;

foreach (['errors', 'Tokens', 'Files', 'Patch', 'Guards', 'SwitchTable',
    'CodecLine', 'FunctionScan', 'FunctionPatch', 'UtilityFile',
    'MethodPatch', 'MethodFile', 'WorkDir', 'Cli'] as $part) {
    require_once __DIR__ . "/integrate/$part.php";
}

/** The tool's entry point, and the hooks its tests use. */
final class YioopIntegrate
{
    /**
     * When set, method (or Class::method) => token hash replacing the
     * switch table's (tests use it to run the tool on synthetic files).
     * @var array<string, string>|null
     */
    public static ?array $shard_hashes = null;

    /**
     * When set, Class => its 'reads' (method => token hash), replacing the
     * table's: tests of fixtures that declare only switched methods set [].
     * @var array<string, array<string, string>>|null
     */
    public static ?array $reads = null;

    /**
     * Runs the command line; returns the exit status.
     * @param string[] $argv
     */
    public static function main(array $argv): int
    {
        return (new Cli(basename(__FILE__),
            SwitchTable::byFile(self::$shard_hashes ?? [],
            self::$reads)))->main($argv);
    }

    /**
     * Token hash of every method of table class $class in $code,
     * lower-case name => hash (how the table's hashes were computed).
     * @return array<string, string>
     */
    public static function methodHashes(string $code,
        string $class = 'IndexShard'): array
    {
        $entry = SwitchTable::CLASSES[$class];
        return (new MethodPatch(basename($entry['file']), []))->hashes($code,
            $class, $entry['namespace']);
    }
}

if (PHP_SAPI === 'cli' && isset($argv[0])
    && realpath($argv[0]) === realpath(__FILE__)) {
    exit(YioopIntegrate::main($argv));
}
