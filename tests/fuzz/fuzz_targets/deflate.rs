//! The records' deflate (`index::archive::deflate::Member`, the native
//! level 9 of `zlib9.rs` up to 64 KiB) must write the linked zlib's
//! `gzencode($text, 9)` bytes for any text, begun with any prefix and
//! finished with the rest, as `addObjects` cuts a record before its offset.
//!
//! Input: cut (u16 LE: that many bytes are left for the finish), copies
//! (1 byte), then a piece. The text is the piece `copies % 64 + 1` times,
//! each copy's bytes shifted by the copy's number times `copies / 64`:
//! texts past 32 KiB, with long matches, from short inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yioop_codec::index::archive::{deflate, zlib9};

fuzz_target!(|data: &[u8]| {
    let [a, b, copies, piece @ ..] = data else { return };
    let shift = (copies / 64) as usize;
    let mut text = Vec::new();
    for copy in 0..(copies % 64) as usize + 1 {
        text.extend(piece.iter().map(|&byte| byte.wrapping_add((copy * shift) as u8)));
    }
    text.truncate(zlib9::MAX_WHOLE_INPUT + 64);
    let cut = text.len().saturating_sub(u16::from_le_bytes([*a, *b]) as usize);
    let member = deflate::Member::start(&text[..cut]).finish(&text[cut..]);
    assert!(member == deflate::zlib_gzencode9(&text), "{} bytes cut at {cut}", text.len());
});
