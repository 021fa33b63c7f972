//! A posting list: consecutive postings in one string, decoded in one call.
//! The result is exactly that of calling `unpackPosting` in a loop while the
//! offset is inside the string, damaged postings included.

use crate::codec::backend::Dispatch;
use crate::codec::modified9::{self, NeverReturns};
use crate::php_semantics::num::Num;
use crate::codec::posting::{posting_from_decoded, Format, Posting};

/// Decodes postings from `offset` until the string ends or `max_count`
/// postings (None: no limit) have been read. Returns them and the offset
/// where the next call would start, or [`NeverReturns`] where a loop of
/// Yioop's `unpackPosting` would never return from a call.
pub fn unpack_postings(
    format: Format,
    dispatch: &Dispatch,
    input: &[u8],
    offset: Num,
    max_count: Option<usize>,
    dedelta: bool,
) -> Result<(Vec<Posting>, Num), NeverReturns> {
    let mut postings = Vec::new();
    let mut decoded = Vec::new();
    let next = for_each_posting(input, offset, max_count, |words| {
        decoded.clear();
        dispatch.decode_words(words, &mut decoded);
        postings.push(posting_from_decoded(format, &decoded, dedelta));
    })?;
    Ok((postings, next))
}

/// The loop's condition, `$offset < strlen($postings)`, for an int or float
/// offset (a NAN offset is never before the end).
pub fn before_end(offset: Num, len: usize) -> bool {
    match offset {
        Num::Int(i) => i < len as i64,
        Num::Float(f) => f < len as f64,
    }
}

/// The loop behind [`unpack_postings`]: hands each posting's words, as
/// `next_post_string` frames them, to `each`, and returns the next offset.
/// (Without `max_count`, an offset far before the string gives one empty
/// posting per 4 bytes of the distance: the caller bounds that.)
pub fn for_each_posting(
    input: &[u8],
    mut offset: Num,
    max_count: Option<usize>,
    mut each: impl FnMut(&[u8]),
) -> Result<Num, NeverReturns> {
    let mut count = 0;
    while max_count.is_none_or(|max| count < max) && before_end(offset, input.len()) {
        let post = modified9::next_post_string_at(input, offset)?;
        each(&input[post.bytes]);
        count += 1;
        offset = post.next_offset;
    }
    Ok(offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::backend::Mode;
    use crate::codec::posting::{pack_posting, unpack_posting};

    fn scalar() -> Dispatch {
        Dispatch::new(Mode::Off, u64::MAX)
    }

    fn loop_of_unpack_posting(input: &[u8], mut offset: i64, max: Option<usize>) -> (Vec<Posting>, Num) {
        let mut out = Vec::new();
        let mut next = Num::Int(offset);
        while offset < input.len() as i64 && max.is_none_or(|m| out.len() < m) {
            let (p, n) = unpack_posting(Format::Y2019, input, offset, true);
            out.push(p);
            next = n;
            offset = n.to_int();
        }
        (out, next)
    }

    #[test]
    fn batch_equals_a_loop_of_unpack_posting() {
        let mut input = Vec::new();
        for doc in [1, 40_000, 7] {
            input.extend(pack_posting(Format::Y2019, doc, &[3, 9, 700], true).unwrap());
        }
        input.extend([0x80, 1, 2, 3, 0xff]); // a stray continuation word and a partial word
        for start in [-9, -1, 0, 4, 8] {
            for max in [None, Some(0), Some(2)] {
                let batch = unpack_postings(Format::Y2019, &scalar(), &input, Num::Int(start), max, true).unwrap();
                assert_eq!(batch, loop_of_unpack_posting(&input, start, max), "start {start} max {max:?}");
            }
        }
    }

    #[test]
    fn a_float_offset_where_yioop_never_returns_is_refused_even_with_max_count() {
        let input = pack_posting(Format::Y2019, 5, &[300_000, 600_000], true).unwrap();
        for max in [None, Some(5)] {
            let batch = unpack_postings(Format::Y2019, &scalar(), &input, Num::Float(f64::NEG_INFINITY), max, true);
            assert_eq!(batch, Err(NeverReturns), "max {max:?}");
        }
    }
}
