//! Yioop's classes as the native functions find them: only classes loaded
//! already (autoloading would run PHP code the caller did not run), and
//! their static properties read silently, as `isset` would.

use super::shard::with_name;
use ext_php_rs::ffi::{zend_class_entry, zend_lookup_class_ex, zend_string, zval, HashTable};
use ext_php_rs::types::Zval;

extern "C" {
    fn zend_read_static_property_ex(scope: *mut zend_class_entry, name: *mut zend_string, silent: bool) -> *mut zval;
}

/// php-src's ZEND_FETCH_CLASS_NO_AUTOLOAD.
const ZEND_FETCH_CLASS_NO_AUTOLOAD: u32 = 0x80;

fn lookup(name: *mut zend_string) -> Option<*mut zend_class_entry> {
    let found = unsafe { zend_lookup_class_ex(name, std::ptr::null_mut(), ZEND_FETCH_CLASS_NO_AUTOLOAD) };
    (!found.is_null()).then_some(found)
}

/// The loaded class that the PHP string `name` names.
pub(super) fn loaded(name: &Zval) -> Option<*mut zend_class_entry> {
    lookup(std::ptr::from_ref(name.zend_str()?).cast_mut().cast::<zend_string>())
}

/// The loaded class `name`.
pub(super) fn loaded_named(name: &'static str) -> Option<*mut zend_class_entry> {
    with_name(name, lookup)
}

/// The class's static `$name`, through a reference; None where it has none.
pub(super) fn static_property(scope: *mut zend_class_entry, name: &'static str) -> Option<&'static Zval> {
    let value = with_name(name, |name| unsafe { zend_read_static_property_ex(scope, name, true) });
    unsafe { value.cast::<Zval>().as_ref() }.map(Zval::dereference)
}

/// The class's static `$name`, if an array.
pub(super) fn static_array(scope: *mut zend_class_entry, name: &'static str) -> Option<&'static HashTable> {
    static_property(scope, name)?.array()
}
