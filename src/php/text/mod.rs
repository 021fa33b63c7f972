//! Bindings of Yioop's text classes: PhraseParser (`yioop_codec\phrase`),
//! NWordGrams (`yioop_codec\ngrams`), the en_US Tokenizer, and the locale
//! files' parse (`yioop_codec\locale`).

pub mod en_us;
pub mod locale;
pub mod ngrams;
pub mod phrase;
pub mod phrases_ahead;

use ext_php_rs::builders::ModuleBuilder;

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    let module = phrase::register(module);
    let module = ngrams::register(module);
    let module = locale::register(module);
    en_us::register(module)
}
