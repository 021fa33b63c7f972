<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

/**
 * yioop_codec\webcode\webencode and webdecode against what Utility.php's
 * webencode and webdecode compute with PHP's own functions (strtr over
 * base64_encode, strtr then base64_decode), byte for byte: what webencode
 * wrote, and every other text base64_decode forgives (stray bytes, padding
 * anywhere, "+" and "/" left as they are, a lone last character). Values
 * that are not strings decline (null), for Yioop's PHP to convert or throw.
 */
class WebcodeTest extends TestCase
{
    private const ENCODE = 'yioop_codec\webcode\webencode';
    private const DECODE = 'yioop_codec\webcode\webdecode';

    protected function setUp(): void
    {
        if (!function_exists(self::DECODE)) {
            $this->markTestSkipped('the yioop extension is not loaded');
        }
    }

    /** Utility.php's webencode, in PHP's functions. */
    private static function phpEncode(string $bytes): string
    {
        return strtr(base64_encode($bytes), ['+' => '.', '/' => '_', '=' => '~']);
    }

    /** Utility.php's webdecode, in PHP's functions. */
    private static function phpDecode(string $text): string
    {
        return base64_decode(strtr($text, ['.' => '+', '~' => '=', '_' => '/']));
    }

    public static function byteStrings(): array
    {
        mt_srand(28);
        $rows = ['empty' => [''], 'one byte' => ['a'], 'two bytes' => ["\xfb\xff"],
            'all bytes' => [implode('', array_map('chr', range(0, 255)))]];
        foreach ([3, 100, 1001, 70000] as $len) {
            $bytes = '';
            for ($i = 0; $i < $len; $i++) {
                $bytes .= chr(mt_rand(0, 255));
            }
            $rows["$len random bytes"] = [$bytes];
        }
        // An upload's shape: a length, then gzcompressed serialized records.
        $records = gzcompress(serialize(array_fill(0, 300, ['url' => 'https://example.com/a?b=c', 'n' => 1.5])));
        $rows['an upload'] = [pack('N', strlen($records)) . $records];
        return $rows;
    }

    /** @dataProvider byteStrings */
    #[DataProvider('byteStrings')]
    public function testEncodesAndDecodesAsYioopsPhp(string $bytes): void
    {
        $text = (self::ENCODE)($bytes);
        $this->assertSame(self::phpEncode($bytes), $text);
        $this->assertSame(self::phpDecode($text), (self::DECODE)($text));
        $this->assertSame($bytes, (self::DECODE)($text));
    }

    public static function forgivenTexts(): array
    {
        return [
            'padding written as =' => ['YWI='], 'padding inside' => ['YW~Jj~ZA'],
            'too much padding' => ['YQ~~~~'], 'no padding' => ['YWJjZA'],
            'a lone last character' => ['YWJjZ'], 'only a lone character' => ['Y'],
            'whitespace and line breaks' => ["YW Jj\r\nZA\t~~"],
            'bytes outside the alphabet' => ["YW\x00Jj\xffZA-!"],
            'standard + and /' => ['+/+/._._'], 'only padding' => ['~~='],
            'spare bits set' => ['YR~~'], 'dots and underscores' => ['..__'],
        ];
    }

    /** @dataProvider forgivenTexts */
    #[DataProvider('forgivenTexts')]
    public function testDecodesWhatBase64DecodeForgives(string $text): void
    {
        $this->assertSame(self::phpDecode($text), (self::DECODE)($text));
    }

    public function testDecodesRandomTextsOfTheAlphabetAndBeyondAsPhp(): void
    {
        mt_srand(2028);
        $alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~=+/ ';
        for ($n = 0; $n < 2000; $n++) {
            $text = '';
            for ($i = mt_rand(0, 30); $i > 0; $i--) {
                $text .= mt_rand(0, 9) == 0 ? chr(mt_rand(0, 255)) : $alphabet[mt_rand(0, strlen($alphabet) - 1)];
            }
            $this->assertSame(self::phpDecode($text), (self::DECODE)($text), bin2hex($text));
        }
    }

    public static function notStrings(): array
    {
        return ['null' => [null], 'int' => [12], 'float' => [1.5], 'true' => [true],
            'array' => [['YQ~~']], 'object' => [new \ArrayObject()]];
    }

    /** @dataProvider notStrings */
    #[DataProvider('notStrings')]
    public function testValuesThatAreNotStringsDecline(mixed $value): void
    {
        $this->assertNull((self::ENCODE)($value));
        $this->assertNull((self::DECODE)($value));
    }

    public function testAReferenceToAStringIsItsString(): void
    {
        $text = 'YQ~~';
        $array = [&$text];
        $this->assertSame('a', (self::DECODE)(...$array));
    }
}
