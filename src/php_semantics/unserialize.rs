//! PHP's `serialize` format read natively, for the part of it a summary
//! uses: null, bools, ints, floats, strings and arrays with int or string
//! keys. What `unserialize` would build from such a text is handed to a
//! [`Build`] (the binding builds zvals); anything else (objects, references,
//! `S:` strings, NAN, ints that could overflow, malformed or trailing bytes,
//! nesting past the depth limit) is [`Decline`], and the caller runs PHP's
//! own `unserialize` on the text instead.
//!
//! Why the values are `unserialize`'s (php-src's var_unserializer.re):
//! - ints: `[+-]?` digits, leading zeros skipped; at most 18 digits remain
//!   here, so PHP's overflow warning cannot happen.
//! - floats: PHP's grammar (digits, `.`, `e`) read by `zend_strtod`, which
//!   rounds correctly, as Rust's `f64` parser does: one answer for both.
//! - array keys: a string key that is a canonical integer becomes an int key
//!   (`ZEND_HANDLE_NUMERIC`), and a repeated key overwrites in place.
//! - a non-empty array counts one level of depth; `a:0:{}` does not.

use super::Decline;
use crate::php_semantics::num::integer_key;

/// An array key, as the array holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key<'a> {
    Int(i64),
    Str(&'a [u8]),
}

/// What a parse builds, value by value.
pub trait Build {
    type Value;
    type Array;
    fn null(&mut self) -> Self::Value;
    fn bool(&mut self, b: bool) -> Self::Value;
    fn long(&mut self, i: i64) -> Self::Value;
    fn double(&mut self, d: f64) -> Self::Value;
    fn string(&mut self, s: &[u8]) -> Self::Value;
    fn empty_array(&mut self) -> Self::Value;
    /// A non-empty array of `len` entries, before any is added.
    fn array(&mut self, len: usize) -> Self::Array;
    /// Sets `array[key]`: a new key at the end, a repeated one in place.
    fn set(&mut self, array: &mut Self::Array, key: Key, value: Self::Value);
    fn finish(&mut self, array: Self::Array) -> Self::Value;
    /// Whether the entry `key` of an array `depth` levels deep (1: the
    /// outermost) is left out: its value is still read, so the text is
    /// taken or declined as a whole, but never built.
    fn skips(&mut self, _depth: usize, _key: &Key) -> bool {
        false
    }
}

/// A `Build` that builds nothing: the values an entry left out reads.
struct Nothing;

impl Build for Nothing {
    type Value = ();
    type Array = ();
    fn null(&mut self) {}
    fn bool(&mut self, _: bool) {}
    fn long(&mut self, _: i64) {}
    fn double(&mut self, _: f64) {}
    fn string(&mut self, _: &[u8]) {}
    fn empty_array(&mut self) {}
    fn array(&mut self, _: usize) {}
    fn set(&mut self, _: &mut (), _: Key, _: ()) {}
    fn finish(&mut self, _: ()) {}
}

/// The most array levels read here; deeper texts go to PHP.
pub const MAX_DEPTH: usize = 64;

/// The value `text` serializes, if it is one value of the subset, nested
/// at most `max_depth` arrays deep (`unserialize_max_depth`: 0 is no limit)
/// and [`MAX_DEPTH`], with nothing after.
pub fn parse<B: Build>(text: &[u8], max_depth: usize, build: &mut B) -> Result<B::Value, Decline> {
    let max_depth = if max_depth == 0 { MAX_DEPTH } else { max_depth.min(MAX_DEPTH) };
    let mut reader = Reader { text, at: 0, max_depth };
    let value = reader.value(build, 0)?;
    if reader.at != text.len() {
        return Err(Decline);
    }
    Ok(value)
}

/// An array entry's key and where its key and value stand in the text.
pub type Entry<'a> = (Key<'a>, std::ops::Range<usize>);

/// Where each entry of the outermost array of `text` stands: its key and
/// the bytes of key and value; None where `text` is one value of the subset
/// but not a non-empty array. Every value is read, as [`parse`] reads it:
/// a text [`parse`] declines is declined here.
pub fn outer_entries(text: &[u8], max_depth: usize) -> Result<Option<Vec<Entry<'_>>>, Decline> {
    let max_depth = if max_depth == 0 { MAX_DEPTH } else { max_depth.min(MAX_DEPTH) };
    let mut reader = Reader { text, at: 0, max_depth };
    if !text.starts_with(b"a:") || text.starts_with(b"a:0:") {
        parse(text, max_depth, &mut Nothing)?;
        return Ok(None);
    }
    reader.at = 2;
    let len = reader.length(b':')?;
    reader.expect(b"{")?;
    if len > text.len() - reader.at {
        return Err(Decline);
    }
    let mut entries = Vec::with_capacity(len);
    for _ in 0..len {
        let start = reader.at;
        let key = reader.key()?;
        reader.value(&mut Nothing, 1)?;
        entries.push((key, start..reader.at));
    }
    reader.expect(b"}")?;
    if reader.at != text.len() {
        return Err(Decline);
    }
    Ok(Some(entries))
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    max_depth: usize,
}

impl<'a> Reader<'a> {
    fn value<B: Build>(&mut self, build: &mut B, depth: usize) -> Result<B::Value, Decline> {
        let kind = self.byte()?;
        if kind == b'N' {
            self.expect(b";")?;
            return Ok(build.null());
        }
        self.expect(b":")?;
        match kind {
            b'b' => {
                let b = match self.byte()? {
                    b'0' => false,
                    b'1' => true,
                    _ => return Err(Decline),
                };
                self.expect(b";")?;
                Ok(build.bool(b))
            }
            b'i' => Ok(build.long(self.int()?)),
            b'd' => Ok(build.double(self.double()?)),
            b's' => Ok(build.string(self.string()?)),
            b'a' => self.array(build, depth + 1),
            _ => Err(Decline),
        }
    }

    fn array<B: Build>(&mut self, build: &mut B, depth: usize) -> Result<B::Value, Decline> {
        let len = self.length(b':')?;
        self.expect(b"{")?;
        if len == 0 {
            self.expect(b"}")?;
            return Ok(build.empty_array());
        }
        if depth > self.max_depth || len > self.text.len() - self.at {
            return Err(Decline);
        }
        let mut array = build.array(len);
        for _ in 0..len {
            let key = self.key()?;
            if build.skips(depth, &key) {
                self.value(&mut Nothing, depth)?;
                continue;
            }
            let value = self.value(build, depth)?;
            build.set(&mut array, key, value);
        }
        self.expect(b"}")?;
        Ok(build.finish(array))
    }

    fn key(&mut self) -> Result<Key<'a>, Decline> {
        let kind = self.byte()?;
        self.expect(b":")?;
        match kind {
            b'i' => Ok(Key::Int(self.int()?)),
            b's' => {
                let s = self.string()?;
                Ok(integer_key(s).map_or(Key::Str(s), Key::Int))
            }
            _ => Err(Decline),
        }
    }

    /// `[+-]?[0-9]+;` as `parse_iv` reads it, where it cannot overflow.
    fn int(&mut self) -> Result<i64, Decline> {
        let sign = self.text.get(self.at).copied();
        if matches!(sign, Some(b'-' | b'+')) {
            self.at += 1;
        }
        let digits = self.digits();
        self.expect(b";")?;
        let significant = digits.iter().position(|&d| d != b'0').map_or(&digits[..0], |i| &digits[i..]);
        if digits.is_empty() || significant.len() > 18 {
            return Err(Decline);
        }
        let n = significant.iter().fold(0i64, |n, &d| n * 10 + i64::from(d - b'0'));
        Ok(if sign == Some(b'-') { -n } else { n })
    }

    /// PHP's float forms (`iv`, `nv`, `nvexp`, `INF`, `-INF`) up to `;`.
    fn double(&mut self) -> Result<f64, Decline> {
        let rest = &self.text[self.at..];
        let len = php_float_len(rest);
        if len > 0 && rest.get(len) == Some(&b';') {
            if exponent_capped(&rest[..len]) {
                return Err(Decline);
            }
            self.at += len + 1;
            // php_float_len admits ASCII only.
            return std::str::from_utf8(&rest[..len]).map_err(|_| Decline)?.parse().map_err(|_| Decline);
        }
        for (token, value) in [(&b"INF;"[..], f64::INFINITY), (&b"-INF;"[..], f64::NEG_INFINITY)] {
            if rest.starts_with(token) {
                self.at += token.len();
                return Ok(value);
            }
        }
        Err(Decline)
    }

    /// `len:"bytes";` (after `s:`).
    fn string(&mut self) -> Result<&'a [u8], Decline> {
        let len = self.length(b':')?;
        self.expect(b"\"")?;
        let bytes = self.text.get(self.at..self.at.checked_add(len).ok_or(Decline)?).ok_or(Decline)?;
        self.at += len;
        self.expect(b"\";")?;
        Ok(bytes)
    }

    /// A length (`uiv`) and the byte that must follow it.
    fn length(&mut self, then: u8) -> Result<usize, Decline> {
        let digits = self.digits();
        if digits.is_empty() || digits.len() > 12 {
            return Err(Decline);
        }
        self.expect(&[then])?;
        Ok(digits.iter().fold(0usize, |n, &d| n * 10 + usize::from(d - b'0')))
    }

    fn digits(&mut self) -> &'a [u8] {
        let start = self.at;
        while self.text.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        &self.text[start..self.at]
    }

    fn byte(&mut self) -> Result<u8, Decline> {
        let b = *self.text.get(self.at).ok_or(Decline)?;
        self.at += 1;
        Ok(b)
    }

    fn expect(&mut self, bytes: &[u8]) -> Result<(), Decline> {
        if self.text.get(self.at..self.at + bytes.len()) != Some(bytes) {
            return Err(Decline);
        }
        self.at += bytes.len();
        Ok(())
    }
}

/// Whether `zend_strtod` caps this float's explicit exponent: past 19999
/// (leading zeros aside) it reads 19999, so with enough mantissa digits to
/// make up for it ("1" and 30,000 zeros "e-30000") it gives INF or 0.0
/// where the exact value is 1. Such floats are left to PHP.
fn exponent_capped(float: &[u8]) -> bool {
    let Some(e) = float.iter().position(|b| matches!(b, b'e' | b'E')) else { return false };
    let digits = &float[e + 1..];
    let digits = digits.strip_prefix(b"+").or_else(|| digits.strip_prefix(b"-")).unwrap_or(digits);
    let significant = &digits[digits.iter().take_while(|&&d| d == b'0').count()..];
    significant.len() > 5 || significant.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0')) > 19_999
}

/// How many bytes at the start of `s` are a float in var_unserializer.re's
/// `iv | nv | nvexp`: `[+-]?`, digits with at most one `.` and at least one
/// digit, then optionally `[eE][+-]?[0-9]+`. 0 where none is.
fn php_float_len(s: &[u8]) -> usize {
    let digits_from = |mut i: usize| {
        while s.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let signed = |i: usize| i + usize::from(matches!(s.get(i), Some(b'+' | b'-')));
    let start = signed(0);
    let mut end = digits_from(start);
    let mut digits = end - start;
    if s.get(end) == Some(&b'.') {
        let fraction_end = digits_from(end + 1);
        digits += fraction_end - end - 1;
        end = fraction_end;
    }
    if digits == 0 {
        return 0;
    }
    if matches!(s.get(end), Some(b'e' | b'E')) {
        let exponent = signed(end + 1);
        let exponent_end = digits_from(exponent);
        if exponent_end > exponent {
            end = exponent_end;
        } else {
            return 0; // "1e;": PHP's grammar has no such float
        }
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain tree, to see what a parse built.
    #[derive(Debug, Clone, PartialEq)]
    enum V {
        Null,
        Bool(bool),
        Long(i64),
        Double(f64),
        Str(Vec<u8>),
        Array(Vec<(K, V)>),
    }

    #[derive(Debug, Clone, PartialEq)]
    enum K {
        I(i64),
        S(Vec<u8>),
    }

    struct Tree;

    impl Build for Tree {
        type Value = V;
        type Array = Vec<(K, V)>;
        fn null(&mut self) -> V {
            V::Null
        }
        fn bool(&mut self, b: bool) -> V {
            V::Bool(b)
        }
        fn long(&mut self, i: i64) -> V {
            V::Long(i)
        }
        fn double(&mut self, d: f64) -> V {
            V::Double(d)
        }
        fn string(&mut self, s: &[u8]) -> V {
            V::Str(s.to_vec())
        }
        fn empty_array(&mut self) -> V {
            V::Array(vec![])
        }
        fn array(&mut self, len: usize) -> Vec<(K, V)> {
            Vec::with_capacity(len)
        }
        fn set(&mut self, array: &mut Vec<(K, V)>, key: Key, value: V) {
            let key = match key {
                Key::Int(i) => K::I(i),
                Key::Str(s) => K::S(s.to_vec()),
            };
            match array.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = value,
                None => array.push((key, value)),
            }
        }
        fn finish(&mut self, array: Vec<(K, V)>) -> V {
            V::Array(array)
        }
    }

    fn read(text: &str) -> Result<V, Decline> {
        parse(text.as_bytes(), 4096, &mut Tree)
    }

    #[test]
    fn scalars_read_as_unserialize_gives_them() {
        assert_eq!(read("N;"), Ok(V::Null));
        assert_eq!(read("b:1;"), Ok(V::Bool(true)));
        assert_eq!(read("b:0;"), Ok(V::Bool(false)));
        assert_eq!(read("i:-0042;"), Ok(V::Long(-42)));
        assert_eq!(read("i:+7;"), Ok(V::Long(7)));
        assert_eq!(read("i:000000000000000000000001;"), Ok(V::Long(1)), "leading zeros are not digits that count");
        assert_eq!(read("d:1.4E-5;"), Ok(V::Double(1.4e-5)));
        assert_eq!(read("d:.5;"), Ok(V::Double(0.5)));
        assert_eq!(read("d:5.;"), Ok(V::Double(5.0)));
        assert_eq!(read("d:5.e1;"), Ok(V::Double(50.0)));
        assert_eq!(read("d:-INF;"), Ok(V::Double(f64::NEG_INFINITY)));
        assert_eq!(read("d:1e999;"), Ok(V::Double(f64::INFINITY)));
        // zend_strtod reads exponents past 19999 as 19999: left to PHP.
        assert_eq!(read(&format!("d:1{}e-30000;", "0".repeat(30_000))), Err(Decline));
        assert_eq!(read("d:1e+0019999;"), Ok(V::Double(f64::INFINITY)));
        assert_eq!(read("d:1e20000;"), Err(Decline));
        assert_eq!(read("s:3:\"a\"b\";"), Ok(V::Str(b"a\"b".to_vec())), "a string's length, not its quotes, ends it");
    }

    #[test]
    fn keys_that_are_integers_become_int_keys_and_repeats_overwrite_in_place() {
        let got = read("a:4:{s:1:\"7\";i:1;s:2:\"07\";i:2;i:7;i:3;s:2:\"-0\";i:4;}").unwrap();
        let want = V::Array(vec![(K::I(7), V::Long(3)), (K::S(b"07".to_vec()), V::Long(2)), (K::S(b"-0".to_vec()), V::Long(4))]);
        assert_eq!(got, want);
    }

    #[test]
    fn what_php_must_answer_declines() {
        for text in [
            "d:NAN;",                     // NAN's bits are PHP's to choose
            "i:9999999999999999999;",     // PHP warns: out of range
            "O:8:\"stdClass\":0:{}",      // objects run PHP code
            "a:1:{i:0;R:1;}",             // references
            "S:1:\"a\";",                 // escaped strings (deprecated)
            "a:1:{d:1;i:0;}",             // a float key: PHP fails
            "a:2:{i:0;i:0;}",             // fewer entries than counted
            "i:1;x",                      // bytes after the value
            "s:5:\"abc\";",               // a string past the end
            "d:1e;",
            "d:.;",
            "d:1.5.5;",
            "b:2;",
        ] {
            assert_eq!(read(text), Err(Decline), "{text}");
        }
    }

    #[test]
    fn depth_counts_non_empty_arrays_only() {
        let nested = |n: usize| "a:1:{i:0;".repeat(n) + "a:0:{}" + &"}".repeat(n);
        assert!(parse(nested(3).as_bytes(), 3, &mut Tree).is_ok(), "the empty innermost array is not a level");
        assert_eq!(parse(nested(4).as_bytes(), 3, &mut Tree), Err(Decline));
        assert!(parse(nested(MAX_DEPTH).as_bytes(), 0, &mut Tree).is_ok(), "0 is no limit");
        assert_eq!(parse(nested(MAX_DEPTH + 1).as_bytes(), 0, &mut Tree), Err(Decline), "but MAX_DEPTH still holds");
    }

    proptest::proptest! {
        // Any bytes, and serializations with bytes changed: a value or a
        // decline, never a panic (the binding runs this inside PHP).
        #[test]
        fn any_bytes_parse_or_decline(text in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
            let _ = parse(&text, 4096, &mut Tree);
        }

        #[test]
        fn damaged_serializations_parse_or_decline(at in 0usize..60, byte in proptest::prelude::any::<u8>(), cut in 0usize..60) {
            let good = b"a:3:{i:0;d:1.5E-7;s:2:\"ab\";a:1:{i:-3;s:1:\"x\";}s:1:\"k\";b:1;}".to_vec();
            proptest::prop_assert!(parse(&good, 4096, &mut Tree).is_ok());
            let mut text = good.clone();
            text[at % good.len()] = byte;
            text.truncate(good.len() - cut % good.len());
            let _ = parse(&text, 4096, &mut Tree);
        }
    }

    #[test]
    fn php_float_grammar() {
        for ok in ["1", "-1", "+1", "1.5", ".5", "5.", "1e5", "1E+5", "1.5e-5", ".5E5", "5.e5"] {
            assert_eq!(php_float_len(ok.as_bytes()), ok.len(), "{ok}");
        }
        for bad in ["", ".", "e5", "1e", "1e+", "--1", "1.5.5", "0x1", "inf", "1_0", "NAN", "+INF"] {
            assert_eq!(read(&format!("d:{bad};")), Err(Decline), "{bad}");
        }
    }

    /// Records each built string; leaves out the outermost entries keyed `skip`.
    struct Skipping {
        built: Vec<Vec<u8>>,
    }

    impl Build for Skipping {
        type Value = ();
        type Array = ();
        fn null(&mut self) {}
        fn bool(&mut self, _: bool) {}
        fn long(&mut self, _: i64) {}
        fn double(&mut self, _: f64) {}
        fn string(&mut self, s: &[u8]) {
            self.built.push(s.to_vec());
        }
        fn empty_array(&mut self) {}
        fn array(&mut self, _: usize) {}
        fn set(&mut self, _: &mut (), _: Key, _: ()) {}
        fn finish(&mut self, _: ()) {}
        fn skips(&mut self, depth: usize, key: &Key) -> bool {
            depth == 1 && *key == Key::Str(b"skip")
        }
    }

    #[test]
    fn entries_left_out_are_read_but_not_built() {
        let mut build = Skipping { built: Vec::new() };
        let text = br#"a:3:{s:4:"keep";s:1:"a";s:4:"skip";a:1:{i:0;s:1:"b";}s:5:"inner";a:1:{s:4:"skip";s:1:"c";}}"#;
        parse(text, 0, &mut build).unwrap();
        assert_eq!(build.built, vec![b"a".to_vec(), b"c".to_vec()], "only the outermost entry is left out");
        let damaged = br#"a:2:{s:4:"keep";s:1:"a";s:4:"skip";s:9:"short";}"#;
        assert_eq!(parse(damaged, 0, &mut Skipping { built: Vec::new() }), Err(Decline), "a value left out is still read");
        let object = br#"a:1:{s:4:"skip";O:8:"stdClass":0:{}}"#;
        assert_eq!(parse(object, 0, &mut Skipping { built: Vec::new() }), Err(Decline), "and still declines what PHP must read");
    }

    #[test]
    fn outer_entries_are_the_spans_of_key_and_value() {
        let text = br#"a:3:{s:1:"t";s:3:"abc";i:5;a:1:{i:0;d:0.5;}s:1:"q";N;}"#;
        let entries = outer_entries(text, 0).unwrap().unwrap();
        let keys: Vec<Key> = entries.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, vec![Key::Str(b"t"), Key::Int(5), Key::Str(b"q")]);
        let spans: Vec<&[u8]> = entries.iter().map(|(_, r)| &text[r.clone()]).collect();
        assert_eq!(spans, vec![&br#"s:1:"t";s:3:"abc";"#[..], br#"i:5;a:1:{i:0;d:0.5;}"#, br#"s:1:"q";N;"#]);
        assert_eq!(outer_entries(b"b:0;", 0), Ok(None), "not an array");
        assert_eq!(outer_entries(b"a:0:{}", 0), Ok(None), "an empty one");
        assert_eq!(outer_entries(br#"a:1:{s:1:"q";O:8:"stdClass":0:{}}"#, 0), Err(Decline), "read whole, as parse reads it");
        assert_eq!(outer_entries(br#"a:1:{i:0;a:1:{i:0;a:0:{}}}"#, 1), Err(Decline), "with its depth limit");
        assert_eq!(outer_entries(br#"a:1:{i:0;N;}x"#, 0), Err(Decline), "and nothing after");
    }
}
