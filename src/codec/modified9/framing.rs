//! Framing: Yioop's `nextPostString`, which cuts the words of one posting
//! out of a posting string by their continuation bits, with PHP's string
//! offsets (negative ones count from the end, overflow turns them into
//! floats); and `decodeModified9`, the framing followed by the decode.

use super::decode::decode_words;
use super::format::{more_words_follow, starts_posting};
use crate::php_semantics::num::{self, Num};
use std::ops::Range;

/// Where Yioop's `nextPostString` leaves things: the bytes it returns (a
/// range of the input), the new offset, which overflows into a float like
/// any PHP int, and how far it got.
#[derive(Debug, Clone, PartialEq)]
pub struct PostString {
    pub bytes: Range<usize>,
    pub next_offset: Num,
    pub reached: Reached,
}

/// How far Yioop's `nextPostString` gets. PHP checks the offset's type at
/// the string access and at `substr()`, so a caller that takes offsets of
/// any PHP type needs to know which of them were reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reached {
    /// `isset($input_string[$offset + 3])` failed: the offset was only
    /// added to.
    Nothing,
    /// The first byte was read (`$input_string[$offset]`), and its
    /// continuation bits do not start a posting.
    FirstByte,
    /// The posting was cut out by `substr($input_string, $offset, ...)`.
    Substr,
}

/// Yioop's `nextPostString` would never return: the offset is a float so
/// far out (such as -INF or -1e300) that adding 4 leaves it where it is,
/// before the end of the string, on a word whose continuation bits say that
/// more words follow, so its loop reads that word forever.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeverReturns;

/// Yioop's `nextPostString`: the words of the posting starting at `offset`,
/// following continuation bits; on a bad first word, nothing and a skip of
/// four bytes. Negative offsets count from the end, as PHP string offsets do.
/// An int offset always returns: each step moves it 4 bytes on.
pub fn next_post_string(input: &[u8], offset: i64) -> PostString {
    let len = input.len() as i64;
    let skip = |reached| PostString {
        bytes: 0..0,
        next_offset: num::add(Num::Int(offset), Num::Int(4)),
        reached,
    };
    let Some(last_byte) = offset.checked_add(3) else { return skip(Reached::Nothing) };
    if string_index(input, last_byte).is_none() {
        return skip(Reached::Nothing);
    }
    let mut first_byte = byte_at(input, offset);
    if !starts_posting(first_byte) {
        return skip(Reached::FirstByte);
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
        return PostString { bytes, next_offset: Num::Int(end), reached: Reached::Substr };
    }
    while end < len && more_words_follow(first_byte) {
        first_byte = byte_at(input, end);
        end += 4;
    }
    PostString { bytes: substr(len, offset, end - offset), next_offset: Num::Int(end), reached: Reached::Substr }
}

/// [`next_post_string`] from an offset that is a PHP float (as an offset
/// becomes once it overflows, or as a caller may pass): each string
/// position is the float's int conversion, and the offset stays a float.
/// Where Yioop's loop would never end, [`NeverReturns`] instead.
pub fn next_post_string_float(input: &[u8], offset: f64) -> Result<PostString, NeverReturns> {
    let len = input.len() as f64;
    let skip = |reached| Ok(PostString { bytes: 0..0, next_offset: Num::Float(offset + 4.0), reached });
    let at = |position: f64| num::float_to_int(position);
    if string_index(input, at(offset + 3.0)).is_none() {
        return skip(Reached::Nothing);
    }
    let mut first_byte = byte_at(input, at(offset));
    if !starts_posting(first_byte) {
        return skip(Reached::FirstByte);
    }
    let mut end = offset + 4.0;
    while end < len && more_words_follow(first_byte) {
        first_byte = byte_at(input, at(end));
        let next = end + 4.0;
        if next == end && more_words_follow(first_byte) {
            return Err(NeverReturns); // Yioop would read this same word forever
        }
        end = next;
    }
    let bytes = substr(input.len() as i64, at(offset), at(end - offset));
    Ok(PostString { bytes, next_offset: Num::Float(end), reached: Reached::Substr })
}

/// [`next_post_string`] or [`next_post_string_float`], as the offset is.
#[inline]
pub fn next_post_string_at(input: &[u8], offset: Num) -> Result<PostString, NeverReturns> {
    match offset {
        Num::Int(i) => Ok(next_post_string(input, i)),
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
        let post = next_post_string_float(&bytes, 0.7).unwrap();
        assert_eq!((post.bytes, post.next_offset), (0..7, Num::Float(8.7)));
        // Past the end: a skip of four, still a float.
        assert_eq!(next_post_string_float(&bytes, 1e30).unwrap().next_offset, Num::Float(1e30));
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
        assert_eq!(post, PostString { bytes: 0..0, next_offset: Num::Int(6), reached: Reached::Nothing });
        let post = next_post_string(&[], i64::MAX);
        assert_eq!(post.next_offset, Num::Float(i64::MAX as f64 + 4.0));
    }

    #[test]
    fn a_word_that_does_not_start_a_posting_is_read_then_skipped() {
        let bytes = words(&[300_000, 300_000, 300_000]);
        assert_eq!(next_post_string(&bytes, 4).reached, Reached::FirstByte);
        assert_eq!(next_post_string_float(&bytes, 4.0).unwrap().reached, Reached::FirstByte);
        assert_eq!(next_post_string(&bytes, 0).reached, Reached::Substr);
    }

    #[test]
    fn a_float_offset_that_adding_4_cannot_move_never_returns_on_a_first_word() {
        // -INF and -1e300 read as string position 0, where a first word
        // (continuation bits 11) keeps Yioop's loop going, at the same word.
        let bytes = words(&[300_000, 300_000]);
        for offset in [f64::NEG_INFINITY, -1e300, -18_446_744_073_709_551_616.0] {
            assert_eq!(next_post_string_float(&bytes, offset), Err(NeverReturns), "{offset}");
            assert_eq!(next_post_string_at(&bytes, Num::Float(offset)), Err(NeverReturns));
        }
    }

    #[test]
    fn a_float_offset_that_adding_4_cannot_move_returns_where_the_loop_ends() {
        // A one-word posting: the loop never runs, substr() is reached.
        let one_word = words(&[3]);
        let post = next_post_string_float(&one_word, f64::NEG_INFINITY).unwrap();
        assert_eq!((post.reached, post.next_offset), (Reached::Substr, Num::Float(f64::NEG_INFINITY)));
        // A continuation word: skipped, the offset stays.
        let bytes = words(&[300_000, 300_000, 300_000]);
        let post = next_post_string_float(&bytes[4..], -1e300).unwrap();
        assert_eq!((post.reached, post.next_offset), (Reached::FirstByte, Num::Float(-1e300)));
        // Past the end, or far before a position in the string: never loops.
        assert_eq!(next_post_string_float(&bytes, 1e300).unwrap().reached, Reached::Substr);
        assert_eq!(next_post_string_float(&bytes, -1e17).unwrap().reached, Reached::Nothing);
    }
}
