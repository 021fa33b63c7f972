//! `yioop_codec\archive\getObjects`: `WebArchive::getObjects` with a
//! `GzipCompressor`, the records read and inflated natively
//! (`crate::index::archive`) and each one unserialized natively
//! (`crate::php::runtime::unserialize`) or, for a text that reader leaves,
//! by PHP's own `unserialize`, called as Yioop calls it (`@unserialize`).
//! Its contract, declines included: php/yioop_codec.stub.php.
//!
//! With no handle it reads through the descriptor the shard reads share for
//! the file's current inode (`crate::index::shard::shared::shared_descriptor`)
//! instead of opening the file every call; with one, through the handle's
//! own descriptor, and it leaves the handle where Yioop's reads would.

use crate::php::runtime::ffi::{PHP_STREAM_FLAG_NO_SEEK, _php_stream_cast, _php_stream_seek, php_file_le_pstream, php_file_le_stream, php_stream_stdio_ops};
use crate::php::runtime::convert::bytes_zval;
use crate::php::runtime::unserialize;
use crate::php::runtime::arrays::{list_of, pair_of};
use crate::php::runtime::function::{self, Param};
use crate::php::runtime::object::Object;
use crate::php::runtime::switched::calls_native;
use crate::php::runtime::keys::OwnedKey;
use crate::php::runtime::zval::{array_zval, counts_zval, empty_array_zval, long_of, long_zval};
use crate::index::archive::{self as core, inflate, record_cache, written, Decline, Record, Records};
use ext_php_rs::ffi::{zend_call_known_function, zend_fetch_function_str, zend_function, zend_resource, zval};
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;
use std::fs::File;
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use std::rc::Rc;

/// The class whose `uncompress`/`uncompressInt`/`compressedIntLen` the
/// native reads reproduce.
const GZIP_COMPRESSOR: &str = "seekquarry\\yioop\\library\\compressors\\GzipCompressor";

/// main/php_streams.h: cast to a file descriptor, without the warning
/// about buffered data (reads here go around the buffer and reposition the
/// stream after).
const PHP_STREAM_AS_FD: i32 = 1;
const PHP_STREAM_CAST_INTERNAL: i32 = 0x2000_0000;
const SEEK_SET: i32 = 0;

php_function!(GET_OBJECTS, get_objects_handler, "yioop_codec\\archive\\getObjects", [Param::Value("archive"), Param::Value("offset"), Param::Value("num"), Param::Value("next_flag"), Param::Value("fh"), Param::Value("max_size")], DataType::Mixed, |args| Ok(get_objects(args).unwrap_or_else(|Decline| Zval::new())));

/// Where the records are read from: the archive's file, or the caller's
/// handle (its stream, to leave where Yioop's reads would).
enum Source {
    Shared(Rc<File>),
    Handle(ManuallyDrop<File>, *mut ext_php_rs::ffi::_php_stream),
}

impl Source {
    fn file(&self) -> &File {
        match self {
            Source::Shared(file) => file,
            Source::Handle(file, _) => file,
        }
    }

    /// Moves a caller's handle to `at`, as Yioop's reads up to there leave it.
    fn reached(&self, at: i64) {
        if let Source::Handle(_, stream) = self {
            unsafe { _php_stream_seek(*stream, at, SEEK_SET) };
        }
    }
}

fn get_objects(args: &mut function::Args) -> Result<Zval, Decline> {
    // Between taking an upload in and adding its records, the queue
    // server reads an archive only to build a shard.
    crate::index::archive::records_ahead::begin();
    let unserialize = unserialize_function().ok_or(Decline)?;
    let offset = long_of(args.take(1).dereference()).ok_or(Decline)?;
    let num = long_of(args.take(2).dereference()).ok_or(Decline)?;
    let next_flag = args.flag(3, true);
    let limit = size_limit(args.take(5).dereference())?;
    let fh = args.take(4).dereference();
    let archive = args.take(0).dereference_mut().object_mut().ok_or(Decline)?;
    let mut archive = Object(archive);
    check_archive(&archive)?;
    let source = if fh.is_null() || fh.bool() == Some(false) { Source::Shared(archive_file(&archive)?) } else { handle_file(fh)? };
    if offset < 0 {
        return Err(Decline); // fseek fails: left to Yioop
    }
    let Records { records, end } = core::read_records(source.file(), offset, num, limit)?;
    let inflated = inflate_records(&records, offset)?;
    let mut read = Vec::with_capacity(inflated.len());
    for text in &inflated {
        let value = unserialize::unserialize(text);
        if value.is_none() && may_build_object(text) {
            return Err(Decline);
        }
        read.push(value);
    }
    // Nothing declines from here on: unserialize may run PHP code.
    let mut objects = Vec::with_capacity(inflated.len());
    for ((record, text), value) in records.iter().zip(&inflated).zip(read) {
        source.reached(record.next);
        let object = value.unwrap_or_else(|| silent_unserialize(unserialize, bytes_zval(text)));
        objects.push(pair_of(long_zval(record.next), object));
        if crate::php::runtime::engine::has_exception() {
            return Ok(Zval::new()); // Yioop's getObjects throws it, iterator untouched
        }
    }
    if num <= 0 {
        source.reached(offset); // fseek($fh, $offset) and no read
    }
    if next_flag {
        archive.set_property("iterator_pos", long_zval(end));
    }
    crate::php::text::phrases_ahead::note_objects(&objects);
    let mut pairs = objects.into_iter().map(Some).collect::<Vec<_>>();
    Ok(array_zval(list_of(pairs.len(), |i| array_zval(pairs[i].take().expect("each pair once")))))
}

const WEB_ARCHIVE: &str = "seekquarry\\yioop\\library\\WebArchive";
const MAX_ARCHIVE_OBJECT_SIZE: &str = "seekquarry\\yioop\\configs\\MAX_ARCHIVE_OBJECT_SIZE";

/// What `WebArchiveBundle::getPage($offset, $index)` returns, read
/// natively with the page's top-level entries keyed in `left_out` not
/// built, and whether the page had any entry. Yioop's opens the partition
/// for this one read and drops the handle; here the read goes through the
/// descriptor getObjects shares, and through the summary cache. For a
/// partition already loaded (else getPartition makes it) that is a
/// WebArchive whose getObjects is switched; declines before changing
/// anything.
pub(crate) fn bundle_page(bundle: &Zval, offset: i64, index: i64, left_out: &[OwnedKey]) -> Result<(Zval, bool), Decline> {
    if !calls_native(WEB_ARCHIVE, "getobjects", "yioop_codec\\archive\\getobjects") || offset < 0 {
        return Err(Decline);
    }
    let limit = size_limit(crate::php::runtime::engine::constant(MAX_ARCHIVE_OBJECT_SIZE).ok_or(Decline)?)?;
    let bundle = bundle.object().ok_or(Decline)?;
    let partition = bundle.get_property::<&Zval>("partition").ok().and_then(|p| p.dereference().array()).and_then(|p| p.get_index(index)).ok_or(Decline)?.dereference();
    if partition.object().and_then(|o| o.get_class_entry().name()) != Some(WEB_ARCHIVE) {
        return Err(Decline);
    }
    // Objects are handles: the partition is written through its pointer.
    let mut archive = Object(unsafe { &mut *partition.value.obj.cast::<ext_php_rs::types::ZendObject>() });
    check_archive(&archive)?;
    let file = archive_file(&archive)?;
    let Records { mut records, end } = core::read_records(&file, offset, 1, limit)?;
    let Some(record) = records.pop() else {
        archive.set_property("iterator_pos", long_zval(end));
        return Ok((empty_array_zval(), false));
    };
    let (page, had_entries) = match reduced_page(offset, &record.bytes, left_out)? {
        Some(read) => read,
        None => whole_page(offset, &record.bytes, left_out)?,
    };
    archive.set_property("iterator_pos", long_zval(end));
    if page.is_null() {
        return Ok((empty_array_zval(), false)); // isset($page_array[0][1]) fails: []
    }
    Ok((page, had_entries))
}

/// A page read from its whole inflated text (kept as that by the cache),
/// by the native reader or else by PHP's `unserialize`.
fn whole_page(offset: i64, record: &[u8], left_out: &[OwnedKey]) -> Result<(Zval, bool), Decline> {
    let text = record_cache::inflated(offset, record)?;
    match unserialize::unserialize_leaving_out(&text, left_out) {
        Some(read) => Ok(read),
        None if may_build_object(&text) => Err(Decline),
        None => {
            let unserialize = unserialize_function().ok_or(Decline)?;
            let page = silent_unserialize(unserialize, bytes_zval(&text));
            let had = page.array().is_some_and(|a| !a.is_empty());
            Ok((page, had))
        }
    }
}

/// A page with `left_out` not built, from what the cache keeps of its
/// record for that: the text of its other entries (a fifth of a stored
/// summary, for a search's exclusions), so it holds five times the records
/// and skips inflating them. None where nothing is left out or the native
/// reader does not take the whole text (then [`whole_page`]).
fn reduced_page(offset: i64, record: &[u8], left_out: &[OwnedKey]) -> Result<Option<(Zval, bool)>, Decline> {
    let Some(max_depth) = unserialize::max_depth().filter(|_| !left_out.is_empty()) else {
        return Ok(None);
    };
    let variant = reduction_variant(left_out, max_depth);
    let Ok(kept) = record_cache::kept(offset, record, variant, |record| reduced_text(record, left_out, max_depth)) else {
        return Ok(None);
    };
    let (had_entries, text) = kept.split_first().ok_or(Decline)?;
    let (page, _) = unserialize::unserialize_leaving_out(text, &[]).ok_or(Decline)?;
    Ok(Some((page, *had_entries == 1)))
}

/// The cache's variant for a reduction: the keys left out and the
/// `unserialize_max_depth` the whole text was read under (never 0, the
/// inflated text's).
fn reduction_variant(left_out: &[OwnedKey], max_depth: usize) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = rustc_hash::FxHasher::default();
    (left_out, max_depth).hash(&mut hasher);
    hasher.finish().max(1)
}

/// Whether the page had entries (a byte), then the text of the page with
/// its outermost entries keyed in `left_out` cut out; the whole text read
/// first as the native reader reads it (declined where it would decline).
fn reduced_text(record: &[u8], left_out: &[OwnedKey], max_depth: usize) -> Result<Rc<[u8]>, Decline> {
    let text = inflate::inflate(record)?;
    let Some(entries) = crate::php_semantics::unserialize::outer_entries(&text, max_depth)? else {
        return Ok([&[0u8][..], &text].concat().into()); // not a non-empty array: kept whole
    };
    let kept: Vec<_> = entries.iter().filter(|(key, _)| !left_out.iter().any(|out| out.is(key))).collect();
    let mut out = format!("\x01a:{}:{{", kept.len()).into_bytes();
    for (_, span) in kept {
        out.extend_from_slice(&text[span.clone()]);
    }
    out.push(b'}');
    Ok(out.into())
}

php_function!(GET_PAGE, get_page_handler, "yioop_codec\\archive\\getPage", [Param::Value("bundle"), Param::Value("offset"), Param::Value("partition")], DataType::Mixed, |args| Ok(get_page(args).unwrap_or_else(|Decline| Zval::new())));

/// `WebArchiveBundle::getPage($offset, $partition)`, for a partition
/// already loaded (see [`bundle_page`]).
fn get_page(args: &mut function::Args) -> Result<Zval, Decline> {
    let offset = long_of(args.take(1).dereference()).ok_or(Decline)?;
    let index = long_of(args.take(2).dereference()).ok_or(Decline)?; // getPartition reads a non-int as 0
    Ok(bundle_page(args.take(0).dereference(), offset, index, &[])?.0)
}

/// The records inflated. A read of one record (`WebArchiveBundle::getPage`,
/// what searches repeat) goes through the record cache; a read of many
/// (`nextObjects` while indexing) reads each record once, so it does not,
/// and takes the text of a record this thread's addObjects wrote (to the
/// file it last wrote) with these very bytes instead of inflating it.
fn inflate_records(records: &[Record], offset: i64) -> Result<Vec<Rc<[u8]>>, Decline> {
    if let [record] = records {
        return Ok(vec![record_cache::inflated(offset, &record.bytes)?]);
    }
    let starts = std::iter::once(offset).chain(records.iter().map(|r| r.next));
    records.iter().zip(starts).map(|(r, at)| written::take(at, &r.bytes).map_or_else(|| inflate::inflate(&r.bytes), Ok)).collect()
}

/// Whether PHP's `unserialize` of a text the native reader leaves may make
/// an object: an object made under this native frame differs from Yioop's
/// (an Exception's trace gains the frame and takes its file and line from
/// the switched method; a `__wakeup` sees the frame), so such records leave
/// the call to Yioop. The tokens are walked as PHP reads them, strings
/// skipped by their length, until an object (`O:`, `C:`, `E:` and a
/// length) or where
/// PHP's reading would fail (it stops there); an escaped string (`S:`)
/// ends the walk with a plain search of the rest.
fn may_build_object(text: &[u8]) -> bool {
    let marker = |rest: &[u8]| rest.windows(2).any(|w| w[1] == b':' && matches!(w[0], b'O' | b'C' | b'E'));
    let mut at = 0;
    while let Some(&kind) = text.get(at) {
        match kind {
            b'}' => at += 1,
            b'O' | b'C' | b'E' => {
                // `O:len:"...`: anything else fails PHP's reading here.
                let digits = text[(at + 2).min(text.len())..].iter().take_while(|b| b.is_ascii_digit()).count();
                return text.get(at + 1) == Some(&b':') && digits > 0 && text.get(at + 2 + digits..at + 4 + digits) == Some(&b":\""[..]);
            }
            b'S' => return marker(&text[at..]),
            b's' => {
                let digits = text[(at + 2).min(text.len())..].iter().take_while(|b| b.is_ascii_digit()).count();
                let len_at = at + 2;
                let Some(len) = std::str::from_utf8(&text[len_at.min(text.len())..(len_at + digits).min(text.len())]).ok().and_then(|d| d.parse::<usize>().ok()) else { return false };
                let open = len_at + digits;
                if text.get(at + 1) != Some(&b':') || text.get(open..open + 2) != Some(&b":\""[..]) {
                    return false;
                }
                let close = open + 2 + len;
                if text.get(close..close + 2) != Some(&b"\";"[..]) {
                    return false;
                }
                at = close + 2;
            }
            b'a' => match text[at..].iter().position(|&b| b == b'{') {
                Some(brace) => at += brace + 1,
                None => return false,
            },
            _ => match text[at..].iter().position(|&b| b == b';') {
                Some(end) => at += end + 1,
                None => return false,
            },
        }
    }
    false
}

/// `$max_size` as the bound `$len < $max_size` compares with: an int, a
/// float, or a string of decimal digits (the installer writes config
/// constants as strings). Other values are left to Yioop.
fn size_limit(value: &Zval) -> Result<i64, Decline> {
    if let Some(n) = long_of(value) {
        return Ok(n);
    }
    if let Some(f) = value.double() {
        // For an int len, len < f exactly when len < ceil(f).
        return if f.is_nan() { Err(Decline) } else { Ok(f.ceil().clamp(i64::MIN as f64, i64::MAX as f64) as i64) };
    }
    let s = value.zend_str().ok_or(Decline)?.as_bytes();
    let digits = s.strip_prefix(b"-").unwrap_or(s);
    if digits.is_empty() || digits.len() > 18 || !digits.iter().all(u8::is_ascii_digit) {
        return Err(Decline);
    }
    let n: i64 = std::str::from_utf8(digits).map_err(|_| Decline)?.parse().map_err(|_| Decline)?;
    Ok(if s[0] == b'-' { -n } else { n })
}

/// The archive is on disk and reads with Yioop's `GzipCompressor`.
pub(super) fn check_archive(archive: &Object) -> Result<(), Decline> {
    let is_string = archive.property("is_string").ok_or(Decline)?;
    if !(is_string.is_null() || is_string.bool() == Some(false)) {
        return Err(Decline);
    }
    let compressor = archive.property("compressor").and_then(Zval::object).ok_or(Decline)?;
    if compressor.get_class_entry().name() != Some(GZIP_COMPRESSOR) {
        return Err(Decline);
    }
    Ok(())
}

/// What `fopen($this->filename, "r")` opens: a plain path only, and not
/// where `open_basedir` has a say.
fn archive_file(archive: &Object) -> Result<Rc<File>, Decline> {
    let name = archive.property("filename").and_then(Zval::zend_str).ok_or(Decline)?.as_bytes();
    if name.is_empty() || !crate::php::runtime::engine::plain_file_path(name) {
        return Err(Decline);
    }
    let path = std::path::Path::new(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(name));
    match crate::index::shard::shared::shared_descriptor(path) {
        Ok(Some((file, _))) => Ok(file),
        _ => Err(Decline), // fopen would warn
    }
}

/// The device and inode of the file a handle has open, where it is a plain
/// file stream [`handle_file`] reads.
pub(super) fn handle_file_id(fh: &Zval) -> Option<written::FileId> {
    use std::os::unix::fs::MetadataExt;
    let metadata = handle_file(fh).ok()?.file().metadata().ok()?;
    Some((metadata.dev(), metadata.ino()))
}

/// The caller's handle: an open, readable, seekable plain-file stream
/// without read filters; read through its descriptor.
fn handle_file(fh: &Zval) -> Result<Source, Decline> {
    let resource: *mut zend_resource = fh.resource().ok_or(Decline)?;
    let stream = unsafe {
        let kind = (*resource).type_;
        if kind != php_file_le_stream() && kind != php_file_le_pstream() {
            return Err(Decline);
        }
        (*resource).ptr.cast::<ext_php_rs::ffi::_php_stream>()
    };
    let readable = unsafe {
        let s = &*stream;
        let mode = std::ffi::CStr::from_ptr(s.mode.as_ptr()).to_bytes();
        std::ptr::eq(s.ops, std::ptr::addr_of!(php_stream_stdio_ops))
            && s.readfilters.head.is_null()
            && s.flags & PHP_STREAM_FLAG_NO_SEEK == 0
            && (mode.first() == Some(&b'r') || mode.contains(&b'+'))
    };
    if !readable {
        return Err(Decline);
    }
    let mut fd: i32 = -1;
    let cast = unsafe { _php_stream_cast(stream, PHP_STREAM_AS_FD | PHP_STREAM_CAST_INTERNAL, std::ptr::from_mut(&mut fd).cast(), 0) };
    if cast != 0 || fd < 0 {
        return Err(Decline);
    }
    // The stream owns the descriptor: borrowed, never closed here.
    Ok(Source::Handle(ManuallyDrop::new(unsafe { File::from_raw_fd(fd) }), stream))
}

/// PHP's `unserialize` (None where disabled: Yioop's call would fail).
fn unserialize_function() -> Option<*mut zend_function> {
    let name = b"unserialize";
    let function = unsafe { zend_fetch_function_str(name.as_ptr().cast(), name.len()) };
    (!function.is_null()).then_some(function)
}

/// `@unserialize($text)`: PHP's own function, its notices silenced as `@`
/// silences them (an error handler still sees them, as with `@`).
fn silent_unserialize(function: *mut zend_function, mut text: Zval) -> Zval {
    let mut result = Zval::new();
    crate::php::runtime::errors::silenced(|| unsafe {
        zend_call_known_function(function, std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::from_mut(&mut result).cast::<zval>(), 1, std::ptr::from_mut(&mut text).cast::<zval>(), std::ptr::null_mut());
    });
    result
}

php_function!(CACHE_STATS, cache_stats_handler, "yioop_codec\\archive\\summaryCacheStats", [], DataType::Array, |_args| {
    let report = record_cache::cache_report();
    let stats = report.stats;
    Ok(counts_zval(&[("hits", stats.hits), ("misses", stats.misses), ("turnovers", stats.turnovers),
        ("entries", report.entries as u64), ("held_bytes", report.held_bytes as u64), ("limit_bytes", report.limit_bytes as u64)]))
});

pub fn register(module: ext_php_rs::builders::ModuleBuilder) -> ext_php_rs::builders::ModuleBuilder {
    function::register(module, &[(&GET_OBJECTS, get_objects_handler), (&GET_PAGE, get_page_handler), (&CACHE_STATS, cache_stats_handler)])
}
