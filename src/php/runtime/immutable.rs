//! Arrays that outlive a request, as opcache keeps a script's literal
//! arrays: copied into memory of their own, marked immutable, their strings
//! interned. PHP reads such an array in place, never counts references to
//! it, and copies it on the first write (`zend_array_dup`), so one array
//! serves every request of a process and none can change it.
//!
//! PHP never frees them; this module does. An array dropped (from a cache)
//! may still be held by the request that dropped it, so it is freed only
//! once that request is over: [`release_dropped`] at the next request's
//! start and at module shutdown.

use crate::php::runtime::ffi::{_zend_hash_init, zend_hash_destroy, zend_hash_real_init_mixed, zend_string_hash_func, GC_STRING, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_STRING, IS_TRUE, IS_UNDEF};
use crate::php::runtime::keys::{entries, Key};
use ext_php_rs::ffi::{zend_empty_array, zend_hash_index_update, zend_hash_update, zend_string, HashTable};
use ext_php_rs::types::{ZendHashTable, Zval};
use std::cell::RefCell;
use std::ptr::{self, NonNull};

// Zend/zend_types.h's GC flags.
const GC_NOT_COLLECTABLE: u32 = 1 << 4;
const GC_IMMUTABLE: u32 = 1 << 6;
const GC_PERSISTENT: u32 = 1 << 7;
/// IS_STR_INTERNED | IS_STR_PERSISTENT | IS_STR_PERMANENT.
const INTERNED_FOR_GOOD: u32 = GC_IMMUTABLE | GC_PERSISTENT | (1 << 8);
const IMMUTABLE_ARRAY: u32 = IS_ARRAY as u32 | GC_NOT_COLLECTABLE | GC_IMMUTABLE | GC_PERSISTENT;

/// A non-empty array copied to outlive the request.
pub struct ImmutableArray {
    table: NonNull<HashTable>,
    /// Its strings, keys and values.
    strings: Arena,
}

impl ImmutableArray {
    /// A copy of `array`, or None where it holds anything but nulls,
    /// booleans, numbers, strings and such arrays (objects, references,
    /// resources), or is empty.
    pub fn copy_of(array: &ZendHashTable) -> Option<Self> {
        if array.len() == 0 {
            return None;
        }
        let mut strings = Arena::default();
        let table = copy_table(array, &mut strings)?;
        Some(Self { table: table.into_immutable(), strings })
    }

    /// The array as a zval: not counted, so it is neither freed nor
    /// changed through it.
    pub fn zval(&self) -> Zval {
        immutable_zval(self.table.as_ptr())
    }
}

impl Drop for ImmutableArray {
    fn drop(&mut self) {
        let (table, strings) = (self.table, std::mem::take(&mut self.strings));
        // At thread exit the list may be gone: the process is ending anyway.
        let _ = DROPPED.try_with(|d| d.borrow_mut().push((table, strings)));
    }
}

thread_local! {
    static DROPPED: RefCell<Vec<(NonNull<HashTable>, Arena)>> = const { RefCell::new(Vec::new()) };
}

/// Frees the dropped arrays. Only between requests: no request holds them.
pub fn release_dropped() {
    for (table, strings) in DROPPED.take() {
        unsafe { free_table(table.as_ptr()) };
        drop(strings);
    }
}

fn immutable_zval(table: *mut HashTable) -> Zval {
    let mut z = Zval::new();
    z.value.arr = table;
    z.u1.type_info = u32::from(IS_ARRAY);
    z
}

/// A table being filled, freed with the tables in it if the copy stops.
struct Table(NonNull<HashTable>);

impl Table {
    fn new(len: usize) -> Self {
        let table = Box::into_raw(Box::<HashTable>::new_uninit()).cast::<HashTable>();
        unsafe {
            _zend_hash_init(table, u32::try_from(len).unwrap_or(u32::MAX), None, true);
            zend_hash_real_init_mixed(table);
            Table(NonNull::new_unchecked(table))
        }
    }

    fn insert(&mut self, key: Key, value: Zval, strings: &mut Arena) {
        let mut value = std::mem::ManuallyDrop::new(value); // the table holds it now
        let slot = ptr::from_mut(&mut *value).cast();
        unsafe {
            match key {
                Key::Int(i) => zend_hash_index_update(self.0.as_ptr(), i as u64, slot),
                Key::Str(s) => zend_hash_update(self.0.as_ptr(), strings.interned_string(s), slot),
            };
        }
    }

    fn into_immutable(self) -> NonNull<HashTable> {
        let table = std::mem::ManuallyDrop::new(self).0;
        unsafe {
            (*table.as_ptr()).gc.refcount = 2; // as opcache sets it: never freed through a count
            (*table.as_ptr()).gc.u.type_info = IMMUTABLE_ARRAY;
        }
        table
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        unsafe { free_table(self.0.as_ptr()) };
    }
}

fn copy_table(array: &ZendHashTable, strings: &mut Arena) -> Option<Table> {
    let mut table = Table::new(array.len());
    for (key, value) in entries(array) {
        let value = copy_value(value, strings)?;
        table.insert(key, value, strings);
    }
    Some(table)
}

fn copy_value(value: &Zval, strings: &mut Arena) -> Option<Zval> {
    match unsafe { value.u1.v.type_ } {
        IS_NULL | IS_FALSE | IS_TRUE | IS_LONG | IS_DOUBLE => Some(value.shallow_clone()),
        IS_STRING => {
            let mut z = Zval::new();
            z.value.str_ = strings.interned_string(value.zend_str()?.as_bytes());
            z.u1.type_info = u32::from(IS_STRING);
            Some(z)
        }
        IS_ARRAY => {
            let array = value.array()?;
            if array.len() == 0 {
                return Some(immutable_zval(ptr::addr_of!(zend_empty_array).cast_mut()));
            }
            Some(immutable_zval(copy_table(array, strings)?.into_immutable().as_ptr()))
        }
        _ => None,
    }
}

/// Frees a table made here and the tables in it (not their strings: those
/// are the arena's).
unsafe fn free_table(table: *mut HashTable) {
    let used = (*table).nNumUsed as usize;
    let buckets = (*table).__bindgen_anon_1.arData;
    for i in 0..used {
        let bucket = &mut *buckets.add(i);
        let value = &*ptr::from_ref(&bucket.val).cast::<Zval>();
        let tag = value.u1.v.type_;
        if tag == IS_ARRAY && !ptr::eq(value.value.arr, ptr::addr_of!(zend_empty_array)) {
            free_table(value.value.arr);
        }
        if tag != IS_UNDEF {
            bucket.key = ptr::null_mut(); // zend_hash_destroy would release it
        }
    }
    zend_hash_destroy(table); // the slots, with pefree as the table was made
    drop(Box::from_raw(table.cast::<std::mem::MaybeUninit<HashTable>>()));
}

/// Strings allocated in chunks and freed together: a locale file holds
/// thousands, and one allocation each would cost more than the copy.
#[derive(Default)]
struct Arena {
    chunks: Vec<Box<[u64]>>,
    /// Words used in the last chunk.
    used: usize,
}

const CHUNK_WORDS: usize = 4096;

impl Arena {
    /// A string PHP treats as interned for good: its hash computed, never
    /// counted, never freed by PHP.
    fn interned_string(&mut self, s: &[u8]) -> *mut zend_string {
        let string = self.words(string_words(s.len())).cast::<zend_string>();
        unsafe { write_interned(string, s) };
        string
    }

    fn words(&mut self, n: usize) -> *mut u64 {
        let fits = self.chunks.last().is_some_and(|c| c.len() - self.used >= n);
        if !fits {
            self.chunks.push(vec![0u64; n.max(CHUNK_WORDS)].into_boxed_slice());
            self.used = 0;
        }
        let chunk = self.chunks.last_mut().expect("a chunk");
        let at = self.used;
        self.used += n;
        chunk[at..].as_mut_ptr()
    }
}

/// A string interned for good that lives as long as the process (never
/// freed): for the few fixed keys native code writes into arrays
/// ([`crate::php::runtime::keys::KnownKey`]).
pub fn permanent_string(s: &[u8]) -> *mut zend_string {
    let words = Box::leak(vec![0u64; string_words(s.len())].into_boxed_slice());
    let string = words.as_mut_ptr().cast::<zend_string>();
    unsafe { write_interned(string, s) };
    string
}

/// Writes `s` at `string` (room for `string_words(s.len())` words) as a
/// string interned for good, its hash computed.
unsafe fn write_interned(string: *mut zend_string, s: &[u8]) {
    (*string).gc.refcount = 1;
    (*string).gc.u.type_info = GC_STRING | INTERNED_FOR_GOOD;
    (*string).h = 0;
    (*string).len = s.len();
    let bytes = ptr::addr_of_mut!((*string).val).cast::<u8>();
    ptr::copy_nonoverlapping(s.as_ptr(), bytes, s.len());
    *bytes.add(s.len()) = 0;
    zend_string_hash_func(string);
}

/// `_ZSTR_STRUCT_SIZE(len)` in words: the header, the bytes and a NUL.
fn string_words(len: usize) -> usize {
    (std::mem::offset_of!(zend_string, val) + len + 1).div_ceil(8)
}
