//! Modified9, Yioop's Simple-9 variant: the word codec and the framing of a
//! posting string into words.
//!
//! A word is a big-endian u32. Bits 31-30 are continuation bits (11 start,
//! 10 continue, 01 end, 00 a one-word string); then a selector: 00 1x28,
//! 01 2x14, 10 3x9, 1100 4x6, 1101 5x5, 1110 6x4, 11110 7x3, 111110 12x2,
//! 111111 24x1. Elements sit high slot first; the decoder reads from the low
//! slot up and stops at the first zero, which is how a short last word ends.
//!
//! Every function here reproduces Yioop's PHP exactly, also on input that
//! Yioop never writes (damaged strings, out-of-range values).

use crate::phpnum::{self, Num};
use std::ops::Range;

/// How many elements of a given bit length fit in a word (index = bits).
const PACK_POSSIBILITIES: [i64; 32] = [
    0, 24, 12, 7, 6, 5, 4, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1,
];

/// Yioop's encoder loops forever on elements from 2^62 up: its bit-length
/// search reaches `1 << 63`, which overflows, and never stops.
pub const ENCODE_LIMIT: i64 = 1 << 62;

/// Why a list cannot be encoded the way Yioop would.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodeError {
    /// The element at this index would make Yioop's encoder never return.
    NeverTerminates { index: usize },
}

/// Per first byte of a word: (bits per element, slots). Slots 0 marks the
/// one-element selector, whose single element is kept even when zero.
static WORD_LAYOUT: [(u8, u8); 256] = build_word_layout();

const fn build_word_layout() -> [(u8, u8); 256] {
    let mut table = [(0u8, 0u8); 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match (b >> 4) & 3 {
            0 => (28, 0),
            1 => (14, 2),
            2 => (9, 3),
            _ => long_selector_layout(b as u8),
        };
        b += 1;
    }
    table
}

/// Selector 11xx: Yioop tries the codes longest first and takes the first
/// whose bits are all set in the first byte.
const fn long_selector_layout(first_byte: u8) -> (u8, u8) {
    const CODES: [(u8, u8, u8); 6] =
        [(63, 1, 24), (62, 2, 12), (60, 3, 7), (56, 4, 6), (52, 5, 5), (48, 6, 4)];
    let mut i = 0;
    while i < CODES.len() {
        let (code, bits, slots) = CODES[i];
        if first_byte & code == code {
            return (bits, slots);
        }
        i += 1;
    }
    (6, 4) // unreachable: selector 11 always matches code 48
}

/// Yioop's `unpackListModified9`: the elements of one word, appended to `out`.
/// Only the low 32 bits of a PHP int reach the result, so `word` is a u32.
#[inline]
pub fn decode_word(word: u32, out: &mut Vec<u32>) {
    let (bits, slots) = WORD_LAYOUT[(word >> 24) as usize];
    if slots == 0 {
        out.push(word & 0x0FFF_FFFF);
        return;
    }
    let mask = (1u32 << bits) - 1;
    let filled = (0..slots as u32)
        .take_while(|&slot| (word >> (slot * bits as u32)) & mask != 0)
        .count() as u32;
    out.extend((0..filled).rev().map(|slot| (word >> (slot * bits as u32)) & mask));
}

/// Yioop's `docIndexModified9`: the first element of a word as a doc index,
/// undoing the fold of a doc index into the first element. Takes the whole
/// PHP int, because Yioop's shifts here see bits above 32.
pub fn doc_index_of_word(encoded: i64) -> i64 {
    const T26: i64 = 2 << 26;
    let (value, bits, mask, mut shift) = match encoded & 0x3000_0000 {
        0 => {
            let v = encoded & 0x0FFF_FFFF;
            return if v & T26 > 0 { (v - T26 + (v & 0x1FF)) >> 9 } else { v - 1 };
        }
        0x1000_0000 => (encoded & 0xEFFF_FFFF, 14, 0x3FFF, 14),
        0x2000_0000 => (encoded & 0xDFFF_FFFF, 9, 0x1FF, 18),
        _ => {
            let first_char = encoded >> 24;
            let code = long_selector_code(first_char);
            let (bits, slots) = long_selector_layout(first_char as u8);
            let bits = bits as i64;
            let top = phpnum::chr(first_char - code) as i64;
            let value = (top << 24) | (encoded & 0xFF_FFFF);
            (value, bits, (1 << bits) - 1, bits * (slots as i64 - 1))
        }
    };
    let mut doc_index;
    loop {
        doc_index = (value >> shift) & mask;
        if doc_index != 0 {
            let fold = if doc_index & T26 > 0 { T26 + (doc_index & 0x1FF) } else { 1 };
            return doc_index - fold;
        }
        shift -= bits;
        if shift < 0 {
            return doc_index;
        }
    }
}

fn long_selector_code(first_char: i64) -> i64 {
    [63, 62, 60, 56, 52, 48].into_iter().find(|&c| first_char & c == c).unwrap_or(48)
}

/// Yioop's `encodeModified9`, appending to `out`: its greedy packing
/// reproduced step by step, including the quirks of its bit-length
/// bookkeeping (see the tests) and its handling of values that do not fit.
pub fn encode(list: &[i64], out: &mut Vec<u8>) -> Result<(), EncodeError> {
    if let Some(index) = list.iter().position(|&e| e >= ENCODE_LIMIT) {
        return Err(EncodeError::NeverTerminates { index });
    }
    let mut encoder = Encoder::new(out);
    for &elt in list {
        encoder.push(elt);
    }
    encoder.finish();
    Ok(())
}

/// The state of Yioop's encoder loop. `cur_len` is an element bit length,
/// which can grow past 31 where Yioop's table lookups yield null.
struct Encoder<'a> {
    out: &'a mut Vec<u8>,
    word: Vec<i64>,
    cur_len: i64,
    cur_size: i64,
    continue_bits: i64,
}

impl<'a> Encoder<'a> {
    fn new(out: &'a mut Vec<u8>) -> Self {
        Encoder { out, word: Vec::with_capacity(24), cur_len: 1, cur_size: 1, continue_bits: 3 }
    }

    fn push(&mut self, elt: i64) {
        let old_len = self.cur_len;
        while elt > self.cur_size {
            self.cur_len += 1;
            self.cur_size = max_of_bit_length(self.cur_len);
        }
        // `$cnt < null` is false in PHP, which forces a new word.
        if pack_possibilities(self.cur_len).is_some_and(|p| (self.word.len() as i64) < p) {
            self.word.push(elt);
            return;
        }
        self.flush(pack_possibilities(old_len));
        self.continue_bits = 2;
        self.word.push(elt);
        self.cur_size = 1;
        self.cur_len = 1;
        // Yioop computes the size before bumping the length here, so a new
        // word's first element is counted one bit wider than it is.
        while elt > self.cur_size {
            self.cur_size = max_of_bit_length(self.cur_len);
            self.cur_len += 1;
        }
    }

    fn finish(mut self) {
        self.continue_bits = if self.continue_bits == 3 { 0 } else { 1 };
        self.flush(pack_possibilities(self.cur_len));
    }

    fn flush(&mut self, count: Option<i64>) {
        let word = pack_word(self.continue_bits, count, &self.word);
        self.out.extend_from_slice(&word);
        self.word.clear();
    }
}

fn pack_possibilities(bit_length: i64) -> Option<i64> {
    usize::try_from(bit_length).ok().and_then(|i| PACK_POSSIBILITIES.get(i)).copied()
}

/// `(1 << $len) - 1` for the lengths the encoder can reach below the limit.
fn max_of_bit_length(len: i64) -> i64 {
    phpnum::shl(1, len).wrapping_sub(1)
}

/// Yioop's `packListModified9`. A null element count (from a bit length past
/// Yioop's table) gives a null code and a shift of zero, as in PHP.
fn pack_word(continue_bits: i64, count: Option<i64>, elts: &[i64]) -> [u8; 4] {
    let code = count.and_then(code_for_count);
    let bits = code.map_or(0, bits_for_code);
    let mut packed = Num::Int(0);
    for &elt in elts {
        packed = phpnum::add(Num::Int(phpnum::shl(packed.to_int(), bits)), Num::Int(elt));
    }
    let mut word = (packed.to_int() as u32).to_be_bytes();
    word[0] = phpnum::chr((continue_bits << 6) + code.unwrap_or(0) + word[0] as i64);
    word
}

fn code_for_count(count: i64) -> Option<i64> {
    Some(match count {
        24 => 63,
        12 => 62,
        7 => 60,
        6 => 56,
        5 => 52,
        4 => 48,
        3 => 32,
        2 => 16,
        1 => 0,
        _ => return None,
    })
}

fn bits_for_code(code: i64) -> i64 {
    match code {
        63 => 1,
        62 => 2,
        60 => 3,
        56 => 4,
        52 => 5,
        48 => 6,
        32 => 9,
        16 => 14,
        _ => 28,
    }
}

/// Where Yioop's `nextPostString` leaves things: the bytes it returns (a
/// range of the input) and the new offset, which overflows into a float
/// like any PHP int.
#[derive(Debug, Clone, PartialEq)]
pub struct PostString {
    pub bytes: Range<usize>,
    pub next_offset: Num,
}

/// Yioop's `nextPostString`: the words of the posting starting at `offset`,
/// following continuation bits; on a bad first word, nothing and a skip of
/// four bytes. Negative offsets count from the end, as PHP string offsets do.
pub fn next_post_string(input: &[u8], offset: i64) -> PostString {
    let len = input.len() as i64;
    let skip = PostString { bytes: 0..0, next_offset: phpnum::add(Num::Int(offset), Num::Int(4)) };
    let Some(last_byte) = offset.checked_add(3) else { return skip };
    if string_index(input, last_byte).is_none() {
        return skip;
    }
    let mut flags = byte_at(input, offset) & 0xC0;
    if flags != 0 && flags != 0xC0 {
        return skip;
    }
    let mut end = offset + 4;
    while end < len && flags >= 0x80 {
        flags = byte_at(input, end) & 0xC0;
        end += 4;
    }
    PostString { bytes: substr(len, offset, end - offset), next_offset: Num::Int(end) }
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

/// `unpack("N*", $s)` mapped through `unpackListModified9` and merged:
/// whole words only, trailing bytes ignored.
pub fn decode_words(bytes: &[u8], out: &mut Vec<u32>) {
    for chunk in bytes.chunks_exact(4) {
        decode_word(u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]), out);
    }
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
        encode(list, &mut out).unwrap();
        out
    }

    fn decoded(bytes: &[u8]) -> Vec<u32> {
        let mut out = Vec::new();
        decode_words(bytes, &mut out);
        out
    }

    #[test]
    fn one_word_lists_use_continuation_bits_00() {
        // Four 6-bit values: selector 1100, continuation 00.
        let bytes = words(&[12, 4, 12, 5]);
        assert_eq!(bytes.len(), 4);
        assert_eq!(bytes[0] >> 6, 0);
        assert_eq!(decoded(&bytes), [12, 4, 12, 5]);
    }

    #[test]
    fn multi_word_lists_start_11_continue_10_end_01() {
        let bytes = words(&[300_000, 300_000, 300_000]);
        let flags: Vec<u8> = bytes.chunks(4).map(|w| w[0] >> 6).collect();
        assert_eq!(flags, [3, 2, 1]);
    }

    #[test]
    fn empty_list_encodes_as_an_empty_24_slot_word() {
        assert_eq!(words(&[]), [0x3f, 0, 0, 0]);
        assert_eq!(decoded(&[0x3f, 0, 0, 0]), Vec::<u32>::new());
    }

    #[test]
    fn zero_element_ends_a_word_but_not_a_one_slot_word() {
        // 2x14 word with slots (5, 0): decoding from the low slot stops at once.
        assert_eq!(decoded(&(0x1000_0000u32 | (5 << 14)).to_be_bytes()), Vec::<u32>::new());
        // A 1x28 word keeps its element even when it is zero.
        assert_eq!(decoded(&0u32.to_be_bytes()), [0]);
    }

    #[test]
    fn first_element_after_a_word_break_is_counted_one_bit_wider() {
        // Yioop quirk: 24 ones fill a word; the next element, 2, is taken as
        // 3 bits wide, so its word holds at most 7 elements, not 12.
        let mut list = vec![1; 24];
        list.extend([2; 12]);
        let bytes = words(&list);
        let second_word = bytes[4];
        assert_eq!(second_word & 0x3f, 60, "7x3 selector, not 12x2");
        assert_eq!(decoded(&bytes).iter().map(|&v| v as i64).collect::<Vec<_>>(), list);
    }

    #[test]
    fn values_from_2_pow_62_are_refused_where_yioop_would_hang() {
        let mut out = Vec::new();
        assert_eq!(
            encode(&[1, ENCODE_LIMIT], &mut out),
            Err(EncodeError::NeverTerminates { index: 1 })
        );
        assert!(encode(&[ENCODE_LIMIT - 1], &mut out).is_ok());
    }

    #[test]
    fn doc_index_of_a_folded_first_element() {
        // A 1x28 word whose element has bit 27 set carries a doc index.
        let folded = ((1i64 << 18) + 40_000) << 9 | 7;
        assert_eq!(doc_index_of_word(folded), ((folded - (2 << 26) + 7) >> 9));
        assert_eq!(doc_index_of_word(5), 4);
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
    fn next_post_string_drops_a_word_that_starts_mid_posting() {
        let bytes = words(&[300_000, 300_000, 300_000]);
        let post = next_post_string(&bytes, 4);
        assert_eq!(post.bytes, 0..0);
        assert_eq!(post.next_offset, Num::Int(8));
    }

    #[test]
    fn next_post_string_past_the_end_advances_by_four() {
        let post = next_post_string(&[0, 0, 0, 1], 2);
        assert_eq!(post, PostString { bytes: 0..0, next_offset: Num::Int(6) });
        let post = next_post_string(&[], i64::MAX);
        assert_eq!(post.next_offset, Num::Float(i64::MAX as f64 + 4.0));
    }
}
