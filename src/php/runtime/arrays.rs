//! Packed PHP arrays (lists) read and written in place, as php-src's
//! ZEND_HASH_FILL_PACKED and ZEND_HASH_PACKED_FOREACH do. Going through
//! zend_hash_next_index_insert per element costs more than decoding does.

use crate::php::runtime::ffi::{HASH_FLAG_PACKED, zend_hash_real_init_packed, zend_new_pair};
use crate::php::runtime::zval::array_zval;
use ext_php_rs::boxed::ZBox;
use ext_php_rs::ffi::{_zend_new_array, zend_array_dup, HashTable};
use ext_php_rs::types::{ZendHashTable, Zval};
use std::ptr;


/// The list `[first, second]` in php-src's one-step constructor for pairs.
pub fn pair_of(first: Zval, second: Zval) -> ZBox<ZendHashTable> {
    let mut first = std::mem::ManuallyDrop::new(first);
    let mut second = std::mem::ManuallyDrop::new(second);
    // zend_new_pair moves both values into the array: they must not be dropped here.
    unsafe { ZBox::from_raw(zend_new_pair(&mut *first, &mut *second).cast::<ZendHashTable>()) }
}

/// A new list of `len` elements, `value(i)` for each index. A zero-length
/// list is the ordinary empty array.
pub fn list_of(len: usize, mut value: impl FnMut(usize) -> Zval) -> ZBox<ZendHashTable> {
    if len == 0 {
        return ZendHashTable::new();
    }
    let len32 = u32::try_from(len).expect("PHP arrays hold fewer than 2^32 elements");
    unsafe {
        let ht = _zend_new_array(len32);
        zend_hash_real_init_packed(ht);
        let slots = (*ht).__bindgen_anon_1.arPacked;
        for i in 0..len {
            // The slots are fresh memory: write, never assign (no old value to drop).
            ptr::write(slots.add(i).cast::<Zval>(), value(i));
        }
        (*ht).nNumUsed = len32;
        (*ht).nNumOfElements = len32;
        (*ht).nNextFreeElement = i64::from(len32);
        ZBox::from_raw(ht.cast::<ZendHashTable>())
    }
}

/// The elements of a list keyed 0..n-1 without holes, in order, or None for
/// any other array (hash arrays, lists with holes).
pub fn slots(array: &ZendHashTable) -> Option<&[Zval]> {
    let ht: *const HashTable = ptr::from_ref(array).cast();
    unsafe {
        let packed = (*ht).u.flags & HASH_FLAG_PACKED != 0;
        if !packed || (*ht).nNumUsed != (*ht).nNumOfElements {
            return None;
        }
        let len = (*ht).nNumUsed as usize;
        if len == 0 {
            return Some(&[]);
        }
        Some(std::slice::from_raw_parts((*ht).__bindgen_anon_1.arPacked.cast::<Zval>(), len))
    }
}

/// [`slots`], writable. The array must already be separated (not shared).
pub fn slots_mut(array: &mut ZendHashTable) -> Option<&mut [Zval]> {
    let len = slots(array)?.len();
    if len == 0 {
        return Some(&mut []);
    }
    let ht: *mut HashTable = ptr::from_mut(array).cast();
    unsafe { Some(std::slice::from_raw_parts_mut((*ht).__bindgen_anon_1.arPacked.cast::<Zval>(), len)) }
}

/// Whether writing to `array` would first have to copy it.
pub fn is_shared(array: &ZendHashTable) -> bool {
    let ht: *const HashTable = ptr::from_ref(array).cast();
    array.is_immutable() || unsafe { (*ht).gc.refcount > 1 }
}

/// The array in `value`, ready to write: a shared or immutable array is
/// first replaced by a copy of its own, as PHP's SEPARATE_ARRAY does.
/// (ext-php-rs's `array_mut` copies immutable arrays into a zval not marked
/// refcounted, which PHP then never frees.)
pub fn separate(value: &mut Zval) -> Option<&mut ZendHashTable> {
    let array = value.array()?;
    if is_shared(array) {
        let ht: *const HashTable = ptr::from_ref(array).cast();
        let copy = unsafe { ZBox::from_raw(zend_array_dup(ht.cast_mut()).cast::<ZendHashTable>()) };
        *value = array_zval(copy);
    }
    value.array_mut()
}

/// Zvals per 64-byte cache line.
pub const SLOTS_PER_LINE: usize = 4;

/// Asks for the line a few pages past slot `i`: a long in-place pass runs
/// at the hardware prefetcher's pace otherwise, about 1.5x slower once the
/// list is out of L2 (measured on 10^6 and 4·10^6 slots).
#[inline]
pub fn prefetch_ahead(slots: &[Zval], i: usize) {
    const DISTANCE: usize = 256; // slots: 4 KiB
    // A prefetch never faults, so running past the end is harmless.
    crate::index::prefetch::prefetch(slots.as_ptr().wrapping_add(i + DISTANCE));
}

/// Overwrites an int slot's value in place (the slot must hold an int).
#[inline]
pub fn set_long_in_place(slot: &mut Zval, value: i64) {
    slot.value.lval = value;
}
