//! Postings: a doc index plus a position list, Modified9-coded. Yioop's
//! `packPosting`, `unpackPosting` and `addDocIndexPostings`, for both of the
//! on-disk formats.
//!
//! A doc index from 32768 to 262143 is folded into the first delta when that
//! delta is below 1024: `delta + ((2^18 + doc_index) << 9)`, which sets bit 27
//! of the element. Otherwise `doc_index + 1` is stored in front of the deltas.

use crate::codec::modified9::format::{FOLD_BASE, FOLD_FLAG, FOLD_MAX_DELTA, FOLD_MIN_DOC, FOLD_SHIFT};
use crate::codec::modified9::{self, EncodeError};
use crate::php_semantics::num::{self, Num};

/// The posting formats of Yioop's release lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Yioop 3.x: the first delta is stored plus one.
    Y2015,
    /// The 2019 and 2021 lines: the first delta is stored as is.
    Y2019,
}

impl Format {
    pub fn parse(name: &str) -> Option<Format> {
        match name.trim() {
            "2015" => Some(Format::Y2015),
            "2019" | "2021" => Some(Format::Y2019),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Y2015 => "2015",
            Format::Y2019 => "2019",
        }
    }
}

/// What `unpackPosting` returns. `doc_index` is None where Yioop returns null
/// (a damaged posting that decodes to nothing).
#[derive(Debug, Clone, PartialEq)]
pub struct Posting {
    pub doc_index: Option<i64>,
    pub positions: Vec<i64>,
}

/// `packPosting` on the delta list already formed (`deltaList($positions)`
/// or the positions themselves). `lead` is the element Yioop treats as
/// `$delta_list[0]`: the one under key 0, None if there is no such key.
pub fn pack_deltas(
    format: Format,
    doc_index: i64,
    mut deltas: Vec<i64>,
    lead: Option<usize>,
) -> Result<Vec<u8>, EncodeError> {
    let never_ends = EncodeError::NeverTerminates { index: 0 };
    if let (Format::Y2015, Some(i)) = (format, lead) {
        deltas[i] = deltas[i].checked_add(1).ok_or(never_ends)?;
    }
    let mut out = Vec::new();
    match lead {
        Some(i) if can_fold(doc_index, deltas[i]) => {
            deltas[i] += fold(doc_index);
            modified9::encode(&deltas, &mut out)?;
        }
        _ => {
            // The doc index goes in front: one copy into a list that has the
            // room (no shifting the deltas along).
            let head = doc_index.checked_add(1).ok_or(never_ends)?;
            with_head(head, &deltas, |list| modified9::encode(list, &mut out))?;
        }
    }
    Ok(out)
}

/// Elements up to which [`with_head`] and [`pack_posting`] work on the stack.
const STACK_LIST: usize = 64;

/// Calls `f` with `[head, rest...]`, built on the stack when short.
fn with_head<R>(head: i64, rest: &[i64], f: impl FnOnce(&[i64]) -> R) -> R {
    if rest.len() < STACK_LIST {
        let mut buf = [0i64; STACK_LIST];
        buf[0] = head;
        buf[1..=rest.len()].copy_from_slice(rest);
        f(&buf[..=rest.len()])
    } else {
        let mut list = Vec::with_capacity(rest.len() + 1);
        list.push(head);
        list.extend_from_slice(rest);
        f(&list)
    }
}

/// `packPosting` for a position list, the common case.
pub fn pack_posting(
    format: Format,
    doc_index: i64,
    positions: &[i64],
    delta: bool,
) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(4 * (positions.len() / 3 + 2));
    pack_posting_into(format, doc_index, positions, delta, &mut out)?;
    Ok(out)
}

/// [`pack_posting`], appending to `out` (nothing is appended on an error).
pub fn pack_posting_into(
    format: Format,
    doc_index: i64,
    positions: &[i64],
    delta: bool,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let never_ends = EncodeError::NeverTerminates { index: 0 };
    let n = positions.len();
    // [doc index + 1, deltas...] built in one pass, in place of
    // `deltaList` then `pack_deltas`; short lists stay on the stack.
    let mut stack = [0i64; STACK_LIST];
    let mut heap = Vec::new();
    let list: &mut [i64] = if n < STACK_LIST {
        &mut stack[..=n]
    } else {
        heap.resize(n + 1, 0);
        &mut heap
    };
    if delta {
        // An overflowing difference is a float of magnitude >= 2^62 or a
        // negative one; the encoder treats the former as never ending.
        let mut last = 0i64;
        for (slot, &p) in list[1..].iter_mut().zip(positions) {
            *slot = p.checked_sub(last).ok_or(never_ends)?;
            last = p;
        }
    } else {
        list[1..].copy_from_slice(positions);
    }
    if format == Format::Y2015 && n > 0 {
        list[1] = list[1].checked_add(1).ok_or(never_ends)?;
    }
    if n > 0 && can_fold(doc_index, list[1]) {
        list[1] += fold(doc_index);
        modified9::encode(&list[1..], out)
    } else {
        list[0] = doc_index.checked_add(1).ok_or(never_ends)?;
        modified9::encode(list, out)
    }
}

fn can_fold(doc_index: i64, first_delta: i64) -> bool {
    (FOLD_MIN_DOC..FOLD_BASE).contains(&doc_index) && first_delta < FOLD_MAX_DELTA
}

fn fold(doc_index: i64) -> i64 {
    (FOLD_BASE + doc_index) << FOLD_SHIFT
}

/// `unpackPosting`: the posting at `offset` and the offset after it.
pub fn unpack_posting(format: Format, input: &[u8], offset: i64, dedelta: bool) -> (Posting, Num) {
    let post = modified9::next_post_string(input, offset);
    let posting = with_posting(format, &input[post.bytes], dedelta, |doc_index, positions| Posting {
        doc_index,
        positions: positions.collect(),
    });
    (posting, post.next_offset)
}

/// One posting's words (as `next_post_string` frames them) decoded and
/// split: `f` gets the doc index (None where Yioop has null) and the
/// positions, exactly as [`posting_from_decoded`] gives them. Short
/// postings, nearly all of them, are decoded on the stack: no allocation.
pub fn with_posting<R>(format: Format, words: &[u8], dedelta: bool, f: impl FnOnce(Option<i64>, Positions<'_>) -> R) -> R {
    if words.len() > 4 * STACK_WORDS {
        return with_long_posting(format, words, dedelta, f);
    }
    let mut buffer = [std::mem::MaybeUninit::<u32>::uninit(); 24 * STACK_WORDS];
    // SAFETY: room for 24 elements a word; only the `n` written are read.
    let decoded = unsafe {
        let n = modified9::decode_words_raw(words, buffer.as_mut_ptr().cast::<u32>());
        std::slice::from_raw_parts(buffer.as_ptr().cast::<u32>(), n)
    };
    let (doc_index, positions) = split_posting(format, decoded, dedelta);
    f(doc_index, positions)
}

/// [`with_posting`] for a posting too long for the stack. Rare, and kept
/// out of line: inlined, its decoder set-up made every call's prologue
/// longer (callgrind, `bench/instructions.sh`).
#[cold]
#[inline(never)]
fn with_long_posting<R>(format: Format, words: &[u8], dedelta: bool, f: impl FnOnce(Option<i64>, Positions<'_>) -> R) -> R {
    let mut decoded = Vec::new();
    modified9::decode_words(words, &mut decoded);
    let (doc_index, positions) = split_posting(format, &decoded, dedelta);
    f(doc_index, positions)
}

/// Postings of up to this many words are decoded on the stack.
const STACK_WORDS: usize = 32;

/// The doc index and positions from a decoded posting.
pub fn posting_from_decoded(format: Format, decoded: &[u32], dedelta: bool) -> Posting {
    let (doc_index, positions) = split_posting(format, decoded, dedelta);
    Posting { doc_index, positions: positions.collect() }
}

/// A decoded posting split into its doc index (None where Yioop has null:
/// nothing decoded) and its positions, computed as they are read.
pub fn split_posting(format: Format, decoded: &[u32], dedelta: bool) -> (Option<i64>, Positions<'_>) {
    let Some((&first, rest)) = decoded.split_first() else {
        // array_shift of an empty list is null, and null-- stays null.
        return (None, Positions { first: None, rest: [].iter(), sum: 0, dedelta });
    };
    let first = first as i64;
    let (doc_index, delta0) = if first & FOLD_FLAG > 0 {
        let (doc_index, delta0) = unfold(format, first);
        (doc_index, Some(delta0))
    } else {
        (first - 1, None)
    };
    let mut positions = Positions { first: delta0, rest: rest.iter(), sum: 0, dedelta };
    if format == Format::Y2015 {
        positions.take_one_off_the_first();
    }
    (Some(doc_index), positions)
}

/// The positions of a posting: its deltas, summed when de-deltaing. Decoded
/// values are below 2^28, so the sums cannot overflow.
pub struct Positions<'a> {
    first: Option<i64>,
    rest: std::slice::Iter<'a, u32>,
    sum: i64,
    dedelta: bool,
}

impl Positions<'_> {
    /// Yioop 3.x stores the first delta plus one and takes it off before
    /// de-deltaing, so the one comes off every position.
    fn take_one_off_the_first(&mut self) {
        match self.first.as_mut() {
            Some(first) => *first -= 1,
            None if self.rest.len() > 0 => {
                self.first = self.rest.next().map(|&v| v as i64 - 1);
            }
            None => {}
        }
    }
}

impl Iterator for Positions<'_> {
    type Item = i64;

    #[inline]
    fn next(&mut self) -> Option<i64> {
        let delta = self.first.take().or_else(|| self.rest.next().map(|&v| v as i64))?;
        self.sum = if self.dedelta { self.sum + delta } else { delta };
        Some(self.sum)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.rest.len() + usize::from(self.first.is_some());
        (len, Some(len))
    }
}

impl ExactSizeIterator for Positions<'_> {}

/// Splits a folded first element into (doc index, first delta). The two
/// lines disagree when the delta was 512-1023 (it overlaps the doc index's
/// low bit): 2019 keeps 9 bits of delta, 2015 keeps 10 and drops that bit
/// from the doc index.
fn unfold(format: Format, folded: i64) -> (i64, i64) {
    match format {
        Format::Y2019 => {
            let doc_index = (folded >> FOLD_SHIFT) - FOLD_BASE;
            (doc_index, folded - ((FOLD_BASE + doc_index) << FOLD_SHIFT))
        }
        Format::Y2015 => unfold_10_bits(folded),
    }
}

/// The 2015 way, which `addDocIndexPostings` uses on both lines.
fn unfold_10_bits(folded: i64) -> (i64, i64) {
    let delta0 = folded & (FOLD_MAX_DELTA - 1);
    ((folded - delta0 - FOLD_FLAG) >> FOLD_SHIFT, delta0)
}

/// `addDocIndexPostings`: every posting in `postings` re-encoded with
/// `add_offset` added to its doc index. Postings Yioop cannot frame are
/// dropped, as Yioop drops them.
pub fn add_doc_index_postings(postings: &[u8], add_offset: i64) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(postings.len() + postings.len() / 8);
    let mut offset = 0i64;
    let mut decoded = Vec::new();
    let mut list = Vec::new();
    while (offset as usize) < postings.len() {
        let post = modified9::next_post_string(postings, offset);
        offset = post.next_offset.to_int(); // stays small: offset < len here
        if post.bytes.len() < 4 {
            continue; // "" or fewer bytes than one word: unpack gives nothing
        }
        decoded.clear();
        modified9::decode_words(&postings[post.bytes], &mut decoded);
        // Take the doc index off the front (an empty posting gives PHP's
        // null, which counts as 0 when added to), unfolding it.
        let (doc_index, lead, body) = match decoded.split_first() {
            None => (Num::Int(0), None, &decoded[..]),
            Some((&first, body)) => {
                let first = first as i64;
                if first & FOLD_FLAG > 0 {
                    let (doc_index, delta0) = unfold_10_bits(first);
                    (Num::Int(doc_index), Some(delta0), body)
                } else {
                    (Num::Int(first - 1), None, body)
                }
            }
        };
        let moved = num::add(doc_index, Num::Int(add_offset));
        // Put it back in front, folding where Yioop folds.
        let first_delta = lead.or(body.first().map(|&v| v as i64));
        list.clear();
        match (moved, first_delta) {
            (Num::Int(doc), Some(delta)) if can_fold(doc, delta) => list.push(delta + fold(doc)),
            _ => {
                let stored = num::add(moved, Num::Int(1));
                // Compared exactly: 2^62 - 1 as a float would round up to 2^62.
                let never_ends = match stored {
                    Num::Int(i) => i >= modified9::ENCODE_LIMIT,
                    Num::Float(f) => f >= modified9::ENCODE_LIMIT as f64,
                };
                if never_ends {
                    return Err(EncodeError::NeverTerminates { index: 0 });
                }
                list.push(stored.to_int());
                list.extend(first_delta);
            }
        }
        list.extend(body.iter().skip(lead.is_none() as usize).map(|&v| v as i64));
        modified9::encode(&list, &mut out)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(format: Format, doc_index: i64, positions: &[i64]) -> Posting {
        let packed = pack_posting(format, doc_index, positions, true).unwrap();
        let (posting, next) = unpack_posting(format, &packed, 0, true);
        assert_eq!(next, Num::Int(packed.len() as i64));
        posting
    }

    #[test]
    fn small_doc_index_round_trips() {
        let p = round_trip(Format::Y2019, 17, &[3, 50, 51, 900]);
        assert_eq!(p, Posting { doc_index: Some(17), positions: vec![3, 50, 51, 900] });
    }

    #[test]
    fn folded_doc_index_round_trips() {
        let p = round_trip(Format::Y2019, 40_000, &[200, 300]);
        assert_eq!(p, Posting { doc_index: Some(40_000), positions: vec![200, 300] });
    }

    #[test]
    fn yioop_bug_first_delta_512_to_1023_with_folded_doc_index() {
        // Yioop packs a first delta below 1024 into 9 bits of room: the delta's
        // bit 9 lands on the doc index's lowest bit. Unpacking then moves that
        // bit. Reproduced on purpose, as both Yioop lines do.
        let p2019 = round_trip(Format::Y2019, 40_000, &[700, 800]);
        assert_eq!(p2019.doc_index, Some(40_001));
        assert_eq!(p2019.positions, [700 - 512, 800 - 512]);
        // 2015 reads 10 delta bits back: right for an even doc index, but an
        // odd one takes the carry and comes back one higher.
        assert_eq!(round_trip(Format::Y2015, 40_000, &[700, 800]).doc_index, Some(40_000));
        let p2015 = round_trip(Format::Y2015, 40_001, &[700, 800]);
        assert_eq!(p2015.doc_index, Some(40_002));
        assert_eq!(p2015.positions[0], 700 - 512);
    }

    #[test]
    fn format_2015_stores_first_delta_plus_one() {
        let packed_2015 = pack_posting(Format::Y2015, 5, &[10, 20], true).unwrap();
        let packed_2019 = pack_posting(Format::Y2019, 5, &[11, 21], true).unwrap();
        assert_eq!(packed_2015, packed_2019);
    }

    #[test]
    fn format_2015_round_trips() {
        assert_eq!(round_trip(Format::Y2015, 5, &[10, 20]).positions, [10, 20]);
    }

    #[test]
    fn empty_posting_gives_null_doc_index() {
        let (p, next) = unpack_posting(Format::Y2019, &[0x3f, 0, 0, 0], 0, true);
        assert_eq!(p, Posting { doc_index: None, positions: vec![] });
        assert_eq!(next, Num::Int(4));
    }

    #[test]
    fn add_doc_index_moves_every_posting() {
        let mut postings = pack_posting(Format::Y2019, 3, &[1, 2], true).unwrap();
        postings.extend(pack_posting(Format::Y2019, 40_000, &[5], true).unwrap());
        let moved = add_doc_index_postings(&postings, 100).unwrap();
        let (first, next) = unpack_posting(Format::Y2019, &moved, 0, true);
        let (second, _) = unpack_posting(Format::Y2019, &moved, next.to_int(), true);
        assert_eq!(first.doc_index, Some(103));
        assert_eq!(second, Posting { doc_index: Some(40_100), positions: vec![5] });
    }
}
