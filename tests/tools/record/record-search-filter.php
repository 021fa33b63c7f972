<?php
/**
 * Records Yioop's SearchverticalsModel::isFiltered (YIOOP_DIR, run WITHOUT the
 * extension) on tests/support/search_filter/run.php's cases, for
 * tests/search/SearchFilterTest.php: each case's result.
 *
 *   YIOOP_DIR=... php tests/tools/record/record-search-filter.php
 */
require __DIR__ . "/runner-recording.php";
recordRunner(__DIR__ . "/../../support/search_filter/run.php", __DIR__ . "/../../fixtures/search_filter/yioop-2021.json");
