<?php
/**
 * A class with the name of Yioop's IndexManager, for the stand-ins of the
 * bindings that ask it for discounts: discountedNumDocsTerm is its guard's
 * call of the native function (which the native code requires switched),
 * and where that declines it counts the decline and gives what Yioop gave
 * for the term (the runner sets $answers from its recording), keeping it
 * in the method's static cache as Yioop keeps any answer but 0.0.
 * getIndex hands out the indexes a runner puts in $indexes.
 */
namespace seekquarry\yioop\library;

class IndexManager
{
    public static $indexes = [];
    public static $index_times = [];
    /** What Yioop answered: term => serialized answer. */
    public static $answers = [];
    public static $declined = 0;

    public static function getIndex($index_name)
    {
        return self::$indexes[trim($index_name)] ?? false;
    }

    public static function discountedNumDocsTerm($term, $index_name)
    {
        if (($result = \yioop_codec\index_manager\discountedNumDocsTerm(static::class, $term,
            $index_name)) !== null) {
            return $result;
        }
        static $num_docs_cache = [];
        self::$declined++;
        if (!isset(self::$answers[$term])) {
            throw new \RuntimeException("no recorded answer for $term");
        }
        $answer = unserialize(self::$answers[$term]);
        if ($answer !== 0.0) {
            $num_docs_cache[$index_name][$term] = $answer;
        }
        return $answer;
    }
}
