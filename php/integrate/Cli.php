<?php
/**
 * The command line: apply (default), --check or --revert on a Yioop tree,
 * Utility.php first, then every file of the switch table, in the tree and
 * in the work directory Yioop uses (--work-dir=DIR, else read from the
 * tree: WorkDir).
 *
 * Exit status: 0 done / nothing to do / report printed, 1 tree refused
 * (also by --check, which cannot report on a tree it does not recognise;
 * a file of switched methods that cannot be used is reported, not
 * refused, except by --revert; so is a work directory that cannot be
 * found or read, unless --work-dir named it), 2 usage error, 3 file system
 * error.
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

final class Cli
{
    /**
     * @param string $tool the tool's file name, for the undo hint
     * @param array<string, SwitchedMethod[]> $table SwitchTable::byFile()
     */
    public function __construct(private readonly string $tool,
        private readonly array $table)
    {
    }

    /**
     * Runs the command line; returns the exit status.
     * @param string[] $argv
     */
    public function main(array $argv): int
    {
        $usage = "usage: php " . basename($argv[0] ?? $this->tool)
            . " /path/to/yioop [--check | --revert] [--work-dir=DIR]\n";
        $parsed = self::parse(array_slice($argv, 1));
        if (is_string($parsed)) {
            fwrite(STDERR, $parsed . $usage);
            return 2;
        }
        [$mode, $root, $work_dir] = $parsed;
        if ($mode === 'help') {
            echo $usage;
            return 0;
        }
        if (!function_exists('token_get_all')) {
            fwrite(STDERR, "yioop-integrate: PHP's tokenizer extension is "
                . "needed (do not run this tool with php -n)\n");
            return 2;
        }
        try {
            if (!is_dir($root)) {
                UtilityFile::locate($root); // refuses, saying why
            }
            $work = WorkDir::find($root, $work_dir);
            echo $work->describe() . "\n\n";
            return match ($mode) {
                'check' => $this->check($root, $work),
                'revert' => $this->revert($root, $work),
                default => $this->apply($root, $work),
            };
        } catch (Refusal $e) {
            fwrite(STDERR, "yioop-integrate: refused: " . $e->getMessage()
                . UtilityFile::backupHint($root, $e->getMessage()) . "\n");
            return 1;
        } catch (IoError $e) {
            fwrite(STDERR, "yioop-integrate: " . $e->getMessage() . "\n");
            return 3;
        }
    }

    /**
     * [mode, root, work directory or null] from the arguments, mode one of
     * apply, check, revert and help; or what is wrong with them.
     * @param string[] $args
     */
    private static function parse(array $args): array|string
    {
        $mode = 'apply';
        $root = null;
        $work_dir = null;
        foreach ($args as $arg) {
            if (str_starts_with($arg, '--work-dir=')) {
                if ($work_dir !== null || $arg === '--work-dir=') {
                    return "--work-dir=DIR names one directory\n";
                }
                $work_dir = substr($arg, strlen('--work-dir='));
            } elseif ($arg === '--check' || $arg === '--revert') {
                if ($mode !== 'apply') {
                    return "--check and --revert exclude each other\n";
                }
                $mode = substr($arg, 2);
            } elseif ($arg === '--help' || $arg === '-h') {
                return ['help', null, null];
            } elseif ($arg !== '' && $arg[0] === '-') {
                return "unknown option $arg\n";
            } elseif ($root === null) {
                $root = $arg;
            } else {
                return "only one Yioop directory, please\n";
            }
        }
        return $root === null ? '' : [$mode, $root, $work_dir];
    }

    /** Default action: edit Utility.php and the table's files. */
    private function apply(string $root, WorkDir $work): int
    {
        $info = (new UtilityFile())->apply($root);
        foreach (MethodFile::all($this->table) as $file) {
            echo "\n";
            $file->apply($root, $work, extension_loaded(Patch::MODULE));
        }
        echo "\n";
        $this->printNextSteps($info['format']);
        return 0;
    }

    /** --check: report which implementation every call reaches. */
    private function check(string $root, WorkDir $work): int
    {
        $loaded = extension_loaded(Patch::MODULE);
        (new UtilityFile())->check($root, $loaded);
        foreach (MethodFile::all($this->table) as $file) {
            echo "\n";
            $file->check($root, $work, $loaded);
        }
        return 0;
    }

    /** --revert: take the inserted text out of every file again. */
    private function revert(string $root, WorkDir $work): int
    {
        $path = UtilityFile::locate($root);
        $status = 0;
        foreach (MethodFile::all($this->table) as $file) {
            $status = max($status, $file->revert($root, $work));
        }
        (new UtilityFile())->revert($path);
        return $status;
    }

    /** Tells how to switch the extension on for this tree. */
    private function printNextSteps(string $format): void
    {
        echo "To use the native codec, load the extension in the php that "
            . "runs Yioop (web server and command line), e.g. in php.ini:\n"
            . "    extension=yioop_codec.so\n"
            . "    yioop.format=$format\n"
            . "then restart PHP-FPM or the web server (opcache may hold the "
            . "old Utility.php).\n"
            . "Undo with: php {$this->tool} <yioop dir> --revert\n"
            . "Re-run this tool after copying src/locale to the work "
            . "directory's app/locale again (Yioop's installer does): the "
            . "fresh copy is Yioop's PHP.\n";
    }
}
