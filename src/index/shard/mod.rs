//! Yioop's IndexShard read from disk, natively: the shard file's blocks
//! (`file`), the posting lists in its word_docs section (`postings`), its
//! dictionary (`dictionary`), slices of a word's list made into items
//! (`slice`, `item`; `decoded_list` for lists decoded on the device); and
//! built: a document's words added (`build`), the shard saved (`save`).
//! Each function reproduces the IndexShard method of the same name, results
//! and quirks included; reads go through a shared block cache instead of
//! PHP arrays of every word.
//!
//! A shard file is laid out as a 40-byte header, the prefix index, the
//! dictionary (32-byte records: a 20-byte word id, then generation, first
//! offset and length), word_docs (Modified9 postings) and doc_infos.

pub mod build;
pub mod decoded_list;
pub mod word_info;
pub mod file;
pub mod item;
mod object_blocks;
pub mod shared;
pub mod word_docs;
pub mod save;
pub mod slice;

pub use file::{OpenShard, ShardFile, Word};

/// `IndexShard::SHARD_BLOCK_POWER`: blocks of 4 KiB.
pub const BLOCK_POWER: u32 = 12;
pub const BLOCK_SIZE: i64 = 1 << BLOCK_POWER;
/// `IndexShard::HEADER_LENGTH`.
pub const HEADER_LENGTH: i64 = 40;

/// The big-endian words of `bytes`, as `unpack("N*")` reads them (a ragged
/// tail ignored).
pub fn unpack_words(bytes: &[u8]) -> impl Iterator<Item = i64> + '_ {
    bytes.chunks_exact(4).map(|w| i64::from(u32::from_be_bytes([w[0], w[1], w[2], w[3]])))
}

/// Input on which Yioop's PHP warns, throws, computes with floats or never
/// returns. All but the last are left to Yioop's PHP (the binding declines
/// the call), so that its own warning, exception or float is what the
/// caller sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardError {
    /// A cached block that is not a whole number of 4-byte words (a
    /// damaged or shrunk file): Yioop's `array_combine` of its words throws.
    RaggedBlock { offset: i64 },
    /// Where Yioop's PHP raises a warning (an undefined array key).
    Warns(&'static str),
    /// Where Yioop's PHP throws (a division by zero, array_combine of
    /// unequal lists): what PHP would say.
    Throws(&'static str),
    /// Where Yioop's int arithmetic overflows into a float.
    IntOverflow,
    /// A search that does not converge on damaged postings; Yioop's loop
    /// would never return.
    NoConvergence,
}

impl std::fmt::Display for ShardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShardError::RaggedBlock { offset } => write!(
                f,
                "damaged shard file: the block at offset {offset} is not a whole number of 4-byte words"
            ),
            ShardError::Warns(what) => write!(f, "Yioop's PHP warns here: {what}"),
            ShardError::Throws(what) => write!(f, "Yioop's PHP throws here: {what}"),
            ShardError::IntOverflow => write!(f, "Yioop's PHP computes with a float here (an int overflows)"),
            ShardError::NoConvergence => {
                write!(f, "damaged shard file: the posting search does not converge (Yioop would never return)")
            }
        }
    }
}

pub type Result<T> = std::result::Result<T, ShardError>;
