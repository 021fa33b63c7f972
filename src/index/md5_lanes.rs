//! MD5 of many short values at once. One MD5 is a chain of 64 dependent
//! steps, so a single digest leaves most of the core idle. Indexing takes
//! many short ones: PhraseParser asks the n-word-gram Bloom filter about
//! two short phrases per word, each look-up starting with a digest, and
//! each word of a document added to a shard gets an id from its digest.
//! Here `LANES` values (of one 64-byte block each: at most 55 bytes) go
//! through the steps side by side, laid out so the compiler turns each
//! step into vector instructions; longer values take the md-5 crate's
//! digest. The digests are MD5's own: the tests check them against the
//! crate.

use md5::{Digest, Md5};

/// Values hashed side by side: two AVX2 registers of 32-bit words.
pub const LANES: usize = 16;

/// Fewer values than this are quicker one at a time.
pub const WORTH_IT: usize = 4;

/// The longest value that fits MD5's one block with its padding.
const ONE_BLOCK: usize = 55;

const SHIFTS: [u32; 64] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15,
    21,
];

/// MD5's constants, floor(2^32 * |sin(i + 1)|).
const SINES: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8,
    0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
    0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87,
    0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
    0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039,
    0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
    0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
    0xeb86d391,
];

const START: [u32; 4] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];

type Lane = [u32; LANES];

/// The digest of each value, in order.
pub fn digests(values: &[&[u8]]) -> Vec<[u8; 16]> {
    let mut out = Vec::with_capacity(values.len());
    for chunk in values.chunks(LANES) {
        let mut block = [[0u32; LANES]; 16];
        for (lane, value) in chunk.iter().enumerate() {
            if value.len() <= ONE_BLOCK {
                pad_into(value, lane, &mut block);
            }
        }
        let state = compress(&block);
        for (lane, value) in chunk.iter().enumerate() {
            out.push(if value.len() <= ONE_BLOCK { lane_digest(&state, lane) } else { Md5::digest(value).into() });
        }
    }
    out
}

/// MD5's padding of a one-block value, its words into `lane` of `block`.
fn pad_into(value: &[u8], lane: usize, block: &mut [Lane; 16]) {
    let mut bytes = [0u8; 64];
    bytes[..value.len()].copy_from_slice(value);
    bytes[value.len()] = 0x80;
    bytes[56..].copy_from_slice(&((value.len() as u64) * 8).to_le_bytes());
    for (word, chunk) in bytes.chunks_exact(4).enumerate() {
        block[word][lane] = u32::from_le_bytes(chunk.try_into().expect("4 bytes"));
    }
}

fn lane_digest(state: &[Lane; 4], lane: usize) -> [u8; 16] {
    let mut digest = [0u8; 16];
    for (word, chunk) in digest.chunks_exact_mut(4).enumerate() {
        chunk.copy_from_slice(&state[word][lane].to_le_bytes());
    }
    digest
}

fn compress(block: &[Lane; 16]) -> [Lane; 4] {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        return unsafe { compress_avx2(block) };
    }
    compress_lanes(block)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn compress_avx2(block: &[Lane; 16]) -> [Lane; 4] {
    compress_lanes(block)
}

/// MD5's 64 steps on every lane, from the starting state, a round (16
/// steps of one mixing function) at a time. Plain loops over the lanes
/// (no closures or `array::from_fn`, which are not inlined into the AVX2
/// copy and would run without it).
#[inline(always)]
fn compress_lanes(block: &[Lane; 16]) -> [Lane; 4] {
    let mut state = [[START[0]; LANES], [START[1]; LANES], [START[2]; LANES], [START[3]; LANES]];
    round::<0>(&mut state, block);
    round::<1>(&mut state, block);
    round::<2>(&mut state, block);
    round::<3>(&mut state, block);
    for (word, start) in state.iter_mut().zip(START) {
        for lane in word.iter_mut() {
            *lane = lane.wrapping_add(start);
        }
    }
    state
}

/// One round, four steps at a time so that the four words change roles by
/// name instead of by copying (`a`, `b`, `c`, `d`; then `d`, `a`, `b`, `c`; ...).
#[inline(always)]
fn round<const ROUND: usize>(state: &mut [Lane; 4], block: &[Lane; 16]) {
    let [a, b, c, d] = state;
    for first in (ROUND * 16..ROUND * 16 + 16).step_by(4) {
        step::<ROUND>(a, b, c, d, block, first);
        step::<ROUND>(d, a, b, c, block, first + 1);
        step::<ROUND>(c, d, a, b, block, first + 2);
        step::<ROUND>(b, c, d, a, block, first + 3);
    }
}

/// MD5's step `step` on every lane: `a` becomes the new `b`.
#[inline(always)]
fn step<const ROUND: usize>(a: &mut Lane, b: &Lane, c: &Lane, d: &Lane, block: &[Lane; 16], step: usize) {
    let m = &block[[step, (5 * step + 1) % 16, (3 * step + 5) % 16, (7 * step) % 16][ROUND]];
    let (shift, sine) = (SHIFTS[step], SINES[step]);
    for l in 0..LANES {
        let mix = match ROUND {
            0 => (b[l] & c[l]) | (!b[l] & d[l]),
            1 => (d[l] & b[l]) | (!d[l] & c[l]),
            2 => b[l] ^ c[l] ^ d[l],
            _ => c[l] ^ (b[l] | !d[l]),
        };
        a[l] = b[l].wrapping_add(a[l].wrapping_add(mix).wrapping_add(sine).wrapping_add(m[l]).rotate_left(shift));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crate_digest(value: &[u8]) -> [u8; 16] {
        Md5::digest(value).into()
    }

    #[test]
    fn every_length_up_to_two_blocks_matches_the_crates_digest() {
        let values: Vec<Vec<u8>> = (0..130).map(|n| (0..n).map(|i| (i * 37 + n) as u8).collect()).collect();
        let refs: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
        let ours = digests(&refs);
        for (value, digest) in values.iter().zip(&ours) {
            assert_eq!(*digest, crate_digest(value), "length {}", value.len());
        }
    }

    #[test]
    fn a_partial_last_chunk_and_mixed_lengths_keep_their_order() {
        let values: Vec<String> = (0..LANES * 2 + 3).map(|i| if i % 5 == 0 { "x".repeat(60 + i) } else { format!("new york {i}*") }).collect();
        let refs: Vec<&[u8]> = values.iter().map(|v| v.as_bytes()).collect();
        assert_eq!(digests(&refs), values.iter().map(|v| crate_digest(v.as_bytes())).collect::<Vec<_>>());
        assert_eq!(digests(&[]), Vec::<[u8; 16]>::new());
    }

    #[test]
    fn the_rfc_1321_test_suite() {
        let expected = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ];
        let refs: Vec<&[u8]> = expected.iter().map(|(v, _)| v.as_bytes()).collect();
        let hex: Vec<String> = digests(&refs).iter().map(|d| d.iter().map(|b| format!("{b:02x}")).collect()).collect();
        assert_eq!(hex, expected.iter().map(|(_, h)| h.to_string()).collect::<Vec<_>>());
    }
}
