//! Utility.php's Modified9 word functions: `unpackListModified9`,
//! `docIndexModified9`, `unpackInt`, `encodeModified9`, `decodeModified9`,
//! `nextPostString`.

use super::args::*;
use crate::php::runtime::convert::{
    array_values, bytes_zval, int_list, int_operand, Fallible, Values,
};
use crate::php::runtime::function::{Handler, Param, Signature};
use crate::php::runtime::zval::long_zval;
use crate::php::settings;
use crate::codec::modified9::{self, EncodeError};
use crate::php_semantics::num::{self};
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;

php_function!(UNPACK_LIST_MODIFIED9, unpack_list_modified9_handler, "unpackListModified9", [Param::Value("encoded_list")], DataType::Array, |args| {
    let [encoded_list] = args.values();
    unpack_list_modified9(encoded_list)
});

pub(super) fn unpack_list_modified9(encoded_list: &Zval) -> Fallible<Zval> {
    let word = int_operand(encoded_list, "&")? as u32;
    Ok(int_list(modified9::word_elements(word).map(i64::from)))
}

php_function!(DOC_INDEX_MODIFIED9, doc_index_modified9_handler, "docIndexModified9", [Param::Value("encoded_list")], DataType::Long, |args| {
    let [encoded_list] = args.values();
    doc_index_modified9(encoded_list).map(long_zval)
});

pub(super) fn doc_index_modified9(encoded_list: &Zval) -> Fallible<i64> {
    Ok(modified9::doc_index_of_word(int_operand(encoded_list, "&")?))
}

php_function!(UNPACK_INT, unpack_int_handler, "unpackInt", [Param::Value("str")], DataType::Mixed, |args| {
    let [str] = args.values();
    Ok(unpack_int(str))
});

pub(super) fn unpack_int(str: &Zval) -> Zval {
    match str.dereference().zend_str() {
        Some(s) => long_zval(num::unpack_int(s.as_bytes())),
        None => {
            let mut z = Zval::new();
            z.set_bool(false);
            z
        }
    }
}


php_function!(ENCODE_MODIFIED9, encode_modified9_handler, "encodeModified9", [Param::Value("list")], DataType::Mixed, |args| {
    let [list] = args.values();
    encode_modified9(list)
});

pub(super) fn encode_modified9(list: &Zval) -> Fallible<Zval> {
    let values = match iterable_arg(list, "encodeModified9", "list")? {
        Some(array) => match array_values(array, "+")? {
            Values::Ints(ints) => ints,
            // not all ints: the rare path, where Yioop may compare floats
            Values::Nums(nums) => {
                if declines_floats(array, &nums) {
                    return Ok(Zval::new()); // B9, B10: Yioop's PHP gives its result
                }
                encodable(Values::Nums(nums), "encodeModified9")?
            }
        },
        None => Vec::new(),
    };
    let mut out = Vec::with_capacity(values.len() + 4);
    modified9::encode(&values, &mut out)
        .map_err(|EncodeError::NeverTerminates { index }| {
            never_terminates("encodeModified9", &format!("element {index} of $list"))
        })?;
    Ok(bytes_zval(&out))
}

php_function!(DECODE_MODIFIED9, decode_modified9_handler, "decodeModified9", [Param::Value("input_string"), Param::Reference("offset")], DataType::Array, |args| {
    decode_modified9(args.take(0).dereference(), args.take(1).dereference_mut())
});

pub(super) fn decode_modified9(input_string: &Zval, offset: &mut Zval) -> Fallible<Zval> {
    let input = string_arg(input_string, "decodeModified9", 1, "input_string")?;
    let post = frame(input, offset, "decodeModified9")?;
    let dispatch = settings::current().dispatch;
    let list = with_decoded(&dispatch, &input[post.bytes], |decoded| {
        int_list(decoded.iter().map(|&v| i64::from(v)))
    });
    set_num(offset, post.next_offset);
    Ok(list)
}

php_function!(NEXT_POST_STRING, next_post_string_handler, "nextPostString", [Param::Reference("input_string"), Param::Reference("offset")], DataType::String, |args| {
    next_post_string(args.take(0).dereference(), args.take(1).dereference_mut())
});

pub(super) fn next_post_string(input_string: &Zval, offset: &mut Zval) -> Fallible<Zval> {
    let input = string_arg(input_string, "nextPostString", 1, "input_string")?;
    let post = frame(input, offset, "nextPostString")?;
    let bytes = bytes_zval(&input[post.bytes]);
    set_num(offset, post.next_offset);
    Ok(bytes)
}

/// The functions this file declares, registered globally.
pub(super) static FUNCTIONS: &[(&Signature, Handler)] = &[
    (&UNPACK_LIST_MODIFIED9, unpack_list_modified9_handler),
    (&DOC_INDEX_MODIFIED9, doc_index_modified9_handler),
    (&UNPACK_INT, unpack_int_handler),
    (&ENCODE_MODIFIED9, encode_modified9_handler),
    (&DECODE_MODIFIED9, decode_modified9_handler),
    (&NEXT_POST_STRING, next_post_string_handler),
];

/// Those Yioop also calls through its own namespace.
pub(super) static NAMESPACED: &[(&Signature, Handler)] = &[
    (&UNPACK_LIST_MODIFIED9, unpack_list_modified9_handler),
    (&DOC_INDEX_MODIFIED9, doc_index_modified9_handler),
    (&UNPACK_INT, unpack_int_handler),
];
