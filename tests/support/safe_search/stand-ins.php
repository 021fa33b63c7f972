<?php
namespace YioopCodec\Tests;

/**
 * A method with computeSafeSearchScore's statics. Its first call sets them
 * from the recording, as Yioop's first call works its unsafe terms out;
 * later calls go to the native function, as the switched method's do.
 */
class SafeSearchStandIn
{
    public static array $terms = [];
    public static string $regex = '';

    public static function computeSafeSearchScore(&$word_lists, $len, $url = "")
    {
        static $unsafe_url_regex = '';
        static $unsafe_terms = [];
        if ($unsafe_terms == []) {
            [$unsafe_terms, $unsafe_url_regex] = [static::$terms, static::$regex];
            return null;
        }
        return \yioop_codec\phrase\computeSafeSearchScore(static::class, $word_lists, $len, $url);
    }
}

/** Its own statics (a method overridden has its own), never set. */
class UnprimedStandIn extends SafeSearchStandIn
{
    public static function computeSafeSearchScore(&$word_lists, $len, $url = "")
    {
        static $unsafe_url_regex = '';
        static $unsafe_terms = [];
        return \yioop_codec\phrase\computeSafeSearchScore(static::class, $word_lists, $len, $url);
    }
}

/** Its own statics, set to other terms. */
class OtherTermsStandIn extends SafeSearchStandIn
{
    public static function computeSafeSearchScore(&$word_lists, $len, $url = "")
    {
        static $unsafe_url_regex = '';
        static $unsafe_terms = [];
        if ($unsafe_terms == []) {
            [$unsafe_terms, $unsafe_url_regex] = [['debian', 42], '/^never$/'];
            return null;
        }
        return \yioop_codec\phrase\computeSafeSearchScore(static::class, $word_lists, $len, $url);
    }
}

/**
 * The recording of Yioop's own computeSafeSearchScore
 * (tests/fixtures/safe_search), its terms and regex set in the stand-in's
 * statics by a first call, as Yioop's first call works them out.
 */
function primedRecording(): array
{
    $recorded = json_decode(gzdecode(file_get_contents(__DIR__ . '/../../fixtures/safe_search/recorded.json.gz')), true);
    SafeSearchStandIn::$terms = $recorded['unsafe_terms'];
    SafeSearchStandIn::$regex = $recorded['unsafe_url_regex'];
    $none = [];
    SafeSearchStandIn::computeSafeSearchScore($none, 0);
    return $recorded;
}
