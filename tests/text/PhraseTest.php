<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use seekquarry\yioop\library\BloomFilterFile;
use seekquarry\yioop\library\NWordGrams;
use seekquarry\yioop\locale\en_US\resources\Tokenizer;

require_once __DIR__ . '/../support/ngrams/BloomFilterFile.php';
require_once __DIR__ . '/../support/phrase/stand-ins.php';
require_once __DIR__ . '/../support/stem/scratch.php';

/** PhraseParser's statics that the native passes read. */
class PhraseParserStandIn
{
    public static $programming_language_map = [];
    public static $tokenizers = [];
}

/**
 * yioop_codec\phrase\hyphenateEntities and stemCharGramSegment against
 * Yioop's own PhraseParser (tests/tools/record/record-phrase.php): 120 pages of a
 * real crawl's summaries and 700 crafted texts, each hyphenated, its terms
 * taken, its joined terms taken, and the stemmer's scratch after, in the
 * recorded order. The n-word-gram filter is a small one Yioop's own
 * BloomFilterFile built from every window Yioop's en_US filter holds in
 * these texts. Then the separator tables against PHP's own regex engines,
 * and what the passes leave to Yioop's PHP.
 */
class PhraseTest extends TestCase
{
    private static array $recorded;

    public static function setUpBeforeClass(): void
    {
        self::$recorded = json_decode(gzdecode(file_get_contents(__DIR__ . '/../fixtures/phrase/recorded.json.gz')), true);
        if (!defined('seekquarry\yioop\configs\PUNCT')) {
            define('seekquarry\yioop\configs\PUNCT', self::$recorded['punct']);
            define('seekquarry\yioop\configs\NS_LOCALE', 'seekquarry\yioop\locale\\');
        }
        mb_internal_encoding('UTF-8');
        mb_regex_encoding('UTF-8');
    }

    protected function setUp(): void
    {
        Tokenizer::$no_stem_list = self::$recorded['no_stem_list'];
        PhraseParserStandIn::$programming_language_map = self::$recorded['programming_language_map'];
        PhraseParserStandIn::$tokenizers = ['en-US' => new Tokenizer()];
        $fields = self::$recorded['filter'];
        $filter = new BloomFilterFile();
        $filter->num_keys = $fields['num_keys'];
        $filter->filter_size = $fields['filter_size'];
        $filter->filter = base64_decode($fields['filter']);
        NWordGrams::$ngrams = ['en_US' => ['all' => $filter]];
    }

    private static function terms(string $text, $to_string = false)
    {
        return \yioop_codec\phrase\stemCharGramSegment(PhraseParserStandIn::class, $text, 'en-US', $to_string);
    }

    public function testEveryRecordedTextGivesYioopsEntitiesTermsAndScratch(): void
    {
        $calls = self::$recorded['calls'];
        $this->assertGreaterThan(800, count($calls));
        $hyphenated_some = 0;
        foreach ($calls as $n => [$text, $lang, $hyphenated, $terms, $joined, $scratch]) {
            $string = $text;
            $this->assertTrue(\yioop_codec\phrase\hyphenateEntities(PhraseParserStandIn::class, $string, $lang), "text $n");
            $this->assertSame($hyphenated, $string, "text $n");
            $hyphenated_some += substr_count($hyphenated, '-') > substr_count($text, '-');
            $this->assertSame($terms, self::terms($hyphenated), "text $n");
            $this->assertSame($joined, self::terms($text, true), "text $n");
            $this->assertSame($scratch, stemScratch(Tokenizer::class), "text $n");
        }
        $this->assertGreaterThan(40, $hyphenated_some, 'the recording hyphenates entities');
    }

    /**
     * Every code point up to U+2FFFF between two letters: split by the
     * native pass exactly where Yioop's mb_ereg_replace and preg_split
     * split, on the PHP running this test.
     */
    public function testSeparatorsAreThoseOfPhpsOwnRegexEngines(): void
    {
        $non_hyphens = str_replace('-|', '', self::$recorded['punct']);
        $separators = 0;
        for ($cp = 0x1; $cp <= 0x2FFFF; $cp++) {
            if ($cp >= 0xD800 && $cp <= 0xDFFF) {
                continue;
            }
            $text = 'x' . mb_chr($cp, 'UTF-8') . 'z';
            $replaced = mb_ereg_replace("\\s+|$non_hyphens", ' ', $text);
            $splits = $replaced !== $text || count(preg_split("/(\\s|$non_hyphens)+/u", $replaced)) > 1;
            $native = self::terms($text);
            $this->assertSame($splits, $native === ['x', 'z'], sprintf('U+%04X', $cp));
            $separators += $splits;
        }
        $this->assertGreaterThan(80, $separators);
    }

    public function testTermsAsYioopSplitsFiltersAndStemsThem(): void
    {
        $this->assertSame(['new', 'york', 'citi'], self::terms("New\tYork,  City"));
        $this->assertSame('new york citi', self::terms("New\tYork,  City", true));
        // array_filter drops "0"; stemTerms skips all-NUL terms and keeps
        // terms with "_" as they are; hyphenated words keep their hyphens.
        $this->assertSame(['00', 'snake_cases', 'state-own'], self::terms("0 00 \0\0 snake_cases state-owned"));
        $this->assertSame([], self::terms(''));
        $this->assertSame('', self::terms('0', 1));
    }

    public static function declinedTerms(): array
    {
        return [
            'a text that is not a string' => [12, 'en-US', false],
            'a text that is not UTF-8' => ["caf\xe9", 'en-US', false],
            'a numeric locale' => ['text', '12', false],
            'Hindi' => ['text', 'hi', false],
            'a programming language' => ['text', 'java', false],
            'a locale whose tokenizer is not loaded yet' => ['text', 'en', false],
            'to_string neither bool, int nor null' => ['text', 'en-US', 'yes'],
        ];
    }

    /** @dataProvider declinedTerms */
    #[DataProvider('declinedTerms')]
    public function testTermsLeaveToYioopsPhp($text, $lang, $to_string): void
    {
        $before = stemScratch(Tokenizer::class);
        $this->assertNull(\yioop_codec\phrase\stemCharGramSegment(PhraseParserStandIn::class, $text, $lang, $to_string));
        $this->assertSame($before, stemScratch(Tokenizer::class));
    }

    public function testTermsLeaveAnotherTokenizerToYioopsPhp(): void
    {
        PhraseParserStandIn::$tokenizers['en-US'] = new \stdClass();
        $this->assertNull(self::terms('text'));
    }

    public function testTermsLeaveANumericNoStemWordToYioopsPhp(): void
    {
        Tokenizer::$no_stem_list[] = '1e3';
        $this->assertNull(self::terms('text'));
    }

    public static function declinedEntities(): array
    {
        return [
            'no locale' => ['new york', null],
            'an empty locale' => ['new york', ''],
            'a locale whose filter is not loaded' => ['new york', 'fr-FR'],
            'a text that is not a string' => [12, 'en-US'],
            'a text that is not UTF-8' => ["caf\xe9 new", 'en-US'],
        ];
    }

    /** @dataProvider declinedEntities */
    #[DataProvider('declinedEntities')]
    public function testEntitiesLeaveToYioopsPhp($text, $lang): void
    {
        $string = $text;
        $this->assertFalse(\yioop_codec\phrase\hyphenateEntities(PhraseParserStandIn::class, $string, $lang));
        $this->assertSame($text, $string);
    }
}
