<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

/** An object with the fields Yioop's BloomFilterFile keeps, as the native function reads them. */
class BloomStandIn
{
    public $num_keys;
    public $filter_size;
    public $filter;
}

/**
 * yioop_codec\bloom\contains against Yioop's own BloomFilterFile: every
 * answer recorded from Yioop's PHP (tests/tools/record/record-bloom.php: a filter
 * its constructor sized, its float sizes kept as floats), and the inputs it
 * leaves to Yioop's PHP (null, nothing changed).
 */
class BloomTest extends TestCase
{
    private static array $recorded;

    public static function setUpBeforeClass(): void
    {
        self::$recorded = json_decode(gzdecode(file_get_contents(__DIR__ . '/../fixtures/bloom/recorded.json.gz')), true);
    }

    private function filter(array $changes = []): BloomStandIn
    {
        $fields = self::$recorded['fields'];
        $filter = new BloomStandIn();
        $filter->num_keys = $fields['num_keys'];
        $filter->filter_size = $fields['filter_size'];
        $filter->filter = base64_decode($fields['filter']);
        foreach ($changes as $name => $value) {
            $filter->$name = $value;
        }
        return $filter;
    }

    public function testEveryRecordedAnswerIsYioops(): void
    {
        $filter = $this->filter();
        $this->assertIsFloat($filter->num_keys, 'the recording keeps Yioop\'s float sizes');
        $answers = self::$recorded['answers'];
        $this->assertGreaterThan(1000, count($answers));
        foreach ($answers as [$value, $answer]) {
            $this->assertSame($answer, \yioop_codec\bloom\contains($filter, base64_decode($value)), $value);
        }
    }

    public function testIntSizesAnswerAsTheirFloats(): void
    {
        $filter = $this->filter(['num_keys' => (int)self::$recorded['fields']['num_keys'],
            'filter_size' => (int)self::$recorded['fields']['filter_size']]);
        foreach (array_slice(self::$recorded['answers'], 0, 400) as [$value, $answer]) {
            $this->assertSame($answer, \yioop_codec\bloom\contains($filter, base64_decode($value)));
        }
    }

    public function testPropertiesAreReadThroughReferences(): void
    {
        $filter = $this->filter();
        $bits = $filter->filter;
        $filter->filter = &$bits;
        [$value, $answer] = self::$recorded['answers'][0];
        $this->assertSame($answer, \yioop_codec\bloom\contains($filter, base64_decode($value)));
    }

    public static function declined(): array
    {
        return [
            'an int value (md5 would convert it)' => [[], 5],
            'a null value' => [[], null],
            'num_keys a numeric string' => [['num_keys' => '9'], 'x'],
            'num_keys not integral (PHP deprecates the conversion)' => [['num_keys' => 9.5], 'x'],
            'num_keys infinite' => [['num_keys' => INF], 'x'],
            'filter_size a string' => [['filter_size' => '5620'], 'x'],
            'filter_size 1: a modulo by zero' => [['filter_size' => 1], 'x'],
            'filter_size negative' => [['filter_size' => -5620], 'x'],
            'filter not a string' => [['filter' => null], 'x'],
            'filter shorter than its size (PHP warns on the offset)' => [['filter' => ''], 'x'],
            'more keys than any Yioop filter' => [['num_keys' => 1 << 20], 'x'],
        ];
    }

    /** @dataProvider declined */
    #[DataProvider('declined')]
    public function testDeclinesWhatItLeavesToYioopsPhp(array $changes, $value): void
    {
        $filter = $this->filter($changes);
        $before = serialize($filter);
        $this->assertNull(\yioop_codec\bloom\contains($filter, $value));
        $this->assertSame($before, serialize($filter));
    }

    public function testAnUndefinedPropertyDeclines(): void
    {
        $filter = new \stdClass();
        $filter->num_keys = 9;
        $filter->filter = 'abc';
        $this->assertNull(\yioop_codec\bloom\contains($filter, 'x'));
        $this->assertNull(\yioop_codec\bloom\contains('not an object', 'x'));
    }

    public function testNoKeysLooksAtNoBit(): void
    {
        // Yioop's loop runs zero times and answers true, whatever the sizes.
        $this->assertTrue(\yioop_codec\bloom\contains($this->filter(['num_keys' => 0, 'filter_size' => 0]), 'x'));
    }
}
