//! Yioop's `encodeModified9` and the choice of its fast path: scalar, or
//! AVX2 where the CPU has it (detected once). The fast path takes elements
//! in 0..2^28; from the first other element on, the faithful state machine
//! carries on from the very same state.

use super::fast_encode::{encode_fast, Handover};
use super::format::{EncodeError, ENCODE_LIMIT};
use super::reference::Encoder;
#[cfg(target_arch = "x86_64")]
use super::x86_encode;

/// Yioop's `encodeModified9`, appending to `out`: its greedy packing
/// reproduced exactly, including the quirks of its bit-length bookkeeping
/// (see the tests) and its handling of values that do not fit.
///
/// Elements in 0..2^28 (all that Yioop writes) take a fast path; from the
/// first other element on, the faithful state machine
/// ([`encode_reference`](super::encode_reference))
/// takes over from the very same state. On an error nothing is appended.
#[inline]
pub fn encode(list: &[i64], out: &mut Vec<u8>) -> Result<(), EncodeError> {
    encode_on(EncodeBackend::best(), list, out)
}

/// The implementations of [`encode`]'s fast path. Every one gives the same
/// bytes as [`encode_reference`](super::encode_reference).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodeBackend {
    /// Portable: Yioop's loop on machine integers.
    Scalar,
    /// x86-64 with AVX2 (and BMI1, LZCNT): the word lengths for 32
    /// positions at a time, then the words.
    Avx2,
}

impl EncodeBackend {
    pub const ALL: [EncodeBackend; 2] = [EncodeBackend::Scalar, EncodeBackend::Avx2];

    /// Whether this CPU can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            EncodeBackend::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            EncodeBackend::Avx2 => {
                std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("bmi1")
                    && std::is_x86_feature_detected!("lzcnt")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The backends this CPU can run.
    pub fn available() -> Vec<EncodeBackend> {
        Self::ALL.into_iter().filter(|b| b.is_available()).collect()
    }

    /// The fastest backend this CPU can run (detected once).
    #[inline]
    pub fn best() -> EncodeBackend {
        use std::sync::atomic::{AtomicU8, Ordering};
        static BEST: AtomicU8 = AtomicU8::new(u8::MAX);
        match BEST.load(Ordering::Relaxed) {
            0 => EncodeBackend::Scalar,
            1 => EncodeBackend::Avx2,
            _ => {
                let best = *Self::available().last().unwrap();
                BEST.store(best as u8, Ordering::Relaxed);
                best
            }
        }
    }
}

/// [`encode`] on a chosen backend. Panics if the CPU lacks it.
pub fn encode_with(backend: EncodeBackend, list: &[i64], out: &mut Vec<u8>) -> Result<(), EncodeError> {
    assert!(backend.is_available(), "{backend:?} is not available on this CPU");
    encode_on(backend, list, out)
}

/// [`encode_with`] for a backend known to be available.
#[inline]
fn encode_on(backend: EncodeBackend, list: &[i64], out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let start = out.len();
    // At most one word per element, and one for an empty list.
    out.reserve(4 * list.len().max(1));
    // SAFETY: the room was just reserved; the backend is available.
    let handover = unsafe {
        let dst = out.as_mut_ptr().add(start);
        match backend {
            EncodeBackend::Scalar => encode_fast(list, dst),
            #[cfg(target_arch = "x86_64")]
            EncodeBackend::Avx2 => x86_encode::encode_fast_avx2(list, dst),
            #[cfg(not(target_arch = "x86_64"))]
            _ => unreachable!(),
        }
    };
    match handover {
        Ok(words) => {
            // SAFETY: encode_fast initialised `words` words.
            unsafe { out.set_len(start + 4 * words) };
            Ok(())
        }
        Err(state) => {
            if let Some(index) = list[state.next..].iter().position(|&e| e >= ENCODE_LIMIT) {
                return Err(EncodeError::NeverTerminates { index: state.next + index });
            }
            // SAFETY: as above.
            unsafe { out.set_len(start + 4 * state.words) };
            finish_faithfully(list, state, out);
            Ok(())
        }
    }
}

/// The rest of `list`, from where the fast path stopped, through Yioop's
/// own state machine.
fn finish_faithfully(list: &[i64], state: Handover, out: &mut Vec<u8>) {
    let mut encoder = Encoder::resume(
        out,
        list[state.word_start..state.next].to_vec(),
        state.cur_len as i64,
        state.cur_size as i64,
        state.words == 0,
    );
    for &elt in &list[state.next..] {
        encoder.push(elt);
    }
    encoder.finish();
}
