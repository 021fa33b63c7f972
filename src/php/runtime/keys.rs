//! PHP array keys, and an array's entries and look-ups by key, as php-src
//! stores and finds them (an integer-like string key is an int key).

use crate::php::runtime::ffi::{HASH_FLAG_PACKED, IS_STRING, IS_UNDEF, zend_hash_func};
use ext_php_rs::ffi::{zend_hash_index_find, zend_hash_str_find, HashTable};
use crate::index::prefetch::prefetch;
use ext_php_rs::types::{ZendHashTable, Zval};

/// An array key that native code writes as PHP code writes a literal
/// one: a string made once a process, interned for good with its hash
/// (as opcache interns literals), so that an insert neither hashes nor
/// allocates. Never an integer-like string.
pub struct KnownKey {
    text: &'static str,
    string: std::sync::OnceLock<usize>,
}

impl KnownKey {
    pub const fn new(text: &'static str) -> KnownKey {
        KnownKey { text, string: std::sync::OnceLock::new() }
    }

    fn string(&self) -> *mut ext_php_rs::ffi::zend_string {
        let made = || crate::php::runtime::immutable::permanent_string(self.text.as_bytes()) as usize;
        *self.string.get_or_init(made) as *mut ext_php_rs::ffi::zend_string
    }
}

/// `$array[KEY] = $value` for a known key; the slot written.
pub fn update_known(array: &mut HashTable, key: &KnownKey, value: Zval) -> *mut Zval {
    let mut value = std::mem::ManuallyDrop::new(value);
    unsafe { ext_php_rs::ffi::zend_hash_update(array, key.string(), std::ptr::from_mut(&mut *value).cast()).cast::<Zval>() }
}

/// How many buckets ahead `entries` prefetches keys and values.
const AHEAD: usize = 8;

/// An array key as PHP holds it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key<'a> {
    Int(i64),
    Str(&'a [u8]),
}

impl<'a> Key<'a> {
    /// `$array[$s]`'s key: an integer-like string is an int key.
    pub fn of_string(s: &[u8]) -> Key<'_> {
        crate::php_semantics::num::integer_key(s).map_or(Key::Str(s), Key::Int)
    }

    /// `$array[$value]`'s key for an int or a string; None for the other
    /// types, whose conversions the callers leave to Yioop's PHP.
    pub fn of_value(value: &Zval) -> Option<Key<'_>> {
        match crate::php::runtime::zval::long_of(value) {
            Some(i) => Some(Key::Int(i)),
            None => Some(Key::of_string(value.zend_str()?.as_bytes())),
        }
    }

    /// The key's hash in a PHP array: php-src's string hash, or the int.
    pub fn hash(self) -> u64 {
        match self {
            Key::Int(i) => i as u64,
            Key::Str(s) => unsafe { zend_hash_func(s.as_ptr().cast(), s.len()) },
        }
    }

    /// The key as a string, as PHP converts it (`(string)$key`), borrowed
    /// where it is one.
    pub fn bytes(self) -> std::borrow::Cow<'a, [u8]> {
        match self {
            Key::Str(s) => std::borrow::Cow::Borrowed(s),
            Key::Int(i) => std::borrow::Cow::Owned(i.to_string().into_bytes()),
        }
    }
}

/// An array key held apart from any array.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum OwnedKey {
    Int(i64),
    Str(Vec<u8>),
}

impl OwnedKey {
    pub fn as_key(&self) -> Key<'_> {
        match self {
            OwnedKey::Int(i) => Key::Int(*i),
            OwnedKey::Str(s) => Key::Str(s),
        }
    }

    /// Whether it is the key the unserializer read.
    pub fn is(&self, key: &crate::php_semantics::unserialize::Key) -> bool {
        use crate::php_semantics::unserialize::Key as Read;
        match (self, key) {
            (OwnedKey::Int(a), Read::Int(b)) => a == b,
            (OwnedKey::Str(a), Read::Str(b)) => a.as_slice() == *b,
            _ => false,
        }
    }
}

impl From<Key<'_>> for OwnedKey {
    fn from(key: Key) -> Self {
        match key {
            Key::Int(i) => OwnedKey::Int(i),
            Key::Str(s) => OwnedKey::Str(s.to_vec()),
        }
    }
}

/// Every value slot of `array`, in order (references not followed), read
/// from its slots as `entries` reads them, without a list.
pub fn values(array: &ZendHashTable) -> impl Iterator<Item = &Zval> {
    let ht: *const HashTable = std::ptr::from_ref(array).cast();
    let (packed, used) = unsafe { ((*ht).u.flags & HASH_FLAG_PACKED != 0, (*ht).nNumUsed as usize) };
    (0..used).filter_map(move |i| {
        let value = unsafe {
            if packed {
                &*(*ht).__bindgen_anon_1.arPacked.cast::<Zval>().add(i)
            } else {
                &*std::ptr::from_ref(&(*(*ht).__bindgen_anon_1.arData.add(i)).val).cast::<Zval>()
            }
        };
        (unsafe { value.u1.v.type_ } != IS_UNDEF).then_some(value)
    })
}

/// Every key and value slot of `array`, in order (references not followed).
pub fn entries(array: &ZendHashTable) -> Vec<(Key<'_>, &Zval)> {
    let mut out = Vec::with_capacity(array.len());
    out.extend(entry_iter(array));
    out
}

/// `entries` without a list.
pub fn entry_iter(array: &ZendHashTable) -> impl Iterator<Item = (Key<'_>, &Zval)> {
    let ht: *const HashTable = std::ptr::from_ref(array).cast();
    let (packed, used) = unsafe { ((*ht).u.flags & HASH_FLAG_PACKED != 0, (*ht).nNumUsed as usize) };
    (0..used).filter_map(move |i| unsafe {
        if packed {
            let value = &*(*ht).__bindgen_anon_1.arPacked.cast::<Zval>().add(i);
            return (value.u1.v.type_ != IS_UNDEF).then_some((Key::Int(i as i64), value));
        }
        let buckets = (*ht).__bindgen_anon_1.arData;
        // Keys and string values live elsewhere on the heap: in a large
        // array (a shard's words) each is a cache miss.
        if i + AHEAD < used {
            let ahead = &*buckets.add(i + AHEAD);
            if !ahead.key.is_null() {
                prefetch(ahead.key);
            }
            if ahead.val.u1.v.type_ == IS_STRING {
                prefetch(ahead.val.value.str_);
            }
        }
        let bucket = &*buckets.add(i);
        let value = &*std::ptr::from_ref(&bucket.val).cast::<Zval>();
        if value.u1.v.type_ == IS_UNDEF {
            return None;
        }
        let key = if bucket.key.is_null() {
            Key::Int(bucket.h as i64)
        } else {
            let s = bucket.key;
            Key::Str(std::slice::from_raw_parts((*s).val.as_ptr().cast::<u8>(), (*s).len))
        };
        Some((key, value))
    })
}

/// The slot of `$array[$key]`, as PHP finds it (PHP's own, valid while
/// the array is unchanged).
pub fn find(array: &HashTable, key: Key) -> Option<*mut Zval> {
    let found = unsafe {
        match key {
            Key::Int(i) => zend_hash_index_find(array, i as u64),
            Key::Str(s) => zend_hash_str_find(array, s.as_ptr().cast(), s.len()),
        }
    };
    (!found.is_null()).then_some(found.cast::<Zval>())
}

/// `find` for a key held as a PHP string: its cached hash serves the
/// look-up (php-src's `zend_symtable_find`).
pub fn find_string(array: &HashTable, key: &ext_php_rs::types::ZendStr) -> Option<*mut Zval> {
    if let Some(i) = crate::php_semantics::num::integer_key(key.as_bytes()) {
        return find(array, Key::Int(i));
    }
    let found = unsafe { ext_php_rs::ffi::zend_hash_find(array, std::ptr::from_ref(key).cast_mut().cast()) };
    (!found.is_null()).then_some(found.cast::<Zval>())
}

/// `$array[$key] = $value` on a separated array: the slot PHP writes (an
/// old value there is released, as PHP's assignment does).
pub fn update(array: &mut HashTable, key: Key, value: Zval) -> *mut Zval {
    let mut value = std::mem::ManuallyDrop::new(value);
    let slot = unsafe {
        match key {
            Key::Int(i) => ext_php_rs::ffi::zend_hash_index_update(array, i as u64, std::ptr::from_mut(&mut *value).cast()),
            Key::Str(s) => ext_php_rs::ffi::zend_hash_str_update(array, s.as_ptr().cast(), s.len(), std::ptr::from_mut(&mut *value).cast()),
        }
    };
    slot.cast::<Zval>()
}

/// Whether `key` is the array's last entry (the one `foreach`, and so
/// `serialize`, reaches last).
pub fn is_last(array: &HashTable, key: Key) -> bool {
    let used = array.nNumUsed as usize;
    if used == 0 {
        return false;
    }
    unsafe {
        if array.u.flags & HASH_FLAG_PACKED != 0 {
            let slot = &*array.__bindgen_anon_1.arPacked.add(used - 1).cast::<Zval>();
            return slot.u1.type_info & 0xff != u32::from(IS_UNDEF) && key == Key::Int(used as i64 - 1);
        }
        let bucket = &*array.__bindgen_anon_1.arData.add(used - 1);
        if bucket.val.u1.type_info & 0xff == u32::from(IS_UNDEF) {
            return false;
        }
        if bucket.key.is_null() {
            key == Key::Int(bucket.h as i64)
        } else {
            let name = &*bucket.key.cast::<ext_php_rs::types::ZendStr>();
            key == Key::Str(name.as_bytes())
        }
    }
}
