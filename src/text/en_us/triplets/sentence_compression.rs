//! What the English Tokenizer does to a sentence before tagging it:
//! `compressSentence`'s deletions (PCRE patterns without `/u`, each run
//! over the previous one's result, every match replaced by a space), then
//! the parentheticals stripped (`/[\{\[\(][^\}\]\)]+[\}\]\)]/u`, matches
//! removed). Matched byte by byte, with PCRE's ASCII classes (`\s`, `\w`,
//! `\d`, case-insensitive letters): the caller makes sure the C library's
//! locale gives no other (PHP builds PCRE's tables from it).
//!
//! Each pattern is read as the leftmost-first match PCRE finds, worked out
//! once per pattern: where backtracking could change the match, the
//! comment says why it cannot.

use super::{is_ascii_space, is_ascii_word};
use std::borrow::Cow;



/// `\b` before `s[at]`.
fn boundary(s: &[u8], at: usize) -> bool {
    let before = at > 0 && is_ascii_word(s[at - 1]);
    let after = s.get(at).is_some_and(|&b| is_ascii_word(b));
    before != after
}

/// The case-insensitive `literal` at `s[at..]`: where it ends.
fn literal(s: &[u8], at: usize, literal: &[u8]) -> Option<usize> {
    let end = at + literal.len();
    s.get(at..end).filter(|found| found.eq_ignore_ascii_case(literal)).map(|_| end)
}

fn spaces(s: &[u8], mut at: usize) -> usize {
    while s.get(at).is_some_and(|&b| is_ascii_space(b)) {
        at += 1;
    }
    at
}

/// `\s?`: greedy, and never given back in these patterns (what follows
/// it cannot start with a space).
fn optional_space(s: &[u8], at: usize) -> usize {
    at + usize::from(s.get(at).is_some_and(|&b| is_ascii_space(b)))
}

/// `^LITERAL,?\b`: the comma is taken where `\b` follows it (a word
/// character next); else the match ends before it, where a comma is
/// always a boundary; without a comma, `\b` must hold after the literal.
fn sentence_start(s: &[u8], word: &[u8]) -> Option<usize> {
    let end = literal(s, 0, word)?;
    if s.get(end) == Some(&b',') {
        return Some(if boundary(s, end + 1) { end + 1 } else { end });
    }
    boundary(s, end).then_some(end)
}

/// `/^[a-zA-Z]*ly\b/i`: `\b` after `ly` needs a non-word character, so
/// the letters must be the whole leading run of letters.
fn leading_ly_word(s: &[u8]) -> Option<usize> {
    let letters = s.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    let ends_ly = letters >= 2 && s[letters - 2..letters].eq_ignore_ascii_case(b"ly");
    (ends_ly && !s.get(letters).is_some_and(|&b| is_ascii_word(b))).then_some(letters)
}

const CONJUNCTIONS: [&[u8]; 7] = [b"and", b"but", b"for", b"nor", b"or", b"so", b"yet"];

/// The alternation of words the fourth pattern deletes, in its order; no
/// `\b` around them, so they match inside words too.
const FILLERS: [&[u8]; 11] = [
    b"nevertheless",
    b"today",
    b"tomorrow",
    b"soon",
    b"instead",
    b"in practice",
    b"however",
    b"as a practical matter",
    b"further",
    b"as such",
    b"also",
];

/// `/(;|,)?\s*(FILLERS)\s*(;|,)?\s*/i` at `at`. Everything after the
/// filler may match nothing, so the first filler that matches is the
/// match; without the leading punctuation the filler would have to start
/// on it, so it is never given back.
fn filler(s: &[u8], at: usize) -> Option<usize> {
    let start = spaces(s, at + usize::from(matches!(s[at], b';' | b',')));
    // Most positions start no filler: their first letters, checked first.
    if !s.get(start).is_some_and(|b| b"ntsihafNTSIHAF".contains(b)) {
        return None;
    }
    let mut end = FILLERS.iter().find_map(|word| literal(s, start, word))?;
    if s[start..end].eq_ignore_ascii_case(b"further") {
        end = literal(s, end, b"more").unwrap_or(end);
    }
    end = spaces(s, end);
    if s.get(end).is_some_and(|&b| b == b';' || b == b',') {
        end += 1;
    }
    Some(spaces(s, end))
}

/// `\d{1,3},` at `at`: a run of exactly one to three digits, then a
/// comma (a fourth digit is neither a digit the pattern takes nor a comma).
fn short_number(s: &[u8], at: usize) -> Option<usize> {
    let digits = s[at.min(s.len())..].iter().take_while(|b| b.is_ascii_digit()).count();
    ((1..=3).contains(&digits) && s.get(at + digits) == Some(&b',')).then_some(at + digits + 1)
}

/// `/,\s?\d{1,3},/i`.
fn age(s: &[u8], at: usize) -> Option<usize> {
    (s[at] == b',').then(|| short_number(s, optional_space(s, at + 1)))?
}

/// `/,\s?aged\s?\d{1,3},/i`.
fn aged(s: &[u8], at: usize) -> Option<usize> {
    if s[at] != b',' {
        return None;
    }
    let after = literal(s, optional_space(s, at + 1), b"aged")?;
    short_number(s, optional_space(s, after))
}

/// `/(,\s?whom?[^,]*,)|(,\s?which[^,]*,)|(,\s?when[^,]*,)|(,\s?where[^,]*,)/i`:
/// every alternative runs to the next comma after its word.
fn relative_clause(s: &[u8], at: usize) -> Option<usize> {
    if s[at] != b',' {
        return None;
    }
    let start = optional_space(s, at + 1);
    let word_end = [&b"who"[..], b"which", b"when", b"where"].iter().find_map(|word| literal(s, start, word))?;
    memchr::memchr(b',', &s[word_end..]).map(|comma| word_end + comma + 1)
}

/// `^`-anchored: the match at the start, if any, replaced by a space.
fn replace_start(s: Cow<'_, [u8]>, find: impl Fn(&[u8]) -> Option<usize>) -> Cow<'_, [u8]> {
    match find(&s) {
        Some(end) if end > 0 => Cow::Owned([&b" "[..], &s[end..]].concat()),
        _ => s,
    }
}

/// Every non-overlapping match of `find` (a match at a position: its end),
/// leftmost first, replaced by `with`.
fn replace(s: &[u8], with: &[u8], find: impl Fn(&[u8], usize) -> Option<usize>) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut at = 0;
    while at < s.len() {
        match find(s, at).filter(|&end| end > at) {
            Some(end) => {
                out.extend_from_slice(with);
                at = end;
            }
            None => {
                out.push(s[at]);
                at += 1;
            }
        }
    }
    out
}

/// `compressSentence`: its patterns in its order.
pub fn compress_sentence(sentence: &[u8]) -> Vec<u8> {
    let s = replace_start(Cow::Borrowed(sentence), |s| sentence_start(s, b"at this point"));
    let s = replace_start(s, |s| sentence_start(s, b"as a matter of fact"));
    let s = replace_start(s, leading_ly_word);
    let s = replace_start(s, |s| CONJUNCTIONS.iter().find_map(|word| sentence_start(s, word)));
    let s = replace(&s, b" ", filler);
    // The last three match from a comma.
    if memchr::memchr(b',', &s).is_none() {
        return s;
    }
    let s = replace(&s, b" ", age);
    let s = replace(&s, b" ", aged);
    replace(&s, b" ", relative_clause)
}

fn is_opener(b: u8) -> bool {
    matches!(b, b'{' | b'[' | b'(')
}

fn is_closer(b: u8) -> bool {
    matches!(b, b'}' | b']' | b')')
}

/// `preg_replace("/[\{\[\(][^\}\]\)]+[\}\]\)]/u", "", ..)` on valid UTF-8:
/// an opener, then up to the first closer, at least one byte between
/// (all ASCII, so bytes and characters agree).
pub fn strip_parentheticals(s: Vec<u8>) -> Vec<u8> {
    if memchr::memchr3(b'{', b'[', b'(', &s).is_none() {
        return s;
    }
    // The first closer at or after each position, found once from the right.
    let mut next_closer = vec![usize::MAX; s.len() + 1];
    for i in (0..s.len()).rev() {
        next_closer[i] = if is_closer(s[i]) { i } else { next_closer[i + 1] };
    }
    replace(&s, b"", |s, at| {
        let closer = next_closer[at + 1];
        (is_opener(s[at]) && closer != usize::MAX && closer > at + 1).then(|| closer + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compressed(s: &str) -> String {
        String::from_utf8(compress_sentence(s.as_bytes())).unwrap()
    }

    #[test]
    fn sentence_openers_lose_their_comma_only_before_a_word() {
        assert_eq!(compressed("At this point, we go"), " , we go");
        assert_eq!(compressed("at this point,we go"), " we go");
        assert_eq!(compressed("at this pointer"), "at this pointer");
        assert_eq!(compressed("and, so"), " , so");
        assert_eq!(compressed("andrew left"), "andrew left");
        assert_eq!(compressed("or else"), "  else");
    }

    #[test]
    fn leading_ly_word_is_the_whole_run_of_letters() {
        assert_eq!(compressed("quickly, he ran"), " , he ran");
        assert_eq!(compressed("fly2 x"), "fly2 x");
        assert_eq!(compressed("lyx"), "lyx");
        assert_eq!(compressed("ly"), " ");
    }

    #[test]
    fn fillers_match_inside_words_with_their_spaces_and_punctuation() {
        assert_eq!(compressed("we, however; went"), "we went");
        assert_eq!(compressed("x furthermore y"), "x y");
        assert_eq!(compressed("x further y"), "x y");
        assert_eq!(compressed("the salsoda"), "the s da");
        assert_eq!(compressed("x ; Today"), "x  ");
    }

    #[test]
    fn ages_and_relative_clauses() {
        assert_eq!(compressed("joe, 51, went"), "joe  went");
        assert_eq!(compressed("joe,1234, went"), "joe,1234, went");
        assert_eq!(compressed("joe, aged 24, went"), "joe  went");
        assert_eq!(compressed("the dog, which barked, ran, when"), "the dog  ran, when");
        assert_eq!(compressed("x, whole thing, y"), "x  y");
    }

    #[test]
    fn parentheticals_end_at_the_first_closer() {
        let stripped = |s: &str| String::from_utf8(strip_parentheticals(s.as_bytes().to_vec())).unwrap();
        assert_eq!(stripped("a (b (c) d) e"), "a  d) e");
        assert_eq!(stripped("a () b [c] {d}"), "a () b  ");
        assert_eq!(stripped("a (b"), "a (b");
        assert_eq!(stripped("(é)"), "");
    }
}
