//! An IndexShard object's file, as Yioop's `readBlockShardAtOffset` keeps
//! it, without a PHP stream per object: IndexManager opens a new object for
//! every dictionary look-up, and Yioop's `file_exists` + `fopen` +
//! `filesize` cost about ten system calls each time. Natively an object's
//! first read checks and opens the file (`crate::index::shard::OpenShard`: one
//! `stat`, and a descriptor per inode shared by the objects that open it)
//! and takes `$this->file_len` from PHP's own `filesize` (its stat cache
//! included). The object's native state (the inode it opened, its block
//! cache, where its properties sit) is kept in a table keyed by the object
//! that PHP empties of an object when the object is freed (a weak
//! reference).
//!
//! `$this->fh` stays null while the object is read natively. Before a call
//! declines, the object is handed over to Yioop's PHP as its own reads
//! would have left it: `$this->fh` a stream on the inode it opened, its
//! block cache in `$this->blocks` and `$this->blocks_words`. An object
//! whose `$this->fh` is set, or whose PHP caches are not empty, is Yioop's
//! PHP's to read.

use crate::php::runtime::ffi::{FS_SIZE, IS_RESOURCE_EX, _php_stream_fopen_from_fd, php_stat};
use crate::php::runtime::weak_table::WeakTable;
use crate::php::runtime::convert::bytes_zval;
use crate::php::runtime::zval::{array_zval, long_of, long_zval};
use super::{Shard, Stop};
use crate::index::shard::{OpenShard, ShardFile};
use ext_php_rs::ffi::{executor_globals, zend_hash_index_find, zend_resource, zend_string, zend_ulong};
use ext_php_rs::types::{ZendHashTable, ZendStr, Zval};
use std::cell::RefCell;
use std::ffi::OsStr;
use std::os::fd::IntoRawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};


/// Counts the native IndexShard calls (`end_call`), so that what a call did
/// can be told from what earlier calls did.
static CALLS: AtomicU64 = AtomicU64::new(1);

fn current_call() -> u64 {
    CALLS.load(Ordering::Relaxed)
}

/// Ends the current call.
pub(super) fn end_call() {
    CALLS.fetch_add(1, Ordering::Relaxed);
}

/// Where an object's declared `fh`, `blocks` and `file_len` sit (their
/// slots never move while the object lives); None for one that is not a
/// declared property, read by name instead.
struct Slots {
    fh: Option<*mut Zval>,
    blocks: Option<*mut Zval>,
    file_len: Option<*mut Zval>,
}

/// One object read natively.
struct Native {
    open: RefCell<OpenShard>,
    slots: Slots,
    /// The call that opened the file, and `file_len` before it: a call
    /// that opens and then declines leaves the opening to Yioop's PHP.
    opened_in: u64,
    file_len_before: Zval,
}

type State = Rc<Native>;

/// The objects read natively.
static OBJECTS: WeakTable<Native> = WeakTable::new();

/// Forgets every object, at each request's start, and closes the files
/// none of them reads any more.
pub fn forget_objects() {
    OBJECTS.clear();
    crate::index::shard::shared::close_unused_files();
}

/// Frees the table at the module's shutdown.
pub fn release_objects() {
    OBJECTS.release();
}

/// An object's open file for one call: `$this->file_len` and its state.
pub(super) struct ObjectFile {
    len: i64,
    state: State,
}

impl ObjectFile {
    /// The view the core reads through.
    pub(super) fn view(&self) -> ShardFile<'_> {
        ShardFile::new(self.len, &self.state.open, current_call())
    }
}

/// A PHP stream (as `fopen` would return it) on a new descriptor of the
/// inode `state` opened; None if PHP makes none.
pub(in crate::php) fn stream_on(state: &OpenShard) -> Option<Zval> {
    let fd = state.reopen().ok()?.into_raw_fd();
    let stream = unsafe { _php_stream_fopen_from_fd(fd, c"rb".as_ptr(), std::ptr::null(), false) };
    if stream.is_null() {
        drop(unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(fd) });
        return None;
    }
    // The stream's resource is the newest entry of PHP's resource list.
    let list = unsafe { std::ptr::addr_of_mut!(executor_globals.regular_list) };
    let newest = unsafe { (*list).nNextFreeElement } - 1;
    let found = unsafe { zend_hash_index_find(list, newest as zend_ulong).as_ref() }?;
    let resource: *mut zend_resource = unsafe { found.value.res };
    if unsafe { (*resource).ptr } != stream {
        return None;
    }
    let mut fh = Zval::new();
    fh.value.res = resource;
    fh.u1.type_info = IS_RESOURCE_EX; // takes over the list's first reference, as php_stream_to_zval does
    Some(fh)
}

fn is_empty_array(value: Option<&Zval>) -> bool {
    value.and_then(Zval::array).is_some_and(|a| a.is_empty())
}

impl Shard<'_> {
    /// A property read through its slot where the object's state knows
    /// it, by name otherwise.
    fn read(&self, slot: Option<*mut Zval>, name: &'static str) -> Option<&Zval> {
        match slot {
            Some(slot) => Some(unsafe { &*slot }.dereference()),
            None => self.property(name),
        }
    }

    /// Whether the object is as Yioop's PHP leaves one it has not read
    /// from: `$this->fh` null, its two caches empty arrays.
    fn unread_by_php(&self, slots: Option<&Slots>) -> bool {
        let (fh, blocks) = slots.map_or((None, None), |s| (s.fh, s.blocks));
        self.read(fh, "fh").is_some_and(Zval::is_null)
            && is_empty_array(self.read(blocks, "blocks"))
            && is_empty_array(self.property("blocks_words"))
    }

    /// The object's file as `readBlockShardAtOffset` reaches it: opened now
    /// on its first read (Ok(None) where Yioop's read gives false).
    /// Declines for an object Yioop's PHP reads itself and a `file_len`
    /// that is no int.
    pub(super) fn open_file(&mut self) -> Result<Option<ObjectFile>, Stop> {
        let object = self.as_ptr();
        let state = OBJECTS.get(object);
        if !self.unread_by_php(state.as_ref().map(|s| &s.slots)) {
            return Err(Stop::Decline);
        }
        let state = match state {
            Some(state) => state,
            None => match self.first_open()? {
                Some(state) => state,
                None => return Ok(None),
            },
        };
        let len = self.read(state.slots.file_len, "file_len").and_then(long_of).ok_or(Stop::Decline)?;
        Ok(Some(ObjectFile { len, state }))
    }

    /// `if ($this->fh === null)` in `readBlockShardAtOffset`: the file
    /// checked and opened, `$this->file_len` set from PHP's `filesize`.
    /// None where Yioop returns false. Paths PHP would hand to a stream
    /// wrapper, or check against `open_basedir`, and files that cannot be
    /// opened (PHP's `fopen` warns) are left to Yioop's PHP.
    fn first_open(&mut self) -> Result<Option<State>, Stop> {
        let filename = self.property("filename").filter(|f| f.is_string()).ok_or(Stop::Decline)?.shallow_clone();
        let name = filename.zend_str().ok_or(Stop::Decline)?;
        if !crate::php::runtime::engine::plain_file_path(name.as_bytes()) {
            return Err(Stop::Decline);
        }
        let path = Path::new(OsStr::from_bytes(name.as_bytes()));
        let Some(open) = OpenShard::open(path).map_err(|_| Stop::Decline)? else { return Ok(None) };
        let mut size = Zval::new();
        let name_ptr = std::ptr::from_ref::<ZendStr>(name).cast_mut().cast::<zend_string>();
        unsafe { php_stat(name_ptr, FS_SIZE, std::ptr::from_mut(&mut size).cast()) };
        let file_len_before = self.property("file_len").map_or_else(Zval::new, Zval::shallow_clone);
        self.set_property("file_len", size);
        let slots = Slots { fh: self.declared_ptr("fh"), blocks: self.declared_ptr("blocks"), file_len: self.declared_ptr("file_len") };
        let state = Rc::new(Native { open: RefCell::new(open), slots, opened_in: current_call(), file_len_before });
        OBJECTS.add(self.as_ptr(), &state);
        Ok(Some(state))
    }

    /// Before a call declines: the object handed over to Yioop's PHP as its
    /// own reads would have left it before the call. `$this->fh` becomes a
    /// stream on the inode the object opened (a new descriptor of it,
    /// however the path changed), and the native block cache, less what
    /// this call added, is written into `$this->blocks` and
    /// `$this->blocks_words`, where they are still empty. A call that
    /// opened the file itself leaves the object as if it never had.
    pub(super) fn hand_over(&mut self) {
        let object = self.as_ptr();
        let Some(state) = OBJECTS.remove(object) else { return };
        if state.opened_in == current_call() {
            self.set_property("file_len", state.file_len_before.shallow_clone());
            return;
        }
        if !self.unread_by_php(Some(&state.slots)) {
            return;
        }
        let mut open = state.open.borrow_mut();
        open.roll_back_call(current_call());
        if let Some(fh) = stream_on(&open) {
            self.set_property("fh", fh);
        }
        if open.cached_blocks().is_empty() {
            return;
        }
        let (mut blocks, mut words) = (ZendHashTable::new(), ZendHashTable::new());
        for block in open.cached_blocks() {
            let _ = blocks.insert_at_index(block.offset, bytes_zval(&block.bytes));
            // `+=`: a key already there keeps its word.
            for (i, word) in crate::index::shard::unpack_words(&block.bytes).enumerate() {
                let key = block.offset + 4 * i as i64;
                if words.get_index(key).is_none() {
                    let _ = words.insert_at_index(key, long_zval(word));
                }
            }
        }
        self.set_property("blocks", array_zval(blocks));
        self.set_property("blocks_words", array_zval(words));
    }
}
