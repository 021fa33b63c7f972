//! Utility.php's posting functions: `packPosting`, `unpackPosting`,
//! `addDocIndexPostings`, and the batch `unpackPostings` with the
//! `yioop_codec\floor*` baselines the benches compare it with.

use super::args::*;
use crate::php::runtime::convert::{
    array_values, bytes_zval, int_list, int_operand, operand, value_error, Fallible,
};
use crate::php::runtime::function::{Handler, Param, Signature};
use crate::php::runtime::zval::{array_zval, long_of, long_zval};
use crate::php::runtime::arrays;
use crate::php::settings;
use crate::codec::modified9::NeverReturns;
use crate::php_semantics::num::Num;
use crate::codec::posting;
use crate::codec::posting_list;
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;

php_function!(PACK_POSTING, pack_posting_handler, "packPosting", [Param::Value("doc_index"), Param::Value("position_list"), Param::Bool("delta", "true")], DataType::Mixed, |args| {
    let delta = args.flag(2, true);
    let [doc_index, position_list] = args.values();
    pack_posting(doc_index, position_list, delta)
});

/// Declines (null) where a doc index or a value Yioop encodes is a float
/// that is not an int of the int range (B8, B9), once the checks where
/// Yioop never returns have passed: Yioop's encoder compares and adds it
/// as a float.
pub(crate) fn pack_posting(doc_index: &Zval, position_list: &Zval, delta: bool) -> Fallible<Zval> {
    let doc_num = operand(doc_index, "+")?;
    let packed = pack_posting_nums(doc_num, position_list, delta)?;
    Ok(if packed.1 || is_odd_float(doc_num) { Zval::new() } else { packed.0 })
}

/// packPosting's bytes, and whether a value it encoded was an odd float.
fn pack_posting_nums(doc_num: Num, position_list: &Zval, delta: bool) -> Fallible<(Zval, bool)> {
    let doc_index = encodable_int(doc_num, 1, "packPosting")?;
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
                .map(|bytes| (bytes_zval(&bytes), false))
                .map_err(|_| never_terminates("packPosting", POSTING_VALUE));
        }
        None => return Err(array_expected(position_list, "packPosting", 2, "position_list")),
    };
    // A list of ints, Yioop's case, goes straight to the core; the general
    // path below handles any other array and differences that overflow.
    let packed_ints = with_scratch(|ints, bytes| {
        let slots = arrays::slots(list)?;
        ints.extend(slots.iter().map_while(long_of));
        if ints.len() != slots.len() {
            return None;
        }
        posting::pack_posting_into(format, doc_index, ints, delta, bytes).ok()?;
        Some(bytes_zval(bytes))
    });
    if let Some(packed) = packed_ints {
        return Ok((packed, false));
    }
    // not all ints: the rare path
    let (deltas, lead, odd) = if delta {
        let values = delta_values(list)?;
        let odd = has_odd_float(&values);
        let deltas = encodable(values, "packPosting")?;
        let lead = (!deltas.is_empty()).then_some(0);
        (deltas, lead, odd)
    } else {
        let values = array_values(list, "+")?;
        let odd = has_odd_float(&values) && strings_all_numeric(list);
        (encodable(values, "packPosting")?, lead_position(list), odd)
    };
    posting::pack_deltas(format, doc_index, deltas, lead)
        .map(|bytes| (bytes_zval(&bytes), odd))
        .map_err(|_| never_terminates("packPosting", POSTING_VALUE))
}

php_function!(UNPACK_POSTING, unpack_posting_handler, "unpackPosting", [Param::Value("posting"), Param::Reference("offset"), Param::Bool("dedelta", "true")], DataType::Array, |args| {
    let dedelta = args.flag(2, true);
    unpack_posting(args.take(0).dereference(), args.take(1).dereference_mut(), dedelta)
});

pub(super) fn unpack_posting(posting: &Zval, offset: &mut Zval, dedelta: bool) -> Fallible<Zval> {
    let settings = settings::current();
    let input = string_arg(posting, "unpackPosting", 1, "posting")?;
    let post = frame(input, offset, "unpackPosting")?;
    let result = posting_zval(settings.format, &settings.dispatch, &input[post.bytes], dedelta);
    set_num(offset, post.next_offset);
    Ok(result)
}


php_function!(ADD_DOC_INDEX_POSTINGS, add_doc_index_postings_handler, "addDocIndexPostings", [Param::Reference("postings"), Param::Value("add_offset")], DataType::Mixed, |args| {
    let postings = args.take(0).dereference();
    add_doc_index_postings(postings, args.take(1).dereference())
});

pub(super) fn add_doc_index_postings(postings: &Zval, add_offset: &Zval) -> Fallible<Zval> {
    let input = string_arg(postings, "addDocIndexPostings", 1, "postings")?;
    let offset_num = operand(add_offset, "+")?;
    let add_offset = encodable_int(offset_num, 0, "addDocIndexPostings")?;
    let bytes = posting::add_doc_index_postings(input, add_offset)
        .map_err(|_| never_terminates("addDocIndexPostings", "a doc index plus $add_offset, plus one,"))?;
    // B8: Yioop adds a float offset that is not an int of the int range as
    // a float; where it returns (checked above), its PHP gives its result.
    // $postings is never written, so declining changes nothing.
    Ok(if is_odd_float(offset_num) { Zval::new() } else { bytes_zval(&bytes) })
}


php_function!(UNPACK_POSTINGS, unpack_postings_handler, "unpackPostings", [Param::Value("postings"), Param::Reference("offset"), Param::Int("max_count", "-1"), Param::Bool("dedelta", "true")], DataType::Array, |args| {
    let (max_count, dedelta) = (args.int(2, -1)?, args.flag(3, true));
    unpack_postings(args.take(0).dereference(), args.take(1).dereference_mut(), max_count, dedelta)
});

pub(super) fn unpack_postings(postings: &Zval, offset: &mut Zval, max_count: i64, dedelta: bool) -> Fallible<Zval> {
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
pub(super) fn batch_start(input: &[u8], offset: &Zval, max_count: i64, function: &str) -> Fallible<(Num, Option<usize>)> {
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
pub(super) fn list_postings(
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
    Ok(array_zval(arrays::list_of(items.len(), |_| items.next().unwrap_or_default())))
}

/// Beyond this many empty postings before the string even starts, a batch
/// call is refused: a loop of unpackPosting would exhaust memory there.
pub(super) const MAX_EMPTY_POSTINGS: usize = 1 << 20;

/// How many `[null, []]` postings an offset before the start of the string
/// yields (4 bytes each) until one can be read.
pub(super) fn leading_empty_postings(len: usize, offset: Num) -> usize {
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

pub(super) fn floor_posting(posting: &Zval, offset: &mut Zval, dedelta: bool) -> Fallible<Zval> {
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

pub(super) fn floor_postings(postings: &Zval, offset: &mut Zval, max_count: i64) -> Fallible<Zval> {
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

/// The functions this file declares, registered globally.
pub(super) static FUNCTIONS: &[(&Signature, Handler)] = &[
    (&PACK_POSTING, pack_posting_handler),
    (&UNPACK_POSTING, unpack_posting_handler),
    (&ADD_DOC_INDEX_POSTINGS, add_doc_index_postings_handler),
    (&UNPACK_POSTINGS, unpack_postings_handler),
    (&FLOOR_POSTING, floor_posting_handler),
    (&FLOOR_POSTINGS, floor_postings_handler),
    (&FLOOR_LIST, floor_list_handler),
];
