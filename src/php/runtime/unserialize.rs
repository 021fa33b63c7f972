//! `unserialize` natively, for the texts `crate::php_semantics::unserialize`
//! reads: the zvals PHP's own `unserialize` would build (mixed arrays as it
//! makes them, empty and one-byte strings interned, `a:0:{}` the shared
//! empty array). For any other text it calls PHP's `unserialize`, so the
//! answer is PHP's either way.

use crate::php::runtime::ffi::{IS_STRING, zend_empty_string, zend_hash_real_init_mixed, zend_ini_long, zend_one_char_string};
use crate::php::runtime::convert::bytes_zval;
use crate::php::runtime::keys::OwnedKey;
use crate::php::runtime::zval::{array_zval, bool_zval, empty_array_zval, long_zval};
use crate::php_semantics::unserialize::{self, Build, Key};
use ext_php_rs::boxed::ZBox;
use ext_php_rs::ffi::{_zend_new_array, zend_hash_index_update, zend_hash_str_update, zend_string, HashTable};
use ext_php_rs::types::{ZendHashTable, Zval};


/// The value `unserialize($text)` gives, if the native reader takes the
/// text; None leaves it to PHP's `unserialize`.
pub fn unserialize(text: &[u8]) -> Option<Zval> {
    unserialize_leaving_out(text, &[]).map(|(value, _)| value)
}

/// `unserialize($text)` with the outermost array's entries whose keys are
/// in `left_out` not built, and whether that array had any entry; None
/// where the native reader leaves the text to PHP.
pub fn unserialize_leaving_out(text: &[u8], left_out: &[OwnedKey]) -> Option<(Zval, bool)> {
    let mut build = Zvals { left_out, had_entries: false };
    let value = unserialize::parse(text, max_depth()?, &mut build).ok()?;
    Some((value, build.had_entries))
}

/// `unserialize_max_depth`, as `unserialize` reads it with no options
/// (None for a negative one: left to PHP).
pub fn max_depth() -> Option<usize> {
    let name = b"unserialize_max_depth";
    usize::try_from(unsafe { zend_ini_long(name.as_ptr().cast(), name.len(), 0) }).ok()
}

struct Zvals<'k> {
    /// The outermost array's entries not built.
    left_out: &'k [OwnedKey],
    /// Whether the outermost array had any entry.
    had_entries: bool,
}

impl Build for Zvals<'_> {
    type Value = Zval;
    type Array = ZBox<ZendHashTable>;

    fn null(&mut self) -> Zval {
        Zval::new()
    }

    fn bool(&mut self, b: bool) -> Zval {
        bool_zval(b)
    }

    fn long(&mut self, i: i64) -> Zval {
        long_zval(i)
    }

    fn double(&mut self, d: f64) -> Zval {
        let mut z = Zval::new();
        z.set_double(d);
        z
    }

    fn string(&mut self, s: &[u8]) -> Zval {
        match s {
            [] => interned_zval(unsafe { zend_empty_string }),
            [c] => interned_zval(unsafe { zend_one_char_string[usize::from(*c)] }),
            _ => bytes_zval(s),
        }
    }

    fn empty_array(&mut self) -> Zval {
        empty_array_zval()
    }

    fn array(&mut self, len: usize) -> ZBox<ZendHashTable> {
        // As unserialize makes them: sized, and mixed from the start.
        unsafe {
            let ht = _zend_new_array(u32::try_from(len).unwrap_or(u32::MAX));
            zend_hash_real_init_mixed(ht);
            ZBox::from_raw(ht.cast::<ZendHashTable>())
        }
    }

    fn set(&mut self, array: &mut ZBox<ZendHashTable>, key: Key, value: Zval) {
        let ht: *mut HashTable = std::ptr::from_mut::<ZendHashTable>(array).cast();
        let mut value = std::mem::ManuallyDrop::new(value); // the array owns it now
        let slot = std::ptr::from_mut::<Zval>(&mut value).cast();
        unsafe {
            match key {
                Key::Int(i) => zend_hash_index_update(ht, i as u64, slot),
                Key::Str(s) => zend_hash_str_update(ht, s.as_ptr().cast(), s.len(), slot),
            };
        }
    }

    fn finish(&mut self, array: ZBox<ZendHashTable>) -> Zval {
        array_zval(array)
    }

    fn skips(&mut self, depth: usize, key: &Key) -> bool {
        if depth != 1 {
            return false;
        }
        self.had_entries = true;
        self.left_out.iter().any(|k| k.is(key))
    }
}

fn interned_zval(s: *mut zend_string) -> Zval {
    let mut z = Zval::new();
    z.value.str_ = s;
    z.u1.type_info = u32::from(IS_STRING);
    z
}
