<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/../support/snippets/fuzz-inputs.php';

/**
 * A class shaped like Yioop's Model where getSnippets is concerned: its
 * three constants, the switched method's guard, and the function statics
 * Yioop's method keeps, updated on the PHP path as Yioop updates them (the
 * native reads them from the calling method). The PHP path returns null:
 * "declined".
 */
class SnippetsStandIn
{
    const SNIPPET_LENGTH_LEFT = 20;
    const SNIPPET_LENGTH_RIGHT = 40;
    const MIN_SNIPPET_LENGTH = 100;
    public static bool $native = true;
    public static int $php_runs = 0;

    public function getSnippets($text, $words, $description_length)
    {
        if (self::$native && ($result = \yioop_codec\snippets\getSnippets($this, $text, $words,
            $description_length)) !== null) {
            return $result;
        }
        static $search_words = [];
        static $last_words = "";
        static $word_regex = "";
        self::$php_runs++;
        if (mb_strlen($text) < $description_length || empty($words)) {
            return null;
        }
        $joined = implode(" ", $words);
        $changed = $joined != $last_words;
        if ($changed) {
            $last_words = $joined;
        }
        if ($changed || empty($search_words)) {
            $search_words = array_filter(array_unique(explode(" ", $joined)));
            $word_regex = implode("|", array_map(fn($w) => "\\b" . preg_quote($w, "/") . ".{0,3}?\\b",
                $search_words));
        }
        return null;
    }

    public static function statics(): array
    {
        return (new \ReflectionMethod(self::class, 'getSnippets'))->getStaticVariables();
    }
}

/**
 * yioop_codec\snippets\getSnippets against Yioop's Model::getSnippets:
 * every recorded call (tests/tools/record/record-snippets.php: real crawl
 * descriptions with real query words, and fuzz-made inputs) gives Yioop's
 * result, or declines where its rules say; the declines and the statics.
 */
class SnippetsTest extends TestCase
{
    private static array $recorded;

    public static function setUpBeforeClass(): void
    {
        self::$recorded = json_decode(gzdecode(file_get_contents(__DIR__ . '/../fixtures/snippets/recorded.json.gz')), true);
    }

    protected function setUp(): void
    {
        SnippetsStandIn::$native = true;
    }

    /** Whether the native may decline this call (besides invalid input). */
    private static function mayDecline(string $text, array $words): bool
    {
        $joined = implode(" ", $words);
        $last = SnippetsStandIn::statics()['last_words'];
        return is_numeric($joined) || is_numeric($last) || preg_match('/[^\x00-\x7f]/', $joined)
            || array_filter(explode(" ", $joined)) == []
            || (preg_match('/[ks]/i', $joined) && preg_match("/\u{212A}|\u{017F}/u", $text));
    }

    /** Runs the calls in order; returns how many the native answered. */
    private function check(array $calls): int
    {
        $model = new SnippetsStandIn();
        $native = 0;
        foreach ($calls as $i => [$text, $words, $length, $expected]) {
            $may_decline = self::mayDecline($text, $words);
            $mine = $model->getSnippets($text, $words, $length);
            if ($mine === null) {
                $this->assertTrue($may_decline, "call $i declined: " . json_encode($words));
            } else {
                $this->assertSame($expected, $mine, "call $i: " . json_encode($words));
                $native++;
            }
        }
        return $native;
    }

    public function testRecordedCrawlCallsGiveYioopsResults(): void
    {
        $texts = array_map('base64_decode', self::$recorded['texts']);
        $calls = array_map(fn($c) => [$texts[$c[0]], $c[1], $c[2], base64_decode($c[3])],
            self::$recorded['calls']);
        $this->assertGreaterThan(2000, count($calls));
        $native = $this->check($calls);
        $this->assertGreaterThan(0.8 * count($calls), $native);
    }

    public function testFuzzCallsGiveYioopsResults(): void
    {
        $inputs = yioop_codec_snippet_fuzz_inputs(count(self::$recorded['fuzz']));
        $calls = [];
        foreach ($inputs as $i => [$text, $words, $length]) {
            $calls[] = [$text, $words, $length, base64_decode(self::$recorded['fuzz'][$i])];
        }
        $native = $this->check($calls);
        $this->assertGreaterThan(0.5 * count($calls), $native);
    }

    /**
     * PHP hands PCRE its limits truncated to 32 bits: under
     * pcre.backtrack_limit "4294967316" Yioop's matches fail at 20 steps,
     * and the native reads must see 20 too (tests/tools/record/
     * record-snippets-limits.php recorded Yioop under each setting).
     */
    public function testLimitsAreReadAsPhpHandsThemToPcre(): void
    {
        // PCRE counts steps otherwise without its JIT: Yioop recorded both ways
        $file = 'limits' . (ini_get('pcre.jit') ? '' : '-nojit') . '.json.gz';
        $recorded = json_decode(gzdecode(file_get_contents(__DIR__ . "/../fixtures/snippets/$file")), true);
        $inputs = yioop_codec_snippet_fuzz_inputs($recorded['count']);
        $saved = [ini_get('pcre.backtrack_limit'), ini_get('pcre.recursion_limit')];
        try {
            foreach ($recorded['settings'] as $setting) {
                ini_set('pcre.backtrack_limit', $setting['backtrack_limit']);
                ini_set('pcre.recursion_limit', $setting['recursion_limit']);
                $calls = [];
                foreach ($inputs as $i => [$text, $words, $length]) {
                    $expected = unserialize(base64_decode($setting['results'][$i]));
                    $calls[] = [$text, $words, $length, $expected];
                }
                $this->check($calls);
            }
        } finally {
            ini_set('pcre.backtrack_limit', $saved[0]);
            ini_set('pcre.recursion_limit', $saved[1]);
        }
    }

    public static function declined(): array
    {
        $long = str_repeat("git commit and more words here. ", 20);
        return [
            'text not a string' => [12345, ["git"], 2],
            'text not UTF-8' => ["\xff" . $long, ["git"], 150],
            'words not an array' => [$long, "git", 150],
            'a word not a string' => [$long, ["git", 7], 150],
            'length not an int' => [$long, ["git"], "150"],
            'length a float' => [$long, ["git"], 150.0],
            'a non-ASCII word' => [$long, ["gït"], 150],
            'words filtering to nothing' => [$long, ["0"], 150],
            'numeric words' => [$long, ["10"], 150],
            'k with a Kelvin sign in the text' => ["\u{212A}it " . $long, ["kit"], 150],
            's with a long s in the text' => ["\u{017F}ee " . $long, ["see"], 150],
        ];
    }

    /** @dataProvider declined */
    #[DataProvider('declined')]
    public function testDeclinesLeavingTheStaticsAsTheyWere($text, $words, $length): void
    {
        $before = SnippetsStandIn::statics();
        $this->assertNull(\yioop_codec\snippets\getSnippets(new SnippetsStandIn(), $text, $words, $length));
        $this->assertSame($before, SnippetsStandIn::statics());
    }

    public function testDeclinesOutsideAMethodOfAClassWithTheConstants(): void
    {
        $long = str_repeat("git commit and more words here. ", 20);
        $this->assertNull(\yioop_codec\snippets\getSnippets(null, $long, ["git"], 150));
        $closure = \Closure::bind(fn() => \yioop_codec\snippets\getSnippets(null, $long, ["git"], 150),
            null, SnippetsStandIn::class);
        $this->assertNull($closure());
    }

    public function testDeclinesWhenMbstringIsNotUtf8(): void
    {
        $long = str_repeat("git commit and more words here. ", 20);
        $model = new SnippetsStandIn();
        $this->assertNotNull($model->getSnippets($long, ["git"], 150));
        $encoding = mb_internal_encoding();
        mb_internal_encoding("ISO-8859-1");
        try {
            $this->assertNull($model->getSnippets($long, ["git"], 150));
        } finally {
            mb_internal_encoding($encoding);
        }
    }

    public function testNumericLastWordsLeftByPhpDeclineUntilPhpReplacesThem(): void
    {
        $long = str_repeat("git commit and more words here. ", 20);
        $model = new SnippetsStandIn();
        SnippetsStandIn::$native = false;
        $model->getSnippets($long, ["10"], 150);
        SnippetsStandIn::$native = true;
        $this->assertSame("10", SnippetsStandIn::statics()['last_words']);
        $runs = SnippetsStandIn::$php_runs;
        $this->assertNull($model->getSnippets($long, ["git"], 150), "declined: '10' is cached");
        $this->assertSame($runs + 1, SnippetsStandIn::$php_runs);
        $this->assertSame("git", SnippetsStandIn::statics()['last_words']);
        $this->assertNotNull($model->getSnippets($long, ["commit"], 150));
        $this->assertSame("git", SnippetsStandIn::statics()['last_words'], "the native leaves them");
        $this->assertSame($runs + 1, SnippetsStandIn::$php_runs);
    }

    public function testShortTextsAndNoWordsAreAnsweredNatively(): void
    {
        $model = new SnippetsStandIn();
        $this->assertSame("short", $model->getSnippets("short", 12, 150));
        $text = str_repeat("abc def ", 40);
        $this->assertSame(mb_substr(mb_substr($text, 0, 20), 0, strrpos(mb_substr($text, 0, 20), " ")),
            $model->getSnippets($text, [], 20));
    }
}
