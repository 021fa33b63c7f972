<?php
/**
 * An autoloader of Yioop's kind (Config.php's: seekquarry\yioop\X from
 * X.php under the source folder) over the stand-ins beside this file.
 */
spl_autoload_register(function (string $class) {
    $prefix = "seekquarry\\yioop\\";
    if (strncmp($class, $prefix, strlen($prefix)) === 0) {
        $file = __DIR__ . "/" . str_replace("\\", "/", substr($class, strlen($prefix))) . ".php";
        if (file_exists($file)) {
            require $file;
        }
    }
});
