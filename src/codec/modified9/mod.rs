//! Modified9, Yioop's Simple-9 variant: the word codec and the framing of a
//! posting string into words.
//!
//! Every function here reproduces Yioop's PHP exactly, also on input that
//! Yioop never writes (damaged strings, out-of-range values).
//!
//! One file per concern, each below the ones it uses:
//!
//! - `format`: continuation bits, selectors, layouts, the doc-index fold,
//!   the limits. Every other file takes the format's rules from here.
//! - `reference`: Yioop's loops transcribed as they read
//!   ([`decode_word_reference`], [`encode_reference`], [`doc_index_of_word`]),
//!   and the faithful encoder state machine.
//! - `table_decode`: one word split by table lookups ([`decode_word`]), and
//!   the portable bulk decoder.
//! - `x86_decode`: the AVX2 and AVX-512 decoders.
//! - `decode`: [`decode_words`] and its backend choice ([`DecodeBackend`]).
//! - `fast_encode`: the encoder's fast path for elements in 0..2^28, and
//!   where it hands over to the state machine.
//! - `x86_encode`: that fast path with AVX2.
//! - `encode`: [`encode`] and its backend choice ([`EncodeBackend`]).
//! - `framing`: [`next_post_string`] and its offsets, and [`decode`].

mod decode;
mod encode;
mod fast_encode;
pub(crate) mod format;
mod framing;
mod reference;
mod table_decode;
#[cfg(target_arch = "x86_64")]
mod x86_decode;
#[cfg(target_arch = "x86_64")]
mod x86_encode;

pub(crate) use decode::decode_words_raw;
pub use decode::{decode_words, decode_words_with, DecodeBackend};
pub use encode::{encode, encode_with, EncodeBackend};
pub use format::{EncodeError, ENCODE_LIMIT};
pub use framing::{
    decode, next_post_string, next_post_string_at, next_post_string_float, NeverReturns, PostString, Reached,
};
pub use reference::{decode_word_reference, doc_index_of_word, encode_reference};
pub use table_decode::{decode_word, word_elements};

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
        // Four values of at most 4 bits: one 6x4 word, continuation 00.
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
}
