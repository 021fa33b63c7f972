//! The en_US Tokenizer's `canonicalizePunctuatedTerms`: a list of PCRE
//! replacements run over every page the queue server indexes. Most are
//! literal and cheap for PCRE; the costly ones are two shapes that PCRE
//! tries at nearly every letter, and those are done here:
//! - a contraction, `/\b(\p{L}+)SUFFIX/` replaced by ` $1TAIL` (`n't` by
//!   ` $1 not`, ...);
//! - a word before `'s`, `/(w1|w2|...)\'s/i` replaced by `$1TAIL`.
//!
//! Neither has `/u`: PCRE reads bytes, `\p{L}` is a byte's Latin-1 code
//! point being a letter, `\b` and `/i` use the C locale's tables (ASCII
//! word bytes and case; the binding checks the locale). Each replacement
//! scans the original text left to right and takes the leftmost match,
//! the alternatives in order, as PCRE does. `recognize` tells the two
//! shapes from the pattern and replacement strings; anything else is left
//! to PHP's own `preg_replace`.

use std::borrow::Cow;

/// A replacement done here.
#[derive(Debug, PartialEq, Eq)]
pub enum Replacement {
    /// `/\b(\p{L}+)SUFFIX/` to ` $1TAIL`.
    Contraction { suffix: Vec<u8>, tail: Vec<u8> },
    /// `/(WORDS[0]|WORDS[1]|...)\'s/i` to `$1TAIL`.
    WordIs { words: Vec<Vec<u8>>, tail: Vec<u8> },
}

/// PCRE stops a search after `pcre.backtrack_limit` steps (as PCRE gets
/// it; a million in Yioop's Config.php); texts whose search might take a
/// tenth of that are left to PHP (`Replacement::apply` gives None).
fn most_steps(limit: u32) -> usize {
    limit as usize / 10
}

/// The replacement that `pattern` and `replacement` (PHP's strings, as
/// `preg_replace` gets them) make, if one done here.
pub fn recognize(pattern: &[u8], replacement: &[u8]) -> Option<Replacement> {
    if let Some(suffix) = pattern.strip_prefix(br"/\b(\p{L}+)").and_then(|p| p.strip_suffix(b"/")) {
        let suffix = unescape_suffix(suffix)?;
        let tail = replacement.strip_prefix(b" $1").filter(|t| plain(t))?;
        return Some(Replacement::Contraction { suffix, tail: tail.to_vec() });
    }
    let alternation = pattern.strip_prefix(b"/(")?.strip_suffix(br")\'s/i")?;
    let words: Vec<Vec<u8>> = alternation.split(|&b| b == b'|').map(<[u8]>::to_vec).collect();
    let tail = replacement.strip_prefix(b"$1").filter(|t| plain(t))?;
    words.iter().all(|w| !w.is_empty() && w.iter().all(u8::is_ascii_alphabetic)).then(|| Replacement::WordIs { words, tail: tail.to_vec() })
}

/// Letters, then `\'` (an escaped apostrophe) and letters: the suffixes
/// Yioop writes. Letters after the apostrophe keep matches apart.
fn unescape_suffix(written: &[u8]) -> Option<Vec<u8>> {
    let at = written.windows(2).position(|w| w == br"\'")?;
    let (before, after) = (&written[..at], &written[at + 2..]);
    let letters = |s: &[u8]| s.iter().all(u8::is_ascii_alphabetic);
    (letters(before) && letters(after) && !after.is_empty()).then(|| [before, b"'", after].concat())
}

/// A replacement tail with nothing PCRE would read as a reference.
fn plain(tail: &[u8]) -> bool {
    tail.iter().all(|&b| b.is_ascii_alphanumeric() || b == b' ' || b == b'_')
}

impl Replacement {
    /// The text with every match replaced; None where PCRE, stopping at
    /// `limit` steps (its backtrack limit), might have run out of them.
    /// (The binding uses `apply_counted`.)
    #[cfg(test)]
    pub fn apply<'a>(&self, text: &'a [u8], limit: u32) -> Option<Cow<'a, [u8]>> {
        self.apply_counted(text, limit, &mut None)
    }

    /// `apply`, with `exceeds` keeping whether PCRE's contraction search
    /// of this very text might run out of steps: the six contractions of
    /// Yioop's list run one after another, mostly over the same text, and
    /// counting is the larger part of their cost. The caller clears it
    /// whenever the text changes.
    pub fn apply_counted<'a>(&self, text: &'a [u8], limit: u32, exceeds: &mut Option<bool>) -> Option<Cow<'a, [u8]>> {
        match self {
            Replacement::Contraction { suffix, tail } => {
                let most = most_steps(limit);
                if *exceeds.get_or_insert_with(|| pcre_steps_exceed(text, most)) {
                    return None;
                }
                contraction(text, suffix, tail)
            }
            // A start bitmap and first bytes settle most starts: a few
            // steps a byte at most (Yioop's list, recorded: 2,000 bytes of
            // candidate starts under a limit of 1,000 still answer).
            Replacement::WordIs { words, tail } => (text.len() <= most_steps(limit)).then(|| word_is(text, words, tail)),
        }
    }
}

/// `\p{L}` outside UTF mode: the byte as a Latin-1 code point is a letter.
fn is_latin1_letter(b: u8) -> bool {
    b.is_ascii_alphabetic() || matches!(b, 0xAA | 0xB5 | 0xBA | 0xC0..=0xD6 | 0xD8..=0xF6 | 0xF8..=0xFF)
}

/// `\w` outside UTF mode, C locale: ASCII letters, digits and `_`.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `\b` before `text[at]`.
fn boundary(text: &[u8], at: usize) -> bool {
    let before = at > 0 && is_word(text[at - 1]);
    let after = at < text.len() && is_word(text[at]);
    before != after
}

/// `\b(\p{L}+)SUFFIX`. PCRE tries each start where `\b` holds before a
/// letter, takes the letters greedily and gives them back until `suffix`
/// follows. The suffix's apostrophe is not a letter, so a start can only
/// match with the apostrophe that ends its run of letters: each apostrophe
/// (in order) is tried with the leftmost start of the run before it.
/// The caller has checked that PCRE's search would not run out of steps
/// (`pcre_steps_exceed`): even without an apostrophe, since PCRE looks for
/// its required byte only near the start, and a long subject is searched
/// at every start.
fn contraction<'a>(text: &'a [u8], suffix: &[u8], tail: &[u8]) -> Option<Cow<'a, [u8]>> {
    let quote_at = suffix.iter().position(|&b| b == b'\'')?;
    if memchr::memchr(b'\'', text).is_none() {
        return Some(Cow::Borrowed(text));
    }
    let (mut out, mut copied) = (Vec::new(), 0);
    for quote in memchr::memchr_iter(b'\'', text) {
        let Some(end) = quote.checked_sub(quote_at).filter(|&end| end >= copied && text[end..].starts_with(suffix)) else {
            continue;
        };
        let letters = text[copied..end].iter().rev().take_while(|&&b| is_latin1_letter(b)).count();
        let Some(start) = (end - letters..end).find(|&at| boundary(text, at)) else {
            continue;
        };
        out.extend_from_slice(&text[copied..start]);
        out.push(b' ');
        out.extend_from_slice(&text[start..end]);
        out.extend_from_slice(tail);
        copied = end + suffix.len();
    }
    Some(finish(text, out, copied))
}

/// Whether PCRE's search for a contraction in `text` might take more than
/// `most` steps: each start (a letter after `\b`) costs its run of letters
/// twice, taken and given back. In ASCII a run has one start at most.
fn pcre_steps_exceed(text: &[u8], most: usize) -> bool {
    if text.is_ascii() && 3 * text.len() <= most {
        return false;
    }
    let mut steps = 0;
    let mut at = 0;
    while at < text.len() {
        if !is_latin1_letter(text[at]) {
            at += 1;
            continue;
        }
        let end = at + text[at..].iter().take_while(|&&b| is_latin1_letter(b)).count();
        steps += run_steps(text, at, end);
        if steps > most {
            return true;
        }
        at = end;
    }
    false
}

/// The steps of every start (`\b` before it) in the run of letters
/// `text[start..end]`: a start at `p` costs `2 * (end - p) + 1`.
fn run_steps(text: &[u8], start: usize, end: usize) -> usize {
    (start..end).filter(|&p| boundary(text, p)).map(|p| 2 * (end - p) + 1).sum()
}

/// `(w1|w2|...)\'s` under `/i`: every match ends in an apostrophe and `s`
/// or `S`, so only the few bytes before each apostrophe can start one;
/// the leftmost start wins, then the first word that fits there.
fn word_is<'a>(text: &'a [u8], words: &[Vec<u8>], tail: &[u8]) -> Cow<'a, [u8]> {
    let longest = words.iter().map(Vec::len).max().unwrap_or(0);
    let (mut out, mut copied) = (Vec::new(), 0);
    for quote in memchr::memchr_iter(b'\'', text) {
        if quote < copied || !matches!(text.get(quote + 1), Some(b's' | b'S')) {
            continue;
        }
        let starts = quote.saturating_sub(longest).max(copied)..quote;
        let found = starts.into_iter().any(|start| {
            words.iter().any(|w| w.len() == quote - start && w.eq_ignore_ascii_case(&text[start..quote]))
        });
        // `$1` is the word itself: the text up to the apostrophe stays.
        if found {
            out.extend_from_slice(&text[copied..quote]);
            out.extend_from_slice(tail);
            copied = quote + 2;
        }
    }
    finish(text, out, copied)
}

fn finish<'a>(text: &'a [u8], mut out: Vec<u8>, copied: usize) -> Cow<'a, [u8]> {
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.extend_from_slice(&text[copied..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contraction_of(suffix: &str, tail: &str) -> Replacement {
        Replacement::Contraction { suffix: suffix.as_bytes().to_vec(), tail: tail.as_bytes().to_vec() }
    }

    fn run(replacement: &Replacement, text: &str) -> String {
        String::from_utf8_lossy(&replacement.apply(text.as_bytes(), 1_000_000).unwrap()).into_owned()
    }

    #[test]
    fn recognizes_the_two_shapes_and_nothing_else() {
        assert_eq!(recognize(br"/\b(\p{L}+)n\'t/", b" $1 not"), Some(contraction_of("n't", " not")));
        assert_eq!(recognize(br"/\b(\p{L}+)\'s/", b" $1_pos_s"), Some(contraction_of("'s", "_pos_s")));
        let words = vec![b"who".to_vec(), b"it".to_vec()];
        assert_eq!(recognize(br"/(who|it)\'s/i", b"$1 is"), Some(Replacement::WordIs { words, tail: b" is".to_vec() }));
        for (pattern, replacement) in [
            (&br"/\b(\p{L}+)\'d/u"[..], &b" $1 would"[..]),
            (br"/\b(\p{L}+)\'d/", b" $2 would"),
            (br"/\b(\p{L}+)\'d/", b" $1 \\1"),
            (br"/\b(\p{L}+)d/", b" $1 x"),
            (br"/\b(\p{L}+)\'/", b" $1 x"),
            (br"/(who|it)\'s/", b"$1 is"),
            (br"/(who|i.)\'s/i", b"$1 is"),
            (br"/(who||it)\'s/i", b"$1 is"),
            (br"/gimme/i", b"give me"),
        ] {
            assert_eq!(recognize(pattern, replacement), None, "{}", String::from_utf8_lossy(pattern));
        }
    }

    #[test]
    fn contractions_as_pcre_matches_them() {
        let not = contraction_of("n't", " not");
        // Expected values from PHP's own preg_replace of Yioop's patterns.
        assert_eq!(run(&not, "I don't know, he can't"), "I  do not know, he  ca not");
        assert_eq!(run(&not, "n't xn't 9an't _an't a_bn't"), "n't  x not 9an't _an't a_bn't");
        assert_eq!(run(&not, "don'tdon't"), " do notdon't");
        let would = contraction_of("'d", " would");
        assert_eq!(run(&would, "caf\u{e9}'d I'd"), "caf\u{e9}'d  I would");
        assert_eq!(run(&would, "no quote here"), "no quote here");
    }

    #[test]
    fn a_latin1_letter_after_a_word_byte_starts_a_match_of_its_own() {
        // "\xC3" is a letter to \p{L} but not a word byte: \b holds before it.
        let would = contraction_of("'d", " would");
        assert_eq!(would.apply(b"a\xC3'd", 1_000_000).unwrap().as_ref(), b" a\xC3 would");
        assert_eq!(would.apply(b"1\xC3'd", 1_000_000).unwrap().as_ref(), b"1 \xC3 would");
        assert_eq!(would.apply(b"\xA9\xC3'd", 1_000_000).unwrap().as_ref(), b"\xA9\xC3'd");
    }

    #[test]
    fn words_before_s_leftmost_then_in_order() {
        let words = ["why", "it", "everyone", "one", "he", "she"].iter().map(|w| w.as_bytes().to_vec()).collect();
        let is = Replacement::WordIs { words, tail: b" is".to_vec() };
        assert_eq!(run(&is, "It's here, everyone's there, SHE'S gone"), "It is here, everyone is there, SHE is gone");
        assert_eq!(run(&is, "someone's bits's whys x'S"), "someone is bits's whys x'S");
        assert_eq!(run(&is, "he's'she's"), "he is'she is");
    }

    /// The count as PCRE's search makes it, start by start.
    fn steps_start_by_start(text: &[u8]) -> usize {
        (0..text.len())
            .filter(|&at| is_latin1_letter(text[at]) && boundary(text, at))
            .map(|at| 2 * text[at..].iter().take_while(|&&b| is_latin1_letter(b)).count() + 1)
            .sum()
    }

    #[test]
    fn the_run_by_run_count_is_the_start_by_start_count() {
        // Letters ASCII and not, word bytes that are no letters, and others.
        let alphabet = b"aZ_9\xC3\xE9\xAA\xA9 '.";
        let (mut seed, mut counted) = (7u64, 0);
        for len in 0..400 {
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    alphabet[(seed >> 33) as usize % alphabet.len()]
                })
                .collect();
            let steps = steps_start_by_start(&text);
            counted += usize::from(steps > 0);
            for most in [0, steps.saturating_sub(1), steps, steps + 1] {
                assert_eq!(pcre_steps_exceed(&text, most), steps > most, "{text:?} at most {most}");
            }
        }
        assert!(counted > 350, "most draws hold letters: {counted}");
    }

    #[test]
    fn texts_pcre_might_give_up_on_are_left_to_php() {
        // (PHP's PCRE, with its JIT, still answers this one: leaving it is safe.)
        let would = contraction_of("'d", " would");
        let long: Vec<u8> = b"a\xC3".repeat(1000).into_iter().chain(*b"'x").collect();
        assert_eq!(would.apply(&long, 1_000_000), None);
        // PCRE searches a long run of letters at every start, apostrophe
        // or not: at the stock limit 1,000,001 letters fail; at a limit
        // of 1000, 2,000 letters before " don't".
        let not = contraction_of("n't", " not");
        assert_eq!(not.apply(&b"a".repeat(1_000_001), 1_000_000), None);
        let mut short = b"a".repeat(2000);
        short.extend_from_slice(b" don't");
        assert_eq!(not.apply(&short, 1000), None);
        assert!(not.apply(&short, 1_000_000).is_some());
    }
}
