//! The URL test of `PhraseParser::computeSafeSearchScore`: whether
//! `preg_match($unsafe_url_regex, $url)` matches. Yioop's regex is one
//! alternation of literal words, case-insensitive, and the queue server
//! asks it of every page and link it indexes. Only whether it matches
//! counts, so the alternation is a set of words to find anywhere (one
//! Aho-Corasick pass) plus words that must stand between non-word bytes
//! (`\Wword\W`). A regex of any other shape is not taken: `parse` gives
//! None and the caller leaves it to PCRE.
//!
//! Case and `\W` are PCRE's without the `u` flag and with its built-in
//! tables: ASCII letters fold, and a word byte is an ASCII letter, digit
//! or `_` (the binding checks that no locale changes those tables).

use aho_corasick::AhoCorasick;

/// Yioop's alternation, ready to match.
pub struct UnsafeUrlRegex {
    anywhere: AhoCorasick,
    bounded: Vec<Vec<u8>>,
}

/// A `\W` at each end of an alternative.
const NON_WORD: &[u8] = br"\W";

impl UnsafeUrlRegex {
    /// `/alt|alt|.../i`, each alternative letters, digits, `_`, `-` and
    /// the escapes `\-` and `\.`, or such a word between two `\W`.
    pub fn parse(regex: &[u8]) -> Option<UnsafeUrlRegex> {
        let body = regex.strip_prefix(b"/")?.strip_suffix(b"/i")?;
        let (mut anywhere, mut bounded) = (Vec::new(), Vec::new());
        for alternative in body.split(|&b| b == b'|') {
            match alternative.strip_prefix(NON_WORD).and_then(|a| a.strip_suffix(NON_WORD)) {
                Some(word) => bounded.push(literal(word)?),
                None => anywhere.push(literal(alternative)?),
            }
        }
        let anywhere = AhoCorasick::builder().ascii_case_insensitive(true).build(&anywhere).ok()?;
        Some(UnsafeUrlRegex { anywhere, bounded })
    }

    /// Whether the regex matches somewhere in `url`.
    pub fn matches(&self, url: &[u8]) -> bool {
        self.anywhere.is_match(url) || self.bounded.iter().any(|word| bounded_match(url, word))
    }
}

/// The bytes an alternative matches, lower case; None where it holds
/// anything but a plain word.
fn literal(alternative: &[u8]) -> Option<Vec<u8>> {
    let mut word = Vec::with_capacity(alternative.len());
    let mut bytes = alternative.iter();
    while let Some(&b) = bytes.next() {
        match b {
            b'\\' => word.push(*bytes.next().filter(|&&e| e == b'-' || e == b'.')?),
            b'-' | b'_' => word.push(b),
            _ if b.is_ascii_alphanumeric() => word.push(b.to_ascii_lowercase()),
            _ => return None,
        }
    }
    (!word.is_empty()).then_some(word)
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `\Wword\W` somewhere in `url`: the word, case folded, with a non-word
/// byte on each side.
fn bounded_match(url: &[u8], word: &[u8]) -> bool {
    url.windows(word.len() + 2).any(|w| {
        !is_word_byte(w[0]) && !is_word_byte(w[w.len() - 1]) && w[1..w.len() - 1].eq_ignore_ascii_case(word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_match_anywhere_in_any_case() {
        let regex = UnsafeUrlRegex::parse(br"/porn|j\-list|luscious\.net|video-one/i").unwrap();
        assert!(regex.matches(b"https://example.com/PoRn/x"));
        assert!(regex.matches(b"http://www.J-LIST.com"));
        assert!(regex.matches(b"luscious.net"));
        assert!(regex.matches(b"a video-one b"));
        // An escaped dot is a dot, not any byte.
        assert!(!regex.matches(b"lusciousxnet"));
        assert!(!regex.matches(b"https://example.com/por/n"));
    }

    #[test]
    fn a_bounded_word_needs_a_non_word_byte_on_each_side() {
        let regex = UnsafeUrlRegex::parse(br"/xyz|\Wnude\W/i").unwrap();
        assert!(regex.matches(b"http://a.com/NUDE/b"));
        assert!(regex.matches(b"a-nude.b"));
        assert!(regex.matches(b"\xe9nude\xff"));
        assert!(!regex.matches(b"nude/x"));
        assert!(!regex.matches(b"/x/nude"));
        assert!(!regex.matches(b"/nudes/"));
        assert!(!regex.matches(b"_nude/"));
        assert!(!regex.matches(b"/nude9"));
    }

    #[test]
    fn other_shapes_are_left_to_pcre() {
        for regex in [&br"/porn|xx/"[..], br"porn/i", br"/porn|/i", br"/po.rn/i", br"/p(o)rn/i", br"/porn\d/i",
            br"/porn|xx/iu", br"/\Wnude/i", "/pörn/i".as_bytes()] {
            assert!(UnsafeUrlRegex::parse(regex).is_none(), "{}", String::from_utf8_lossy(regex));
        }
    }
}
