<?php
/**
 * auto_prepend_file for stock-install.php's QueryTool runs (both sides): a
 * stock Profile.php has DEBUG_LEVEL 0, so Yioop's Config.php sets
 * error_reporting(0) and a fatal error (an uncaught exception included)
 * ends the process with exit 255 and no word why. This names it on stderr.
 */
register_shutdown_function(function (): void {
    $error = error_get_last();
    if ($error !== null && ($error["type"] & (E_ERROR | E_CORE_ERROR | E_COMPILE_ERROR))) {
        fwrite(STDERR, "PHP fatal: " . strtok($error["message"], "\n") . "\n");
    }
});
