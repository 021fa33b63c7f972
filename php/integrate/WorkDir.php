<?php
/**
 * The work directory a Yioop tree uses, and the copies of the switch
 * table's files in it. Yioop's class loader looks for a class in the work
 * directory's app/ folder before the tree's src/, and its installer copies
 * src/locale to app/locale; so on an installed site the en_US Tokenizer
 * Yioop loads is WORK_DIRECTORY/app/locale/en_US/resources/Tokenizer.php.
 *
 * The directory is named with --work-dir, or read from the tree without
 * running any of it: the WORK_DIRECTORY define in src/configs/
 * LocalConfig.php when there is one (Yioop reads that file first), else
 * the one in src/configs/Config.php (the line Yioop's configure page
 * rewrites), else Yioop's default, work_directory beside src/. A value
 * this tool cannot work out, or a directory that is not there, is
 * reported: the tree's files are then the only ones switched.
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

final class WorkDir
{
    /**
     * @param string|null $path the directory, null when unknown
     * @param string $source where the name came from, for messages
     * @param string|null $problem why it cannot be used, or null
     */
    private function __construct(public readonly ?string $path,
        public readonly string $source, public readonly ?string $problem)
    {
    }

    /**
     * The work directory of the tree at $root; $named: the one --work-dir
     * names. Refuses a named directory that cannot be used.
     */
    public static function find(string $root, ?string $named): self
    {
        if ($named !== null) {
            $dir = new self(rtrim($named, '/') ?: '/', '--work-dir', null);
            $problem = $dir->unusable();
            if ($problem !== null) {
                throw new Refusal("--work-dir $named $problem");
            }
            return $dir;
        }
        $root = rtrim($root, '/');
        foreach (['LocalConfig.php', 'Config.php'] as $file) {
            $config = "$root/src/configs/$file";
            if (!is_file($config)) {
                continue;
            }
            $code = @file_get_contents($config);
            if ($code === false) {
                return new self(null, "src/configs/$file", "cannot be read");
            }
            $value = self::defined($code, 'WORK_DIRECTORY', $root, $config);
            if ($value === false) {
                continue;
            }
            if ($value === null) {
                return new self(null, "src/configs/$file", "defines "
                    . "WORK_DIRECTORY by an expression this tool does not "
                    . "evaluate; name the directory with --work-dir");
            }
            return self::checked($value, "src/configs/$file");
        }
        return self::checked(self::parent($root) . '/work_directory',
            "Yioop's default");
    }

    /** $dir from $source, with what makes it unusable, if anything. */
    private static function checked(string $dir, string $source): self
    {
        if ($dir === '' || $dir[0] !== '/') {
            return new self(null, $source, "names a relative path ('$dir'), "
                . "which depends on where PHP runs; name the directory with "
                . "--work-dir");
        }
        $found = new self($dir, $source, null);
        $problem = $found->unusable();
        return $problem === null ? $found : new self($dir, $source, $problem);
    }

    /** Why $this->path cannot be used as a work directory, or null. */
    private function unusable(): ?string
    {
        if (!is_dir($this->path)) {
            return "is not a directory";
        }
        if (!is_readable($this->path) || (is_dir("$this->path/app")
            && !is_readable("$this->path/app"))) {
            return "cannot be read";
        }
        return null;
    }

    /** The tree's parent folder as Yioop computes it: src/ resolved, less /src. */
    private static function parent(string $root): string
    {
        $src = realpath("$root/src");
        return $src === false ? $root : dirname($src);
    }

    /**
     * The value $code defines for configs constant $name (define, nsdefine
     * or nsconddefine; the first one), false when it defines none, null
     * when the value is not made of string literals, __DIR__ and the
     * directory constants Yioop has defined by then.
     */
    private static function defined(string $code, string $name,
        string $root, string $file): string|false|null
    {
        $tokens = array_values(array_filter(@token_get_all($code),
            function ($t): bool {
                return !is_array($t) || !in_array($t[0], [T_WHITESPACE,
                    T_COMMENT, T_DOC_COMMENT], true);
            }));
        $count = count($tokens);
        for ($i = 0; $i + 3 < $count; $i++) {
            if (!is_array($tokens[$i]) || !in_array(strtolower(substr(strrchr(
                '\\' . $tokens[$i][1], '\\'), 1)), ['define', 'nsdefine',
                'nsconddefine'], true) || $tokens[$i + 1] !== '('
                || !is_array($tokens[$i + 2])
                || $tokens[$i + 2][0] !== T_CONSTANT_ENCAPSED_STRING
                || $tokens[$i + 3] !== ',') {
                continue;
            }
            $constant = self::literal($tokens[$i + 2][1]);
            if ($constant !== $name && $constant
                !== "seekquarry\\yioop\\configs\\$name") {
                continue;
            }
            return self::evaluate($tokens, $i + 4, $root, $file);
        }
        return false;
    }

    /**
     * The string the tokens from $i to the call's closing parenthesis
     * make, or null when they are anything but literals, __DIR__ and
     * Yioop's directory constants joined by ".".
     */
    private static function evaluate(array $tokens, int $i, string $root,
        string $file): ?string
    {
        $constants = ['DEFAULT_WORK_DIRECTORY' => self::parent($root)
            . '/work_directory', 'PARENT_DIR' => self::parent($root),
            'BASE_DIR' => self::parent($root) . '/src'];
        $value = '';
        $operand = true;
        for (; isset($tokens[$i]) && $tokens[$i] !== ')'; $i++) {
            $token = $tokens[$i];
            if (!$operand) {
                if ($token !== '.') {
                    return null;
                }
                $operand = true;
                continue;
            }
            if (!is_array($token)) {
                return null;
            }
            $part = match (true) {
                $token[0] === T_CONSTANT_ENCAPSED_STRING
                    => self::literal($token[1]),
                $token[0] === T_DIR => dirname($file),
                default => $constants[substr(strrchr('\\' . $token[1], '\\'),
                    1)] ?? null,
            };
            if ($part === null) {
                return null;
            }
            $value .= $part;
            $operand = false;
        }
        return $operand || !isset($tokens[$i]) ? null : $value;
    }

    /** A quoted PHP string's value; null for one with variables or escapes. */
    private static function literal(string $quoted): ?string
    {
        $body = substr($quoted, 1, -1);
        if ($quoted[0] === "'") {
            return str_replace(["\\\\", "\\'"], ["\\", "'"], $body);
        }
        return strpbrk($body, '$') === false ? stripcslashes($body) : null;
    }

    /**
     * The work directory's copy of $relative, a file of the table inside
     * the tree (src/...), when there is one: the file Yioop loads instead.
     */
    public function copyOf(string $relative): ?string
    {
        if ($this->path === null || $this->problem !== null
            || !str_starts_with($relative, 'src/')) {
            return null;
        }
        return Files::locate($this->path, 'app/' . substr($relative, 4));
    }

    /** One line for the output: which directory, from where, usable or not. */
    public function describe(): string
    {
        $profile = $this->path !== null && $this->problem === null
            ? (is_file("$this->path/Profile.php") ? "; its Profile.php is there"
            : "; no Profile.php in it (Yioop not configured to use it yet)")
            : '';
        return "Work directory: " . ($this->path ?? '(unknown)')
            . " ($this->source$profile)"
            . ($this->problem === null ? '' : ": {$this->problem}; only the "
            . "tree's files are switched and reported");
    }
}
