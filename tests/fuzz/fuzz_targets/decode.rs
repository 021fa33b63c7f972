//! Decoding arbitrary bytes at arbitrary offsets must never panic, and every
//! decoder must agree with the plain transcription of Yioop's loop.
//!
//! Input: offset (i64 LE), add_offset (i64 LE), then the posting bytes.
//! Shorter inputs read missing header bytes as zero.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yioop_codec::codec::backend::{Dispatch, Mode};
use yioop_codec::codec::modified9::{self, DecodeBackend};
use yioop_codec::php_semantics::num::Num;
use yioop_codec::codec::posting::{self, Format};
use yioop_codec::codec::posting_list;

/// Postings decoded per batch call.
const BATCH: usize = 40;

fn le_i64(bytes: &[u8]) -> i64 {
    let mut buf = [0u8; 8];
    let n = bytes.len().min(8);
    buf[..n].copy_from_slice(&bytes[..n]);
    i64::from_le_bytes(buf)
}

/// Folds an arbitrary i64 onto offsets near the string most of the time,
/// so that the interesting cases (inside, just outside, negative) are hit.
fn offset_for(raw: i64, len: usize) -> i64 {
    match raw & 3 {
        0 | 1 => (raw >> 2).rem_euclid(len as i64 + 16) - 8,
        2 => 4 * ((raw >> 2).rem_euclid(len as i64 / 4 + 2)),
        _ => raw, // anything, PHP_INT_MAX and PHP_INT_MIN included
    }
}

fn reference_words(bytes: &[u8]) -> Vec<u32> {
    let mut out = Vec::new();
    for chunk in bytes.chunks_exact(4) {
        let word = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        modified9::decode_word_reference(word, &mut out);
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let raw_offset = le_i64(data);
    let add_offset = le_i64(data.get(8..).unwrap_or(&[]));
    let input = data.get(16..).unwrap_or(&[]);
    let offset = offset_for(raw_offset, input.len());

    // Word by word, and every bulk decoder, against the reference.
    let expected = reference_words(input);
    let mut fast = Vec::new();
    modified9::decode_words(input, &mut fast);
    assert_eq!(fast, expected, "decode_words");
    for backend in DecodeBackend::available() {
        let mut out = vec![7u32; input.len() % 5]; // appends after what is there
        modified9::decode_words_with(backend, input, &mut out);
        assert_eq!(out[input.len() % 5..], expected[..], "{backend:?}");
    }
    for chunk in input.chunks_exact(4) {
        let word = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        modified9::decode_word(word, &mut a);
        modified9::decode_word_reference(word, &mut b);
        assert_eq!(a, b, "decode_word {word:#010x}");
        assert!(a.iter().all(|&v| v < 1 << 28));
        let _ = modified9::doc_index_of_word(i64::from(word));
    }
    let _ = modified9::doc_index_of_word(raw_offset);

    // Framing: the bytes returned are the input from the offset on, and the
    // offset moves on by whole words.
    let post = modified9::next_post_string(input, offset);
    assert!(post.bytes.end <= input.len());
    match post.next_offset {
        Num::Int(next) => {
            assert!(next > offset && (next - offset) % 4 == 0, "{offset} -> {next}");
            assert!(post.bytes.len() as i64 <= next - offset);
        }
        Num::Float(f) => assert!(offset > i64::MAX - 8 && f >= i64::MAX as f64),
    }
    let mut decoded = Vec::new();
    let next = modified9::decode(input, offset, &mut decoded);
    assert_eq!(next, post.next_offset);
    assert_eq!(decoded, reference_words(&input[post.bytes.clone()]));

    // Postings, both formats, with and without de-deltaing; the batch
    // decoder equals a loop of single decodes.
    let scalar = Dispatch::new(Mode::Off, u64::MAX);
    for format in [Format::Y2019, Format::Y2015] {
        for dedelta in [true, false] {
            let (one, after) = posting::unpack_posting(format, input, offset, dedelta);
            assert_eq!(after, post.next_offset);
            assert_eq!(one.doc_index.is_none(), decoded.is_empty());
            assert_eq!(one, posting::posting_from_decoded(format, &decoded, dedelta));

            // Bounded: from a hugely negative offset the loop would run for
            // ages, 4 bytes at a time, as a loop of unpackPosting would.
            let (many, end) = posting_list::unpack_postings(
                format, &scalar, input, Num::Int(offset), Some(BATCH), dedelta)
                .expect("an int offset always returns");
            let mut expected = Vec::new();
            let mut at = Num::Int(offset);
            while let Num::Int(start) = at {
                if start >= input.len() as i64 || expected.len() == BATCH {
                    break;
                }
                let (p, next) = posting::unpack_posting(format, input, start, dedelta);
                expected.push(p);
                at = next;
            }
            assert_eq!(many, expected);
            assert_eq!(end, at);
        }
    }

    // Re-encoding with any offset: an error is fine, a panic is not.
    if let Ok(out) = posting::add_doc_index_postings(input, add_offset) {
        assert_eq!(out.len() % 4, 0);
    }
});
