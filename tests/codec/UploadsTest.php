<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

/**
 * seekquarry\yioop\executables\gzuncompress, which Yioop's QueueServer and
 * Fetcher call unqualified, against PHP's own gzuncompress: the same value
 * and the same warnings (or the same error) for every argument, answered
 * natively or handed to PHP's. The streams are what a fetcher's upload
 * holds (gzcompress of a serialized site) and every way one can be
 * damaged.
 */
class UploadsTest extends TestCase
{
    private const SHADOW = 'seekquarry\yioop\executables\gzuncompress';

    protected function setUp(): void
    {
        if (!function_exists(self::SHADOW)) {
            $this->markTestSkipped('the yioop extension is not loaded');
        }
    }

    /** The value and warnings of $function(...$args), or the error thrown. */
    private static function outcome(string $function, array $args): array
    {
        $warnings = [];
        set_error_handler(function (int $level, string $message) use (&$warnings) {
            $warnings[] = [$level, $message];
            return true;
        });
        try {
            $value = $function(...$args);
        } catch (\Throwable $e) {
            $value = [get_class($e), $e->getMessage()];
        } finally {
            restore_error_handler();
        }
        return [$value, $warnings];
    }

    private function assertAsPhp(array $args): void
    {
        $this->assertSame(self::outcome('gzuncompress', $args), self::outcome(self::SHADOW, $args));
    }

    /** A site as a fetcher uploads it, serialized. */
    private static function site(int $seed): string
    {
        mt_srand($seed);
        $words = ['debian', 'documentation', 'the', 'of', "\xc3\xa9t\xc3\xa9", 'package', 'html'];
        $description = '';
        for ($i = 0; $i < mt_rand(0, 400); $i++) {
            $description .= $words[mt_rand(0, count($words) - 1)] . ' ';
        }
        return serialize(['url' => "https://example.com/page$seed.html", 'title' => "Page $seed",
            'description' => $description, 'hash' => md5("$seed", true), 'links' => array_fill(0, mt_rand(0, 30), 'a'),
            'rank' => $seed / 7, 'type' => $seed % 3 ? 'text/html' : 'link']);
    }

    public static function streams(): array
    {
        $rows = ['empty string' => [''], 'not a stream' => ['garbage'], 'gzip, not zlib' => [gzencode('abc')],
            'raw deflate' => [gzdeflate('abc')], 'an empty text' => [gzcompress('')]];
        foreach ([0, 1, 6, 9] as $level) {
            $rows["a site, level $level"] = [gzcompress(self::site($level + 3), $level)];
        }
        for ($seed = 10; $seed < 40; $seed++) {
            $rows["site $seed"] = [gzcompress(self::site($seed))];
        }
        $site = gzcompress(self::site(99));
        $rows['bytes after the stream'] = [$site . 'trailing'];
        $rows['the checksum cut'] = [substr($site, 0, -1)];
        $rows['half a stream'] = [substr($site, 0, intdiv(strlen($site), 2))];
        $rows['a wrong checksum'] = [substr($site, 0, -1) . chr(ord($site[strlen($site) - 1]) ^ 1)];
        $rows['a preset dictionary'] = [self::withDictionary('the documentation')];
        $rows['2 MB of zeros'] = [gzcompress(str_repeat("\0", 2 << 20))];
        $rows['past the native limit'] = [gzcompress(str_repeat('a', (8 << 20) + 1))];
        mt_srand(7);
        $random = '';
        for ($i = 0; $i < 5000; $i++) {
            $random .= chr(mt_rand(0, 255));
        }
        $rows['random bytes'] = [gzcompress($random)];
        return $rows;
    }

    private static function withDictionary(string $text): string
    {
        $context = deflate_init(ZLIB_ENCODING_DEFLATE, ['dictionary' => 'the documentation of']);
        return deflate_add($context, $text, ZLIB_FINISH);
    }

    /** @dataProvider streams */
    #[DataProvider('streams')]
    public function testGivesPhpsAnswer(string $data): void
    {
        $this->assertAsPhp([$data]);
    }

    public function testEveryDamagedByteGivesPhpsAnswer(): void
    {
        $site = gzcompress(self::site(5));
        for ($at = 0; $at < strlen($site); $at++) {
            $bad = $site;
            $bad[$at] = chr(ord($bad[$at]) ^ (1 << ($at % 8)));
            $this->assertAsPhp([$bad]);
        }
    }

    /**
     * An upload as processIndexArchive takes it in: webdecode of the file,
     * then each site's gzuncompress in order. With yioop.compress_threads
     * above 1 the sites are inflated ahead on another thread once the
     * upload is decoded; every answer must still be PHP's, damaged sites,
     * sites taken out of order and a second upload begun midway included.
     */
    public function testAnUploadsSitesInOrderGivePhpsAnswers(): void
    {
        $sites = [];
        for ($seed = 100; $seed < 260; $seed++) {
            $sites[] = gzcompress(self::site($seed));
        }
        $sites[20] = substr($sites[20], 0, 9); // cut
        $sites[21] = '';
        $sites[22] = gzencode('not zlib');
        $sites[23][8] = chr(ord($sites[23][8]) ^ 4);
        $decode = fn(array $sites) => \yioop_codec\webcode\webdecode(strtr(base64_encode(self::upload($sites)),
            ['+' => '.', '/' => '_', '=' => '~']));
        $this->assertSame(self::upload($sites), $decode($sites));
        foreach ($sites as $site) {
            $this->assertAsPhp([$site]);
        }
        $decode($sites);
        foreach ([0, 1, 5, 2, 3, 4] as $i) {
            $this->assertAsPhp([$sites[$i]]);
        }
        $decode($sites);
        foreach (array_slice($sites, 0, 40) as $site) {
            $this->assertAsPhp([$site]);
        }
        $other = array_reverse($sites);
        $decode($other);
        foreach (array_merge(array_slice($sites, 40, 3), $other) as $site) {
            $this->assertAsPhp([$site]);
        }
    }

    /** A fetcher's upload: the sites' part (each site's length, then it), the index part after. */
    private static function upload(array $sites): string
    {
        $part = '';
        foreach ($sites as $site) {
            $part .= pack('N', strlen($site)) . $site;
        }
        return pack('N', strlen($part)) . $part . 'the index part';
    }

    public static function otherArguments(): array
    {
        $site = gzcompress(self::site(1));
        return [
            'a length limit that holds' => [[$site, 1 << 20]], 'a length limit too small' => [[$site, 10]],
            'a negative limit' => [[$site, -1]], 'an int' => [[123]], 'a float' => [[1.5]], 'null' => [[null]],
            'true' => [[true]], 'an array' => [[[$site]]], 'an object' => [[new \ArrayObject()]],
            'a stringable object' => [[new class($site) { public function __construct(private string $s) {}
                public function __toString(): string { return $this->s; } }]],
        ];
    }

    /** @dataProvider otherArguments */
    #[DataProvider('otherArguments')]
    public function testOtherArgumentsArePhps(array $args): void
    {
        $this->assertAsPhp($args);
    }

    /** The one difference: a wrong argument count names this function. */
    public function testArgumentCountErrorsNameTheNamespacedFunction(): void
    {
        foreach ([[], ['a', 1, 2]] as $args) {
            [[$class, $message]] = self::outcome('gzuncompress', $args);
            [[$shadow_class, $shadow_message]] = self::outcome(self::SHADOW, $args);
            $this->assertSame('ArgumentCountError', $class);
            $this->assertSame($class, $shadow_class);
            $this->assertSame('seekquarry\\yioop\\executables\\' . $message, $shadow_message);
        }
    }

    /** QueueServer's `@gzuncompress($decode)`: the warning silenced, yet PHP's last error. */
    public function testSilencedWarningsAreSilencedAsPhps(): void
    {
        $last = [];
        foreach (['gzuncompress', self::SHADOW] as $function) {
            error_clear_last();
            $this->assertFalse(@$function('garbage'));
            $last[] = error_get_last()['message'] ?? null;
        }
        $this->assertSame('gzuncompress(): data error', $last[0]);
        $this->assertSame($last[0], $last[1]);
    }

    public function testItTakesTheBuiltinsParameters(): void
    {
        $names = fn(string $f) => array_map(fn($p) => [$p->getName(), $p->isOptional()], (new \ReflectionFunction($f))->getParameters());
        $this->assertSame($names('gzuncompress'), $names(self::SHADOW));
    }
}
