//! The fast Modified9 paths against the plain transcriptions of Yioop's
//! loops (`decode_word_reference`, `encode_reference`), and every SIMD
//! backend this CPU has against the scalar one.

use proptest::prelude::*;
use yioop_codec::codec::modified9::{
    decode_word, decode_word_reference, decode_words, decode_words_with, encode, encode_reference,
    encode_with, DecodeBackend, EncodeBackend,
};

fn reference_decode(bytes: &[u8]) -> Vec<u32> {
    let mut out = Vec::new();
    for w in bytes.chunks_exact(4) {
        decode_word_reference(u32::from_be_bytes(w.try_into().unwrap()), &mut out);
    }
    out
}

/// Words as Yioop writes them and as damage leaves them: any u32; words of
/// the four-slot layouts (the SIMD group paths); words with zero slots;
/// selector bytes of every kind.
fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        // 1x28, 2x14, 3x9, 4x6 with any continuation bits.
        (any::<u32>(), 0u32..4).prop_map(|(w, sel)| {
            let w = w & !0x3C00_0000;
            if sel == 3 { w | 0x3000_0000 } else { w | sel << 28 }
        }),
        // Random slots cleared.
        (any::<u32>(), 0u32..28, 1u32..15).prop_map(|(w, at, width)| w & !(((1u32 << width) - 1) << at)),
        // Every first byte, sparse payloads.
        (any::<u8>(), any::<u32>(), 0u32..24)
            .prop_map(|(b, p, s)| (b as u32) << 24 | (p >> s) & 0x00FF_FFFF),
        // Words Yioop writes for small lists.
        prop::collection::vec(0i64..1 << 20, 1..8).prop_map(|list| {
            let mut out = Vec::new();
            encode_reference(&list, &mut out).unwrap();
            u32::from_be_bytes(out[..4].try_into().unwrap())
        }),
    ]
}

/// Byte strings: words from [`word`], real encoded lists, and a stray
/// trailing partial word; a posting's few words, which `decode_words`
/// decodes word by word instead of on the bulk backends.
fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..400),
        prop::collection::vec(word(), 0..8).prop_map(|words| words.iter().flat_map(|w| w.to_be_bytes()).collect()),
        (prop::collection::vec(word(), 0..300), prop::collection::vec(any::<u8>(), 0..4)).prop_map(
            |(words, tail)| {
                let mut b: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
                b.extend(tail);
                b
            }
        ),
        prop::collection::vec(list(), 0..20).prop_map(|lists| {
            let mut b = Vec::new();
            for l in lists {
                encode_reference(&l, &mut b).unwrap();
            }
            b
        }),
    ]
}

/// Lists for the encoder: Yioop's kind (1..2^28), small values where the
/// wide layouts and the word-break quirk live, zeros, and values it does not
/// write (2^28 and more, negatives).
fn element() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => 1i64..=400,
        3 => 0i64..4,
        2 => 0i64..64,
        1 => 1i64..1 << 28,
        1 => (0u32..28).prop_flat_map(|b| (1i64 << b)..(2i64 << b)),
    ]
}

fn list() -> impl Strategy<Value = Vec<i64>> {
    prop_oneof![
        8 => prop::collection::vec(element(), 0..40),
        2 => prop::collection::vec(element(), 0..3000),
        // Runs of one kind, so that long words form.
        2 => prop::collection::vec((element(), 1usize..30), 0..60)
            .prop_map(|runs| runs.into_iter().flat_map(|(e, n)| std::iter::repeat_n(e, n)).collect()),
    ]
}

/// A value the fast path does not take, somewhere in a list.
fn odd_value() -> impl Strategy<Value = i64> {
    prop_oneof![
        (1i64 << 28)..(1i64 << 31),
        (1i64 << 31)..(1i64 << 40),
        i64::MIN..0,
        Just(1i64 << 28),
        Just(-1i64),
    ]
}

fn list_with_odd_values() -> impl Strategy<Value = Vec<i64>> {
    (list(), prop::collection::vec((any::<prop::sample::Index>(), odd_value()), 1..4)).prop_map(
        |(mut list, odd)| {
            for (at, v) in odd {
                let i = at.index(list.len() + 1);
                list.insert(i, v);
            }
            list
        },
    )
}

fn check_encode(list: &[i64]) -> Result<(), TestCaseError> {
    let mut want = vec![7u8];
    let want_result = encode_reference(list, &mut want);
    for backend in EncodeBackend::available() {
        let mut got = vec![7u8];
        let result = encode_with(backend, list, &mut got);
        prop_assert_eq!(result, want_result, "{:?}", backend);
        prop_assert_eq!(&got, &want, "{:?}", backend);
    }
    let mut got = vec![7u8];
    prop_assert_eq!(encode(list, &mut got), want_result);
    prop_assert_eq!(got, want);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn decode_word_matches_reference(w in word()) {
        let (mut fast, mut slow) = (vec![1u32], vec![1u32]);
        decode_word(w, &mut fast);
        decode_word_reference(w, &mut slow);
        prop_assert_eq!(fast, slow);
    }

    #[test]
    fn decode_word_matches_reference_on_any_u32(w in any::<u32>()) {
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        decode_word(w, &mut fast);
        decode_word_reference(w, &mut slow);
        prop_assert_eq!(fast, slow);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Every backend, into vectors with something in them already and
    /// with little or much spare room.
    #[test]
    fn decode_words_backends_match_reference(
        b in bytes(),
        prefix in prop::collection::vec(any::<u32>(), 0..5),
        spare in prop_oneof![Just(0usize), 0usize..100, 0usize..5000],
    ) {
        let want = reference_decode(&b);
        for backend in DecodeBackend::available() {
            let mut out = Vec::with_capacity(prefix.len() + spare);
            out.extend_from_slice(&prefix);
            decode_words_with(backend, &b, &mut out);
            prop_assert_eq!(&out[..prefix.len()], &prefix[..], "{:?}", backend);
            prop_assert_eq!(&out[prefix.len()..], &want[..], "{:?}", backend);
        }
        let mut out = prefix.clone();
        decode_words(&b, &mut out);
        prop_assert_eq!(&out[prefix.len()..], &want[..]);
    }

    #[test]
    fn encode_matches_reference(l in list()) {
        check_encode(&l)?;
    }

    #[test]
    fn encode_matches_reference_with_values_yioop_does_not_write(l in list_with_odd_values()) {
        check_encode(&l)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Long lists with an odd value near the fast path's chunk edges (it
    /// works on 1024 positions and looks 24 past them).
    #[test]
    fn encode_hands_over_anywhere_in_long_lists(
        small in prop::bool::ANY,
        at in prop_oneof![0usize..40, 990usize..1100, 2000usize..2200, 0usize..5000],
        v in odd_value(),
        seed in any::<u64>(),
    ) {
        let mut x = seed | 1;
        let mut list: Vec<i64> = (0..5000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if small { (x % 3) as i64 } else { 1 + (x % 400) as i64 }
            })
            .collect();
        list[at.min(4999)] = v;
        check_encode(&list)?;
        list.truncate(at.min(4999) + 1);
        check_encode(&list)?;
    }

    /// The scalar decode against each SIMD backend on long real lists.
    #[test]
    fn decode_backends_agree_on_encoded_lists(l in prop::collection::vec(element(), 0..20_000)) {
        let mut bytes = Vec::new();
        encode(&l, &mut bytes).unwrap();
        let mut want = Vec::new();
        decode_words_with(DecodeBackend::Scalar, &bytes, &mut want);
        prop_assert_eq!(&want, &reference_decode(&bytes));
        for backend in DecodeBackend::available() {
            let mut got = Vec::new();
            decode_words_with(backend, &bytes, &mut got);
            prop_assert_eq!(&got, &want, "{:?}", backend);
        }
    }
}

#[test]
fn values_yioop_never_writes_hand_over_with_the_right_state() {
    // Each odd value after each prefix of a list that exercises the quirk.
    let base: Vec<i64> = [vec![1; 24], vec![2; 12], vec![300, 5, 700, 1, 1, 1]].concat();
    for cut in 0..=base.len() {
        for v in [1i64 << 28, (1 << 28) - 1, -5, 1 << 40, 0] {
            let mut list = base[..cut].to_vec();
            list.push(v);
            list.extend_from_slice(&base[cut..]);
            check_encode(&list).unwrap();
        }
    }
}

#[test]
fn encode_refuses_what_would_hang_and_appends_nothing() {
    for backend in EncodeBackend::available() {
        let mut out = vec![1, 2, 3];
        let list = [5, 1 << 28, 7, 1 << 62, 3];
        let err = encode_with(backend, &list, &mut out);
        assert_eq!(err, encode_reference(&list, &mut Vec::new()));
        assert_eq!(out, [1, 2, 3]);
    }
}

#[test]
fn every_backend_is_listed_and_the_best_is_available() {
    assert!(DecodeBackend::available().contains(&DecodeBackend::Scalar));
    assert!(DecodeBackend::best().is_available());
    assert!(EncodeBackend::available().contains(&EncodeBackend::Scalar));
    assert!(EncodeBackend::best().is_available());
    eprintln!(
        "decode backends here: {:?}; encode backends here: {:?}",
        DecodeBackend::available(),
        EncodeBackend::available()
    );
}
