//! Inflating web archive records (`GzipCompressor::uncompress`): libdeflate,
//! as `crate::index::archive::inflate` does it, against zlib's algorithm (zlib-rs
//! through flate2, which is what PHP's gzinflate runs, in Rust) and
//! miniz_oxide (flate2's default), in records per second.
//!
//! Run: `cargo bench --no-default-features --bench inflate -- --warm-up-time 1 --measurement-time 3`
//!
//! Inputs: summary-like records as Yioop writes them (serialize() of an
//! array of a title, a URL and a description of N words from a small
//! vocabulary, gzencode level 9), N = 40 (a few hundred bytes, a synthetic
//! corpus's summaries) and N = 1500 (about 10 KB inflated, a real page's).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

#[path = "summary.rs"]
mod summary;

/// A summary-like record of `words` words, gzip'd at level 9.
fn record(words: usize, seed: u64) -> (Vec<u8>, usize) {
    let serialized = summary::serialized(words, seed);
    let mut c = libdeflater::Compressor::new(libdeflater::CompressionLvl::new(9).unwrap());
    let mut out = vec![0; c.gzip_compress_bound(serialized.len())];
    let n = c.gzip_compress(&serialized, &mut out).unwrap();
    out.truncate(n);
    (out, serialized.len())
}

fn zlib(record: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut d = flate2::Decompress::new(false);
    d.decompress_vec(&record[10..], out, flate2::FlushDecompress::Finish).unwrap();
}

fn inflate(c: &mut Criterion) {
    let mut group = c.benchmark_group("inflate_record");
    for words in [40usize, 1500] {
        let records: Vec<(Vec<u8>, usize)> = (0..64).map(|i| record(words, i)).collect();
        group.throughput(Throughput::Elements(records.len() as u64));
        group.bench_with_input(BenchmarkId::new("libdeflate", words), &records, |b, records| {
            b.iter(|| records.iter().map(|(r, _)| yioop_codec::index::archive::inflate::inflate(black_box(r)).unwrap().len()).sum::<usize>())
        });
        group.bench_with_input(BenchmarkId::new("zlib-rs", words), &records, |b, records| {
            let mut out = Vec::new();
            b.iter(|| records.iter().map(|(r, n)| { out.reserve(*n + 1); zlib(black_box(r), &mut out); out.len() }).sum::<usize>())
        });
        group.bench_with_input(BenchmarkId::new("miniz_oxide", words), &records, |b, records| {
            b.iter(|| records.iter().map(|(r, n)| miniz_oxide::inflate::decompress_to_vec_with_limit(black_box(&r[10..r.len() - 8]), *n).unwrap().len()).sum::<usize>())
        });
    }
    group.finish();
}

criterion_group!(benches, inflate);
criterion_main!(benches);
