//! Yioop's classes as the native functions find them: only classes loaded
//! already (autoloading would run PHP code the caller did not run), and
//! their static properties read silently, as `isset` would.

use crate::php::runtime::ffi::{ZEND_FETCH_CLASS_NO_AUTOLOAD, ZEND_USER_FUNCTION, zend_read_static_property_ex};
use crate::php::runtime::engine::PerRequestList;
use crate::php::runtime::object::with_name;
use ext_php_rs::ffi::{compiler_globals, zend_class_constant, zend_class_entry, zend_hash_str_find, zend_lookup_class_ex, zend_op_array, zend_string, HashTable};
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;


fn lookup(name: *mut zend_string) -> Option<*mut zend_class_entry> {
    let found = unsafe { zend_lookup_class_ex(name, std::ptr::null_mut(), ZEND_FETCH_CLASS_NO_AUTOLOAD) };
    (!found.is_null()).then_some(found)
}

/// The loaded class that the PHP string `name` names.
pub fn loaded(name: &Zval) -> Option<*mut zend_class_entry> {
    lookup(std::ptr::from_ref(name.zend_str()?).cast_mut().cast::<zend_string>())
}

/// The class `name`, autoloaded where not loaded yet, as PHP code naming
/// it would (for a native function standing in for such code); None where
/// no autoloader defines it or one threw.
pub fn autoload_named(name: &'static str) -> Option<*mut zend_class_entry> {
    if let Some(found) = loaded_named(name) {
        return Some(found);
    }
    let found = with_name(name, |name| unsafe { zend_lookup_class_ex(name, std::ptr::null_mut(), 0) });
    (!found.is_null() && !crate::php::runtime::engine::has_exception()).then_some(found)
}

/// The loaded class `name`.
pub fn loaded_named(name: &'static str) -> Option<*mut zend_class_entry> {
    let key = (name.as_ptr() as usize, name.len());
    if let Some(found) = FOUND.with(|f| f.with(|found| found.iter().find(|(k, _)| *k == key).map(|(_, c)| *c))) {
        return Some(found);
    }
    let found = with_name(name, lookup)?;
    FOUND.with(|f| f.with(|kept| kept.push((key, found))));
    Some(found)
}

thread_local! {
    /// Classes found by name in this request (PHP unloads none before its
    /// end; one not loaded yet is looked up again): php-src lower-cases
    /// the name into a new string at each look-up.
    static FOUND: PerRequestList<((usize, usize), *mut zend_class_entry)> = const { PerRequestList::new() };
}

/// The class's own constant `name`, where its value is known (not an
/// expression PHP has yet to evaluate); None where it has none.
pub fn class_constant(class: &zend_class_entry, name: &str) -> Option<&'static Zval> {
    let found = unsafe { zend_hash_str_find(&class.constants_table, name.as_ptr().cast(), name.len()) };
    let constant = unsafe { found.as_ref()?.value.ptr.cast::<zend_class_constant>().as_ref()? };
    let value = unsafe { &*std::ptr::from_ref(&constant.value).cast::<Zval>() };
    (value.get_type() != DataType::ConstantExpression).then_some(value)
}

/// The class's static `$name`, through a reference; None where it has none.
pub fn static_property(scope: *mut zend_class_entry, name: &'static str) -> Option<&'static Zval> {
    let value = with_name(name, |name| unsafe { zend_read_static_property_ex(scope, name, true) });
    unsafe { value.cast::<Zval>().as_ref() }.map(Zval::dereference)
}

/// The class's static `$name`, if an array.
pub fn static_array(scope: *mut zend_class_entry, name: &'static str) -> Option<&'static HashTable> {
    static_property(scope, name)?.array()
}


/// The static variables of the user method `lowercase_method` of `class`,
/// as its next call will see them (what `ReflectionMethod::
/// getStaticVariables` copies, read in place): the live table once a call
/// has bound them, before that the defaults it will be made from (a
/// default still a constant expression stays one, not a value the callers
/// take). php-src's ZEND_MAP_PTR_GET, NTS: the pointer is the table
/// itself, or (odd) an offset into the compiler globals' map, as opcache
/// makes it (signed: PHP 8.4 also keeps slots below the map's base).
pub fn live_statics(class: *mut zend_class_entry, lowercase_method: &str) -> Option<&'static HashTable> {
    method_statics(user_method(class, lowercase_method)?)
}

/// [`live_statics`] of a method already found.
pub fn method_statics(op_array: &zend_op_array) -> Option<&'static HashTable> {
    let map_ptr = op_array.static_variables_ptr__ptr as usize;
    let live = if map_ptr & 1 == 1 {
        unsafe { *compiler_globals.map_ptr_base.cast::<u8>().offset(map_ptr as isize).cast::<*mut HashTable>() }
    } else {
        map_ptr as *mut HashTable
    };
    unsafe { if live.is_null() { op_array.static_variables } else { live }.as_ref() }
}

/// The compiled code of a class's method written in PHP (lower-case name);
/// None for an internal method or none of that name.
pub fn user_method(class: *mut zend_class_entry, lowercase_method: &str) -> Option<&'static zend_op_array> {
    let functions = unsafe { &(*class).function_table };
    let slot = unsafe { zend_hash_str_find(functions, lowercase_method.as_ptr().cast(), lowercase_method.len()) };
    let function = unsafe { slot.as_ref()?.value.func.as_ref()? };
    (unsafe { function.type_ } == ZEND_USER_FUNCTION).then(|| unsafe { &function.op_array })
}
