<?php
/**
 * What every edit of a Yioop file has in common: it only inserts marked
 * text, so taking the marks out gives the original bytes back, and a file
 * counts as integrated only when inserting again reproduces it exactly.
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

abstract class Patch
{
    /** PHP module name of the extension, as tested by extension_loaded(). */
    public const MODULE = 'yioop';
    /** Prefix of every marker comment this tool writes. */
    public const MARK = 'yioop-codec:';

    /** @param string $file the edited file's name, for messages */
    public function __construct(public readonly string $file)
    {
    }

    /**
     * What to insert into $code, an original file; refuses a file this
     * patch does not recognise.
     */
    abstract public function analyze(string $code): array;

    /** $code with the insertions that analyze() planned. */
    abstract public function transform(string $code, array $info): string;

    /**
     * $code with this tool's insertions taken out, or null when it has
     * none. Trusted only once rebuilds() holds for the result.
     */
    abstract public function strip(string $code): ?string;

    /** $code with each [byte offset, text] of $inserts inserted. */
    protected static function insert(string $code, array $inserts): string
    {
        usort($inserts, function ($a, $b) {
            return $b[0] <=> $a[0];
        });
        foreach ($inserts as [$at, $text]) {
            $code = substr($code, 0, $at) . $text . substr($code, $at);
        }
        return $code;
    }

    /**
     * Analyses $code, first taking out this tool's insertions if there are
     * any. Refuses when they are there but are not exactly what this tool
     * would write.
     * @return array{integrated: bool, info: array}
     */
    public function state(string $code): array
    {
        $original = $this->strip($code);
        if ($original === null) {
            return ['integrated' => false, 'info' => $this->analyze($code)];
        }
        $info = $this->analyze($original);
        if ($this->transform($original, $info) !== $code) {
            throw new Refusal("{$this->file} carries yioop-integrate "
                . "markers but differs from what this tool writes: it was "
                . "edited by hand after integration");
        }
        return ['integrated' => true, 'info' => $info];
    }

    /** Whether integrating $original gives exactly $code. */
    public function rebuilds(string $original, string $code): bool
    {
        try {
            return $this->transform($original, $this->analyze($original))
                === $code;
        } catch (Refusal $e) {
            return false;
        }
    }

    /**
     * Checks $new, the edit of $original, before it is written: it must
     * strip back to the original, be recognised as integrated, and pass
     * php -l.
     */
    public function verify(string $new, string $original): void
    {
        if ($this->strip($new) !== $original) {
            throw new Refusal("internal check failed: the edit would not be "
                . "reversible; nothing was changed");
        }
        $this->state($new);
        $lint = Files::lint($new);
        if ($lint !== null) {
            throw new Refusal("the edited {$this->file} would not pass "
                . "php -l, so nothing was changed:\n$lint");
        }
    }
}
