//! Compressing web archive records (`GzipCompressor::compress`, gzencode
//! level 9): the native exact deflate (`index::archive::zlib9`) against the
//! system zlib it reproduces (`deflate::zlib_gzencode9`, what PHP's
//! gzencode runs), the same bytes, by record size.
//!
//! Run: `cargo bench --bench deflate -- --warm-up-time 1 --measurement-time 5`
//!
//! Inputs: `DEFLATE_RECORDS=FILE` (records written by
//! `php bench/crawl/deflate-records.php BATCHES_DIR 4 FILE`: a queue
//! server's summaries), else summary-like serialized records of 40 to 6,000
//! words from a small vocabulary.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use yioop_codec::index::archive::{deflate, zlib9};

#[path = "summary.rs"]
mod summary;

/// Records from `DEFLATE_RECORDS`, else synthetic ones.
fn records() -> Vec<Vec<u8>> {
    let Ok(path) = std::env::var("DEFLATE_RECORDS") else {
        return (0..400).map(|i| summary::serialized([40, 300, 1500, 6000][i % 4], i as u64)).collect();
    };
    let data = std::fs::read(path).expect("DEFLATE_RECORDS is readable");
    let mut records = Vec::new();
    let mut at = 0;
    while at + 4 <= data.len() {
        let len = u32::from_be_bytes(data[at..at + 4].try_into().expect("4 bytes")) as usize;
        records.push(data[at + 4..at + 4 + len].to_vec());
        at += 4 + len;
    }
    records
}

fn compress(c: &mut Criterion) {
    let all = records();
    assert!(deflate::native_agrees(), "the native deflate writes other bytes than this zlib");
    let mut group = c.benchmark_group("gzencode9");
    for (class, from, to) in [("under 2 KiB", 0, 2048), ("2-8 KiB", 2048, 8192), ("8-32 KiB", 8192, 32768), ("32-64 KiB", 32768, zlib9::MAX_WHOLE_INPUT + 1)] {
        let set: Vec<&[u8]> = all.iter().map(Vec::as_slice).filter(|r| (from..to).contains(&r.len())).collect();
        if set.is_empty() {
            continue;
        }
        for record in &set {
            assert_eq!(zlib9::gzencode9(record).as_deref(), Some(&deflate::zlib_gzencode9(record)[..]));
        }
        group.throughput(Throughput::Bytes(set.iter().map(|r| r.len() as u64).sum()));
        group.bench_with_input(BenchmarkId::new("native", class), &set, |b, set| {
            let mut deflater = zlib9::Deflate::new();
            b.iter(|| set.iter().map(|r| {
                deflater.reset();
                deflater.finish(black_box(r)).map_or(0, |m| m.len())
            }).sum::<usize>())
        });
        group.bench_with_input(BenchmarkId::new("zlib", class), &set, |b, set| {
            b.iter(|| set.iter().map(|r| deflate::zlib_gzencode9(black_box(r)).len()).sum::<usize>())
        });
    }
    group.finish();
}

criterion_group!(benches, compress);
criterion_main!(benches);
