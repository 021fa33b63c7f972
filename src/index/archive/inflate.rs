//! `GzipCompressor::uncompress` on a record: `gzinflate(substr($str, 10))`,
//! answered only where it is sure to give back the bytes that were
//! compressed. zlib's own inflate (zlib-rs: zlib's checks, so it fails
//! exactly where PHP's gzinflate does) reads the record's deflate stream,
//! which must end where the member's trailer starts, and the trailer
//! (CRC-32, by libdeflate, and size) must match what came out. libdeflate
//! inflated faster (bench/inflate.rs) but accepts what zlib rejects: the
//! reserved symbols (literal/length 286-287, distance 30-31), where
//! gzinflate warns "data error".
//!
//! Why that is `gzinflate`'s answer: Yioop's skip of 10 bytes is the whole
//! gzip header when its flags byte is 0 (gzencode writes no name, comment
//! or extra field); a deflate stream has one decoding, and a stream whose
//! output matches the CRC-32 and size zlib's encoder recorded is that
//! encoder's stream, which zlib's decoder (PHP's gzinflate) reads in full,
//! ignoring what follows. Anything else (other flags, a damaged stream on
//! which gzinflate would warn, a mismatched trailer) is `Decline`.

use super::Decline;
use flate2::{Decompress, FlushDecompress, Status};
use libdeflate_sys::libdeflate_crc32;
use std::cell::RefCell;
use std::mem::MaybeUninit;

/// The gzip header `gzencode` writes before the deflate stream, up to its
/// flags byte: magic, method deflate, no flags.
const GZIP_START: [u8; 4] = [0x1f, 0x8b, 8, 0];
/// Gzip header and trailer bytes around the deflate stream.
const HEADER: usize = 10;
const TRAILER: usize = 8;

/// Inflated records larger than this are left to Yioop's PHP (PHP's memory
/// limit decides what happens to those).
pub const MAX_INFLATED: usize = 64 << 20;

thread_local! {
    // zlib's raw inflate (PHP's gzinflate: windowBits -15), made once a
    // thread and reset per record.
    static INFLATER: RefCell<Decompress> = RefCell::new(Decompress::new(false));
    // zlib's format (PHP's gzuncompress: windowBits 15) and the buffer it
    // inflates into, kept a thread.
    static ZLIB_INFLATER: RefCell<(Decompress, Vec<u8>)> = RefCell::new((Decompress::new(true), Vec::new()));
}

/// `gzuncompress` outputs larger than this are left to PHP (whose memory
/// limit then decides, as it would there).
pub const MAX_UNCOMPRESSED: usize = 8 << 20;
/// The inflate buffer kept between calls at most (a site is a few KiB).
const KEPT_BUFFER: usize = 1 << 20;

/// `gzuncompress($data)` (no length limit) where it is sure of PHP's answer,
/// handed to `each`: a zlib stream that ends, what follows it ignored, as
/// PHP's inflate loop ignores it. PHP inflates in at most 100 rounds into
/// a buffer that starts at the input's length and grows by an eighth each
/// (`php_zlib_inflate_rounds`): over 100,000 times the input, more than
/// any deflate stream gives (about 1,032 bytes a byte), so the rounds
/// never run out. zlib-rs fails where zlib does, so any stream PHP's
/// gzuncompress would warn on is [`Decline`], as are a preset dictionary
/// and outputs past [`MAX_UNCOMPRESSED`].
pub fn gzuncompress_with<R>(data: &[u8], each: impl FnOnce(&[u8]) -> R) -> Result<R, Decline> {
    ZLIB_INFLATER.with_borrow_mut(|(inflater, out)| {
        inflater.reset(true);
        out.clear();
        let answer = inflate_zlib(inflater, data, out).map(|()| each(out));
        if out.capacity() > KEPT_BUFFER {
            *out = Vec::new();
        }
        answer
    })
}

/// `data`'s zlib stream into `out`, up to [`MAX_UNCOMPRESSED`] bytes.
fn inflate_zlib(inflater: &mut Decompress, data: &[u8], out: &mut Vec<u8>) -> Result<(), Decline> {
    loop {
        if out.len() == out.capacity() {
            if out.len() >= MAX_UNCOMPRESSED {
                return Err(Decline);
            }
            out.reserve((out.len().max(data.len()) * 4).min(MAX_UNCOMPRESSED - out.len()).max(64));
        }
        let (read, written) = (inflater.total_in(), inflater.total_out());
        match inflater.decompress_vec(&data[read as usize..], out, FlushDecompress::None) {
            Ok(Status::StreamEnd) if out.len() <= MAX_UNCOMPRESSED => return Ok(()),
            Ok(Status::Ok | Status::BufError) if inflater.total_in() != read || inflater.total_out() != written || out.len() == out.capacity() => {}
            // No progress with room to spare: the input ran out.
            _ => return Err(Decline),
        }
    }
}

/// The bytes `record` inflates to, as its trailer says, if it is a member
/// this module reads.
pub fn inflated_len(record: &[u8]) -> Result<usize, Decline> {
    if record.len() < HEADER + TRAILER || record[..4] != GZIP_START {
        return Err(Decline);
    }
    let size = &record[record.len() - 4..];
    let size = u32::from_le_bytes([size[0], size[1], size[2], size[3]]) as usize;
    if size > MAX_INFLATED {
        return Err(Decline);
    }
    Ok(size)
}

/// Inflates `record` into `out`, which is [`inflated_len`] long and is
/// written in full where this returns Ok: the member must fill `out`
/// exactly, end with the record, and match its trailer's CRC-32.
pub fn inflate_into(record: &[u8], out: &mut [MaybeUninit<u8>]) -> Result<(), Decline> {
    if record.len() < HEADER + TRAILER || record[..4] != GZIP_START {
        return Err(Decline);
    }
    let stream = &record[HEADER..record.len() - TRAILER];
    let ended = INFLATER.with_borrow_mut(|inflater| {
        inflater.reset(false);
        let status = inflater.decompress_uninit(stream, out, FlushDecompress::Finish);
        matches!(status, Ok(Status::StreamEnd)) && inflater.total_in() as usize == stream.len() && inflater.total_out() as usize == out.len()
    });
    let trailer = &record[record.len() - TRAILER..];
    let crc = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
    // Where the stream ended filling `out`, all of it is written.
    if !ended || unsafe { libdeflate_crc32(0, out.as_ptr().cast(), out.len()) } != crc {
        return Err(Decline);
    }
    Ok(())
}

/// `gzinflate(substr($record, 10))` where this module is sure of it, in a
/// buffer that can be shared (kept by the record cache,
/// `super::record_cache`) without a copy.
pub fn inflate(record: &[u8]) -> Result<std::rc::Rc<[u8]>, Decline> {
    let len = inflated_len(record)?;
    let mut out = std::rc::Rc::<[u8]>::new_uninit_slice(len);
    inflate_into(record, std::rc::Rc::get_mut(&mut out).expect("just made"))?;
    // Written in full by inflate_into.
    Ok(unsafe { out.assume_init() })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A gzip member as gzencode($s, 9) writes it.
    pub(crate) fn gzencode(s: &[u8]) -> Vec<u8> {
        let mut c = libdeflater::Compressor::new(libdeflater::CompressionLvl::new(9).unwrap());
        let mut out = vec![0; c.gzip_compress_bound(s.len())];
        let n = c.gzip_compress(s, &mut out).unwrap();
        out.truncate(n);
        out
    }

    #[test]
    fn a_member_inflates_to_what_was_compressed() {
        let text: Vec<u8> = (0..20_000u32).flat_map(|i| format!("s:{i};").into_bytes()).collect();
        assert_eq!(&*inflate(&gzencode(&text)).unwrap(), &text[..]);
        assert_eq!(&*inflate(&gzencode(b"")).unwrap(), b"");
    }

    /// What PHP's `gzinflate(substr($record, 10))` gives: zlib's raw
    /// inflate, data after the stream ignored; None where it fails.
    fn gzinflate(record: &[u8]) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        let mut d = flate2::Decompress::new(false);
        let input = record.get(10..)?;
        loop {
            out.reserve(4096);
            let before = d.total_in() as usize;
            match d.decompress_vec(&input[d.total_in() as usize..], &mut out, flate2::FlushDecompress::Finish) {
                Ok(flate2::Status::StreamEnd) => return Some(out),
                Ok(_) if d.total_in() as usize == before && out.len() < out.capacity() => return None,
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }

    /// Bits LSB first, as deflate packs them; Huffman codes MSB first.
    struct Bits(Vec<u8>, usize);

    impl Bits {
        fn put(&mut self, value: u32, n: usize) {
            for i in 0..n {
                if self.1 % 8 == 0 {
                    self.0.push(0);
                }
                let last = self.0.len() - 1;
                self.0[last] |= (((value >> i) & 1) as u8) << (self.1 % 8);
                self.1 += 1;
            }
        }
        fn code(&mut self, code: u32, n: usize) {
            for i in (0..n).rev() {
                self.put((code >> i) & 1, 1);
            }
        }
    }

    /// A fixed-Huffman block: 'a', then a length symbol with a distance
    /// symbol, then end of block.
    fn fixed_block(length_symbol: u32, distance_symbol: u32) -> Vec<u8> {
        let mut bits = Bits(Vec::new(), 0);
        bits.put(1, 1); // final
        bits.put(1, 2); // fixed codes
        bits.code(0x30 + u32::from(b'a'), 8);
        match length_symbol {
            257..=279 => bits.code(length_symbol - 256, 7),
            _ => bits.code(0xC0 + length_symbol - 280, 8),
        }
        bits.code(distance_symbol, 5);
        bits.code(0, 7);
        bits.0
    }

    #[test]
    fn reserved_symbols_decline_as_gzinflate_fails() {
        // libdeflate makes bytes of these; zlib (gzinflate) rejects them.
        let mut libdeflate_reads = 0;
        for (length, distance) in [(286, 0), (287, 0), (257, 30), (257, 31)] {
            let stream = fixed_block(length, distance);
            let mut d = libdeflater::Decompressor::new();
            let mut made = vec![0u8; 1024];
            let Ok(n) = d.deflate_decompress(&stream, &mut made) else { continue };
            libdeflate_reads += 1;
            made.truncate(n);
            let mut crc = libdeflater::Crc::new();
            crc.update(&made);
            let mut record = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];
            record.extend_from_slice(&stream);
            record.extend_from_slice(&crc.sum().to_le_bytes());
            record.extend_from_slice(&(made.len() as u32).to_le_bytes());
            assert_eq!(gzinflate(&record), None, "zlib rejects {length}/{distance}");
            assert_eq!(inflate(&record), Err(Decline), "{length}/{distance}");
        }
        assert!(libdeflate_reads > 0, "libdeflate reads some of them");
        // The same block with valid symbols inflates.
        let stream = fixed_block(257, 0);
        let mut record = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];
        record.extend_from_slice(&stream);
        let mut crc = libdeflater::Crc::new();
        crc.update(b"aaaa");
        record.extend_from_slice(&crc.sum().to_le_bytes());
        record.extend_from_slice(&4u32.to_le_bytes());
        assert_eq!(&*inflate(&record).unwrap(), b"aaaa");
    }

    /// What PHP's `gzuncompress($data)` gives, as php_zlib_inflate_rounds
    /// runs zlib (zlib-rs here): its 100 rounds of growing buffers.
    fn php_gzuncompress(data: &[u8]) -> Option<Vec<u8>> {
        let mut d = flate2::Decompress::new(true);
        let mut size = data.len();
        let mut out: Vec<u8> = Vec::new();
        for _ in 0..100 {
            out.reserve_exact(size - out.len());
            let status = d.decompress_vec(&data[d.total_in() as usize..], &mut out, flate2::FlushDecompress::None);
            match status {
                Ok(flate2::Status::StreamEnd) => return Some(out),
                Ok(flate2::Status::BufError) => {}
                Ok(flate2::Status::Ok) if d.total_in() as usize != data.len() => {}
                _ => return None,
            }
            size += (size >> 3) + 1;
        }
        None
    }

    /// A zlib stream as gzcompress writes one (level 6).
    pub(crate) fn zlib_compress(text: &[u8]) -> Vec<u8> {
        let mut c = libdeflater::Compressor::new(libdeflater::CompressionLvl::new(6).unwrap());
        let mut out = vec![0; c.zlib_compress_bound(text.len())];
        let n = c.zlib_compress(text, &mut out).unwrap();
        out.truncate(n);
        out
    }

    #[test]
    fn gzuncompress_gives_phps_bytes_or_declines() {
        let text: Vec<u8> = (0..3000u32).flat_map(|i| format!("s:{}:\"{i}\";", i.to_string().len()).into_bytes()).collect();
        let good = zlib_compress(&text);
        assert_eq!(gzuncompress_with(&good, <[u8]>::to_vec), Ok(text.clone()));
        let mut longer = good.clone();
        longer.extend_from_slice(b"after the stream");
        assert_eq!(gzuncompress_with(&longer, <[u8]>::to_vec), Ok(text.clone()), "what follows the stream is ignored");
        assert_eq!(gzuncompress_with(&zlib_compress(b""), <[u8]>::to_vec), Ok(Vec::new()));
        for cut in [0, 1, 2, good.len() / 2, good.len() - 4, good.len() - 1] {
            assert_eq!(gzuncompress_with(&good[..cut], <[u8]>::to_vec), Err(Decline), "cut at {cut}");
        }
        let mut declined = 0;
        for at in 0..good.len().min(400) {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            match gzuncompress_with(&bad, <[u8]>::to_vec) {
                Ok(out) => assert_eq!(Some(out), php_gzuncompress(&bad), "byte {at}"),
                Err(Decline) => declined += 1,
            }
        }
        assert!(declined > 300, "nearly every damage declines");
    }

    #[test]
    fn gzuncompress_takes_the_densest_streams_and_leaves_the_largest() {
        // 2 MB of zeros in about 2 KB, deflate's densest: PHP's rounds hold it.
        let zeros = zlib_compress(&vec![0u8; 2 << 20]);
        assert_eq!(gzuncompress_with(&zeros, |out| out.len()), Ok(2 << 20));
        assert_eq!(php_gzuncompress(&zeros).map(|out| out.len()), Some(2 << 20));
        // A large output's buffer is not kept for the next call.
        assert!(ZLIB_INFLATER.with_borrow(|(_, out)| out.capacity()) <= KEPT_BUFFER);
        // Past MAX_UNCOMPRESSED: left to PHP.
        let more = zlib_compress(&vec![0u8; MAX_UNCOMPRESSED + 1]);
        assert_eq!(gzuncompress_with(&more, |out| out.len()), Err(Decline));
    }

    #[test]
    fn damage_anywhere_declines_or_gives_gzinflates_bytes() {
        let good = gzencode(b"a:1:{i:0;s:5:\"hello\";}");
        let mut declined = 0;
        for at in 0..good.len() {
            for bit in 0..8 {
                let mut bad = good.clone();
                bad[at] ^= 1 << bit;
                match inflate(&bad) {
                    Ok(out) => assert_eq!(Some(out.to_vec()), gzinflate(&bad), "byte {at} bit {bit}"),
                    Err(Decline) => declined += 1,
                }
            }
        }
        assert!(declined > good.len() * 6, "nearly every damage declines");
        assert_eq!(inflate(&good[..good.len() - 1]), Err(Decline));
        let mut named = good.clone();
        named[3] = 8; // FNAME: Yioop's 10-byte skip would not be the header
        assert_eq!(inflate(&named), Err(Decline));
        let mut longer = good.clone();
        longer.extend_from_slice(b"trailing");
        assert_eq!(inflate(&longer), Err(Decline), "the trailer must end the record");
    }
}
