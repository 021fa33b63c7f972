//! `yioop_codec\bloom\contains`: BloomFilterFile's `contains` on the
//! object's own `filter`, `filter_size` and `num_keys` (core:
//! `crate::index::bloom`). Its contract, declines included: php/yioop_codec.stub.php.

use crate::php::runtime::function::{self, Param};
use crate::php::runtime::object::Object;
use crate::php::runtime::zval::{bool_zval, long_of};
use crate::index::bloom::BloomFilter;
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendObject, Zval};

/// More keys than any filter Yioop makes (17 for its n-gram filters):
/// left to Yioop's PHP, which would build that many positions first.
const MAX_KEYS: i64 = 1 << 12;

php_function!(CONTAINS, contains_handler, "yioop_codec\\bloom\\contains", [Param::Value("filter"), Param::Value("value")], DataType::Mixed, |args| {
    let object = args.take(0).dereference_mut();
    let value = args.take(1).dereference();
    Ok(contains(object, value).map_or_else(Zval::new, bool_zval))
});

/// Yioop's answer, or None to decline.
fn contains(object: &mut Zval, value: &Zval) -> Option<bool> {
    filter_contains(object.object_mut()?, value.zend_str()?.as_bytes())
}

/// `$filter->contains($value)` for a filter object, or None to decline.
pub(crate) fn filter_contains(object: &mut ZendObject, value: &[u8]) -> Option<bool> {
    filter_of(object)?.contains(value).ok()
}

/// The object's fields as `contains` reads them (borrowed: ask it before
/// anything can change them), or None where it would decline.
pub(crate) fn filter_of(object: &mut ZendObject) -> Option<BloomFilter<'_>> {
    // Object reads any object's properties as PHP's `$this->name` does.
    let object = Object(object);
    let num_keys = int_like(object.property("num_keys")?)?;
    let filter_size = int_like(object.property("filter_size")?)?;
    let filter = object.property("filter")?.zend_str()?.as_bytes();
    // The string is the object's property: it lives as long as the object
    // is not changed, which the borrow of `object` guarantees here.
    let filter = unsafe { std::slice::from_raw_parts(filter.as_ptr(), filter.len()) };
    (num_keys <= MAX_KEYS).then_some(BloomFilter { filter, filter_size, num_keys })
}

/// An int, or a float PHP's `>>` turns into the same int without a
/// deprecation (integral, well inside the int range).
fn int_like(value: &Zval) -> Option<i64> {
    if let Some(i) = long_of(value) {
        return Some(i);
    }
    let f = value.double()?;
    (f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as i64)
}

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&CONTAINS, contains_handler)])
}
