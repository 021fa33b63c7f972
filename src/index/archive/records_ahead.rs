//! An upload's records compressed ahead while the queue server builds a
//! shard. Once it has taken an upload in ([`sites_ahead`]),
//! `QueueServer::processIndexArchive` asks whether the generation is full.
//! When it is, Yioop builds the generation's shard, seconds on PHP's thread
//! alone, then adds the upload's summaries to a new partition as records,
//! right after the one record it puts first in each new partition. Each
//! record holds its own offset, so each waits for the one before.
//!
//! [`expect`] notes each upload decoded, and [`sites_ahead`] when every
//! site was taken. The shard build's first read of an archive ([`begin`])
//! then starts a thread, at the lowest priority (`SCHED_IDLE`: it runs
//! only where a core would idle), that makes each record as
//! `processIndexArchive` and `addObjects` will make it from the upload's
//! sites ([`Shape`]) and compresses the chain from where the last new
//! file's first call ended ([`note_end`]). [`take`], at the upload's
//! `addObjects`, keeps the leading records whose text is, byte for byte,
//! the one Yioop made there: a record's bytes are a function of its text
//! alone, so a wrong guess costs the idle core's time and nothing else.
//!
//! [`sites_ahead`]: super::sites_ahead

use super::deflate::{self, Split};
use super::{inflate, sites_ahead};
use crate::php_semantics::serialize;
use crate::php_semantics::unserialize::{self, Key};
use md5::{Digest, Md5};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// What follows a record's offset: the offset field is its last entry.
const SUFFIX: &[u8] = b";}";
/// The record texts held ahead, at most (an upload's are about 20 MiB).
const MAX_HELD: usize = 64 << 20;

/// The keys of a summary that `processIndexArchive` reads and sets (Yioop's
/// CrawlConstants), and the field `addObjects` stores each offset in.
pub struct Shape {
    pub type_key: Vec<u8>,
    pub url_key: Vec<u8>,
    pub hash_url_key: Vec<u8>,
    pub is_doc_key: Vec<u8>,
    pub offset_key: Vec<u8>,
}

/// The upload being taken in, or taken in last, until its records are
/// added.
struct Upload {
    bytes: Arc<Vec<u8>>,
    sites: Arc<[Range<usize>]>,
    shape: Shape,
    all_taken: bool,
}

thread_local! {
    static UPLOAD: RefCell<Option<Upload>> = const { RefCell::new(None) };
    static AHEAD: RefCell<Option<Ahead>> = const { RefCell::new(None) };
    /// Where the first call into a new archive file ended.
    static NEW_FILE_END: Cell<Option<i64>> = const { Cell::new(None) };
    /// Records compressed ahead and handed to `addObjects`, as phpinfo
    /// reports them.
    static COUNTS: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

/// The records compressed ahead in this process so far, and those used.
pub fn counts() -> (u64, u64) {
    let (made, used) = COUNTS.get();
    let pending = AHEAD.with_borrow(|ahead| ahead.as_ref().map_or(0, |ahead| ahead.shared.made.lock().map_or(0, |made| made.len())));
    (made + pending as u64, used)
}

/// The upload `sites_ahead` was just handed holds summaries of `shape`.
pub fn expect(shape: Shape) {
    let upload = sites_ahead::upload().map(|(bytes, sites)| Upload { bytes, sites, shape, all_taken: false });
    UPLOAD.with_borrow_mut(|expected| *expected = upload);
}

/// Every site of the upload was taken, in order.
pub(super) fn all_taken() {
    UPLOAD.with_borrow_mut(|upload| {
        if let Some(upload) = upload {
            upload.all_taken = true;
        }
    });
}

/// A shard build began: the records of the upload taken in are compressed
/// ahead as a new archive file will hold them, unless those of an upload
/// before still wait (Yioop may take an upload in during a shard build,
/// then put it off).
pub fn begin() {
    let Some(first) = NEW_FILE_END.get() else { return };
    if AHEAD.with_borrow(|ahead| ahead.as_ref().is_some_and(|ahead| !ahead.shared.stopped.load(Ordering::Acquire))) {
        return;
    }
    let Some(upload) = UPLOAD.with_borrow_mut(|upload| upload.take_if(|upload| upload.all_taken)) else { return };
    AHEAD.with_borrow_mut(|running| {
        *running = None; // the one before joined first
        *running = Ahead::start(upload, first);
    });
}

/// An `addObjects` call from offset `first` ended at `end`.
pub fn note_end(first: i64, end: i64) {
    if first == 0 {
        NEW_FILE_END.set(Some(end));
    }
}

/// The leading records of `splits`, from offset `first`, that were
/// compressed ahead from the same texts: their compressed bytes and
/// offsets, as `compress_chain` would give them. A call of one record (a
/// new file's first) leaves the read-ahead running; any other ends it.
pub fn take(splits: &[Split], first: i64) -> (Vec<Vec<u8>>, Vec<i64>) {
    let (mut members, mut offsets) = (Vec::new(), Vec::new());
    if splits.len() < 2 {
        return (members, offsets);
    }
    UPLOAD.with_borrow_mut(|upload| *upload = None);
    let made = AHEAD.with_borrow_mut(|ahead| {
        let ahead = ahead.as_mut()?;
        // Not joined here: at its priority it may wait for a core.
        ahead.shared.stopped.store(true, Ordering::Release);
        let made = std::mem::take(&mut *ahead.shared.made.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        Some((made, ahead.first == first))
    });
    let (made, from_first) = made.unwrap_or_default();
    let made_count = made.len() as u64;
    for (split, made) in splits.iter().zip(made).take_while(|_| from_first) {
        if split.prefix != made.prefix || split.suffix != SUFFIX {
            break;
        }
        members.push(made.member);
        offsets.push(made.offset);
    }
    let (all, used) = COUNTS.get();
    COUNTS.set((all + made_count, used + members.len() as u64));
    (members, offsets)
}

/// Ends any read-ahead, its thread included.
pub fn forget() {
    UPLOAD.with_borrow_mut(|upload| *upload = None);
    AHEAD.with_borrow_mut(|running| *running = None);
}

/// A record made and compressed ahead.
struct Made {
    prefix: Vec<u8>,
    member: Vec<u8>,
    offset: i64,
}

struct Shared {
    made: Mutex<Vec<Made>>,
    stopped: AtomicBool,
}

/// A thread compressing an upload's records from offset `first`.
struct Ahead {
    first: i64,
    shared: Arc<Shared>,
    running: Option<std::thread::JoinHandle<()>>,
}

impl Ahead {
    fn start(upload: Upload, first: i64) -> Option<Ahead> {
        let shared = Arc::new(Shared { made: Mutex::new(Vec::new()), stopped: AtomicBool::new(false) });
        let handed = shared.clone();
        let running = std::thread::Builder::new()
            .name("yioop-records".into())
            .spawn(move || {
                at_idle_priority();
                compress_ahead(&upload, first, &handed);
            })
            .ok()?;
        Some(Ahead { first, shared, running: Some(running) })
    }
}

impl Drop for Ahead {
    /// Stops the thread after the record it is on, and waits for it.
    fn drop(&mut self) {
        self.shared.stopped.store(true, Ordering::Release);
        if let Some(running) = self.running.take() {
            let _ = running.join(); // a panic there ended it; nothing to hand on
        }
    }
}

/// This thread runs only where a core would otherwise idle.
fn at_idle_priority() {
    let param = libc::sched_param { sched_priority: 0 };
    unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) };
}

/// The thread: each site inflated, made into its record and compressed, in
/// order, until a stop, a site it cannot make a record of, or
/// [`MAX_HELD`] bytes of texts.
fn compress_ahead(upload: &Upload, first: i64, shared: &Shared) {
    let (mut offset, mut held) = (first, 0);
    for site in upload.sites.iter() {
        if shared.stopped.load(Ordering::Acquire) {
            return;
        }
        let Ok(text) = inflate::gzuncompress_with(&upload.bytes[site.clone()], <[u8]>::to_vec) else { return };
        let Some(prefix) = upload.shape.record_prefix(&text) else { return };
        held += prefix.len();
        if held > MAX_HELD {
            return;
        }
        let (mut members, _) = deflate::compress_chain(&[Split { prefix: &prefix, suffix: SUFFIX }], offset, 1);
        let Some(member) = members.pop() else { return };
        let next = deflate::offset_after(offset, &member);
        match shared.made.lock() {
            Ok(mut made) => made.push(Made { prefix, member, offset }),
            Err(_) => return,
        }
        let Some(next) = next else { return };
        offset = next;
    }
}

impl Shape {
    /// The text `addObjects` serializes for the summary `site` (a
    /// serialized array) with its offset 0, up to the offset's digits:
    /// where its type is not "link", `processIndexArchive` sets its URL's
    /// crawlHash and marks it a document; then the offset field is added
    /// last. None where that text cannot be told from the site's bytes
    /// alone: a key PHP would write another way, one repeated, a type or
    /// URL that is not a string, an offset field already there.
    fn record_prefix(&self, site: &[u8]) -> Option<Vec<u8>> {
        let mut entries = entries(site)?;
        if string_value(value_of(&entries, &self.type_key)?)? != b"link" {
            let mut hash = Vec::new();
            serialize::push_string(&mut hash, &crawl_hash(string_value(value_of(&entries, &self.url_key)?)?));
            set(&mut entries, &self.hash_url_key, Cow::Owned(hash));
            set(&mut entries, &self.is_doc_key, Cow::Borrowed(b"b:1;"));
        }
        if value_of(&entries, &self.offset_key).is_some() {
            return None;
        }
        let mut out = Vec::with_capacity(site.len() + 64);
        serialize::push_array_start(&mut out, entries.len() + 1);
        for entry in &entries {
            push_key(&mut out, entry.key);
            out.extend_from_slice(&entry.value);
        }
        push_key(&mut out, array_key(&self.offset_key));
        out.extend_from_slice(b"i:");
        Some(out)
    }
}

/// An entry of a site's outermost array: its key and its value's text.
struct Entry<'a> {
    key: Key<'a>,
    value: Cow<'a, [u8]>,
}

/// The outermost array's entries, where each key is written as PHP
/// writes it and none repeats.
fn entries(site: &[u8]) -> Option<Vec<Entry<'_>>> {
    let outer = unserialize::outer_entries(site, 0).ok()??;
    let mut seen = rustc_hash::FxHashSet::default();
    let mut entries = Vec::with_capacity(outer.len() + 3);
    for (key, range) in outer {
        let mut written = Vec::new();
        push_key(&mut written, key);
        let text = &site[range];
        if !text.starts_with(&written) || !seen.insert(key) {
            return None;
        }
        entries.push(Entry { key, value: Cow::Borrowed(&text[written.len()..]) });
    }
    Some(entries)
}

/// The text of `$array[$key]`'s value, if it is there.
fn value_of<'e>(entries: &'e [Entry], key: &[u8]) -> Option<&'e [u8]> {
    entries.iter().find(|entry| entry.key == array_key(key)).map(|entry| &*entry.value)
}

/// `$array[$key] = value`: in place where the key is there, else last.
fn set<'a>(entries: &mut Vec<Entry<'a>>, key: &'a [u8], value: Cow<'a, [u8]>) {
    let key = array_key(key);
    match entries.iter_mut().find(|entry| entry.key == key) {
        Some(entry) => entry.value = value,
        None => entries.push(Entry { key, value }),
    }
}

/// A string as an array key: a canonical integer becomes an int key.
fn array_key(key: &[u8]) -> Key<'_> {
    crate::php_semantics::num::integer_key(key).map_or(Key::Str(key), Key::Int)
}

fn push_key(out: &mut Vec<u8>, key: Key) {
    match key {
        Key::Int(i) => serialize::push_int(out, i),
        Key::Str(s) => serialize::push_string(out, s),
    }
}

/// The bytes of a serialized string value (`s:3:"abc";`).
fn string_value(value: &[u8]) -> Option<&[u8]> {
    let rest = value.strip_prefix(b"s:")?;
    let colon = rest.iter().position(|&b| b == b':')?;
    let len: usize = std::str::from_utf8(&rest[..colon]).ok()?.parse().ok()?;
    let bytes = rest.get(colon + 2..colon + 2 + len)?;
    (rest.len() == colon + 4 + len).then_some(bytes)
}

/// Yioop's `crawlHash($string, true)`: md5's two halves XORed.
fn crawl_hash(text: &[u8]) -> [u8; 8] {
    let digest = Md5::digest(text);
    std::array::from_fn(|i| digest[i] ^ digest[i + 8])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::archive::inflate::tests::zlib_compress as zlib;

    fn shape() -> Shape {
        Shape { type_key: b"e".to_vec(), url_key: b"l".to_vec(), hash_url_key: b"T".to_vec(), is_doc_key: b"at".to_vec(), offset_key: b"U".to_vec() }
    }

    /// A summary as a fetcher serializes it.
    fn site(i: usize, kind: &str) -> Vec<u8> {
        let url = format!("https://example.com/{i}.html");
        let words = "debian documentation page ".repeat(1 + i % 40);
        format!("a:4:{{s:1:\"e\";s:{}:\"{kind}\";s:1:\"l\";s:{}:\"{url}\";s:1:\"d\";s:{}:\"{words}\";i:7;d:0.5;}}", kind.len(), url.len(), words.len()).into_bytes()
    }

    /// The record `processIndexArchive` then `addObjects` serialize for
    /// `site`, its offset 0, as written out by hand.
    fn record(site: &[u8], hash_url: Option<&[u8]>) -> Vec<u8> {
        let body = &site[b"a:4:{".len()..site.len() - 1];
        let mut out = Vec::new();
        match hash_url {
            Some(hash) => {
                out.extend_from_slice(b"a:7:{");
                out.extend_from_slice(body);
                out.extend_from_slice(b"s:1:\"T\";s:8:\"");
                out.extend_from_slice(hash);
                out.extend_from_slice(b"\";s:2:\"at\";b:1;");
            }
            None => {
                out.extend_from_slice(b"a:5:{");
                out.extend_from_slice(body);
            }
        }
        out.extend_from_slice(b"s:1:\"U\";i:0;}");
        out
    }

    #[test]
    fn a_documents_record_gets_its_url_hash_and_mark_then_the_offset() {
        let site = site(3, "text/html");
        let url = b"https://example.com/3.html";
        // crawlHash: md5("https://example.com/3.html"), its halves XORed.
        let digest = Md5::digest(url);
        let hash: Vec<u8> = (0..8).map(|i| digest[i] ^ digest[i + 8]).collect();
        let made = shape().record_prefix(&site).expect("a record");
        assert_eq!([&made[..], b"0;}"].concat(), record(&site, Some(&hash)));
        let link = super::tests::site(3, "link");
        assert_eq!([&shape().record_prefix(&link).unwrap()[..], b"0;}"].concat(), record(&link, None));
    }

    #[test]
    fn keys_already_there_are_set_in_place() {
        let site = b"a:4:{s:2:\"at\";b:0;s:1:\"e\";s:4:\"html\";s:1:\"T\";i:5;s:1:\"l\";s:1:\"u\";}";
        let made = shape().record_prefix(site).unwrap();
        let hash = crawl_hash(b"u");
        let mut want = b"a:5:{s:2:\"at\";b:1;s:1:\"e\";s:4:\"html\";s:1:\"T\";s:8:\"".to_vec();
        want.extend_from_slice(&hash);
        want.extend_from_slice(b"\";s:1:\"l\";s:1:\"u\";s:1:\"U\";i:");
        assert_eq!(made, want);
    }

    #[test]
    fn sites_whose_record_is_not_told_by_their_bytes_make_none() {
        let none = |site: &[u8]| shape().record_prefix(site);
        assert!(none(b"a:2:{s:1:\"e\";s:4:\"link\";s:1:\"U\";i:3;}").is_none(), "an offset field there");
        assert!(none(b"a:2:{s:1:\"e\";i:4;s:1:\"l\";s:1:\"u\";}").is_none(), "a type not a string");
        assert!(none(b"a:1:{s:1:\"e\";s:4:\"html\";}").is_none(), "a document without a URL");
        assert!(none(b"a:2:{s:1:\"e\";s:4:\"html\";s:1:\"l\";N;}").is_none(), "a URL not a string");
        assert!(none(b"a:2:{s:1:\"e\";s:4:\"link\";s:1:\"5\";i:1;}").is_none(), "a numeric string key");
        assert!(none(b"a:2:{s:1:\"e\";s:4:\"link\";s:1:\"e\";s:4:\"link\";}").is_none(), "a key repeated");
        assert!(none(b"a:1:{s:1:\"l\";s:1:\"u\";}").is_none(), "no type");
        assert!(none(b"s:4:\"link\";").is_none(), "not an array");
        assert!(none(b"a:1:{s:1:\"e\";s:4:\"link\";").is_none(), "cut");
        assert!(none(b"a:1:{s:1:\"e\";s:4:\"link\";}").is_some());
    }

    /// An upload decoded, then every site taken in, as the queue server does.
    fn take_in(sites: &[Vec<u8>], every_site: bool) {
        let streams: Vec<Vec<u8>> = sites.iter().map(|site| zlib(site)).collect();
        sites_ahead::expect(sites_ahead::tests::upload(&streams, b""));
        expect(shape());
        for stream in &streams[..if every_site { streams.len() } else { 1 }] {
            assert!(sites_ahead::take(stream).is_some());
        }
    }

    fn records(sites: &[Vec<u8>]) -> Vec<Vec<u8>> {
        sites.iter().map(|site| shape().record_prefix(site).unwrap_or_default()).collect()
    }

    fn splits(prefixes: &[Vec<u8>]) -> Vec<Split<'_>> {
        prefixes.iter().map(|prefix| Split { prefix, suffix: SUFFIX }).collect()
    }

    /// Waits for the thread to end by itself (every site done).
    fn finish_ahead() {
        AHEAD.with_borrow_mut(|ahead| {
            let ahead = ahead.as_mut().expect("running");
            ahead.running.take().unwrap().join().unwrap();
        });
    }

    fn running_from() -> Option<i64> {
        AHEAD.with_borrow(|ahead| ahead.as_ref().map(|ahead| ahead.first))
    }

    fn some_sites(n: usize, seed: usize) -> Vec<Vec<u8>> {
        (0..n).map(|i| site(i * 7 + seed, if i % 4 == 0 { "link" } else { "text/html" })).collect()
    }

    fn waiting() -> bool {
        UPLOAD.with_borrow(|upload| upload.as_ref().is_some_and(|upload| upload.all_taken))
    }

    #[test]
    fn records_made_ahead_are_the_chains_own() {
        let sites = some_sites(120, 0);
        let prefixes = records(&sites);
        // A new file's first call: where the next one goes.
        note_end(0, 77);
        take_in(&sites, false);
        begin();
        assert_eq!(running_from(), None, "not every site taken");
        take_in(&sites, true);
        assert!(waiting());
        begin();
        assert!(!waiting());
        assert_eq!(running_from(), Some(77));
        finish_ahead();
        // Another new file's first call, of one record, leaves it running.
        assert_eq!(take(&splits(&prefixes[..1]), 0).0.len(), 0);
        assert_eq!(running_from(), Some(77));
        let want = deflate::compress_chain(&splits(&prefixes), 77, 1);
        assert_eq!(take(&splits(&prefixes), 77), want);
        assert_eq!(take(&splits(&prefixes), 77).0.len(), 0, "taken once");

        // From another offset, none; from a changed record on, none.
        take_in(&sites, true);
        begin();
        assert_eq!(take(&splits(&prefixes), 78).0.len(), 0);
        take_in(&sites, true);
        begin();
        finish_ahead();
        let mut changed = prefixes.clone();
        changed[50][10] ^= 1;
        let want = deflate::compress_chain(&splits(&prefixes[..50]), 77, 1);
        assert_eq!(take(&splits(&changed), 77), want);
    }

    #[test]
    fn records_begun_for_a_new_file_wait_through_another_upload_taken_in() {
        let (first, second) = (some_sites(40, 0), some_sites(40, 1));
        note_end(0, 77);
        take_in(&first, true);
        begin();
        assert_eq!(running_from(), Some(77));
        // Yioop takes the next upload in during the shard build, then puts
        // it off; the first upload's records come next.
        take_in(&second, true);
        begin();
        finish_ahead();
        let prefixes = records(&first);
        assert_eq!(take(&splits(&prefixes), 77), deflate::compress_chain(&splits(&prefixes), 77, 1));
        begin();
        assert!(!waiting(), "the upload put off is taken in again before its records come");
    }

    #[test]
    fn nothing_begins_without_an_upload_taken_in_or_a_new_files_end() {
        let sites = some_sites(20, 0);
        let prefixes = records(&sites);
        take_in(&sites, true);
        begin();
        assert_eq!(running_from(), None, "no new file's end yet");
        note_end(0, 77);
        // An upload's records added without a shard build between: the
        // upload is done with.
        assert_eq!(take(&splits(&prefixes), 77).0.len(), 0);
        begin();
        assert_eq!(running_from(), None);
        take_in(&sites, true);
        forget();
        begin();
        assert_eq!(running_from(), None);
    }

    #[test]
    fn the_thread_stops_at_a_site_it_cannot_make_a_record_of() {
        let mut sites = some_sites(30, 0);
        sites[12] = b"a:1:{s:1:\"l\";s:1:\"u\";}".to_vec();
        let prefixes = records(&sites);
        note_end(0, 77);
        take_in(&sites, true);
        begin();
        finish_ahead();
        let want = deflate::compress_chain(&splits(&prefixes[..12]), 77, 1);
        assert_eq!(take(&splits(&prefixes), 77), want);
    }
}
