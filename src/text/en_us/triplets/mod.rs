//! The English Tokenizer's question-answer triplets, as Yioop 2021 makes
//! them for every page it indexes (`locale/en_US/resources/Tokenizer.php`,
//! `extractTripletsPhrases`): each sentence of enough words is compressed
//! ([`sentence_compression`]), tagged by part of speech ([`tagger`], with the
//! [`Lexicon`]), parsed ([`parse`]), and its subject, predicate and object
//! turned into questions: the triplet with one part replaced by the
//! question token, stemmed, each answered by the part it replaced.
//!
//! Text is matched as Yioop's regexes match it under PHP's C locale: ASCII
//! letters, digits and spaces. Stemming is the caller's.

mod sentence_compression;
mod lexicon;
mod parse;
mod tagger;

pub use lexicon::Lexicon;
pub use parse::Grammar;
pub use tagger::{tag, Tagged};

use crate::php_semantics::text::{php_trim, str_word_count};
use parse::{triplet, Parser, Triplet, Words};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use tagger::Tagger;

/// What Yioop's method reads besides the sentences.
pub struct Settings<'a> {
    /// `PHRASE_THRESHOLD`: sentences of fewer words are skipped.
    pub threshold: f64,
    /// The Tokenizer's `$question_token`.
    pub question_token: &'a str,
    pub grammar: &'a Grammar,
    pub lexicon: &'a Lexicon,
}

/// A PHP array with string keys: a key set again keeps its place and
/// takes the new value.
#[derive(Debug, Default)]
pub struct Ordered<V> {
    entries: Vec<(String, V)>,
    index: FxHashMap<String, usize>,
}

impl<V> Ordered<V> {
    fn insert(&mut self, key: String, value: V) {
        match self.index.get(&key) {
            Some(&at) => self.entries[at].1 = value,
            None => {
                self.index.insert(key.clone(), self.entries.len());
                self.entries.push((key, value));
            }
        }
    }

    pub fn entries(&self) -> &[(String, V)] {
        &self.entries
    }
}

/// The method's result: QUESTION_LIST (each question => the index of the
/// sentence whose positions it takes) and QUESTION_ANSWER_LIST.
#[derive(Debug, Default)]
pub struct Extracted {
    pub questions: Ordered<usize>,
    pub answers: Ordered<String>,
}

/// Why Yioop's PHP must do the work instead.
#[derive(Debug, PartialEq, Eq)]
pub enum Declined {
    /// A sentence that is not UTF-8 (Yioop's `/u` replace gives null).
    NotUtf8,
    /// A sentence nested beyond the native parser's depth.
    TooDeep,
}

/// `extractTripletsPhrases` over the sentences, in order.
pub fn extract_triplets_phrases(sentences: &[&[u8]], settings: &Settings, stem: &mut dyn FnMut(&str, &mut String)) -> Result<Extracted, Declined> {
    let mut out = Extracted::default();
    for (i, sentence) in sentences.iter().enumerate() {
        // PHP's `>=`: a NaN threshold keeps no sentence.
        let kept = str_word_count(sentence) as f64 >= settings.threshold;
        if !kept {
            continue;
        }
        std::str::from_utf8(sentence).map_err(|_| Declined::NotUtf8)?;
        let compressed = sentence_compression::strip_parentheticals(sentence_compression::compress_sentence(sentence));
        let tagger = RefCell::new(Tagger::new(&compressed, settings.lexicon));
        let (tree, _) = Parser::new(settings.grammar).whole_phrase(&Words::new(&tagger), 0).map_err(|_| Declined::TooDeep)?;
        let Triplet { subject: s, predicate: p, object: o } = triplet(&tree);
        for parts in [[&*s.concise, &*p.concise, &*o.concise], [&*s.raw, &*p.raw, &*o.raw]] {
            for (question, answer) in questions(parts, settings.question_token, stem) {
                out.questions.insert(question.clone(), i);
                out.answers.insert(question, answer);
            }
        }
    }
    Ok(out)
}

/// `extractTripletByType`: where subject, predicate and object are all
/// there, the questions with one part replaced by the question token
/// (stemmed) and their answers; for "is" and "was" also with subject and
/// object swapped.
fn questions(parts: [&str; 3], token: &str, stem: &mut dyn FnMut(&str, &mut String)) -> Vec<(String, String)> {
    if parts.iter().any(|p| p.is_empty() || *p == "0") {
        return Vec::new();
    }
    let mut sentence = parts.map(php_trim);
    let mut out = Vec::new();
    for pass in 0..2 {
        if pass == 1 {
            if !["is", "was"].contains(&sentence[1]) {
                break;
            }
            sentence.swap(0, 2);
        }
        for i in 0..3 {
            let mut question = sentence;
            question[i] = token;
            out.push((stem_phrase(&question.join(" "), stem), collapse_spaces(sentence[i])));
        }
    }
    out
}

/// PCRE's `\s` outside UTF mode, and on ASCII text in it: space, `\t`,
/// `\n`, `\v`, `\f`, `\r`.
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ')
}

/// PCRE's `\w` outside UTF mode: ASCII letters, digits and `_`.
fn is_ascii_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_space(c: char) -> bool {
    c.is_ascii() && is_ascii_space(c as u8)
}

/// `stemPhrase`: the words (split at spaces, empty ones dropped), stemmed.
fn stem_phrase(phrase: &str, stem: &mut dyn FnMut(&str, &mut String)) -> String {
    let mut out = String::with_capacity(phrase.len());
    for (n, word) in phrase.split(is_space).filter(|t| !php_trim(t).is_empty()).enumerate() {
        if n > 0 {
            out.push(' ');
        }
        stem(word, &mut out);
    }
    out
}

/// `preg_replace('/\s+/u', ' ', ..)` on ASCII text.
fn collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_space = false;
    for c in s.chars() {
        if is_space(c) {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
        } else {
            out.push(c);
            in_space = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_swap_subject_and_object_for_is() {
        let mut stem = |w: &str, out: &mut String| out.push_str(w.trim_end_matches('s'));
        let out = questions([" dogs", " is ", "  big   cats "], "qqq", &mut stem);
        let listed: Vec<_> = out.iter().map(|(q, a)| format!("{q}={a}")).collect();
        assert_eq!(listed, ["qqq i big cat=dogs", "dog qqq big cat=is", "dog i qqq=big cats", "qqq i dog=big cats", "big cat qqq dog=is", "big cat i qqq=dogs"]);
        assert!(questions(["x", "0", "y"], "qqq", &mut |w: &str, out: &mut String| out.push_str(w)).is_empty());
    }
}
