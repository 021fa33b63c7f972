<?php
/**
 * The summaries and lookups of the nonNetworkGetCrawlItems cases: merged
 * descriptions (trimmed, repeated, long enough to stop), pages missing,
 * false, empty or all excluded, (word key, index) pairs and URL lookups,
 * excluded fields of each kind, formatting on and off, and the shapes
 * where Yioop warns or throws (the native function must decline those).
 * Keys are CrawlConstants': t DESCRIPTION, s TITLE, l URL, q PAGE,
 * w LINKS, bb HEADER, A DESCRIPTION_SCORES, dw QUESTION_ANSWERS.
 */
namespace YioopCodec\Tests\CrawlItems;

const INDEX = '1700000000';
const EXCLUDE = ['bb', 'q', 'w', 'A', 'dw'];

/** generation => name => serialized record text. */
function archiveRecords(): array
{
    $links = [];
    for ($i = 0; $i < 40; $i++) {
        $links["http://example.com/$i"] = "anchor text $i";
    }
    $long = str_repeat('a long description ', 8);
    $shared = ['x' => 1];
    $shared['y'] = &$shared['x'];
    $tied = ['t' => '  tied  ', 's' => 'Tied'];
    $tied['also'] = &$tied['t'];
    return [
        0 => [
            'alpha' => serialize(['s' => 'Alpha', 't' => "  first words\t\n", 'l' => 'http://a/',
                'q' => str_repeat('<p>page</p>', 50), 'w' => $links, 'bb' => 'HTTP/1.1 200',
                'A' => [0.5, 0.25], 'dw' => ['q?' => 'a'], 5 => 'five', 'n' => null]),
            'beta' => serialize(['t' => 'first words', 's' => 'Beta', 'extra' => [1, [2, 3]]]),
            'gamma' => serialize(['t' => 'second words', 's' => 'Gamma', 'n' => 'filled',
                'f' => 1.5, 7 => false]),
            'long' => serialize(['t' => $long, 's' => 'Long', 'after' => 'not copied']),
            'untitled' => serialize(['s' => 'No description', 'z' => 'zed']),
            'nulldesc' => serialize(['t' => null, 's' => 'Null description']),
        ],
        1 => [
            'excluded' => serialize(['q' => 'only the page', 'w' => ['a' => 'b'], 'bb' => 'h']),
            'false' => serialize(false),
            'empty' => serialize([]),
            'intdesc' => serialize(['t' => 5, 's' => 'Int description']),
            'shared' => serialize(['t' => 'shared values', 'r' => $shared]),
            'numeric' => serialize(['t' => 'numeric keys', '12' => 'twelve', '012' => 'oh twelve']),
            'spaces' => serialize(['t' => " \0\x0B spaced \r ", 's' => 'Spaces', 'q' => 'page']),
            'tied' => serialize($tied),
            'scalar' => serialize(7),
        ],
    ];
}

/** A lookup item: (machine, key, index, generation, offset) of record $name. */
function item(array $offsets, string $name, $index = INDEX): array
{
    [$offset, $generation] = $offsets[$name];
    return ['machine', "key-$name", $index, $generation, $offset];
}

/** name => [lookups, exclude, format_words, length, found (lookupSummaryOffsetGeneration)]. */
function crawlItemsCases(array $offsets): array
{
    $at = fn($name) => $offsets[$name];
    $i = fn($name, $index = INDEX) => item($offsets, $name, $index);
    return [
        'one summary' => ['lookups' => ['h1' => [$i('alpha')]], 'exclude' => EXCLUDE],
        'merged, a repeated description once' => ['lookups' => ['h1' => [$i('alpha'), $i('beta'), $i('gamma')]], 'exclude' => EXCLUDE],
        'stops once long enough' => ['lookups' => ['h1' => [$i('gamma'), $i('long'), $i('alpha')]], 'exclude' => EXCLUDE],
        'long first: nothing merged' => ['lookups' => ['h1' => [$i('long'), $i('alpha')]], 'exclude' => EXCLUDE],
        'a later page without a description' => ['lookups' => ['h1' => [$i('beta'), $i('untitled'), $i('gamma')]], 'exclude' => EXCLUDE],
        'null filled from a later page' => ['lookups' => ['h1' => [$i('alpha'), $i('gamma')]], 'exclude' => ['q', 'w']],
        'missing pages skipped' => ['lookups' => ['h1' => [$i('false'), $i('empty'), $i('alpha')], 'h2' => [$i('empty')]], 'exclude' => EXCLUDE],
        'a page of excluded fields only, later' => ['lookups' => ['h1' => [$i('beta'), $i('excluded')]], 'exclude' => EXCLUDE],
        'nothing excluded' => ['lookups' => ['h1' => [$i('alpha'), $i('spaces')]], 'exclude' => []],
        'numeric exclusions' => ['lookups' => ['h1' => [$i('alpha'), $i('numeric')]], 'exclude' => ['5', 12, 'q']],
        'the description excluded' => ['lookups' => ['h1' => [$i('beta'), $i('gamma')]], 'exclude' => ['t', 'w']],
        'offset 0 and non-int offsets skipped' => ['lookups' => ['h1' => [
            ['m', 'k', INDEX, 0, 0], ['m', 'k', INDEX, 0, (string)$at('beta')[0]],
            ['m', 'k', INDEX, null, $at('beta')[0]], $i('gamma')]], 'exclude' => EXCLUDE],
        'generation -1 is the current one' => ['lookups' => ['h1' => [['m', 'k', INDEX, -1, $at('spaces')[0]]]], 'exclude' => EXCLUDE],
        'an int index name' => ['lookups' => ['h1' => [$i('beta', 1700000000)]], 'exclude' => EXCLUDE],
        'references kept' => ['lookups' => ['h1' => [$i('shared'), $i('alpha')]], 'exclude' => EXCLUDE],
        'several lookups, int and string keys' => ['lookups' => [7 => [$i('gamma')], 'h' => [$i('beta')], '9' => [$i('spaces')]], 'exclude' => EXCLUDE],
        'pairs looked up' => ['lookups' => ['h1' => [['info:one', INDEX], ['info:none', INDEX], $i('gamma')]],
            'exclude' => EXCLUDE, 'found' => ['info:one' => $at('beta')]],
        'pairs whose offsets are not ints skipped' => ['lookups' => ['h1' => [['info:str', INDEX], ['info:one', 1700000000], $i('beta')]],
            'exclude' => EXCLUDE, 'found' => ['info:str' => [(string)$at('gamma')[0], 0], 'info:one' => $at('gamma')]],
        'a reference description' => ['lookups' => ['h1' => [$i('tied')]], 'exclude' => EXCLUDE],
        'a URL lookup' => ['lookups' => ['h1' => ['http://a/', INDEX], 'h2' => [$i('gamma')]],
            'exclude' => EXCLUDE, 'found' => ['http://a/' => $at('alpha')]],
        'a URL lookup of an empty page' => ['lookups' => ['h1' => ['https://e/', INDEX]],
            'exclude' => EXCLUDE, 'found' => ['https://e/' => $at('empty')]],
        'a URL not found: false' => ['lookups' => ['h1' => [$i('beta')], 'h2' => ['http://nowhere/', INDEX]], 'exclude' => EXCLUDE],
        'formatted' => ['lookups' => ['h1' => [$i('alpha'), $i('beta')], 'h2' => [$i('gamma')]],
            'exclude' => EXCLUDE, 'format_words' => ['first', 'words'], 'length' => 50],
        'not formatted at length 0' => ['lookups' => ['h1' => [$i('alpha')]], 'exclude' => EXCLUDE,
            'format_words' => ['first'], 'length' => 0],
        'no lookups' => ['lookups' => [], 'exclude' => EXCLUDE, 'format_words' => ['x'], 'length' => 10],
        // Yioop warns or throws below: the native function declines.
        'first page without a description (strlen warns)' => ['lookups' => ['h1' => [$i('untitled'), $i('beta')]], 'exclude' => EXCLUDE],
        'a null first description' => ['lookups' => ['h1' => [$i('nulldesc')]], 'exclude' => EXCLUDE],
        'an int description' => ['lookups' => ['h1' => [$i('intdesc')]], 'exclude' => EXCLUDE],
        'an unknown index' => ['lookups' => ['h1' => [$i('beta', 'nope')]], 'exclude' => EXCLUDE],
        'strings as items' => ['lookups' => ['h1' => ['abc', 'def']], 'exclude' => EXCLUDE],
        'a page that is not an array' => ['lookups' => ['h1' => [$i('scalar'), $i('beta')]], 'exclude' => EXCLUDE],
        'an item missing an entry' => ['lookups' => ['h1' => [['m', 'k', INDEX, 0]]], 'exclude' => EXCLUDE],
        // Last: the file changes under the cache.
        'a record damaged underneath' => ['damage' => 'alpha', 'lookups' => ['h1' => [$i('alpha'), $i('beta')]], 'exclude' => EXCLUDE],
    ];
}
