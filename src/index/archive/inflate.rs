//! `GzipCompressor::uncompress` on a record: `gzinflate(substr($str, 10))`,
//! answered only where it is sure to give back the bytes that were
//! compressed. libdeflate (measured against zlib-rs and miniz_oxide in
//! bench/inflate.rs) inflates the record as the gzip member it is, and the
//! member's trailer (CRC-32 and size) must match what came out.
//!
//! Why that is `gzinflate`'s answer: Yioop's skip of 10 bytes is the whole
//! gzip header when its flags byte is 0 (gzencode writes no name, comment
//! or extra field); a deflate stream has one decoding, and a stream whose
//! output matches the CRC-32 and size zlib's encoder recorded is that
//! encoder's stream, which zlib's decoder (PHP's gzinflate) reads in full,
//! ignoring what follows. Anything else (other flags, a damaged stream on
//! which gzinflate would warn, a mismatched trailer) is `Decline`.

use super::Decline;
use libdeflate_sys::{libdeflate_alloc_decompressor, libdeflate_decompressor, libdeflate_free_decompressor, libdeflate_gzip_decompress_ex, libdeflate_result_LIBDEFLATE_SUCCESS};
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

/// libdeflate's decompressor (its tables, about 10 KiB), made once a thread.
struct Decompressor(*mut libdeflate_decompressor);

impl Drop for Decompressor {
    fn drop(&mut self) {
        unsafe { libdeflate_free_decompressor(self.0) };
    }
}

thread_local! {
    static DECOMPRESSOR: Decompressor = Decompressor(unsafe { libdeflate_alloc_decompressor() });
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
/// exactly, end with the record, and match its trailer (libdeflate checks
/// the CRC-32 and size of what it wrote against it).
pub fn inflate_into(record: &[u8], out: &mut [MaybeUninit<u8>]) -> Result<(), Decline> {
    let (mut read, mut written) = (0usize, 0usize);
    let result = DECOMPRESSOR.with(|d| {
        if d.0.is_null() {
            return !libdeflate_result_LIBDEFLATE_SUCCESS; // out of memory: Yioop's PHP
        }
        // libdeflate only writes `out`; it never reads it.
        unsafe { libdeflate_gzip_decompress_ex(d.0, record.as_ptr().cast(), record.len(), out.as_mut_ptr().cast(), out.len(), &mut read, &mut written) }
    });
    if result != libdeflate_result_LIBDEFLATE_SUCCESS || written != out.len() || read != record.len() {
        return Err(Decline);
    }
    Ok(())
}

/// `gzinflate(substr($record, 10))` where this module is sure of it.
pub fn inflate(record: &[u8]) -> Result<Vec<u8>, Decline> {
    let len = inflated_len(record)?;
    let mut out = Vec::with_capacity(len);
    inflate_into(record, &mut out.spare_capacity_mut()[..len])?;
    // Written in full by inflate_into.
    unsafe { out.set_len(len) };
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A gzip member as gzencode($s, 9) writes it.
    fn gzencode(s: &[u8]) -> Vec<u8> {
        let mut c = libdeflater::Compressor::new(libdeflater::CompressionLvl::new(9).unwrap());
        let mut out = vec![0; c.gzip_compress_bound(s.len())];
        let n = c.gzip_compress(s, &mut out).unwrap();
        out.truncate(n);
        out
    }

    #[test]
    fn a_member_inflates_to_what_was_compressed() {
        let text: Vec<u8> = (0..20_000u32).flat_map(|i| format!("s:{i};").into_bytes()).collect();
        assert_eq!(inflate(&gzencode(&text)).unwrap(), text);
        assert_eq!(inflate(&gzencode(b"")).unwrap(), b"");
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

    #[test]
    fn damage_anywhere_declines_or_gives_gzinflates_bytes() {
        let good = gzencode(b"a:1:{i:0;s:5:\"hello\";}");
        let mut declined = 0;
        for at in 0..good.len() {
            for bit in 0..8 {
                let mut bad = good.clone();
                bad[at] ^= 1 << bit;
                match inflate(&bad) {
                    Ok(out) => assert_eq!(Some(out), gzinflate(&bad), "byte {at} bit {bit}"),
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
