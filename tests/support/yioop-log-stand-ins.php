<?php
/**
 * Stand-ins for the Yioop functions the native save steps call (Yioop's
 * own are in its Utility.php and CrawlDaemon.php, not loaded in this
 * suite): each notes what it was given in YioopLog::$lines.
 */
namespace seekquarry\yioop\library;

final class YioopLog
{
    /** @var string[] */
    public static array $lines = [];
}

function crawlLog($msg, $lname = null, $check_process_handler = false)
{
    YioopLog::$lines[] = $msg;
}

function crawlTimeoutLog($msg, ...$args)
{
    YioopLog::$lines[] = $args ? sprintf($msg, ...$args) : $msg;
}

final class CrawlDaemon
{
    public static function processHandler($continue = false)
    {
        YioopLog::$lines[] = "CrawlDaemon::processHandler(" . var_export($continue, true) . ")";
        return true;
    }
}
