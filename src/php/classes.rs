//! Yioop's classes as the native functions find them: only classes loaded
//! already (autoloading would run PHP code the caller did not run), and
//! their static properties read silently, as `isset` would.

use super::shard::with_name;
use super::convert::bytes_zval;
use ext_php_rs::ffi::{compiler_globals, zend_class_entry, zend_hash_str_find, zend_lookup_class_ex, zend_string, zval, HashTable};
use ext_php_rs::types::{ZendObject, Zval};
use ext_php_rs::zend::ClassEntry;

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

/// PHP threw while the statics were read.
pub(super) struct Thrown;

/// The static variables of `class::method`, as
/// `ReflectionMethod::getStaticVariables` gives them (the live values, as
/// the method's next call will see them; their defaults before its first).
/// An array zval; Ok(None) where `class` has no such method (a closure's
/// scope, say).
pub(super) fn method_statics(class: &[u8], method: &str) -> Result<Option<Zval>, Thrown> {
    let exists = super::raw::call_function("method_exists", &mut [bytes_zval(class), bytes_zval(method.as_bytes())]).ok_or(Thrown)?;
    let Some(reflection_class) = ClassEntry::try_find("ReflectionMethod").filter(|_| exists.bool() == Some(true)) else {
        return Ok(None);
    };
    let reflection = ZendObject::new(reflection_class);
    reflection.try_call_method("__construct", vec![&bytes_zval(class), &method]).map_err(|_| Thrown)?;
    if super::raw::has_exception() {
        return Err(Thrown);
    }
    let statics = reflection.try_call_method("getStaticVariables", vec![]).map_err(|_| Thrown)?;
    if super::raw::has_exception() {
        return Err(Thrown);
    }
    Ok(statics.is_array().then_some(statics))
}

/// php-src's ZEND_USER_FUNCTION.
const ZEND_USER_FUNCTION: u8 = 2;

/// The static variables of the user method `lowercase_method` of `class`,
/// as its next call will see them (what `getStaticVariables` copies, read
/// in place): the live table once a call has bound them, before that the
/// defaults it will be made from. php-src's ZEND_MAP_PTR_GET, NTS: the
/// pointer is the table itself, or (odd) an offset into the compiler
/// globals' map, as opcache makes it.
pub(super) fn live_statics(class: *mut zend_class_entry, lowercase_method: &str) -> Option<&'static HashTable> {
    let functions = unsafe { &(*class).function_table };
    let slot = unsafe { zend_hash_str_find(functions, lowercase_method.as_ptr().cast(), lowercase_method.len()) };
    let function = unsafe { slot.as_ref()?.value.func.as_ref()? };
    if unsafe { function.type_ } != ZEND_USER_FUNCTION {
        return None;
    }
    let op_array = unsafe { &function.op_array };
    let map_ptr = op_array.static_variables_ptr__ptr as usize;
    let live = if map_ptr & 1 == 1 {
        unsafe { *compiler_globals.map_ptr_base.cast::<u8>().add(map_ptr).cast::<*mut HashTable>() }
    } else {
        map_ptr as *mut HashTable
    };
    unsafe { if live.is_null() { op_array.static_variables } else { live }.as_ref() }
}
