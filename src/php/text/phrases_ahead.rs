//! The shard build's pages and links made into phrase lists on another
//! core, ahead of PHP (where `yioop.compress_threads` is above 1).
//!
//! `IndexArchiveBundle::buildInvertedIndexShard` reads a generation's
//! summaries 8,000 at a time (`getObjects`, native) and then, one by one,
//! asks `PhraseParser::extractPhrasesInLists` for the text it makes of
//! each: a page's host words, title, path words and description; a link's
//! description. Those passes (`crate::text::phrase_lists`) were most of the
//! build, run on PHP's thread while the other core idled.
//!
//! - `getObjects` notes the summaries it read ([`note_objects`]).
//! - The first text of the build that the memo does not answer asks
//!   [`lists`], which, on PHP's thread, makes each summary's text as the
//!   build will (Yioop's own `UrlParser` calls), canonicalizes it with
//!   Yioop's own `canonicalizePunctuatedTerms`, reads what the passes read,
//!   and hands the texts to a thread: each text once, less the short ones
//!   the memo holds. That first text is PHP's.
//! - Each later text is looked up (a short one in the memo first): where
//!   the thread made lists for exactly that text and locale, with nothing
//!   the passes read changed since (a state hash as the memo's, of this
//!   locale's tokenizer and filter), they are given as Yioop's method
//!   gives them, the stemmer's scratch left as its passes leave it.
//!   Anything else runs as before; a wrong guess costs only the other
//!   core's time.

use super::en_us::stem::{set_scratch, Stemmer};
use super::en_us::triplets;
use super::phrase::{self, EN_TOKENIZER};
use crate::php::runtime::classes::{class_constant, loaded_named};
use crate::php::runtime::convert::{bytes_zval, int_list};
use crate::php::runtime::engine::{call_function, constant, has_exception};
use crate::php::runtime::errors;
use crate::php::runtime::keys::{find, update, Key};
use crate::php::runtime::zval::{array_zval, long_zval, reference_zval, truthy};
use crate::index::bloom::BloomFilter;
use crate::text::phrase_lists::{phrase_lists, Passes, PhraseLists};
use ext_php_rs::ffi::zend_class_entry;
use ext_php_rs::types::{ZendHashTable, Zval};
use rustc_hash::FxHashMap;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// A read of fewer objects is not a shard build's (a search reads one).
const MIN_OBJECTS: usize = 64;

const CRAWL_CONSTANTS: &str = "seekquarry\\yioop\\library\\CrawlConstants";
const ENABLE_QUESTION_ANSWERING: &str = "seekquarry\\yioop\\configs\\ENABLE_QUESTION_ANSWERING";
const HOST_WORDS: &str = "seekquarry\\yioop\\library\\UrlParser::getWordsInHostUrl";
const PATH_WORDS: &str = "seekquarry\\yioop\\library\\UrlParser::getWordsLastPathPartUrl";
const CANONICALIZE: &str = "seekquarry\\yioop\\library\\PhraseParser::canonicalizePunctuatedTerms";

/// A summary's fields the build's text is made of.
struct Page {
    url: Vec<u8>,
    title: Vec<u8>,
    description: Vec<u8>,
    lang: Vec<u8>,
    link: bool,
}

enum Slot {
    Waiting,
    Making,
    Made(Box<PhraseLists>),
    Failed,
    Taken,
}

/// The slots PHP's thread and the worker share.
struct Shared {
    slots: Mutex<Vec<Slot>>,
    changed: Condvar,
    stop: AtomicBool,
}

/// The texts handed to the worker, by text.
struct Ahead {
    lang: Vec<u8>,
    state: u64,
    slot_of: FxHashMap<Vec<u8>, usize>,
    canonical_seconds: Vec<f64>,
    shared: Arc<Shared>,
    worker: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Ahead {
    /// Stops the worker after its text, and joins it: no thread runs the
    /// library's code once PHP unloads it ([`forget`] at shutdown).
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        if let Some(worker) = self.worker.take() {
            let _ = worker.join(); // a panic there ended it; nothing to hand on
        }
    }
}

thread_local! {
    /// Pages of the last large read, not yet handed over.
    static PAGES: RefCell<Vec<Page>> = const { RefCell::new(Vec::new()) };
    static AHEAD: RefCell<Option<Ahead>> = const { RefCell::new(None) };
    /// `mb_strtolower` of each character other than ASCII met so far.
    static LOWER: RefCell<FxHashMap<char, String>> = RefCell::default();
    /// Hand-overs the passes were unready for, since the pages were noted.
    static FAILED: Cell<u32> = const { Cell::new(0) };
}

/// Lists made, and given to PHP, in this process (phpinfo).
static MADE: AtomicU64 = AtomicU64::new(0);
static USED: AtomicU64 = AtomicU64::new(0);

pub fn counts() -> (u64, u64) {
    (MADE.load(Ordering::Relaxed), USED.load(Ordering::Relaxed))
}

/// Notes the pages of a `getObjects` read (`[offset, summary]` pairs),
/// and stops the work on an earlier one.
pub fn note_objects<P: std::ops::Deref<Target = ZendHashTable>>(pairs: &[P]) {
    if pairs.len() < MIN_OBJECTS || crate::php::settings::compress_threads() < 2 {
        return;
    }
    AHEAD.with_borrow_mut(|ahead| *ahead = None);
    let pages = fields().map(|keys| pairs.iter().filter_map(|pair| page_of(pair, &keys)).collect()).unwrap_or_default();
    PAGES.with_borrow_mut(|noted| *noted = pages);
    FAILED.set(0);
}

/// Drops the noted summaries and the lists made, the worker joined (the
/// module's shutdown).
pub fn forget() {
    PAGES.with_borrow_mut(Vec::clear);
    AHEAD.with_borrow_mut(|ahead| *ahead = None);
}

/// Whether any page is noted or handed over.
pub fn expected() -> bool {
    PAGES.with_borrow(|pages| !pages.is_empty()) || AHEAD.with_borrow(Option::is_some)
}

/// CrawlConstants' URL, TITLE, DESCRIPTION, LANG, TYPE and JUST_METAS.
fn fields() -> Option<[Vec<u8>; 6]> {
    let constants = unsafe { &*loaded_named(CRAWL_CONSTANTS)? };
    let field = |name| class_constant(constants, name).and_then(Zval::zend_str).map(|text| text.as_bytes().to_vec());
    Some([field("URL")?, field("TITLE")?, field("DESCRIPTION")?, field("LANG")?, field("TYPE")?, field("JUST_METAS")?])
}

/// A summary whose text the build makes from strings, in a locale it names.
fn page_of(pair: &ZendHashTable, keys: &[Vec<u8>; 6]) -> Option<Page> {
    let site = unsafe { &*find(pair, Key::Int(1))? }.dereference().array()?;
    let text = |key: &[u8]| -> Option<Vec<u8>> {
        let value = unsafe { &*find(site, Key::of_string(key))? }.dereference();
        value.zend_str().map(|s| s.as_bytes().to_vec())
    };
    let [url, title, description, lang, kind, just_metas] = keys;
    if find(site, Key::of_string(just_metas)).is_some() {
        return None;
    }
    let link = text(kind).is_some_and(|kind| kind == b"link");
    let lang = text(lang).filter(|lang| !lang.is_empty() && lang != b"0")?;
    let title = if link { Vec::new() } else { text(title)? };
    Some(Page { url: if link { Vec::new() } else { text(url)? }, title, description: text(description)?, lang, link })
}

/// The lists of `text` made ahead, as a PHP array; None where PHP's
/// passes are to run. Hands the noted pages over on the first call that
/// can.
pub fn lists(parser: *mut zend_class_entry, tokenizer: *mut zend_class_entry, text: &[u8], lang: &[u8], state: u64) -> Option<Zval> {
    if AHEAD.with_borrow(Option::is_none) {
        // This text is PHP's: the worker has only begun.
        hand_over(parser, tokenizer, text, lang);
        return None;
    }
    let (lists, scratch) = AHEAD.with_borrow(|ahead| {
        let ahead = ahead.as_ref().filter(|ahead| ahead.lang == lang && ahead.state == state)?;
        let at = *ahead.slot_of.get(text)?;
        with_made(&ahead.shared, at, |lists| (lists_zval(lists, ahead.canonical_seconds[at]), lists.scratch.clone()))
    })?;
    USED.fetch_add(1, Ordering::Relaxed);
    if let Some(state) = scratch {
        set_scratch(tokenizer, [bytes_zval(&state.buffer), long_zval(state.k), long_zval(state.j)]);
    }
    Some(lists)
}

/// `given` slot `at`'s lists, waited for while the worker makes them
/// (they serve the text each time it comes); None where the worker failed,
/// or had not begun (the slot is then PHP's).
fn with_made<R>(shared: &Shared, at: usize, given: impl FnOnce(&PhraseLists) -> R) -> Option<R> {
    let mut slots = shared.slots.lock().ok()?;
    while matches!(slots[at], Slot::Making) {
        slots = shared.changed.wait(slots).ok()?;
    }
    if matches!(slots[at], Slot::Waiting) {
        slots[at] = Slot::Taken;
    }
    match &slots[at] {
        Slot::Made(lists) => Some(given(lists)),
        _ => None,
    }
}

/// The noted pages of locale `lang` after the one `asked` for, their texts
/// made and canonicalized by Yioop's own methods, handed to a worker; nothing where the passes
/// would not all run natively (the pages stay noted for a later call).
fn hand_over(parser: *mut zend_class_entry, tokenizer: *mut zend_class_entry, asked: &[u8], lang: &[u8]) {
    let Some(mut passes) = passes(parser, lang) else {
        give_up_after_tries();
        return;
    };
    let pages = PAGES.with_borrow_mut(std::mem::take);
    let Some(memo_state) = phrase::phrase_state(parser, tokenizer) else { return };
    let raised = errors::raised();
    let mut slot_of: FxHashMap<Vec<u8>, usize> = FxHashMap::default();
    let (mut canonicals, mut canonical_seconds) = (Vec::new(), Vec::new());
    errors::silenced(|| for page in pages.iter().filter(|page| page.lang == lang) {
        let Some(text) = build_text(page) else { break };
        // Each text once; a short one the memo holds is its.
        let short_and_kept = text.len() <= phrase::KEPT_TEXT_MAX && phrase::kept(memo_state, lang, &text);
        if slot_of.contains_key(&text) || short_and_kept || (canonicals.is_empty() && text == asked) {
            continue;
        }
        let started = std::time::Instant::now();
        let Some(canonical) = canonicalized(&text, lang) else { break };
        if !note_lower_cases(&canonical) {
            break;
        }
        slot_of.insert(text, canonicals.len());
        canonicals.push(canonical);
        canonical_seconds.push(started.elapsed().as_secs_f64());
    });
    // Yioop's methods raised something, or threw: its own calls will.
    if errors::raised() != raised || has_exception() {
        if has_exception() {
            unsafe { crate::php::runtime::ffi::zend_clear_exception() };
        }
        return;
    }
    // As the canonicalization's first calls left it.
    let Some(state) = phrase::locale_state(parser, tokenizer, lang) else { return };
    passes.lower = LOWER.with_borrow(Clone::clone);
    let shared = Arc::new(Shared { slots: Mutex::new(canonicals.iter().map(|_| Slot::Waiting).collect()), changed: Condvar::new(), stop: AtomicBool::new(false) });
    let worker = shared.clone();
    let spawned = std::thread::Builder::new().name("yioop-phrases".into()).spawn(move || make_all(&worker, &passes, &canonicals));
    if let Ok(worker) = spawned {
        AHEAD.with_borrow_mut(|ahead| *ahead = Some(Ahead { lang: lang.to_vec(), state, slot_of, canonical_seconds, shared, worker: Some(worker) }));
    }
}

/// Texts that may find the passes unready (the first of a process
/// loads NWordGrams' filter) before the noted pages are dropped.
const TRIES: u32 = 4;

/// Drops the noted pages once [`TRIES`] texts found the passes unready.
fn give_up_after_tries() {
    let failed = FAILED.with(|failed| failed.replace(failed.get() + 1) + 1);
    if failed >= TRIES {
        PAGES.with_borrow_mut(Vec::clear);
    }
}

/// The worker: each text's lists in turn, unless PHP took it first.
fn make_all(shared: &Shared, passes: &Passes, canonicals: &[String]) {
    for (at, canonical) in canonicals.iter().enumerate() {
        if shared.stop.load(Ordering::Relaxed) {
            return;
        }
        {
            let Ok(mut slots) = shared.slots.lock() else { return };
            if !matches!(slots[at], Slot::Waiting) {
                continue;
            }
            slots[at] = Slot::Making;
        }
        let made = phrase_lists(canonical, passes);
        let Ok(mut slots) = shared.slots.lock() else { return };
        slots[at] = match made {
            Some(lists) => {
                MADE.fetch_add(1, Ordering::Relaxed);
                Slot::Made(Box::new(lists))
            }
            None => Slot::Failed,
        };
        drop(slots);
        shared.changed.notify_all();
    }
}

/// What the passes read for `lang`, where each would run natively.
fn passes(parser: *mut zend_class_entry, lang: &[u8]) -> Option<Passes> {
    let question_answering = truthy(constant(ENABLE_QUESTION_ANSWERING)?)?;
    if !question_answering || !phrase::positions_run(parser, true)? {
        return None;
    }
    let (separators, _) = phrase::segmenting(parser, lang)?;
    let no_stem = Stemmer::of_class(EN_TOKENIZER)?.no_stem_words();
    let mut grams = phrase::hyphenation_filter(lang)?;
    let filter = grams.fields()?;
    let (bits, filter_size, num_keys) = (filter.filter.to_vec(), filter.filter_size, filter.num_keys);
    let known = Box::new(move |windows: &[&[u8]]| {
        let filter = BloomFilter { filter: &bits, filter_size, num_keys };
        filter.contains_each(windows).into_iter().map(Result::ok).collect()
    });
    let triplets::Reads { lexicon, grammar, question_token, threshold } = triplets::reads(&bytes_zval(EN_TOKENIZER.as_bytes()))?;
    Some(Passes { separators, no_stem, known, lower: FxHashMap::default(), question_answering, threshold, question_token, grammar, lexicon })
}

/// The text buildInvertedIndexShard makes of a page: a link's
/// description; a document's host words, title, path words and
/// description. None where a call failed.
fn build_text(page: &Page) -> Option<Vec<u8>> {
    if page.link {
        return Some(page.description.clone());
    }
    let url: Vec<u8> = page.url.iter().flat_map(|&b| if b == b'|' { b"%7C".to_vec() } else { vec![b] }).collect();
    let words = |method: &str| -> Option<Vec<u8>> { Some(call_function(method, &mut [bytes_zval(&url)])?.zend_str()?.as_bytes().to_vec()) };
    let (host, path) = (words(HOST_WORDS)?, words(PATH_WORDS)?);
    Some([&host[..], b" .. ", &page.title, b" ..  ", &path, b" .. ", &page.description].concat())
}

/// `PhraseParser::canonicalizePunctuatedTerms($text, $lang)`'s text, as
/// UTF-8.
fn canonicalized(text: &[u8], lang: &[u8]) -> Option<String> {
    let mut reference = reference_zval();
    *reference.dereference_mut() = bytes_zval(text);
    call_function(CANONICALIZE, &mut [reference.shallow_clone(), bytes_zval(lang)])?;
    String::from_utf8(reference.dereference().zend_str()?.as_bytes().to_vec()).ok()
}

/// `mb_strtolower` of each character of `text` other than ASCII, and of
/// the characters those give, noted; false where PHP's call failed.
fn note_lower_cases(text: &str) -> bool {
    let mut pending: Vec<char> = text.chars().filter(|c| !c.is_ascii()).collect();
    while let Some(c) = pending.pop() {
        if LOWER.with_borrow(|lower| lower.contains_key(&c)) {
            continue;
        }
        let Some(lowered) = phrase::mb_strtolower(c.encode_utf8(&mut [0; 4])) else { return false };
        pending.extend(lowered.chars().filter(|c| !c.is_ascii()));
        LOWER.with_borrow_mut(|lower| lower.insert(c, lowered));
    }
    true
}

/// Yioop's `['TIMES' => .., 'QUESTION_ANSWER_LIST' => .., 'WORD_LIST' => ..]`.
fn lists_zval(lists: &PhraseLists, canonical_seconds: f64) -> Zval {
    let seconds = |s: f64| {
        let mut z = Zval::new();
        z.set_double(s);
        z
    };
    let mut times = ZendHashTable::with_capacity(3);
    let _ = times.insert("CANONICALIZE", seconds(canonical_seconds + lists.seconds[0]));
    let _ = times.insert("TERM_POSITIONS_SENTENCE_TAGGING", seconds(lists.seconds[1]));
    let _ = times.insert("QUESTION_ANSWER_EXTRACT", if lists.answers.is_some() { seconds(lists.seconds[2]) } else { long_zval(0) });
    let mut out = ZendHashTable::with_capacity(3);
    let _ = out.insert("TIMES", array_zval(times));
    if let Some(answers) = &lists.answers {
        let _ = out.insert("QUESTION_ANSWER_LIST", triplets::answers_zval(answers));
    }
    // TERM_POSITIONS + QUESTION_LIST: a question already a key keeps the term's.
    let terms = lists.terms.iter().map(|(term, at)| (&term[..], &at[..]));
    let mut words = phrase::positions_table(terms, lists.terms.len() + lists.questions.len());
    for (question, sentence) in &lists.questions {
        if find(&words, Key::Str(question.as_bytes())).is_none() {
            update(&mut words, Key::Str(question.as_bytes()), int_list(lists.sentences[*sentence].1.iter().copied()));
        }
    }
    let _ = out.insert("WORD_LIST", array_zval(words));
    array_zval(out)
}
