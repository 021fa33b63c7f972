<?php
/**
 * Loads a Yioop tree's Config.php with WORK_DIRECTORY at $work_dir, writing
 * the minimal Profile.php Yioop needs there to load at all (without one
 * Config.php stops early), with Yioop's default ranking weights.
 */
namespace seekquarry\yioop\configs;

function bootYioop(string $yioop_src, string $work_dir): void
{
    ini_set("memory_limit", "-1");
    ini_set("serialize_precision", "-1");
    if (!is_file("$work_dir/Profile.php")) {
        file_put_contents("$work_dir/Profile.php", "<?php\nnamespace seekquarry\\yioop\\configs;\n"
            . "nsdefine('NAME_SERVER', 'http://localhost/');\n"
            . "nsdefine('DEBUG_LEVEL', 0);\nnsdefine('USER_AGENT_SHORT', 'bench');\n"
            // Yioop's default ranking profile
            . "nsdefine('TITLE_WEIGHT', 4);\nnsdefine('DESCRIPTION_WEIGHT', 1);\n"
            . "nsdefine('LINK_WEIGHT', 2);\nnsdefine('MIN_RESULTS_TO_GROUP', 200);\n");
    }
    define("seekquarry\\yioop\\configs\\WORK_DIRECTORY", $work_dir);
    foreach (["cache", "schedules"] as $dir) {
        @mkdir("$work_dir/$dir");
    }
    require "$yioop_src/configs/Config.php";
    // Yioop's own handler prints PHP 8.2+'s dynamic-property deprecations.
    set_error_handler(fn() => true);
    $_SERVER["NO_LOGGING"] = true; // crawlLog progress lines are not results
}

/**
 * The profile a stock install writes (its values as strings, as the
 * installer writes them), with what bootYioop's minimal one lacks for a
 * QueueServer or a Fetcher: a database manager to construct, and the
 * default locale (a page whose language the fetcher could not tell is
 * guessed from it).
 */
function writeCrawlProfile(string $work_dir): void
{
    file_put_contents("$work_dir/Profile.php", "<?php\nnamespace seekquarry\\yioop\\configs;\n"
        . "nsdefine('NAME_SERVER', 'http://localhost/');\nnsdefine('DEBUG_LEVEL', '0');\n"
        . "nsdefine('USER_AGENT_SHORT', 'replay');\nnsdefine('DBMS', 'sqlite3');\n"
        . "nsdefine('DEFAULT_LOCALE', 'en-US');\n"
        . "nsdefine('DB_HOST', '');\nnsdefine('DB_NAME', 'default');\n"
        . "nsdefine('DB_USER', '');\nnsdefine('DB_PASSWORD', '');\n"
        . "nsdefine('TITLE_WEIGHT', '4');\nnsdefine('DESCRIPTION_WEIGHT', '1');\n"
        . "nsdefine('LINK_WEIGHT', '2');\nnsdefine('MIN_RESULTS_TO_GROUP', '200');\n");
}
