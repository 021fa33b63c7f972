//! Bindings of Yioop's text classes: PhraseParser (`yioop_codec\phrase`),
//! NWordGrams (`yioop_codec\ngrams`) and the en_US Tokenizer.

pub mod en_us;
pub mod ngrams;
pub mod phrase;

use ext_php_rs::builders::ModuleBuilder;

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    let module = phrase::register(module);
    let module = ngrams::register(module);
    en_us::register(module)
}
