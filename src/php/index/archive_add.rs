//! `yioop_codec\archive\addObjects`: `WebArchive::addObjects` with a
//! `GzipCompressor`, its records compressed natively
//! (`crate::index::archive::deflate`: the system's zlib, as PHP's gzencode,
//! on `yioop.compress_threads` threads). Its contract, declines included:
//! php/yioop_codec.stub.php.
//!
//! Everything PHP sees goes through PHP as Yioop's method does it: PHP's
//! own fopen, ftell, ftruncate, fwrite and fclose, the archive's own
//! seekEndObjects and writeInfoBlock, the callback. Each object is
//! serialized on this thread, natively where it holds only scalars and
//! arrays (`crate::php_semantics::serialize`, PHP's texts), by PHP's
//! serialize otherwise. Only the deflate of the serialized bytes runs
//! elsewhere, on threads that see bytes and no PHP value.
//!
//! Each object is serialized once with its offset field set to 0; where
//! that field is the array's last entry (the field is new, as in the
//! queue server's summaries), its text is `prefix` `0` `;}` and the text
//! Yioop serializes is the prefix, the offset, `;}`. Otherwise the records
//! are done one after another as Yioop's loop does them.

use super::archive::{check_archive, handle_file_id};
use crate::index::archive::deflate::{self, Split};
use crate::index::archive::records_ahead;
use crate::index::archive::written::{self, Written};
use crate::index::archive::Decline;
use crate::php_semantics::serialize;
use crate::php::runtime::arrays::separate;
use crate::php::runtime::classes::{class_constant, loaded_named};
use crate::php::runtime::convert::{bytes_zval, string_zval_with};
use crate::php::runtime::engine::{call_function, call_method, call_value, has_exception, with_ini_bytes};
use crate::php::runtime::ffi::{add_function, zend_compare, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_OBJECT, IS_REFERENCE, IS_STRING, IS_TRUE};
use crate::php::runtime::function::{self, Param};
use crate::php::runtime::keys::{self, Key};
use crate::php::runtime::object::Object;
use crate::php::runtime::zval::{bool_zval, long_of, long_zval, reference_zval};
use ext_php_rs::ffi::{zend_call_known_function, zend_fetch_function_str, zend_function, zval};
use ext_php_rs::flags::DataType;
use ext_php_rs::types::{ZendHashTable, Zval};

php_function!(ADD_OBJECTS, add_objects_handler, "yioop_codec\\archive\\addObjects", [Param::Value("archive"), Param::Value("offset_field"), Param::Reference("objects"), Param::Value("data"), Param::Value("callback"), Param::Value("return_flag")], DataType::Mixed, |args| Ok(add_objects(args).unwrap_or_else(|Decline| Zval::new())));

/// Nesting deeper than this in an object is left to Yioop.
const MAX_DEPTH: usize = 64;

/// Below this many records, or bytes of serialized text, the records are
/// compressed on this thread: starting threads would cost more than they
/// save (bench/README.md, "Taking in uploads").
pub const MIN_PARALLEL_RECORDS: usize = 16;
pub const MIN_PARALLEL_BYTES: usize = 64 << 10;

fn type_of(value: &Zval) -> u8 {
    (unsafe { value.u1.type_info } & 0xff) as u8
}

/// Whether serializing `array` runs no PHP code and meets no reference:
/// scalars and arrays of them only.
fn plain(array: &ZendHashTable, depth: usize) -> bool {
    depth < MAX_DEPTH
        && keys::values(array).all(|value| match type_of(value) {
            IS_ARRAY => plain(value.array().expect("an array"), depth + 1),
            IS_OBJECT | IS_REFERENCE => false,
            _ => true,
        })
}

/// `$value != null`, PHP's loose comparison.
fn not_null(value: &Zval) -> bool {
    let mut null = Zval::new();
    unsafe { zend_compare(std::ptr::from_ref(value).cast_mut().cast(), std::ptr::from_mut(&mut null).cast()) != 0 }
}

fn named_function(name: &str) -> Option<*mut zend_function> {
    let function = unsafe { zend_fetch_function_str(name.as_ptr().cast(), name.len()) };
    (!function.is_null()).then_some(function)
}

/// `serialize($value)` by PHP's own function.
fn php_serialize(function: *mut zend_function, value: &Zval) -> Zval {
    let mut result = Zval::new();
    unsafe {
        zend_call_known_function(function, std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::from_mut(&mut result).cast::<zval>(), 1, std::ptr::from_ref(value).cast_mut().cast::<zval>(), std::ptr::null_mut());
    }
    result
}

/// A value `plain` accepted, as PHP's serialize writes it (no reference or
/// object, so nothing depends on what came before); None for any other
/// kind.
fn serialize_plain(value: &Zval, out: &mut Vec<u8>) -> Option<()> {
    match type_of(value) {
        IS_NULL => serialize::push_null(out),
        IS_FALSE => serialize::push_bool(out, false),
        IS_TRUE => serialize::push_bool(out, true),
        IS_LONG => serialize::push_int(out, unsafe { value.value.lval }),
        IS_DOUBLE => serialize::push_float(out, unsafe { value.value.dval }),
        IS_STRING => serialize::push_string(out, value.zend_str()?.as_bytes()),
        IS_ARRAY => {
            let array = value.array()?;
            serialize::push_array_start(out, array.len());
            for (key, entry) in keys::entry_iter(array) {
                match key {
                    Key::Int(i) => serialize::push_int(out, i),
                    Key::Str(s) => serialize::push_string(out, s),
                }
                serialize_plain(entry, out)?;
            }
            serialize::push_array_end(out);
        }
        _ => return None,
    }
    Some(())
}

/// How this call serializes each object: natively where `native` (PHP's
/// serialize_precision is its default) and every value is of a kind
/// [`serialize_plain`] writes, by PHP's own `function` otherwise.
struct Serializer {
    function: *mut zend_function,
    native: bool,
}

impl Serializer {
    fn serialize(&self, object: &Zval) -> Vec<u8> {
        let mut out = Vec::with_capacity(1024);
        if self.native && serialize_plain(object, &mut out).is_some() {
            return out;
        }
        php_serialize(self.function, object).zend_str().map_or_else(Vec::new, |s| s.as_bytes().to_vec())
    }
}

/// Whether PHP writes floats as [`serialize::push_float`] does now.
fn floats_in_shortest_form() -> bool {
    with_ini_bytes(c"serialize_precision", |value| value == b"-1")
}

/// A reference holding `value` (a by-reference argument, or a by-value one
/// PHP copies out of it).
fn reference_to(value: Zval) -> Zval {
    let mut reference = reference_zval();
    *reference.dereference_mut() = value;
    reference
}

/// The number of threads `yioop.compress_threads` allows for `records`
/// records of `bytes` serialized bytes.
fn threads_for(records: usize, bytes: usize) -> usize {
    let threads = crate::php::settings::compress_threads();
    if records < MIN_PARALLEL_RECORDS || bytes < MIN_PARALLEL_BYTES {
        1
    } else {
        threads
    }
}

fn add_objects(args: &mut function::Args) -> Result<Zval, Decline> {
    let serialize_fn = named_function("serialize").ok_or(Decline)?;
    // PHP's file functions Yioop calls (a disabled one is not defined).
    for name in ["fopen", "ftell", "ftruncate", "fwrite", "fclose"] {
        named_function(name).ok_or(Decline)?;
    }
    let offset_field = args.take(1).dereference().shallow_clone();
    let field_text;
    let field = if let Some(i) = long_of(&offset_field) {
        Key::Int(i)
    } else if let Some(name) = offset_field.zend_str() {
        field_text = name.as_bytes().to_vec();
        Key::of_string(&field_text)
    } else {
        return Err(Decline);
    };
    let objects_ref: *mut Zval = args.take(2);
    let data = args.take(3).dereference().shallow_clone();
    let mut callback = args.take(4).dereference().shallow_clone();
    let return_flag = args.take(5).dereference().coerce_to_bool();
    let archive_zval: *mut Zval = args.take(0).dereference_mut();
    let archive = Object(unsafe { &mut *archive_zval }.object_mut().ok_or(Decline)?);
    check_archive(&archive)?;
    let filename = archive.property("filename").ok_or(Decline)?.shallow_clone();
    archive.property("count").ok_or(Decline)?;
    // The objects: a list 0..n-1 of arrays holding scalars and arrays.
    let objects = unsafe { &*objects_ref }.dereference();
    let list = objects.array().ok_or(Decline)?;
    let count = list.len();
    for i in 0..count {
        let slot = keys::find(list, Key::Int(i as i64)).ok_or(Decline)?;
        let element = unsafe { &*slot };
        if type_of(element) != IS_ARRAY || !plain(element.array().expect("an array"), 0) {
            return Err(Decline);
        }
    }
    let with_callback = not_null(&data) && not_null(&callback);
    if with_callback && !unsafe { ext_php_rs::ffi::zend_is_callable(&mut callback, 0, std::ptr::null_mut()) } {
        return Err(Decline);
    }

    // From here on, Yioop's steps in Yioop's order; nothing declines.
    let mut archive_this = unsafe { &mut *archive_zval }.shallow_clone();
    let Some(fh) = call_function("fopen", &mut [filename, bytes_zval(b"r+")]) else { return Ok(Zval::new()) };
    if call_method(&mut archive_this, "seekEndObjects", &mut [fh.shallow_clone()]).is_none() {
        return Ok(Zval::new());
    }
    let Some(start) = call_function("ftell", &mut [fh.shallow_clone()]) else { return Ok(Zval::new()) };
    if call_function("ftruncate", &mut [fh.shallow_clone(), start.shallow_clone()]).is_none() {
        return Ok(Zval::new());
    }
    let mut copy;
    let target: &mut Zval = if return_flag {
        copy = unsafe { &*objects_ref }.dereference().shallow_clone();
        &mut copy
    } else {
        unsafe { &mut *objects_ref }.dereference_mut()
    };
    let list = separate(target).expect("checked an array");
    let serializer = Serializer { function: serialize_fn, native: floats_in_shortest_form() };
    let records = match long_of(&start) {
        Some(first) => compress_split(list, field, first, &serializer),
        None => None,
    };
    let records = records.unwrap_or_else(|| compress_in_turn(list, field, &start, &serializer));
    // $this->count += $num_objects, by PHP's +.
    let mut archive = Object(unsafe { &mut *archive_zval }.object_mut().expect("checked an object"));
    let mut sum = Zval::new();
    let mut old = archive.property("count").map_or_else(Zval::new, Zval::shallow_clone);
    let mut added = long_zval(count as i64);
    unsafe { add_function(std::ptr::from_mut(&mut sum).cast(), std::ptr::from_mut(&mut old).cast(), std::ptr::from_mut(&mut added).cast()) };
    if has_exception() {
        return Ok(Zval::new());
    }
    archive.set_property("count", sum);
    let total = records.iter().map(|r| r.member.len() + deflate::INT_LEN as usize).sum::<usize>();
    let out = string_zval_with(total, |buffer| {
        let mut at = 0;
        for Written { member, .. } in &records {
            let header = deflate::compress_int(member.len() as u32);
            for bytes in [&header[..], &member[..]] {
                for (dst, &src) in buffer[at..at + bytes.len()].iter_mut().zip(bytes) {
                    dst.write(src);
                }
                at += bytes.len();
            }
        }
    });
    if call_function("fwrite", &mut [fh.shallow_clone(), out, long_zval(total as i64)]).is_none() {
        return Ok(Zval::new());
    }
    // For buildInvertedIndexShard's read of them: handed back only where the
    // bytes read are still these.
    if let Some(file) = handle_file_id(&fh) {
        written::remember(file, records, crate::php::settings::written_cache_bytes());
    }
    let mut data = data;
    if with_callback {
        let objects_arg = if return_flag { reference_to(target.shallow_clone()) } else { unsafe { &*objects_ref }.shallow_clone() };
        let mut call_args = [reference_to(data.shallow_clone()), objects_arg, reference_to(offset_field.shallow_clone())];
        let Some(result) = call_value(&mut callback, &mut call_args) else { return Ok(Zval::new()) };
        if return_flag {
            *target = call_args[1].dereference().shallow_clone();
        }
        data = result;
    }
    if call_method(&mut archive_this, "writeInfoBlock", &mut [fh.shallow_clone(), reference_to(data)]).is_none() {
        return Ok(Zval::new());
    }
    if call_function("fclose", &mut [fh.shallow_clone()]).is_none() {
        return Ok(Zval::new());
    }
    Ok(if return_flag { target.shallow_clone() } else { bool_zval(false) })
}

/// The slot of element `i` of the separated list, its array separated for
/// writing.
fn element(list: &mut ZendHashTable, i: usize) -> &mut Zval {
    let slot = unsafe { &mut *keys::find(list, Key::Int(i as i64)).expect("checked a list") };
    separate(slot).expect("checked an array");
    slot
}

/// `$object[$field] = $value` on a separated element.
fn set_field(object: &mut Zval, field: Key, value: Zval) {
    keys::update(object.array_mut().expect("checked an array"), field, value);
}

/// Where a record whose offset PHP holds as something other than an int
/// is kept: no read (an offset of at least 0) finds it.
const NO_OFFSET: i64 = i64::MIN;

/// Yioop's loop as it runs: each object's offset set, then serialized and
/// compressed, one after another.
fn compress_in_turn(list: &mut ZendHashTable, field: Key, start: &Zval, serializer: &Serializer) -> Vec<Written> {
    let mut offset = start.shallow_clone();
    let mut records = Vec::with_capacity(list.len());
    for i in 0..list.len() {
        let object = element(list, i);
        set_field(object, field, offset.shallow_clone());
        let text = serializer.serialize(object);
        let member = deflate::gzencode9(&text);
        let at = long_of(&offset).unwrap_or(NO_OFFSET);
        // $offset += $len + 20, by PHP's +.
        let mut sum = Zval::new();
        let mut step = long_zval(member.len() as i64 + deflate::INT_LEN);
        unsafe { add_function(std::ptr::from_mut(&mut sum).cast(), std::ptr::from_mut(&mut offset).cast(), std::ptr::from_mut(&mut step).cast()) };
        offset = sum;
        records.push(Written { offset: at, member, text: std::rc::Rc::from(text) });
    }
    records
}

/// The records compressed from each object serialized once with its offset
/// 0, where the offset field is every object's last entry; None (nothing
/// PHP sees changed but the offset fields, which Yioop's loop then sets)
/// otherwise.
fn compress_split(list: &mut ZendHashTable, field: Key, first: i64, serializer: &Serializer) -> Option<Vec<Written>> {
    let count = list.len();
    let mut texts = Vec::with_capacity(count);
    for i in 0..count {
        let object = element(list, i);
        set_field(object, field, long_zval(0));
        if !keys::is_last(object.array().expect("an array"), field) {
            return None;
        }
        let text = serializer.serialize(object);
        if !text.ends_with(b"i:0;}") {
            return None;
        }
        texts.push(text);
    }
    let splits: Vec<Split> = texts.iter().map(|bytes| Split { prefix: &bytes[..bytes.len() - 3], suffix: &bytes[bytes.len() - 2..] }).collect();
    let (mut members, mut offsets) = records_ahead::take(&splits, first);
    let rest = &splits[members.len()..];
    let rest_first = deflate::chain_end(&members, &offsets).unwrap_or(first);
    let bytes = rest.iter().map(|s| s.prefix.len()).sum();
    let (rest_members, rest_offsets) = deflate::compress_chain(rest, rest_first, threads_for(rest.len(), bytes));
    members.extend(rest_members);
    offsets.extend(rest_offsets);
    if let Some(end) = deflate::chain_end(&members, &offsets) {
        records_ahead::note_end(first, end);
    }
    let mut records = Vec::with_capacity(count);
    for (i, (member, offset)) in members.into_iter().zip(offsets).enumerate() {
        set_field(element(list, i), field, long_zval(offset));
        records.push(Written { offset, member, text: splits[i].text(offset) });
    }
    Some(records)
}

/// Yioop's interface naming a summary's fields.
const CRAWL_CONSTANTS: &str = "seekquarry\\yioop\\library\\CrawlConstants";

/// The summary fields Yioop's CrawlConstants name, where it is loaded
/// (`records_ahead` makes the queue server's records with them).
pub(crate) fn record_shape() -> Option<records_ahead::Shape> {
    let constants = unsafe { &*loaded_named(CRAWL_CONSTANTS)? };
    let field = |name| class_constant(constants, name).and_then(Zval::zend_str).map(|text| text.as_bytes().to_vec());
    Some(records_ahead::Shape { type_key: field("TYPE")?, url_key: field("URL")?, hash_url_key: field("HASH_URL")?, is_doc_key: field("IS_DOC")?, offset_key: field("SUMMARY_OFFSET")? })
}

pub fn register(module: ext_php_rs::builders::ModuleBuilder) -> ext_php_rs::builders::ModuleBuilder {
    function::register(module, &[(&ADD_OBJECTS, add_objects_handler)])
}
