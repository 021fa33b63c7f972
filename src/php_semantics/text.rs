//! PHP's string functions whose exact character sets Yioop's results depend on.

/// PHP's `trim` with its default characters (" \t\n\r\0\x0B").
pub fn php_trim(s: &str) -> &str {
    s.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r' | '\0' | '\u{0B}'))
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
}
