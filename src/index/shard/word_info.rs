//! A shard's dictionary on disk: `IndexShard::getWordInfo` for a raw word
//! id. The prefix index maps a word id's first two bytes to a range of
//! 32-byte dictionary records, which are binary-searched by byte order.

use super::{unpack_words as words, Result, ShardError, ShardFile, HEADER_LENGTH};

const RECORD_LEN: i64 = 32;
const KEY_LEN: usize = 20;
/// A prefix with no words.
const BLANK: [u8; 8] = [0xFF; 8];
/// Steps past any convergent search; see postings::MAX_SEARCH_STEPS.
const MAX_SEARCH_STEPS: u32 = 1 << 10;

/// `getWordInfo`'s result: first and last byte offsets of the word's
/// postings in word_docs, its document count, and the matched id.
#[derive(Debug, PartialEq, Eq)]
pub struct WordInfo {
    pub first_offset: i64,
    pub last_offset: i64,
    pub count: i64,
    pub id: Vec<u8>,
}

/// `getWordInfo($word_id, true)` on a shard read from disk whose header
/// gave `prefixes_len`.
pub fn word_info(file: &ShardFile<'_>, word_id: &[u8], prefixes_len: i64) -> Result<Option<WordInfo>> {
    let [first, second, ..] = *word_id else {
        return Ok(None);
    };
    let prefix = (i64::from(first) << 8) + i64::from(second);
    let prefix_info = file.substring(HEADER_LENGTH + 8 * prefix, 8, true)?;
    if prefix_info == BLANK || prefix_info.len() < 3 {
        return Ok(None);
    }
    if prefix_info.len() < 8 {
        return Err(ShardError::Warns("Undefined array key")); // list() of fewer words
    }
    let mut fields = words(&prefix_info);
    let offset = fields.next().unwrap_or(0);
    // PHP's null-- stays null, which is 0 below.
    let mut high = fields.next().map_or(0, |h| h - 1);
    let start = HEADER_LENGTH + prefixes_len + offset;
    let mut low = 0;
    let mut check = (low + high) >> 1;
    for _ in 0..MAX_SEARCH_STEPS {
        let previous = check;
        let record = file.substring(start + check * RECORD_LEN, RECORD_LEN, true)?;
        if record.is_empty() || record == b"0" {
            return Ok(None); // Yioop's `== false`
        }
        let id = &record[..record.len().min(KEY_LEN)];
        match word_id.cmp(id) {
            std::cmp::Ordering::Equal => return info_from_record(&record[id.len()..], id).map(Some),
            std::cmp::Ordering::Less => {
                high = check;
                check = (low + check) >> 1;
            }
            std::cmp::Ordering::Greater => {
                if check + 1 == high {
                    check += 1;
                }
                low = check;
                check = (high + check) >> 1;
            }
        }
        if check == previous {
            return Ok(None);
        }
    }
    Err(ShardError::NoConvergence)
}

/// `getWordInfoFromString`: generation, first offset and length; a length
/// with its top bit set packs the count in bits 16-30 and the length in the
/// low 16. A record cut short by the end of the file makes Yioop's
/// `list()` warn.
fn info_from_record(data: &[u8], id: &[u8]) -> Result<WordInfo> {
    let mut fields = words(data).skip(1);
    let (Some(first_offset), Some(len)) = (fields.next(), fields.next()) else {
        return Err(ShardError::Warns("Undefined array key"));
    };
    let (count, len) = if len & (1 << 31) != 0 { ((len >> 16) & 32767, len & 65535) } else { (len >> 2, len) };
    Ok(WordInfo { first_offset, last_offset: first_offset + len - 4, count, id: id.to_vec() })
}
