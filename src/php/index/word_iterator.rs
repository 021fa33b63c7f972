//! `yioop_codec\word_iterator\findDocsWithWord`: WordIterator's
//! `findDocsWithWord()`, the block of postings a search takes from one
//! generation of a word's list (contract, declines included:
//! php/yioop_codec.stub.php).
//!
//! Yioop's method asks IndexManager for the index, sets and gets its
//! current shard, slices the shard, then walks the slice in PHP: the search
//! filter per host, `in_array` over the URLs seen with a document, the
//! discount look-ups, and a copy of every item with four more fields.
//! Natively, in the steady state a search is in (the index loaded, its
//! current shard this generation's, read from disk): the slice comes from
//! the shard binding, the discounts from the IndexManager binding (or
//! Yioop's method through PHP where that declines), the filter is asked
//! through PHP, and each item is built once. Anything else (a generation to
//! switch to, a shard not read yet, odd types) is left to Yioop's PHP
//! before anything is changed.

use crate::index::doc_key::{base64_hash, host_key, parts};
use crate::index::shard::slice::SliceArgs;
use crate::php::index::index_manager::{discounted_num_docs, loaded_index};
use crate::php::index::shard::iterator_slice;
use crate::php::runtime::classes::{loaded_named, user_method};
use crate::php::search::search_filter::{is_switched_model, remembered};
use crate::php::runtime::convert::{bytes_zval, is_numeric};
use crate::php::runtime::engine::call_method;
use crate::php::runtime::ffi::{add_function, div_function, mul_function, zend_compare, ZEND_ACC_PUBLIC};
use crate::php::runtime::function::{self, Param};
use crate::php::runtime::keys::{entries, find, update, update_known, Key};
use crate::php::runtime::object::Object;
use crate::php::runtime::switched::calls_native;
use crate::php::runtime::zval::{array_zval, long_of, long_zval};
use ext_php_rs::boxed::ZBox;
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendHashTable, Zval};
use rustc_hash::FxHashSet;

use crate::php::index::shard::INDEX_SHARD;
const INDEX_ARCHIVE_BUNDLE: &str = "seekquarry\\yioop\\library\\IndexArchiveBundle";
const INDEX_MANAGER: &str = "seekquarry\\yioop\\library\\IndexManager";
/// `CrawlConstants::ASCENDING`.
const ASCENDING: i64 = 1;

/// CrawlConstants' item keys this method reads or adds.
mod key {
    use crate::php::runtime::keys::KnownKey;

    pub const IS_DOC: &str = "at";
    pub static KEY: KnownKey = KnownKey::new("ce");
    pub static HASH: KnownKey = KnownKey::new("o");
    pub static INLINKS: KnownKey = KnownKey::new("P");
    pub const DOC_RANK: &str = "N";
    pub const SCORE: &str = "X";
    pub static CRAWL_TIME: KnownKey = KnownKey::new("b");
}

php_function!(FIND_DOCS_WITH_WORD, find_docs_with_word_handler, "yioop_codec\\word_iterator\\findDocsWithWord", [Param::Value("iterator")], DataType::Mixed, |args| {
    let iterator = args.take(0).dereference_mut();
    let Some(object) = iterator.object_mut() else { return Ok(Zval::new()) };
    Ok(find_docs_with_word(Object(object)).unwrap_or_default())
});

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&FIND_DOCS_WITH_WORD, find_docs_with_word_handler)])
}

/// The method's result, or None: declined (nothing changed), or a PHP
/// callee threw (the exception then stands, as it would in Yioop's method).
fn find_docs_with_word(mut iterator: Object) -> Option<Zval> {
    if !callees_switched() {
        return None;
    }
    if iterator.property("empty")?.coerce_to_bool() {
        return Some(long_zval(-1));
    }
    let at = Position::of(&iterator)?;
    if at.is_past_end() {
        return Some(long_zval(-1));
    }
    let index_name = iterator.property("index_name")?.shallow_clone();
    let mut shard = current_shard(&index_name, long_of(iterator.property("current_generation")?)?)?;
    let word_key = iterator.property("base64_word_key")?.zend_str()?.as_bytes().to_vec();
    let is_meta = iterator.property("is_meta")?.coerce_to_bool();
    let mut filter = search_filter(&iterator)?;
    let len = long_of(iterator.property("results_per_block")?)?;
    let slice_args = SliceArgs { start_offset: at.start_offset, next_offset: at.current_offset, last_offset: at.last_offset, len };
    let (slice, next_offset) = iterator_slice(&mut shard, slice_args, at.ascending)?;
    if slice_has_empty_key(&slice) {
        return None; // str_split("") is [], and Yioop's `$key_parts[0]` warns.
    }
    iterator.set_property("next_offset", long_zval(next_offset));
    let walk = Walk { index_name: &index_name, word_key: &word_key, is_meta, filter: filter.as_mut() };
    let results = walk.items(&slice)?;
    let count = results.len() as i64;
    let results = if at.is_last_generation() && slice.is_empty() { long_zval(-1) } else { array_zval(results) };
    iterator.set_property("count_block", long_zval(count));
    iterator.set_property("pages", results.shallow_clone());
    Some(results)
}

/// Whether the methods whose work this reproduces are Yioop's, switched:
/// the slices (IndexShard, whose 'reads' include getPostingsSlice), the
/// discount (IndexManager, 'reads' getIndex) and IndexArchiveBundle, whose
/// 'reads' include setCurrentShard and getCurrentShard.
fn callees_switched() -> bool {
    calls_native(INDEX_SHARD, "postingssliceascending", "yioop_codec\\shard\\postingssliceascending")
        && calls_native(INDEX_SHARD, "postingsslicedescending", "yioop_codec\\shard\\postingsslicedescending")
        && calls_native(INDEX_MANAGER, "discountednumdocsterm", "yioop_codec\\index_manager\\discountednumdocsterm")
        && calls_native(INDEX_ARCHIVE_BUNDLE, "getpage", "yioop_codec\\index_bundle\\getpage")
}

/// Where the iterator stands in its word's list: ints, as Yioop compares
/// them (anything else is left to its PHP).
struct Position {
    ascending: bool,
    generation_pointer: i64,
    num_generations: i64,
    current_offset: i64,
    start_offset: i64,
    last_offset: i64,
}

impl Position {
    fn of(iterator: &Object) -> Option<Position> {
        let int = |name| long_of(iterator.property(name)?);
        // `num_generations - 1` below must stay an int.
        let num_generations = int("num_generations").filter(|&n| n != i64::MIN)?;
        Some(Position {
            ascending: int("direction")? == ASCENDING,
            generation_pointer: int("generation_pointer")?,
            num_generations,
            current_offset: int("current_offset")?,
            start_offset: int("start_offset")?,
            last_offset: int("last_offset")?,
        })
    }

    /// The method's first test: no postings left in this direction.
    fn is_past_end(&self) -> bool {
        if self.ascending {
            self.generation_pointer >= self.num_generations
                || (self.is_last_generation() && self.current_offset > self.last_offset)
        } else {
            self.generation_pointer < 0 || (self.generation_pointer == 0 && self.current_offset < self.start_offset)
        }
    }

    fn is_last_generation(&self) -> bool {
        self.generation_pointer == self.num_generations - 1
    }
}

/// `getIndex`, `setCurrentShard($generation, true)` and
/// `getCurrentShard(true)` where together they only hand back the shard
/// already current: the index loaded, its generation_info's DISK_BASED
/// already true, CURRENT this generation (ACTIVE set), the shard set, an
/// IndexShard read from disk with its header read (so getPostingsSlice
/// goes straight to the switched slice). None otherwise.
fn current_shard(index_name: &Zval, generation: i64) -> Option<Zval> {
    let mut index = loaded_index(index_name)?;
    let bundle = Object(index.object_mut()?);
    if !std::ptr::eq(bundle.0.ce, loaded_named(INDEX_ARCHIVE_BUNDLE)?) {
        return None;
    }
    let info = bundle.property("generation_info")?.array()?;
    let field = |name: &str| info.get(name).map(Zval::dereference);
    let disk_based = field("DISK_BASED")?.bool().is_some_and(|b| b);
    let current = long_of(field("CURRENT")?)?;
    if !disk_based || current != generation || field("ACTIVE").is_none_or(Zval::is_null) {
        return None;
    }
    let mut shard = bundle.property("current_shard")?.shallow_clone();
    let object = Object(shard.object_mut()?);
    let steady = std::ptr::eq(object.0.ce, loaded_named(INDEX_SHARD)?)
        && object.property("read_only_from_disk")?.coerce_to_bool()
        && object.property("num_docs")?.coerce_to_bool();
    steady.then_some(shard)
}

/// The search filter the iterator asks about each host.
struct Filter {
    object: Zval,
    /// Yioop's SearchverticalsModel, switched: its remembered answers are
    /// read natively.
    remembers: bool,
}

/// `$this->filter` where `!empty()`, an object with a public isFiltered;
/// Some(None) where empty. None (decline) for a value Yioop's call on it
/// would fail on.
fn search_filter(iterator: &Object) -> Option<Option<Filter>> {
    let filter = iterator.property("filter")?;
    if !filter.coerce_to_bool() {
        return Some(None);
    }
    let object = filter.object()?;
    let method = user_method(object.ce, "isfiltered")?;
    let remembers = is_switched_model(object);
    (method.fn_flags & ZEND_ACC_PUBLIC != 0).then(|| Some(Filter { object: filter.shallow_clone(), remembers }))
}

fn slice_has_empty_key(slice: &ZendHashTable) -> bool {
    find(slice, Key::Str(b"")).is_some()
}

/// The loop over the slice, with what it reads of the iterator.
struct Walk<'a> {
    index_name: &'a Zval,
    word_key: &'a [u8],
    is_meta: bool,
    filter: Option<&'a mut Filter>,
}

impl Walk<'_> {
    /// The method's `$results`, the slice's items taken out of it.
    fn items(mut self, slice: &ZendHashTable) -> Option<ZBox<ZendHashTable>> {
        let max_discount = discounted_num_docs(&[b"link:", self.word_key].concat(), self.index_name)?;
        let discounting = !self.is_meta && greater_than_zero(&max_discount);
        let mut with_docs = UrlsWithDocs::default();
        let mut results = ZendHashTable::new();
        for (key, _) in entries(slice) {
            // The slice is this call's own: its items are moved, not copied.
            let item = unsafe { std::ptr::replace(find(slice, key)?, Zval::new()) };
            let key_bytes = key.bytes();
            if self.is_filtered(host_key(&key_bytes))? {
                continue;
            }
            let key_parts = parts(&key_bytes);
            let hash_url = key_parts[0];
            if !with_docs.contains(hash_url) {
                // A link counts where the index holds its page.
                if !(is_doc(&item) || self.has_doc(hash_url)?) {
                    continue;
                }
                with_docs.add(hash_url);
            }
            if key_parts.len() < 3 {
                continue;
            }
            let mut item = item;
            let data = item.array_mut()?;
            update_known(data, &key::KEY, key_zval(key));
            update_known(data, &key::HASH, bytes_zval(key_parts[1]));
            update_known(data, &key::INLINKS, bytes_zval(key_parts[2]));
            if discounting && is_doc(&item) {
                self.add_discount(&mut item, hash_url, &max_discount)?;
            }
            update_known(item.array_mut()?, &key::CRAWL_TIME, self.index_name.shallow_clone());
            update(&mut results, key, item);
        }
        Some(results)
    }

    /// `!empty($this->filter) && $this->filter->isFiltered($host_key)`.
    fn is_filtered(&mut self, host_key: &[u8]) -> Option<bool> {
        let Some(filter) = self.filter.as_deref_mut() else { return Some(false) };
        let mut host_key = bytes_zval(host_key);
        if filter.remembers {
            if let Some(answer) = remembered(filter.object.object_mut()?, &host_key, false) {
                return Some(answer.coerce_to_bool());
            }
        }
        Some(call_method(&mut filter.object, "isFiltered", std::slice::from_mut(&mut host_key))?.coerce_to_bool())
    }

    /// Whether the index holds the URL's page: its "info:" term's
    /// discounted count above 0.
    fn has_doc(&self, hash_url: &[u8]) -> Option<bool> {
        let term = format!("info:{}", base64_hash(hash_url));
        Some(greater_than_zero(&discounted_num_docs(term.as_bytes(), self.index_name)?))
    }

    /// The link discount: `10.0 * $n / $max_num_discount` added to the
    /// item's DOC_RANK and SCORE, by PHP's own operators, where `$n > 0`.
    fn add_discount(&self, item: &mut Zval, hash_url: &[u8], max_discount: &Zval) -> Option<()> {
        let term = [b"link:", self.word_key, b":", base64_hash(hash_url).as_bytes()].concat();
        let mut discounted = discounted_num_docs(&term, self.index_name)?;
        if !greater_than_zero(&discounted) {
            return Some(());
        }
        let mut ten = Zval::new();
        ten.set_double(10.0);
        let mut product = Zval::new();
        let mut score = Zval::new();
        let mut max = max_discount.shallow_clone();
        unsafe {
            operator(mul_function(raw(&mut product), raw(&mut ten), raw(&mut discounted)))?;
            operator(div_function(raw(&mut score), raw(&mut product), raw(&mut max)))?;
        }
        let data = item.array_mut()?;
        for field in [key::DOC_RANK, key::SCORE] {
            let slot: *mut Zval = data.get_mut(field)?;
            unsafe { operator(add_function(raw(&mut *slot), raw(&mut *slot), raw(&mut score)))? };
        }
        Some(())
    }
}

fn raw(value: &mut Zval) -> *mut ext_php_rs::ffi::zval {
    std::ptr::from_mut(value).cast()
}

/// An operator's status: None where it failed (it has thrown).
fn operator(status: i32) -> Option<()> {
    (status == 0).then_some(())
}

/// `!empty($data[self::IS_DOC])`.
fn is_doc(item: &Zval) -> bool {
    item.array().and_then(|data| data.get(key::IS_DOC)).is_some_and(Zval::coerce_to_bool)
}

/// `$value > 0`, as PHP compiles it: `0 < $value`.
fn greater_than_zero(value: &Zval) -> bool {
    let mut zero = long_zval(0);
    let mut value = value.shallow_clone();
    unsafe { zend_compare(raw(&mut zero), raw(&mut value)) < 0 }
}

/// `$keys` as the foreach gave it: an int key stays an int.
fn key_zval(key: Key) -> Zval {
    match key {
        Key::Int(i) => long_zval(i),
        Key::Str(s) => bytes_zval(s),
    }
}

/// `$hash_urls_with_docs` and `in_array`'s loose `==` on it: two strings
/// differ unless byte-equal, or both numeric and equal as numbers.
#[derive(Default)]
struct UrlsWithDocs {
    exact: FxHashSet<Vec<u8>>,
}

impl UrlsWithDocs {
    fn contains(&self, url: &[u8]) -> bool {
        if self.exact.contains(url) {
            return true;
        }
        is_numeric(url) && self.exact.iter().any(|seen| loosely_equal(seen, url))
    }

    fn add(&mut self, url: &[u8]) {
        self.exact.insert(url.to_vec());
    }
}

fn loosely_equal(a: &[u8], b: &[u8]) -> bool {
    let (mut a, mut b) = (bytes_zval(a), bytes_zval(b));
    unsafe { zend_compare(raw(&mut a), raw(&mut b)) == 0 }
}
