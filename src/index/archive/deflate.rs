//! `GzipCompressor::compress` on records: `gzencode($text, 9)`, made by the
//! zlib PHP itself runs (the system's libz.so.1, through libz-sys linked
//! dynamically) with the arguments php-src's `php_zlib_encode` gives it:
//! `deflateInit2(level 9, Z_DEFLATED, 31 (gzip wrapper), MAX_MEM_LEVEL,
//! Z_DEFAULT_STRATEGY)` and one `deflate(Z_FINISH)`. Another deflate
//! (zlib-rs, miniz, libdeflate, a bundled zlib of another version) may
//! choose other matches or blocks: the bytes would differ.
//!
//! `WebArchive::addObjects` writes each record's own offset into it before
//! serializing it, and that offset depends on the compressed length of
//! every record before: the records form a chain. A record whose offset
//! field comes last in its text is `prefix + digits + suffix`; the prefix
//! (nearly all of it) is compressed on several threads, the stream left open
//! (`Z_NO_FLUSH`), and the short tail is fed in order once the offset is
//! known ([`compress_chain`]). zlib's output does not depend on how its
//! input is split between calls without a flush (deflate holds back its
//! last MIN_LOOKAHEAD bytes until more input or the finish), so each
//! record is the bytes one `gzencode` of its whole text gives; the tests
//! check this against PHP's gzencode.
//!
//! zlib writes the deflate stream raw (window bits -15), and the gzip header
//! and trailer around it are the ones its gzip wrapper writes: the header
//! as zlib makes it (taken once from an empty member), the CRC-32 by
//! libdeflate (zlib's own CRC was a tenth of the deflate's time on
//! summaries) and the length. The wrapper adds only those bytes; the
//! stream between them is the same.
//!
//! Nothing here touches PHP: the threads see only bytes.

use libz_sys::{deflate, deflateEnd, deflateInit2_, deflateReset, uInt, voidpf, z_stream, zlibVersion, Z_DEFAULT_STRATEGY, Z_DEFLATED, Z_FINISH, Z_NO_FLUSH, Z_OK, Z_STREAM_END};
use super::zlib9;
use libdeflate_sys::libdeflate_crc32;
use std::ffi::c_int;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};

/// `gzencode`'s level in `GzipCompressor::compress`.
const LEVEL: c_int = 9;
/// PHP_ZLIB_ENCODING_GZIP: deflate with zlib's gzip wrapper.
const GZIP_WINDOW_BITS: c_int = 31;
/// The same window, the stream raw: the wrapper's bytes are written here.
const RAW_WINDOW_BITS: c_int = -15;
/// A gzip member's header (no name, comment or extra field) and trailer.
const GZIP_HEADER: usize = 10;
const GZIP_TRAILER: usize = 8;
/// zconf.h's MAX_MEM_LEVEL, which php_zlib_encode passes.
const MAX_MEM_LEVEL: c_int = 9;

/// `GzipCompressor::compressedIntLen()`: a record's header.
pub const INT_LEN: i64 = 20;

/// `GzipCompressor::compressInt($len)`: an empty gzip member whose
/// modification time holds `len`, big-endian (`packInt`).
pub fn compress_int(len: u32) -> [u8; 20] {
    let mut out = [0u8; 20];
    out[..4].copy_from_slice(&[0x1f, 0x8b, 8, 0]);
    out[4..8].copy_from_slice(&len.to_be_bytes());
    out[8..11].copy_from_slice(&[0, 3, 3]);
    out
}

extern "C" {
    fn calloc(count: usize, size: usize) -> *mut std::ffi::c_void;
    fn free(pointer: *mut std::ffi::c_void);
}

unsafe extern "C" fn z_alloc(_: voidpf, items: uInt, size: uInt) -> voidpf {
    calloc(items as usize, size as usize)
}

unsafe extern "C" fn z_free(_: voidpf, pointer: voidpf) {
    free(pointer)
}

/// A zlib stream made by `deflateInit2` with gzencode's arguments (boxed:
/// zlib's state points back at it, so it never moves).
struct Stream(Box<z_stream>);

// The stream is zlib's alone; it moves between threads, never shared.
unsafe impl Send for Stream {}

/// Streams reset for reuse: making one allocates and clears about 400 KiB
/// (zlib's window, hash chains and buffers), which cost more than
/// compressing a summary (malloc maps blocks that large afresh each time).
static POOL: Mutex<Vec<Stream>> = Mutex::new(Vec::new());
/// Streams kept in the pool at most.
const POOL_MAX: usize = 32;

impl Stream {
    fn new() -> Stream {
        if let Some(stream) = POOL.lock().ok().and_then(|mut pool| pool.pop()) {
            return stream;
        }
        Stream::made(RAW_WINDOW_BITS)
    }

    /// A stream `deflateInit2` makes with gzencode's arguments but
    /// `window_bits`.
    fn made(window_bits: c_int) -> Stream {
        let mut stream = Box::new(z_stream {
            next_in: std::ptr::null_mut(),
            avail_in: 0,
            total_in: 0,
            next_out: std::ptr::null_mut(),
            avail_out: 0,
            total_out: 0,
            msg: std::ptr::null_mut(),
            state: std::ptr::null_mut(),
            zalloc: z_alloc,
            zfree: z_free,
            opaque: std::ptr::null_mut(),
            data_type: 0,
            adler: 0,
            reserved: 0,
        });
        let status = unsafe {
            deflateInit2_(&mut *stream, LEVEL, Z_DEFLATED, window_bits, MAX_MEM_LEVEL, Z_DEFAULT_STRATEGY, zlibVersion(), std::mem::size_of::<z_stream>() as c_int)
        };
        assert_eq!(status, Z_OK, "zlib's deflateInit2 failed");
        Stream(stream)
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        unsafe { deflateEnd(&mut *self.0) };
    }
}

/// Hands a stream back: reset (as freshly made: deflateReset keeps only
/// the parameters and allocations) into the pool, or ended.
fn recycle(mut stream: Stream) {
    if unsafe { deflateReset(&mut *stream.0) } != Z_OK {
        return;
    }
    if let Ok(mut pool) = POOL.lock() {
        if pool.len() < POOL_MAX {
            pool.push(stream);
        }
    }
}

/// The header zlib's gzip wrapper writes for gzencode's arguments: the
/// first bytes of an empty member it makes.
fn gzip_header() -> &'static [u8; GZIP_HEADER] {
    static HEADER: OnceLock<[u8; GZIP_HEADER]> = OnceLock::new();
    HEADER.get_or_init(|| zlibs_gzip_member(&[])[..GZIP_HEADER].try_into().expect("a gzip member starts with its header"))
}

/// `text` as zlib's own gzip wrapper writes it (its stream then ended, not
/// pooled: the pool holds raw streams).
fn zlibs_gzip_member(text: &[u8]) -> Vec<u8> {
    let mut member = ZlibMember { stream: Some(Stream::made(GZIP_WINDOW_BITS)), out: Vec::new(), crc: 0, len: 0 };
    member.feed(text, Z_FINISH);
    member.out
}

/// One gzip member being written: by [`zlib9`] where it writes the linked
/// zlib's bytes ([`native_agrees`]) and the text is short enough, else by
/// zlib's stream.
pub struct Member(Writer);

enum Writer {
    Native(Box<zlib9::Deflate>),
    Zlib(ZlibMember),
}

impl Member {
    /// A member begun as `gzencode($text, 9)` begins it, `prefix` fed.
    pub fn start(prefix: &[u8]) -> Member {
        if prefix.len() <= zlib9::MAX_WHOLE_INPUT && native_agrees() {
            let mut deflate = native_deflater();
            deflate.feed(prefix);
            return Member(Writer::Native(deflate));
        }
        Member(Writer::Zlib(ZlibMember::start(prefix)))
    }

    /// The member's bytes once `tail` is fed and the stream finished.
    pub fn finish(self, tail: &[u8]) -> Vec<u8> {
        match self.0 {
            Writer::Native(mut deflate) => {
                let member = deflate.finish(tail).unwrap_or_else(|| zlib_gzencode9(deflate.input()));
                recycle_native(deflate);
                member
            }
            Writer::Zlib(member) => member.finish(tail),
        }
    }
}

/// Native deflaters kept for reuse, as [`POOL`] keeps zlib's streams
/// (each holds about 200 KiB of tables, cleared when made), and reset when
/// taken. One pool for every thread: records begun on `compress_chain`'s
/// threads are finished, and handed back, on PHP's.
static NATIVE_POOL: Mutex<Vec<Box<zlib9::Deflate>>> = Mutex::new(Vec::new());

/// A deflater from the pool, reset here: where records are begun on one
/// thread and finished on another, the one that begins them clears what
/// it mostly wrote itself.
fn native_deflater() -> Box<zlib9::Deflate> {
    let mut deflate = NATIVE_POOL.lock().ok().and_then(|mut pool| pool.pop()).unwrap_or_default();
    deflate.reset();
    deflate
}

fn recycle_native(deflate: Box<zlib9::Deflate>) {
    if let Ok(mut pool) = NATIVE_POOL.lock() {
        if pool.len() < POOL_MAX {
            pool.push(deflate);
        }
    }
}

/// Whether [`zlib9`] writes what the linked zlib writes, checked once a
/// process on texts that take each of its paths (stored, fixed and dynamic
/// blocks, long and overflowing codes, chains zlib cuts short): true for
/// zlib 1.2.12 to 1.3.1; a zlib of another lineage keeps its own deflate.
pub fn native_agrees() -> bool {
    static AGREES: OnceLock<bool> = OnceLock::new();
    *AGREES.get_or_init(|| zlib9::probes().iter().all(|text| zlib9::gzencode9(text).as_deref() == Some(&zlib_gzencode9(text)[..])))
}

/// `gzencode($text, 9)` by the zlib this process links.
pub fn zlib_gzencode9(text: &[u8]) -> Vec<u8> {
    ZlibMember::start(&[]).finish(text)
}

/// One gzip member being written by zlib: its raw stream (boxed: zlib's
/// state points back at it, so it never moves), the bytes out so far, and
/// the CRC-32 and length of the text fed.
struct ZlibMember {
    stream: Option<Stream>,
    out: Vec<u8>,
    crc: u32,
    len: u32,
}

impl ZlibMember {
    fn start(prefix: &[u8]) -> ZlibMember {
        let mut member = ZlibMember { stream: Some(Stream::new()), out: gzip_header().to_vec(), crc: 0, len: 0 };
        member.take(prefix, Z_NO_FLUSH);
        member
    }

    /// `input` fed to the stream and counted in the trailer.
    fn take(&mut self, input: &[u8], flush: c_int) {
        self.crc = unsafe { libdeflate_crc32(self.crc, input.as_ptr().cast(), input.len()) };
        // ISIZE: the length modulo 2^32.
        self.len = self.len.wrapping_add(input.len() as u32);
        self.feed(input, flush);
    }

    fn feed(&mut self, input: &[u8], flush: c_int) {
        let mut at = 0;
        loop {
            let chunk = (input.len() - at).min(uInt::MAX as usize);
            if self.out.capacity() - self.out.len() < 4096 {
                self.out.reserve(input.len() / 2 + 4096);
            }
            let spare = self.out.capacity() - self.out.len();
            let status = unsafe {
                let s = &mut *self.stream.as_mut().expect("open until finished").0;
                s.next_in = input.as_ptr().add(at).cast_mut();
                s.avail_in = chunk as uInt;
                s.next_out = self.out.as_mut_ptr().add(self.out.len());
                s.avail_out = spare.min(uInt::MAX as usize) as uInt;
                let status = deflate(s, flush);
                let written = spare.min(uInt::MAX as usize) - s.avail_out as usize;
                self.out.set_len(self.out.len() + written);
                at += chunk - s.avail_in as usize;
                status
            };
            if flush == Z_FINISH && status == Z_STREAM_END {
                return;
            }
            assert!(status == Z_OK || status == libz_sys::Z_BUF_ERROR, "zlib's deflate failed: {status}");
            if flush == Z_NO_FLUSH && at == input.len() && self.stream.as_ref().expect("open until finished").0.avail_out != 0 {
                return; // all taken, nothing held back for want of room
            }
        }
    }

    fn finish(mut self, tail: &[u8]) -> Vec<u8> {
        self.take(tail, Z_FINISH);
        recycle(self.stream.take().expect("open until finished"));
        // Copied out exactly: records are kept (written.rs), and the room
        // deflate had to spare would stay with each as a hole in the heap.
        let mut member = Vec::with_capacity(self.out.len() + GZIP_TRAILER);
        member.extend_from_slice(&self.out);
        member.extend_from_slice(&self.crc.to_le_bytes());
        member.extend_from_slice(&self.len.to_le_bytes());
        member
    }
}

/// `gzencode($text, 9)`.
pub fn gzencode9(text: &[u8]) -> Vec<u8> {
    Member::start(&[]).finish(text)
}

/// The zlib deflate runs with (`zlibVersion()`), for phpinfo and tests.
pub fn zlib_version() -> &'static str {
    unsafe { std::ffi::CStr::from_ptr(zlibVersion()) }.to_str().unwrap_or("?")
}

/// A record's text around its offset: `prefix`, the offset in decimal
/// (PHP's `i:` value), then `suffix`.
pub struct Split<'a> {
    pub prefix: &'a [u8],
    pub suffix: &'a [u8],
}

impl Split<'_> {
    /// The text Yioop serializes for the record at `offset`.
    pub fn text(&self, offset: i64) -> std::rc::Rc<[u8]> {
        super::written::concat(&[self.prefix, &self.tail(offset)])
    }

    fn tail(&self, offset: i64) -> Vec<u8> {
        let mut tail = offset.to_string().into_bytes();
        tail.extend_from_slice(self.suffix);
        tail
    }
}

/// Where the record after one compressed to `member` at `offset` begins:
/// past its length header and its bytes.
pub fn offset_after(offset: i64, member: &[u8]) -> Option<i64> {
    offset.checked_add(member.len() as i64 + INT_LEN)
}

/// Where the records after a chain's last one begin; None for no records.
pub fn chain_end(members: &[Vec<u8>], offsets: &[i64]) -> Option<i64> {
    offset_after(*offsets.last()?, members.last()?)
}

/// How many records' streams may be open ahead of the chain, per thread
/// (each holds about 400 KiB of zlib state).
const AHEAD_PER_THREAD: usize = 4;
/// How long a thread of the chain spins before it sleeps.
const SPIN: std::time::Duration = std::time::Duration::from_micros(20);

/// The records of one `addObjects`, compressed: record `i` gets offset
/// `offsets[i]`, where `offsets[0] = first` and each next one is the last
/// plus its compressed length and [`INT_LEN`]. Returns the compressed
/// records and their offsets. With `threads` > 1 the prefixes are
/// compressed on this thread and `threads - 1` more (scoped: all have
/// ended on return); this thread also feeds the tails, in order.
pub fn compress_chain(records: &[Split], first: i64, threads: usize) -> (Vec<Vec<u8>>, Vec<i64>) {
    let mut compressed = Vec::with_capacity(records.len());
    let mut offsets = Vec::with_capacity(records.len());
    let mut offset = first;
    let next_offset = |compressed: &Vec<u8>, offset: &mut i64| {
        *offset = offset_after(*offset, compressed).expect("archive offsets stay below 2^63");
    };
    let threads = threads.min(records.len());
    if threads <= 1 {
        for record in records {
            let mut text = Vec::with_capacity(record.prefix.len() + record.suffix.len() + 20);
            text.extend_from_slice(record.prefix);
            text.extend_from_slice(&record.tail(offset));
            let member = gzencode9(&text);
            offsets.push(offset);
            next_offset(&member, &mut offset);
            compressed.push(member);
        }
        return (compressed, offsets);
    }
    struct Shared {
        ready: Vec<Option<Member>>,
        done: usize,
    }
    let ahead = threads * AHEAD_PER_THREAD;
    let shared = Watched::new(Shared { ready: (0..records.len()).map(|_| None).collect(), done: 0 });
    let next = AtomicUsize::new(0);
    // The next record no thread has begun, taken only below `limit`.
    let claim = |limit: usize| -> Option<usize> {
        let mut j = next.load(Ordering::Relaxed);
        loop {
            if j >= records.len() || j >= limit {
                return None;
            }
            match next.compare_exchange(j, j + 1, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return Some(j),
                Err(now) => j = now,
            }
        }
    };
    let begin = |j: usize| {
        let member = Member::start(records[j].prefix);
        shared.change(|state| state.ready[j] = Some(member));
    };
    std::thread::scope(|scope| {
        // This thread is one of the `threads`: it begins records itself
        // whenever the one it must finish next is not ready.
        for _ in 1..threads {
            scope.spawn(|| loop {
                let j = {
                    let mut state = shared.lock();
                    loop {
                        if let Some(j) = claim(state.done + ahead) {
                            break j;
                        }
                        if next.load(Ordering::Relaxed) >= records.len() {
                            return;
                        }
                        state = shared.wait(state);
                    }
                };
                begin(j);
            });
        }
        for (i, record) in records.iter().enumerate() {
            let member = loop {
                let mut state = shared.lock();
                if let Some(member) = state.ready[i].take() {
                    break member;
                }
                if let Some(j) = claim(state.done + ahead) {
                    drop(state);
                    begin(j);
                    continue;
                }
                // Record i is begun elsewhere: its end wakes this thread.
                while state.ready[i].is_none() {
                    state = shared.wait(state);
                }
            };
            let bytes = member.finish(&record.tail(offset));
            offsets.push(offset);
            next_offset(&bytes, &mut offset);
            compressed.push(bytes);
            shared.change(|state| state.done = i + 1);
        }
    });
    (compressed, offsets)
}

/// A value the chain's threads share and wait on to change: a wait is
/// most often shorter than a thread's sleep and wake, so it spins a little
/// first, watching a count of the changes.
struct Watched<T> {
    state: Mutex<T>,
    changed: Condvar,
    /// Bumped with each change, while `state` is held.
    changes: AtomicUsize,
}

impl<T> Watched<T> {
    fn new(state: T) -> Watched<T> {
        Watched { state: Mutex::new(state), changed: Condvar::new(), changes: AtomicUsize::new(0) }
    }

    fn lock(&self) -> MutexGuard<'_, T> {
        self.state.lock().expect("no panics while held")
    }

    /// Makes `change`, then wakes the threads waiting for one.
    fn change(&self, change: impl FnOnce(&mut T)) {
        let mut state = self.lock();
        change(&mut state);
        self.changes.fetch_add(1, Ordering::Release);
        drop(state);
        self.changed.notify_all();
    }

    /// `state` given up until the next change (or a spurious wake: callers
    /// test again what they wait for).
    fn wait<'a>(&'a self, state: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
        let seen = self.changes.load(Ordering::Acquire);
        drop(state);
        let start = std::time::Instant::now();
        while self.changes.load(Ordering::Acquire) == seen && start.elapsed() < SPIN {
            for _ in 0..32 {
                std::hint::spin_loop();
            }
        }
        let state = self.lock();
        if self.changes.load(Ordering::Acquire) != seen {
            return state;
        }
        self.changed.wait(state).expect("no panics while held")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn varied(seed: u64, len: usize) -> Vec<u8> {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let words: [&[u8]; 6] = [b"debian ", b"a:3:{s:1:\"t\";", b"documentation ", b"i:42;", b"<html>", b"\xc3\xa9t\xc3\xa9 "];
        let mut out = Vec::with_capacity(len);
        while out.len() < len {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x % 3 == 0 {
                out.push((x >> 24) as u8);
            } else {
                out.extend_from_slice(words[(x >> 8) as usize % words.len()]);
            }
        }
        out.truncate(len);
        out
    }

    #[test]
    fn a_split_stream_is_the_whole_one() {
        for (seed, len) in [(1, 0), (2, 1), (3, 300), (4, 5000), (5, 70_000), (6, 300_000)] {
            let text = varied(seed, len);
            let whole = gzencode9(&text);
            for cut in [0, len / 3, len.saturating_sub(5), len] {
                let split = Member::start(&text[..cut]).finish(&text[cut..]);
                assert_eq!(split, whole, "len {len} cut at {cut}");
            }
        }
    }

    #[test]
    fn the_native_deflate_agrees_with_this_zlib() {
        // Debian 12's zlib 1.2.13 and Debian 13's 1.3.1: records are native.
        assert!(native_agrees(), "zlib {}", zlib_version());
        let text = varied(8, 3000);
        assert_eq!(Member::start(&text[..100]).finish(&text[100..]), zlib_gzencode9(&text));
    }

    #[test]
    fn gzencode9_writes_zlibs_gzip_member() {
        let member = gzencode9(b"hello hello hello");
        // Magic, deflate, no flags, mtime 0, XFL 2 (level 9), OS 3 (Unix).
        assert_eq!(&member[..10], &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3]);
        let crc = libdeflate_crc(b"hello hello hello");
        assert_eq!(&member[member.len() - 8..member.len() - 4], &crc.to_le_bytes());
        assert_eq!(&member[member.len() - 4..], &17u32.to_le_bytes());
    }

    #[test]
    fn the_raw_stream_in_its_wrapper_is_zlibs_gzip_member() {
        for (seed, len) in [(1, 0), (2, 1), (3, 700), (4, 5000), (5, 70_000), (6, 300_000)] {
            let text = varied(seed, len);
            assert_eq!(gzencode9(&text), zlibs_gzip_member(&text), "len {len}");
        }
    }

    #[test]
    fn a_member_holds_no_room_to_spare() {
        // Kept records (written.rs) are counted by length against their budget.
        let text = varied(7, 50_000);
        let member = gzencode9(&text);
        assert_eq!(member.capacity(), member.len());
        let (members, _) = compress_chain(&[Split { prefix: &text, suffix: b";}" }], 0, 1);
        assert_eq!(members[0].capacity(), members[0].len());
    }

    fn libdeflate_crc(bytes: &[u8]) -> u32 {
        unsafe { libdeflate_sys::libdeflate_crc32(0, bytes.as_ptr().cast(), bytes.len()) }
    }

    #[test]
    fn the_chain_gives_the_same_bytes_on_any_number_of_threads() {
        let texts: Vec<Vec<u8>> = (0..40).map(|i| varied(i, 200 + (i as usize * 997) % 9000)).collect();
        let splits: Vec<Split> = texts.iter().map(|t| Split { prefix: &t[..t.len() - 3], suffix: &t[t.len() - 3..] }).collect();
        let (one, offsets) = compress_chain(&splits, 31, 1);
        for threads in [2, 3, 8] {
            assert_eq!(compress_chain(&splits, 31, threads), (one.clone(), offsets.clone()), "{threads} threads");
        }
        // Each record is gzencode of its text with its own offset in it.
        let mut offset = 31;
        for ((split, member), &at) in splits.iter().zip(&one).zip(&offsets) {
            assert_eq!(at, offset);
            let mut text = split.prefix.to_vec();
            text.extend_from_slice(offset.to_string().as_bytes());
            text.extend_from_slice(split.suffix);
            assert_eq!(member, &gzencode9(&text));
            offset += member.len() as i64 + INT_LEN;
        }
    }

    #[test]
    fn compress_int_is_an_empty_member_with_the_length() {
        let header = compress_int(0x0102_0304);
        assert_eq!(&header[..8], &[0x1f, 0x8b, 8, 0, 1, 2, 3, 4]);
        assert_eq!(&header[8..], &[0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(crate::index::archive::record_len(&header), 0x0102_0304);
    }
}
