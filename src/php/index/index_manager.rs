//! `yioop_codec\index_manager\discountedNumDocsTerm`: IndexManager's
//! `discountedNumDocsTerm($term, $index_name)`, called by the switched
//! static method with `static::class`. Its contract, declines included:
//! php/yioop_codec.stub.php.
//!
//! A search asks it for `"link:" . $word` once per posting a word iterator
//! takes, and for a term the index lacks Yioop keeps no answer (it returns
//! 0.0 before its static cache), so each call looks the term up again:
//! hundreds of times a page. Natively: a cached answer is read from the
//! method's static cache in place (`classes::live_statics`, shared with
//! subclasses); otherwise the index comes from `IndexManager::$indexes` (one
//! not loaded yet is left to Yioop's PHP), the term's id is looked up by the native
//! IndexDictionary (`dictionary::raw_word_info`), and where the index does
//! not hold it the answer is 0.0, which Yioop would not cache either. A term
//! it holds is left to Yioop's PHP, which works out the total and caches it;
//! so is an index whose active generation's shard Yioop would open too.

use crate::index::shard::build::word_id;
use crate::php::index::dictionary::raw_word_info;
use crate::php::runtime::classes::{loaded, loaded_named, method_statics, static_array, user_method};
use crate::php::runtime::convert::bytes_zval;
use crate::php::runtime::engine::{call_function, constant, file_exists, plain_file_path, PerRequest};
use crate::php::runtime::function::{self, Param};
use crate::php::runtime::keys::{find, Key};
use crate::php::runtime::object::Object;
use crate::php::runtime::switched::calls_native;
use crate::php::runtime::zval::{int_like, long_of};
use ext_php_rs::ffi::{zend_class_entry, zend_op_array};
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;

const INDEX_MANAGER: &str = "seekquarry\\yioop\\library\\IndexManager";
const INDEX_ARCHIVE_BUNDLE: &str = "seekquarry\\yioop\\library\\IndexArchiveBundle";
const INDEX_DICTIONARY: &str = "seekquarry\\yioop\\library\\IndexDictionary";
/// `CrawlConstants::FEED_CRAWL_TIME`: `getIndex` takes the feed's index for it.
const FEED_CRAWL_TIME: i64 = 100;

php_function!(DISCOUNTED_NUM_DOCS_TERM, discounted_num_docs_term_handler, "yioop_codec\\index_manager\\discountedNumDocsTerm", [Param::Value("class"), Param::Value("term"), Param::Value("index_name")], DataType::Mixed, |args| {
    let [class, term, index_name] = args.values::<3>();
    Ok(discounted_num_docs_term(class, term, index_name).unwrap_or_default())
});

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&DISCOUNTED_NUM_DOCS_TERM, discounted_num_docs_term_handler)])
}

fn discounted_num_docs_term(class: &Zval, term: &Zval, index_name: &Zval) -> Option<Zval> {
    let manager = loaded_named(INDEX_MANAGER)?;
    if loaded(class)? != manager {
        return None;
    }
    native_discount(manager, term.zend_str()?.as_bytes(), index_name)
}

/// `IndexManager::discountedNumDocsTerm($term, $index_name)` for another
/// binding (a native WordIterator): answered natively where the switched
/// method's native function would answer, else by Yioop's method through
/// PHP. None where that threw.
pub(in crate::php) fn discounted_num_docs(term: &[u8], index_name: &Zval) -> Option<Zval> {
    let manager = loaded_named(INDEX_MANAGER)?;
    if let Some(answer) = native_discount(manager, term, index_name) {
        return Some(answer);
    }
    let method = "seekquarry\\yioop\\library\\IndexManager::discountedNumDocsTerm";
    call_function(method, &mut [bytes_zval(term), index_name.shallow_clone()])
}

/// `IndexManager::getIndex($index_name)` where it would just return an
/// index already loaded (see [`index_of`]); None otherwise.
pub(in crate::php) fn loaded_index(index_name: &Zval) -> Option<Zval> {
    index_of(loaded_named(INDEX_MANAGER)?, Key::of_value(index_name)?)
}

fn native_discount(manager: *mut zend_class_entry, term_bytes: &[u8], index_name: &Zval) -> Option<Zval> {
    if !calls_native(INDEX_DICTIONARY, "getwordinfo", "yioop_codec\\dictionary\\getwordinfo") {
        return None;
    }
    let index_key = Key::of_value(index_name)?;
    if let Some(cached) = cached_answer(manager, index_key, Key::of_string(term_bytes)) {
        return Some(cached);
    }
    let num_distinct_generations = num_distinct_generations()?;
    let mut index = index_of(manager, index_key)?;
    let bundle = Object(index.object_mut()?);
    if !std::ptr::eq(bundle.0.ce, loaded_named(INDEX_ARCHIVE_BUNDLE)?) {
        return None;
    }
    if let Some(active) = active_generation_read(&bundle, num_distinct_generations)? {
        if !active_shard_absent(&bundle, active)? {
            return None;
        }
    }
    let mut dictionary = bundle.property("dictionary")?.shallow_clone();
    if dictionary.coerce_to_bool() {
        let object = dictionary.object()?;
        if !std::ptr::eq(object.ce, loaded_named(INDEX_DICTIONARY)?) {
            return None;
        }
        let found = raw_word_info(&mut dictionary, term_id(term_bytes), 0, num_distinct_generations)?;
        // `!empty($pre_info[1])`: what IndexManager::getWordInfo returns.
        let holds = found.array().and_then(|info| info.get(1)).is_some_and(Zval::coerce_to_bool);
        if holds {
            return None;
        }
    }
    let mut zero = Zval::new();
    zero.set_double(0.0);
    Some(zero)
}

/// `NUM_DISTINCT_GENERATIONS` as an int, read once a request.
fn num_distinct_generations() -> Option<i64> {
    thread_local! {
        static VALUE: PerRequest<i64> = const { PerRequest::new() };
    }
    let read = || constant("seekquarry\\yioop\\configs\\NUM_DISTINCT_GENERATIONS").and_then(int_like).ok_or(());
    VALUE.with(|value| value.get_or(read)).ok()
}

/// `crawlHashWord($term, true)`, the last term's kept: a page asks for
/// the same term at each posting.
fn term_id(term: &[u8]) -> Vec<u8> {
    thread_local! {
        static LAST: std::cell::RefCell<(Vec<u8>, Vec<u8>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if last.1.is_empty() || last.0 != term {
            *last = (term.to_vec(), word_id(term).to_vec());
        }
        last.1.clone()
    })
}

/// `$num_docs_cache[$index_name][$term]` where set: the method's statics as
/// its next call sees them.
fn cached_answer(manager: *mut zend_class_entry, index_key: Key, term_key: Key) -> Option<Zval> {
    thread_local! {
        // The method, found once a request (its class cannot change before
        // the request ends); its statics are read live at each call.
        static METHOD: PerRequest<usize> = const { PerRequest::new() };
    }
    let find_method = || user_method(manager, "discountednumdocsterm").map(|m| std::ptr::from_ref(m) as usize).ok_or(());
    let method = METHOD.with(|method| method.get_or(find_method)).ok()?;
    let statics = method_statics(unsafe { &*(method as *const zend_op_array) })?;
    let cache = statics.get("num_docs_cache")?.dereference().array()?;
    let by_term = unsafe { &*find(cache, index_key)? }.dereference().array()?;
    let answer = unsafe { &*find(by_term, term_key)? }.dereference();
    (!answer.is_null()).then(|| answer.shallow_clone())
}

/// `self::getIndex($index_name)` where Yioop's method would just return
/// `self::$indexes[$index_name]`: an int or an int's string (a crawl's
/// time) other than FEED_CRAWL_TIME, whose index is loaded. Otherwise None:
/// Yioop's PHP loads it (calling its getIndex from here, then declining,
/// would repeat what that does, warnings included).
fn index_of(manager: *mut zend_class_entry, index_key: Key) -> Option<Zval> {
    // A canonical int's digits: nothing to trim, not "feed", == 100 only as 100.
    if !matches!(index_key, Key::Int(i) if i != FEED_CRAWL_TIME) {
        return None;
    }
    let indexes = static_array(manager, "indexes")?;
    let index = unsafe { &*find(indexes, index_key)? }.dereference();
    index.coerce_to_bool().then(|| index.shallow_clone())
}

/// The generation whose shard `IndexManager::getWordInfo` would look for
/// besides the dictionary's (the active one, where the dictionary is behind
/// it), or None. A generation_info it would read otherwise than as ints
/// declines.
fn active_generation_read(bundle: &Object, num_distinct_generations: i64) -> Option<Option<i64>> {
    let info = bundle.property("generation_info")?;
    if info.is_null() {
        return Some(None);
    }
    let info = info.array()?;
    let Some(active) = info.get("ACTIVE").map(Zval::dereference).filter(|a| !a.is_null()) else { return Some(None) };
    let active = long_of(active)?;
    let last_shard = match info.get("LAST_DICTIONARY_SHARD").map(Zval::dereference) {
        None => None,
        Some(last) if !last.coerce_to_bool() => None,
        Some(last) => Some(long_of(last)?),
    };
    let behind = last_shard.is_none_or(|last| last < active);
    // $start_generation (0) + $num_distinct_generations
    Some((behind && (active < num_distinct_generations || num_distinct_generations < 0)).then_some(active))
}

/// Whether `file_exists` is false for the active generation's shard, named
/// as Yioop names it. That is how every crawl Yioop stops leaves its index
/// (ACTIVE one past LAST_DICTIONARY_SHARD, no file yet), so Yioop then reads
/// the dictionary alone. A shard that exists is left to Yioop's PHP, which
/// opens it; so are paths PHP's stat would warn about or hand to a stream
/// wrapper.
fn active_shard_absent(bundle: &Object, active: i64) -> Option<bool> {
    let dir = bundle.property("dir_name")?.dereference().zend_str()?.as_bytes();
    if !plain_file_path(dir) {
        return None;
    }
    let mut path = dir.to_vec();
    path.extend_from_slice(format!("/posting_doc_shards/index{active}").as_bytes());
    Some(!file_exists(&path))
}
