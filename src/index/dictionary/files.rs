//! An IndexDictionary object's open files and block cache, as Yioop's
//! `readBlockDictAtOffset` keeps them in `$this->fhs` (a queue of at most
//! 200 open files, oldest closed first), `$this->file_lens` and
//! `$this->blocks`, step for step, so that the binding can hand the object
//! over to Yioop's PHP in exactly the state its own reads would have left.
//! The bytes come through `crate::index::shard::file` (one descriptor per inode,
//! blocks shared between objects while the file is unchanged).

use crate::index::int_map::IntMap;
use crate::index::shard::shared::Block;
use crate::index::shard::{OpenShard, Result, ShardError, ShardFile, BLOCK_POWER, BLOCK_SIZE};
use std::cell::RefCell;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::rc::Rc;

/// `IndexDictionary::MAX_DICT_FILE_HANDLES`.
pub const MAX_HANDLES: usize = 200;

/// A dictionary file: its first-byte folder and its tier.
pub type FileKey = (i64, i64);

/// What the binding asks PHP for, so that PHP's stat cache sees what
/// Yioop's `file_exists` and `filesize` would.
pub trait Host {
    fn exists(&mut self, path: &[u8]) -> bool;
    /// `filesize($path)`; None where it is not an int (false).
    fn size(&mut self, path: &[u8]) -> Option<i64>;
}

/// One open file, as `$this->fhs[$file_num][$tier]` holds it.
pub struct Handle {
    pub open: RefCell<OpenShard>,
}

/// The parts of the state a call may change besides blocks, as they were
/// before its first change: what a declined call puts back.
#[derive(Clone)]
struct Snapshot {
    queue: Vec<FileKey>,
    handles: IntMap<FileKey, Rc<Handle>>,
    fhs_order: Vec<(i64, Vec<i64>)>,
    file_lens: Vec<(i64, Vec<(i64, i64)>)>,
}

/// One object's files, cache and the order of their PHP array keys.
#[derive(Default)]
pub struct DictFiles {
    /// `$this->fhs["QUEUE"]`.
    pub queue: Vec<FileKey>,
    handles: IntMap<FileKey, Rc<Handle>>,
    /// The keys of `$this->fhs` after "QUEUE", and of each of its arrays,
    /// in PHP's order (an evicted file's folder keeps its key).
    pub fhs_order: Vec<(i64, Vec<i64>)>,
    /// `$this->file_lens`, in PHP's key order.
    pub file_lens: Vec<(i64, Vec<(i64, i64)>)>,
    /// Hashed by their few integers (no keys chosen by an attacker).
    blocks: IntMap<(i64, i64, i64), Block>,
    /// `$this->blocks`' entries in the order Yioop's reads added them.
    pub block_order: Vec<(i64, i64, i64)>,
    snapshot: Option<Snapshot>,
    blocks_at_start: usize,
    /// Files opened in the current call (each one costs Yioop two
    /// `set_error_handler` calls).
    pub opened: usize,
    /// A read in the current call that the same call again could see
    /// differently: a file that did not exist, or bytes past its length,
    /// neither of which Yioop caches.
    volatile: bool,
    /// Earlier calls' answers (`super::lookup::word_info_remembered`), and
    /// the current call's, kept once the call ends as it found it.
    pub(super) memo: super::lookup::Memo,
    pub(super) pending: Option<(super::lookup::MemoKey, super::lookup::Found)>,
}

impl DictFiles {
    /// Starts a call.
    pub fn begin(&mut self) {
        self.snapshot = None;
        self.blocks_at_start = self.block_order.len();
        self.opened = 0;
        self.volatile = false;
        self.pending = None;
    }

    /// Ends a call: a declined one (`keep` false) leaves the state as the
    /// call found it.
    pub fn end(&mut self, keep: bool) {
        if !keep {
            if let Some(s) = self.snapshot.take() {
                self.queue = s.queue;
                self.handles = s.handles;
                self.fhs_order = s.fhs_order;
                self.file_lens = s.file_lens;
            }
            for key in self.block_order.drain(self.blocks_at_start..) {
                self.blocks.remove(&key);
            }
            self.opened = 0;
        }
        if let (true, false, Some((key, found))) = (keep, self.volatile, self.pending.take()) {
            self.memo.remember(key, found);
        }
        self.snapshot = None;
    }

    fn before_change(&mut self) {
        if self.snapshot.is_none() {
            self.snapshot = Some(Snapshot {
                queue: self.queue.clone(),
                handles: self.handles.clone(),
                fhs_order: self.fhs_order.clone(),
                file_lens: self.file_lens.clone(),
            });
        }
    }

    /// The open file of `key`, if `$this->fhs` holds one.
    pub fn handle(&self, key: FileKey) -> Option<&Rc<Handle>> {
        self.handles.get(&key)
    }

    /// The cached block of `key` at `bytes`.
    pub fn block(&self, key: (i64, i64, i64)) -> Option<&Block> {
        self.blocks.get(&key)
    }

    /// `fclose` and `unset($this->fhs[$file][$tier])`.
    fn close(&mut self, (file, tier): FileKey) {
        self.handles.remove(&(file, tier));
        if let Some((_, tiers)) = self.fhs_order.iter_mut().find(|(f, _)| *f == file) {
            tiers.retain(|t| *t != tier);
        }
    }

    fn set_file_len(&mut self, (file, tier): FileKey, len: i64) {
        match self.file_lens.iter_mut().find(|(f, _)| *f == file) {
            Some((_, tiers)) => match tiers.iter_mut().find(|(t, _)| *t == tier) {
                Some(entry) => entry.1 = len,
                None => tiers.push((tier, len)),
            },
            None => self.file_lens.push((file, vec![(tier, len)])),
        }
    }

    fn file_len(&self, (file, tier): FileKey) -> Option<i64> {
        let tiers = &self.file_lens.iter().find(|(f, _)| *f == file)?.1;
        tiers.iter().find(|(t, _)| *t == tier).map(|(_, len)| *len)
    }

    /// The queue step and open of `readBlockDictAtOffset` for a file with
    /// no handle: false (Ok(false)) where the file does not exist.
    fn open(&mut self, dir: &[u8], key: FileKey, host: &mut dyn Host) -> Result<bool> {
        self.before_change();
        self.queue.push(key);
        while self.queue.len() > MAX_HANDLES {
            let old = self.queue.remove(0);
            self.close(old);
        }
        let path = file_path(dir, key);
        if !host.exists(&path) {
            return Ok(false);
        }
        // Where Yioop's @fopen fails, its fhs entry becomes false: PHP's.
        let os_path = Path::new(std::ffi::OsStr::from_bytes(&path));
        let open = OpenShard::open(os_path).ok().flatten().ok_or(ShardError::Warns("fopen failed"))?;
        let len = host.size(&path).ok_or(ShardError::Warns("filesize failed"))?;
        match self.fhs_order.iter_mut().find(|(f, _)| *f == key.0) {
            Some((_, tiers)) => tiers.push(key.1),
            None => self.fhs_order.push((key.0, vec![key.1])),
        }
        self.handles.insert(key, Rc::new(Handle { open: RefCell::new(open) }));
        self.set_file_len(key, len);
        self.opened += 1;
        Ok(true)
    }

    /// `readBlockDictAtOffset($file_num, $bytes)` with `$this->read_tier`
    /// the key's tier: None where Yioop returns false.
    pub fn read_block(&mut self, dir: &[u8], key: FileKey, bytes: i64, host: &mut dyn Host) -> Result<Option<Block>> {
        if let Some(block) = self.blocks.get(&(key.0, key.1, bytes)) {
            return Ok(Some(block.clone()));
        }
        if !self.handles.contains_key(&key) && !self.open(dir, key, host)? {
            self.volatile = true;
            return Ok(None);
        }
        let len = self.file_len(key).unwrap_or(0);
        if bytes >= len || bytes < 0 {
            self.volatile = true;
            return Ok(None); // past file_len; fseek before the start fails
        }
        let handle = self.handles[&key].clone();
        let view = ShardFile::new(len, &handle.open, 0);
        let block: Block = view.read_block(bytes, false, |b: &[u8]| -> Block { Rc::from(b) })?.unwrap_or_else(|| Rc::from(&[][..]));
        self.blocks.insert((key.0, key.1, bytes), block.clone());
        self.block_order.push((key.0, key.1, bytes));
        Ok(Some(block))
    }

    /// `getDictSubstring($file_num, $offset, $len)`, whose loop reads the
    /// first block twice when the bytes cross a block (Yioop's quirk, kept).
    /// An empty block inside that loop would make Yioop's loop spin
    /// forever: left to Yioop's PHP.
    pub fn substring(&mut self, dir: &[u8], key: FileKey, offset: i64, len: i64, host: &mut dyn Host) -> Result<Vec<u8>> {
        let mut block_offset = (offset >> BLOCK_POWER) << BLOCK_POWER;
        let start = (offset - block_offset) as usize;
        if (start as i64) + len < BLOCK_SIZE {
            let data = self.read_block(dir, key, block_offset, host)?;
            return Ok(data.map(|d| substr(&d, start, len).to_vec()).unwrap_or_default());
        }
        let Some(first) = self.read_block(dir, key, block_offset, host)? else { return Ok(Vec::new()) };
        let mut out = first.get(start..).unwrap_or_default().to_vec();
        while (out.len() as i64) < len {
            let Some(data) = self.read_block(dir, key, block_offset, host)? else { return Ok(out) };
            if data.is_empty() {
                return Err(ShardError::Warns("getDictSubstring never returns"));
            }
            block_offset += BLOCK_SIZE;
            out.extend_from_slice(&data);
        }
        out.truncate(len as usize);
        Ok(out)
    }
}

/// `$this->dir_name . "/$file_num/" . $tier . "A.dic"`.
pub fn file_path(dir: &[u8], (file, tier): FileKey) -> Vec<u8> {
    let mut path = dir.to_vec();
    path.extend_from_slice(format!("/{file}/{tier}A.dic").as_bytes());
    path
}

/// PHP's `substr($s, $start, $len)` for `$start` ≥ 0 and `$len` ≥ 0.
fn substr(s: &[u8], start: usize, len: i64) -> &[u8] {
    if start >= s.len() || len <= 0 {
        return &[];
    }
    &s[start..s.len().min(start + len as usize)]
}
