//! What `IndexShard::addDocumentWords` computes per word and per document,
//! without PHP: the word's raw id (`crawlHashWord($word, true)`) and the
//! document's doc-info record. The PHP state it updates (the shard's
//! arrays and counters) is the binding's business.

use crate::index::md5_lanes;
use crate::index::shard::item::MAX_SHORT;
use md5::{Digest, Md5};

/// `IndexShard::DOC_KEY_LEN`.
pub const DOC_KEY_LEN: usize = 8;
/// `IndexShard::LINK_FLAG`: set in a doc-info length for a link item.
pub const LINK_FLAG: i64 = 0x80_0000;
/// `IndexShard::BLANK`: pads an even number of keys to an odd one, so that
/// each record (4 + 4 + keys) stays a multiple of 16 bytes.
pub const BLANK: [u8; DOC_KEY_LEN] = [0xff; DOC_KEY_LEN];
/// Bytes of a raw word id.
pub const WORD_ID_LEN: usize = 20;

/// `crawlHashWord($word, true)`: the first 8 bytes of the word's MD5, a
/// zero byte, the word's first 11 bytes, zero-padded to 20 bytes.
pub fn word_id(word: &[u8]) -> [u8; WORD_ID_LEN] {
    id_of(&Md5::digest(word).into(), word)
}

/// `word_id` of each word, in order: a document's words, whose digests
/// are quicker taken side by side (`md5_lanes`).
pub fn word_ids(words: &[&[u8]]) -> Vec<[u8; WORD_ID_LEN]> {
    if words.len() < md5_lanes::WORTH_IT {
        return words.iter().map(|word| word_id(word)).collect();
    }
    md5_lanes::digests(words).iter().zip(words).map(|(digest, word)| id_of(digest, word)).collect()
}

fn id_of(digest: &[u8; 16], word: &[u8]) -> [u8; WORD_ID_LEN] {
    let mut id = [0u8; WORD_ID_LEN];
    id[..8].copy_from_slice(&digest[..8]);
    let head = &word[..word.len().min(11)];
    id[9..9 + head.len()].copy_from_slice(head);
    id
}

/// `packAuxiliaryDocumentKeys($description_scores, $user_ranks)`: the
/// scores (position => weight) and ranks Yioop's PHP takes natively, with
/// `MAX_AUX_DOC_KEYS`. Positions within ±2^62 and weights within ±2^40,
/// where Yioop's arithmetic stays exact; None for others (Yioop's PHP).
///
/// Yioop's packing: when the counts together pass the limit, nothing at
/// all. Else, where there are scores and the largest gap between their
/// positions (`deltaList`, in their order) is below 2<<16 - 1 = 65,536,
/// `\xFF\xFF`, the gaps and the weights; then the ranks' weights. Last,
/// one to eight NULs, to a multiple of eight bytes.
pub fn auxiliary_keys(scores: &[(i64, f64)], ranks: &[f64], max_keys: i64) -> Option<Vec<u8>> {
    let exact = |w: &f64| w.is_finite() && w.abs() < (1u64 << 40) as f64;
    if scores.iter().any(|&(p, w)| p.unsigned_abs() >= 1 << 62 || !exact(&w)) || !ranks.iter().all(exact) {
        return None;
    }
    if (scores.len() + ranks.len()) as i64 > max_keys {
        return Some(Vec::new());
    }
    let gaps: Vec<i64> = scores.iter().scan(0, |last, &(p, _)| Some(p - std::mem::replace(last, p))).collect();
    let mut out = Vec::new();
    if gaps.iter().max().is_some_and(|&widest| widest < MAX_SHORT as i64) {
        out.extend_from_slice(b"\xFF\xFF");
        push_shorts(&mut out, gaps.iter().copied());
        push_weights(&mut out, scores.iter().map(|&(_, w)| w));
    }
    if !ranks.is_empty() {
        push_weights(&mut out, ranks.iter().copied());
    }
    out.resize(out.len() + 8 - out.len() % 8, 0);
    Some(out)
}

/// `pack("S*", count, ...values)`: PHP's `S` keeps an int's low 16 bits,
/// in the machine's byte order.
fn push_shorts(out: &mut Vec<u8>, values: impl ExactSizeIterator<Item = i64>) {
    out.extend_from_slice(&(values.len() as u16).to_ne_bytes());
    values.for_each(|value| out.extend_from_slice(&(value as u16).to_ne_bytes()));
}

/// `packValues($weights, "f")`: each `min(floor(w * 65536), 65535)`.
fn push_weights(out: &mut Vec<u8>, weights: impl ExactSizeIterator<Item = f64>) {
    push_shorts(out, weights.map(|w| (w * MAX_SHORT).floor().min(MAX_SHORT - 1.0) as i64));
}

/// The doc keys as stored: Yioop's keys plus the auxiliary keys, padded with
/// `BLANK` to an odd number of keys. `None` where their length is not a
/// whole number of keys (Yioop's `addDocumentWords` then returns false).
pub fn stored_doc_keys(keys: &[u8], aux_keys: &[u8]) -> Option<(Vec<u8>, usize)> {
    let len = keys.len() + aux_keys.len();
    if len % DOC_KEY_LEN != 0 {
        return None;
    }
    let num_keys = len / DOC_KEY_LEN;
    let mut stored = Vec::with_capacity(len + DOC_KEY_LEN);
    stored.extend_from_slice(keys);
    stored.extend_from_slice(aux_keys);
    if num_keys % 2 == 0 {
        stored.extend_from_slice(&BLANK);
    }
    Some((stored, num_keys))
}

/// `packDoclenNum($flags + $item_len, $num_keys)` as Yioop computes it:
/// `pack("N", (($flags + $item_len) << 8) + $num_keys)`, where `$num_keys`
/// comes from `floor()` and so is a float. The sum fits a double exactly
/// for any length a shard can hold.
pub fn doclen_num(is_doc: bool, rank: Option<i64>, item_len: i64, num_keys: usize) -> [u8; 4] {
    let mut flags = if is_doc { 0 } else { LINK_FLAG };
    if let Some(rank) = rank {
        flags += (rank & 0x0f) << 19;
    }
    let shifted = (flags.wrapping_add(item_len)).wrapping_shl(8);
    let value = crate::php_semantics::num::float_to_int(shifted as f64 + num_keys as f64);
    (value as u32).to_be_bytes()
}

/// `packInt($n)`: `pack("N")`, the low 32 bits big-endian.
pub fn pack_int(n: i64) -> [u8; 4] {
    (n as u32).to_be_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::php_semantics::num::Num;

    #[test]
    fn auxiliary_keys_read_back_as_packed() {
        let none = auxiliary_keys(&[], &[], 200).unwrap();
        assert_eq!(none, vec![0; 8]);
        let (stored, num_keys) = stored_doc_keys(&[7; 24], &none).unwrap();
        assert_eq!((stored.len(), num_keys), (40, 4)); // 3 keys + aux, padded to 5
        let packed = auxiliary_keys(&[(0, 0.5), (73, 0.25)], &[0.75], 200).unwrap();
        assert_eq!(packed.len() % 8, 0);
        let (scores, ranks) = crate::index::shard::item::unpack_auxiliary_keys(&packed).unwrap();
        assert_eq!(scores, vec![(0, Num::Float(0.5)), (73, Num::Float(0.25))]);
        assert_eq!(ranks, vec![Num::Float(0.75)]);
    }

    #[test]
    fn auxiliary_keys_past_the_limits() {
        assert_eq!(auxiliary_keys(&[(1, 0.5)], &[0.5], 1), Some(vec![])); // too many: no padding
        // A gap of 65,536 drops the scores; the ranks stay.
        let ranks_only = auxiliary_keys(&[(65536, 0.5)], &[0.5], 200).unwrap();
        assert_eq!(&ranks_only[..4], &[1, 0, 0, 128]);
        // A weight of 1 or more is 65,535; a negative one keeps its low bits.
        assert_eq!(&auxiliary_keys(&[], &[1.5, -0.5], 200).unwrap()[..6], &[2, 0, 255, 255, 0, 128]);
        assert_eq!(auxiliary_keys(&[], &[f64::NAN], 200), None);
        assert_eq!(auxiliary_keys(&[(1 << 62, 0.5)], &[], 200), None);
    }

    #[test]
    fn word_id_is_md5_head_zero_and_word_head() {
        // md5("") = d41d8cd98f00b204e9800998ecf8427e
        let id = word_id(b"");
        assert_eq!(&id[..8], &[0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04]);
        assert!(id[8..].iter().all(|&b| b == 0));
        // md5("hello") = 5d41402abc4b2a76b9719d911017c592
        let id = word_id(b"hello");
        assert_eq!(&id[..8], &[0x5d, 0x41, 0x40, 0x2a, 0xbc, 0x4b, 0x2a, 0x76]);
        assert_eq!(&id[8..15], b"\0hello\0");
        let long = word_id(b"internationalization");
        assert_eq!(&long[9..], b"internation");
    }

    #[test]
    fn word_ids_side_by_side_are_word_id_of_each() {
        // Lengths around MD5's one-block limit (55 bytes) and a part lane.
        let words: Vec<Vec<u8>> = (0..70).map(|n| (0..n).map(|i| b'a' + (i * 7 + n) as u8 % 26).collect()).collect();
        let words: Vec<&[u8]> = words.iter().map(Vec::as_slice).collect();
        for count in [0, 1, 3, 4, 16, 17, 70] {
            let expected: Vec<_> = words[..count].iter().map(|word| word_id(word)).collect();
            assert_eq!(word_ids(&words[..count]), expected, "{count} words");
        }
    }

    #[test]
    fn doc_keys_are_padded_to_an_odd_count() {
        let (stored, n) = stored_doc_keys(&[1; 16], &[0; 8]).unwrap();
        assert_eq!((stored.len(), n), (24, 3));
        let (stored, n) = stored_doc_keys(&[1; 16], &[]).unwrap();
        assert_eq!((n, &stored[16..]), (2, &BLANK[..]));
        assert!(stored_doc_keys(&[1; 17], &[]).is_none());
    }

    #[test]
    fn doclen_num_packs_flags_length_and_keys() {
        assert_eq!(doclen_num(true, None, 5, 3), [0, 0, 5, 3]);
        assert_eq!(doclen_num(false, None, 5, 3), [0x80, 0, 5, 3]);
        // A rank keeps its low 4 bits, at bit 19.
        assert_eq!(doclen_num(true, Some(0x1f), 0, 1), (((0x0f << 19) << 8) as u32 + 1).to_be_bytes());
    }
}
