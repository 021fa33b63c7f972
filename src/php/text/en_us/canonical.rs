//! `yioop_codec\canonical_en\canonicalizePunctuatedTerms`: the en_US
//! Tokenizer's method of that name, called by the switched method with
//! `$this`; contract: php/yioop_codec.stub.php. Yioop runs its static list of PCRE replacements
//! over the text in one `preg_replace`; here the list is read from the
//! method's own statics (in place, as the method will see them:
//! `classes::live_statics`) and run in order: the replacements
//! `crate::text::en_us::canonical` recognizes natively, runs of the others
//! through PHP's `preg_replace` with Yioop's own strings.

use crate::php::runtime::classes::{live_statics, loaded_named};
use crate::php::runtime::convert::bytes_zval;
use crate::php::runtime::keys::{entries, Key};
use crate::php::runtime::arrays::list_of;
use crate::php::text::phrase::EN_TOKENIZER;
use crate::php::runtime::engine::call_function;
use crate::php::runtime::function::{self, Param};
use crate::php::text::en_us::triplets::ctype_is_ascii;
use crate::php::runtime::zval::{array_zval, bool_zval};
use crate::text::en_us::canonical::{recognize, Replacement};
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;
use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

php_function!(CANONICALIZE, canonicalize_handler, "yioop_codec\\canonical_en\\canonicalizePunctuatedTerms", [Param::Value("tokenizer"), Param::Reference("string")], DataType::Bool, |args| {
    let string = args.take(1).dereference_mut();
    let canonical = canonicalized(string);
    let done = canonical.is_some();
    if let Some(canonical) = canonical {
        *string = canonical;
    }
    Ok(bool_zval(done))
});

/// The text after every replacement: a string, or null where PHP's
/// `preg_replace` failed.
fn canonicalized(text: &Zval) -> Option<Zval> {
    let text = text.zend_str()?.as_bytes();
    std::str::from_utf8(text).ok()?;
    if !ctype_is_ascii() {
        return None;
    }
    // PCRE's backtrack limit as PHP hands it over (the JIT's too).
    let limit = crate::php::runtime::engine::pcre_ini_limit(c"pcre.backtrack_limit")?;
    let statics = live_statics(loaded_named(EN_TOKENIZER)?, "canonicalizepunctuatedterms")?;
    let substitutions = statics.get("substitutions")?.dereference().array()?;
    let mut subject = text.to_vec();
    let mut batch: Vec<(&[u8], &[u8])> = Vec::new();
    // Whether PCRE might run out of steps on `subject` as it is now.
    let mut exceeds = None;
    for (i, (key, value)) in entries(substitutions).into_iter().enumerate() {
        let Key::Str(pattern) = key else { return None };
        let replacement = value.dereference().zend_str()?.as_bytes();
        let Some(native) = recognized(i, pattern, replacement) else {
            batch.push((pattern, replacement));
            continue;
        };
        if !batch.is_empty() {
            match preg_replace(&batch, subject)? {
                Ok(replaced) => subject = replaced,
                Err(failed) => return Some(failed),
            }
            exceeds = None;
        }
        batch.clear();
        // Most texts hold no match: the text is kept, not copied.
        if let Cow::Owned(replaced) = native.apply_counted(&subject, limit, &mut exceeds)? {
            subject = replaced;
            exceeds = None;
        }
    }
    Some(match preg_replace(&batch, subject)? {
        Ok(replaced) => bytes_zval(&replaced),
        Err(failed) => failed,
    })
}

/// One substitution as last read, and what `recognize` made of it.
struct Recognized {
    pattern: Vec<u8>,
    replacement: Vec<u8>,
    native: Option<Rc<Replacement>>,
}

thread_local! {
    /// The list is the class's static, the same for every page: parsed once,
    /// not once a page.
    static RECOGNIZED: RefCell<Vec<Recognized>> = const { RefCell::new(Vec::new()) };
}

/// `recognize(pattern, replacement)` for the list's entry `i`, kept while
/// the entry's bytes stay the same.
fn recognized(i: usize, pattern: &[u8], replacement: &[u8]) -> Option<Rc<Replacement>> {
    RECOGNIZED.with_borrow_mut(|list| {
        if let Some(kept) = list.get(i).filter(|k| k.pattern == pattern && k.replacement == replacement) {
            return kept.native.clone();
        }
        let native = recognize(pattern, replacement).map(Rc::new);
        let entry = Recognized { pattern: pattern.to_vec(), replacement: replacement.to_vec(), native: native.clone() };
        match i.cmp(&list.len()) {
            std::cmp::Ordering::Less => list[i] = entry,
            std::cmp::Ordering::Equal => list.push(entry),
            std::cmp::Ordering::Greater => {}
        }
        native
    })
}

/// PHP's `preg_replace` of `batch`'s patterns over `subject`: Ok with the
/// text, Err with PHP's null where PCRE failed; None where it could not be
/// called.
fn preg_replace(batch: &[(&[u8], &[u8])], subject: Vec<u8>) -> Option<Result<Vec<u8>, Zval>> {
    if batch.is_empty() {
        return Some(Ok(subject));
    }
    let patterns = array_zval(list_of(batch.len(), |i| bytes_zval(batch[i].0)));
    let replacements = array_zval(list_of(batch.len(), |i| bytes_zval(batch[i].1)));
    let replaced = call_function("preg_replace", &mut [patterns, replacements, bytes_zval(&subject)])?;
    Some(match replaced.zend_str() {
        Some(text) => Ok(text.as_bytes().to_vec()),
        None if replaced.is_null() => Err(replaced),
        None => return None,
    })
}

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&CANONICALIZE, canonicalize_handler)])
}
