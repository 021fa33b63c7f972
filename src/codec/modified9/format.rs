//! The Modified9 format: continuation bits, selectors, layouts, the doc-index
//! fold and the limits. Every encoder, decoder and the framing take these
//! rules from here.
//!
//! A word is a big-endian u32. Bits 31-30 are continuation bits (11 start,
//! 10 continue, 01 end, 00 a one-word string); then a selector: 00 1x28,
//! 01 2x14, 10 3x9, 1100 4x6, 1101 5x5, 1110 6x4, 11110 7x3, 111110 12x2,
//! 111111 24x1. Elements sit high slot first; the decoder reads from the low
//! slot up and stops at the first zero, which is how a short last word ends.

/// One selector: its code (bits 29-24 of a word, as Yioop adds it to the
/// continuation bits), the bits per element and the slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Selector {
    pub code: u8,
    pub bits: u8,
    pub slots: u8,
}

const fn selector(code: u8, bits: u8, slots: u8) -> Selector {
    Selector { code, bits, slots }
}

/// The nine selectors, fewest slots first. The index is the layout id that
/// the decoders' tables are built on.
pub(crate) const SELECTORS: [Selector; 9] = [
    selector(0, 28, 1),
    selector(16, 14, 2),
    selector(32, 9, 3),
    selector(48, 6, 4),
    selector(52, 5, 5),
    selector(56, 4, 6),
    selector(60, 3, 7),
    selector(62, 2, 12),
    selector(63, 1, 24),
];

/// The layout id of the one-element selector, whose single element is kept
/// even when it is zero.
pub(crate) const ONE_ELEMENT_LAYOUT: usize = 0;

/// The layout id of 4x6, the widest layout that a selector's first two bits
/// (`11`) can start.
pub(crate) const FOUR_SLOT_LAYOUT: usize = 3;

/// The first layout id whose words can hold more than 8 elements.
pub(crate) const FIRST_WIDE_LAYOUT: usize = first_layout_with_more_slots_than(8);

const fn first_layout_with_more_slots_than(slots: u8) -> usize {
    let mut id = 0;
    while SELECTORS[id].slots <= slots {
        id += 1;
    }
    id
}

/// A selector's code where it sits in a word.
pub(crate) const fn code_in_place(code: u8) -> u32 {
    (code as u32) << 24
}

/// The layout id of a word, from its first byte. Selector bits `11`: Yioop
/// tries the codes longest first and takes the first whose bits are all set.
pub(crate) const fn layout_of_first_byte(first_byte: u8) -> usize {
    let short = ((first_byte >> 4) & 3) as usize;
    if short < FOUR_SLOT_LAYOUT {
        return short;
    }
    let mut id = SELECTORS.len() - 1;
    while id > FOUR_SLOT_LAYOUT {
        let code = SELECTORS[id].code;
        if first_byte & code == code {
            return id;
        }
        id -= 1;
    }
    FOUR_SLOT_LAYOUT
}

/// The selector with exactly `slots` slots, if there is one: what Yioop's
/// packer looks up for the element count its table gave.
pub(crate) fn selector_with_slots(slots: i64) -> Option<Selector> {
    SELECTORS.into_iter().find(|s| s.slots as i64 == slots)
}

/// Yioop's table of slots per element bit length (index = bits), as its
/// encoder looks it up: the most slots whose elements are at least that
/// wide; 0 for length 0, and 1 from 29 bits on, where Yioop's table goes on
/// although no selector holds such an element.
pub(crate) static SLOTS_FOR_BIT_LENGTH: [u8; 32] = build_slots_for_bit_length();

const fn build_slots_for_bit_length() -> [u8; 32] {
    let mut table = [1u8; 32];
    table[0] = 0;
    let mut len = 1;
    while len <= MAX_ELEMENT_BITS as usize {
        let mut id = SELECTORS.len() - 1;
        while (SELECTORS[id].bits as usize) < len {
            id -= 1;
        }
        table[len] = SELECTORS[id].slots;
        len += 1;
    }
    table
}

/// The widest element a word holds.
pub(crate) const MAX_ELEMENT_BITS: u32 = SELECTORS[ONE_ELEMENT_LAYOUT].bits as u32;

/// Elements below this fit in a word; Yioop's encoder only ever writes such.
pub(crate) const ELEMENT_LIMIT: u64 = 1 << MAX_ELEMENT_BITS;

/// Yioop's encoder loops forever on elements from 2^62 up: its bit-length
/// search reaches `1 << 63`, which overflows, and never stops.
pub const ENCODE_LIMIT: i64 = 1 << 62;

/// Why a list cannot be encoded the way Yioop would.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodeError {
    /// The element at this index would make Yioop's encoder never return.
    NeverTerminates { index: usize },
}

/// Continuation bits of the first word of a posting of several words.
pub(crate) const CONTINUE_FIRST: u32 = 0b11;
/// Continuation bits of a word between the first and the last.
pub(crate) const CONTINUE_MIDDLE: u32 = 0b10;
/// Continuation bits of the last word of a posting of several words.
pub(crate) const CONTINUE_LAST: u32 = 0b01;
/// Continuation bits of a posting of one word.
pub(crate) const CONTINUE_ONLY: u32 = 0b00;

/// What an empty list encodes to: one 24x1 word with no element.
pub(crate) const EMPTY_LIST_WORD: u32 =
    (CONTINUE_ONLY << 30) | code_in_place(SELECTORS[SELECTORS.len() - 1].code);

/// Whether a word with this first byte can start a posting (continuation
/// bits 11 or 00).
#[inline(always)]
pub(crate) const fn starts_posting(first_byte: u8) -> bool {
    let bits = (first_byte >> 6) as u32;
    bits == CONTINUE_FIRST || bits == CONTINUE_ONLY
}

/// Whether the framing reads on after a word with this first byte
/// (continuation bits 11 or 10).
#[inline(always)]
pub(crate) const fn more_words_follow(first_byte: u8) -> bool {
    first_byte >= (CONTINUE_MIDDLE << 6) as u8
}

// The doc-index fold: a doc index from FOLD_MIN_DOC to FOLD_BASE - 1 is
// stored in a posting's first element, together with a first delta below
// FOLD_MAX_DELTA, as `delta + ((FOLD_BASE + doc_index) << FOLD_SHIFT)`,
// which sets FOLD_FLAG. `posting` folds and unfolds; `docIndexModified9`
// unfolds at word level.

/// Bit 27 of an element: a doc index is folded into it.
pub(crate) const FOLD_FLAG: i64 = 2 << 26;
pub(crate) const FOLD_BASE: i64 = 2 << 17;
pub(crate) const FOLD_MIN_DOC: i64 = 2 << 14;
pub(crate) const FOLD_MAX_DELTA: i64 = 2 << 9;
/// The bits below the doc index in a folded element.
pub(crate) const FOLD_SHIFT: u32 = 9;

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(first_byte: u8) -> (u8, u8) {
        let s = SELECTORS[layout_of_first_byte(first_byte)];
        (s.bits, s.slots)
    }

    #[test]
    fn every_selector_is_read_from_its_first_byte() {
        for s in SELECTORS {
            for continuation in 0..4u8 {
                assert_eq!(layout((continuation << 6) | s.code), (s.bits, s.slots), "{s:?}");
            }
        }
    }

    #[test]
    fn long_selectors_take_the_longest_code_whose_bits_are_set() {
        // 111101: 7x3's code 111100 is set, 12x2's 111110 is not.
        assert_eq!(layout(0b0011_1101), (3, 7));
        // 110111: 6x4 (111000) fails, 5x5 (110100) matches.
        assert_eq!(layout(0b0011_0111), (5, 5));
        assert_eq!(layout(0b0011_0011), (6, 4));
    }

    #[test]
    fn each_selector_fills_at_most_28_bits() {
        for s in SELECTORS {
            assert!(s.bits as u32 * s.slots as u32 <= 28, "{s:?}");
        }
    }

    #[test]
    fn slots_per_bit_length_are_yioops_table() {
        let yioop = [
            0, 24, 12, 7, 6, 5, 4, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
            1, 1, 1,
        ];
        assert_eq!(SLOTS_FOR_BIT_LENGTH, yioop);
    }

    #[test]
    fn continuation_bits_frame_postings() {
        assert!(starts_posting(0xC0) && starts_posting(0x3F));
        assert!(!starts_posting(0x80) && !starts_posting(0x40));
        assert!(more_words_follow(0xC0) && more_words_follow(0x80));
        assert!(!more_words_follow(0x7F) && !more_words_follow(0x00));
        assert_eq!(EMPTY_LIST_WORD, 0x3F00_0000);
        assert_eq!(FIRST_WIDE_LAYOUT, 7);
    }
}
