//! Crawl-queue weight info: Yioop packs a page weight (high 24 bits) and a
//! crawl depth (low 8 bits, stored as 255 - depth) into one int. These are the
//! page-importance branches of Yioop's functions; the binding layer handles
//! the other crawl orders, which pass values through untouched, and the
//! values Yioop compares rather than converts (B6 in docs/bad-input.md),
//! which it hands to Yioop's PHP where a switched tree keeps it.

const MAX_WEIGHT: i64 = (1 << 24) - 1;

/// `decodeQueueWeightInfo` for page-importance order: `[weight, depth]`.
pub fn decode(weight_info: i64) -> (i64, i64) {
    (weight_info >> 8, 255 - (weight_info & 255))
}

/// `encodeQueueWeightInfo` for page-importance order.
pub fn encode(weight: i64, depth: i64) -> i64 {
    let stored_depth = 255 - depth.clamp(0, 255);
    crate::php_semantics::num::shl(weight.min(MAX_WEIGHT), 8).wrapping_add(stored_depth)
}

/// `adjustWeightCallback`: weights added (capped), the smaller depth kept.
pub fn adjust(weight_info: i64, adjustment: i64) -> i64 {
    let (weight, depth) = decode(weight_info);
    let (extra_weight, extra_depth) = decode(adjustment);
    encode((weight + extra_weight).min(MAX_WEIGHT), depth.min(extra_depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_decode_round_trip() {
        assert_eq!(decode(encode(1234, 7)), (1234, 7));
    }

    #[test]
    fn weights_cap_at_24_bits_and_depths_clamp() {
        assert_eq!(decode(encode(1 << 30, 300)), (MAX_WEIGHT, 255));
        assert_eq!(decode(encode(5, -5)).1, 0);
    }

    #[test]
    fn adjust_adds_weights_and_keeps_the_smaller_depth() {
        let merged = adjust(encode(10, 3), encode(20, 9));
        assert_eq!(decode(merged), (30, 3));
    }
}
