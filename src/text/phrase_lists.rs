//! `extractPhrasesInLists` after its canonicalization, for an English page,
//! with nothing of PHP: the passes Yioop's method runs in turn
//! (`hyphenateEntities`, `extractTermSentencePositionsTags`, the
//! Tokenizer's `extractTripletsPhrases`), each as its native switched
//! method runs it where that runs, and their lists joined as the method
//! joins them. What the passes read of PHP (separators, no-stem list,
//! n-word-gram filter's look-up, lexicon, grammar, `mb_strtolower` of the characters
//! met) comes in [`Passes`], read beforehand; so a page's lists can be made
//! on another thread while PHP's goes on (`php::text::phrases_ahead`).

use super::en_us::stem::{stem, State, StemCache};
use super::en_us::triplets::{extract_triplets_phrases, Grammar, Lexicon, Settings};
use super::phrase::{hyphenate_entities, lower_case, segment_terms, sentence_positions, term_positions, Positions, Separators};
use rustc_hash::FxHashMap;
use std::sync::Arc;
use std::time::Instant;

/// Whether a filter holds each of many windows; None where its look-up fails.
pub type Known = Box<dyn Fn(&[&[u8]]) -> Option<Vec<bool>> + Send + Sync>;

/// What the passes read besides the text, as PHP held it when read.
pub struct Passes {
    /// `str_replace("-|", "", PUNCT)`'s separators.
    pub separators: Separators,
    /// The en_US Tokenizer's `$no_stem_list`.
    pub no_stem: Vec<Vec<u8>>,
    /// NWordGrams' `all` filter for the locale, asked for many windows at
    /// once (None where its look-up would fail).
    pub known: Known,
    /// `mb_strtolower` of each character other than ASCII that may be met.
    pub lower: FxHashMap<char, String>,
    /// `ENABLE_QUESTION_ANSWERING`.
    pub question_answering: bool,
    pub threshold: f64,
    pub question_token: String,
    pub grammar: Arc<Grammar>,
    pub lexicon: Arc<Lexicon>,
}

/// A term or sentence with its positions.
pub type Listed = (Vec<u8>, Vec<i64>);

/// What `extractPhrasesInLists` gives for the text, and leaves behind.
#[derive(Debug, Default)]
pub struct PhraseLists {
    /// `TERM_POSITIONS`, each term as the text held it.
    pub terms: Vec<Listed>,
    /// `SENTENCES`, read by the questions.
    pub sentences: Vec<Listed>,
    /// `QUESTION_LIST`: each question and the sentence whose positions it takes.
    pub questions: Vec<(String, usize)>,
    /// `QUESTION_ANSWER_LIST`, where the question-answer pass ran.
    pub answers: Option<Vec<(String, String)>>,
    /// The stemmer's scratch as the last stem left it; None where none did.
    pub scratch: Option<State>,
    /// Seconds of hyphenation, of term and sentence positions, of triplets.
    pub seconds: [f64; 3],
}

/// The lists for `canonical` (the text `canonicalizePunctuatedTerms` left);
/// None wherever a native pass would have left the work to Yioop's PHP,
/// or a character's lower case is not in `passes.lower`.
pub fn phrase_lists(canonical: &str, passes: &Passes) -> Option<PhraseLists> {
    let mut out = PhraseLists::default();
    let started = Instant::now();
    let hyphenated = hyphenated(canonical, passes)?;
    out.seconds[0] = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let mut term_stems = StemCache::default();
    let lowered_text = lower(&hyphenated, passes)?;
    let terms = terms(&lowered_text, passes, &mut term_stems)?;
    let stems: Vec<&[u8]> = terms.iter().map(|term| term.as_ref().map_or_else(|kept| kept.as_bytes(), |&at| term_stems.stemmed(at))).collect();
    if !stems.is_empty() {
        out.terms = owned(&term_positions(&stems));
        if passes.question_answering {
            out.sentences = owned(&sentence_positions(&lowered_text));
        }
    }
    out.seconds[1] = started.elapsed().as_secs_f64();
    let mut scratch = term_stems.last_state().cloned();
    if !out.sentences.is_empty() {
        let started = Instant::now();
        let mut question_stems = StemCache::default();
        let texts: Vec<&[u8]> = out.sentences.iter().map(|(sentence, _)| &sentence[..]).collect();
        let settings = Settings { threshold: passes.threshold, question_token: &passes.question_token, grammar: &passes.grammar, lexicon: &passes.lexicon };
        let mut stem_word = |word: &str, into: &mut String| {
            let at = question_stems.number(word.as_bytes(), |w| stem_of(w, passes));
            into.push_str(&String::from_utf8_lossy(question_stems.stemmed(at)));
        };
        let extracted = extract_triplets_phrases(&texts, &settings, &mut stem_word).ok()?;
        out.questions = extracted.questions.entries().to_vec();
        out.answers = Some(extracted.answers.entries().to_vec());
        scratch = question_stems.last_state().cloned().or(scratch);
        out.seconds[2] = started.elapsed().as_secs_f64();
    }
    out.scratch = scratch;
    Some(out)
}

/// `hyphenateEntities`, as the native one runs it.
fn hyphenated(text: &str, passes: &Passes) -> Option<String> {
    let lowered = lower(text, passes)?;
    hyphenate_entities(text, &lowered, &mut |windows| {
        let windows: Vec<&[u8]> = windows.iter().map(|w| w.as_bytes()).collect();
        (passes.known)(&windows)
    })
}

/// `stemCharGramSegment`'s terms of the lower-cased text: a term with `_`
/// kept as it is (Err), any other by its stem's number in `stems`. The
/// en_US Tokenizer's `segment` gives its text back.
fn terms(lowered_text: &str, passes: &Passes, stems: &mut StemCache) -> Option<Vec<Result<usize, String>>> {
    let segment = |replaced: &str| Some(replaced.to_string());
    segment_terms(lowered_text, &passes.separators, segment, &mut |text| lower(text, passes), &mut |word| stems.number(word, |w| stem_of(w, passes)))
}

fn stem_of(word: &[u8], passes: &Passes) -> super::en_us::stem::Stemmed {
    stem(word, &|w| passes.no_stem.iter().any(|listed| listed == w))
}

/// `mb_strtolower` by the characters read: a capital sigma, which PHP 8.3
/// on lowers by its neighbours, is left to PHP.
fn lower(text: &str, passes: &Passes) -> Option<String> {
    lower_case(text, &mut |run| {
        let mut out = String::with_capacity(run.len());
        for c in run.chars() {
            match c {
                '\u{3A3}' => return None,
                c if c.is_ascii() => out.push(c.to_ascii_lowercase()),
                c => out.push_str(passes.lower.get(&c)?),
            }
        }
        Some(out)
    })
}

fn owned(positions: &Positions) -> Vec<Listed> {
    positions.iter().map(|(key, at)| (key.to_vec(), at.to_vec())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passes(lower: &[(char, &str)]) -> Passes {
        Passes {
            separators: Separators::from_alternation(r"\.|\,").expect("an alternation"),
            no_stem: vec![b"walking".to_vec()],
            known: Box::new(|windows| Some(vec![false; windows.len()])),
            lower: lower.iter().map(|(c, s)| (*c, s.to_string())).collect(),
            question_answering: false,
            threshold: 3.0,
            question_token: "qqq".into(),
            grammar: Arc::new(Grammar::default()),
            lexicon: Arc::new(Lexicon::parse(b"the DT\n").expect("a lexicon")),
        }
    }

    fn terms(lists: &PhraseLists) -> Vec<(&str, &[i64])> {
        lists.terms.iter().map(|(term, at)| (std::str::from_utf8(term).unwrap(), &at[..])).collect()
    }

    #[test]
    fn terms_are_lowered_stemmed_and_placed_the_no_stem_list_kept() {
        let lists = phrase_lists("Walking cats, walking CATS.", &passes(&[])).expect("lists");
        assert_eq!(terms(&lists), [("walking", &[1, 3][..]), ("cat", &[2, 4])]);
        assert!(lists.answers.is_none() && lists.sentences.is_empty(), "no question answering asked");
    }

    #[test]
    fn other_characters_are_lowered_by_the_cases_read() {
        let lists = phrase_lists("Ärger über", &passes(&[('Ä', "ä"), ('ä', "ä"), ('ü', "ü")])).expect("lists");
        assert_eq!(terms(&lists), [("ärger", &[1][..]), ("über", &[2])]);
        assert!(phrase_lists("Ärger", &passes(&[('ü', "ü")])).is_none(), "a case not read is PHP's to map");
    }

    #[test]
    fn a_capital_sigma_is_left_to_php() {
        let cases = [('Σ', "σ"), ('σ', "σ"), ('ο', "ο")];
        assert!(phrase_lists("Σοσ", &passes(&cases)).is_none(), "PHP 8.3 on lowers it by its neighbours");
        assert!(phrase_lists("σοσ", &passes(&cases)).is_some());
    }

    #[test]
    fn the_last_stem_leaves_the_scratch() {
        let lists = phrase_lists("ponies", &passes(&[])).expect("lists");
        let state = lists.scratch.expect("a stem that wrote its scratch");
        assert_eq!(state.buffer, stem(b"ponies", &|_| false).state.unwrap().buffer);
        assert!(phrase_lists("walking", &passes(&[])).expect("lists").scratch.is_none(), "a no-stem word writes none");
    }
}
