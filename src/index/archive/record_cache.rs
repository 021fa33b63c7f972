//! Inflated summary records kept across requests, per process.
//!
//! A search page reads the summaries of about 200 documents one record at
//! a time (`WebArchiveBundle::getPage`), and the same documents come back
//! for query after query: at 100,000 pages, inflating them was a fifth of
//! a switched worker's CPU. Here a record read once is inflated once.
//!
//! An entry is found by the record's offset and gzip trailer, and used only
//! where the record read now is byte for byte the one that was inflated: the
//! answer is the inflation of the bytes on disk now, whatever happened to
//! the file in between. The bytes are read from the file on every call
//! regardless; only the inflating is saved.
//!
//! Two halves bound the memory: entries go into the newer half; when it
//! holds half the limit, it becomes the older half and the older one is
//! dropped. A hit in the older half moves the entry to the newer, so what
//! searches keep reading stays (an LRU at the cost of two maps).

use super::{inflate, Decline};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// Bytes of records (compressed and inflated) a process keeps by default
/// (`yioop.summary_cache_size`).
pub const DEFAULT_CACHE_BYTES: usize = 16 << 20;

/// What a map entry costs beyond its bytes.
const ENTRY_OVERHEAD: usize = 64;

/// What this cache did in this process so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Records whose inflated bytes were kept.
    pub hits: u64,
    /// Records inflated.
    pub misses: u64,
    /// Times the newer half filled and the older half was dropped.
    pub turnovers: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    offset: i64,
    /// The gzip trailer: CRC-32 and size of the inflated bytes.
    trailer: u64,
    /// Which text of the record: 0 its inflated bytes, another what a
    /// caller keeps of them (`kept`).
    variant: u64,
}

struct Entry {
    record: Box<[u8]>,
    inflated: Rc<[u8]>,
}

impl Entry {
    fn cost(&self) -> usize {
        self.record.len() + self.inflated.len() + ENTRY_OVERHEAD
    }
}

#[derive(Default)]
struct Halves {
    newer: FxHashMap<Key, Entry>,
    older: FxHashMap<Key, Entry>,
    newer_bytes: usize,
    older_bytes: usize,
    limit: usize,
    stats: CacheStats,
}

thread_local! {
    static CACHE: RefCell<Halves> = RefCell::new(Halves { limit: DEFAULT_CACHE_BYTES, ..Halves::default() });
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
    let Some(key) = key(offset, record, variant) else {
        return make(record); // too short to be a member: it declines
    };
    CACHE.with_borrow_mut(|cache| {
        if let Some(inflated) = cache.find(key, record) {
            cache.stats.hits += 1;
            return Ok(inflated);
        }
        cache.stats.misses += 1;
        let made = make(record)?;
        cache.keep(key, Entry { record: record.into(), inflated: made.clone() });
        Ok(made)
    })
}

fn key(offset: i64, record: &[u8], variant: u64) -> Option<Key> {
    let trailer = record.len().checked_sub(8).map(|at| &record[at..])?;
    Some(Key { offset, trailer: u64::from_le_bytes(trailer.try_into().ok()?), variant })
}

impl Halves {
    fn find(&mut self, key: Key, record: &[u8]) -> Option<Rc<[u8]>> {
        if let Some(entry) = self.newer.get(&key).filter(|e| *e.record == *record) {
            return Some(entry.inflated.clone());
        }
        let entry = self.older.remove(&key)?;
        self.older_bytes -= entry.cost();
        if *entry.record != *record {
            return None;
        }
        let inflated = entry.inflated.clone();
        self.keep(key, entry);
        Some(inflated)
    }

    fn keep(&mut self, key: Key, entry: Entry) {
        let half = self.limit / 2;
        if entry.cost() > half {
            return;
        }
        if self.newer_bytes + entry.cost() > half {
            self.older = std::mem::take(&mut self.newer);
            self.older_bytes = std::mem::take(&mut self.newer_bytes);
            self.stats.turnovers += 1;
        }
        self.newer_bytes += entry.cost();
        if let Some(replaced) = self.newer.insert(key, entry) {
            self.newer_bytes -= replaced.cost();
        }
    }

    fn clear(&mut self) {
        self.newer.clear();
        self.older.clear();
        self.newer_bytes = 0;
        self.older_bytes = 0;
    }
}

/// This process's counts since it started.
pub fn cache_stats() -> CacheStats {
    CACHE.with_borrow(|c| c.stats)
}

/// Bytes held now, and the limit.
pub fn cache_size() -> (usize, usize) {
    CACHE.with_borrow(|c| (c.newer_bytes + c.older_bytes, c.limit))
}

/// Records held now.
pub fn cache_entries() -> usize {
    CACHE.with_borrow(|c| c.newer.len() + c.older.len())
}

/// Sets the limit (`yioop.summary_cache_size`); a smaller one than what is
/// held drops everything held.
pub fn set_cache_limit(bytes: usize) {
    CACHE.with_borrow_mut(|c| {
        if bytes < c.newer_bytes + c.older_bytes {
            c.clear();
        }
        c.limit = bytes;
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::archive::inflate::tests::gzencode;

    fn text(n: usize, seed: u8) -> Vec<u8> {
        (0..n).map(|i| b'a' + ((i * 7 + seed as usize) % 26) as u8).collect()
    }

    fn fresh(limit: usize) {
        set_cache_limit(0);
        CACHE.with_borrow_mut(|c| c.stats = CacheStats::default());
        set_cache_limit(limit);
    }

    #[test]
    fn a_record_read_again_is_not_inflated_again() {
        fresh(1 << 20);
        let record = gzencode(&text(3000, 1));
        let first = inflated(100, &record).unwrap();
        let second = inflated(100, &record).unwrap();
        assert_eq!(&*first, &text(3000, 1)[..]);
        assert!(Rc::ptr_eq(&first, &second));
        assert_eq!(cache_stats(), CacheStats { hits: 1, misses: 1, turnovers: 0 });
        assert_eq!(cache_entries(), 1);
    }

    #[test]
    fn other_bytes_at_the_same_offset_are_inflated_as_they_are() {
        fresh(1 << 20);
        let before = gzencode(&text(3000, 1));
        let mut damaged = before.clone();
        damaged[40] ^= 0xff; // same trailer, other stream: fails its CRC
        let other = gzencode(&text(3000, 2));
        inflated(100, &before).unwrap();
        assert_eq!(inflated(100, &damaged), Err(Decline));
        assert_eq!(&*inflated(100, &other).unwrap(), &text(3000, 2)[..]);
        assert_eq!(&*inflated(100, &before).unwrap(), &text(3000, 1)[..]);
        assert_eq!(cache_stats().hits, 1);
    }

    #[test]
    fn memory_stays_under_the_limit_and_what_is_read_again_stays() {
        let limit = 64 << 10;
        fresh(limit);
        let records: Vec<Vec<u8>> = (0..40).map(|i| gzencode(&text(2000, i))).collect();
        for round in 0..5 {
            for (i, record) in records.iter().enumerate() {
                inflated(i as i64, record).unwrap();
                // Record 0 is read between every other one.
                if round > 0 {
                    inflated(0, &records[0]).unwrap();
                }
                assert!(cache_size().0 <= limit);
            }
        }
        assert!(cache_stats().turnovers > 0);
        let before = cache_stats().misses;
        inflated(0, &records[0]).unwrap();
        assert_eq!(cache_stats().misses, before, "the record read all along is still kept");
    }

    #[test]
    fn a_zero_limit_keeps_nothing() {
        fresh(0);
        let record = gzencode(&text(100, 3));
        inflated(5, &record).unwrap();
        inflated(5, &record).unwrap();
        assert_eq!(cache_stats(), CacheStats { hits: 0, misses: 2, turnovers: 0 });
        assert_eq!(cache_size(), (0, 0));
        assert_eq!(cache_entries(), 0);
    }

    #[test]
    fn a_variant_is_kept_apart_from_the_inflated_text() {
        fresh(1 << 20);
        let record = gzencode(&text(3000, 4));
        let short = |_: &[u8]| -> Result<Rc<[u8]>, Decline> { Ok(Rc::from(&b"kept"[..])) };
        assert_eq!(&*kept(9, &record, 7, short).unwrap(), b"kept");
        assert_eq!(&*inflated(9, &record).unwrap(), &text(3000, 4)[..]);
        let unused = |_: &[u8]| -> Result<Rc<[u8]>, Decline> { unreachable!("kept already") };
        assert_eq!(&*kept(9, &record, 7, unused).unwrap(), b"kept");
        assert_eq!(cache_stats(), CacheStats { hits: 1, misses: 2, turnovers: 0 });
    }
}
