//! What every IndexShard object of a process shares: one descriptor per
//! inode, and the blocks read of each version of a file.
//!
//! Yioop opens a new IndexShard per dictionary look-up at generation 0, and
//! each used to start cold; here every object that opened the same version
//! of a file reads its blocks from one process-wide cache. A version is what
//! `fstat` says of the open file: device, inode, size, modification time and
//! change time (which nobody can set, unlike the modification time). An
//! object keeps the version it opened; while `fstat` still says the same
//! (checked at most once a call, and only when the call reads past the
//! object's own blocks), the shared blocks are the file's bytes. Once it
//! says otherwise the object reads its file directly, as Yioop's handle
//! does, and never the shared blocks again.
//!
//! What no `fstat` can tell apart: a same-size rewrite that keeps the
//! modification time and happens within the kernel's timestamp granularity
//! (a few milliseconds) of the version cached. See README, "How the block
//! cache knows a file".

use super::BLOCK_SIZE;
use std::cell::{Cell, RefCell};
use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::rc::Rc;
use crate::index::int_map::IntMap;

/// A file's state as `fstat` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Version {
    pub(super) dev: u64,
    pub(super) ino: u64,
    pub(super) size: u64,
    pub(super) mtime_ns: i128,
    pub(super) ctime_ns: i128,
}

impl Version {
    pub(super) fn of(file: &File) -> Option<Version> {
        file.metadata().ok().map(|m| Version::from_metadata(&m))
    }

    pub(super) fn from_metadata(metadata: &std::fs::Metadata) -> Version {
        let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
        Version {
            dev: metadata.dev(),
            ino: metadata.ino(),
            size: metadata.size(),
            mtime_ns: ns(metadata.mtime(), metadata.mtime_nsec()),
            ctime_ns: ns(metadata.ctime(), metadata.ctime_nsec()),
        }
    }

    pub(super) fn inode(&self) -> (u64, u64) {
        (self.dev, self.ino)
    }
}

/// A block's bytes, shared between the caches that hold it.
pub type Block = Rc<[u8]>;

/// Bytes of blocks all versions may keep cached together by default
/// (`yioop.block_cache_size`); past the limit the shared cache starts over
/// (objects keep the blocks they hold).
pub const DEFAULT_CACHE_BYTES: usize = 64 << 20;

/// Versions whose blocks are kept at once; past it the list starts over.
/// Every dictionary file a search reads is a version too (256 prefix files
/// a tier): at 64, a worker that had answered a few dozen different words
/// started over and dropped the posting shards' blocks with the
/// dictionary's. A version costs a pointer per block of its file.
const MAX_VERSIONS: usize = 4096;

/// The blocks read so far of one version of a file, by block number.
pub(super) struct SharedBlocks {
    blocks: RefCell<Vec<Option<Block>>>,
    generation: Cell<u64>,
}

thread_local! {
    /// One open descriptor per inode objects opened, while any uses it.
    static OPEN_FILES: RefCell<IntMap<(u64, u64), Rc<File>>> = RefCell::new(IntMap::default());
    static VERSIONS: RefCell<IntMap<Version, Rc<SharedBlocks>>> = RefCell::new(IntMap::default());
    static CACHED_BYTES: Cell<usize> = const { Cell::new(0) };
    static CACHE_LIMIT: Cell<usize> = const { Cell::new(DEFAULT_CACHE_BYTES) };
    static STATS: Cell<CacheStats> = const { Cell::new(CacheStats::ZERO) };

    /// Bumped whenever the shared cache starts over; each version compares
    /// it with its own to know its blocks are gone.
    static CACHE_GENERATION: Cell<u64> = const { Cell::new(0) };
}

/// What the shared block cache did in this process so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheStats {
    /// Blocks found cached.
    pub hits: u64,
    /// Blocks read from their file.
    pub misses: u64,
    /// Times the cache reached its limit and started over.
    pub start_overs: u64,
    /// Times more than MAX_VERSIONS (4,096) file versions were read and
    /// the list of versions started over.
    pub version_resets: u64,
}

impl CacheStats {
    const ZERO: CacheStats = CacheStats { hits: 0, misses: 0, start_overs: 0, version_resets: 0 };
}

fn count(update: impl FnOnce(&mut CacheStats)) {
    STATS.with(|s| {
        let mut stats = s.get();
        update(&mut stats);
        s.set(stats);
    });
}

/// This process's counts since it started.
pub fn cache_stats() -> CacheStats {
    STATS.with(Cell::get)
}

/// Bytes cached now, and the limit.
pub fn cache_size() -> (usize, usize) {
    (CACHED_BYTES.with(Cell::get), CACHE_LIMIT.with(Cell::get))
}

/// Sets the limit (`yioop.block_cache_size`); a smaller one than what is
/// cached takes effect at the next block read.
pub fn set_cache_limit(bytes: usize) {
    CACHE_LIMIT.with(|l| l.set(bytes));
}

pub(super) fn shared_blocks(version: Version) -> Rc<SharedBlocks> {
    VERSIONS.with(|v| {
        let mut versions = v.borrow_mut();
        if let Some(shared) = versions.get(&version) {
            return shared.clone();
        }
        if versions.len() >= MAX_VERSIONS {
            versions.clear();
            count(|s| s.version_resets += 1);
        }
        let shared = Rc::new(SharedBlocks {
            blocks: RefCell::new(vec![None; (version.size as usize).div_ceil(BLOCK_SIZE as usize)]),
            generation: Cell::new(CACHE_GENERATION.with(Cell::get)),
        });
        versions.insert(version, shared.clone());
        shared
    })
}

impl SharedBlocks {
    /// Block `index`, read with `read` if no object of this version has.
    pub(super) fn get_or_read(&self, index: usize, read: impl FnOnce() -> Block) -> Block {
        let now = CACHE_GENERATION.with(Cell::get);
        if self.generation.get() != now {
            self.blocks.borrow_mut().iter_mut().for_each(|b| *b = None);
            self.generation.set(now);
        }
        if let Some(block) = &self.blocks.borrow()[index] {
            count(|s| s.hits += 1);
            return block.clone();
        }
        count(|s| s.misses += 1);
        let block = read();
        self.blocks.borrow_mut()[index] = Some(block.clone());
        CACHED_BYTES.with(|c| c.set(c.get() + block.len()));
        if CACHED_BYTES.with(Cell::get) > CACHE_LIMIT.with(Cell::get) {
            start_over();
        }
        block
    }
}

/// Empties the shared cache. The blocks of every listed version go now:
/// left to each version's next read, those of a version no one reads again
/// (a queue server's past generations, a dictionary merged away) stayed
/// held, past the limit, until the list of versions started over. Versions
/// no object holds are forgotten, with their pointer a block.
fn start_over() {
    CACHED_BYTES.with(|c| c.set(0));
    let now = CACHE_GENERATION.with(|g| {
        g.set(g.get() + 1);
        g.get()
    });
    count(|s| s.start_overs += 1);
    VERSIONS.with_borrow_mut(|versions| {
        versions.retain(|_, shared| Rc::strong_count(shared) > 1);
        for shared in versions.values() {
            shared.blocks.borrow_mut().iter_mut().for_each(|b| *b = None);
            shared.generation.set(now);
        }
    });
}


/// What `fopen(path, "r")` would open now, as the descriptor every reader
/// of that inode shares, with the version `stat` gives: Ok(None) where
/// there is no such file, an error where it cannot be opened. Reads through
/// it give what a fresh handle's reads would (the web archive's reads,
/// `crate::index::archive`, use it too).
pub fn shared_descriptor(path: &Path) -> std::io::Result<Option<(Rc<File>, Version)>> {
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(_) => return Ok(None),
    };
    let mut version = Version::from_metadata(&metadata);
    let file = match OPEN_FILES.with(|o| o.borrow().get(&version.inode()).cloned()) {
        Some(file) => file,
        None => {
            let file = File::open(path)?;
            // The path may name another inode by now: the one opened counts.
            version = Version::from_metadata(&file.metadata()?);
            let file = Rc::new(file);
            keep_open(version.inode(), &file);
            file
        }
    };
    Ok(Some((file, version)))
}

/// Keeps `file` open for the objects that open `inode` after; descriptors
/// no object uses any more of files since deleted are closed (their disk
/// space would stay taken).
fn keep_open(inode: (u64, u64), file: &Rc<File>) {
    OPEN_FILES.with(|o| {
        let mut open = o.borrow_mut();
        open.retain(|_, f| Rc::strong_count(f) > 1 || f.metadata().is_ok_and(|m| m.nlink() > 0));
        open.insert(inode, file.clone());
    });
}

/// Closes the descriptors no object uses: at each request's start, when the
/// objects of the last one are gone.
pub fn close_unused_files() {
    OPEN_FILES.with(|o| o.borrow_mut().retain(|_, f| Rc::strong_count(f) > 1));
}


#[cfg(test)]
mod tests {
    use super::*;

    fn version(ino: u64, size: u64) -> Version {
        Version { dev: 1, ino, size, mtime_ns: 0, ctime_ns: 0 }
    }

    fn block(len: usize) -> Block {
        vec![7u8; len].into()
    }

    #[test]
    fn counts_hits_misses_and_start_overs_against_the_limit() {
        set_cache_limit(3 * BLOCK_SIZE as usize);
        let before = cache_stats();
        let shared = shared_blocks(version(u64::MAX - 1, 8 * BLOCK_SIZE as u64));
        let reads = std::cell::Cell::new(0);
        let read = || {
            reads.set(reads.get() + 1);
            block(BLOCK_SIZE as usize)
        };
        for i in [0, 1, 0, 1, 2] {
            shared.get_or_read(i, read);
        }
        let after = cache_stats();
        assert_eq!((after.hits - before.hits, after.misses - before.misses), (2, 3));
        assert_eq!(after.start_overs, before.start_overs);
        // A fourth block passes the limit: the cache starts over, and block 0
        // is read again.
        shared.get_or_read(3, read);
        shared.get_or_read(0, read);
        let last = cache_stats();
        assert_eq!(last.start_overs - before.start_overs, 1);
        assert_eq!(reads.get(), 5);
        set_cache_limit(DEFAULT_CACHE_BYTES);
    }

    #[test]
    fn a_start_over_lets_go_of_versions_no_one_reads_again() {
        set_cache_limit(2 * BLOCK_SIZE as usize);
        let past = shared_blocks(version(u64::MAX - 2, 4 * BLOCK_SIZE as u64));
        let past_block = past.get_or_read(0, || block(BLOCK_SIZE as usize));
        let unheld = Rc::downgrade(&shared_blocks(version(u64::MAX - 3, 4 * BLOCK_SIZE as u64)));
        let current = shared_blocks(version(u64::MAX - 4, 4 * BLOCK_SIZE as u64));
        current.get_or_read(0, || block(BLOCK_SIZE as usize));
        current.get_or_read(1, || block(BLOCK_SIZE as usize)); // past the limit
        assert_eq!(Rc::strong_count(&past_block), 1, "the cache holds the past version's block no more");
        assert!(unheld.upgrade().is_none(), "a version no object holds is forgotten");
        assert!(past.blocks.borrow().iter().all(Option::is_none));
        set_cache_limit(DEFAULT_CACHE_BYTES);
    }
}
