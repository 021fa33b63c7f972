//! An IndexShard object's file, as Yioop's `readBlockShardAtOffset` keeps
//! it, without a PHP stream per object: IndexManager opens a new object for
//! every dictionary look-up, and Yioop's `file_exists` + `fopen` +
//! `filesize` cost about ten system calls each time. Natively an object's
//! first read checks and opens the file (`crate::shard::OpenShard`: one
//! `stat`, and a descriptor per inode shared by the objects that open it)
//! and takes `$this->file_len` from PHP's own `filesize` (its stat cache
//! included). The object's state (the inode it opened, its block cache) is
//! kept natively, in a table keyed by the object that PHP empties of an
//! object when the object is freed (a weak reference).
//!
//! `$this->fh` stays null while the object is read natively. Before a call
//! declines, the object is handed over to Yioop's PHP as its own reads
//! would have left it: `$this->fh` a stream on the inode it opened, its
//! block cache in `$this->blocks` and `$this->blocks_words`. An object
//! whose `$this->fh` is set, or whose PHP caches are not empty, is Yioop's
//! PHP's to read.

use super::super::convert::bytes_zval;
use super::super::zval::{array_zval, long_of, long_zval};
use super::{Shard, Stop};
use crate::shard::{OpenShard, ShardFile};
use ext_php_rs::ffi::{executor_globals, zend_hash_clean, zend_hash_index_find, zend_object, zend_resource, zend_string, zend_ulong, zval, HashTable};
use ext_php_rs::types::{ZendHashTable, ZendStr, Zval};
use std::cell::RefCell;
use std::ffi::OsStr;
use std::os::fd::IntoRawFd;
use std::os::raw::{c_char, c_int, c_void};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::rc::Rc;

extern "C" {
    fn _zend_hash_init(ht: *mut HashTable, size: u32, destructor: Option<unsafe extern "C" fn(*mut zval)>, persistent: bool);
    fn zend_weakrefs_hash_add(ht: *mut HashTable, key: *mut zend_object, data: *mut zval) -> *mut zval;
    fn zend_weakrefs_hash_del(ht: *mut HashTable, key: *mut zend_object) -> c_int;
    fn zend_hash_destroy(ht: *mut HashTable);
    fn php_stat(filename: *mut zend_string, kind: c_int, return_value: *mut zval);
    fn _php_stream_fopen_from_fd(fd: c_int, mode: *const c_char, persistent_id: *const c_char, zero_position: bool) -> *mut c_void;
}

/// php-src's FS_SIZE (what `filesize` asks `php_stat`), IS_PTR and
/// IS_RESOURCE_EX (a refcounted resource).
const FS_SIZE: c_int = 2;
const IS_PTR: u32 = 13;
const IS_RESOURCE_EX: u32 = 9 | (1 << 8);
/// ZEND_MM_ALIGNMENT_LOG2: an object's key in a weak table is its address
/// shifted by it.
const ALIGNMENT_LOG2: u32 = 3;

type State = Rc<RefCell<OpenShard>>;

/// The table of objects read natively: a PHP hash table (weak references
/// need one), allocated once per process, whose values point at states.
struct Registry(Box<HashTable>);

unsafe extern "C" fn drop_state(value: *mut zval) {
    drop(Box::from_raw((*value).value.ptr.cast::<State>()));
}

impl Registry {
    fn new() -> Registry {
        let mut table: Box<HashTable> = Box::new(unsafe { std::mem::zeroed() });
        unsafe { _zend_hash_init(&mut *table, 8, Some(drop_state), true) };
        Registry(table)
    }

    fn key(object: *mut zend_object) -> zend_ulong {
        (object as usize >> ALIGNMENT_LOG2) as zend_ulong
    }

    fn get(&self, object: *mut zend_object) -> Option<State> {
        let found = unsafe { zend_hash_index_find(&*self.0, Registry::key(object)) };
        unsafe { found.as_ref() }.map(|value| unsafe { &*value.value.ptr.cast::<State>() }.clone())
    }

    fn add(&mut self, object: *mut zend_object, state: State) {
        let mut value = Zval::new();
        value.value.ptr = Box::into_raw(Box::new(state)).cast();
        value.u1.type_info = IS_PTR;
        let added = unsafe { zend_weakrefs_hash_add(&mut *self.0, object, std::ptr::from_mut(&mut value).cast()) };
        if added.is_null() {
            unsafe { drop_state(std::ptr::from_mut(&mut value).cast()) };
        }
    }

    fn remove(&mut self, object: *mut zend_object) -> Option<State> {
        let state = self.get(object)?;
        unsafe { zend_weakrefs_hash_del(&mut *self.0, object) };
        Some(state)
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        unsafe { zend_hash_destroy(&mut *self.0) };
    }
}

thread_local! {
    static REGISTRY: RefCell<Registry> = RefCell::new(Registry::new());
    /// The object the current call opened, with its `file_len` before: a
    /// call that then declines leaves the opening to Yioop's PHP.
    static OPENED_IN_CALL: RefCell<Option<(usize, Zval)>> = const { RefCell::new(None) };
}

/// Forgets every object: called at each request's start. PHP's weak
/// references are per request, and a fast shutdown frees objects without
/// telling them.
pub fn forget_objects() {
    REGISTRY.with(|r| unsafe { zend_hash_clean(&mut *r.borrow_mut().0) });
    crate::shard::file::close_unused_files();
}

/// The `file_len` an object had before the current call opened its file,
/// if it did; forgets it either way (a call's end).
pub(super) fn opened_in_call(object: *mut zend_object) -> Option<Zval> {
    let opened = OPENED_IN_CALL.with(|o| o.borrow_mut().take())?;
    (opened.0 == object as usize).then_some(opened.1)
}

/// An object's open file for one call: `$this->file_len` and its state.
pub(super) struct ObjectFile {
    len: i64,
    state: State,
}

impl ObjectFile {
    /// The view the core reads through.
    pub(super) fn view(&self) -> ShardFile<'_> {
        ShardFile::new(self.len, &self.state)
    }
}

/// Whether `open_basedir` limits the files PHP may open.
fn open_basedir_set() -> bool {
    let dirs = unsafe { ext_php_rs::ffi::core_globals.open_basedir };
    !dirs.is_null() && unsafe { *dirs } != 0
}

/// A PHP stream (as `fopen` would return it) on a new descriptor of the
/// inode `state` opened; None if PHP makes none.
fn stream_on(state: &OpenShard) -> Option<Zval> {
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

impl Shard<'_> {
    fn object_ptr(&mut self) -> *mut zend_object {
        std::ptr::from_mut(self.0).cast()
    }

    /// Whether the object's own PHP caches are empty arrays, as IndexShard's
    /// constructor leaves them: only then is it read natively.
    fn php_caches_empty(&self) -> bool {
        ["blocks", "blocks_words"].iter().all(|name| self.property(name).and_then(Zval::array).is_some_and(|a| a.is_empty()))
    }

    /// The object's file as `readBlockShardAtOffset` reaches it: opened now
    /// on its first read (Ok(None) where Yioop's read gives false).
    /// Declines for an object Yioop's PHP reads itself and a `file_len`
    /// that is no int.
    pub(super) fn open_file(&mut self) -> Result<Option<ObjectFile>, Stop> {
        if !self.property("fh").is_some_and(Zval::is_null) || !self.php_caches_empty() {
            return Err(Stop::Decline);
        }
        let object = self.object_ptr();
        let state = match REGISTRY.with(|r| r.borrow().get(object)) {
            Some(state) => state,
            None => match self.first_open()? {
                Some(state) => state,
                None => return Ok(None),
            },
        };
        let len = self.property("file_len").and_then(long_of).ok_or(Stop::Decline)?;
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
        if name.as_bytes().windows(3).any(|w| w == b"://") || name.as_bytes().contains(&0) || open_basedir_set() {
            return Err(Stop::Decline);
        }
        let path = Path::new(OsStr::from_bytes(name.as_bytes()));
        let Some(open) = OpenShard::open(path).map_err(|_| Stop::Decline)? else { return Ok(None) };
        let mut size = Zval::new();
        let name_ptr = std::ptr::from_ref::<ZendStr>(name).cast_mut().cast::<zend_string>();
        unsafe { php_stat(name_ptr, FS_SIZE, std::ptr::from_mut(&mut size).cast()) };
        let object = self.object_ptr();
        let before = self.property("file_len").map_or_else(Zval::new, Zval::shallow_clone);
        OPENED_IN_CALL.with(|o| *o.borrow_mut() = Some((object as usize, before)));
        self.set_property("file_len", size);
        let state = Rc::new(RefCell::new(open));
        REGISTRY.with(|r| r.borrow_mut().add(object, state.clone()));
        Ok(Some(state))
    }

    /// Before a call declines: the object handed over to Yioop's PHP as its
    /// own reads would have left it before the call. `$this->fh` becomes a
    /// stream on the inode the object opened (a new descriptor of it,
    /// however the path changed), and the native block cache, less what
    /// this call added, is written into `$this->blocks` and
    /// `$this->blocks_words`, where they are still empty.
    pub(super) fn hand_over(&mut self) {
        let object = self.object_ptr();
        let Some(state) = REGISTRY.with(|r| r.borrow_mut().remove(object)) else { return };
        if let Some(file_len) = opened_in_call(object) {
            self.set_property("file_len", file_len); // as if never opened
            return;
        }
        if !self.property("fh").is_some_and(Zval::is_null) || !self.php_caches_empty() {
            return;
        }
        let mut state = state.borrow_mut();
        state.roll_back_call();
        if let Some(fh) = stream_on(&state) {
            self.set_property("fh", fh);
        }
        if state.cached_blocks().is_empty() {
            return;
        }
        let (mut blocks, mut words) = (ZendHashTable::new(), ZendHashTable::new());
        for block in state.cached_blocks() {
            let _ = blocks.insert_at_index(block.offset, bytes_zval(&block.bytes));
            // `+=`: a key already there keeps its word.
            for (i, word) in crate::shard::unpack_words(&block.bytes).enumerate() {
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
