//! Yioop's `webencode` and `webdecode` (Utility.php): base64 with `.`, `_`
//! and `~` in place of `+`, `/` and `=`, the form in which fetchers upload
//! their pages (several MB a batch) and machines pass arguments in URLs.
//! `webdecode` is `strtr` back to base64, then PHP's `base64_decode`,
//! which is forgiving: it skips every byte outside the alphabet, padding
//! wherever it stands, and the bits of a group too short to make a byte.
//! [`webdecode`] gives those bytes for every input.

use base64::alphabet::Alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine;

/// The alphabet `webencode` leaves: standard base64's, `.` and `_` last.
const WEB_ALPHABET: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._";
/// What `webencode` writes for base64's `=`.
const WEB_PAD: u8 = b'~';

/// Encodes with `=` padding, as `base64_encode`; decodes well-formed text
/// only (the fast path), keeping a short group's spare bits unread as PHP
/// does.
const WEB: GeneralPurpose = GeneralPurpose::new(
    &match Alphabet::new(WEB_ALPHABET) {
        Ok(alphabet) => alphabet,
        Err(_) => panic!("a valid alphabet"),
    },
    GeneralPurposeConfig::new()
        .with_encode_padding(true)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

/// `webencode($bytes)`: `base64_encode`, then `+/=` as `._~`.
pub fn webencode(bytes: &[u8]) -> Vec<u8> {
    let mut text = WEB.encode(bytes).into_bytes();
    for byte in text.iter_mut().rev().take_while(|byte| **byte == b'=') {
        *byte = WEB_PAD;
    }
    text
}

/// `webdecode($text)`: `base64_decode(strtr($text, ["." => "+", "~" =>
/// "=", "_" => "/"]))`. Text `webencode` wrote decodes in one pass of
/// the base64 crate; anything else (a stray byte, padding inside, a lone
/// last character) the way PHP's decoder reads it.
pub fn webdecode(text: &[u8]) -> Vec<u8> {
    let unpadded = text.strip_suffix(&[WEB_PAD]).map_or(text, |rest| rest.strip_suffix(&[WEB_PAD]).unwrap_or(rest));
    WEB.decode(unpadded).unwrap_or_else(|_| forgiving_decode(text))
}

/// Each byte's 6 bits after `webdecode`'s `strtr`, or `SKIP` for what
/// `base64_decode` passes over (padding included).
const SKIP: u8 = 0xff;
const SEXTETS: [u8; 256] = {
    let mut table = [SKIP; 256];
    let mut i = 0;
    while i < 64 {
        table[WEB_ALPHABET.as_bytes()[i] as usize] = i as u8;
        i += 1;
    }
    table[b'+' as usize] = 62;
    table[b'/' as usize] = 63;
    table
};

/// php-src's non-strict `base64_decode`: the alphabet's characters taken
/// four at a time into three bytes, everything else skipped; a last group
/// of two or three characters gives one or two bytes, of one none.
fn forgiving_decode(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let (mut bits, mut count) = (0u32, 0u8);
    for sextet in text.iter().map(|&byte| SEXTETS[byte as usize]).filter(|&s| s != SKIP) {
        bits = bits << 6 | sextet as u32;
        count += 1;
        if count == 4 {
            out.extend_from_slice(&bits.to_be_bytes()[1..]);
            (bits, count) = (0, 0);
        }
    }
    match count {
        2 => out.push((bits >> 4) as u8),
        3 => out.extend_from_slice(&((bits >> 2) as u16).to_be_bytes()),
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// PHP's `webencode` written out: standard base64, then the three
    /// characters swapped.
    fn php_webencode(bytes: &[u8]) -> Vec<u8> {
        use base64::engine::general_purpose::STANDARD;
        STANDARD.encode(bytes).bytes().map(|b| match b {
            b'+' => b'.',
            b'/' => b'_',
            b'=' => b'~',
            other => other,
        }).collect()
    }

    #[test]
    fn encodes_as_base64_with_the_three_characters_swapped() {
        // Standard base64 of these is "+/+/" plus padding.
        assert_eq!(webencode(&[0xfb, 0xff, 0xbf]), b"._._");
        assert_eq!(webencode(b"a"), b"YQ~~");
        assert_eq!(webencode(b"ab"), b"YWI~");
        assert_eq!(webencode(b""), b"");
    }

    #[test]
    fn forgiving_decode_skips_what_php_skips() {
        // PHP 8.2: base64_decode(strtr($s, [...])) for each of these.
        let cases: [(&[u8], &[u8]); 8] = [
            (b"YQ~~", b"a"),
            (b"Y Q\n~~", b"a"),
            (b"Y~Q", b"a"),
            (b"YWJj\xffZA", b"abcd"),
            (b"YWJjZ", b"abc"),   // a lone last character gives nothing
            (b"YWI", b"ab"),
            (b"+/+/", &[0xfb, 0xff, 0xbf]),
            (b"._+/", &[0xfb, 0xff, 0xbf]),
        ];
        for (text, bytes) in cases {
            assert_eq!(forgiving_decode(text), bytes, "{:?}", String::from_utf8_lossy(text));
            assert_eq!(webdecode(text), bytes, "{:?}", String::from_utf8_lossy(text));
        }
    }

    proptest! {
        #[test]
        fn decodes_what_it_encodes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            prop_assert_eq!(webencode(&bytes), php_webencode(&bytes));
            prop_assert_eq!(webdecode(&webencode(&bytes)), bytes);
        }

        /// The crate's pass, where it takes a text, reads it as PHP's
        /// forgiving decoder does.
        #[test]
        fn the_fast_path_agrees_with_the_forgiving_one(text in proptest::collection::vec(prop_oneof![
            Just(b'A'), Just(b'z'), Just(b'9'), Just(b'.'), Just(b'_'), Just(b'~'),
            Just(b'='), Just(b'+'), Just(b'/'), Just(b' '), any::<u8>()], 0..40)) {
            prop_assert_eq!(webdecode(&text), forgiving_decode(&text));
        }
    }
}
