//! `yioop_codec\snippets\getSnippets($model, $text, $words, $length)`:
//! Yioop's `Model::getSnippets` (core: `crate::search::snippets`, lazy matching),
//! called by the switched method itself; contract: php/yioop_codec.stub.php. It
//! runs every text operation through PHP's own functions (preg_match,
//! mb_substr, stristr, strrpos, trim, preg_replace, preg_quote), so PCRE,
//! its JIT, its limits and mbstring are PHP's; the gain is asking PCRE for
//! fewer matches. The exception is mb_strlen of valid UTF-8 under a UTF-8
//! internal encoding, which is its count of code points, counted here. `self::` is the calling
//! method's class: its constants and its function statics are read there.
//!
//! Yioop's statics are read, never written. Why that is invisible to later
//! PHP calls: Yioop reuses its cached `$word_regex` only when the new word
//! string `!=`-equals `$last_words`, and the cache always holds the regex
//! of `$last_words`. With neither string numeric `!=` is byte inequality,
//! so every later call uses the regex of its own word string whether or
//! not this call had updated the cache; hence the numeric declines (with
//! `"10"` cached, `"1e1"` would reuse the regex of `"10"`).
//! `preg_last_error()` is left as the last preg call here sets it (Yioop's
//! preg_match_all would leave its own); Yioop never reads it.

use crate::php::runtime::classes::{live_statics, loaded};
use crate::php::runtime::ffi::ZEND_USER_FUNCTION;
use crate::php::runtime::function::{self, Param};
use crate::search::snippets::{leading_snippet, snippets, word_regex, Lengths, Stop, TextFunctions};
use ext_php_rs::ffi::zend_string;
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;
use ext_php_rs::zend::ExecuteData;

use crate::php::runtime::convert::bytes_zval;
use crate::php::runtime::zval::{long_zval, reference_zval};

/// php-src's PREG_OFFSET_CAPTURE.
const PREG_OFFSET_CAPTURE: i64 = 256;
/// Longer word strings decline: a pattern PCRE might refuse to compile
/// would warn where Yioop warns only later.
const MAX_WORD_STRING: usize = 2000;

php_function!(GET_SNIPPETS, get_snippets_handler, "yioop_codec\\snippets\\getSnippets", [Param::Value("model"), Param::Value("text"), Param::Value("words"), Param::Value("description_length")], DataType::Mixed, |args| {
    let caller = caller_method(args.frame());
        let [_model, text, words, length] = args.values::<4>();
        let result = caller.and_then(|(class, method)| get_snippets(&class, &method, text, words, length).ok().flatten());
        Ok(result.unwrap_or_default())
});

/// The class and name of the user method that called this function.
fn caller_method(ex: &ExecuteData) -> Option<(String, String)> {
    unsafe {
        let prev = ex.prev_execute_data;
        if prev.is_null() || (*prev).func.is_null() {
            return None;
        }
        let func = &*(*prev).func;
        if func.type_ != ZEND_USER_FUNCTION || func.common.scope.is_null() || func.common.function_name.is_null() {
            return None;
        }
        let class = zend_str_text((*func.common.scope).name)?;
        Some((class, zend_str_text(func.common.function_name)?))
    }
}

unsafe fn zend_str_text(s: *mut zend_string) -> Option<String> {
    let len = (*s).len;
    let bytes = std::slice::from_raw_parts((*s).val.as_ptr().cast::<u8>(), len);
    String::from_utf8(bytes.to_vec()).ok()
}

/// getSnippets' result, Ok(None) to decline, Err where PHP threw.
fn get_snippets(class: &str, method: &str, text: &Zval, words: &Zval, length: &Zval) -> Result<Option<Zval>, Stop> {
    let (Some(text), Some(length)) = (text.dereference().zend_str(), length.dereference().long()) else {
        return Ok(None);
    };
    let text = text.as_bytes();
    if std::str::from_utf8(text).is_err() || !internal_encoding_is_utf8()? {
        return Ok(None);
    }
    let mut php = Php::default();
    if php.char_count(text)? < length {
        return Ok(Some(bytes_zval(text)));
    }
    let Some(word_string) = word_string(words) else {
        return Ok(None);
    };
    if word_string.is_empty() && words_empty(words) {
        return Ok(Some(bytes_zval(&leading_snippet(&mut php, text, length)?)));
    }
    if word_string.len() > MAX_WORD_STRING || has_caseless_partner(&word_string, text) || is_numeric(&word_string)? {
        return Ok(None);
    }
    let Some(lengths) = lengths(class)? else {
        return Ok(None);
    };
    let Some(regex) = word_regex(&mut php, &word_string)? else {
        return Ok(None);
    };
    if !statics_agree(class, method, &word_string, &regex)? {
        return Ok(None);
    }
    Ok(Some(bytes_zval(&snippets(&mut php, text, &word_string, &regex, length, lengths, limits_allow_skipping(lengths.left))?)))
}

/// `implode(" ", $words)` for an array of ASCII strings; None otherwise.
fn word_string(words: &Zval) -> Option<Vec<u8>> {
    let array = words.dereference().array()?;
    let mut joined = Vec::new();
    for (i, (_, word)) in array.iter().enumerate() {
        let word = word.dereference().zend_str()?.as_bytes();
        if !word.is_ascii() {
            return None;
        }
        if i > 0 {
            joined.push(b' ');
        }
        joined.extend_from_slice(word);
    }
    Some(joined)
}

fn words_empty(words: &Zval) -> bool {
    words.dereference().array().is_some_and(|a| a.len() == 0)
}

/// Words with k or s and a text with U+212A (Kelvin) or U+017F (long s):
/// under /ui those match k and s, which the declines leave to Yioop.
fn has_caseless_partner(word_string: &[u8], text: &[u8]) -> bool {
    let partner = |needle: &[u8]| text.windows(needle.len()).any(|w| w[0] == needle[0] && w == needle);
    word_string.iter().any(|b| matches!(b, b'k' | b'K' | b's' | b'S')) && (partner("\u{212A}".as_bytes()) || partner("\u{017F}".as_bytes()))
}

/// Whether PHP's PCRE limits leave room for the steps a skipped start
/// position takes: about the left length times the words in backtracking
/// (tens of thousands for the longest word string accepted), and about the
/// left length in depth. Yioop's Config.php sets 1,000,000 and 3,000; with
/// either set lower, or a left length over 100, every position is searched.
fn limits_allow_skipping(left: i64) -> bool {
    left <= 100 && crate::php::runtime::engine::pcre_limits_at_least(1_000_000, 1_000)
}

fn internal_encoding_is_utf8() -> Result<bool, Stop> {
    let encoding = call("mb_internal_encoding", &mut [])?;
    Ok(encoding.zend_str().is_some_and(|s| s.as_bytes() == b"UTF-8"))
}

fn is_numeric(s: &[u8]) -> Result<bool, Stop> {
    Ok(call("is_numeric", &mut [bytes_zval(s)])?.bool() == Some(true))
}

/// self::SNIPPET_LENGTH_LEFT, SNIPPET_LENGTH_RIGHT, MIN_SNIPPET_LENGTH of
/// the calling class; None unless all are ints.
fn lengths(class: &str) -> Result<Option<Lengths>, Stop> {
    let mut values = [0i64; 3];
    for (value, name) in values.iter_mut().zip(["SNIPPET_LENGTH_LEFT", "SNIPPET_LENGTH_RIGHT", "MIN_SNIPPET_LENGTH"]) {
        let qualified = format!("{class}::{name}");
        if call("defined", &mut [bytes_zval(qualified.as_bytes())])?.bool() != Some(true) {
            return Ok(None);
        }
        match call("constant", &mut [bytes_zval(qualified.as_bytes())])?.long() {
            Some(v) if v > i64::MIN + 3 => *value = v,
            _ => return Ok(None),
        }
    }
    Ok(Some(Lengths { left: values[0], right: values[1], min_source: values[2] }))
}

/// The calling method's statics (read in place, `classes::live_statics`):
/// `$last_words` a non-numeric string, and where it is this call's word
/// string, `$word_regex` the regex it gives.
fn statics_agree(class: &str, method: &str, word_string: &[u8], regex: &[u8]) -> Result<bool, Stop> {
    let scope = loaded(&bytes_zval(class.as_bytes()));
    let Some(statics) = scope.and_then(|scope| live_statics(scope, &method.to_ascii_lowercase())) else {
        return Ok(false);
    };
    let text = |name: &str| statics.get(name).and_then(|v| v.dereference().zend_str()).map(|s| s.as_bytes().to_vec());
    let Some(last_words) = text("last_words") else {
        return Ok(false);
    };
    if is_numeric(&last_words)? {
        return Ok(false);
    }
    Ok(last_words != word_string || text("word_regex").is_some_and(|cached| cached == regex))
}

/// Calls PHP's function `name`; Err where it could not be called or threw.
fn call(name: &str, args: &mut [Zval]) -> Result<Zval, Stop> {
    crate::php::runtime::engine::call_function(name, args).ok_or(Stop)
}

fn string_of(z: &Zval) -> Result<Vec<u8>, Stop> {
    z.zend_str().map(|s| s.as_bytes().to_vec()).ok_or(Stop)
}

/// PHP's functions, called by name.
#[derive(Default)]
struct Php {
    /// The source the matches are being taken from, as one PHP string
    /// for all its `preg_match` calls (as `preg_match_all` has one): PHP
    /// marks it valid UTF-8 after the first, so PCRE does not check the
    /// whole source again on every call.
    subject: Option<(*const u8, usize, Zval)>,
}

impl Php {
    fn subject(&mut self, s: &[u8]) -> Zval {
        match &self.subject {
            Some((at, len, z)) if *at == s.as_ptr() && *len == s.len() => z.shallow_clone(),
            _ => {
                let z = bytes_zval(s);
                let copy = z.shallow_clone();
                self.subject = Some((s.as_ptr(), s.len(), z));
                copy
            }
        }
    }
}

impl TextFunctions for Php {
    fn char_count(&mut self, s: &[u8]) -> Result<i64, Stop> {
        // mb_strlen under UTF-8 (get_snippets checked the internal
        // encoding): on valid UTF-8 every mbstring counts code points.
        // Anything else is PHP's to count.
        match std::str::from_utf8(s) {
            Ok(text) => Ok(text.chars().count() as i64),
            Err(_) => call("mb_strlen", &mut [bytes_zval(s)])?.long().ok_or(Stop),
        }
    }

    fn char_prefix(&mut self, s: &[u8], chars: i64) -> Result<Vec<u8>, Stop> {
        string_of(&call("mb_substr", &mut [bytes_zval(s), long_zval(0), long_zval(chars)])?)
    }

    fn last_space(&mut self, s: &[u8]) -> Result<Option<i64>, Stop> {
        Ok(call("strrpos", &mut [bytes_zval(s), bytes_zval(b" ")])?.long())
    }

    fn quote(&mut self, word: &[u8]) -> Result<Vec<u8>, Stop> {
        string_of(&call("preg_quote", &mut [bytes_zval(word), bytes_zval(b"/")])?)
    }

    fn matches(&mut self, regex: &[u8], s: &[u8]) -> Result<bool, Stop> {
        Ok(call("preg_match", &mut [bytes_zval(regex), bytes_zval(s)])?.long() == Some(1))
    }

    fn match_from(&mut self, regex: &[u8], s: &[u8], offset: usize) -> Result<Option<(Vec<u8>, usize)>, Stop> {
        let mut args = [bytes_zval(regex), self.subject(s), reference_zval(), long_zval(PREG_OFFSET_CAPTURE), long_zval(offset as i64)];
        if call("preg_match", &mut args)?.long() != Some(1) {
            return Ok(None);
        }
        let whole = args[2].dereference().array().and_then(|m| m.get_index(0)).and_then(|w| w.array()).ok_or(Stop)?;
        let found = whole.get_index(0).and_then(Zval::zend_str).ok_or(Stop)?.as_bytes().to_vec();
        let at = whole.get_index(1).and_then(Zval::long).ok_or(Stop)?;
        Ok(Some((found, usize::try_from(at).map_err(|_| Stop)?)))
    }

    fn contains_caseless(&mut self, haystack: &[u8], needle: &[u8]) -> Result<bool, Stop> {
        Ok(call("stristr", &mut [bytes_zval(haystack), bytes_zval(needle)])?.bool() != Some(false))
    }

    fn trim_dots(&mut self, s: &[u8]) -> Result<Vec<u8>, Stop> {
        string_of(&call("trim", &mut [bytes_zval(s), bytes_zval(b".")])?)
    }

    fn drop_last_word(&mut self, s: &[u8]) -> Result<Option<Vec<u8>>, Stop> {
        let result = call("preg_replace", &mut [bytes_zval(b"/[^\\s]+$/"), bytes_zval(b""), bytes_zval(s)])?;
        Ok(result.zend_str().map(|r| r.as_bytes().to_vec()))
    }
}

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&GET_SNIPPETS, get_snippets_handler)])
}
