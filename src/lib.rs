//! yioop_codec: the native index path and text pipeline of the Yioop search
//! engine, byte for byte as Yioop's PHP, as the PHP extension `yioop`.
//!
//! The crate is in floors; each uses only the floors below it:
//!
//! - [`php`] (behind the `php` feature): the binding layer, the only code
//!   that knows PHP. It mirrors the domains below, one file per switched
//!   Yioop class or function family.
//! - [`search`]: the search page's snippets.
//! - [`index`]: shards, dictionaries, archives, Bloom filters.
//! - [`text`]: PhraseParser's passes and the English Tokenizer.
//! - [`codec`]: Modified9 postings, delta lists, the scalar/OpenCL backends.
//! - [`php_semantics`]: PHP's ints, trim and `unserialize`, in pure Rust.
//!
//! ARCHITECTURE.md walks a call from a switched Yioop method to the core.

pub mod codec;
pub mod index;
pub mod php_semantics;
pub mod search;
pub mod text;

#[cfg(feature = "php")]
mod php;
