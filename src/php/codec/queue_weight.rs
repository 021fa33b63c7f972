//! Utility.php's crawl-queue weight functions: `decodeQueueWeightInfo`,
//! `encodeQueueWeightInfo`, `adjustWeightCallback`.

use super::args::*;
use crate::php::runtime::convert::{
    int_operand, Fallible,
};
use crate::php::runtime::function::{Handler, Param, Signature};
use crate::php::runtime::zval::long_zval;
use crate::codec::queue_weight;
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;


/// Yioop's `CrawlConstants::PAGE_IMPORTANCE`, the crawl order that packs
/// weights into queue weight info.
pub(super) const PAGE_IMPORTANCE: &[u8] = b"ad";

php_function!(DECODE_QUEUE_WEIGHT_INFO, decode_queue_weight_info_handler, "decodeQueueWeightInfo", [Param::Value("weight_info"), Param::Value("crawl_order")], DataType::Array, |args| {
    let [weight_info, crawl_order] = args.values();
    decode_queue_weight_info(weight_info, crawl_order)
});

pub(super) fn decode_queue_weight_info(weight_info: &Zval, crawl_order: &Zval) -> Fallible<Zval> {
    let (weight, depth) = if is_page_importance(crawl_order) {
        let (weight, depth) = queue_weight::decode(int_operand(weight_info, "&")?);
        (long_zval(weight), long_zval(depth))
    } else {
        (long_zval(0), weight_info.dereference().shallow_clone())
    };
    Ok(pair(weight, depth))
}

php_function!(ENCODE_QUEUE_WEIGHT_INFO, encode_queue_weight_info_handler, "encodeQueueWeightInfo", [Param::Value("weight"), Param::Value("depth"), Param::Value("crawl_order")], DataType::Mixed, |args| {
    let [weight, depth, crawl_order] = args.values();
    encode_queue_weight_info(weight, depth, crawl_order)
});

pub(super) fn encode_queue_weight_info(weight: &Zval, depth: &Zval, crawl_order: &Zval) -> Fallible<Zval> {
    if !is_page_importance(crawl_order) {
        return Ok(depth.dereference().shallow_clone());
    }
    let weight = int_operand(weight, "<<")?;
    Ok(long_zval(queue_weight::encode(weight, int_operand(depth, "-")?)))
}

php_function!(ADJUST_WEIGHT_CALLBACK, adjust_weight_callback_handler, "adjustWeightCallback", [Param::Value("weight_info"), Param::Value("adjustment")], DataType::Long, |args| {
    let [weight_info, adjustment] = args.values();
    adjust_weight_callback(weight_info, adjustment).map(long_zval)
});

pub(super) fn adjust_weight_callback(weight_info: &Zval, adjustment: &Zval) -> Fallible<i64> {
    Ok(queue_weight::adjust(int_operand(weight_info, "&")?, int_operand(adjustment, "&")?))
}

// Not in Yioop: `unpackPosting` in a loop, in one call. Decodes postings
// from `$offset` until the string ends or `$max_count` (if not negative)
// postings are read, and returns them as `[doc_index, positions]` pairs.

/// The functions this file declares, registered globally.
pub(super) static FUNCTIONS: &[(&Signature, Handler)] = &[
    (&DECODE_QUEUE_WEIGHT_INFO, decode_queue_weight_info_handler),
    (&ENCODE_QUEUE_WEIGHT_INFO, encode_queue_weight_info_handler),
    (&ADJUST_WEIGHT_CALLBACK, adjust_weight_callback_handler),
];

/// Those Yioop also calls through its own namespace.
pub(super) static NAMESPACED: &[(&Signature, Handler)] = &[
    (&DECODE_QUEUE_WEIGHT_INFO, decode_queue_weight_info_handler),
    (&ENCODE_QUEUE_WEIGHT_INFO, encode_queue_weight_info_handler),
    (&ADJUST_WEIGHT_CALLBACK, adjust_weight_callback_handler),
];
