//! `IndexDictionary::mergeTierFiles`' output: two tier files of one
//! first-byte folder merged into one, as Yioop's loop merges them.
//!
//! A tier file is a 2,048-byte prefix index (per second byte of the word
//! ids, an offset and a count of 32-byte items, or eight 0xFF bytes) and
//! then records in id order: a 32-byte item (20-byte id, a 2-byte count of
//! auxiliary items, one 10-byte generation entry), followed by that many
//! 32-byte auxiliary items (2 bytes, then three 10-byte entries, unused
//! ones 0xFF). Records of the same id in both files are combined, file A's
//! entries first.
//!
//! Only whole files are merged here: every record inside the file, the
//! records a multiple of 32 bytes. On those Yioop's reads in 20 MB
//! segments see the records one after another, so the merge is over the
//! records alone. Anything else (where Yioop's loop logs a short file, or
//! takes a record without its auxiliary items) gives None, for Yioop's PHP.
//!
//! Kept as Yioop has it: where file A's last auxiliary item of an id is
//! part full, the first entries of B's auxiliary items are added with
//! PHP's `+` on arrays, which keeps A's entry under a key both have and
//! drops B's ([`Entries::union`]).

/// `IndexDictionary::NUM_PREFIX_LETTERS`.
pub const PREFIXES: usize = 256;
/// `IndexDictionary::PREFIX_ITEM_SIZE`: an offset and a count, big-endian.
pub const PREFIX_ITEM: usize = 8;
/// `IndexShard::BLANK`: a prefix item with no words.
pub const BLANK_PREFIX_ITEM: [u8; PREFIX_ITEM] = [0xFF; PREFIX_ITEM];
/// `IndexDictionary::PREFIX_HEADER_SIZE`: an item per second byte.
pub const PREFIX_HEADER: usize = PREFIXES * PREFIX_ITEM;
/// `IndexShard::WORD_KEY_LEN + IndexShard::WORD_DATA_LEN`.
pub const ITEM: usize = 32;
/// `IndexShard::WORD_KEY_LEN`.
pub const KEY: usize = 20;
/// `IndexDictionary::AUX_RECORD_LEN`: one entry of an auxiliary item.
pub const ENTRY: usize = 10;
const BLANK_ENTRY: [u8; ENTRY] = [0xFF; ENTRY];

/// The merged file: its prefix index, then its records.
pub fn merge_tier_files(a: &[u8], b: &[u8], prefix_bit: u8) -> Option<Vec<u8>> {
    let (a, b) = (records(a)?, records(b)?);
    let mut body = Vec::with_capacity(a.iter().chain(&b).map(|r| r.len()).sum());
    let mut counts = PrefixCounts::default();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let take_a = match (a.get(i), b.get(j)) {
            (Some(_), None) => Some(true),
            (None, Some(_)) => Some(false),
            (Some(ra), Some(rb)) => match ra[..KEY].cmp(&rb[..KEY]) {
                std::cmp::Ordering::Less => Some(true),
                std::cmp::Ordering::Greater => Some(false),
                std::cmp::Ordering::Equal => None,
            },
            (None, None) => unreachable!("the loop ends first"),
        };
        let (record, second) = match take_a {
            Some(true) => (std::borrow::Cow::Borrowed(a[i]), a[i][1]),
            Some(false) => (std::borrow::Cow::Borrowed(b[j]), b[j][1]),
            None => (std::borrow::Cow::Owned(combine_records(a[i], b[j], prefix_bit)), a[i][1]),
        };
        i += usize::from(take_a != Some(false));
        j += usize::from(take_a != Some(true));
        counts.add(second, (record.len() / ITEM) as i64);
        body.extend_from_slice(&record);
    }
    let mut file = counts.prefix_index();
    file.extend_from_slice(&body);
    Some(file)
}

/// A tier file's records, each with its auxiliary items; None where the
/// file is not whole records.
fn records(file: &[u8]) -> Option<Vec<&[u8]>> {
    let mut rest = file.get(PREFIX_HEADER..)?;
    if rest.len() % ITEM != 0 {
        return None;
    }
    let mut records = Vec::new();
    while !rest.is_empty() {
        let len = ITEM * (1 + aux_count(rest));
        records.push(rest.get(..len)?);
        rest = &rest[len..];
    }
    Some(records)
}

fn aux_count(record: &[u8]) -> usize {
    usize::from(u16::from_be_bytes([record[KEY], record[KEY + 1]]))
}

/// The second-byte counts of the records written: Yioop's
/// `$second_prefix_info`, where a second byte seen again after another
/// starts its count afresh.
struct PrefixCounts {
    counts: [Option<i64>; PREFIXES],
    last: Option<u8>,
}

impl Default for PrefixCounts {
    fn default() -> Self {
        PrefixCounts { counts: [None; PREFIXES], last: None }
    }
}

impl PrefixCounts {
    fn add(&mut self, second: u8, items: i64) {
        let slot = &mut self.counts[usize::from(second)];
        *slot = Some(if self.last == Some(second) { slot.unwrap_or(0) + items } else { items });
        self.last = Some(second);
    }

    /// `pack("N*", $offset, $count)` per second byte with records, 0xFF
    /// bytes for the rest.
    fn prefix_index(&self) -> Vec<u8> {
        let mut index = Vec::with_capacity(PREFIX_HEADER);
        let mut offset = 0i64;
        for count in self.counts {
            match count {
                Some(count) => {
                    index.extend_from_slice(&(offset as u32).to_be_bytes());
                    index.extend_from_slice(&(count as u32).to_be_bytes());
                    offset += count * ITEM as i64;
                }
                None => index.extend_from_slice(&BLANK_PREFIX_ITEM),
            }
        }
        index
    }
}

/// `combineDictionaryRecord($record_a, $record_b, $prefix_bit)`: B's
/// entries appended to A's record, three to an auxiliary item whose first
/// byte carries `prefix_bit`, the last item padded with 0xFF.
pub fn combine_records(a: &[u8], b: &[u8], prefix_bit: u8) -> Vec<u8> {
    let mut items = aux_count(a);
    let (mut record, mut entries) = if items > 0 {
        let last = Entries::decoded(&a[a.len() - ITEM..]);
        if last.len() == 3 {
            (a.to_vec(), Entries::default())
        } else {
            items -= 1;
            (a[..a.len() - ITEM].to_vec(), last)
        }
    } else {
        (a.to_vec(), Entries::default())
    };
    entries.push(&b[ITEM - ENTRY..ITEM]);
    if entries.len() == 3 {
        write_item(&mut record, prefix_bit, items, &entries.take_three());
        items += 1;
    }
    for item in b[ITEM..].chunks_exact(ITEM).take(aux_count(b)) {
        entries.union(Entries::decoded(item));
        while entries.len() >= 3 {
            write_item(&mut record, prefix_bit, items, &entries.take_three());
            items += 1;
        }
    }
    if entries.len() > 0 {
        let start = record.len();
        write_item(&mut record, prefix_bit, items, &entries.take_three());
        record.resize(start + ITEM, 0xFF);
        items += 1;
    }
    record[KEY] = (items >> 8) as u8;
    record[KEY + 1] = items as u8;
    record
}

/// An auxiliary item: `chr($prefix_bit + ($n >> 8)) . chr($n & 255)` and
/// its entries.
fn write_item(record: &mut Vec<u8>, prefix_bit: u8, n: usize, entries: &[&[u8]]) {
    record.push(prefix_bit.wrapping_add((n >> 8) as u8));
    record.push(n as u8);
    for entry in entries {
        record.extend_from_slice(entry);
    }
}

/// A PHP array of 10-byte entries with int keys, as
/// combineDictionaryRecord's `$aux_records` goes: its entries in order, and
/// the key `$a[] =` would take next.
#[derive(Default)]
struct Entries<'a> {
    entries: Vec<(i64, &'a [u8])>,
    next_key: i64,
}

impl<'a> Entries<'a> {
    /// `decodeAuxRecord($item)`: `str_split` of its 30 bytes after the two
    /// first into three entries, a blank third dropped with `unset`, then
    /// a blank second; the next key stays 3.
    fn decoded(item: &'a [u8]) -> Entries<'a> {
        let parts: Vec<&[u8]> = item[2..ITEM].chunks(ENTRY).collect();
        let mut kept = 3;
        if parts[2] == BLANK_ENTRY {
            kept = 2;
            if parts[1] == BLANK_ENTRY {
                kept = 1;
            }
        }
        Entries { entries: (0..kept).map(|k| (k as i64, parts[k])).collect(), next_key: 3 }
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// `$a[] = $entry`.
    fn push(&mut self, entry: &'a [u8]) {
        self.entries.push((self.next_key, entry));
        self.next_key += 1;
    }

    /// `$a += $other`: the other's entries under keys this lacks, after
    /// this one's.
    fn union(&mut self, other: Entries<'a>) {
        for (key, entry) in other.entries {
            if self.entries.iter().all(|&(k, _)| k != key) {
                self.entries.push((key, entry));
                self.next_key = self.next_key.max(key + 1);
            }
        }
    }

    /// `array_slice($a, 0, 3)`'s entries, and `$a = array_slice($a, 3)`
    /// (renumbered from 0).
    fn take_three(&mut self) -> Vec<&'a [u8]> {
        let first: Vec<&[u8]> = self.entries.drain(..self.entries.len().min(3)).map(|(_, e)| e).collect();
        for (k, entry) in self.entries.iter_mut().enumerate() {
            entry.0 = k as i64;
        }
        self.next_key = self.entries.len() as i64;
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: u8, aux: u16, entry: u8) -> Vec<u8> {
        let mut item = vec![id; KEY];
        item.extend_from_slice(&aux.to_be_bytes());
        item.extend_from_slice(&[entry; ENTRY]);
        item
    }

    fn aux_item(n: u8, entries: &[u8]) -> Vec<u8> {
        let mut item = vec![0x80, n];
        for &e in entries {
            item.extend_from_slice(&[e; ENTRY]);
        }
        item.resize(ITEM, 0xFF);
        item
    }

    #[test]
    fn a_part_full_item_keeps_its_entries_and_drops_bs_under_the_same_keys() {
        // A: one entry in its last item (key 0); B's main entry goes under
        // key 3; B's item's entries 0 (dropped), 1 and 2 follow.
        let a = [item(1, 1, 0xA0), aux_item(0, &[0xA1])].concat();
        let b = [item(1, 1, 0xB0), aux_item(0, &[0xB1, 0xB2, 0xB3])].concat();
        let combined = combine_records(&a, &b, 0);
        let entries: Vec<u8> = combined[ITEM..].chunks(ITEM).flat_map(|it| it[2..].chunks(ENTRY).map(|e| e[0])).collect();
        assert_eq!(entries, [0xA1, 0xB0, 0xB2, 0xB3, 0xFF, 0xFF]);
        assert_eq!(aux_count(&combined), 2);
        assert_eq!(combined.len(), 3 * ITEM);
    }

    #[test]
    fn files_with_a_record_past_their_end_are_left_to_php() {
        let header = vec![0xFF; PREFIX_HEADER];
        let whole = [header.clone(), item(1, 0, 1)].concat();
        let cut = [header.clone(), item(1, 1, 1)].concat();
        assert!(merge_tier_files(&whole, &whole, 128).is_some());
        assert!(merge_tier_files(&whole, &cut, 128).is_none());
        assert!(merge_tier_files(&whole[..PREFIX_HEADER + 5], &whole, 128).is_none());
    }
}
