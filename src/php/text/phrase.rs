//! `yioop_codec\phrase\*`: PhraseParser's passes over every page the
//! queue server indexes (core: `crate::text::phrase`): `stemCharGramSegment`,
//! `extractTermSentencePositionsTags`, `hyphenateEntities`,
//! `computeSafeSearchScore`, called by the switched
//! static methods with the class they were called on (`static::class`).
//! Their contracts, declines included: php/yioop_codec.stub.php.
//!
//! `PUNCT` and `NS_LOCALE` are read from Yioop's constants at each call;
//! case mapping of non-ASCII text is PHP's own `mb_strtolower`. The
//! safe-search score's statics are read in place (`classes::live_statics`);
//! its URL regex, where it has the shape of Yioop's, is matched natively
//! (`crate::text::unsafe_url`), and otherwise by PHP's own preg_match. The
//! n-word-gram look-ups ask the filter NWordGrams has cached, as the native
//! `ngramsContains` does. The first three rely on methods of other Yioop
//! files (the en_US Tokenizer's `stem`, `NWordGrams::ngramsContains`), and
//! the positions on the class's own `stemCharGramSegment`: they run only
//! where those are switched too (`crate::php::runtime::switched`).

use crate::php::runtime::classes::{live_statics, loaded, loaded_named, static_array, static_property, user_method};
use crate::php::runtime::errors;
use crate::php::runtime::ffi::{IS_CV, ZEND_RECV, ZEND_RETURN};
use crate::php::runtime::memo::{Kept, Memo, StateHash};
use crate::php::runtime::keys::{find, find_string, update, values, Key};
use crate::php::runtime::convert::{bytes_zval, int_list, is_numeric, num_zval};
use crate::php::text::ngrams;
use crate::php::text::phrases_ahead;
use crate::php::runtime::arrays::list_of;
use crate::php::runtime::engine::{call_function, constant, pcre_limits_at_least, request, with_ini_bytes};
use crate::php::runtime::function::{self, Param};
use crate::php::text::en_us::stem::{scratch, set_scratch, Stemmer};
use crate::php::runtime::zval::{array_zval, bool_zval, empty_array_zval, long_of, long_zval, truthy};
use crate::php::runtime::switched::{calls_native, class_calls_native};
use crate::php::text::en_us::triplets::ctype_is_ascii;
use crate::php_semantics::num::{self, Num};
use crate::text::unsafe_url::UnsafeUrlRegex;
use crate::text::phrase::{hyphenate_entities, lower_case, safe_search_score, segment_terms, sentence_positions, term_positions, Positions, Separators};
use ext_php_rs::ffi::{zend_class_entry, zend_hash_str_find, zend_op_array, HashTable};
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendHashTable, ZendObject, Zval};
use std::cell::{Cell, RefCell};

/// The only tokenizer whose stemmer is native.
pub(crate) const EN_TOKENIZER: &str = "seekquarry\\yioop\\locale\\en_US\\resources\\Tokenizer";
const PUNCT: &str = "seekquarry\\yioop\\configs\\PUNCT";
const NS_LOCALE: &str = "seekquarry\\yioop\\configs\\NS_LOCALE";

php_function!(STEM_CHAR_GRAM_SEGMENT, stem_char_gram_segment_handler, "yioop_codec\\phrase\\stemCharGramSegment", [Param::Value("class"), Param::Value("string"), Param::Value("lang"), Param::Optional("to_string", "false")], DataType::Mixed, |args| {
    let [class, text, lang] = args.values::<3>();
    let to_string = args.take_optional(3).map(|z| z.dereference());
    Ok(stem_char_gram_segment(class, text.dereference(), lang.dereference(), to_string).unwrap_or_default())
});

php_function!(EXTRACT_TERM_SENTENCE_POSITIONS_TAGS, extract_term_sentence_positions_tags_handler, "yioop_codec\\phrase\\extractTermSentencePositionsTags", [Param::Value("class"), Param::Value("string"), Param::Optional("lang", "null"), Param::Optional("extract_sentences", "false")], DataType::Mixed, |args| {
    let [class, text] = args.values::<2>();
    let lang = args.take_optional(2).map(|z| &*z.dereference());
    let sentences = args.take_optional(3).map(|z| &*z.dereference());
    Ok(term_sentence_positions(class, text.dereference(), lang, sentences).unwrap_or_default())
});

php_function!(EXTRACT_PHRASES_IN_LISTS, extract_phrases_in_lists_handler, "yioop_codec\\phrase\\extractPhrasesInLists", [Param::Value("class"), Param::Value("string"), Param::Optional("lang", "null")], DataType::Mixed, |args| {
    let [class, text] = args.values::<2>();
    let lang = args.take_optional(2).map(|z| &*z.dereference());
    Ok(phrases_in_lists(class, text.dereference(), lang).unwrap_or_default())
});

php_function!(HYPHENATE_ENTITIES, hyphenate_entities_handler, "yioop_codec\\phrase\\hyphenateEntities", [Param::Value("class"), Param::Reference("string"), Param::Optional("lang", "null")], DataType::Bool, |args| {
    // Yioop's method reads nothing of its class but NWordGrams'.
    let text = args.take(1).dereference_mut();
    let lang = args.take_optional(2).map(|z| z.dereference());
    let hyphenated = lang.and_then(|lang| hyphenated(text, lang));
    let done = hyphenated.is_some();
    if let Some(hyphenated) = hyphenated {
        *text = bytes_zval(hyphenated.as_bytes());
    }
    Ok(bool_zval(done))
});

php_function!(COMPUTE_SAFE_SEARCH_SCORE, compute_safe_search_score_handler, "yioop_codec\\phrase\\computeSafeSearchScore", [Param::Value("class"), Param::Reference("word_lists"), Param::Value("len"), Param::Optional("url", "\"\"")], DataType::Mixed, |args| {
    let [class, word_lists, len] = args.values::<3>();
    let url = args.take_optional(3).map(|z| &*z.dereference());
    Ok(safe_search_score_of(class, word_lists, len, url).unwrap_or_default())
});

fn safe_search_score_of(class: &Zval, word_lists: &Zval, len: &Zval, url: Option<&Zval>) -> Option<Zval> {
    let statics = live_statics(loaded(class)?, "computesafesearchscore")?;
    let unsafe_terms = statics.get("unsafe_terms")?.dereference().array()?;
    let url_regex = statics.get("unsafe_url_regex")?.dereference();
    // Yioop works out its unsafe terms on the first call that gets that far.
    if unsafe_terms.len() == 0 || url_regex.zend_str().is_none() {
        return None;
    }
    // count() of anything else throws or runs a Countable's own code.
    let word_lists = word_lists.array()?;
    let len = long_of(len)?;
    let url = match url.filter(|url| !url.is_null() && url.bool() != Some(false)) {
        None => None,
        Some(url) => Some(url.zend_str()?.as_bytes()).filter(|url| !url.is_empty() && *url != b"0"),
    };
    if let Some(url) = url {
        if unsafe_url_matches(url_regex, url)? {
            return Some(long_zval(1));
        }
    }
    if word_lists.len() == 0 {
        return Some(long_zval(0));
    }
    // The terms of both arrays are keys (array_keys), so array_intersect's
    // string comparison is key equality: each unsafe term is looked up.
    let (mut num_unsafe_terms, mut unsafe_count) = (0, Num::Int(0));
    for term in values(unsafe_terms) {
        let term = term.dereference();
        let found = match long_of(term) {
            Some(i) => find(word_lists, Key::Int(i)),
            None => find_string(word_lists, term.zend_str()?),
        };
        let Some(list) = found else { continue };
        let count = unsafe { &*list }.dereference().array()?.len() as i64;
        if count > 0 {
            num_unsafe_terms += 1;
            unsafe_count = num::add(unsafe_count, Num::Int(count));
        }
    }
    safe_search_score(num_unsafe_terms, unsafe_count, len).map(num_zval)
}

/// URLs longer than this are left to PCRE. Up to it, trying each of the
/// regex's alternatives (under 200) at every position takes fewer steps
/// than the backtrack limit `limits_allow_matching` asks for.
const NATIVE_URL_MAX: usize = 4096;

thread_local! {
    /// The last URL regex met, as text and as parsed (None: not one
    /// `UnsafeUrlRegex` takes).
    static URL_REGEX: RefCell<Option<(Vec<u8>, Option<UnsafeUrlRegex>)>> = const { RefCell::new(None) };
}

/// `preg_match($regex, $url) == 1`. Yioop's kind of regex is matched
/// natively while PCRE would use its built-in character tables; any other,
/// and a long URL, go to PHP's own preg_match.
fn unsafe_url_matches(regex: &Zval, url: &[u8]) -> Option<bool> {
    let text = regex.zend_str()?.as_bytes();
    if url.len() <= NATIVE_URL_MAX && pcre_tables_are_built_in() && limits_allow_matching() {
        let native = URL_REGEX.with_borrow_mut(|cached| {
            if cached.as_ref().is_none_or(|(seen, _)| seen.as_slice() != text) {
                *cached = Some((text.to_vec(), UnsafeUrlRegex::parse(text)));
            }
            cached.as_ref().and_then(|(_, parsed)| parsed.as_ref()).map(|parsed| parsed.matches(url))
        });
        if native.is_some() {
            return native;
        }
    }
    let matched = call_function("preg_match", &mut [regex.shallow_clone(), bytes_zval(url)])?;
    Some(long_of(&matched) == Some(1))
}

/// Whether PHP's PCRE limits leave the search its steps: Yioop's
/// Config.php sets 1,000,000 and 3,000, and an alternation of words needs
/// a depth of a few; with either set lower, PCRE answers.
fn limits_allow_matching() -> bool {
    pcre_limits_at_least(1_000_000, 1_000)
}

/// Whether PCRE's case folding and word bytes are its built-in ASCII
/// ones: PHP builds other tables only after `setlocale` sets LC_CTYPE,
/// and under "C" or a UTF-8 locale those agree with the built-in ones.
fn pcre_tables_are_built_in() -> bool {
    let name = unsafe { libc::setlocale(libc::LC_CTYPE, std::ptr::null()) };
    if name.is_null() {
        return false;
    }
    let name = unsafe { std::ffi::CStr::from_ptr(name) }.to_bytes();
    let ends_with = |suffix: &[u8]| name.len() >= suffix.len() && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix);
    name.eq_ignore_ascii_case(b"c") || name.eq_ignore_ascii_case(b"posix") || ends_with(b".utf-8") || ends_with(b".utf8")
}

fn stem_char_gram_segment(class: &Zval, text: &Zval, lang: &Zval, to_string: Option<&Zval>) -> Option<Zval> {
    let to_string = match to_string {
        None => false,
        Some(z) if z.is_null() => false,
        Some(z) => z.bool().or_else(|| z.long().map(|i| i != 0))?,
    };
    stems_of(class, text, lang, |stems, _| terms_zval(stems, to_string))
}

/// stemCharGramSegment's terms of `text`, handed to `take` with
/// `mb_strtolower($text)`; None where the native stemCharGramSegment
/// declines.
fn stems_of<R>(class: &Zval, text: &Zval, lang: &Zval, take: impl FnOnce(&[&[u8]], &str) -> R) -> Option<R> {
    let text = utf8(text)?;
    let lang = locale(lang)?;
    let (separators, tokenizer) = segmenting(loaded(class)?, lang)?;
    let mut stemmer = Stemmer::of_class(EN_TOKENIZER)?;
    let lowered_text = lower_case(text, &mut mb_strtolower)?;
    let mut lower = |text: &str| lower_case(text, &mut mb_strtolower);
    let terms = segment_terms(&lowered_text, &separators, |replaced| segment(tokenizer, replaced, lang), &mut lower, &mut |word| stemmer.stem_number(word))?;
    let stems: Vec<&[u8]> = terms.iter().map(|term| term.as_ref().map_or_else(|kept| kept.as_bytes(), |&at| stemmer.stemmed(at))).collect();
    let taken = take(&stems, &lowered_text);
    stemmer.leave_state();
    Some(taken)
}

/// What the native stemCharGramSegment reads for `lang` whatever the
/// text: the separators, and PhraseParser's cached en_US Tokenizer, whose
/// stem is switched; None where it declines.
pub(super) fn segmenting(parser: *mut zend_class_entry, lang: &[u8]) -> Option<(Separators, &'static mut ZendObject)> {
    if lang == b"hi" {
        return None;
    }
    if static_array(parser, "programming_language_map").is_none_or(|map| has_key(map, lang)) {
        return None;
    }
    let separators = separators()?;
    if !encodings_are_utf8() {
        return None;
    }
    let tokenizer = english_tokenizer(parser, lang)?;
    if char_grams(lang)? {
        return None;
    }
    calls_native(EN_TOKENIZER, "stem", "yioop_codec\\stem_en\\stem").then_some((separators, tokenizer))
}

/// extractTermSentencePositionsTags: stemCharGramSegment's terms with
/// their positions, and with `$extract_sentences` the lower-cased text's
/// sentences with theirs. Runs where Yioop's method would call the native
/// stemCharGramSegment (the class's own is switched) and, for sentences,
/// where the en_US Tokenizer has tagTokenizePartOfSpeech and
/// `str_word_count`'s letters are ASCII's.
fn term_sentence_positions(class: &Zval, text: &Zval, lang: Option<&Zval>, extract_sentences: Option<&Zval>) -> Option<Zval> {
    let sentences = extract_sentences.map_or(Some(false), truthy)?;
    let lang = lang?;
    if !positions_run(loaded(class)?, sentences)? {
        return None;
    }
    stems_of(class, text, lang, |stems, lowered| {
        if stems.is_empty() {
            return empty_array_zval();
        }
        let mut out = ZendHashTable::with_capacity(2);
        let _ = out.insert("TERM_POSITIONS", positions_zval(&term_positions(stems)));
        if sentences {
            let _ = out.insert("SENTENCES", positions_zval(&sentence_positions(lowered)));
        }
        array_zval(out)
    })
}

/// Whether the native extractTermSentencePositionsTags runs for
/// `parser`, whatever the text: the class's own stemCharGramSegment is
/// switched and, for sentences, the Tokenizer tags parts of speech.
pub(super) fn positions_run(parser: *mut zend_class_entry, sentences: bool) -> Option<bool> {
    if !class_calls_native(parser, "stemchargramsegment", "yioop_codec\\phrase\\stemchargramsegment") {
        return Some(false);
    }
    Some(!sentences || (ctype_is_ascii() && tags_parts_of_speech()?))
}

/// `method_exists` of the en_US Tokenizer's tagTokenizePartOfSpeech (the
/// tokenizer stems_of finds is that class).
fn tags_parts_of_speech() -> Option<bool> {
    call_function("method_exists", &mut [bytes_zval(EN_TOKENIZER.as_bytes()), bytes_zval(b"tagTokenizePartOfSpeech")])?.bool()
}

/// `[key => [positions]]`, keys as PHP makes them of strings.
fn positions_zval(positions: &Positions) -> Zval {
    array_zval(positions_table(positions.iter(), positions.len()))
}

/// The table of `positions_zval`, for `count` keys (more may be added).
pub(super) fn positions_table<'a>(positions: impl Iterator<Item = (&'a [u8], &'a [i64])>, count: usize) -> ext_php_rs::boxed::ZBox<ZendHashTable> {
    let mut array = ZendHashTable::with_capacity(count as u32);
    for (key, at) in positions {
        update(&mut array, Key::of_string(key), int_list(at.iter().copied()));
    }
    array
}

fn terms_zval(terms: &[&[u8]], to_string: bool) -> Zval {
    if to_string {
        bytes_zval(&terms.join(&b' '))
    } else {
        array_zval(list_of(terms.len(), |i| bytes_zval(&terms[i])))
    }
}

/// segmentSegment's call of the tokenizer's own `segment` (Yioop's en_US
/// one gives its input back), made where Yioop makes it.
fn segment(tokenizer: &mut ZendObject, replaced: &str, lang: &[u8]) -> Option<String> {
    let asks = !replaced.contains('-') || [&b"zh"[..], b"zh-CN", b"ko", b"jp"].contains(&lang);
    if !asks {
        return Some(replaced.to_string());
    }
    let segmented = tokenizer.try_call_method("segment", vec![&replaced]).ok()?;
    if crate::php::runtime::engine::has_exception() {
        return None;
    }
    String::from_utf8(segmented.zend_str()?.as_bytes().to_vec()).ok()
}

/// Texts up to this long have their phrase lists kept: link texts, which
/// repeat from page to page (three in four of a crawl's links).
pub(super) const KEPT_TEXT_MAX: usize = 512;
/// Texts a generation of the memo keeps.
const PHRASE_LISTS_KEPT: usize = 8192;

thread_local! {
    /// Phrase lists by locale and text, for the rest of the request: 8,192
    /// texts a generation answer 71% of a crawl's link texts (bench/README.md).
    static PHRASE_LISTS: Memo = const { Memo::new(PHRASE_LISTS_KEPT) };
    /// The request in which Yioop's own extractPhrasesInLists runs for the
    /// memo, while it runs (a fatal error ends the request, not the run).
    static IN_YIOOPS: Cell<u64> = const { Cell::new(0) };
}

/// extractPhrasesInLists: Yioop's own method's result, kept and given
/// again for the same short text and locale while nothing it depends on
/// changes; or, during a shard build, the lists made ahead for exactly
/// this text (`phrases_ahead`). It runs where every pass it calls is Yioop's (so the result
/// depends only on the text, the locale and the state hashed), for an
/// en_US tokenizer already loaded.
fn phrases_in_lists(class: &Zval, text: &Zval, lang: Option<&Zval>) -> Option<Zval> {
    if IN_YIOOPS.get() == request() {
        return None;
    }
    let bytes = utf8(text)?.as_bytes();
    let lang_name = locale(lang?)?;
    // A long text (a page's) is not kept, but may have been made ahead.
    let long = bytes.len() > KEPT_TEXT_MAX;
    if long && !phrases_ahead::expected() {
        return None;
    }
    let parser = loaded(class)?;
    let tokenizer = loaded_named(EN_TOKENIZER)?;
    // The en_US Tokenizer loaded for the locale (its segment is checked
    // below, so method_exists need not be asked).
    if !cached_tokenizer(parser, lang_name).is_some_and(|object| object.ce == tokenizer) {
        return None;
    }
    if !passes_are_yioops(tokenizer) || !encodings_are_utf8() {
        return None;
    }
    if long {
        return phrases_ahead::lists(parser, tokenizer, bytes, lang_name, locale_state(parser, tokenizer, lang_name)?);
    }
    let state = phrase_state(parser, tokenizer)?;
    let key = memo_key(lang_name, bytes);
    if let Some(kept) = PHRASE_LISTS.with(|memo| memo.get(state, &key)) {
        let [lists, buffer, k, j] = <[Zval; 4]>::try_from(kept).ok()?;
        set_scratch(tokenizer, [buffer, k, j]);
        return Some(lists);
    }
    if let Some(lists) = phrases_ahead::expected().then(|| locale_state(parser, tokenizer, lang_name)).flatten().and_then(|ahead| phrases_ahead::lists(parser, tokenizer, bytes, lang_name, ahead)) {
        return Some(lists);
    }
    let raised = errors::raised();
    IN_YIOOPS.set(request());
    let name = format!("{}::extractPhrasesInLists", String::from_utf8_lossy(class.zend_str()?.as_bytes()));
    let made = call_function(&name, &mut [text.shallow_clone(), lang?.shallow_clone()]);
    IN_YIOOPS.set(0);
    let lists = made?;
    // Kept where it made no diagnostics and left the state as it found it
    // (the first call of a locale loads its filter and tokenizer statics).
    if lists.is_array() && errors::raised() == raised && phrase_state(parser, tokenizer) == Some(state) {
        let kept: Option<Vec<Kept>> = std::iter::once(&lists).chain(scratch(tokenizer)?.iter()).map(Kept::of).collect();
        if let Some(kept) = kept {
            PHRASE_LISTS.with(|memo| memo.put(state, key, kept));
        }
    }
    Some(lists)
}

fn memo_key(lang: &[u8], text: &[u8]) -> Vec<u8> {
    [&(lang.len() as u32).to_le_bytes()[..], lang, text].concat()
}

/// Whether the memo holds `text`'s lists in `lang`, made in `state`.
pub(super) fn kept(state: u64, lang: &[u8], text: &[u8]) -> bool {
    PHRASE_LISTS.with(|memo| memo.holds(state, &memo_key(lang, text)))
}

/// Whether the English passes extractPhrasesInLists calls in other files
/// are Yioop's own (switched), and the tokenizer's segment gives its text
/// back as Yioop's does. PhraseParser's own are checked by the
/// integration tool (the table's reads).
pub(super) fn passes_are_yioops(tokenizer: *mut zend_class_entry) -> bool {
    calls_native(EN_TOKENIZER, "stem", "yioop_codec\\stem_en\\stem")
        && calls_native(EN_TOKENIZER, "canonicalizepunctuatedterms", "yioop_codec\\canonical_en\\canonicalizepunctuatedterms")
        && calls_native(EN_TOKENIZER, "tagtokenizepartofspeech", "yioop_codec\\triplets_en\\tagtokenizepartofspeech")
        && calls_native(EN_TOKENIZER, "extracttripletsphrases", "yioop_codec\\triplets_en\\extracttripletsphrases")
        && calls_native(ngrams::NWORDGRAMS_CLASS, "ngramscontains", "yioop_codec\\ngrams\\ngramscontains")
        && user_method(tokenizer, "segment").is_some_and(returns_its_argument)
}

/// `function f($x) { return $x; }`: its first opcodes receive the argument
/// and return it.
fn returns_its_argument(op_array: &zend_op_array) -> bool {
    if op_array.num_args != 1 || op_array.last < 2 || op_array.opcodes.is_null() {
        return false;
    }
    let ops = unsafe { std::slice::from_raw_parts(op_array.opcodes, 2) };
    ops[0].opcode == ZEND_RECV && ops[1].opcode == ZEND_RETURN && ops[1].op1_type == IS_CV && unsafe { ops[1].op1.var == ops[0].result.var }
}

/// What extractPhrasesInLists' result depends on besides the text and the
/// locale: the C library's character classes and PCRE's limits, the
/// statics its passes read (PhraseParser's, the en_US Tokenizer's, the
/// canonicalization's replacements, NWordGrams' filters). Its constants
/// cannot change; the stemmer's scratch is its output, put back on a hit.
pub(super) fn phrase_state(parser: *mut zend_class_entry, tokenizer: *mut zend_class_entry) -> Option<u64> {
    let mut hash = StateHash::default();
    for name in ["programming_language_map", "tokenizers"] {
        hash.value(static_property(parser, name)?, 2);
    }
    hash.value(static_property(loaded_named(ngrams::NWORDGRAMS_CLASS)?, "ngrams")?, 4);
    english_state(&mut hash, tokenizer)?;
    Some(hash.finish())
}

/// phrase_state for one locale's texts: of PhraseParser's tokenizers and
/// NWordGrams' filters, only `lang`'s (other locales' pages load theirs).
pub(super) fn locale_state(parser: *mut zend_class_entry, tokenizer: *mut zend_class_entry, lang: &[u8]) -> Option<u64> {
    let mut hash = StateHash::default();
    hash.value(static_property(parser, "programming_language_map")?, 2);
    match unsafe { find(static_array(parser, "tokenizers")?, Key::of_string(lang)).map(|at| &*at) } {
        Some(cached) => hash.value(cached, 2),
        None => hash.bytes(b"none"),
    }
    hash.value(ngrams::Filter::all_grams_entry(lang)?, 2);
    english_state(&mut hash, tokenizer)?;
    Some(hash.finish())
}

/// What both states hash besides the caches: the C library's character
/// classes, PCRE's limits, the en_US Tokenizer's statics.
fn english_state(hash: &mut StateHash, tokenizer: *mut zend_class_entry) -> Option<()> {
    let ctype = unsafe { libc::setlocale(libc::LC_CTYPE, std::ptr::null()) };
    if !ctype.is_null() {
        hash.bytes(unsafe { std::ffi::CStr::from_ptr(ctype) }.to_bytes());
    }
    for setting in [c"pcre.backtrack_limit", c"pcre.recursion_limit", c"pcre.jit"] {
        with_ini_bytes(setting, |value| hash.bytes(value));
    }
    for name in ["no_stem_list", "question_token", "adjective_type", "adverb_type", "conjunction_type", "determiner_type", "noun_type", "verb_type"] {
        hash.value(static_property(tokenizer, name)?, 2);
    }
    if let Some(replacements) = live_statics(tokenizer, "canonicalizepunctuatedterms") {
        hash.array(replacements, 3);
    }
    Some(())
}

fn hyphenated(text: &Zval, lang: &Zval) -> Option<String> {
    let text = utf8(text)?;
    let mut grams = hyphenation_filter(locale(lang)?)?;
    let lowered = lower_case(text, &mut mb_strtolower)?;
    let filter = grams.fields()?;
    // Yioop asks ngramsContains, which asks the filter for
    // mb_strtolower of the window: the window is lower-cased already.
    hyphenate_entities(text, &lowered, &mut |windows| {
        let windows: Vec<&[u8]> = windows.iter().map(|w| w.as_bytes()).collect();
        filter.contains_each(&windows).into_iter().map(Result::ok).collect()
    })
}

/// The n-word-gram filter the native hyphenateEntities asks for `lang`;
/// None where it declines whatever the text.
pub(super) fn hyphenation_filter(lang: &[u8]) -> Option<ngrams::Filter> {
    if !encodings_are_utf8() {
        return None;
    }
    if !calls_native(ngrams::NWORDGRAMS_CLASS, "ngramscontains", "yioop_codec\\ngrams\\ngramscontains") {
        return None;
    }
    ngrams::Filter::all_grams(lang)
}

pub(super) fn utf8(text: &Zval) -> Option<&str> {
    std::str::from_utf8(text.zend_str()?.as_bytes()).ok()
}

/// A locale that PHP would not read as a number (it is an array key).
pub(super) fn locale(lang: &Zval) -> Option<&[u8]> {
    let lang = lang.zend_str()?.as_bytes();
    (!lang.is_empty() && !is_numeric(lang)).then_some(lang)
}

pub(super) fn mb_strtolower(text: &str) -> Option<String> {
    let lowered = call_function("mb_strtolower", &mut [bytes_zval(text.as_bytes())])?;
    String::from_utf8(lowered.zend_str()?.as_bytes().to_vec()).ok()
}

pub(crate) fn encodings_are_utf8() -> bool {
    ["mb_internal_encoding", "mb_regex_encoding"].iter().all(|name| {
        call_function(name, &mut []).is_some_and(|encoding| encoding.zend_str().is_some_and(|s| s.as_bytes() == b"UTF-8"))
    })
}

thread_local! {
    /// The last `PUNCT` read and the separators it gives.
    static SEPARATORS: RefCell<Option<(Vec<u8>, Option<Separators>)>> = const { RefCell::new(None) };
}

/// Yioop's separators, from `str_replace("-|", "", PUNCT)`.
fn separators() -> Option<Separators> {
    let punct = constant(PUNCT)?.zend_str()?.as_bytes();
    SEPARATORS.with_borrow_mut(|cached| {
        if cached.as_ref().is_none_or(|(read, _)| read != punct) {
            let non_hyphens = std::str::from_utf8(punct).ok().map(|p| p.replace("-|", ""));
            *cached = Some((punct.to_vec(), non_hyphens.and_then(|p| Separators::from_alternation(&p))));
        }
        cached.as_ref()?.1.clone()
    })
}

/// PhraseParser's cached tokenizer for `lang`; None where it has none
/// cached yet.
pub(super) fn cached_tokenizer(parser: *mut zend_class_entry, lang: &[u8]) -> Option<&'static mut ZendObject> {
    let tokenizers = static_array(parser, "tokenizers")?;
    let slot = unsafe { zend_hash_str_find(tokenizers, lang.as_ptr().cast(), lang.len()) };
    unsafe { slot.cast::<Zval>().as_mut() }?.dereference_mut().object_mut()
}

/// PhraseParser's cached tokenizer for `lang`, if an en_US Tokenizer
/// with a `segment` method; None where it has none cached yet.
fn english_tokenizer(parser: *mut zend_class_entry, lang: &[u8]) -> Option<&'static mut ZendObject> {
    let tokenizer = cached_tokenizer(parser, lang)?;
    let english = tokenizer.get_class_name().is_ok_and(|name| name == EN_TOKENIZER);
    (english && call_function("method_exists", &mut [bytes_zval(EN_TOKENIZER.as_bytes()), bytes_zval(b"segment")])?.bool()?).then_some(tokenizer)
}

/// Whether `lang` char-grams its terms: `class_exists` of its Tokenizer
/// class (autoloading, as Yioop's check does) with `$char_gram_len` set.
fn char_grams(lang: &[u8]) -> Option<bool> {
    let mut name = constant(NS_LOCALE)?.zend_str()?.as_bytes().to_vec();
    name.extend_from_slice(lang);
    name.extend_from_slice(b"\\resources\\Tokenizer");
    if !call_function("class_exists", &mut [bytes_zval(&name)])?.bool()? {
        return Some(false);
    }
    let class = loaded(&bytes_zval(&name))?;
    Some(static_property(class, "char_gram_len").is_some_and(|length| !length.is_null()))
}

fn has_key(table: &HashTable, key: &[u8]) -> bool {
    find(table, Key::Str(key)).is_some_and(|value| !unsafe { &*value }.dereference().is_null())
}

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&STEM_CHAR_GRAM_SEGMENT, stem_char_gram_segment_handler), (&EXTRACT_TERM_SENTENCE_POSITIONS_TAGS, extract_term_sentence_positions_tags_handler), (&EXTRACT_PHRASES_IN_LISTS, extract_phrases_in_lists_handler), (&HYPHENATE_ENTITIES, hyphenate_entities_handler), (&COMPUTE_SAFE_SEARCH_SCORE, compute_safe_search_score_handler)])
}
