//! An IndexShard object's file, as Yioop's `readBlockShardAtOffset` keeps
//! it: opened on the object's first read with PHP's own `file_exists`,
//! `fopen` and `filesize` (so PHP's stat cache, warnings and stream
//! wrappers are Yioop's), the handle stored in `$this->fh` and its length
//! in `$this->file_len`. Reads then go through that handle's descriptor,
//! with the object's own block cache kept natively (`crate::shard::file`),
//! found again by the handle's resource.
//!
//! An object whose `$this->blocks` or `$this->blocks_words` is not empty is
//! Yioop's PHP's to read: it got there through a declined call or through
//! code of its own. Before a call declines, the native cache of the object
//! is written into those two properties, so that Yioop's PHP goes on from
//! exactly the state its own reads would have left.

use super::super::convert::bytes_zval;
use super::super::zval::{array_zval, long_of, long_zval};
use super::{Shard, Stop};
use crate::shard::{OpenShard, ShardFile};
use ext_php_rs::ffi::{executor_globals, zend_hash_index_find, zend_resource, zend_ulong};
use ext_php_rs::types::{ZendCallable, ZendHashTable, Zval};
use std::cell::RefCell;
use std::collections::HashMap;
use std::os::fd::BorrowedFd;
use std::os::raw::{c_int, c_void};
use std::rc::Rc;

extern "C" {
    fn php_file_le_stream() -> c_int;
    fn php_file_le_pstream() -> c_int;
    fn _php_stream_cast(stream: *mut c_void, castas: c_int, ret: *mut *mut c_void, show_err: c_int) -> c_int;
}

/// php-src's PHP_STREAM_AS_FD, and PHP_STREAM_CAST_INTERNAL: no warning
/// about buffered data (the descriptor is only read with pread).
const PHP_STREAM_AS_FD: c_int = 1;
const PHP_STREAM_CAST_INTERNAL: c_int = 0x2000_0000;
/// php-src's IS_RESOURCE type tag.
const IS_RESOURCE: u8 = 9;

/// One object's native state, by the resource of its `$this->fh`.
struct Entry {
    stream: *mut c_void,
    object: u32,
    state: Rc<RefCell<OpenShard>>,
}

/// Entries by resource handle. Handles are never reused within a request,
/// and the table starts empty with each request; entries of objects gone
/// (their stream closed) are pruned as the table grows.
struct Registry {
    entries: HashMap<i64, Entry>,
    prune_at: usize,
}

const FIRST_PRUNE: usize = 64;

thread_local! {
    static REGISTRY: RefCell<Registry> = RefCell::new(Registry { entries: HashMap::new(), prune_at: FIRST_PRUNE });
}

/// Forgets every object: called at each request's start, when PHP's
/// resource table has started over.
pub fn forget_objects() {
    REGISTRY.with(|r| {
        let mut registry = r.borrow_mut();
        registry.entries.clear();
        registry.prune_at = FIRST_PRUNE;
    });
}

/// Whether the resource `handle` still is the stream `stream`.
fn alive(handle: i64, stream: *mut c_void) -> bool {
    let list = unsafe { std::ptr::addr_of!(executor_globals.regular_list) };
    let found = unsafe { zend_hash_index_find(list, handle as zend_ulong) };
    !found.is_null() && unsafe { (*found).u1.v.type_ == IS_RESOURCE && (*(*found).value.res).ptr == stream }
}

/// An object's open file for one call: the descriptor, `$this->file_len`
/// and the object's state.
pub(super) struct ObjectFile {
    fd: c_int,
    len: i64,
    state: Rc<RefCell<OpenShard>>,
}

impl ObjectFile {
    /// The view the core reads through. The descriptor stays valid for the
    /// call: the object holds its stream.
    pub(super) fn view(&self) -> ShardFile<'_> {
        ShardFile::new(unsafe { BorrowedFd::borrow_raw(self.fd) }, self.len, &self.state)
    }
}

/// A stream resource's stream and descriptor; None for anything else
/// (closed, another resource type, a wrapper without a descriptor).
fn stream_fd(value: &Zval) -> Option<(*mut zend_resource, *mut c_void, c_int)> {
    if unsafe { value.u1.v.type_ } != IS_RESOURCE {
        return None;
    }
    let resource = unsafe { value.value.res };
    let kind = unsafe { (*resource).type_ };
    if kind != unsafe { php_file_le_stream() } && kind != unsafe { php_file_le_pstream() } {
        return None;
    }
    let stream = unsafe { (*resource).ptr };
    let mut fd: c_int = -1;
    let cast = unsafe { _php_stream_cast(stream, PHP_STREAM_AS_FD | PHP_STREAM_CAST_INTERNAL, std::ptr::from_mut(&mut fd).cast(), 0) };
    (cast == 0 && fd >= 0).then_some((resource, stream, fd))
}

/// Calls one of PHP's own functions; Decline if it throws.
fn php_call(name: &str, args: Vec<&dyn ext_php_rs::convert::IntoZvalDyn>) -> Result<Zval, Stop> {
    ZendCallable::try_from_name(name).and_then(|f| f.try_call(args)).map_err(|_| Stop::Decline)
}

impl Shard<'_> {
    /// Whether the object's own PHP caches are empty arrays, as IndexShard's
    /// constructor leaves them: only then is it read natively.
    fn php_caches_empty(&self) -> bool {
        ["blocks", "blocks_words"].iter().all(|name| self.property(name).and_then(Zval::array).is_some_and(|a| a.is_empty()))
    }

    /// The object's file as `readBlockShardAtOffset` reaches it: opened now
    /// if `$this->fh` is null (Ok(None) where Yioop's read gives false).
    /// Declines for an object Yioop's PHP reads itself, a `$this->fh` that
    /// is no stream with a descriptor, and a `file_len` that is no int.
    pub(super) fn open_file(&mut self) -> Result<Option<ObjectFile>, Stop> {
        if !self.php_caches_empty() {
            return Err(Stop::Decline);
        }
        let fh = self.property("fh").map_or_else(Zval::new, Zval::shallow_clone);
        let fh = if fh.is_null() {
            match self.first_open()? {
                Some(fh) => fh,
                None => return Ok(None),
            }
        } else {
            fh
        };
        let (resource, stream, fd) = stream_fd(&fh).ok_or(Stop::Decline)?;
        let len = self.property("file_len").and_then(long_of).ok_or(Stop::Decline)?;
        let handle = unsafe { (*resource).handle };
        let object = self.handle();
        let state = REGISTRY.with(|r| -> Result<_, Stop> {
            let mut registry = r.borrow_mut();
            if let Some(entry) = registry.entries.get(&handle) {
                // Two objects on one handle each have their own cache in
                // Yioop; only the first is read natively.
                return if entry.stream == stream && entry.object == object { Ok(entry.state.clone()) } else { Err(Stop::Decline) };
            }
            let open = OpenShard::open(unsafe { BorrowedFd::borrow_raw(fd) }).ok_or(Stop::Decline)?;
            let state = Rc::new(RefCell::new(open));
            if registry.entries.len() >= registry.prune_at {
                registry.entries.retain(|&h, e| alive(h, e.stream));
                registry.prune_at = (2 * registry.entries.len()).max(FIRST_PRUNE);
            }
            registry.entries.insert(handle, Entry { stream, object, state: state.clone() });
            Ok(state)
        })?;
        Ok(Some(ObjectFile { fd, len, state }))
    }

    /// `if ($this->fh === null)` in `readBlockShardAtOffset`: the file
    /// checked, opened and measured with PHP's own functions, `$this->fh`
    /// and `$this->file_len` set as Yioop sets them. None where Yioop
    /// returns false.
    fn first_open(&mut self) -> Result<Option<Zval>, Stop> {
        let filename = self.property("filename").filter(|f| f.is_string()).ok_or(Stop::Decline)?.shallow_clone();
        if !php_call("file_exists", vec![&filename])?.coerce_to_bool() {
            return Ok(None);
        }
        let fh = php_call("fopen", vec![&filename, &"rb"])?;
        self.set_property("fh", fh.shallow_clone());
        if fh.bool() == Some(false) {
            return Ok(None);
        }
        let size = php_call("filesize", vec![&filename])?;
        self.set_property("file_len", size);
        Ok(Some(fh))
    }

    /// Before a call declines: the object's native block cache written into
    /// `$this->blocks` and `$this->blocks_words` (where they are still
    /// empty), and the native state dropped, so that Yioop's PHP takes the
    /// object over where its own reads would have left it.
    pub(super) fn hand_over(&mut self) {
        let Some(fh) = self.property("fh") else { return };
        let Some((resource, stream, _)) = stream_fd(fh) else { return };
        let handle = unsafe { (*resource).handle };
        let object = self.handle();
        let entry = REGISTRY.with(|r| {
            let mut registry = r.borrow_mut();
            let ours = registry.entries.get(&handle).is_some_and(|e| e.stream == stream && e.object == object);
            if ours { registry.entries.remove(&handle) } else { None }
        });
        let Some(entry) = entry else { return };
        let state = entry.state.borrow();
        if state.cached_blocks().is_empty() || !self.php_caches_empty() {
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
