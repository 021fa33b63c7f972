//! `yioop_codec\ngrams\ngramsContains`: NWordGrams' static
//! `ngramsContains` for a filter Yioop has already loaded, `$class` being
//! the class it was called on (`static::class`); contract: php/yioop_codec.stub.php. Yioop's
//! method normalises the locale (`-` to `_`; `en` and `en_GB` read
//! `en_US`), finds the filter in its static `$ngrams` cache and asks it for
//! the lower-cased phrase: here the cached filter, if a `BloomFilterFile`
//! itself, is asked natively (`bloom::filter_contains`).

use crate::php::runtime::keys::{find, Key};
use crate::php::index::bloom::{filter_contains, filter_of};
use crate::php::runtime::classes::{loaded, loaded_named, static_array};
use crate::php::runtime::convert::is_numeric;
use crate::php::runtime::function::{self, Param};
use crate::php::runtime::zval::{bool_zval, long_of};
use ext_php_rs::ffi::HashTable;
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;

/// The class whose static cache hyphenateEntities' look-ups read.
pub(crate) const NWORDGRAMS_CLASS: &str = "seekquarry\\yioop\\library\\NWordGrams";

/// The filter class whose look-up runs natively (not a subclass of it).
const FILTER_CLASS: &str = "seekquarry\\yioop\\library\\BloomFilterFile";

php_function!(CONTAINS, contains_handler, "yioop_codec\\ngrams\\ngramsContains", [Param::Value("class"), Param::Value("phrase"), Param::Value("lang"), Param::Optional("filter_prefix", "2")], DataType::Mixed, |args| {
    let class = args.take(0).dereference();
    let phrase = args.take(1).dereference();
    let lang = args.take(2).dereference();
    let prefix = args.take_optional(3).map(|p| &*p.dereference());
    Ok(contains(class, phrase, lang, prefix).map_or_else(Zval::new, bool_zval))
});

fn contains(class: &Zval, phrase: &Zval, lang: &Zval, prefix: Option<&Zval>) -> Option<bool> {
    let phrase = phrase.zend_str()?.as_bytes();
    let prefix = match prefix {
        None => Key::Int(2),
        Some(p) => match long_of(p) {
            Some(i) => Key::Int(i),
            None => Key::Str(non_numeric(p.zend_str()?.as_bytes())?),
        },
    };
    let cache = static_array(loaded(class)?, "ngrams")?;
    Filter::cached(cache, lang.zend_str()?.as_bytes(), prefix)?.contains(phrase)
}

/// A filter Yioop has loaded into the cache, and asked natively.
pub(crate) struct Filter(&'static mut ext_php_rs::types::ZendObject);

impl Filter {
    /// The cached filter of `lang` and `prefix`; None where Yioop has not
    /// loaded it or it is not a `BloomFilterFile` itself.
    fn cached(cache: &HashTable, lang: &[u8], prefix: Key) -> Option<Filter> {
        let by_lang = unsafe { &*find(cache, Key::Str(&locale(lang)?))? }.dereference().array()?;
        let filter = unsafe { &mut *find(by_lang, prefix)? }.dereference_mut().object_mut()?;
        (filter.get_class_name().ok()? == FILTER_CLASS).then_some(Filter(filter))
    }

    /// What `NWordGrams::ngramsContains($phrase, $lang, "all")` asks.
    pub(crate) fn all_grams(lang: &[u8]) -> Option<Filter> {
        let cache = static_array(loaded_named(NWORDGRAMS_CLASS)?, "ngrams")?;
        Filter::cached(cache, lang, Key::Str(b"all"))
    }

    /// The cache's entry that `all_grams` reads, whatever it holds.
    pub(crate) fn all_grams_entry(lang: &[u8]) -> Option<&'static Zval> {
        let cache = static_array(loaded_named(NWORDGRAMS_CLASS)?, "ngrams")?;
        let by_lang = unsafe { &*find(cache, Key::Str(&locale(lang)?))? }.dereference().array()?;
        Some(unsafe { &*find(by_lang, Key::Str(b"all"))? })
    }

    /// Whether the filter holds the lower-cased phrase; None for a phrase
    /// that is not ASCII (mb_strtolower's Unicode case mapping is left to
    /// PHP) and wherever the filter's own look-up declines.
    fn contains(&mut self, phrase: &[u8]) -> Option<bool> {
        if !phrase.is_ascii() {
            return None;
        }
        filter_contains(self.0, &phrase.to_ascii_lowercase())
    }

    /// The filter's fields, for many look-ups of phrases already
    /// lower-cased by `mb_strtolower` (which gives them back unchanged).
    pub(crate) fn fields(&mut self) -> Option<crate::index::bloom::BloomFilter<'_>> {
        filter_of(self.0)
    }
}

/// Yioop's locale normalisation; None for a numeric one (its `==` and its
/// use as an array key would read it as a number).
fn locale(lang: &[u8]) -> Option<Vec<u8>> {
    let lang: Vec<u8> = lang.iter().map(|&b| if b == b'-' { b'_' } else { b }).collect();
    non_numeric(&lang)?;
    Some(if lang == b"en" || lang == b"en_GB" { b"en_US".to_vec() } else { lang })
}

fn non_numeric(s: &[u8]) -> Option<&[u8]> {
    (!is_numeric(s) && !s.iter().any(u8::is_ascii_digit)).then_some(s)
}

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&CONTAINS, contains_handler)])
}
