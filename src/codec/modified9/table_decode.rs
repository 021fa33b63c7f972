//! Table-driven decoding of one word, and the portable bulk decoder built
//! on it.
//!
//! A word is split without a loop: a per-first-byte entry gives masks that
//! find the first zero slot with one add (the SWAR "has a zero field" trick),
//! so the element count is a trailing-zero count. The payload is then shifted
//! left so that the last element kept sits in the top slot; every output lane
//! j reads slot `slots - 1 - j` of that, which is Yioop's order (high slot
//! first) with the dropped slots turned into zeros. The bulk decoders write a
//! fixed number of lanes per word and advance by the count.

use super::format::{layout_of_first_byte, ONE_ELEMENT_LAYOUT, SELECTORS};

/// Yioop's `unpackListModified9`: the elements of one word, appended to `out`.
/// Only the low 32 bits of a PHP int reach the result, so `word` is a u32.
///
/// Table-driven, without a loop over the slots; [`decode_word_reference`](super::decode_word_reference)
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
        let layout = layout_of_first_byte(b as u8);
        let bits = SELECTORS[layout].bits as u32;
        let slots = SELECTORS[layout].slots as u32;
        table[b] = if layout == ONE_ELEMENT_LAYOUT {
            WordEntry {
                sentinel: 1 << (bits + bits - 1),
                payload: (1 << bits) - 1,
                low: 0,
                add: 1 << (bits - 1),
                top: 1 << (bits - 1),
                k: bits + bits - 1,
                layout: layout as u32,
            }
        } else {
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
pub(super) static LANE_SHIFT: &[[u32; 24]; 9] = &LANE_SHIFT_TABLE.0;

const fn build_lane_shifts() -> [[u32; 24]; 9] {
    let mut t = [[32u32; 24]; 9];
    let mut id = 0;
    while id < 9 {
        let (bits, slots) = (SELECTORS[id].bits as u32, SELECTORS[id].slots as u32);
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
pub(super) static LANE_MASK: &[[u32; 8]; 9] = &LANE_MASK_TABLE.0;

const fn build_lane_masks() -> [[u32; 8]; 9] {
    let mut t = [[0u32; 8]; 9];
    let mut id = 0;
    while id < 9 {
        let mask = (1u32 << SELECTORS[id].bits) - 1;
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
        let bits = SELECTORS[id].bits as usize;
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
pub(super) fn split_word(word: u32) -> (u32, usize, usize) {
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

/// Decodes whole words to `dst`, returning how many elements it wrote.
///
/// # Safety
/// `bytes.len()` is a multiple of 4 and `dst` has room for 24 lanes per word.
pub(super) unsafe fn decode_bulk_scalar(bytes: &[u8], dst: *mut u32) -> usize {
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
