<?php
/**
 * yioop-integrate.php -- point a Yioop checkout at the native codec functions
 * of the yioop_codec PHP extension (PHP module name "yioop").
 *
 * Usage:
 *     php php/yioop-integrate.php /path/to/yioop            (apply)
 *     php php/yioop-integrate.php /path/to/yioop --check    (report only)
 *     php php/yioop-integrate.php /path/to/yioop --revert   (undo)
 *
 * Why an edit is needed
 * ---------------------
 * Yioop's src/library/Utility.php (namespace seekquarry\yioop\library)
 * declares the posting-list codec in PHP. Six of those functions already sit
 * in an `if (!extension_loaded("yioop")) { ... }` block; the extension
 * registers those six both globally and as seekquarry\yioop\library\NAME, so
 * they need nothing. The other codec functions (packPosting, unpackPosting,
 * addDocIndexPostings, deltaList, deDeltaList, encodeModified9,
 * nextPostString, decodeModified9) are declared unconditionally, and the
 * extension registers them only in the global namespace, so every Yioop call
 * (unqualified inside the namespace, or L\packPosting(...) elsewhere) keeps
 * reaching the PHP version. For each of those eight functions this tool
 * wraps Yioop's declaration as
 *
 *     if (!extension_loaded("yioop")) {
 *         <Yioop's original declaration, byte for byte>
 *     } else {
 *         function NAME(<Yioop's parameter list>) { return \NAME(<args>); }
 *     }
 *
 * so that without the extension Yioop defines exactly what it did before,
 * and with it seekquarry\yioop\library\NAME is a thin forwarder to the native
 * global function (by-reference parameters stay by-reference). Unqualified
 * calls inside the namespace reach the forwarder as well, so each costs one
 * extra PHP call frame on top of the native work.
 * packListModified9 is not provided by the extension and is left alone.
 * If one of the six namespaced functions is ever found outside a guard it is
 * wrapped in a guard without a forwarder (the extension supplies it there).
 *
 * IndexShard.php (optional)
 * -------------------------
 * The extension also implements twelve methods of class
 * seekquarry\yioop\library\IndexShard as \yioop_codec\shard\NAME($shard,
 * <the method's parameters>): readBlockShardAtOffset, getShardSubstring and
 * getShardWord always; getWordDocsWord, getWordDocsSubstring,
 * getDocInfoSubstring, getDocIndexOfPostingAtOffset, getPostingAtOffset and
 * nextPostingOffsetDocOffset for a shard read from disk; getWordInfo for a
 * shard read from disk with a raw id and documents; postingsSliceAscending
 * and postingsSliceDescending for a shard read from disk given int offsets
 * and length (SHARD_METHODS, one line per method). Each is switched by one marked line, inserted as the first
 * statement of its body:
 *
 *     if (\extension_loaded("yioop") && <condition>) {
 *         return \yioop_codec\shard\NAME($this, <args>); }
 *
 * all on one line, which ends in the comment "yioop-codec:method NAME".
 * Without the extension Yioop's PHP runs as before. A method is only
 * switched when its token hash (methodHash(): its tokens without whitespace
 * and comments) is the one of Yioop's 2021 line: a reformatted method is
 * recognised, a changed one stays on PHP, and --check says why. A tree
 * without IndexShard.php, or with one that does not parse, still gets its
 * Utility.php switched; --check reports it.
 *
 * Declarations are located with PHP's tokenizer, not with regular
 * expressions over the file. The edit only inserts text (marked segments
 * and lines), so --revert removes exactly those and gets the original
 * bytes back; backups (Utility.php.yioop-codec.bak,
 * IndexShard.php.yioop-codec.bak) are kept as well. Running the tool twice
 * changes nothing the second time.
 *
 * The codec line of the tree is detected and printed together with the
 * yioop.format INI value the extension needs for it:
 *   2015 (Yioop 3.x): packPosting stores the first position delta plus one
 *                     ($delta_list[0]++), unpackPosting takes it off again.
 *   2019:             no such +1; Utility.php also guards
 *                     decodeQueueWeightInfo/encodeQueueWeightInfo/
 *                     adjustWeightCallback.
 * Pre-3.0 trees (lib/utility.php, no namespaces, 2014 and earlier) are
 * refused: their codec functions are global, so loading the extension with
 * them is a "Cannot redeclare" fatal error, and that line does not run on
 * the PHP 8 the extension is built for.
 *
 * Exit status: 0 done / nothing to do / report printed, 1 tree refused
 * (also by --check, which cannot report on a tree it does not recognise;
 * an IndexShard.php that cannot be used is reported, not refused, except
 * by --revert), 2 usage error, 3 file system error.
 */

declare(strict_types=1);

/** A tree or file this tool will not touch; the message says why. */
final class YioopIntegrateRefusal extends RuntimeException
{
}

/** A file system operation that failed. */
final class YioopIntegrateIoError extends RuntimeException
{
}

final class YioopIntegrate
{
    /** PHP module name of the extension, as tested by extension_loaded(). */
    public const MODULE = 'yioop';
    /** Namespace of Yioop's library functions. */
    public const NS = 'seekquarry\\yioop\\library';
    /** Where the codec lives inside a Yioop checkout (3.x and later). */
    public const UTILITY = 'src/library/Utility.php';
    /** Suffix of the backup written next to Utility.php. */
    public const BACKUP_SUFFIX = '.yioop-codec.bak';
    /** Prefix of every marker comment this tool writes. */
    public const MARK = 'yioop-codec:';

    /**
     * Registered by the extension in the global namespace only; Yioop
     * declares them unconditionally, so they get a guard and a forwarder.
     */
    public const GLOBAL_ONLY = ['packPosting', 'unpackPosting',
        'addDocIndexPostings', 'deltaList', 'deDeltaList', 'encodeModified9',
        'nextPostString', 'decodeModified9'];
    /**
     * Registered by the extension globally and in the namespace; Yioop must
     * not declare them when the extension is loaded.
     */
    public const NAMESPACED = ['unpackListModified9', 'docIndexModified9',
        'unpackInt', 'decodeQueueWeightInfo', 'encodeQueueWeightInfo',
        'adjustWeightCallback'];
    /** The queue-weight functions, present (guarded) in the 2019 line only. */
    public const QUEUE = ['decodeQueueWeightInfo', 'encodeQueueWeightInfo',
        'adjustWeightCallback'];
    /** Codec helpers the extension does not provide; they stay PHP. */
    public const PHP_ONLY = ['packListModified9'];

    /** Where IndexShard lives inside a Yioop checkout (optional). */
    public const INDEX_SHARD = 'src/library/IndexShard.php';
    /** The class in INDEX_SHARD whose methods are switched. */
    public const SHARD_CLASS = 'IndexShard';
    /** Namespace of the extension's native IndexShard functions. */
    public const SHARD_NATIVE = 'yioop_codec\\shard';
    /**
     * Conditions, besides the extension being loaded, under which a method
     * hands its call to the native function.
     */
    public const SHARD_GUARDS = [
        'always' => '',
        'disk' => '$this->read_only_from_disk',
        // The native getWordInfo reads the header itself, as
        // getShardHeader() would.
        'disk_raw' => '$this->read_only_from_disk && $raw',
        // The native function returns null, before changing anything, for
        // input it leaves to Yioop's PHP (the method then carries on).
        'declines' => '',
        // The same for a method that returns nothing: the native function
        // returns true when it has done the method's work.
        'declines_void' => '',
        // The native slices take int offsets and lengths only; any other
        // type keeps PHP's own arithmetic on it.
        'disk_int_slice' => '$this->read_only_from_disk'
            . ' && \\is_int($start_offset) && \\is_int($next_offset)'
            . ' && \\is_int($last_offset) && \\is_int($len)',
    ];
    /**
     * IndexShard methods switched to \yioop_codec\shard\NAME($this, ...):
     * name => [key of SHARD_GUARDS, token hash (methodHash()) of the
     * declaration in Yioop's 2021 line]. A method whose hash differs stays
     * on Yioop's PHP.
     */
    public const SHARD_METHODS = [
        'readBlockShardAtOffset' => ['always', '5338f614b2e2fa98'],
        'getShardSubstring' => ['always', 'b518e71bd9ff1a9a'],
        'getShardWord' => ['always', '88f792737892fad5'],
        'getWordDocsWord' => ['disk', '137ca9ac3c2a28c0'],
        'getWordDocsSubstring' => ['disk', 'f95dc39c0f3e7ec5'],
        'getDocInfoSubstring' => ['disk', '6a4d9466ee87eaa7'],
        'getDocIndexOfPostingAtOffset' => ['disk', 'd9933b3a011e94d7'],
        'getPostingAtOffset' => ['disk', 'ee0743f3b4deef80'],
        'nextPostingOffsetDocOffset' => ['disk', 'df3ce0b443421ecb'],
        'getWordInfo' => ['disk_raw', 'e0cbd8fe1e7aa7ec'],
        'addDocumentWords' => ['declines', 'ea656ec8cbaef6c2'],
        'postingsSliceAscending' => ['disk_int_slice', 'e2900ac5d38b15d2'],
        'postingsSliceDescending' => ['disk_int_slice', '3b864ed1a4b5e798'],
        'mergeWordPostingsToString' => ['declines_void', 'c6e204cf13489a4a'],
        'prepareWordsAndPrefixes' => ['declines_void', '0ea0a033c47ef861'],
        'packWords' => ['declines_void', 'e5cbb7439352e844'],
        'outputPostingLists' => ['declines_void', 'aac165bed3ce053d'],
    ];
    /**
     * When set, name => token hash replacing the hashes of SHARD_METHODS
     * (tests use it to run the tool on synthetic IndexShard.php files).
     * @var array<string, string>|null
     */
    public static ?array $shard_hashes = null;
    /** Modifiers that may precede a method's function keyword. */
    private const MODIFIERS = [T_PUBLIC, T_PROTECTED, T_PRIVATE, T_STATIC,
        T_FINAL, T_ABSTRACT];

    /** Tokens that carry no syntax. */
    private const TRIVIA = [T_WHITESPACE, T_COMMENT, T_DOC_COMMENT];

    /**
     * Functions every recognised tree must declare.
     * @return string[]
     */
    public static function required(): array
    {
        return array_merge(self::GLOBAL_ONLY, ['unpackListModified9',
            'docIndexModified9', 'unpackInt'], self::PHP_ONLY);
    }

    /**
     * Every function name this tool reports on, in report order.
     * @return string[]
     */
    public static function allNames(): array
    {
        return array_merge(self::GLOBAL_ONLY, self::NAMESPACED,
            self::PHP_ONLY);
    }

    /* ------------------------------------------------------------------ */
    /* Command line                                                       */
    /* ------------------------------------------------------------------ */

    /**
     * Runs the command line; returns the exit status.
     * @param string[] $argv
     */
    public static function main(array $argv): int
    {
        $usage = "usage: php " . basename($argv[0] ?? 'yioop-integrate.php')
            . " /path/to/yioop [--check | --revert]\n";
        $mode = 'apply';
        $root = null;
        foreach (array_slice($argv, 1) as $arg) {
            if ($arg === '--check' || $arg === '--revert') {
                if ($mode !== 'apply') {
                    fwrite(STDERR, "--check and --revert exclude each other\n"
                        . $usage);
                    return 2;
                }
                $mode = substr($arg, 2);
            } elseif ($arg === '--help' || $arg === '-h') {
                echo $usage;
                return 0;
            } elseif ($arg !== '' && $arg[0] === '-') {
                fwrite(STDERR, "unknown option $arg\n" . $usage);
                return 2;
            } elseif ($root === null) {
                $root = $arg;
            } else {
                fwrite(STDERR, "only one Yioop directory, please\n" . $usage);
                return 2;
            }
        }
        if ($root === null) {
            fwrite(STDERR, $usage);
            return 2;
        }
        if (!function_exists('token_get_all')) {
            fwrite(STDERR, "yioop-integrate: PHP's tokenizer extension is "
                . "needed (do not run this tool with php -n)\n");
            return 2;
        }
        try {
            switch ($mode) {
                case 'check':
                    return self::check($root);
                case 'revert':
                    return self::revert($root);
                default:
                    return self::apply($root);
            }
        } catch (YioopIntegrateRefusal $e) {
            fwrite(STDERR, "yioop-integrate: refused: " . $e->getMessage()
                . self::backupHint($root, $e->getMessage()) . "\n");
            return 1;
        } catch (YioopIntegrateIoError $e) {
            fwrite(STDERR, "yioop-integrate: " . $e->getMessage() . "\n");
            return 3;
        }
    }

    /**
     * For a refusal about damaged markers: where the original is, if a
     * backup exists.
     */
    private static function backupHint(string $root, string $message): string
    {
        if (strpos($message, 'by hand') === false) {
            return '';
        }
        $backup = rtrim($root, '/') . '/' . self::UTILITY
            . self::BACKUP_SUFFIX;
        if (is_link(rtrim($root, '/') . '/' . self::UTILITY)) {
            $real = realpath(rtrim($root, '/') . '/' . self::UTILITY);
            $backup = $real === false ? $backup : $real . self::BACKUP_SUFFIX;
        }
        return is_file($backup) ? ". The backup $backup holds Utility.php as "
            . "it was before integration; copy it back to restore Yioop's "
            . "version, then run this tool again" : ". No backup "
            . "(Utility.php" . self::BACKUP_SUFFIX . ") was found; restore "
            . "Yioop's Utility.php from its release";
    }

    /**
     * Default action: edit Utility.php and IndexShard.php (or say it is
     * already done).
     */
    public static function apply(string $root): int
    {
        $path = self::locateUtility($root);
        $code = self::read($path);
        $state = self::state($code);
        $info = $state['info'];
        self::printTree($path, $info);
        if ($state['integrated']) {
            echo "Already integrated; nothing changed.\n";
        } else {
            $new = self::transform($code, $info);
            self::verifyOutput($new, $code);
            $backup = self::writeWithBackup($path, $code, $new);
            echo "Edited $path:\n";
            foreach ($info['edits'] as $name => $forward) {
                echo "  guarded $name" . ($forward
                    ? ", with a forwarder to native \\$name\n"
                    : " (the extension registers " . self::NS
                    . "\\$name)\n");
            }
            echo "Backup of the original: $backup\n";
        }
        self::applyShard($root, extension_loaded(self::MODULE));
        echo "\n";
        self::printNextSteps($info);
        return 0;
    }

    /**
     * Writes $new over $path, whose current content is $code, keeping
     * $code in the backup next to it; returns the backup's path. Refuses
     * when a backup with other content is already there.
     */
    private static function writeWithBackup(string $path, string $code,
        string $new): string
    {
        $backup = $path . self::BACKUP_SUFFIX;
        if (file_exists($backup)) {
            if (self::read($backup) !== $code) {
                throw new YioopIntegrateRefusal("$backup exists and differs "
                    . "from the current " . basename($path) . " (left over "
                    . "from an earlier Yioop version?). Move it away or "
                    . "delete it, then run again.");
            }
        } else {
            self::writeAtomic($backup, $code, $path);
        }
        self::writeAtomic($path, $new, $path);
        return $backup;
    }

    /**
     * --revert: take the inserted segments out of IndexShard.php and
     * Utility.php again.
     */
    public static function revert(string $root): int
    {
        $path = self::locateUtility($root);
        $status = self::revertShard($root);
        self::revertFile($path, [self::class, 'strip'],
            function (string $original): string {
                return self::transform($original, self::analyze($original));
            });
        return $status;
    }

    /**
     * Restores $path: $strip takes this tool's insertions out (null: there
     * are none), $rebuild inserts them again, to prove that nothing else in
     * the marked parts was changed. Refuses when that proof fails and no
     * backup matches.
     */
    private static function revertFile(string $path, callable $strip,
        callable $rebuild): void
    {
        $file = basename($path);
        $code = self::read($path);
        $backup = $path . self::BACKUP_SUFFIX;
        $original = $strip($code);
        if ($original === null) {
            echo "$path carries no yioop-integrate markers; nothing to "
                . "revert.\n";
            if (file_exists($backup)) {
                if (self::read($backup) === $code) {
                    self::unlink($backup);
                    echo "Removed $backup (identical to $file).\n";
                } else {
                    echo "Note: $backup exists and differs from $file;"
                        . " left in place.\n";
                }
            }
            return;
        }
        $have_backup = file_exists($backup);
        $backup_code = $have_backup ? self::read($backup) : null;
        try {
            $consistent = $rebuild($original) === $code;
        } catch (YioopIntegrateRefusal $e) {
            $consistent = false;
        }
        if ($backup_code !== null && $backup_code === $original) {
            self::writeAtomic($path, $backup_code, $path);
            self::unlink($backup);
            echo "Reverted $path to its original bytes; removed $backup.\n";
            return;
        }
        if (!$consistent) {
            throw new YioopIntegrateRefusal("$path has yioop-integrate "
                . "markers, but the marked parts were edited after "
                . "integration, so the original cannot be recovered "
                . "safely from them"
                . ($have_backup ? "; the original is in $backup" : "")
                . ".");
        }
        self::writeAtomic($path, $original, $path);
        echo "Reverted $path (inserted segments removed).\n";
        if ($have_backup) {
            echo "Note: $file was edited outside the marked parts "
                . "after integration, so the result differs from $backup; "
                . "the backup is left in place.\n";
        }
    }

    /** --check: report which implementation every codec call reaches. */
    public static function check(string $root): int
    {
        $path = self::locateUtility($root);
        $code = self::read($path);
        $state = self::state($code);
        $info = $state['info'];
        self::printTree($path, $info);
        echo "Tree state:   " . ($state['integrated']
            ? "integrated by yioop-integrate.php"
            : "not integrated (Yioop's original Utility.php)") . "\n";
        $loaded = extension_loaded(self::MODULE);
        if ($loaded) {
            $version = phpversion(self::MODULE);
            $format = ini_get('yioop.format');
            echo "Extension:    loaded in this php (" . PHP_BINARY
                . ($version ? ", version $version" : "") . "), yioop.format="
                . ($format === false ? "(not registered)" : $format) . "\n";
            if ($format !== false && $format !== $info['format']) {
                echo "WARNING:      yioop.format is $format but this tree "
                    . "needs {$info['format']}; postings would not be "
                    . "byte-identical to Yioop's PHP code.\n";
            }
        } else {
            echo "Extension:    not loaded in this php (" . PHP_BINARY
                . ")\n";
            if (extension_loaded('yioop_codec')) {
                echo "WARNING:      a module named yioop_codec is loaded, "
                    . "but Yioop tests extension_loaded(\"yioop\").\n";
            }
        }
        echo "(The php that serves Yioop may load other extensions than "
            . "this one; run --check with that php and its php.ini.)\n\n";
        $width = max(array_map('strlen', self::allNames())) + 2;
        foreach (self::allNames() as $name) {
            echo str_pad($name, $width)
                . self::verdict($name, $info, $state['integrated'], $loaded)
                . "\n";
        }
        echo "\n";
        self::checkShard($root, $loaded);
        return 0;
    }

    /** One line of --check output for $name. */
    private static function verdict(string $name, array $info,
        bool $integrated, bool $loaded): string
    {
        $fn = $info['functions'][strtolower($name)] ?? null;
        $qualified = self::NS . '\\' . $name;
        if (in_array($name, self::PHP_ONLY, true)) {
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
        if (in_array($name, self::NAMESPACED, true)) {
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
        }
        if (!$integrated) {
            return "PHP (Yioop's $qualified shadows the native \\$name; "
                . "run this tool without --check)";
        }
        if (!function_exists($name)
            || !(new ReflectionFunction($name))->isInternal()) {
            return "BROKEN: the PHP forwarder calls \\$name, which the "
                . "extension does not define";
        }
        return "native (PHP forwarder $qualified -> \\$name)";
    }

    /** Prints what the tool found out about the tree. */
    private static function printTree(string $path, array $info): void
    {
        echo "Utility.php:  $path\n";
        echo "Yioop line:   {$info['line']}\n";
        echo "Recommended:  yioop.format={$info['format']}\n";
    }

    /** Tells how to switch the extension on for this tree. */
    private static function printNextSteps(array $info): void
    {
        echo "To use the native codec, load the extension in the php that "
            . "runs Yioop (web server and command line), e.g. in php.ini:\n"
            . "    extension=yioop_codec.so\n"
            . "    yioop.format={$info['format']}\n"
            . "then restart PHP-FPM or the web server (opcache may hold the "
            . "old Utility.php).\n"
            . "Undo with: php " . basename(__FILE__) . " <yioop dir> "
            . "--revert\n";
    }

    /* ------------------------------------------------------------------ */
    /* Locating and reading                                               */
    /* ------------------------------------------------------------------ */

    /** Path of the tree's Utility.php, or a refusal saying what is wrong. */
    public static function locateUtility(string $root): string
    {
        if (!is_dir($root)) {
            throw new YioopIntegrateRefusal("$root is not a directory");
        }
        $root = rtrim($root, '/');
        $path = $root . '/' . self::UTILITY;
        if (is_file($path)) {
            // edit the file a symbolic link points to, not the link
            $real = is_link($path) ? realpath($path) : false;
            return $real === false ? $path : $real;
        }
        if (is_file("$root/lib/utility.php")) {
            throw new YioopIntegrateRefusal("$root looks like a Yioop "
                . "release before 3.0 (lib/utility.php, no namespaces, 2014 "
                . "or older). Not supported: its codec functions are "
                . "declared in the global namespace, where the extension "
                . "registers its own, so loading the extension with this "
                . "tree fails with \"Cannot redeclare\"; that line also "
                . "does not run on the PHP 8 the extension is built for. "
                . "Do not load the extension for this tree.");
        }
        throw new YioopIntegrateRefusal("$root is not a Yioop checkout I "
            . "recognise: " . self::UTILITY . " not found");
    }

    /** Whole file as a string. */
    private static function read(string $path): string
    {
        $code = @file_get_contents($path);
        if ($code === false) {
            throw new YioopIntegrateIoError("cannot read $path");
        }
        return $code;
    }

    /**
     * Writes $data to $path through a temporary file and a rename, with the
     * permissions of $like.
     */
    private static function writeAtomic(string $path, string $data,
        string $like): void
    {
        $tmp = $path . '.yioop-codec.tmp';
        if (@file_put_contents($tmp, $data) !== strlen($data)) {
            @unlink($tmp);
            throw new YioopIntegrateIoError("cannot write $tmp");
        }
        $perms = @fileperms($like);
        if ($perms !== false) {
            @chmod($tmp, $perms & 07777);
        }
        if (function_exists('posix_geteuid') && posix_geteuid() === 0) {
            // run as root on a web server's tree: keep owner and group
            $owner = @fileowner($like);
            $group = @filegroup($like);
            if ($owner !== false && $group !== false) {
                @chown($tmp, $owner);
                @chgrp($tmp, $group);
            }
        }
        if (!@rename($tmp, $path)) {
            @unlink($tmp);
            throw new YioopIntegrateIoError("cannot replace $path");
        }
    }

    private static function unlink(string $path): void
    {
        if (!@unlink($path)) {
            throw new YioopIntegrateIoError("cannot remove $path");
        }
    }

    /* ------------------------------------------------------------------ */
    /* State: integrated or not                                           */
    /* ------------------------------------------------------------------ */

    /**
     * Analyses $code, first taking out this tool's segments if there are
     * any. Refuses when the segments are there but are not exactly what
     * this tool would write.
     * @return array{integrated: bool, info: array}
     */
    public static function state(string $code): array
    {
        $original = self::strip($code);
        if ($original === null) {
            return ['integrated' => false, 'info' => self::analyze($code)];
        }
        $info = self::analyze($original);
        if (self::transform($original, $info) !== $code) {
            throw new YioopIntegrateRefusal("Utility.php carries "
                . "yioop-integrate markers but differs from what this tool "
                . "writes: it was edited by hand after integration");
        }
        return ['integrated' => true, 'info' => $info];
    }

    /* ------------------------------------------------------------------ */
    /* Analysis                                                           */
    /* ------------------------------------------------------------------ */

    /**
     * Token list with byte offsets: each entry [id, text, pos]; id is the
     * character itself for one-character tokens.
     */
    private static function tokens(string $code,
        string $file = 'Utility.php'): array
    {
        try {
            $raw = token_get_all($code, TOKEN_PARSE);
        } catch (ParseError $e) {
            throw new YioopIntegrateRefusal("$file does not parse: "
                . $e->getMessage() . " on line " . $e->getLine());
        }
        $tokens = [];
        $pos = 0;
        foreach ($raw as $t) {
            if (is_array($t)) {
                $tokens[] = [$t[0], $t[1], $pos];
                $pos += strlen($t[1]);
            } else {
                $tokens[] = [$t, $t, $pos];
                $pos += strlen($t);
            }
        }
        if ($pos !== strlen($code)) {
            throw new YioopIntegrateRefusal("tokenizer did not cover the "
                . "whole of $file");
        }
        return $tokens;
    }

    /** Index of the next token after $i that is not whitespace/comment. */
    private static function next(array $tokens, int $i): int
    {
        $n = count($tokens);
        for ($i++; $i < $n; $i++) {
            if (!in_array($tokens[$i][0], self::TRIVIA, true)) {
                return $i;
            }
        }
        return $n;
    }

    /** Index of the previous token before $i that is not trivia, or -1. */
    private static function prev(array $tokens, int $i): int
    {
        for ($i--; $i >= 0; $i--) {
            if (!in_array($tokens[$i][0], self::TRIVIA, true)) {
                return $i;
            }
        }
        return -1;
    }

    /** Index of the ) or ] matching the ( or [ at $open. */
    private static function matching(array $tokens, int $open): int
    {
        $depth = 0;
        $n = count($tokens);
        for ($i = $open; $i < $n; $i++) {
            $id = $tokens[$i][0];
            if ($id === '(' || $id === '[') {
                $depth++;
            } elseif ($id === ')' || $id === ']') {
                $depth--;
                if ($depth === 0) {
                    return $i;
                }
            }
        }
        throw new YioopIntegrateRefusal("unbalanced parentheses");
    }

    /** Token opens a brace block closed by a plain "}". */
    private static function opensBrace($id): bool
    {
        return $id === '{' || $id === T_CURLY_OPEN
            || $id === T_DOLLAR_OPEN_CURLY_BRACES;
    }

    /**
     * Significant text between two token indexes (exclusive), lower case,
     * without whitespace or comments: how a condition is compared.
     */
    private static function squeeze(array $tokens, int $from, int $to): string
    {
        $s = '';
        for ($i = $from + 1; $i < $to; $i++) {
            if (!in_array($tokens[$i][0], self::TRIVIA, true)) {
                $s .= $tokens[$i][1];
            }
        }
        return strtolower($s);
    }

    /** Whether a squeezed if-condition is Yioop's extension guard. */
    private static function isGuard(string $condition): bool
    {
        return (bool)preg_match('~^!\\\\?extension_loaded\\((["\'])'
            . preg_quote(self::MODULE, '~') . '\\1\\)$~', $condition);
    }

    /**
     * Finds the codec function declarations of $code and decides what to do.
     *
     * Returned array: line (text), format ("2015"/"2019"), functions
     * (lower-case name => declaration record), edits (name => whether a
     * forwarder is needed), eol.
     */
    public static function analyze(string $code): array
    {
        $tokens = self::tokens($code);
        $n = count($tokens);
        $labels = [];      // token index of "{" => what the block is
        $stack = [];       // labels of the open blocks
        $declared = [];    // lower-case name => list of records
        $namespaces = [];
        $alternative = [T_ENDIF, T_ENDWHILE, T_ENDFOR, T_ENDFOREACH,
            T_ENDSWITCH, T_ENDDECLARE];
        for ($i = 0; $i < $n; $i++) {
            $id = $tokens[$i][0];
            if (in_array($id, $alternative, true)) {
                throw new YioopIntegrateRefusal("Utility.php uses the "
                    . "alternative control syntax (" . $tokens[$i][1]
                    . "), which this tool does not handle");
            }
            if ($id === T_NAMESPACE) {
                $j = self::next($tokens, $i);
                if ($j < $n && $tokens[$j][0] === T_NS_SEPARATOR) {
                    continue; // namespace\name (PHP 7 tokens)
                }
                $name = '';
                for (; $j < $n && $tokens[$j][0] !== ';'
                    && $tokens[$j][0] !== '{'; $j = self::next($tokens, $j)) {
                    $name .= $tokens[$j][1];
                }
                $namespaces[] = [$name, $j < $n ? $tokens[$j][0] : ''];
            } elseif ($id === T_IF || $id === T_ELSEIF) {
                $open = self::next($tokens, $i);
                $close = self::matching($tokens, $open);
                $k = self::next($tokens, $close);
                if ($k < $n && $tokens[$k][0] === '{') {
                    $labels[$k] = ['kind' => self::isGuard(
                        self::squeeze($tokens, $open, $close))
                        && $id === T_IF ? 'guard' : 'if'];
                }
            } elseif ($id === T_CLASS || $id === T_INTERFACE
                || $id === T_TRAIT
                || (defined('T_ENUM') && $id === constant('T_ENUM'))) {
                $p = self::prev($tokens, $i);
                if ($p >= 0 && $tokens[$p][0] === T_DOUBLE_COLON) {
                    continue; // Foo::class
                }
                for ($k = $i + 1; $k < $n && $tokens[$k][0] !== '{'; $k++) {
                }
                $labels[$k] = ['kind' => 'class'];
            } elseif ($id === T_FUNCTION) {
                $j = self::next($tokens, $i);
                if ($j < $n && $tokens[$j][0] === '&') {
                    $j = self::next($tokens, $j);
                }
                if ($j >= $n || $tokens[$j][0] !== T_STRING) {
                    continue; // closure
                }
                $open = self::next($tokens, $j);
                $close = self::matching($tokens, $open);
                for ($k = $close + 1; $k < $n && $tokens[$k][0] !== '{'
                    && $tokens[$k][0] !== ';'; $k++) {
                }
                if ($k < $n && $tokens[$k][0] === '{') {
                    $labels[$k] = ['kind' => 'function', 'record' => [
                        'name' => $tokens[$j][1], 'function' => $i,
                        'params_open' => $open, 'params_close' => $close,
                        'body_open' => $k]];
                }
            } elseif (self::opensBrace($id)) {
                $label = $labels[$i] ?? ['kind' => 'other'];
                if ($label['kind'] === 'function') {
                    $kinds = array_column($stack, 'kind');
                    if (!in_array('class', $kinds, true)) {
                        $label['record']['context'] = $kinds === [] ? 'top'
                            : ($kinds === ['guard'] ? 'guard' : 'other');
                    }
                }
                $stack[] = $label;
            } elseif ($id === '}') {
                $label = array_pop($stack);
                if ($label === null) {
                    throw new YioopIntegrateRefusal("unbalanced braces");
                }
                if ($label['kind'] === 'function'
                    && isset($label['record']['context'])) {
                    $record = $label['record'];
                    $record['body_close'] = $i;
                    $declared[strtolower($record['name'])][] = $record;
                }
            }
        }
        if (count($namespaces) !== 1 || $namespaces[0][1] !== ';'
            || strtolower(ltrim($namespaces[0][0], '\\'))
            !== strtolower(self::NS)) {
            throw new YioopIntegrateRefusal("Utility.php should contain "
                . "exactly one statement \"namespace " . self::NS . ";\"; "
                . "found " . ($namespaces === [] ? "none" : implode(', ',
                array_map(function ($ns) {
                    return '"' . $ns[0] . '"' . ($ns[1] === '{'
                        ? ' (braced)' : '');
                }, $namespaces))));
        }
        $functions = [];
        foreach (self::allNames() as $name) {
            $records = $declared[strtolower($name)] ?? [];
            if (count($records) > 1) {
                throw new YioopIntegrateRefusal("$name is declared "
                    . count($records) . " times in Utility.php; I only "
                    . "handle Yioop's layout with one declaration");
            }
            if ($records !== []) {
                $functions[strtolower($name)] = $records[0];
            }
        }
        $missing = array_filter(self::required(), function ($name)
            use ($functions) {
            return !isset($functions[strtolower($name)]);
        });
        if ($missing !== []) {
            throw new YioopIntegrateRefusal("expected Yioop codec functions "
                . "not found in Utility.php: " . implode(', ', $missing));
        }
        $edits = [];
        foreach (self::allNames() as $name) {
            $fn = $functions[strtolower($name)] ?? null;
            if ($fn === null) {
                continue;
            }
            $where = $fn['context'];
            $line = substr_count($code, "\n", 0,
                $tokens[$fn['function']][2]) + 1;
            if ($where === 'other') {
                throw new YioopIntegrateRefusal("$name (line $line) is "
                    . "declared inside a block I do not recognise; "
                    . "Utility.php looks modified by hand");
            }
            if (in_array($name, self::GLOBAL_ONLY, true)) {
                if ($where !== 'top') {
                    throw new YioopIntegrateRefusal("$name (line $line) is "
                        . "already inside an extension_loaded guard without "
                        . "this tool's markers; with the extension loaded "
                        . self::NS . "\\$name would be undefined. Utility.php"
                        . " looks modified by hand; restore Yioop's version "
                        . "first");
                }
                $edits[$name] = true;
            } elseif (in_array($name, self::NAMESPACED, true)) {
                if ($where === 'top') {
                    $edits[$name] = false;
                }
            } elseif ($where !== 'top') {
                throw new YioopIntegrateRefusal("$name (line $line) must "
                    . "stay unconditional PHP (the extension does not provide"
                    . " it), but it is inside an extension_loaded guard");
            }
        }
        foreach ($edits as $name => $forward) {
            $fn = &$functions[strtolower($name)];
            $fn['start'] = self::declarationStart($tokens, $fn['function']);
            $fn['end'] = $tokens[$fn['body_close']][2] + 1;
            if ($forward) {
                $fn['forwarder'] = self::forwarderParts($code, $tokens, $fn);
            }
            unset($fn);
        }
        uksort($edits, function ($a, $b) use ($functions) {
            return $functions[strtolower($a)]['start']
                <=> $functions[strtolower($b)]['start'];
        });
        $info = self::detectLine($tokens, $functions);
        $info['functions'] = $functions;
        $info['edits'] = $edits;
        $info['eol'] = strpos($code, "\r\n") !== false ? "\r\n" : "\n";
        return $info;
    }

    /**
     * Byte offset where a declaration starts: its doc comment when one
     * comes right before it, otherwise the function keyword.
     */
    private static function declarationStart(array $tokens, int $function): int
    {
        $k = $function - 1;
        while ($k >= 0 && $tokens[$k][0] === T_WHITESPACE) {
            $k--;
        }
        if ($k >= 0 && $tokens[$k][0] === T_DOC_COMMENT) {
            return $tokens[$k][2];
        }
        return $tokens[$function][2];
    }

    /**
     * The pieces of a forwarder: the declaration header as Yioop wrote it
     * (name, parameters with defaults and by-reference marks, return type),
     * the argument list to pass on, and whether to return the result.
     */
    private static function forwarderParts(string $code, array $tokens,
        array $fn): array
    {
        $start = $tokens[$fn['function']][2];
        $header = rtrim(substr($code, $start,
            $tokens[$fn['body_open']][2] - $start));
        $args = self::parameterNames($tokens, $fn['params_open'],
            $fn['params_close']);
        $type = self::squeeze($tokens, $fn['params_close'], $fn['body_open']);
        return ['header' => $header, 'args' => implode(', ', $args),
            'return' => !in_array($type, [':void', ':never'], true)];
    }

    /**
     * Which Yioop line the codec belongs to. The deciding fact is whether
     * packPosting adds one to the first position delta; unpackPosting must
     * agree, otherwise the codec is none the extension reproduces.
     */
    private static function detectLine(array $tokens, array $functions): array
    {
        $plus = self::adjustsFirstElement($tokens,
            $functions['packposting'], T_INC);
        $minus = self::adjustsFirstElement($tokens,
            $functions['unpackposting'], T_DEC);
        if ($plus !== $minus) {
            throw new YioopIntegrateRefusal("packPosting "
                . ($plus ? "adds" : "does not add") . " one to the first "
                . "position delta but unpackPosting "
                . ($minus ? "takes one off" : "does not take it off")
                . "; that is neither the 2015 nor the 2019 Yioop codec");
        }
        $queue = 0;
        foreach (self::QUEUE as $name) {
            $queue += isset($functions[strtolower($name)]) ? 1 : 0;
        }
        if ($plus) {
            $line = "2015 (Yioop 3.x; packPosting stores the first delta "
                . "plus one)";
            if ($queue > 0) {
                $line .= "; note: Utility.php also has queue-weight "
                    . "functions, unlike Yioop 3.x";
            }
            return ['line' => $line, 'format' => '2015'];
        }
        $line = "2019 (packPosting stores the first delta as is";
        $line .= $queue === count(self::QUEUE)
            ? "; queue-weight functions in Utility.php)"
            : "; note: Utility.php lacks some queue-weight functions of the "
                . "2019 line)";
        return ['line' => $line, 'format' => '2019'];
    }

    /**
     * Whether the body of $fn applies ++ (or --) to element [0] of some
     * variable: $x[0]++, ++$x[0], $x[0] += 1 (or the minus forms).
     */
    private static function adjustsFirstElement(array $tokens, array $fn,
        $op): bool
    {
        $sig = [];
        for ($i = $fn['body_open'] + 1; $i < $fn['body_close']; $i++) {
            if (!in_array($tokens[$i][0], self::TRIVIA, true)) {
                $sig[] = $tokens[$i];
            }
        }
        $assign = $op === T_INC ? T_PLUS_EQUAL : T_MINUS_EQUAL;
        $count = count($sig);
        for ($i = 0; $i + 3 < $count; $i++) {
            if ($sig[$i][0] !== T_VARIABLE || $sig[$i + 1][0] !== '['
                || $sig[$i + 2][0] !== T_LNUMBER || $sig[$i + 2][1] !== '0'
                || $sig[$i + 3][0] !== ']') {
                continue;
            }
            $after = $sig[$i + 4] ?? null;
            $before = $sig[$i - 1] ?? null;
            if (($after !== null && $after[0] === $op)
                || ($before !== null && $before[0] === $op)
                || ($after !== null && $after[0] === $assign
                && ($sig[$i + 5][1] ?? '') === '1'
                && ($sig[$i + 6][0] ?? '') === ';')) {
                return true;
            }
        }
        return false;
    }

    /* ------------------------------------------------------------------ */
    /* The edit and its inverse                                           */
    /* ------------------------------------------------------------------ */

    /** Text inserted before a wrapped declaration. */
    private static function openSegment(string $name, string $eol): string
    {
        return "/* " . self::MARK . "begin $name$eol"
            . " * Added by php/yioop-integrate.php (undo with its --revert): "
            . "Yioop's$eol"
            . " * PHP version below is declared only when the yioop extension "
            . "is not loaded.$eol"
            . " */$eol"
            . "if (!extension_loaded(\"" . self::MODULE . "\")) {" . $eol;
    }

    /** Marker that ends every closing segment. */
    private static function endMarker(string $name): string
    {
        return "} /* " . self::MARK . "end $name */";
    }

    /** Marker that starts the else branch of a closing segment. */
    private static function elseMarker(string $name, string $eol): string
    {
        return "$eol} else { /* " . self::MARK . "native $name */";
    }

    /** Text inserted after a wrapped declaration. */
    private static function closeSegment(string $name, ?array $forwarder,
        string $eol): string
    {
        if ($forwarder === null) {
            return $eol . self::endMarker($name);
        }
        $call = "\\$name({$forwarder['args']});";
        return self::elseMarker($name, $eol) . $eol
            . "// with the extension: forwarder to the native global function"
            . $eol
            . $forwarder['header'] . $eol
            . "{" . $eol
            . "    " . ($forwarder['return'] ? "return $call" : $call) . $eol
            . "}" . $eol
            . self::endMarker($name);
    }

    /** Utility.php with the planned segments inserted. */
    public static function transform(string $code, array $info): string
    {
        $inserts = [];
        foreach ($info['edits'] as $name => $forward) {
            $fn = $info['functions'][strtolower($name)];
            $inserts[] = [$fn['start'], self::openSegment($fn['name'],
                $info['eol'])];
            $inserts[] = [$fn['end'], self::closeSegment($fn['name'],
                $forward ? $fn['forwarder'] : null, $info['eol'])];
        }
        usort($inserts, function ($a, $b) {
            return $b[0] <=> $a[0];
        });
        foreach ($inserts as [$at, $text]) {
            $code = substr($code, 0, $at) . $text . substr($code, $at);
        }
        return $code;
    }

    /**
     * Utility.php with this tool's segments taken out, or null when it has
     * none. The result is only trusted after transform() of it gives the
     * input back (see state()).
     */
    public static function strip(string $code): ?string
    {
        if (strpos($code, self::MARK) === false) {
            return null;
        }
        $eol = strpos($code, "\r\n") !== false ? "\r\n" : "\n";
        preg_match_all('~/\* ' . preg_quote(self::MARK, '~')
            . 'begin (\w+)\r?\n~', $code, $m);
        foreach ($m[1] as $name) {
            $open = self::openSegment($name, $eol);
            if (substr_count($code, $open) !== 1) {
                throw new YioopIntegrateRefusal("the yioop-integrate "
                    . "opening marker for $name in Utility.php was edited "
                    . "by hand");
            }
            $code = str_replace($open, '', $code);
            $end = self::endMarker($name);
            if (substr_count($code, $end) !== 1) {
                throw new YioopIntegrateRefusal("the yioop-integrate "
                    . "closing marker for $name in Utility.php is missing or"
                    . " repeated (edited by hand)");
            }
            $end_at = strpos($code, $end);
            $stop = $end_at + strlen($end);
            $else = self::elseMarker($name, $eol);
            $else_at = strpos($code, $else);
            if ($else_at !== false && $else_at < $end_at) {
                $from = $else_at;
            } else {
                $from = $end_at - strlen($eol);
                if ($from < 0 || substr($code, $from, strlen($eol)) !== $eol) {
                    throw new YioopIntegrateRefusal("the yioop-integrate "
                        . "closing segment for $name in Utility.php was "
                        . "edited");
                }
            }
            $code = substr($code, 0, $from) . substr($code, $stop);
        }
        if (strpos($code, self::MARK) !== false) {
            throw new YioopIntegrateRefusal("Utility.php has yioop-integrate "
                . "markers without their opening marker (edited by hand)");
        }
        return $code;
    }

    /**
     * Checks a freshly edited Utility.php before it is written: it must
     * strip back to the original, still be recognised as integrated, and
     * pass php -l.
     */
    private static function verifyOutput(string $new, string $original): void
    {
        if (self::strip($new) !== $original) {
            throw new YioopIntegrateRefusal("internal check failed: the edit"
                . " would not be reversible; nothing was changed");
        }
        self::state($new);
        $lint = self::lint($new);
        if ($lint !== null) {
            throw new YioopIntegrateRefusal("the edited Utility.php would "
                . "not pass php -l, so nothing was changed:\n$lint");
        }
    }

    /** php -l on $code: null when it passes, else the output. */
    public static function lint(string $code): ?string
    {
        if (PHP_BINARY === '') {
            return null; // no php binary to ask; the tokenizer parsed it
        }
        $tmp = tempnam(sys_get_temp_dir(), 'yioop-integrate-lint');
        if ($tmp === false || file_put_contents($tmp, $code) === false) {
            throw new YioopIntegrateIoError("cannot write a temporary file "
                . "for php -l");
        }
        $process = proc_open([PHP_BINARY, '-n', '-l', $tmp],
            [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
        if (!is_resource($process)) {
            @unlink($tmp);
            throw new YioopIntegrateIoError("cannot run " . PHP_BINARY
                . " -l");
        }
        $output = stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        $status = proc_close($process);
        @unlink($tmp);
        return $status === 0 ? null : trim((string)$output);
    }

    /* ------------------------------------------------------------------ */
    /* IndexShard.php: methods switched to native functions               */
    /* ------------------------------------------------------------------ */

    /** Path of the tree's IndexShard.php, or null when it has none. */
    public static function locateShard(string $root): ?string
    {
        $path = rtrim($root, '/') . '/' . self::INDEX_SHARD;
        if (!is_file($path)) {
            return null;
        }
        $real = is_link($path) ? realpath($path) : false;
        return $real === false ? $path : $real;
    }

    /**
     * Token hash of a method: SHA-256 over the texts of its tokens from
     * the first modifier (public, static, ...) to the closing brace of its
     * body, whitespace and comments left out, each text followed by a NUL
     * byte; the first 16 hex digits. Reformatting keeps it, any change to
     * the code changes it.
     */
    public static function methodHash(array $tokens, int $from, int $to):
        string
    {
        $text = '';
        for ($i = $from; $i <= $to; $i++) {
            if (!in_array($tokens[$i][0], self::TRIVIA, true)) {
                $text .= $tokens[$i][1] . "\0";
            }
        }
        return substr(hash('sha256', $text), 0, 16);
    }

    /**
     * Token hash of every method of class IndexShard in $code, lower-case
     * name => hash (how SHARD_METHODS's hashes were computed).
     * @return array<string, string>
     */
    public static function methodHashes(string $code): array
    {
        $tokens = self::tokens($code, 'IndexShard.php');
        $hashes = [];
        foreach (self::classMethods($tokens) as $name => $records) {
            $hashes[$name] = self::methodHash($tokens, $records[0]['start'],
                $records[0]['body_close']);
        }
        return $hashes;
    }

    /** Index of the "}" closing the brace block opened at $open. */
    private static function closingBrace(array $tokens, int $open): int
    {
        $depth = 0;
        $n = count($tokens);
        for ($i = $open; $i < $n; $i++) {
            if (self::opensBrace($tokens[$i][0])) {
                $depth++;
            } elseif ($tokens[$i][0] === '}' && --$depth === 0) {
                return $i;
            }
        }
        throw new YioopIntegrateRefusal("unbalanced braces");
    }

    /**
     * The methods of class IndexShard: lower-case name => list of records
     * (start: first modifier, function, params_open, params_close,
     * body_open and body_close, the last two null without a body).
     */
    private static function classMethods(array $tokens): array
    {
        $n = count($tokens);
        $namespaces = [];
        $class = [];
        for ($i = 0; $i < $n; $i++) {
            $id = $tokens[$i][0];
            if ($id === T_NAMESPACE) {
                $j = self::next($tokens, $i);
                if ($j < $n && $tokens[$j][0] !== T_NS_SEPARATOR) {
                    $namespaces[] = strtolower($tokens[$j][1]) . (($tokens[
                        self::next($tokens, $j)][0] ?? '') === ';' ? ''
                        : ' (braced)');
                }
            } elseif ($id === T_CLASS) {
                $p = self::prev($tokens, $i);
                $j = self::next($tokens, $i);
                if (($p < 0 || !in_array($tokens[$p][0],
                    [T_DOUBLE_COLON, T_NEW], true)) && $j < $n
                    && strcasecmp($tokens[$j][1], self::SHARD_CLASS) === 0) {
                    $class[] = $i;
                }
            }
        }
        if ($namespaces !== [strtolower(self::NS)]) {
            throw new YioopIntegrateRefusal("IndexShard.php should contain "
                . "exactly one statement \"namespace " . self::NS . ";\"");
        }
        if (count($class) !== 1) {
            throw new YioopIntegrateRefusal("IndexShard.php declares class "
                . self::SHARD_CLASS . " " . count($class) . " times");
        }
        for ($open = $class[0]; $open < $n && $tokens[$open][0] !== '{';
            $open++) {
        }
        $close = self::closingBrace($tokens, $open);
        $methods = [];
        $depth = 0;
        for ($i = $open; $i < $close; $i++) {
            $id = $tokens[$i][0];
            if (self::opensBrace($id)) {
                $depth++;
            } elseif ($id === '}') {
                $depth--;
            } elseif ($depth === 1 && $id === T_FUNCTION) {
                $j = self::next($tokens, $i);
                if ($tokens[$j][0] === '&') {
                    $j = self::next($tokens, $j);
                }
                $params_open = self::next($tokens, $j);
                $params_close = self::matching($tokens, $params_open);
                for ($k = $params_close + 1; $k < $close
                    && $tokens[$k][0] !== '{' && $tokens[$k][0] !== ';';
                    $k++) {
                }
                $start = $i;
                for ($p = self::prev($tokens, $i); $p >= 0 && in_array(
                    $tokens[$p][0], self::MODIFIERS, true);
                    $p = self::prev($tokens, $p)) {
                    $start = $p;
                }
                $body = $tokens[$k][0] === '{';
                $methods[strtolower($tokens[$j][1])][] = ['start' => $start,
                    'function' => $i, 'params_open' => $params_open,
                    'params_close' => $params_close,
                    'body_open' => $body ? $k : null,
                    'body_close' => $body ? self::closingBrace($tokens, $k)
                        : $k];
            }
        }
        return $methods;
    }

    /** Variable names of a parameter list, "..." kept on a variadic one. */
    private static function parameterNames(array $tokens, int $open,
        int $close): array
    {
        $args = [];
        $depth = 0;
        $spread = false;
        for ($i = $open + 1; $i < $close; $i++) {
            $id = $tokens[$i][0];
            if ($id === '(' || $id === '[') {
                $depth++;
            } elseif ($id === ')' || $id === ']') {
                $depth--;
            } elseif ($depth === 0 && $id === T_ELLIPSIS) {
                $spread = true;
            } elseif ($depth === 0 && $id === T_VARIABLE) {
                $args[] = ($spread ? '...' : '') . $tokens[$i][1];
                $spread = false;
            }
        }
        return $args;
    }

    /**
     * Which SHARD_METHODS $code lets this tool switch. Returned array:
     * switch (name => [at: byte offset after the body's "{", indent, args]),
     * reasons (name => why it stays on PHP), eol. Refuses a file that does
     * not parse or has no single class IndexShard in Yioop's namespace.
     */
    public static function analyzeShard(string $code): array
    {
        $tokens = self::tokens($code, 'IndexShard.php');
        $methods = self::classMethods($tokens);
        $switch = [];
        $reasons = [];
        foreach (self::SHARD_METHODS as $name => [, $expected]) {
            $expected = self::$shard_hashes[$name] ?? $expected;
            $records = $methods[strtolower($name)] ?? [];
            if (count($records) !== 1) {
                $reasons[$name] = $records === [] ? "not declared in "
                    . "IndexShard.php" : "declared more than once";
                continue;
            }
            $fn = $records[0];
            $hash = self::methodHash($tokens, $fn['start'],
                $fn['body_close']);
            if ($fn['body_open'] === null || $hash !== $expected) {
                $reasons[$name] = "not recognised: its code differs from "
                    . "Yioop's (token hash $hash, expected $expected)";
                continue;
            }
            $after = $tokens[$fn['body_open'] + 1];
            $nl = $after[0] === T_WHITESPACE ? strrpos($after[1], "\n")
                : false;
            $switch[$name] = ['at' => $tokens[$fn['body_open']][2] + 1,
                'indent' => $nl === false ? '        '
                    : substr($after[1], $nl + 1),
                'args' => self::parameterNames($tokens, $fn['params_open'],
                    $fn['params_close'])];
        }
        return ['switch' => $switch, 'reasons' => $reasons,
            'eol' => strpos($code, "\r\n") !== false ? "\r\n" : "\n"];
    }

    /** Marker that ends every line inserted into IndexShard.php. */
    private static function methodMarker(string $name): string
    {
        return "/* " . self::MARK . "method $name */";
    }

    /** The line inserted as the first statement of method $name. */
    public static function shardLine(string $name, array $args): string
    {
        $guard_key = self::SHARD_METHODS[$name][0];
        $guard = self::SHARD_GUARDS[$guard_key];
        $call = "\\" . self::SHARD_NATIVE . "\\$name(" . implode(', ',
            array_merge(['$this'], $args)) . ")";
        $loaded = "\\extension_loaded(\"" . self::MODULE . "\")";
        if ($guard_key === 'declines') {
            return "if ($loaded && (\$yioop_codec_result = $call) !== null) "
                . "{ return \$yioop_codec_result; } "
                . self::methodMarker($name);
        }
        if ($guard_key === 'declines_void') {
            return "if ($loaded && $call) { return; } "
                . self::methodMarker($name);
        }
        return "if ($loaded" . ($guard === '' ? '' : " && $guard")
            . ") { return $call; } " . self::methodMarker($name);
    }

    /** IndexShard.php with the planned lines inserted. */
    public static function transformShard(string $code, array $info): string
    {
        $switch = $info['switch'];
        uasort($switch, function ($a, $b) {
            return $b['at'] <=> $a['at'];
        });
        foreach ($switch as $name => $at) {
            $code = substr($code, 0, $at['at']) . $info['eol']
                . $at['indent'] . self::shardLine($name, $at['args'])
                . substr($code, $at['at']);
        }
        return $code;
    }

    /**
     * IndexShard.php with every marked line taken out (from the line break
     * before it to its marker), or null when it has none. Trusted only
     * after transformShard() of the result gives the input back.
     */
    public static function stripShard(string $code): ?string
    {
        if (strpos($code, self::MARK) === false) {
            return null;
        }
        preg_match_all('~/\* ' . preg_quote(self::MARK, '~')
            . 'method \w+ \*/~', $code, $m, PREG_OFFSET_CAPTURE);
        foreach (array_reverse($m[0]) as [$marker, $at]) {
            $from = strrpos(substr($code, 0, $at), "\n");
            if ($from === false) {
                throw new YioopIntegrateRefusal("a yioop-integrate line in "
                    . "IndexShard.php was edited by hand");
            }
            if ($from > 0 && $code[$from - 1] === "\r") {
                $from--;
            }
            $code = substr($code, 0, $from)
                . substr($code, $at + strlen($marker));
        }
        if (strpos($code, self::MARK) !== false) {
            throw new YioopIntegrateRefusal("IndexShard.php has "
                . "yioop-integrate markers this tool did not write (edited "
                . "by hand)");
        }
        return $code;
    }

    /** Like state(), for IndexShard.php. */
    public static function shardState(string $code): array
    {
        $original = self::stripShard($code);
        if ($original === null) {
            return ['integrated' => false,
                'info' => self::analyzeShard($code)];
        }
        $info = self::analyzeShard($original);
        if (self::transformShard($original, $info) !== $code) {
            throw new YioopIntegrateRefusal("IndexShard.php carries "
                . "yioop-integrate markers but differs from what this tool "
                . "writes: it was edited by hand after integration");
        }
        return ['integrated' => true, 'info' => $info];
    }

    /** Switches the recognised IndexShard methods; reports on each. */
    private static function applyShard(string $root, bool $loaded): void
    {
        echo "\n";
        $path = self::locateShard($root);
        if ($path === null) {
            echo "IndexShard.php: none (" . self::INDEX_SHARD . " not "
                . "found); no methods switched.\n";
            return;
        }
        try {
            $code = self::read($path);
            $state = self::shardState($code);
            $info = $state['info'];
            if ($state['integrated']) {
                echo "IndexShard.php: already switched; nothing changed.\n";
            } elseif ($info['switch'] === []) {
                echo "IndexShard.php: no method recognised; left unchanged."
                    . "\n";
            } else {
                $new = self::transformShard($code, $info);
                if (self::stripShard($new) !== $code) {
                    throw new YioopIntegrateRefusal("internal check failed: "
                        . "the edit would not be reversible");
                }
                self::shardState($new);
                $lint = self::lint($new);
                if ($lint !== null) {
                    throw new YioopIntegrateRefusal("the edited file would "
                        . "not pass php -l:\n$lint");
                }
                $backup = self::writeWithBackup($path, $code, $new);
                echo "Edited $path (backup of the original: $backup):\n";
            }
        } catch (YioopIntegrateRefusal $e) {
            echo "IndexShard.php: left unchanged, its methods stay on PHP: "
                . $e->getMessage() . "\n";
            return;
        }
        self::printShardMethods($info, $info['switch'] !== [], $loaded);
    }

    /** --check's report on IndexShard.php. */
    private static function checkShard(string $root, bool $loaded): void
    {
        $path = self::locateShard($root);
        if ($path === null) {
            echo "IndexShard.php: none (" . self::INDEX_SHARD . " not "
                . "found; optional); no methods switched\n";
            return;
        }
        try {
            $state = self::shardState(self::read($path));
        } catch (YioopIntegrateRefusal $e) {
            echo "IndexShard.php: $path\nIndexShard state: every method on "
                . "PHP: " . $e->getMessage() . "\n";
            return;
        }
        echo "IndexShard.php: $path\nIndexShard state: " . ($state[
            'integrated'] ? "methods switched by yioop-integrate.php"
            : "not switched (Yioop's original IndexShard.php)") . "\n";
        self::printShardMethods($state['info'], $state['integrated'],
            $loaded);
    }

    /** One line per SHARD_METHODS entry: native, or PHP and why. */
    private static function printShardMethods(array $info, bool $switched,
        bool $loaded): void
    {
        $width = max(array_map('strlen', array_keys(self::SHARD_METHODS)))
            + 2;
        foreach (self::SHARD_METHODS as $name => [$guard_key]) {
            $native = self::SHARD_NATIVE . "\\$name";
            $guard = self::SHARD_GUARDS[$guard_key];
            if (isset($info['reasons'][$name])) {
                $verdict = "PHP ({$info['reasons'][$name]})";
            } elseif (!$switched) {
                $verdict = "PHP (recognised, not switched yet; run this "
                    . "tool without --check)";
            } elseif (!$loaded) {
                $verdict = "native when the extension is loaded"
                    . ($guard === '' ? '' : " and $guard");
            } elseif (!function_exists($native)) {
                $verdict = "BROKEN: switched, but the loaded extension does "
                    . "not define \\$native";
            } else {
                $verdict = "native" . ($guard === '' ? '' : " when $guard");
            }
            echo str_pad($name, $width) . $verdict . "\n";
        }
    }

    /** --revert for IndexShard.php; 1 when it cannot be done. */
    private static function revertShard(string $root): int
    {
        $path = self::locateShard($root);
        if ($path === null) {
            return 0;
        }
        try {
            self::revertFile($path, [self::class, 'stripShard'],
                function (string $original): string {
                    return self::transformShard($original,
                        self::analyzeShard($original));
                });
        } catch (YioopIntegrateRefusal $e) {
            $backup = $path . self::BACKUP_SUFFIX;
            fwrite(STDERR, "yioop-integrate: IndexShard.php not reverted: "
                . $e->getMessage() . (is_file($backup) ? ". The backup "
                . "$backup holds it as it was before integration" : "")
                . "\n");
            return 1;
        }
        return 0;
    }
}

if (PHP_SAPI === 'cli' && isset($argv[0])
    && realpath($argv[0]) === realpath(__FILE__)) {
    exit(YioopIntegrate::main($argv));
}
