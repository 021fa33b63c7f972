//! A shard file as one IndexShard object reads it: through the file the
//! object opened (the inode Yioop's `$this->fh` would hold, however the path
//! changes after), with the object's own block cache (its `$this->blocks`,
//! [`super::object_blocks`]), and with blocks shared between objects while
//! the file is unchanged ([`super::shared`]). Objects that open the same
//! inode share one descriptor: reads through any descriptor of an inode give
//! the same bytes.

use super::{Result, ShardError, BLOCK_POWER, BLOCK_SIZE};
use std::cell::{Cell, RefCell};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::rc::Rc;
use super::object_blocks::{ObjectBlock, ObjectBlocks};
use super::shared::{shared_blocks, shared_descriptor, Block, SharedBlocks, Version};

/// What `IndexShard::getShardWord` returns without a warning: the word, or
/// `false` past the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word {
    Int(u32),
    False,
}

impl Word {
    /// The value PHP's arithmetic sees (`false` is 0).
    pub fn operand(self) -> i64 {
        match self {
            Word::Int(w) => i64::from(w),
            Word::False => 0,
        }
    }
}


/// A shard object's own state: the file it opened, the version it opened,
/// and its blocks. The caller keeps one per object.
pub struct OpenShard {
    file: Rc<File>,
    version: Version,
    shared: Rc<SharedBlocks>,
    blocks: ObjectBlocks,
    /// Just opened: the version is what `stat` said a moment ago, so the
    /// call that opened it need not ask `fstat` again.
    fresh: Cell<bool>,
}

impl OpenShard {
    /// `$this->fh = fopen($this->filename, "rb")` after `file_exists`:
    /// Ok(None) where there is no such file (Yioop's read gives false), an
    /// error where it cannot be opened (PHP's fopen warns).
    pub fn open(path: &Path) -> std::io::Result<Option<OpenShard>> {
        let Some((file, version)) = shared_descriptor(path)? else { return Ok(None) };
        Ok(Some(OpenShard { file, version, shared: shared_blocks(version), blocks: ObjectBlocks::default(), fresh: Cell::new(true) }))
    }

    /// A new descriptor on the inode the object opened.
    pub fn reopen(&self) -> std::io::Result<File> {
        self.file.try_clone()
    }

    /// The blocks this object cached, in the order it read them: what
    /// Yioop's `$this->blocks` holds (each block's words are in
    /// `$this->blocks_words` too).
    pub fn cached_blocks(&self) -> &[ObjectBlock] {
        &self.blocks.order
    }

    /// Forgets the blocks call `call` (the caller's count, as given to
    /// `ShardFile::new`) cached: a call that leaves its work to Yioop's PHP
    /// leaves the object as it found it.
    pub fn roll_back_call(&mut self, call: u64) {
        self.blocks.roll_back_call(call);
    }
}


/// One call's view of an object's file: its descriptor, its `file_len`, its
/// state, and whether the file is still the version it opened (asked of
/// `fstat` at most once a call).
pub struct ShardFile<'a> {
    file: Rc<File>,
    len: i64,
    open: &'a RefCell<OpenShard>,
    unchanged: Cell<Option<bool>>,
}

impl<'a> ShardFile<'a> {
    /// `len` is the object's `$this->file_len`; `call` numbers the
    /// caller's call, so that what it cached can be taken back.
    pub fn new(len: i64, open: &'a RefCell<OpenShard>, call: u64) -> ShardFile<'a> {
        let (file, fresh) = {
            let mut open = open.borrow_mut();
            if open.blocks.call_start.0 != call {
                open.blocks.call_start = (call, open.blocks.resets, open.blocks.order.len());
            }
            (open.file.clone(), open.fresh.replace(false))
        };
        ShardFile { file, len, open, unchanged: Cell::new(fresh.then_some(true)) }
    }

    /// Yioop's `$this->file_len`.
    pub fn len(&self) -> i64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len <= 0
    }

    /// The version this object opened, while the file is still that
    /// version: the key of anything cached from its bytes.
    pub fn unchanged_version(&self) -> Option<Version> {
        let open = self.open.borrow();
        let unchanged = match self.unchanged.get() {
            Some(known) => known,
            None => {
                let now = Version::of(&self.file) == Some(open.version);
                self.unchanged.set(Some(now));
                now
            }
        };
        unchanged.then_some(open.version)
    }

    /// The 4 KiB (or fewer, at the end) from `bytes` as a read through the
    /// object's handle gives them now.
    fn current_block(&self, bytes: i64) -> Block {
        let aligned = bytes % BLOCK_SIZE == 0;
        if aligned && self.unchanged_version().is_some() {
            let shared = self.open.borrow().shared.clone();
            return shared.get_or_read((bytes >> BLOCK_POWER) as usize, || self.pread(bytes));
        }
        self.pread(bytes)
    }

    /// What `fread($this->fh, 4096)` after `fseek($bytes)` returns: short
    /// at the end of the file, empty past it.
    fn pread(&self, bytes: i64) -> Block {
        let mut block = vec![0u8; BLOCK_SIZE as usize];
        let mut done = 0;
        while done < block.len() {
            match self.file.read_at(&mut block[done..], bytes as u64 + done as u64) {
                Ok(0) | Err(_) => break,
                Ok(n) => done += n,
            }
        }
        block.truncate(done);
        block.into()
    }

    /// `IndexShard::readBlockShardAtOffset($bytes, $cache)`: the object's
    /// cached block, or a read through its handle (cached by the object
    /// when `cache`); `None` (Yioop's false) at or past `file_len` or
    /// before the start. Yioop caches a block and then splits it into
    /// words, which throws for one that is not whole words (a damaged or
    /// shrunk file); that case is an error here, with nothing cached, so
    /// Yioop's PHP can take the object over and throw itself.
    pub fn read_block<R>(&self, bytes: i64, cache: bool, with: impl FnOnce(&[u8]) -> R) -> Result<Option<R>> {
        if cache {
            if let Some(block) = self.open.borrow().blocks.get(bytes) {
                return Ok(Some(with(block)));
            }
        }
        if bytes < 0 || bytes >= self.len {
            return Ok(None); // fseek before the start fails too
        }
        let block = self.current_block(bytes);
        if cache {
            if block.is_empty() || block.len() % 4 != 0 {
                return Err(ShardError::RaggedBlock { offset: bytes });
            }
            self.open.borrow_mut().blocks.insert(bytes, block.clone());
        }
        Ok(Some(with(&block)))
    }

    /// `IndexShard::getShardWord`: the big-endian word at `offset`, from
    /// the object's cached words or its block read now. Yioop warns (an
    /// undefined key) where `offset` is no word of a block.
    pub fn word(&self, offset: i64) -> Result<Word> {
        if let Some(word) = self.open.borrow().blocks.word(offset) {
            return Ok(Word::Int(word));
        }
        let block_offset = (offset >> BLOCK_POWER) << BLOCK_POWER;
        if self.read_block(block_offset, true, |_| ())?.is_none() {
            return Ok(Word::False);
        }
        let word = self.open.borrow().blocks.word(offset);
        word.map(Word::Int).ok_or(ShardError::Warns("Undefined array key"))
    }

    /// `IndexShard::getShardSubstring`: `len` bytes from `offset`, shorter
    /// at the end of the file, with `substr`'s reading of a negative `len`
    /// when it stays inside one block.
    pub fn substring(&self, offset: i64, len: i64, cache: bool) -> Result<Vec<u8>> {
        let mut block_offset = (offset >> BLOCK_POWER) << BLOCK_POWER;
        let start = (offset - block_offset) as usize;
        // Past i64, Yioop's sum is a float, and never below one block.
        if (start as i64).checked_add(len).is_some_and(|end| end < BLOCK_SIZE) {
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

    /// `len` bytes from `offset` of the version this object opened, through
    /// the shared blocks only (the object's own cache is left as Yioop's
    /// reads would leave it); None once the file has changed, or outside it.
    pub fn shared_substring(&self, offset: i64, len: i64) -> Option<Vec<u8>> {
        let end = offset.checked_add(len)?;
        if offset < 0 || len < 0 || end > self.len || end as u64 > self.unchanged_version()?.size {
            return None;
        }
        let mut out = Vec::with_capacity(len as usize);
        let mut at = offset;
        while at < end {
            let block_offset = (at >> BLOCK_POWER) << BLOCK_POWER;
            let block = self.current_block(block_offset);
            let from = (at - block_offset) as usize;
            let to = block.len().min((end - block_offset) as usize);
            out.extend_from_slice(block.get(from..to)?);
            at = block_offset + BLOCK_SIZE;
        }
        Some(out)
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
    use std::path::PathBuf;

    thread_local! {
        /// The tests' call count: each `end_call` starts a new call.
        static CALL: Cell<u64> = const { Cell::new(1) };
    }

    fn end_call() {
        CALL.with(|c| c.set(c.get() + 1));
    }

    struct TempFile(PathBuf);

    impl TempFile {
        fn with(bytes: &[u8]) -> TempFile {
            use std::sync::atomic::{AtomicUsize, Ordering};
            static N: AtomicUsize = AtomicUsize::new(0);
            let n = N.fetch_add(1, Ordering::Relaxed);
            let path = std::env::temp_dir().join(format!("yioop-shard-test-{}-{n}", std::process::id()));
            std::fs::File::create(&path).unwrap().write_all(bytes).unwrap();
            TempFile(path)
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    /// An object that opened `path`: its file_len and state.
    struct Object {
        handle: Rc<File>,
        len: i64,
        open: RefCell<OpenShard>,
    }

    impl Object {
        fn open(path: &TempFile) -> Object {
            let open = OpenShard::open(&path.0).unwrap().unwrap();
            let len = open.file.metadata().unwrap().len() as i64;
            Object { handle: open.file.clone(), len, open: RefCell::new(open) }
        }

        fn file(&self) -> ShardFile<'_> {
            ShardFile::new(self.len, &self.open, CALL.with(Cell::get))
        }
    }

    fn counting(n: usize) -> Vec<u8> {
        (0..n as u32).flat_map(|i| i.to_be_bytes()).collect()
    }

    #[test]
    fn words_are_read_big_endian_at_word_boundaries_only() {
        let path = TempFile::with(&counting(3000));
        let object = Object::open(&path);
        let f = object.file();
        assert_eq!(f.word(0).unwrap(), Word::Int(0));
        assert_eq!(f.word(4 * 1500).unwrap(), Word::Int(1500));
        // Yioop warns (an undefined key) off word boundaries and at the
        // file's end inside its last block; from the next block on, the
        // block read fails (false).
        assert!(matches!(f.word(6), Err(ShardError::Warns(_))));
        assert!(matches!(f.word(12000), Err(ShardError::Warns(_))));
        assert_eq!(f.word(12288).unwrap(), Word::False);
        assert_eq!(f.word(-4).unwrap(), Word::False);
    }

    #[test]
    fn substrings_cross_blocks_and_stop_at_the_end() {
        let bytes = counting(3000);
        let path = TempFile::with(&bytes);
        let object = Object::open(&path);
        let f = object.file();
        assert_eq!(f.substring(4090, 20, true).unwrap(), &bytes[4090..4110]);
        assert_eq!(f.substring(11990, 100, true).unwrap(), &bytes[11990..]);
        assert_eq!(f.substring(100, -10, true).unwrap(), &bytes[100..4086]);
        assert_eq!(f.substring(-8, 4, true).unwrap(), b"");
        assert_eq!(f.substring(8, i64::MAX, true).unwrap(), &bytes[8..], "a length past i64 reads to the end");
        assert_eq!(f.shared_substring(4090, 20).unwrap(), &bytes[4090..4110]);
    }

    #[test]
    fn a_ragged_block_is_an_error_only_when_cached_and_is_not_cached() {
        let path = TempFile::with(&[1, 2, 3, 4, 5, 6]);
        let object = Object::open(&path);
        let f = object.file();
        assert_eq!(f.substring(0, 6, false).unwrap(), vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(f.word(0), Err(ShardError::RaggedBlock { offset: 0 }));
        assert!(object.open.borrow().cached_blocks().is_empty());
    }

    #[test]
    fn an_object_keeps_the_blocks_it_read_and_reads_the_rest_as_the_file_is_now() {
        let path = TempFile::with(&counting(2048));
        let object = Object::open(&path);
        assert_eq!(object.file().word(0).unwrap(), Word::Int(0));
        // Same size, rewritten in place: a new version by its change time.
        std::thread::sleep(std::time::Duration::from_millis(20));
        let flipped: Vec<u8> = counting(2048).iter().map(|b| b ^ 0xFF).collect();
        std::fs::OpenOptions::new().write(true).open(&path.0).unwrap().write_all(&flipped).unwrap();
        let f = object.file();
        assert_eq!(f.unchanged_version(), None);
        assert_eq!(f.word(0).unwrap(), Word::Int(0), "its own cached block");
        assert_eq!(f.word(4096).unwrap(), Word::Int(!1024u32), "a block it had not read");
        assert_eq!(f.substring(0, 4, false).unwrap(), (!0u32).to_be_bytes(), "an uncached read");
        let newer = Object::open(&path);
        assert_eq!(newer.file().word(0).unwrap(), Word::Int(!0u32), "a new object sees the new bytes");
    }

    #[test]
    fn a_renamed_over_file_is_read_through_the_old_handle() {
        let path = TempFile::with(&counting(2048));
        let object = Object::open(&path);
        let other = TempFile::with(&counting(4096).iter().map(|b| b ^ 0xFF).collect::<Vec<_>>());
        std::fs::rename(&other.0, &path.0).unwrap();
        let newer = Object::open(&path);
        assert_eq!(newer.file().word(4).unwrap(), Word::Int(!1u32));
        assert_eq!(object.file().word(4).unwrap(), Word::Int(1), "the old inode, as Yioop's handle reads it");
    }

    #[test]
    fn objects_on_one_inode_share_its_descriptor_and_a_missing_file_is_none() {
        let path = TempFile::with(&counting(16));
        let (a, b) = (Object::open(&path), Object::open(&path));
        assert!(Rc::ptr_eq(&a.handle, &b.handle));
        assert!(OpenShard::open(Path::new("/nonexistent/shard")).unwrap().is_none());
    }

    #[test]
    fn a_truncated_file_reads_short_and_empty_blocks_are_errors_when_cached() {
        let path = TempFile::with(&counting(4096));
        let object = Object::open(&path);
        assert_eq!(object.file().word(0).unwrap(), Word::Int(0));
        std::fs::OpenOptions::new().write(true).open(&path.0).unwrap().set_len(0).unwrap();
        let f = object.file();
        assert_eq!(f.word(0).unwrap(), Word::Int(0), "still cached by the object");
        assert_eq!(f.word(8192), Err(ShardError::RaggedBlock { offset: 8192 }), "fread gives an empty block");
        assert_eq!(f.substring(8192, 8, false).unwrap(), b"");
    }

    #[test]
    fn words_of_a_block_read_off_the_4k_grid_come_first_as_yioops_plus_does() {
        let path = TempFile::with(&counting(2048));
        let object = Object::open(&path);
        let f = object.file();
        // Cached from byte 6: its words sit at 6, 10, 14, ... until Yioop
        // empties its cache, and the aligned block's words where they meet.
        assert_eq!(f.read_block(6, true, |b| b.len()).unwrap(), Some(4096));
        assert_eq!(f.word(10).unwrap(), Word::Int(u32::from_be_bytes([0, 2, 0, 0])));
        assert_eq!(f.word(8).unwrap(), Word::Int(2), "the aligned block, read now");
        assert!(matches!(f.word(4097), Err(ShardError::Warns(_))));
    }

    #[test]
    fn a_call_taken_back_leaves_the_blocks_from_before_it() {
        let path = TempFile::with(&counting(4096));
        let object = Object::open(&path);
        assert_eq!(object.file().word(0).unwrap(), Word::Int(0));
        end_call();
        let f = object.file();
        assert_eq!(f.word(8192).unwrap(), Word::Int(2048));
        assert_eq!(f.read_block(6, true, |b| b.len()).unwrap(), Some(4096));
        object.open.borrow_mut().roll_back_call(CALL.with(Cell::get));
        let offsets: Vec<i64> = object.open.borrow().cached_blocks().iter().map(|b| b.offset).collect();
        assert_eq!(offsets, vec![0]);
        assert!(!object.open.borrow().blocks.unaligned);
    }
}
