//! `yioop_codec\shard\*`: IndexShard's disk-reading methods, each taking
//! the shard object first and then the method's own parameters.
//! `php/yioop-integrate.php` makes Yioop's methods call these. State stays
//! where Yioop keeps it: the object's `filename`, `file_len` (set here when
//! the object first touches its file, as Yioop's fopen does) and header
//! fields; blocks live in the core's shared cache (`crate::shard`).

use super::convert::{bytes_zval, int_operand, value_error, Fallible};
use super::packed::list_of;
use super::zval::{array_zval, bool_zval, long_zval};
use super::raw::{self, Param, Signature};
use crate::shard::dictionary::{self, WordInfo};
use crate::shard::postings::WordDocs;
use crate::shard::{ShardError, ShardFile, Word};
use ext_php_rs::ffi::{zend_long, zend_object, zend_read_property, zval};
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendObject, Zval};
use ext_php_rs::zend::ExecuteData;
use std::cell::RefCell;
use std::ffi::OsStr;
use std::os::raw::c_char;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::rc::Rc;

extern "C" {
    fn zend_update_property_long(
        scope: *mut ext_php_rs::ffi::zend_class_entry,
        object: *mut zend_object,
        name: *const c_char,
        name_length: usize,
        value: zend_long,
    );
    fn zend_update_property(
        scope: *mut ext_php_rs::ffi::zend_class_entry,
        object: *mut zend_object,
        name: *const c_char,
        name_length: usize,
        value: *mut zval,
    );
    fn zend_update_property_null(
        scope: *mut ext_php_rs::ffi::zend_class_entry,
        object: *mut zend_object,
        name: *const c_char,
        name_length: usize,
    );
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

/// `yioop_codec\shard\NAME($shard, ...)`: its signature (`$sig`) and
/// handler. Also used by the shard modules declared after this one
/// (`#[macro_use]` in mod.rs); the caller has `raw`, `Param`, `Signature`,
/// `ExecuteData` and `Zval` in scope.
macro_rules! shard_function {
    ($sig:ident, $handler:ident, $name:literal, [$($param:expr),*], $returns:expr, |$args:ident| $body:expr) => {
        static $sig: Signature = Signature {
            name: concat!("yioop_codec\\shard\\", $name),
            params: &[Param::Value("shard"), $($param),*],
            returns: $returns,
        };
        extern "C" fn $handler(ex: &mut ExecuteData, retval: &mut Zval) {
            raw::call(ex, retval, &$sig, |$args| $body);
        }
    };
}

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

    pub(super) fn property(&self, name: &str) -> Option<&Zval> {
        self.property_ptr(name).map(|p| unsafe { &*p })
    }

    fn property_ptr(&self, name: &str) -> Option<*mut Zval> {
        let object = self.0 as *const ZendObject as *mut zend_object;
        let mut rv = Zval::new();
        let found = unsafe {
            zend_read_property((*object).ce, object, name.as_ptr().cast(), name.len(), true, &mut rv as *mut Zval as *mut zval)
        };
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
    pub(super) fn property_slot(&mut self, name: &str) -> Option<&mut Zval> {
        let found = self.property_ptr(name)?;
        let object = std::ptr::from_mut(self.0).cast::<zend_object>();
        let declared = unsafe {
            let first = (*object).properties_table.as_mut_ptr().cast::<Zval>();
            let count = (*(*object).ce).default_properties_count as usize;
            found >= first && found < first.add(count)
        };
        declared.then(|| unsafe { &mut *found }.dereference_mut())
    }

    /// `$this->name = $value`.
    pub(super) fn set_property(&mut self, name: &str, mut value: Zval) {
        let object = self.0 as *mut ZendObject as *mut zend_object;
        unsafe { zend_update_property((*object).ce, object, name.as_ptr().cast(), name.len(), std::ptr::from_mut(&mut value).cast()) };
    }

    /// An int header field as PHP's arithmetic reads it (unset is 0).
    pub(super) fn int_field(&self, name: &str) -> i64 {
        self.property(name).and_then(|v| v.coerce_to_long()).unwrap_or(0)
    }

    fn set_long(&mut self, name: &str, value: i64) {
        let object = self.0 as *mut ZendObject as *mut zend_object;
        unsafe { zend_update_property_long((*object).ce, object, name.as_ptr().cast(), name.len(), value) };
    }

    fn set_null(&mut self, name: &str) {
        let object = self.0 as *mut ZendObject as *mut zend_object;
        unsafe { zend_update_property_null((*object).ce, object, name.as_ptr().cast(), name.len()) };
    }

    fn set_file_len(&mut self, len: i64) {
        self.set_long("file_len", len);
    }

    /// `getShardHeader()`: unless `num_docs` is already set, the header's
    /// ten fields (PHP's null for any a short header lacks) and the section
    /// offsets derived from them.
    fn load_header(&mut self, file: &ShardFile) -> Fallible<()> {
        if self.int_field("num_docs") > 0 {
            return Ok(());
        }
        let header = file.read_block(0, false, |block| block[..block.len().min(40)].to_vec());
        let header = header.map_err(|e| damaged(WORD_INFO.name, e))?.unwrap_or_default();
        if header.is_empty() {
            return Ok(());
        }
        let mut fields = crate::shard::unpack_words(&header);
        for name in HEADER_FIELDS {
            match fields.next() {
                Some(value) => self.set_long(name, value),
                None => self.set_null(name),
            }
        }
        let word_doc_offset = 40 + self.int_field("prefixes_len") + self.int_field("words_len");
        self.set_long("word_doc_offset", word_doc_offset);
        let doc_info_offset = self.int_field("file_len") - self.int_field("docids_len");
        self.set_long("doc_info_offset", doc_info_offset);
        Ok(())
    }

    /// The shard's file, opened (and `file_len` set) on the object's first
    /// read as Yioop opens it; `None` where Yioop's read gives false.
    fn file(&mut self) -> Option<Rc<ShardFile>> {
        let path = Path::new(OsStr::from_bytes(self.property("filename")?.zend_str()?.as_bytes()));
        let first_read = self.property("file_len").is_none_or(Zval::is_null);
        if first_read {
            let file = ShardFile::open_current(path)?;
            remember(path, &file);
            self.set_file_len(file.len());
            return Some(file);
        }
        recall(path).or_else(|| ShardFile::open_current(path))
    }

    fn word_docs<R>(&mut self, with: impl FnOnce(Option<&WordDocs>) -> R) -> R {
        let base = self.int_field("word_doc_offset");
        match self.file() {
            Some(file) => with(Some(&WordDocs { file: &file, base })),
            None => with(None),
        }
    }
}

thread_local! {
    /// The last file a call used: most calls in a row are on one shard.
    static LAST: RefCell<Option<(Vec<u8>, Rc<ShardFile>)>> = const { RefCell::new(None) };
}

fn remember(path: &Path, file: &Rc<ShardFile>) {
    LAST.with(|l| *l.borrow_mut() = Some((path.as_os_str().as_bytes().to_vec(), file.clone())));
}

fn recall(path: &Path) -> Option<Rc<ShardFile>> {
    let hit = LAST.with(|l| match &*l.borrow() {
        Some((last, file)) if last == path.as_os_str().as_bytes() => Some(file.clone()),
        _ => None,
    });
    if hit.is_none() {
        if let Some(file) = ShardFile::already_open(path) {
            remember(path, &file);
            return Some(file);
        }
    }
    hit
}

fn damaged(function: &str, error: ShardError) -> ext_php_rs::exception::PhpException {
    value_error(format!("{function}(): {error}"))
}

fn word_zval(word: Word) -> Zval {
    let mut z = Zval::new();
    match word {
        Word::Int(w) => return long_zval(i64::from(w)),
        Word::False => z.set_bool(false),
        Word::Null => z.set_null(),
    }
    z
}

fn false_zval() -> Zval {
    bool_zval(false)
}

shard_function!(READ_BLOCK, read_block_handler, "readBlockShardAtOffset", [Param::Value("bytes"), Param::Bool("cache", "true")], DataType::Mixed, |args| {
    let cache = args.flag(2, true);
    let shard = args.take(0);
    let bytes = int_operand(args.take(1).dereference(), ">=")?;
    let mut shard = Shard::of(shard, READ_BLOCK.name)?;
    let Some(file) = shard.file() else { return Ok(false_zval()) };
    let block = file.read_block(bytes, cache, bytes_zval).map_err(|e| damaged(READ_BLOCK.name, e))?;
    Ok(block.unwrap_or_else(false_zval))
});

shard_function!(SUBSTRING, substring_handler, "getShardSubstring", [Param::Value("offset"), Param::Value("len"), Param::Bool("cache", "true")], DataType::String, |args| {
    let cache = args.flag(3, true);
    let shard = args.take(0);
    let offset = int_operand(args.take(1).dereference(), ">>")?;
    let len = int_operand(args.take(2).dereference(), "+")?;
    let mut shard = Shard::of(shard, SUBSTRING.name)?;
    let Some(file) = shard.file() else { return Ok(bytes_zval(b"")) };
    file.substring(offset, len, cache).map(|s| bytes_zval(&s)).map_err(|e| damaged(SUBSTRING.name, e))
});

shard_function!(WORD, word_handler, "getShardWord", [Param::Value("offset")], DataType::Mixed, |args| {
    let shard = args.take(0);
    let offset = int_operand(args.take(1).dereference(), ">>")?;
    let mut shard = Shard::of(shard, WORD.name)?;
    let Some(file) = shard.file() else { return Ok(false_zval()) };
    file.word(offset).map(word_zval).map_err(|e| damaged(WORD.name, e))
});

shard_function!(WORD_DOCS_WORD, word_docs_word_handler, "getWordDocsWord", [Param::Value("offset")], DataType::Mixed, |args| {
    let shard = args.take(0);
    let offset = int_operand(args.take(1).dereference(), "+")?;
    let mut shard = Shard::of(shard, WORD_DOCS_WORD.name)?;
    shard.word_docs(|docs| match docs {
        Some(docs) => docs.word(offset).map(word_zval).map_err(|e| damaged(WORD_DOCS_WORD.name, e)),
        None => Ok(false_zval()),
    })
});

/// `getWordDocsSubstring` and `getDocInfoSubstring`: a section's bytes,
/// `len` ≤ 0 meaning the whole section.
fn section_substring(args: &mut raw::Args, name: &'static str, base_field: &str, len_field: &str, cache_default: bool) -> Fallible<Zval> {
    let cache = args.flag(3, cache_default);
    let offset = args.int(1, 0)?;
    let len = args.int(2, 0)?;
    let shard = args.take(0);
    let mut shard = Shard::of(shard, name)?;
    let len = if len <= 0 { shard.int_field(len_field) } else { len };
    let base = shard.int_field(base_field);
    let Some(file) = shard.file() else { return Ok(bytes_zval(b"")) };
    file.substring(base.wrapping_add(offset), len, cache).map(|s| bytes_zval(&s)).map_err(|e| damaged(name, e))
}

shard_function!(WORD_DOCS_SUBSTRING, word_docs_substring_handler, "getWordDocsSubstring", [Param::Int("offset", "0"), Param::Int("len", "0"), Param::Bool("cache", "true")], DataType::String, |args| {
    section_substring(args, WORD_DOCS_SUBSTRING.name, "word_doc_offset", "word_docs_len", true)
});

shard_function!(DOC_INFO_SUBSTRING, doc_info_substring_handler, "getDocInfoSubstring", [Param::Int("offset", "0"), Param::Int("len", "0"), Param::Bool("cache", "false")], DataType::String, |args| {
    section_substring(args, DOC_INFO_SUBSTRING.name, "doc_info_offset", "docids_len", false)
});

shard_function!(DOC_INDEX_AT, doc_index_at_handler, "getDocIndexOfPostingAtOffset", [Param::Value("current")], DataType::Long, |args| {
    let shard = args.take(0);
    let current = int_operand(args.take(1).dereference(), "<<")?;
    let mut shard = Shard::of(shard, DOC_INDEX_AT.name)?;
    shard.word_docs(|docs| match docs {
        Some(docs) => docs.doc_index_at(current).map(long_zval).map_err(|e| damaged(DOC_INDEX_AT.name, e)),
        // Every word reads false: docIndexModified9(false).
        None => Ok(long_zval(crate::modified9::doc_index_of_word(0))),
    })
});

shard_function!(POSTING_AT, posting_at_handler, "getPostingAtOffset", [Param::Value("current"), Param::Reference("posting_start"), Param::Reference("posting_end")], DataType::String, |args| {
    let shard = args.take(0);
    let current = int_operand(args.take(1).dereference(), "<<")?;
    let mut shard = Shard::of(shard, POSTING_AT.name)?;
    let posting = shard.word_docs(|docs| match docs {
        Some(docs) => docs.posting_at(current).map_err(|e| damaged(POSTING_AT.name, e)),
        None => Ok(crate::shard::postings::PostingAt { bytes: vec![0; 4], start: current, end: current }),
    })?;
    args.take(2).dereference_mut().set_long(posting.start);
    args.take(3).dereference_mut().set_long(posting.end);
    Ok(bytes_zval(&posting.bytes))
});

shard_function!(NEXT_POSTING, next_posting_handler, "nextPostingOffsetDocOffset", [Param::Value("start_offset"), Param::Value("end_offset"), Param::Value("doc_offset"), Param::Int("direction", "1")], DataType::Mixed, |args| {
    let ascending = args.int(4, ASCENDING)? == ASCENDING;
    let shard = args.take(0);
    let [start, end, doc] = [1, 2, 3].map(|i| &*args.take(i).dereference());
    let (start, end, doc) = (int_operand(start, ">>")?, int_operand(end, ">>")?, int_operand(doc, ">>")?);
    let mut shard = Shard::of(shard, NEXT_POSTING.name)?;
    let found = shard.word_docs(|docs| match docs {
        Some(docs) => docs.next_posting_offset_doc_offset(start, end, doc, ascending).map_err(|e| damaged(NEXT_POSTING.name, e)),
        None => Ok(None),
    })?;
    Ok(match found {
        Some((offset, doc_offset)) => array_zval(list_of(2, |i| long_zval([offset, doc_offset][i]))),
        None => false_zval(),
    })
});

shard_function!(WORD_INFO, word_info_handler, "getWordInfo", [Param::Value("word_id"), Param::Bool("raw", "false")], DataType::Mixed, |args| {
    let shard = args.take(0);
    let word_id = match args.take(1).dereference().zend_str() {
        Some(id) => id.as_bytes().to_vec(),
        None => return Err(value_error(format!("{}(): a raw word id string is expected", WORD_INFO.name))),
    };
    let mut shard = Shard::of(shard, WORD_INFO.name)?;
    let Some(file) = shard.file() else { return Ok(false_zval()) };
    shard.load_header(&file)?;
    let prefixes_len = shard.int_field("prefixes_len");
    let info = dictionary::word_info(&file, &word_id, prefixes_len).map_err(|e| damaged(WORD_INFO.name, e))?;
    Ok(info.map_or_else(false_zval, word_info_zval))
});

fn word_info_zval(info: WordInfo) -> Zval {
    let first = info.first_offset.map_or_else(Zval::new, long_zval);
    let mut fields = [Some(first), Some(long_zval(info.last_offset)), Some(long_zval(info.count)), Some(bytes_zval(&info.id))];
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
