//! The English part-of-speech lexicon (`en_US/resources/lexicon.txt.gz`)
//! as Yioop reads it: `preg_match_all("/([^\s\,]+)[\s|\,]+([^\n]+)/u")`
//! over the whole text, then `array_combine` of words and tag lists (a
//! word listed again takes its later tags).
//!
//! Read here line by line, which is the same where each line is a word, a
//! run of separators (spaces, `,`, `|`) and tags; a line that ends before
//! its tags would make Yioop's match run on into the next line, and such
//! a text (or one that is not ASCII, where `\s` takes in more) is not
//! read at all: the caller leaves the work to Yioop's PHP.

use super::is_space;
use rustc_hash::FxHashMap;

pub struct Lexicon {
    tags: FxHashMap<Box<str>, Box<str>>,
}


impl Lexicon {
    /// The lexicon in `text`; None where Yioop's reading could differ.
    pub fn parse(text: &[u8]) -> Option<Lexicon> {
        let text = std::str::from_utf8(text).ok().filter(|t| t.is_ascii())?;
        let mut tags = FxHashMap::default();
        for line in text.split('\n') {
            let line = line.trim_start_matches(|c: char| is_space(c) || c == ',');
            if line.is_empty() {
                continue;
            }
            let word_end = line.find(|c: char| is_space(c) || c == ',')?;
            let listed = line[word_end..].trim_start_matches(|c: char| is_space(c) || c == ',' || c == '|');
            if listed.is_empty() {
                return None;
            }
            tags.insert(line[..word_end].into(), listed.into());
        }
        Some(Lexicon { tags })
    }

    /// The word's tags, space-separated (Yioop `explode`s them), where
    /// `!empty($dictionary[$word])`.
    pub fn tags(&self, word: &str) -> Option<&str> {
        self.tags.get(word).map(|listed| &**listed).filter(|listed| *listed != "0")
    }

}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_before_commas_and_later_entries_win() {
        let lexicon = Lexicon::parse(b"dog NN VB\nab1,040 NNP\nd.,calif NNP\nd.,calif. NN\n  cat|x , NN|JJ\nzero 0\n").unwrap();
        assert_eq!(lexicon.tags("dog").unwrap().split(' ').collect::<Vec<_>>(), ["NN", "VB"]);
        assert_eq!(lexicon.tags("ab1").unwrap().split(' ').collect::<Vec<_>>(), ["040", "NNP"]);
        assert_eq!(lexicon.tags("d.").unwrap().split(' ').collect::<Vec<_>>(), ["calif.", "NN"]);
        assert_eq!(lexicon.tags("cat|x").unwrap().split(' ').collect::<Vec<_>>(), ["NN|JJ"]);
        assert!(lexicon.tags("zero").is_none(), "\"0\" is empty()");
        assert_eq!(lexicon.tags.len(), 5);
    }

    #[test]
    fn a_line_without_tags_or_other_text_is_not_read() {
        assert!(Lexicon::parse(b"dog NN\ncat\nbird NN\n").is_none());
        assert!(Lexicon::parse(b"dog , \nbird NN\n").is_none());
        assert!(Lexicon::parse("caf\u{e9} NN\n".as_bytes()).is_none());
    }
}
