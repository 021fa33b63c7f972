//! `yioop_codec\dictionary\mergeTierFiles`: IndexDictionary's
//! `mergeTierFiles`, the two files of a tier in one first-byte folder
//! merged into one file a tier up (core: `crate::index::dictionary::merge`).
//! Its contract, declines included: php/yioop_codec.stub.php.
//!
//! Both files are read whole and the merge made in memory before anything
//! is written, so a decline leaves everything as it was. The output is
//! written in Yioop's order (a blank prefix index, the records, then the
//! index over the blank), and the two files are removed with PHP's own
//! `unlink`, which clears PHP's stat cache as Yioop's calls do.

use crate::index::dictionary::merge::{self, BLANK_PREFIX_ITEM, ENTRY, ITEM, KEY, PREFIXES, PREFIX_HEADER};
use crate::php::index::shard::{logging_available, CRAWL_TIMEOUT_LOG, INDEX_SHARD};
use crate::php::runtime::classes::{autoload_named, class_constant};
use crate::php::runtime::convert::bytes_zval;
use crate::php::runtime::engine::{self, call_function};
use crate::php::runtime::function::{self, Param};
use crate::php::runtime::zval::{bool_zval, long_of, long_zval};
use ext_php_rs::builders::ModuleBuilder;
use ext_php_rs::ffi::zend_class_entry;
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;
use std::io::{Seek, SeekFrom, Write};

php_function!(MERGE_TIER_FILES, merge_tier_files_handler, "yioop_codec\\dictionary\\mergeTierFiles", [Param::Value("dictionary"), Param::Value("prefix"), Param::Value("tier"), Param::Value("out_slot")], DataType::Bool, |args| {
    let [dictionary, prefix, tier, out_slot] = args.values::<4>();
    Ok(bool_zval(merge_tier_files(dictionary.dereference(), prefix.dereference(), tier.dereference(), out_slot.dereference()).is_some()))
});

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&MERGE_TIER_FILES, merge_tier_files_handler)])
}

/// The merge, or None (nothing done) for Yioop's PHP.
fn merge_tier_files(dictionary: &Zval, prefix: &Zval, tier: &Zval, out_slot: &Zval) -> Option<()> {
    let object = dictionary.object()?;
    let (prefix, tier) = (long_of(prefix)?, long_of(tier)?);
    let out_slot = out_slot.zend_str()?.as_bytes();
    let dir = object.get_property::<&Zval>("dir_name").ok()?.dereference().zend_str()?.as_bytes();
    if !engine::plain_file_path(dir) || !layout_is_natives(object.get_class_entry()) || !logging_available(false) {
        return None;
    }
    let folder = [dir, format!("/{prefix}/").as_bytes()].concat();
    let name = |tier: i64, slot: &[u8]| [&folder[..], tier.to_string().as_bytes(), slot, b".dic"].concat();
    let (file_a, file_b, file_out) = (name(tier, b"A"), name(tier, b"B"), name(tier.checked_add(1)?, out_slot));
    // filesize() as Yioop's first reads (a missing file would warn), then
    // the bytes it would read.
    if !engine::file_exists(&file_a) || !engine::file_exists(&file_b) {
        return None;
    }
    let (size_a, size_b) = (engine::file_size(&file_a)?, engine::file_size(&file_b)?);
    let a = read_whole(&file_a, size_a)?;
    let b = read_whole(&file_b, size_b)?;
    let prefix_bit = if prefix & 128 != 0 { 0 } else { 128 };
    let merged = merge::merge_tier_files(&a, &b, prefix_bit)?;
    let out = std::fs::File::create(path(&file_out)).ok()?;
    if write_merged(out, &merged, prefix, tier, size_a.max(size_b) > PREFIX_HEADER as i64) {
        for file in [file_a, file_b] {
            if call_function("unlink", &mut [bytes_zval(&file)]).is_none() {
                break;
            }
        }
    }
    Some(())
}

/// The merged file written as Yioop writes it, its progress lines offered
/// on the way; a write that fails goes on as Yioop's `fwrite` does (the
/// inputs are still removed), a log line that throws stops it (the
/// exception is PHP's to raise) and is false.
fn write_merged(mut out: std::fs::File, merged: &[u8], prefix: i64, tier: i64, has_records: bool) -> bool {
    let (index, records) = merged.split_at(PREFIX_HEADER);
    let _ = out.write_all(&[0; PREFIX_HEADER]);
    // Yioop's loop offers a progress line per record (one per 30 s is
    // written); the first is offered here, and the first of the index's.
    if has_records && progress("..merging index tier files for prefix %s tier %s.", prefix, tier).is_none() {
        return false;
    }
    let _ = out.write_all(records);
    if progress("..processing second index prefix %s of %s.", 0, PREFIXES as i64).is_none() {
        return false;
    }
    let _ = out.seek(SeekFrom::Start(0)).and_then(|_| out.write_all(index));
    true
}

pub(super) fn path(bytes: &[u8]) -> &std::path::Path {
    use std::os::unix::ffi::OsStrExt;
    std::path::Path::new(std::ffi::OsStr::from_bytes(bytes))
}

/// The file's bytes, where it still has the size PHP's stat gave.
fn read_whole(file: &[u8], size: i64) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path(file)).ok()?;
    (bytes.len() as i64 == size).then_some(bytes)
}

/// Whether the class's and IndexShard's constants give the layout the
/// core merges.
pub(super) fn layout_is_natives(class: &zend_class_entry) -> bool {
    let Some(shard) = autoload_named(INDEX_SHARD).and_then(|c| unsafe { c.as_ref() }) else {
        return false;
    };
    let long = |class: &zend_class_entry, name| class_constant(class, name).and_then(long_of);
    let bytes = |class: &zend_class_entry, name| class_constant(class, name).and_then(Zval::zend_str).map(|s| s.as_bytes().to_vec());
    long(class, "PREFIX_HEADER_SIZE") == Some(PREFIX_HEADER as i64)
        && long(class, "NUM_PREFIX_LETTERS") == Some(PREFIXES as i64)
        && long(class, "AUX_RECORD_LEN") == Some(ENTRY as i64)
        && bytes(class, "AUX_RECORD_BLANK") == Some(vec![0xFF; ENTRY])
        && long(shard, "WORD_KEY_LEN") == Some(KEY as i64)
        && long(shard, "WORD_DATA_LEN") == Some((ITEM - KEY) as i64)
        && bytes(shard, "BLANK") == Some(BLANK_PREFIX_ITEM.to_vec())
}

/// crawlTimeoutLog($format, $a, $b); None where it threw.
fn progress(format: &str, a: i64, b: i64) -> Option<()> {
    call_function(CRAWL_TIMEOUT_LOG, &mut [bytes_zval(format.as_bytes()), long_zval(a), long_zval(b)]).map(drop)
}
