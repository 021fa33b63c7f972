//! The records this thread's `addObjects` wrote to one archive file, each
//! with the text it was compressed from. The queue server reads a
//! generation's summaries back when it builds the generation's shard
//! (`buildInvertedIndexShard`'s `nextObjects`); a record read back with
//! the very bytes written here inflates to that text, so the text is
//! handed back instead of inflated.
//!
//! A record is found by the offset it was written at and used only if the
//! bytes read there are the bytes written: a file changed, truncated, or
//! another archive read at the same offset gives bytes that differ, and is
//! inflated as before. Each record is handed back once and then dropped;
//! writing another file drops them all (a new generation's partition), as
//! does a request's start. At most a budget of bytes is kept: the records
//! past it are not.

use super::inflate::MAX_INFLATED;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// `yioop.written_cache_size` by default: a generation's summaries at
/// MEMORY_PROFILE 3 (30,000 records of the Debian documentation, about
/// 3.7 KB of text and compressed record each), not all of one at 4.
pub const DEFAULT_KEPT_BYTES: usize = 128 << 20;

/// One record as written: where its header starts, the gzip member stored
/// after the header, and the text the member inflates to.
pub struct Written {
    pub offset: i64,
    pub member: Vec<u8>,
    pub text: Rc<[u8]>,
}

/// A file as the system names it: device and inode.
pub type FileId = (u64, u64);

#[derive(Default)]
struct Kept {
    file: Option<FileId>,
    records: HashMap<i64, Written>,
    bytes: usize,
}

thread_local! {
    static KEPT: RefCell<Kept> = RefCell::new(Kept::default());
}

fn size(record: &Written) -> usize {
    record.member.len() + record.text.len()
}

/// Keeps `records`, just written to `file`, with those kept for it before,
/// while all of them together hold at most `budget` bytes. Writing another
/// file than the last drops what was kept for that one.
pub fn remember(file: FileId, records: Vec<Written>, budget: usize) {
    KEPT.with_borrow_mut(|kept| {
        if kept.file != Some(file) {
            *kept = Kept { file: Some(file), ..Kept::default() };
        }
        for record in records {
            // Inflate leaves larger texts to Yioop; so does reading them back.
            if record.text.len() > MAX_INFLATED || kept.bytes + size(&record) > budget {
                continue;
            }
            kept.bytes += size(&record);
            if let Some(old) = kept.records.insert(record.offset, record) {
                kept.bytes -= size(&old); // written over: ftruncate, then the same offset again
            }
        }
    });
}

/// The text of the record written at `offset`, if `record` (its bytes as
/// read now, header excluded) is what was written; dropped once handed
/// back.
pub fn take(offset: i64, record: &[u8]) -> Option<Rc<[u8]>> {
    KEPT.with_borrow_mut(|kept| {
        if kept.records.get(&offset)?.member != record {
            return None;
        }
        let written = kept.records.remove(&offset)?;
        kept.bytes -= size(&written);
        Some(written.text)
    })
}

/// The bytes kept now.
pub fn kept_bytes() -> usize {
    KEPT.with_borrow(|kept| kept.bytes)
}

/// Drops every record kept.
pub fn forget() {
    KEPT.with_borrow_mut(|kept| *kept = Kept::default());
}

/// `parts` one after another, in one buffer that can be shared.
pub fn concat(parts: &[&[u8]]) -> Rc<[u8]> {
    let mut text = Rc::<[u8]>::new_uninit_slice(parts.iter().map(|p| p.len()).sum());
    let mut at = 0;
    for part in parts {
        let out = &mut Rc::get_mut(&mut text).expect("just made")[at..at + part.len()];
        out.write_copy_of_slice(part);
        at += part.len();
    }
    // Every byte written above.
    unsafe { text.assume_init() }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: FileId = (1, 10);
    const OTHER: FileId = (1, 11);
    const PLENTY: usize = 1 << 20;

    fn written(offset: i64, member: &[u8], text: &[u8]) -> Written {
        Written { offset, member: member.to_vec(), text: Rc::from(text) }
    }

    #[test]
    fn hands_back_a_record_read_as_written_once() {
        forget();
        remember(FILE, vec![written(100, b"member a", b"text a")], PLENTY);
        remember(FILE, vec![written(128, b"member b", b"text b")], PLENTY);
        assert_eq!(take(128, b"member b").as_deref(), Some(&b"text b"[..]));
        assert_eq!(take(128, b"member b"), None, "handed back once");
        assert_eq!(take(100, b"member a").as_deref(), Some(&b"text a"[..]), "an earlier write to the file");
        assert_eq!(kept_bytes(), 0);
    }

    #[test]
    fn other_bytes_or_offsets_are_not_its_record() {
        forget();
        remember(FILE, vec![written(100, b"member a", b"text a")], PLENTY);
        assert_eq!(take(100, b"member A"), None, "changed bytes");
        assert_eq!(take(100, b"member a "), None, "longer");
        assert_eq!(take(101, b"member a"), None, "another offset");
        assert_eq!(take(100, b"member a").as_deref(), Some(&b"text a"[..]), "still kept after a miss");
    }

    #[test]
    fn writing_another_file_or_forgetting_drops_them() {
        forget();
        remember(FILE, vec![written(100, b"member a", b"text a")], PLENTY);
        remember(OTHER, vec![written(200, b"member b", b"text b")], PLENTY);
        assert_eq!(take(100, b"member a"), None);
        assert_eq!(take(200, b"member b").as_deref(), Some(&b"text b"[..]));
        remember(OTHER, vec![written(300, b"member c", b"text c")], PLENTY);
        forget();
        assert_eq!(take(300, b"member c"), None, "forgotten");
    }

    #[test]
    fn written_over_at_an_offset_keeps_the_new_record() {
        forget();
        remember(FILE, vec![written(100, b"member a", b"text a")], PLENTY);
        remember(FILE, vec![written(100, b"member z", b"text z")], PLENTY);
        assert_eq!(kept_bytes(), 14);
        assert_eq!(take(100, b"member a"), None);
        assert_eq!(take(100, b"member z").as_deref(), Some(&b"text z"[..]));
    }

    #[test]
    fn keeps_no_more_than_the_budget() {
        forget();
        let records = vec![written(0, b"mmmm", b"tttt"), written(8, b"mmmm", b"tttt"), written(16, b"m", b"t")];
        remember(FILE, records, 10);
        assert_eq!(kept_bytes(), 10, "the first and the small third fit");
        assert_eq!(take(8, b"mmmm"), None, "past the budget");
        assert!(take(0, b"mmmm").is_some() && take(16, b"m").is_some());
        remember(FILE, vec![written(24, b"m", b"t")], 0);
        assert_eq!(take(24, b"m"), None, "a budget of 0 keeps nothing");
    }

    #[test]
    fn concat_joins_its_parts() {
        assert_eq!(&*concat(&[b"a:1:{s:2:\"AT\";i:", b"4096", b";}"]), b"a:1:{s:2:\"AT\";i:4096;}");
        assert_eq!(&*concat(&[]), b"");
    }
}
