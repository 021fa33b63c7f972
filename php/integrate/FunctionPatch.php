<?php
/**
 * The function patch: Yioop's src/library/Utility.php declares the
 * posting-list codec in PHP, in namespace seekquarry\yioop\library. Six
 * of those functions already sit in Yioop's `if (!extension_loaded("yioop"))`
 * block, and the extension registers them globally and in that namespace,
 * so they need nothing. The other codec functions are declared
 * unconditionally, and the extension registers them only globally, so
 * Yioop's calls would keep reaching PHP. Each of those is wrapped as
 *
 *     if (!extension_loaded("yioop")) {
 *         <Yioop's original declaration, byte for byte>
 *     } else {
 *         function NAME(<Yioop's parameter list>)
 *         { return \NAME(<args>) ?? yioop_codec_php_NAME(<args>); }
 *         <Yioop's declaration, renamed yioop_codec_php_NAME>
 *     }
 *
 * so that without the extension Yioop defines exactly what it did, and
 * with it the namespaced name forwards to the native global function and,
 * where the native declines (returns null, having changed no by-reference
 * argument), to Yioop's own PHP kept beside it (by-reference parameters
 * stay by-reference through both). deDeltaList's native returns nothing,
 * so its forwarder has no fallback. Trees switched by the older tool
 * (forwarders only) are recognised and switched again. One of the six
 * found outside a guard is wrapped without a forwarder. For
 * encodeQueueWeightInfo (NAMESPACED_KEPT), whose native calls Yioop's PHP
 * on the inputs Yioop compares rather than converts (B6), Yioop's guard
 * gets an else branch declaring its PHP version as
 * yioop_codec_php_encodeQueueWeightInfo (outside a guard: the else branch
 * of its wrapper). Utility functions outside the codec (LIBRARY:
 * parse_ini_with_fallback, webencode, webdecode) get the global-only
 * functions' wrapper, the forwarder calling their namespaced native, only
 * where the declaration's token hash is the one recorded. The edit only
 * inserts marked segments, so taking them out gives the original back.
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

final class FunctionPatch extends Patch
{
    /** Namespace of Yioop's library functions. */
    public const NS = 'seekquarry\\yioop\\library';
    /** Where the codec lives inside a Yioop checkout (3.x and later). */
    public const UTILITY = 'src/library/Utility.php';

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
    /**
     * Global-only functions whose native version returns nothing on
     * success, so null cannot say that it declined: their forwarder has no
     * fallback.
     */
    public const NO_DECLINE = ['deDeltaList'];
    /**
     * Namespaced functions whose native calls Yioop's PHP version, kept
     * under fallbackName(), on the inputs it does not take (B6 in
     * docs/bad-input.md). Inside Yioop's guard, the kept version goes in an
     * else branch added to the guard; one found outside a guard gets it in
     * the else branch of its wrapper.
     */
    public const NAMESPACED_KEPT = ['encodeQueueWeightInfo'];
    /** The shapes older versions of this tool wrote (see transform()). */
    private const OLDER_SHAPES = [1, 2, 3];
    /** Prefix of the names Yioop's PHP versions are kept under. */
    public const FALLBACK_PREFIX = 'yioop_codec_php_';
    /** Codec helpers the extension does not provide; they stay PHP. */
    public const PHP_ONLY = ['packListModified9'];
    /**
     * Utility functions outside the codec: name => [token hash of Yioop's
     * declaration (Tokens::hash, from the function keyword to its closing
     * brace), the native function]. Wrapped as the global-only ones are,
     * their forwarder calling the native, only where the declaration is
     * the one recorded; another stays Yioop's PHP, and none is required.
     */
    public const LIBRARY = [
        'parse_ini_with_fallback' => ['0ed7d9e8f0b70b6a',
            'yioop_codec\\locale\\parse_ini_with_fallback'],
        'webencode' => ['de7f84b12bfff952', 'yioop_codec\\webcode\\webencode'],
        'webdecode' => ['d47e3644bdd9dfcd', 'yioop_codec\\webcode\\webdecode'],
    ];

    public function __construct()
    {
        parent::__construct('Utility.php');
    }

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
            self::PHP_ONLY, array_keys(self::LIBRARY));
    }

    /**
     * Token hashes replacing LIBRARY's, name => hash (tests switch their
     * own stand-in declarations with it).
     */
    public static array $library_hashes = [];

    /** The function a forwarder for $name calls. */
    public static function nativeName(string $name): string
    {
        return self::LIBRARY[$name][1] ?? $name;
    }

    /* ------------------------------------------------------------------ */
    /* Analysis                                                           */
    /* ------------------------------------------------------------------ */

    /**
     * Finds the codec function declarations of $code and decides what to do.
     *
     * Returned array: line (text), format ("2015"/"2019"), functions
     * (lower-case name => declaration record), edits (name => whether a
     * forwarder is needed, in file order), eol.
     */
    public function analyze(string $code): array
    {
        $tokens = Tokens::of($code, $this->file);
        $functions = self::codecFunctions(FunctionScan::declarations($tokens,
            self::NS));
        $edits = [];
        foreach (self::allNames() as $name) {
            $fn = $functions[strtolower($name)] ?? null;
            if ($fn !== null && self::needsEdit($name, $fn['context'],
                substr_count($code, "\n", 0, $tokens[$fn['function']][2])
                + 1, Tokens::hash($tokens, $fn['function'],
                $fn['body_close']))) {
                $edits[$name] = in_array($name, self::GLOBAL_ONLY, true)
                    || isset(self::LIBRARY[$name]);
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
        $kept = [];
        foreach (self::NAMESPACED_KEPT as $name) {
            $fn = &$functions[strtolower($name)];
            if (isset($fn) && in_array($fn['context'], ['top', 'guard'],
                true)) {
                $fn['kept'] = self::keptDeclaration($code, $tokens, $fn);
                if ($fn['context'] === 'guard') {
                    $kept[$name] = $tokens[self::guardClose($tokens,
                        $fn['body_close'])][2] + 1;
                }
            }
            unset($fn);
        }
        $functions = array_filter($functions);
        uksort($edits, function ($a, $b) use ($functions) {
            return $functions[strtolower($a)]['start']
                <=> $functions[strtolower($b)]['start'];
        });
        $info = CodecLine::detect($tokens, $functions);
        $info['functions'] = $functions;
        $info['edits'] = $edits;
        $info['kept'] = $kept;
        $info['eol'] = Files::eol($code);
        return $info;
    }

    /**
     * The codec functions among $declared, lower-case name => record;
     * refuses a tree where one is declared twice or a required one lacks.
     */
    private static function codecFunctions(array $declared): array
    {
        $functions = [];
        foreach (self::allNames() as $name) {
            $records = $declared[strtolower($name)] ?? [];
            if (count($records) > 1) {
                throw new Refusal("$name is declared " . count($records)
                    . " times in Utility.php; I only handle Yioop's layout "
                    . "with one declaration");
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
            throw new Refusal("expected Yioop codec functions not found in "
                . "Utility.php: " . implode(', ', $missing));
        }
        return $functions;
    }

    /**
     * Whether function $name, declared in $where on line $line with token
     * hash $hash, gets wrapped in a guard; refuses a layout that is not
     * Yioop's.
     */
    private static function needsEdit(string $name, string $where,
        int $line, string $hash): bool
    {
        if (isset(self::LIBRARY[$name])) {
            return $where === 'top' && $hash
                === (self::$library_hashes[$name] ?? self::LIBRARY[$name][0]);
        }
        if ($where === 'other') {
            throw new Refusal("$name (line $line) is declared inside a block"
                . " I do not recognise; Utility.php looks modified by hand");
        }
        if (in_array($name, self::GLOBAL_ONLY, true)) {
            if ($where !== 'top') {
                throw new Refusal("$name (line $line) is already inside an "
                    . "extension_loaded guard without this tool's markers; "
                    . "with the extension loaded " . self::NS . "\\$name "
                    . "would be undefined. Utility.php looks modified by "
                    . "hand; restore Yioop's version first");
            }
            return true;
        }
        if (in_array($name, self::NAMESPACED, true)) {
            return $where === 'top';
        }
        if ($where !== 'top') {
            throw new Refusal("$name (line $line) must stay unconditional "
                . "PHP (the extension does not provide it), but it is "
                . "inside an extension_loaded guard");
        }
        return false;
    }

    /**
     * Byte offset where a declaration starts: its doc comment when one
     * comes right before it, otherwise the function keyword.
     */
    private static function declarationStart(array $tokens, int $function):
        int
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
        $args = Tokens::parameterNames($tokens, $fn['params_open'],
            $fn['params_close']);
        $type = Tokens::squeeze($tokens, $fn['params_close'],
            $fn['body_open']);
        return ['header' => $header, 'args' => implode(', ', $args),
            'return' => !in_array($type, [':void', ':never'], true),
            'fallback' => self::keptDeclaration($code, $tokens, $fn)];
    }

    /**
     * Yioop's declaration of $fn (from the function keyword), renamed
     * fallbackName().
     */
    private static function keptDeclaration(string $code, array $tokens,
        array $fn): string
    {
        $start = $tokens[$fn['function']][2];
        $declaration = substr($code, $start, $tokens[$fn['body_close']][2]
            + 1 - $start);
        $kept = preg_replace('~^function(\s*&?\s*)' . preg_quote(
            $fn['name'], '~') . '\b~', 'function${1}'
            . self::fallbackName($fn['name']), $declaration, 1, $renamed);
        if ($renamed !== 1) {
            throw new Refusal("{$fn['name']}: could not name the PHP "
                . "fallback kept beside the native");
        }
        return $kept;
    }

    /**
     * Token index of the "}" that closes the block around the function
     * whose body closes at $body_close (Yioop's extension guard).
     */
    private static function guardClose(array $tokens, int $body_close): int
    {
        $depth = 0;
        for ($i = $body_close + 1, $n = count($tokens); $i < $n; $i++) {
            $id = $tokens[$i][0];
            if (Tokens::opensBrace($id)) {
                $depth++;
            } elseif ($id === '}') {
                if ($depth === 0) {
                    return $i;
                }
                $depth--;
            }
        }
        throw new Refusal("unbalanced braces");
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

    /**
     * Text inserted after a wrapped declaration. With $legacy, the else
     * branch an older version of this tool wrote (a forwarder without a
     * fallback), so that trees it switched are still recognised.
     */
    private static function closeSegment(string $name, ?array $forwarder,
        string $eol, bool $legacy = false, ?string $kept = null): string
    {
        if ($forwarder === null) {
            return ($kept === null ? $eol : self::elseMarker($name, $eol)
                . $eol . self::keptComment($name, $eol) . $kept . $eol)
                . self::endMarker($name);
        }
        $call = "\\" . self::nativeName($name) . "({$forwarder['args']})";
        $fallback = !$legacy && $forwarder['return']
            && !in_array($name, self::NO_DECLINE, true);
        $native = isset(self::LIBRARY[$name]) ? "function" : "global function";
        if ($legacy || !$fallback) {
            $comment = "// with the extension: forwarder to the native "
                . $native;
            $body = $forwarder['return'] ? "return $call;" : "$call;";
        } else {
            $comment = "// with the extension: forwarder to the native "
                . "$native; where it declines (returns null),"
                . $eol . "// Yioop's PHP version, kept below as "
                . self::fallbackName($name);
            $body = "return $call" . $eol . "        ?? "
                . self::fallbackName($name) . "({$forwarder['args']});";
        }
        return self::elseMarker($name, $eol) . $eol
            . $comment . $eol
            . $forwarder['header'] . $eol
            . "{" . $eol
            . "    " . $body . $eol
            . "}" . $eol
            . ($fallback ? $forwarder['fallback'] . $eol : "")
            . self::endMarker($name);
    }

    /** Comment before a namespaced function's kept PHP version. */
    private static function keptComment(string $name, string $eol): string
    {
        return "// with the extension: Yioop's PHP version, kept as "
            . self::fallbackName($name) . $eol
            . "// for the native $name to call on inputs it does not take"
            . $eol;
    }

    /** Marker that opens the else branch added to Yioop's guard. */
    private static function keptOpen(string $name): string
    {
        return " else { /* " . self::MARK . "kept $name */";
    }

    /** Marker that closes the else branch added to Yioop's guard. */
    private static function keptEnd(string $name): string
    {
        return "} /* " . self::MARK . "end kept $name */";
    }

    /**
     * The else branch added to Yioop's guard, after its closing brace:
     * Yioop's PHP version of $name under fallbackName().
     */
    private static function keptSegment(string $name, string $kept,
        string $eol): string
    {
        return self::keptOpen($name) . $eol
            . "/* Added by php/yioop-integrate.php (undo with its --revert)"
            . " */" . $eol
            . self::keptComment($name, $eol) . $kept . $eol
            . self::keptEnd($name);
    }

    /**
     * Name under which Yioop's PHP version of $name is kept beside its
     * forwarder (no Yioop function starts with this prefix).
     */
    public static function fallbackName(string $name): string
    {
        return self::FALLBACK_PREFIX . $name;
    }

    /**
     * Utility.php with the planned segments inserted; with $older, as an
     * older version of this tool inserted them: 3, without the library
     * functions (LIBRARY); 1, also without the namespaced functions' kept
     * PHP versions (NAMESPACED_KEPT); 2, also without the forwarders'
     * fallbacks (forwarders only).
     */
    public function transform(string $code, array $info, int $older = 0):
        string
    {
        $inserts = [];
        $keeps = $older === 0 || $older === 3;
        foreach ($info['edits'] as $name => $forward) {
            if ($older !== 0 && isset(self::LIBRARY[$name])) {
                continue;
            }
            $fn = $info['functions'][strtolower($name)];
            $inserts[] = [$fn['start'], self::openSegment($fn['name'],
                $info['eol'])];
            $inserts[] = [$fn['end'], self::closeSegment($fn['name'],
                $forward ? $fn['forwarder'] : null, $info['eol'],
                $older === 2, $keeps ? $fn['kept'] ?? null : null)];
        }
        if ($keeps) {
            foreach ($info['kept'] ?? [] as $name => $at) {
                $inserts[] = [$at, self::keptSegment($name,
                    $info['functions'][strtolower($name)]['kept'],
                    $info['eol'])];
            }
        }
        return self::insert($code, $inserts);
    }

    /**
     * As Patch::state(), and a tree switched by an older version of this
     * tool (without the kept namespaced functions, or also without the
     * forwarders' fallbacks; see transform()) counts as
     * integrated with 'legacy' set to its shape: apply() switches it
     * again.
     */
    public function state(string $code): array
    {
        $original = $this->strip($code);
        if ($original !== null) {
            $info = $this->analyze($original);
            if ($this->transform($original, $info) !== $code) {
                foreach (self::OLDER_SHAPES as $older) {
                    if ($this->transform($original, $info, $older)
                        === $code) {
                        return ['integrated' => true, 'legacy' => $older,
                            'info' => $info, 'original' => $original];
                    }
                }
            }
        }
        return parent::state($code) + ['legacy' => false];
    }

    /** As Patch::rebuilds(), also for an older version's segments. */
    public function rebuilds(string $original, string $code): bool
    {
        try {
            $info = $this->analyze($original);
            foreach ([0, ...self::OLDER_SHAPES] as $older) {
                if ($this->transform($original, $info, $older) === $code) {
                    return true;
                }
            }
            return false;
        } catch (Refusal $e) {
            return false;
        }
    }

    /** Utility.php with this tool's segments taken out, or null. */
    public function strip(string $code): ?string
    {
        if (strpos($code, self::MARK) === false) {
            return null;
        }
        $eol = Files::eol($code);
        foreach (self::NAMESPACED_KEPT as $name) {
            $code = self::stripKept($code, $name);
        }
        preg_match_all('~/\* ' . preg_quote(self::MARK, '~')
            . 'begin (\w+)\r?\n~', $code, $m);
        foreach ($m[1] as $name) {
            $code = self::stripSegments($code, $name, $eol);
        }
        if (strpos($code, self::MARK) !== false) {
            throw new Refusal("Utility.php has yioop-integrate markers "
                . "without their opening marker (edited by hand)");
        }
        return $code;
    }

    /** $code without the else branch this tool added to Yioop's guard. */
    private static function stripKept(string $code, string $name): string
    {
        $open = self::keptOpen($name);
        $end = self::keptEnd($name);
        $count = substr_count($code, $open);
        if ($count === 0 && strpos($code, $end) === false) {
            return $code;
        }
        $from = strpos($code, $open);
        $to = strpos($code, $end);
        if ($count !== 1 || substr_count($code, $end) !== 1 || $to < $from) {
            throw new Refusal("the yioop-integrate segment keeping $name in "
                . "Utility.php was edited by hand");
        }
        return substr($code, 0, $from) . substr($code, $to + strlen($end));
    }

    /** $code without the two segments this tool wrapped $name in. */
    private static function stripSegments(string $code, string $name,
        string $eol): string
    {
        $open = self::openSegment($name, $eol);
        if (substr_count($code, $open) !== 1) {
            throw new Refusal("the yioop-integrate opening marker for $name"
                . " in Utility.php was edited by hand");
        }
        $code = str_replace($open, '', $code);
        $end = self::endMarker($name);
        if (substr_count($code, $end) !== 1) {
            throw new Refusal("the yioop-integrate closing marker for $name"
                . " in Utility.php is missing or repeated (edited by hand)");
        }
        $end_at = strpos($code, $end);
        $else_at = strpos($code, self::elseMarker($name, $eol));
        if ($else_at !== false && $else_at < $end_at) {
            $from = $else_at;
        } else {
            $from = $end_at - strlen($eol);
            if ($from < 0 || substr($code, $from, strlen($eol)) !== $eol) {
                throw new Refusal("the yioop-integrate closing segment for "
                    . "$name in Utility.php was edited");
            }
        }
        return substr($code, 0, $from) . substr($code, $end_at
            + strlen($end));
    }
}
