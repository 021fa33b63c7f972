//! The Bloom filter look-ups' MD5 digests (`hyphenateEntities` asks two
//! short phrases per word): `md5_lanes::digests`, 16 values side by side,
//! against the md-5 crate's digest one at a time, in digests per second.
//!
//! Run: `cargo bench --no-default-features --bench md5_lanes -- --warm-up-time 1 --measurement-time 3`
//!
//! Input: 1,000 two-word phrases and their `*` forms, as PhraseParser asks
//! them (14 to 22 bytes each).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use md5::{Digest, Md5};
use std::hint::black_box;
use yioop_codec::index::md5_lanes;

fn phrases() -> Vec<String> {
    (0..500).flat_map(|i| {
        let pair = format!("word{i} other{}", i * 7);
        [pair.clone(), pair + "*"]
    }).collect()
}

fn digests(c: &mut Criterion) {
    let phrases = phrases();
    let values: Vec<&[u8]> = phrases.iter().map(|p| p.as_bytes()).collect();
    let mut group = c.benchmark_group("md5 of 1,000 phrases");
    group.throughput(Throughput::Elements(values.len() as u64));
    group.bench_function("md-5 crate, one at a time", |b| {
        b.iter(|| values.iter().map(|v| -> [u8; 16] { Md5::digest(black_box(v)).into() }).collect::<Vec<_>>())
    });
    group.bench_function("md5_lanes, 16 at a time", |b| b.iter(|| md5_lanes::digests(black_box(&values))));
    group.finish();
}

criterion_group!(benches, digests);
criterion_main!(benches);
