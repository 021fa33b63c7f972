//! Yioop's index files read and written natively: IndexShard's shard files,
//! IndexDictionary's tiers, WebArchive's summary records and the Bloom
//! filters behind NWordGrams. Built on [`crate::codec`].
//!
//! - [`shard`]: IndexShard (blocks, word_docs, its dictionary, slices, build, save).
//! - [`dictionary`]: IndexDictionary's files and `getWordInfo`.
//! - [`archive`]: web archive records found, read and inflated.
//! - [`bloom`]: BloomFilterFile's look-up.
//! - [`md5_lanes`]: MD5 of many short values at once (Bloom look-ups, word ids).
//! - [`doc_key`]: a posting's doc key taken apart as WordIterator does.
//! - [`shared_memory`]: memory a server's forked workers share, and its lock.
//! - `prefetch`: the cache-line hint that scattered reads share.

pub mod archive;
pub mod bloom;
pub mod dictionary;
pub mod doc_key;
pub mod int_map;
pub mod md5_lanes;
pub(crate) mod prefetch;
pub mod shard;
pub mod shared_memory;
