<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use seekquarry\yioop\locale\en_US\resources\Tokenizer;

require_once __DIR__ . '/../support/phrase/stand-ins.php';
require_once __DIR__ . '/../support/stem/scratch.php';

/**
 * PhraseParser's statics and its stemCharGramSegment as the integration
 * tool switches it: the native extractTermSentencePositionsTags stems
 * natively only where the class's own method would.
 */
class SentencesParserStandIn
{
    public static $programming_language_map = [];
    public static $tokenizers = [];

    public static function stemCharGramSegment($string, $lang, $to_string = false)
    {
        return \yioop_codec\phrase\stemCharGramSegment(static::class, $string, $lang, $to_string);
    }
}

/** The same statics with a stemCharGramSegment of its own. */
class EditedParserStandIn
{
    public static $programming_language_map = [];
    public static $tokenizers = [];

    public static function stemCharGramSegment($string, $lang, $to_string = false)
    {
        return explode(' ', $string);
    }
}

/**
 * yioop_codec\phrase\extractTermSentencePositionsTags against Yioop's own
 * PhraseParser (tests/tools/record/record-sentences.php): the hyphenated
 * texts of tests/fixtures/phrase/recorded.json.gz (120 pages of a real crawl
 * and 700 crafted texts) and texts crafted for the sentence split, each
 * with its term and sentence positions and the stemmer's scratch after.
 */
class SentencesTest extends TestCase
{
    private static array $calls;

    public static function setUpBeforeClass(): void
    {
        $phrase = json_decode(gzdecode(file_get_contents(__DIR__ . '/../fixtures/phrase/recorded.json.gz')), true);
        if (!defined('seekquarry\yioop\configs\PUNCT')) {
            define('seekquarry\yioop\configs\PUNCT', $phrase['punct']);
            define('seekquarry\yioop\configs\NS_LOCALE', 'seekquarry\yioop\locale\\');
        }
        self::$calls = unserialize(gzdecode(file_get_contents(__DIR__ . '/../fixtures/phrase/sentences.gz')))['calls'];
        Tokenizer::$no_stem_list = $phrase['no_stem_list'];
        SentencesParserStandIn::$programming_language_map = $phrase['programming_language_map'];
        EditedParserStandIn::$programming_language_map = $phrase['programming_language_map'];
        mb_internal_encoding('UTF-8');
        mb_regex_encoding('UTF-8');
    }

    protected function setUp(): void
    {
        SentencesParserStandIn::$tokenizers = ['en-US' => new Tokenizer()];
        EditedParserStandIn::$tokenizers = ['en-US' => new Tokenizer()];
    }

    private static function positions($text, $lang = 'en-US', ...$sentences)
    {
        return \yioop_codec\phrase\extractTermSentencePositionsTags(SentencesParserStandIn::class, $text, $lang,
            ...$sentences);
    }

    public function testEveryRecordedTextGivesYioopsPositionsAndScratch(): void
    {
        $this->assertGreaterThan(850, count(self::$calls));
        $integer_keys = $repeated = 0;
        foreach (self::$calls as $n => [$text, $lang, $expected, $scratch]) {
            $this->assertSame($expected, self::positions($text, $lang, true), "text $n");
            $this->assertSame($scratch, stemScratch(Tokenizer::class), "text $n");
            // Without sentences, the same terms and no SENTENCES.
            unset($expected['SENTENCES']);
            $this->assertSame($expected, self::positions($text, $lang), "text $n");
            foreach ($expected ? self::$calls[$n][2]['SENTENCES'] : [] as $sentence => $at) {
                $integer_keys += is_int($sentence);
                $repeated += count($at) > 1;
            }
        }
        $this->assertGreaterThan(2, $integer_keys, 'the recording has integer-like sentences');
        $this->assertGreaterThan(20, $repeated, 'and repeated ones');
    }

    public static function truthValues(): array
    {
        return ['true' => [true, true], 'false' => [false, false], 'null' => [null, false], '1' => [1, true],
            '0' => [0, false], '0.0' => [0.0, false], 'NAN' => [NAN, true], '"0"' => ['0', false],
            '""' => ['', false], '"false", as an installer writes it' => ['false', true], '[]' => [[], false],
            '[0]' => [[0], true]];
    }

    /** @dataProvider truthValues */
    #[DataProvider('truthValues')]
    public function testSentencesFollowPhpsTruthOfTheFlag($flag, bool $sentences): void
    {
        $this->assertSame($sentences, isset(self::positions('One two. Three', 'en-US', $flag)['SENTENCES']));
    }

    public function testNoTermsGiveAnEmptyArray(): void
    {
        $this->assertSame([], self::positions('', 'en-US', true));
        $this->assertSame([], self::positions('0 . !', 'en-US', true));
    }

    public static function declined(): array
    {
        return [
            'no locale' => ['text', null, true],
            'a numeric locale' => ['text', '12', true],
            'a text that is not a string' => [12, 'en-US', true],
            'a text that is not UTF-8' => ["caf\xe9. x", 'en-US', true],
            'a programming language' => ['text', 'java', true],
            'a locale whose tokenizer is not loaded yet' => ['text', 'en', true],
            'a flag that is an object' => ['text', 'en-US', new \stdClass()],
        ];
    }

    /** @dataProvider declined */
    #[DataProvider('declined')]
    public function testLeavesToYioopsPhp($text, $lang, $flag): void
    {
        $before = stemScratch(Tokenizer::class);
        $this->assertNull(self::positions($text, $lang, $flag));
        $this->assertSame($before, stemScratch(Tokenizer::class));
    }

    public function testLeavesAClassWithItsOwnStemCharGramSegmentToYioopsPhp(): void
    {
        $this->assertNotNull(self::positions('text'));
        $this->assertNull(\yioop_codec\phrase\extractTermSentencePositionsTags(EditedParserStandIn::class, 'text',
            'en-US', true));
    }
}
