//! `yioop_codec\dictionary\addShardDictionary`: IndexDictionary's
//! `addShardDictionary`, a shard's words written as tier-0 files (core:
//! `crate::index::dictionary::add`), then the tiers merged up. Its
//! contract, declines included: php/yioop_codec.stub.php.
//!
//! The prefix index is rewritten natively and the 256 files written
//! natively; everything else Yioop's method calls (the shard's
//! getShardHeader and getShardSubstring, the callback's join, mergeTier,
//! calculateActiveTiers, crawlLog, file_put_contents) is called through
//! PHP, in Yioop's order. It declines only before its first log line.

use super::merge::{layout_is_natives, path};
use crate::index::dictionary::add::rebase_prefix_index;
use crate::index::dictionary::merge::{ITEM, PREFIXES, PREFIX_HEADER, PREFIX_ITEM};
use crate::php::index::shard::{logging_available, CRAWL_LOG, INDEX_SHARD};
use crate::php::runtime::classes::{autoload_named, class_constant};
use crate::php::runtime::convert::bytes_zval;
use crate::php::runtime::engine::{self, call_function, call_method};
use crate::php::runtime::function::{self, Param};
use crate::php::runtime::object::Object;
use crate::php::runtime::zval::{bool_zval, long_of, long_zval, truthy};
use ext_php_rs::builders::ModuleBuilder;
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;
use std::io::Write;

php_function!(ADD_SHARD_DICTIONARY, add_shard_dictionary_handler, "yioop_codec\\dictionary\\addShardDictionary", [Param::Value("dictionary"), Param::Value("index_shard"), Param::Optional("callback", "null")], DataType::Mixed, |args| {
    let dictionary = args.take(0).dereference_mut().shallow_clone();
    let shard = args.take(1).dereference().shallow_clone();
    let callback = args.take_optional(2).map(|c| c.dereference().shallow_clone()).unwrap_or_default();
    Ok(add_shard_dictionary(dictionary, shard, callback).map(bool_zval).unwrap_or_default())
});

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&ADD_SHARD_DICTIONARY, add_shard_dictionary_handler)])
}

/// How the method ends once begun: its result, or a PHP exception left
/// pending (the guard's return value is then not seen).
type Ends = Option<bool>;

/// The method's result; None (nothing done) for Yioop's PHP.
fn add_shard_dictionary(mut dictionary: Zval, mut shard: Zval, mut callback: Zval) -> Option<bool> {
    let object = dictionary.object()?;
    let dir = object.get_property::<&Zval>("dir_name").ok()?.dereference().zend_str()?.as_bytes().to_vec();
    let header_length = class_constant(unsafe { autoload_named(INDEX_SHARD)?.as_ref()? }, "HEADER_LENGTH").and_then(long_of)?;
    let shard_is_yioops = shard.object().is_some_and(|s| s.get_class_entry().name() == Some(INDEX_SHARD));
    let prefix_item_is_natives = class_constant(object.get_class_entry(), "PREFIX_ITEM_SIZE").and_then(long_of) == Some(PREFIX_ITEM as i64);
    let max_tier_is_int = object.get_property::<&Zval>("max_tier").ok().and_then(|t| long_of(t.dereference())).is_some();
    let folders = (0..PREFIXES).all(|i| path(&[&dir[..], format!("/{i}").as_bytes()].concat()).is_dir());
    if !engine::plain_file_path(&dir) || !layout_is_natives(object.get_class_entry()) || !prefix_item_is_natives
        || !shard_is_yioops || !max_tier_is_int || !(callback.is_null() || callback.is_object()) || !folders || !logging_available(false)
    {
        return None;
    }
    let out_slot = if engine::file_exists(&[&dir[..], b"/0/0A.dic"].concat()) { "B" } else { "A" };
    Some(add_and_merge(&mut dictionary, &mut shard, &mut callback, &dir, header_length, out_slot).unwrap_or(true))
}

/// From the first log line on, as Yioop's method runs.
fn add_and_merge(dictionary: &mut Zval, shard: &mut Zval, callback: &mut Zval, dir: &[u8], header_length: i64, out_slot: &str) -> Ends {
    log("Adding shard data to index dictionary files...")?;
    if !truthy(&call_method(shard, "getShardHeader", &mut [])?).unwrap_or(true) {
        log("  Problem reading shard header")?;
        return Some(false);
    }
    // Yioop's getShardHeader leaves prefixes_len an int, and its
    // getShardSubstring gives a string or false.
    let Some(prefixes_len) = shard.object().and_then(|s| s.get_property::<&Zval>("prefixes_len").ok()).and_then(|l| long_of(l.dereference())) else {
        return Some(false);
    };
    let base_offset = header_length + prefixes_len;
    let prefixes = call_method(shard, "getShardSubstring", &mut [long_zval(header_length), long_zval(prefixes_len), bool_zval(false)])?;
    if !truthy(&prefixes).unwrap_or(true) {
        log("  Problem reading prefix string")?;
        return Some(false);
    }
    let mut prefixes = prefixes.zend_str().map(|s| s.as_bytes().to_vec())?;
    let last = rebase_prefix_index(&mut prefixes);
    let mut next_offset = base_offset;
    for (first, last) in last.into_iter().enumerate() {
        let last_offset = next_offset;
        let file = [dir, format!("/{first}/0{out_slot}.dic").as_bytes()].concat();
        let mut out = std::fs::File::create(path(&file)).ok();
        let header = prefixes.get(first * PREFIX_HEADER..).map_or(&[][..], |rest| &rest[..rest.len().min(PREFIX_HEADER)]);
        write(&mut out, header);
        if let Some((offset, count)) = last {
            next_offset = base_offset + offset + count * ITEM as i64;
            let words = call_method(shard, "getShardSubstring", &mut [long_zval(last_offset), long_zval(next_offset - last_offset), bool_zval(false)])?;
            write(&mut out, words.zend_str().map_or(&[][..], |s| s.as_bytes()));
        }
    }
    drop(prefixes);
    log("Incrementally Merging tiers of index dictionary")?;
    merge_tiers(dictionary, callback, dir, out_slot)?;
    call_method(dictionary, "calculateActiveTiers", &mut [])?;
    log("...Done Incremental Merging of Index Dictionary Tiers")?;
    Some(true)
}

/// Yioop's loop merging tier after tier while the tier above is taken.
fn merge_tiers(dictionary: &mut Zval, callback: &mut Zval, dir: &[u8], mut out_slot: &str) -> Option<()> {
    let mut tier = 0i64;
    while out_slot == "B" {
        if callback.is_object() {
            call_method(callback, "join", &mut [])?;
        }
        out_slot = if engine::file_exists(&[dir, format!("/0/{}A.dic", tier + 1).as_bytes()].concat()) { "B" } else { "A" };
        log(&format!("..Merging index {tier} to {}{out_slot}", tier + 1))?;
        call_method(dictionary, "mergeTier", &mut [long_zval(tier), bytes_zval(out_slot.as_bytes())])?;
        tier += 1;
        let mut object = Object(dictionary.object_mut()?);
        if object.property("max_tier").and_then(long_of).is_some_and(|max| tier > max) {
            object.set_property("max_tier", long_zval(tier));
            let file = [dir, b"/max_tier.txt"].concat();
            call_function("file_put_contents", &mut [bytes_zval(&file), bytes_zval(format!("i:{tier};").as_bytes())])?;
        }
    }
    Some(())
}

/// `fwrite` as Yioop's calls go on: a file not opened or a failed write
/// writes nothing.
fn write(out: &mut Option<std::fs::File>, bytes: &[u8]) {
    if let Some(file) = out {
        let _ = file.write_all(bytes);
    }
}

fn log(message: &str) -> Option<()> {
    call_function(CRAWL_LOG, &mut [bytes_zval(message.as_bytes())]).map(drop)
}
