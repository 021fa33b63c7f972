//! PHP results that native code keeps for the rest of a request and gives
//! again for the same inputs, as long as the state they were made in is
//! unchanged ([`StateHash`] over what they depend on).
//!
//! A kept value is a native copy ([`Kept`]: scalars, strings, arrays with
//! their keys in order and their next free index) made again as a fresh
//! PHP value at each hit: kept zvals would pin PHP's memory pages across a
//! long request (measured: three times the memory of the copies).

use crate::php::runtime::convert::{bytes_zval, num_zval};
use crate::php_semantics::num::Num;
use crate::php::runtime::ffi::{IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_OBJECT, IS_STRING, IS_TRUE};
use crate::php::runtime::keys::{entry_iter, update, Key, OwnedKey};
use crate::php::runtime::zval::{array_zval, bool_zval, long_zval};
use ext_php_rs::types::{ZendHashTable, Zval};
use rustc_hash::{FxHashMap, FxHasher};
use std::cell::RefCell;
use std::hash::Hasher;

/// A PHP value held natively.
pub enum Kept {
    Null,
    Bool(bool),
    Long(i64),
    Double(f64),
    Bytes(Box<[u8]>),
    Array { entries: Vec<(OwnedKey, Kept)>, next_free: i64 },
}

impl Kept {
    /// `value` held natively; None for an object, a resource, a reference
    /// shared with anything else, or an array whose internal pointer moved.
    pub fn of(value: &Zval) -> Option<Kept> {
        if value.is_reference() {
            return None;
        }
        Some(match unsafe { value.u1.v.type_ } {
            IS_NULL => Kept::Null,
            IS_FALSE => Kept::Bool(false),
            IS_TRUE => Kept::Bool(true),
            IS_LONG => Kept::Long(unsafe { value.value.lval }),
            IS_DOUBLE => Kept::Double(unsafe { value.value.dval }),
            IS_STRING => Kept::Bytes(value.zend_str()?.as_bytes().into()),
            IS_ARRAY => {
                let array = value.array()?;
                if array.nInternalPointer != 0 {
                    return None;
                }
                let entries = entry_iter(array).map(|(key, v)| Some((OwnedKey::from(key), Kept::of(v)?))).collect::<Option<_>>()?;
                Kept::Array { entries, next_free: array.nNextFreeElement }
            }
            _ => return None,
        })
    }

    /// A fresh PHP value equal to the one held.
    pub fn zval(&self) -> Zval {
        match self {
            Kept::Null => Zval::new(),
            Kept::Bool(b) => bool_zval(*b),
            Kept::Long(i) => long_zval(*i),
            Kept::Double(d) => num_zval(Num::Float(*d)),
            Kept::Bytes(bytes) => bytes_zval(bytes),
            Kept::Array { entries, next_free } => {
                let mut array = ZendHashTable::with_capacity(entries.len() as u32);
                for (key, value) in entries {
                    update(&mut array, key.as_key(), value.zval());
                }
                array.nNextFreeElement = *next_free;
                array_zval(array)
            }
        }
    }
}

/// Kept values by key, in two generations: when the newer one is full it
/// becomes the older and the oldest is dropped; a value found in the older
/// one moves back to the newer.
pub struct Memo {
    capacity: usize,
    kept: RefCell<Generations>,
}

struct Generations {
    request: u64,
    state: u64,
    newer: FxHashMap<Vec<u8>, Vec<Kept>>,
    older: FxHashMap<Vec<u8>, Vec<Kept>>,
}

impl Memo {
    /// A memo keeping up to `capacity` keys a generation.
    pub const fn new(capacity: usize) -> Memo {
        const fn empty() -> FxHashMap<Vec<u8>, Vec<Kept>> {
            std::collections::HashMap::with_hasher(rustc_hash::FxBuildHasher)
        }
        Memo { capacity, kept: RefCell::new(Generations { request: 0, state: 0, newer: empty(), older: empty() }) }
    }

    /// The generations for this request and `state`: another request's or
    /// another state's are dropped.
    fn with<R>(&self, state: u64, use_kept: impl FnOnce(&mut Generations) -> R) -> R {
        let mut kept = self.kept.borrow_mut();
        let request = crate::php::runtime::engine::request();
        if kept.request != request || kept.state != state {
            kept.newer.clear();
            kept.older.clear();
            kept.request = request;
            kept.state = state;
        }
        use_kept(&mut kept)
    }

    /// Fresh PHP values equal to those kept for `key` in `state`.
    pub fn get(&self, state: u64, key: &[u8]) -> Option<Vec<Zval>> {
        self.with(state, |kept| {
            if let Some(values) = kept.newer.get(key) {
                return Some(values.iter().map(Kept::zval).collect());
            }
            let values = kept.older.remove(key)?;
            let made = values.iter().map(Kept::zval).collect();
            self.insert(kept, key.to_vec(), values);
            Some(made)
        })
    }

    /// Whether `key` is kept in `state`, nothing changed by asking.
    pub fn holds(&self, state: u64, key: &[u8]) -> bool {
        let kept = self.kept.borrow();
        kept.request == crate::php::runtime::engine::request() && kept.state == state && (kept.newer.contains_key(key) || kept.older.contains_key(key))
    }

    /// Keeps `values` for `key`, made in `state`.
    pub fn put(&self, state: u64, key: Vec<u8>, values: Vec<Kept>) {
        self.with(state, |kept| self.insert(kept, key, values));
    }

    fn insert(&self, kept: &mut Generations, key: Vec<u8>, values: Vec<Kept>) {
        if kept.newer.len() >= self.capacity {
            kept.older = std::mem::take(&mut kept.newer);
        }
        kept.newer.insert(key, values);
    }
}

/// Strings longer than this are hashed by identity (address and length),
/// arrays with more entries by identity and count.
const BY_CONTENT_MAX: usize = 256;

/// A hash of the PHP values a kept result depends on.
#[derive(Default)]
pub struct StateHash(FxHasher);

impl StateHash {
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.0.write_usize(bytes.len());
        self.0.write(bytes);
    }

    /// `value`, looking `depth` levels into arrays and objects: scalars and
    /// short strings by content, objects by handle and class (and their
    /// properties, with depth to spare).
    pub fn value(&mut self, value: &Zval, depth: u32) {
        let value = value.dereference();
        let tag = unsafe { value.u1.v.type_ };
        self.0.write_u8(tag);
        unsafe {
            match tag {
                IS_LONG => self.0.write_i64(value.value.lval),
                IS_DOUBLE => self.0.write_u64(value.value.dval.to_bits()),
                IS_STRING => {
                    let s = value.zend_str().map_or(&b""[..], |s| s.as_bytes());
                    if s.len() <= BY_CONTENT_MAX {
                        self.bytes(s);
                    } else {
                        self.0.write_usize(s.as_ptr() as usize);
                        self.0.write_usize(s.len());
                    }
                }
                IS_ARRAY => self.array(value.array().expect("an array's tag"), depth),
                IS_OBJECT => {
                    let object = &*value.value.obj;
                    self.0.write_u32(object.handle);
                    self.0.write_usize(object.ce as usize);
                    if depth > 0 {
                        let declared = (*object.ce).default_properties_count.max(0) as usize;
                        for slot in std::slice::from_raw_parts(object.properties_table.as_ptr().cast::<Zval>(), declared) {
                            self.value(slot, depth - 1);
                        }
                        if let Some(dynamic) = object.properties.as_ref() {
                            self.0.write_u32(dynamic.nNumOfElements);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// `array` as `value` hashes an array.
    pub fn array(&mut self, array: &ZendHashTable, depth: u32) {
        self.0.write_usize(array.len());
        if depth == 0 || array.len() > BY_CONTENT_MAX {
            self.0.write_usize(std::ptr::from_ref(array) as usize);
            return;
        }
        for (key, entry) in entry_iter(array) {
            match key {
                Key::Int(i) => self.0.write_i64(i),
                Key::Str(s) => self.bytes(s),
            }
            self.value(entry, depth - 1);
        }
    }

    pub fn finish(&self) -> u64 {
        self.0.finish()
    }
}
