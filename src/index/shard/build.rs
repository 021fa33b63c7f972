//! What `IndexShard::addDocumentWords` computes per word and per document,
//! without PHP: the word's raw id (`crawlHashWord($word, true)`) and the
//! document's doc-info record. The PHP state it updates (the shard's
//! arrays and counters) is the binding's business.

use crate::index::md5_lanes;
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

/// `packAuxiliaryDocumentKeys([], [])`, for a document with neither
/// description scores nor user ranks (every link): no keys, then padding to
/// a multiple of eight bytes, which for none is all eight. That holds while
/// `MAX_AUX_DOC_KEYS` is not negative (`0 + 0 >` it is false); None else.
pub fn no_auxiliary_keys(max_aux_doc_keys: i64) -> Option<[u8; 8]> {
    (max_aux_doc_keys >= 0).then_some([0; 8])
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

    #[test]
    fn no_auxiliary_keys_are_a_whole_key_of_padding_read_back_as_nothing() {
        let aux = no_auxiliary_keys(200).unwrap();
        let (stored, num_keys) = stored_doc_keys(&[7; 24], &aux).unwrap();
        assert_eq!((stored.len(), num_keys), (40, 4)); // 3 keys + aux, padded to 5
        let (scores, ranks) = crate::index::shard::item::unpack_auxiliary_keys(&aux).unwrap();
        assert!(scores.is_empty() && ranks.is_empty());
        assert_eq!(no_auxiliary_keys(0), Some([0; 8]));
        assert_eq!(no_auxiliary_keys(-1), None);
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
