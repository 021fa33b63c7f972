<?php
namespace YioopCodec\Tests;

use seekquarry\yioop\locale\en_US\resources\Tokenizer;

/**
 * tests/fixtures/triplets/recorded.json.gz (tests/tools/record/record-triplets.php) and what
 * the native triplets read besides it: the en_US Tokenizer's statics, the
 * recorded lexicon lines as LOCALE_DIR's lexicon, PHRASE_THRESHOLD.
 */
final class TripletsRecording
{
    private const CONFIGS = 'seekquarry\yioop\configs\\';

    public static function load(): array
    {
        return json_decode(gzdecode(file_get_contents(__DIR__ . '/../../fixtures/triplets/recorded.json.gz')), true);
    }

    /** LOCALE_DIR (a fresh one holding the recorded lexicon) and PHRASE_THRESHOLD. */
    public static function defineConstants(array $recorded, $threshold): void
    {
        if (!defined(self::CONFIGS . 'LOCALE_DIR')) {
            $dir = sys_get_temp_dir() . '/yioop-triplets-test-' . getmypid();
            @mkdir("$dir/en_US/resources", 0777, true);
            file_put_contents("$dir/en_US/resources/lexicon.txt.gz", gzencode($recorded['lexicon']));
            register_shutdown_function(fn() => exec('rm -rf ' . escapeshellarg($dir)));
            define(self::CONFIGS . 'LOCALE_DIR', $dir);
        }
        if (!defined(self::CONFIGS . 'PHRASE_THRESHOLD')) {
            define(self::CONFIGS . 'PHRASE_THRESHOLD', $threshold);
        }
        mb_internal_encoding('UTF-8');
        mb_regex_encoding('UTF-8');
    }

    /** Yioop's statics on the stand-in Tokenizer, its stemmer's scratch as a fresh process has it. */
    public static function setStatics(array $recorded): void
    {
        foreach ($recorded['statics'] as $name => $value) {
            Tokenizer::$$name = $value;
        }
        foreach (['buffer', 'k', 'j'] as $name) {
            (new \ReflectionProperty(Tokenizer::class, $name))->setValue(null, null);
        }
    }

    /**
     * The recorded lexicon as lexicon.txt.gz, damaged: "data" (a byte of
     * the deflate data changed), "cut" (cut to half), "good" (intact).
     */
    public static function lexiconFile(array $recorded, string $damage): string
    {
        $gz = gzencode($recorded['lexicon']);
        return match ($damage) {
            'data' => substr_replace($gz, chr(ord($gz[20]) ^ 0x5a), 20, 1),
            'cut' => substr($gz, 0, intdiv(strlen($gz), 2)),
            default => $gz,
        };
    }

    /** A recorded sentence list as Yioop builds it (integer-like sentences are int keys). */
    public static function sentences(array $encoded): array
    {
        $list = [];
        foreach ($encoded as [$sentence, $positions]) {
            $list[base64_decode($sentence)] = $positions;
        }
        return $list;
    }
}
