//! Yioop's `BloomFilterFile::contains`: the look-up of a phrase in a Bloom
//! filter (the n-word-gram filters PhraseParser asks for every candidate
//! phrase while indexing). A value's bit positions come from a chain of raw
//! MD5 digests (each the digest of the one before, the first of the value),
//! read as big-endian 32-bit words: word i gives position
//! `word % size + size - 1`, with `size` half the filter's bit count, as
//! `getHashBitPositionArray` computes them. The value is in the filter when
//! each position's bit (bit `pos & 7` of byte `pos >> 3`) is set; the first
//! clear bit answers "no", as Yioop's loop does, so later positions are not
//! looked at.

use crate::index::md5_lanes;
use crate::index::prefetch::prefetch;
use md5::{Digest, Md5};

/// The filter's fields as Yioop's `contains` reads them, ints already.
pub struct BloomFilter<'a> {
    pub filter: &'a [u8],
    pub filter_size: i64,
    pub num_keys: i64,
}

/// Where Yioop's PHP would warn or throw instead of answering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BloomError {
    /// `size` is 0 or less: a modulo by zero, or positions before the filter.
    NoSize,
    /// A position past the filter's bytes: PHP warns on the string offset.
    PastEnd,
}

impl BloomFilter<'_> {
    /// `contains($value)`. `num_keys` of 0 or less looks at no bit: true.
    pub fn contains(&self, value: &[u8]) -> Result<bool, BloomError> {
        self.contains_from(|| Md5::digest(value).into())
    }

    /// `contains` of each value, in order: the first digests, where most
    /// look-ups end, are taken side by side (`md5_lanes`).
    pub fn contains_each(&self, values: &[&[u8]]) -> Vec<Result<bool, BloomError>> {
        if self.num_keys <= 0 {
            return vec![Ok(true); values.len()];
        }
        if values.len() < md5_lanes::WORTH_IT {
            return values.iter().map(|value| self.contains(value)).collect();
        }
        let firsts = md5_lanes::digests(values);
        // The first bit of each look-up, where most end, is asked of memory
        // for all of them before any is read.
        let size = self.filter_size >> 1;
        if size > 0 {
            for first in &firsts {
                let pos = position(&first[..4], size);
                prefetch(self.filter.as_ptr().wrapping_add((pos >> 3) as usize));
            }
        }
        firsts.into_iter().map(|first| self.contains_from(|| first)).collect()
    }

    /// The look-up given the value's digest, taken only if a bit is read.
    fn contains_from(&self, first: impl FnOnce() -> [u8; 16]) -> Result<bool, BloomError> {
        if self.num_keys <= 0 {
            return Ok(true);
        }
        let size = self.filter_size >> 1;
        if size <= 0 {
            return Err(BloomError::NoSize);
        }
        let mut digest = first();
        let mut key = 0i64;
        while key < self.num_keys {
            for word in digest.chunks_exact(4) {
                if key == self.num_keys {
                    break;
                }
                if !self.bit(position(word, size))? {
                    return Ok(false);
                }
                key += 1;
            }
            digest = Md5::digest(digest).into();
        }
        Ok(true)
    }

    /// `getBit($pos)`.
    fn bit(&self, pos: i64) -> Result<bool, BloomError> {
        let byte = self.filter.get((pos >> 3) as usize).ok_or(BloomError::PastEnd)?;
        Ok(byte & (1 << (pos & 7)) != 0)
    }
}

/// The bit position a digest word (4 bytes, big-endian) gives.
fn position(word: &[u8], size: i64) -> i64 {
    i64::from(u32::from_be_bytes(word.try_into().expect("4 bytes"))) % size + size - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The positions Yioop's getHashBitPositionArray gives, written out
    /// the long way: all digests first, then every word.
    fn positions(value: &[u8], num_keys: i64, filter_size: i64) -> Vec<i64> {
        let mut chain = Vec::new();
        let mut v = value.to_vec();
        for _ in 0..(num_keys >> 2) + 1 {
            v = Md5::digest(&v).to_vec();
            chain.extend_from_slice(&v);
        }
        let size = filter_size >> 1;
        chain.chunks_exact(4).take(num_keys as usize)
            .map(|w| i64::from(u32::from_be_bytes(w.try_into().unwrap())) % size + size - 1).collect()
    }

    #[test]
    fn a_value_added_is_found_and_one_clear_bit_says_no() {
        let (num_keys, filter_size) = (17, 4000);
        let mut filter = vec![0u8; 500];
        for pos in positions(b"new york", num_keys, filter_size) {
            filter[(pos >> 3) as usize] |= 1 << (pos & 7);
        }
        let bloom = BloomFilter { filter: &filter, filter_size, num_keys };
        assert_eq!(bloom.contains(b"new york"), Ok(true));
        let last = *positions(b"new york", num_keys, filter_size).last().unwrap();
        let mut cleared = filter.clone();
        cleared[(last >> 3) as usize] &= !(1 << (last & 7));
        let bloom = BloomFilter { filter: &cleared, filter_size, num_keys };
        assert_eq!(bloom.contains(b"new york"), Ok(false));
    }

    #[test]
    fn the_first_clear_bit_answers_before_a_later_position_past_the_end() {
        // Empty filter: the first position's byte is missing, PHP warns.
        let bloom = BloomFilter { filter: b"", filter_size: 4000, num_keys: 3 };
        assert_eq!(bloom.contains(b"x"), Err(BloomError::PastEnd));
        let zeros = vec![0u8; 500];
        let bloom = BloomFilter { filter: &zeros, filter_size: 4000, num_keys: 3 };
        assert_eq!(bloom.contains(b"x"), Ok(false));
    }

    #[test]
    fn sizes_that_php_would_not_answer() {
        let bloom = BloomFilter { filter: b"\xff", filter_size: 1, num_keys: 1 };
        assert_eq!(bloom.contains(b"x"), Err(BloomError::NoSize));
        let bloom = BloomFilter { filter: b"", filter_size: 0, num_keys: 0 };
        assert_eq!(bloom.contains(b"x"), Ok(true));
    }

    #[test]
    fn many_at_once_answer_as_one_at_a_time() {
        let (num_keys, filter_size) = (5, 4000);
        let mut filter = vec![0u8; 500];
        let added: Vec<String> = (0..40).map(|i| format!("phrase {i}")).collect();
        for value in &added {
            for pos in positions(value.as_bytes(), num_keys, filter_size) {
                filter[(pos >> 3) as usize] |= 1 << (pos & 7);
            }
        }
        let asked: Vec<String> = (0..120).map(|i| if i % 3 == 0 { format!("phrase {}", i / 3) } else { format!("other {i}*") }).collect();
        let asked: Vec<&[u8]> = asked.iter().map(|v| v.as_bytes()).collect();
        let bloom = BloomFilter { filter: &filter, filter_size, num_keys };
        let one_by_one: Vec<_> = asked.iter().map(|v| bloom.contains(v)).collect();
        assert_eq!(bloom.contains_each(&asked), one_by_one);
        assert!(one_by_one.iter().step_by(3).all(|r| *r == Ok(true)), "every added phrase is found");
        assert!(one_by_one.contains(&Ok(false)), "and most others are not");
        let short = BloomFilter { filter: b"", filter_size: 4000, num_keys: 3 };
        assert_eq!(short.contains_each(&asked[..2]), vec![Err(BloomError::PastEnd); 2]);
    }
}
