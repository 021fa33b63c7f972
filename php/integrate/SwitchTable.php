<?php
/**
 * The Yioop methods the integration tool switches to native functions,
 * described once, as data: applying, --check, --revert and the
 * table-driven tests (tests/yioop/IntegrateTableTest.php) all follow from it.
 * Switching one more method is one line under its class; one more class
 * is one more entry, in whichever Yioop file declares it.
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

use LogicException;

/** One switched method, as the table describes it. */
final class SwitchedMethod
{
    /**
     * @param string[] $when the guard's conditions besides the extension
     * @param array<string, string> $reads other methods of the class that
     *     the native code reproduces => their token hashes
     */
    public function __construct(
        public readonly string $file,
        public readonly string $namespace,
        public readonly string $class,
        public readonly string $method,
        public readonly string $hash,
        public readonly string $form,
        public readonly string $native,
        public readonly array $when,
        public readonly array $reads = [])
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
     *       method's guard, after the class's; and optionally 'native'
     *       (this method's own namespace of native functions) and
     *       'reads' (more methods its native code reproduces, as below)],
     *   'reads' => method => token hash, for the class's other methods
     *       that the switched ones call (directly or not) and the native
     *       code therefore reproduces; optional,
     * ]. A method whose hash differs stays on Yioop's PHP, and so does
     * every method of a class whose 'reads' are not all Yioop's (and a
     * method whose own 'reads' are not).
     */
    public const CLASSES = [
        'IndexShard' => [
            'file' => 'src/library/IndexShard.php',
            'namespace' => 'seekquarry\\yioop\\library',
            'native' => 'yioop_codec\\shard',
            // A subclass may override what Yioop's methods call: its
            // objects stay on Yioop's PHP.
            'when' => ['static::class === self::class'],
            'reads' => [
                'packAuxiliaryDocumentKeys' => 'a7c7cd05e4b35aa4',
                'unpackAuxiliaryDocumentKeys' => '57cea1c95a16f760',
                'packValues' => '4e6a9fefa573359b',
                'unpackValues' => 'afa29ce2c81f4b92',
                'getWordString' => '3031397e7afc8202',
                'numDocsOrLinks' => 'a42ded8251f35b82',
                'makeItem' => 'a8e3b3b401bb3fc6',
                'weightedCount' => 'df16f6abf26d52d2',
                'computeProximity' => '10a07d0f74c88bf3',
                'docStats' => '95af2c3934d2a020',
                'binarySearchPostingOffsetDocOffset' => '3c3fc0f147c82488',
                'gallopPostingOffsetDocOffset' => '9b4137ef7bdf1c05',
                'getShardHeader' => '8095c8d05520c304',
                'packDoclenNum' => '81d419e5b0a2aec6',
                'getWordInfoFromString' => '72b5efc4a904a278',
                'headerToShardFields' => '77dd50668339b012',
                // Reproduced by the native WordIterator::findDocsWithWord,
                // which checks that this class is switched.
                'getPostingsSlice' => '68f7bc30ef4027e4',
            ],
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
        'WebArchive' => [
            'file' => 'src/library/WebArchive.php',
            'namespace' => 'seekquarry\\yioop\\library',
            'native' => 'yioop_codec\\archive',
            // The native reads reproduce WebArchive's own open() and
            // close(), which a subclass may override.
            'when' => ['static::class === self::class'],
            'reads' => [
                'open' => '7464db46f121e5ff',
                'close' => '0fa9f8699488c3ad',
            ],
            'methods' => [
                'getObjects' => ['b305076897940cae', 'declines'],
                // Calls seekEndObjects, writeInfoBlock and the file
                // functions through PHP; compresses with GzipCompressor's
                // gzencode($s, 9), natively.
                'addObjects' => ['7e821b05def00915', 'declines_or_void'],
            ],
        ],
        // A search reads the summaries it shows or groups (about 200 a
        // page) through these two getPage methods; the native
        // nonNetworkGetCrawlItems reads pages natively only where both are
        // switched, so only where they are Yioop's code.
        'WebArchiveBundle' => [
            'file' => 'src/library/WebArchiveBundle.php',
            'namespace' => 'seekquarry\\yioop\\library',
            'native' => 'yioop_codec\\archive',
            'when' => ['static::class === self::class'],
            // The native getPage reads a partition getPartition has loaded
            // already; that the partition's open() and getObjects are
            // Yioop's, switched, it checks at run time.
            'reads' => [
                'getPartition' => '10c25c26681ef540',
            ],
            'methods' => [
                'getPage' => ['1a8905729d057292', 'declines'],
            ],
        ],
        'IndexArchiveBundle' => [
            'file' => 'src/library/IndexArchiveBundle.php',
            'namespace' => 'seekquarry\\yioop\\library',
            'native' => 'yioop_codec\\index_bundle',
            'when' => ['static::class === self::class'],
            // Reproduced by the native WordIterator::findDocsWithWord,
            // which checks that getPage is switched.
            'reads' => [
                'setCurrentShard' => 'a80d50f87549c777',
                'getCurrentShard' => '83bf32928100be7c',
            ],
            'methods' => [
                'getPage' => ['3a8db892fa6f63f3', 'declines'],
            ],
        ],
        // Its look-ups read getWordInfoTier, addAuxInfoRecords,
        // addLookedUpEntry, getDictSubstring and readBlockDictAtOffset as
        // Yioop 2021 writes them (src/index/dictionary/).
        // The discount look-up a word iterator makes per posting. No
        // class-wide static::class condition: its static cache is shared
        // with subclasses, so the native function, given static::class,
        // reads that cache and declines for any other class.
        'IndexManager' => [
            'file' => 'src/library/IndexManager.php',
            'namespace' => 'seekquarry\\yioop\\library',
            'native' => 'yioop_codec\\index_manager',
            'when' => [],
            // Where an index is loaded already, as the native code reads it.
            'reads' => [
                'getIndex' => '469c3d0163f908df',
            ],
            'methods' => [
                'discountedNumDocsTerm' => ['234016a264bdb74d', 'declines_static'],
            ],
        ],
        // The block of postings a search takes from one generation of a
        // word's list. Its callees in other classes are checked switched
        // at run time (their 'reads' hold what it reproduces of them).
        'WordIterator' => [
            'file' => 'src/library/index_bundle_iterators/WordIterator.php',
            'namespace' => 'seekquarry\\yioop\\library\\index_bundle_iterators',
            'native' => 'yioop_codec\\word_iterator',
            'when' => ['static::class === self::class'],
            'methods' => [
                'findDocsWithWord' => ['936b279f82072c01', 'declines'],
            ],
        ],
        'IndexDictionary' => [
            'file' => 'src/library/IndexDictionary.php',
            'namespace' => 'seekquarry\\yioop\\library',
            'native' => 'yioop_codec\\dictionary',
            'when' => ['static::class === self::class'],
            'reads' => [
                'decodeAuxRecord' => 'd0e04800a5a63b43',
                'getWordInfoTier' => '6b87654fad42b8cb',
                'addAuxInfoRecords' => '28ee3bdef2a3c882',
                'formatWordInfo' => '3ec608d7d1093a9a',
                'addLookedUpEntry' => 'b4d8509ec3a2e761',
                'getDictSubstring' => 'e26483856a07c50f',
                'readBlockDictAtOffset' => 'acec9404be09d4bc',
            ],
            'methods' => [
                'getWordInfo' => ['51b3c3ff9d1cb280', 'declines'],
                // The queue server's dictionary (bench/crawl): each
                // generation's words added as tier-0 files, and the tiers
                // merged up.
                'addShardDictionary' => ['102d60dddeb75a5e', 'declines',
                    'reads' => [
                        'extractPrefixRecord' => '68b90ebf91e92a9f',
                    ]],
                'mergeTierFiles' => ['7dfb4bf79435f2ce', 'declines_void',
                    'reads' => [
                        'combineDictionaryRecord' => '57d289aa6a3110c8',
                        'makePrefixRecord' => 'b1635a5d0c411226',
                    ]],
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
            'reads' => [
                'getHashBitPositionArray' => '2986172b74c2eca3',
                'getBit' => '1f4c2b611fa14015',
            ],
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
            'reads' => [
                'cons' => 'e306f10a1cf4fd35',
                'm' => 'faa202118b99a671',
                'vowelinstem' => '58f117d39087fcef',
                'doublec' => 'edb3d85bdf494fba',
                'cvc' => '147bbc2be92dcf89',
                'ends' => 'db5f457767514545',
                'setto' => '9adbd24d095aae49',
                'r' => '79a21193ee8d1605',
                'step1ab' => 'ac2e219c89b10156',
                'step1c' => 'e3da470229e82e04',
                'step2' => '5ee21a664e7f81cb',
                'step3' => '78b811e63e4815b7',
                'step4' => '9a90c8dedf835caa',
                'step5' => 'ba6fa04f028c4964',
            ],
            'methods' => [
                'stem' => ['419ac8db60ea706b', 'declines_static'],
                // Part-of-speech tagging and the question-answer triplets
                // of every sentence the queue server indexes (bench/crawl).
                // The triplets' questions are stemmed: their native code
                // checks at run time that stem is switched too.
                'tagTokenizePartOfSpeech' => ['d794d0c0247b7fbd',
                    'declines_static', 'native' => 'yioop_codec\\triplets_en'],
                'extractTripletsPhrases' => ['551d5067e442b962',
                    'declines_static', 'native' => 'yioop_codec\\triplets_en',
                    'reads' => [
                        'compressSentence' => '23ad23ada7345666',
                        'tagTokenizePartOfSpeech' => 'd794d0c0247b7fbd',
                        'parseTypeList' => '7a4f32979ff75803',
                        'parseAdjective' => 'cc4385fb41cd60a0',
                        'parseDeterminer' => 'a7c7d1655793383e',
                        'parseNoun' => '3549d204f3f754d6',
                        'parseVerb' => '6eee1dfb88293a57',
                        'parsePrepositionalPhrases' => '0dbfb05891e6aaa7',
                        'parseNounPhrase' => '1e64c71aca18dcff',
                        'parseVerbPhrase' => '50f102c129c60f86',
                        'parseWholePhrase' => '565de84988745bfd',
                        'parseAuxClause' => 'e594abdd69efef4c',
                        'extractTripletsParseTree' => '240096f1aea26f8c',
                        'extractDeepestSpeechPartPhrase' => 'b06d9969bf1d58b5',
                        'extractObjectParseTree' => '461f5b52747bce2c',
                        'extractPredicateParseTree' => '286d8eb144e995c8',
                        'extractSubjectParseTree' => 'e798415b4b8cb090',
                        'rearrangeTripletsByType' => '4548b9f718411a27',
                        'extractTripletByType' => '3859222b85ec354a',
                        'stemPhrase' => '5079c932eabe3771',
                    ]],
                // Its replacement list is read from its own statics.
                'canonicalizePunctuatedTerms' => ['07114d794cd425d4',
                    'declines_void', 'native' => 'yioop_codec\\canonical_en'],
            ],
        ],
        // PhraseParser's look-ups of the n-word-gram filters it has loaded.
        // No class-wide static::class condition: Yioop calls getSnippets
        // on Model's subclasses (PhraseModel, ...), where it would never
        // switch. It calls nothing on $this and reads only self::
        // constants, which the native reads from the calling method's
        // class (Model), as it does the method's statics (shared with
        // subclasses since PHP 8.1); so no 'reads'.
        'Model' => [
            'file' => 'src/models/Model.php',
            'namespace' => 'seekquarry\\yioop\\models',
            'native' => 'yioop_codec\\snippets',
            'when' => [],
            'methods' => [
                'getSnippets' => ['6f405ff5e81d8aad', 'declines'],
            ],
        ],
        // A search page's summaries, read and merged. No class-wide
        // static::class condition: Yioop calls it on PhraseModel. It calls
        // formatSinglePageResult and IndexManager::getIndex through PHP.
        'ParallelModel' => [
            'file' => 'src/models/ParallelModel.php',
            'namespace' => 'seekquarry\\yioop\\models',
            'native' => 'yioop_codec\\crawl_items',
            'when' => [],
            'methods' => [
                'nonNetworkGetCrawlItems' => ['57edaa0187506844', 'declines'],
            ],
        ],
        // PhraseParser's passes over every page the queue server indexes
        // (bench/crawl). The native code also relies on the en_US
        // Tokenizer's stem and NWordGrams::ngramsContains, in other files:
        // it checks at run time that both are switched (src/php/runtime/switched.rs).
        // The search filter a word iterator asks about every posting's
        // host: answers the model remembers are read natively.
        'SearchverticalsModel' => [
            'file' => 'src/models/SearchverticalsModel.php',
            'namespace' => 'seekquarry\\yioop\\models',
            'native' => 'yioop_codec\\search_filter',
            'when' => ['static::class === self::class'],
            'methods' => [
                'isFiltered' => ['cab0f0a714998a60', 'declines'],
            ],
        ],
        'PhraseParser' => [
            'file' => 'src/library/PhraseParser.php',
            'namespace' => 'seekquarry\\yioop\\library',
            'native' => 'yioop_codec\\phrase',
            'when' => ['static::class === self::class'],
            'reads' => [
                'segmentSegment' => 'f76862dfc00a2a20',
                'charGramTerms' => '66a401129e5f0a8d',
                'stemTerms' => '6dcc7c50dbced455',
                'stemTermsK' => '6d5c4898b350cf4e',
                'getTokenizer' => 'ac8677134c886972',
            ],
            'methods' => [
                'stemCharGramSegment' => ['869a18e731405482', 'declines_static'],
                'extractTermSentencePositionsTags' => ['082c6651e49ef036',
                    'declines_static'],
                // Kept for a repeated text: its result is a function of the
                // text, the locale and the state the native hashes, where
                // everything it calls is Yioop's.
                'extractPhrasesInLists' => ['289b7774250bd799', 'declines_static',
                    'reads' => [
                        'canonicalizePunctuatedTerms' => '159c1cc3e76f9f47',
                        'hyphenateEntities' => 'bc5d6936b8a731ce',
                        'extractTermSentencePositionsTags' => '082c6651e49ef036',
                        'stemCharGramSegment' => '869a18e731405482',
                    ]],
                'hyphenateEntities' => ['bc5d6936b8a731ce',
                    'declines_void_static'],
                // Reads its own statics; its unsafe terms are Yioop's.
                'computeSafeSearchScore' => ['fe7e842d66bce4fa',
                    'declines_static'],
            ],
        ],
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
     * tests use it to run the tool on synthetic files, and $reads (class
     * => its 'reads') the table's 'reads'.
     * @param array<string, string> $hashes
     * @param array<string, array<string, string>>|null $reads
     * @return array<string, SwitchedMethod[]>
     */
    public static function byFile(array $hashes = [],
        ?array $reads = null): array
    {
        $files = [];
        foreach (self::CLASSES as $class => $entry) {
            foreach ($entry['methods'] as $method => $row) {
                $class_reads = $reads === null ? $entry['reads'] ?? []
                    : $reads[$class] ?? [];
                $native = ($row['native'] ?? $entry['native']) . '\\'
                    . $method;
                // The row's own conditions: its positional entries after
                // the hash and the form.
                $conditions = array_values(array_filter(array_slice($row, 2),
                    'is_int', ARRAY_FILTER_USE_KEY));
                $files[$entry['file']][] = new SwitchedMethod($entry['file'],
                    $entry['namespace'], $class, $method,
                    $hashes["$class::$method"] ?? $hashes[$method] ?? $row[0],
                    $row[1], $native, array_merge($entry['when'], $conditions),
                    self::reads($class, array_merge($class_reads,
                    $row['reads'] ?? []), $hashes));
            }
        }
        return $files;
    }

    /** $class's 'reads', with the hashes $hashes replaces. */
    private static function reads(string $class, array $reads,
        array $hashes): array
    {
        foreach ($reads as $method => $hash) {
            $reads[$method] = $hashes["$class::$method"] ?? $hash;
        }
        return $reads;
    }
}
