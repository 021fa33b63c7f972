//! yioop_codec: Yioop's posting-list codec, byte for byte, in Rust.
//!
//! The core modules know nothing of PHP; `php` (behind the `php` feature) is
//! the thin binding layer that makes this the `yioop` PHP extension.
//!
//! - [`modified9`]: the word codec and the framing of postings into words
//!   (its own map: the format, Yioop's loops as reference, table-driven and
//!   SIMD decode, the fast encoder, framing).
//! - [`posting`]: a doc index and its positions, both on-disk formats.
//! - [`posting_list`]: many postings in one call.
//! - [`delta`]: delta lists; [`queue_weight`]: crawl-queue weight info.
//! - [`phpnum`]: PHP's int arithmetic, overflow to float, `(int)` casts.
//! - [`dispatch`]: scalar or OpenCL, per call; `opencl`: the device side.
//! - [`dictionary`]: IndexDictionary's look-ups (its files, `getWordInfo`).
//! - `prefetch`: the cache-line hint that the scattered-read loops share.
//! - [`archive`]: web archive records (summaries) read and inflated.
//! - [`bloom`]: BloomFilterFile's look-up; [`md5_lanes`]: its digests, many at once.
//! - [`canonical_en`]: the en_US Tokenizer's costly canonicalization patterns.

pub mod archive;
pub mod bloom;
pub mod canonical_en;
pub mod delta;
pub mod dictionary;
pub mod dispatch;
pub mod md5_lanes;
pub mod modified9;
#[cfg(feature = "opencl")]
pub mod opencl;
pub mod phpnum;
pub mod posting;
pub mod posting_list;
pub(crate) mod prefetch;
pub mod shard;
pub mod phrase;
pub mod snippets;
pub mod stem_en;
pub mod triplets_en;
pub mod queue_weight;

#[cfg(feature = "php")]
mod php;
