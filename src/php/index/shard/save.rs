//! The steps of `IndexShard::save()`: `mergeWordPostingsToString`,
//! `prepareWordsAndPrefixes`, `packWords` and `outputPostingLists`
//! (contracts: php/yioop_codec.stub.php). Each reads and writes the shard's PHP properties as
//! Yioop's method does, writes to the same stream with PHP's own `fwrite`,
//! and calls Yioop's `crawlLog`, `crawlTimeoutLog` and
//! `CrawlDaemon::processHandler` where the method does (progress lines:
//! once, at the first word, where Yioop offers one per word;
//! `crawlTimeoutLog` writes one per 30 s anyway).

use crate::php::index::shard::method;
use crate::php::runtime::convert::{bytes_zval, string_zval_with, Fallible};
use crate::php::runtime::hash_prefetch;
use crate::php::runtime::keys::{entries, find, Key};
use crate::php::runtime::function::{self, Param};
use crate::php::index::shard::{Outcome, Shard};
use crate::php::runtime::zval::{array_zval, bool_zval, long_of, long_zval};
use crate::index::shard::save::{self, Record};
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendCallable, ZendHashTable, Zval};
use std::borrow::Cow;

/// Yioop's functions the save steps call, as they resolve inside its
/// `seekquarry\yioop\library` namespace.
pub(in crate::php::index) const CRAWL_LOG: &str = "seekquarry\\yioop\\library\\crawlLog";
pub(in crate::php::index) const CRAWL_TIMEOUT_LOG: &str = "seekquarry\\yioop\\library\\crawlTimeoutLog";
const PROCESS_HANDLER: &str = "seekquarry\\yioop\\library\\CrawlDaemon::processHandler";

/// Bytes handed to each `fwrite` of the posting lists.
const WRITE_CHUNK: usize = 1 << 20;

php_function!(MERGE, merge_handler, "yioop_codec\\shard\\mergeWordPostingsToString", [Param::Value("shard"), Param::Optional("replace", "false")], DataType::Mixed, |args| {
    method(&MERGE, args, |args| {
        save_step(args, MERGE.name, merge_word_postings)
    })
});
php_function!(PREFIXES, prefixes_handler, "yioop_codec\\shard\\prepareWordsAndPrefixes", [Param::Value("shard"), Param::Optional("with_logging", "false")], DataType::Mixed, |args| {
    method(&PREFIXES, args, |args| {
        save_step(args, PREFIXES.name, prepare_prefixes)
    })
});
php_function!(PACK, pack_handler, "yioop_codec\\shard\\packWords", [Param::Value("shard"), Param::Optional("fh", "null"), Param::Optional("with_logging", "false")], DataType::Mixed, |args| {
    method(&PACK, args, |args| {
        save_step(args, PACK.name, pack_words)
    })
});
php_function!(OUTPUT, output_handler, "yioop_codec\\shard\\outputPostingLists", [Param::Value("shard"), Param::Optional("fh", "null"), Param::Optional("with_logging", "false")], DataType::Mixed, |args| {
    method(&OUTPUT, args, |args| {
        save_step(args, OUTPUT.name, output_posting_lists)
    })
});

/// A step called with the shard and up to two arguments (null if absent).
fn save_step(args: &mut function::Args, name: &str, step: fn(Shard, Zval, Zval) -> Fallible<Zval>) -> Outcome {
    let shard = args.take(0);
    let [a, b] = [1, 2].map(|i| args.take_optional(i).map(|v| v.shallow_clone()).unwrap_or_default());
    Ok(step(Shard::of(shard, name)?, a, b)?)
}

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&MERGE, merge_handler), (&PREFIXES, prefixes_handler), (&PACK, pack_handler), (&OUTPUT, output_handler)])
}

/// What a step returns: done, or declined (null, nothing changed).
fn done() -> Fallible<Zval> {
    Ok(bool_zval(true))
}

fn declined() -> Fallible<Zval> {
    Ok(Zval::new())
}

/// A PHP exception (or exit) from a called function: stop, leaving it
/// pending for PHP.
struct Thrown;

fn call(name: &str, args: Vec<&dyn ext_php_rs::convert::IntoZvalDyn>) -> Result<Zval, Thrown> {
    ZendCallable::try_from_name(name).and_then(|f| f.try_call(args)).map_err(|_| Thrown)
}

fn is_callable(name: &str) -> bool {
    let mut value = Zval::new();
    value.set_string(name, false).is_ok() && value.is_callable()
}

/// Whether Yioop's log functions are there to call, where a step needs them
/// (else its PHP runs, and fails as it would).
pub(in crate::php::index) fn logging_available(with_handler: bool) -> bool {
    is_callable(CRAWL_LOG) && is_callable(CRAWL_TIMEOUT_LOG) && (!with_handler || is_callable(PROCESS_HANDLER))
}

/// A property's value, held (one more reference) so that it outlives the
/// step's own writes to the shard.
fn held(shard: &Shard, name: &'static str) -> Option<Zval> {
    shard.property(name).map(Zval::shallow_clone)
}

/// The bytes and records of a posting string held by [`held`]; None where
/// it is not a string or does not read as whole records.
fn posting_records(postings: &Zval) -> Option<(&[u8], Vec<Record<'_>>)> {
    let bytes = postings.zend_str()?.as_bytes();
    Some((bytes, save::records(bytes)?))
}

/// `$fh != null`: Some(Some(stream)) to write to, Some(None) for no stream
/// (null, false), None for anything `fwrite` would refuse.
fn stream(fh: &Zval) -> Option<Option<&Zval>> {
    if fh.is_null() || fh.bool() == Some(false) {
        Some(None)
    } else if fh.is_resource() {
        Some(Some(fh))
    } else {
        None
    }
}

fn fwrite(fh: &Zval, bytes: &[u8]) -> Result<(), Thrown> {
    call("fwrite", vec![fh, &bytes_zval(bytes)]).map(drop)
}

/// crawlTimeoutLog($format, 0, strlen($this->word_postings)), as the first
/// iteration of a step over the posting string calls it when logging.
fn first_progress(logs: bool, format: &str, postings: &[u8]) -> Result<(), Thrown> {
    if !logs || postings.is_empty() {
        return Ok(());
    }
    call(CRAWL_TIMEOUT_LOG, vec![&format, &0i64, &(postings.len() as i64)]).map(drop)
}

fn merge_word_postings(mut shard: Shard, replace: Zval, _: Zval) -> Fallible<Zval> {
    if replace.coerce_to_bool() {
        return declined();
    }
    if shard.property("word_docs_packed").is_some_and(Zval::coerce_to_bool) {
        return done();
    }
    let (Some(old), Some(words), true) = (held(&shard, "word_postings"), held(&shard, "words"), logging_available(true)) else {
        return declined();
    };
    let (Some((old, old_records)), Some(words)) = (posting_records(&old), words.array().and_then(new_words)) else {
        return declined();
    };
    let new: Vec<(&[u8], &[u8])> = words.iter().map(|(id, postings)| (&id[..], *postings)).collect();
    let result = (|| {
        call(CRAWL_LOG, vec![&"Merge index shard postings to string to save memory."])?;
        if !new.is_empty() {
            let num_words = new.len() as i64;
            if !old_records.is_empty() {
                call(CRAWL_TIMEOUT_LOG, vec![
                    &"..merging index word postings to string .. processing %s of %s at offset %s less than %s",
                    &0i64, &num_words, &0i64, &(old.len() as i64),
                ])?;
            }
            call(CRAWL_TIMEOUT_LOG, vec![&"..outer loop merge index postings to string .. processing %s of %s.", &0i64, &num_words])?;
        }
        let (merged, kept_tail) = save::merge(&old_records, new);
        shard.set_property("word_postings", string_zval(&merged));
        shard.set_property("words", array_zval(ZendHashTable::new()));
        let num_docs = shard.property("num_docs").map_or_else(Zval::new, Zval::shallow_clone);
        shard.set_property("last_flattened_words_count", num_docs);
        call(CRAWL_LOG, vec![&"..Merge Index Posting Final Copy"])?;
        call(PROCESS_HANDLER, vec![&true])?;
        if kept_tail {
            for step in 1..=3 {
                let memory = call("memory_get_usage", vec![])?.long().unwrap_or(0);
                let line = format!("..Merge Index Posting Final Copy {step} Current Memory: {memory}");
                call(CRAWL_LOG, vec![&line.as_str()])?;
            }
        }
        call(CRAWL_LOG, vec![&"..Done Merge Index Posting Final Copy"])?;
        Ok::<(), Thrown>(())
    })();
    finished(result)
}

/// Done, or the exception a called function left pending.
fn finished(result: Result<(), Thrown>) -> Fallible<Zval> {
    match result {
        Ok(()) => done(),
        Err(Thrown) => Ok(Zval::new()),
    }
}

/// (id as a string, postings) pairs.
type NewWords<'a> = Vec<(Cow<'a, [u8]>, &'a [u8])>;

/// `$this->words` as (id as a string, postings) pairs; None where a value
/// is not a string.
fn new_words(words: &ZendHashTable) -> Option<NewWords<'_>> {
    entries(words)
        .into_iter()
        .map(|(key, value)| {
            let postings = value.dereference().zend_str()?.as_bytes();
            Some((key.bytes(), postings))
        })
        .collect()
}

fn prepare_prefixes(mut shard: Shard, with_logging: Zval, _: Zval) -> Fallible<Zval> {
    let logs = with_logging.coerce_to_bool();
    let (Some(postings), true) = (held(&shard, "word_postings"), !logs || logging_available(false)) else {
        return declined();
    };
    let Some((bytes, records)) = posting_records(&postings) else {
        return declined();
    };
    let result = (|| {
        first_progress(logs, "..Outputting to position %s of %s of prefixes.", bytes)?;
        let (prefixes, words_len) = save::prefixes(&records);
        shard.set_property("words_len", long_zval(words_len as i64));
        shard.set_property("prefixes_len", long_zval(prefixes.len() as i64));
        shard.set_property("prefixes", bytes_zval(&prefixes));
        Ok(())
    })();
    finished(result)
}

/// `num_docs_word[$id]` for each record: ints of at least 0, else None
/// (Yioop's PHP then runs, logging and filling in a missing count).
fn document_counts(shard: &Shard, records: &[Record]) -> Option<Vec<i64>> {
    if records.is_empty() {
        return Some(Vec::new()); // a new shard's counts are still null
    }
    let counts = shard.property("num_docs_word")?.array()?;
    let keys: Vec<Key> = records.iter().map(|r| Key::of_string(r.id)).collect();
    // All the hashes first, so that the look-ups can be prefetched.
    let hashes: Vec<u64> = keys.iter().map(|&key| key.hash()).collect();
    let table = std::ptr::from_ref(counts).cast_mut().cast();
    let mut out = Vec::with_capacity(keys.len());
    for (i, &key) in keys.iter().enumerate() {
        unsafe { hash_prefetch::ahead(&[table], &hashes, i) };
        let count = find(counts, key).and_then(|v| long_of(unsafe { &*v }.dereference()))?;
        out.push((count >= 0).then_some(count)?);
    }
    Some(out)
}

fn pack_words(mut shard: Shard, fh: Zval, with_logging: Zval) -> Fallible<Zval> {
    if shard.property("word_docs_packed").is_some_and(Zval::coerce_to_bool) {
        return done();
    }
    let logs = with_logging.coerce_to_bool();
    let (Some(postings), Some(fh), Some(generation), true) = (
        held(&shard, "word_postings"),
        stream(&fh),
        shard.property("generation").and_then(long_of),
        !logs || logging_available(false),
    ) else {
        return declined();
    };
    let Some((bytes, records)) = posting_records(&postings) else {
        return declined();
    };
    let Some(counts) = document_counts(&shard, &records) else {
        return declined();
    };
    let result = (|| {
        first_progress(logs, "..packing index shard words at %s of %s.", bytes)?;
        let (dictionary, word_docs_len) = save::dictionary(&records, generation, &counts);
        shard.set_property("word_docs_len", long_zval(word_docs_len));
        shard.set_property("words", bytes_zval(&dictionary));
        if let Some(fh) = fh {
            fwrite(fh, &dictionary)?;
        }
        shard.set_property("words_len", long_zval(dictionary.len() as i64));
        shard.set_property("word_docs_packed", bool_zval(true));
        Ok(())
    })();
    finished(result)
}

fn output_posting_lists(mut shard: Shard, fh: Zval, with_logging: Zval) -> Fallible<Zval> {
    let logs = with_logging.coerce_to_bool();
    let (Some(postings), Some(fh), true) = (held(&shard, "word_postings"), stream(&fh), !logs || logging_available(false)) else {
        return declined();
    };
    let Some((bytes, records)) = posting_records(&postings) else {
        return declined();
    };
    let result = (|| {
        shard.set_property("word_docs", bytes_zval(b""));
        first_progress(logs, "..Outputting to position %s of %s in posting lists.", bytes)?;
        let word_docs = save::posting_lists(&records);
        match fh {
            Some(fh) => word_docs.for_each_chunk(WRITE_CHUNK, |chunk| fwrite(fh, chunk))?,
            None => shard.set_property("word_docs", string_zval(&word_docs)),
        }
        Ok(())
    })();
    finished(result)
}

/// The assembled string as a PHP string, its bytes copied once.
fn string_zval(string: &save::Pieces) -> Zval {
    string_zval_with(string.len, |out| string.write_to(out))
}
