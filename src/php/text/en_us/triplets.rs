//! `yioop_codec\triplets_en\*`: the English Tokenizer's
//! `extractTripletsPhrases` and `tagTokenizePartOfSpeech` (core:
//! `crate::text::en_us::triplets`), called by the switched static methods
//! with the class they were called on (`static::class`). Their contracts,
//! declines included: php/yioop_codec.stub.php.
//!
//! Read at each call: the lexicon (`LOCALE_DIR`'s, read once a process, as
//! Yioop's function-static dictionary is), `PHRASE_THRESHOLD`, the class's
//! part-of-speech lists and `$question_token`. Questions are stemmed by the
//! native en_US stemmer, so extractTripletsPhrases runs only where the
//! class's `stem` is switched too (`crate::php::runtime::switched`), and
//! leaves the stemmer's scratch as Yioop's would.

use crate::php::runtime::ffi::{LC_CTYPE, isalnum, isalpha, isspace, setlocale, tolower, toupper};
use crate::php::runtime::classes::{loaded, static_array, static_property};
use crate::php::runtime::convert::{bytes_zval, is_numeric, numeric_value};
use crate::php::runtime::keys::{entries, Key};
use crate::php::runtime::arrays::list_of;
use crate::php::text::phrase::{encodings_are_utf8, EN_TOKENIZER};
use crate::php::runtime::engine::{call_function, constant};
use crate::php::runtime::function::{self, Param};
use crate::php::text::en_us::stem::Stemmer;
use crate::php::runtime::switched::calls_native;
use crate::php::runtime::zval::array_zval;
use crate::php_semantics::num::Num;
use crate::text::en_us::triplets::{extract_triplets_phrases, tag, Extracted, Grammar, Lexicon, Settings};
use ext_php_rs::ffi::zend_class_entry;
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendHashTable, Zval};
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::cell::RefCell;
use std::os::raw::c_int;
use std::sync::Arc;

const LOCALE_DIR: &str = "seekquarry\\yioop\\configs\\LOCALE_DIR";
const PHRASE_THRESHOLD: &str = "seekquarry\\yioop\\configs\\PHRASE_THRESHOLD";

php_function!(EXTRACT_TRIPLETS_PHRASES, extract_triplets_phrases_handler, "yioop_codec\\triplets_en\\extractTripletsPhrases", [Param::Value("class"), Param::Value("word_and_phrase_list")], DataType::Mixed, |args| {
    let [class, sentences] = args.values::<2>();
    Ok(triplets(class, sentences.dereference()).unwrap_or_default())
});

php_function!(TAG_TOKENIZE_PART_OF_SPEECH, tag_tokenize_part_of_speech_handler, "yioop_codec\\triplets_en\\tagTokenizePartOfSpeech", [Param::Value("class"), Param::Value("text")], DataType::Mixed, |args| {
    let [class, text] = args.values::<2>();
    Ok(tagged(class, text.dereference()).unwrap_or_default())
});

fn tagged(class: &Zval, text: &Zval) -> Option<Zval> {
    let text = text.zend_str()?.as_bytes();
    let lexicon = english(class)?;
    let words = tag(text, &lexicon);
    Some(array_zval(list_of(words.len(), |i| {
        let mut pair = ZendHashTable::with_capacity(2);
        let _ = pair.insert("token", bytes_zval(words[i].token.as_bytes()));
        let _ = pair.insert("tag", bytes_zval(words[i].tag.as_bytes()));
        array_zval(pair)
    })))
}

/// What extractTripletsPhrases reads besides the sentences.
pub(crate) struct Reads {
    pub lexicon: Arc<Lexicon>,
    pub grammar: Arc<Grammar>,
    pub question_token: String,
    pub threshold: f64,
}

/// What the native extractTripletsPhrases of `class` reads; None where it
/// declines whatever the sentences (its questions are stemmed by the
/// native stemmer, so the class's `stem` must be switched too).
pub(crate) fn reads(class: &Zval) -> Option<Reads> {
    let lexicon = english(class)?;
    let scope = loaded(class)?;
    let reads = Reads { lexicon, grammar: grammar(scope)?, question_token: question_token(scope)?, threshold: threshold()? };
    calls_native(EN_TOKENIZER, "stem", "yioop_codec\\stem_en\\stem").then_some(reads)
}

fn triplets(class: &Zval, sentences: &Zval) -> Option<Zval> {
    let sentences = entries(sentences.array()?);
    let Reads { lexicon, grammar, question_token, threshold } = reads(class)?;
    let mut stemmer = Stemmer::of_class(EN_TOKENIZER)?;
    // The sentences are the keys; an integer-like one is an int key.
    let texts: Vec<Cow<[u8]>> = sentences.iter().map(|(key, _)| key.bytes()).collect();
    let texts: Vec<&[u8]> = texts.iter().map(|text| &**text).collect();
    let settings = Settings { threshold, question_token: &question_token, grammar: &grammar, lexicon: &lexicon };
    // Stems of ASCII words are ASCII.
    let mut stem = |word: &str, out: &mut String| out.push_str(&String::from_utf8_lossy(stemmer.stem(word.as_bytes())));
    let extracted = extract_triplets_phrases(&texts, &settings, &mut stem).ok()?;
    stemmer.leave_state();
    Some(result_zval(&extracted, &sentences))
}

/// `["QUESTION_LIST" => question => the sentence's positions,
/// "QUESTION_ANSWER_LIST" => question => answer]`; questions hold the
/// question token, so no key is integer-like.
fn result_zval(extracted: &Extracted, sentences: &[(Key, &Zval)]) -> Zval {
    let mut questions = ZendHashTable::with_capacity(extracted.questions.entries().len() as u32);
    for (question, sentence) in extracted.questions.entries() {
        let _ = questions.insert(question.as_str(), sentences[*sentence].1.dereference().shallow_clone());
    }
    let mut out = ZendHashTable::with_capacity(2);
    let _ = out.insert("QUESTION_LIST", array_zval(questions));
    let _ = out.insert("QUESTION_ANSWER_LIST", answers_zval(extracted.answers.entries()));
    array_zval(out)
}

/// QUESTION_ANSWER_LIST: question => answer.
pub(crate) fn answers_zval(answers: &[(String, String)]) -> Zval {
    let mut list = ZendHashTable::with_capacity(answers.len() as u32);
    for (question, answer) in answers {
        let _ = list.insert(question.as_str(), bytes_zval(answer.as_bytes()));
    }
    array_zval(list)
}

/// The lexicon, where `class` is the en_US Tokenizer and PHP's text
/// handling is what the core assumes.
fn english(class: &Zval) -> Option<Arc<Lexicon>> {
    if class.zend_str()?.as_bytes() != EN_TOKENIZER.as_bytes() || !encodings_are_utf8() || !ctype_is_ascii() {
        return None;
    }
    lexicon()
}


thread_local! {
    /// The last LC_CTYPE locale checked, and whether it is ASCII's.
    static CTYPE_CHECKED: RefCell<Option<(Vec<u8>, bool)>> = const { RefCell::new(None) };
}

/// Whether the C library's locale classifies bytes as the C locale does,
/// as far as Yioop's regexes and `str_word_count` can tell; checked once
/// per locale name.
pub(crate) fn ctype_is_ascii() -> bool {
    let name = unsafe { setlocale(LC_CTYPE, std::ptr::null()) };
    if name.is_null() {
        return false;
    }
    let name = unsafe { std::ffi::CStr::from_ptr(name) }.to_bytes();
    CTYPE_CHECKED.with_borrow_mut(|checked| match checked {
        Some((checked_name, ascii)) if checked_name.as_slice() == name => *ascii,
        _ => {
            let ascii = classes_are_ascii();
            *checked = Some((name.to_vec(), ascii));
            ascii
        }
    })
}

fn classes_are_ascii() -> bool {
    (0..=255u8).all(|b| {
        let c = c_int::from(b);
        let same = |class: unsafe extern "C" fn(c_int) -> c_int, ascii: bool| (unsafe { class(c) } != 0) == ascii;
        same(isalpha, b.is_ascii_alphabetic())
            && same(isalnum, b.is_ascii_alphanumeric())
            && same(isspace, matches!(b, b'\t'..=b'\r' | b' '))
            && unsafe { tolower(c) } == c_int::from(b.to_ascii_lowercase())
            && unsafe { toupper(c) } == c_int::from(b.to_ascii_uppercase())
    })
}

thread_local! {
    /// Lexicons read, by path: None for a file not in a form read here.
    static LEXICONS: RefCell<FxHashMap<Vec<u8>, Option<Arc<Lexicon>>>> = RefCell::default();
}

/// `LOCALE_DIR`'s en_US lexicon, read (through PHP's `gzdecode`) once a
/// process; a missing file is looked for again, as Yioop does.
fn lexicon() -> Option<Arc<Lexicon>> {
    let mut path = constant(LOCALE_DIR)?.zend_str()?.as_bytes().to_vec();
    path.extend_from_slice(b"/en_US/resources/lexicon.txt.gz");
    if let Some(read) = LEXICONS.with_borrow(|read| read.get(&path).cloned()) {
        return read;
    }
    let file = std::str::from_utf8(&path).ok()?;
    let compressed = std::fs::read(file).ok()?;
    // A damaged file: gzdecode would warn, and Yioop's PHP warns once itself.
    if !crate::php_semantics::zlib::gzdecode_succeeds(&compressed) {
        return None;
    }
    let text = call_function("gzdecode", &mut [bytes_zval(&compressed)])?;
    let lexicon = Lexicon::parse(text.zend_str()?.as_bytes()).map(Arc::new);
    LEXICONS.with_borrow_mut(|read| read.insert(path, lexicon.clone()));
    lexicon
}

/// The class's static `$name`: a list of non-numeric strings.
fn type_list(scope: *mut zend_class_entry, name: &'static str) -> Option<Vec<String>> {
    let values = static_array(scope, name)?.values().map(|v| {
        let s = v.dereference().zend_str()?.as_bytes();
        (!is_numeric(s)).then(|| String::from_utf8(s.to_vec()).ok()).flatten()
    });
    values.collect()
}

/// Whether the class's static `$name` holds `list`'s strings, in order.
fn type_list_is(scope: *mut zend_class_entry, name: &'static str, list: &[String]) -> bool {
    let Some(array) = static_array(scope, name) else { return false };
    let mut values = array.values();
    list.iter().all(|kept| values.next().and_then(|v| v.dereference().zend_str()).is_some_and(|s| s.as_bytes() == kept.as_bytes())) && values.next().is_none()
}

const TYPE_LISTS: [&str; 6] = ["adjective_type", "adverb_type", "conjunction_type", "determiner_type", "noun_type", "verb_type"];

fn grammar_lists(grammar: &Grammar) -> [&[String]; 6] {
    [&grammar.adjective, &grammar.adverb, &grammar.conjunction, &grammar.determiner, &grammar.noun, &grammar.verb]
}

thread_local! {
    /// The type lists as last read: the class's statics, the same for
    /// every page, compared each call rather than copied.
    static GRAMMAR: RefCell<Option<Arc<Grammar>>> = const { RefCell::new(None) };
}

fn grammar(scope: *mut zend_class_entry) -> Option<Arc<Grammar>> {
    let kept = GRAMMAR.with_borrow(Clone::clone);
    if let Some(kept) = kept.filter(|g| TYPE_LISTS.iter().zip(grammar_lists(g)).all(|(name, list)| type_list_is(scope, name, list))) {
        return Some(kept);
    }
    let grammar = Arc::new(Grammar {
        adjective: type_list(scope, "adjective_type")?,
        adverb: type_list(scope, "adverb_type")?,
        conjunction: type_list(scope, "conjunction_type")?,
        determiner: type_list(scope, "determiner_type")?,
        noun: type_list(scope, "noun_type")?,
        verb: type_list(scope, "verb_type")?,
    });
    GRAMMAR.with_borrow_mut(|kept| *kept = Some(grammar.clone()));
    Some(grammar)
}

fn question_token(scope: *mut zend_class_entry) -> Option<String> {
    let token = static_property(scope, "question_token")?.zend_str()?.as_bytes();
    let word = !token.is_empty() && token.iter().all(u8::is_ascii_alphanumeric) && !is_numeric(token);
    word.then(|| String::from_utf8_lossy(token).into_owned())
}

/// `PHRASE_THRESHOLD` as `str_word_count(..) >= PHRASE_THRESHOLD` compares
/// with it: an int, a float or a numeric string (the installer writes
/// strings).
fn threshold() -> Option<f64> {
    let value = constant(PHRASE_THRESHOLD)?;
    if let Some(i) = value.long() {
        return Some(i as f64);
    }
    if let Some(d) = value.double() {
        return Some(d);
    }
    numeric_value(value.zend_str()?.as_bytes()).map(Num::as_f64)
}

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&EXTRACT_TRIPLETS_PHRASES, extract_triplets_phrases_handler), (&TAG_TOKENIZE_PART_OF_SPEECH, tag_tokenize_part_of_speech_handler)])
}
