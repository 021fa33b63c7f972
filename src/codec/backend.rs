//! The choice between the scalar path and the OpenCL path. Results are
//! identical whichever runs; only the speed differs.
//!
//! Interface used by the PHP bindings (src/php/): `Mode::parse`,
//! `Dispatch::new`, `Dispatch::decode_words`, `Dispatch::de_delta`,
//! `Dispatch::decode_words_on_device` (whole posting lists, src/index/shard/),
//! `DEFAULT_MIN_LENGTH`, `DEFAULT_MIN_LENGTH_INI` and `opencl_status` (for
//! phpinfo).
//!
//! `On` sends every call to the device (the test mode); `Auto` only decodes
//! of at least `min_length` words and prefix sums of at least
//! `prefix_min_length` elements: the two cross over apart (on an H200 the
//! decode pays from 2^18 words, the prefix sum at no length).
//! Either way, when there is no usable context or the device fails, the call
//! runs on the scalar path and gives the same result. Without the `opencl`
//! feature every call is scalar.

use crate::codec::{delta, modified9};
use std::ffi::CStr;

/// The length from which `auto` uses OpenCL: never, by default (u64::MAX
/// means never).
///
/// Measured with `cargo bench --no-default-features --features opencl
/// --bench opencl -- --warm-up-time 1 --measurement-time 2` on the reference
/// machine (2 cores, PoCL 3.1 CPU device, no GPU), transfers included: the
/// OpenCL path was slower at every length from 4^5 to 4^12, for decode
/// (1.4x slower at best, 1M words: 29 ms vs 21 ms; 3x at 16M) and prefix sum
/// (1.4x at best, 256K elements; 3.6x at 16M), so auto stays scalar. A
/// deployment with a GPU runs `php bench/opencl-calibrate.php`, which
/// prints the `yioop.opencl_min_length` and `yioop.opencl_prefix_min_length`
/// to set. On an NVIDIA H200 (NVIDIA's OpenCL, 2026-11-26) the decode was
/// 1.8x faster from 2^18 words (0.76 ms vs 1.38 ms) and 2x at 2^22; the
/// prefix sum stayed 3-4x slower at every length up to 2^22.
pub const DEFAULT_MIN_LENGTH: u64 = u64::MAX;
/// [`DEFAULT_MIN_LENGTH`] spelled for the INI default.
pub const DEFAULT_MIN_LENGTH_INI: &CStr = c"18446744073709551615";

/// INI `yioop.opencl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// OpenCL when a device was found and the list is long enough.
    Auto,
    /// OpenCL for every call: the test mode.
    On,
    /// Never OpenCL.
    Off,
}

impl Mode {
    /// The INI spellings: auto (or empty), on/1/true/yes, off/0/false/no,
    /// any case, surrounding blanks ignored.
    pub fn parse(value: &str) -> Option<Mode> {
        // PHP's INI parser hands over `on` as "1" and `off` as "": the
        // default is "auto", so an empty value can only be an explicit off.
        match value.trim().to_ascii_lowercase().as_str() {
            "auto" => Some(Mode::Auto),
            "on" | "1" | "true" | "yes" => Some(Mode::On),
            "off" | "" | "0" | "false" | "no" | "none" => Some(Mode::Off),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mode::Auto => "auto",
            Mode::On => "on",
            Mode::Off => "off",
        }
    }
}

/// Which path a call of a given length takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dispatch {
    pub mode: Mode,
    /// Words from which `auto` decodes on the device.
    pub min_length: u64,
    /// Elements from which `auto` runs a prefix sum on the device.
    pub prefix_min_length: u64,
}

impl Default for Dispatch {
    fn default() -> Self {
        Dispatch::new(Mode::Auto, DEFAULT_MIN_LENGTH)
    }
}

impl Dispatch {
    /// One threshold for both operations.
    pub fn new(mode: Mode, min_length: u64) -> Dispatch {
        Dispatch { mode, min_length, prefix_min_length: min_length }
    }

    /// The prefix sum's own threshold.
    pub fn with_prefix_min_length(self, prefix_min_length: u64) -> Dispatch {
        Dispatch { prefix_min_length, ..self }
    }

    /// Whether a decode of `words` words should try the device. (It still
    /// runs scalar when no context can be had.)
    pub fn decodes_on_device(&self, words: usize) -> bool {
        self.wants_device(words, self.min_length)
    }

    /// Whether a prefix sum of `elements` elements should try the device.
    pub fn sums_on_device(&self, elements: usize) -> bool {
        self.wants_device(elements, self.prefix_min_length)
    }

    fn wants_device(&self, len: usize, min_length: u64) -> bool {
        match self.mode {
            Mode::Off => false,
            Mode::On => cfg!(feature = "opencl"),
            // u64::MAX (the default) means never, whatever the length.
            Mode::Auto => cfg!(feature = "opencl") && min_length != u64::MAX && len as u64 >= min_length,
        }
    }

    /// Whether some call could take the device: worth building a context
    /// for ahead of the first such call.
    pub fn may_use_device(&self) -> bool {
        self.decodes_on_device(usize::MAX) || self.sums_on_device(usize::MAX)
    }

    /// `modified9::decode_words`, on whichever path this dispatch picks.
    pub fn decode_words(&self, bytes: &[u8], out: &mut Vec<u32>) {
        #[cfg(feature = "opencl")]
        if self.decodes_on_device(bytes.len() / 4) {
            if let Ok(context) = crate::codec::opencl::context() {
                match context.decode_words(bytes, out) {
                    Ok(()) => return,
                    Err(e) => context.note_runtime_error(&e), // out is as it was
                }
            }
        }
        modified9::decode_words(bytes, out);
    }

    /// `modified9::decode_words` on the device only: true when the device
    /// decoded `bytes` (appended to `out`), false when this dispatch does
    /// not send `bytes` there, there is no context, or the device failed
    /// (`out` as it was). For callers whose scalar path is another shape.
    pub fn decode_words_on_device(&self, bytes: &[u8], out: &mut Vec<u32>) -> bool {
        #[cfg(feature = "opencl")]
        if self.decodes_on_device(bytes.len() / 4) {
            if let Ok(context) = crate::codec::opencl::context() {
                match context.decode_words(bytes, out) {
                    Ok(()) => return true,
                    Err(e) => context.note_runtime_error(&e),
                }
            }
        }
        let _ = (bytes, out);
        false
    }

    /// `delta::de_delta_list`, on whichever path this dispatch picks; on
    /// overflow, Err with the list exactly as the scalar loop leaves it.
    pub fn de_delta(&self, list: &mut [i64]) -> Result<(), usize> {
        #[cfg(feature = "opencl")]
        if list.len() >= 2 && self.sums_on_device(list.len()) {
            if let Ok(context) = crate::codec::opencl::context() {
                match context.de_delta_list(list) {
                    Ok(()) => return Ok(()),
                    // The list is untouched; the scalar loop below sums up to
                    // the same index and reports it.
                    Err(crate::codec::opencl::Error::Overflow(_)) => {}
                    Err(e) => context.note_runtime_error(&e),
                }
            }
        }
        delta::de_delta_list(list)
    }
}

/// What phpinfo shows about OpenCL in this process.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OpenClStatus {
    /// Whether the extension was built with OpenCL support.
    pub compiled: bool,
    /// Whether this process has a usable context.
    pub live: bool,
    /// Whether this process tried to make one yet (contexts are made on
    /// first use).
    pub tried: bool,
    pub platform: Option<String>,
    pub device: Option<String>,
    pub device_type: Option<&'static str>,
    pub compute_units: Option<u32>,
    /// How the probe in a child process went before the context was made.
    pub probe: Option<String>,
    /// Why there is no context, or the last run-time failure of a live one.
    pub reason: Option<String>,
    /// Device calls that failed at run time and ran scalar instead.
    pub runtime_errors: u64,
}

/// The OpenCL state of this process. With `create`, makes the context first
/// if this process has not tried yet (which may take a moment: it compiles
/// the kernels); without, only reports.
pub fn opencl_status(create: bool) -> OpenClStatus {
    #[cfg(feature = "opencl")]
    {
        use crate::codec::opencl::{self, State};
        if create {
            let _ = opencl::context();
        }
        let mut status = OpenClStatus { compiled: true, ..OpenClStatus::default() };
        match opencl::state() {
            State::NotCreated => {}
            State::Failed(reason) => {
                status.tried = true;
                status.reason = Some(reason);
            }
            State::Live(info) => {
                status.tried = true;
                status.live = true;
                status.platform = Some(info.platform);
                status.device = Some(info.device);
                status.device_type = Some(info.device_type);
                status.compute_units = Some(info.compute_units);
                status.probe = Some(info.probe);
                status.runtime_errors = info.runtime_errors;
                status.reason = info.last_error;
            }
        }
        status
    }
    #[cfg(not(feature = "opencl"))]
    {
        let _ = create;
        OpenClStatus {
            reason: Some("built without the opencl feature".into()),
            ..OpenClStatus::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_from_ini_spellings() {
        for (text, mode) in [
            ("auto", Mode::Auto),
            ("", Mode::Off),
            (" AUTO ", Mode::Auto),
            ("on", Mode::On),
            ("1", Mode::On),
            ("True", Mode::On),
            ("yes", Mode::On),
            ("off", Mode::Off),
            ("0", Mode::Off),
            ("false", Mode::Off),
            ("No", Mode::Off),
        ] {
            assert_eq!(Mode::parse(text), Some(mode), "{text:?}");
            assert_eq!(Mode::parse(mode.name()), Some(mode));
        }
        assert_eq!(Mode::parse("gpu"), None);
    }

    #[test]
    fn ini_default_spells_the_constant() {
        assert_eq!(DEFAULT_MIN_LENGTH_INI.to_str().unwrap().parse::<u64>(), Ok(DEFAULT_MIN_LENGTH));
    }

    #[test]
    fn auto_uses_the_device_only_from_min_length() {
        let d = Dispatch::new(Mode::Auto, 100);
        assert!(!d.decodes_on_device(99) && !d.sums_on_device(99));
        assert_eq!(d.decodes_on_device(100), cfg!(feature = "opencl"));
        assert_eq!(d.sums_on_device(100), cfg!(feature = "opencl"));
        assert!(!Dispatch::new(Mode::Off, 0).decodes_on_device(1 << 30));
        assert_eq!(Dispatch::new(Mode::On, u64::MAX).sums_on_device(0), cfg!(feature = "opencl"));
        assert!(!Dispatch::default().may_use_device());
    }

    #[test]
    fn the_prefix_sum_has_its_own_threshold() {
        // As on an H200: the decode pays from 2^18 words, the prefix sum never.
        let d = Dispatch::new(Mode::Auto, 1 << 18).with_prefix_min_length(u64::MAX);
        assert_eq!(d.decodes_on_device(1 << 18), cfg!(feature = "opencl"));
        assert!(!d.sums_on_device(usize::MAX));
        assert_eq!(d.may_use_device(), cfg!(feature = "opencl"));
        let sums_only = Dispatch::new(Mode::Auto, u64::MAX).with_prefix_min_length(10);
        assert!(!sums_only.decodes_on_device(usize::MAX));
        assert_eq!(sums_only.sums_on_device(10), cfg!(feature = "opencl"));
        assert_eq!(sums_only.may_use_device(), cfg!(feature = "opencl"));
        // `on` ignores both.
        assert_eq!(Dispatch::new(Mode::On, u64::MAX).with_prefix_min_length(u64::MAX).sums_on_device(2), cfg!(feature = "opencl"));
    }

    #[test]
    fn off_is_the_scalar_path() {
        let d = Dispatch::new(Mode::Off, 0);
        let mut out = Vec::new();
        d.decode_words(&[0x3f, 0, 0, 0x05, 0, 0, 0, 7], &mut out);
        let mut expected = Vec::new();
        modified9::decode_words(&[0x3f, 0, 0, 0x05, 0, 0, 0, 7], &mut expected);
        assert_eq!(out, expected);
        let mut list = vec![i64::MAX - 1, 1, 1];
        assert_eq!(d.de_delta(&mut list), Err(2));
        assert_eq!(list, [i64::MAX - 1, i64::MAX, 1]);
    }
}
