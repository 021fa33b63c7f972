<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/../support/safe_search/stand-ins.php';
require_once __DIR__ . '/../support/LoadedExtension.php';

/**
 * yioop_codec\phrase\computeSafeSearchScore against Yioop's own
 * PhraseParser::computeSafeSearchScore (tests/tools/record/record-safe-search.php):
 * the word lists of 100 pages of a real crawl's summaries as the shard
 * build makes them, then crafted lists and URLs for each branch, with
 * Yioop's unsafe terms and URL regex as its statics held them. Then what
 * the native leaves to Yioop's PHP.
 */
class SafeSearchTest extends TestCase
{
    private static array $recorded;

    public static function setUpBeforeClass(): void
    {
        self::$recorded = primedRecording();
        $none = [];
        OtherTermsStandIn::computeSafeSearchScore($none, 0);
    }

    /** Word lists of `$counts[$term]` positions each, as Yioop's are. */
    private static function lists(array $counts): array
    {
        return array_map(fn($n) => $n ? range(1, $n) : [], $counts);
    }

    private static function score(array $lists, $len, $url = "", string $class = SafeSearchStandIn::class)
    {
        return $class::computeSafeSearchScore($lists, $len, $url);
    }

    public function testEveryRecordedCallGivesYioopsScore(): void
    {
        $calls = self::$recorded['calls'];
        $this->assertCount(116, $calls);
        $this->assertGreaterThan(10, count(array_filter($calls, fn($c) => $c['score'] > 0)));
        foreach ($calls as $i => $call) {
            $score = self::score(self::lists($call['counts']), $call['len'], $call['url']);
            $this->assertSame($call['score'], $score, "call $i");
            $this->assertSame($call['type'], get_debug_type($score), "call $i");
        }
    }

    /**
     * What a script of tests/support/safe_search prints, run by a child PHP
     * with this extension and these INI settings; it must exit with 0.
     */
    private function childOutput(string $script, array $settings): string
    {
        $cmd = [PHP_BINARY, '-d', 'extension=' . LoadedExtension::path()];
        foreach ($settings as $name => $value) {
            array_push($cmd, '-d', "$name=$value");
        }
        $cmd[] = __DIR__ . "/../support/safe_search/$script";
        $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        $this->assertSame(0, proc_close($proc), $err);
        return trim($out);
    }

    /** Under opcache a method's statics are found through its map of them. */
    public function testEveryRecordedCallUnderOpcache(): void
    {
        $this->assertSame("opcache on, 116 calls, 0 differ",
            $this->childOutput('opcache-child.php', ['opcache.enable_cli' => 1]));
    }

    public function testListsHeldByReferenceCountAsTheirValues(): void
    {
        $call = self::$recorded['calls'][110];
        $this->assertGreaterThan(0, $call['score']);
        $lists = self::lists($call['counts']);
        foreach ($lists as $term => $list) {
            $copy = $list;
            $lists[$term] = &$copy;
            unset($copy);
        }
        $this->assertSame($call['score'], self::score($lists, $call['len'], $call['url']));
    }

    public function testTheTermsAndRegexAreTheMethodsOwnStatics(): void
    {
        // Its terms are 'debian' and the int key 42; its regex matches nothing.
        $lists = self::lists(['debian' => 3, 42 => 1, self::$recorded['unsafe_terms'][0] => 5]);
        $this->assertSame(2 * 4 / 10, self::score($lists, 9, "https://porn.example/", OtherTermsStandIn::class));
        $this->assertSame(1 * 5 / 10, self::score($lists, 9));
        $this->assertSame(1, self::score($lists, 9, "https://porn.example/"));
    }

    public function testAListOutsideTheUnsafeTermsIsNotCounted(): void
    {
        $term = self::$recorded['unsafe_terms'][1];
        $lists = ['debian' => 'not a list', $term => [1, 2]];
        $this->assertSame(1 * 2 / 10, self::score($lists, 9));
    }

    /**
     * URLs around each of the regex's words: in mixed case, between word
     * and non-word bytes, cut short, and random ones.
     */
    private static function urls(string $regex): array
    {
        mt_srand(28);
        $neighbours = ['', 'a', '_', '9', '/', '-', '.', "\xc9", "\xff"];
        $urls = [];
        foreach (explode('|', substr($regex, 1, -2)) as $alternative) {
            $word = str_replace(['\\W', '\\-', '\\.'], ['', '-', '.'], $alternative);
            $mixed = implode('', array_map(fn($c) => mt_rand(0, 1) ? strtoupper($c) : $c, str_split($word)));
            foreach ($neighbours as $before) {
                foreach ($neighbours as $after) {
                    $urls[] = "$before$mixed$after";
                    $urls[] = "https://x.org/$before$mixed$after?q=1";
                }
            }
            $urls[] = 'https://' . substr($word, 0, -1) . '/' . substr($word, -1);
        }
        $alphabet = str_split("pornudeixvsamtlch-._/:W9\xc9\xe9\xff ");
        for ($i = 0; $i < 5000; $i++) {
            $url = '';
            for ($n = mt_rand(1, 60); $n > 0; $n--) {
                $url .= $alphabet[mt_rand(0, count($alphabet) - 1)];
            }
            $urls[] = $url;
        }
        return $urls;
    }

    /** The URL test against preg_match, each URL with no words to count. */
    private function assertUrlTestIsPregMatch(array $urls): void
    {
        $regex = self::$recorded['unsafe_url_regex'];
        $found = 0;
        foreach ($urls as $url) {
            $expected = !empty($url) && preg_match($regex, $url) ? 1 : 0;
            $this->assertSame($expected, self::score([], 5, $url), bin2hex($url));
            $found += $expected;
        }
        $this->assertGreaterThan(count($urls) / 10, $found);
        $this->assertLessThan(count($urls) * 9 / 10, $found);
    }

    public function testTheUrlTestIsPregMatch(): void
    {
        $this->assertUrlTestIsPregMatch(self::urls(self::$recorded['unsafe_url_regex']));
    }

    /** PCRE's tables under a UTF-8 locale, and another where there is one. */
    public function testTheUrlTestIsPregMatchUnderLocales(): void
    {
        $urls = self::urls(self::$recorded['unsafe_url_regex']);
        $before = setlocale(LC_CTYPE, 0);
        try {
            $this->assertNotFalse(setlocale(LC_CTYPE, 'C.UTF-8', 'C.utf8'));
            $this->assertUrlTestIsPregMatch($urls);
            // In Latin-1, \xc9 is a letter: "\xc9nude/" has no \Wnude\W.
            if (setlocale(LC_CTYPE, 'de_DE.ISO-8859-1', 'en_US.ISO-8859-1', 'fr_FR.ISO-8859-1')) {
                $this->assertSame(0, self::score([], 5, "/\xc9nude/"));
                $this->assertUrlTestIsPregMatch($urls);
            }
        } finally {
            setlocale(LC_CTYPE, $before);
        }
    }

    /** Long URLs go to preg_match: the word found past the first 4 KiB. */
    public function testALongUrlIsTested(): void
    {
        $long = 'https://x.org/' . str_repeat('a/', 3000);
        $this->assertSame(1, self::score([], 5, $long . 'xHamster'));
        $this->assertSame(0, self::score([], 5, $long . 'xHamste'));
        $this->assertSame(1, self::score([], 5, $long . '.nude.'));
    }

    /**
     * Under PCRE limits lower than Yioop's, PCRE answers as it would:
     * without JIT, a backtrack limit of 100 ends its search, and so the
     * URL does not count.
     */
    public function testLowPcreLimitsLeaveTheUrlToPcre(): void
    {
        $this->assertSame("preg_match 1, score 1", $this->childOutput('url-child.php', ['pcre.jit' => 0]));
        $this->assertSame("preg_match false, score 0",
            $this->childOutput('url-child.php', ['pcre.jit' => 0, 'pcre.backtrack_limit' => 100]));
    }

    public static function leftToYioop(): array
    {
        return [
            'word lists not an array' => ['not lists', 5, ''],
            'a Countable' => [new \ArrayObject([]), 5, ''],
            'a length that is a float' => [[], 5.0, ''],
            'a length that is a string' => [[], '5', ''],
            'a length of -1' => [['x' => [1]], -1, ''],
            'a URL that is an int' => [[], 5, 7],
            'a URL that is true' => [[], 5, true],
            'a URL that is an array' => [[], 5, []],
        ];
    }

    /** @dataProvider leftToYioop */
    #[DataProvider('leftToYioop')]
    public function testDeclines($lists, $len, $url): void
    {
        $this->assertNull(\yioop_codec\phrase\computeSafeSearchScore(SafeSearchStandIn::class, $lists, $len, $url));
    }

    public function testDeclinesAnUnsafeTermsListThatIsNotAnArray(): void
    {
        $term = self::$recorded['unsafe_terms'][2];
        $this->assertNull(self::score([$term => 'x'], 5));
        $this->assertNull(self::score([$term => new \ArrayObject([1])], 5));
    }

    public function testDeclinesUntilYioopHasWorkedItsTermsOut(): void
    {
        $lists = self::lists([self::$recorded['unsafe_terms'][0] => 2]);
        $this->assertNull(self::score($lists, 5, "", UnprimedStandIn::class));
        $this->assertNull(\yioop_codec\phrase\computeSafeSearchScore('NoSuchClass', $lists, 5, ""));
        $this->assertNull(\yioop_codec\phrase\computeSafeSearchScore(\stdClass::class, $lists, 5, ""));
    }
}
