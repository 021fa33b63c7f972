<?php
/**
 * Loads Yioop's own Utility.php from $yioop_dir for a live comparison, in a
 * PHP process that must not have the extension. Output that Yioop prints
 * (crawlLog on damaged input) is buffered, and its warnings are ignored:
 * neither is part of a result.
 */
function loadYioop(string $yioop_dir, bool $switched = false): void
{
    if ($switched) {
        if (!extension_loaded('yioop')) {
            fwrite(STDERR, "a switched tree is run with the yioop extension\n");
            exit(2);
        }
    } elseif (extension_loaded('yioop')) {
        fwrite(STDERR, "run this without the yioop extension\n");
        exit(2);
    }
    ini_set('memory_limit', '-1');
    ini_set('serialize_precision', '-1');
    ob_start();
    require_once "$yioop_dir/src/library/CrawlConstants.php";
    require_once "$yioop_dir/src/library/Utility.php";
    set_error_handler(fn() => true);
}
