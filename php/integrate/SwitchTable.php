<?php
/**
 * The Yioop methods the integration tool switches to native functions,
 * described once, as data: applying, --check, --revert and the
 * table-driven tests (tests/IntegrateTableTest.php) all follow from it.
 * Switching one more method is one line under its class; one more class
 * is one more entry, in whichever Yioop file declares it.
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

use LogicException;

/** One switched method, as the table describes it. */
final class SwitchedMethod
{
    /** @param string[] $when the guard's conditions besides the extension */
    public function __construct(
        public readonly string $file,
        public readonly string $namespace,
        public readonly string $class,
        public readonly string $method,
        public readonly string $hash,
        public readonly string $form,
        public readonly string $native,
        public readonly array $when)
    {
        if (!isset(Guards::FORMS[$form])) {
            throw new LogicException("$class::$method: no guard form $form");
        }
    }
}

final class SwitchTable
{
    private const DISK = '$this->read_only_from_disk';

    /**
     * Yioop class => [
     *   'file' => where Yioop declares it, inside a checkout,
     *   'namespace' => its namespace,
     *   'native' => namespace of the native functions: method NAME calls
     *       \NATIVE\NAME($this, <the method's parameters>),
     *   'when' => conditions every guard of the class checks, PHP
     *       expressions such as 'static::class === self::class',
     *   'methods' => method => [token hash of Yioop's declaration
     *       (Tokens::hash, from its first modifier to its closing brace),
     *       guard form (a key of Guards::FORMS), conditions of this
     *       method's guard, after the class's],
     * ]. A method whose hash differs stays on Yioop's PHP.
     */
    public const CLASSES = [
        'IndexShard' => [
            'file' => 'src/library/IndexShard.php',
            'namespace' => 'seekquarry\\yioop\\library',
            'native' => 'yioop_codec\\shard',
            // A subclass may override what Yioop's methods call: its
            // objects stay on Yioop's PHP.
            'when' => ['static::class === self::class'],
            'methods' => [
                'readBlockShardAtOffset' => ['5338f614b2e2fa98', 'declines'],
                'getShardSubstring' => ['b518e71bd9ff1a9a', 'declines'],
                'getShardWord' => ['88f792737892fad5', 'declines'],
                'getWordDocsWord' => ['137ca9ac3c2a28c0', 'declines',
                    self::DISK],
                'getWordDocsSubstring' => ['f95dc39c0f3e7ec5', 'declines',
                    self::DISK],
                'getDocInfoSubstring' => ['6a4d9466ee87eaa7', 'declines',
                    self::DISK],
                'getDocIndexOfPostingAtOffset' => ['d9933b3a011e94d7',
                    'declines', self::DISK],
                'getPostingAtOffset' => ['ee0743f3b4deef80', 'declines',
                    self::DISK],
                'nextPostingOffsetDocOffset' => ['df3ce0b443421ecb',
                    'declines', self::DISK],
                // The native getWordInfo reads the header itself, as
                // getShardHeader() would.
                'getWordInfo' => ['e0cbd8fe1e7aa7ec', 'declines', self::DISK,
                    '$raw'],
                'addDocumentWords' => ['ea656ec8cbaef6c2', 'declines'],
                'postingsSliceAscending' => ['e2900ac5d38b15d2', 'declines',
                    self::DISK],
                'postingsSliceDescending' => ['3b864ed1a4b5e798', 'declines',
                    self::DISK],
                'mergeWordPostingsToString' => ['c6e204cf13489a4a',
                    'declines_void'],
                'prepareWordsAndPrefixes' => ['0ea0a033c47ef861',
                    'declines_void'],
                'packWords' => ['e5cbb7439352e844', 'declines_void'],
                'outputPostingLists' => ['aac165bed3ce053d',
                    'declines_void'],
            ],
        ],
        // PhraseParser asks the n-word-gram filters for every candidate
        // phrase while the queue server indexes (bench/crawl).
        'BloomFilterFile' => [
            'file' => 'src/library/BloomFilterFile.php',
            'namespace' => 'seekquarry\\yioop\\library',
            'native' => 'yioop_codec\\bloom',
            // A subclass may override getHashBitPositionArray or getBit.
            'when' => ['static::class === self::class'],
            'methods' => [
                'contains' => ['88fe4c13f6f16268', 'declines'],
            ],
        ],
        // English stemming of every term the queue server indexes.
        'Tokenizer' => [
            'file' => 'src/locale/en_US/resources/Tokenizer.php',
            'namespace' => 'seekquarry\\yioop\\locale\\en_US\\resources',
            'native' => 'yioop_codec\\stem_en',
            'when' => ['static::class === self::class'],
            'methods' => [
                'stem' => ['419ac8db60ea706b', 'declines_static'],
            ],
        ],
        // PhraseParser's look-ups of the n-word-gram filters it has loaded.
        'NWordGrams' => [
            'file' => 'src/library/NWordGrams.php',
            'namespace' => 'seekquarry\\yioop\\library',
            'native' => 'yioop_codec\\ngrams',
            'when' => ['static::class === self::class'],
            'methods' => [
                'ngramsContains' => ['acef6b30294f55c5', 'declines_static'],
            ],
        ],
    ];

    /**
     * The table's methods grouped by file, in table order. $hashes
     * (method or Class::method => token hash) replaces the table's hashes;
     * tests use it to run the tool on synthetic files.
     * @param array<string, string> $hashes
     * @return array<string, SwitchedMethod[]>
     */
    public static function byFile(array $hashes = []): array
    {
        $files = [];
        foreach (self::CLASSES as $class => $entry) {
            foreach ($entry['methods'] as $method => $row) {
                $files[$entry['file']][] = new SwitchedMethod($entry['file'],
                    $entry['namespace'], $class, $method,
                    $hashes["$class::$method"] ?? $hashes[$method] ?? $row[0],
                    $row[1], $entry['native'] . '\\' . $method,
                    array_merge($entry['when'], array_slice($row, 2)));
            }
        }
        return $files;
    }
}
