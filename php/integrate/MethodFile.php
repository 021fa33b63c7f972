<?php
/**
 * The class-method patch on a tree: one Yioop file of the switch table
 * located, edited and reported on by the commands, one line per method;
 * in the tree and, where the work directory holds a copy (which Yioop
 * then loads instead: WorkDir), in that copy too, each copy on its own.
 * The file is optional, and one that cannot be used is reported, not
 * refused (except by --revert).
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

final class MethodFile
{
    /** The file's name, for messages. */
    private readonly string $name;
    private readonly MethodPatch $patch;

    /**
     * @param string $path the file inside a Yioop checkout
     * @param SwitchedMethod[] $methods the table's methods in it, in order
     */
    public function __construct(private readonly string $path,
        private readonly array $methods)
    {
        $this->name = basename($path);
        $this->patch = new MethodPatch($this->name, $methods);
    }

    /**
     * Every file of the table, in table order.
     * @param array<string, SwitchedMethod[]> $table SwitchTable::byFile()
     * @return self[]
     */
    public static function all(array $table): array
    {
        $files = [];
        foreach ($table as $path => $methods) {
            $files[] = new self($path, $methods);
        }
        return $files;
    }

    /**
     * Switches the recognised methods in the tree's copy and in the work
     * directory's; reports on each.
     */
    public function apply(string $root, WorkDir $work, bool $loaded): void
    {
        $path = $this->locate($root, "); no methods switched.");
        if ($path !== null) {
            $this->applyTo($path, $loaded);
        }
        $copy = $work->copyOf($this->path);
        if ($copy !== null) {
            echo "\n{$this->name}, the work directory's copy (Yioop loads "
                . "it):\n";
            $this->applyTo($copy, $loaded);
        }
    }

    /** Switches the recognised methods of the copy at $path. */
    private function applyTo(string $path, bool $loaded): void
    {
        try {
            $code = Files::read($path);
            $state = $this->patch->state($code);
            $info = $state['info'];
            if ($state['integrated']) {
                echo "{$this->name}: already switched; nothing changed.\n";
            } elseif ($info['lines'] === []) {
                echo "{$this->name}: no method recognised; left unchanged.\n";
            } else {
                $new = $this->patch->transform($code, $info);
                $this->patch->verify($new, $code);
                $backup = Files::writeWithBackup($path, $code, $new);
                echo "Edited $path (backup of the original: $backup):\n";
            }
        } catch (Refusal $e) {
            echo "{$this->name}: left unchanged, its methods stay on PHP: "
                . $e->getMessage() . "\n";
            return;
        }
        $this->report($info, $info['lines'] !== [], $loaded);
    }

    /**
     * --check's report: the copy Yioop loads (the work directory's when
     * it has one, else the tree's) method by method, and the other one's
     * state.
     */
    public function check(string $root, WorkDir $work, bool $loaded): void
    {
        $copy = $work->copyOf($this->path);
        $path = $this->locate($root, "; optional); no methods switched"
            . ($copy === null ? '' : " in it"));
        if ($path !== null) {
            $this->checkCopy($path, $copy === null
                ? "the tree's copy; Yioop loads it" . ($work->problem === null
                ? ": the work directory has none" : ", unless the work "
                . "directory, unknown here, has one")
                : "the tree's copy; not loaded: Yioop loads the work "
                . "directory's", $copy === null, $loaded);
        }
        if ($copy !== null) {
            echo $path === null ? '' : "\n";
            $this->checkCopy($copy, "the work directory's copy; Yioop "
                . "loads it", true, $loaded);
        }
    }

    /**
     * --check on the copy at $path: its state, and with $methods one line
     * per method.
     */
    private function checkCopy(string $path, string $which, bool $methods,
        bool $loaded): void
    {
        $state_label = basename($this->name, '.php') . " state: ";
        echo "{$this->name}: $path\n  ($which)\n";
        try {
            $state = $this->patch->state(Files::read($path));
        } catch (Refusal $e) {
            echo "{$state_label}every method on PHP: " . $e->getMessage()
                . "\n";
            return;
        }
        echo $state_label . ($state['integrated']
            ? "methods switched by yioop-integrate.php"
            : ($state['info']['lines'] === [] ? "not switched: no method "
            . "recognised, every one on PHP" : "not switched (Yioop's "
            . "original {$this->name})")) . "\n";
        if ($methods) {
            $this->report($state['info'], $state['integrated'], $loaded);
        }
    }

    /** --revert for the tree's copy and the work directory's; 1 when one cannot be done. */
    public function revert(string $root, WorkDir $work): int
    {
        $status = 0;
        foreach ([Files::locate($root, $this->path),
            $work->copyOf($this->path)] as $path) {
            if ($path !== null) {
                $status = max($status, $this->revertCopy($path));
            }
        }
        return $status;
    }

    /** --revert for the copy at $path; 1 when it cannot be done. */
    private function revertCopy(string $path): int
    {
        try {
            Files::revert($path, $this->patch);
        } catch (Refusal $e) {
            $backup = $path . Files::BACKUP_SUFFIX;
            fwrite(STDERR, "yioop-integrate: {$this->name} not reverted: "
                . $e->getMessage() . (is_file($backup) ? ". The backup "
                . "$backup holds it as it was before integration" : "")
                . "\n");
            return 1;
        }
        return 0;
    }

    /**
     * The file in $root; when it has none, null, after saying so with
     * $none to end the sentence.
     */
    private function locate(string $root, string $none): ?string
    {
        $path = Files::locate($root, $this->path);
        if ($path === null) {
            echo "{$this->name}: none ({$this->path} not found$none\n";
        }
        return $path;
    }

    /** One line per table method: native, or PHP and why. */
    private function report(array $info, bool $switched, bool $loaded): void
    {
        $width = max(array_map(function (SwitchedMethod $method) {
            return strlen($method->method);
        }, $this->methods)) + 2;
        foreach ($this->methods as $i => $method) {
            echo str_pad($method->method, $width) . self::verdict($method,
                $info['reasons'][$i] ?? null, $switched, $loaded) . "\n";
        }
    }

    /** What a call of $method reaches; $reason: why it stays on PHP. */
    private static function verdict(SwitchedMethod $method, ?string $reason,
        bool $switched, bool $loaded): string
    {
        $guard = Guards::describe($method);
        if ($reason !== null) {
            return "PHP ($reason)";
        }
        if (!$switched) {
            return "PHP (recognised, not switched yet; run this tool without"
                . " --check)";
        }
        if (!$loaded) {
            return "native when the extension is loaded"
                . ($guard === '' ? '' : " and $guard");
        }
        if (!function_exists($method->native)) {
            return "BROKEN: switched, but the loaded extension does not "
                . "define \\{$method->native}";
        }
        return "native" . ($guard === '' ? '' : " when $guard");
    }
}
