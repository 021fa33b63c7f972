//! PhraseParser's text passes over a page, as Yioop 2021 runs them when it
//! indexes (`library/PhraseParser.php`): splitting a page into terms
//! (`stemCharGramSegment`'s lower-casing, `mb_ereg_replace` of spaces and
//! punctuation, `segmentSegment`'s `trim` and `preg_split`), and joining
//! runs of words that the n-word-gram filter knows into one hyphenated
//! entity (`hyphenateEntities`), each term's and sentence's positions
//! (`extractTermSentencePositionsTags`), and the safe-search score's
//! arithmetic. Stemming and the filter are the caller's.
//!
//! Yioop's separators are regexes run by two engines: `\s` and the
//! `PUNCT` constant's alternation of single characters, first through
//! Oniguruma (`mb_ereg_replace`, every match becomes a space), then
//! through PCRE (`preg_split`). The two `\s` differ by one character
//! (U+180E, PCRE's only), which survives the first pass and so also stops
//! `trim`. `tests/text/PhraseTest.php` sweeps every code point through PHP's
//! own engines against these tables.

use crate::php_semantics::num::{self, Num};
use crate::php_semantics::text::{php_trim, str_word_count};
use rustc_hash::FxHashMap;

/// Oniguruma's `\s` for UTF-8 (`mb_ereg_replace`).
const ONIG_SPACE: &[char] = &[
    '\t', '\n', '\u{0B}', '\u{0C}', '\r', ' ', '\u{85}', '\u{A0}', '\u{1680}', '\u{2000}', '\u{2001}', '\u{2002}',
    '\u{2003}', '\u{2004}', '\u{2005}', '\u{2006}', '\u{2007}', '\u{2008}', '\u{2009}', '\u{200A}', '\u{2028}',
    '\u{2029}', '\u{202F}', '\u{205F}', '\u{3000}',
];

/// What PCRE's `\s` under `/u` matches besides Oniguruma's.
const PCRE_ONLY_SPACE: char = '\u{180E}';

fn is_onig_space(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, '\t'..='\r' | ' ')
    } else {
        ONIG_SPACE.contains(&c)
    }
}

fn is_pcre_space(c: char) -> bool {
    is_onig_space(c) || c == PCRE_ONLY_SPACE
}

/// The characters `mb_ereg_replace("\s+|$non_hyphens", " ", ..)` turns
/// into spaces: Oniguruma's `\s` and those of `PUNCT` less `-|` (Yioop's
/// `$non_hyphens`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Separators {
    ascii: [bool; 128],
    other: Vec<char>,
}

impl Separators {
    /// Reads a regex that is an alternation of single characters, each
    /// plain or escaped (`\.|\,|。`); None for any other regex, whose
    /// meaning these tables do not know.
    pub fn from_alternation(pattern: &str) -> Option<Separators> {
        let mut set = Separators { ascii: [false; 128], other: Vec::new() };
        let mut chars = pattern.chars();
        loop {
            let literal = match chars.next()? {
                '\\' => chars.next().filter(|&c| !c.is_ascii_alphanumeric() && c != '<')?,
                c if "\\.^$|()[]{}*+?".contains(c) => return None,
                c => c,
            };
            set.insert(literal);
            match chars.next() {
                None => break,
                Some('|') => {}
                Some(_) => return None,
            }
        }
        ONIG_SPACE.iter().for_each(|&c| set.insert(c));
        set.other.sort_unstable();
        set.other.dedup();
        Some(set)
    }

    fn insert(&mut self, c: char) {
        match self.ascii.get_mut(c as usize) {
            Some(slot) => *slot = true,
            None => self.other.push(c),
        }
    }

    /// Whether `mb_ereg_replace("\s+|$non_hyphens", " ", ..)` turns `c`
    /// into a space.
    fn replaced(&self, c: char) -> bool {
        match self.ascii.get(c as usize) {
            Some(&is) => is,
            None => self.other.binary_search(&c).is_ok(),
        }
    }

    /// Whether `preg_split("/(\s|$non_hyphens)+/u", ..)` splits at `c`
    /// (after the replacement, which leaves only U+180E of these).
    fn splits(&self, c: char) -> bool {
        self.replaced(c) || c == PCRE_ONLY_SPACE
    }
}

/// `mb_ereg_replace("\s+|$non_hyphens", " ", $lowered)`: each run of
/// spaces and each separator becomes one space.
pub fn replace_separators(lowered: &str, separators: &Separators) -> String {
    let mut out = String::with_capacity(lowered.len());
    let mut chars = lowered.chars().peekable();
    while let Some(c) = chars.next() {
        if is_onig_space(c) {
            while chars.next_if(|&next| is_onig_space(next)).is_some() {}
            out.push(' ');
        } else if separators.replaced(c) {
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// `array_values(array_filter(preg_split("/(\s|$non_hyphens)+/u",
/// trim($lowered))))`: the terms of segmentSegment, before stemming.
pub fn split_terms<'a>(lowered: &'a str, separators: &Separators) -> Vec<&'a str> {
    php_trim(lowered).split(|c| separators.splits(c)).filter(|term| !term.is_empty() && *term != "0").collect()
}

/// stemCharGramSegment's terms of `lowered_text` (`mb_strtolower` of its
/// text): the separators made spaces, the tokenizer's `segment` and a
/// second `lower` applied, the terms split off; a term with `_` kept as it
/// is (Err), any other stemmed (Ok: `stem`'s number for it). No terms
/// where the separators leave `""` or `"0"`; None where `segment` or
/// `lower` fails.
pub fn segment_terms(
    lowered_text: &str,
    separators: &Separators,
    segment: impl FnOnce(&str) -> Option<String>,
    lower: &mut dyn FnMut(&str) -> Option<String>,
    stem: &mut dyn FnMut(&[u8]) -> usize,
) -> Option<Vec<Result<usize, String>>> {
    let replaced = replace_separators(lowered_text, separators);
    if replaced.is_empty() || replaced == "0" {
        return Some(Vec::new());
    }
    let lowered = lower(&segment(&replaced)?)?;
    let terms = split_terms(&lowered, separators)
        .into_iter()
        .filter(|term| !trims_to_nothing(term))
        .map(|term| if term.contains('_') { Err(term.to_string()) } else { Ok(stem(term.as_bytes())) })
        .collect();
    Some(terms)
}

/// Whether `trim($term) == ""`: the term is all NULs (the only characters
/// of `trim`'s set that are not separators), so stemTerms skips it.
pub fn trims_to_nothing(term: &str) -> bool {
    term.bytes().all(|b| b == 0)
}

/// `mb_strtolower` of valid UTF-8: ASCII here, each run of other
/// characters by `lower` (PHP's own mapping, whose Unicode version is
/// PHP's). Case mapping is per character in PHP 8.2; from 8.3 a capital
/// sigma looks at its neighbours, so a text with one goes to `lower`
/// whole. None where `lower` fails.
pub fn lower_case(text: &str, lower: &mut dyn FnMut(&str) -> Option<String>) -> Option<String> {
    if text.is_ascii() {
        return Some(text.to_ascii_lowercase());
    }
    if text.contains('\u{3A3}') {
        return lower(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while !rest.is_empty() {
        let ascii = rest.bytes().position(|b| !b.is_ascii()).unwrap_or(rest.len());
        out.extend(rest[..ascii].chars().map(|c| c.to_ascii_lowercase()));
        rest = &rest[ascii..];
        let other = rest.bytes().position(|b| b.is_ascii()).unwrap_or(rest.len());
        if other > 0 {
            out.push_str(&lower(&rest[..other])?);
            rest = &rest[other..];
        }
    }
    Some(out)
}

/// Whether Yioop would hyphenate `entity`: a space after its fifth byte
/// (`strpos(substr($e, 4), " ") > 0`) and none of `-()[],.` in it.
fn hyphenable(entity: &str) -> bool {
    let spaced = entity.as_bytes().get(4..).and_then(|rest| rest.iter().position(|&b| b == b' ')).is_some_and(|at| at > 0);
    spaced && !entity.bytes().any(|b| b"-()[],.".contains(&b))
}

/// `hyphenateEntities($string, $lang)` for a set `$lang`: the words of
/// `text` (split at PCRE's `\s`, `""` and `"0"` dropped) walked in
/// windows; the longest window the filter knows (Yioop's
/// `ngramsContains(.., $lang, "all")`, given the lower-cased window), once
/// no longer window can start with it (the window + `"*"` unknown), is
/// written with its spaces made hyphens. Yioop's loop, step for step, its
/// edge cases included (see `tests/text/PhraseTest.php`). `lowered` is
/// `mb_strtolower($text)`: case mapping keeps spaces and NULs where they
/// are, so its windows are the lower-cased windows. `known` answers a
/// list of windows at once: the walk asks every two-word window (and its
/// `*`) up front, since nearly every step asks those, and the rest one
/// step at a time. None where `known` fails or the two texts do not split
/// alike.
pub fn hyphenate_entities(text: &str, lowered: &str, known: &mut dyn FnMut(&[&str]) -> Option<Vec<bool>>) -> Option<String> {
    let (parts, lower_parts) = (pcre_words(text), pcre_words(lowered));
    if parts.len() != lower_parts.len() {
        return None;
    }
    let num_parts = parts.len();
    let pairs = two_word_answers(lowered, &lower_parts, known)?;
    let mut ask = |window: &str| Some(known(&[window])?[0]);
    let (mut out, mut space) = (String::with_capacity(text.len() + 1), "");
    let (mut i, mut k) = (0usize, 0usize);
    let (mut current, mut lower) = (String::new(), String::new());
    let (mut last, mut lower_last) = (String::new(), String::new());
    let mut contains = false;
    // Yioop's $j starts at -1 and is incremented first: `next` is $j + 1.
    let mut next = 0usize;
    while next <= num_parts {
        let j = next;
        window(text, &parts, i, j, &mut current);
        window(lowered, &lower_parts, i, j, &mut lower);
        if j > i + 1 {
            let (holds, longer) = match j == i + 2 {
                true => pairs[i],
                false => (ask(&lower)?, ask(&format!("{lower}*"))?),
            };
            contains = false;
            if holds {
                last.clone_from(&current);
                lower_last.clone_from(&lower);
                (k, contains) = (j, true);
            }
            if !longer {
                if hyphenable(&last) && ask(&lower_last)? {
                    last = last.replace(' ', "-");
                }
                out.push_str(space);
                out.push_str(&last);
                space = " ";
                current.clear();
                last.clear();
                lower_last.clear();
                i = k;
                next = k; // $j = $k - 1, then $j++
                continue;
            }
        } else {
            contains = false;
            last.clone_from(&current);
            lower_last.clone_from(&lower);
            k = j;
        }
        next = j + 1;
    }
    if contains && hyphenable(&current) {
        current = current.replace(' ', "-");
    }
    out.push(' ');
    out.push_str(&current);
    Some(out)
}

/// The spans of `s`'s words, split at PCRE's `\s`, `""` and `"0"` dropped.
fn pcre_words(s: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    for (at, c) in s.char_indices().chain(std::iter::once((s.len(), ' '))) {
        if is_pcre_space(c) {
            if at > start && &s[start..at] != "0" {
                spans.push((start, at));
            }
            start = at + c.len_utf8();
        }
    }
    spans
}

/// The window [i, j) of words, joined by spaces and trimmed, into `into`.
fn window(source: &str, spans: &[(usize, usize)], i: usize, j: usize, into: &mut String) {
    into.clear();
    for (n, &(a, b)) in spans[i.min(j)..j].iter().enumerate() {
        if n > 0 {
            into.push(' ');
        }
        into.push_str(&source[a..b]);
    }
    if into.starts_with('\0') || into.ends_with('\0') {
        *into = php_trim(into).to_string();
    }
}

/// For each word i, whether the filter knows the two-word window from it,
/// and a longer window starting with that one (the window + `"*"`).
fn two_word_answers(lowered: &str, spans: &[(usize, usize)], known: &mut dyn FnMut(&[&str]) -> Option<Vec<bool>>) -> Option<Vec<(bool, bool)>> {
    // Every window and its starred form in one buffer: `pair*` is `pair`
    // and one byte more.
    let mut all = String::with_capacity(lowered.len() * 2);
    let mut ends = Vec::with_capacity(spans.len());
    let mut pair = String::new();
    for i in 0..spans.len().saturating_sub(1) {
        window(lowered, spans, i, i + 2, &mut pair);
        let start = all.len();
        all.push_str(&pair);
        all.push('*');
        ends.push((start, all.len() - 1));
    }
    let asked: Vec<&str> = ends.iter().flat_map(|&(start, end)| [&all[start..end], &all[start..=end]]).collect();
    let answers = known(&asked)?;
    (answers.len() == asked.len()).then(|| answers.chunks_exact(2).map(|a| (a[0], a[1])).collect())
}

/// computeSafeSearchScore's score of a page whose text is `len` bytes
/// long, where `num_unsafe_terms` of its words are unsafe and occur
/// `unsafe_count` times in all: `$num * $count / ($len + 1)`, with PHP's
/// int overflow and division (exact quotients stay ints). None where PHP
/// throws (a length of -1).
pub fn safe_search_score(num_unsafe_terms: i64, unsafe_count: Num, len: i64) -> Option<Num> {
    num::div(num::mul(Num::Int(num_unsafe_terms), unsafe_count), num::add(Num::Int(len), Num::Int(1)))
}

/// Terms or sentences with the positions each was met at, keys in the
/// order first met: the lists `extractTermSentencePositionsTags` keys by
/// them. Held flat (one list of positions, grouped by key), since a list
/// per key cost more than the rest of the work.
#[derive(Default)]
pub struct Positions<'a> {
    keys: Vec<&'a [u8]>,
    /// Where each key's positions start in `positions`, and one past the last.
    starts: Vec<usize>,
    positions: Vec<i64>,
}

impl<'a> Positions<'a> {
    /// Groups `(key, position)`, in order, by key. Distinct strings are
    /// distinct PHP keys (only a canonical decimal becomes an int key), so
    /// grouping by bytes is grouping by key.
    fn grouped(met: impl ExactSizeIterator<Item = (&'a [u8], i64)>) -> Positions<'a> {
        let mut slot_of: FxHashMap<&[u8], usize> = FxHashMap::with_capacity_and_hasher(met.len(), Default::default());
        let mut keys = Vec::new();
        let mut counts = Vec::new();
        let met: Vec<(usize, i64)> = met
            .map(|(key, position)| {
                let slot = *slot_of.entry(key).or_insert_with(|| {
                    keys.push(key);
                    counts.push(0);
                    keys.len() - 1
                });
                counts[slot] += 1;
                (slot, position)
            })
            .collect();
        let mut starts = Vec::with_capacity(keys.len() + 1);
        let mut next = 0;
        for count in &counts {
            starts.push(next);
            next += count;
        }
        starts.push(next);
        let mut fill = starts.clone();
        let mut positions = vec![0; met.len()];
        for (slot, position) in met {
            positions[fill[slot]] = position;
            fill[slot] += 1;
        }
        Positions { keys, starts, positions }
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Each key with its positions, in the order first met.
    pub fn iter(&self) -> impl Iterator<Item = (&'a [u8], &[i64])> + '_ {
        self.keys.iter().enumerate().map(|(i, key)| (*key, &self.positions[self.starts[i]..self.starts[i + 1]]))
    }
}

/// `extractTermSentencePositionsTags`' `TERM_POSITIONS`: each term's
/// positions, the first term at 1.
pub fn term_positions<'a>(terms: &[&'a [u8]]) -> Positions<'a> {
    Positions::grouped(terms.iter().enumerate().map(|(i, term)| (*term, i as i64 + 1)))
}

/// Its `SENTENCES`, from the lower-cased text: the pieces of
/// `preg_split("/(\n\n+)|\.|\!|\?|。|！|？/u")`, trimmed, "" and "0"
/// dropped (`empty`); each sentence's positions count the words
/// (`str_word_count`) of the sentences before it, from 1.
pub fn sentence_positions(lowered: &str) -> Positions<'_> {
    let mut pos: i64 = 1;
    let sentences: Vec<(&[u8], i64)> = sentence_pieces(lowered)
        .into_iter()
        .map(php_trim)
        .filter(|sentence| !sentence.is_empty() && *sentence != "0")
        .map(|sentence| {
            let at = pos;
            pos += str_word_count(sentence.as_bytes()) as i64;
            (sentence.as_bytes(), at)
        })
        .collect();
    Positions::grouped(sentences.into_iter())
}

/// The delimiters of that split. Each alternative starts with its own
/// character, and UTF-8 never holds one multi-byte character inside
/// another, so bytes serve.
fn sentence_pieces(text: &str) -> Vec<&str> {
    const WIDE: [&[u8]; 3] = ["。".as_bytes(), "！".as_bytes(), "？".as_bytes()];
    let bytes = text.as_bytes();
    let (mut pieces, mut start, mut i) = (Vec::new(), 0, 0);
    while i < bytes.len() {
        let delimiter = match bytes[i] {
            b'\n' if bytes.get(i + 1) == Some(&b'\n') => bytes[i..].iter().take_while(|&&b| b == b'\n').count(),
            b'.' | b'!' | b'?' => 1,
            0xE3 | 0xEF => WIDE.iter().find(|wide| bytes[i..].starts_with(wide)).map_or(0, |wide| wide.len()),
            _ => 0,
        };
        if delimiter == 0 {
            i += 1;
            continue;
        }
        pieces.push(&text[start..i]);
        i += delimiter;
        start = i;
    }
    pieces.push(&text[start..]);
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed<'a>(positions: &'a Positions) -> Vec<(&'a str, &'a [i64])> {
        positions.iter().map(|(key, at)| (std::str::from_utf8(key).unwrap(), at)).collect()
    }

    #[test]
    fn term_positions_group_each_term_in_the_order_first_met() {
        let terms: [&[u8]; 5] = [b"a", b"b", b"a", b"12", b"b"];
        assert_eq!(listed(&term_positions(&terms)), [("a", &[1, 3][..]), ("b", &[2, 5]), ("12", &[4])]);
        assert!(term_positions(&[]).is_empty());
    }

    #[test]
    fn sentence_positions_are_yioops_split_trim_and_word_counts() {
        // Expected values from Yioop's loop run by PHP 8.2.
        let text = "one two. three!\n\nfour ?0. one two.\n\n\n x。y z！-z？w'";
        assert_eq!(listed(&sentence_positions(text)), [("one two", &[1, 5][..]), ("three", &[3]), ("four", &[4]), ("x", &[7]), ("y z", &[8]), ("-z", &[10]), ("w'", &[11])]);
        // One newline does not split; "0" is dropped, "00" kept; a number
        // has no words.
        let text = "a\nb.\n.\n\n\n12. 12 .  0 .00. don't re-do it-. ";
        assert_eq!(listed(&sentence_positions(text)), [("a\nb", &[1][..]), ("12", &[3, 3]), ("00", &[3]), ("don't re-do it-", &[3])]);
        assert!(sentence_positions("").is_empty());
        assert!(sentence_positions("...").is_empty());
    }

    fn yioop_punct() -> Separators {
        Separators::from_alternation(r#"\.|\,|\:|\;|"|\'|\[|\/|\%|\?|\]|\{|\}|\(|\)|\!|\||।|\&|\`|\’|\‘|©|®|™|℠|…|\/|\>|，|\=|。|）|：|、|”|“|《|》|（|「|」|★|【|】|·|\+|\*|；|！|—|―|？|！|،|؛|؞|؟|٪|٬|٭|\‚|\‘"#).unwrap()
    }

    #[test]
    fn reads_yioops_alternation_and_refuses_other_regexes() {
        let set = yioop_punct();
        for c in ['.', ',', '"', '|', '`', '>', '。', '’', '٭', ' ', '\u{3000}'] {
            assert!(set.replaced(c), "{c}");
        }
        for c in ['-', 'a', '<', '_', '#', '\0', '\u{180E}'] {
            assert!(!set.replaced(c), "{c}");
        }
        for regex in ["", "a|", "ab", r"\s", r"\d|x", ".", "a|*", r"\<", "(a)"] {
            assert_eq!(Separators::from_alternation(regex), None, "{regex}");
        }
    }

    #[test]
    fn splits_as_yioop_trims_and_filters() {
        let set = yioop_punct();
        let terms = |s: &str| split_terms(&replace_separators(s, &set), &set).into_iter().map(String::from).collect::<Vec<_>>();
        assert_eq!(replace_separators("a,\t\n b..c", &set), "a  b  c");
        assert_eq!(terms("a, b.c-d 0 00 x_y"), ["a", "b", "c-d", "00", "x_y"]);
        assert_eq!(terms("\0\0 abc \0def\0 "), ["abc", "\0def"]);
        // U+180E is split at but stops trim, so the NUL after it stays.
        assert_eq!(terms("\u{180E}\0abc"), ["\0abc"]);
        assert_eq!(terms("0"), Vec::<String>::new());
        assert!(trims_to_nothing("\0\0") && !trims_to_nothing("\0a"));
    }

    #[test]
    fn lower_cases_ascii_here_and_the_rest_through_the_callback() {
        let mut calls = Vec::new();
        let mut lower = |s: &str| {
            calls.push(s.to_string());
            Some(s.to_lowercase())
        };
        assert_eq!(lower_case("AbC ÉCOLE Ñ", &mut lower).unwrap(), "abc école ñ");
        assert_eq!(calls, ["É", "Ñ"]);
        calls.clear();
        let mut lower = |s: &str| {
            calls.push(s.to_string());
            Some(s.to_lowercase())
        };
        lower_case("A ΣΑ", &mut lower).unwrap();
        assert_eq!(calls, ["A ΣΑ"]);
        assert_eq!(lower_case("É", &mut |_| None), None);
    }

    fn hyphenate(text: &str, known: &[&str]) -> String {
        let holds = |p: &str| known.iter().any(|k| *k == p || (p.ends_with('*') && k.starts_with(&p[..p.len() - 1]) && k.len() > p.len() - 1));
        hyphenate_entities(text, &text.to_lowercase(), &mut |ps| Some(ps.iter().map(|p| holds(p)).collect())).unwrap()
    }

    #[test]
    fn hyphenates_the_longest_known_window() {
        // Traced by hand through Yioop's loop, with this stand-in filter.
        let known = ["new york", "new york city"];
        assert_eq!(hyphenate("I love New York City today", &known), "I love New-York-City today");
        // Only a space after the fifth byte counts.
        assert_eq!(hyphenate("see new york", &known), "see new york");
        assert_eq!(hyphenate("see United States", &["united states"]), "see United-States ");
        assert_eq!(hyphenate("a  0 b", &known), "a b");
        assert_eq!(hyphenate("", &known), " ");
        // Punctuation keeps the spaces.
        assert_eq!(hyphenate("new. york", &["new. york"]), "new. york ");
    }

    #[test]
    fn the_safe_search_score_divides_as_php() {
        assert_eq!(safe_search_score(2, Num::Int(9), 5), Some(Num::Int(3)));
        assert_eq!(safe_search_score(1, Num::Int(1), 3), Some(Num::Float(0.25)));
        assert_eq!(safe_search_score(0, Num::Int(0), 100), Some(Num::Int(0)));
        assert_eq!(safe_search_score(1, Num::Int(1), -1), None);
        assert_eq!(safe_search_score(1, Num::Int(1), i64::MAX), Some(Num::Float(1.0 / 9.223_372_036_854_775_808e18)));
    }
}
