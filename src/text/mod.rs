//! Yioop's text pipeline as indexing runs it: PhraseParser's passes over a
//! page and the English (en_US) Tokenizer's.
//!
//! - [`phrase`]: PhraseParser's char-gram segments, entity hyphenation and
//!   safe-search score.
//! - [`phrase_lists`]: extractPhrasesInLists' passes after canonicalization,
//!   with what they read of PHP read beforehand.
//! - [`unsafe_url`]: the safe-search score's test of a URL.
//! - [`en_us`]: the English stemmer, canonicalization, tagger and triplets.

pub mod en_us;
pub mod phrase;
pub mod phrase_lists;
pub mod unsafe_url;
