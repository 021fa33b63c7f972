<?php
/**
 * The function patch on a tree: Utility.php located, edited and reported
 * on by the commands; the codec line detected and printed together with
 * the yioop.format the extension needs for it.
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

use ReflectionFunction;

final class UtilityFile
{
    private readonly FunctionPatch $patch;

    public function __construct()
    {
        $this->patch = new FunctionPatch();
    }

    /** Path of the tree's Utility.php, or a refusal saying what is wrong. */
    public static function locate(string $root): string
    {
        if (!is_dir($root)) {
            throw new Refusal("$root is not a directory");
        }
        $root = rtrim($root, '/');
        $path = Files::locate($root, FunctionPatch::UTILITY);
        if ($path !== null) {
            return $path;
        }
        if (is_file("$root/lib/utility.php")) {
            throw new Refusal("$root looks like a Yioop release before 3.0 "
                . "(lib/utility.php, no namespaces, 2014 or older). Not "
                . "supported: its codec functions are declared in the "
                . "global namespace, where the extension registers its own, "
                . "so loading the extension with this tree fails with "
                . "\"Cannot redeclare\"; that line also does not run on the "
                . "PHP 8 the extension is built for. Do not load the "
                . "extension for this tree.");
        }
        throw new Refusal("$root is not a Yioop checkout I recognise: "
            . FunctionPatch::UTILITY . " not found");
    }

    /** Edits Utility.php (or says it is already done); returns its info. */
    public function apply(string $root): array
    {
        $path = self::locate($root);
        $code = Files::read($path);
        $state = $this->patch->state($code);
        $info = $state['info'];
        self::printTree($path, $info);
        if ($state['integrated'] && !$state['legacy']) {
            echo "Already integrated; nothing changed.\n";
            return $info;
        }
        if ($state['legacy']) {
            // switched by an older version of this tool: switch again from
            // the original, which the markers give back byte for byte
            echo "Integrated by an older yioop-integrate.php ("
                . self::olderShape($state['legacy']) . "); switching "
                . "again.\n";
            $code = $state['original'];
        }
        $new = $this->patch->transform($code, $info);
        $this->patch->verify($new, $code);
        $backup = Files::writeWithBackup($path, $code, $new);
        echo "Edited $path:\n";
        foreach ($info['edits'] as $name => $forward) {
            echo "  guarded $name" . ($forward
                ? ", with a forwarder to native \\"
                . FunctionPatch::nativeName($name) . "\n"
                : " (the extension registers " . FunctionPatch::NS
                . "\\$name)\n");
        }
        echo "Backup of the original: $backup\n";
        return $info;
    }

    /** --revert for Utility.php, found at $path by locate(). */
    public function revert(string $path): void
    {
        Files::revert($path, $this->patch);
    }

    /** --check's report on Utility.php and the extension. */
    public function check(string $root, bool $loaded): void
    {
        $path = self::locate($root);
        $state = $this->patch->state(Files::read($path));
        $info = $state['info'];
        self::printTree($path, $info);
        echo "Tree state:   " . ($state['legacy']
            ? "integrated by an older yioop-integrate.php ("
            . self::olderShape($state['legacy']) . "); run this tool "
            . "without --check to switch again"
            : ($state['integrated'] ? "integrated by yioop-integrate.php"
            : "not integrated (Yioop's original Utility.php)")) . "\n";
        self::printExtension($loaded, $info['format']);
        echo "(The php that serves Yioop may load other extensions than "
            . "this one; run --check with that php and its php.ini.)\n\n";
        $width = max(array_map('strlen', FunctionPatch::allNames())) + 2;
        foreach (FunctionPatch::allNames() as $name) {
            // an older tool left the library functions unswitched
            $switched = $state['integrated'] && !($state['legacy']
                && isset(FunctionPatch::LIBRARY[$name]));
            echo str_pad($name, $width) . self::verdict($name, $info,
                $switched, $loaded) . "\n";
        }
    }

    /** What an older shape of the tool's edit lacks (FunctionPatch::transform). */
    private static function olderShape(int $shape): string
    {
        return $shape === 3 ? "without the library functions: "
            . implode(", ", array_keys(FunctionPatch::LIBRARY))
            . " stays Yioop's PHP"
            : "without all of Yioop's PHP kept as fallback, so inputs the "
            . "natives decline are not Yioop's";
    }

    /** Prints what the tool found out about the tree. */
    private static function printTree(string $path, array $info): void
    {
        echo "Utility.php:  $path\n";
        echo "Yioop line:   {$info['line']}\n";
        echo "Recommended:  yioop.format={$info['format']}\n";
    }

    /** Whether this php has the extension, with the format $format. */
    private static function printExtension(bool $loaded, string $format):
        void
    {
        if (!$loaded) {
            echo "Extension:    not loaded in this php (" . PHP_BINARY
                . ")\n";
            if (extension_loaded('yioop_codec')) {
                echo "WARNING:      a module named yioop_codec is loaded, "
                    . "but Yioop tests extension_loaded(\"yioop\").\n";
            }
            return;
        }
        $version = phpversion(Patch::MODULE);
        $setting = ini_get('yioop.format');
        echo "Extension:    loaded in this php (" . PHP_BINARY
            . ($version ? ", version $version" : "") . "), yioop.format="
            . ($setting === false ? "(not registered)" : $setting) . "\n";
        if ($setting !== false && $setting !== $format) {
            echo "WARNING:      yioop.format is $setting but this tree "
                . "needs $format; postings would not be byte-identical to "
                . "Yioop's PHP code.\n";
        }
    }

    /** One line of --check output for $name. */
    private static function verdict(string $name, array $info,
        bool $integrated, bool $loaded): string
    {
        $fn = $info['functions'][strtolower($name)] ?? null;
        $qualified = FunctionPatch::NS . '\\' . $name;
        if (in_array($name, FunctionPatch::PHP_ONLY, true)) {
            return "PHP (not provided by the extension)";
        }
        if ($fn === null) {
            return $loaded ? "not declared by this tree (the extension "
                . "provides it; Yioop does not use it)"
                : "not declared by this tree (unused)";
        }
        if (!$loaded) {
            return "PHP (extension not loaded)";
        }
        if (isset(FunctionPatch::LIBRARY[$name])) {
            if (!isset($info['edits'][$name])) {
                return "PHP (Yioop's declaration is not the one this tool "
                    . "switches)";
            }
            if (!$integrated) {
                return "PHP (run this tool without --check to switch it)";
            }
        } elseif (in_array($name, FunctionPatch::NAMESPACED, true)) {
            if ($fn['context'] !== 'guard' && !$integrated) {
                return "CONFLICT: Yioop declares $qualified unguarded and "
                    . "the extension registers it too (Cannot redeclare); "
                    . "run this tool without --check";
            }
            if (!function_exists($qualified)) {
                return "BROKEN: Yioop skips its PHP version, but the "
                    . "extension does not define $qualified";
            }
            return "native ($qualified registered by the extension)";
        } elseif (!$integrated) {
            return "PHP (Yioop's $qualified shadows the native \\$name; "
                . "run this tool without --check)";
        }
        // a forwarder, to the global native or a library function's
        $native = FunctionPatch::nativeName($name);
        if (!function_exists($native)
            || !(new ReflectionFunction($native))->isInternal()) {
            return "BROKEN: the PHP forwarder calls \\$native, which the "
                . "extension does not define";
        }
        return "native (PHP forwarder $qualified -> \\$native)";
    }

    /**
     * For a refusal about damaged markers: where the original is, if a
     * backup exists.
     */
    public static function backupHint(string $root, string $message): string
    {
        if (strpos($message, 'by hand') === false) {
            return '';
        }
        $utility = Files::locate($root, FunctionPatch::UTILITY)
            ?? rtrim($root, '/') . '/' . FunctionPatch::UTILITY;
        $backup = $utility . Files::BACKUP_SUFFIX;
        return is_file($backup) ? ". The backup $backup holds Utility.php as "
            . "it was before integration; copy it back to restore Yioop's "
            . "version, then run this tool again" : ". No backup "
            . "(Utility.php" . Files::BACKUP_SUFFIX . ") was found; restore "
            . "Yioop's Utility.php from its release";
    }
}
