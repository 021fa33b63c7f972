<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

/**
 * yioop_codec\locale\parse_ini_with_fallback against PHP's own
 * parse_ini_file($file, true), which is what Yioop's function returns where
 * parse_ini_file is enabled: the same array on the first call (PHP's) and
 * on later ones (the array the process kept), a file changed underneath
 * read again, and null (Yioop's PHP runs) for every text or setting whose
 * answer could differ from request to request.
 */
class LocaleIniTest extends TestCase
{
    private const NATIVE = 'yioop_codec\locale\parse_ini_with_fallback';
    private string $dir;

    protected function setUp(): void
    {
        if (!function_exists(self::NATIVE)) {
            $this->markTestSkipped('the yioop extension is not loaded');
        }
        $this->dir = sys_get_temp_dir() . '/yioop-locale-ini-' . bin2hex(random_bytes(6));
        mkdir($this->dir);
    }

    protected function tearDown(): void
    {
        if (isset($this->dir)) {
            array_map('unlink', glob("$this->dir/*") ?: []);
            rmdir($this->dir);
        }
    }

    /** A locale file's shape: two sections, about 1,900 quoted strings. */
    private static function localeText(int $seed = 1): string
    {
        mt_srand($seed);
        $text = "; a locale's strings\n[general]\nlocale_name = \"Français\"\nlocale_direction = \"ltr\"\n\n[strings]\n";
        for ($i = 0; $i < 1900; $i++) {
            $value = $i % 97 == 0 ? '' : 'Text ' . mt_rand() . ' = a; b &amp; ' . str_repeat('é', $i % 5);
            $text .= "controller_string_$i = \"$value\"\r\n";
        }
        return $text . "123 = \"int key\"\n007 = \"zero-led key, a string\"\nlist[] = \"first\"\nlist[] = \"second\"\n";
    }

    private function file(string $text, string $name = 'configure.ini'): string
    {
        file_put_contents("$this->dir/$name", $text);
        return "$this->dir/$name";
    }

    public function testLocaleFileGivesPhpsArrayFirstAndKept(): void
    {
        $path = $this->file(self::localeText());
        $php = parse_ini_file($path, true);
        $this->assertIsArray($php);
        $this->assertSame($php, (self::NATIVE)($path), 'first call: PHP parses it');
        $this->assertSame($php, (self::NATIVE)($path), 'second call: the kept array');
        $this->assertSame('int key', (self::NATIVE)($path)['strings'][123]);
    }

    public function testAFileIsKeptFromItsSecondReadOn(): void
    {
        $stats = 'yioop_codec\locale\localeCacheStats';
        $once = $this->file(self::localeText(3), 'once.ini');
        $twice = $this->file(self::localeText(4), 'twice.ini');
        $before = $stats()['files'];
        $this->assertSame(parse_ini_file($once, true), (self::NATIVE)($once));
        $this->assertSame($before, $stats()['files'], 'read once: not kept');
        (self::NATIVE)($twice);
        $this->assertSame(parse_ini_file($twice, true), (self::NATIVE)($twice));
        $this->assertSame($before + 1, $stats()['files'], 'read twice: kept');
        $this->assertSame(parse_ini_file($twice, true), (self::NATIVE)($twice), 'the kept array');
        $this->assertSame($before + 1, $stats()['files']);
    }

    public function testWritesToTheAnswerDoNotReachTheKeptArray(): void
    {
        $path = $this->file(self::localeText());
        $php = parse_ini_file($path, true);
        (self::NATIVE)($path);
        $answer = (self::NATIVE)($path);
        $answer['strings']['controller_string_1'] = 'changed';
        $answer['strings']['list'][] = 'third';
        $answer['general'] = null;
        $again = (self::NATIVE)($path);
        $this->assertSame($php, $again);
        $this->assertNotSame($again, $answer);
    }

    public function testFileChangedUnderneathIsReadAgain(): void
    {
        $path = $this->file(self::localeText(1));
        (self::NATIVE)($path);
        (self::NATIVE)($path);
        // the same size, one byte different
        $changed = substr_replace(self::localeText(1), 'X', strpos(self::localeText(1), 'Text'), 1);
        file_put_contents($path, $changed);
        $this->assertSame(parse_ini_file($path, true), (self::NATIVE)($path));
        file_put_contents($path, self::localeText(2));
        $this->assertSame(parse_ini_file($path, true), (self::NATIVE)($path));
        // a text that may read otherwise elsewhere: declined, not the kept array
        file_put_contents($path, "[general]\nname = PHP_VERSION\n");
        $this->assertNull((self::NATIVE)($path));
    }

    public static function textsLeftToPhp(): array
    {
        return [
            'a constant' => ["[general]\nversion = PHP_VERSION\n"],
            'a bare word' => ["[general]\nflag = yes\n"],
            'an environment variable' => ["[general]\nhome = \"\${HOME}\"\n"],
            'an escape' => ["[general]\nquote = \"say \\\"hi\\\"\"\n"],
            'a string over two lines' => ["[general]\ntext = \"one\ntwo\"\n"],
        ];
    }

    /** @dataProvider textsLeftToPhp */
    #[DataProvider('textsLeftToPhp')]
    public function testTextsThatMayReadOtherwiseAreDeclined(string $text): void
    {
        $this->assertNull((self::NATIVE)($this->file($text)));
    }

    public function testPathsItDoesNotReadAreDeclined(): void
    {
        $this->file(self::localeText());
        $this->assertNull((self::NATIVE)('configure.ini'), 'relative: include_path is PHP\'s');
        $this->assertNull((self::NATIVE)("$this->dir/missing.ini"));
        $this->assertNull((self::NATIVE)($this->dir), 'a directory');
        $this->assertNull((self::NATIVE)("file://$this->dir/configure.ini"), 'a stream wrapper');
        $this->assertNull((self::NATIVE)(12), 'not a string');
    }

    public function testParseErrorWarnsOnceAndGivesPhpsFalse(): void
    {
        $path = $this->file("[strings]\nnull = \"reserved word as a key\"\n");
        foreach (['php' => fn() => parse_ini_file($path, true), 'native' => fn() => (self::NATIVE)($path)] as $who => $call) {
            $warnings = [];
            set_error_handler(function (int $no, string $message) use (&$warnings) {
                $warnings[] = $message;
                return true;
            });
            try {
                $results[$who] = [$call(), $warnings];
            } finally {
                restore_error_handler();
            }
            $this->assertCount(1, $warnings, $who);
        }
        $this->assertFalse($results['native'][0]);
        $this->assertSame($results['php'], $results['native']);
    }

    public static function settingsLeftToPhp(): array
    {
        return [
            'parse_ini_file disabled' => ['disable_functions', 'parse_ini_file'],
            'open_basedir' => ['open_basedir', '/nonexistent'],
        ];
    }

    /** @dataProvider settingsLeftToPhp */
    #[DataProvider('settingsLeftToPhp')]
    public function testSettingsYioopOrPhpApplyAreLeftToThem(string $setting, string $value): void
    {
        $path = $this->file(self::localeText());
        $script = 'echo json_encode([' . self::NATIVE . '(' . var_export($path, true) . ') === null]);';
        [$declined] = SettingProcess::run($setting, $value, $script);
        $this->assertTrue($declined);
        [$declined] = SettingProcess::run('yioop.format', '2019', $script);
        $this->assertFalse($declined, 'the same file is read without the setting');
    }
}
