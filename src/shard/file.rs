//! A shard file read in 4 KiB blocks with pread, through a process-wide
//! block cache that outlives shard objects: Yioop opens a new IndexShard per
//! look-up at generation 0, and each used to start cold. A file is known by
//! its identity (device, inode, size, mtime), so a rewritten file is a new
//! entry and is never served stale.

use super::{Result, ShardError, BLOCK_POWER, BLOCK_SIZE};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// What `IndexShard::getShardWord` returns: the word, `false` past the
/// file, or `null` for an offset that is not a word boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word {
    Int(u32),
    False,
    Null,
}

impl Word {
    /// The value PHP's arithmetic sees (`false` and `null` are 0).
    pub fn operand(self) -> i64 {
        match self {
            Word::Int(w) => i64::from(w),
            Word::False | Word::Null => 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Identity {
    dev: u64,
    ino: u64,
    size: u64,
    mtime_ns: i128,
}

impl Identity {
    fn of(metadata: &std::fs::Metadata) -> Identity {
        Identity {
            dev: metadata.dev(),
            ino: metadata.ino(),
            size: metadata.size(),
            mtime_ns: i128::from(metadata.mtime()) * 1_000_000_000 + i128::from(metadata.mtime_nsec()),
        }
    }
}

/// Bytes of blocks all shard files may keep cached together; past it the
/// cache starts over, as Yioop's per-object block array does.
pub const CACHE_BYTES: usize = 64 << 20;

thread_local! {
    static OPEN: RefCell<HashMap<PathBuf, Rc<ShardFile>>> = RefCell::new(HashMap::new());
    static CACHED_BYTES: Cell<usize> = const { Cell::new(0) };
}

/// Files kept open at once; the least recently opened is closed first.
const MAX_OPEN: usize = 64;

pub struct ShardFile {
    file: File,
    identity: Identity,
    blocks: RefCell<Vec<Option<Box<[u8]>>>>,
    generation: Cell<u64>,
}

thread_local! {
    /// Bumped whenever the cache starts over; each file compares it with
    /// its own to know its blocks are gone.
    static CACHE_GENERATION: Cell<u64> = const { Cell::new(0) };
}

impl ShardFile {
    /// The file at `path` as it is now: the cached entry if its identity is
    /// unchanged, a fresh one otherwise. `None` if it cannot be opened (Yioop
    /// then reads `false`).
    pub fn open_current(path: &Path) -> Option<Rc<ShardFile>> {
        let metadata = std::fs::metadata(path).ok()?;
        let identity = Identity::of(&metadata);
        if let Some(open) = OPEN.with(|o| o.borrow().get(path).cloned()) {
            if open.identity == identity {
                return Some(open);
            }
        }
        let file = Rc::new(ShardFile::new(File::open(path).ok()?, identity));
        OPEN.with(|o| {
            let mut open = o.borrow_mut();
            if open.len() >= MAX_OPEN {
                open.clear();
            }
            open.insert(path.to_path_buf(), file.clone());
        });
        Some(file)
    }

    /// The entry for `path` opened earlier in this process, if any, without
    /// looking at the file system.
    pub fn already_open(path: &Path) -> Option<Rc<ShardFile>> {
        OPEN.with(|o| o.borrow().get(path).cloned())
    }

    fn new(file: File, identity: Identity) -> ShardFile {
        let blocks = (identity.size as usize).div_ceil(BLOCK_SIZE as usize);
        ShardFile {
            file,
            identity,
            blocks: RefCell::new(vec![None; blocks]),
            generation: Cell::new(CACHE_GENERATION.with(Cell::get)),
        }
    }

    /// The file's device, inode, size and mtime when it was opened.
    pub fn identity(&self) -> Identity {
        self.identity
    }

    /// The file's length when it was opened: Yioop's `$this->file_len`.
    pub fn len(&self) -> i64 {
        self.identity.size as i64
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `IndexShard::readBlockShardAtOffset`: up to 4 KiB from `bytes`,
    /// `None` (Yioop's false) at or past the end or before the start.
    /// Yioop's cached read splits the block into words and throws on a
    /// ragged one; an uncached read does not look.
    pub fn read_block<R>(&self, bytes: i64, cache: bool, with: impl FnOnce(&[u8]) -> R) -> Result<Option<R>> {
        if bytes < 0 || bytes >= self.len() {
            return Ok(None);
        }
        if bytes % BLOCK_SIZE != 0 {
            // Never asked for by Yioop; read as it would, uncached.
            let block = self.pread(bytes);
            if cache && block.len() % 4 != 0 {
                return Err(ShardError::RaggedBlock { offset: bytes });
            }
            return Ok(Some(with(&block)));
        }
        let index = (bytes >> BLOCK_POWER) as usize;
        self.forget_if_cache_restarted();
        let mut blocks = self.blocks.borrow_mut();
        if blocks[index].is_none() {
            let block = self.pread(bytes);
            CACHED_BYTES.with(|c| c.set(c.get() + block.len()));
            blocks[index] = Some(block);
        }
        let block = blocks[index].as_deref().unwrap_or_default();
        if cache && block.len() % 4 != 0 {
            return Err(ShardError::RaggedBlock { offset: bytes });
        }
        let result = with(block);
        drop(blocks);
        restart_cache_if_full();
        Ok(Some(result))
    }

    fn pread(&self, bytes: i64) -> Box<[u8]> {
        let want = (self.len() - bytes).min(BLOCK_SIZE) as usize;
        let mut block = vec![0u8; want];
        let mut done = 0;
        while done < want {
            match self.file.read_at(&mut block[done..], bytes as u64 + done as u64) {
                Ok(0) | Err(_) => break, // shrunk since it was opened: what fread got
                Ok(n) => done += n,
            }
        }
        block.truncate(done);
        block.into_boxed_slice()
    }

    fn forget_if_cache_restarted(&self) {
        let now = CACHE_GENERATION.with(Cell::get);
        if self.generation.get() != now {
            self.blocks.borrow_mut().iter_mut().for_each(|b| *b = None);
            self.generation.set(now);
        }
    }

    /// `IndexShard::getShardWord`: the big-endian word at `offset`.
    pub fn word(&self, offset: i64) -> Result<Word> {
        let block_offset = (offset >> BLOCK_POWER) << BLOCK_POWER;
        let at = (offset - block_offset) as usize;
        let word = self.read_block(block_offset, true, |block| match block.get(at..at + 4) {
            Some(w) if at % 4 == 0 => Word::Int(u32::from_be_bytes([w[0], w[1], w[2], w[3]])),
            _ => Word::Null,
        })?;
        Ok(word.unwrap_or(Word::False))
    }

    /// `IndexShard::getShardSubstring`: `len` bytes from `offset`, shorter
    /// at the end of the file, with `substr`'s reading of a negative `len`
    /// when it stays inside one block.
    pub fn substring(&self, offset: i64, len: i64, cache: bool) -> Result<Vec<u8>> {
        let mut block_offset = (offset >> BLOCK_POWER) << BLOCK_POWER;
        let start = (offset - block_offset) as usize;
        if start as i64 + len < BLOCK_SIZE {
            let part = self.read_block(block_offset, cache, |block| substr(block, start, len).to_vec())?;
            return Ok(part.unwrap_or_default());
        }
        let Some(mut out) = self.read_block(block_offset, cache, |block| block.get(start..).unwrap_or_default().to_vec())? else {
            return Ok(Vec::new());
        };
        let want = len as usize;
        while out.len() < want {
            block_offset += BLOCK_SIZE;
            if self.read_block(block_offset, cache, |block| out.extend_from_slice(block))?.is_none() {
                return Ok(out);
            }
        }
        out.truncate(want);
        Ok(out)
    }
}

fn restart_cache_if_full() {
    if CACHED_BYTES.with(Cell::get) > CACHE_BYTES {
        CACHED_BYTES.with(|c| c.set(0));
        CACHE_GENERATION.with(|g| g.set(g.get() + 1));
    }
}

/// PHP's `substr($s, $start, $len)` for a `$start` that is not negative.
fn substr(s: &[u8], start: usize, len: i64) -> &[u8] {
    if start >= s.len() {
        return &[];
    }
    let end = if len < 0 { s.len() as i64 + len } else { (start as i64).saturating_add(len).min(s.len() as i64) };
    if end <= start as i64 {
        &[]
    } else {
        &s[start..end as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn shard_file(bytes: &[u8]) -> (tempfile_path::TempPath, Rc<ShardFile>) {
        let path = tempfile_path::TempPath::new();
        std::fs::File::create(path.as_ref()).unwrap().write_all(bytes).unwrap();
        let file = ShardFile::open_current(path.as_ref()).unwrap();
        (path, file)
    }

    mod tempfile_path {
        use std::path::{Path, PathBuf};
        use std::sync::atomic::{AtomicUsize, Ordering};
        pub struct TempPath(PathBuf);
        impl TempPath {
            pub fn new() -> TempPath {
                static N: AtomicUsize = AtomicUsize::new(0);
                let n = N.fetch_add(1, Ordering::Relaxed);
                TempPath(std::env::temp_dir().join(format!("yioop-shard-test-{}-{n}", std::process::id())))
            }
        }
        impl AsRef<Path> for TempPath {
            fn as_ref(&self) -> &Path {
                &self.0
            }
        }
        impl Drop for TempPath {
            fn drop(&mut self) {
                let _ = std::fs::remove_file(&self.0);
            }
        }
    }

    fn counting(n: usize) -> Vec<u8> {
        (0..n as u32).flat_map(|i| i.to_be_bytes()).collect()
    }

    #[test]
    fn words_are_read_big_endian_at_word_boundaries_only() {
        let (_p, f) = shard_file(&counting(3000));
        assert_eq!(f.word(0).unwrap(), Word::Int(0));
        assert_eq!(f.word(4 * 1500).unwrap(), Word::Int(1500));
        assert_eq!(f.word(6).unwrap(), Word::Null);
        // At the file's end inside its last block Yioop reads an unset word
        // (null); from the next block on, the block read fails (false).
        assert_eq!(f.word(12000).unwrap(), Word::Null);
        assert_eq!(f.word(12288).unwrap(), Word::False);
        assert_eq!(f.word(-4).unwrap(), Word::False);
    }

    #[test]
    fn substrings_cross_blocks_and_stop_at_the_end() {
        let bytes = counting(3000);
        let (_p, f) = shard_file(&bytes);
        assert_eq!(f.substring(4090, 20, true).unwrap(), &bytes[4090..4110]);
        assert_eq!(f.substring(11990, 100, true).unwrap(), &bytes[11990..]);
        assert_eq!(f.substring(100, -10, true).unwrap(), &bytes[100..4086]);
        assert_eq!(f.substring(-8, 4, true).unwrap(), b"");
    }

    #[test]
    fn a_ragged_tail_block_is_an_error_only_when_cached() {
        let (_p, f) = shard_file(&[1, 2, 3, 4, 5, 6]);
        assert_eq!(f.substring(0, 6, false).unwrap(), vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(f.word(0), Err(ShardError::RaggedBlock { offset: 0 }));
    }

    #[test]
    fn a_rewritten_file_is_a_new_entry() {
        let path = tempfile_path::TempPath::new();
        std::fs::write(path.as_ref(), counting(10)).unwrap();
        let before = ShardFile::open_current(path.as_ref()).unwrap();
        assert_eq!(before.word(4).unwrap(), Word::Int(1));
        std::fs::write(path.as_ref(), counting(20).iter().map(|b| b ^ 0xFF).collect::<Vec<_>>()).unwrap();
        let after = ShardFile::open_current(path.as_ref()).unwrap();
        assert_eq!(after.len(), 80);
        assert_eq!(after.word(4).unwrap(), Word::Int(!1u32));
    }
}
