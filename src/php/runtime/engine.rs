//! Calling back into PHP: its functions, its constants, its pending exception.

use crate::php::runtime::convert::bytes_zval;
use crate::php::runtime::ffi::zend_get_constant_str;
use ext_php_rs::types::Zval;

/// Whether a PHP exception is pending (a called function threw).
pub fn has_exception() -> bool {
    unsafe { !ext_php_rs::ffi::executor_globals.exception.is_null() }
}

/// A defined constant's value (fully qualified name), through a reference;
/// None for an undefined one.
pub fn constant(full: &str) -> Option<&'static Zval> {
    let found = unsafe { zend_get_constant_str(full.as_ptr().cast(), full.len()) };
    unsafe { found.cast::<Zval>().as_ref() }.map(Zval::dereference)
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
