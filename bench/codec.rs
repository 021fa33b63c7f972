//! Throughput of the Modified9 codec on one core, in integers per second
//! (criterion's `Throughput::Elements`: one element = one integer decoded or
//! encoded).
//!
//! Run: `cargo bench --no-default-features --bench codec -- --warm-up-time 1 --measurement-time 3`
//!
//! Inputs (all generated here from fixed seeds, so runs are comparable):
//!
//! * `realistic`: what Yioop writes. Postings of 1-12 positions, gaps between
//!   positions uniform in 1..=400, doc indexes uniform in 0..2^27, each packed
//!   with `pack_posting` (2019 format) and concatenated into one posting
//!   string. Decode = `decode_words` over the whole string; encode =
//!   `modified9::encode` of every posting's list (doc index + 1, then the
//!   deltas), appended to one buffer, one call per posting
//!   (`encode_per_posting`), and the same integers as one list
//!   (`encode_one_list`). `unpack_posting` / `pack_posting` are the full
//!   per-posting paths (framing, fold, dedelta / delta), counted in
//!   positions. `.../scalar`, `.../avx2`, `.../avx512` force a backend.
//! * `anh_moffat`: the synthetic lists of Anh and Moffat: n distinct integers
//!   drawn from [0, 2^29), uniformly or clustered (the recursive clustered
//!   generator: split the range at a random cut, give half the integers to
//!   each side, each side uniform or clustered again), sorted and turned into
//!   deltas. Deltas of 2^28 and more do not fit a Modified9 element: Yioop's
//!   encoder puts them in a 1x28 word whose top bits spill into the selector,
//!   and so does this one; such lists are encoded and decoded as they are
//!   (the bytes do not round-trip, as in Yioop). With the densities used here
//!   (n >= 2^16 over 2^29) such deltas are rare.
//! * `long_list`: one position list of n = 2^10 .. 2^24 elements with gaps
//!   uniform in 1..=400, encoded as one Modified9 list.
//! * `growth`: the same kind of list at 10^2 .. 10^7 elements, to show that
//!   the time per integer stays flat as lists grow.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use yioop_codec::codec::modified9::{self, DecodeBackend, EncodeBackend};
use yioop_codec::codec::posting::{self, Format};

/// splitmix64: a small deterministic generator for the inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in lo..=hi.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

struct Postings {
    /// Per posting: doc index and positions.
    postings: Vec<(i64, Vec<i64>)>,
    /// Per posting: the list `encode` gets (doc index + 1, then the deltas).
    lists: Vec<Vec<i64>>,
    /// All postings packed and concatenated.
    packed: Vec<u8>,
    /// How many integers `decode_words` gives for `packed`.
    decoded_len: usize,
    /// Total positions over all postings.
    positions: usize,
}

fn realistic_postings(count: usize, seed: u64) -> Postings {
    let mut rng = Rng(seed);
    let mut postings = Vec::with_capacity(count);
    let mut lists = Vec::with_capacity(count);
    let mut packed = Vec::new();
    let mut positions = 0;
    for _ in 0..count {
        let doc = rng.range(0, (1 << 27) - 1) as i64;
        let n = rng.range(1, 12) as usize;
        let mut pos = Vec::with_capacity(n);
        let mut p = 0i64;
        for _ in 0..n {
            p += rng.range(1, 400) as i64;
            pos.push(p);
        }
        positions += n;
        packed.extend(posting::pack_posting(Format::Y2019, doc, &pos, true).unwrap());
        let mut list = vec![doc + 1];
        let mut last = 0;
        for &q in &pos {
            list.push(q - last);
            last = q;
        }
        lists.push(list);
        postings.push((doc, pos));
    }
    let mut out = Vec::new();
    modified9::decode_words(&packed, &mut out);
    Postings { postings, lists, packed, decoded_len: out.len(), positions }
}

/// n distinct sorted integers from [lo, hi), uniform.
fn uniform_set(rng: &mut Rng, n: usize, lo: u64, hi: u64, out: &mut Vec<u64>) {
    let range = hi - lo;
    let n = n.min(range as usize);
    if n == 0 {
        return;
    }
    if (n as u64) * 2 > range {
        // Dense: pick the ones to leave out instead (selection sampling).
        let mut need = n as u64;
        for (i, v) in (lo..hi).enumerate() {
            let left = range - i as u64;
            if rng.next() % left < need {
                out.push(v);
                need -= 1;
            }
        }
        return;
    }
    let start = out.len();
    let mut seen = std::collections::HashSet::with_capacity(n * 2);
    while seen.len() < n {
        let v = lo + rng.next() % range;
        if seen.insert(v) {
            out.push(v);
        }
    }
    out[start..].sort_unstable();
}

/// n distinct sorted integers from [lo, hi), clustered (Anh and Moffat).
fn clustered_set(rng: &mut Rng, n: usize, lo: u64, hi: u64, out: &mut Vec<u64>) {
    let range = hi - lo;
    if n == 0 {
        return;
    }
    if range as usize == n {
        out.extend(lo..hi);
        return;
    }
    if range <= 2 * n as u64 || n <= 10 {
        uniform_set(rng, n, lo, hi, out);
        return;
    }
    let left_n = n / 2;
    let right_n = n - left_n;
    // The cut leaves room for both halves.
    let slack = range - n as u64;
    let cut = lo + left_n as u64 + if slack > 0 { rng.next() % slack } else { 0 };
    let p = rng.unit();
    if p < 0.25 {
        uniform_set(rng, left_n, lo, cut, out);
        clustered_set(rng, right_n, cut, hi, out);
    } else if p < 0.5 {
        clustered_set(rng, left_n, lo, cut, out);
        uniform_set(rng, right_n, cut, hi, out);
    } else {
        clustered_set(rng, left_n, lo, cut, out);
        clustered_set(rng, right_n, cut, hi, out);
    }
}

fn deltas(sorted: &[u64]) -> Vec<i64> {
    let mut last = 0;
    sorted
        .iter()
        .map(|&v| {
            let d = (v - last) as i64;
            last = v;
            d
        })
        .collect()
}

/// A position-list-like list: gaps uniform in 1..=400.
fn gap_list(n: usize, seed: u64) -> Vec<i64> {
    let mut rng = Rng(seed);
    (0..n).map(|_| rng.range(1, 400) as i64).collect()
}

fn encoded(list: &[i64]) -> Vec<u8> {
    let mut out = Vec::new();
    modified9::encode(list, &mut out).unwrap();
    out
}

fn decoded_len(bytes: &[u8]) -> usize {
    let mut out = Vec::new();
    modified9::decode_words(bytes, &mut out);
    out.len()
}

fn bench_realistic(c: &mut Criterion) {
    let data = realistic_postings(200_000, 1);
    let mut g = c.benchmark_group("realistic");
    g.throughput(Throughput::Elements(data.decoded_len as u64));
    let mut out = Vec::with_capacity(data.decoded_len + 64);
    g.bench_function("decode_words", |b| {
        b.iter(|| {
            out.clear();
            modified9::decode_words(black_box(&data.packed), &mut out);
            black_box(out.len())
        })
    });
    for backend in DecodeBackend::available() {
        let name = format!("decode_words/{backend:?}").to_lowercase();
        g.bench_function(name, |b| {
            b.iter(|| {
                out.clear();
                modified9::decode_words_with(backend, black_box(&data.packed), &mut out);
                black_box(out.len())
            })
        });
    }
    // Encode: one call per posting, as Yioop's packPosting makes them.
    let encoded_len: usize = data.lists.iter().map(Vec::len).sum();
    g.throughput(Throughput::Elements(encoded_len as u64));
    let mut bytes = Vec::with_capacity(4 * encoded_len + 64);
    g.bench_function("encode_per_posting", |b| {
        b.iter(|| {
            bytes.clear();
            for list in &data.lists {
                modified9::encode(black_box(list), &mut bytes).unwrap();
            }
            black_box(bytes.len())
        })
    });
    // The same integers as one list.
    let joined: Vec<i64> = data.lists.concat();
    for backend in EncodeBackend::available() {
        let name = format!("encode_one_list/{backend:?}").to_lowercase();
        g.bench_function(name, |b| {
            b.iter(|| {
                bytes.clear();
                modified9::encode_with(backend, black_box(&joined), &mut bytes).unwrap();
                black_box(bytes.len())
            })
        });
    }
    // Full per-posting paths; throughput counted in positions.
    g.throughput(Throughput::Elements(data.positions as u64));
    g.bench_function("unpack_posting", |b| {
        b.iter(|| {
            let mut offset = 0i64;
            let mut total = 0usize;
            let input = black_box(&data.packed[..]);
            while (offset as usize) < input.len() {
                let (p, next) = posting::unpack_posting(Format::Y2019, input, offset, true);
                total += p.positions.len();
                offset = next.to_int();
            }
            black_box(total)
        })
    });
    g.bench_function("pack_posting", |b| {
        b.iter(|| {
            let mut total = 0usize;
            for (doc, pos) in &data.postings {
                total += posting::pack_posting(Format::Y2019, *doc, black_box(pos), true)
                    .unwrap()
                    .len();
            }
            black_box(total)
        })
    });
    g.finish();
}

fn bench_anh_moffat(c: &mut Criterion) {
    let mut g = c.benchmark_group("anh_moffat");
    for &log_n in &[16u32, 20] {
        for kind in ["uniform", "clustered"] {
            let mut rng = Rng(0xA11 + log_n as u64);
            let mut set = Vec::new();
            let n = 1usize << log_n;
            if kind == "uniform" {
                uniform_set(&mut rng, n, 0, 1 << 29, &mut set);
            } else {
                clustered_set(&mut rng, n, 0, 1 << 29, &mut set);
            }
            let list = deltas(&set);
            let bytes = encoded(&list);
            let too_wide = list.iter().filter(|&&d| d >= 1 << 28).count();
            if too_wide == 0 {
                // Sanity: what fits comes back.
                let mut back = Vec::new();
                modified9::decode_words(&bytes, &mut back);
                assert!(back.iter().zip(&list).all(|(&a, &b)| a as i64 == b) && back.len() == list.len());
            }
            eprintln!("anh_moffat {kind} 2^{log_n}: {} deltas, {too_wide} of them >= 2^28", list.len());
            let id = format!("{kind}/2^{log_n}");
            g.throughput(Throughput::Elements(decoded_len(&bytes) as u64));
            let mut out = Vec::with_capacity(list.len() + 64);
            g.bench_function(BenchmarkId::new("decode_words", &id), |b| {
                b.iter(|| {
                    out.clear();
                    modified9::decode_words(black_box(&bytes), &mut out);
                    black_box(out.len())
                })
            });
            g.throughput(Throughput::Elements(list.len() as u64));
            let mut enc = Vec::with_capacity(bytes.len() + 64);
            g.bench_function(BenchmarkId::new("encode", &id), |b| {
                b.iter(|| {
                    enc.clear();
                    modified9::encode(black_box(&list), &mut enc).unwrap();
                    black_box(enc.len())
                })
            });
        }
    }
    g.finish();
}

fn bench_sizes(c: &mut Criterion, group: &str, sizes: &[(String, usize)]) {
    let mut g = c.benchmark_group(group);
    for (label, n) in sizes {
        let n = *n;
        let list = gap_list(n, 7 + n as u64);
        let bytes = encoded(&list);
        if n >= 1 << 20 {
            g.sample_size(10);
        }
        g.throughput(Throughput::Elements(n as u64));
        let mut out = Vec::with_capacity(n + 64);
        g.bench_function(BenchmarkId::new("decode_words", label), |b| {
            b.iter(|| {
                out.clear();
                modified9::decode_words(black_box(&bytes), &mut out);
                black_box(out.len())
            })
        });
        let mut enc = Vec::with_capacity(bytes.len() + 64);
        g.bench_function(BenchmarkId::new("encode", label), |b| {
            b.iter(|| {
                enc.clear();
                modified9::encode(black_box(&list), &mut enc).unwrap();
                black_box(enc.len())
            })
        });
    }
    g.finish();
}

fn bench_long_lists(c: &mut Criterion) {
    let sizes: Vec<(String, usize)> =
        (10..=24).step_by(2).map(|e| (format!("2^{e}"), 1usize << e)).collect();
    bench_sizes(c, "long_list", &sizes);
}

fn bench_growth(c: &mut Criterion) {
    let sizes: Vec<(String, usize)> =
        (2..=7).map(|e| (format!("10^{e}"), 10usize.pow(e))).collect();
    bench_sizes(c, "growth", &sizes);
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1));
    targets = bench_realistic, bench_anh_moffat, bench_long_lists, bench_growth
}
criterion_main!(benches);
