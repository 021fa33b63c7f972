//! `yioop_codec\dictionary\getWordInfo`: IndexDictionary's `getWordInfo`,
//! the look-up behind every `IndexManager::getWordInfo` (core:
//! `crate::index::dictionary`); `add.rs` is `addShardDictionary`, `merge.rs` `mergeTierFiles`. Its contract, declines included: php/yioop_codec.stub.php.
//!
//! The object's files and blocks are kept natively
//! (`crate::index::dictionary::files`) while its `$this->fhs`, `$this->file_lens`
//! and `$this->blocks` stay as the constructor left them; `$this->read_tier`
//! is written as Yioop writes it. Before a call declines, the object is
//! handed over to Yioop's PHP as its own reads would have left it: the
//! queue, a stream per open file, the lengths and the blocks. An object
//! whose arrays PHP has filled is Yioop's PHP's to read.
//! A look-up the object answered before, from blocks it keeps, is
//! answered again from its memo (`dictionary::word_info_remembered`).

mod add;
mod merge;

use crate::php::runtime::weak_table::WeakTable;
use crate::php::runtime::classes::autoload_named;
use crate::php::runtime::convert::{bytes_zval, Fallible};
use crate::php::runtime::engine::{self, PerRequest};
use crate::php::runtime::arrays::list_of;
use crate::php::runtime::function::{self, Param};
use crate::php::runtime::object::Object;
use crate::php::runtime::zval::{array_zval, int_like, long_of, long_zval};
use crate::index::dictionary::{self, DictFiles, Entry, Found, Host, Query};
use crate::php_semantics::num::{self, Num};
use crate::index::shard::ShardError;
use ext_php_rs::ffi::zend_object;
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendCallable, ZendHashTable, Zval};
use std::cell::RefCell;
use std::rc::Rc;


/// An object read natively: its files, and where its declared properties
/// sit (their slots never move while the object lives).
struct Native {
    files: RefCell<DictFiles>,
    slots: Slots,
}

type State = Rc<Native>;

use crate::php::index::shard::INDEX_SHARD;

/// The properties read at every call, by index into `Slots`.
const PROPERTIES: [&str; 6] = ["fhs", "blocks", "file_lens", "dir_name", "active_tiers", "parent_archive_bundle"];
const FHS: usize = 0;
const BLOCKS: usize = 1;
const FILE_LENS: usize = 2;
const DIR_NAME: usize = 3;
const ACTIVE_TIERS: usize = 4;
const PARENT: usize = 5;

type Slots = [Option<*mut Zval>; 6];

/// The object's properties, read through their slots where known.
struct Props<'a, 'b> {
    object: &'a Object<'b>,
    slots: Option<&'a Slots>,
}

impl Props<'_, '_> {
    fn get(&self, i: usize) -> Option<&Zval> {
        match self.slots.and_then(|s| s[i]) {
            Some(slot) => Some(unsafe { &*slot }.dereference()),
            None => self.object.property(PROPERTIES[i]),
        }
    }
}

/// The objects read natively.
static OBJECTS: WeakTable<Native> = WeakTable::new();

/// Forgets every object, at each request's start.
pub fn forget_objects() {
    OBJECTS.clear();
}

/// Frees the table at the module's shutdown.
pub fn release_objects() {
    OBJECTS.release();
}

/// `file_exists` and `filesize` as PHP answers them (`engine`).
struct PhpHost;

impl Host for PhpHost {
    fn exists(&mut self, path: &[u8]) -> bool {
        engine::file_exists(path)
    }
    fn size(&mut self, path: &[u8]) -> Option<i64> {
        engine::file_size(path)
    }
}

/// How a call ends without its result: Yioop's PHP runs the method.
struct Decline;

impl From<ShardError> for Decline {
    fn from(_: ShardError) -> Decline {
        Decline
    }
}

/// A Yioop configuration constant as an int: an int, or a whole decimal
/// string (the installer writes constants as strings).
fn int_constant(full: &str) -> Result<i64, Decline> {
    int_like(crate::php::runtime::engine::constant(full).ok_or(Decline)?).ok_or(Decline)
}


fn is_empty_or_null(value: Option<&Zval>) -> bool {
    value.is_some_and(|v| v.is_null() || v.array().is_some_and(|a| a.is_empty()))
}

/// Whether the object's arrays are as the constructor leaves them:
/// `$this->fhs` is `["QUEUE" => []]`, `$this->blocks` and
/// `$this->file_lens` null or empty.
fn unread_by_php(object: &Props) -> bool {
    let fhs_fresh = object.get(FHS).and_then(Zval::array).is_some_and(|fhs| {
        fhs.len() == 1 && fhs.get("QUEUE").and_then(Zval::array).is_some_and(|q| q.is_empty())
    });
    fhs_fresh && is_empty_or_null(object.get(BLOCKS)) && is_empty_or_null(object.get(FILE_LENS))
}

/// `$this->active_tiers`: each a tier's decimal string, as Yioop's
/// `calculateActiveTiers` makes them.
fn active_tiers(object: &Props) -> Result<Vec<(i64, Zval)>, Decline> {
    let tiers = object.get(ACTIVE_TIERS).and_then(Zval::array).ok_or(Decline)?;
    tiers
        .values()
        .map(|tier| {
            let tier = tier.dereference();
            let text = tier.zend_str().ok_or(Decline)?;
            num::integer_key(text.as_bytes()).map(|n| (n, tier.shallow_clone())).ok_or(Decline)
        })
        .collect()
}

/// `$this->dir_name`, where PHP would open its files as plain files.
fn dir_name(object: &Props) -> Result<Vec<u8>, Decline> {
    let dir = object.get(DIR_NAME).and_then(Zval::zend_str).ok_or(Decline)?.as_bytes().to_vec();
    if !engine::plain_file_path(&dir) {
        return Err(Decline);
    }
    Ok(dir)
}

/// `isset($this->parent_archive_bundle->generation_info['ACTIVE'])`: the
/// value, which must be an int; None where it is not set.
fn active_generation(object: &Props) -> Result<Option<i64>, Decline> {
    let parent = object.get(PARENT).ok_or(Decline)?;
    if parent.is_null() {
        return Ok(None);
    }
    let mut parent = parent.shallow_clone();
    let parent = Object(parent.object_mut().ok_or(Decline)?);
    let info = parent.property("generation_info").ok_or(Decline)?;
    if info.is_null() {
        return Ok(None);
    }
    match info.array().ok_or(Decline)?.get("ACTIVE") {
        None => Ok(None),
        Some(active) if active.dereference().is_null() => Ok(None),
        Some(active) => long_of(active.dereference()).map(Some).ok_or(Decline),
    }
}

/// `[$estimated_total_count, $info]`'s first element.
fn estimated_total(found: &Found, total_generations: i64, start_generation: i64) -> Result<Zval, Decline> {
    if !(total_generations > 0 && found.max_generation > 0) {
        return Ok(long_zval(found.count));
    }
    let span = total_generations.checked_sub(start_generation).ok_or(Decline)?;
    let product = span.checked_mul(found.count).ok_or(Decline)?;
    let divisor = found.max_generation.checked_sub(start_generation).ok_or(Decline)?;
    match num::div(Num::Int(product), Num::Int(divisor)).ok_or(Decline)? {
        Num::Int(i) => Ok(long_zval(i)),
        Num::Float(d) => {
            let mut z = Zval::new();
            z.set_double(d);
            Ok(z)
        }
    }
}

fn entry_zval(entry: &Entry) -> Zval {
    let ints = [entry.generation, entry.first_offset, entry.last_offset, entry.count];
    array_zval(list_of(5, |i| if i < 4 { long_zval(ints[i]) } else { bytes_zval(&entry.id) }))
}

fn info_zval(info: &[Entry]) -> Zval {
    array_zval(list_of(info.len(), |i| entry_zval(&info[i])))
}

/// Yioop opens each file between `set_error_handler(null)` and
/// `set_error_handler(C\NS_CONFIGS . "yioop_error_handler")`: both calls
/// stack the handler before, so each file opened leaves two entries.
fn error_handler_calls(opened: usize) -> Result<(), Decline> {
    if opened == 0 {
        return Ok(());
    }
    let set = ZendCallable::try_from_name("set_error_handler").map_err(|_| Decline)?;
    let handler = yioop_error_handler().unwrap_or_else(|| "yioop_error_handler".to_owned());
    for _ in 0..opened {
        set.try_call(vec![&()]).map_err(|_| Decline)?;
        set.try_call(vec![&handler]).map_err(|_| Decline)?;
    }
    Ok(())
}

/// Whether `handler` names a function PHP can call (else Yioop's
/// `set_error_handler` throws: left to it). Once it does, it does for the
/// rest of the request (PHP undefines no function): kept.
fn handler_exists() -> bool {
    thread_local! {
        static EXISTS: PerRequest<()> = const { PerRequest::new() };
    }
    let check = || yioop_error_handler().filter(|handler| ZendCallable::try_from_name(handler).is_ok()).map(drop).ok_or(());
    EXISTS.with(|exists| exists.get_or(check)).is_ok()
}

/// `C\NS_CONFIGS . "yioop_error_handler"`; None without NS_CONFIGS.
fn yioop_error_handler() -> Option<String> {
    let prefix = crate::php::runtime::engine::constant("seekquarry\\yioop\\configs\\NS_CONFIGS")?.string()?;
    Some(format!("{prefix}yioop_error_handler"))
}

/// The call's parameters, as Yioop's arithmetic and comparisons read them.
struct Call {
    word_id: Vec<u8>,
    query: Query,
    with_remaining_total: bool,
}

fn read_call(args: &mut function::Args) -> Result<Call, Decline> {
    if !args.flag(2, false) {
        return Err(Decline); // unbase64Hash first: Yioop's PHP
    }
    let with_remaining_total = args.flag(6, false);
    let int_at = |args: &mut function::Args, i: usize| -> Result<i64, Decline> {
        match args.take_optional(i) {
            Some(value) => long_of(value.dereference()).ok_or(Decline),
            None => Ok(-1),
        }
    };
    let threshold = int_at(args, 3)?;
    let start_generation = int_at(args, 4)?;
    // IndexManager passes C\NUM_DISTINCT_GENERATIONS, a string on a stock install.
    let num_distinct_generations = match args.take_optional(5) {
        Some(value) => int_like(value.dereference()).ok_or(Decline)?,
        None => -1,
    };
    let word_id = args.take(1).dereference().zend_str().ok_or(Decline)?.as_bytes().to_vec();
    let max_entry_count = max_entry_count()?;
    Ok(Call { word_id, query: Query { threshold, start_generation, num_distinct_generations, max_entry_count }, with_remaining_total })
}

/// The look-up itself, on an object read natively.
fn look_up(object: &mut Object, call: &Call, state: &State) -> Result<Zval, Decline> {
    let props = Props { object, slots: Some(&state.slots) };
    let dir = dir_name(&props)?;
    let tiers = active_tiers(&props)?;
    let tier_numbers: Vec<i64> = tiers.iter().map(|(n, _)| *n).collect();
    // Yioop's body names IndexShard (IndexShard::WORD_DATA_LEN) for a
    // non-empty id in the first tier: its autoload includes Utility.php,
    // whose functions Yioop's callers then use. So here too, first.
    if !tier_numbers.is_empty() && !call.word_id.is_empty() && autoload_named(INDEX_SHARD).is_none() {
        return Err(Decline); // Yioop's body throws, or its autoloader did
    }
    let mut files = state.files.borrow_mut();
    files.begin();
    let found = dictionary::word_info_remembered(&mut files, &mut PhpHost, &dir, &tier_numbers, &call.word_id, call.query);
    let found = match found {
        Ok(found) => found,
        Err(_) => {
            files.end(false);
            return Err(Decline);
        }
    };
    let active = if call.with_remaining_total { active_generation(&props) } else { Ok(None) };
    let result = active.and_then(|active| match active {
        Some(total_generations) => {
            let estimate = estimated_total(&found, total_generations, call.query.start_generation)?;
            let info = info_zval(&found.info);
            Ok(array_zval(list_of(2, |i| if i == 0 { estimate.shallow_clone() } else { info.shallow_clone() })))
        }
        None => Ok(info_zval(&found.info)),
    });
    if result.is_err() || (files.opened > 0 && !handler_exists()) {
        files.end(false);
        return Err(Decline);
    }
    let opened = files.opened;
    files.end(true);
    drop(files);
    error_handler_calls(opened)?;
    if let Some((_, tier)) = tiers.get(found.tiers_read.wrapping_sub(1)) {
        object.set_property("read_tier", tier.shallow_clone());
    }
    result
}

/// Before a call declines: the object's native state written into the
/// arrays Yioop's PHP reads, and the object left to Yioop's PHP.
fn hand_over(object: &mut Object, state: &State) {
    let props = Props { object, slots: Some(&state.slots) };
    let tiers = active_tiers(&props).unwrap_or_default();
    if !unread_by_php(&props) {
        OBJECTS.remove(std::ptr::from_mut(&mut *object.0).cast::<zend_object>());
        return;
    }
    OBJECTS.remove(std::ptr::from_mut(&mut *object.0).cast::<zend_object>());
    let files = state.files.borrow();
    let tier_text = |tier: i64| tiers.iter().find(|(n, _)| *n == tier).map_or_else(|| bytes_zval(tier.to_string().as_bytes()), |(_, z)| z.shallow_clone());
    let mut fhs = ZendHashTable::new();
    let mut queue = ZendHashTable::new();
    for &(file, tier) in &files.queue {
        let pair = list_of(2, |i| if i == 0 { long_zval(file) } else { tier_text(tier) });
        let _ = queue.push(array_zval(pair));
    }
    let _ = fhs.insert("QUEUE", array_zval(queue));
    for (file, file_tiers) in &files.fhs_order {
        let mut handles = ZendHashTable::new();
        for &tier in file_tiers {
            let stream = files.handle((*file, tier)).and_then(|h| crate::php::index::shard::stream_on(&h.open.borrow()));
            let _ = handles.insert_at_index(tier, stream.unwrap_or_else(|| Zval::new()));
        }
        let _ = fhs.insert_at_index(*file, array_zval(handles));
    }
    object.set_property("fhs", array_zval(fhs));
    if !files.file_lens.is_empty() {
        let mut lens = ZendHashTable::new();
        for (file, file_tiers) in &files.file_lens {
            let mut by_tier = ZendHashTable::new();
            for &(tier, len) in file_tiers {
                let _ = by_tier.insert_at_index(tier, long_zval(len));
            }
            let _ = lens.insert_at_index(*file, array_zval(by_tier));
        }
        object.set_property("file_lens", array_zval(lens));
    }
    if !files.block_order.is_empty() {
        object.set_property("blocks", nested_blocks(&files));
    }
}

/// `$this->blocks[$file_num][$tier][$bytes]`, keys in the order Yioop's
/// reads added them.
fn nested_blocks(files: &DictFiles) -> Zval {
    let mut order: Vec<(i64, Vec<(i64, Vec<i64>)>)> = Vec::new();
    for &(file, tier, bytes) in &files.block_order {
        let at = order.iter().position(|(f, _)| *f == file).unwrap_or_else(|| {
            order.push((file, Vec::new()));
            order.len() - 1
        });
        let tiers = &mut order[at].1;
        match tiers.iter_mut().find(|(t, _)| *t == tier) {
            Some((_, offsets)) => offsets.push(bytes),
            None => tiers.push((tier, vec![bytes])),
        }
    }
    let mut blocks = ZendHashTable::new();
    for (file, tiers) in order {
        let mut by_tier = ZendHashTable::new();
        for (tier, offsets) in tiers {
            let mut by_offset = ZendHashTable::new();
            for bytes in offsets {
                let block = files.block((file, tier, bytes)).map_or_else(Zval::new, |b| bytes_zval(b));
                let _ = by_offset.insert_at_index(bytes, block);
            }
            let _ = by_tier.insert_at_index(tier, array_zval(by_offset));
        }
        let _ = blocks.insert_at_index(file, array_zval(by_tier));
    }
    array_zval(blocks)
}

fn get_word_info(args: &mut function::Args) -> Fallible<Zval> {
    let call = read_call(args);
    Ok(word_info_of(args.take(0).dereference_mut(), call).unwrap_or_default())
}

/// `$dictionary->getWordInfo($word_id, true, -1, $start_generation,
/// $num_distinct_generations, true)` for another binding
/// (`IndexManager::discountedNumDocsTerm`); None where it declines, the
/// object then left to Yioop's PHP as a declined call leaves it.
pub fn raw_word_info(dictionary: &mut Zval, word_id: Vec<u8>, start_generation: i64, num_distinct_generations: i64) -> Option<Zval> {
    let call = max_entry_count().map(|max_entry_count| Call {
        word_id,
        query: Query { threshold: -1, start_generation, num_distinct_generations, max_entry_count },
        with_remaining_total: true,
    });
    word_info_of(dictionary, call)
}

/// `NUM_DOCS_PER_GENERATION * 100`, read once a request.
fn max_entry_count() -> Result<i64, Decline> {
    thread_local! {
        static COUNT: PerRequest<i64> = const { PerRequest::new() };
    }
    let read = || int_constant("seekquarry\\yioop\\configs\\NUM_DOCS_PER_GENERATION")?.checked_mul(100).ok_or(Decline);
    COUNT.with(|count| count.get_or(read))
}

fn word_info_of(value: &mut Zval, call: Result<Call, Decline>) -> Option<Zval> {
    let object = value.object_mut()?;
    let mut object = Object(object);
    let object_ptr = std::ptr::from_mut(&mut *object.0).cast::<zend_object>();
    let existing = OBJECTS.get(object_ptr);
    let unread = unread_by_php(&Props { object: &object, slots: existing.as_ref().map(|s| &s.slots) });
    if !unread {
        if let Some(state) = existing {
            hand_over(&mut object, &state);
        }
        return None;
    }
    let Ok(call) = call else {
        if let Some(state) = existing {
            hand_over(&mut object, &state);
        }
        return None;
    };
    let state = existing.unwrap_or_else(|| {
        let slots = PROPERTIES.map(|name| object.declared_ptr(name));
        let state = Rc::new(Native { files: RefCell::new(DictFiles::default()), slots });
        OBJECTS.add(object_ptr, &state);
        state
    });
    match look_up(&mut object, &call, &state) {
        Ok(value) => Some(value),
        Err(Decline) => {
            hand_over(&mut object, &state);
            None
        }
    }
}

php_function!(GET_WORD_INFO, get_word_info_handler, "yioop_codec\\dictionary\\getWordInfo", [Param::Value("dictionary"),
        Param::Value("word_id"),
        Param::Bool("raw", "false"),
        Param::Optional("threshold", "-1"),
        Param::Optional("start_generation", "-1"),
        Param::Optional("num_distinct_generations", "-1"),
        Param::Bool("with_remaining_total", "false"),], DataType::Mixed, |args| get_word_info(args));

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    add::register(merge::register(function::register(module, &[(&GET_WORD_INFO, get_word_info_handler)])))
}
