//! Yioop's IndexDictionary read natively: an object's open files, queue and
//! block cache (`files`), `getWordInfo`'s search of each tier
//! (`lookup`), a shard's words as tier-0 files (`add`) and the merge of a
//! tier's two files (`merge`). A dictionary is a folder per first byte of a word id, each
//! holding a file per tier: a 2,048-byte prefix index (an 8-byte offset and
//! count per second byte) and then records of the id, generation, offset
//! and length, some followed by auxiliary records of more generations.

pub mod add;
pub mod files;
pub mod lookup;
pub mod merge;

pub use files::{DictFiles, Host};
pub use lookup::{word_info, word_info_remembered, Entry, Found, Query};
