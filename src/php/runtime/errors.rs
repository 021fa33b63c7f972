//! Whether PHP raised an error (a warning, a notice, a deprecation: any
//! level, handled, suppressed with `@` or not) while native code waited on
//! PHP code: php-src tells its error observers of each one before any
//! handler sees it.

use crate::php::runtime::ffi::zend_observer_error_register;
use ext_php_rs::ffi::zend_string;
use std::cell::Cell;
use std::os::raw::c_int;

thread_local! {
    static RAISED: Cell<u64> = const { Cell::new(0) };
}

unsafe extern "C" fn count(_type: c_int, _file: *mut zend_string, _line: u32, _message: *mut zend_string) {
    RAISED.with(|raised| raised.set(raised.get() + 1));
}

/// Registers the observer: at module startup, the only time php-src takes one.
pub fn observe() {
    unsafe { zend_observer_error_register(count) }
}

/// Errors raised so far in this thread: compare two readings.
pub fn raised() -> u64 {
    RAISED.with(Cell::get)
}

/// php-src's E_FATAL_ERRORS: what `@` leaves of `error_reporting`.
const E_FATAL_ERRORS: i32 = 1 | 4 | 16 | 64 | 256 | 4096;

/// `run` as under PHP's `@`: errors short of fatal not reported (an error
/// handler still sees them, as with `@`).
pub fn silenced<R>(run: impl FnOnce() -> R) -> R {
    let eg = std::ptr::addr_of_mut!(ext_php_rs::ffi::executor_globals);
    let saved = unsafe { (*eg).error_reporting };
    unsafe { (*eg).error_reporting = saved & E_FATAL_ERRORS };
    let result = run();
    unsafe { (*eg).error_reporting = saved };
    result
}
