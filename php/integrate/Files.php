<?php
/**
 * Reading and writing a Yioop tree's files: atomic writes that keep the
 * permissions (and, as root, the owner), backups, reverting, php -l.
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

final class Files
{
    /** Suffix of the backup written next to an edited file. */
    public const BACKUP_SUFFIX = '.yioop-codec.bak';

    /**
     * Path of $relative inside $root, or null when it is not a file. A
     * symbolic link gives its target: the file is edited, not the link.
     */
    public static function locate(string $root, string $relative): ?string
    {
        $path = rtrim($root, '/') . '/' . $relative;
        if (!is_file($path)) {
            return null;
        }
        $real = is_link($path) ? realpath($path) : false;
        return $real === false ? $path : $real;
    }

    /** Whole file as a string. */
    public static function read(string $path): string
    {
        $code = @file_get_contents($path);
        if ($code === false) {
            throw new IoError("cannot read $path");
        }
        return $code;
    }

    /** The line end $code uses: inserted text must use the same. */
    public static function eol(string $code): string
    {
        return strpos($code, "\r\n") !== false ? "\r\n" : "\n";
    }

    /**
     * Writes $data to $path through a temporary file and a rename, with the
     * permissions of $like.
     */
    public static function writeAtomic(string $path, string $data,
        string $like): void
    {
        $tmp = $path . '.yioop-codec.tmp';
        if (@file_put_contents($tmp, $data) !== strlen($data)) {
            @unlink($tmp);
            throw new IoError("cannot write $tmp");
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
            throw new IoError("cannot replace $path");
        }
    }

    public static function unlink(string $path): void
    {
        if (!@unlink($path)) {
            throw new IoError("cannot remove $path");
        }
    }

    /**
     * Writes $new over $path, whose current content is $code, keeping
     * $code in the backup next to it; returns the backup's path. Refuses
     * when a backup with other content is already there.
     */
    public static function writeWithBackup(string $path, string $code,
        string $new): string
    {
        $backup = $path . self::BACKUP_SUFFIX;
        if (file_exists($backup)) {
            if (self::read($backup) !== $code) {
                throw new Refusal("$backup exists and differs from the "
                    . "current " . basename($path) . " (left over from an "
                    . "earlier Yioop version?). Move it away or delete it, "
                    . "then run again.");
            }
        } else {
            self::writeAtomic($backup, $code, $path);
        }
        self::writeAtomic($path, $new, $path);
        return $backup;
    }

    /**
     * Restores $path: $patch takes its insertions out, and inserting them
     * again must give the file back, to prove that nothing else in the
     * marked parts was changed. Refuses when that proof fails and no
     * backup matches.
     */
    public static function revert(string $path, Patch $patch): void
    {
        $file = basename($path);
        $code = self::read($path);
        $backup = $path . self::BACKUP_SUFFIX;
        $original = $patch->strip($code);
        if ($original === null) {
            echo "$path carries no yioop-integrate markers; nothing to "
                . "revert.\n";
            self::dropIdenticalBackup($backup, $code, $file);
            return;
        }
        $backup_code = file_exists($backup) ? self::read($backup) : null;
        if ($backup_code === $original) {
            self::writeAtomic($path, $backup_code, $path);
            self::unlink($backup);
            echo "Reverted $path to its original bytes; removed $backup.\n";
            return;
        }
        if (!$patch->rebuilds($original, $code)) {
            throw new Refusal("$path has yioop-integrate markers, but the "
                . "marked parts were edited after integration, so the "
                . "original cannot be recovered safely from them"
                . ($backup_code !== null ? "; the original is in $backup"
                : "") . ".");
        }
        self::writeAtomic($path, $original, $path);
        echo "Reverted $path (inserted segments removed).\n";
        if ($backup_code !== null) {
            echo "Note: $file was edited outside the marked parts "
                . "after integration, so the result differs from $backup; "
                . "the backup is left in place.\n";
        }
    }

    /** Removes a backup that holds what the file holds anyway. */
    private static function dropIdenticalBackup(string $backup,
        string $code, string $file): void
    {
        if (!file_exists($backup)) {
            return;
        }
        if (self::read($backup) === $code) {
            self::unlink($backup);
            echo "Removed $backup (identical to $file).\n";
        } else {
            echo "Note: $backup exists and differs from $file; left in "
                . "place.\n";
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
            throw new IoError("cannot write a temporary file for php -l");
        }
        $process = proc_open([PHP_BINARY, '-n', '-l', $tmp],
            [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
        if (!is_resource($process)) {
            @unlink($tmp);
            throw new IoError("cannot run " . PHP_BINARY . " -l");
        }
        $output = stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        $status = proc_close($process);
        @unlink($tmp);
        return $status === 0 ? null : trim((string)$output);
    }
}
