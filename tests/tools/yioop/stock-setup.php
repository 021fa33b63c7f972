<?php
/**
 * What installing and serving a stock Yioop takes, shared by
 * stock-install.php, stock-web.php and bench/search/run.php: Yioop's
 * ConfigureTool answered prompt by prompt, Createdb.php, copies of the
 * installed tree (one switched over by php/yioop-integrate.php, with the
 * en_US Tokenizer in its own work directory's app/locale, where Yioop's
 * installer puts it and Yioop loads it from), PHP run
 * with or without the extension, and showing how two sides' answers differ.
 */
declare(strict_types=1);

final class SetUpFailure extends RuntimeException
{
}

/** $sapi's conf.d (cli, fpm) in $dir, minus the yioop extension that phpenmod enables globally. */
function phpIniWithoutYioop(string $sapi, string $dir): string
{
    is_dir($dir) || mkdir($dir); // again on a restart
    foreach (glob(phpConfig($sapi) . "/conf.d/*.ini") as $ini) {
        if (!str_contains(basename($ini), "yioop")) {
            copy($ini, "$dir/" . basename($ini));
        }
    }
    return $dir;
}

/** Debian's /etc/php/X.Y/$sapi. */
function phpConfig(string $sapi): string
{
    return "/etc/php/" . PHP_MAJOR_VERSION . "." . PHP_MINOR_VERSION . "/$sapi";
}

/** Installs a copy of $yioop with its work directory at $work; returns the tree. */
function installYioop(string $yioop, string $tree, string $work, Php $php): string
{
    shell("cp -r " . escapeshellarg($yioop) . " " . escapeshellarg($tree));
    shell("rm -rf " . escapeshellarg("$tree/work_directory")); // someone else's site
    standInForMissingHelpPages($tree);
    configureWorkDirectory($tree, $work, $php);
    $out = $php->mustRun(["src/configs/Createdb.php"], $tree, "Yioop's Createdb.php");
    if (!str_contains($out, "Create DB succeeded")) {
        throw new SetUpFailure("Createdb.php did not say it succeeded:\n" . tail($out));
    }
    return $tree;
}

/**
 * The snapshot's PublicHelpPages.php is an empty file (a missing blob) and
 * Createdb.php requires it for the wiki pages it inserts: none, here.
 */
function standInForMissingHelpPages(string $tree): void
{
    $file = "$tree/src/configs/PublicHelpPages.php";
    if (is_file($file) && trim(file_get_contents($file)) === "") {
        file_put_contents($file, "<?php\nnamespace seekquarry\\yioop\\configs;\n\n"
            . "// stand-in written by yioop_codec's stock-install.php for an empty file\n"
            . "\$public_pages = [];\n\$help_pages = [];\n");
    }
}

/** ConfigureTool's Create/Set Work Directory: a new one, or one already set up. */
function configureWorkDirectory(string $tree, string $work, Php $php): void
{
    $transcript = configureTool($tree, $php, [choose("Create/Set Work Directory"),
        ["Enter a new value:", fn() => $work], choose("Confirm Change"), choose("Exit program")]);
    if (!is_file("$work/Profile.php") || !configPointsAt($tree, $work)) {
        throw new SetUpFailure("ConfigureTool did not create $work/Profile.php and point "
            . "src/configs/Config.php at it:\n" . tail($transcript));
    }
}

/** ConfigureTool's Name Server Set-up, Edit Name Server Url. */
function setNameServer(string $tree, string $work, string $url, Php $php): void
{
    $transcript = configureTool($tree, $php, [choose("Name Server Set-up"),
        choose("Edit Name Server Url"), ["Enter a new name server url:", fn() => $url],
        choose("Return to Main Menu"), choose("Exit program")]);
    if (!str_contains(file_get_contents("$work/Profile.php"),
        "nsdefine('NAME_SERVER', \"$url\");")) {
        throw new SetUpFailure("ConfigureTool did not set NAME_SERVER to $url in "
            . "$work/Profile.php:\n" . tail($transcript));
    }
}

/**
 * ConfigureTool's Name Server Set-up, Edit Server Key: the key every machine
 * of a multi-machine Yioop must share (bench/multi).
 */
function setServerKey(string $tree, string $work, string $key, Php $php): void
{
    $transcript = configureTool($tree, $php, [choose("Name Server Set-up"),
        choose("Edit Server Key"), ["Enter a new server key:", fn() => $key],
        choose("Return to Main Menu"), choose("Exit program")]);
    if (!str_contains(file_get_contents("$work/Profile.php"), "nsdefine('AUTH_KEY', \"$key\");")) {
        throw new SetUpFailure("ConfigureTool did not set AUTH_KEY in $work/Profile.php:\n"
            . tail($transcript));
    }
}

/**
 * Answers ConfigureTool's prompts, [prompt, reply] after [prompt, reply];
 * returns the transcript. Each answer waits for its prompt: readInput()
 * reopens php://stdin per line and drops whatever else it buffered.
 */
function configureTool(string $tree, Php $php, array $answers): string
{
    $tool = new Dialogue($php->command(["src/configs/ConfigureTool.php"]), $tree, $php->env());
    foreach ($answers as [$prompt, $reply]) {
        $tool->answer($prompt, $reply);
    }
    return $tool->finish();
}

/** The answer to a menu: the number of $item. */
function choose(string $item): array
{
    return ["Please choose an option:", fn(string $menu) => menuNumber($menu, $item)];
}

function menuNumber(string $menu, string $item): string
{
    if (!preg_match("/\((\d+)\) " . preg_quote($item, "/") . "\n/", $menu, $m)) {
        throw new SetUpFailure("ConfigureTool offered no '$item':\n" . tail($menu));
    }
    return $m[1];
}

function configPointsAt(string $tree, string $work): bool
{
    return str_contains(file_get_contents("$tree/src/configs/Config.php"),
        "nsdefine('WORK_DIRECTORY', '$work');");
}

/** A copy of the installed tree; its Config.php still points at the shared $work. */
function copyTree(string $install, string $tree, string $work): string
{
    mkdir($tree);
    $tree .= "/yioop";
    shell("cp -r " . escapeshellarg($install) . " " . escapeshellarg($tree));
    if (!configPointsAt($tree, $work)) {
        throw new SetUpFailure("$tree/src/configs/Config.php does not point at $work");
    }
    return $tree;
}

/**
 * $tree's own work directory: a copy of $work beside it, set through
 * ConfigureTool as an operator would; returns its path. A switched copy
 * gets one, so that the plain copy's work directory stays as Yioop wrote it.
 * With $link_indexes its indexes (cache/IndexData*) are hard links, not
 * copies: a search only reads them, and at a million documents three
 * copies do not fit the disk (bench/scale checks that none changed).
 */
function ownWorkDirectory(string $tree, string $work, Php $php, bool $link_indexes = false): string
{
    $own = dirname($tree) . "/work";
    copyWork($work, $own, $link_indexes);
    configureWorkDirectory($tree, $own, $php);
    return $own;
}

/**
 * $work copied to $own; with $link_indexes, its cache/IndexData* hard-linked
 * instead (a link shares its file's owner: a served copy's chown reaches
 * the original).
 */
function copyWork(string $work, string $own, bool $link_indexes): void
{
    if (!$link_indexes) {
        shell("cp -a " . escapeshellarg($work) . " " . escapeshellarg($own));
        return;
    }
    mkdir($own);
    shell("tar -C " . escapeshellarg($work) . " --exclude='./cache/IndexData*' -cf - . | tar -C "
        . escapeshellarg($own) . " -xpf -");
    foreach (glob("$work/cache/IndexData*") as $index) {
        shell("cp -al " . escapeshellarg($index) . " " . escapeshellarg("$own/cache/"));
    }
}

/** The file Yioop's installer copies from src/locale, and Yioop then loads. */
const WORK_TOKENIZER = "app/locale/en_US/resources/Tokenizer.php";

/**
 * Runs php/yioop-integrate.php on $tree, whose Config.php names the work
 * directory to switch too; returns the yioop.format it recommends. The work
 * directory must have the installer's layout (app/locale), and its en_US
 * Tokenizer, the one Yioop loads, must come out switched.
 */
function switchOver(string $tree, Php $php): string
{
    $out = $php->mustRun([dirname(__DIR__, 3) . "/php/yioop-integrate.php", $tree], $tree,
        "php/yioop-integrate.php");
    $methods = substr_count(file_get_contents("$tree/src/library/IndexShard.php"),
        "yioop-codec:method");
    if ($methods == 0 || !preg_match('/Recommended:\s+yioop\.format=(\d+)/', $out, $m)) {
        throw new SetUpFailure("yioop-integrate.php did not switch IndexShard over "
            . "(the comparison would be Yioop against itself):\n" . tail($out));
    }
    if (!preg_match('/^Work directory: (\S+) \(/m', $out, $work)
        || !is_file("$work[1]/" . WORK_TOKENIZER)) {
        throw new SetUpFailure("no work directory with Yioop's installer layout ("
            . WORK_TOKENIZER . ") for $tree:\n" . tail($out));
    }
    if (!str_contains(file_get_contents("$work[1]/" . WORK_TOKENIZER), "yioop-codec:method")) {
        throw new SetUpFailure("yioop-integrate.php did not switch $work[1]/" . WORK_TOKENIZER
            . ", the Tokenizer Yioop loads:\n" . tail($out));
    }
    return $m[1];
}

/**
 * Without the blocks Yioop's error handler prints for PHP 8.2+ deprecations
 * and warnings: it prints them whatever error_reporting says, their
 * backtraces name each copy's own files and lines, and code the extension
 * replaces raises none.
 */
function withoutYioopErrorBlocks(string $text, ?int &$count = null): string
{
    return preg_replace('~<pre>\n(?:NOTICE:|WARNING:|PHP OTHER ERROR) .*?</pre>~s', "", $text,
        -1, $count);
}

function queryLine(array $args, string $query, array $a, array $b, bool $same): string
{
    $what = "'$args[0]'" . ($query != $args[0] ? " ($query)" : "")
        . ($args[2] != "0" || $args[1] != "10" ? ", $args[1] from $args[2]" : "");
    $side = fn(array $r) => "$r[how], " . shown($r) . " shown"
        . ($r["err"] !== "" ? ", stderr: " . strtok($r["err"], "\n") : "");
    if ($same) {
        return sprintf("same       %-16s %s\n", shown($a), $what);
    }
    return sprintf("DIFFERENT  %s\n    plain:    %s\n    switched: %s\n%s", $what, $side($a),
        $side($b), firstDifference($a["out"], $b["out"]));
}

/** "10 of 4093"; "10+10 of 4093" with the next results a search page asked for. */
function shown(array $answer): string
{
    return $answer["shown"] . (isset($answer["more"]) ? "+$answer[more]" : "")
        . " of $answer[total]";
}

function firstDifference(string $a, string $b): string
{
    $a = explode("\n", $a);
    $b = explode("\n", $b);
    foreach ($a as $i => $line) {
        if (($b[$i] ?? null) !== $line) {
            $other = $b[$i] ?? "(none)";
            $at = strspn($line ^ $other, "\0"); // the first differing column
            return "    line " . ($i + 1) . ": plain '" . excerpt($line, $at) . "', switched '"
                . excerpt($other, $at) . "'\n";
        }
    }
    return count($b) > count($a) ? "    switched has more lines\n" : "";
}

/** At most 160 characters of $line, from a little before column $at (HTML lines run long). */
function excerpt(string $line, int $at): string
{
    $from = max(0, $at - 60);
    return ($from > 0 ? "..." : "") . substr($line, $from, 160)
        . (strlen($line) > $from + 160 ? "..." : "");
}

function shell(string $command): void
{
    exec("$command 2>&1", $out, $rc);
    if ($rc != 0) {
        throw new SetUpFailure("$command: " . implode("\n", $out));
    }
}

function tail(string $text): string
{
    return implode("\n", array_slice(explode("\n", trim($text)), -15));
}

/** The php binary with this harness's ini set-up, plus $flags. */
final class Php
{
    public function __construct(private string $scan_dir, private array $flags,
        private string $name)
    {
    }

    public function addFlags(array $flags): void
    {
        $this->flags = [...$this->flags, ...$flags];
    }

    public function env(): array
    {
        return ["PHP_INI_SCAN_DIR" => $this->scan_dir] + getenv();
    }

    public function command(array $args): array
    {
        return [PHP_BINARY, ...$this->flags, ...$args];
    }

    /** [exit status, stdout, stderr] */
    public function run(array $args, string $cwd): array
    {
        $out = tmpfile();
        $err = tmpfile();
        $process = proc_open($this->command($args), [0 => ["file", "/dev/null", "r"], 1 => $out,
            2 => $err], $pipes, $cwd, $this->env());
        $rc = proc_close($process);
        rewind($out);
        rewind($err);
        return [$rc, stream_get_contents($out), stream_get_contents($err)];
    }

    public function mustRun(array $args, string $cwd, string $what): string
    {
        [$rc, $out, $err] = $this->run($args, $cwd);
        if ($rc != 0) {
            throw new SetUpFailure("$what exited $rc:\n" . tail("$out\n$err"));
        }
        return $out;
    }

    public function mustHaveExtension(bool $loaded): void
    {
        [$rc, $out, $err] = $this->run(["-r", "echo extension_loaded('yioop') ? 'yes' : 'no';"], "/");
        if ($out !== ($loaded ? "yes" : "no")) {
            throw new SetUpFailure("the $this->name php (" . implode(" ", $this->command([]))
                . ") should " . ($loaded ? "" : "not ") . "load the yioop extension: "
                . trim("$out $err"));
        }
    }
}

/** An interactive tool, answered prompt by prompt. */
final class Dialogue
{
    private const PROMPT_SECONDS = 60;
    private $process;
    private array $pipes = [];
    private string $transcript = "";
    private int $read_to = 0;

    public function __construct(array $command, string $cwd, array $env)
    {
        $this->process = proc_open($command, [0 => ["pipe", "r"], 1 => ["pipe", "w"],
            2 => ["redirect", 1]], $this->pipes, $cwd, $env);
        stream_set_blocking($this->pipes[1], false);
    }

    /** Waits for $prompt, then sends $reply(what was printed since the last answer). */
    public function answer(string $prompt, callable $reply): void
    {
        $deadline = microtime(true) + self::PROMPT_SECONDS;
        while (($at = strpos($this->transcript, $prompt, $this->read_to)) === false) {
            if (microtime(true) > $deadline || feof($this->pipes[1])) {
                throw new SetUpFailure("ConfigureTool never asked '$prompt':\n"
                    . tail($this->transcript));
            }
            $this->read(0.2);
        }
        $said = substr($this->transcript, $this->read_to, $at + strlen($prompt) - $this->read_to);
        $this->read_to = $at + strlen($prompt);
        fwrite($this->pipes[0], $reply($said) . "\n");
        fflush($this->pipes[0]);
    }

    public function finish(): string
    {
        fclose($this->pipes[0]);
        while (!feof($this->pipes[1])) {
            $this->read(0.2);
        }
        proc_close($this->process);
        return $this->transcript;
    }

    private function read(float $seconds): void
    {
        $read = [$this->pipes[1]];
        $none = [];
        if (stream_select($read, $none, $none, 0, (int)($seconds * 1e6))) {
            $this->transcript .= (string)fread($this->pipes[1], 65536);
        }
    }
}
