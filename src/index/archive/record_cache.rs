//! Summary records kept across requests, in memory every worker of a server
//! shares.
//!
//! A search page reads the summaries of about 200 documents one record at
//! a time (`WebArchiveBundle::getPage`), and the same documents come back
//! for query after query: at 100,000 pages, inflating them was a fifth of
//! a switched worker's CPU. Here a record read once is inflated once, by
//! whichever worker reads it first: the cache is mapped at module startup,
//! before php-fpm forks its workers, so they all keep into and read from
//! the same memory ([`crate::index::shared_memory`]). Held apart per
//! worker, four workers kept a quarter of the records each, mostly the
//! same ones.
//!
//! An entry is found by the record's offset and gzip trailer, and used only
//! where the record read now is byte for byte the one that was inflated: the
//! answer is the inflation of the bytes on disk now, whatever happened to
//! the file in between, and whichever file or site the worker read. The
//! bytes are read from the file on every call regardless; only the inflating
//! is saved.
//!
//! Entries are written one after another into a ring; the oldest are
//! overwritten first. A hit on an entry in the older half of the ring writes
//! it again at the front, so what searches keep reading stays (an LRU at the
//! cost of a copy). A bucket of slots per key hash says where an entry is.

use super::{inflate, Decline};
use crate::index::shared_memory::{Held, SharedLock, SharedMemory};
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::sync::{PoisonError, RwLock};

/// Bytes of records (compressed, with what is kept of them) a server's
/// processes keep together by default (`yioop.summary_cache_size`).
pub const DEFAULT_CACHE_BYTES: usize = 64 << 20;

/// Slots a key may take, looked at together.
const BUCKET: usize = 8;
/// Ring bytes per slot: an entry of a search's summary is 10 to 20 KB.
const RING_BYTES_PER_SLOT: usize = 4 << 10;
/// The smallest ring worth mapping.
const MIN_RING: usize = 4 << 10;

/// What the cache did since the module started (every process together).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Records whose kept text was used.
    pub hits: u64,
    /// Records inflated.
    pub misses: u64,
    /// Times the ring went round, overwriting its oldest entries.
    pub turnovers: u64,
}

/// What [`cache_report`] says: the counts, the entries held and their
/// bytes, and the bytes mapped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheReport {
    pub stats: CacheStats,
    pub entries: usize,
    pub held_bytes: usize,
    pub limit_bytes: usize,
}

#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
struct Key {
    offset: i64,
    /// The gzip trailer: CRC-32 and size of the inflated bytes.
    trailer: u64,
    /// Which text of the record: 0 its inflated bytes, another what a
    /// caller keeps of them (`kept`).
    variant: u64,
}

/// Where an entry is: `record_len` bytes of the record as read, then
/// `kept_len` of what was made of it, from ring position `at` on. Zeroed
/// (`record_len` 0): empty.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Slot {
    key: Key,
    at: u64,
    record_len: u32,
    kept_len: u32,
}

impl Slot {
    fn len(&self) -> u64 {
        u64::from(self.record_len) + u64::from(self.kept_len)
    }
}

/// What the lock guards besides the slots and the ring. It follows the
/// lock, on a cache line of its own: other processes touch the lock's
/// bytes while they wait.
#[repr(C)]
struct Header {
    /// Ring position of the next byte written; only grows.
    head: u64,
    stats: CacheStats,
}

const HEADER_AT: usize = align64(SharedLock::SIZE);

/// One cache: the lock, a header, the slots, the ring, in one shared mapping.
pub struct RecordCache {
    memory: SharedMemory,
    lock: SharedLock,
    slots: usize,
    slots_at: usize,
    ring_at: usize,
    ring: u64,
}

const fn align64(n: usize) -> usize {
    (n + 63) & !63
}

impl RecordCache {
    /// A cache of `bytes` in all; None where that leaves no ring worth
    /// having (0 asks for none) or the memory cannot be had.
    pub fn new(bytes: usize) -> Option<RecordCache> {
        let slots = (bytes / RING_BYTES_PER_SLOT / BUCKET).max(1) * BUCKET;
        let slots_at = HEADER_AT + align64(std::mem::size_of::<Header>());
        let ring_at = slots_at + align64(slots * std::mem::size_of::<Slot>());
        let ring = bytes.checked_sub(ring_at).filter(|&ring| ring >= MIN_RING)?;
        let memory = SharedMemory::map(bytes)?;
        let lock = unsafe { SharedLock::init(memory.base().cast()) }?;
        Some(RecordCache { memory, lock, slots, slots_at, ring_at, ring: ring as u64 })
    }

    /// What `make` gives for `record` (read at `offset`), as variant
    /// `variant`: kept from an earlier call that read the same bytes, else
    /// made now and kept.
    pub fn kept(&self, offset: i64, record: &[u8], variant: u64, make: impl FnOnce(&[u8]) -> Result<Rc<[u8]>, Decline>) -> Result<Rc<[u8]>, Decline> {
        let Some(key) = key(offset, record, variant) else {
            return make(record); // too short to be a member: it declines
        };
        if let Some(found) = self.find(key, record) {
            return Ok(found);
        }
        let made = make(record)?;
        if let Some(held) = self.lock() {
            let slot = self.slot_for(key, self.header().head);
            self.append(&held, slot, key, record, &made);
        }
        Ok(made)
    }

    /// The kept text of `key` where its record is `record` (counted as a
    /// hit, else as a miss).
    fn find(&self, key: Key, record: &[u8]) -> Option<Rc<[u8]>> {
        let held = self.lock()?;
        let head = self.header().head;
        for i in self.bucket(key) {
            let slot = self.slot(i);
            if slot.key != key || !self.intact(&slot, head) || self.bytes(slot.at, slot.record_len) != record {
                continue;
            }
            let kept: Rc<[u8]> = Rc::from(self.bytes(slot.at + u64::from(slot.record_len), slot.kept_len));
            self.header().stats.hits += 1;
            if head - slot.at > self.ring / 2 {
                self.append(&held, i, key, record, &kept); // read again: moved to the front
            }
            return Some(kept);
        }
        self.header().stats.misses += 1;
        None
    }

    /// The lock; where its last holder died, every entry is forgotten
    /// first (it may have died mid-write).
    fn lock(&self) -> Option<Held<'_>> {
        let held = self.lock.lock()?;
        if held.recovered {
            for i in 0..self.slots {
                unsafe { self.slot_ptr(i).write(Slot::default()) };
            }
        }
        Some(held)
    }

    /// Writes the entry at the ring's front (from its start where it would
    /// not fit before the end) and points slot `i` at it. An entry over half
    /// the ring is not kept.
    fn append(&self, _held: &Held, i: usize, key: Key, record: &[u8], kept: &[u8]) {
        let len = (record.len() + kept.len()) as u64;
        if len > self.ring / 2 {
            return;
        }
        let header = self.header();
        let mut at = header.head;
        if at % self.ring + len > self.ring {
            at += self.ring - at % self.ring;
        }
        header.stats.turnovers += (at + len) / self.ring - header.head / self.ring;
        unsafe {
            let to = self.memory.base().add(self.ring_at + (at % self.ring) as usize);
            std::ptr::copy_nonoverlapping(record.as_ptr(), to, record.len());
            std::ptr::copy_nonoverlapping(kept.as_ptr(), to.add(record.len()), kept.len());
        }
        header.head = at + len;
        let slot = Slot { key, at, record_len: record.len() as u32, kept_len: kept.len() as u32 };
        unsafe { self.slot_ptr(i).write(slot) };
    }

    /// The slot a new entry for `key` takes: one holding `key` already, an
    /// empty or overwritten one, else the bucket's oldest.
    fn slot_for(&self, key: Key, head: u64) -> usize {
        let mut oldest = (u64::MAX, 0);
        for i in self.bucket(key) {
            let slot = self.slot(i);
            if slot.key == key || !self.intact(&slot, head) {
                return i;
            }
            oldest = oldest.min((slot.at, i));
        }
        oldest.1
    }

    /// Whether the slot's entry is whole: written, and not yet overwritten
    /// by the ring going round (checked in full, as another process wrote it).
    fn intact(&self, slot: &Slot, head: u64) -> bool {
        let len = slot.len();
        slot.record_len > 0 && len <= self.ring / 2 && slot.at.checked_add(len).is_some_and(|end| end <= head)
            && head <= slot.at.saturating_add(self.ring) && slot.at % self.ring + len <= self.ring
    }

    fn bucket(&self, key: Key) -> std::ops::Range<usize> {
        let mut hasher = rustc_hash::FxHasher::default();
        key.hash(&mut hasher);
        let first = (hasher.finish() as usize % (self.slots / BUCKET)) * BUCKET;
        first..first + BUCKET
    }

    #[allow(clippy::mut_from_ref)] // only ever under the lock
    fn header(&self) -> &mut Header {
        unsafe { &mut *self.memory.base().add(HEADER_AT).cast::<Header>() }
    }

    fn slot_ptr(&self, i: usize) -> *mut Slot {
        debug_assert!(i < self.slots);
        unsafe { self.memory.base().add(self.slots_at).cast::<Slot>().add(i) }
    }

    fn slot(&self, i: usize) -> Slot {
        unsafe { self.slot_ptr(i).read() }
    }

    /// `len` ring bytes from position `at` (an intact entry's).
    fn bytes(&self, at: u64, len: u32) -> &[u8] {
        unsafe { std::slice::from_raw_parts(self.memory.base().add(self.ring_at + (at % self.ring) as usize), len as usize) }
    }

    /// What the cache did and holds, read under one lock.
    pub fn report(&self) -> CacheReport {
        let Some(_held) = self.lock() else { return CacheReport::default() };
        let header = self.header();
        let intact = (0..self.slots).map(|i| self.slot(i)).filter(|slot| self.intact(slot, header.head));
        let (entries, held_bytes) = intact.fold((0, 0), |(n, bytes), slot| (n + 1, bytes + slot.len() as usize));
        CacheReport { stats: header.stats, entries, held_bytes, limit_bytes: self.memory.size() }
    }
}

fn key(offset: i64, record: &[u8], variant: u64) -> Option<Key> {
    let trailer = record.len().checked_sub(8).map(|at| &record[at..])?;
    Some(Key { offset, trailer: u64::from_le_bytes(trailer.try_into().ok()?), variant })
}

/// The module's cache: None before [`start`] (then started with the
/// default on first use); Some(None) where it keeps nothing.
static CACHE: RwLock<Option<Option<RecordCache>>> = RwLock::new(None);

/// Module startup: maps `bytes` for this process and every process it
/// forks from now on (0: keeps nothing).
pub fn start(bytes: usize) {
    *CACHE.write().unwrap_or_else(PoisonError::into_inner) = Some(RecordCache::new(bytes));
}

/// Module shutdown: unmapped.
pub fn stop() {
    *CACHE.write().unwrap_or_else(PoisonError::into_inner) = None;
}

/// `use_it` with the module's cache (None where it keeps nothing), started
/// with the default if the module has not started it.
fn with_cache<R>(use_it: impl FnOnce(Option<&RecordCache>) -> R) -> R {
    if let Some(cache) = CACHE.read().unwrap_or_else(PoisonError::into_inner).as_ref() {
        return use_it(cache.as_ref());
    }
    CACHE.write().unwrap_or_else(PoisonError::into_inner).get_or_insert_with(|| RecordCache::new(DEFAULT_CACHE_BYTES));
    with_cache(use_it)
}

/// `record` (read at `offset`) inflated: kept from an earlier call where
/// that call read the same bytes, else inflated now and kept.
pub fn inflated(offset: i64, record: &[u8]) -> Result<Rc<[u8]>, Decline> {
    kept(offset, record, 0, inflate::inflate)
}

/// What `make` gives for `record` (read at `offset`), kept as variant
/// `variant` (not 0): from an earlier call that read the same bytes, else
/// made now and kept. A caller keeps less than the inflated text this way
/// (what it reads of the record), and so more records.
pub fn kept(offset: i64, record: &[u8], variant: u64, make: impl FnOnce(&[u8]) -> Result<Rc<[u8]>, Decline>) -> Result<Rc<[u8]>, Decline> {
    with_cache(|cache| match cache {
        Some(cache) => cache.kept(offset, record, variant, make),
        None => make(record),
    })
}

/// What the cache did since the module started (every process together),
/// what it holds now and its size.
pub fn cache_report() -> CacheReport {
    with_cache(|cache| cache.map_or_else(CacheReport::default, RecordCache::report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::archive::inflate::tests::gzencode;

    fn text(n: usize, seed: u8) -> Vec<u8> {
        (0..n).map(|i| b'a' + ((i * 7 + seed as usize) % 26) as u8).collect()
    }

    fn inflated(cache: &RecordCache, offset: i64, record: &[u8]) -> Result<Rc<[u8]>, Decline> {
        cache.kept(offset, record, 0, inflate::inflate)
    }

    #[test]
    fn a_record_read_again_is_not_inflated_again() {
        let cache = RecordCache::new(1 << 20).unwrap();
        let record = gzencode(&text(3000, 1));
        let first = inflated(&cache, 100, &record).unwrap();
        let unused = |_: &[u8]| -> Result<Rc<[u8]>, Decline> { unreachable!("kept already") };
        let second = cache.kept(100, &record, 0, unused).unwrap();
        assert_eq!(&*first, &text(3000, 1)[..]);
        assert_eq!(first, second);
        assert_eq!(cache.report().stats, CacheStats { hits: 1, misses: 1, turnovers: 0 });
        let report = cache.report();
        assert_eq!((report.entries, report.held_bytes), (1, record.len() + 3000));
    }

    #[test]
    fn other_bytes_at_the_same_offset_are_inflated_as_they_are() {
        let cache = RecordCache::new(1 << 20).unwrap();
        let before = gzencode(&text(3000, 1));
        let mut damaged = before.clone();
        damaged[40] ^= 0xff; // same trailer, other stream: fails its CRC
        let other = gzencode(&text(3000, 2));
        inflated(&cache, 100, &before).unwrap();
        assert_eq!(inflated(&cache, 100, &damaged), Err(Decline));
        assert_eq!(&*inflated(&cache, 100, &other).unwrap(), &text(3000, 2)[..]);
        assert_eq!(&*inflated(&cache, 100, &before).unwrap(), &text(3000, 1)[..]);
        assert_eq!(cache.report().stats.hits, 1);
    }

    #[test]
    fn memory_stays_under_the_limit_and_what_is_read_again_stays() {
        let cache = RecordCache::new(256 << 10).unwrap();
        let records: Vec<Vec<u8>> = (0..80).map(|i| gzencode(&text(4000, i))).collect();
        for round in 0..5 {
            for (i, record) in records.iter().enumerate() {
                assert_eq!(&*inflated(&cache, i as i64, record).unwrap(), &text(4000, i as u8)[..]);
                // Record 0 is read between every other one.
                if round > 0 {
                    inflated(&cache, 0, &records[0]).unwrap();
                }
                assert!(cache.report().held_bytes <= cache.ring as usize);
            }
        }
        assert!(cache.report().stats.turnovers > 0);
        let before = cache.report().stats.misses;
        inflated(&cache, 0, &records[0]).unwrap();
        assert_eq!(cache.report().stats.misses, before, "the record read all along is still kept");
    }

    #[test]
    fn the_module_cache_starts_with_the_default_on_first_use() {
        // Nothing in the unit tests starts the module's cache.
        let record = gzencode(&text(500, 9));
        assert_eq!(&*super::inflated(11, &record).unwrap(), &text(500, 9)[..]);
        let report = cache_report();
        assert_eq!(report.limit_bytes, DEFAULT_CACHE_BYTES);
        assert_eq!((report.stats.misses, report.entries), (1, 1));
    }

    #[test]
    fn no_cache_for_zero_or_too_few_bytes() {
        assert!(RecordCache::new(0).is_none());
        assert!(RecordCache::new(1024).is_none());
    }

    #[test]
    fn a_variant_is_kept_apart_from_the_inflated_text() {
        let cache = RecordCache::new(1 << 20).unwrap();
        let record = gzencode(&text(3000, 4));
        let short = |_: &[u8]| -> Result<Rc<[u8]>, Decline> { Ok(Rc::from(&b"kept"[..])) };
        assert_eq!(&*cache.kept(9, &record, 7, short).unwrap(), b"kept");
        assert_eq!(&*inflated(&cache, 9, &record).unwrap(), &text(3000, 4)[..]);
        let unused = |_: &[u8]| -> Result<Rc<[u8]>, Decline> { unreachable!("kept already") };
        assert_eq!(&*cache.kept(9, &record, 7, unused).unwrap(), b"kept");
        assert_eq!(cache.report().stats, CacheStats { hits: 1, misses: 2, turnovers: 0 });
    }

    #[test]
    fn an_entry_kept_by_a_forked_process_is_found_by_its_parent() {
        let cache = RecordCache::new(1 << 20).unwrap();
        let record = gzencode(&text(3000, 5));
        let child = unsafe { libc::fork() };
        if child == 0 {
            let kept = inflated(&cache, 7, &record).is_ok();
            unsafe { libc::_exit(i32::from(!kept)) };
        }
        let mut status = 0;
        unsafe { libc::waitpid(child, &mut status, 0) };
        assert_eq!(status, 0);
        let unused = |_: &[u8]| -> Result<Rc<[u8]>, Decline> { unreachable!("the child kept it") };
        assert_eq!(&*cache.kept(7, &record, 0, unused).unwrap(), &text(3000, 5)[..]);
        assert_eq!(cache.report().stats, CacheStats { hits: 1, misses: 1, turnovers: 0 });
    }

    #[test]
    fn slots_pointing_outside_the_ring_are_never_read() {
        let cache = RecordCache::new(1 << 20).unwrap();
        let record = gzencode(&text(3000, 6));
        inflated(&cache, 3, &record).unwrap();
        let bucket = cache.bucket(key(3, &record, 0).unwrap());
        for i in bucket {
            let mut slot = cache.slot(i);
            slot.at = u64::MAX - 10; // as a process dying mid-write could leave one
            slot.kept_len = u32::MAX;
            unsafe { cache.slot_ptr(i).write(slot) };
        }
        assert_eq!(&*inflated(&cache, 3, &record).unwrap(), &text(3000, 6)[..]);
        assert_eq!(cache.report().stats.hits, 0);
    }
}
