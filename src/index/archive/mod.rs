//! Yioop's web archive read natively: the records `WebArchive::getObjects`
//! reads with a `GzipCompressor`, found, read and inflated as Yioop's PHP
//! would, with nothing of PHP here (the binding unserializes them).
//!
//! A web archive file is a run of records and an info block at its end. A
//! record is a 20-byte header (an empty gzip member whose modification-time
//! field holds the record's length, big-endian) and then the record: a gzip
//! member, of which Yioop inflates the deflate data after its 10-byte header
//! (`gzinflate(substr($str, 10))`), trailer ignored.
//!
//! Only the reads Yioop's PHP completes without a word are answered here:
//! whole headers, lengths inside the sanity bound, whole records whose
//! inflated bytes match the gzip trailer's CRC-32 and size. Anything else
//! (a blank line Yioop logs, a damaged or cut record on which `gzinflate`
//! warns, a read that reaches the end of the file) is [`Decline`]: the
//! caller leaves the call to Yioop's PHP.

pub mod deflate;
pub mod inflate;
pub mod record_cache;
pub mod records_ahead;
pub mod sites_ahead;
pub mod written;
pub mod zlib9;


use std::fs::File;
use std::os::unix::fs::FileExt;

/// `GzipCompressor::compressedIntLen()`: the bytes of a record's header.
pub const HEADER_LEN: u64 = 20;

/// Bytes read at once from a record's start: its header and, for most
/// summaries, all of the record, in one `pread`.
const FIRST_READ: usize = 16 << 10;

pub use crate::php_semantics::Decline;

/// One record read: where the next one starts (the offset Yioop pairs with
/// the object) and its bytes as stored, header excluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub next: i64,
    pub bytes: Vec<u8>,
}

/// What `getObjects($offset, $num)` reads: its records, and the offset it
/// ends at (Yioop's new `iterator_pos`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Records {
    pub records: Vec<Record>,
    pub end: i64,
}

/// The record length a header gives (`uncompressInt`: its bytes 4 to 7).
pub fn record_len(header: &[u8]) -> u32 {
    u32::from_be_bytes([header[4], header[5], header[6], header[7]])
}

/// Reads `num` records from `offset` on, as `getObjects` does with the
/// archive open and `fseek($offset)` succeeded (`offset` ≥ 0): each header,
/// a length `len` with `0 < len < limit` (`$max_size`), and `len` bytes.
/// Declines where Yioop's loop would log a blank line, read short, or stop
/// at the end of the file (a record ending exactly there with more to go:
/// whether PHP's `feof` is set then is the stream's business).
pub fn read_records(file: &File, offset: i64, num: i64, limit: i64) -> Result<Records, Decline> {
    let mut window = Window::new(file);
    let mut at = offset;
    let mut records = Vec::new();
    for i in 0..num.max(0) {
        let (bytes, next) = read_record(&mut window, at, limit)?;
        if i + 1 < num && window.at_end(next)? {
            return Err(Decline);
        }
        records.push(Record { next, bytes });
        at = next;
    }
    Ok(Records { records, end: at })
}

/// The record at `at`, and where the next starts.
fn read_record(window: &mut Window<'_>, at: i64, limit: i64) -> Result<(Vec<u8>, i64), Decline> {
    let start = u64::try_from(at).map_err(|_| Decline)?;
    let header = window.bytes(start, HEADER_LEN as usize).ok_or(Decline)?;
    let len = record_len(header);
    if len == 0 || i64::from(len) >= limit {
        return Err(Decline); // Yioop's "blank line"
    }
    let bytes = window.bytes(start + HEADER_LEN, len as usize).ok_or(Decline)?.to_vec();
    let next = at.checked_add(HEADER_LEN as i64 + i64::from(len)).ok_or(Decline)?;
    Ok((bytes, next))
}

/// Bytes read ahead once a call reads more than one record: a run of
/// summaries (`nextObjects` takes up to 8,000 at a time) in a few large
/// `pread`s instead of two per record.
const RUN_READ: usize = 512 << 10;

/// A part of the file read once and served from memory, as PHP's stream
/// serves `fread`s from its buffer: the first read is [`FIRST_READ`]
/// bytes (one record, for most summaries), later ones [`RUN_READ`].
struct Window<'a> {
    file: &'a File,
    /// The thread's buffer, lent for the call; `held` bytes of it are the
    /// file's from `start` on.
    buffer: Vec<u8>,
    start: u64,
    held: usize,
    reads: usize,
}

thread_local! {
    /// The windows' buffer, kept between calls: zeroing 16 KiB for every
    /// record of a few hundred bytes cost more than inflating it.
    static BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

impl<'a> Window<'a> {
    fn new(file: &'a File) -> Window<'a> {
        Window { file, buffer: BUFFER.take(), start: 0, held: 0, reads: 0 }
    }

    /// The `n` bytes at `at`, or None where the file ends before them.
    fn bytes(&mut self, at: u64, n: usize) -> Option<&[u8]> {
        let inside = at >= self.start && at + n as u64 <= self.start + self.held as u64;
        if !inside {
            self.fill(at, n);
        }
        let from = (at - self.start) as usize;
        (self.held >= from + n).then(|| &self.buffer[from..from + n])
    }

    /// Whether `at` is the end of the file (or past it).
    fn at_end(&mut self, at: i64) -> Result<bool, Decline> {
        let at = u64::try_from(at).map_err(|_| Decline)?;
        Ok(self.bytes(at, 1).is_none())
    }

    /// Reads from `at` at least `n` bytes, as far as the file goes.
    fn fill(&mut self, at: u64, n: usize) {
        let size = n.max(if self.reads == 0 { FIRST_READ } else { RUN_READ });
        if self.buffer.len() < size {
            self.buffer.resize(size, 0);
        }
        self.reads += 1;
        self.held = read_full(self.file, &mut self.buffer[..size], at);
        self.start = at;
    }
}

impl Drop for Window<'_> {
    /// Gives the buffer back for the next call, unless a large record
    /// grew it: a worker keeps at most [`RUN_READ`] bytes between calls.
    fn drop(&mut self) {
        if self.buffer.len() <= RUN_READ {
            BUFFER.set(std::mem::take(&mut self.buffer));
        }
    }
}

/// Fills `buf` from `at` as far as the file goes; the bytes read.
fn read_full(file: &File, buf: &mut [u8], at: u64) -> usize {
    let mut done = 0;
    while done < buf.len() {
        match file.read_at(&mut buf[done..], at + done as u64) {
            Ok(0) | Err(_) => break,
            Ok(n) => done += n,
        }
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn header(len: u32) -> Vec<u8> {
        let mut h = vec![0x1f, 0x8b, 8, 0];
        h.extend_from_slice(&len.to_be_bytes());
        h.extend_from_slice(&[0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        h
    }

    fn archive(bodies: &[&[u8]], tail: &[u8]) -> (tempfile_path::TempPath, File) {
        let mut bytes = Vec::new();
        for body in bodies {
            bytes.extend(header(body.len() as u32));
            bytes.extend_from_slice(body);
        }
        bytes.extend_from_slice(tail);
        let path = tempfile_path::TempPath::new();
        std::fs::File::create(&path.0).unwrap().write_all(&bytes).unwrap();
        let file = File::open(&path.0).unwrap();
        (path, file)
    }

    mod tempfile_path {
        pub struct TempPath(pub std::path::PathBuf);
        impl TempPath {
            pub fn new() -> TempPath {
                use std::sync::atomic::{AtomicUsize, Ordering};
                static N: AtomicUsize = AtomicUsize::new(0);
                let n = N.fetch_add(1, Ordering::Relaxed);
                TempPath(std::env::temp_dir().join(format!("yioop-archive-test-{}-{n}", std::process::id())))
            }
        }
        impl Drop for TempPath {
            fn drop(&mut self) {
                let _ = std::fs::remove_file(&self.0);
            }
        }
    }

    #[test]
    fn records_follow_each_other_and_end_where_yioop_moves_the_iterator() {
        let big = vec![7u8; 40_000];
        let (_p, file) = archive(&[b"abc", &big, b"z"], &header(99));
        let read = read_records(&file, 0, 3, 100_000_000).unwrap();
        assert_eq!(read.records[0], Record { next: 23, bytes: b"abc".to_vec() });
        assert_eq!(read.records[1].bytes, big);
        assert_eq!(read.records[2].next, 23 + 40_020 + 21);
        assert_eq!(read.end, 23 + 40_020 + 21);
        let none = read_records(&file, 23, 0, 100_000_000).unwrap();
        assert_eq!(none, Records { records: vec![], end: 23 });
    }

    #[test]
    fn a_long_run_is_read_through_the_window_as_record_by_record() {
        // Records of 1 byte to 9 KB, and every 500th up to 680 KB: some
        // straddle a read ahead, one is larger than it.
        let bodies: Vec<Vec<u8>> = (0..3000u32).map(|i| vec![(i % 251) as u8; 1 + (i as usize * 7919) % if i % 500 == 0 { 700_000 } else { 9_000 }]).collect();
        let refs: Vec<&[u8]> = bodies.iter().map(|b| &b[..]).collect();
        let (_p, file) = archive(&refs, &header(99));
        let all = read_records(&file, 0, 3000, 100_000_000).unwrap();
        let mut at = 0;
        for (record, body) in all.records.iter().zip(&bodies) {
            at += 20 + body.len() as i64;
            assert_eq!(record, &Record { next: at, bytes: body.clone() });
        }
        assert_eq!(all.end, at);
        // From the middle, and one record at a time, the same records.
        let second = all.records[1499].next;
        assert_eq!(read_records(&file, second, 1500, 100_000_000).unwrap().records, all.records[1500..]);
        assert_eq!(read_records(&file, second, 1, 100_000_000).unwrap().records[0], all.records[1500]);
        // One more than there are: the info block's header is a record cut short.
        assert_eq!(read_records(&file, 0, 3001, 100_000_000), Err(Decline));
    }

    #[test]
    fn blank_lines_short_reads_and_the_end_decline() {
        let (_p, file) = archive(&[b"abc", b"de"], &[]);
        assert_eq!(read_records(&file, 0, 1, 3), Err(Decline), "len 3 is not below the limit 3");
        assert!(read_records(&file, 0, 1, 4).is_ok());
        assert_eq!(read_records(&file, 1, 1, 100), Err(Decline), "a length of 0 is a blank line");
        assert_eq!(read_records(&file, 0, 3, 100), Err(Decline), "feof after the last record");
        assert_eq!(read_records(&file, 0, 2, 100).unwrap().end, 45, "the last read may end at the end");
        assert_eq!(read_records(&file, 1000, 1, 100), Err(Decline), "past the end");
        let (_q, cut) = archive(&[], &header(50)[..]);
        assert_eq!(read_records(&cut, 0, 1, 100), Err(Decline), "a record cut short");
    }
}
