//! An object's properties, read and written as PHP's `$this->name` does,
//! by names made into PHP strings once per process.

use crate::php::runtime::convert::{type_error, type_name, Fallible};
use crate::php::runtime::ffi::{zend_read_property_ex, zend_update_property_ex};
use ext_php_rs::boxed::ZBox;
use ext_php_rs::ffi::{zend_object, zend_string, zval};
use ext_php_rs::types::{ZendObject, ZendStr, Zval};
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// Property names as persistent PHP strings, made once per process and
/// kept by the address of the name's `&'static str`: PHP's by-name property
/// functions build and hash the name on every read. A small open-addressing
/// table of atomics (no thread-local look-up on this path); a name that
/// finds no free slot is made for the call alone.
const NAME_SLOTS: usize = 256;
static NAME_KEYS: [AtomicUsize; NAME_SLOTS] = [const { AtomicUsize::new(0) }; NAME_SLOTS];
static NAME_STRINGS: [AtomicPtr<zend_string>; NAME_SLOTS] = [const { AtomicPtr::new(std::ptr::null_mut()) }; NAME_SLOTS];

/// `name` as a PHP string, and whether it is a call's own (to be freed).
fn property_name(name: &'static str) -> (*mut zend_string, bool) {
    let key = name.as_ptr() as usize;
    let start = (key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) as usize >> 56;
    for probe in 0..NAME_SLOTS {
        let slot = (start + probe) % NAME_SLOTS;
        match NAME_KEYS[slot].load(Ordering::Acquire) {
            k if k == key => return (NAME_STRINGS[slot].load(Ordering::Acquire), false),
            0 => {
                let made: *mut zend_string = ZBox::into_raw(ZendStr::new(name, true)).cast();
                NAME_STRINGS[slot].store(made, Ordering::Release);
                NAME_KEYS[slot].store(key, Ordering::Release);
                return (made, false);
            }
            _ => {}
        }
    }
    (ZBox::into_raw(ZendStr::new(name, false)).cast(), true)
}

/// Runs `with` on `name` as a PHP string.
pub fn with_name<R>(name: &'static str, with: impl FnOnce(*mut zend_string) -> R) -> R {
    let (string, own) = property_name(name);
    let result = with(string);
    if own {
        drop(unsafe { ZBox::from_raw(string.cast::<ZendStr>()) });
    }
    result
}

/// An object whose properties a binding reads and writes as PHP's
/// `$this->name` does.
pub struct Object<'a>(pub &'a mut ZendObject);

impl<'a> Object<'a> {
    /// The object as php-src's functions take it.
    pub fn as_ptr(&mut self) -> *mut zend_object {
        std::ptr::from_mut(self.0).cast()
    }

    pub fn of(value: &'a mut Zval, function: &str) -> Fallible<Object<'a>> {
        let value = value.dereference_mut();
        if !value.is_object() {
            return Err(type_error(format!(
                "{function}(): Argument #1 ($shard) must be of type object, {} given",
                type_name(value)
            )));
        }
        Ok(Object(value.object_mut().expect("checked above")))
    }

    /// A property's value, references followed: what `$this->name` reads.
    pub fn property(&self, name: &'static str) -> Option<&Zval> {
        self.property_ptr(name).map(|p| unsafe { &*p }.dereference())
    }

    fn property_ptr(&self, name: &'static str) -> Option<*mut Zval> {
        let object = self.0 as *const ZendObject as *mut zend_object;
        let mut rv = Zval::new();
        let found = with_name(name, |name| unsafe { zend_read_property_ex((*object).ce, object, name, true, &mut rv as *mut Zval as *mut zval) });
        // Declared and dynamic properties are read in place; anything PHP
        // had to build in `rv` (magic __get) is not a shard field.
        // An undefined property reads as PHP's shared uninitialized zval.
        let undefined = unsafe { std::ptr::addr_of_mut!(ext_php_rs::ffi::executor_globals.uninitialized_zval) };
        if found.is_null() || std::ptr::eq(found.cast::<Zval>(), &rv) || found == undefined {
            return None;
        }
        Some(found.cast::<Zval>())
    }

    /// A declared property's slot, for writing in place (references
    /// followed). None for anything else: a dynamic property, or an unset
    /// one, which PHP reads from a shared global.
    pub fn property_slot(&mut self, name: &'static str) -> Option<&mut Zval> {
        self.declared_ptr(name).map(|slot| unsafe { &mut *slot }.dereference_mut())
    }

    /// Where a declared property sits in the object (it never moves while
    /// the object lives), references not followed; None for anything else.
    pub fn declared_ptr(&mut self, name: &'static str) -> Option<*mut Zval> {
        let found = self.property_ptr(name)?;
        let object = std::ptr::from_mut(self.0).cast::<zend_object>();
        let declared = unsafe {
            let first = (*object).properties_table.as_mut_ptr().cast::<Zval>();
            let count = (*(*object).ce).default_properties_count as usize;
            found >= first && found < first.add(count)
        };
        declared.then_some(found)
    }

    /// `$this->name = $value` (through a reference, as PHP assigns).
    pub fn set_property(&mut self, name: &'static str, mut value: Zval) {
        let object = self.0 as *mut ZendObject as *mut zend_object;
        with_name(name, |name| unsafe { zend_update_property_ex((*object).ce, object, name, std::ptr::from_mut(&mut value).cast()) });
    }
}
