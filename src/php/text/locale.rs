//! `yioop_codec\locale\parse_ini_with_fallback`: Yioop's
//! `parse_ini_with_fallback($file)` (contract: php/yioop_codec.stub.php).
//! Every request Yioop serves sets up its locale from the locale's
//! `configure.ini` (about 90 KB, 1,900 lines), and PHP's INI parser took
//! about 0.3 ms of each: a tenth of a request that finds nothing, more on
//! a multi-machine search, which is five requests. A process here keeps the
//! array PHP made of a file, as an immutable array (src/php/runtime/
//! immutable.rs), and hands it out again while the file's bytes are the
//! ones it was made from: the file is read on every call, only the parsing
//! is saved. A file is kept from its second read on: the locale a process
//! serves is read by every request, while a locale's statistics or an admin
//! page read the others once, and holding all of them costs about 10 MB a
//! process. Only texts PHP reads the same in every request are kept
//! (`php_semantics::ini`); the rest, and what Yioop does where
//! `parse_ini_file` is disabled, are left to Yioop's PHP.

use crate::php::runtime::engine::{call_function, ini_value, open_basedir_set};
use crate::php::runtime::function::{self, Param};
use crate::php::runtime::immutable::ImmutableArray;
use crate::php::runtime::zval::{bool_zval, counts_zval};
use crate::php_semantics::ini::reads_alike_everywhere;
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::io::Read;

/// Bytes of text whose arrays a process keeps: every locale Yioop ships
/// (24 files, 2.7 MB) should a process read them all again and again,
/// while the arrays (about 3.6 times their text) stay affordable.
const MAX_KEPT_BYTES: usize = 4 << 20;
/// Paths read once, remembered to keep them at the second read; past it
/// the list starts over.
const MAX_SEEN_PATHS: usize = 256;
/// Larger files are left to Yioop's PHP.
const MAX_FILE_BYTES: u64 = 4 << 20;

php_function!(PARSE_INI_WITH_FALLBACK, parse_ini_with_fallback_handler, "yioop_codec\\locale\\parse_ini_with_fallback", [Param::Value("file")], DataType::Mixed, |args| {
    let file = args.take(0).dereference();
    Ok(file.zend_str().map(|f| parsed(f.as_bytes())).unwrap_or_default())
});

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&PARSE_INI_WITH_FALLBACK, parse_ini_with_fallback_handler), (&CACHE_STATS, cache_stats_handler)])
}

struct Kept {
    bytes: Vec<u8>,
    array: ImmutableArray,
}

thread_local! {
    static KEPT: RefCell<HashMap<Vec<u8>, Kept>> = RefCell::new(HashMap::new());
    static SEEN: RefCell<HashSet<Vec<u8>>> = RefCell::new(HashSet::new());
}

/// `parse_ini_file($path, true)` as Yioop's function calls it: the kept
/// array where the file's bytes are the kept ones, else PHP's parse (kept
/// for the next call where the text reads alike everywhere); null to
/// decline.
fn parsed(path: &[u8]) -> Zval {
    let Some(file) = readable(path) else { return Zval::new() };
    let Some(bytes) = read_file(&file) else { return Zval::new() };
    let kept = KEPT.with_borrow(|kept| kept.get(path).filter(|k| k.bytes == bytes).map(|k| k.array.zval()));
    if let Some(array) = kept {
        return array;
    }
    if !reads_alike_everywhere(&bytes) {
        return Zval::new();
    }
    let Some(array) = php_parse(path) else { return Zval::new() };
    if !seen_before(path) {
        return array;
    }
    if let Some(copy) = array.array().and_then(ImmutableArray::copy_of) {
        // Kept only if the file did not change while PHP read it.
        if read_file(&file).as_deref() == Some(&bytes[..]) {
            keep(path, Kept { bytes, array: copy });
        }
    }
    array
}

/// The path, where this function may read it itself: an absolute plain
/// path (no stream wrapper, no include_path), `parse_ini_file` enabled, no
/// open_basedir to apply.
fn readable(path: &[u8]) -> Option<std::path::PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let disabled = ini_value(c"disable_functions").contains("parse_ini_file");
    let plain = path.first() == Some(&b'/') && !path.contains(&0);
    (plain && !disabled && !open_basedir_set()).then(|| std::ffi::OsStr::from_bytes(path).into())
}

/// A regular file's bytes, if it is one of at most MAX_FILE_BYTES.
fn read_file(path: &std::path::Path) -> Option<Vec<u8>> {
    let mut file = std::fs::File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return None;
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
    file.read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// PHP's own `parse_ini_file($path, true)`, warnings and all.
fn php_parse(path: &[u8]) -> Option<Zval> {
    let mut args = [crate::php::runtime::convert::bytes_zval(path), bool_zval(true)];
    call_function("parse_ini_file", &mut args)
}

/// Whether the path was read before (and is now to be kept); notes it
/// otherwise.
fn seen_before(path: &[u8]) -> bool {
    SEEN.with_borrow_mut(|seen| {
        if seen.contains(path) {
            return true;
        }
        if seen.len() >= MAX_SEEN_PATHS {
            seen.clear();
        }
        seen.insert(path.to_vec());
        false
    })
}

fn keep(path: &[u8], kept: Kept) {
    KEPT.with_borrow_mut(|all| {
        all.remove(path);
        let held: usize = all.values().map(|k| k.bytes.len()).sum();
        if held + kept.bytes.len() > MAX_KEPT_BYTES {
            all.clear(); // a site reading this much is not the case kept for
        }
        all.insert(path.to_vec(), kept);
    });
}

/// Drops every kept array (module shutdown).
pub fn forget_all() {
    KEPT.with_borrow_mut(HashMap::clear);
    SEEN.with_borrow_mut(HashSet::clear);
}

php_function!(CACHE_STATS, cache_stats_handler, "yioop_codec\\locale\\localeCacheStats", [], DataType::Array, |_args| {
    let (files, bytes) = KEPT.with_borrow(|kept| (kept.len() as u64, kept.values().map(|k| k.bytes.len() as u64).sum()));
    Ok(counts_zval(&[("files", files), ("text_bytes", bytes), ("limit_bytes", MAX_KEPT_BYTES as u64)]))
});
