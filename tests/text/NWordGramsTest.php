<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use seekquarry\yioop\library\BloomFilterFile;

require_once __DIR__ . '/../support/ngrams/BloomFilterFile.php';

/** NWordGrams' static cache of loaded filters, as the native look-up reads it. */
class NWordGramsStandIn
{
    protected static $ngrams = null;

    public static function cache($ngrams): void
    {
        self::$ngrams = $ngrams;
    }

    public static function cached()
    {
        return self::$ngrams;
    }
}

/**
 * yioop_codec\ngrams\ngramsContains: NWordGrams::ngramsContains for a
 * filter Yioop has cached, asked natively. The filter is the one recorded
 * from Yioop's own BloomFilterFile (tests/fixtures/bloom); Yioop's method asks it
 * for mb_strtolower($phrase), so an upper-cased ASCII phrase must get the
 * recorded answer of its lower-case form. Anything else declines, leaving
 * the cache as it was.
 */
class NWordGramsTest extends TestCase
{
    private static array $recorded;

    public static function setUpBeforeClass(): void
    {
        self::$recorded = json_decode(gzdecode(file_get_contents(__DIR__ . '/../fixtures/bloom/recorded.json.gz')), true);
    }

    protected function setUp(): void
    {
        $fields = self::$recorded['fields'];
        $filter = new BloomFilterFile();
        $filter->num_keys = $fields['num_keys'];
        $filter->filter_size = $fields['filter_size'];
        $filter->filter = base64_decode($fields['filter']);
        NWordGramsStandIn::cache(['en_US' => ['all' => $filter, 2 => $filter], 'fr_FR' => []]);
    }

    private static function ask(...$args)
    {
        return \yioop_codec\ngrams\ngramsContains(NWordGramsStandIn::class, ...$args);
    }

    public function testCachedFiltersAnswerForTheLowerCasedPhrase(): void
    {
        $asked = 0;
        foreach (self::$recorded['answers'] as [$value, $answer]) {
            $phrase = base64_decode($value);
            if (!mb_check_encoding($phrase, 'ASCII') || strtolower($phrase) !== $phrase) {
                continue;
            }
            foreach (['en-US', 'en', 'en_GB', 'en_US'] as $lang) {
                $this->assertSame($answer, self::ask(strtoupper($phrase), $lang, 'all'), "$phrase $lang");
            }
            $this->assertSame($answer, self::ask($phrase, 'en-US', 2));
            $asked++;
        }
        $this->assertGreaterThan(1000, $asked);
    }

    public static function declined(): array
    {
        return [
            'a filter not cached yet (Yioop loads it)' => ['new york', 'en-AU', 'all'],
            'a locale without filters yet' => ['new york', 'fr-FR', 'all'],
            'a non-ASCII phrase (mb_strtolower maps Unicode)' => ['ÉLAN', 'en-US', 'all'],
            'a numeric locale' => ['new york', '12', 'all'],
            'a numeric string prefix (an int key to PHP)' => ['new york', 'en-US', '2'],
            'a null prefix' => ['new york', 'en-US', null],
            'a phrase not a string' => [12, 'en-US', 'all'],
        ];
    }

    /** @dataProvider declined */
    #[DataProvider('declined')]
    public function testDeclinesWhatItLeavesToYioopsPhp($phrase, $lang, $prefix): void
    {
        $before = serialize(NWordGramsStandIn::cached());
        $this->assertNull(self::ask($phrase, $lang, $prefix));
        $this->assertSame($before, serialize(NWordGramsStandIn::cached()));
    }

    public function testAFilterOfAnotherClassOrNoCacheDeclines(): void
    {
        $other = new \stdClass();
        NWordGramsStandIn::cache(['en_US' => ['all' => $other]]);
        $this->assertNull(self::ask('new york', 'en-US', 'all'));
        NWordGramsStandIn::cache(null);
        $this->assertNull(self::ask('new york', 'en-US', 'all'));
        $this->assertNull(\yioop_codec\ngrams\ngramsContains('No\\Such\\Class', 'new york', 'en-US', 'all'));
    }
}
