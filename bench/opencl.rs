//! Scalar vs OpenCL, by list length (4^5 = 1024 to 4^12 = 16.7M): the
//! Modified9 decode, the prefix sum of deDeltaList, and (the encode-side
//! experiment) deltaList. The OpenCL figures include everything a call
//! costs: buffers, transfers both ways, kernel launches.
//!
//! Run (the php feature cannot link outside PHP):
//!   cargo bench --no-default-features --features opencl --bench opencl -- \
//!       --warm-up-time 1 --measurement-time 2
//! `YIOOP_BENCH_MAX_LOG4=10` stops at 4^10 for a quicker run.

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use anyhow::Context as _;
use std::hint::black_box;
use yioop_codec::codec::opencl::{self, OpenClContext};
use yioop_codec::codec::{delta, modified9};

fn lengths() -> Vec<usize> {
    let max =
        std::env::var("YIOOP_BENCH_MAX_LOG4").ok().and_then(|v| v.parse().ok()).unwrap_or(12u32);
    (5..=max.clamp(5, 12)).map(|k| 4usize.pow(k)).collect()
}

/// xorshift64*, for repeatable data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// `n` words as Yioop writes them: position deltas of mixed sizes, mostly
/// small, encoded list by list.
fn posting_words(n: usize) -> Vec<u8> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut bytes = Vec::with_capacity(n * 4 + 64);
    let mut list = Vec::new();
    while bytes.len() < n * 4 {
        list.clear();
        for _ in 0..1 + rng.next() % 200 {
            let r = rng.next();
            let bits = 1 + (r % 14) as u32;
            list.push(1 + ((r >> 16) & ((1 << bits) - 1)) as i64);
        }
        modified9::encode(&list, &mut bytes).unwrap();
    }
    bytes.truncate(n * 4);
    bytes
}

fn deltas(n: usize) -> Vec<i64> {
    let mut rng = Rng(42);
    (0..n).map(|_| (rng.next() % 1000) as i64).collect()
}

/// This process's context, or None after saying why (scalar figures only).
fn context() -> Option<&'static OpenClContext> {
    match bench_context() {
        Ok(c) => {
            let info = c.info();
            eprintln!(
                "OpenCL: {} on {} ({} compute units, tile {}x{})",
                info.device, info.platform, info.compute_units, info.work_group, info.items
            );
            Some(c)
        }
        Err(e) => {
            eprintln!("{e:#}: scalar figures only");
            None
        }
    }
}

fn bench_context() -> anyhow::Result<&'static OpenClContext> {
    opencl::context().map_err(anyhow::Error::msg).context("no OpenCL context for the bench")
}

fn decode(c: &mut Criterion) {
    let device = context();
    let mut group = c.benchmark_group("decode");
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    for n in lengths() {
        let bytes = posting_words(n);
        let mut out = Vec::new();
        modified9::decode_words(&bytes, &mut out);
        group.throughput(Throughput::Elements(n as u64)); // words
        group.bench_with_input(BenchmarkId::new("scalar", n), &bytes, |b, bytes| {
            b.iter(|| {
                out.clear();
                modified9::decode_words(black_box(bytes), &mut out);
                black_box(out.len())
            })
        });
        if let Some(device) = device {
            group.bench_with_input(BenchmarkId::new("opencl", n), &bytes, |b, bytes| {
                b.iter(|| {
                    out.clear();
                    device.decode_words(black_box(bytes), &mut out).unwrap();
                    black_box(out.len())
                })
            });
        }
    }
    group.finish();
}

fn de_delta(c: &mut Criterion) {
    let device = context();
    let mut group = c.benchmark_group("de_delta");
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    for n in lengths() {
        let input = deltas(n);
        let mut list = input.clone();
        group.throughput(Throughput::Elements(n as u64));
        // Both sides restore the input first (a memcpy), so both pay it.
        group.bench_with_input(BenchmarkId::new("scalar", n), &input, |b, input| {
            b.iter(|| {
                list.copy_from_slice(input);
                delta::de_delta_list(black_box(&mut list)).unwrap();
                black_box(list[n - 1])
            })
        });
        if let Some(device) = device {
            group.bench_with_input(BenchmarkId::new("opencl", n), &input, |b, input| {
                b.iter(|| {
                    list.copy_from_slice(input);
                    device.de_delta_list(black_box(&mut list)).unwrap();
                    black_box(list[n - 1])
                })
            });
        }
    }
    group.finish();
}

/// The encode-side experiment: deltaList (positions to deltas), the only
/// data-parallel step before Yioop's sequential greedy packing.
fn delta_list(c: &mut Criterion) {
    let device = context();
    let mut group = c.benchmark_group("delta_list");
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    for n in lengths() {
        let mut positions = deltas(n);
        delta::de_delta_list(&mut positions).unwrap();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("scalar", n), &positions, |b, positions| {
            b.iter(|| black_box(delta::delta_list(black_box(positions)).unwrap().len()))
        });
        if let Some(device) = device {
            group.bench_with_input(BenchmarkId::new("opencl", n), &positions, |b, positions| {
                b.iter(|| {
                    black_box(device.delta_list(black_box(positions)).unwrap().unwrap().len())
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, decode, de_delta, delta_list);
criterion_main!(benches);
