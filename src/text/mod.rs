//! Yioop's text pipeline as indexing runs it: PhraseParser's passes over a
//! page and the English (en_US) Tokenizer's.
//!
//! - [`phrase`]: PhraseParser's char-gram segments, entity hyphenation and
//!   safe-search score.
//! - [`unsafe_url`]: the safe-search score's test of a URL.
//! - [`en_us`]: the English stemmer, canonicalization, tagger and triplets.

pub mod en_us;
pub mod phrase;
pub mod unsafe_url;
