//! Encoding arbitrary integer lists must never panic (errors are fine), and
//! every encoder backend must give the reference transcription's bytes.
//!
//! Input: flags (1 byte), doc index (i64 LE), then the list as i64 LE.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yioop_codec::codec::delta;
use yioop_codec::codec::modified9::{self, EncodeBackend, ENCODE_LIMIT};
use yioop_codec::codec::posting::{self, Format};

fuzz_target!(|data: &[u8]| {
    let flags = data.first().copied().unwrap_or(0);
    let mut doc = [0u8; 8];
    let head = data.get(1..9).unwrap_or(&[]);
    doc[..head.len()].copy_from_slice(head);
    let doc_index = i64::from_le_bytes(doc);
    let mut list: Vec<i64> = data
        .get(9..)
        .unwrap_or(&[])
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // Often keep values in Yioop's range, where the fast paths run.
    if flags & 0x10 != 0 {
        for v in &mut list {
            *v = v.rem_euclid(1 << (1 + (flags >> 5) * 4)).max(i64::from(flags & 0x20 == 0));
        }
    }

    let mut reference = Vec::new();
    let expected = modified9::encode_reference(&list, &mut reference);
    assert_eq!(expected.is_err(), list.iter().any(|&v| v >= ENCODE_LIMIT));
    let prefix = [0xAB; 3];
    for backend in EncodeBackend::available() {
        let mut out = prefix.to_vec(); // appends after what is there
        let got = modified9::encode_with(backend, &list, &mut out);
        assert_eq!(got, expected, "{backend:?}");
        if got.is_ok() {
            assert_eq!(out[3..], reference[..], "{backend:?}");
        } else {
            assert_eq!(out, prefix, "{backend:?} appended on error");
        }
    }
    let mut out = Vec::new();
    assert_eq!(modified9::encode(&list, &mut out), expected);
    if expected.is_ok() {
        assert_eq!(out, reference);
        assert_eq!(out.len() % 4, 0);
        assert!(!out.is_empty());
    }

    // Postings in both formats, with and without deltas.
    let delta = flags & 1 != 0;
    for format in [Format::Y2019, Format::Y2015] {
        let _ = posting::pack_posting(format, doc_index, &list, delta);
        let lead = (!list.is_empty()).then_some((flags as usize >> 1) % list.len().max(1));
        let _ = posting::pack_deltas(format, doc_index, list.clone(), lead);
    }

    // Delta lists: an overflow is reported, never a panic.
    if let Some(deltas) = delta::delta_list(&list) {
        let mut back = deltas.clone();
        if delta::de_delta_list(&mut back).is_ok() {
            assert_eq!(back, list);
        }
    }
});
