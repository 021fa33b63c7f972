//! Utility.php's crawl-queue weight functions: `decodeQueueWeightInfo`,
//! `encodeQueueWeightInfo`, `adjustWeightCallback`.

use super::args::*;
use crate::php::runtime::convert::{
    int_operand, numeric_value, Fallible,
};
use crate::php::runtime::engine::{call_function, function_exists};
use crate::php_semantics::num::Num;
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
    if let (Some(weight), Some(depth)) = (weight.dereference().long(), depth.dereference().long()) {
        return Ok(long_zval(queue_weight::encode(weight, depth)));
    }
    if (yioop_compares(weight) || yioop_compares(depth)) && function_exists(YIOOP_ENCODE_QUEUE_WEIGHT_INFO) {
        // B6: Yioop's min()/max() compare these rather than convert them;
        // its own PHP, kept by yioop-integrate.php in the switched tree,
        // gives its result (or its exception, left pending).
        let mut args = [weight.dereference().shallow_clone(), depth.dereference().shallow_clone(), crawl_order.dereference().shallow_clone()];
        return Ok(call_function(YIOOP_ENCODE_QUEUE_WEIGHT_INFO, &mut args).unwrap_or_else(Zval::new));
    }
    let weight = int_operand(weight, "<<")?;
    Ok(long_zval(queue_weight::encode(weight, int_operand(depth, "-")?)))
}

/// Where php/yioop-integrate.php keeps Yioop's PHP `encodeQueueWeightInfo`
/// in a switched tree (the else branch of Yioop's extension guard), as the
/// function table keys it: lower case, fully qualified.
const YIOOP_ENCODE_QUEUE_WEIGHT_INFO: &str = "seekquarry\\yioop\\library\\yioop_codec_php_encodequeueweightinfo";

/// Whether Yioop's `encodeQueueWeightInfo` keeps `value` as it is for
/// `min()`/`max()` to compare, where the native converts it (B6): floats
/// (NAN and INF too), arrays, and strings that are not integral numeric
/// ones. Ints, null, bools and integral numeric strings come out of
/// Yioop's comparisons as the ints the native computes with.
fn yioop_compares(value: &Zval) -> bool {
    let value = value.dereference();
    match value.get_type() {
        DataType::Double | DataType::Array => true,
        DataType::String => !matches!(value.zend_str().map(|s| numeric_value(s.as_bytes())), Some(Some(Num::Int(_)))),
        _ => false,
    }
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
