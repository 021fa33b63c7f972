//! PHP's own semantics, in pure Rust, where Yioop's results depend on them:
//! the core's modules use these so that their values are PHP's.
//!
//! - [`ini`]: which INI texts `parse_ini_file` reads the same in every request.
//! - [`num`]: PHP's number arithmetic (int or float), overflow into float, `(int)` casts, integer keys.
//! - [`text`]: `trim`'s default characters, `str_word_count`.
//! - [`serialize`]: `serialize`'s text for scalars and arrays.
//! - [`unserialize`]: `unserialize` for the values a summary holds.
//! - [`zlib`]: whether `gzdecode` succeeds, without its warning.

pub mod ini;
pub mod num;
pub mod serialize;
pub mod text;
pub mod unserialize;
pub mod zlib;

/// Not answered natively: the call is left to Yioop's PHP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decline;
