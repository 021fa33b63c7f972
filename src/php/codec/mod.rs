//! The PHP functions, named and shaped as in Yioop's Utility.php. Each one
//! converts its arguments the way Yioop's code would use them, calls the
//! core, and converts back. Where Yioop's PHP would throw on an argument
//! (arithmetic on an array, count() of a non-array, ...) these throw the same
//! error class.

use crate::php::runtime::convert::{
    array_values, bytes_zval, int_list, int_operand, is_numeric, is_string_offset, num_list, num_zval, operand,
    type_error, type_name, value_error, Fallible, Values,
};
use crate::php::runtime::function::{self, Param, Signature};
use crate::php::runtime::zval::{array_zval, long_of, long_zval};
use crate::php::runtime::arrays as packed;
use crate::php::settings;
use crate::codec::modified9::{self, EncodeError, NeverReturns, PostString, Reached};
use crate::php_semantics::num::{self, Num};
use crate::codec::backend::Dispatch;
use crate::codec::posting;
use crate::codec::posting_list;
use crate::codec::{delta, queue_weight};
use ext_php_rs::prelude::*;
use ext_php_rs::flags::DataType;
use ext_php_rs::types::{ArrayKey, ZendHashTable, Zval};

/// Yioop's `CrawlConstants::PAGE_IMPORTANCE`, the crawl order that packs
/// weights into queue weight info.
const PAGE_IMPORTANCE: &[u8] = b"ad";

php_function!(PACK_POSTING, pack_posting_handler, "packPosting", [Param::Value("doc_index"), Param::Value("position_list"), Param::Bool("delta", "true")], DataType::String, |args| {
    let delta = args.flag(2, true);
    let [doc_index, position_list] = args.values();
    pack_posting(doc_index, position_list, delta)
});

pub(crate) fn pack_posting(doc_index: &Zval, position_list: &Zval, delta: bool) -> Fallible<Zval> {
    let doc_index = encodable_int(operand(doc_index, "+")?, 1, "packPosting")?;
    let format = settings::current().format;
    let list = match position_list.array() {
        Some(list) => list,
        // Yioop's deltaList() of a scalar only warns and gives []: the
        // doc index is packed alone. Without $delta, Yioop's array_unshift()
        // throws (named after packPosting here, the function called); an
        // object is refused either way (deliberately: Yioop would iterate
        // its properties).
        None if delta && !position_list.is_object() => {
            return posting::pack_posting(format, doc_index, &[], true)
                .map(|bytes| bytes_zval(&bytes))
                .map_err(|_| never_terminates("packPosting", POSTING_VALUE));
        }
        None => return Err(array_expected(position_list, "packPosting", 2, "position_list")),
    };
    // A list of ints, Yioop's case, goes straight to the core; the general
    // path below handles any other array and differences that overflow.
    let packed_ints = with_scratch(|ints, bytes| {
        let slots = packed::slots(list)?;
        ints.extend(slots.iter().map_while(long_of));
        if ints.len() != slots.len() {
            return None;
        }
        posting::pack_posting_into(format, doc_index, ints, delta, bytes).ok()?;
        Some(bytes_zval(bytes))
    });
    if let Some(packed) = packed_ints {
        return Ok(packed);
    }
    let (deltas, lead) = if delta {
        let deltas = encodable(delta_values(list)?, "packPosting")?;
        let lead = (!deltas.is_empty()).then_some(0);
        (deltas, lead)
    } else {
        let values = encodable(array_values(list, "+")?, "packPosting")?;
        (values, lead_position(list))
    };
    posting::pack_deltas(format, doc_index, deltas, lead)
        .map(|bytes| bytes_zval(&bytes))
        .map_err(|_| never_terminates("packPosting", POSTING_VALUE))
}

php_function!(UNPACK_POSTING, unpack_posting_handler, "unpackPosting", [Param::Value("posting"), Param::Reference("offset"), Param::Bool("dedelta", "true")], DataType::Array, |args| {
    let dedelta = args.flag(2, true);
    unpack_posting(args.take(0).dereference(), args.take(1).dereference_mut(), dedelta)
});

fn unpack_posting(posting: &Zval, offset: &mut Zval, dedelta: bool) -> Fallible<Zval> {
    let settings = settings::current();
    let input = string_arg(posting, "unpackPosting", 1, "posting")?;
    let post = frame(input, offset, "unpackPosting")?;
    let result = posting_zval(settings.format, &settings.dispatch, &input[post.bytes], dedelta);
    set_num(offset, post.next_offset);
    Ok(result)
}

php_function!(UNPACK_LIST_MODIFIED9, unpack_list_modified9_handler, "unpackListModified9", [Param::Value("encoded_list")], DataType::Array, |args| {
    let [encoded_list] = args.values();
    unpack_list_modified9(encoded_list)
});

fn unpack_list_modified9(encoded_list: &Zval) -> Fallible<Zval> {
    let word = int_operand(encoded_list, "&")? as u32;
    Ok(int_list(modified9::word_elements(word).map(i64::from)))
}

php_function!(DOC_INDEX_MODIFIED9, doc_index_modified9_handler, "docIndexModified9", [Param::Value("encoded_list")], DataType::Long, |args| {
    let [encoded_list] = args.values();
    doc_index_modified9(encoded_list).map(long_zval)
});

fn doc_index_modified9(encoded_list: &Zval) -> Fallible<i64> {
    Ok(modified9::doc_index_of_word(int_operand(encoded_list, "&")?))
}

php_function!(UNPACK_INT, unpack_int_handler, "unpackInt", [Param::Value("str")], DataType::Mixed, |args| {
    let [str] = args.values();
    Ok(unpack_int(str))
});

fn unpack_int(str: &Zval) -> Zval {
    match str.dereference().zend_str() {
        Some(s) => long_zval(num::unpack_int(s.as_bytes())),
        None => {
            let mut z = Zval::new();
            z.set_bool(false);
            z
        }
    }
}

php_function!(DELTA_LIST, delta_list_handler, "deltaList", [Param::Value("list")], DataType::Array, |args| {
    let [list] = args.values();
    delta_list(list)
});

fn delta_list(list: &Zval) -> Fallible<Zval> {
    let Some(list) = iterable_arg(list, "deltaList", "list")? else {
        return Ok(int_list(std::iter::empty()));
    };
    if let Some(deltas) = packed::slots(list).and_then(int_deltas) {
        return Ok(deltas);
    }
    Ok(match delta_values(list)? {
        Values::Ints(deltas) => int_list(deltas.into_iter()),
        Values::Nums(deltas) => num_list(&deltas),
    })
}

php_function!(DE_DELTA_LIST, de_delta_list_handler, "deDeltaList", [Param::Reference("delta_list")], DataType::Void, |args| {
    de_delta_list(args.take(0).dereference_mut()).map(|()| Zval::null())
});

fn de_delta_list(delta_list: &mut Zval) -> Fallible<()> {
    if let Some(summed) = delta_list.array().and_then(summed_copy_of_shared_list) {
        *delta_list = summed;
        return Ok(());
    }
    let type_name = type_name(delta_list);
    let Some(array) = packed::separate(delta_list) else {
        return Err(type_error(format!(
            "count(): Argument #1 ($value) must be of type Countable|array, {type_name} given"
        )));
    };
    de_delta_sequential(array)
}

php_function!(ENCODE_MODIFIED9, encode_modified9_handler, "encodeModified9", [Param::Value("list")], DataType::String, |args| {
    let [list] = args.values();
    encode_modified9(list)
});

fn encode_modified9(list: &Zval) -> Fallible<Zval> {
    let values = match iterable_arg(list, "encodeModified9", "list")? {
        Some(array) => encodable(array_values(array, "+")?, "encodeModified9")?,
        None => Vec::new(),
    };
    let mut out = Vec::with_capacity(values.len() + 4);
    modified9::encode(&values, &mut out)
        .map_err(|EncodeError::NeverTerminates { index }| {
            never_terminates("encodeModified9", &format!("element {index} of $list"))
        })?;
    Ok(bytes_zval(&out))
}

php_function!(DECODE_MODIFIED9, decode_modified9_handler, "decodeModified9", [Param::Value("input_string"), Param::Reference("offset")], DataType::Array, |args| {
    decode_modified9(args.take(0).dereference(), args.take(1).dereference_mut())
});

fn decode_modified9(input_string: &Zval, offset: &mut Zval) -> Fallible<Zval> {
    let input = string_arg(input_string, "decodeModified9", 1, "input_string")?;
    let post = frame(input, offset, "decodeModified9")?;
    let dispatch = settings::current().dispatch;
    let list = with_decoded(&dispatch, &input[post.bytes], |decoded| {
        int_list(decoded.iter().map(|&v| i64::from(v)))
    });
    set_num(offset, post.next_offset);
    Ok(list)
}

php_function!(NEXT_POST_STRING, next_post_string_handler, "nextPostString", [Param::Reference("input_string"), Param::Reference("offset")], DataType::String, |args| {
    next_post_string(args.take(0).dereference(), args.take(1).dereference_mut())
});

fn next_post_string(input_string: &Zval, offset: &mut Zval) -> Fallible<Zval> {
    let input = string_arg(input_string, "nextPostString", 1, "input_string")?;
    let post = frame(input, offset, "nextPostString")?;
    let bytes = bytes_zval(&input[post.bytes]);
    set_num(offset, post.next_offset);
    Ok(bytes)
}

php_function!(ADD_DOC_INDEX_POSTINGS, add_doc_index_postings_handler, "addDocIndexPostings", [Param::Reference("postings"), Param::Value("add_offset")], DataType::String, |args| {
    let postings = args.take(0).dereference();
    add_doc_index_postings(postings, args.take(1).dereference())
});

fn add_doc_index_postings(postings: &Zval, add_offset: &Zval) -> Fallible<Zval> {
    let input = string_arg(postings, "addDocIndexPostings", 1, "postings")?;
    let add_offset = encodable_int(operand(add_offset, "+")?, 0, "addDocIndexPostings")?;
    posting::add_doc_index_postings(input, add_offset)
        .map(|bytes| bytes_zval(&bytes))
        .map_err(|_| never_terminates("addDocIndexPostings", "a doc index plus $add_offset, plus one,"))
}

php_function!(DECODE_QUEUE_WEIGHT_INFO, decode_queue_weight_info_handler, "decodeQueueWeightInfo", [Param::Value("weight_info"), Param::Value("crawl_order")], DataType::Array, |args| {
    let [weight_info, crawl_order] = args.values();
    decode_queue_weight_info(weight_info, crawl_order)
});

fn decode_queue_weight_info(weight_info: &Zval, crawl_order: &Zval) -> Fallible<Zval> {
    let (weight, depth) = if is_page_importance(crawl_order) {
        let (weight, depth) = queue_weight::decode(int_operand(weight_info, "&")?);
        (long_zval(weight), long_zval(depth))
    } else {
        (long_zval(0), weight_info.dereference().shallow_clone())
    };
    Ok(pair(weight, depth))
}

php_function!(ENCODE_QUEUE_WEIGHT_INFO, encode_queue_weight_info_handler, "encodeQueueWeightInfo", [Param::Value("weight"), Param::Value("depth"), Param::Value("crawl_order")], DataType::Mixed, |args| {
    let [weight, depth, crawl_order] = args.values();
    encode_queue_weight_info(weight, depth, crawl_order)
});

fn encode_queue_weight_info(weight: &Zval, depth: &Zval, crawl_order: &Zval) -> Fallible<Zval> {
    if !is_page_importance(crawl_order) {
        return Ok(depth.dereference().shallow_clone());
    }
    let weight = int_operand(weight, "<<")?;
    Ok(long_zval(queue_weight::encode(weight, int_operand(depth, "-")?)))
}

php_function!(ADJUST_WEIGHT_CALLBACK, adjust_weight_callback_handler, "adjustWeightCallback", [Param::Value("weight_info"), Param::Value("adjustment")], DataType::Long, |args| {
    let [weight_info, adjustment] = args.values();
    adjust_weight_callback(weight_info, adjustment).map(long_zval)
});

fn adjust_weight_callback(weight_info: &Zval, adjustment: &Zval) -> Fallible<i64> {
    Ok(queue_weight::adjust(int_operand(weight_info, "&")?, int_operand(adjustment, "&")?))
}

// Not in Yioop: `unpackPosting` in a loop, in one call. Decodes postings
// from `$offset` until the string ends or `$max_count` (if not negative)
// postings are read, and returns them as `[doc_index, positions]` pairs.
php_function!(UNPACK_POSTINGS, unpack_postings_handler, "unpackPostings", [Param::Value("postings"), Param::Reference("offset"), Param::Int("max_count", "-1"), Param::Bool("dedelta", "true")], DataType::Array, |args| {
    let (max_count, dedelta) = (args.int(2, -1)?, args.flag(3, true));
    unpack_postings(args.take(0).dereference(), args.take(1).dereference_mut(), max_count, dedelta)
});

fn unpack_postings(postings: &Zval, offset: &mut Zval, max_count: i64, dedelta: bool) -> Fallible<Zval> {
    let settings = settings::current();
    let input = string_arg(postings, "unpackPostings", 1, "postings")?;
    let (start, max_count) = batch_start(input, offset, max_count, "unpackPostings")?;
    list_postings(input, start, max_count, offset, "unpackPostings", |words| {
        posting_zval(settings.format, &settings.dispatch, words, dedelta)
    })
}

/// What a batch call checks before its loop, as a loop of `unpackPosting`
/// meets it first: the offset's errors on the first posting, and a refusal
/// where over [`MAX_EMPTY_POSTINGS`] empty postings would come before the
/// string even starts. Gives the start offset and the count limit.
fn batch_start(input: &[u8], offset: &Zval, max_count: i64, function: &str) -> Fallible<(Num, Option<usize>)> {
    let start = operand(offset, "+")?;
    let max_count = usize::try_from(max_count).ok();
    if max_count != Some(0) && posting_list::before_end(start, input.len()) {
        frame(input, offset, function)?;
    }
    let empty = leading_empty_postings(input.len(), start).min(max_count.unwrap_or(usize::MAX));
    if empty > MAX_EMPTY_POSTINGS {
        return Err(value_error(format!(
            "{function}(): Argument #2 ($offset) is so far before the start of the string that \
             it would give over {MAX_EMPTY_POSTINGS} empty postings; pass a $max_count"
        )));
    }
    Ok((start, max_count))
}

/// The batch loop: `posting` of each posting framed from `start`, as a
/// list, with `$offset` left where the next call would start.
fn list_postings(
    input: &[u8],
    start: Num,
    max_count: Option<usize>,
    offset: &mut Zval,
    function: &str,
    mut posting: impl FnMut(&[u8]) -> Zval,
) -> Fallible<Zval> {
    let mut list = Vec::new();
    let next = posting_list::for_each_posting(input, start, max_count, |words| list.push(posting(words)))
        .map_err(|NeverReturns| offset_never_returns(function))?;
    set_num(offset, next);
    let mut items = list.into_iter();
    Ok(array_zval(packed::list_of(items.len(), |_| items.next().unwrap_or_default())))
}

/// Beyond this many empty postings before the string even starts, a batch
/// call is refused: a loop of unpackPosting would exhaust memory there.
const MAX_EMPTY_POSTINGS: usize = 1 << 20;

/// How many `[null, []]` postings an offset before the start of the string
/// yields (4 bytes each) until one can be read.
fn leading_empty_postings(len: usize, offset: Num) -> usize {
    let first_readable = -(len as f64) - 3.0; // isset($s[$offset + 3]) from here on
    let gap = match offset {
        Num::Int(start) => (first_readable as i128 - start as i128) as f64,
        // A float this far out may not even move when 4 is added: Yioop's
        // loop would never end.
        Num::Float(start) => first_readable - start,
    };
    if gap > 0.0 { ((gap + 3.0) / 4.0).min(usize::MAX as f64) as usize } else { 0 }
}

// Benchmark floor, not in Yioop: does the framing `unpackPosting` does but
// no decoding, and returns a posting-shaped array of six positions (the
// benchmark data's mean), to show what any native `unpackPosting` costs.
php_function!(FLOOR_POSTING, floor_posting_handler, "yioop_codec\\floorPosting", [Param::Value("posting"), Param::Reference("offset"), Param::Bool("dedelta", "true")], DataType::Array, |args| {
    let dedelta = args.flag(2, true);
    floor_posting(args.take(0).dereference(), args.take(1).dereference_mut(), dedelta)
});

fn floor_posting(posting: &Zval, offset: &mut Zval, dedelta: bool) -> Fallible<Zval> {
    let input = string_arg(posting, "yioop_codec\\floorPosting", 1, "posting")?;
    let post = frame(input, offset, "yioop_codec\\floorPosting")?;
    set_num(offset, post.next_offset);
    let positions = [1, 2, 3, 4, 5, i64::from(dedelta)];
    Ok(pair(long_zval(0), int_list(positions.into_iter())))
}

// Benchmark floor, not in Yioop: unpackPostings' framing loop with the
// floorPosting result for each posting, to show what any batch call costs.
php_function!(FLOOR_POSTINGS, floor_postings_handler, "yioop_codec\\floorPostings", [Param::Value("postings"), Param::Reference("offset"), Param::Int("max_count", "-1")], DataType::Array, |args| {
    let max_count = args.int(2, -1)?;
    floor_postings(args.take(0).dereference(), args.take(1).dereference_mut(), max_count)
});

fn floor_postings(postings: &Zval, offset: &mut Zval, max_count: i64) -> Fallible<Zval> {
    let function = "yioop_codec\\floorPostings";
    let input = string_arg(postings, function, 1, "postings")?;
    let (start, max_count) = batch_start(input, offset, max_count, function)?;
    list_postings(input, start, max_count, offset, function, |_| {
        pair(long_zval(0), int_list([1, 2, 3, 4, 5, 1].into_iter()))
    })
}

// Benchmark floor, not in Yioop: a list of `length` ints, the result's
// shape of unpackListModified9 and other list-returning calls.
php_function!(FLOOR_LIST, floor_list_handler, "yioop_codec\\floorList", [Param::Value("length")], DataType::Array, |args| {
    let [length] = args.values();
    let length = int_operand(length, "+")?.clamp(0, 1 << 20) as u32;
    Ok(int_list((0..length).map(|i| i64::from(i) + 1)))
});

/// Yioop's string callables (`C\\NS_LIB . "unpackListModified9"`) never
/// fall back to the global namespace: these are registered there too.
const NAMESPACE: &str = "seekquarry\\yioop\\library\\";

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    let global: &[(&'static Signature, function::Handler)] = &[
        (&PACK_POSTING, pack_posting_handler),
        (&UNPACK_POSTING, unpack_posting_handler),
        (&UNPACK_LIST_MODIFIED9, unpack_list_modified9_handler),
        (&DE_DELTA_LIST, de_delta_list_handler),
        (&DOC_INDEX_MODIFIED9, doc_index_modified9_handler),
        (&UNPACK_INT, unpack_int_handler),
        (&DELTA_LIST, delta_list_handler),
        (&ENCODE_MODIFIED9, encode_modified9_handler),
        (&DECODE_MODIFIED9, decode_modified9_handler),
        (&NEXT_POST_STRING, next_post_string_handler),
        (&ADD_DOC_INDEX_POSTINGS, add_doc_index_postings_handler),
        (&DECODE_QUEUE_WEIGHT_INFO, decode_queue_weight_info_handler),
        (&ENCODE_QUEUE_WEIGHT_INFO, encode_queue_weight_info_handler),
        (&ADJUST_WEIGHT_CALLBACK, adjust_weight_callback_handler),
        (&UNPACK_POSTINGS, unpack_postings_handler),
        (&FLOOR_POSTING, floor_posting_handler),
        (&FLOOR_POSTINGS, floor_postings_handler),
        (&FLOOR_LIST, floor_list_handler),
    ];
    let namespaced: &[(&'static Signature, function::Handler)] = &[
        (&UNPACK_LIST_MODIFIED9, unpack_list_modified9_handler),
        (&DOC_INDEX_MODIFIED9, doc_index_modified9_handler),
        (&UNPACK_INT, unpack_int_handler),
        (&DECODE_QUEUE_WEIGHT_INFO, decode_queue_weight_info_handler),
        (&ENCODE_QUEUE_WEIGHT_INFO, encode_queue_weight_info_handler),
        (&ADJUST_WEIGHT_CALLBACK, adjust_weight_callback_handler),
    ];
    let module = function::register(module, global);
    namespaced.iter().fold(module, |m, &(sig, handler)| {
        m.function(sig.function_named(format!("{NAMESPACE}{}", sig.name), handler))
    })
}

// ---- argument helpers ----

fn array_arg<'a>(value: &'a Zval, function: &str, position: u32, name: &str) -> Fallible<&'a ZendHashTable> {
    value.dereference().array().ok_or_else(|| array_expected(value, function, position, name))
}

fn array_expected(value: &Zval, function: &str, position: u32, name: &str) -> PhpException {
    type_error(format!(
        "{function}(): Argument #{position} (${name}) must be of type array, {} given",
        type_name(value)
    ))
}

/// What Yioop's `foreach` over an argument sees: an array's values, nothing
/// for a scalar (PHP only warns), and objects are refused.
fn iterable_arg<'a>(value: &'a Zval, function: &str, name: &str) -> Fallible<Option<&'a ZendHashTable>> {
    let value = value.dereference();
    if value.is_object() {
        return array_arg(value, function, 1, name).map(Some);
    }
    Ok(value.array())
}

/// The bytes of a string argument. Yioop only indexes into it, which finds
/// nothing in a non-string scalar, so those read as an empty string; arrays
/// and objects are refused.
fn string_arg<'a>(value: &'a Zval, function: &str, position: u32, name: &str) -> Fallible<&'a [u8]> {
    let value = value.dereference();
    if let Some(s) = value.zend_str() {
        return Ok(s.as_bytes());
    }
    if value.is_array() || value.is_object() {
        return Err(type_error(format!(
            "{function}(): Argument #{position} (${name}) must be of type string, {} given",
            type_name(value)
        )));
    }
    Ok(b"")
}

/// Yioop's `nextPostString` from the caller's offset, taken as Yioop's
/// `$offset + 3` takes it (a float stays a float).
fn frame(input: &[u8], offset: &Zval, function: &str) -> Fallible<PostString> {
    // An int: nothing on Yioop's way can throw, and the loop always ends.
    if let Some(start) = long_of(offset) {
        return Ok(modified9::next_post_string(input, start));
    }
    frame_any_offset(input, offset, function)
}

/// [`frame`] for an offset of another type, with PHP's errors in the order
/// Yioop meets them: `$offset + 3` (arrays, non-numeric strings), the
/// string access `$input_string[$offset]` (a string that is not an
/// integer), Yioop's loop (a ValueError where it would never end), and
/// `substr()`'s int parameter (NAN, floats out of the int range,
/// leading-numeric strings).
#[inline(never)]
fn frame_any_offset(input: &[u8], offset: &Zval, function: &str) -> Fallible<PostString> {
    let framing = modified9::next_post_string_at(input, operand(offset, "+")?);
    let read_first_byte = framing.as_ref().map_or(true, |post| post.reached != Reached::Nothing);
    if read_first_byte && offset.zend_str().is_some_and(|s| !is_string_offset(s.as_bytes())) {
        return Err(type_error("Cannot access offset of type string on string".into()));
    }
    let post = framing.map_err(|NeverReturns| offset_never_returns(function))?;
    match substr_refuses(offset) {
        Some(given) if post.reached == Reached::Substr => Err(type_error(format!(
            "substr(): Argument #2 ($offset) must be of type int, {given} given"
        ))),
        _ => Ok(post),
    }
}

/// Where Yioop's `nextPostString` would loop forever (see
/// [`NeverReturns`]).
fn offset_never_returns(function: &str) -> PhpException {
    value_error(format!(
        "{function}(): Argument #2 ($offset) is too far out for adding 4 to move it, and on a word \
         that Yioop's nextPostString would read forever"
    ))
}

/// The type PHP names when an int parameter refuses this offset, if it does.
fn substr_refuses(offset: &Zval) -> Option<&'static str> {
    let offset = offset.dereference();
    if let Some(f) = offset.double().filter(|_| offset.is_double()) {
        return (!num::float_fits_int(f)).then_some("float");
    }
    let s = offset.zend_str()?;
    (!is_numeric(s.as_bytes())).then_some("string")
}

/// `deltaList($array)`.
fn delta_values(array: &ZendHashTable) -> Fallible<Values> {
    Ok(match array_values(array, "-")? {
        Values::Ints(list) => match delta::delta_list(&list) {
            Some(deltas) => Values::Ints(deltas),
            None => Values::Nums(delta::delta_list_nums(&ints_as_nums(&list))),
        },
        Values::Nums(list) => Values::Nums(delta::delta_list_nums(&list)),
    })
}

fn ints_as_nums(list: &[i64]) -> Vec<Num> {
    list.iter().map(|&i| Num::Int(i)).collect()
}

/// `deltaList` of a list of ints straight into a PHP list, or None if an
/// element is not an int or a difference overflows.
fn int_deltas(slots: &[Zval]) -> Option<Zval> {
    let mut last = 0i64;
    for slot in slots {
        let value = long_of(slot)?;
        value.checked_sub(last)?;
        last = value;
    }
    let delta = |i: usize| {
        let previous = if i == 0 { 0 } else { long_of(&slots[i - 1]).unwrap_or(0) };
        long_zval(long_of(&slots[i]).unwrap_or(0) - previous)
    };
    Some(array_zval(packed::list_of(slots.len(), delta)))
}

/// The ints Yioop's encoder would work on. Floats from 2^62 up would make it
/// loop forever; smaller ones are truncated as PHP's `pack()` truncates them.
fn encodable(values: Values, function: &str) -> Fallible<Vec<i64>> {
    match values {
        Values::Ints(ints) => Ok(ints),
        Values::Nums(nums) => nums
            .iter()
            .enumerate()
            .map(|(index, &n)| match n {
                Num::Float(f) if f >= modified9::ENCODE_LIMIT as f64 => {
                    Err(never_terminates(function, &format!("list element {index}")))
                }
                n => Ok(n.to_int()),
            })
            .collect(),
    }
}

/// A number Yioop adds `headroom` to before encoding it, as an int. A float
/// from 2^62 up (INF included) never finishes encoding in Yioop: ValueError.
fn encodable_int(n: Num, headroom: i64, function: &str) -> Fallible<i64> {
    match n {
        Num::Float(f) if f + headroom as f64 >= modified9::ENCODE_LIMIT as f64 => {
            Err(never_terminates(function, POSTING_VALUE))
        }
        n => Ok(n.to_int()),
    }
}

/// Where key 0 sits in iteration order: the element Yioop's
/// `isset($delta_list[0])` and `$delta_list[0] += ...` see.
fn lead_position(array: &ZendHashTable) -> Option<usize> {
    array
        .iter()
        .position(|(key, value)| matches!(key, ArrayKey::Long(0)) && !value.dereference().is_null())
}

/// What packPosting's ValueError blames: the values it encodes.
const POSTING_VALUE: &str = "the doc index plus one, a position or a difference of positions";

/// The ValueError for input on which Yioop's encoder never returns (its
/// bit-length loop overflows at 2^62); `what` says which value got there.
fn never_terminates(function: &str, what: &str) -> PhpException {
    value_error(format!(
        "{function}(): {what} is 2^62 or more, which Yioop's encoder never finishes encoding"
    ))
}

/// `$crawl_order == CrawlConstants::PAGE_IMPORTANCE`, PHP 8's loose equality
/// with the non-numeric string "ad".
fn is_page_importance(crawl_order: &Zval) -> bool {
    let value = crawl_order.dereference();
    match value.zend_str() {
        Some(s) => s.as_bytes() == PAGE_IMPORTANCE,
        None => value.is_true(),
    }
}

// ---- result helpers ----

fn set_num(target: &mut Zval, n: Num) {
    match n {
        Num::Int(i) => target.set_long(i),
        Num::Float(f) => target.set_double(f),
    }
}

fn pair(first: Zval, second: Zval) -> Zval {
    array_zval(packed::pair_of(first, second))
}

/// `[doc_index, positions]` from a decoded posting, built straight into PHP
/// arrays; long lists de-delta on the device when the dispatch says so.
/// One posting's words as `[doc_index, positions]`: on the stack, or on
/// the dispatched path where a posting this long may go to the device.
fn posting_zval(format: posting::Format, dispatch: &Dispatch, words: &[u8], dedelta: bool) -> Zval {
    let most_elements = words.len() / 4 * 24;
    if dispatch.wants_device(most_elements) {
        return with_decoded(dispatch, words, |decoded| dispatched_posting_zval(format, dispatch, decoded, dedelta));
    }
    posting::with_posting(format, words, dedelta, |doc_index, positions| {
        pair(doc_index.map_or_else(Zval::null, long_zval), int_list(positions))
    })
}

fn dispatched_posting_zval(format: posting::Format, dispatch: &Dispatch, decoded: &[u32], dedelta: bool) -> Zval {
    let on_device = dedelta && dispatch.wants_device(decoded.len());
    let (doc_index, positions) = posting::split_posting(format, decoded, dedelta && !on_device);
    let doc_index = doc_index.map_or_else(Zval::null, long_zval);
    let positions = if on_device {
        let mut list: Vec<i64> = positions.collect();
        let _ = dispatch.de_delta(&mut list); // below 2^28 each: no overflow
        int_list(list.into_iter())
    } else {
        int_list(positions)
    };
    pair(doc_index, positions)
}

/// Runs `f` with an empty int buffer and an empty byte buffer, reused
/// across calls so that the per-call path allocates nothing.
fn with_scratch<R>(f: impl FnOnce(&mut Vec<i64>, &mut Vec<u8>) -> R) -> R {
    thread_local! {
        static SCRATCH: std::cell::RefCell<(Vec<i64>, Vec<u8>)> =
            const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
    }
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut buffers) => {
            let (ints, bytes) = &mut *buffers;
            ints.clear();
            bytes.clear();
            let result = f(ints, bytes);
            if ints.capacity() > 1 << 20 || bytes.capacity() > 1 << 22 {
                *buffers = (Vec::new(), Vec::new()); // don't keep a huge list's buffers
            }
            result
        }
        Err(_) => f(&mut Vec::new(), &mut Vec::new()),
    })
}

/// Runs `f` on the decoded words of `bytes`, in a buffer reused across
/// calls: a fresh allocation per posting cost as much as decoding it.
fn with_decoded<R>(dispatch: &Dispatch, bytes: &[u8], f: impl FnOnce(&[u32]) -> R) -> R {
    thread_local! {
        static BUFFER: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUFFER.with(|buffer| match buffer.try_borrow_mut() {
        Ok(mut decoded) => {
            decoded.clear();
            dispatch.decode_words(bytes, &mut decoded);
            let result = f(&decoded);
            if decoded.capacity() > 1 << 20 {
                *decoded = Vec::new(); // don't keep a huge list's buffer forever
            }
            result
        }
        Err(_) => {
            let mut decoded = Vec::new();
            dispatch.decode_words(bytes, &mut decoded);
            f(&decoded)
        }
    })
}

// ---- deDeltaList ----

/// A shared list of ints must be copied before it is written (PHP's
/// copy-on-write); building the summed list as that copy reads and writes
/// it once instead of twice. None if the list is not shared, not all ints,
/// or a sum overflows: the in-place path handles those.
fn summed_copy_of_shared_list(array: &ZendHashTable) -> Option<Zval> {
    if !packed::is_shared(array) || settings::current().dispatch.wants_device(array.len()) {
        return None;
    }
    let slots = packed::slots(array)?;
    let (mut sum, mut exact) = (0i64, true);
    let list = packed::list_of(slots.len(), |i| {
        // Element 0 stays as it is; each later one becomes itself plus the sum so far.
        let value = long_of(&slots[i]);
        let next = if i == 0 { value } else { value.and_then(|v| v.checked_add(sum)) };
        match next {
            Some(next) if exact => sum = next,
            _ => exact = false,
        }
        long_zval(sum)
    });
    exact.then(|| array_zval(list))
}

/// A list keyed 0..n-1: a prefix sum in place, finished in PHP numbers
/// from the first element that is not an int or whose sum overflows.
fn de_delta_sequential(array: &mut ZendHashTable) -> Fallible<()> {
    let dispatch = settings::current().dispatch;
    let Some(slots) = packed::slots_mut(array) else {
        return de_delta_by_key(array);
    };
    if dispatch.wants_device(slots.len()) {
        if let Some(mut ints) = slots.iter().map(long_of).collect::<Option<Vec<i64>>>() {
            if dispatch.de_delta(&mut ints).is_ok() {
                slots.iter_mut().zip(ints).for_each(|(slot, v)| packed::set_long_in_place(slot, v));
                return Ok(());
            }
        }
    }
    let resume_at = de_delta_ints_in_place(slots);
    for i in resume_at..slots.len() {
        let sum = num::add(operand(&slots[i], "+")?, operand(&slots[i - 1], "+")?);
        slots[i] = num_zval(sum);
    }
    Ok(())
}

/// The int-only prefix sum, in place; returns where it had to stop (the
/// length if it did not).
fn de_delta_ints_in_place(slots: &mut [Zval]) -> usize {
    let Some(mut sum) = slots.first().and_then(long_of) else { return 1 };
    let mut i = 1;
    while i < slots.len() {
        if i % packed::SLOTS_PER_LINE == 0 {
            packed::prefetch_ahead(slots, i);
        }
        match long_of(&slots[i]).and_then(|v| v.checked_add(sum)) {
            Some(next) => {
                sum = next;
                packed::set_long_in_place(&mut slots[i], next);
            }
            None => return i,
        }
        i += 1;
    }
    slots.len()
}

/// Yioop's loop on any other array: `$a[$i] += $a[$i - 1]` for i from 1 to
/// count - 1, where a missing key reads as null (PHP warns; we stay quiet)
/// and is then created at the end.
fn de_delta_by_key(array: &mut ZendHashTable) -> Fallible<()> {
    let count = array.len() as i64;
    for i in 1..count {
        let previous = key_operand(array, i - 1)?;
        let current = key_operand(array, i)?;
        let sum = num_zval(num::add(current, previous));
        array
            .insert_at_index(i, sum)
            .map_err(|e| type_error(format!("deDeltaList(): {e}")))?;
    }
    Ok(())
}

fn key_operand(array: &ZendHashTable, key: i64) -> Fallible<Num> {
    array.get_index(key).map_or(Ok(Num::Int(0)), |v| operand(v, "+"))
}
