//! Single zvals read and written by their type tag, as php-src's own macros
//! do. The bottom of the binding layer: it uses nothing else of it, and
//! `packed` (whole lists) and `convert` (PHP's conversion rules) build on it.

use crate::php::runtime::ffi::{GC_REFERENCE, IS_ARRAY_EX, IS_LONG, IS_REFERENCE_EX};
use ext_php_rs::ffi::{_emalloc, zend_reference};
use ext_php_rs::boxed::ZBox;
use ext_php_rs::types::{ZendHashTable, Zval};


/// An int zval's value: one tag compare, no conversion.
#[inline]
pub fn long_of(slot: &Zval) -> Option<i64> {
    unsafe { (slot.u1.type_info & 0xff == u32::from(IS_LONG)).then(|| slot.value.lval) }
}

/// An int, or a string that is an int's canonical decimal (PHP compares
/// and multiplies it as that int; the installer writes constants so).
pub fn int_like(value: &Zval) -> Option<i64> {
    long_of(value).or_else(|| crate::php_semantics::num::integer_key(value.zend_str()?.as_bytes()))
}

/// `(bool)$value` for the scalar types, null and arrays; None for an
/// object or a resource (whose conversion callers leave to PHP).
pub fn truthy(value: &Zval) -> Option<bool> {
    if value.is_null() {
        return Some(false);
    }
    if let Some(b) = value.bool() {
        return Some(b);
    }
    if let Some(i) = long_of(value) {
        return Some(i != 0);
    }
    if let Some(d) = value.double() {
        return Some(d != 0.0);
    }
    if let Some(s) = value.zend_str() {
        return Some(!matches!(s.as_bytes(), b"" | b"0"));
    }
    value.array().map(|array| array.len() > 0)
}

/// An int zval, built directly: `set_long` would first inspect the old
/// value, which a fresh zval does not have, and that dominated list building.
#[inline]
pub fn long_zval(i: i64) -> Zval {
    let mut z = Zval::new();
    z.value.lval = i;
    z.u1.type_info = u32::from(IS_LONG);
    z
}

/// A bool zval.
pub fn bool_zval(b: bool) -> Zval {
    let mut z = Zval::new();
    z.set_bool(b);
    z
}

/// An array zval owning `array`, built directly like [`long_zval`].
pub fn array_zval(array: ZBox<ZendHashTable>) -> Zval {
    if array.is_immutable() {
        let mut z = Zval::new();
        z.set_hashtable(array);
        return z;
    }
    let mut z = Zval::new();
    z.value.arr = array.into_raw();
    z.u1.type_info = IS_ARRAY_EX;
    z
}

/// `[]` as a literal gives it: PHP's shared, immutable empty array.
pub fn empty_array_zval() -> Zval {
    let mut z = Zval::new();
    z.value.arr = std::ptr::addr_of!(ext_php_rs::ffi::zend_empty_array).cast_mut();
    z.u1.type_info = u32::from(crate::php::runtime::ffi::IS_ARRAY);
    z
}

/// `['name' => count, ...]`, for the counters the extension reports
/// (its caches' statistics).
pub fn counts_zval(counts: &[(&str, u64)]) -> Zval {
    let mut out = ZendHashTable::new();
    for &(key, value) in counts {
        let _ = out.insert(key, long_zval(value as i64));
    }
    array_zval(out)
}

/// A new PHP reference holding null, for a by-reference argument (php-src's
/// ZVAL_NEW_REF): passing a plain value there would warn.
pub fn reference_zval() -> Zval {
    let mut z = Zval::new();
    unsafe {
        let r = _emalloc(std::mem::size_of::<zend_reference>()).cast::<zend_reference>();
        (*r).gc.refcount = 1;
        (*r).gc.u.type_info = GC_REFERENCE;
        std::ptr::write(std::ptr::addr_of_mut!((*r).val), Zval::new());
        (*r).sources.ptr = std::ptr::null_mut();
        z.value.ref_ = r;
        z.u1.type_info = IS_REFERENCE_EX;
    }
    z
}
