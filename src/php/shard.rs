//! `yioop_codec\shard\*`: IndexShard's methods, each taking the shard
//! object first and then the method's own parameters.
//! `php/yioop-integrate.php` makes Yioop's methods call these. State stays
//! where Yioop keeps it: the object's `filename`, `fh`, `file_len` and
//! header fields (`shard_file` has how an object's file is opened and
//! read).
//!
//! Every function gives Yioop's result for the input it takes, and returns
//! null ("declines") for the rest, having changed nothing Yioop's PHP would
//! see: the switched method then runs Yioop's PHP. It declines where an
//! argument or property is not of the type Yioop itself keeps there (an
//! int offset, an int or null counter), where Yioop's PHP would warn or
//! throw (a damaged file), and for an object Yioop's PHP has been reading
//! itself. It throws only where Yioop's loop would never return.

use super::convert::{bytes_zval, value_error, Fallible};
use super::packed::list_of;
use super::raw::{self, Param, Signature};
use super::zval::{array_zval, bool_zval, long_of, long_zval};
use crate::index::shard::word_info::{self, WordInfo};
use crate::index::shard::word_docs::WordDocs;
use crate::index::shard::{ShardError, ShardFile, Word, HEADER_LENGTH};
use ext_php_rs::exception::PhpException;
use ext_php_rs::ffi::{zend_object, zval};
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendObject, Zval};
use ext_php_rs::zend::ExecuteData;
use ext_php_rs::boxed::ZBox;
use ext_php_rs::ffi::zend_string;
use ext_php_rs::types::ZendStr;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

extern "C" {
    fn zend_update_property_ex(
        scope: *mut ext_php_rs::ffi::zend_class_entry,
        object: *mut zend_object,
        name: *mut zend_string,
        value: *mut zval,
    );
    fn zend_read_property_ex(
        scope: *mut ext_php_rs::ffi::zend_class_entry,
        object: *mut zend_object,
        name: *mut zend_string,
        silent: bool,
        rv: *mut zval,
    ) -> *mut zval;
}

/// Property names as persistent PHP strings, made once per process and
/// kept by the address of the name's `&'static str`: PHP's by-name property
/// functions build and hash the name on every read. A small open-addressing
/// table of atomics (no thread-local look-up on this path); a name that
/// finds no free slot is made for the call alone.
const NAME_SLOTS: usize = 256;
static NAME_KEYS: [AtomicUsize; NAME_SLOTS] = [const { AtomicUsize::new(0) }; NAME_SLOTS];
static NAME_STRINGS: [AtomicPtr<zend_string>; NAME_SLOTS] = [const { AtomicPtr::new(std::ptr::null_mut()) }; NAME_SLOTS];

/// `name` as a PHP string, and whether it is a call's own (to be freed).
fn property_name(name: &'static str) -> (*mut zend_string, bool) {
    let key = name.as_ptr() as usize;
    let start = (key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) as usize >> 56;
    for probe in 0..NAME_SLOTS {
        let slot = (start + probe) % NAME_SLOTS;
        match NAME_KEYS[slot].load(Ordering::Acquire) {
            k if k == key => return (NAME_STRINGS[slot].load(Ordering::Acquire), false),
            0 => {
                let made: *mut zend_string = ZBox::into_raw(ZendStr::new(name, true)).cast();
                NAME_STRINGS[slot].store(made, Ordering::Release);
                NAME_KEYS[slot].store(key, Ordering::Release);
                return (made, false);
            }
            _ => {}
        }
    }
    (ZBox::into_raw(ZendStr::new(name, false)).cast(), true)
}

/// Runs `with` on `name` as a PHP string.
pub(super) fn with_name<R>(name: &'static str, with: impl FnOnce(*mut zend_string) -> R) -> R {
    let (string, own) = property_name(name);
    let result = with(string);
    if own {
        drop(unsafe { ZBox::from_raw(string.cast::<ZendStr>()) });
    }
    result
}

/// The shard header's fields, in file order (`headerToShardFields`).
const HEADER_FIELDS: [&str; 10] = [
    "prefixes_len",
    "words_len",
    "word_docs_len",
    "docids_len",
    "generation",
    "num_docs_per_generation",
    "num_docs",
    "num_link_docs",
    "len_all_docs",
    "len_all_link_docs",
];

/// `CrawlConstants::ASCENDING`.
const ASCENDING: i64 = 1;

/// How a native IndexShard function ends without its result.
pub(super) enum Stop {
    /// Yioop's PHP is to run the method instead: the function returns null.
    Decline,
    /// An exception for PHP.
    Throw(PhpException),
    /// Damaged postings on which Yioop's loop would never return.
    NeverReturns(ShardError),
}

impl From<PhpException> for Stop {
    fn from(e: PhpException) -> Stop {
        Stop::Throw(e)
    }
}

impl From<ShardError> for Stop {
    fn from(e: ShardError) -> Stop {
        match e {
            ShardError::NoConvergence => Stop::NeverReturns(e),
            // Yioop's PHP warns or throws here: let it.
            ShardError::RaggedBlock { .. } | ShardError::Warns(_) | ShardError::Throws(_) | ShardError::IntOverflow => Stop::Decline,
        }
    }
}

pub(super) type Outcome = Result<Zval, Stop>;

/// `yioop_codec\shard\NAME($shard, ...)`: its signature (`$sig`) and
/// handler. Also used by the shard modules declared after this one
/// (`#[macro_use]` in mod.rs); the caller has `raw`, `Param`, `Signature`,
/// `ExecuteData` and `Zval` in scope. The body gives an `Outcome` or a
/// `Fallible<Zval>`; null, or `Stop::Decline`, declines.
macro_rules! shard_function {
    ($sig:ident, $handler:ident, $name:literal, [$($param:expr),*], $returns:expr, |$args:ident| $body:expr) => {
        static $sig: Signature = Signature {
            name: concat!("yioop_codec\\shard\\", $name),
            params: &[Param::Value("shard"), $($param),*],
            returns: $returns,
        };
        extern "C" fn $handler(ex: &mut ExecuteData, retval: &mut Zval) {
            raw::call(ex, retval, &$sig, |$args| {
                let shard = $args.pointer(0);
                $crate::php::shard::finish(&$sig, shard, (|| -> $crate::php::shard::Outcome { $body })())
            });
        }
    };
}

/// The result of a call: a decline hands the object's native state over to
/// Yioop's PHP first (`Shard::hand_over`) and returns null.
pub(super) fn finish(signature: &Signature, shard: *mut Zval, outcome: Outcome) -> Fallible<Zval> {
    let declined = matches!(&outcome, Ok(value) if value.is_null()) || matches!(outcome, Err(Stop::Decline));
    if declined {
        if let Some(object) = unsafe { shard.as_mut() }.and_then(|s| s.dereference_mut().object_mut()) {
            Shard(object).hand_over();
        }
    }
    file::end_call();
    match outcome {
        _ if declined => Ok(Zval::new()),
        Ok(value) => Ok(value),
        Err(Stop::Throw(e)) => Err(e),
        Err(Stop::NeverReturns(e)) => Err(value_error(format!("{}(): {e}", signature.name))),
        Err(Stop::Decline) => unreachable!("declined above"),
    }
}

#[path = "shard_file.rs"]
mod file;
#[path = "shard_slice.rs"]
mod slice;

/// The shard object a call was given.
pub(super) struct Shard<'a>(pub(super) &'a mut ZendObject);

impl<'a> Shard<'a> {
    pub(super) fn of(value: &'a mut Zval, function: &str) -> Fallible<Shard<'a>> {
        let value = value.dereference_mut();
        if !value.is_object() {
            return Err(super::convert::type_error(format!(
                "{function}(): Argument #1 ($shard) must be of type object, {} given",
                super::convert::type_name(value)
            )));
        }
        Ok(Shard(value.object_mut().expect("checked above")))
    }

    /// A property's value, references followed: what `$this->name` reads.
    pub(super) fn property(&self, name: &'static str) -> Option<&Zval> {
        self.property_ptr(name).map(|p| unsafe { &*p }.dereference())
    }

    fn property_ptr(&self, name: &'static str) -> Option<*mut Zval> {
        let object = self.0 as *const ZendObject as *mut zend_object;
        let mut rv = Zval::new();
        let found = with_name(name, |name| unsafe { zend_read_property_ex((*object).ce, object, name, true, &mut rv as *mut Zval as *mut zval) });
        // Declared and dynamic properties are read in place; anything PHP
        // had to build in `rv` (magic __get) is not a shard field.
        // An undefined property reads as PHP's shared uninitialized zval.
        let undefined = unsafe { std::ptr::addr_of_mut!(ext_php_rs::ffi::executor_globals.uninitialized_zval) };
        if found.is_null() || std::ptr::eq(found.cast::<Zval>(), &rv) || found == undefined {
            return None;
        }
        Some(found.cast::<Zval>())
    }

    /// A declared property's slot, for writing in place (references
    /// followed). None for anything else: a dynamic property, or an unset
    /// one, which PHP reads from a shared global.
    pub(super) fn property_slot(&mut self, name: &'static str) -> Option<&mut Zval> {
        self.declared_ptr(name).map(|slot| unsafe { &mut *slot }.dereference_mut())
    }

    /// Where a declared property sits in the object (it never moves while
    /// the object lives), references not followed; None for anything else.
    pub(super) fn declared_ptr(&mut self, name: &'static str) -> Option<*mut Zval> {
        let found = self.property_ptr(name)?;
        let object = std::ptr::from_mut(self.0).cast::<zend_object>();
        let declared = unsafe {
            let first = (*object).properties_table.as_mut_ptr().cast::<Zval>();
            let count = (*(*object).ce).default_properties_count as usize;
            found >= first && found < first.add(count)
        };
        declared.then_some(found)
    }

    /// `$this->name = $value` (through a reference, as PHP assigns).
    pub(super) fn set_property(&mut self, name: &'static str, mut value: Zval) {
        let object = self.0 as *mut ZendObject as *mut zend_object;
        with_name(name, |name| unsafe { zend_update_property_ex((*object).ce, object, name, std::ptr::from_mut(&mut value).cast()) });
    }

    /// An int field as Yioop keeps it: an int, or null (None; PHP's
    /// arithmetic reads it as 0). Anything else declines, an undefined
    /// property too (Yioop's read of it warns).
    pub(super) fn int_or_null(&self, name: &'static str) -> Result<Option<i64>, Stop> {
        match self.property(name) {
            None => Err(Stop::Decline),
            Some(value) if value.is_null() => Ok(None),
            Some(value) => long_of(value).map(Some).ok_or(Stop::Decline),
        }
    }

    /// An int field Yioop tests with `isset` or `empty` first: None where
    /// it is undefined or null, which Yioop reads without a warning.
    pub(super) fn int_if_set(&self, name: &'static str) -> Result<Option<i64>, Stop> {
        match self.property(name) {
            None => Ok(None),
            Some(_) => self.int_or_null(name),
        }
    }

    /// An int field, null read as 0.
    pub(super) fn int_field(&self, name: &'static str) -> Result<i64, Stop> {
        Ok(self.int_or_null(name)?.unwrap_or(0))
    }

    /// `getShardHeader()`: unless `num_docs` is already above 0, the
    /// header's ten fields and the section offsets derived from them.
    /// A header shorter than 40 bytes makes Yioop's `list()` warn.
    fn load_header(&mut self, file: &ShardFile) -> Result<(), Stop> {
        if self.int_if_set("num_docs")?.unwrap_or(0) > 0 {
            return Ok(());
        }
        let header = file.read_block(0, false, |block| block[..block.len().min(HEADER_LENGTH as usize)].to_vec())?;
        let header = header.unwrap_or_default();
        if header.is_empty() || header == b"0" {
            return Ok(()); // `if (!$header)`
        }
        if header.len() < HEADER_LENGTH as usize {
            return Err(Stop::Decline);
        }
        for (name, value) in HEADER_FIELDS.iter().zip(crate::index::shard::unpack_words(&header)) {
            self.set_property(name, long_zval(value));
        }
        let word_doc_offset = HEADER_LENGTH + self.int_field("prefixes_len")? + self.int_field("words_len")?;
        self.set_property("word_doc_offset", long_zval(word_doc_offset));
        let doc_info_offset = self.int_field("file_len")?.checked_sub(self.int_field("docids_len")?).ok_or(Stop::Decline)?;
        self.set_property("doc_info_offset", long_zval(doc_info_offset));
        Ok(())
    }

    /// `$this->field + $offset` for an int field, as the word_docs and
    /// doc_infos accessors add it; declines where the sum would be a float.
    fn offset_from(&self, field: &'static str, offset: i64) -> Result<i64, Stop> {
        self.int_field(field)?.checked_add(offset).ok_or(Stop::Decline)
    }
}

/// Argument `i`, which must be an int (references followed); anything else
/// is left to Yioop's PHP, whose arithmetic on it differs.
fn int_arg(args: &mut raw::Args, i: usize) -> Result<i64, Stop> {
    long_of(args.take(i).dereference()).ok_or(Stop::Decline)
}

/// An optional int argument, its default when left out.
fn optional_int(args: &mut raw::Args, i: usize, default: i64) -> Result<i64, Stop> {
    match args.take_optional(i) {
        Some(value) => long_of(value.dereference()).ok_or(Stop::Decline),
        None => Ok(default),
    }
}

fn word_zval(word: Word) -> Zval {
    match word {
        Word::Int(w) => long_zval(i64::from(w)),
        Word::False => bool_zval(false),
    }
}

fn false_zval() -> Zval {
    bool_zval(false)
}

/// Runs `read` on the object's file; `missing` where Yioop's read gives
/// false (no file).
fn with_file(shard: &mut Shard, missing: impl FnOnce() -> Zval, read: impl FnOnce(&ShardFile) -> Outcome) -> Outcome {
    match shard.open_file()? {
        Some(file) => read(&file.view()),
        None => Ok(missing()),
    }
}

shard_function!(READ_BLOCK, read_block_handler, "readBlockShardAtOffset", [Param::Value("bytes"), Param::Bool("cache", "true")], DataType::Mixed, |args| {
    let cache = args.flag(2, true);
    let bytes = int_arg(args, 1)?;
    let mut shard = Shard::of(args.take(0), READ_BLOCK.name)?;
    with_file(&mut shard, false_zval, |file| Ok(file.read_block(bytes, cache, bytes_zval)?.unwrap_or_else(false_zval)))
});

shard_function!(SUBSTRING, substring_handler, "getShardSubstring", [Param::Value("offset"), Param::Value("len"), Param::Bool("cache", "true")], DataType::Mixed, |args| {
    let cache = args.flag(3, true);
    let (offset, len) = (int_arg(args, 1)?, int_arg(args, 2)?);
    let mut shard = Shard::of(args.take(0), SUBSTRING.name)?;
    with_file(&mut shard, || bytes_zval(b""), |file| Ok(bytes_zval(&file.substring(offset, len, cache)?)))
});

shard_function!(WORD, word_handler, "getShardWord", [Param::Value("offset")], DataType::Mixed, |args| {
    let offset = int_arg(args, 1)?;
    let mut shard = Shard::of(args.take(0), WORD.name)?;
    with_file(&mut shard, false_zval, |file| Ok(word_zval(file.word(offset)?)))
});

/// The word_docs section of the object's file: `$this->word_doc_offset`
/// on, with `read` run on it; `missing` where Yioop reads false.
fn with_word_docs(shard: &mut Shard, missing: impl FnOnce() -> Zval, read: impl FnOnce(&WordDocs) -> Outcome) -> Outcome {
    let base = shard.int_field("word_doc_offset")?;
    with_file(shard, missing, |file| read(&WordDocs { file, base }))
}

shard_function!(WORD_DOCS_WORD, word_docs_word_handler, "getWordDocsWord", [Param::Value("offset")], DataType::Mixed, |args| {
    let offset = int_arg(args, 1)?;
    let mut shard = Shard::of(args.take(0), WORD_DOCS_WORD.name)?;
    with_word_docs(&mut shard, false_zval, |docs| Ok(word_zval(docs.word(offset)?)))
});

/// `getWordDocsSubstring` and `getDocInfoSubstring`: a section's bytes,
/// `len` ≤ 0 meaning the whole section.
fn section_substring(args: &mut raw::Args, name: &'static str, base_field: &'static str, len_field: &'static str, cache_default: bool) -> Outcome {
    let cache = args.flag(3, cache_default);
    let offset = optional_int(args, 1, 0)?;
    let len = optional_int(args, 2, 0)?;
    let mut shard = Shard::of(args.take(0), name)?;
    // A null section length would be substr()'s null length: left to PHP.
    let len = if len <= 0 { shard.int_or_null(len_field)?.ok_or(Stop::Decline)? } else { len };
    let start = shard.offset_from(base_field, offset)?;
    with_file(&mut shard, || bytes_zval(b""), |file| Ok(bytes_zval(&file.substring(start, len, cache)?)))
}

shard_function!(WORD_DOCS_SUBSTRING, word_docs_substring_handler, "getWordDocsSubstring", [Param::Optional("offset", "0"), Param::Optional("len", "0"), Param::Bool("cache", "true")], DataType::Mixed, |args| {
    section_substring(args, WORD_DOCS_SUBSTRING.name, "word_doc_offset", "word_docs_len", true)
});

shard_function!(DOC_INFO_SUBSTRING, doc_info_substring_handler, "getDocInfoSubstring", [Param::Optional("offset", "0"), Param::Optional("len", "0"), Param::Bool("cache", "false")], DataType::Mixed, |args| {
    section_substring(args, DOC_INFO_SUBSTRING.name, "doc_info_offset", "docids_len", false)
});

shard_function!(DOC_INDEX_AT, doc_index_at_handler, "getDocIndexOfPostingAtOffset", [Param::Value("current")], DataType::Mixed, |args| {
    let current = int_arg(args, 1)?;
    let mut shard = Shard::of(args.take(0), DOC_INDEX_AT.name)?;
    // Every word reads false: docIndexModified9(false).
    let missing = || long_zval(crate::codec::modified9::doc_index_of_word(0));
    with_word_docs(&mut shard, missing, |docs| Ok(long_zval(docs.doc_index_at(current)?)))
});

shard_function!(POSTING_AT, posting_at_handler, "getPostingAtOffset", [Param::Value("current"), Param::Reference("posting_start"), Param::Reference("posting_end")], DataType::Mixed, |args| {
    let current = int_arg(args, 1)?;
    let mut shard = Shard::of(args.take(0), POSTING_AT.name)?;
    let no_file = crate::index::shard::word_docs::PostingAt { bytes: vec![0; 4], start: current, end: current };
    let mut found = None;
    let bytes = with_word_docs(&mut shard, || bytes_zval(&no_file.bytes), |docs| {
        let posting = docs.posting_at(current)?;
        let bytes = bytes_zval(&posting.bytes);
        found = Some(posting);
        Ok(bytes)
    })?;
    let (start, end) = found.map_or((current, current), |p| (p.start, p.end));
    args.take(2).dereference_mut().set_long(start);
    args.take(3).dereference_mut().set_long(end);
    Ok(bytes)
});

shard_function!(NEXT_POSTING, next_posting_handler, "nextPostingOffsetDocOffset", [Param::Value("start_offset"), Param::Value("end_offset"), Param::Value("doc_offset"), Param::Optional("direction", "1")], DataType::Mixed, |args| {
    let ascending = optional_int(args, 4, ASCENDING)? == ASCENDING;
    let (start, end, doc) = (int_arg(args, 1)?, int_arg(args, 2)?, int_arg(args, 3)?);
    let mut shard = Shard::of(args.take(0), NEXT_POSTING.name)?;
    let found = |docs: &WordDocs| -> Outcome {
        Ok(match docs.next_posting_offset_doc_offset(start, end, doc, ascending)? {
            Some((offset, doc_offset)) => array_zval(list_of(2, |i| long_zval([offset, doc_offset][i]))),
            None => false_zval(),
        })
    };
    // Without a file every posting reads as document 0.
    with_word_docs(&mut shard, || Zval::new(), found)
});

shard_function!(WORD_INFO, word_info_handler, "getWordInfo", [Param::Value("word_id"), Param::Bool("raw", "false")], DataType::Mixed, |args| {
    if !args.flag(2, false) {
        return Err(Stop::Decline); // unbase64Hash first: Yioop's PHP
    }
    let word_id = args.take(1).dereference().zend_str().ok_or(Stop::Decline)?.as_bytes().to_vec();
    let mut shard = Shard::of(args.take(0), WORD_INFO.name)?;
    let Some(file) = shard.open_file()? else { return Ok(false_zval()) };
    let file = file.view();
    shard.load_header(&file)?;
    let prefixes_len = shard.int_field("prefixes_len")?;
    let info = word_info::word_info(&file, &word_id, prefixes_len)?;
    Ok(info.map_or_else(false_zval, word_info_zval))
});

fn word_info_zval(info: WordInfo) -> Zval {
    let mut fields = [Some(long_zval(info.first_offset)), Some(long_zval(info.last_offset)), Some(long_zval(info.count)), Some(bytes_zval(&info.id))];
    array_zval(list_of(4, |i| fields[i].take().unwrap_or_default()))
}

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    let functions: [(&'static Signature, raw::Handler); 10] = [
        (&READ_BLOCK, read_block_handler),
        (&SUBSTRING, substring_handler),
        (&WORD, word_handler),
        (&WORD_DOCS_WORD, word_docs_word_handler),
        (&WORD_DOCS_SUBSTRING, word_docs_substring_handler),
        (&DOC_INFO_SUBSTRING, doc_info_substring_handler),
        (&DOC_INDEX_AT, doc_index_at_handler),
        (&POSTING_AT, posting_at_handler),
        (&NEXT_POSTING, next_posting_handler),
        (&WORD_INFO, word_info_handler),
    ];
    let module = functions.into_iter().fold(module, |module, (signature, handler)| module.function(signature.function(handler)));
    slice::register(module)
}

pub use file::{forget_objects, release_objects};
/// A stream on an object's open file, for other objects' hand-overs.
pub(super) use file::stream_on;
