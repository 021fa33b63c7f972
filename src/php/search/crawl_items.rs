//! `yioop_codec\crawl_items\nonNetworkGetCrawlItems`:
//! `ParallelModel::nonNetworkGetCrawlItems` for lookups by (machine, key,
//! index, generation, offset), as a search page makes them. Each summary is
//! read natively (`crate::php::index::archive::bundle_page`) without
//! building the fields the caller excludes (a summary's page text, links,
//! header: most of what is stored), then merged as Yioop merges them;
//! `IndexManager::getIndex` and `formatSinglePageResult` are Yioop's,
//! called through PHP. Its contract, declines included:
//! php/yioop_codec.stub.php.

use crate::php::index::index_bundle::index_page;
use crate::php::runtime::convert::bytes_zval;
use crate::php::runtime::engine::{call_function, call_method};
use crate::php::runtime::function::{self, Param};
use crate::php::runtime::keys::{self, Key, OwnedKey};
use crate::php::runtime::zval::{array_zval, bool_zval, long_of, long_zval};
use crate::php_semantics::text::php_trim_bytes;
use crate::php_semantics::Decline;
use ext_php_rs::boxed::ZBox;
use ext_php_rs::ffi::HashTable;
use ext_php_rs::flags::DataType;
use ext_php_rs::types::{ZendHashTable, Zval};
use std::collections::HashSet;

php_function!(CRAWL_ITEMS, crawl_items_handler, "yioop_codec\\crawl_items\\nonNetworkGetCrawlItems", [Param::Value("model"), Param::Value("lookups"), Param::Value("exclude_fields"), Param::Value("format_words"), Param::Value("description_length")], DataType::Mixed, |args| Ok(crawl_items(args).unwrap_or_else(|Decline| Zval::new())));

pub fn register(module: ext_php_rs::builders::ModuleBuilder) -> ext_php_rs::builders::ModuleBuilder {
    function::register(module, &[(&CRAWL_ITEMS, crawl_items_handler)])
}

const GET_INDEX: &str = "seekquarry\\yioop\\library\\IndexManager::getIndex";
const MIN_DESCRIPTION_LENGTH: &str = "seekquarry\\yioop\\models\\ParallelModel::MIN_DESCRIPTION_LENGTH";
/// CrawlConstants::DESCRIPTION.
const DESCRIPTION: &[u8] = b"t";

/// One lookup, in the shapes Yioop's loop takes apart.
enum Lookup {
    /// [url, index name]: the summary stored for that URL.
    Url { url: Zval, index_name: Zval },
    /// Items whose pages merge into one summary.
    Items(Vec<Item>),
}

enum Item {
    /// (machine, key, index name, generation, offset).
    Tuple { index_name: Zval, generation: Option<i64>, offset: Option<i64> },
    /// (word key, index name): its offset and generation looked up first.
    Pair { word_key: Zval, index_name: Zval },
}

fn crawl_items(args: &mut function::Args) -> Result<Zval, Decline> {
    let mut model = args.take(0).dereference().shallow_clone();
    let plan = plan(args.take(1).dereference().array().ok_or(Decline)?)?;
    let left_out = excluded(args.take(2).dereference())?;
    let format_words = args.take(3).dereference().shallow_clone();
    let description_length = long_of(args.take(4).dereference()).ok_or(Decline)?;
    let min_length = call_function("constant", &mut [bytes_zval(MIN_DESCRIPTION_LENGTH.as_bytes())]).and_then(|v| v.long()).ok_or(Decline)?;
    // Read as they are, then merged: only `t` is never left out, for the merge reads it.
    let unbuilt: Vec<OwnedKey> = left_out.iter().filter(|k| **k != OwnedKey::Str(DESCRIPTION.to_vec())).cloned().collect();
    let mut summaries = ZendHashTable::new();
    for (lookup, shape) in plan {
        let found = match shape {
            Lookup::Items(items) => merged(&mut model, &items, &unbuilt, min_length)?,
            Lookup::Url { url, index_name } => match by_url(&mut model, url, index_name, &unbuilt)? {
                Some(found) => found,
                None => return Ok(bool_zval(false)), // no offset for the URL: Yioop returns false
            },
        };
        if let Some(mut summary) = found {
            for key in &left_out {
                remove(&mut summary, key);
            }
            keys::update(&mut summaries, lookup.as_key(), array_zval(summary));
        }
    }
    if format_words.is_null() || summaries.is_empty() || description_length <= 0 {
        return Ok(array_zval(summaries));
    }
    format(&mut model, summaries, format_words, description_length)
}

/// The URL path: `lookupSummaryOffsetGeneration($url, $index_name)`, then
/// that page as the summary. None where Yioop returns false.
fn by_url(model: &mut Zval, url: Zval, index_name: Zval, unbuilt: &[OwnedKey]) -> Result<Option<Option<ZBox<ZendHashTable>>>, Decline> {
    let mut index = call_function(GET_INDEX, &mut [index_name.shallow_clone()]).ok_or(Decline)?;
    let found = call_method(model, "lookupSummaryOffsetGeneration", &mut [url, index_name]).ok_or(Decline)?;
    if found.bool() == Some(false) {
        return Ok(None);
    }
    let Some((Some(offset), Some(generation))) = listed_pair(&found)? else {
        return Err(Decline); // getPage of what list() gives: not an int
    };
    Ok(Some(page(&mut index, offset, generation, unbuilt)?))
}

/// `$summaries[$key] = $this->formatSinglePageResult($summary, $format_words, $description_length)` for each.
fn format(model: &mut Zval, summaries: ZBox<ZendHashTable>, format_words: Zval, description_length: i64) -> Result<Zval, Decline> {
    let mut formatted = ZendHashTable::new();
    for (key, summary) in keys::entries(&summaries) {
        let mut call = [summary.shallow_clone(), format_words.shallow_clone(), long_zval(description_length)];
        let Some(result) = call_method(model, "formatSinglePageResult", &mut call) else {
            return Ok(Zval::new()); // it threw: the exception is Yioop's
        };
        keys::update(&mut formatted, key, result);
    }
    Ok(array_zval(formatted))
}

/// The lookups, in the shapes Yioop's loop reads; declines anything its
/// list() would warn about, or reads otherwise than as these shapes.
fn plan(lookups: &ZendHashTable) -> Result<Vec<(OwnedKey, Lookup)>, Decline> {
    let mut plan = Vec::with_capacity(lookups.len());
    for (lookup, info) in keys::entries(lookups) {
        let info = info.dereference().array().ok_or(Decline)?;
        if let Some(first) = info.get_index(0).map(Zval::dereference).and_then(Zval::zend_str) {
            let scheme = &first.as_bytes()[..first.len().min(3)];
            if info.len() != 2 || !matches!(scheme, b"htt" | b"gop" | b"rec") {
                return Err(Decline); // strings as items: list() of a string
            }
            let (url, index_name) = (field(info, 0)?.shallow_clone(), index_name(field(info, 1)?)?);
            plan.push((lookup.into(), Lookup::Url { url, index_name }));
            continue;
        }
        let mut items = Vec::with_capacity(info.len());
        for (_, item) in keys::entries(info) {
            let item = item.dereference().array().ok_or(Decline)?;
            if item.len() == 2 {
                let (word_key, index_name) = (field(item, 0)?.shallow_clone(), index_name(field(item, 1)?)?);
                items.push(Item::Pair { word_key, index_name });
                continue;
            }
            let _ = (field(item, 0)?, field(item, 1)?);
            let index_name = index_name(field(item, 2)?)?;
            items.push(Item::Tuple { index_name, generation: field(item, 3)?.long(), offset: field(item, 4)?.long() });
        }
        plan.push((lookup.into(), Lookup::Items(items)));
    }
    Ok(plan)
}

/// `$array[$i]` as list() reads it; declines where list() would warn.
fn field(array: &ZendHashTable, i: i64) -> Result<&Zval, Decline> {
    array.get_index(i).map(Zval::dereference).ok_or(Decline)
}

/// An index name `IndexManager::getIndex` can take: trim() would warn
/// about or throw on anything but a string or an int.
fn index_name(name: &Zval) -> Result<Zval, Decline> {
    if name.is_string() || name.is_long() { Ok(name.shallow_clone()) } else { Err(Decline) }
}

/// The fields to unset, as array keys; only ints and strings.
fn excluded(fields: &Zval) -> Result<Vec<OwnedKey>, Decline> {
    let fields = fields.array().ok_or(Decline)?;
    keys::entries(fields)
        .into_iter()
        .map(|(_, field)| {
            let field = field.dereference();
            if let Some(i) = field.long() {
                return Ok(OwnedKey::Int(i));
            }
            let s = field.zend_str().ok_or(Decline)?.as_bytes();
            Ok(Key::of_string(s).into())
        })
        .collect()
}

/// One lookup's summary: its items' pages merged as Yioop's loop merges
/// them (None where no page was found).
fn merged(model: &mut Zval, items: &[Item], unbuilt: &[OwnedKey], min_length: i64) -> Result<Option<ZBox<ZendHashTable>>, Decline> {
    let mut merge = Merge { summary: None, seen: HashSet::new(), ellipsis: b"" };
    for item in items {
        let (index_name, offset, generation) = match item {
            Item::Tuple { index_name, generation, offset } => (index_name, *offset, *generation),
            Item::Pair { word_key, index_name } => {
                let found = call_method(model, "lookupSummaryOffsetGeneration", &mut [word_key.shallow_clone(), index_name.shallow_clone(), bool_zval(true)]).ok_or(Decline)?;
                match listed_pair(&found)? {
                    Some((offset, generation)) => (index_name, offset, generation),
                    None => continue,
                }
            }
        };
        let mut index = call_function(GET_INDEX, &mut [index_name.shallow_clone()]).ok_or(Decline)?;
        let (Some(offset), Some(generation)) = (offset, generation) else {
            continue; // is_integer fails: no page
        };
        if offset == 0 {
            continue;
        }
        let Some(page) = page(&mut index, offset, generation, unbuilt)? else {
            continue; // !$page || $page == []
        };
        if merge.add(page, min_length)? {
            break;
        }
    }
    Ok(merge.summary)
}

/// A summary being merged from its pages.
struct Merge {
    summary: Option<ZBox<ZendHashTable>>,
    /// The descriptions joined so far.
    seen: HashSet<Vec<u8>>,
    ellipsis: &'static [u8],
}

impl Merge {
    /// Adds a page as Yioop's loop does; true where the description is
    /// long enough to stop.
    fn add(&mut self, mut page: ZBox<ZendHashTable>, min_length: i64) -> Result<bool, Decline> {
        let Some(summary) = self.summary.as_mut() else {
            if let Some(description) = description(&page)? {
                keys::update(&mut page, Key::Str(DESCRIPTION), bytes_zval(&description));
                self.seen.insert(description);
            }
            self.ellipsis = b" .. ";
            return long_enough(self.summary.insert(page), min_length);
        };
        if let Some(description) = description(&page)? {
            let mut text = match keys::find(summary, Key::Str(DESCRIPTION)).map(|slot| unsafe { &*slot }) {
                Some(value) if !value.is_null() => value.zend_str().ok_or(Decline)?.as_bytes().to_vec(), // a reference declines too
                _ => Vec::new(),
            };
            if !self.seen.contains(&description) {
                text.extend_from_slice(self.ellipsis);
                text.extend_from_slice(&description);
                self.ellipsis = b" .. ";
                self.seen.insert(description);
            }
            keys::update(summary, Key::Str(DESCRIPTION), bytes_zval(&text));
        }
        if long_enough(summary, min_length)? {
            return Ok(true);
        }
        for (attr, value) in keys::entries(&page) {
            if attr == Key::Str(DESCRIPTION) {
                continue;
            }
            // `if (!isset($summary[$attr])) $summary[$attr] = $value;`, the
            // value as foreach copies it.
            let unset = match keys::find(summary, attr).map(|slot| unsafe { &*slot }) {
                None => true,
                // Assigning to a reference writes through it: declined.
                Some(slot) if slot.is_reference() && slot.dereference().is_null() => return Err(Decline),
                Some(slot) if slot.is_reference() => false,
                Some(slot) => slot.is_null(),
            };
            if unset {
                keys::update(summary, attr, value.dereference().shallow_clone());
            }
        }
        Ok(false)
    }
}

/// A summary offset and generation, each None where not an int.
type OffsetGeneration = (Option<i64>, Option<i64>);

/// `list($summary_offset, $generation) = $found`, each an int or None
/// (is_integer fails); None where $found is not an array (Yioop skips the
/// item), declining where list() would warn.
fn listed_pair(found: &Zval) -> Result<Option<OffsetGeneration>, Decline> {
    let Some(pair) = found.array() else {
        return Ok(None);
    };
    Ok(Some((field(pair, 0)?.long(), field(pair, 1)?.long())))
}

/// The array a zval holds, as this code's own to change (copied only
/// where shared, as PHP separates it).
fn owned_array(mut value: Zval) -> Option<ZBox<ZendHashTable>> {
    crate::php::runtime::arrays::separate(&mut value)?;
    let value = std::mem::ManuallyDrop::new(value);
    Some(unsafe { ZBox::from_raw(value.value.arr.cast::<ZendHashTable>()) })
}

/// `trim($page[DESCRIPTION])` where it is set; declines for a value trim
/// would convert.
fn description(page: &HashTable) -> Result<Option<Vec<u8>>, Decline> {
    let Some(value) = keys::find(page, Key::Str(DESCRIPTION)).map(|slot| unsafe { &*slot }) else {
        return Ok(None);
    };
    if value.is_reference() {
        return Err(Decline); // Yioop writes the trimmed text through it
    }
    if value.is_null() {
        return Ok(None);
    }
    Ok(Some(php_trim_bytes(value.zend_str().ok_or(Decline)?.as_bytes()).to_vec()))
}

/// `strlen($summary[DESCRIPTION]) > MIN_DESCRIPTION_LENGTH`; declines
/// where strlen would warn (no description).
fn long_enough(summary: &HashTable, min_length: i64) -> Result<bool, Decline> {
    let value = keys::find(summary, Key::Str(DESCRIPTION)).map(|slot| unsafe { &*slot }.dereference()).ok_or(Decline)?;
    let len = value.zend_str().ok_or(Decline)?.len();
    Ok(i64::try_from(len).unwrap_or(i64::MAX) > min_length)
}

/// `unset($summary[$key])`.
fn remove(summary: &mut HashTable, key: &OwnedKey) {
    unsafe {
        match key {
            OwnedKey::Int(i) => ext_php_rs::ffi::zend_hash_index_del(summary, *i as u64),
            OwnedKey::Str(s) => ext_php_rs::ffi::zend_hash_str_del(summary, s.as_ptr().cast(), s.len()),
        };
    }
}

/// `$index->getPage($offset, $generation)` as the loop takes it: the page
/// as this code's own array, or None for `!$page || $page == []`;
/// declines for a page that is something else (the merge would warn).
/// Read natively where the index and its summaries are Yioop's own
/// classes, else through PHP.
fn page(index: &mut Zval, offset: i64, generation: i64, unbuilt: &[OwnedKey]) -> Result<Option<ZBox<ZendHashTable>>, Decline> {
    let (page, had_entries) = match index_page(index, offset, generation, unbuilt) {
        Ok(read) => read,
        Err(Decline) if index.is_object() => {
            let page = call_method(index, "getPage", &mut [long_zval(offset), long_zval(generation)]).ok_or(Decline)?;
            let had_entries = page.array().is_some_and(|a| !a.is_empty());
            (page, had_entries)
        }
        Err(Decline) => return Err(Decline), // getPage() on a non-object: Yioop throws
    };
    if had_entries {
        return owned_array(page).map(Some).ok_or(Decline);
    }
    if page.array().is_some() || page.bool() == Some(false) || page.is_null() {
        return Ok(None);
    }
    Err(Decline)
}
