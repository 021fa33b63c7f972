//! The `yioop.*` INI settings: registered at startup, read once per request.

use crate::php::runtime::engine::ini_value;
use crate::php::runtime::ffi::zend_unregister_ini_entries;
use crate::codec::backend::{Dispatch, Mode};
use crate::codec::posting::Format;
use ext_php_rs::flags::IniEntryPermission;
use ext_php_rs::zend::{IniEntryDef, IniEntryDefs};
use std::cell::Cell;
use std::ffi::CStr;

/// Set per server or per directory: a value changed mid-request could not
/// take effect until the next request, so ini_set() is refused outright.
const PER_DIR: IniEntryPermission = IniEntryPermission::PerDir.union(IniEntryPermission::System);
/// Read once, when the module starts (before a server forks its workers).
const SYSTEM: IniEntryPermission = IniEntryPermission::System;

pub const FORMAT: &CStr = c"yioop.format";
pub const OPENCL: &CStr = c"yioop.opencl";
pub const OPENCL_MIN_LENGTH: &CStr = c"yioop.opencl_min_length";
pub const OPENCL_PREFIX_MIN_LENGTH: &CStr = c"yioop.opencl_prefix_min_length";
pub const OPENCL_PROBE_TIMEOUT: &CStr = c"yioop.opencl_probe_timeout";
pub const BLOCK_CACHE_SIZE: &CStr = c"yioop.block_cache_size";
pub const COMPRESS_THREADS: &CStr = c"yioop.compress_threads";
pub const SUMMARY_CACHE_SIZE: &CStr = c"yioop.summary_cache_size";
pub const WRITTEN_CACHE_SIZE: &CStr = c"yioop.written_cache_size";

/// `yioop.compress_threads = auto`: the cores this process may run on,
/// at most this many (a queue server shares its machine with fetchers).
const AUTO_COMPRESS_THREADS_CAP: usize = 4;
/// The most threads a number may ask for.
const MAX_COMPRESS_THREADS: usize = 64;

/// Seconds; as `crate::codec::opencl::DEFAULT_PROBE_LIMIT`.
const DEFAULT_PROBE_TIMEOUT: u64 = 60;

static INI_ENTRIES: IniEntryDefs<10> = IniEntryDefs::new([
    IniEntryDef::new(FORMAT, c"2019", PER_DIR),
    IniEntryDef::new(OPENCL, c"auto", PER_DIR),
    IniEntryDef::new(OPENCL_MIN_LENGTH, crate::codec::backend::DEFAULT_MIN_LENGTH_INI, PER_DIR),
    IniEntryDef::new(OPENCL_PREFIX_MIN_LENGTH, crate::codec::backend::DEFAULT_MIN_LENGTH_INI, PER_DIR),
    IniEntryDef::new(OPENCL_PROBE_TIMEOUT, c"60", PER_DIR),
    IniEntryDef::new(BLOCK_CACHE_SIZE, c"64M", PER_DIR),
    IniEntryDef::new(COMPRESS_THREADS, c"1", PER_DIR),
    IniEntryDef::new(SUMMARY_CACHE_SIZE, c"64M", SYSTEM),
    IniEntryDef::new(WRITTEN_CACHE_SIZE, c"128M", PER_DIR),
    IniEntryDef::end(),
]);

pub fn register(module_number: i32) {
    IniEntryDef::register(INI_ENTRIES.as_slice(), module_number);
}

pub fn unregister(module_number: i32) {
    unsafe { zend_unregister_ini_entries(module_number) };
}

/// `yioop.opencl_probe_timeout`: how long the probe in a child process may
/// take before it is killed and OpenCL stays off in this process.
pub fn probe_timeout() -> std::time::Duration {
    let seconds = probe_timeout_seconds(&ini_value(OPENCL_PROBE_TIMEOUT)).unwrap_or(DEFAULT_PROBE_TIMEOUT);
    std::time::Duration::from_secs(seconds)
}

fn probe_timeout_seconds(value: &str) -> Option<u64> {
    value.trim().parse::<u64>().ok().filter(|&s| s >= 1)
}

/// A size as PHP writes one in php.ini ("64M", "512K", "1G", "0"): bytes.
fn quantity(value: &str) -> Option<usize> {
    let value = value.trim();
    let (digits, unit) = match value.char_indices().last()? {
        (i, c) if c.is_ascii_alphabetic() => (&value[..i], c.to_ascii_lowercase()),
        _ => (value, 'b'),
    };
    let shift = match unit {
        'b' => 0,
        'k' => 10,
        'm' => 20,
        'g' => 30,
        _ => return None,
    };
    let n: usize = digits.trim().parse().ok()?;
    n.checked_mul(1 << shift)
}

/// `yioop.block_cache_size`: bytes of IndexShard blocks a process keeps.
fn block_cache_bytes() -> usize {
    quantity(&ini_value(BLOCK_CACHE_SIZE)).unwrap_or(crate::index::shard::shared::DEFAULT_CACHE_BYTES)
}

/// `yioop.summary_cache_size`: bytes of summary records the processes of
/// a server keep together.
pub fn summary_cache_bytes() -> usize {
    quantity(&ini_value(SUMMARY_CACHE_SIZE)).unwrap_or(crate::index::archive::record_cache::DEFAULT_CACHE_BYTES)
}

/// `yioop.written_cache_size`: bytes of the records addObjects wrote to
/// the current archive file that a process keeps for reading them back.
pub fn written_cache_bytes() -> usize {
    quantity(&ini_value(WRITTEN_CACHE_SIZE)).unwrap_or(crate::index::archive::written::DEFAULT_KEPT_BYTES)
}

/// `yioop.compress_threads`: how many threads compress the records of one
/// `WebArchive::addObjects`: 1 (the default, and for a value not
/// understood) compresses on this thread only; `auto` is the available
/// cores, at most 4. On the development machine (2 cores) threads gained
/// no wall time and cost about 7% more CPU, so they are for machines with
/// idle cores, asked for.
pub fn compress_threads() -> usize {
    compress_threads_of(&ini_value(COMPRESS_THREADS)).unwrap_or(1)
}

fn auto_compress_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from).min(AUTO_COMPRESS_THREADS_CAP)
}

fn compress_threads_of(value: &str) -> Option<usize> {
    match value.trim() {
        "auto" => Some(auto_compress_threads()),
        n => n.parse::<usize>().ok().filter(|n| (1..=MAX_COMPRESS_THREADS).contains(n)),
    }
}

/// What one request runs with.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub format: Format,
    pub dispatch: Dispatch,
    pub block_cache_bytes: usize,
}

impl Settings {
    /// Reads the INI values; unknown ones fall back to the defaults.
    pub fn read() -> Settings {
        let format = Format::parse(&ini_value(FORMAT)).unwrap_or(Format::Y2019);
        let mode = Mode::parse(&ini_value(OPENCL)).unwrap_or(Mode::Auto);
        let dispatch = Dispatch::new(mode, length_setting(OPENCL_MIN_LENGTH))
            .with_prefix_min_length(length_setting(OPENCL_PREFIX_MIN_LENGTH));
        Settings { format, dispatch, block_cache_bytes: block_cache_bytes() }
    }
}

/// A length setting; the default (never) where it is not a count.
fn length_setting(name: &CStr) -> u64 {
    ini_value(name).trim().parse::<u64>().unwrap_or(crate::codec::backend::DEFAULT_MIN_LENGTH)
}

thread_local! {
    static CURRENT: Cell<Option<Settings>> = const { Cell::new(None) };
}

/// Called at request startup.
pub fn refresh() {
    let settings = Settings::read();
    crate::index::shard::shared::set_cache_limit(settings.block_cache_bytes);
    CURRENT.with(|c| c.set(Some(settings)));
}

/// This request's settings (read now if no request startup has run).
pub fn current() -> Settings {
    CURRENT.with(|c| {
        c.get().unwrap_or_else(|| {
            let settings = Settings::read();
            c.set(Some(settings));
            settings
        })
    })
}

/// The startup warning for a value we do not know, or None.
pub fn startup_problems() -> Vec<String> {
    let mut problems = Vec::new();
    let format = ini_value(FORMAT);
    if Format::parse(&format).is_none() {
        problems.push(format!(
            "yioop.format: unknown value '{format}', using 2019 (known: 2015, 2019)"
        ));
    }
    let mode = ini_value(OPENCL);
    if Mode::parse(&mode).is_none() {
        problems.push(format!("yioop.opencl: unknown value '{mode}', using auto (known: auto, on, off)"));
    }
    for name in [OPENCL_MIN_LENGTH, OPENCL_PREFIX_MIN_LENGTH] {
        let value = ini_value(name);
        if value.trim().parse::<u64>().is_err() {
            problems.push(format!("{}: '{value}' is not a count, using the default", name.to_string_lossy()));
        }
    }
    for (name, default) in [(BLOCK_CACHE_SIZE, "64M"), (SUMMARY_CACHE_SIZE, "64M"), (WRITTEN_CACHE_SIZE, "128M")] {
        let value = ini_value(name);
        if quantity(&value).is_none() {
            problems.push(format!("{}: '{value}' is not a size (64M, 512K, 0), using {default}", name.to_string_lossy()));
        }
    }
    let threads = ini_value(COMPRESS_THREADS);
    if compress_threads_of(&threads).is_none() {
        problems.push(format!(
            "yioop.compress_threads: '{threads}' is neither auto nor a count from 1 to {MAX_COMPRESS_THREADS}, using 1"
        ));
    }
    let timeout = ini_value(OPENCL_PROBE_TIMEOUT);
    if probe_timeout_seconds(&timeout).is_none() {
        problems.push(format!(
            "yioop.opencl_probe_timeout: '{timeout}' is not a number of seconds (1 or more), using {DEFAULT_PROBE_TIMEOUT}"
        ));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::quantity;

    #[test]
    fn reads_sizes_as_php_ini_writes_them() {
        assert_eq!(quantity("64M"), Some(64 << 20));
        assert_eq!(quantity(" 512k "), Some(512 << 10));
        assert_eq!(quantity("1G"), Some(1 << 30));
        assert_eq!(quantity("4096"), Some(4096));
        assert_eq!(quantity("0"), Some(0));
        for bad in ["", "M", "64X", "-1M", "six"] {
            assert_eq!(quantity(bad), None, "{bad}");
        }
    }
}
