//! The bulk decoders with AVX2 and AVX-512, and the word-by-word AVX2
//! decoder for a posting's few words (x86-64 only). Each gives what
//! `decode_bulk_scalar` gives.

use super::format::{code_in_place, FIRST_WIDE_LAYOUT, FOUR_SLOT_LAYOUT, SELECTORS};
use super::table_decode::{split_word, LANE_MASK, LANE_SHIFT};
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

/// The four selector bits after the continuation bits, in place: above
/// [`FOUR_SLOTS`], a word has more than four slots.
const SELECTOR_TOP_BITS: u32 = code_in_place(0x3C);
/// The 4x6 selector in place: the most slots the group decoders take.
const FOUR_SLOTS: u32 = code_in_place(SELECTORS[FOUR_SLOT_LAYOUT].code);

/// `ls` by `selector << 2 | lane`.
const GROUP_LS: [u8; 16] = build_group_shift(true);
/// `rs` by `selector << 2 | lane`.
const GROUP_RS: [u8; 16] = build_group_shift(false);

const fn build_group_shift(left: bool) -> [u8; 16] {
    let mut t = [32u8; 16];
    let mut sel = 0;
    while sel <= FOUR_SLOT_LAYOUT {
        let (bits, slots) = (SELECTORS[sel].bits as u32, SELECTORS[sel].slots as u32);
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
    let wide_bits = _mm256_set1_epi32(SELECTOR_TOP_BITS as i32);
    let four_slots = _mm256_set1_epi32(FOUR_SLOTS as i32);
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
    let wide_bits = _mm512_set1_epi32(SELECTOR_TOP_BITS as i32);
    let four_slots = _mm512_set1_epi32(FOUR_SLOTS as i32);
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
