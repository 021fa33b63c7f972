<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/../support/stem/scratch.php';

/** The static fields Yioop's en_US Tokenizer keeps, as the native stemmer reads and leaves them. */
class StemStandIn
{
    public static $no_stem_list = [];
    private static $buffer;
    private static $k;
    private static $j;
}

/** A class without the stemmer's scratch. */
class StemWithoutScratch
{
    public static $no_stem_list = [];
}

/**
 * yioop_codec\stem_en\stem against Yioop's own English stemmer: the stem
 * of every recorded word and the class's scratch ($buffer, $k, $j) after
 * each call, in the recorded order (tests/tools/record/record-stem.php, 9,000
 * words of Yioop's lexicon and odd ones), and what it leaves to Yioop's PHP.
 */
class StemTest extends TestCase
{
    private static array $recorded;

    public static function setUpBeforeClass(): void
    {
        self::$recorded = json_decode(gzdecode(file_get_contents(__DIR__ . '/../fixtures/stem/recorded.json.gz')), true);
        StemStandIn::$no_stem_list = self::$recorded['no_stem_list'];
    }

    public function testEveryRecordedStemAndTheScratchLeftAreYioops(): void
    {
        $calls = self::$recorded['calls'];
        $this->assertGreaterThan(5000, count($calls));
        $this->assertContains('fishing', StemStandIn::$no_stem_list);
        foreach ($calls as [$word, $stem, $buffer, $k, $j]) {
            $word = base64_decode($word);
            $this->assertSame(base64_decode($stem), \yioop_codec\stem_en\stem(StemStandIn::class, $word), $word);
            $this->assertSame([base64_decode($buffer), $k, $j], stemScratch(StemStandIn::class), $word);
        }
    }

    public static function declined(): array
    {
        return [
            'an int word' => [StemStandIn::class, 12],
            'a numeric word (in_array compares it as a number)' => [StemStandIn::class, '1e3'],
            'a null word' => [StemStandIn::class, null],
            'a class not loaded' => ['No\\Such\\Tokenizer', 'running'],
            'a class without the scratch' => [StemWithoutScratch::class, 'running'],
        ];
    }

    /** @dataProvider declined */
    #[DataProvider('declined')]
    public function testDeclinesWhatItLeavesToYioopsPhp(string $class, $word): void
    {
        \yioop_codec\stem_en\stem(StemStandIn::class, 'abc');
        $before = stemScratch(StemStandIn::class);
        $this->assertNull(\yioop_codec\stem_en\stem($class, $word));
        $this->assertSame($before, stemScratch(StemStandIn::class));
    }

    public function testANoStemListOfOtherThanStringsDeclines(): void
    {
        $list = StemStandIn::$no_stem_list;
        StemStandIn::$no_stem_list = [1, 'fishing'];
        try {
            $this->assertNull(\yioop_codec\stem_en\stem(StemStandIn::class, 'running'));
        } finally {
            StemStandIn::$no_stem_list = $list;
        }
        $this->assertSame('run', \yioop_codec\stem_en\stem(StemStandIn::class, 'running'));
    }
}
