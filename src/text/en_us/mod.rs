//! The en_US Tokenizer's costly methods.
//!
//! - [`stem`]: the Porter stemmer as Yioop's `stem` runs it.
//! - [`canonical`]: the contraction and `'s` patterns of `canonicalizePunctuatedTerms`.
//! - [`triplets`]: `tagTokenizePartOfSpeech` and `extractTripletsPhrases`.

pub mod canonical;
pub mod stem;
pub mod triplets;
