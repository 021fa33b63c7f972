//! Decoding whole words, `unpack("N*", $s)` mapped through
//! `unpackListModified9` and merged, and the choice of backend: the
//! table-driven scalar decoder, or AVX2 or AVX-512 where the CPU has them
//! (detected once, at the first call).

#[cfg(target_arch = "x86_64")]
use super::x86_decode;
use super::table_decode::{decode_bulk_scalar, decode_word};

/// `unpack("N*", $s)` mapped through `unpackListModified9` and merged:
/// whole words only, trailing bytes ignored. Uses the fastest
/// [`DecodeBackend`] this CPU has.
#[inline]
pub fn decode_words(bytes: &[u8], out: &mut Vec<u32>) {
    // A typical posting is a few words: the bulk decoders' set-up
    // (capacity planning, SIMD registers) costs more than it saves there,
    // so they go word by word (decode_words_raw).
    if bytes.len() < SHORT_INPUT {
        let whole = &bytes[..bytes.len() & !3];
        out.reserve(24 * (whole.len() / 4));
        // SAFETY: room for 24 elements per word was just reserved.
        unsafe {
            let written = decode_words_raw(whole, out.as_mut_ptr().add(out.len()));
            out.set_len(out.len() + written);
        }
        return;
    }
    decode_words_on(DecodeBackend::best(), bytes, out);
}

/// Inputs shorter than this (in bytes) decode word by word: with AVX2
/// where the CPU has it (58.7 against 63 ns for a realistic 4-word posting
/// in `unpack_posting`), else scalar.
const SHORT_INPUT: usize = 4 * 8;

/// The implementations of [`decode_words`]. Every one gives the same
/// elements as [`decode_word_reference`](super::decode_word_reference) word by word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecodeBackend {
    /// Portable: table-driven, no SIMD.
    Scalar,
    /// x86-64 with AVX2 (and BMI1): two words per 256-bit register.
    Avx2,
    /// x86-64 with AVX-512F and BW (and AVX2, BMI1, POPCNT): four words per 512-bit
    /// register, written with a compress.
    Avx512,
}

impl DecodeBackend {
    pub const ALL: [DecodeBackend; 3] =
        [DecodeBackend::Scalar, DecodeBackend::Avx2, DecodeBackend::Avx512];

    /// Whether this CPU can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            DecodeBackend::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            DecodeBackend::Avx2 => {
                std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("bmi1")
            }
            #[cfg(target_arch = "x86_64")]
            DecodeBackend::Avx512 => {
                DecodeBackend::Avx2.is_available()
                    && std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("popcnt")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The backends this CPU can run.
    pub fn available() -> Vec<DecodeBackend> {
        Self::ALL.into_iter().filter(|b| b.is_available()).collect()
    }

    /// The fastest backend this CPU can run (detected once).
    #[inline]
    pub fn best() -> DecodeBackend {
        use std::sync::atomic::{AtomicU8, Ordering};
        static BEST: AtomicU8 = AtomicU8::new(u8::MAX);
        match BEST.load(Ordering::Relaxed) {
            0 => DecodeBackend::Scalar,
            1 => DecodeBackend::Avx2,
            2 => DecodeBackend::Avx512,
            _ => {
                let best = *Self::available().last().unwrap();
                BEST.store(best as u8, Ordering::Relaxed);
                best
            }
        }
    }
}

/// [`decode_words`] on a chosen backend. Panics if the CPU lacks it.
pub fn decode_words_with(backend: DecodeBackend, bytes: &[u8], out: &mut Vec<u32>) {
    assert!(backend.is_available(), "{backend:?} is not available on this CPU");
    decode_words_on(backend, bytes, out);
}

/// [`decode_words_with`] for a backend known to be available.
fn decode_words_on(backend: DecodeBackend, bytes: &[u8], out: &mut Vec<u32>) {
    let mut words = &bytes[..bytes.len() & !3];
    let count = words.len() / 4;
    // Room for about two elements a word (what Yioop's postings hold) unless
    // the caller made room already; denser input grows the vector below.
    if out.capacity() - out.len() < count {
        out.reserve(2 * count + 32);
    }
    while !words.is_empty() {
        // Each word gives at most 24 elements and the bulk decoders write at
        // most 24 lanes from a word's output position: `fit` words can be
        // decoded without checking the capacity.
        let fit = ((out.capacity() - out.len()) / 24).min(words.len() / 4);
        if fit == 0 {
            let word = u32::from_be_bytes([words[0], words[1], words[2], words[3]]);
            decode_word(word, out); // grows the vector as needed
            words = &words[4..];
            continue;
        }
        let (now, rest) = words.split_at(fit * 4);
        // SAFETY: the spare capacity holds 24 lanes for each of `fit` words,
        // and the backend is available.
        unsafe {
            let dst = out.as_mut_ptr().add(out.len());
            let written = match backend {
                DecodeBackend::Scalar => decode_bulk_scalar(now, dst),
                #[cfg(target_arch = "x86_64")]
                DecodeBackend::Avx2 => x86_decode::decode_bulk_avx2(now, dst),
                #[cfg(target_arch = "x86_64")]
                DecodeBackend::Avx512 => x86_decode::decode_bulk_avx512(now, dst),
                #[cfg(not(target_arch = "x86_64"))]
                _ => unreachable!(),
            };
            out.set_len(out.len() + written);
        }
        words = rest;
    }
}

/// [`decode_words`] into raw memory on the best backend: whole words of
/// `bytes` (a trailing partial word is ignored), returning how many elements
/// it wrote.
///
/// # Safety
/// `dst` has room for 24 elements per word of `bytes`.
pub(crate) unsafe fn decode_words_raw(bytes: &[u8], dst: *mut u32) -> usize {
    let bytes = &bytes[..bytes.len() & !3];
    if bytes.len() < SHORT_INPUT {
        #[cfg(target_arch = "x86_64")]
        if DecodeBackend::best() != DecodeBackend::Scalar {
            return x86_decode::decode_short_avx2(bytes, dst);
        }
        return decode_bulk_scalar(bytes, dst); // as in decode_words
    }
    match DecodeBackend::best() {
        DecodeBackend::Scalar => decode_bulk_scalar(bytes, dst),
        #[cfg(target_arch = "x86_64")]
        DecodeBackend::Avx2 => x86_decode::decode_bulk_avx2(bytes, dst),
        #[cfg(target_arch = "x86_64")]
        DecodeBackend::Avx512 => x86_decode::decode_bulk_avx512(bytes, dst),
        #[cfg(not(target_arch = "x86_64"))]
        _ => unreachable!(),
    }
}
