//! `IndexDictionary::getWordInfo` for a raw word id: each active tier's
//! file for the id's first byte is binary-searched through its prefix
//! index, then read backwards and forwards for more records of the id,
//! with auxiliary records, generation limits and the threshold exactly as
//! Yioop's `getWordInfoTier`, `addLookedUpEntry` and `addAuxInfoRecords`
//! apply them. Where Yioop's PHP would warn, exit or loop forever this
//! returns an error and the binding leaves the call to Yioop's PHP.

use super::files::{DictFiles, FileKey, Host};
use crate::index::shard::{unpack_words, Result, ShardError};
use std::cmp::Ordering;
use crate::index::int_map::IntMap;

/// `IndexDictionary::PREFIX_HEADER_SIZE` and `PREFIX_ITEM_SIZE`.
const PREFIX_HEADER_SIZE: i64 = 2048;
const PREFIX_ITEM_SIZE: i64 = 8;
/// `IndexShard::WORD_DATA_LEN`; an aux record's length is that plus
/// `IndexShard::WORD_KEY_LEN`, whatever the id's length.
const WORD_DATA_LEN: i64 = 12;
const AUX_ITEM_LEN: i64 = 32;
const AUX_RECORD_LEN: usize = 10;
const AUX_RECORD_BLANK: [u8; AUX_RECORD_LEN] = [0xFF; AUX_RECORD_LEN];
/// `IndexShard::BLANK`: a prefix with no words.
const BLANK: [u8; 8] = [0xFF; 8];
/// Far more steps than any binary search of a file takes; past them the
/// search is left to Yioop's PHP (damaged records can make it cycle).
const MAX_SEARCH_STEPS: u32 = 1 << 12;

/// One entry of the result: generation, first and last offset, count and
/// the id matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub generation: i64,
    pub first_offset: i64,
    pub last_offset: i64,
    pub count: i64,
    pub id: Vec<u8>,
}

/// `getWordInfo`'s parameters after the id (`$raw` true).
#[derive(Debug, Clone, Copy)]
pub struct Query {
    pub threshold: i64,
    pub start_generation: i64,
    pub num_distinct_generations: i64,
    /// `100 * C\NUM_DOCS_PER_GENERATION`.
    pub max_entry_count: i64,
}

/// What `getWordInfo` gathered over the tiers: the entries, and the count
/// and highest generation it sums when asked for the remaining total.
#[derive(Debug, Default, Clone)]
pub struct Found {
    pub info: Vec<Entry>,
    pub count: i64,
    pub max_generation: i64,
    /// Tiers searched (the last one is `$this->read_tier` after).
    pub tiers_read: usize,
}

/// `getWordInfo($word_id, true, ...)` over `tiers` (`$this->active_tiers`).
pub fn word_info(files: &mut DictFiles, host: &mut dyn Host, dir: &[u8], tiers: &[i64], word_id: &[u8], query: Query) -> Result<Found> {
    let mut found = Found { max_generation: -2, ..Found::default() };
    for &tier in tiers {
        found.tiers_read += 1;
        let Some(tier_found) = word_info_tier(files, host, dir, tier, word_id, query)? else { continue };
        found.max_generation = found.max_generation.max(tier_found.max_retained_generation);
        found.count = found.count.checked_add(tier_found.total_count).ok_or(ShardError::IntOverflow)?;
        let tier_count = tier_found.total_count;
        found.info.extend(tier_found.info.into_iter().flatten());
        if tier_count > query.threshold && query.threshold > 0 {
            break;
        }
    }
    Ok(found)
}

/// The answers an object gave, by everything a look-up reads besides the
/// object's blocks: the folder, the tiers, the id and the query.
#[derive(Default)]
pub struct Memo(rustc_hash::FxHashMap<MemoKey, Found>);

#[derive(PartialEq, Eq, Hash)]
pub struct MemoKey {
    dir: Vec<u8>,
    tiers: Vec<i64>,
    word_id: Vec<u8>,
    query: [i64; 4],
}

/// Far more than a page's distinct look-ups (each holds an entry a
/// generation); past it the memo starts over.
const MEMO_ENTRIES: usize = 1024;

impl Memo {
    pub(super) fn remember(&mut self, key: MemoKey, found: Found) {
        if self.0.len() >= MEMO_ENTRIES {
            self.0.clear();
        }
        self.0.insert(key, found);
    }
}

/// `word_info` on an object that may have answered the same look-up
/// before. Yioop's object caches every block it reads and never drops one,
/// so a repeat reads the same bytes and gives the same answer, unless the
/// first read a file that was missing or bytes past its end (not cached:
/// `DictFiles` marks such a call, and it is not remembered). A search asks
/// the same look-up hundreds of times a page: `discountedNumDocsTerm` keeps
/// no answer for a word the index does not hold.
pub fn word_info_remembered(files: &mut DictFiles, host: &mut dyn Host, dir: &[u8], tiers: &[i64], word_id: &[u8], query: Query) -> Result<Found> {
    let key = MemoKey {
        dir: dir.to_vec(),
        tiers: tiers.to_vec(),
        word_id: word_id.to_vec(),
        query: [query.threshold, query.start_generation, query.num_distinct_generations, query.max_entry_count],
    };
    if let Some(found) = files.memo.0.get(&key) {
        return Ok(found.clone());
    }
    let found = word_info(files, host, dir, tiers, word_id, query)?;
    files.pending = Some((key, found.clone()));
    Ok(found)
}

/// `getWordInfoTier`'s triple: the count, the highest generation kept and
/// the entries (None: Yioop's false, filtered out at the end).
#[derive(Debug)]
pub struct TierFound {
    pub total_count: i64,
    pub max_retained_generation: i64,
    pub info: Vec<Option<Entry>>,
}

/// The id a record was last matched with: Yioop's `$previous_id` starts
/// as the int -2.
enum PreviousId {
    Start,
    Id(Vec<u8>),
}

/// Whether PHP's `==` could read this string as a number; such strings
/// compare numerically, which is left to Yioop's PHP.
fn may_be_numeric(s: &[u8]) -> bool {
    s.iter().any(u8::is_ascii_digit) && s.iter().all(|b| b" \t\n\r\x0b\x0c+-.eE0123456789".contains(b))
}

impl PreviousId {
    /// `$previous_id == $id`.
    fn equals(&self, id: &[u8]) -> Result<bool> {
        if may_be_numeric(id) {
            return Err(ShardError::Warns("numeric id compared"));
        }
        Ok(match self {
            PreviousId::Start => false,
            PreviousId::Id(previous) => previous == id,
        })
    }
}

/// `getWordInfoFromString("\x00\x00" . $tail, true)`: a record cut short
/// makes Yioop's `list()` warn.
fn record_info(tail: &[u8]) -> Result<(i64, i64, i64, i64)> {
    let mut bytes = vec![0, 0];
    bytes.extend_from_slice(tail);
    let mut words = unpack_words(&bytes);
    let (Some(generation), Some(first_offset), Some(len)) = (words.next(), words.next(), words.next()) else {
        return Err(ShardError::Warns("Undefined array key"));
    };
    let (count, len) = if len & (1 << 31) != 0 { ((len >> 16) & 32767, len & 65535) } else { (len >> 2, len) };
    Ok((generation, first_offset, first_offset + len - 4, count))
}

/// `(ord($s[$i]) << 8) + ord($s[$i + 1])`; Yioop warns past the end.
fn two_bytes(s: &[u8], i: usize) -> Result<i64> {
    match (s.get(i), s.get(i + 1)) {
        (Some(&a), Some(&b)) => Ok((i64::from(a) << 8) + i64::from(b)),
        _ => Err(ShardError::Warns("Uninitialized string offset")),
    }
}

/// One tier's search: Yioop's local variables.
struct TierSearch<'a> {
    files: &'a mut DictFiles,
    host: &'a mut dyn Host,
    dir: &'a [u8],
    key: FileKey,
    word_id: &'a [u8],
    query: Query,
    info: Vec<Option<Entry>>,
    id_info: IntMap<i64, Vec<usize>>,
    total_count: i64,
    num_generations: i64,
    max_retained_generation: i64,
    previous_generation: i64,
    previous_id: PreviousId,
}

/// `getWordInfoTier($word_id, true, $tier, ...)`: None where it returns false.
pub fn word_info_tier(files: &mut DictFiles, host: &mut dyn Host, dir: &[u8], tier: i64, word_id: &[u8], query: Query) -> Result<Option<TierFound>> {
    let Some(&first) = word_id.first() else { return Ok(None) };
    let Some(&second) = word_id.get(1) else { return Err(ShardError::Warns("Uninitialized string offset")) };
    let search = TierSearch {
        files,
        host,
        dir,
        key: (i64::from(first), tier),
        word_id,
        query,
        info: Vec::new(),
        id_info: IntMap::default(),
        total_count: 0,
        num_generations: 0,
        max_retained_generation: -1,
        previous_generation: -2,
        previous_id: PreviousId::Start,
    };
    search.run(i64::from(second))
}

impl TierSearch<'_> {
    fn item_len(&self) -> i64 {
        self.word_id.len() as i64 + WORD_DATA_LEN
    }

    fn substring(&mut self, offset: i64, len: i64) -> Result<Vec<u8>> {
        self.files.substring(self.dir, self.key, offset, len, self.host)
    }

    /// The record at position `loc` of the prefix's run from `start`.
    fn record(&mut self, start: i64, loc: i64) -> Result<Vec<u8>> {
        let offset = loc.checked_mul(self.item_len()).and_then(|o| o.checked_add(start)).ok_or(ShardError::IntOverflow)?;
        let len = self.item_len();
        self.substring(offset, len)
    }

    fn finish(self) -> Option<TierFound> {
        Some(TierFound { total_count: self.total_count, max_retained_generation: self.max_retained_generation, info: self.info })
    }

    fn over_threshold(&self) -> bool {
        self.query.threshold > 0 && self.total_count > self.query.threshold
    }

    fn run(mut self, prefix: i64) -> Result<Option<TierFound>> {
        let key_len = self.word_id.len();
        let prefix_info = self.substring(PREFIX_ITEM_SIZE * prefix, PREFIX_ITEM_SIZE)?;
        if prefix_info == BLANK {
            return Ok(None);
        }
        let prefix_words: Vec<i64> = unpack_words(&prefix_info).collect();
        if prefix_words.len() < 2 || prefix_words[1] == 0 {
            return Ok(None);
        }
        let aux_prefix_bit = if self.word_id[0] & 128 != 0 { 0 } else { 32768 };
        let mut high = prefix_words[1] - 1;
        let start = PREFIX_HEADER_SIZE + prefix_words[0];
        let mut low = 0;
        let mut check = (low + high) >> 1;
        let mut steps = 0;
        let (word_string, id) = loop {
            steps += 1;
            if steps > MAX_SEARCH_STEPS {
                return Err(ShardError::Warns("the search does not converge"));
            }
            let old_check = check;
            let mut word_string = self.record(start, check)?;
            if word_string.is_empty() || word_string == b"0" {
                return Ok(None);
            }
            let word_prefix = two_bytes(&word_string, 0)?;
            if aux_prefix_bit == word_prefix & 32768 {
                // An aux record: back to the start of its record.
                check -= word_prefix - aux_prefix_bit + 1;
                word_string = self.record(start, check)?;
                if check < low {
                    let word_prefix = two_bytes(&word_string, 0)?;
                    if aux_prefix_bit == word_prefix & 32768 {
                        return Ok(None);
                    }
                    check += 1 + two_bytes(&word_string, key_len)?;
                    if check > high {
                        return Ok(None);
                    }
                    word_string = self.record(start, check)?;
                }
            }
            let id = word_string[..word_string.len().min(key_len)].to_vec();
            match self.word_id.cmp(&id[..]) {
                Ordering::Equal => break (word_string, id),
                Ordering::Less => {
                    high = check;
                    check = (low + check) >> 1;
                }
                Ordering::Greater => {
                    if check + 1 == high {
                        check += 1;
                    }
                    low = check;
                    check = (high + check) >> 1;
                }
            }
            if old_check == check {
                return Ok(None);
            }
        };
        let item_len = self.item_len();
        let num_aux = two_bytes(&word_string, key_len)?;
        let record = record_info(&word_string[key_len + 2..])?;
        let mut check_and_auxes = 1;
        let mut remember_generation = -2;
        if record.3 < self.query.max_entry_count {
            self.previous_generation = record.0;
            self.previous_id = PreviousId::Id(id.clone());
            remember_generation = record.0;
            if self.query.start_generation <= record.0 {
                self.add_looked_up(&id, record)?;
                if num_aux > 0 {
                    self.add_aux_records(&id, num_aux, start + (check + 1) * item_len)?;
                    check_and_auxes += num_aux;
                    if self.over_threshold() {
                        return Ok(self.finish());
                    }
                }
            }
        }
        // Backwards from the match, for earlier records of the id.
        let mut test = check - 1;
        let mut break_count = 0;
        while test >= low {
            let word_string = self.record(start, test)?;
            if word_string.is_empty() {
                break;
            }
            let word_prefix = two_bytes(&word_string, 0)?;
            if aux_prefix_bit == word_prefix & 32768 {
                test -= word_prefix - aux_prefix_bit + 1;
                continue;
            }
            let id = &word_string[..word_string.len().min(key_len)];
            if self.word_id != id {
                break_count += 1;
                if break_count > 1 {
                    break;
                }
                test -= 1;
                continue;
            }
            let id = id.to_vec();
            test -= 1;
            let num_aux = two_bytes(&word_string, key_len)?;
            let record = record_info(&word_string[key_len + 2..])?;
            let generation = record.0;
            if record.3 < self.query.max_entry_count {
                if self.previous_generation == generation && self.previous_id.equals(&id)? {
                    self.info.pop();
                }
                if self.keeps(generation) {
                    self.add_looked_up(&id, record)?;
                    if num_aux > 0 {
                        self.add_aux_records(&id, num_aux, start + (test + 2) * item_len)?;
                    }
                    if self.over_threshold() {
                        return Ok(self.finish());
                    }
                }
            }
        }
        // Forwards from the match, for later records of the id.
        let mut test = check + check_and_auxes;
        self.previous_generation = remember_generation;
        let mut break_count = 0;
        while test <= high {
            let word_string = self.record(start, test)?;
            if word_string.is_empty() {
                break;
            }
            let id = &word_string[..word_string.len().min(key_len)];
            if self.word_id != id {
                break_count += 1;
                if break_count > 1 {
                    break;
                }
                test += 1;
                continue;
            }
            let id = id.to_vec();
            test += 1;
            let num_aux = two_bytes(&word_string, key_len)?;
            let record = record_info(&word_string[key_len + 2..])?;
            let generation = record.0;
            let new = record.3 < self.query.max_entry_count && (self.previous_generation != generation || !self.previous_id.equals(&id)?);
            if new && self.keeps(generation) {
                self.add_looked_up(&id, record)?;
                if num_aux > 0 {
                    self.add_aux_records(&id, num_aux, start + test * item_len)?;
                    test += num_aux;
                }
                if self.over_threshold() {
                    return Ok(self.finish());
                }
            }
        }
        Ok(self.finish())
    }

    /// The generation test of the backward and forward scans.
    fn keeps(&self, generation: i64) -> bool {
        let q = self.query;
        q.start_generation <= generation
            && (q.num_distinct_generations <= 0 || self.num_generations < q.num_distinct_generations || generation <= self.max_retained_generation)
    }

    /// The distinct-generations bookkeeping both `addLookedUpEntry` and
    /// `addAuxInfoRecords` do before adding an entry of `generation`.
    fn count_generation(&mut self, generation: i64) -> Result<()> {
        if self.query.num_distinct_generations <= 0 || self.id_info.contains_key(&generation) {
            return Ok(());
        }
        self.id_info.insert(generation, Vec::new());
        if self.num_generations >= self.query.num_distinct_generations {
            if let Some(keys) = self.id_info.remove(&self.max_retained_generation) {
                for key in keys {
                    // `$info[$key][3]` of a popped or dropped entry warns.
                    let entry = self.info.get_mut(key).and_then(Option::take).ok_or(ShardError::Warns("Undefined array key"))?;
                    self.total_count = self.total_count.checked_sub(entry.count).ok_or(ShardError::IntOverflow)?;
                }
            }
            self.max_retained_generation = *self.id_info.keys().max().expect("just inserted");
        } else {
            self.num_generations += 1;
            self.max_retained_generation = self.max_retained_generation.max(generation);
        }
        Ok(())
    }

    fn push(&mut self, id: &[u8], (generation, first_offset, last_offset, count): (i64, i64, i64, i64)) -> Result<()> {
        self.count_generation(generation)?;
        self.id_info.entry(generation).or_default().push(self.info.len());
        self.info.push(Some(Entry { generation, first_offset, last_offset, count, id: id.to_vec() }));
        self.total_count = self.total_count.checked_add(count).ok_or(ShardError::IntOverflow)?;
        Ok(())
    }

    /// `addLookedUpEntry`.
    fn add_looked_up(&mut self, id: &[u8], record: (i64, i64, i64, i64)) -> Result<()> {
        self.push(id, record)?;
        self.previous_generation = record.0;
        self.previous_id = PreviousId::Id(id.to_vec());
        Ok(())
    }

    /// `addAuxInfoRecords`: `num_aux` records of up to three entries each
    /// from `offset`; Yioop's `decodeAuxRecord` exits the process on a
    /// record shorter than 23 bytes (left to it).
    fn add_aux_records(&mut self, id: &[u8], num_aux: i64, mut offset: i64) -> Result<()> {
        for _ in 0..num_aux {
            let word_string = self.substring(offset, AUX_ITEM_LEN)?;
            let data = word_string.get(2..).unwrap_or_default();
            let data = &data[..data.len().min(3 * AUX_RECORD_LEN)];
            if data.len() <= 2 * AUX_RECORD_LEN {
                return Err(ShardError::Throws("decodeAuxRecord exits"));
            }
            let mut records: Vec<&[u8]> = data.chunks(AUX_RECORD_LEN).collect();
            if records[2] == AUX_RECORD_BLANK {
                records.truncate(if records[1] == AUX_RECORD_BLANK { 1 } else { 2 });
            }
            for record in records {
                let record = record_info(record)?;
                self.push(id, record)?;
                if self.over_threshold() {
                    return Ok(());
                }
                self.previous_generation = record.0;
            }
            offset += AUX_ITEM_LEN;
        }
        Ok(())
    }
}
