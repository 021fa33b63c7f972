<?php
/**
 * Records Yioop's WordIterator::findDocsWithWord (YIOOP_DIR, run WITHOUT the
 * extension) on tests/support/word_iterator/run.php's cases, for
 * tests/index/WordIteratorTest.php: the shard and dictionary Yioop built,
 * its discounts, and each case's result, gzipped.
 *
 *   YIOOP_DIR=... php tests/tools/record/record-word-iterator.php
 */
require __DIR__ . "/runner-recording.php";
recordRunner(__DIR__ . "/../../support/word_iterator/run.php",
    __DIR__ . "/../../fixtures/word_iterator/yioop-2021.json.gz");
