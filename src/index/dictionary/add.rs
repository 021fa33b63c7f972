//! The prefix index of `IndexDictionary::addShardDictionary`: a shard's
//! words become a tier-0 file per first byte, each with the shard's
//! prefix index for that byte, its offsets made relative to the first
//! word of the byte.

use super::merge::{BLANK_PREFIX_ITEM, PREFIXES as SECOND_BYTES, PREFIX_ITEM};

/// Rewrites `prefixes` (the shard's prefix index) as Yioop's loop does:
/// within each first byte, every item that is whole and not blank gets
/// its offset less the byte's first such offset (modulo 2^32, as `pack`
/// writes it). Returns, per first byte, the last such item's offset and
/// count as they were read, None where the byte has none.
pub fn rebase_prefix_index(prefixes: &mut [u8]) -> Vec<Option<(i64, i64)>> {
    (0..SECOND_BYTES).map(|first| rebase_first_byte(prefixes, first)).collect()
}

fn rebase_first_byte(prefixes: &mut [u8], first: usize) -> Option<(i64, i64)> {
    let mut first_offset = None;
    let mut last = None;
    for second in 0..SECOND_BYTES {
        let at = (first * SECOND_BYTES + second) * PREFIX_ITEM;
        // extractPrefixRecord: a blank item is false, a short one unpacks
        // to fewer than two numbers; neither is set.
        let Some(item) = prefixes.get_mut(at..at + PREFIX_ITEM) else {
            continue;
        };
        if *item == BLANK_PREFIX_ITEM {
            continue;
        }
        let offset = u32::from_be_bytes([item[0], item[1], item[2], item[3]]);
        let count = u32::from_be_bytes([item[4], item[5], item[6], item[7]]);
        let base = *first_offset.get_or_insert(offset);
        item[..4].copy_from_slice(&offset.wrapping_sub(base).to_be_bytes());
        last = Some((i64::from(offset), i64::from(count)));
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(offset: u32, count: u32) -> [u8; 8] {
        let mut item = [0; 8];
        item[..4].copy_from_slice(&offset.to_be_bytes());
        item[4..].copy_from_slice(&count.to_be_bytes());
        item
    }

    #[test]
    fn offsets_become_relative_to_each_first_bytes_first_item() {
        let mut prefixes = vec![0xFF; SECOND_BYTES * SECOND_BYTES * PREFIX_ITEM];
        let at = |first: usize, second: usize| (first * SECOND_BYTES + second) * PREFIX_ITEM;
        prefixes[at(1, 3)..at(1, 4)].copy_from_slice(&item(640, 2));
        prefixes[at(1, 9)..at(1, 10)].copy_from_slice(&item(704, 5));
        let last = rebase_prefix_index(&mut prefixes);
        assert_eq!(&prefixes[at(1, 3)..at(1, 4)], &item(0, 2));
        assert_eq!(&prefixes[at(1, 9)..at(1, 10)], &item(64, 5));
        assert_eq!(last[1], Some((704, 5)));
        assert_eq!(last.iter().filter(|l| l.is_some()).count(), 1);
    }

    #[test]
    fn a_short_index_sets_only_its_whole_items() {
        let mut prefixes = [item(100, 1), item(50, 1)].concat();
        prefixes.extend_from_slice(&[0, 0, 0]);
        let last = rebase_prefix_index(&mut prefixes);
        // 50 - 100 modulo 2^32, as pack("N") writes -50.
        assert_eq!(&prefixes[8..12], &(-50i32).to_be_bytes());
        assert_eq!(last[0], Some((50, 1)));
        assert_eq!(&prefixes[16..], &[0, 0, 0]);
    }
}
