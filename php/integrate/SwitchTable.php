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
     * The native slices take int offsets and lengths only; any other type
     * keeps PHP's own arithmetic on it.
     */
    private const DISK_INT_SLICE = [self::DISK, '\\is_int($start_offset)',
        '\\is_int($next_offset)', '\\is_int($last_offset)', '\\is_int($len)'];

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
            'when' => [],
            'methods' => [
                'readBlockShardAtOffset' => ['5338f614b2e2fa98', 'returns'],
                'getShardSubstring' => ['b518e71bd9ff1a9a', 'returns'],
                'getShardWord' => ['88f792737892fad5', 'returns'],
                'getWordDocsWord' => ['137ca9ac3c2a28c0', 'returns',
                    self::DISK],
                'getWordDocsSubstring' => ['f95dc39c0f3e7ec5', 'returns',
                    self::DISK],
                'getDocInfoSubstring' => ['6a4d9466ee87eaa7', 'returns',
                    self::DISK],
                'getDocIndexOfPostingAtOffset' => ['d9933b3a011e94d7',
                    'returns', self::DISK],
                'getPostingAtOffset' => ['ee0743f3b4deef80', 'returns',
                    self::DISK],
                'nextPostingOffsetDocOffset' => ['df3ce0b443421ecb',
                    'returns', self::DISK],
                // The native getWordInfo reads the header itself, as
                // getShardHeader() would.
                'getWordInfo' => ['e0cbd8fe1e7aa7ec', 'returns', self::DISK,
                    '$raw'],
                'addDocumentWords' => ['ea656ec8cbaef6c2', 'declines'],
                'postingsSliceAscending' => ['e2900ac5d38b15d2', 'returns',
                    ...self::DISK_INT_SLICE],
                'postingsSliceDescending' => ['3b864ed1a4b5e798', 'returns',
                    ...self::DISK_INT_SLICE],
                'mergeWordPostingsToString' => ['c6e204cf13489a4a',
                    'declines_void'],
                'prepareWordsAndPrefixes' => ['0ea0a033c47ef861',
                    'declines_void'],
                'packWords' => ['e5cbb7439352e844', 'declines_void'],
                'outputPostingLists' => ['aac165bed3ce053d',
                    'declines_void'],
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
