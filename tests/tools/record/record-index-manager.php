<?php
/**
 * Records Yioop's IndexManager::discountedNumDocsTerm (YIOOP_DIR, run WITHOUT the
 * extension) on tests/support/index_manager/run.php's cases, for
 * tests/index/IndexManagerTest.php: each case's result.
 *
 *   YIOOP_DIR=... php tests/tools/record/record-index-manager.php
 */
require __DIR__ . "/runner-recording.php";
recordRunner(__DIR__ . "/../../support/index_manager/run.php", __DIR__ . "/../../fixtures/index_manager/yioop-2021.json");
