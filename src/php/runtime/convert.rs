//! Zvals in and out: PHP's own conversion rules for the values Yioop's code
//! does arithmetic on, and PHP's error messages where those rules throw.

use crate::php::runtime::ffi::{GC_STRING};
use crate::php::runtime::arrays;
use crate::php::runtime::zval::{array_zval, long_of, long_zval};
use crate::php_semantics::num::Num;
use ext_php_rs::exception::PhpException;
use ext_php_rs::flags::DataType;
use ext_php_rs::boxed::ZBox;
use ext_php_rs::ffi::zend_string;
use ext_php_rs::types::{ZendHashTable, ZendStr, Zval};
use ext_php_rs::zend::ce;

pub type Fallible<T> = Result<T, PhpException>;

pub fn type_error(message: String) -> PhpException {
    PhpException::new(message, 0, ce::type_error())
}

pub fn value_error(message: String) -> PhpException {
    PhpException::new(message, 0, ce::value_error())
}

/// The type name PHP puts in its error messages.
pub fn type_name(value: &Zval) -> String {
    match value.get_type() {
        DataType::Long => "int".into(),
        DataType::Double => "float".into(),
        DataType::String => "string".into(),
        DataType::Null => "null".into(),
        DataType::True | DataType::False | DataType::Bool => "bool".into(),
        DataType::Array => "array".into(),
        DataType::Object(_) => value
            .object()
            .and_then(|o| o.get_class_name().ok())
            .unwrap_or_else(|| "object".into()),
        _ => "mixed".into(),
    }
}

/// The number PHP's arithmetic takes from a value, or the TypeError that PHP 8
/// throws for `$value <op> int` (arrays, objects, non-numeric strings).
pub fn operand(value: &Zval, op: &str) -> Fallible<Num> {
    if let Some(i) = long_of(value) {
        return Ok(Num::Int(i));
    }
    let value = value.dereference();
    match value.get_type() {
        DataType::Long => Ok(Num::Int(value.long().unwrap_or(0))),
        DataType::Double => Ok(Num::Float(value.double().unwrap_or(0.0))),
        DataType::Null | DataType::False => Ok(Num::Int(0)),
        DataType::True => Ok(Num::Int(1)),
        DataType::String => value
            .zend_str()
            .and_then(|s| numeric_prefix(s.as_bytes()))
            .ok_or_else(|| unsupported_operands(value, op)),
        _ => Err(unsupported_operands(value, op)),
    }
}

/// `$value <op> int` as an int, as PHP's bitwise operators and `pack()` see it.
pub fn int_operand(value: &Zval, op: &str) -> Fallible<i64> {
    operand(value, op).map(Num::to_int)
}

fn unsupported_operands(value: &Zval, op: &str) -> PhpException {
    type_error(format!("Unsupported operand types: {} {op} int", type_name(value)))
}

/// Whether PHP 8 takes the whole string as a number (`is_numeric`): a
/// leading-numeric string like "12abc" is accepted by arithmetic, with a
/// warning, but refused by int parameters such as substr()'s.
pub fn is_numeric(s: &[u8]) -> bool {
    let trimmed = s.trim_ascii_end();
    numeric_prefix(trimmed).is_some() && numeric_len(trimmed) == trimmed.len()
}

/// The number a numeric string (`is_numeric`) stands for, as PHP's
/// comparisons read it.
pub fn numeric_value(s: &[u8]) -> Option<Num> {
    is_numeric(s).then(|| numeric_prefix(s.trim_ascii_end())).flatten()
}

/// Whether PHP's string access `$s[$offset]` takes this string as the
/// offset: an integer that fits an int, with leading whitespace and
/// trailing data allowed ("12abc" reads as 12, with a warning). "1.5",
/// "1e3" or an integer too big for an int throw PHP's TypeError.
pub fn is_string_offset(s: &[u8]) -> bool {
    matches!(numeric_prefix(s), Some(Num::Int(_)))
}

/// The number at the start of a numeric or leading-numeric string, as PHP
/// reads it (leading whitespace, sign, digits, fraction, exponent).
fn numeric_prefix(s: &[u8]) -> Option<Num> {
    let end = numeric_len(s);
    let text = std::str::from_utf8(&s[..end]).ok()?.trim_start_matches(|c: char| " \t\n\r\x0b\x0c".contains(c));
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let is_int = !text.contains(['.', 'e', 'E']);
    if is_int {
        if let Ok(i) = text.parse::<i64>() {
            return Some(Num::Int(i));
        }
    }
    text.parse::<f64>().ok().map(Num::Float)
}

/// How many bytes of `s` PHP reads as a number: leading whitespace, a sign,
/// digits, a fraction, an exponent; 0 if there is no number there.
fn numeric_len(s: &[u8]) -> usize {
    let Some(start) = s.iter().position(|b| !b" \t\n\r\x0b\x0c".contains(b)) else { return 0 };
    let digits = |from: usize| from + s[from..].iter().take_while(|b| b.is_ascii_digit()).count();
    let sign_end = start + usize::from(matches!(s.get(start), Some(b'+' | b'-')));
    let int_end = digits(sign_end);
    let mut end = int_end;
    if s.get(end) == Some(&b'.') {
        end = digits(end + 1);
    }
    let mantissa_digits = end - sign_end - usize::from(end > int_end);
    if mantissa_digits == 0 {
        return 0;
    }
    if matches!(s.get(end), Some(b'e' | b'E')) {
        let exp_start = end + 1 + usize::from(matches!(s.get(end + 1), Some(b'+' | b'-')));
        let exp_end = digits(exp_start);
        if exp_end > exp_start {
            end = exp_end;
        }
    }
    end
}

/// A number as a zval: int or float, as PHP's arithmetic left it.
pub fn num_zval(n: Num) -> Zval {
    let mut z = Zval::new();
    match n {
        Num::Int(i) => z.set_long(i),
        Num::Float(f) => z.set_double(f),
    }
    z
}

pub fn bytes_zval(bytes: &[u8]) -> Zval {
    let mut z = Zval::new();
    z.set_zend_string(ZendStr::new(bytes, false));
    z
}

/// A new PHP string of `len` bytes, all written by `fill`: the bytes go
/// straight into the string, where `bytes_zval` copies a buffer (tens of
/// megabytes for a shard's postings).
pub fn string_zval_with(len: usize, fill: impl FnOnce(&mut [std::mem::MaybeUninit<u8>])) -> Zval {
    // php-src's zend_string_alloc: header, bytes, a NUL, 8-byte aligned.
    let size = (std::mem::offset_of!(zend_string, val) + len + 1 + 7) & !7;
    unsafe {
        let s = ext_php_rs::ffi::_emalloc(size).cast::<zend_string>();
        (*s).gc.refcount = 1;
        (*s).gc.u.type_info = GC_STRING;
        (*s).h = 0;
        (*s).len = len;
        let val = (*s).val.as_mut_ptr().cast::<std::mem::MaybeUninit<u8>>();
        fill(std::slice::from_raw_parts_mut(val, len));
        val.add(len).write(std::mem::MaybeUninit::new(0));
        let mut z = Zval::new();
        z.set_zend_string(ZBox::from_raw(s.cast::<ZendStr>()));
        z
    }
}

/// A PHP list of ints. Inlined everywhere: left to itself, LLVM inlined it
/// into some callers and not others, and which ones moved with unrelated
/// changes (floorPostings swung between 558 and 648 instructions a
/// posting, bench/instructions.sh).
#[inline]
pub fn int_list<I>(values: I) -> Zval
where
    I: ExactSizeIterator<Item = i64>,
{
    let mut values = values;
    let list = arrays::list_of(values.len(), |_| long_zval(values.next().unwrap_or(0)));
    array_zval(list)
}

/// A PHP list of numbers (ints, or floats where arithmetic overflowed).
pub fn num_list(nums: &[Num]) -> Zval {
    array_zval(arrays::list_of(nums.len(), |i| num_zval(nums[i])))
}

/// The values of an array in iteration order, as ints when they all are.
pub enum Values {
    Ints(Vec<i64>),
    Nums(Vec<Num>),
}

/// Reads an array's values as PHP numbers, for `$a - $b` style arithmetic.
pub fn array_values(array: &ZendHashTable, op: &str) -> Fallible<Values> {
    if let Some(slots) = arrays::slots(array) {
        if let Some(ints) = slots.iter().map(long_of).collect::<Option<Vec<i64>>>() {
            return Ok(Values::Ints(ints));
        }
        return slots.iter().map(|v| operand(v, op)).collect::<Fallible<_>>().map(Values::Nums);
    }
    let values: Vec<&Zval> = array.values().collect();
    match values.iter().map(|v| long_of(v.dereference())).collect() {
        Some(ints) => Ok(Values::Ints(ints)),
        None => values.iter().map(|v| operand(v, op)).collect::<Fallible<_>>().map(Values::Nums),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_prefix_reads_like_php() {
        assert_eq!(numeric_prefix(b"42"), Some(Num::Int(42)));
        assert_eq!(numeric_prefix(b"  -7 "), Some(Num::Int(-7)));
        assert_eq!(numeric_prefix(b"1.5e3"), Some(Num::Float(1500.0)));
        assert_eq!(numeric_prefix(b"12abc"), Some(Num::Int(12)));
        assert_eq!(numeric_prefix(b".5"), Some(Num::Float(0.5)));
        assert_eq!(numeric_prefix(b"9223372036854775808"), Some(Num::Float(9.223372036854775808e18)));
        assert_eq!(numeric_prefix(b"abc"), None);
        assert_eq!(numeric_prefix(b"-"), None);
        assert_eq!(numeric_prefix(b""), None);
    }

    #[test]
    fn is_numeric_takes_whole_strings_only() {
        assert!(is_numeric(b" 12 ") && is_numeric(b"1.5e3") && is_numeric(b"-7"));
        assert!(!is_numeric(b"12abc") && !is_numeric(b"") && !is_numeric(b"."));
    }

    #[test]
    fn string_offsets_must_be_integers() {
        assert!(is_string_offset(b"12") && is_string_offset(b" -4") && is_string_offset(b"12abc"));
        assert!(!is_string_offset(b"1.0") && !is_string_offset(b"1e3") && !is_string_offset(b"-1e300"));
        assert!(!is_string_offset(b"99999999999999999999") && !is_string_offset(b"abc"));
    }
}
