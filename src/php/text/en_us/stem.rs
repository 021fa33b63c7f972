//! `yioop_codec\stem_en\stem`: the English Tokenizer's static `stem`
//! (core: `crate::text::en_us::stem`), `$class` being the class it was
//! called on (`static::class`); contract: php/yioop_codec.stub.php. It reads the class's
//! `$no_stem_list` and leaves the class's private scratch (`$buffer`, `$k`,
//! `$j`) as Yioop's PHP leaves it.

use crate::php::runtime::ffi::{zend_update_static_property_ex};
use crate::php::runtime::classes::{loaded, loaded_named, static_array, static_property};
use crate::php::runtime::convert::{bytes_zval, is_numeric};
use crate::php::runtime::function::{self, Param};
use crate::php::runtime::object::with_name;
use crate::php::runtime::zval::long_zval;
use crate::text::en_us::stem::{stem, State, StemCache, Stemmed};
use ext_php_rs::ffi::{zend_class_entry, zend_hash_index_find, HashTable};
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;

php_function!(STEM, stem_handler, "yioop_codec\\stem_en\\stem", [Param::Value("class"), Param::Value("word")], DataType::Mixed, |args| {
    let [class, word] = args.values::<2>();
    Ok(stem_word(class, word).unwrap_or_default())
});

/// Yioop's stem, the class's scratch left as Yioop leaves it; None declines.
fn stem_word(class: &Zval, word: &Zval) -> Option<Zval> {
    let word = word.zend_str()?.as_bytes();
    if is_numeric(word) {
        return None;
    }
    Some(bytes_zval(&Stemmer::of(loaded(class)?)?.stem_one(word)))
}

/// The class's stem for any number of words (PhraseParser stems a page's
/// in one call): its no-stem list read once, its scratch written once, as
/// the last word left it.
pub(crate) struct Stemmer<'a> {
    scope: *mut zend_class_entry,
    no_stem: NoStem<'a>,
    stems: StemCache,
}

impl Stemmer<'_> {
    /// None where the class lacks the scratch or its no-stem list is not
    /// an array of strings.
    fn of(scope: *mut zend_class_entry) -> Option<Self> {
        let no_stem = no_stem_list(scope)?;
        if !["buffer", "k", "j"].iter().all(|name| static_property(scope, name).is_some()) {
            return None; // writing would throw where Yioop's PHP errors itself
        }
        Some(Stemmer { scope, no_stem, stems: StemCache::default() })
    }

    /// The loaded class `name`, for words of any kind: declines unless no
    /// no-stem word is numeric, so that in_array's loose comparison is
    /// byte equality for numeric words too.
    pub(crate) fn of_class(name: &'static str) -> Option<Self> {
        let stemmer = Stemmer::of(loaded_named(name)?)?;
        (!stemmer.no_stem.any(is_numeric)).then_some(stemmer)
    }

    fn stem_uncached(&self, word: &[u8]) -> Stemmed {
        stem(word, &|w| self.no_stem.any(|listed| listed == w))
    }

    /// One word, the scratch left as it leaves it: nothing cached (Yioop's
    /// own `stem` calls, one word each).
    fn stem_one(self, word: &[u8]) -> Vec<u8> {
        let stemmed = self.stem_uncached(word);
        if let Some(state) = &stemmed.state {
            self.write_state(state);
        }
        stemmed.stem
    }

    /// `word` stemmed, as [`Stemmer::stemmed`] gives it back by the number
    /// returned; the scratch it leaves is the latest.
    pub(crate) fn stem_number(&mut self, word: &[u8]) -> usize {
        let no_stem = &self.no_stem;
        self.stems.number(word, |word| stem(word, &|w| no_stem.any(|listed| listed == w)))
    }

    pub(crate) fn stemmed(&self, number: usize) -> &[u8] {
        self.stems.stemmed(number)
    }

    pub(crate) fn stem(&mut self, word: &[u8]) -> &[u8] {
        let at = self.stem_number(word);
        self.stemmed(at)
    }

    /// The no-stem list's words, copied (for stemming away from PHP).
    pub(crate) fn no_stem_words(&self) -> Vec<Vec<u8>> {
        let mut words = Vec::new();
        self.no_stem.any(|word| {
            words.push(word.to_vec());
            false
        });
        words
    }

    /// `self::$buffer`, `self::$k` and `self::$j` as Yioop's stem leaves them.
    pub(crate) fn leave_state(self) {
        if let Some(state) = self.stems.last_state() {
            self.write_state(state);
        }
    }

    fn write_state(&self, state: &State) {
        let fields = [("buffer", bytes_zval(&state.buffer)), ("k", long_zval(state.k)), ("j", long_zval(state.j))];
        for (name, mut value) in fields {
            with_name(name, |name| unsafe { zend_update_static_property_ex(self.scope, name, std::ptr::from_mut(&mut value).cast()) });
        }
    }
}

/// The stemmer's scratch (`$buffer`, `$k`, `$j`) of `scope`, as it is now.
pub(crate) fn scratch(scope: *mut zend_class_entry) -> Option<[Zval; 3]> {
    let read = |name| static_property(scope, name).map(Zval::shallow_clone);
    Some([read("buffer")?, read("k")?, read("j")?])
}

/// Puts back a scratch `scratch` read.
pub(crate) fn set_scratch(scope: *mut zend_class_entry, scratch: [Zval; 3]) {
    for (name, mut value) in ["buffer", "k", "j"].into_iter().zip(scratch) {
        with_name(name, |name| unsafe { zend_update_static_property_ex(scope, name, std::ptr::from_mut(&mut value).cast()) });
    }
}

/// The class's `$no_stem_list`, if an array of strings (borrowed for the call).
fn no_stem_list<'a>(scope: *mut zend_class_entry) -> Option<NoStem<'a>> {
    let list = static_array(scope, "no_stem_list")?;
    let count = list.len() as u64;
    // A list with keys 0..n: looked up by index, nothing copied (the
    // common case, and half the call's cost when collected).
    let mut indexed = true;
    for i in 0..count {
        match unsafe { zend_hash_index_find(list, i).cast::<Zval>().as_ref() } {
            None => {
                indexed = false;
                break;
            }
            Some(value) => {
                value.dereference().zend_str()?;
            }
        }
    }
    if indexed {
        return Some(NoStem::Indexed(list, count));
    }
    list.values().map(|v| v.dereference().zend_str().map(|s| s.as_bytes())).collect::<Option<Vec<_>>>().map(NoStem::Listed)
}

/// The no-stem list: by index (keys 0..n, all strings) or collected.
enum NoStem<'a> {
    Indexed(&'a HashTable, u64),
    Listed(Vec<&'a [u8]>),
}

impl NoStem<'_> {
    /// Whether some word of the list satisfies `test`.
    fn any(&self, mut test: impl FnMut(&[u8]) -> bool) -> bool {
        match self {
            NoStem::Indexed(list, count) => (0..*count).any(|i| {
                let value = unsafe { &*zend_hash_index_find(*list, i).cast::<Zval>() };
                value.dereference().zend_str().is_some_and(|s| test(s.as_bytes()))
            }),
            NoStem::Listed(words) => words.iter().any(|listed| test(listed)),
        }
    }
}

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&STEM, stem_handler)])
}
