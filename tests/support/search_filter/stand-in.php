<?php
/**
 * A class with the name of Yioop's SearchverticalsModel, for running the
 * native isFiltered without Yioop: its isFiltered is the guard's call of
 * the native function, and where that declines it counts the decline and
 * returns "declined" (Yioop's PHP would ask its database).
 */
namespace seekquarry\yioop\models;

#[\AllowDynamicProperties] // query_filter, as Yioop sets it
class SearchverticalsModel
{
    public $memory_filter = [];
    public $last_change = null;
    public static $declined = 0;

    public function isFiltered($url, $compute_hash_key = false)
    {
        if (\extension_loaded("yioop") && static::class === self::class
            && ($result = \yioop_codec\search_filter\isFiltered($this, $url, $compute_hash_key)) !== null) {
            return $result;
        }
        self::$declined++;
        return "declined";
    }
}
