//! Calling back into PHP: its functions, its constants, its INI values, its
//! pending exception.

use crate::php::runtime::convert::bytes_zval;
use crate::php::runtime::ffi::{php_stat, zend_get_constant_str, zend_ini_string_ex, FS_EXISTS, FS_SIZE};
use crate::php::runtime::zval::long_of;
use std::ffi::CStr;
use std::os::raw::c_int;
use ext_php_rs::types::{ZendStr, Zval};

/// Whether a PHP exception is pending (a called function threw).
pub fn has_exception() -> bool {
    unsafe { !ext_php_rs::ffi::executor_globals.exception.is_null() }
}

thread_local! {
    /// Which request this process is in (counted at each request's start).
    static REQUEST: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts a request's start: values kept [`PerRequest`] are read again,
/// and lists kept [`PerRequestList`] start empty.
pub fn next_request() {
    REQUEST.with(|r| r.set(r.get() + 1));
}

/// Which request this process is in: a new number at each request's start.
pub fn request() -> u64 {
    REQUEST.with(std::cell::Cell::get)
}

/// A value read from PHP once a request and kept for the rest of it: what
/// cannot change before the request ends (a defined constant's value).
/// Kept in a thread-local.
pub struct PerRequest<T: Copy>(std::cell::Cell<Option<(u64, T)>>);

impl<T: Copy> PerRequest<T> {
    pub const fn new() -> PerRequest<T> {
        PerRequest(std::cell::Cell::new(None))
    }

    /// The value kept in this request, else `read`'s (kept where Some).
    pub fn get_or<E>(&self, read: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        let now = REQUEST.with(std::cell::Cell::get);
        if let Some((_, value)) = self.0.get().filter(|(at, _)| *at == now) {
            return Ok(value);
        }
        let value = read()?;
        self.0.set(Some((now, value)));
        Ok(value)
    }
}

/// What a native function found in this request and keeps for the rest of
/// it (classes by name, methods found switched), emptied at its first use
/// in a later request. Kept in a thread-local.
pub struct PerRequestList<T>(std::cell::RefCell<(u64, Vec<T>)>);

impl<T> PerRequestList<T> {
    pub const fn new() -> PerRequestList<T> {
        PerRequestList(std::cell::RefCell::new((0, Vec::new())))
    }

    /// Runs `with` on this request's list.
    pub fn with<R>(&self, with: impl FnOnce(&mut Vec<T>) -> R) -> R {
        let now = REQUEST.with(std::cell::Cell::get);
        let mut kept = self.0.borrow_mut();
        if kept.0 != now {
            *kept = (now, Vec::new());
        }
        with(&mut kept.1)
    }
}

/// A defined constant's value (fully qualified name), through a reference;
/// None for an undefined one.
pub fn constant(full: &str) -> Option<&'static Zval> {
    let found = unsafe { zend_get_constant_str(full.as_ptr().cast(), full.len()) };
    unsafe { found.cast::<Zval>().as_ref() }.map(Zval::dereference)
}

/// Whether PHP's function table holds `lowercase_name` (a function's
/// fully qualified name, lower case, without a leading backslash): one
/// hash lookup, no autoloading, no call.
pub fn function_exists(lowercase_name: &str) -> bool {
    unsafe {
        let table = ext_php_rs::ffi::executor_globals.function_table;
        !table.is_null() && !ext_php_rs::ffi::zend_hash_str_find(table, lowercase_name.as_ptr().cast(), lowercase_name.len()).is_null()
    }
}

/// Calls PHP's function `name` (`Class::method` for a static method);
/// None where it could not be called or threw.
pub fn call_function(name: &str, args: &mut [Zval]) -> Option<Zval> {
    let mut function = bytes_zval(name.as_bytes());
    let mut result = Zval::new();
    let status = unsafe {
        ext_php_rs::ffi::_call_user_function_impl(
            std::ptr::null_mut(),
            &mut function,
            &mut result,
            args.len() as u32,
            args.as_mut_ptr(),
            std::ptr::null_mut(),
        )
    };
    (status >= 0 && !has_exception()).then_some(result)
}

/// Calls the callable `callable` (a name, a Closure, an array callable);
/// None where it could not be called or threw.
pub fn call_value(callable: &mut Zval, args: &mut [Zval]) -> Option<Zval> {
    let mut result = Zval::new();
    let status = unsafe {
        ext_php_rs::ffi::_call_user_function_impl(std::ptr::null_mut(), callable, &mut result, args.len() as u32, args.as_mut_ptr(), std::ptr::null_mut())
    };
    (status >= 0 && !has_exception()).then_some(result)
}

/// `$object->name(...$args)`, as PHP code calling the public method would;
/// None where it could not be called or threw.
pub fn call_method(object: &mut Zval, name: &str, args: &mut [Zval]) -> Option<Zval> {
    let mut function = bytes_zval(name.as_bytes());
    let mut result = Zval::new();
    let status = unsafe {
        ext_php_rs::ffi::_call_user_function_impl(object, &mut function, &mut result, args.len() as u32, args.as_mut_ptr(), std::ptr::null_mut())
    };
    (status >= 0 && !has_exception()).then_some(result)
}

/// The limit PCRE gets from a `pcre.*_limit` string: PHP parses it as a
/// zend_long and hands PCRE `(uint32_t)` of it, so "4294967316" is 20.
/// Only plain decimal strings are read (PHP 8.2 also takes quantities such
/// as "1M", octal "010", signs); None for the rest: the caller takes its
/// cautious path.
pub fn pcre_limit(text: &[u8]) -> Option<u32> {
    let plain = !text.is_empty() && text.len() <= 18 && text.iter().all(u8::is_ascii_digit) && (text[0] != b'0' || text.len() == 1);
    if !plain {
        return None;
    }
    let value: i64 = std::str::from_utf8(text).ok()?.parse().ok()?;
    Some(value as u32) // truncated to 32 bits, as php_pcre.c does
}

/// Whether `open_basedir` limits the files PHP may open: a native read of
/// a path then declines, leaving PHP to apply it.
pub fn open_basedir_set() -> bool {
    let dirs = unsafe { ext_php_rs::ffi::core_globals.open_basedir };
    !dirs.is_null() && unsafe { *dirs } != 0
}

/// Whether PHP opens `path` as a plain file and a native read of it needs
/// no `open_basedir` check: no NUL byte (PHP refuses those), no
/// `scheme://` (a stream wrapper; any `://` counts, a superset) and no
/// leading `data:` (RFC 2397's wrapper, which needs no `//`), with
/// `open_basedir` unset. Otherwise a native read declines.
pub fn plain_file_path(path: &[u8]) -> bool {
    !path.contains(&0) && !path.starts_with(b"data:") && !path.windows(3).any(|w| w == b"://") && !open_basedir_set()
}

/// `file_exists($path)`. For a plain file path PHP's stat only asks the
/// kernel (`VCWD_ACCESS(path, F_OK)`, which is `access` itself where PHP is
/// built without ZTS's virtual working directory): so does this, without
/// the wrapper look-up and a string a call. Else through PHP's own stat.
pub fn file_exists(path: &[u8]) -> bool {
    if plain_file_path(path) && !thread_safe_php() {
        return ACCESS_PATH.with_borrow_mut(|c_path| {
            c_path.clear();
            c_path.extend_from_slice(path);
            c_path.push(0);
            unsafe { libc::access(c_path.as_ptr().cast(), libc::F_OK) == 0 }
        });
    }
    php_stat_of(path, FS_EXISTS).bool().unwrap_or(false)
}

thread_local! {
    static ACCESS_PATH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// PHP's `PHP_ZTS`: a thread-safe build resolves paths against a virtual
/// working directory of its own.
fn thread_safe_php() -> bool {
    static ZTS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ZTS.get_or_init(|| constant("PHP_ZTS").and_then(long_of).is_none_or(|zts| zts != 0))
}

/// `filesize($path)` where it is an int, through PHP's own stat.
pub fn file_size(path: &[u8]) -> Option<i64> {
    long_of(&php_stat_of(path, FS_SIZE))
}

fn php_stat_of(path: &[u8], kind: c_int) -> Zval {
    let name = ZendStr::new(path, false);
    let mut out = Zval::new();
    unsafe { php_stat(std::ptr::from_ref::<ZendStr>(&name).cast_mut().cast(), kind, std::ptr::from_mut(&mut out).cast()) };
    out
}

/// The current value of an INI entry, as `ini_get` reads it (empty for
/// an entry that does not exist).
pub fn ini_value(name: &CStr) -> String {
    with_ini_bytes(name, |value| String::from_utf8_lossy(value).into_owned())
}

/// `read` of an INI entry's current bytes, borrowed (empty for an entry
/// that does not exist).
pub fn with_ini_bytes<R>(name: &CStr, read: impl FnOnce(&[u8]) -> R) -> R {
    let mut exists = false;
    let value = unsafe { zend_ini_string_ex(name.as_ptr(), name.count_bytes(), 0, &mut exists) };
    if value.is_null() {
        return read(b"");
    }
    read(unsafe { CStr::from_ptr(value) }.to_bytes())
}

/// The limit PCRE gets from the `pcre.*_limit` INI entry `name` now.
pub fn pcre_ini_limit(name: &CStr) -> Option<u32> {
    with_ini_bytes(name, pcre_limit)
}

/// Whether `pcre.backtrack_limit` and `pcre.recursion_limit` are now at
/// least these: where a native match stands in for PCRE's search only
/// while PCRE would not run out of steps first.
pub fn pcre_limits_at_least(backtrack: u32, recursion: u32) -> bool {
    let at_least = |name: &CStr, floor: u32| pcre_ini_limit(name).is_some_and(|v| v >= floor);
    at_least(c"pcre.backtrack_limit", backtrack) && at_least(c"pcre.recursion_limit", recursion)
}
