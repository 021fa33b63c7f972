<?php
/**
 * Stubs for the yioop extension (yioop_codec.so): parts of the Yioop search
 * engine run natively, byte for byte as Yioop's PHP runs them: the posting
 * codec of src/library/Utility.php, the index path (IndexShard,
 * IndexDictionary, WebArchive, WebArchiveBundle, IndexArchiveBundle,
 * BloomFilterFile), the text pipeline (PhraseParser, NWordGrams, the
 * English Tokenizer), Model::getSnippets and
 * ParallelModel::nonNetworkGetCrawlItems.
 * For IDEs and static analysers; never include this file at run time.
 *
 * This file is the one place where each function's contract is written:
 * its docblock says what it returns, what it declines and which of Yioop's
 * quirks it keeps. tests/extension/StubTest.php holds every registered
 * function to a docblock here and to these signatures. How the functions
 * do it natively is in docs/functions.md; how they are held to Yioop's own
 * results, in docs/byte-for-byte.md and docs/bad-input.md.
 *
 * The codec functions (global namespace) reproduce Yioop's own results,
 * damaged input included. The types below are what Yioop passes; other
 * scalars are converted as Yioop's PHP would convert them, and arrays or
 * objects where Yioop's PHP would throw get the same TypeError. They raise
 * no warning where Yioop's PHP warns, and throw a ValueError only where
 * Yioop's PHP would never return.
 *
 * The functions in yioop_codec\<class> namespaces are the native halves of
 * switched Yioop methods: php/yioop-integrate.php gives each switched
 * method a first line that calls one. Each takes the object (or, for a
 * static method, the class it was called on, static::class) first and the
 * method's own parameters after it, and gives the method's result; or it
 * "declines": returns null (false where noted), having changed nothing
 * Yioop's PHP would see, and the method's own PHP runs instead and gives
 * Yioop's result, warnings and exceptions. Each declines for arguments or
 * properties of types Yioop does not pass or keep there, and wherever
 * Yioop's PHP would warn or throw; the lists below name the rest.
 *
 * INI settings (per directory or system-wide, read once per request):
 * - yioop.format: "2019" (default; the 2019 and 2021 lines) or "2015"
 *   (Yioop 3.x, which stores a position list's first delta plus one).
 * - yioop.opencl: "auto" (default), "on" or "off".
 * - yioop.opencl_min_length: the length (words) from which "auto" decodes
 *   on the OpenCL device.
 * - yioop.opencl_prefix_min_length: the length (elements) from which "auto"
 *   runs deDeltaList's prefix sum on the device.
 * - yioop.opencl_probe_timeout: seconds a new OpenCL context's probe may take.
 * - yioop.block_cache_size: bytes of IndexShard blocks one process keeps
 *   for every IndexShard object that reads the same file ("64M" default;
 *   php.ini's K, M and G; 0 keeps none).
 * - yioop.compress_threads: threads that compress the records of one
 *   WebArchive::addObjects: 1 (default: this thread only), a count up to
 *   64, or "auto" (the available cores, at most 4). Above 1, a fetcher
 *   upload's sites are also inflated ahead on one more thread once
 *   webdecode has decoded it, for the queue server's gzuncompress calls;
 *   and where the generation is full, the shard build Yioop runs before
 *   adding its records to a new partition starts a thread at the lowest
 *   priority that compresses them, as processIndexArchive and addObjects
 *   will make them, from the upload's sites (CrawlConstants' fields);
 *   addObjects keeps those whose text is, byte for byte, its own. And a
 *   shard build's summaries (a getObjects of 64 or more) have their phrase
 *   lists made ahead on one more thread (see extractPhrasesInLists).
 * - yioop.summary_cache_size: bytes of summary records (compressed, with
 *   their inflated text, or for nonNetworkGetCrawlItems the text of the
 *   fields it builds) kept in memory that every process of a server
 *   shares (php-fpm's workers, Apache's prefork children), so that a
 *   record read alone again, by any of them, is not inflated again ("64M"
 *   default; php.ini's K, M and G; 0 keeps none). Read once, when the
 *   module starts: php.ini or the server's command line, not a pool's
 *   php_admin_value.
 * - yioop.written_cache_size: bytes of the records WebArchive::addObjects
 *   wrote to the archive file it last wrote, kept by the process with the
 *   text each was compressed from, so that getObjects reading them back
 *   (the queue server's buildInvertedIndexShard, when a generation's shard
 *   is built) takes that text instead of inflating the record; only where
 *   the record's bytes read are still the bytes written ("128M" default;
 *   php.ini's K, M and G; 0 keeps none).
 */

namespace {
    /**
     * Packs a doc index and a position list into a Modified9 posting.
     *
     * @param int $doc_index index of the document in its shard
     * @param int[] $position_list positions of the term in the document
     * @param bool $delta store the positions as differences (any value is read
     *     by truthiness, as Yioop's if ($delta) reads it)
     * @return string the encoded posting. Yioop's quirks are kept: a first
     *     delta of 512 to 1023 with a doc index of 32768 to 262143 is folded
     *     with only 9 bits for the delta, and doc index 2^27 - 1 cannot
     *     round-trip (doc index + 1 carries the fold flag); null where it
     *     declines: a doc index or an encoded value that is a float but not
     *     an int of the int range (fractional, NAN, -INF; B8, B9 in
     *     docs/bad-input.md), which Yioop compares and adds as a float. A
     *     tree switched by php/yioop-integrate.php then runs Yioop's PHP,
     *     kept beside the forwarder; a direct caller gets null there.
     * @throws ValueError if a value reaches 2^62, where Yioop's encoder never returns
     */
    function packPosting(int $doc_index, array $position_list, bool $delta = true): ?string {}

    /**
     * Decodes the posting at $offset.
     *
     * @param string $posting a string of postings
     * @param int $offset where the posting starts; left after it (it may
     *     become a float if it overflows, as in PHP)
     * @param bool $dedelta undo the delta coding of the positions
     * @return array{0: int|null, 1: int[]} [doc index, positions]; the doc
     *     index is null when the posting decodes to nothing
     * @throws ValueError for a float offset that adding 4 cannot move (-INF,
     *     -1e300) on a word that starts a longer posting, where Yioop's
     *     nextPostString never returns
     */
    function unpackPosting(string $posting, int &$offset, bool $dedelta = true): array {}

    /**
     * Decodes one Modified9 word (only its low 32 bits matter).
     *
     * Continuation bits are ignored, a zero slot ends the word, and a word of
     * one 28-bit element keeps a zero, as in Yioop.
     *
     * @return int[] the word's elements
     */
    function unpackListModified9(int $encoded_list): array {}

    /**
     * Undoes a delta list in place: each element becomes the sum of it and
     * all before it. Sums past PHP_INT_MAX become floats, as in PHP. On an
     * array that is not a list, missing keys are read as null and appended,
     * as Yioop's index loop does.
     *
     * @param array<int, int|float> $delta_list
     */
    function deDeltaList(array &$delta_list): void {}

    /**
     * The doc index held in the first element of a Modified9 word.
     *
     * Unlike unpackListModified9(), bits above the low 32 of $encoded_list
     * count, as Yioop's shifts see them.
     */
    function docIndexModified9(int $encoded_list): int {}

    /**
     * The big-endian integer in a binary string, as (int)hexdec(bin2hex($str)).
     *
     * "" gives 0; a value past PHP_INT_MAX (8 bytes with the high bit set, or
     * more bytes) goes through a float and comes back as PHP's (int) of it,
     * low bits lost, as in Yioop.
     *
     * @return int|false false if $str is not a string
     */
    function unpackInt(mixed $str): int|false {}

    /**
     * The differences of adjacent elements: (a1, a2 - a1, a3 - a2, ...).
     *
     * Keys are ignored; differences that overflow become floats. A scalar
     * $list gives [], as Yioop (which warns).
     *
     * @param int[] $list
     * @return array<int, int|float>
     */
    function deltaList(array $list): array {}

    /**
     * Encodes positive integers below 2^28 as Modified9 words.
     *
     * Yioop's quirk is kept: the first element after a word break is counted
     * one bit wider than it is, which changes the packing of later words. 0,
     * negative and larger values are encoded as Yioop encodes them.
     *
     * Declines (returns null) on a float element that is not an int of the
     * int range (fractional, NAN, INF, -INF, -1e19; B9, B10 in
     * docs/bad-input.md) where Yioop's encoder compares and adds it as a
     * float: a tree switched by php/yioop-integrate.php then runs Yioop's
     * PHP, kept beside the forwarder. A direct caller gets null there.
     *
     * @param int[] $list
     * @return string|null null where it declines
     * @throws ValueError if a value reaches 2^62, where Yioop's encoder never returns
     */
    function encodeModified9(array $list): ?string {}

    /**
     * Decodes the Modified9 sequence at $offset and moves $offset past it.
     *
     * @return int[]
     * @throws ValueError for a float offset that adding 4 cannot move (-INF,
     *     -1e300) on a word that starts a longer posting, where Yioop's
     *     nextPostString never returns
     */
    function decodeModified9(string $input_string, int &$offset): array {}

    /**
     * The undecoded posting at $offset; $offset is moved past it. A posting
     * that does not start a sequence is skipped: "" and $offset + 4.
     *
     * Negative offsets count from the end of the string; offsets overflow
     * into floats; a cut last word is returned cut. $input_string is not
     * modified, despite the reference.
     *
     * @throws ValueError for a float offset that adding 4 cannot move (-INF,
     *     -1e300) on a word that starts a longer posting, where Yioop's
     *     nextPostString never returns
     */
    function nextPostString(string &$input_string, int &$offset): string {}

    /**
     * Re-encodes every posting with $add_offset added to its doc index.
     *
     * Doc indexes are unfolded the 2015 way on both lines, as Yioop's
     * function does; words Yioop cannot frame are dropped.
     *
     * Declines (returns null, $postings untouched) on a float $add_offset
     * that is not an int of the int range (7.9, NAN; B8 in
     * docs/bad-input.md), which Yioop adds as a float: a tree switched by
     * php/yioop-integrate.php then runs Yioop's PHP, kept beside the
     * forwarder. A direct caller gets null there.
     *
     * @param string $postings not modified, despite the reference
     * @return string|null null where it declines
     * @throws ValueError for a stored doc index of 2^62 or more, where
     *     Yioop's encoder never returns
     */
    function addDocIndexPostings(string &$postings, int $add_offset): ?string {}

    /**
     * Splits crawl-queue weight info into [weight, depth] when $crawl_order is
     * page importance ("ad"); otherwise [0, $weight_info].
     */
    function decodeQueueWeightInfo(mixed $weight_info, mixed $crawl_order): array {}

    /**
     * Packs weight (high 24 bits) and depth (low 8 bits) when $crawl_order is
     * page importance ("ad"); otherwise returns $depth.
     *
     * With page importance, where $weight or $depth is not an int, null,
     * bool or integral numeric string (arrays, other strings, floats, NAN,
     * INF: B6 in docs/bad-input.md), which Yioop compares with min()/max()
     * rather than converts, it calls
     * seekquarry\yioop\library\yioop_codec_php_encodeQueueWeightInfo with
     * the same arguments and returns its result (or lets its exception
     * through): a tree switched by php/yioop-integrate.php declares that
     * function as Yioop's PHP. Where it is not declared, such values are
     * converted as (int) does, or refused with TypeError.
     */
    function encodeQueueWeightInfo(mixed $weight, mixed $depth, mixed $crawl_order): mixed {}

    /**
     * Adds two weight infos' weights and keeps the smaller depth (Yioop's
     * callback for the crawl queue's weight adjustments).
     */
    function adjustWeightCallback(int $weight_info, int $adjustment): int {}

    /**
     * Not in Yioop: unpackPosting() in a loop, in one call. Decodes postings
     * from $offset while $offset < strlen($postings), at most $max_count of
     * them when it is not negative. The result equals that loop's, damaged
     * input included.
     *
     * @param int $offset left where the next call would start
     * @return array<int, array{0: int|null, 1: int[]}> [doc index, positions] pairs
     * @throws ValueError for a float offset that adding 4 cannot move (-INF,
     *     -1e300) on a word that starts a longer posting, where Yioop's
     *     nextPostString never returns
     * @throws ValueError for an offset so far before the string that over
     *     2^20 empty postings would come first, unless $max_count bounds them
     */
    function unpackPostings(string $postings, int &$offset, int $max_count = -1, bool $dedelta = true): array {}
}

namespace yioop_codec {
    /**
     * Benchmark floor, not in Yioop: unpackPosting()'s framing and a
     * posting-shaped result ([0, six ints]) without decoding.
     */
    function floorPosting(string $posting, int &$offset, bool $dedelta = true): array {}

    /**
     * Benchmark floor, not in Yioop: unpackPostings()'s framing loop with
     * floorPosting()'s result for each posting, with unpackPostings()'s
     * checks on the offset.
     */
    function floorPostings(string $postings, int &$offset, int $max_count = -1): array {}

    /**
     * Benchmark floor, not in Yioop: the list [1, ..., $length], the shape
     * of unpackListModified9()'s result.
     */
    function floorList(int $length): array {}
}

namespace yioop_codec\shard {
    /*
     * Yioop's IndexShard methods, natively, for an IndexShard itself (not a
     * subclass). Each takes the IndexShard object first, then the method's
     * own parameters, and returns what the method returns; they read the
     * object's own fields (filename, fh, file_len, the header fields;
     * references followed, as PHP reads properties) and set fh, file_len and
     * the header fields as Yioop does. An object's file is opened as Yioop
     * opens it (PHP's own file_exists, fopen and filesize), its handle kept
     * in $this->fh.
     *
     * Each returns null instead ("declines"), having changed nothing
     * Yioop's PHP would see, for:
     * - an argument that is not an int where Yioop does arithmetic on it
     *   (a numeric string, a float, null, a bool);
     * - a property that is not what Yioop keeps there (an int or null
     *   counter, a string file name, a stream in $this->fh), or an
     *   undefined one;
     * - a configuration constant the slices read (TITLE_WEIGHT,
     *   DESCRIPTION_WEIGHT, LINK_WEIGHT, PRECISION, AVG_LINKS_PER_PAGE,
     *   MAX_GENERATIONS, AD_HOC_TITLE_LENGTH) that is not an int, a float
     *   (the weights) or a numeric string (a stock install's "4" is read as
     *   Yioop's arithmetic reads it);
     * - anything on which Yioop's PHP warns or throws: a word read off a
     *   block's end, a damaged, truncated or shrunk file, a division by
     *   zero before the header is read, int arithmetic that overflows into
     *   a float.
     * Before it declines, the object's native block cache is written into
     * $this->blocks and $this->blocks_words, as Yioop's own reads would have
     * left them; from then on that object is read by Yioop's PHP. Offsets
     * before or past the file read as Yioop reads them (false, ""); a
     * missing file reads false and leaves file_len unset. Only where
     * Yioop's search would never return (damaged postings) is there a
     * ValueError.
     */

    /**
     * IndexShard::readBlockShardAtOffset: up to 4 KiB from $bytes, or false;
     * with $cache, the block is kept as $this->blocks keeps it (emptied
     * past 4,096 blocks, as Yioop empties it).
     */
    function readBlockShardAtOffset(object $shard, mixed $bytes, bool $cache = true): string|false|null {}

    /**
     * Not a Yioop method: what this process's shared block cache (the
     * blocks every IndexShard object of one file version reads,
     * yioop.block_cache_size) did since the process started: hits and
     * misses (blocks read from disk), start_overs (the cache reached its
     * limit and was emptied), version_resets (more than 4,096 file versions
     * at once), held_bytes and limit_bytes. For operators sizing the cache.
     */
    function blockCacheStats(): array {}

    /** IndexShard::getShardSubstring: $len bytes of the file from $offset. */
    function getShardSubstring(object $shard, mixed $offset, mixed $len, bool $cache = true): ?string {}

    /** IndexShard::getShardWord: the 32-bit word at $offset; false past the file. */
    function getShardWord(object $shard, mixed $offset): int|false|null {}

    /** IndexShard::getWordDocsWord: getShardWord() within the posting lists. */
    function getWordDocsWord(object $shard, mixed $offset): int|false|null {}

    /** IndexShard::getWordDocsSubstring: bytes of the posting lists ($len <= 0: all). */
    function getWordDocsSubstring(object $shard, mixed $offset = 0, mixed $len = 0, bool $cache = true): ?string {}

    /** IndexShard::getDocInfoSubstring: bytes of the document records ($len <= 0: all). */
    function getDocInfoSubstring(object $shard, mixed $offset = 0, mixed $len = 0, bool $cache = false): ?string {}

    /** IndexShard::getDocIndexOfPostingAtOffset: doc index of the posting holding word $current. */
    function getDocIndexOfPostingAtOffset(object $shard, mixed $current): ?int {}

    /**
     * IndexShard::getPostingAtOffset: the posting holding word $current.
     *
     * @param int $posting_start set to its first word
     * @param int $posting_end set to its last word
     */
    function getPostingAtOffset(object $shard, mixed $current, mixed &$posting_start, mixed &$posting_end): ?string {}

    /**
     * IndexShard::nextPostingOffsetDocOffset: galloping search for the first
     * posting reaching $doc_offset.
     *
     * @return array{0: int, 1: int}|false|null [posting byte offset, doc offset]
     */
    function nextPostingOffsetDocOffset(object $shard, mixed $start_offset, mixed $end_offset, mixed $doc_offset, mixed $direction = 1): array|false|null {}

    /**
     * IndexShard::getWordInfo for a raw word id, loading the header first as
     * getShardHeader() does.
     *
     * @return array{0: int, 1: int, 2: int, 3: string}|false|null [first offset, last offset, count, id]
     */
    function getWordInfo(object $shard, mixed $word_id, bool $raw = false): array|false|null {}

    /**
     * IndexShard::postingsSliceAscending: up to $len documents' postings
     * from $next_offset on, each made into makeItem's item array (keyed by
     * doc id), scored with Yioop's configuration constants as they are at
     * the call (ints, floats for the weights, or numeric strings, as Yioop's
     * installer writes them). The items are Yioop's: key order, value types
     * (DOC_RANK the string of PHP's number_format, RELEVANCE and SCORE
     * floats or ints as PHP's arithmetic leaves them, the int 0 for a zero
     * packed weight), doc ids that are decimal integers as int keys.
     *
     * @param int $next_offset set to where the next slice starts
     */
    function postingsSliceAscending(object $shard, mixed $start_offset, mixed &$next_offset, mixed $last_offset, mixed $len): ?array {}

    /**
     * IndexShard::postingsSliceDescending: postingsSliceAscending() walking
     * back from $next_offset towards $start_offset.
     *
     * @param int $next_offset set to where the next slice starts
     */
    function postingsSliceDescending(object $shard, mixed $start_offset, mixed &$next_offset, mixed $last_offset, mixed $len): ?array {}

    /**
     * IndexShard::addDocumentWords: adds one document's words to the
     * shard's in-memory postings, updating its properties as Yioop's loop
     * does (each property changed with PHP's own .=, ++ and +=, so every
     * value is the one Yioop's statements leave). The auxiliary keys are
     * packed natively as Yioop's packAuxiliaryDocumentKeys packs them where
     * the shard's class is Yioop's IndexShard, its MAX_AUX_DOC_KEYS an int,
     * the description scores' keys ints within 2^62 and every weight and
     * rank an int or float within 2^40; otherwise the shard's own
     * packAuxiliaryDocumentKeys is called.
     * Returns true when done, false as Yioop does for doc keys (with the
     * auxiliary keys) that are not whole DOC_KEY_LEN records; null, having
     * changed nothing, for input outside Yioop's usual types (a position
     * list that is not an array, a summary offset that is not an int, a
     * meta id that is neither int nor string, a rank that is neither false
     * nor an int, shard properties not as IndexShard's constructor sets
     * them): the switched method then runs Yioop's PHP on it.
     */
    function addDocumentWords(object $shard, mixed $doc_keys, mixed $summary_offset, mixed $word_lists, mixed $meta_ids = [], mixed $is_doc = false, mixed $rank = false, mixed $description_scores = [], mixed $user_ranks = []): ?bool {}

    /**
     * IndexShard::mergeWordPostingsToString: the words added since the
     * last save merged, in id order (as ksort(SORT_STRING)), into the
     * shard's posting string (`word_postings`), Yioop's quirk included: a
     * new word equal to the saved string's last word is written twice,
     * merged and then alone. Logs through Yioop's crawlLog and calls
     * CrawlDaemon::processHandler(true) where Yioop's method does; of its
     * per-word progress lines (crawlTimeoutLog) only the first is offered.
     * True when done; null, having changed nothing, for
     * `$replace`, postings that are not strings, a damaged posting string,
     * or without Yioop's log functions (Yioop's PHP then runs).
     */
    function mergeWordPostingsToString(object $shard, mixed $replace = false): ?bool {}

    /**
     * IndexShard::prepareWordsAndPrefixes: the prefix index (`prefixes`,
     * `prefixes_len`) and `words_len` of the posting string, Yioop's quirks
     * included: a prefix that comes back after another keeps only its last
     * run; an empty shard marks prefix 0 as (0, 0). True when done; null, having changed nothing, for a damaged posting string.
     */
    function prepareWordsAndPrefixes(object $shard, mixed $with_logging = false): ?bool {}

    /**
     * IndexShard::packWords: the dictionary (`words`, `words_len`,
     * `word_docs_len`; document counts folded into the length where they
     * fit, two-doc postings kept in the entry), written to $fh as well when
     * it is a stream, with PHP's own fwrite. True
     * when done; null, having changed nothing, for a damaged posting
     * string, a word without an int document count, or an $fh that is
     * neither null, false nor a stream.
     */
    function packWords(object $shard, mixed $fh = null, mixed $with_logging = false): ?bool {}

    /**
     * IndexShard::outputPostingLists: the posting lists written to $fh, or
     * kept in `word_docs` without one. True when done; null, having changed
     * nothing, as for packWords().
     */
    function outputPostingLists(object $shard, mixed $fh = null, mixed $with_logging = false): ?bool {}
}

namespace yioop_codec\archive {
    /**
     * WebArchive::getObjects with Yioop's GzipCompressor, for a WebArchive
     * itself: the $num objects from byte $offset, each [offset after it,
     * @unserialize()d record], and `iterator_pos` moved when $next_flag; a
     * handle $fh is read through its descriptor and left where Yioop's
     * reads leave it. Each record is read natively into what unserialize
     * builds (arrays, strings, ints, floats, bools, null); any other text
     * (objects, references, S:, NAN, an int of more than 18 digits, nesting
     * past 64, malformed bytes) goes to PHP's own unserialize, called as
     * @unserialize. All records are read before the first is unserialized,
     * so a decline comes before any PHP code (__wakeup) runs. A read of
     * more than one record takes the text of a record addObjects wrote (kept
     * up to yioop.written_cache_size) where the bytes read are the bytes
     * it wrote, instead of inflating them: the same text.
     *
     * Null ("declines", nothing changed) for: an offset, count or limit not
     * of the types Yioop passes (ints; the limit also a float or a string of
     * digits, as the installer writes MAX_ARCHIVE_OBJECT_SIZE), a negative
     * offset, a string archive, a compressor other than GzipCompressor (by
     * class name), a file name PHP would open as a URL (`://` or `data:`),
     * a record whose text unserialize would make an object of (its trace
     * would name this function), open_basedir set, a
     * file that cannot be opened, a handle that is not a readable, seekable
     * plain-file stream without read filters, a record length of 0 or not
     * below the limit (Yioop logs a blank line), a read that comes up short
     * or ends at the end of the file with more to read, and a record
     * gzinflate might not read as the native inflater does (damaged data,
     * a gzip trailer whose CRC-32 or size does not match, header flags,
     * more than 64 MiB inflated; records are inflated with zlib's own
     * checks, so deflate data zlib rejects is declined).
     */
    function getObjects(object $archive, mixed $offset, mixed $num, mixed $next_flag, mixed $fh, mixed $max_size): ?array {}

    /**
     * WebArchiveBundle::getPage($offset, $partition) for a WebArchiveBundle
     * itself: what the partition's getObjects($offset, 1, true, $handle)
     * reads, the page, or [] where it reads none (no record, or a null
     * one); the partition's `iterator_pos` moved as there. Yioop opens the
     * partition for that one read and drops the handle; this reads through
     * the descriptor getObjects shares, and the record goes through the
     * summary cache as getObjects' single reads do.
     *
     * Null ("declines", nothing changed) for: an offset or partition not an
     * int, a partition not loaded yet (getPartition would make it, and may
     * create its file), one that is not a WebArchive itself or whose
     * getObjects is not switched to the native one, MAX_ARCHIVE_OBJECT_SIZE
     * undefined or not a size getObjects takes, and everything getObjects
     * declines.
     */
    function getPage(object $bundle, mixed $offset, mixed $partition): mixed {}

    /**
     * Not a Yioop method: what the summary cache (yioop.summary_cache_size)
     * did since the module started, in every process that shares it (a
     * php-fpm master's workers). A read of one record
     * (WebArchiveBundle::getPage's) keeps the record and its inflated text
     * (for nonNetworkGetCrawlItems, the text of the fields it builds), and
     * a later read, by any of those processes, that finds the same bytes at
     * that offset uses the text kept: hits, misses (records inflated),
     * turnovers (times the cache's ring went round, overwriting its oldest
     * entries), entries (records held), held_bytes and limit_bytes. For
     * operators sizing the cache.
     */
    function summaryCacheStats(): array {}

    /**
     * WebArchive::addObjects with Yioop's GzipCompressor, for a WebArchive
     * itself: Yioop's steps in Yioop's order, through PHP where PHP would
     * see them (fopen "r+", $archive->seekEndObjects, ftell, ftruncate,
     * fwrite of all records at once, the callback with $data when both are
     * != null, $archive->writeInfoBlock, fclose; `count` raised by PHP's +).
     * Each object gets its offset in $offset_field and is serialized on
     * the calling thread: natively, as serialize writes scalars and arrays
     * (floats as at serialize_precision -1), while serialize_precision is
     * -1; by PHP's serialize otherwise. The texts are compressed as
     * gzencode($text, 9) by the zlib PHP runs (the system's libz; the gzip
     * header zlib writes, the CRC-32 by libdeflate), on up to
     * yioop.compress_threads threads (one for fewer than 16 records or 64
     * KiB), which see bytes and no PHP value. Returns the objects with
     * their offsets when $return_flag is truthy; otherwise updates $objects
     * in place and returns false (the switched method then returns
     * nothing). An exception from a PHP step or the callback leaves the
     * call there, as in Yioop's method. The records written, with their
     * texts, are kept for getObjects (yioop.written_cache_size) until the
     * process writes another file or its next request starts.
     *
     * Null ("declines", nothing changed) for: a string archive, a
     * compressor other than GzipCompressor (by class name), no `filename`
     * or `count` property, $objects not an array keyed 0..n-1 of arrays, a
     * record holding an object or a reference at any depth or nested past
     * 64 (serialize would run PHP code or number references), an
     * $offset_field neither int nor string, a callback (with $data) that
     * is not callable, or serialize or a file function Yioop calls not
     * defined.
     */
    function addObjects(object $archive, mixed $offset_field, mixed &$objects, mixed $data, mixed $callback, mixed $return_flag): array|false|null {}
}

namespace yioop_codec\index_bundle {
    /**
     * IndexArchiveBundle::getPage($offset, $generation) for an
     * IndexArchiveBundle itself: generation -1 is generation_info's
     * CURRENT, and the page is what its summaries' getPage (a
     * WebArchiveBundle itself, that method switched) gives, as
     * yioop_codec\archive\getPage reads it. Null ("declines", nothing
     * changed) for an offset or generation not an int, a CURRENT that is
     * not an int, summaries of another class, either getPage not switched,
     * and everything yioop_codec\archive\getPage declines.
     */
    function getPage(object $bundle, mixed $offset, mixed $generation): mixed {}
}

namespace yioop_codec\dictionary {
    /**
     * IndexDictionary::getWordInfo for a raw word id: for each active tier,
     * the id's records found by the prefix index and a binary search, then
     * read backwards and forwards with their auxiliary records, limited by
     * $threshold, $start_generation and $num_distinct_generations as Yioop
     * limits them; [estimated total, entries] when $with_remaining_total
     * and the parent bundle's generation_info has an ACTIVE generation (the
     * total an int or a float as PHP's / leaves it). Yioop's fault
     * tolerance is kept: one record out of place skipped, a repeated
     * generation dropped, entries of more than 100 * NUM_DOCS_PER_GENERATION
     * postings ignored.
     *
     * The object's files and blocks are kept natively (its fhs, file_lens
     * and blocks stay as the constructor left them, read_tier is written as
     * Yioop writes it) until a call declines: then they are written into
     * those properties, as Yioop's own reads would have left them, and the
     * object is Yioop's PHP's from then on. Null, having changed nothing,
     * for an id that is not raw, a threshold or start generation that is
     * not an int, distinct generations neither an int nor an int's string,
     * properties not as Yioop's constructor leaves them (or filled by
     * Yioop's PHP), tiers that are not canonical decimal strings,
     * NUM_DOCS_PER_GENERATION not an int or an int's string, an ACTIVE
     * generation that is not an int, open_basedir or a stream-wrapper path,
     * ids that PHP's == would compare as numbers, and anything on which
     * Yioop's PHP warns, exits or loops (a record cut short, a search that
     * does not converge: a damaged file), and where no autoloader defines
     * IndexShard (a look-up that Yioop's body would take into
     * IndexShard::WORD_DATA_LEN first autoloads it, as that body does, so
     * Utility.php's functions are defined afterwards as in Yioop). A call
     * that declines first takes back what it did to the native state.
     *
     * @return array<int, array{0: int, 1: int, 2: int, 3: int, 4: string}>|array{0: int|float, 1: array}|null
     *     entries [generation, first offset, last offset, count, id]
     */
    function getWordInfo(object $dictionary, mixed $word_id, bool $raw = false, mixed $threshold = -1, mixed $start_generation = -1, mixed $num_distinct_generations = -1, bool $with_remaining_total = false): ?array {}

    /**
     * IndexDictionary::addShardDictionary: the shard's words written as a
     * tier-0 file per first byte (its prefix index rewritten natively, as
     * Yioop's loop rewrites it, with offsets relative to each byte's first
     * word; the words through the shard's getShardSubstring), then the
     * tiers merged up while the tier above is taken: the callback's join,
     * mergeTier, max_tier and its file, calculateActiveTiers, and Yioop's
     * log lines, all through PHP in Yioop's order. True when done; false
     * where Yioop's returns false (no shard header, no prefix string), and
     * also, without a log line, where the shard leaves prefixes_len other
     * than an int or gives a prefix string that is not a string (Yioop's
     * IndexShard does neither). Null, having changed nothing, for a
     * dir_name PHP would not open as a plain file (or open_basedir set), a
     * shard whose class is not Yioop's IndexShard, a callback neither null
     * nor an object, max_tier not an int, a first-byte folder missing,
     * constants of IndexDictionary or IndexShard other than Yioop's, or no
     * crawlLog or crawlTimeoutLog: Yioop's PHP then runs.
     */
    function addShardDictionary(object $dictionary, mixed $index_shard, mixed $callback = null): ?bool {}

    /**
     * IndexDictionary::mergeTierFiles: the files "$prefix/{$tier}A.dic"
     * and "$prefix/{$tier}B.dic" under $this->dir_name merged into
     * "$prefix/" . ($tier + 1) . "$out_slot.dic", then removed (with PHP's
     * unlink), as Yioop's loop merges them: records of one id combined by
     * combineDictionaryRecord, its quirk kept (where A's last auxiliary
     * record is part full, B's first entries under the same array keys are
     * dropped), the prefix index counted as Yioop counts it. Of the
     * progress lines (crawlTimeoutLog) the first of each loop is offered.
     * Both files are read whole and the merge made before anything is
     * written. True when done; false, having changed nothing, for a prefix
     * or tier that is not an int, an out slot that is not a string, a
     * dir_name PHP would not open as a plain file (or open_basedir set),
     * constants of IndexDictionary or IndexShard other than Yioop's, no
     * crawlLog or crawlTimeoutLog, a file filesize() does not give an int
     * for or that changed size since, a file that is not whole records
     * (where Yioop's loop logs a short file or takes a record cut off), or
     * an output file that cannot be created: Yioop's PHP then runs.
     */
    function mergeTierFiles(object $dictionary, mixed $prefix, mixed $tier, mixed $out_slot): bool {}
}

namespace yioop_codec\index_manager {
    /**
     * IndexManager's static discountedNumDocsTerm($term, $index_name),
     * called on $class (static::class, IndexManager itself);
     * php/yioop-integrate.php makes the method call it. An answer in the
     * method's static cache ($num_docs_cache[$index_name][$term], shared
     * with subclasses) is returned as it is. Otherwise, where the index
     * (loaded in IndexManager::$indexes) does not hold the term's id
     * (crawlHashWord($term, true), looked up from generation 0 over
     * NUM_DISTINCT_GENERATIONS by the native IndexDictionary look-up), 0.0,
     * which Yioop returns without caching it. Null ("declines": Yioop's PHP
     * answers, and caches) for a term the index holds, a term that is not a
     * string, an index name that is not a crawl time (an int or an int's
     * string, not FEED_CRAWL_TIME) or whose index is not loaded yet (Yioop's
     * getIndex loads it), another class, an index that is not an
     * IndexArchiveBundle itself or whose dictionary is not an
     * IndexDictionary itself, a tree whose IndexDictionary::getWordInfo is
     * not switched, an active generation newer than the last one in the
     * dictionary (Yioop then reads that generation's shard too), values of
     * generation_info or NUM_DISTINCT_GENERATIONS it would read otherwise
     * than as ints, and wherever the dictionary's look-up declines.
     *
     * @param mixed $class the class the method was called on
     * @param mixed $term the term, such as "link:" . a word's base64 key
     * @param mixed $index_name the index's crawl time
     * @return mixed the number of documents, discounted by generation
     */
    function discountedNumDocsTerm(mixed $class, mixed $term, mixed $index_name): mixed {}
}

namespace yioop_codec\word_iterator {
    /**
     * WordIterator::findDocsWithWord(), for a WordIterator itself;
     * php/yioop-integrate.php makes the method call it. Yioop's result
     * (the block of items keyed by doc key, or -1) with Yioop's effects on
     * the iterator (next_offset, count_block, pages), where the index is
     * loaded and its current shard is already this generation's, read from
     * disk: generation_info's DISK_BASED true, CURRENT the iterator's
     * current_generation, ACTIVE set, current_shard an IndexShard itself
     * with read_only_from_disk and num_docs set. The slice is the native
     * postingsSliceAscending or postingsSliceDescending; the discounts are
     * IndexManager::discountedNumDocsTerm (native, or Yioop's method where
     * that declines); the search filter's isFiltered is called through
     * PHP; the discount score is added by PHP's own operators. Null
     * ("declines", nothing changed) otherwise: a generation to switch to,
     * a shard not read yet, an index not loaded (Yioop's getIndex loads
     * it), the iterator's offsets, generations, direction or
     * results_per_block other than ints, a base64_word_key that is not a
     * string, a filter Yioop's call would fail on (not an object with a
     * public isFiltered), a doc key that is empty, a tree whose IndexShard
     * slices, IndexManager::discountedNumDocsTerm or IndexArchiveBundle
     * are not switched, and wherever the slice declines or throws (Yioop's
     * PHP then meets the same). A callee that throws leaves its exception
     * standing, the iterator changed as far as Yioop's method had got.
     *
     * @param mixed $iterator the WordIterator ($this)
     * @return mixed the block's items, -1, or null
     */
    function findDocsWithWord(mixed $iterator): mixed {}
}

namespace yioop_codec\search_filter {
    /**
     * SearchverticalsModel::isFiltered($url, $compute_hash_key), for a
     * SearchverticalsModel itself; php/yioop-integrate.php makes the
     * method call it. The answer the model remembers for the host,
     * $this->memory_filter[$url], where it has one (set and not null),
     * $compute_hash_key is false and the model has no query_filter (unset
     * or empty). Null ("declines": Yioop's PHP answers, from its database)
     * otherwise, and for a $url that is not an int or a string or a
     * memory_filter that is not an array.
     *
     * @param mixed $model the SearchverticalsModel ($this)
     * @param mixed $url the host key asked about
     * @param mixed $compute_hash_key whether $url is a URL whose host is to be worked out
     * @return mixed the remembered answer, or null
     */
    function isFiltered(mixed $model, mixed $url, mixed $compute_hash_key): mixed {}
}

namespace yioop_codec\bloom {
    /**
     * BloomFilterFile::contains: whether $value is in the filter $filter
     * (its `filter`, `filter_size` and `num_keys`, references followed), for
     * a BloomFilterFile itself; php/yioop-integrate.php makes the method
     * call it. Yioop's bit positions: a chain of raw MD5 digests of the
     * value, read as big-endian 32-bit words; false at the first clear bit.
     * Sizes that are ints or integral floats (Yioop's files hold its
     * ceil()'s floats) are read as PHP's >> reads them. Null ("declines",
     * nothing changed) for a $value that is not a string, a filter that is
     * not a string, sizes of any other type (a numeric string, a fraction),
     * more than 4,096 keys, and sizes on which Yioop's PHP warns or throws
     * (a filter size below 2, a position past the filter's bytes).
     */
    function contains(mixed $filter, mixed $value): ?bool {}
}

namespace yioop_codec\stem_en {
    /**
     * The English Tokenizer's static stem($word), called on $class
     * (static::class), for the en_US Tokenizer itself; php/yioop-integrate.php
     * makes the method call it. Porter's algorithm over bytes as Yioop runs
     * it, with Yioop's two additions: a word on the class's $no_stem_list
     * comes back unchanged, and a hyphenated word is stemmed after its last
     * hyphen only (a hyphen at the start does not count). Leaves the
     * private scratch ($buffer, $k, $j) as Yioop's PHP leaves it (untouched
     * for a no-stem word). Null ("declines", nothing
     * changed) for a word that is not a string or is numeric, a no-stem
     * list that is not an array of strings, or a class not loaded or
     * without the scratch.
     */
    function stem(mixed $class, mixed $word): ?string {}
}

namespace yioop_codec\triplets_en {
    /**
     * The English Tokenizer's static extractTripletsPhrases($sentences),
     * called on $class (static::class): for each sentence (key) of at
     * least PHRASE_THRESHOLD words (str_word_count; an int, a float or a
     * numeric string), compressed, tagged and parsed as
     * Yioop does, its subject-predicate-object questions (stemmed) =>
     * the sentence's positions (QUESTION_LIST) and => their answers
     * (QUESTION_ANSWER_LIST), for the head words (CONCISE) and every leaf of
     * the part's parse tree (RAW, leaves in key order, empty strings and
     * emptied subtrees included), and again with subject and object swapped
     * after "is" and "was". Runs only where the Tokenizer's stem is switched
     * too. Reads LOCALE_DIR's lexicon (en_US/resources/lexicon.txt.gz, once a
     * process, through PHP's gzdecode),
     * the class's part-of-speech lists and $question_token, and leaves the
     * stemmer's scratch as Yioop's PHP leaves it. Null ("declines",
     * nothing changed) for a class other than the en_US Tokenizer or with
     * stem not switched, a list that is not an array, a missing or unusual
     * lexicon, a threshold that is not a number, a question token that is
     * not one ASCII word, part-of-speech lists with numeric or non-string
     * entries, numeric no-stem words, a kept sentence that is not UTF-8 or
     * nests too deeply, mbstring encodings other than UTF-8, and a C locale
     * whose letters or spaces are not ASCII's.
     */
    function extractTripletsPhrases(mixed $class, mixed $word_and_phrase_list): ?array {}

    /**
     * The English Tokenizer's static tagTokenizePartOfSpeech($text),
     * called on $class: the text's words (runs of [A-Za-z0-9_]), each
     * ["token" => .., "tag" => ..] as Yioop tags it: the first tag the
     * lexicon lists for the lower-cased word, else NN, then Yioop's rules on
     * endings and on the word before (compared with that word's tag as
     * first given, even after retagging it). Null for a text that is not a string and as
     * extractTripletsPhrases declines for the class, lexicon and locale.
     */
    function tagTokenizePartOfSpeech(mixed $class, mixed $text): ?array {}
}

namespace yioop_codec\ngrams {
    /**
     * NWordGrams' static ngramsContains($phrase, $lang, $filter_prefix),
     * called on $class (static::class, NWordGrams itself), for a filter
     * already in the class's $ngrams cache; php/yioop-integrate.php makes
     * the method call it. The locale is normalised as Yioop does ("-" to
     * "_"; en and en_GB read as en_US) and the filter asked, as
     * yioop_codec\bloom\contains asks it, for the phrase lower-cased. Null
     * ("declines", nothing changed; Yioop's PHP loads the filter or
     * answers) for a filter not cached yet or not a BloomFilterFile itself,
     * a phrase that is not an ASCII string, a locale or prefix that is
     * numeric, has a digit, or is neither a string nor (the prefix) an int,
     * and wherever the filter's own look-up declines.
     */
    function ngramsContains(mixed $class, mixed $phrase, mixed $lang, mixed $filter_prefix = 2): ?bool {}
}

namespace yioop_codec\locale {
    /**
     * Yioop's parse_ini_with_fallback($file) where parse_ini_file is
     * enabled: parse_ini_file($file, true), PHP's own, warnings included.
     * php/yioop-integrate.php makes Yioop's function call it. The process
     * keeps the array PHP made of a file, from its second read on, whose
     * text reads the same in every request (sections, ; comments and keys
     * given one double-quoted string without ", backslash or ${) and gives
     * it again, without parsing, while the file's bytes are the ones it was
     * made from; the file is read on every call. Null ("declines": Yioop's PHP runs) for a $file that is
     * not a string or not an absolute plain path, a file that is not a
     * regular file of at most 4 MiB, a text that may read otherwise
     * elsewhere (a bare word may name a constant), parse_ini_file disabled,
     * and open_basedir set.
     *
     * @param mixed $file the INI file's path
     * @return mixed the array (false where PHP's parse fails), or null
     */
    function parse_ini_with_fallback(mixed $file): mixed {}

    /**
     * What this process keeps of parse_ini_with_fallback: files (arrays
     * kept), text_bytes (their files' bytes) and limit_bytes (past which
     * the kept arrays start over). A file is kept from its second read on.
     * For operators sizing a worker's memory.
     */
    function localeCacheStats(): array {}
}

namespace yioop_codec\webcode {
    /**
     * Yioop's webencode($str) on a string: base64_encode($str) with "+",
     * "/" and "=" written ".", "_" and "~". php/yioop-integrate.php makes
     * Yioop's function call it. Null ("declines": Yioop's PHP runs) for a
     * $str that is not a string.
     *
     * @param mixed $str the bytes to encode
     * @return string|null the text, or null
     */
    function webencode(mixed $str): mixed {}

    /**
     * Yioop's webdecode($str) on a string: base64_decode(strtr($str,
     * ["." => "+", "~" => "=", "_" => "/"])), PHP's forgiving decode
     * (bytes outside the alphabet and padding anywhere skipped, a lone last
     * character dropped). The queue server decodes each fetcher upload this
     * way. Null ("declines": Yioop's PHP runs) for a $str that is not a
     * string.
     *
     * @param mixed $str the text to decode
     * @return string|null the bytes, or null
     */
    function webdecode(mixed $str): mixed {}
}

namespace yioop_codec\phrase {
    /**
     * PhraseParser's static stemCharGramSegment($string, $lang, $to_string),
     * called on $class (static::class, PhraseParser itself): the text's
     * terms, lower-cased, split at Yioop's PUNCT (read at each call) and
     * spaces, stemmed by the en_US Tokenizer (joined by spaces for a true
     * $to_string). Yioop's steps are kept: "" and "0" dropped (array_filter),
     * all-NUL terms skipped, terms holding "_" not stemmed, NULs trimmed at
     * the ends; U+180E is split (preg_split) but not replaced
     * (mb_ereg_replace), as in Yioop. The stemmer's scratch is left as
     * Yioop's last stem leaves it. Runs only where the en_US Tokenizer's
     * stem is switched too. Null ("declines", nothing changed) for
     * a text that is not a UTF-8 string, a numeric locale, Hindi, the
     * programming languages, a locale whose tokenizer PhraseParser has not
     * loaded or that is not the en_US Tokenizer with its stem switched, a
     * char-gram locale, a no-stem list with numeric words, mbstring
     * encodings other than UTF-8, a PUNCT that is not an alternation of
     * single characters.
     */
    function stemCharGramSegment(mixed $class, mixed $string, mixed $lang, mixed $to_string = false): array|string|null {}

    /**
     * PhraseParser's static extractTermSentencePositionsTags($string,
     * $lang, $extract_sentences), called on $class: ["TERM_POSITIONS" =>
     * each of stemCharGramSegment's terms => its positions, from 1], and
     * for a true $extract_sentences "SENTENCES" => each sentence of
     * mb_strtolower($string) => its positions, a sentence starting after
     * the str_word_count words of those before it. Sentences are Yioop's
     * pieces of preg_split at runs of two or more newlines and . ! ? 。！？,
     * trimmed, "" and "0" dropped (empty); a term or sentence that is an
     * integer's decimal is an int key. [] where there are no terms. Null
     * ("declines") wherever stemCharGramSegment declines, where $class's
     * own stemCharGramSegment is not the switched one, and, for sentences,
     * where the en_US Tokenizer lacks tagTokenizePartOfSpeech, the C
     * library's letters are not ASCII's (str_word_count asks isalpha), or
     * $extract_sentences is an object or a resource.
     */
    function extractTermSentencePositionsTags(mixed $class, mixed $string, mixed $lang = null, mixed $extract_sentences = false): ?array {}

    /**
     * PhraseParser's static extractPhrasesInLists($string, $lang), called
     * on $class: Yioop's own method's result (the method is called, and
     * its guard lets its PHP run), kept for the rest of the request and
     * given again for the same text and locale while the state it was made
     * in holds: LC_CTYPE, PCRE's limits and JIT setting, PhraseParser's
     * programming-language map and tokenizers, the en_US Tokenizer's
     * no-stem list, part-of-speech lists and question token, its
     * canonicalization's replacements, NWordGrams' filters (a filter's
     * string by identity: a string over 256 bytes, an array over 256
     * entries is compared by address). A repeat gives the first call's
     * array, its TIMES included, and puts back the stemmer's scratch that
     * call left. A result is kept only where its call raised no error of
     * any level, threw nothing and left that state as it found it; up to
     * 8,192 texts, twice over (the older half dropped as the newer fills).
     * Null ("declines": Yioop's PHP runs) for a text that is not a UTF-8
     * string of at most 512 bytes, a locale that is not a non-numeric
     * string whose tokenizer PhraseParser has loaded as the en_US
     * Tokenizer, mbstring encodings other than UTF-8, and wherever a pass
     * in another file is not Yioop's switched one (the Tokenizer's stem,
     * canonicalizePunctuatedTerms, tagTokenizePartOfSpeech and
     * extractTripletsPhrases, NWordGrams::ngramsContains) or the
     * Tokenizer's segment does more than give back its argument.
     *
     * With yioop.compress_threads above 1, a getObjects of 64 or more
     * objects notes their summaries; the next text the memo does not
     * answer (a UTF-8 string of any length, then given to Yioop's PHP)
     * makes each summary's text as buildInvertedIndexShard makes it, by
     * Yioop's UrlParser::getWordsInHostUrl and getWordsLastPathPartUrl,
     * canonicalizes it by PhraseParser::canonicalizePunctuatedTerms (on
     * this thread, their errors silenced: Yioop's own calls will raise
     * them; where any arises, nothing is made), and a thread runs the
     * passes after it natively. A later call for exactly such a text and
     * locale, the state above unchanged for that locale (of the
     * tokenizers and filters, that locale's only), gets those lists: the
     * array Yioop's method makes, TIMES with this run's seconds, and the
     * stemmer's scratch its passes leave. Only where every pass would run
     * natively: ENABLE_QUESTION_ANSWERING truthy, the class's own
     * stemCharGramSegment switched, NWordGrams' filter for the locale
     * loaded, and each character's lower case read by PHP's mb_strtolower
     * (a text with a capital sigma is left to PHP).
     */
    function extractPhrasesInLists(mixed $class, mixed $string, mixed $lang = null): ?array {}

    /**
     * PhraseParser's static hyphenateEntities(&$string, $lang), called on
     * $class: the runs of words that the locale's cached n-word-gram filter
     * holds, hyphenated as Yioop hyphenates them: the longest window the
     * filter holds, once it says no longer window starts with it
     * (ngramsContains($window . "*")), with hyphens for spaces. Yioop's
     * quirks are kept: a window is hyphenated only with a space after its
     * fifth byte and none of -()[],. in it; the result ends with a space
     * and the last window. True once $string is
     * written; false ("declines", $string unchanged) for no locale or a
     * numeric one, a text that is not a UTF-8 string, a filter not cached
     * yet, NWordGrams::ngramsContains not switched, mbstring encodings
     * other than UTF-8.
     */
    function hyphenateEntities(mixed $class, mixed &$string, mixed $lang = null): bool {}

    /**
     * PhraseParser's static computeSafeSearchScore(&$word_lists, $len,
     * $url), called on $class: 1 for a URL Yioop's unsafe-site regex
     * matches, else the number of unsafe terms among the word lists' keys
     * times their occurrences, over $len + 1 (an int where exact; an unsafe
     * term with an empty list not counted; "0" and false skip the URL). The
     * unsafe terms and the regex are the method's own statics, read in
     * place as the method's next call will see them. A regex of Yioop's
     * shape is matched natively under a C or UTF-8 LC_CTYPE and PCRE
     * limits of at least Yioop's, for URLs up to 4 KiB; others by PHP's
     * own preg_match.
     * Null ("declines") before Yioop has worked out its unsafe terms (its
     * first call), for word lists that are not an array or hold a
     * non-array list of an unsafe term, a length that is not an int or is
     * -1, a URL that is not a string, null or false.
     */
    function computeSafeSearchScore(mixed $class, mixed &$word_lists, mixed $len, mixed $url = ""): int|float|null {}
}

namespace yioop_codec\canonical_en {
    /**
     * The en_US Tokenizer's canonicalizePunctuatedTerms(&$string), called
     * on $tokenizer ($this): Yioop's replacement list, read from the
     * method's statics, run in order over $string; its contraction and
     * word-before-'s replacements natively, the others through PHP's
     * preg_replace with Yioop's strings (a failed one leaves null, as
     * Yioop's single call does). True once $string is written; false
     * ("declines", $string unchanged) for a text that is not a UTF-8
     * string, a C library locale whose classes are not ASCII's, a list
     * that is not strings, texts PCRE might run out of steps on under the
     * current pcre.backtrack_limit (read as PHP hands it to PCRE: its low
     * 32 bits; a limit that is not a plain decimal declines).
     */
    function canonicalizePunctuatedTerms(mixed $tokenizer, mixed &$string): bool {}
}

namespace seekquarry\yioop\library {
    /*
     * The six functions Yioop leaves undefined when this extension is loaded
     * are also registered here, for Yioop's C\NS_LIB . "name" string
     * callables, which never fall back to the global namespace. No other
     * of Yioop's names is registered here: it would collide with Yioop's
     * own declaration.
     */

    /** \unpackListModified9(), under Yioop's library namespace. */
    function unpackListModified9(int $encoded_list): array {}

    /** \docIndexModified9(), under Yioop's library namespace. */
    function docIndexModified9(int $encoded_list): int {}

    /** \unpackInt(), under Yioop's library namespace. */
    function unpackInt(mixed $str): int|false {}

    /** \decodeQueueWeightInfo(), under Yioop's library namespace. */
    function decodeQueueWeightInfo(mixed $weight_info, mixed $crawl_order): array {}

    /** \encodeQueueWeightInfo(), under Yioop's library namespace. */
    function encodeQueueWeightInfo(mixed $weight, mixed $depth, mixed $crawl_order): mixed {}

    /** \adjustWeightCallback(), under Yioop's library namespace. */
    function adjustWeightCallback(int $weight_info, int $adjustment): int {}
}

namespace seekquarry\yioop\executables {
    /**
     * PHP's gzuncompress($data, $max_length), where Yioop's QueueServer and
     * Fetcher look first: their unqualified calls try their own namespace
     * before the global one. The queue server inflates each site of each
     * fetcher upload with it (processIndexArchive). A string whose zlib
     * stream ends, inflating to at most 8 MiB, is answered natively by
     * zlib-rs, which fails where zlib does (bytes after the stream ignored,
     * as PHP's inflate loop ignores them); every other call (a stream zlib
     * rejects, a preset dictionary, a $max_length, a value that is not a
     * string) runs PHP's own gzuncompress with the same arguments, so its
     * value, warnings and errors are PHP's. With yioop.compress_threads
     * above 1, a string that is, byte for byte, the next site of the upload
     * webdecode last decoded gets what another thread's inflate of those
     * bytes gave. Two differences, neither in
     * Yioop's calls: a wrong argument count names this function, and a
     * value that is not a string is converted as a caller without
     * strict_types would convert it.
     */
    function gzuncompress(mixed $data, mixed $max_length = 0): mixed {}
}

namespace yioop_codec\snippets {
    /**
     * Model::getSnippets($text, $words, $description_length), called by
     * the switched method itself ($model is $this; the constants and the
     * function statics are read from the calling method's class). Switched
     * for Model's subclasses too (PhraseModel calls it): it calls nothing on
     * $this. Yioop's
     * regexes asked one match at a time, only as far as the snippet needs,
     * through PHP's own preg_match, mb_strlen, mb_substr, stristr, trim,
     * strrpos, preg_quote and preg_replace. Null ("declines", nothing
     * changed) for a text that is not a UTF-8 string, words not an array
     * of ASCII strings or filtering down to nothing, a numeric word string
     * or cached $last_words, k/s words with a Kelvin sign or long s in the
     * text, a length that is not an int, mbstring not in UTF-8, or a caller
     * that is not a method of a class with the constants; also where the
     * cached $last_words is this call's word string but $word_regex is not
     * its regex, for word strings over 2,000 bytes, and for constants
     * (SNIPPET_LENGTH_LEFT, SNIPPET_LENGTH_RIGHT, MIN_SNIPPET_LENGTH) that
     * are not ints. A text shorter than the length and an empty word list
     * are answered natively. The function statics ($search_words,
     * $last_words, $word_regex) are read, never written, which later calls
     * cannot tell. preg_last_error() is left as the last preg_match here
     * leaves it, not as Yioop's preg_match_all would (Yioop never reads it).
     */
    function getSnippets(mixed $model, mixed $text, mixed $words, mixed $description_length): ?string {}
}

namespace yioop_codec\crawl_items {
    /**
     * ParallelModel::nonNetworkGetCrawlItems($lookups, $exclude_fields,
     * $format_words, $description_length), called by the switched method
     * itself ($model is $this; switched for subclasses too, as PhraseModel
     * calls it). The summaries of a search page's results, by lookup:
     * [url, index] (the page stored for the URL; false for the whole call
     * where lookupSummaryOffsetGeneration finds none), or a list of
     * (machine, key, index, generation, offset) tuples and (word key,
     * index) pairs whose pages merge into one summary, descriptions joined
     * with " .. " until longer than MIN_DESCRIPTION_LENGTH; then the
     * excluded fields unset and each summary given to
     * formatSinglePageResult when $format_words is not null and
     * $description_length > 0. IndexManager::getIndex,
     * lookupSummaryOffsetGeneration and formatSinglePageResult are called
     * through PHP, in Yioop's order. A page is read natively
     * (yioop_codec\index_bundle\getPage) where the index is an
     * IndexArchiveBundle whose getPage is switched, and then the excluded
     * fields of the page (the page text, links, header: most of what a
     * summary stores) are read but never built; otherwise through
     * $index->getPage in PHP.
     *
     * Null ("declines") for: lookups or excluded fields not arrays, an
     * excluded field that is not an int or a string, a description length
     * that is not an int, a lookup that is not an array or whose first
     * entry is a string but not a two-entry http(s)/gopher/record URL
     * lookup, an item that is not an array or lacks an entry list() reads,
     * an index name that is not a string or an int, a page that is not an
     * array but truthy, a description that is not a string, a summary
     * without one where Yioop measures it (strlen would warn), an index
     * that is not an object, and MIN_DESCRIPTION_LENGTH not an int. A
     * decline can come after pages were read, indexes loaded and
     * lookupSummaryOffsetGeneration called: Yioop's own loop then does the
     * same calls again in the same order, with the same results (its
     * indexes and partitions are cached, a page read twice moves
     * `iterator_pos` to the same place). An exception from a PHP call
     * propagates as from Yioop's.
     */
    function nonNetworkGetCrawlItems(mixed $model, mixed $lookups, mixed $exclude_fields, mixed $format_words, mixed $description_length): mixed {}
}
