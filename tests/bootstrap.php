<?php
// Loaded by phpunit.xml before any test. Without the extension every vector
// test would fail for the same dull reason, so stop at once and say why.
// YIOOP_HARNESS_ONLY=1 lets the harness self-test (VectorsHelperTest) run
// without a built extension; the extension-dependent tests then skip.

declare(strict_types=1);

require_once __DIR__ . '/support/Vectors.php';
require_once __DIR__ . '/support/BadInputTable.php';
require_once __DIR__ . '/support/LoadedExtension.php';
require_once __DIR__ . '/support/SettingProcess.php';
require_once __DIR__ . '/support/RecordedShard.php';
require_once __DIR__ . '/support/CaseRunner.php';

if (!extension_loaded('yioop') && getenv('YIOOP_HARNESS_ONLY') !== '1') {
    fwrite(STDERR, "\nThe yioop extension is not loaded.\n"
        . "Run: php -d extension=/path/to/libyioop_codec.so /usr/bin/phpunit\n"
        . "(or set YIOOP_HARNESS_ONLY=1 to run only the harness self-test)\n\n");
    exit(1);
}
