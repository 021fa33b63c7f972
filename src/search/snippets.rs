//! Yioop's `Model::getSnippets` as a lazy loop: the same regexes, asked
//! for one match at a time from the last match's end, and no more matches
//! than the loop takes before the snippet is full (Yioop collects every
//! match of a ~9 KB description with `preg_match_all` and then stops after
//! a few). Every text operation is PHP's own function, reached through
//! [`TextFunctions`] (the binding calls PHP): this module only decides
//! which to call, in which order, with which patterns. Splitting on ".. ",
//! dropping repeats and dropping "" and "0" are byte comparisons, done
//! here as `explode`, `array_unique` (SORT_STRING: byte equality, first
//! kept) and `array_filter` do them.

/// PHP's functions, as getSnippets calls them. `Err` means PHP threw (or
/// the call failed): the caller stops and declines.
pub trait TextFunctions {
    /// `mb_strlen($s)`.
    fn char_count(&mut self, s: &[u8]) -> Result<i64, Stop>;
    /// `mb_substr($s, 0, $chars)`.
    fn char_prefix(&mut self, s: &[u8], chars: i64) -> Result<Vec<u8>, Stop>;
    /// `strrpos($s, " ")`: None for false.
    fn last_space(&mut self, s: &[u8]) -> Result<Option<i64>, Stop>;
    /// `preg_quote($word, '/')`.
    fn quote(&mut self, word: &[u8]) -> Result<Vec<u8>, Stop>;
    /// `preg_match($regex, $s)`, truthy (1) or not (0 or false).
    fn matches(&mut self, regex: &[u8], s: &[u8]) -> Result<bool, Stop>;
    /// `preg_match($regex, $s, $m, PREG_OFFSET_CAPTURE, $offset)`: the
    /// whole match and its byte offset, None for no match or an error.
    fn match_from(&mut self, regex: &[u8], s: &[u8], offset: usize) -> Result<Option<(Vec<u8>, usize)>, Stop>;
    /// `stristr($haystack, $needle) !== false`.
    fn contains_caseless(&mut self, haystack: &[u8], needle: &[u8]) -> Result<bool, Stop>;
    /// `trim($s, ".")`.
    fn trim_dots(&mut self, s: &[u8]) -> Result<Vec<u8>, Stop>;
    /// `preg_replace('/[^\s]+$/', "", $s)`: None where it gives null.
    fn drop_last_word(&mut self, s: &[u8]) -> Result<Option<Vec<u8>>, Stop>;
}

/// A called PHP function threw or could not be called.
#[derive(Debug)]
pub struct Stop;

/// getSnippets' class constants (self::SNIPPET_LENGTH_LEFT, _RIGHT,
/// MIN_SNIPPET_LENGTH).
#[derive(Clone, Copy, Debug)]
pub struct Lengths {
    pub left: i64,
    pub right: i64,
    pub min_source: i64,
}

/// getSnippets' `$word_regex` for `$word_string`: each word of the
/// filtered, de-duplicated space-split list, quoted, as
/// `\bWORD.{0,3}?\b`, joined by `|`. None where the list filters down to
/// nothing (Yioop's regex would then be empty and match anywhere).
pub fn word_regex(text_functions: &mut impl TextFunctions, word_string: &[u8]) -> Result<Option<Vec<u8>>, Stop> {
    let words = filtered_unique(word_string.split_str(b" "));
    if words.is_empty() {
        return Ok(None);
    }
    let mut regex = Vec::new();
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            regex.push(b'|');
        }
        regex.extend_from_slice(b"\\b");
        regex.extend_from_slice(&text_functions.quote(word)?);
        regex.extend_from_slice(b".{0,3}?\\b");
    }
    Ok(Some(regex))
}

/// The two patterns getSnippets builds around `$word_regex`: for short
/// sources (`/WORDS/ui`) and for long ones.
pub fn patterns(word_regex: &[u8], lengths: Lengths) -> (Vec<u8>, Vec<u8>) {
    let mut short = b"/".to_vec();
    short.extend_from_slice(word_regex);
    short.extend_from_slice(b"/ui");
    let mut long = format!("/\\b(\\w{{3}}.{{0,{}}})?(?:(?:", lengths.left - 3).into_bytes();
    long.extend_from_slice(word_regex);
    long.extend_from_slice(format!(").{{0,{}}}\\b)+/ui", lengths.right).as_bytes());
    (short, long)
}

/// getSnippets' result for a text of at least `length` characters and a
/// non-empty list of ASCII words, `word_string`, whose regex is
/// `word_regex`. The caller declines texts where a non-ASCII character
/// could match an ASCII letter caselessly (U+212A, U+017F).
pub fn snippets(
    text_functions: &mut impl TextFunctions,
    text: &[u8],
    word_string: &[u8],
    word_regex: &[u8],
    length: i64,
    lengths: Lengths,
    skip_ahead: bool,
) -> Result<Vec<u8>, Stop> {
    let (short, long) = patterns(word_regex, lengths);
    let words: Vec<Vec<u8>> = filtered_unique(word_string.split_str(b" ")).iter().map(|w| w.to_ascii_lowercase()).collect();
    let mut snippet = Vec::new();
    let mut ellipsis: &[u8] = b"";
    for source in filtered_unique(text.split_str(b".. ")) {
        if text_functions.char_count(source)? < lengths.min_source {
            if text_functions.matches(&short, source)? && !text_functions.contains_caseless(&snippet, source)? {
                snippet.extend_from_slice(ellipsis);
                snippet.extend_from_slice(source);
                ellipsis = b" ... ";
            }
        } else {
            // Matches one at a time from the last one's end, as
            // preg_match_all's own loop asks PCRE (its matches are never
            // empty: each holds a word), stopping where Yioop's loop stops;
            // with `skip_ahead`, each search starts where a match could
            // first begin.
            let lowered = source.to_ascii_lowercase();
            let mut offset = 0;
            while let Some(start) = if skip_ahead { first_possible_start(&lowered, offset, &words, lengths.left) } else { Some(offset) } {
                let Some((found, at)) = text_functions.match_from(&long, source, start)? else { break };
                offset = at + found.len();
                let found = text_functions.trim_dots(&found)?;
                if !text_functions.contains_caseless(&snippet, &found)? {
                    snippet.extend_from_slice(ellipsis);
                    snippet.extend_from_slice(&found);
                    ellipsis = b" ... ";
                    if text_functions.char_count(&snippet)? >= length {
                        break;
                    }
                }
            }
        }
        if text_functions.char_count(&snippet)? >= length {
            let cut = text_functions.char_prefix(&snippet, length)?;
            return Ok(match text_functions.drop_last_word(&cut)? {
                Some(shorter) if !is_empty_string(&shorter) => shorter,
                _ => cut,
            });
        }
    }
    Ok(snippet)
}

/// Where, from byte `offset` on, the long pattern can first match in a
/// source (`lowered`: ASCII-lowercased): a match holds a word within its
/// first `left` characters (`\b(\w{3}.{0,left-3})?` then `\bWORD`), so
/// none starts more than `left` characters before the first caseless
/// occurrence of a word; None when no word occurs. PCRE counts its match
/// limit afresh at each start position (interpreter and JIT), and a
/// position skipped here fails within a few hundred steps, so starting
/// there finds what a search from `offset` finds, errors included, as long
/// as PHP's limits leave room for those steps (the binding's `skip_ahead`).
fn first_possible_start(lowered: &[u8], offset: usize, words: &[Vec<u8>], left: i64) -> Option<usize> {
    let rest = lowered.get(offset..)?;
    let first = words.iter().filter_map(|w| memchr::memmem::find(rest, w)).min()? + offset;
    let mut start = first;
    let mut chars = 0;
    // Back `left` characters (and one more, for safety), to a character's
    // first byte: PCRE's offset must not split one.
    while start > offset && chars <= left {
        start -= 1;
        if lowered[start] & 0xC0 != 0x80 {
            chars += 1;
        }
    }
    Some(start)
}

/// getSnippets without words: the first `length` characters, cut at the
/// last space's BYTE offset taken as a character count (as Yioop does),
/// unless that offset is 0 or there is none.
pub fn leading_snippet(text_functions: &mut impl TextFunctions, text: &[u8], length: i64) -> Result<Vec<u8>, Stop> {
    let prefix = text_functions.char_prefix(text, length)?;
    match text_functions.last_space(&prefix)? {
        Some(at) if at != 0 => text_functions.char_prefix(&prefix, at),
        _ => Ok(prefix),
    }
}

/// PHP's `empty()` of a string: "" and "0".
fn is_empty_string(s: &[u8]) -> bool {
    s.is_empty() || s == b"0"
}

/// `array_filter(array_unique($parts))` in iteration order.
fn filtered_unique<'a>(parts: impl Iterator<Item = &'a [u8]>) -> Vec<&'a [u8]> {
    let mut kept: Vec<&[u8]> = Vec::new();
    // FxHash: the parts are a page's sentences, hashed for every summary of
    // every search (SipHash was 1% of a search). Crafted collisions cost no
    // more than in PHP's own array_unique, whose string hash is DJBX33A.
    let mut seen = rustc_hash::FxHashSet::<&[u8]>::default();
    for part in parts {
        if seen.insert(part) && !is_empty_string(part) {
            kept.push(part);
        }
    }
    kept
}

/// `explode($separator, $s)` on bytes (a non-empty separator).
trait SplitStr {
    fn split_str<'a>(&'a self, separator: &'a [u8]) -> Split<'a>;
}

impl SplitStr for [u8] {
    fn split_str<'a>(&'a self, separator: &'a [u8]) -> Split<'a> {
        Split { rest: Some(self), separator }
    }
}

struct Split<'a> {
    rest: Option<&'a [u8]>,
    separator: &'a [u8],
}

impl<'a> Iterator for Split<'a> {
    type Item = &'a [u8];
    fn next(&mut self) -> Option<&'a [u8]> {
        let rest = self.rest?;
        match memchr::memmem::find(rest, self.separator) {
            Some(at) => {
                self.rest = Some(&rest[at + self.separator.len()..]);
                Some(&rest[..at])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_as_explode_does() {
        let parts: Vec<&[u8]> = b"a.. b.. .. a".split_str(b".. ").collect();
        assert_eq!(parts, vec![&b"a"[..], b"b", b"", b"a"]);
        let parts: Vec<&[u8]> = b"".split_str(b".. ").collect();
        assert_eq!(parts, vec![&b""[..]]);
    }

    #[test]
    fn filters_as_array_filter_of_array_unique() {
        let kept = filtered_unique(b"0 x  x y 0 00".split_str(b" "));
        assert_eq!(kept, vec![&b"x"[..], b"y", b"00"]);
    }

    #[test]
    fn builds_yioops_long_pattern() {
        let (short, long) = patterns(b"\\bgit.{0,3}?\\b", Lengths { left: 20, right: 40, min_source: 100 });
        assert_eq!(short, b"/\\bgit.{0,3}?\\b/ui");
        assert_eq!(long, b"/\\b(\\w{3}.{0,17})?(?:(?:\\bgit.{0,3}?\\b).{0,40}\\b)+/ui".to_vec());
    }
}
