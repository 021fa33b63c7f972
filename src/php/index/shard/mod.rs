//! `yioop_codec\shard\*`: IndexShard's methods, each taking the shard
//! object first and then the method's own parameters (core:
//! `crate::index::shard`). Their contracts, and the decline rules they
//! share: php/yioop_codec.stub.php. State stays where Yioop keeps it: the object's `filename`,
//! `fh`, `file_len` and header fields (`file` has how an object's file is
//! opened, read and handed over to Yioop's PHP when a call declines).

use crate::php::runtime::object::Object;
use crate::php::runtime::convert::{bytes_zval, value_error, Fallible};
use crate::php::runtime::arrays::list_of;
use crate::php::runtime::function::{self, Args, Param, Signature};
use crate::php::runtime::zval::{array_zval, bool_zval, long_of, long_zval};
use crate::index::shard::word_info::{self, WordInfo};
use crate::index::shard::word_docs::WordDocs;
use crate::index::shard::{ShardError, ShardFile, Word, HEADER_LENGTH};
use ext_php_rs::exception::PhpException;
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;

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

/// Runs an IndexShard method's body, the shard its first argument, and
/// finishes the call as [`finish`] does.
pub(super) fn method(signature: &'static Signature, args: &mut Args, body: impl FnOnce(&mut Args) -> Outcome) -> Fallible<Zval> {
    let shard = args.pointer(0);
    finish(signature, shard, body(args))
}

/// The result of a call: a decline hands the object's native state over to
/// Yioop's PHP first (`Shard::hand_over`) and returns null.
pub(super) fn finish(signature: &Signature, shard: *mut Zval, outcome: Outcome) -> Fallible<Zval> {
    let declined = matches!(&outcome, Ok(value) if value.is_null()) || matches!(outcome, Err(Stop::Decline));
    if declined {
        if let Some(object) = unsafe { shard.as_mut() }.and_then(|s| s.dereference_mut().object_mut()) {
            Shard(Object(object)).hand_over();
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

/// Yioop's class, whose objects the switched methods hand over.
pub(in crate::php) const INDEX_SHARD: &str = "seekquarry\\yioop\\library\\IndexShard";

mod build;
mod file;
mod save;
mod slice;

pub(in crate::php) use slice::iterator_slice;
// Yioop's log functions, which the dictionary's native methods call too.
pub(in crate::php::index) use save::{logging_available, CRAWL_LOG, CRAWL_TIMEOUT_LOG};

/// A shard object: its properties as IndexShard's PHP reads them.
pub(super) struct Shard<'a>(pub(super) Object<'a>);

impl<'a> Shard<'a> {
    pub(super) fn of(value: &'a mut Zval, function: &str) -> Fallible<Shard<'a>> {
        Object::of(value, function).map(Shard)
    }
}

impl<'a> std::ops::Deref for Shard<'a> {
    type Target = Object<'a>;
    fn deref(&self) -> &Object<'a> {
        &self.0
    }
}

impl<'a> std::ops::DerefMut for Shard<'a> {
    fn deref_mut(&mut self) -> &mut Object<'a> {
        &mut self.0
    }
}

impl Shard<'_> {
    /// An int field as Yioop keeps it: an int, or null (None; PHP's
    /// arithmetic reads it as 0). Anything else declines, an undefined
    /// property too (Yioop's read of it warns).
    fn int_or_null(&self, name: &'static str) -> Result<Option<i64>, Stop> {
        match self.property(name) {
            None => Err(Stop::Decline),
            Some(value) if value.is_null() => Ok(None),
            Some(value) => long_of(value).map(Some).ok_or(Stop::Decline),
        }
    }

    /// An int field Yioop tests with `isset` or `empty` first: None where
    /// it is undefined or null, which Yioop reads without a warning.
    fn int_if_set(&self, name: &'static str) -> Result<Option<i64>, Stop> {
        match self.property(name) {
            None => Ok(None),
            Some(_) => self.int_or_null(name),
        }
    }

    /// An int field, null read as 0.
    fn int_field(&self, name: &'static str) -> Result<i64, Stop> {
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
fn int_arg(args: &mut function::Args, i: usize) -> Result<i64, Stop> {
    long_of(args.take(i).dereference()).ok_or(Stop::Decline)
}

/// An optional int argument, its default when left out.
fn optional_int(args: &mut function::Args, i: usize, default: i64) -> Result<i64, Stop> {
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

php_function!(READ_BLOCK, read_block_handler, "yioop_codec\\shard\\readBlockShardAtOffset", [Param::Value("shard"), Param::Value("bytes"), Param::Bool("cache", "true")], DataType::Mixed, |args| {
    method(&READ_BLOCK, args, |args| {
        let cache = args.flag(2, true);
        let bytes = int_arg(args, 1)?;
        let mut shard = Shard::of(args.take(0), READ_BLOCK.name)?;
        with_file(&mut shard, false_zval, |file| Ok(file.read_block(bytes, cache, bytes_zval)?.unwrap_or_else(false_zval)))
    })
});

php_function!(SUBSTRING, substring_handler, "yioop_codec\\shard\\getShardSubstring", [Param::Value("shard"), Param::Value("offset"), Param::Value("len"), Param::Bool("cache", "true")], DataType::Mixed, |args| {
    method(&SUBSTRING, args, |args| {
        let cache = args.flag(3, true);
        let (offset, len) = (int_arg(args, 1)?, int_arg(args, 2)?);
        let mut shard = Shard::of(args.take(0), SUBSTRING.name)?;
        with_file(&mut shard, || bytes_zval(b""), |file| Ok(bytes_zval(&file.substring(offset, len, cache)?)))
    })
});

php_function!(WORD, word_handler, "yioop_codec\\shard\\getShardWord", [Param::Value("shard"), Param::Value("offset")], DataType::Mixed, |args| {
    method(&WORD, args, |args| {
        let offset = int_arg(args, 1)?;
        let mut shard = Shard::of(args.take(0), WORD.name)?;
        with_file(&mut shard, false_zval, |file| Ok(word_zval(file.word(offset)?)))
    })
});

/// The word_docs section of the object's file: `$this->word_doc_offset`
/// on, with `read` run on it; `missing` where Yioop reads false.
fn with_word_docs(shard: &mut Shard, missing: impl FnOnce() -> Zval, read: impl FnOnce(&WordDocs) -> Outcome) -> Outcome {
    let base = shard.int_field("word_doc_offset")?;
    with_file(shard, missing, |file| read(&WordDocs { file, base }))
}

php_function!(WORD_DOCS_WORD, word_docs_word_handler, "yioop_codec\\shard\\getWordDocsWord", [Param::Value("shard"), Param::Value("offset")], DataType::Mixed, |args| {
    method(&WORD_DOCS_WORD, args, |args| {
        let offset = int_arg(args, 1)?;
        let mut shard = Shard::of(args.take(0), WORD_DOCS_WORD.name)?;
        with_word_docs(&mut shard, false_zval, |docs| Ok(word_zval(docs.word(offset)?)))
    })
});

/// `getWordDocsSubstring` and `getDocInfoSubstring`: a section's bytes,
/// `len` ≤ 0 meaning the whole section.
fn section_substring(args: &mut function::Args, name: &'static str, base_field: &'static str, len_field: &'static str, cache_default: bool) -> Outcome {
    let cache = args.flag(3, cache_default);
    let offset = optional_int(args, 1, 0)?;
    let len = optional_int(args, 2, 0)?;
    let mut shard = Shard::of(args.take(0), name)?;
    // A null section length would be substr()'s null length: left to PHP.
    let len = if len <= 0 { shard.int_or_null(len_field)?.ok_or(Stop::Decline)? } else { len };
    let start = shard.offset_from(base_field, offset)?;
    with_file(&mut shard, || bytes_zval(b""), |file| Ok(bytes_zval(&file.substring(start, len, cache)?)))
}

php_function!(WORD_DOCS_SUBSTRING, word_docs_substring_handler, "yioop_codec\\shard\\getWordDocsSubstring", [Param::Value("shard"), Param::Optional("offset", "0"), Param::Optional("len", "0"), Param::Bool("cache", "true")], DataType::Mixed, |args| {
    method(&WORD_DOCS_SUBSTRING, args, |args| {
        section_substring(args, WORD_DOCS_SUBSTRING.name, "word_doc_offset", "word_docs_len", true)
    })
});

php_function!(DOC_INFO_SUBSTRING, doc_info_substring_handler, "yioop_codec\\shard\\getDocInfoSubstring", [Param::Value("shard"), Param::Optional("offset", "0"), Param::Optional("len", "0"), Param::Bool("cache", "false")], DataType::Mixed, |args| {
    method(&DOC_INFO_SUBSTRING, args, |args| {
        section_substring(args, DOC_INFO_SUBSTRING.name, "doc_info_offset", "docids_len", false)
    })
});

php_function!(DOC_INDEX_AT, doc_index_at_handler, "yioop_codec\\shard\\getDocIndexOfPostingAtOffset", [Param::Value("shard"), Param::Value("current")], DataType::Mixed, |args| {
    method(&DOC_INDEX_AT, args, |args| {
        let current = int_arg(args, 1)?;
        let mut shard = Shard::of(args.take(0), DOC_INDEX_AT.name)?;
        // Every word reads false: docIndexModified9(false).
        let missing = || long_zval(crate::codec::modified9::doc_index_of_word(0));
        with_word_docs(&mut shard, missing, |docs| Ok(long_zval(docs.doc_index_at(current)?)))
    })
});

php_function!(POSTING_AT, posting_at_handler, "yioop_codec\\shard\\getPostingAtOffset", [Param::Value("shard"), Param::Value("current"), Param::Reference("posting_start"), Param::Reference("posting_end")], DataType::Mixed, |args| {
    method(&POSTING_AT, args, |args| {
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
    })
});

php_function!(NEXT_POSTING, next_posting_handler, "yioop_codec\\shard\\nextPostingOffsetDocOffset", [Param::Value("shard"), Param::Value("start_offset"), Param::Value("end_offset"), Param::Value("doc_offset"), Param::Optional("direction", "1")], DataType::Mixed, |args| {
    method(&NEXT_POSTING, args, |args| {
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
    })
});

php_function!(WORD_INFO, word_info_handler, "yioop_codec\\shard\\getWordInfo", [Param::Value("shard"), Param::Value("word_id"), Param::Bool("raw", "false")], DataType::Mixed, |args| {
    method(&WORD_INFO, args, |args| {
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
    })
});

fn word_info_zval(info: WordInfo) -> Zval {
    let mut fields = [Some(long_zval(info.first_offset)), Some(long_zval(info.last_offset)), Some(long_zval(info.count)), Some(bytes_zval(&info.id))];
    array_zval(list_of(4, |i| fields[i].take().unwrap_or_default()))
}

php_function!(CACHE_STATS, cache_stats_handler, "yioop_codec\\shard\\blockCacheStats", [], DataType::Array, |_args| {
    let stats = crate::index::shard::shared::cache_stats();
    let (held, limit) = crate::index::shard::shared::cache_size();
    Ok(crate::php::runtime::zval::counts_zval(&[("hits", stats.hits), ("misses", stats.misses),
        ("start_overs", stats.start_overs), ("version_resets", stats.version_resets),
        ("held_bytes", held as u64), ("limit_bytes", limit as u64)]))
});

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    let functions: &[(&'static Signature, function::Handler)] = &[
        (&CACHE_STATS, cache_stats_handler),
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
    let module = function::register(module, functions);
    let module = slice::register(module);
    let module = build::register(module);
    save::register(module)
}

pub use file::{forget_objects, release_objects};
/// A stream on an object's open file, for other objects' hand-overs.
pub(super) use file::stream_on;
