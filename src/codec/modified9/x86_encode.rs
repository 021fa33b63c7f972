//! The encoder's fast path with AVX2 (x86-64 only): the same contract as
//! `encode_fast`, with the word shapes computed 32 positions at a time.
//!
//! Yioop's greedy loop, for a word starting at position s, is a function of
//! the elements from s on alone (the state after a flush is fixed), except for
//! the list's first word. With B_j the bit length of element s + j and L0 the
//! bit length the word starts with (Yioop's `cur_len` after its first
//! element: one more than the element's own, or 1 for 0 and 1), element j
//! leaves `cur_len` at
//!
//! ```text
//! G(B_j) = max(L0, B_j) + (1 if the word start had a bit added and B_j == L0)
//! ```
//!
//! maxed over the word so far, so with cap_j = pack_possibilities(G(B_j))
//! (cap_0 = pack_possibilities(L0)) Yioop's word holds
//!
//! ```text
//! N = min over j of max(j, cap_j)
//! ```
//!
//! elements (element k joins iff min_{j<=k} cap_j > k), in a layout of
//! K = min_{j<N} cap_j slots. Pass 1 computes N and K for every position at
//! once, 32 positions per register; pass 2 walks the words (s += N[s]) and
//! packs them.

use super::fast_encode::{
    bit_length, fast_word, fast_word_raw, first_word_state, state_after_word_break, Handover,
    FAST_LIMIT,
};
use super::format::{
    CONTINUE_FIRST, CONTINUE_LAST, CONTINUE_MIDDLE, CONTINUE_ONLY, EMPTY_LIST_WORD,
    SLOTS_FOR_BIT_LENGTH,
};
use std::arch::x86_64::*;
use std::mem::MaybeUninit;

/// Positions per chunk of pass 1 and 2 (the scratch stays in L1).
const CHUNK: usize = 1024;
/// Pass 1 reads this far past a position (a word has at most 24
/// elements, and it loads 32 at a time).
const LOOKAHEAD: usize = 24 + 32;
/// Elements pass 1 looks at past the chunk's positions.
const EXTRA: usize = 24;

/// Slots per bit length for lengths 0..=15 (15 and up hold one element),
/// in one register: the first 16 bytes of the format's table.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn slots_for_short_lengths() -> __m128i {
    _mm_loadu_si128(SLOTS_FOR_BIT_LENGTH.as_ptr() as *const __m128i)
}

/// Bit lengths (0 for 0) of the low 32-bit halves of the 8 elements in
/// `a` and `b`, in order, as 32-bit lanes; `bias` is 126 in every lane.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn lengths8(a: __m256i, b: __m256i, bias: __m256i) -> __m256i {
    let x = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), 0b10_00_10_00));
    let x = _mm256_permute4x64_epi64(x, 0b11_01_10_00);
    // Clearing each bit that has a set bit above it keeps the float
    // conversion from rounding up to the next power of 2.
    let x = _mm256_andnot_si256(_mm256_srli_epi32(x, 1), x);
    let exp = _mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(x)), 23);
    _mm256_max_epi32(_mm256_sub_epi32(exp, bias), _mm256_setzero_si256())
}

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
        let lo = lengths8(v[0], v[1], bias);
        let hi = lengths8(v[2], v[3], bias);
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
    let table = _mm256_broadcastsi128_si256(slots_for_short_lengths());
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
/// `word_shapes` on one register, without the scratch arrays. None if
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
    let w = _mm256_packus_epi32(lengths8(v[0], v[1], bias), lengths8(v[2], v[3], bias));
    let bytes = _mm256_packus_epi16(w, w);
    let bl = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
        bytes,
        _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7),
    ));

    // word_shapes on these 16 positions.
    let table = slots_for_short_lengths();
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
            *dst.add(words) = fast_word_raw(CONTINUE_LAST, k, p.add(at), n - at, n - at - 1).to_be_bytes();
            return Some(words + 1);
        }
        *dst.add(words) = fast_word_raw(CONTINUE_MIDDLE, k, p.add(at), len, len).to_be_bytes();
        words += 1;
        at += len;
    }
}

/// `encode_fast` with AVX2: same contract.
///
/// # Safety
/// AVX2, BMI1, LZCNT; room at `dst` as for `encode_fast`.
#[target_feature(enable = "avx2,bmi1,lzcnt")]
pub(super) unsafe fn encode_fast_avx2(list: &[i64], dst: *mut u8) -> Result<usize, Handover> {
    let n = list.len();
    let dst = dst as *mut [u8; 4];
    if n == 0 {
        *dst = EMPTY_LIST_WORD.to_be_bytes();
        return Ok(1);
    }
    // The first word, from Yioop's initial state, one element at a time.
    let first = list[0] as u64;
    if first >= FAST_LIMIT {
        return Err(Handover::AT_START);
    }
    let (mut cur_len, mut cur_size) = first_word_state(first);
    let mut i = 1;
    while i < n {
        let elt = list[i] as u64;
        if elt >= FAST_LIMIT {
            return Err(Handover { next: i, word_start: 0, words: 0, cur_len, cur_size });
        }
        if elt > cur_size {
            let len = (cur_len + 1).max(bit_length(elt));
            if SLOTS_FOR_BIT_LENGTH[len as usize] as usize <= i {
                break;
            }
            cur_len = len;
            cur_size = (1u64 << len) - 1;
        } else if SLOTS_FOR_BIT_LENGTH[cur_len as usize] as usize <= i {
            break;
        }
        i += 1;
    }
    let slots = SLOTS_FOR_BIT_LENGTH[cur_len as usize] as usize;
    if i == n {
        *dst = fast_word(CONTINUE_ONLY, slots, list).to_be_bytes();
        return Ok(1);
    }
    *dst = fast_word(CONTINUE_FIRST, slots, &list[..i]).to_be_bytes();
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
                    *dst.add(words) = fast_word(CONTINUE_LAST, k, &list[start..]).to_be_bytes();
                    return Ok(words + 1);
                }
                let (cur_len, cur_size) = state_after_word_break(list[start] as u64);
                return Err(Handover { next: start + 1, word_start: start, words, cur_len, cur_size });
            }
            // The element after the word exists (start + len < limit).
            let word = fast_word_raw(CONTINUE_MIDDLE, k, list.as_ptr().add(start), len, len);
            *dst.add(words) = word.to_be_bytes();
            words += 1;
            p += len;
        }
        s += p;
    }
}
