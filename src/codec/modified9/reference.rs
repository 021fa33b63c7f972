//! Yioop's Modified9 loops transcribed as they read: the reference that the
//! fast decoders and encoders are tested against, the faithful encoder state
//! machine that the fast encoder hands anything unusual over to, and
//! `docIndexModified9`, which decodes one word per call and needs nothing
//! faster.

use super::format::{
    layout_of_first_byte, selector_with_slots, EncodeError, CONTINUE_FIRST, CONTINUE_LAST,
    CONTINUE_MIDDLE, CONTINUE_ONLY, ENCODE_LIMIT, FOLD_FLAG, FOLD_SHIFT,
    ONE_ELEMENT_LAYOUT, SELECTORS, SLOTS_FOR_BIT_LENGTH,
};
use crate::php_semantics::num::{self, Num};

/// Yioop's `unpackListModified9` written as Yioop's loop reads: the
/// reference for `decode_word` and the bulk decoders.
pub fn decode_word_reference(word: u32, out: &mut Vec<u32>) {
    let layout = layout_of_first_byte((word >> 24) as u8);
    if layout == ONE_ELEMENT_LAYOUT {
        out.push(word & 0x0FFF_FFFF);
        return;
    }
    let selector = SELECTORS[layout];
    let (bits, slots) = (selector.bits as u32, selector.slots as u32);
    let mask = (1u32 << bits) - 1;
    let filled = (0..slots).take_while(|&slot| (word >> (slot * bits)) & mask != 0).count() as u32;
    out.extend((0..filled).rev().map(|slot| (word >> (slot * bits)) & mask));
}

/// Yioop's `docIndexModified9`: the first element of a word as a doc index,
/// undoing the fold of a doc index into the first element. Takes the whole
/// PHP int, because Yioop's shifts here see bits above 32.
pub fn doc_index_of_word(encoded: i64) -> i64 {
    // The first delta's bits below a folded doc index, as Yioop masks them here.
    const BELOW_DOC_INDEX: i64 = (1 << FOLD_SHIFT) - 1;
    let (value, layout) = match encoded & 0x3000_0000 {
        0 => {
            let v = encoded & 0x0FFF_FFFF;
            return if v & FOLD_FLAG > 0 { (v - FOLD_FLAG + (v & BELOW_DOC_INDEX)) >> FOLD_SHIFT } else { v - 1 };
        }
        // Yioop clears the selector bit it tested, and only that one.
        0x1000_0000 => (encoded & 0xEFFF_FFFF, 1),
        0x2000_0000 => (encoded & 0xDFFF_FFFF, 2),
        _ => {
            // Yioop subtracts the code from the first byte (chr() wraps it).
            let first_char = encoded >> 24;
            let layout = layout_of_first_byte(first_char as u8);
            let top = num::chr(first_char - SELECTORS[layout].code as i64) as i64;
            ((top << 24) | (encoded & 0xFF_FFFF), layout)
        }
    };
    let bits = SELECTORS[layout].bits as i64;
    let mask = (1 << bits) - 1;
    let mut shift = bits * (SELECTORS[layout].slots as i64 - 1);
    let mut doc_index;
    loop {
        doc_index = (value >> shift) & mask;
        if doc_index != 0 {
            let fold = if doc_index & FOLD_FLAG > 0 { FOLD_FLAG + (doc_index & BELOW_DOC_INDEX) } else { 1 };
            return doc_index - fold;
        }
        shift -= bits;
        if shift < 0 {
            return doc_index;
        }
    }
}

/// Yioop's `encodeModified9` as a plain transcription of its loop: the
/// reference for `encode`, whose fast path falls back on the same state
/// machine.
pub fn encode_reference(list: &[i64], out: &mut Vec<u8>) -> Result<(), EncodeError> {
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
pub(super) struct Encoder<'a> {
    out: &'a mut Vec<u8>,
    word: Vec<i64>,
    cur_len: i64,
    cur_size: i64,
    continue_bits: u32,
}

impl<'a> Encoder<'a> {
    fn new(out: &'a mut Vec<u8>) -> Self {
        Encoder::resume(out, Vec::with_capacity(24), 1, 1, true)
    }

    /// The loop's state part way through a list: `word` holds the elements
    /// of the word being filled, `first_word` says whether it is the list's
    /// first.
    pub(super) fn resume(
        out: &'a mut Vec<u8>,
        word: Vec<i64>,
        cur_len: i64,
        cur_size: i64,
        first_word: bool,
    ) -> Self {
        let continue_bits = if first_word { CONTINUE_FIRST } else { CONTINUE_MIDDLE };
        Encoder { out, word, cur_len, cur_size, continue_bits }
    }

    pub(super) fn push(&mut self, elt: i64) {
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
        self.continue_bits = CONTINUE_MIDDLE;
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

    pub(super) fn finish(mut self) {
        let one_word = self.continue_bits == CONTINUE_FIRST;
        self.continue_bits = if one_word { CONTINUE_ONLY } else { CONTINUE_LAST };
        self.flush(pack_possibilities(self.cur_len));
    }

    fn flush(&mut self, count: Option<i64>) {
        let word = pack_word(self.continue_bits, count, &self.word);
        self.out.extend_from_slice(&word);
        self.word.clear();
    }
}

fn pack_possibilities(bit_length: i64) -> Option<i64> {
    usize::try_from(bit_length).ok().and_then(|i| SLOTS_FOR_BIT_LENGTH.get(i)).map(|&s| s as i64)
}

/// `(1 << $len) - 1` for the lengths the encoder can reach below the limit.
fn max_of_bit_length(len: i64) -> i64 {
    num::shl(1, len).wrapping_sub(1)
}

/// Yioop's `packListModified9`. A null element count (from a bit length past
/// Yioop's table) gives a null code and a shift of zero, as in PHP.
fn pack_word(continue_bits: u32, count: Option<i64>, elts: &[i64]) -> [u8; 4] {
    let selector = count.and_then(selector_with_slots);
    let code = selector.map_or(0, |s| s.code as i64);
    let bits = selector.map_or(0, |s| s.bits as i64);
    let mut packed = Num::Int(0);
    for &elt in elts {
        packed = num::add(Num::Int(num::shl(packed.to_int(), bits)), Num::Int(elt));
    }
    let mut word = (packed.to_int() as u32).to_be_bytes();
    word[0] = num::chr(((continue_bits as i64) << 6) + code + word[0] as i64);
    word
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_index_of_a_folded_first_element() {
        // A 1x28 word whose element has bit 27 set carries a doc index.
        let folded = ((1i64 << 18) + 40_000) << 9 | 7;
        assert_eq!(doc_index_of_word(folded), ((folded - (2 << 26) + 7) >> 9));
        assert_eq!(doc_index_of_word(5), 4);
    }

    #[test]
    fn doc_index_of_a_word_of_several_slots_is_its_first_element_unfolded() {
        // 2x14 word with elements (9, 3): the first element less one.
        assert_eq!(doc_index_of_word(0x1000_0000 | (9 << 14) | 3), 8);
        // 4x6 word whose top slot is empty: the next slot down counts.
        assert_eq!(doc_index_of_word(0x3000_0000 | (5 << 12) | (1 << 6)), 4);
    }

    #[test]
    fn reference_encoder_packs_a_short_word_into_its_low_slots() {
        // 12 is 4 bits wide: a 6x4 word (code 56), continuation bits 00,
        // holding four elements high slot first, its top two slots empty.
        let mut out = Vec::new();
        encode_reference(&[12, 4, 12, 5], &mut out).unwrap();
        let word = (56u32 << 24) | (12 << 12) | (4 << 8) | (12 << 4) | 5;
        assert_eq!(out, word.to_be_bytes());
    }
}
