//! Hash maps keyed by a few integers.

use std::collections::HashMap;
use crate::index::shard::BLOCK_POWER;
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for keys made of a few integers (block offsets, inodes,
/// versions), which need no protection from chosen collisions: each one is
/// folded in by a multiplication, and block offsets, multiples of 4 KiB,
/// by their block number too.
#[derive(Default)]
pub struct IntHasher(u64);

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.write_u64(u64::from(b)));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n ^ (n >> BLOCK_POWER)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_i64(&mut self, n: i64) {
        self.write_u64(n as u64);
    }
    fn write_i128(&mut self, n: i128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }
}

pub type IntMap<K, V> = HashMap<K, V, BuildHasherDefault<IntHasher>>;

