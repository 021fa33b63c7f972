//! `yioop_codec\shard\addDocumentWords`: IndexShard's add of one document
//! (contract: php/yioop_codec.stub.php). The shard's state stays in the object's PHP properties,
//! where the rest of Yioop (save(), appendIndexShard(), ...) reads it; they
//! are updated in place through PHP's own operators (`concat_function` for
//! `.=`, `increment_function` for `++`, `add_function` for `+=`), so every
//! value is the one Yioop's statements would leave.

use crate::php::index::shard::method;
use crate::php::runtime::ffi::{IS_NULL, IS_REFERENCE, add_function, concat_function, increment_function, zend_hash_lookup, zend_string_hash_func};
use crate::php::runtime::convert::{bytes_zval, Fallible};
use crate::php::runtime::classes;
use crate::php::runtime::hash_prefetch;
use crate::php::runtime::function::{self, Param};
use crate::php::index::shard::{Outcome, Shard, INDEX_SHARD};
use crate::php::runtime::zval::{array_zval, bool_zval, long_of, long_zval};
use crate::index::shard::build;
use crate::php::runtime::keys::{entry_iter, find, Key};
use ext_php_rs::ffi::{zend_string, zval, HashTable};
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendHashTable, ZendStr, Zval};
use std::mem::ManuallyDrop;


php_function!(ADD, add_handler, "yioop_codec\\shard\\addDocumentWords", [Param::Value("shard"), Param::Value("doc_keys"),
        Param::Value("summary_offset"),
        Param::Value("word_lists"),
        Param::Optional("meta_ids", "[]"),
        Param::Optional("is_doc", "false"),
        Param::Optional("rank", "false"),
        Param::Optional("description_scores", "[]"),
        Param::Optional("user_ranks", "[]")], DataType::Mixed, |args| {
    method(&ADD, args, |args| add_document_words(args))
});

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&ADD, add_handler)])
}

/// The word lists with the meta ids added as `$word_lists[$meta_id] = []`
/// would: an existing key keeps its place and gets an empty list (`None`
/// here), a new one is appended. None where a meta id is neither an int nor
/// a string.
fn words_and_meta<'a>(word_lists: &'a ZendHashTable, meta_ids: &'a ZendHashTable) -> Option<Vec<(Key<'a>, Option<&'a Zval>)>> {
    let metas = entry_iter(meta_ids).map(|(_, m)| Key::of_value(m.dereference())).collect::<Option<Vec<Key>>>()?;
    // The lists a meta id empties, by slot: a few lookups a document
    // rather than a test per word.
    let emptied: Vec<*mut Zval> = metas.iter().filter_map(|&k| find(word_lists, k)).collect();
    let mut all: Vec<(Key, Option<&Zval>)> = Vec::with_capacity(word_lists.len() + metas.len());
    all.extend(entry_iter(word_lists).map(|(key, slot)| (key, (!emptied.contains(&std::ptr::from_ref(slot).cast_mut())).then(|| slot.dereference()))));
    let mut appended: Vec<Key> = Vec::new();
    for key in metas {
        if find(word_lists, key).is_none() && !appended.contains(&key) {
            appended.push(key);
            all.push((key, None));
        }
    }
    Some(all)
}

/// The arguments, once they are known to be of the types Yioop passes.
struct Document<'a> {
    doc_keys: &'a [u8],
    summary_offset: i64,
    words: Vec<(Key<'a>, Option<&'a Zval>)>,
    is_doc: bool,
    rank: Option<i64>,
}

/// The inputs this function takes; None for anything else (Yioop's PHP then
/// runs): a string of keys, an int summary offset, arrays of word lists
/// (each an array) and meta ids (ints or strings), rank false or an int.
fn check_inputs<'a>(args: &[&'a Zval; 8]) -> Option<Document<'a>> {
    let [doc_keys, summary_offset, word_lists, meta_ids, is_doc, rank, ..] = *args;
    let words = words_and_meta(word_lists.array()?, meta_ids.array()?)?;
    if words.iter().any(|(_, list)| list.is_some_and(|l| !l.is_array())) {
        return None;
    }
    let rank = match rank.bool() {
        Some(false) => None,
        _ => Some(long_of(rank)?),
    };
    Some(Document {
        doc_keys: doc_keys.zend_str()?.as_bytes(),
        summary_offset: long_of(summary_offset)?,
        words,
        is_doc: is_doc.coerce_to_bool(),
        rank,
    })
}

/// The shard properties written here in place, by name.
const ARRAYS: [&str; 2] = ["words", "num_docs_word"];
const COUNTERS: [&str; 6] = ["docids_len", "word_docs_len", "num_docs", "num_link_docs", "len_all_docs", "len_all_link_docs"];

/// Whether the shard's properties are declared and hold what IndexShard's
/// constructor puts there: arrays (or null, which `$a[$k] = ...` turns
/// into one), ints, and the doc_infos string.
fn shard_state_is_plain(shard: &mut Shard) -> bool {
    let mut holds = |name: &'static str, test: fn(&Zval) -> bool| shard.property_slot(name).is_some_and(|v| test(v));
    ARRAYS.iter().all(|name| holds(name, |v| v.is_array() || v.is_null()))
        && COUNTERS.iter().all(|name| holds(name, |v| long_of(v).is_some()))
        && holds("doc_infos", Zval::is_string)
}

fn add_document_words(args: &mut function::Args) -> Outcome {
    let (empty, no) = (array_zval(ZendHashTable::new()), bool_zval(false));
    let defaults = [&empty, &no, &no, &empty, &empty]; // meta_ids .. user_ranks
    let shard = args.take(0);
    let values: [&Zval; 8] = std::array::from_fn(|i| match args.take_optional(i + 1) {
        Some(value) => &*value.dereference(),
        None => defaults[i - 3], // only optional ones can be missing
    });
    let mut shard = Shard::of(shard, ADD.name)?;
    let (Some(doc), true) = (check_inputs(&values), shard_state_is_plain(&mut shard)) else {
        return Ok(Zval::new()); // null: run Yioop's PHP
    };
    if shard.property("word_docs_packed").is_some_and(Zval::coerce_to_bool) {
        shard.set_property("words", array_zval(ZendHashTable::new()));
        shard.set_property("word_docs", bytes_zval(b""));
        shard.set_property("word_docs_packed", bool_zval(false));
    }
    let aux = match auxiliary_keys(&shard, values[6], values[7]) {
        Some(aux) => aux,
        None => match shard.0 .0.try_call_method("packAuxiliaryDocumentKeys", vec![values[6], values[7]]) {
            Ok(aux) if aux.get_type() != DataType::Undef => aux.zend_str().map(|s| s.as_bytes().to_vec()).unwrap_or_default(),
            _ => return Ok(Zval::new()), // it threw: PHP sees the exception
        },
    };
    let Some((stored_keys, num_keys)) = build::stored_doc_keys(doc.doc_keys, &aux) else {
        return Ok(bool_zval(false));
    };
    append(&mut shard, "doc_infos", &build::pack_int(doc.summary_offset));
    increment(&mut shard, if doc.is_doc { "num_docs" } else { "num_link_docs" });
    let doc_offset = shard.int_field("docids_len")? >> 4;
    let item_len = add_words(&mut shard, &doc.words, doc_offset)?;
    let (doc_len, link_len) = if doc.is_doc { (item_len, 0) } else { (0, item_len) };
    add(&mut shard, "len_all_docs", doc_len);
    add(&mut shard, "len_all_link_docs", link_len);
    let len_num_keys = build::doclen_num(doc.is_doc, doc.rank, item_len, num_keys);
    append(&mut shard, "doc_infos", &len_num_keys);
    append(&mut shard, "doc_infos", &stored_keys);
    add(&mut shard, "docids_len", (4 + 4 + stored_keys.len()) as i64);
    Ok(bool_zval(true))
}

/// What Yioop's `packAuxiliaryDocumentKeys` gives, without calling it:
/// only on Yioop's IndexShard itself (whose method the switch checks, and
/// whose guard rules out subclasses) with its MAX_AUX_DOC_KEYS an int, for
/// scores with int keys and number weights and ranks that are numbers.
fn auxiliary_keys(shard: &Shard, scores: &Zval, ranks: &Zval) -> Option<Vec<u8>> {
    let class = shard.0 .0.get_class_entry();
    if class.name() != Some(INDEX_SHARD) {
        return None;
    }
    let max = classes::class_constant(class, "MAX_AUX_DOC_KEYS")?.long()?;
    let number = |value: &Zval| match value.dereference() {
        v if v.is_long() => v.long().map(|i| i as f64),
        v => v.double(),
    };
    let scores = entry_iter(scores.array()?).map(|(key, w)| match key {
        Key::Int(position) => Some((position, number(w)?)),
        Key::Str(_) => None,
    });
    let scores: Vec<(i64, f64)> = scores.collect::<Option<_>>()?;
    let ranks: Vec<f64> = entry_iter(ranks.array()?).map(|(_, r)| number(r)).collect::<Option<_>>()?;
    build::auxiliary_keys(&scores, &ranks, max)
}

/// The per-word loop: each word's posting appended to `words[$id]`, its
/// document count raised, word_docs_len grown. Gives the document's length
/// (the sum of its position counts).
fn add_words(shard: &mut Shard, words: &[(Key, Option<&Zval>)], doc_offset: i64) -> Fallible<i64> {
    if words.is_empty() {
        return Ok(0); // Yioop's loop never touches the arrays (null stays null)
    }
    let doc_index = long_zval(doc_offset);
    let empty = array_zval(ZendHashTable::new());
    // The arrays and the counter stay where they are for the whole loop:
    // nothing in it runs PHP code.
    let postings = writable_array(shard, "words");
    let counts = writable_array(shard, "num_docs_word");
    let word_docs_len = slot(shard, "word_docs_len");
    // Each key string, hashed once, serves both arrays, as Yioop's
    // `$word_id` does; all of them first, so the look-ups can be prefetched.
    let texts: Vec<_> = words.iter().map(|&(key, _)| key.bytes()).collect();
    let texts: Vec<&[u8]> = texts.iter().map(|text| &**text).collect();
    let mut ids: Vec<_> = build::word_ids(&texts).iter().map(|id| ZendStr::new(id, false)).collect();
    let id_ptrs: Vec<*mut zend_string> = ids.iter_mut().map(|id| std::ptr::from_mut(&mut **id).cast()).collect();
    let hashes: Vec<u64> = id_ptrs.iter().map(|&id| unsafe { zend_string_hash_func(id) }).collect();
    let mut doc_len = 0i64;
    for (i, &(_, list)) in words.iter().enumerate() {
        let list = list.unwrap_or(&empty);
        let store = crate::php::codec::pack_posting(&doc_index, list, true)?;
        let stored_len = store.zend_str().map_or(0, |s| s.len() as i64);
        doc_len += list.array().map_or(0, |a| a.len() as i64);
        unsafe {
            hash_prefetch::ahead(&[postings, counts], &hashes, i);
            append_posting(postings, id_ptrs[i], store);
            count_document(counts, id_ptrs[i]);
            add_to(word_docs_len, stored_len);
        }
    }
    Ok(doc_len)
}

/// The array in property `name`, separated for writing (null becomes a new
/// array, as PHP's `$this->name[$k] = ...` makes one).
fn writable_array(shard: &mut Shard, name: &'static str) -> *mut HashTable {
    let slot = shard.property_slot(name).expect("checked by shard_state_is_plain");
    if slot.is_null() {
        *slot = array_zval(ZendHashTable::new());
    }
    let array = crate::php::runtime::arrays::separate(slot).expect("checked by shard_state_is_plain");
    std::ptr::from_mut(array).cast()
}

fn slot(shard: &mut Shard, name: &'static str) -> *mut zval {
    std::ptr::from_mut(shard.property_slot(name).expect("checked by shard_state_is_plain")).cast()
}

/// `$array[$id]`'s slot, added as null where absent (`zend_hash_lookup`),
/// references followed.
unsafe fn lookup(array: *mut HashTable, id: *mut zend_string) -> *mut zval {
    let mut found = zend_hash_lookup(array, id);
    if (*found).u1.v.type_ == IS_REFERENCE {
        found = std::ptr::addr_of_mut!((*(*found).value.ref_).val);
    }
    found
}

/// `if (!isset($a[$id])) { $a[$id] = $store; } else { $a[$id] .= $store; }`
unsafe fn append_posting(array: *mut HashTable, id: *mut zend_string, store: Zval) {
    let mut store = ManuallyDrop::new(store);
    let store_ptr = std::ptr::from_mut(&mut *store).cast::<zval>();
    let slot = lookup(array, id);
    if (*slot).u1.v.type_ == IS_NULL {
        copy_value(slot, store_ptr); // moved in; a null needs no freeing
    } else {
        concat_function(slot, slot, store_ptr);
        ManuallyDrop::drop(&mut store);
    }
}

/// `if (!isset($a[$id])) { $a[$id] = 1; } else { $a[$id]++; }`
unsafe fn count_document(array: *mut HashTable, id: *mut zend_string) {
    let slot = lookup(array, id);
    if (*slot).u1.v.type_ == IS_NULL {
        copy_value(slot, std::ptr::from_ref(&long_zval(1)).cast_mut().cast());
    } else {
        increment_function(slot);
    }
}

/// ZVAL_COPY_VALUE: the value and its type, not the rest of the zval
/// (`u2`, which in a hash bucket links the collision chain).
unsafe fn copy_value(target: *mut zval, source: *const zval) {
    (*target).value = (*source).value;
    (*target).u1 = (*source).u1;
}

/// `$slot += $n`.
unsafe fn add_to(slot: *mut zval, n: i64) {
    let mut n = long_zval(n);
    add_function(slot, slot, std::ptr::from_mut(&mut n).cast());
}

/// `$this->name .= $bytes`.
fn append(shard: &mut Shard, name: &'static str, bytes: &[u8]) {
    let slot = slot(shard, name);
    let mut tail = bytes_zval(bytes);
    unsafe { concat_function(slot, slot, std::ptr::from_mut(&mut tail).cast()) };
}

/// `$this->name++`.
fn increment(shard: &mut Shard, name: &'static str) {
    unsafe { increment_function(slot(shard, name)) };
}

/// `$this->name += $n`.
fn add(shard: &mut Shard, name: &'static str, n: i64) {
    unsafe { add_to(slot(shard, name), n) };
}
