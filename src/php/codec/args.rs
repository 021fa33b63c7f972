//! Arguments read and results built as Yioop's Utility.php functions read
//! and return them, with PHP's errors where its PHP would throw.

use crate::php::runtime::convert::{
    array_values, int_list, is_numeric, is_string_offset, operand,
    type_error, type_name, value_error, Fallible, Values,
};
use crate::php::runtime::zval::{array_zval, long_of, long_zval};
use crate::php::runtime::arrays;
use crate::codec::modified9::{self, NeverReturns, PostString, Reached};
use crate::php_semantics::num::{self, Num};
use crate::codec::backend::Dispatch;
use crate::codec::posting;
use crate::codec::delta;
use ext_php_rs::prelude::*;
use super::queue_weight::PAGE_IMPORTANCE;
use ext_php_rs::types::{ArrayKey, ZendHashTable, Zval};

// ---- argument helpers ----

pub(super) fn array_arg<'a>(value: &'a Zval, function: &str, position: u32, name: &str) -> Fallible<&'a ZendHashTable> {
    value.dereference().array().ok_or_else(|| array_expected(value, function, position, name))
}

pub(super) fn array_expected(value: &Zval, function: &str, position: u32, name: &str) -> PhpException {
    type_error(format!(
        "{function}(): Argument #{position} (${name}) must be of type array, {} given",
        type_name(value)
    ))
}

/// What Yioop's `foreach` over an argument sees: an array's values, nothing
/// for a scalar (PHP only warns), and objects are refused.
pub(super) fn iterable_arg<'a>(value: &'a Zval, function: &str, name: &str) -> Fallible<Option<&'a ZendHashTable>> {
    let value = value.dereference();
    if value.is_object() {
        return array_arg(value, function, 1, name).map(Some);
    }
    Ok(value.array())
}

/// The bytes of a string argument. Yioop only indexes into it, which finds
/// nothing in a non-string scalar, so those read as an empty string; arrays
/// and objects are refused.
pub(super) fn string_arg<'a>(value: &'a Zval, function: &str, position: u32, name: &str) -> Fallible<&'a [u8]> {
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
pub(super) fn frame(input: &[u8], offset: &Zval, function: &str) -> Fallible<PostString> {
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
pub(super) fn frame_any_offset(input: &[u8], offset: &Zval, function: &str) -> Fallible<PostString> {
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
pub(super) fn offset_never_returns(function: &str) -> PhpException {
    value_error(format!(
        "{function}(): Argument #2 ($offset) is too far out for adding 4 to move it, and on a word \
         that Yioop's nextPostString would read forever"
    ))
}

/// The type PHP names when an int parameter refuses this offset, if it does.
pub(super) fn substr_refuses(offset: &Zval) -> Option<&'static str> {
    let offset = offset.dereference();
    if let Some(f) = offset.double().filter(|_| offset.is_double()) {
        return (!num::float_fits_int(f)).then_some("float");
    }
    let s = offset.zend_str()?;
    (!is_numeric(s.as_bytes())).then_some("string")
}

/// `deltaList($array)`.
pub(super) fn delta_values(array: &ZendHashTable) -> Fallible<Values> {
    Ok(match array_values(array, "-")? {
        Values::Ints(list) => match delta::delta_list(&list) {
            Some(deltas) => Values::Ints(deltas),
            None => Values::Nums(delta::delta_list_nums(&ints_as_nums(&list))),
        },
        Values::Nums(list) => Values::Nums(delta::delta_list_nums(&list)),
    })
}

pub(super) fn ints_as_nums(list: &[i64]) -> Vec<Num> {
    list.iter().map(|&i| Num::Int(i)).collect()
}

/// `deltaList` of a list of ints straight into a PHP list, or None if an
/// element is not an int or a difference overflows.
pub(super) fn int_deltas(slots: &[Zval]) -> Option<Zval> {
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
    Some(array_zval(arrays::list_of(slots.len(), delta)))
}

/// The ints Yioop's encoder would work on. Floats from 2^62 up would make it
/// loop forever; smaller ones are truncated as PHP's `pack()` truncates them.
pub(super) fn encodable(values: Values, function: &str) -> Fallible<Vec<i64>> {
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

/// A float that is not an int of the int range (fractional, NAN, ±INF,
/// beyond ±2^63), which Yioop's encoder compares and adds as a float where
/// the extension cuts it to an int.
pub(super) fn is_odd_float(n: Num) -> bool {
    matches!(n, Num::Float(f) if f.fract() != 0.0 || !num::float_fits_int(f))
}

/// Whether one of `values` is an [`is_odd_float`].
pub(super) fn has_odd_float(values: &Values) -> bool {
    matches!(values, Values::Nums(nums) if nums.iter().any(|&n| is_odd_float(n)))
}

/// Whether every string in `array` is wholly numeric: a string that is not
/// is compared as a string by Yioop's encoder (B4, deliberate), so an odd
/// float beside it does not decline.
pub(super) fn strings_all_numeric(array: &ZendHashTable) -> bool {
    array.values().all(|v| v.dereference().zend_str().map_or(true, |s| is_numeric(s.as_bytes())))
}

/// Whether encodeModified9 declines `nums`, the values of `array` read as
/// numbers (only called when they are not all ints): it does when one is a
/// float that is not an integer within the int range (fractional, NAN,
/// ±INF, -1e19: B9, B10), which Yioop's encoder compares and adds as a
/// float where the extension would cut it to an int, and Yioop's encoder
/// returns on every element (ints and floats below 2^62; NAN). Integral
/// floats encode as their int, as in Yioop. A string that is not wholly
/// numeric is compared as a string (B4), where Yioop's loop may never end:
/// not declined.
pub(super) fn declines_floats(array: &ZendHashTable, nums: &[Num]) -> bool {
    let limit = modified9::ENCODE_LIMIT;
    let mut odd_float = false;
    for n in nums {
        match *n {
            Num::Int(i) if i >= limit => return false,
            Num::Float(f) if f >= limit as f64 => return false,
            n => odd_float |= is_odd_float(n),
        }
    }
    odd_float && strings_all_numeric(array)
}

/// A number Yioop adds `headroom` to before encoding it, as an int. A float
/// from 2^62 up (INF included) never finishes encoding in Yioop: ValueError.
pub(super) fn encodable_int(n: Num, headroom: i64, function: &str) -> Fallible<i64> {
    match n {
        Num::Float(f) if f + headroom as f64 >= modified9::ENCODE_LIMIT as f64 => {
            Err(never_terminates(function, POSTING_VALUE))
        }
        n => Ok(n.to_int()),
    }
}

/// Where key 0 sits in iteration order: the element Yioop's
/// `isset($delta_list[0])` and `$delta_list[0] += ...` see.
pub(super) fn lead_position(array: &ZendHashTable) -> Option<usize> {
    array
        .iter()
        .position(|(key, value)| matches!(key, ArrayKey::Long(0)) && !value.dereference().is_null())
}

/// What packPosting's ValueError blames: the values it encodes.
pub(super) const POSTING_VALUE: &str = "the doc index plus one, a position or a difference of positions";

/// The ValueError for input on which Yioop's encoder never returns (its
/// bit-length loop overflows at 2^62); `what` says which value got there.
pub(super) fn never_terminates(function: &str, what: &str) -> PhpException {
    value_error(format!(
        "{function}(): {what} is 2^62 or more, which Yioop's encoder never finishes encoding"
    ))
}

/// `$crawl_order == CrawlConstants::PAGE_IMPORTANCE`, PHP 8's loose equality
/// with the non-numeric string "ad".
pub(super) fn is_page_importance(crawl_order: &Zval) -> bool {
    let value = crawl_order.dereference();
    match value.zend_str() {
        Some(s) => s.as_bytes() == PAGE_IMPORTANCE,
        None => value.is_true(),
    }
}

// ---- result helpers ----

pub(super) fn set_num(target: &mut Zval, n: Num) {
    match n {
        Num::Int(i) => target.set_long(i),
        Num::Float(f) => target.set_double(f),
    }
}

pub(super) fn pair(first: Zval, second: Zval) -> Zval {
    array_zval(arrays::pair_of(first, second))
}

/// `[doc_index, positions]` from a decoded posting, built straight into PHP
/// arrays; long lists de-delta on the device when the dispatch says so.
/// One posting's words as `[doc_index, positions]`: on the stack, or on
/// the dispatched path where a posting this long may go to the device.
pub(super) fn posting_zval(format: posting::Format, dispatch: &Dispatch, words: &[u8], dedelta: bool) -> Zval {
    let most_elements = words.len() / 4 * 24;
    if dispatch.decodes_on_device(words.len() / 4) || dispatch.sums_on_device(most_elements) {
        return with_decoded(dispatch, words, |decoded| dispatched_posting_zval(format, dispatch, decoded, dedelta));
    }
    posting::with_posting(format, words, dedelta, |doc_index, positions| {
        pair(doc_index.map_or_else(Zval::null, long_zval), int_list(positions))
    })
}

pub(super) fn dispatched_posting_zval(format: posting::Format, dispatch: &Dispatch, decoded: &[u32], dedelta: bool) -> Zval {
    let on_device = dedelta && dispatch.sums_on_device(decoded.len());
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
pub(super) fn with_scratch<R>(f: impl FnOnce(&mut Vec<i64>, &mut Vec<u8>) -> R) -> R {
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
pub(super) fn with_decoded<R>(dispatch: &Dispatch, bytes: &[u8], f: impl FnOnce(&[u32]) -> R) -> R {
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
