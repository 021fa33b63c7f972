<?php
namespace YioopCodec\Tests;

/**
 * The English stemmer's private scratch of $class ($buffer, $k, $j), read
 * by reflection: what the native stemmer must leave as Yioop's leaves it.
 */
function stemScratch(string $class): array
{
    $reflection = new \ReflectionClass($class);
    return [$reflection->getStaticPropertyValue('buffer'), $reflection->getStaticPropertyValue('k'),
        $reflection->getStaticPropertyValue('j')];
}
