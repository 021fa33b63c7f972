//! Bindings of the en_US Tokenizer: `stem` (`yioop_codec\stem_en`),
//! `canonicalizePunctuatedTerms` (`yioop_codec\canonical_en`), and
//! `tagTokenizePartOfSpeech`, `extractTripletsPhrases` (`yioop_codec\triplets_en`).

pub mod canonical;
pub mod stem;
pub mod triplets;

use ext_php_rs::builders::ModuleBuilder;

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    let module = stem::register(module);
    let module = canonical::register(module);
    triplets::register(module)
}
