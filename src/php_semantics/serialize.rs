//! `serialize`'s text for scalars and arrays, as PHP writes it with
//! `serialize_precision` at its default, -1: `N;`, `b:1;`, `i:7;`,
//! `d:0.1;`, `s:3:"abc";`, `a:2:{...}`. The caller walks the value; objects
//! and references (whose texts depend on what came before) are not written
//! here.

pub fn push_null(out: &mut Vec<u8>) {
    out.extend_from_slice(b"N;");
}

pub fn push_bool(out: &mut Vec<u8>, b: bool) {
    out.extend_from_slice(if b { b"b:1;" } else { b"b:0;" });
}

fn push_decimal(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

pub fn push_int(out: &mut Vec<u8>, i: i64) {
    out.extend_from_slice(b"i:");
    push_decimal(out, i);
    out.push(b';');
}

pub fn push_string(out: &mut Vec<u8>, s: &[u8]) {
    out.reserve(s.len() + 24);
    out.extend_from_slice(b"s:");
    push_decimal(out, s.len());
    out.extend_from_slice(b":\"");
    out.extend_from_slice(s);
    out.extend_from_slice(b"\";");
}

/// `a:N:{`; the entries (key, value, key, value...) and `}` follow.
pub fn push_array_start(out: &mut Vec<u8>, len: usize) {
    out.extend_from_slice(b"a:");
    push_decimal(out, len);
    out.extend_from_slice(b":{");
}

pub fn push_array_end(out: &mut Vec<u8>) {
    out.push(b'}');
}

pub fn push_float(out: &mut Vec<u8>, d: f64) {
    out.extend_from_slice(b"d:");
    push_shortest_float(out, d);
    out.push(b';');
}

/// Significant digits beyond which PHP writes a float with an exponent
/// (zend_gcvt's 17 in its shortest mode).
const PLAIN_DIGITS: i32 = 17;

/// `d` as zend_gcvt writes it in its shortest mode (precision -1): the
/// fewest digits that read back as `d`, the nearest of those and the even
/// one on a tie (zend_dtoa's mode 0; Ryu finds the same), then `0.000ddd`,
/// `ddd.ddd`, `ddd000` or `d.dddE+x` by where the decimal point falls;
/// `INF`, `-INF`, `NAN`; `-0` for negative zero.
pub fn push_shortest_float(out: &mut Vec<u8>, d: f64) {
    if d.is_nan() {
        out.extend_from_slice(b"NAN");
        return;
    }
    if d.is_sign_negative() {
        out.push(b'-');
    }
    if d.is_infinite() {
        out.extend_from_slice(b"INF");
        return;
    }
    let mut buffer = ryu::Buffer::new();
    let mut digits = [0u8; 24];
    let (len, point) = if d == 0.0 { (1, 1) } else { digits_and_point(buffer.format_finite(d.abs()), &mut digits) };
    let digits = if d == 0.0 { &b"0"[..] } else { &digits[..len] };
    if if point < 0 { point < -3 } else { point > PLAIN_DIGITS } {
        let exponent = point - 1;
        out.push(digits[0]);
        out.push(b'.');
        if digits.len() == 1 {
            out.push(b'0');
        } else {
            out.extend_from_slice(&digits[1..]);
        }
        out.extend_from_slice(if exponent < 0 { b"E-" } else { b"E+" });
        push_decimal(out, exponent.unsigned_abs());
    } else if point <= 0 {
        out.extend_from_slice(b"0.");
        out.extend(std::iter::repeat_n(b'0', (-point) as usize));
        out.extend_from_slice(digits);
    } else {
        let point = point as usize;
        for i in 0..point {
            out.push(digits.get(i).copied().unwrap_or(b'0'));
        }
        if digits.len() > point {
            out.push(b'.');
            out.extend_from_slice(&digits[point..]);
        }
    }
}

/// Ryu's text of a positive float (`1.5e-7`, `0.001`, `1e16`, `100.0`) as
/// zend_dtoa gives it: the significant digits (into `digits`, their count
/// returned), and `point`, where `d = 0.DIGITS * 10^point`.
fn digits_and_point(text: &str, digits: &mut [u8; 24]) -> (usize, i32) {
    let (mantissa, exponent) = match text.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().expect("Ryu writes an integer exponent")),
        None => (text, 0),
    };
    let whole = mantissa.find('.').unwrap_or(mantissa.len()) as i32;
    let mut len = 0;
    let mut leading = 0;
    for b in mantissa.bytes().filter(u8::is_ascii_digit) {
        if len == 0 && b == b'0' {
            leading += 1;
        } else {
            digits[len] = b;
            len += 1;
        }
    }
    while len > 1 && digits[len - 1] == b'0' {
        len -= 1;
    }
    (len, whole + exponent - leading)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn float(d: f64) -> String {
        let mut out = Vec::new();
        push_float(&mut out, d);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn floats_are_written_as_php_8_2_serializes_them() {
        // php -r 'echo serialize($d);' for each, PHP 8.2, serialize_precision -1.
        let cases = [
            (0.0, "d:0;"),
            (-0.0, "d:-0;"),
            (1.0, "d:1;"),
            (1.5, "d:1.5;"),
            (0.1, "d:0.1;"),
            (1e15, "d:1000000000000000;"),
            (1e16, "d:10000000000000000;"),
            (1e17, "d:1.0E+17;"),
            (123456789012345680.0, "d:1.2345678901234568E+17;"),
            (0.001, "d:0.001;"),
            (0.0001, "d:0.0001;"),
            (0.00001, "d:1.0E-5;"),
            (1.5e-7, "d:1.5E-7;"),
            (5e-324, "d:5.0E-324;"),
            (f64::MAX, "d:1.7976931348623157E+308;"),
            (f64::INFINITY, "d:INF;"),
            (f64::NEG_INFINITY, "d:-INF;"),
            (f64::NAN, "d:NAN;"),
            (-f64::NAN, "d:NAN;"),
            (100.0, "d:100;"),
            (2.5e21, "d:2.5E+21;"),
            (0.30000000000000004, "d:0.30000000000000004;"),
        ];
        for (d, php) in cases {
            assert_eq!(float(d), php, "{d:e}");
        }
    }

    #[test]
    fn recorded_floats_are_written_as_php_serialized_them() {
        // Each float's bits and PHP 8.2's serialize of it, 1,006 of them
        // halfway cases (tests/tools/record/record-serialize-floats.php).
        let recorded = include_str!("../../tests/fixtures/serialize/floats.txt");
        let mut seen = 0;
        for line in recorded.lines() {
            let (bits, php) = line.split_once(' ').unwrap();
            let d = f64::from_bits(u64::from_str_radix(bits, 16).unwrap());
            assert_eq!(float(d), php, "{bits}");
            seen += 1;
        }
        assert!(seen >= 5000, "{seen} floats recorded");
    }

    #[test]
    fn scalars_strings_and_arrays() {
        let mut out = Vec::new();
        push_array_start(&mut out, 3);
        push_int(&mut out, -4);
        push_string(&mut out, "é\"".as_bytes());
        push_string(&mut out, b"k");
        push_null(&mut out);
        push_int(&mut out, 9);
        push_bool(&mut out, true);
        push_array_end(&mut out);
        assert_eq!(out, "a:3:{i:-4;s:3:\"é\"\";s:1:\"k\";N;i:9;b:1;}".as_bytes());
    }
}
