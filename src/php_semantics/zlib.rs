//! Whether PHP's zlib functions succeed on some bytes, decided without
//! calling them (they warn where they fail): zlib's own inflate (zlib-rs,
//! which keeps zlib's checks), run as PHP runs it.

use flate2::{Decompress, FlushDecompress, Status};

/// Whether `gzdecode($bytes)` returns a string rather than warning: zlib
/// inflate with a gzip wrapper (windowBits 31), to the end of the first
/// member (what follows it is ignored, as PHP's rounds ignore it).
pub fn gzdecode_succeeds(bytes: &[u8]) -> bool {
    let mut inflater = Decompress::new_gzip(15);
    let mut out = vec![0u8; 64 * 1024];
    loop {
        let before = (inflater.total_in(), inflater.total_out());
        let input = &bytes[inflater.total_in() as usize..];
        match inflater.decompress(input, &mut out, FlushDecompress::None) {
            Ok(Status::StreamEnd) => return true,
            Ok(_) if (inflater.total_in(), inflater.total_out()) == before => return false, // cut short
            Ok(_) => {}
            Err(_) => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn whole_members_succeed_damaged_ones_fail() {
        let data: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let good = gzip(&data);
        assert!(gzdecode_succeeds(&good));
        let mut trailing = good.clone();
        trailing.extend_from_slice(b"junk");
        assert!(gzdecode_succeeds(&trailing));
        assert!(!gzdecode_succeeds(&good[..good.len() - 1]));
        assert!(!gzdecode_succeeds(b""));
        let mut crc = good.clone();
        let at = crc.len() - 6;
        crc[at] ^= 1;
        assert!(!gzdecode_succeeds(&crc));
        let mut data_error = good.clone();
        data_error[12] ^= 0xff;
        assert!(!gzdecode_succeeds(&data_error));
    }
}
