//! PHP's integer arithmetic, as Yioop's code experiences it: `int` results that
//! overflow become `float`, and floats turn back into ints with PHP's modular
//! cast. Nothing here knows about zvals; the binding layer maps them.

/// A PHP number: the result type of `+` and `-` on ints.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    /// PHP's `(int)` conversion (also what `pack()` and bit operators use).
    pub fn to_int(self) -> i64 {
        match self {
            Num::Int(i) => i,
            Num::Float(f) => float_to_int(f),
        }
    }
}

/// `$a + $b`: int unless it overflows or either side is a float.
pub fn add(a: Num, b: Num) -> Num {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => match x.checked_add(y) {
            Some(s) => Num::Int(s),
            None => Num::Float(x as f64 + y as f64),
        },
        _ => Num::Float(a.as_f64() + b.as_f64()),
    }
}

/// `$a - $b`, with the same overflow rule as [`add`].
pub fn sub(a: Num, b: Num) -> Num {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => match x.checked_sub(y) {
            Some(d) => Num::Int(d),
            None => Num::Float(x as f64 - y as f64),
        },
        _ => Num::Float(a.as_f64() - b.as_f64()),
    }
}

/// `$a * $b`: int unless it overflows (then the product of the two as
/// floats, as php-src's ZEND_SIGNED_MULTIPLY_LONG) or either is a float.
pub fn mul(a: Num, b: Num) -> Num {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => match x.checked_mul(y) {
            Some(p) => Num::Int(p),
            None => Num::Float(x as f64 * y as f64),
        },
        _ => Num::Float(a.as_f64() * b.as_f64()),
    }
}

/// `$a / $b`: None where PHP throws DivisionByZeroError. Ints that divide
/// exactly stay an int; anything else is the quotient of the two as floats.
pub fn div(a: Num, b: Num) -> Option<Num> {
    match (a, b) {
        (_, Num::Int(0)) => None,
        (_, Num::Float(d)) if d == 0.0 => None,
        (Num::Int(x), Num::Int(y)) if y != -1 && x % y == 0 => Some(Num::Int(x / y)),
        (Num::Int(x), Num::Int(-1)) if x != i64::MIN => Some(Num::Int(-x)),
        _ => Some(Num::Float(a.as_f64() / b.as_f64())),
    }
}

/// PHP's ZEND_DOUBLE_FITS_LONG: -2^63 <= d < 2^63. An int parameter
/// refuses a float outside it (and NAN) with a TypeError.
pub fn float_fits_int(d: f64) -> bool {
    (-9.223_372_036_854_775_808e18..9.223_372_036_854_775_808e18).contains(&d)
}

/// The int a string array key becomes (php-src's ZEND_HANDLE_NUMERIC_STR):
/// a canonical decimal (optional `-`, no leading zeros, not `-0`) within
/// the int range. Any other string stays a string key.
pub fn integer_key(s: &[u8]) -> Option<i64> {
    let digits = s.strip_prefix(b"-").unwrap_or(s);
    let canonical = match digits {
        [b'0'] => s.len() == 1,
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    if !canonical {
        return None;
    }
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// PHP 8's float-to-int conversion on 64-bit builds: NaN and infinities give
/// 0, out-of-range values wrap modulo 2^64.
pub fn float_to_int(d: f64) -> i64 {
    if !d.is_finite() {
        return 0;
    }
    if float_fits_int(d) {
        return d as i64; // a truncating cast keeps this range intact
    }
    let two_64 = 18_446_744_073_709_551_616.0_f64;
    let mut m = d % two_64;
    if m < 0.0 {
        m += two_64;
    }
    // m is now in [0, 2^64): reinterpret as two's complement.
    (m as u64) as i64
}

/// PHP's `hexdec()` on a string of hex digits: exact while it fits an int,
/// then continued in floating point exactly as PHP does.
pub fn hexdec(digits: impl IntoIterator<Item = u8>) -> Num {
    const CUTOFF: i64 = i64::MAX / 16;
    const CUTLIM: i64 = i64::MAX % 16;
    let mut num: i64 = 0;
    let mut fnum: Option<f64> = None;
    for c in digits {
        let d = match (c as char).to_digit(16) {
            Some(d) => d as i64,
            None => continue, // hexdec ignores non-hex characters
        };
        match fnum.as_mut() {
            Some(f) => *f = *f * 16.0 + d as f64,
            None if num < CUTOFF || (num == CUTOFF && d <= CUTLIM) => num = num * 16 + d,
            None => fnum = Some(num as f64 * 16.0 + d as f64),
        }
    }
    fnum.map_or(Num::Int(num), Num::Float)
}

/// Yioop's `unpackInt($str)`: `(int)hexdec(bin2hex($str))`.
pub fn unpack_int(bytes: &[u8]) -> i64 {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digits = bytes
        .iter()
        .flat_map(|b| [HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
    hexdec(digits).to_int()
}

/// PHP's `chr()`, which keeps the low byte of any int.
pub fn chr(n: i64) -> u8 {
    (n & 0xFF) as u8
}

/// PHP's `<<` on ints: wraps, and shifting by 64 or more gives 0.
pub fn shl(a: i64, bits: i64) -> i64 {
    if bits >= 64 {
        0
    } else {
        ((a as u64) << bits) as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_keys_are_canonical_decimals_in_range() {
        assert_eq!(integer_key(b"123"), Some(123));
        assert_eq!(integer_key(b"-5"), Some(-5));
        assert_eq!(integer_key(b"0"), Some(0));
        assert_eq!(integer_key(b"9223372036854775807"), Some(i64::MAX));
        for s in [&b"-0"[..], b"007", b"+1", b" 1", b"1.0", b"", b"-", b"9223372036854775808", b"1a"] {
            assert_eq!(integer_key(s), None, "{:?}", String::from_utf8_lossy(s));
        }
    }

    #[test]
    fn mul_and_div_follow_php_types() {
        assert_eq!(mul(Num::Int(3), Num::Int(4)), Num::Int(12));
        assert_eq!(mul(Num::Int(i64::MAX), Num::Int(2)), Num::Float(1.8446744073709552e19));
        assert_eq!(mul(Num::Int(0), Num::Float(2.5)), Num::Float(0.0));
        assert_eq!(div(Num::Int(12), Num::Int(4)), Some(Num::Int(3)));
        assert_eq!(div(Num::Int(1), Num::Int(4)), Some(Num::Float(0.25)));
        assert_eq!(div(Num::Int(i64::MIN), Num::Int(-1)), Some(Num::Float(9.223372036854775808e18)));
        assert_eq!(div(Num::Int(1), Num::Int(0)), None);
        assert_eq!(div(Num::Float(1.0), Num::Float(0.0)), None);
    }

    #[test]
    fn add_overflows_into_float() {
        assert_eq!(add(Num::Int(i64::MAX), Num::Int(1)), Num::Float(9.223372036854775808e18));
        assert_eq!(add(Num::Int(2), Num::Int(3)), Num::Int(5));
        assert_eq!(sub(Num::Int(i64::MIN), Num::Int(1)), Num::Float(-9.223372036854775808e18));
    }

    #[test]
    fn float_to_int_wraps_like_php() {
        // Values observed from PHP 8.2's (int) cast.
        assert_eq!(float_to_int(1.8446744073709552e19), 0);
        assert_eq!(float_to_int(9.3e18), -9146744073709551616);
        assert_eq!(float_to_int(1e19), -8446744073709551616);
        assert_eq!(float_to_int(f64::NAN), 0);
        assert_eq!(float_to_int(-2.5), -2);
    }

    #[test]
    fn unpack_int_matches_hexdec_cast() {
        assert_eq!(unpack_int(b""), 0);
        assert_eq!(unpack_int(&[0x03, 0xb5, 0xc1, 0x05]), 62243077);
        // High bit set: hexdec goes through a float, losing the low bits.
        let bytes = [0x9e, 0x68, 0x92, 0x84, 0x0a, 0x91, 0x31, 0xe6];
        assert_eq!(unpack_int(&bytes), -7032209722328403968);
    }

    #[test]
    fn shl_wraps_and_saturates_to_zero() {
        assert_eq!(shl(1, 63), i64::MIN);
        assert_eq!(shl(1, 64), 0);
        assert_eq!(shl(-1, 8), -256);
    }
}
