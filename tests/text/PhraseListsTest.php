<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;
use seekquarry\yioop\library\NWordGrams;
use seekquarry\yioop\locale\en_US\resources\Tokenizer;

require_once __DIR__ . '/../support/phrase/stand-ins.php';
require_once __DIR__ . '/../support/stem/scratch.php';

/**
 * PhraseParser as the integration tool switches extractPhrasesInLists:
 * the guard first, then the method's own PHP, here a stand-in that counts
 * its runs, stems its text's first word (leaving the stemmer's scratch),
 * and raises or throws where its text asks.
 */
class ListsParserStandIn
{
    public static $programming_language_map = ['java' => 'java'];
    public static $tokenizers = [];
    public static int $runs = 0;

    public static function extractPhrasesInLists($string, $lang = null)
    {
        if (($result = \yioop_codec\phrase\extractPhrasesInLists(static::class, $string, $lang)) !== null) {
            return $result;
        }
        self::$runs++;
        Tokenizer::stem(explode(' ', $string)[0]);
        if (str_contains($string, 'notice')) {
            @trigger_error('a notice', E_USER_NOTICE);
        }
        if (str_contains($string, 'throw')) {
            throw new \RuntimeException('thrown');
        }
        return ['TIMES' => ['CANONICALIZE' => microtime(true)], 'WORD_LIST' => [$string => [self::$runs]],
            'LANG' => $lang];
    }
}

/**
 * yioop_codec\phrase\extractPhrasesInLists: a repeated text's phrase
 * lists given again without running Yioop's PHP, only while what they
 * depend on is unchanged, and never for a call that raised or threw.
 */
class PhraseListsTest extends TestCase
{
    public static function setUpBeforeClass(): void
    {
        mb_internal_encoding('UTF-8');
        mb_regex_encoding('UTF-8');
    }

    protected function setUp(): void
    {
        ListsParserStandIn::$tokenizers = ['en-US' => new Tokenizer(), 'en-GB' => new Tokenizer()];
        Tokenizer::$no_stem_list = ['titanic'];
        NWordGrams::$ngrams = [];
    }

    private static function lists($text, $lang = 'en-US')
    {
        return ListsParserStandIn::extractPhrasesInLists($text, $lang);
    }

    /** A text of its own for each test: the memo lasts the whole run. */
    private function text(string $words = 'walking home'): string
    {
        return "$words " . $this->testName();
    }

    /** The test's name with its data set (PHPUnit 9 and 11 name it apart). */
    private function testName(): string
    {
        return method_exists($this, 'nameWithDataSet') ? $this->nameWithDataSet() : $this->getName();
    }

    public function testARepeatGivesTheFirstResultWithoutRunningYioopsPhp(): void
    {
        $text = $this->text();
        $runs = ListsParserStandIn::$runs;
        $first = self::lists($text);
        $this->assertSame($runs + 1, ListsParserStandIn::$runs);
        $this->assertSame($first, self::lists($text), 'the first array, its TIMES included');
        $this->assertSame($runs + 1, ListsParserStandIn::$runs);
    }

    public function testARepeatPutsBackTheStemmersScratch(): void
    {
        $text = $this->text('walking home');
        self::lists($text);
        $left = stemScratch(Tokenizer::class);
        Tokenizer::stem('flies');
        $this->assertNotSame($left, stemScratch(Tokenizer::class));
        self::lists($text);
        $this->assertSame($left, stemScratch(Tokenizer::class));
    }

    public function testAnotherTextOrLocaleRunsYioopsPhp(): void
    {
        $text = $this->text();
        self::lists($text);
        $runs = ListsParserStandIn::$runs;
        self::lists("$text.");
        self::lists($text, 'en-GB');
        $this->assertSame($runs + 2, ListsParserStandIn::$runs);
        $this->assertSame('en-GB', self::lists($text, 'en-GB')['LANG']);
        $this->assertSame($runs + 2, ListsParserStandIn::$runs);
    }

    public static function stateChanges(): array
    {
        return [
            'the no-stem list' => [fn() => Tokenizer::$no_stem_list[0] = 'fishing'],
            'a part-of-speech list' => [fn() => Tokenizer::$noun_type = ['NN']],
            'the question token' => [fn() => Tokenizer::$question_token = 'qqqq'],
            'the programming-language map' => [fn() => ListsParserStandIn::$programming_language_map['php'] = 'php'],
            'a tokenizer' => [fn() => ListsParserStandIn::$tokenizers['en-US'] = new Tokenizer()],
            'the n-word-gram filters' => [fn() => NWordGrams::$ngrams = ['en_US' => ['all' => new \stdClass()]]],
            'PCRE\'s backtrack limit' => [fn() => ini_set('pcre.backtrack_limit', (string)(ini_get('pcre.backtrack_limit') + 1))],
        ];
    }

    /** @dataProvider stateChanges */
    #[\PHPUnit\Framework\Attributes\DataProvider('stateChanges')]
    public function testAChangeOfStateRunsYioopsPhpAgain(callable $change): void
    {
        $text = $this->text();
        self::lists($text);
        $runs = ListsParserStandIn::$runs;
        $change();
        self::lists($text);
        $this->assertSame($runs + 1, ListsParserStandIn::$runs);
        self::lists($text);
        $this->assertSame($runs + 1, ListsParserStandIn::$runs, 'and keeps the new result');
    }

    public function testAResultMadeWithAnErrorIsNotKept(): void
    {
        $text = $this->text('a notice');
        $runs = ListsParserStandIn::$runs;
        self::lists($text);
        self::lists($text);
        $this->assertSame($runs + 2, ListsParserStandIn::$runs, 'even one suppressed with @');
    }

    public function testAnExceptionPassesThroughAndNothingIsKept(): void
    {
        $text = $this->text('throw');
        $runs = ListsParserStandIn::$runs;
        foreach ([1, 2] as $try) {
            try {
                self::lists($text);
                $this->fail('no exception');
            } catch (\RuntimeException $e) {
                $this->assertSame('thrown', $e->getMessage());
            }
        }
        $this->assertSame($runs + 2, ListsParserStandIn::$runs);
    }

    public static function declined(): array
    {
        return [
            'a text over 512 bytes' => [str_repeat('word ', 103), 'en-US'],
            'a text that is not UTF-8' => ["caf\xe9", 'en-US'],
            'a text that is not a string' => [12, 'en-US'],
            'no locale' => ['text', null],
            'a locale whose tokenizer is not loaded' => ['text', 'fr-FR'],
        ];
    }

    /** @dataProvider declined */
    #[\PHPUnit\Framework\Attributes\DataProvider('declined')]
    public function testLeavesToYioopsPhp($text, $lang): void
    {
        $this->assertNull(\yioop_codec\phrase\extractPhrasesInLists(ListsParserStandIn::class, $text, $lang));
    }

    public function testAnOlderTextStaysAGenerationAndThenGoes(): void
    {
        $text = $this->text();
        self::lists($text);
        $runs = ListsParserStandIn::$runs;
        for ($i = 0; $i < 8192; $i++) {
            self::lists("filler $i " . $this->testName());
        }
        self::lists($text);
        $this->assertSame($runs + 8192, ListsParserStandIn::$runs, 'kept in the older generation');
        for ($i = 0; $i < 2 * 8192; $i++) {
            self::lists("more filler $i " . $this->testName());
        }
        self::lists($text);
        $this->assertSame($runs + 3 * 8192 + 1, ListsParserStandIn::$runs, 'dropped with it');
    }
}
