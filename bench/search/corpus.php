<?php
/**
 * The corpus bench/search/run.php crawls: the HTML pages of Debian's
 * documentation packages, served as they are installed, under one site on
 * 127.0.0.1, plus a few pages of ours that link to every page (so the crawl
 * reaches all of them whatever the documents' own links) and the query set
 * derived from the pages' words.
 */
declare(strict_types=1);

final class DocCorpus
{
    /** section => [Debian package, directory it installs its HTML in] */
    public const SECTIONS = [
        "python" => ["python3.11-doc", "/usr/share/doc/python3.11/html"],
        "postgresql" => ["postgresql-doc-15", "/usr/share/doc/postgresql-doc-15/html"],
        "django" => ["python-django-doc", "/usr/share/doc/python-django-doc/html"],
        "git" => ["git-doc", "/usr/share/doc/git-doc"],
        "glib" => ["libglib2.0-doc", "/usr/share/gtk-doc/html/glib"],
        "gio" => ["libglib2.0-doc", "/usr/share/gtk-doc/html/gio"],
        "gobject" => ["libglib2.0-doc", "/usr/share/gtk-doc/html/gobject"],
        "gtk3" => ["libgtk-3-doc", "/usr/share/gtk-doc/html/gtk3"],
        "gdk3" => ["libgtk-3-doc", "/usr/share/gtk-doc/html/gdk3"],
    ];
    /** --quick: a few hundred pages */
    public const QUICK_SECTIONS = ["git"];
    private const LINKS_PER_MAP = 200;

    /** bench/multi's --quick: three sections, so three hosts to split */
    public const MULTI_QUICK_SECTIONS = ["git", "gobject", "gdk3"];

    /** @var string[] path on the site => file, every document page */
    public array $pages = [];
    /**
     * section => port, when each section is its own host (bench/multi: Yioop
     * splits a crawl across queue servers by host); empty: one host.
     * @var int[]
     */
    public array $ports = [];

    /**
     * $sections: section => [Debian package, directory of its HTML], as
     * SECTIONS (bench/scale takes more packages); $quick: QUICK_SECTIONS
     * only, or $quick_sections when given; $hosts: each section served on
     * its own port ($port + 1, + 2, ... in $sections' order; bench/multi).
     */
    public function __construct(public string $dir, public int $port, bool $quick,
        public array $sections = self::SECTIONS, bool $hosts = false, ?array $quick_sections = null)
    {
        $n = 0;
        foreach ($sections as $section => [$package, $from]) {
            $n++;
            if ($quick && !in_array($section, $quick_sections ?? self::QUICK_SECTIONS, true)) {
                continue;
            }
            if ($hosts) {
                $this->ports[$section] = $port + $n;
            }
            $files = self::htmlFiles($package, $from);
            if ($files === []) {
                throw new SetUpFailure("no HTML of $package in $from: run bench/search/setup.sh "
                    . "(apt-get install -y " . implode(" ", self::packages($sections)) . ")");
            }
            foreach ($files as $file) {
                $this->pages["/$section" . substr($file, strlen($from))] = $file;
            }
        }
    }

    /** The Debian packages the full corpus (or $sections) needs. */
    public static function packages(array $sections = self::SECTIONS): array
    {
        return array_values(array_unique(array_column($sections, 0)));
    }

    public function url(string $path = "/"): string
    {
        return "http://127.0.0.1:$this->port$path";
    }

    /** A page's URL: on its section's host when sections are hosts. */
    public function pageUrl(string $path): string
    {
        $port = $this->ports[explode("/", $path)[1]] ?? $this->port;
        return "http://127.0.0.1:$port$path";
    }

    /**
     * The crawl's seeds: the index page, and with a host per section each
     * section's index.html (else its first page) too. Yioop's Fetcher sends
     * the URLs it finds for another queue server's hosts only when it
     * updates that server, which it does after a schedule from it: a queue
     * server starts with work only if a seed is on one of its hosts.
     */
    public function seeds(): array
    {
        $seeds = [$this->url("/index.html")];
        foreach ($this->ports as $section => $port) {
            $paths = array_filter(array_keys($this->pages), fn($p) => str_starts_with($p,
                "/$section/"));
            $seeds[] = $this->pageUrl(in_array("/$section/index.html", $paths, true)
                ? "/$section/index.html" : reset($paths));
        }
        return $seeds;
    }

    /** The URL prefixes the crawl may follow: the whole site, or the index and each section's host. */
    public function allowedPrefixes(): array
    {
        if ($this->ports === []) {
            return [$this->url("/")];
        }
        $prefixes = [$this->url("/index.html"), $this->url("/maps/")];
        foreach ($this->ports as $section => $port) {
            $prefixes[] = "http://127.0.0.1:$port/$section/";
        }
        return $prefixes;
    }

    /** Writes the site: a link per section, the maps that list its pages. */
    public function build(): void
    {
        mkdir("$this->dir/maps", 0755, true);
        $maps = [];
        $sections = [];
        foreach ($this->pages as $path => $file) {
            $sections[explode("/", $path)[1]][] = $path;
        }
        foreach ($sections as $section => $paths) {
            symlink($this->sections[$section][1], "$this->dir/$section");
            foreach (array_chunk($paths, self::LINKS_PER_MAP) as $i => $chunk) {
                $map = "/maps/$section-" . ($i + 1) . ".html";
                file_put_contents($this->dir . $map, self::page("$section pages, part "
                    . ($i + 1), $this->ports === [] ? $chunk : array_map([$this, "pageUrl"],
                    $chunk)));
                $maps[] = $map;
            }
        }
        file_put_contents("$this->dir/index.html", self::page("Debian documentation", $maps));
    }

    /** nginx's server block for the site: static files, with their MIME types. */
    public function serverBlock(): string
    {
        $blocks = "";
        foreach ([$this->port, ...array_values($this->ports)] as $port) {
            $blocks .= "    server {\n        listen 127.0.0.1:$port;\n"
                . "        root $this->dir;\n        include /etc/nginx/mime.types;\n"
                . "        location / { try_files \$uri \$uri/ =404; }\n    }\n";
        }
        return $blocks;
    }

    /**
     * Document frequency of each word over the pages' text: words of 3-20
     * letters, in how many pages they occur. Ties in rank order by word.
     */
    public function wordFrequencies(): array
    {
        $frequency = [];
        foreach ($this->pages as $file) {
            $text = html_entity_decode(strip_tags(preg_replace('~<(script|style)\b.*?</\1>~si',
                " ", (string)file_get_contents($file))));
            preg_match_all('/\b[a-z]{3,20}\b/', strtolower($text), $words);
            foreach (array_unique($words[0]) as $word) {
                $frequency[$word] = ($frequency[$word] ?? 0) + 1;
            }
        }
        uksort($frequency, fn($a, $b) => [$frequency[$b], $a] <=> [$frequency[$a], $b]);
        return $frequency;
    }

    /** The package's installed .html files (not its other directories), sorted. */
    private static function htmlFiles(string $package, string $from): array
    {
        exec("dpkg -L " . escapeshellarg($package) . " 2>/dev/null", $files);
        $files = array_filter($files, fn($f) => str_starts_with($f, "$from/")
            && str_ends_with($f, ".html") && is_file($f));
        sort($files);
        return array_values($files);
    }

    private static function page(string $title, array $paths): string
    {
        $links = array_map(fn($p) => "<li><a href=\"" . htmlspecialchars($p) . "\">"
            . htmlspecialchars($p) . "</a></li>\n", $paths);
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
            . htmlspecialchars($title) . "</title></head>\n<body><h1>" . htmlspecialchars($title)
            . "</h1>\n<ul>\n" . implode("", $links) . "</ul></body></html>\n";
    }
}

/**
 * The fixed query set: single words of high, middle and low document
 * frequency, conjunctions of 2 and 3 of them, and operators (a quoted
 * phrase, exclusion, site:, alternatives). [query, results per page, first
 * result, class]. Stop words (in
 * nearly every page) are left out of "high": Yioop's own word filter may
 * treat them specially; the point is to time long posting lists.
 */
function searchQueries(array $frequency, int $pages, bool $quick, string $site): array
{
    $n = $quick ? 3 : 12;
    $words = array_keys(array_filter($frequency, fn($f) => $f >= 2));
    $high = array_slice(array_keys(array_filter($frequency, fn($f) => $f <= 0.6 * $pages)), 0,
        $n);
    $middle = pickSpread($words, (int)(count($words) * 0.1), (int)(count($words) * 0.3), $n);
    $low = pickSpread($words, (int)(count($words) * 0.8), count($words) - 1, $n);
    $queries = [];
    foreach (["high" => $high, "middle" => $middle, "low" => $low] as $class => $picked) {
        foreach ($picked as $word) {
            $queries[] = [$word, $class];
        }
    }
    for ($i = 0; $i < $n; $i++) {
        $queries[] = [$high[$i] . " " . $middle[$i], "and"];
        $queries[] = [$high[$i] . " " . $high[($i + 1) % $n], "and"];
        $queries[] = [$high[$i] . " " . $middle[($i + 1) % $n] . " " . $high[($i + 2) % $n],
            "and"];
    }
    for ($i = 0; $i < max(2, intdiv($n, 2)); $i++) {
        $queries[] = ["\"" . $high[$i] . " " . $high[($i + 1) % $n] . "\"", "operator"];
        $queries[] = [$high[$i] . " -" . $middle[$i], "operator"];
        $queries[] = [$middle[$i] . " site:$site", "operator"];
        $queries[] = [$middle[$i] . " | " . $low[$i], "operator"];
    }
    $queries[] = ["zzyzxqv", "operator"]; // no such word
    return array_map(fn($q) => [$q[0], 10, 0, $q[1]], $queries);
}

/** $count words spread evenly over ranks $from..$to of $words. */
function pickSpread(array $words, int $from, int $to, int $count): array
{
    $picked = [];
    for ($i = 0; $i < $count; $i++) {
        $picked[] = $words[$from + intdiv(($to - $from) * $i, max(1, $count - 1))];
    }
    return $picked;
}
