<?php
namespace YioopCodec\Tests;

/** The extension this process runs, for tests that start PHP processes of their own. */
final class LoadedExtension
{
    /** This build's .so, as mapped into this process ('' if none is). */
    public static function path(): string
    {
        $maps = (string)file_get_contents('/proc/self/maps');
        preg_match('#\S*libyioop_codec\S*\.so\b#', $maps, $m) || preg_match('#\S*yioop_codec\.so\b#', $maps, $m);
        return $m[0] ?? '';
    }
}
