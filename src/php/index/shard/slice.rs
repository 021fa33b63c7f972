//! `yioop_codec\shard\postingsSliceAscending` and `postingsSliceDescending`
//! (contracts: php/yioop_codec.stub.php): the slice loops and makeItem of
//! `crate::index::shard::slice`, with Yioop's configuration constants read
//! from PHP at each call and each item built as the PHP array Yioop builds
//! (same keys, order and value types). number_format and numeric strings
//! are PHP's own functions, so every string and float is PHP's.

use crate::php::index::shard::method;
use crate::php::runtime::ffi::{_is_numeric_string_ex, _php_math_number_format, _zend_handle_numeric_str_ex, IS_DOUBLE, IS_LONG};
use super::{false_zval, int_arg, long_zval, Outcome, Shard, Stop};
use crate::php::runtime::function::{self, Param, Signature};
use crate::php_semantics::num::Num;
use crate::index::shard::item::{Config, DocInfos, Item, NumberText, Rank, Stats};
use crate::index::shard::decoded_list;
use crate::index::shard::word_docs::WordDocs;
use crate::index::shard::slice::{self, SliceArgs, SliceShard};
use ext_php_rs::boxed::ZBox;
use ext_php_rs::ffi::{zend_hash_index_update, zend_hash_str_update, zend_ulong, zval};
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendHashTable, ZendStr, Zval};
use std::os::raw::{c_char, c_int};

use crate::php::runtime::convert::{int_list, num_zval};
use crate::php::runtime::keys::{update, update_known, Key, KnownKey};
use crate::php::runtime::engine::PerRequest;
use crate::php::runtime::zval::{array_zval, long_of};


/// CrawlConstants' item keys, in makeItem's order of first assignment.
mod key {
    use crate::php::runtime::keys::KnownKey;

    pub static POSITION_LIST: KnownKey = KnownKey::new("bn");
    pub static DOC_RANK: KnownKey = KnownKey::new("N");
    pub static SUMMARY_OFFSET: KnownKey = KnownKey::new("U");
    pub static GENERATION: KnownKey = KnownKey::new("aq");
    pub static DOC_LEN: KnownKey = KnownKey::new("bi");
    pub static IS_DOC: KnownKey = KnownKey::new("at");
    pub static PROXIMITY: KnownKey = KnownKey::new("bo");
    pub static DESCRIPTION_SCORES: KnownKey = KnownKey::new("A");
    pub static USER_RANKS: KnownKey = KnownKey::new("dc");
    pub static RELEVANCE: KnownKey = KnownKey::new("an");
    pub static SCORE: KnownKey = KnownKey::new("X");
}

/// PHP's number_format and numeric-string reading.
struct Php;

impl NumberText for Php {
    type Text = ZBox<ZendStr>;

    fn number_format(&mut self, d: f64, decimals: i64) -> ZBox<ZendStr> {
        // number_format() passes its int decimals on as a C int.
        unsafe { ZBox::from_raw(_php_math_number_format(d, decimals as c_int, b'.' as c_char, b',' as c_char).cast()) }
    }

    fn numeric(&self, text: &ZBox<ZendStr>) -> Option<Num> {
        self.numeric_bytes(text.as_bytes())
    }
}

impl Php {
    /// The number a string is where `is_numeric` holds (leading and
    /// trailing whitespace allowed), else None.
    fn numeric_bytes(&self, bytes: &[u8]) -> Option<Num> {
        let (mut lval, mut dval) = (0, 0.0);
        let null = std::ptr::null_mut();
        // allow_errors false: is_numeric()'s reading.
        let kind = unsafe { _is_numeric_string_ex(bytes.as_ptr().cast(), bytes.len(), &mut lval, &mut dval, false, null, null.cast()) };
        match kind {
            IS_LONG => Some(Num::Int(lval)),
            IS_DOUBLE => Some(Num::Float(dval)),
            _ => None,
        }
    }
}

/// A Yioop configuration constant's full name (names fixed at compile
/// time: no formatting on each call).
macro_rules! configs {
    ($name:literal) => {
        concat!("seekquarry\\yioop\\configs\\", $name)
    };
}

/// A Yioop configuration constant's value; an undefined one is Yioop's
/// PHP's to throw on.
fn constant(full: &str) -> Result<&'static Zval, Stop> {
    crate::php::runtime::engine::constant(full).ok_or(Stop::Decline)
}

/// A string's number as PHP's arithmetic takes it without a warning (a
/// whole numeric string, spaces allowed around it), else None.
fn numeric_string(value: &Zval) -> Option<Num> {
    let text = value.zend_str()?;
    Php.numeric_bytes(text.as_bytes())
}

/// A constant Yioop uses as an int (in arithmetic and as number_format's
/// decimals): an int, or a numeric string of one, as its installer writes
/// them. Anything else (floats, bools, other strings) declines.
fn int_constant(full: &str) -> Result<i64, Stop> {
    let value = constant(full)?;
    match long_of(value).map(Num::Int).or_else(|| numeric_string(value)) {
        Some(Num::Int(i)) => Ok(i),
        _ => Err(Stop::Decline),
    }
}

/// A weight constant (read through `floatval` and multiplied): an int, a
/// float, or a numeric string, as its installer writes them ("4").
fn weight_constant(full: &str) -> Result<f64, Stop> {
    let value = constant(full)?;
    if let Some(d) = value.double() {
        return Ok(d);
    }
    long_of(value).map(Num::Int).or_else(|| numeric_string(value)).map(Num::as_f64).ok_or(Stop::Decline)
}

/// The configuration constants, read once a request (a constant cannot
/// change before the request ends); a search slices hundreds of times.
fn config() -> Result<Config, Stop> {
    thread_local! {
        static CONFIG: PerRequest<Config> = const { PerRequest::new() };
    }
    CONFIG.with(|config| config.get_or(read_config))
}

fn read_config() -> Result<Config, Stop> {
    Ok(Config {
        precision: int_constant(configs!("PRECISION"))?,
        avg_links_per_page: int_constant(configs!("AVG_LINKS_PER_PAGE"))?,
        max_generations: int_constant(configs!("MAX_GENERATIONS"))?,
        ad_hoc_title_length: int_constant(configs!("AD_HOC_TITLE_LENGTH"))?,
        title_weight: weight_constant(configs!("TITLE_WEIGHT"))?,
        description_weight: weight_constant(configs!("DESCRIPTION_WEIGHT"))?,
        link_weight: weight_constant(configs!("LINK_WEIGHT"))?,
    })
}

impl Shard<'_> {
    fn stats(&self) -> Result<Stats, Stop> {
        Ok(Stats {
            generation: self.int_field("generation")?,
            num_docs_per_generation: self.int_field("num_docs_per_generation")?,
            num_docs: self.int_field("num_docs")?,
            num_link_docs: self.int_field("num_link_docs")?,
            len_all_docs: self.int_field("len_all_docs")?,
            len_all_link_docs: self.int_field("len_all_link_docs")?,
        })
    }

    /// `$wd_len`, read before the file is first opened (which sets
    /// file_len), as Yioop reads it.
    fn wd_len(&self) -> Result<Option<i64>, Stop> {
        match self.int_if_set("file_len")? {
            Some(file_len) => Ok(Some(file_len.checked_sub(self.int_field("docids_len")?).ok_or(Stop::Decline)?)),
            None => self.int_or_null("word_docs_len"),
        }
    }
}

fn slice_call(args: &mut function::Args, signature: &'static Signature, ascending: bool) -> Outcome {
    let next_ref = args.take(2);
    let next_offset = long_of(next_ref.dereference()).ok_or(Stop::Decline)?;
    let start_offset = int_arg(args, 1)?;
    let last_offset = int_arg(args, 3)?;
    let len = int_arg(args, 4)?;
    let shard = Shard::of(args.take(0), signature.name)?;
    let (results, next) = slice_of(shard, SliceArgs { start_offset, next_offset, last_offset, len }, ascending)?;
    next_ref.dereference_mut().set_long(next);
    Ok(array_zval(results))
}

/// The slice's items, keyed by doc id as Yioop's `$results`, and the next
/// offset.
fn slice_of(mut shard: Shard, slice_args: SliceArgs, ascending: bool) -> Result<(ZBox<ZendHashTable>, i64), Stop> {
    let config = config()?;
    let stats = shard.stats()?;
    let wd_len = shard.wd_len()?;
    let doc_info_offset = shard.int_field("doc_info_offset")?;
    let word_doc_offset = shard.int_field("word_doc_offset")?;
    // Copied into every item as `$this->generation` is: its value.
    let generation = shard.property("generation").map_or_else(Zval::new, Zval::shallow_clone);
    // Without a file Yioop's slice reads false for every word: left to it.
    let file = shard.open_file()?.ok_or(Stop::Decline)?;
    let file = file.view();
    let mut slice_shard = SliceShard {
        word_docs: WordDocs { file: &file, base: word_doc_offset },
        doc_infos: DocInfos { file: &file, base: doc_info_offset },
        stats,
        config,
        wd_len,
        decoded: None,
    };
    let dispatch = crate::php::settings::current().dispatch;
    slice_shard.decoded = decoded_list::cached(&slice_shard.word_docs, slice_args.start_offset >> 2, slice_args.last_offset >> 2, &dispatch);
    let mut results = ZendHashTable::new();
    let next = slice::postings_slice(&slice_shard, slice_args, ascending, &mut Php, |doc_id, item| {
        symtable_update(&mut results, &doc_id, item_zval(item, &generation));
    })?;
    Ok((results, next))
}

/// `$shard->postingsSliceAscending(...)` (or Descending) as a native
/// WordIterator reaches it through getPostingsSlice: the items and the
/// next offset, the call ended as the switched method's would be. None
/// where that method would decline or throw; the iterator then leaves the
/// whole call to Yioop's PHP, which meets the same.
pub(in crate::php) fn iterator_slice(shard: &mut Zval, slice_args: SliceArgs, ascending: bool) -> Option<(ZBox<ZendHashTable>, i64)> {
    let signature = if ascending { &SLICE_ASCENDING } else { &SLICE_DESCENDING };
    let pointer = std::ptr::from_mut(shard);
    match Shard::of(shard, signature.name).map_err(Stop::Throw).and_then(|shard| slice_of(shard, slice_args, ascending)) {
        Ok(sliced) => {
            super::file::end_call();
            Some(sliced)
        }
        Err(stop) => {
            let _ = super::finish(signature, pointer, Err(stop));
            None
        }
    }
}

/// `$results[$doc_id] = $item`: a decimal-integer id becomes an int key,
/// as PHP's array keys do.
fn symtable_update(array: &mut ZendHashTable, key: &[u8], value: Zval) {
    let ht = std::ptr::from_mut(array).cast();
    let mut value = std::mem::ManuallyDrop::new(value); // moved into the array
    let value: *mut zval = std::ptr::from_mut(&mut *value).cast();
    let mut index: zend_ulong = 0;
    let may_be_numeric = matches!(key, [b'0'..=b'9', ..] | [b'-', b'0'..=b'9', ..]);
    unsafe {
        if may_be_numeric && _zend_handle_numeric_str_ex(key.as_ptr().cast(), key.len(), &mut index) {
            zend_hash_index_update(ht, index, value);
        } else {
            zend_hash_str_update(ht, key.as_ptr().cast(), key.len(), value);
        }
    }
}

/// One item as makeItem's array.
fn item_zval(item: Item<ZBox<ZendStr>>, generation: &Zval) -> Zval {
    // Room for the four fields a native WordIterator adds.
    let mut array = ZendHashTable::with_capacity(16);
    let mut put = |key: &KnownKey, value: Zval| {
        update_known(&mut array, key, value);
    };
    put(&key::POSITION_LIST, int_list(item.positions.into_iter()));
    let doc_rank = match item.doc_rank {
        Rank::Text(text) => {
            let mut z = Zval::new();
            z.set_zend_string(text);
            z
        }
        Rank::Num(n) => num_zval(n),
    };
    let score = item.score.map_or_else(|| doc_rank.shallow_clone(), num_zval);
    put(&key::DOC_RANK, doc_rank);
    put(&key::SUMMARY_OFFSET, item.summary_offset.map_or_else(false_zval, long_zval));
    put(&key::GENERATION, generation.shallow_clone());
    put(&key::DOC_LEN, long_zval(item.doc_len));
    let mut is_doc = Zval::new();
    is_doc.set_bool(item.is_doc);
    put(&key::IS_DOC, is_doc);
    let mut proximity = Zval::new();
    proximity.set_double(item.proximity);
    put(&key::PROXIMITY, proximity);
    let mut scores = ZendHashTable::new();
    for (position, weight) in item.description_scores {
        update(&mut scores, Key::Int(position), num_zval(weight));
    }
    put(&key::DESCRIPTION_SCORES, array_zval(scores));
    if let Some(ranks) = item.user_ranks {
        put(&key::USER_RANKS, crate::php::runtime::convert::num_list(&ranks));
    }
    put(&key::RELEVANCE, num_zval(item.relevance));
    put(&key::SCORE, score);
    array_zval(array)
}

php_function!(SLICE_ASCENDING, slice_ascending_handler, "yioop_codec\\shard\\postingsSliceAscending", [Param::Value("shard"), Param::Value("start_offset"), Param::Reference("next_offset"), Param::Value("last_offset"), Param::Value("len")], DataType::Mixed, |args| {
    method(&SLICE_ASCENDING, args, |args| {
        slice_call(args, &SLICE_ASCENDING, true)
    })
});

php_function!(SLICE_DESCENDING, slice_descending_handler, "yioop_codec\\shard\\postingsSliceDescending", [Param::Value("shard"), Param::Value("start_offset"), Param::Reference("next_offset"), Param::Value("last_offset"), Param::Value("len")], DataType::Mixed, |args| {
    method(&SLICE_DESCENDING, args, |args| {
        slice_call(args, &SLICE_DESCENDING, false)
    })
});

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&SLICE_ASCENDING, slice_ascending_handler), (&SLICE_DESCENDING, slice_descending_handler)])
}
