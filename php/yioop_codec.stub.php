<?php
/**
 * Stubs for the yioop extension (yioop_codec.so): Yioop's posting-list codec,
 * native and byte-identical to src/library/Utility.php. For IDEs and static
 * analysers; never include this file at run time.
 *
 * Every function reproduces Yioop's own results, damaged input included. The
 * types below are what Yioop passes; other scalars are converted as Yioop's
 * PHP would convert them, and arrays or objects where Yioop's PHP would throw
 * get the same TypeError.
 *
 * INI settings (per directory or system-wide):
 * - yioop.format: "2019" (default; the 2019 and 2021 lines) or "2015"
 *   (Yioop 3.x, which stores a position list's first delta plus one).
 * - yioop.opencl: "auto" (default), "on" or "off".
 * - yioop.opencl_min_length: the list length from which "auto" uses OpenCL.
 */

namespace {
    /**
     * Packs a doc index and a position list into a Modified9 posting.
     *
     * @param int $doc_index index of the document in its shard
     * @param int[] $position_list positions of the term in the document
     * @param bool $delta store the positions as differences (any value is read
     *     by truthiness, as Yioop's if ($delta) reads it)
     * @return string the encoded posting
     * @throws ValueError if a value reaches 2^62, where Yioop's encoder never returns
     */
    function packPosting(int $doc_index, array $position_list, bool $delta = true): string {}

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
     * @return int[]
     */
    function unpackListModified9(int $encoded_list): array {}

    /**
     * Undoes a delta list in place: each element becomes the sum of it and
     * all before it. Sums past PHP_INT_MAX become floats, as in PHP.
     *
     * @param array<int, int|float> $delta_list
     */
    function deDeltaList(array &$delta_list): void {}

    /** The doc index held in the first element of a Modified9 word. */
    function docIndexModified9(int $encoded_list): int {}

    /**
     * The big-endian integer in a binary string, as (int)hexdec(bin2hex($str)).
     *
     * @return int|false false if $str is not a string
     */
    function unpackInt(mixed $str): int|false {}

    /**
     * The differences of adjacent elements: (a1, a2 - a1, a3 - a2, ...).
     *
     * @param int[] $list
     * @return array<int, int|float>
     */
    function deltaList(array $list): array {}

    /**
     * Encodes positive integers below 2^28 as Modified9 words.
     *
     * @param int[] $list
     * @throws ValueError if a value reaches 2^62, where Yioop's encoder never returns
     */
    function encodeModified9(array $list): string {}

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
     * @throws ValueError for a float offset that adding 4 cannot move (-INF,
     *     -1e300) on a word that starts a longer posting, where Yioop's
     *     nextPostString never returns
     */
    function nextPostString(string &$input_string, int &$offset): string {}

    /**
     * Re-encodes every posting with $add_offset added to its doc index.
     *
     * @param string $postings not modified, despite the reference
     */
    function addDocIndexPostings(string &$postings, int $add_offset): string {}

    /**
     * Splits crawl-queue weight info into [weight, depth] when $crawl_order is
     * page importance ("ad"); otherwise [0, $weight_info].
     */
    function decodeQueueWeightInfo(mixed $weight_info, mixed $crawl_order): array {}

    /**
     * Packs weight (high 24 bits) and depth (low 8 bits) when $crawl_order is
     * page importance ("ad"); otherwise returns $depth.
     */
    function encodeQueueWeightInfo(mixed $weight, mixed $depth, mixed $crawl_order): mixed {}

    /** Adds two weight infos' weights and keeps the smaller depth. */
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
     * Yioop's IndexShard methods, natively. Each takes the IndexShard
     * object first, then the method's own parameters, and returns what the
     * method returns; php/yioop-integrate.php makes the methods call them.
     * Each returns null instead ("declines"), having changed nothing
     * Yioop's PHP would see, for what it leaves to Yioop's PHP: an argument
     * that is not an int where Yioop does arithmetic on it, a property or
     * configuration constant of a type Yioop does not keep there, and
     * anything on which Yioop's PHP warns or throws (a damaged file); the
     * switched method then runs its own PHP. An object's file is opened as
     * Yioop opens it (its native state found again by the object), and
     * blocks are shared between the objects that opened the same version of
     * a file. Only where Yioop's search would never return is there a
     * ValueError.
     */

    /** IndexShard::readBlockShardAtOffset: up to 4 KiB from $bytes, or false. */
    function readBlockShardAtOffset(object $shard, mixed $bytes, bool $cache = true): string|false|null {}

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
     * installer writes them).
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
     * does (the auxiliary keys come from the shard's own
     * packAuxiliaryDocumentKeys). Returns null, having changed nothing, for
     * input outside Yioop's usual types (a position list that is not an
     * array, a summary offset that is not an int, a meta id that is neither
     * int nor string, a rank that is neither false nor an int, shard
     * properties not as IndexShard's constructor sets them): the switched
     * method then runs Yioop's PHP on it.
     */
    function addDocumentWords(object $shard, mixed $doc_keys, mixed $summary_offset, mixed $word_lists, mixed $meta_ids = [], mixed $is_doc = false, mixed $rank = false, mixed $description_scores = [], mixed $user_ranks = []): ?bool {}

    /**
     * IndexShard::mergeWordPostingsToString: the words added since the
     * last save merged, in id order, into the shard's posting string
     * (`word_postings`), Yioop's quirks included; logs through Yioop's
     * crawlLog and calls CrawlDaemon::processHandler(true) where Yioop's
     * method does. True when done; null, having changed nothing, for
     * `$replace`, postings that are not strings, a damaged posting string,
     * or without Yioop's log functions (Yioop's PHP then runs).
     */
    function mergeWordPostingsToString(object $shard, mixed $replace = false): ?bool {}

    /**
     * IndexShard::prepareWordsAndPrefixes: the prefix index (`prefixes`,
     * `prefixes_len`) and `words_len` of the posting string. True when
     * done; null, having changed nothing, for a damaged posting string.
     */
    function prepareWordsAndPrefixes(object $shard, mixed $with_logging = false): ?bool {}

    /**
     * IndexShard::packWords: the dictionary (`words`, `words_len`,
     * `word_docs_len`), written to $fh as well when it is a stream. True
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
     * WebArchive::getObjects with Yioop's GzipCompressor: the $num objects
     * from byte $offset, each [offset after it, @unserialize()d record], and
     * `iterator_pos` moved when $next_flag; a handle $fh is read through its
     * descriptor and left where Yioop's reads leave it. Null, having
     * changed nothing, for what Yioop's PHP is left to do (see
     * php/README.md, "Web archive").
     */
    function getObjects(object $archive, mixed $offset, mixed $num, mixed $next_flag, mixed $fh, mixed $max_size): ?array {}
}

namespace yioop_codec\dictionary {
    /**
     * IndexDictionary::getWordInfo for a raw word id: for each active tier,
     * the id's records found by the prefix index and a binary search, then
     * read backwards and forwards with their auxiliary records, limited by
     * $threshold, $start_generation and $num_distinct_generations as Yioop
     * limits them; [estimated total, entries] when $with_remaining_total
     * and the parent bundle's generation_info has an ACTIVE generation.
     * The object's files and blocks are kept natively (its fhs, file_lens
     * and blocks stay as the constructor left them, read_tier is written as
     * Yioop writes it) until a call declines: then they are written into
     * those properties, as Yioop's own reads would have left them, and the
     * object is Yioop's PHP's from then on. Null, having changed nothing,
     * for an id that is not raw, a threshold or start generation that is
     * not an int, distinct generations neither an int nor an int's string,
     * properties not as Yioop's constructor leaves them, a configuration
     * constant that is not an int, and anything on which Yioop's PHP warns,
     * exits or loops (a damaged file).
     *
     * @return array<int, array{0: int, 1: int, 2: int, 3: int, 4: string}>|array{0: int|float, 1: array}|null
     *     entries [generation, first offset, last offset, count, id]
     */
    function getWordInfo(object $dictionary, mixed $word_id, bool $raw = false, mixed $threshold = -1, mixed $start_generation = -1, mixed $num_distinct_generations = -1, bool $with_remaining_total = false): ?array {}
}

namespace yioop_codec\bloom {
    /**
     * BloomFilterFile::contains: whether $value is in the filter $filter
     * (its `filter`, `filter_size` and `num_keys`); php/yioop-integrate.php
     * makes the method call it. Null ("declines", nothing changed) for a
     * $value that is not a string, fields of other types than Yioop's
     * filter files hold (a string filter; sizes ints or integral floats),
     * and sizes on which Yioop's PHP warns or throws.
     */
    function contains(mixed $filter, mixed $value): ?bool {}
}

namespace yioop_codec\stem_en {
    /**
     * The English Tokenizer's static stem($word), called on $class
     * (static::class); php/yioop-integrate.php makes the method call it.
     * Reads the class's $no_stem_list and leaves its private scratch
     * ($buffer, $k, $j) as Yioop's PHP leaves it. Null ("declines", nothing
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
     * least PHRASE_THRESHOLD words, compressed, tagged and parsed as
     * Yioop does, its subject-predicate-object questions (stemmed) =>
     * the sentence's positions (QUESTION_LIST) and => their answers
     * (QUESTION_ANSWER_LIST). Reads LOCALE_DIR's lexicon (once a process),
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
     * called on $class: the text's words, each ["token" => .., "tag" =>
     * ..] as Yioop tags it. Null for a text that is not a string and as
     * extractTripletsPhrases declines for the class, lexicon and locale.
     */
    function tagTokenizePartOfSpeech(mixed $class, mixed $text): ?array {}
}

namespace yioop_codec\ngrams {
    /**
     * NWordGrams' static ngramsContains($phrase, $lang, $filter_prefix),
     * called on $class (static::class), for a filter already in the
     * class's $ngrams cache; php/yioop-integrate.php makes the method call
     * it. Null ("declines", nothing changed) for a filter not cached yet or
     * not a BloomFilterFile itself, a phrase that is not an ASCII string,
     * a locale or prefix that is numeric or of another type, and wherever
     * the filter's own look-up declines.
     */
    function ngramsContains(mixed $class, mixed $phrase, mixed $lang, mixed $filter_prefix = 2): ?bool {}
}

namespace yioop_codec\phrase {
    /**
     * PhraseParser's static stemCharGramSegment($string, $lang, $to_string),
     * called on $class (static::class): the text's terms, lower-cased, split
     * at Yioop's PUNCT and spaces, stemmed by the en_US Tokenizer (joined by
     * spaces for a true $to_string). Null ("declines", nothing changed) for
     * a text that is not a UTF-8 string, a numeric locale, Hindi, the
     * programming languages, a locale whose tokenizer PhraseParser has not
     * loaded or that is not the en_US Tokenizer with its stem switched, a
     * char-gram locale, a no-stem list with numeric words, mbstring
     * encodings other than UTF-8, a PUNCT that is not an alternation of
     * single characters.
     */
    function stemCharGramSegment(mixed $class, mixed $string, mixed $lang, mixed $to_string = false): array|string|null {}

    /**
     * PhraseParser's static hyphenateEntities(&$string, $lang), called on
     * $class: the runs of words that the locale's cached n-word-gram filter
     * holds, hyphenated as Yioop hyphenates them. True once $string is
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
     * times their occurrences, over $len + 1 (an int where exact). The
     * unsafe terms and the regex are the method's own statics, read live.
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
     * that is not strings, texts PCRE might run out of steps on.
     */
    function canonicalizePunctuatedTerms(mixed $tokenizer, mixed &$string): bool {}
}

namespace seekquarry\yioop\library {
    /**
     * The functions Yioop leaves undefined when this extension is loaded are
     * also registered here, for Yioop's C\NS_LIB . "name" string callables.
     */
    function unpackListModified9(int $encoded_list): array {}
    function docIndexModified9(int $encoded_list): int {}
    function unpackInt(mixed $str): int|false {}
    function decodeQueueWeightInfo(mixed $weight_info, mixed $crawl_order): array {}
    function encodeQueueWeightInfo(mixed $weight, mixed $depth, mixed $crawl_order): mixed {}
    function adjustWeightCallback(int $weight_info, int $adjustment): int {}
}

namespace yioop_codec\snippets {
    /**
     * Model::getSnippets($text, $words, $description_length), called by
     * the switched method itself ($model is $this; the constants and the
     * function statics are read from the calling method's class). Yioop's
     * regexes asked one match at a time, only as far as the snippet needs,
     * through PHP's own preg_match, mb_strlen, mb_substr, stristr, trim,
     * strrpos, preg_quote and preg_replace. Null ("declines", nothing
     * changed) for a text that is not a UTF-8 string, words not an array
     * of ASCII strings or filtering down to nothing, a numeric word string
     * or cached $last_words, k/s words with a Kelvin sign or long s in the
     * text, a length that is not an int, mbstring not in UTF-8, or a caller
     * that is not a method of a class with the constants.
     */
    function getSnippets(mixed $model, mixed $text, mixed $words, mixed $description_length): ?string {}
}
