//! Prefetching for runs of look-ups in large PHP hash arrays.
//!
//! A look-up in php-src's HashTable touches three places in turn: the hash
//! slot, the bucket it names, and the bucket's key (then the value). Once
//! an array outgrows the L2 cache (a shard's `words` does) each is a cache
//! miss the next one waits for: about 300 ns a look-up, measured. Knowing
//! the keys ahead, these issue each step a few keys early, so the misses of
//! several look-ups overlap. They are hints only: nothing here changes an
//! array, and the one reads they make (slot and bucket) are of live memory
//! of the array as it is now.

use crate::index::prefetch::prefetch;
use crate::php::runtime::ffi::{HASH_FLAG_PACKED, HASH_FLAG_UNINITIALIZED, IS_STRING};
use ext_php_rs::ffi::{Bucket, HashTable};

/// An array without a hash part.
const NO_HASH: u32 = HASH_FLAG_PACKED | HASH_FLAG_UNINITIALIZED;


/// How many keys ahead each step runs: slot, bucket, key and value, and
/// the end of a string value (where `.=` writes).
const SLOT_AHEAD: usize = 12;
const BUCKET_AHEAD: usize = 6;
const KEY_AHEAD: usize = 3;
const TAIL_AHEAD: usize = 1;


/// The hash slot of `h` in `ht`, or None for an array without a hash part.
unsafe fn slot(ht: *const HashTable, h: u64) -> Option<*const u32> {
    if (*ht).u.flags & NO_HASH != 0 {
        return None;
    }
    // HT_HASH_EX: slots sit before the buckets, indexed by (int32)(h | mask).
    let index = (h as u32 | (*ht).nTableMask) as i32;
    Some((*ht).__bindgen_anon_1.arHash.cast_const().offset(index as isize))
}

/// The bucket a slot names, if it is in use.
unsafe fn bucket(ht: *const HashTable, slot: *const u32) -> Option<*const Bucket> {
    let idx = *slot;
    (idx < (*ht).nNumUsed).then(|| (*ht).__bindgen_anon_1.arData.cast_const().add(idx as usize))
}

/// Prefetches for look-up `i` of the keys whose hashes are `hashes`
/// (php-src's, as `zend_string_hash_func` gives them) in `tables`: call
/// once per key, in order, before looking it up.
pub unsafe fn ahead(tables: &[*mut HashTable], hashes: &[u64], i: usize) {
    for &ht in tables {
        if let Some(&h) = hashes.get(i + SLOT_AHEAD) {
            if let Some(s) = slot(ht, h) {
                prefetch(s);
            }
        }
        if let Some(&h) = hashes.get(i + BUCKET_AHEAD) {
            if let Some(b) = slot(ht, h).and_then(|s| bucket(ht, s)) {
                prefetch(b);
            }
        }
        if let Some(&h) = hashes.get(i + KEY_AHEAD) {
            if let Some(b) = slot(ht, h).and_then(|s| bucket(ht, s)) {
                if (*b).h == h {
                    prefetch((*b).key);
                    if (*b).val.u1.v.type_ == IS_STRING {
                        prefetch((*b).val.value.str_);
                    }
                }
            }
        }
        if let Some(&h) = hashes.get(i + TAIL_AHEAD) {
            if let Some(b) = slot(ht, h).and_then(|s| bucket(ht, s)) {
                if (*b).h == h && (*b).val.u1.v.type_ == IS_STRING {
                    let s = (*b).val.value.str_;
                    prefetch((*s).val.as_ptr().add((*s).len));
                }
            }
        }
    }
}
