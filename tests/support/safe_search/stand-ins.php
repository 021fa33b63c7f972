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
