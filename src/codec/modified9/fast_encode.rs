//! The encoder's fast path, for lists whose elements are all in 0..2^28
//! (all that Yioop writes): Yioop's greedy state machine on machine
//! integers, and the word packing that the AVX2 encoder shares. Where it
//! meets any other element it stops and reports its state ([`Handover`]),
//! from which `encode` carries on with the faithful state machine.

use super::format::{
    code_in_place, CONTINUE_FIRST, CONTINUE_LAST, CONTINUE_MIDDLE, CONTINUE_ONLY, ELEMENT_LIMIT,
    EMPTY_LIST_WORD, SELECTORS, SLOTS_FOR_BIT_LENGTH,
};

/// Where [`encode_fast`] stopped: the first element it could not take
/// (`next`), the start of the word it was filling, the words it wrote and
/// its bit-length state, all as Yioop's loop would have them.
pub(super) struct Handover {
    pub next: usize,
    pub word_start: usize,
    pub words: usize,
    pub cur_len: u32,
    pub cur_size: u64,
}

impl Handover {
    /// Stopped at the list's first element: Yioop's initial state.
    pub(super) const AT_START: Handover =
        Handover { next: 0, word_start: 0, words: 0, cur_len: 1, cur_size: 1 };
}

/// Elements below this take the fast path.
pub(super) const FAST_LIMIT: u64 = ELEMENT_LIMIT;

/// Per slot count (1..=24): the element bits and the selector code in place
/// (bits 29-24), as `pack_word` gives them.
static WORD_FORMAT: [(u32, u32); 25] = {
    let mut t = [(0u32, 0u32); 25];
    let mut id = 0;
    while id < SELECTORS.len() {
        let s = SELECTORS[id];
        t[s.slots as usize] = (s.bits as u32, code_in_place(s.code));
        id += 1;
    }
    t
};

/// Bit length of a value, 0 for 0.
#[inline(always)]
pub(super) fn bit_length(v: u64) -> u32 {
    64 - v.leading_zeros()
}

/// Yioop's `(cur_len, cur_size)` after the list's first element: its own
/// bit length, at least 1.
#[inline(always)]
pub(super) fn first_word_state(first: u64) -> (u32, u64) {
    let len = bit_length(first).max(1);
    (len, (1u64 << len) - 1)
}

/// Yioop's `(cur_len, cur_size)` after an element that starts a new word:
/// it computes the size before bumping the length, so such an element is
/// counted one bit wider than it is (1 and 0 stay at length 1).
#[inline(always)]
pub(super) fn state_after_word_break(elt: u64) -> (u32, u64) {
    if elt <= 1 {
        return (1, 1);
    }
    let bits = bit_length(elt);
    (bits + 1, (1u64 << bits) - 1)
}

/// The word for `count` elements of `elts` (values below 2^28) in a layout
/// of `slots` slots, with continuation bits `cont`: `pack_word` for the
/// values Yioop writes, where its additions never carry.
#[inline(always)]
pub(super) fn fast_word(cont: u32, slots: usize, elts: &[i64]) -> u32 {
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
pub(super) unsafe fn fast_word_raw(cont: u32, slots: usize, p: *const i64, count: usize, readable: usize) -> u32 {
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

/// The fast path of `encode`: Yioop's state machine for elements in
/// 0..2^28, writing words (big-endian) at `dst`. Returns the number of words
/// written, or where it met an element it does not take.
///
/// # Safety
/// `dst` has room for `4 * max(1, list.len())` bytes.
pub(super) unsafe fn encode_fast(list: &[i64], dst: *mut u8) -> Result<usize, Handover> {
    let n = list.len();
    let dst = dst as *mut [u8; 4];
    if n == 0 {
        *dst = EMPTY_LIST_WORD.to_be_bytes();
        return Ok(1);
    }
    let first = list[0] as u64;
    if first >= FAST_LIMIT {
        return Err(Handover::AT_START);
    }
    let (mut cur_len, mut cur_size) = first_word_state(first);
    let mut word_start = 0;
    let mut words = 0;
    let mut cont = CONTINUE_FIRST;
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
        if SLOTS_FOR_BIT_LENGTH[len as usize] as usize > i - word_start {
            cur_len = len;
            cur_size = size;
        } else {
            let slots = SLOTS_FOR_BIT_LENGTH[cur_len as usize] as usize;
            *dst.add(words) = fast_word(cont, slots, &list[word_start..i]).to_be_bytes();
            words += 1;
            cont = CONTINUE_MIDDLE;
            word_start = i;
            (cur_len, cur_size) = state_after_word_break(elt);
        }
        i += 1;
    }
    let slots = SLOTS_FOR_BIT_LENGTH[cur_len as usize] as usize;
    let cont = if cont == CONTINUE_FIRST { CONTINUE_ONLY } else { CONTINUE_LAST };
    *dst.add(words) = fast_word(cont, slots, &list[word_start..]).to_be_bytes();
    Ok(words + 1)
}
