//! A fetcher upload's sites inflated ahead, on one more thread. The queue
//! server takes an upload in (`QueueServer::processIndexArchive`) as
//! `webdecode` of the file, then site by site, in order,
//! `unserialize(gzuncompress($site_string))`: the upload starts with the
//! length of its sites' part (4 bytes, big-endian), and each site there is
//! its length (4 bytes) and its zlib stream.
//!
//! [`expect`] is handed an upload once it is decoded; a thread then inflates
//! its sites in order, at most [`AHEAD`] sites and [`MAX_HELD`] bytes past
//! the last one taken. [`take`] is handed each `gzuncompress` input: where
//! it is, byte for byte, the next site, it gets what
//! [`inflate::gzuncompress_with`] made of those bytes on the other thread,
//! the same function of the same bytes. Any other input ends the
//! read-ahead, and the caller inflates as it would without it. Once every
//! site is taken, the upload goes on to [`records_ahead`].

use super::{inflate, records_ahead};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::Thread;

/// Sites inflated and not yet taken, at most: a site is a few KiB.
const AHEAD: usize = 64;
/// Their bytes at most, past the next one (a site may inflate to 8 MiB).
const MAX_HELD: usize = 16 << 20;
/// Uploads with fewer sites are inflated on the caller's thread.
const MIN_SITES: usize = 16;

thread_local! {
    static READING: std::cell::RefCell<Option<ReadAhead>> = const { std::cell::RefCell::new(None) };
}

/// Starts inflating `upload`'s sites on another thread, if it is laid out
/// as a fetcher's upload, in place of any upload read ahead before.
pub fn expect(upload: Vec<u8>) {
    let sites = site_ranges(&upload);
    let read_ahead = (sites.len() >= MIN_SITES).then(|| ReadAhead::start(Arc::new(upload), sites)).flatten();
    READING.with_borrow_mut(|reading| *reading = read_ahead);
}

/// What `gzuncompress_with(data)` gives where `data` is the next site of the
/// upload read ahead and inflates; None (the read-ahead ended unless `data`
/// only failed to inflate) where the caller must inflate it itself.
pub fn take(data: &[u8]) -> Option<Vec<u8>> {
    READING.with_borrow_mut(|reading| {
        let read_ahead = reading.as_mut()?;
        let taken = read_ahead.take(data);
        let all_taken = read_ahead.next == read_ahead.sites.len();
        if all_taken {
            records_ahead::all_taken();
        }
        if taken.is_none() || all_taken {
            *reading = None;
        }
        taken.flatten()
    })
}

/// The upload being read ahead and where its sites lie.
pub(super) fn upload() -> Option<(Arc<Vec<u8>>, Arc<[Range<usize>]>)> {
    READING.with_borrow(|reading| reading.as_ref().map(|r| (r.upload.clone(), r.sites.clone())))
}

/// Ends any read-ahead, its thread included (a new request: the last one's
/// upload is done with; the module's shutdown).
pub fn forget() {
    READING.with_borrow_mut(|reading| *reading = None);
    records_ahead::forget();
}

/// Where each site's zlib stream lies in `upload`, as Yioop cuts them:
/// `substr` clips a length past the sites' part to its end. Empty where the
/// sites' part is longer than the upload, or its first site is no zlib
/// stream: not an upload.
fn site_ranges(upload: &[u8]) -> Vec<Range<usize>> {
    let Some(end) = be_u32(upload, 0).map(|len| 4 + len as usize).filter(|&end| end <= upload.len()) else {
        return Vec::new();
    };
    let mut sites = Vec::new();
    let mut at = 4;
    while let Some(len) = be_u32(&upload[..end], at) {
        let start = at + 4;
        at = (start + len as usize).min(end);
        sites.push(start..at);
    }
    // zlib's first byte: deflate with a window of up to 32 KiB.
    if sites.first().is_some_and(|site| upload.get(site.start).is_some_and(|&cmf| cmf & 0x0f == 8)) {
        sites
    } else {
        Vec::new()
    }
}

fn be_u32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

/// An upload being inflated ahead: its bytes, its sites, and the next site
/// a call is expected for.
struct ReadAhead {
    upload: Arc<Vec<u8>>,
    sites: Arc<[Range<usize>]>,
    next: usize,
    shared: Arc<Shared>,
    /// The inflating thread, joined when the read-ahead ends: no thread
    /// runs this library's code past it (PHP may unload the library at
    /// shutdown). None only once joined.
    running: Option<std::thread::JoinHandle<()>>,
}

/// What the two threads share. A site's answer is handed over in its own
/// slot, and each side sleeps (parks) only when it must wait, so that a
/// site costs no system call where neither waits (most sites take a few
/// microseconds).
struct Shared {
    /// Each site's `gzuncompress_with` answer (None where it declines),
    /// there from when `inflated` counts it until it is taken.
    slots: Box<[Mutex<Option<Option<Vec<u8>>>>]>,
    inflated: AtomicUsize,
    taken: AtomicUsize,
    /// The bytes of the answers inflated and not yet taken.
    held: AtomicUsize,
    /// Set by the caller to stop the inflating thread.
    stopped: AtomicBool,
    /// Set by the inflating thread as it ends, however it ends.
    ended: AtomicBool,
    caller: Thread,
}

impl ReadAhead {
    /// None where no thread could be started.
    fn start(upload: Arc<Vec<u8>>, sites: Vec<Range<usize>>) -> Option<ReadAhead> {
        let sites: Arc<[Range<usize>]> = sites.into();
        let shared = Arc::new(Shared {
            slots: sites.iter().map(|_| Mutex::new(None)).collect(),
            inflated: AtomicUsize::new(0),
            taken: AtomicUsize::new(0),
            held: AtomicUsize::new(0),
            stopped: AtomicBool::new(false),
            ended: AtomicBool::new(false),
            caller: std::thread::current(),
        });
        let (bytes, ranges, handed) = (upload.clone(), sites.clone(), shared.clone());
        let running = std::thread::Builder::new().name("yioop-sites".into()).spawn(move || inflate_all(&bytes, &ranges, &handed)).ok()?;
        Some(ReadAhead { upload, sites, next: 0, shared, running: Some(running) })
    }

    /// The next site's answer (itself an Option) if `data` is that site.
    fn take(&mut self, data: &[u8]) -> Option<Option<Vec<u8>>> {
        if self.upload[self.sites[self.next].clone()] != *data {
            return None;
        }
        let shared = &*self.shared;
        while shared.inflated.load(Ordering::Acquire) <= self.next {
            if shared.ended.load(Ordering::Acquire) && shared.inflated.load(Ordering::Acquire) <= self.next {
                return None; // the thread could not go on
            }
            std::thread::park();
        }
        let answer = shared.slots[self.next].lock().ok()?.take()?;
        shared.held.fetch_sub(answer.as_ref().map_or(0, Vec::len), Ordering::Release);
        self.next += 1;
        shared.taken.store(self.next, Ordering::Release);
        self.wake_inflater();
        Some(answer)
    }

    fn wake_inflater(&self) {
        if let Some(running) = &self.running {
            running.thread().unpark();
        }
    }
}

impl Drop for ReadAhead {
    /// Stops the thread (it ends after the site it is on) and waits for it.
    fn drop(&mut self) {
        self.shared.stopped.store(true, Ordering::Release);
        self.wake_inflater();
        if let Some(running) = self.running.take() {
            let _ = running.join(); // a panic there ended it; nothing to hand on
        }
    }
}

/// The thread: each site inflated in order, at most [`AHEAD`] sites and
/// [`MAX_HELD`] bytes past the last one taken (the next one always), until
/// the last site or a stop.
fn inflate_all(upload: &[u8], sites: &[Range<usize>], shared: &Shared) {
    // Ended however this ends, a panic included: the caller never waits
    // on a thread that is gone.
    struct EndOnExit<'a>(&'a Shared);
    impl Drop for EndOnExit<'_> {
        fn drop(&mut self) {
            self.0.ended.store(true, Ordering::Release);
            self.0.caller.unpark();
        }
    }
    let _end = EndOnExit(shared);
    for (i, site) in sites.iter().enumerate() {
        let waits = |taken: usize| i >= taken + AHEAD || (i > taken && shared.held.load(Ordering::Acquire) >= MAX_HELD);
        while !shared.stopped.load(Ordering::Acquire) && waits(shared.taken.load(Ordering::Acquire)) {
            std::thread::park();
        }
        if shared.stopped.load(Ordering::Acquire) {
            return;
        }
        let answer = inflate::gzuncompress_with(&upload[site.clone()], <[u8]>::to_vec).ok();
        shared.held.fetch_add(answer.as_ref().map_or(0, Vec::len), Ordering::Release);
        if let Ok(mut slot) = shared.slots[i].lock() {
            *slot = Some(answer);
        }
        shared.inflated.store(i + 1, Ordering::Release);
        shared.caller.unpark();
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::index::archive::inflate::tests::zlib_compress as zlib;

    /// An upload as a fetcher lays it out, with `after` past the sites' part.
    pub(crate) fn upload(sites: &[Vec<u8>], after: &[u8]) -> Vec<u8> {
        let part: Vec<u8> = sites.iter().flat_map(|site| (site.len() as u32).to_be_bytes().into_iter().chain(site.iter().copied())).collect();
        [&(part.len() as u32).to_be_bytes()[..], &part, after].concat()
    }

    fn texts(n: usize) -> Vec<Vec<u8>> {
        (0..n).map(|i| format!("a:1:{{s:3:\"url\";s:{}:\"{}\";}}", i.to_string().len() + 9, format!("site {i} of").repeat(1 + i % 7)).into_bytes()).collect()
    }

    fn inflated_here(data: &[u8]) -> Option<Vec<u8>> {
        inflate::gzuncompress_with(data, <[u8]>::to_vec).ok()
    }

    #[test]
    fn sites_are_cut_as_yioop_cuts_them() {
        let sites: Vec<Vec<u8>> = texts(3).iter().map(|t| zlib(t)).collect();
        let bytes = upload(&sites, b"the index part");
        let cut: Vec<&[u8]> = site_ranges(&bytes).into_iter().map(|r| &bytes[r]).collect();
        assert_eq!(cut, sites.iter().map(Vec::as_slice).collect::<Vec<_>>());
        // A last length past the sites' part is clipped to it.
        let mut clipped = upload(&sites, b"");
        let last = 4 + (4 + sites[0].len()) + (4 + sites[1].len());
        clipped[last..last + 4].copy_from_slice(&1000u32.to_be_bytes());
        assert_eq!(site_ranges(&clipped).last(), Some(&(last + 4..clipped.len())));
        // Not an upload: a sites' part longer than the bytes, or no zlib stream.
        assert!(site_ranges(&zlib(b"a robots file")).is_empty());
        assert!(site_ranges(&upload(&[b"plain text".to_vec()], b"")).is_empty());
        assert!(site_ranges(b"ab").is_empty());
    }

    #[test]
    fn each_site_is_what_inflating_it_here_gives() {
        let mut sites: Vec<Vec<u8>> = texts(300).iter().map(|t| zlib(t)).collect();
        let half = sites[17].len() / 2;
        sites[17].truncate(half); // damaged: declines on either thread
        sites[18] = Vec::new();
        let bytes = upload(&sites, b"");
        expect(bytes);
        for (i, site) in sites.iter().enumerate() {
            let here = inflated_here(site);
            assert_eq!(take(site), here, "site {i}");
            if i != 17 && i != 18 {
                assert!(here.is_some(), "site {i} inflates");
            }
        }
        assert!(READING.with_borrow(Option::is_none), "done once the last site is taken");
    }

    #[test]
    fn any_other_input_ends_the_read_ahead() {
        let sites: Vec<Vec<u8>> = texts(100).iter().map(|t| zlib(t)).collect();
        expect(upload(&sites, b""));
        assert_eq!(take(&sites[0]), inflated_here(&sites[0]));
        assert_eq!(take(&sites[2]), None, "out of order");
        assert!(READING.with_borrow(Option::is_none));
        assert_eq!(take(&sites[1]), None, "nothing read ahead now");
        // Few sites: no thread.
        expect(upload(&sites[..MIN_SITES - 1], b""));
        assert!(READING.with_borrow(Option::is_none));
        expect(upload(&sites, b""));
        forget();
        assert_eq!(take(&sites[0]), None);
    }

    #[test]
    fn large_sites_are_held_up_to_max_held_bytes() {
        // Sites of 3 MiB each (zeros inflate a thousandfold): at most
        // MAX_HELD bytes past the next one wait to be taken.
        let big = zlib(&vec![0u8; 3 << 20]);
        let sites: Vec<Vec<u8>> = (0..MIN_SITES + 4).map(|_| big.clone()).collect();
        expect(upload(&sites, b""));
        assert_eq!(take(&sites[0]).map(|out| out.len()), Some(3 << 20));
        let shared = READING.with_borrow(|r| r.as_ref().unwrap().shared.clone());
        std::thread::sleep(std::time::Duration::from_millis(200));
        let held = shared.held.load(Ordering::Acquire);
        assert!(held >= MAX_HELD && held < MAX_HELD + (3 << 20) * 2, "{held} bytes held");
        for site in &sites[1..] {
            assert_eq!(take(site).map(|out| out.len()), Some(3 << 20));
        }
        assert_eq!(shared.held.load(Ordering::Acquire), 0);
    }

    #[test]
    fn the_thread_stays_at_most_ahead_sites_past_the_calls() {
        let sites: Vec<Vec<u8>> = texts(AHEAD * 3).iter().map(|t| zlib(t)).collect();
        expect(upload(&sites, b""));
        assert_eq!(take(&sites[0]), inflated_here(&sites[0]));
        let shared = READING.with_borrow(|r| r.as_ref().unwrap().shared.clone());
        while shared.inflated.load(Ordering::Acquire) < AHEAD + 1 {
            std::thread::yield_now();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert_eq!(shared.inflated.load(Ordering::Acquire), AHEAD + 1, "one taken, AHEAD more");
        forget();
        assert!(shared.ended.load(Ordering::Acquire), "the thread has ended once the read-ahead is forgotten");
        assert_eq!(shared.inflated.load(Ordering::Acquire), AHEAD + 1, "stopped where it waited");
    }
}
