//! Framing: Yioop's `nextPostString`, which cuts the words of one posting
//! out of a posting string by their continuation bits, with PHP's string
//! offsets (negative ones count from the end, overflow turns them into
//! floats); and `decodeModified9`, the framing followed by the decode.

use super::decode::decode_words;
use super::format::{more_words_follow, starts_posting};
use crate::phpnum::{self, Num};
use std::ops::Range;

/// Where Yioop's `nextPostString` leaves things: the bytes it returns (a
/// range of the input) and the new offset, which overflows into a float
/// like any PHP int. `framed` says whether it got as far as `substr()`
/// (a first word that starts a posting), where PHP checks the offset's type.
#[derive(Debug, Clone, PartialEq)]
pub struct PostString {
    pub bytes: Range<usize>,
    pub next_offset: Num,
    pub framed: bool,
}

/// Yioop's `nextPostString`: the words of the posting starting at `offset`,
/// following continuation bits; on a bad first word, nothing and a skip of
/// four bytes. Negative offsets count from the end, as PHP string offsets do.
pub fn next_post_string(input: &[u8], offset: i64) -> PostString {
    let len = input.len() as i64;
    let skip = || PostString {
        bytes: 0..0,
        next_offset: phpnum::add(Num::Int(offset), Num::Int(4)),
        framed: false,
    };
    let Some(last_byte) = offset.checked_add(3) else { return skip() };
    if string_index(input, last_byte).is_none() {
        return skip();
    }
    let mut first_byte = byte_at(input, offset);
    if !starts_posting(first_byte) {
        return skip();
    }
    let mut end = offset + 4;
    if offset >= 0 {
        // The usual case, without negative-offset arithmetic: every index
        // read is inside the string.
        while end < len && more_words_follow(first_byte) {
            first_byte = input[end as usize];
            end += 4;
        }
        let bytes = offset as usize..end.min(len) as usize;
        return PostString { bytes, next_offset: Num::Int(end), framed: true };
    }
    while end < len && more_words_follow(first_byte) {
        first_byte = byte_at(input, end);
        end += 4;
    }
    PostString { bytes: substr(len, offset, end - offset), next_offset: Num::Int(end), framed: true }
}

/// [`next_post_string`] from an offset that is a PHP float (as an offset
/// becomes once it overflows, or as a caller may pass): each string
/// position is the float's int conversion, and the offset stays a float.
pub fn next_post_string_float(input: &[u8], offset: f64) -> PostString {
    let len = input.len() as f64;
    let skip = PostString { bytes: 0..0, next_offset: Num::Float(offset + 4.0), framed: false };
    let at = |position: f64| phpnum::float_to_int(position);
    if string_index(input, at(offset + 3.0)).is_none() {
        return skip;
    }
    let mut first_byte = byte_at(input, at(offset));
    if !starts_posting(first_byte) {
        return skip;
    }
    let mut end = offset + 4.0;
    while end < len && more_words_follow(first_byte) {
        first_byte = byte_at(input, at(end));
        end += 4.0;
    }
    let bytes = substr(input.len() as i64, at(offset), at(end - offset));
    PostString { bytes, next_offset: Num::Float(end), framed: true }
}

/// [`next_post_string`] or [`next_post_string_float`], as the offset is.
pub fn next_post_string_at(input: &[u8], offset: Num) -> PostString {
    match offset {
        Num::Int(i) => next_post_string(input, i),
        Num::Float(f) => next_post_string_float(input, f),
    }
}

/// A PHP string offset: negative counts from the end; None when outside.
fn string_index(input: &[u8], index: i64) -> Option<usize> {
    let len = input.len() as i64;
    let index = if index < 0 { index + len } else { index };
    (0..len).contains(&index).then_some(index as usize)
}

/// `ord($s[$i])`: an offset outside the string reads as "", whose ord is 0.
fn byte_at(input: &[u8], index: i64) -> u8 {
    string_index(input, index).map_or(0, |i| input[i])
}

/// PHP 8's `substr($s, $offset, $length)` as a byte range.
fn substr(len: i64, offset: i64, length: i64) -> Range<usize> {
    if offset > len {
        return 0..0;
    }
    let start = if offset < 0 { (len + offset).max(0) } else { offset };
    let available = len - start;
    let take = if length < 0 { (available + length).max(0) } else { length.min(available) };
    start as usize..(start + take) as usize
}

/// Yioop's `decodeModified9`: the posting at `offset`, decoded, and the
/// offset after it.
pub fn decode(input: &[u8], offset: i64, out: &mut Vec<u32>) -> Num {
    let post = next_post_string(input, offset);
    decode_words(&input[post.bytes], out);
    post.next_offset
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[i64]) -> Vec<u8> {
        let mut out = Vec::new();
        super::super::encode(list, &mut out).unwrap();
        out
    }

    #[test]
    fn next_post_string_follows_continuation_bits() {
        let mut bytes = words(&[300_000, 300_000]);
        bytes.extend(words(&[3]));
        let first = next_post_string(&bytes, 0);
        assert_eq!(first.bytes, 0..8);
        assert_eq!(first.next_offset, Num::Int(8));
        let second = next_post_string(&bytes, 8);
        assert_eq!(second.bytes, 8..12);
    }

    #[test]
    fn float_offsets_index_by_their_int_value_and_stay_floats() {
        let mut bytes = words(&[300_000, 300_000]);
        bytes.extend(words(&[3]));
        // Yioop's substr() gets $end - $offset = 8.7 - 0.7 = 7.999..., which
        // PHP truncates: seven bytes, as PHP itself returns.
        let post = next_post_string_float(&bytes, 0.7);
        assert_eq!((post.bytes, post.next_offset), (0..7, Num::Float(8.7)));
        // Past the end: a skip of four, still a float.
        assert_eq!(next_post_string_float(&bytes, 1e30).next_offset, Num::Float(1e30));
    }

    #[test]
    fn next_post_string_drops_a_word_that_starts_mid_posting() {
        let bytes = words(&[300_000, 300_000, 300_000]);
        let post = next_post_string(&bytes, 4);
        assert_eq!(post.bytes, 0..0);
        assert_eq!(post.next_offset, Num::Int(8));
    }

    #[test]
    fn next_post_string_past_the_end_advances_by_four() {
        let post = next_post_string(&[0, 0, 0, 1], 2);
        assert_eq!(post, PostString { bytes: 0..0, next_offset: Num::Int(6), framed: false });
        let post = next_post_string(&[], i64::MAX);
        assert_eq!(post.next_offset, Num::Float(i64::MAX as f64 + 4.0));
    }
}
