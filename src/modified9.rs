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
//!
//! Speed: [`decode_word`] and [`decode_words`] are table-driven and, on
//! x86-64, use AVX2 or AVX-512 when the CPU has them ([`DecodeBackend`],
//! picked at run time); [`encode`] runs elements in 0..2^28 (all that Yioop
//! writes) through a fast path ([`EncodeBackend`]: scalar, or AVX2 with the
//! word lengths computed for 32 positions at once) and hands anything else to
//! the faithful state machine. [`decode_word_reference`] and
//! [`encode_reference`] are plain transcriptions of Yioop's loops, kept as the
//! reference the fast paths are tested against.

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
///
/// Table-driven, without a loop over the slots; [`decode_word_reference`]
/// is the plain transcription of Yioop's loop that this is tested against.
#[inline]
pub fn decode_word(word: u32, out: &mut Vec<u32>) {
    out.extend(word_elements(word));
}

/// The elements of one word, as [`decode_word`] appends them, without
/// a buffer: a caller building one PHP array per word needs none.
#[inline]
pub fn word_elements(word: u32) -> impl ExactSizeIterator<Item = u32> {
    let (d, count, layout) = split_word(word);
    let mask = LANE_MASK[layout][0];
    LANE_SHIFT[layout][..count].iter().map(move |&s| (d >> s) & mask)
}

/// Yioop's `unpackListModified9` written as Yioop's loop reads: the
/// reference for [`decode_word`] and the bulk decoders.
pub fn decode_word_reference(word: u32, out: &mut Vec<u32>) {
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
/// reproduced exactly, including the quirks of its bit-length bookkeeping
/// (see the tests) and its handling of values that do not fit.
///
/// Elements in 0..2^28 (all that Yioop writes) take a fast path; from the
/// first other element on, the faithful state machine ([`encode_reference`])
/// takes over from the very same state. On an error nothing is appended.
#[inline]
pub fn encode(list: &[i64], out: &mut Vec<u8>) -> Result<(), EncodeError> {
    encode_on(EncodeBackend::best(), list, out)
}

/// The implementations of [`encode`]'s fast path. Every one gives the same
/// bytes as [`encode_reference`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodeBackend {
    /// Portable: Yioop's loop on machine integers.
    Scalar,
    /// x86-64 with AVX2 (and BMI1, LZCNT): the word lengths for 32
    /// positions at a time, then the words.
    Avx2,
}

impl EncodeBackend {
    pub const ALL: [EncodeBackend; 2] = [EncodeBackend::Scalar, EncodeBackend::Avx2];

    /// Whether this CPU can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            EncodeBackend::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            EncodeBackend::Avx2 => {
                std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("bmi1")
                    && std::is_x86_feature_detected!("lzcnt")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The backends this CPU can run.
    pub fn available() -> Vec<EncodeBackend> {
        Self::ALL.into_iter().filter(|b| b.is_available()).collect()
    }

    /// The fastest backend this CPU can run (detected once).
    #[inline]
    pub fn best() -> EncodeBackend {
        use std::sync::atomic::{AtomicU8, Ordering};
        static BEST: AtomicU8 = AtomicU8::new(u8::MAX);
        match BEST.load(Ordering::Relaxed) {
            0 => EncodeBackend::Scalar,
            1 => EncodeBackend::Avx2,
            _ => {
                let best = *Self::available().last().unwrap();
                BEST.store(best as u8, Ordering::Relaxed);
                best
            }
        }
    }
}

/// [`encode`] on a chosen backend. Panics if the CPU lacks it.
pub fn encode_with(backend: EncodeBackend, list: &[i64], out: &mut Vec<u8>) -> Result<(), EncodeError> {
    assert!(backend.is_available(), "{backend:?} is not available on this CPU");
    encode_on(backend, list, out)
}

/// [`encode_with`] for a backend known to be available.
#[inline]
fn encode_on(backend: EncodeBackend, list: &[i64], out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let start = out.len();
    // At most one word per element, and one for an empty list.
    out.reserve(4 * list.len().max(1));
    // SAFETY: the room was just reserved; the backend is available.
    let handover = unsafe {
        let dst = out.as_mut_ptr().add(start);
        match backend {
            EncodeBackend::Scalar => encode_fast(list, dst),
            #[cfg(target_arch = "x86_64")]
            EncodeBackend::Avx2 => simd_encode::encode_fast_avx2(list, dst),
            #[cfg(not(target_arch = "x86_64"))]
            _ => unreachable!(),
        }
    };
    match handover {
        Ok(words) => {
            // SAFETY: encode_fast initialised `words` words.
            unsafe { out.set_len(start + 4 * words) };
            Ok(())
        }
        Err(state) => {
            if let Some(index) = list[state.next..].iter().position(|&e| e >= ENCODE_LIMIT) {
                return Err(EncodeError::NeverTerminates { index: state.next + index });
            }
            // SAFETY: as above.
            unsafe { out.set_len(start + 4 * state.words) };
            let mut encoder = Encoder {
                out,
                word: list[state.word_start..state.next].to_vec(),
                cur_len: state.cur_len as i64,
                cur_size: state.cur_size as i64,
                continue_bits: if state.words == 0 { 3 } else { 2 },
            };
            for &elt in &list[state.next..] {
                encoder.push(elt);
            }
            encoder.finish();
            Ok(())
        }
    }
}

/// Yioop's `encodeModified9` as a plain transcription of its loop: the
/// reference for [`encode`], and what it falls back on.
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

/// Where [`encode_fast`] stopped: the first element it could not take
/// (`next`), the start of the word it was filling, the words it wrote and
/// its bit-length state, all as [`Encoder`] would have them.
struct Handover {
    next: usize,
    word_start: usize,
    words: usize,
    cur_len: u32,
    cur_size: u64,
}

/// Elements below this take the fast path.
const FAST_LIMIT: u64 = 1 << 28;

/// `pack_possibilities` for the bit lengths the fast path reaches (1..=29).
static SLOTS_FOR_LEN: [u8; 32] = {
    let mut t = [1u8; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = PACK_POSSIBILITIES[i] as u8;
        i += 1;
    }
    t
};

/// Per slot count (1..=24): the element bits and the selector code in place
/// (bits 29-24), as `pack_word` gives them.
static WORD_FORMAT: [(u32, u32); 25] = {
    let mut t = [(0u32, 0u32); 25];
    let counts = [1, 2, 3, 4, 5, 6, 7, 12, 24];
    let mut i = 0;
    while i < counts.len() {
        let c = counts[i];
        let code = match c {
            24 => 63,
            12 => 62,
            7 => 60,
            6 => 56,
            5 => 52,
            4 => 48,
            3 => 32,
            2 => 16,
            _ => 0,
        };
        let bits = match code {
            63 => 1,
            62 => 2,
            60 => 3,
            56 => 4,
            52 => 5,
            48 => 6,
            32 => 9,
            16 => 14,
            _ => 28,
        };
        t[c] = (bits, code << 24);
        i += 1;
    }
    t
};

/// Bit length of a value, 0 for 0.
#[inline(always)]
fn bit_length(v: u64) -> u32 {
    64 - v.leading_zeros()
}

/// The word for `count` elements of `elts` (values below 2^28) in a layout
/// of `slots` slots, with continuation bits `cont`: `pack_word` for the
/// values Yioop writes, where its additions never carry.
#[inline(always)]
fn fast_word(cont: u32, slots: usize, elts: &[i64]) -> u32 {
    assert!(!elts.is_empty() && slots <= 24);
    // SAFETY: elts is not empty, and the pointer reads stay inside it.
    unsafe { fast_word_raw(cont, slots, elts.as_ptr(), elts.len(), elts.len() - 1) }
}

/// [`fast_word`] on `count` elements at `p`; `p[0..=readable]` may be read
/// (`readable >= count - 1`).
///
/// # Safety
/// `1 <= count <= slots <= 24`, and the reads are in bounds.
#[inline(always)]
unsafe fn fast_word_raw(cont: u32, slots: usize, p: *const i64, count: usize, readable: usize) -> u32 {
    let (bits, code) = *WORD_FORMAT.get_unchecked(slots);
    let packed = if count <= 3 {
        // Branch-free for the common short words: absent elements are 0.
        let b = bits as u64;
        let c = count as u64;
        let x0 = *p as u64;
        let x1 = std::hint::select_unpredictable(count > 1, *p.add(1.min(readable)) as u64, 0);
        let x2 = std::hint::select_unpredictable(count > 2, *p.add(2.min(readable)) as u64, 0);
        // The shift of x1 wraps when it is absent (then it is 0 anyway).
        (x0 << ((c - 1) * b)) | (x1 << (c.wrapping_sub(2).wrapping_mul(b) & 63)) | x2
    } else {
        let mut acc = 0u64;
        for i in 0..count {
            acc = (acc << bits) | *p.add(i) as u64;
        }
        acc
    };
    (cont << 30) | code | packed as u32
}

/// The fast path of [`encode`]: Yioop's state machine for elements in
/// 0..2^28, writing words (big-endian) at `dst`. Returns the number of words
/// written, or where it met an element it does not take.
///
/// # Safety
/// `dst` has room for `4 * max(1, list.len())` bytes.
unsafe fn encode_fast(list: &[i64], dst: *mut u8) -> Result<usize, Handover> {
    let n = list.len();
    let dst = dst as *mut [u8; 4];
    if n == 0 {
        // An empty list: one empty 24x1 word, continuation bits 00.
        *dst = 0x3F00_0000u32.to_be_bytes();
        return Ok(1);
    }
    let first = list[0] as u64;
    if first >= FAST_LIMIT {
        return Err(Handover { next: 0, word_start: 0, words: 0, cur_len: 1, cur_size: 1 });
    }
    // The first word starts from Yioop's initial state: its length is the
    // element's own (at least 1).
    let mut cur_len = bit_length(first).max(1);
    let mut cur_size = (1u64 << cur_len) - 1;
    let mut word_start = 0;
    let mut words = 0;
    let mut cont = 3;
    let mut i = 1;
    while i < n {
        let elt = list[i] as u64;
        if elt >= FAST_LIMIT {
            return Err(Handover { next: i, word_start, words, cur_len, cur_size });
        }
        // Yioop's `while ($elt > $cur_size)` loop, in one step.
        let (len, size) = if elt > cur_size {
            let len = (cur_len + 1).max(bit_length(elt));
            (len, (1u64 << len) - 1)
        } else {
            (cur_len, cur_size)
        };
        if SLOTS_FOR_LEN[len as usize] as usize > i - word_start {
            cur_len = len;
            cur_size = size;
        } else {
            let slots = SLOTS_FOR_LEN[cur_len as usize] as usize;
            *dst.add(words) = fast_word(cont, slots, &list[word_start..i]).to_be_bytes();
            words += 1;
            cont = 2;
            word_start = i;
            // A new word: Yioop counts its first element one bit wider.
            if elt <= 1 {
                cur_len = 1;
                cur_size = 1;
            } else {
                let bits = bit_length(elt);
                cur_len = bits + 1;
                cur_size = (1u64 << bits) - 1;
            }
        }
        i += 1;
    }
    let slots = SLOTS_FOR_LEN[cur_len as usize] as usize;
    let cont = if cont == 3 { 0 } else { 1 };
    *dst.add(words) = fast_word(cont, slots, &list[word_start..]).to_be_bytes();
    Ok(words + 1)
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
    let mut flags = byte_at(input, offset) & 0xC0;
    if flags != 0 && flags != 0xC0 {
        return skip();
    }
    let mut end = offset + 4;
    if offset >= 0 {
        // The usual case, without negative-offset arithmetic: every index
        // read is inside the string.
        while end < len && flags >= 0x80 {
            flags = input[end as usize] & 0xC0;
            end += 4;
        }
        let bytes = offset as usize..end.min(len) as usize;
        return PostString { bytes, next_offset: Num::Int(end), framed: true };
    }
    while end < len && flags >= 0x80 {
        flags = byte_at(input, end) & 0xC0;
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
    let mut flags = byte_at(input, at(offset)) & 0xC0;
    if flags != 0 && flags != 0xC0 {
        return skip;
    }
    let mut end = offset + 4.0;
    while end < len && flags >= 0x80 {
        flags = byte_at(input, at(end)) & 0xC0;
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

/// `unpack("N*", $s)` mapped through `unpackListModified9` and merged:
/// whole words only, trailing bytes ignored. Uses the fastest
/// [`DecodeBackend`] this CPU has.
#[inline]
pub fn decode_words(bytes: &[u8], out: &mut Vec<u32>) {
    // A typical posting is a few words: the bulk decoders' set-up
    // (capacity planning, SIMD registers) costs more than it saves there,
    // so they go word by word (decode_words_raw).
    if bytes.len() < SHORT_INPUT {
        let whole = &bytes[..bytes.len() & !3];
        out.reserve(24 * (whole.len() / 4));
        // SAFETY: room for 24 elements per word was just reserved.
        unsafe {
            let written = decode_words_raw(whole, out.as_mut_ptr().add(out.len()));
            out.set_len(out.len() + written);
        }
        return;
    }
    decode_words_on(DecodeBackend::best(), bytes, out);
}

/// Inputs shorter than this (in bytes) decode word by word: with AVX2
/// where the CPU has it (58.7 against 63 ns for a realistic 4-word posting
/// in `unpack_posting`), else scalar.
const SHORT_INPUT: usize = 4 * 8;

/// Yioop's `decodeModified9`: the posting at `offset`, decoded, and the
/// offset after it.
pub fn decode(input: &[u8], offset: i64, out: &mut Vec<u32>) -> Num {
    let post = next_post_string(input, offset);
    decode_words(&input[post.bytes], out);
    post.next_offset
}

// ---------------------------------------------------------------------------
// Fast decoding
//
// A word is split without a loop: a per-first-byte entry gives masks that
// find the first zero slot with one add (the SWAR "has a zero field" trick),
// so the element count is a trailing-zero count. The payload is then shifted
// left so that the last element kept sits in the top slot; every output lane
// j reads slot `slots - 1 - j` of that, which is Yioop's order (high slot
// first) with the dropped slots turned into zeros. The bulk decoders write a
// fixed number of lanes per word and advance by the count.
// ---------------------------------------------------------------------------

/// (bits, slots) per layout id: 1x28, 2x14, 3x9, 4x6, 5x5, 6x4, 7x3, 12x2, 24x1.
const LAYOUTS: [(u32, u32); 9] =
    [(28, 1), (14, 2), (9, 3), (6, 4), (5, 5), (4, 6), (3, 7), (2, 12), (1, 24)];

/// The first layout id whose words can hold more than 8 elements.
const FIRST_WIDE_LAYOUT: usize = 7;

const fn layout_of_bits(bits: u8) -> usize {
    let mut id = 0;
    while id < LAYOUTS.len() {
        if LAYOUTS[id].0 == bits as u32 {
            return id;
        }
        id += 1;
    }
    panic!("no layout with that many bits");
}

/// What [`split_word`] needs to know about a word, by its first byte.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct WordEntry {
    /// The top bit of a virtual slot just past the last one: stops the
    /// trailing-zero count when every slot is filled.
    sentinel: u64,
    /// The element bits of the word.
    payload: u32,
    /// Each slot's bits but its top one (ANDed with the payload).
    low: u32,
    /// Added to the low bits: carries into a slot's top bit when the slot
    /// has a low bit set. For 1x28 it is the top bit itself, so that its one
    /// element always counts, even when zero.
    add: u32,
    /// Each slot's top bit.
    top: u32,
    /// `slots * bits + bits - 1`: minus the trailing-zero count, the shift
    /// that moves the kept elements to the top slots.
    k: u32,
    layout: u32,
}

static WORD_ENTRIES: [WordEntry; 256] = build_word_entries();

const fn build_word_entries() -> [WordEntry; 256] {
    let blank = WordEntry { sentinel: 0, payload: 0, low: 0, add: 0, top: 0, k: 0, layout: 0 };
    let mut table = [blank; 256];
    let mut b = 0;
    while b < 256 {
        let (bits, slots) = WORD_LAYOUT[b];
        let layout = layout_of_bits(bits);
        let bits = bits as u32;
        table[b] = if slots == 0 {
            WordEntry {
                sentinel: 1 << (28 + 27),
                payload: 0x0FFF_FFFF,
                low: 0,
                add: 1 << 27,
                top: 1 << 27,
                k: 28 + 27,
                layout: layout as u32,
            }
        } else {
            let slots = slots as u32;
            let payload = if slots * bits == 32 { u32::MAX } else { (1 << (slots * bits)) - 1 };
            let mut top = 0u32;
            let mut slot = 0;
            while slot < slots {
                top |= 1 << (slot * bits + bits - 1);
                slot += 1;
            }
            WordEntry {
                sentinel: 1 << (slots * bits + bits - 1),
                payload,
                low: payload & !top,
                add: payload & !top,
                top,
                k: slots * bits + bits - 1,
                layout: layout as u32,
            }
        };
        b += 1;
    }
    table
}

/// Per layout, per output lane: the right shift that brings that lane's
/// element down (lane j is slot `slots - 1 - j`); 32 for lanes past the
/// slots, which reads as zero.
#[repr(C, align(32))]
struct LaneShifts([[u32; 24]; 9]);

static LANE_SHIFT_TABLE: LaneShifts = LaneShifts(build_lane_shifts());
/// Shorthand for [`LANE_SHIFT_TABLE`].
static LANE_SHIFT: &[[u32; 24]; 9] = &LANE_SHIFT_TABLE.0;

const fn build_lane_shifts() -> [[u32; 24]; 9] {
    let mut t = [[32u32; 24]; 9];
    let mut id = 0;
    while id < 9 {
        let (bits, slots) = LAYOUTS[id];
        let mut j = 0;
        while j < slots {
            t[id][j as usize] = bits * (slots - 1 - j);
            j += 1;
        }
        id += 1;
    }
    t
}

/// Per layout: the element mask, eight times (one AVX2 register).
#[repr(C, align(32))]
struct LaneMasks([[u32; 8]; 9]);

static LANE_MASK_TABLE: LaneMasks = LaneMasks(build_lane_masks());
static LANE_MASK: &[[u32; 8]; 9] = &LANE_MASK_TABLE.0;

const fn build_lane_masks() -> [[u32; 8]; 9] {
    let mut t = [[0u32; 8]; 9];
    let mut id = 0;
    while id < 9 {
        let mask = (1u32 << LAYOUTS[id].0) - 1;
        let mut j = 0;
        while j < 8 {
            t[id][j] = mask;
            j += 1;
        }
        id += 1;
    }
    t
}

/// Per layout, per trailing-zero count: how many elements the word holds.
static COUNT_BY_TZ: [[u8; 64]; 9] = build_count_by_tz();

const fn build_count_by_tz() -> [[u8; 64]; 9] {
    let mut t = [[0u8; 64]; 9];
    let mut id = 0;
    while id < 9 {
        let bits = LAYOUTS[id].0 as usize;
        let mut tz = 0;
        while tz < 64 {
            t[id][tz] = if tz + 1 >= bits { ((tz + 1 - bits) / bits) as u8 } else { 0 };
            tz += 1;
        }
        id += 1;
    }
    t
}

/// One word's elements without a loop: `(d, count, layout)` where element
/// `j < count` (in output order) is `(d >> LANE_SHIFT[layout][j]) &
/// LANE_MASK[layout][0]`, and lanes from `count` to the layout's slot count
/// read as zero.
#[inline(always)]
fn split_word(word: u32) -> (u32, usize, usize) {
    let e = &WORD_ENTRIES[(word >> 24) as usize];
    let x = word & e.payload;
    // A slot's top bit ends up set iff the slot is nonzero.
    let nonzero = (((x & e.low) + e.add) | x) & e.top;
    let zero_tops = ((e.top & !nonzero) as u64) | e.sentinel;
    let tz = zero_tops.trailing_zeros();
    let layout = e.layout as usize;
    // tz is the top bit of the first zero slot (or of the sentinel): the
    // kept elements are the slots below it.
    let d = x << (e.k - tz);
    (d, COUNT_BY_TZ[layout][tz as usize & 63] as usize, layout)
}

/// The implementations of [`decode_words`]. Every one gives the same
/// elements as [`decode_word_reference`] word by word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecodeBackend {
    /// Portable: table-driven, no SIMD.
    Scalar,
    /// x86-64 with AVX2 (and BMI1): two words per 256-bit register.
    Avx2,
    /// x86-64 with AVX-512F and BW (and AVX2, BMI1, POPCNT): four words per 512-bit
    /// register, written with a compress.
    Avx512,
}

impl DecodeBackend {
    pub const ALL: [DecodeBackend; 3] =
        [DecodeBackend::Scalar, DecodeBackend::Avx2, DecodeBackend::Avx512];

    /// Whether this CPU can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            DecodeBackend::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            DecodeBackend::Avx2 => {
                std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("bmi1")
            }
            #[cfg(target_arch = "x86_64")]
            DecodeBackend::Avx512 => {
                DecodeBackend::Avx2.is_available()
                    && std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("popcnt")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The backends this CPU can run.
    pub fn available() -> Vec<DecodeBackend> {
        Self::ALL.into_iter().filter(|b| b.is_available()).collect()
    }

    /// The fastest backend this CPU can run (detected once).
    #[inline]
    pub fn best() -> DecodeBackend {
        use std::sync::atomic::{AtomicU8, Ordering};
        static BEST: AtomicU8 = AtomicU8::new(u8::MAX);
        match BEST.load(Ordering::Relaxed) {
            0 => DecodeBackend::Scalar,
            1 => DecodeBackend::Avx2,
            2 => DecodeBackend::Avx512,
            _ => {
                let best = *Self::available().last().unwrap();
                BEST.store(best as u8, Ordering::Relaxed);
                best
            }
        }
    }
}

/// [`decode_words`] on a chosen backend. Panics if the CPU lacks it.
pub fn decode_words_with(backend: DecodeBackend, bytes: &[u8], out: &mut Vec<u32>) {
    assert!(backend.is_available(), "{backend:?} is not available on this CPU");
    decode_words_on(backend, bytes, out);
}

/// [`decode_words_with`] for a backend known to be available.
fn decode_words_on(backend: DecodeBackend, bytes: &[u8], out: &mut Vec<u32>) {
    let mut words = &bytes[..bytes.len() & !3];
    let count = words.len() / 4;
    // Room for about two elements a word (what Yioop's postings hold) unless
    // the caller made room already; denser input grows the vector below.
    if out.capacity() - out.len() < count {
        out.reserve(2 * count + 32);
    }
    while !words.is_empty() {
        // Each word gives at most 24 elements and the bulk decoders write at
        // most 24 lanes from a word's output position: `fit` words can be
        // decoded without checking the capacity.
        let fit = ((out.capacity() - out.len()) / 24).min(words.len() / 4);
        if fit == 0 {
            let word = u32::from_be_bytes([words[0], words[1], words[2], words[3]]);
            decode_word(word, out); // grows the vector as needed
            words = &words[4..];
            continue;
        }
        let (now, rest) = words.split_at(fit * 4);
        // SAFETY: the spare capacity holds 24 lanes for each of `fit` words,
        // and the backend is available.
        unsafe {
            let dst = out.as_mut_ptr().add(out.len());
            let written = match backend {
                DecodeBackend::Scalar => decode_bulk_scalar(now, dst),
                #[cfg(target_arch = "x86_64")]
                DecodeBackend::Avx2 => simd::decode_bulk_avx2(now, dst),
                #[cfg(target_arch = "x86_64")]
                DecodeBackend::Avx512 => simd::decode_bulk_avx512(now, dst),
                #[cfg(not(target_arch = "x86_64"))]
                _ => unreachable!(),
            };
            out.set_len(out.len() + written);
        }
        words = rest;
    }
}

/// [`decode_words`] into raw memory on the best backend: whole words of
/// `bytes` (a trailing partial word is ignored), returning how many elements
/// it wrote.
///
/// # Safety
/// `dst` has room for 24 elements per word of `bytes`.
pub(crate) unsafe fn decode_words_raw(bytes: &[u8], dst: *mut u32) -> usize {
    let bytes = &bytes[..bytes.len() & !3];
    if bytes.len() < SHORT_INPUT {
        #[cfg(target_arch = "x86_64")]
        if DecodeBackend::best() != DecodeBackend::Scalar {
            return simd::decode_short_avx2(bytes, dst);
        }
        return decode_bulk_scalar(bytes, dst); // as in decode_words
    }
    match DecodeBackend::best() {
        DecodeBackend::Scalar => decode_bulk_scalar(bytes, dst),
        #[cfg(target_arch = "x86_64")]
        DecodeBackend::Avx2 => simd::decode_bulk_avx2(bytes, dst),
        #[cfg(target_arch = "x86_64")]
        DecodeBackend::Avx512 => simd::decode_bulk_avx512(bytes, dst),
        #[cfg(not(target_arch = "x86_64"))]
        _ => unreachable!(),
    }
}

/// Decodes whole words to `dst`, returning how many elements it wrote.
///
/// # Safety
/// `bytes.len()` is a multiple of 4 and `dst` has room for 24 lanes per word.
unsafe fn decode_bulk_scalar(bytes: &[u8], dst: *mut u32) -> usize {
    let mut o = dst;
    for chunk in bytes.chunks_exact(4) {
        let (d, count, layout) = split_word(u32::from_be_bytes(chunk.try_into().unwrap()));
        let shifts = &LANE_SHIFT[layout];
        let mask = LANE_MASK[layout][0];
        // Four lanes unconditionally (shifts of 32 give zero on a u64).
        for (j, &shift) in shifts[..4].iter().enumerate() {
            *o.add(j) = ((d as u64 >> shift) as u32) & mask;
        }
        if count > 4 {
            for (j, &shift) in shifts.iter().enumerate().take(count).skip(4) {
                *o.add(j) = (d >> shift) & mask;
            }
        }
        o = o.add(count);
    }
    o.offset_from(dst) as usize
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use super::*;
    use std::arch::x86_64::*;

    /// One word, any layout, with AVX2: 8 lanes written (24 for 12x2 and
    /// 24x1). Returns the element count.
    #[inline]
    #[target_feature(enable = "avx2,bmi1")]
    unsafe fn word_avx2(word: u32, o: *mut u32) -> usize {
        let (d, count, layout) = split_word(word);
        let v = _mm256_set1_epi32(d as i32);
        let shifts = LANE_SHIFT[layout].as_ptr() as *const __m256i;
        let mask = _mm256_load_si256(LANE_MASK[layout].as_ptr() as *const __m256i);
        let o = o as *mut __m256i;
        _mm256_storeu_si256(o, _mm256_and_si256(_mm256_srlv_epi32(v, _mm256_load_si256(shifts)), mask));
        if layout >= FIRST_WIDE_LAYOUT {
            for r in 1..3 {
                let s = _mm256_load_si256(shifts.add(r));
                _mm256_storeu_si256(o.add(r), _mm256_and_si256(_mm256_srlv_epi32(v, s), mask));
            }
        }
        count
    }

    /// Word by word with AVX2, without the bulk decoder's set-up: for a
    /// posting's few words. Same contract as `decode_bulk_scalar`.
    #[target_feature(enable = "avx2,bmi1")]
    pub(super) unsafe fn decode_short_avx2(bytes: &[u8], dst: *mut u32) -> usize {
        let mut o = dst;
        for chunk in bytes.chunks_exact(4) {
            o = o.add(word_avx2(u32::from_be_bytes(chunk.try_into().unwrap()), o));
        }
        o.offset_from(dst) as usize
    }

    // The group decoders handle words of at most four slots (1x28, 2x14,
    // 3x9, 4x6: selector bits `00`, `01`, `10`, `1100`), which is nearly all
    // of what Yioop writes, and whose first slot is nonzero (always so in a
    // word Yioop writes). A group with any other word goes word by word.
    //
    // Within a group, a word fills four lanes right-aligned, lane j holding
    // slot 3 - j: so the kept elements are the top lanes, in output order.
    // A lane's element is `(word << ls) >> rs`, with ls and rs looked up by
    // (selector, lane); ls = 32 empties the lanes past the word's slots.

    /// `ls` by `selector << 2 | lane`.
    const GROUP_LS: [u8; 16] = build_group_shift(true);
    /// `rs` by `selector << 2 | lane`.
    const GROUP_RS: [u8; 16] = build_group_shift(false);

    const fn build_group_shift(left: bool) -> [u8; 16] {
        let mut t = [32u8; 16];
        let mut sel = 0;
        while sel < 4 {
            let (bits, slots) = LAYOUTS[sel];
            let mut lane = 0;
            while lane < 4 {
                let slot = 3 - lane as u32;
                if slot < slots {
                    t[sel * 4 + lane] =
                        if left { (32 - bits - slot * bits) as u8 } else { (32 - bits) as u8 };
                }
                lane += 1;
            }
            sel += 1;
        }
        t
    }

    /// Per 8-bit zero mask of a pair of words (bit j: lane j is zero; only
    /// masks with lanes 3 and 7 nonzero are used): the lanes to keep, moved
    /// to the front, and (in the top byte of lane 7's index, which vpermd
    /// ignores) how many there are.
    #[repr(C, align(32))]
    struct PairPerm([[u32; 8]; 256]);

    static PAIR_PERM: PairPerm = PairPerm(build_pair_perm());

    const fn build_pair_perm() -> [[u32; 8]; 256] {
        let mut t = [[0u32; 8]; 256];
        let mut z = 0;
        while z < 256 {
            let mut row = [0u32; 8];
            let mut n = 0;
            let mut word = 0;
            while word < 2 {
                // Kept lanes: from lane 3 down while nonzero.
                let mut kept = 0;
                while kept < 4 && z & (1 << (word * 4 + 3 - kept)) == 0 {
                    kept += 1;
                }
                let mut i = 0;
                while i < kept {
                    row[n] = (word * 4 + 4 - kept + i) as u32;
                    n += 1;
                    i += 1;
                }
                word += 1;
            }
            row[7] |= (n as u32) << 24;
            t[z] = row;
            z += 1;
        }
        t
    }

    /// # Safety
    /// AVX2 and BMI1; `bytes.len()` a multiple of 4; room at `dst` for 24
    /// lanes per word.
    #[target_feature(enable = "avx2,bmi1")]
    pub(super) unsafe fn decode_bulk_avx2(bytes: &[u8], dst: *mut u32) -> usize {
        let mut p = bytes.as_ptr();
        let end = p.add(bytes.len());
        let mut o = dst;
        let bswap = _mm256_setr_epi8(
            3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0, //
            7, 6, 5, 4, 7, 6, 5, 4, 7, 6, 5, 4, 7, 6, 5, 4,
        );
        // The lane number, and 0x80 in the bytes that the lookups must zero.
        let lane_or = _mm256_setr_epi32(
            0x8080_8000u32 as i32,
            0x8080_8001u32 as i32,
            0x8080_8002u32 as i32,
            0x8080_8003u32 as i32,
            0x8080_8000u32 as i32,
            0x8080_8001u32 as i32,
            0x8080_8002u32 as i32,
            0x8080_8003u32 as i32,
        );
        let sel_mask = _mm256_set1_epi32(0x0C);
        let wide_bits = _mm256_set1_epi32(0x3C00_0000);
        let four_slots = _mm256_set1_epi32(0x3000_0000);
        let ls_table = _mm256_broadcastsi128_si256(_mm_loadu_si128(GROUP_LS.as_ptr() as *const __m128i));
        let rs_table = _mm256_broadcastsi128_si256(_mm_loadu_si128(GROUP_RS.as_ptr() as *const __m128i));
        let zero = _mm256_setzero_si256();
        // Each pair loads 16 bytes: the last two or three words go one by one.
        let pairs = (bytes.len() / 4).saturating_sub(2) / 2;
        let pairs_end = p.add(pairs * 8);
        while p < pairs_end {
            let raw: __m256i;
            // A broadcast load (LLVM would make it a load and two shuffles).
            std::arch::asm!(
                "vbroadcasti128 {0}, xmmword ptr [{1}]",
                out(ymm_reg) raw, in(reg) p,
                options(pure, readonly, nostack, preserves_flags),
            );
            let x = _mm256_shuffle_epi8(raw, bswap);
            let idx = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(x, 26), sel_mask), lane_or);
            let ls = _mm256_shuffle_epi8(ls_table, idx);
            let rs = _mm256_shuffle_epi8(rs_table, idx);
            let v = _mm256_srlv_epi32(_mm256_sllv_epi32(x, ls), rs);
            // Words of more than four slots count as having a zero first slot.
            let wide = _mm256_cmpgt_epi32(_mm256_and_si256(x, wide_bits), four_slots);
            let z = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_or_si256(
                _mm256_cmpeq_epi32(v, zero),
                wide,
            ))) as usize;
            if z & 0x88 != 0 {
                o = o.add(word_avx2(u32::from_be_bytes(*(p as *const [u8; 4])), o));
                o = o.add(word_avx2(u32::from_be_bytes(*(p.add(4) as *const [u8; 4])), o));
            } else {
                let perm = _mm256_load_si256(PAIR_PERM.0[z].as_ptr() as *const __m256i);
                _mm256_storeu_si256(o as *mut __m256i, _mm256_permutevar8x32_epi32(v, perm));
                o = o.add((PAIR_PERM.0[z][7] >> 24) as usize);
            }
            p = p.add(8);
        }
        while p < end {
            o = o.add(word_avx2(u32::from_be_bytes(*(p as *const [u8; 4])), o));
            p = p.add(4);
        }
        o.offset_from(dst) as usize
    }

    /// `ls` and `rs` for the AVX-512 groups, by `selector << 2 | lane`.
    #[repr(C, align(64))]
    struct Group16([u32; 16]);

    static GROUP_LS16: Group16 = Group16(widen(GROUP_LS));
    static GROUP_RS16: Group16 = Group16(widen(GROUP_RS));

    const fn widen(t: [u8; 16]) -> [u32; 16] {
        let mut w = [0u32; 16];
        let mut i = 0;
        while i < 16 {
            w[i] = t[i] as u32;
            i += 1;
        }
        w
    }

    /// # Safety
    /// AVX-512F/BW, AVX2, BMI1, POPCNT; `bytes.len()` a multiple of 4; room
    /// at `dst` for 24 lanes per word.
    #[target_feature(enable = "avx512f,avx512bw,avx2,bmi1,popcnt")]
    pub(super) unsafe fn decode_bulk_avx512(bytes: &[u8], dst: *mut u32) -> usize {
        let mut p = bytes.as_ptr();
        let end = p.add(bytes.len());
        let groups_end = p.add(bytes.len() & !15);
        let mut o = dst;
        // Each 128-bit lane c gets word c of the 16 input bytes, byte-swapped,
        // four times.
        let bswap = _mm512_set_epi32(
            0x0C0D0E0F, 0x0C0D0E0F, 0x0C0D0E0F, 0x0C0D0E0F, //
            0x08090A0B, 0x08090A0B, 0x08090A0B, 0x08090A0B, //
            0x04050607, 0x04050607, 0x04050607, 0x04050607, //
            0x00010203, 0x00010203, 0x00010203, 0x00010203,
        );
        let lanes = _mm512_set_epi32(3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0);
        let sel_mask = _mm512_set1_epi32(0x0C);
        let wide_bits = _mm512_set1_epi32(0x3C00_0000);
        let four_slots = _mm512_set1_epi32(0x3000_0000);
        let ls_table = _mm512_load_si512(GROUP_LS16.0.as_ptr() as *const __m512i);
        let rs_table = _mm512_load_si512(GROUP_RS16.0.as_ptr() as *const __m512i);
        while p < groups_end {
            let raw: __m512i;
            // A broadcast load (LLVM would make it a load and a shuffle).
            std::arch::asm!(
                "vbroadcasti32x4 {0}, xmmword ptr [{1}]",
                out(zmm_reg) raw, in(reg) p,
                options(pure, readonly, nostack, preserves_flags),
            );
            let x = _mm512_shuffle_epi8(raw, bswap);
            // (x >> 26) & 0x0C | lane
            let idx = _mm512_ternarylogic_epi32(_mm512_srli_epi32(x, 26), sel_mask, lanes, 0xEA);
            let ls = _mm512_permutexvar_epi32(idx, ls_table);
            let rs = _mm512_permutexvar_epi32(idx, rs_table);
            let v = _mm512_srlv_epi32(_mm512_sllv_epi32(x, ls), rs);
            // Words of more than four slots count as having a zero first slot.
            let narrow = _mm512_cmple_epu32_mask(_mm512_and_si512(x, wide_bits), four_slots);
            let nz = _mm512_mask_test_epi32_mask(narrow, v, v) as u32;
            if nz & 0x8888 != 0x8888 {
                for w in 0..4 {
                    let word = u32::from_be_bytes(*(p.add(w * 4) as *const [u8; 4]));
                    o = o.add(word_avx2(word, o));
                }
            } else {
                // Keep, per word, the run of nonzero lanes down from lane 3.
                let mut keep = nz;
                keep &= (keep >> 1) | 0x8888;
                keep &= (keep >> 2) | 0xCCCC;
                let packed = _mm512_maskz_compress_epi32(keep as u16, v);
                _mm512_storeu_si512(o as *mut __m512i, packed);
                o = o.add(keep.count_ones() as usize);
            }
            p = p.add(16);
        }
        while p < end {
            o = o.add(word_avx2(u32::from_be_bytes(*(p as *const [u8; 4])), o));
            p = p.add(4);
        }
        o.offset_from(dst) as usize
    }
}

// ---------------------------------------------------------------------------
// Fast encoding with AVX2
//
// Yioop's greedy loop, for a word starting at position s, is a function of
// the elements from s on alone (the state after a flush is fixed), except for
// the list's first word. With B_j the bit length of element s + j and L0 the
// bit length the word starts with (Yioop's `cur_len` after its first
// element: one more than the element's own, or 1 for 0 and 1), element j
// leaves `cur_len` at
//
//     G(B_j) = max(L0, B_j) + (1 if the word start had a bit added and B_j == L0)
//
// maxed over the word so far, so with cap_j = pack_possibilities(G(B_j))
// (cap_0 = pack_possibilities(L0)) Yioop's word holds
//
//     N = min over j of max(j, cap_j)
//
// elements (element k joins iff min_{j<=k} cap_j > k), in a layout of
// K = min_{j<N} cap_j slots. Pass 1 computes N and K for every position at
// once, 32 positions per register; pass 2 walks the words (s += N[s]) and
// packs them.
// ---------------------------------------------------------------------------

#[cfg(target_arch = "x86_64")]
mod simd_encode {
    use super::*;
    use std::arch::x86_64::*;
    use std::mem::MaybeUninit;

    /// Positions per chunk of pass 1 and 2 (the scratch stays in L1).
    const CHUNK: usize = 1024;
    /// Pass 1 reads this far past a position (a word has at most 24
    /// elements, and it loads 32 at a time).
    const LOOKAHEAD: usize = 24 + 32;
    /// Elements pass 1 looks at past the chunk's positions.
    const EXTRA: usize = 24;

    /// `pack_possibilities` for lengths 0..=15 (15 and up hold one element).
    const SLOTS16: [u8; 16] = [0, 24, 12, 7, 6, 5, 4, 3, 3, 3, 2, 2, 2, 2, 2, 1];

    /// Bit lengths of `src` into `dst` (16 bytes at a time: room for the
    /// length rounded up to 16), up to the first element outside 0..2^28;
    /// returns that element's index, or `src.len()`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn bit_lengths(src: &[i64], dst: *mut u8) -> usize {
        let n = src.len();
        let p = src.as_ptr();
        let bias = _mm256_set1_epi32(126);
        let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        let high = _mm256_set1_epi64x(!(FAST_LIMIT as i64 - 1));
        let lane = _mm256_setr_epi64x(0, 1, 2, 3);
        let mut i = 0;
        while i < n {
            // Sixteen elements; past the end, masked loads read zeros.
            let load = |k: usize| {
                if i + 16 <= n {
                    _mm256_loadu_si256(p.add(i + k) as *const __m256i)
                } else {
                    let left = _mm256_set1_epi64x(n as i64 - (i + k) as i64);
                    _mm256_maskload_epi64(p.add(i + k), _mm256_cmpgt_epi64(left, lane))
                }
            };
            let v = [load(0), load(4), load(8), load(12)];
            let any = _mm256_or_si256(_mm256_or_si256(v[0], v[1]), _mm256_or_si256(v[2], v[3]));
            let lengths = |a: __m256i, b: __m256i| {
                // The low halves of 8 elements, in order.
                let x = _mm256_castps_si256(_mm256_shuffle_ps(
                    _mm256_castsi256_ps(a),
                    _mm256_castsi256_ps(b),
                    0b10_00_10_00,
                ));
                let x = _mm256_permute4x64_epi64(x, 0b11_01_10_00);
                // Clearing each bit that has a set bit above it keeps the
                // float conversion from rounding up to the next power of 2.
                let x = _mm256_andnot_si256(_mm256_srli_epi32(x, 1), x);
                let exp = _mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(x)), 23);
                _mm256_max_epi32(_mm256_sub_epi32(exp, bias), _mm256_setzero_si256())
            };
            let lo = lengths(v[0], v[1]);
            let hi = lengths(v[2], v[3]);
            // 16 dwords to 16 bytes.
            let w = _mm256_packus_epi32(lo, hi); // lo0-3 hi0-3 | lo4-7 hi4-7
            let bytes = _mm256_packus_epi16(w, w);
            let bytes = _mm256_permutevar8x32_epi32(bytes, order);
            _mm_storeu_si128(dst.add(i) as *mut __m128i, _mm256_castsi256_si128(bytes));
            if _mm256_testz_si256(any, high) == 0 {
                // Lengths before the element are right; from it on, unused.
                let end = (i + 16).min(n);
                return i + src[i..end].iter().position(|&e| e as u64 >= FAST_LIMIT).unwrap();
            }
            i += 16;
        }
        n
    }

    /// Pass 1 on `count` positions (a multiple of 32 is read and written):
    /// `lens[p]` = N, `slots[p]` = K for a word that starts at p after a
    /// flush. `bl` holds bit lengths from p on, `limit` is how many
    /// elements there are from position 0 (positions past it get N = 0).
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn word_shapes(bl: *const u8, count: usize, limit: usize, lens: *mut u8, slots: *mut u8) {
        let table = _mm256_broadcastsi128_si256(_mm_loadu_si128(SLOTS16.as_ptr() as *const __m128i));
        let ones = _mm256_set1_epi8(1);
        let all = _mm256_set1_epi8(-1);
        let fifteen = _mm256_set1_epi8(15);
        let lane = _mm256_setr_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
            24, 25, 26, 27, 28, 29, 30, 31,
        );
        let mut p = 0;
        while p < count {
            let b0 = _mm256_loadu_si256(bl.add(p) as *const __m256i);
            // A bit is added where the first element is 2 or more.
            let quirk = _mm256_cmpgt_epi8(b0, ones);
            let l0 = _mm256_max_epu8(_mm256_sub_epi8(b0, quirk), ones);
            let cap0 = _mm256_shuffle_epi8(table, _mm256_min_epu8(l0, fifteen));
            let left = _mm256_set1_epi8((limit - p).min(255) as u8 as i8);
            let mut m = _mm256_min_epu8(cap0, _mm256_subs_epu8(left, lane));
            let mut k = cap0;
            let mut j = 1;
            loop {
                let jv = _mm256_set1_epi8(j as i8);
                if _mm256_movemask_epi8(_mm256_cmpgt_epi8(m, jv)) == 0 {
                    break;
                }
                let bj = _mm256_loadu_si256(bl.add(p + j) as *const __m256i);
                let bumped = _mm256_and_si256(quirk, _mm256_cmpeq_epi8(bj, l0));
                let g = _mm256_sub_epi8(_mm256_max_epu8(l0, bj), bumped);
                let cap = _mm256_shuffle_epi8(table, _mm256_min_epu8(g, fifteen));
                m = _mm256_min_epu8(m, _mm256_max_epu8(cap, jv));
                let counted = _mm256_cmpgt_epi8(m, jv);
                k = _mm256_min_epu8(k, _mm256_max_epu8(cap, _mm256_xor_si256(counted, all)));
                j += 1;
            }
            _mm256_storeu_si256(lens.add(p) as *mut __m256i, m);
            _mm256_storeu_si256(slots.add(p) as *mut __m256i, k);
            p += 32;
        }
    }

    /// The words of `list[s..]` (at most 16 elements, `s` a word start after
    /// a flush, `words` words written before it) when all are in 0..2^28:
    /// [`word_shapes`] on one register, without the scratch arrays. None if
    /// some element is outside (the chunked path then takes over).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,lzcnt")]
    unsafe fn short_tail(list: &[i64], s: usize, words: usize, dst: *mut [u8; 4]) -> Option<usize> {
        let n = list.len() - s;
        debug_assert!((1..=16).contains(&n));
        let p = list.as_ptr().add(s);
        // Sixteen lanes; past the end, masked loads read zeros (and touch
        // no memory).
        let lane = _mm256_setr_epi64x(0, 1, 2, 3);
        let load = |k: usize| {
            let left = _mm256_set1_epi64x(n as i64 - k as i64);
            _mm256_maskload_epi64(p.wrapping_add(k), _mm256_cmpgt_epi64(left, lane))
        };
        let v = [load(0), load(4), load(8), load(12)];
        let any = _mm256_or_si256(_mm256_or_si256(v[0], v[1]), _mm256_or_si256(v[2], v[3]));
        if _mm256_testz_si256(any, _mm256_set1_epi64x(!(FAST_LIMIT as i64 - 1))) == 0 {
            return None;
        }
        let bias = _mm256_set1_epi32(126);
        let lengths = |a: __m256i, b: __m256i| {
            let x = _mm256_castps_si256(_mm256_shuffle_ps(
                _mm256_castsi256_ps(a),
                _mm256_castsi256_ps(b),
                0b10_00_10_00,
            ));
            let x = _mm256_permute4x64_epi64(x, 0b11_01_10_00);
            let x = _mm256_andnot_si256(_mm256_srli_epi32(x, 1), x);
            let exp = _mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(x)), 23);
            _mm256_max_epi32(_mm256_sub_epi32(exp, bias), _mm256_setzero_si256())
        };
        let w = _mm256_packus_epi32(lengths(v[0], v[1]), lengths(v[2], v[3]));
        let bytes = _mm256_packus_epi16(w, w);
        let bl = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
            bytes,
            _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7),
        ));

        // word_shapes on these 16 positions.
        let table = _mm_loadu_si128(SLOTS16.as_ptr() as *const __m128i);
        let ones = _mm_set1_epi8(1);
        let fifteen = _mm_set1_epi8(15);
        let zero = _mm_setzero_si128();
        let all = _mm_set1_epi8(-1);
        let quirk = _mm_cmpgt_epi8(bl, ones);
        let l0 = _mm_max_epu8(_mm_sub_epi8(bl, quirk), ones);
        let cap0 = _mm_shuffle_epi8(table, _mm_min_epu8(l0, fifteen));
        let lanes = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let mut m = _mm_min_epu8(cap0, _mm_subs_epu8(_mm_set1_epi8(n as i8), lanes));
        let mut k = cap0;
        macro_rules! step {
            ($j:literal) => {
                let jv = _mm_set1_epi8($j);
                if $j <= 2 || _mm_movemask_epi8(_mm_cmpgt_epi8(m, jv)) != 0 {
                    let bj = _mm_alignr_epi8(zero, bl, $j);
                    let bumped = _mm_and_si128(quirk, _mm_cmpeq_epi8(bj, l0));
                    let g = _mm_sub_epi8(_mm_max_epu8(l0, bj), bumped);
                    let cap = _mm_shuffle_epi8(table, _mm_min_epu8(g, fifteen));
                    m = _mm_min_epu8(m, _mm_max_epu8(cap, jv));
                    let counted = _mm_cmpgt_epi8(m, jv);
                    k = _mm_min_epu8(k, _mm_max_epu8(cap, _mm_xor_si128(counted, all)));
                }
            };
        }
        step!(1);
        step!(2);
        if _mm_movemask_epi8(_mm_cmpgt_epi8(m, _mm_set1_epi8(3))) != 0 {
            step!(3);
            step!(4);
            step!(5);
            step!(6);
            step!(7);
            step!(8);
            step!(9);
            step!(10);
            step!(11);
            step!(12);
            step!(13);
            step!(14);
            step!(15);
        }
        let mut lens = [0u8; 16];
        let mut slots = [0u8; 16];
        _mm_storeu_si128(lens.as_mut_ptr() as *mut __m128i, m);
        _mm_storeu_si128(slots.as_mut_ptr() as *mut __m128i, k);
        let mut words = words;
        let mut at = 0;
        loop {
            let len = lens[at] as usize;
            let k = slots[at] as usize;
            if at + len >= n {
                *dst.add(words) = fast_word_raw(1, k, p.add(at), n - at, n - at - 1).to_be_bytes();
                return Some(words + 1);
            }
            *dst.add(words) = fast_word_raw(2, k, p.add(at), len, len).to_be_bytes();
            words += 1;
            at += len;
        }
    }

    /// [`encode_fast`] with AVX2: same contract.
    ///
    /// # Safety
    /// AVX2, BMI1, LZCNT; room at `dst` as for [`encode_fast`].
    #[target_feature(enable = "avx2,bmi1,lzcnt")]
    pub(super) unsafe fn encode_fast_avx2(list: &[i64], dst: *mut u8) -> Result<usize, Handover> {
        let n = list.len();
        let dst = dst as *mut [u8; 4];
        if n == 0 {
            *dst = 0x3F00_0000u32.to_be_bytes();
            return Ok(1);
        }
        // The first word, from Yioop's initial state, one element at a time.
        let first = list[0] as u64;
        if first >= FAST_LIMIT {
            return Err(Handover { next: 0, word_start: 0, words: 0, cur_len: 1, cur_size: 1 });
        }
        let mut cur_len = bit_length(first).max(1);
        let mut cur_size = (1u64 << cur_len) - 1;
        let mut i = 1;
        while i < n {
            let elt = list[i] as u64;
            if elt >= FAST_LIMIT {
                return Err(Handover { next: i, word_start: 0, words: 0, cur_len, cur_size });
            }
            if elt > cur_size {
                let len = (cur_len + 1).max(bit_length(elt));
                if SLOTS_FOR_LEN[len as usize] as usize <= i {
                    break;
                }
                cur_len = len;
                cur_size = (1u64 << len) - 1;
            } else if SLOTS_FOR_LEN[cur_len as usize] as usize <= i {
                break;
            }
            i += 1;
        }
        let slots = SLOTS_FOR_LEN[cur_len as usize] as usize;
        if i == n {
            *dst = fast_word(0, slots, list).to_be_bytes();
            return Ok(1);
        }
        *dst = fast_word(3, slots, &list[..i]).to_be_bytes();
        let mut words = 1;
        let mut s = i;
        if n - s <= 16 {
            if let Some(words) = short_tail(list, s, words, dst) {
                return Ok(words);
            }
        }

        let mut bl = [MaybeUninit::<u8>::uninit(); CHUNK + EXTRA + 16 + LOOKAHEAD];
        let mut lens = [MaybeUninit::<u8>::uninit(); CHUNK];
        let mut slots = [MaybeUninit::<u8>::uninit(); CHUNK];
        let bl = bl.as_mut_ptr() as *mut u8;
        let lens = lens.as_mut_ptr() as *mut u8;
        let slots = slots.as_mut_ptr() as *mut u8;
        // Everything before `limit` takes the fast path; it shrinks to the
        // first element outside 0..2^28 once one is seen.
        let mut limit = n;
        loop {
            let mut have = (limit - s).min(CHUNK + EXTRA);
            let bad = bit_lengths(&list[s..s + have], bl);
            if bad < have {
                // s itself was checked with the word before it.
                limit = s + bad;
                have = bad;
            }
            std::ptr::write_bytes(bl.add(have), 0, LOOKAHEAD);
            let positions = (limit - s).min(CHUNK);
            word_shapes(bl, positions, limit - s, lens, slots);
            // Pass 2: the words that start in this chunk.
            let mut p = 0;
            while p < positions {
                let len = *lens.add(p) as usize;
                let start = s + p;
                let k = *slots.add(p) as usize;
                if start + len >= limit {
                    // The last word before `limit`: Yioop's final word at
                    // the end of the list; otherwise the element at `limit`
                    // decides it, which is for the faithful loop.
                    if limit == n {
                        *dst.add(words) = fast_word(1, k, &list[start..]).to_be_bytes();
                        return Ok(words + 1);
                    }
                    let elt = list[start] as u64;
                    let (cur_len, cur_size) = if elt <= 1 {
                        (1, 1)
                    } else {
                        let bits = bit_length(elt);
                        (bits + 1, (1u64 << bits) - 1)
                    };
                    return Err(Handover { next: start + 1, word_start: start, words, cur_len, cur_size });
                }
                // The element after the word exists (start + len < limit).
                let word = fast_word_raw(2, k, list.as_ptr().add(start), len, len);
                *dst.add(words) = word.to_be_bytes();
                words += 1;
                p += len;
            }
            s += p;
        }
    }
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
