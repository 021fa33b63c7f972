//! PHP's string functions whose exact character sets Yioop's results depend on.

/// PHP's `trim` with its default characters (" \t\n\r\0\x0B").
pub fn php_trim(s: &str) -> &str {
    s.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r' | '\0' | '\u{0B}'))
}

/// PHP's `trim` with its default characters, of bytes.
pub fn php_trim_bytes(s: &[u8]) -> &[u8] {
    let trimmed = |c: &u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0 | 0x0B);
    let start = s.iter().position(|c| !trimmed(c)).unwrap_or(s.len());
    let end = s.iter().rposition(|c| !trimmed(c)).map_or(start, |at| at + 1);
    &s[start..end]
}

/// PHP's `str_word_count` (isalpha as the C locale has it): runs of
/// letters, `'` and `-`, except a `'` or `-` first and a `-` last in the
/// whole text.
pub fn str_word_count(s: &[u8]) -> usize {
    let Some(&last) = s.last() else { return 0 };
    let start = usize::from(s[0] == b'\'' || s[0] == b'-');
    let end = s.len() - usize::from(last == b'-');
    let in_word = |b: &u8| b.is_ascii_alphabetic() || *b == b'\'' || *b == b'-';
    s.get(start..end).map_or(0, |s| s.split(|b| !in_word(b)).filter(|w| !w.is_empty()).count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_phps_six_default_characters_and_no_others() {
        assert_eq!(php_trim(" \t\n\r\0\u{0B}a b\u{0B}\0\r\n\t "), "a b");
        // Form feed and no-break space are not in trim's default set.
        assert_eq!(php_trim("\u{0C}a\u{A0}"), "\u{0C}a\u{A0}");
    }

    #[test]
    fn trims_bytes_as_trim_does() {
        assert_eq!(php_trim_bytes(b" \t\n\r\0\x0Bword \x0Bs\x0C \n"), b"word \x0Bs\x0C");
        assert_eq!(php_trim_bytes(b" \0 "), b"");
        assert_eq!(php_trim_bytes(b"\xffx\xa0"), b"\xffx\xa0", "bytes, not UTF-8: nothing else is trimmed");
    }

    #[test]
    fn word_count_is_php_str_word_count() {
        // Values from PHP 8.2's str_word_count.
        for (text, count) in [("", 0), ("-", 0), ("'", 0), ("a b", 2), ("'a -b-", 2), ("-a-", 1), ("x1y 2 z", 3), ("don't re-do", 2), ("é a", 1)] {
            assert_eq!(str_word_count(text.as_bytes()), count, "{text:?}");
        }
    }
}
