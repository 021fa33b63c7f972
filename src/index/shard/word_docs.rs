//! The word_docs section of a shard on disk: framing a posting around any of
//! its words, and the galloping search for a document, as IndexShard's
//! `getDocIndexOfPostingAtOffset`, `getPostingAtOffset` and
//! `nextPostingOffsetDocOffset` do. Offsets named `current`, `start` and
//! `end` count 4-byte words; byte offsets are 4 times as large.

use super::{Result, ShardError, ShardFile, Word};
use crate::codec::modified9::doc_index_of_word;

/// A posting's first word carries these continuation flags in its top bits:
/// 11 starts a posting of several words, 10 continues it, 01 ends it, 00 is
/// a posting of one word.
fn flags(word: Word) -> i64 {
    (word.operand() >> 24) & 192
}
const START: i64 = 192;
const CONTINUE: i64 = 128;
const END: i64 = 64;

/// Bound on search steps: a convergent search over any file takes well
/// under a hundred. Past it the postings are damaged and Yioop's loop would
/// never return.
const MAX_SEARCH_STEPS: u32 = 1 << 10;

/// word_docs of one shard: the file and where the section starts in it
/// (Yioop's `$this->word_doc_offset`).
pub struct WordDocs<'a> {
    pub file: &'a ShardFile<'a>,
    pub base: i64,
}

/// `getPostingAtOffset`'s results: the posting's bytes and its first and
/// last word.
#[derive(Debug, PartialEq, Eq)]
pub struct PostingAt {
    pub bytes: Vec<u8>,
    pub start: i64,
    pub end: i64,
}

impl WordDocs<'_> {
    /// `getWordDocsWord`: the word at byte offset `offset`.
    pub fn word(&self, offset: i64) -> Result<Word> {
        self.file.word(self.base.checked_add(offset).ok_or(ShardError::IntOverflow)?)
    }

    /// `getWordDocsSubstring`, `len` already defaulted.
    pub fn substring(&self, offset: i64, len: i64, cache: bool) -> Result<Vec<u8>> {
        self.file.substring(self.base.checked_add(offset).ok_or(ShardError::IntOverflow)?, len, cache)
    }

    /// The first word of the posting that word `current` belongs to.
    fn first_word(&self, current: i64) -> Result<Word> {
        let mut offset = current.wrapping_shl(2);
        let mut word = self.word(offset)?;
        if flags(word) == 0 || flags(word) == START {
            return Ok(word);
        }
        loop {
            offset = offset.wrapping_sub(4);
            word = self.word(offset)?;
            if flags(word) != CONTINUE {
                return Ok(word);
            }
        }
    }

    /// `getDocIndexOfPostingAtOffset`.
    pub fn doc_index_at(&self, current: i64) -> Result<i64> {
        Ok(doc_index_of_word(self.first_word(current)?.operand()))
    }

    /// `getPostingAtOffset`.
    pub fn posting_at(&self, current: i64) -> Result<PostingAt> {
        let mut word = self.word(current.wrapping_shl(2))?;
        let (mut start, mut end) = (current, current);
        if flags(word) == 0 {
            let bytes = (word.operand() as u32).to_be_bytes().to_vec();
            return Ok(PostingAt { bytes, start, end });
        }
        if flags(word) != START {
            loop {
                start -= 1;
                if flags(self.word(start.wrapping_shl(2))?) != CONTINUE {
                    break;
                }
            }
        }
        while flags(word) > END {
            end += 1;
            word = self.word(end.wrapping_shl(2))?;
        }
        let bytes = self.substring(start.wrapping_shl(2), (end - start + 1).wrapping_shl(2), true)?;
        Ok(PostingAt { bytes, start, end })
    }

    /// `nextPostingOffsetDocOffset`: the first posting between the byte
    /// offsets `start_offset` and `end_offset` whose doc offset is at least
    /// `doc_offset` (at most, descending), as (byte offset, doc offset).
    pub fn next_posting_offset_doc_offset(
        &self,
        start_offset: i64,
        end_offset: i64,
        doc_offset: i64,
        ascending: bool,
    ) -> Result<Option<(i64, i64)>> {
        let doc_index = doc_offset >> 4;
        let (start, end) = (start_offset >> 2, end_offset >> 2);
        let at_end = self.doc_index_at(end)?;
        if (ascending && doc_index > at_end) || (!ascending && doc_index < at_end) {
            return Ok(None);
        }
        if doc_index == at_end {
            return Ok(Some(found(end, at_end)));
        }
        let mut current = start;
        let reached = self.gallop(&mut current, doc_index, end, ascending)?;
        if doc_index == reached {
            return Ok(Some(found(current, reached)));
        }
        let (low, high) = if ascending { (start, end) } else { (end, start) };
        self.binary_search(low, high, current, doc_index, ascending)
    }

    /// Jumps 32, 64, 128, ... postings from `current` until one reaches
    /// `doc_index` or `end` is passed (then `current` is `end`).
    fn gallop(&self, current: &mut i64, doc_index: i64, end: i64, ascending: bool) -> Result<i64> {
        let mut stride: i64 = 32;
        for _ in 0..MAX_SEARCH_STEPS {
            let at = self.doc_index_at(*current)?;
            if (ascending && doc_index <= at) || (!ascending && doc_index >= at) {
                return Ok(at);
            }
            if ascending {
                *current = current.checked_add(stride).ok_or(ShardError::IntOverflow)?;
            } else {
                *current = current.checked_sub(stride).ok_or(ShardError::IntOverflow)?;
            }
            stride = stride.wrapping_shl(1);
            if (ascending && *current > end) || (!ascending && *current < end) {
                *current = end;
                return Ok(at);
            }
        }
        Err(ShardError::NoConvergence)
    }

    /// Yioop's binary search between `start` and `end` from `current`,
    /// rounding down ascending and up descending, with its exact steps.
    fn binary_search(&self, start: i64, end: i64, mut current: i64, doc_index: i64, ascending: bool) -> Result<Option<(i64, i64)>> {
        let (mut low, mut high) = (start, end);
        for _ in 0..MAX_SEARCH_STEPS {
            let at = self.doc_index_at(current)?;
            if doc_index == at {
                return Ok(Some(found(current, at)));
            }
            let before = if ascending { doc_index > at } else { doc_index < at };
            if before {
                if ascending {
                    low = current;
                    if current >= end {
                        return Ok(None);
                    }
                    if current.checked_add(1).ok_or(ShardError::IntOverflow)? == high {
                        current += 1;
                        low = current;
                    }
                } else {
                    high = current;
                    if current <= start {
                        return Ok(None);
                    }
                    if current.checked_sub(1).ok_or(ShardError::IntOverflow)? == low {
                        current -= 1;
                        high = current;
                    }
                }
            } else if ascending {
                if low == current {
                    return Ok(Some(found(current, at)));
                }
                high = current;
            } else {
                if high == current {
                    return Ok(Some(found(current, at)));
                }
                low = current;
            }
            let sum = low.checked_add(high).and_then(|s| s.checked_add(i64::from(!ascending))).ok_or(ShardError::IntOverflow)?;
            current = sum >> 1;
            if (ascending && current > end) || (!ascending && current < start) {
                return Ok(None);
            }
        }
        Err(ShardError::NoConvergence)
    }
}

fn found(current: i64, doc_index: i64) -> (i64, i64) {
    (current.wrapping_shl(2), doc_index.wrapping_shl(4))
}
