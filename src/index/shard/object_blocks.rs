//! An object's own block cache: Yioop's `$this->blocks` and
//! `$this->blocks_words`.

use super::{BLOCK_POWER, BLOCK_SIZE};
use super::shared::Block;
use crate::index::int_map::IntMap;

/// One cached block of an object, as Yioop's `$this->blocks[$bytes]`.
pub struct ObjectBlock {
    pub offset: i64,
    pub bytes: Block,
}

/// Yioop's `$this->blocks`: the blocks an object read with `$cache`, in the
/// order it read them; Yioop empties it when it would hold more than 4096.
/// Their words are Yioop's `$this->blocks_words`, the first block's word
/// where two overlap (`+=`): only a block read from an offset that is not
/// a multiple of 4 KiB (never by Yioop itself) can overlap another.
#[derive(Default)]
pub(super) struct ObjectBlocks {
    pub(super) order: Vec<ObjectBlock>,
    /// Built once the cache outgrows a few blocks: IndexManager's objects
    /// read a handful each, found faster by a scan than a hash.
    pub(super) index: IntMap<i64, usize>,
    pub(super) unaligned: bool,
    /// Times emptied; and the call that last read it, with the times
    /// emptied and the blocks held when that call began: what a declined
    /// call takes back.
    pub(super) resets: u64,
    pub(super) call_start: (u64, u64, usize),
}

/// `IndexShard::SHARD_BLOCK_SIZE`, also the count past which Yioop empties
/// an object's blocks.
const MAX_OBJECT_BLOCKS: usize = BLOCK_SIZE as usize;
/// Blocks an object's cache holds before it is indexed.
const SCANNED_BLOCKS: usize = 8;

impl ObjectBlocks {
    pub(super) fn position(&self, offset: i64) -> Option<usize> {
        if self.order.len() <= SCANNED_BLOCKS {
            self.order.iter().position(|b| b.offset == offset)
        } else {
            self.index.get(&offset).copied()
        }
    }

    pub(super) fn get(&self, offset: i64) -> Option<&Block> {
        self.position(offset).map(|i| &self.order[i].bytes)
    }

    pub(super) fn insert(&mut self, offset: i64, bytes: Block) {
        if self.order.len() > MAX_OBJECT_BLOCKS {
            self.order.clear();
            self.index.clear();
            self.unaligned = false;
            self.resets += 1;
        }
        self.unaligned |= offset % BLOCK_SIZE != 0;
        self.order.push(ObjectBlock { offset, bytes });
        match self.order.len() {
            n if n == SCANNED_BLOCKS + 1 => self.index.extend(self.order.iter().enumerate().map(|(i, b)| (b.offset, i))),
            n if n > SCANNED_BLOCKS + 1 => {
                self.index.insert(offset, n - 1);
            }
            _ => {}
        }
    }

    /// Takes back the blocks the current call added, where it did not also
    /// empty the cache (past 4,096 blocks in one call).
    pub(super) fn roll_back_call(&mut self, call: u64) {
        let (started, resets, len) = self.call_start;
        if started == call && resets == self.resets {
            for block in self.order.drain(len..) {
                self.index.remove(&block.offset);
            }
            if self.order.len() <= SCANNED_BLOCKS {
                self.index.clear();
            }
            self.unaligned = self.order.iter().any(|b| b.offset % BLOCK_SIZE != 0);
        }
    }

    /// `$this->blocks_words[$offset]`, if set.
    pub(super) fn word(&self, offset: i64) -> Option<u32> {
        let word_of = |block: &ObjectBlock| {
            let at = usize::try_from(offset.checked_sub(block.offset)?).ok()?;
            let w = block.bytes.get(at..at.checked_add(4)?).filter(|_| at % 4 == 0)?;
            Some(u32::from_be_bytes([w[0], w[1], w[2], w[3]]))
        };
        if self.unaligned {
            return self.order.iter().find_map(word_of);
        }
        let block = self.position((offset >> BLOCK_POWER) << BLOCK_POWER)?;
        word_of(&self.order[block])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::shard::BLOCK_SIZE;
    use std::rc::Rc;

    #[test]
    fn an_object_forgets_its_blocks_past_4096_as_yioop_does() {
        let mut blocks = ObjectBlocks::default();
        for i in 0..=MAX_OBJECT_BLOCKS as i64 {
            blocks.insert(i * BLOCK_SIZE, Rc::from(&[0u8; 4][..]));
        }
        assert_eq!(blocks.order.len(), MAX_OBJECT_BLOCKS + 1);
        blocks.insert(-BLOCK_SIZE, Rc::from(&[1u8; 4][..]));
        assert_eq!(blocks.order.len(), 1);
        assert!(blocks.get(0).is_none());
        assert_eq!(blocks.get(-BLOCK_SIZE).map(|b| b[0]), Some(1));
    }
}
