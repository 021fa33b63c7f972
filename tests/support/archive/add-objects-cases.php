<?php
/**
 * The WebArchive::addObjects cases that tests/tools/record/record-archive-add.php
 * runs through Yioop's PHP and tests/index/AddObjectsTest.php through the
 * native function: summary-like records (few and many, so that the native
 * side compresses on threads and without), the offset field new or already
 * inside the records, an int field, $return_flag both ways, data with a
 * callback, an archive holding records already, no records.
 */
namespace YioopCodec\Tests;

/** A record's text of $n words, from a seeded generator. */
function addObjectsText(int $n): string
{
    $words = ["search", "engine", "yioop", "index", "shard", "archive", "page",
        "summary", "crawl", "fetch", "queue", "server", "\u{e9}t\u{e9}", "\x00", "debian"];
    $text = [];
    for ($i = 0; $i < $n; $i++) {
        $text[] = $words[mt_rand(0, count($words) - 1)] . (mt_rand(0, 3) ? "" : mt_rand());
    }
    return implode(" ", $text);
}

/** $n bytes from a seeded generator. */
function addObjectsNoise(int $n): string
{
    mt_srand(31);
    $bytes = "";
    for ($i = 0; $i < $n; $i++) {
        $bytes .= chr(mt_rand(0, 15) ? mt_rand(97, 104) : mt_rand(0, 255));
    }
    return $bytes;
}

/** $count summary-like records of varied sizes. */
function addObjectsRecords(int $count, int $seed): array
{
    mt_srand($seed);
    $records = [];
    for ($i = 0; $i < $count; $i++) {
        $n = [3, 40, 300, 900, 2500][mt_rand(0, 4)];
        $records[] = ["TITLE" => "page $i", "DESCRIPTION" => addObjectsText($n),
            "URL" => "https://example.com/$seed/$i", "SCORE" => $n / 7,
            "LINKS" => [$n, true, null, ["a" => [$i]]], 7 => "seven"];
    }
    return $records;
}

/** Adds where each record was stored to the info block's data. */
function addObjectsCallback($data, $objects, $offset_field)
{
    $data["offsets"] = array_column($objects, $offset_field);
    return $data;
}

/**
 * name => [field, objects, data, callback, return_flag, before: earlier
 * lists of objects added (return_flag false) first].
 */
function addObjectsCases(): array
{
    $many = addObjectsRecords(60, 1);
    $inside = array_map(fn($r) => ["SUMMARY_OFFSET" => -1] + $r, addObjectsRecords(12, 2));
    $random = [["RANDOM" => str_repeat("\x01\xff", 10)],
        ["BYTES" => implode("", array_map(fn($i) => chr(($i * 7919) % 256), range(0, 40000)))],
        // Past 16,384 literals: zlib's block size (its memLevel) shows.
        ["NOISE" => addObjectsNoise(60000)]];
    $case = fn($field, $objects, $data = null, $callback = null, $flag = true, $before = []) =>
        ["field" => $field, "objects" => $objects, "data" => $data, "callback" => $callback,
            "return_flag" => $flag, "before" => $before];
    return [
        "one-returned" => $case("SUMMARY_OFFSET", addObjectsRecords(1, 3)),
        "one-in-place" => $case("SUMMARY_OFFSET", addObjectsRecords(1, 4), null, null, false),
        "many-returned" => $case("SUMMARY_OFFSET", $many),
        "many-in-place" => $case("SUMMARY_OFFSET", $many, null, null, false),
        "appended" => $case("SUMMARY_OFFSET", addObjectsRecords(20, 5), null, null, false,
            [addObjectsRecords(3, 6), [["DUMMY"]]]),
        "field-inside" => $case("SUMMARY_OFFSET", $inside, null, null, false),
        "int-field" => $case(7, addObjectsRecords(10, 7)),
        "numeric-string-field" => $case("7", addObjectsRecords(10, 8), null, null, false),
        "dummy" => $case("DUMMY_OFFSET", [["DUMMY"]]),
        "none" => $case("SUMMARY_OFFSET", []),
        "none-in-place" => $case("SUMMARY_OFFSET", [], null, null, false),
        "binary" => $case("OFFSET", $random, null, null, false),
        "callback-returned" => $case("SUMMARY_OFFSET", addObjectsRecords(9, 9),
            ["kept" => "yes"], __NAMESPACE__ . "\\addObjectsCallback"),
        "callback-in-place" => $case("SUMMARY_OFFSET", addObjectsRecords(9, 10),
            ["kept" => "yes"], __NAMESPACE__ . "\\addObjectsCallback", false),
        "data-without-callback" => $case("SUMMARY_OFFSET", addObjectsRecords(2, 11),
            ["only" => "data"], null, false),
        "callback-without-data" => $case("SUMMARY_OFFSET", addObjectsRecords(2, 12),
            [], __NAMESPACE__ . "\\addObjectsCallback", false),
    ];
}
