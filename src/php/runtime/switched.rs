//! Whether a Yioop method that native code relies on is Yioop's own: the
//! integration tool switches a method only when its code is Yioop's, and
//! its guard line calls the method's native function. So a user method
//! whose compiled literals name that function is Yioop's method, switched;
//! one edited or replaced (a subclass, a stand-in) does not name it.

use crate::php::runtime::classes::{loaded_named, user_method};
use crate::php::runtime::engine::PerRequestList;
use ext_php_rs::ffi::zend_class_entry;
use ext_php_rs::types::Zval;


/// Whether loaded class `class`'s method `method` (lower case) calls the
/// native function `native` (lower case, without the leading `\`).
pub fn calls_native(class: &'static str, method: &'static str, native: &'static str) -> bool {
    let at = |s: &str| [s.as_ptr() as usize, s.len()];
    let key = [at(class), at(method), at(native)];
    if SWITCHED.with(|s| s.with(|found| found.contains(&key))) {
        return true;
    }
    let switched = loaded_named(class).is_some_and(|scope| method_calls(scope, method, native));
    if switched {
        SWITCHED.with(|s| s.with(|found| found.push(key)));
    }
    switched
}

/// `calls_native` for a class known only at run time (the class a
/// switched method was called on); looked at each call.
pub fn class_calls_native(scope: *mut zend_class_entry, method: &str, native: &str) -> bool {
    method_calls(scope, method, native)
}

thread_local! {
    /// The methods found switched in this request (a class's code does not
    /// change before its end; one not loaded yet is looked at again).
    static SWITCHED: PerRequestList<[[usize; 2]; 3]> = const { PerRequestList::new() };
}

fn method_calls(scope: *mut zend_class_entry, method: &str, native: &str) -> bool {
    let Some(op_array) = user_method(scope, method) else { return false };
    if op_array.literals.is_null() {
        return false;
    }
    let literals = unsafe { std::slice::from_raw_parts(op_array.literals.cast::<Zval>(), op_array.last_literal.max(0) as usize) };
    literals.iter().any(|literal| literal.zend_str().is_some_and(|s| s.as_bytes() == native.as_bytes()))
}
