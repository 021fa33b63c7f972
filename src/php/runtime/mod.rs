//! The PHP runtime glue every binding shares: nothing here knows Yioop.
//!
//! - [`ffi`]: every php-src function and constant not in ext-php-rs, declared once.
//! - [`function`]: the one way to declare a PHP function (`php_function!`),
//!   its arguments, and the call that turns a result or a panic into PHP's.
//! - [`engine`]: calling PHP functions, reading constants, pending exceptions;
//!   [`errors`]: whether PHP raised an error meanwhile.
//! - [`zval`]: single zvals by their type tag; [`arrays`]: whole lists;
//!   [`keys`]: hash keys; [`convert`]: PHP's conversion rules and errors.
//! - [`object`]: an object's properties, read and written as `$this->name` does.
//! - [`classes`]: loaded classes and a method's statics; [`switched`]: whether
//!   a method is Yioop's own, switched.
//! - [`weak_table`]: native state kept per PHP object; [`immutable`]: arrays
//!   kept across requests, as opcache keeps literal arrays.
//! - [`hash_prefetch`]: prefetching hash buckets; [`unserialize`]: zvals for
//!   `php_semantics::unserialize`.
//! - [`memo`]: PHP results held natively for the rest of a request, keyed by
//!   their inputs and the state they were made in ([`memo::StateHash`]).

pub mod arrays;
pub mod classes;
pub mod convert;
pub mod engine;
pub mod errors;
pub mod ffi;
#[macro_use]
pub mod function;
pub mod hash_prefetch;
pub mod immutable;
pub mod keys;
pub mod memo;
pub mod object;
pub mod switched;
pub mod unserialize;
pub mod weak_table;
pub mod zval;
