<?php
/**
 * What the recorders of tests/support/<name>/run.php have in common: run
 * the runner on Yioop's own classes (YIOOP_DIR, this PHP WITHOUT the
 * extension) and write its JSON to the fixture, gzipped for a .gz path.
 */
function recordRunner(string $runner, string $fixture): void
{
    $yioop = getenv("YIOOP_DIR") ?: "/work/yioop-2021";
    if (extension_loaded("yioop")) {
        fwrite(STDERR, "run without the extension: this records Yioop's PHP\n");
        exit(1);
    }
    $json = shell_exec(escapeshellarg(PHP_BINARY) . " " . escapeshellarg($runner) . " yioop "
        . escapeshellarg($yioop));
    if (!is_array(json_decode((string)$json, true))) {
        fwrite(STDERR, "no result from $runner\n");
        exit(1);
    }
    file_put_contents($fixture, str_ends_with($fixture, ".gz") ? gzencode($json, 9) : $json);
    echo "recorded ", count(json_decode($json, true)["cases"]), " cases\n";
}
