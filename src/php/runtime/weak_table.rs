//! Native state kept per PHP object, in a table PHP empties of an object
//! when the object is freed (`zend_weakrefs_hash_add`): the shard and
//! dictionary objects read natively each have one. Values are `Rc<T>`s held
//! through `Rc::into_raw`; the table itself is persistent, made on first
//! use and freed at the module's shutdown.

use crate::php::runtime::ffi::{IS_PTR, ZEND_MM_ALIGNMENT_LOG2, _zend_hash_init, zend_hash_destroy, zend_weakrefs_hash_add, zend_weakrefs_hash_del};
use ext_php_rs::ffi::{zend_hash_clean, zend_hash_index_find, zend_object, zend_ulong, zval, HashTable};
use ext_php_rs::types::Zval;
use std::marker::PhantomData;
use std::rc::Rc;
use std::sync::atomic::{AtomicPtr, Ordering};

pub struct WeakTable<T> {
    table: AtomicPtr<HashTable>,
    _values: PhantomData<fn() -> T>,
}

unsafe extern "C" fn drop_value<T>(value: *mut zval) {
    drop(Rc::from_raw((*value).value.ptr.cast::<T>()));
}

impl<T> WeakTable<T> {
    pub const fn new() -> Self {
        Self { table: AtomicPtr::new(std::ptr::null_mut()), _values: PhantomData }
    }

    fn table(&self) -> *mut HashTable {
        let table = self.table.load(Ordering::Acquire);
        if !table.is_null() {
            return table;
        }
        let table = Box::into_raw(Box::new(unsafe { std::mem::zeroed::<HashTable>() }));
        unsafe { _zend_hash_init(table, 8, Some(drop_value::<T>), true) };
        self.table.store(table, Ordering::Release);
        table
    }

    /// The state kept for `object`, if any.
    pub fn get(&self, object: *mut zend_object) -> Option<Rc<T>> {
        let key = (object as usize >> ZEND_MM_ALIGNMENT_LOG2) as zend_ulong;
        let found = unsafe { zend_hash_index_find(self.table(), key).as_ref() }?;
        let state = unsafe { found.value.ptr }.cast::<T>();
        unsafe { Rc::increment_strong_count(state) };
        Some(unsafe { Rc::from_raw(state) })
    }

    pub fn add(&self, object: *mut zend_object, state: &Rc<T>) {
        let mut value = Zval::new();
        value.value.ptr = Rc::into_raw(state.clone()).cast_mut().cast();
        value.u1.type_info = u32::from(IS_PTR);
        let added = unsafe { zend_weakrefs_hash_add(self.table(), object, std::ptr::from_mut(&mut value).cast()) };
        if added.is_null() {
            unsafe { drop_value::<T>(std::ptr::from_mut(&mut value).cast()) };
        }
    }

    /// Takes `object`'s state out of the table.
    pub fn remove(&self, object: *mut zend_object) -> Option<Rc<T>> {
        let state = self.get(object)?;
        unsafe { zend_weakrefs_hash_del(self.table(), object) };
        Some(state)
    }

    /// Forgets every object: at each request's start, since PHP's weak
    /// references are per request and a fast shutdown frees objects
    /// without telling them.
    pub fn clear(&self) {
        unsafe { zend_hash_clean(self.table()) };
    }

    /// Frees the table, at the module's shutdown.
    pub fn release(&self) {
        let table = self.table.swap(std::ptr::null_mut(), Ordering::AcqRel);
        if !table.is_null() {
            unsafe { zend_hash_destroy(table) };
            drop(unsafe { Box::from_raw(table) });
        }
    }
}
