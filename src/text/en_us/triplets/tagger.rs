//! The English Tokenizer's `tagTokenizePartOfSpeech`: the words of a text
//! (`preg_match_all("/[\w\d]+/")`, ASCII word characters), each tagged with
//! the first tag the lexicon lists for it lower-cased (`NN` if none), then
//! Yioop's rules on endings and on the word before, in Yioop's order.
//!
//! A word's tag is final once the next word is tagged (that may retag it),
//! so [`Tagger`] tags on demand: the parser reads only as far as its parse
//! goes, often a few words of a long sentence.

use super::is_ascii_word;
use super::lexicon::Lexicon;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tagged<'a> {
    pub token: &'a str,
    pub tag: &'a str,
}

const NOUNS: [&str; 3] = ["NN", "NNS", "NNP"];
const VERBS: [&str; 3] = ["VBD", "VBP", "VB"];

fn is_noun(tag: &str) -> bool {
    NOUNS.contains(&tag)
}

fn lists(listed: Option<&str>, tag: &str) -> bool {
    listed.is_some_and(|listed| listed.split(' ').any(|t| t == tag))
}


/// What Yioop keeps of the word before: as written, whether it was
/// "would", its final tag, and the tags the lexicon listed for it.
#[derive(Clone, Copy)]
struct Previous<'a> {
    token: &'a str,
    would: bool,
    tag: &'a str,
    listed: Option<&'a str>,
}

/// The tagger over one text, word by word.
pub struct Tagger<'a> {
    text: &'a [u8],
    at: usize,
    lexicon: &'a Lexicon,
    lower: String,
    previous: Option<Previous<'a>>,
    tagged: Vec<Tagged<'a>>,
}

impl<'a> Tagger<'a> {
    pub fn new(text: &'a [u8], lexicon: &'a Lexicon) -> Self {
        Tagger { text, at: 0, lexicon, lower: String::new(), previous: None, tagged: Vec::new() }
    }

    /// A tagger whose words are tagged already (the parser's tests).
    #[cfg(test)]
    pub(super) fn of_words(tagged: Vec<Tagged<'a>>, lexicon: &'a Lexicon) -> Self {
        Tagger { text: b"", at: 0, lexicon, lower: String::new(), previous: None, tagged }
    }

    /// The next run of word characters.
    fn next_word(&mut self) -> Option<&'a str> {
        let text = self.text;
        let start = self.at + text[self.at..].iter().position(|&b| is_ascii_word(b))?;
        let end = start + text[start..].iter().position(|&b| !is_ascii_word(b)).unwrap_or(text.len() - start);
        self.at = end;
        // ASCII, so UTF-8.
        std::str::from_utf8(&text[start..end]).ok()
    }

    /// Tags one more word; false at the end of the text.
    fn step(&mut self) -> bool {
        let Some(token) = self.next_word() else { return false };
        self.lower.clear();
        self.lower.extend(token.chars().map(|c| c.to_ascii_lowercase()));
        let lower = self.lower.as_str();
        let lexicon = self.lexicon;
        let listed = lexicon.tags(lower);
        let would = lower == "would";
        let mut tag: &'a str = listed.map_or("NN", |l| l.split(' ').next().unwrap_or_default());
        let previous = self.previous;
        if previous.is_some_and(|p| p.token == "the") && VERBS.contains(&tag) {
            tag = "NN";
        }
        // Yioop's rule making a noun with a "." a number never applies:
        // a word here has no ".".
        if lower.ends_with("ed") {
            if tag.starts_with('N') {
                tag = "VBN";
            }
        } else if lower.ends_with("ly") {
            tag = "RB";
        } else if lower.ends_with("al") && is_noun(tag) {
            tag = "JJ";
        }
        if tag == "NN" && previous.is_some_and(|p| p.would) {
            tag = "VB";
        }
        if is_noun(tag) && lower.ends_with("ing") {
            tag = "VBG";
        }
        // Yioop compares with the word before's tag as it was when that
        // word was tagged, even after retagging it here.
        let after_noun = previous.is_some_and(|p| is_noun(p.tag));
        let before_may_be_adjective = previous.is_some_and(|p| lists(p.listed, "JJ"));
        if after_noun && tag == "JJ" && before_may_be_adjective {
            self.retag_last("JJ");
            tag = "NN";
        }
        if after_noun && is_noun(tag) {
            if lists(listed, "VBN") {
                tag = "VBN";
            } else if lists(listed, "VBZ") {
                tag = "VBZ";
            } else if before_may_be_adjective {
                self.retag_last("JJ");
            }
        }
        self.tagged.push(Tagged { token, tag });
        self.previous = Some(Previous { token, would, tag, listed });
        true
    }

    fn retag_last(&mut self, tag: &'static str) {
        if let Some(last) = self.tagged.last_mut() {
            last.tag = tag;
        }
    }

    /// Word `at`, its tag final; None past the last word.
    pub fn get(&mut self, at: usize) -> Option<Tagged<'a>> {
        while self.tagged.len() <= at + 1 && self.step() {}
        self.tagged.get(at).copied()
    }

    /// Every word, tagged.
    pub fn all(mut self) -> Vec<Tagged<'a>> {
        while self.step() {}
        self.tagged
    }
}

pub fn tag<'a>(text: &'a [u8], lexicon: &'a Lexicon) -> Vec<Tagged<'a>> {
    Tagger::new(text, lexicon).all()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lexicon() -> Lexicon {
        Lexicon::parse(b"the DT\nwould MD\nbig JJ NN\nrun VB NN\nruns NNS VBZ\nhouse NN JJ\nstone NN JJ\n").unwrap()
    }

    fn tags(text: &str) -> Vec<String> {
        tag(text.as_bytes(), &lexicon()).into_iter().map(|t| t.tag.to_string()).collect()
    }

    #[test]
    fn lexicon_then_rules_in_order() {
        assert_eq!(tags("the run"), ["DT", "NN"], "a verb after 'the' is a noun");
        assert_eq!(tags("The run"), ["DT", "VB"], "'the' as written");
        assert_eq!(tags("would zork"), ["MD", "VB"]);
        assert_eq!(tags("walked slowly medal singing"), ["VBN", "RB", "JJ", "VBG"]);
        assert_eq!(tags("dog runs"), ["NN", "VBZ"], "noun then a possible verb");
        assert_eq!(tags("stone house"), ["JJ", "NN"], "noun noun, the first possibly an adjective");
        assert_eq!(tags("x.y-z_1"), ["NN", "NN", "NN"]);
    }

    #[test]
    fn tags_on_demand_are_final_tags() {
        let lexicon = lexicon();
        let text = b"stone house big run the run would go";
        let all = tag(text, &lexicon);
        let mut tagger = Tagger::new(text, &lexicon);
        for (at, word) in all.iter().enumerate() {
            assert_eq!(tagger.get(at), Some(*word), "word {at}");
        }
        assert_eq!(tagger.get(all.len()), None);
    }
}
