//! `seekquarry\yioop\executables\gzuncompress`: PHP's `gzuncompress`, where
//! Yioop's QueueServer and Fetcher look first (their unqualified calls try
//! their own namespace before the global one). The queue server inflates
//! every site of every fetcher upload with it (`processIndexArchive`'s
//! `unserialize(gzuncompress($site_string))`). A one-argument call on a
//! string whose zlib stream `inflate::gzuncompress_with` reads is answered
//! natively; every other call is PHP's own `gzuncompress` with the same
//! arguments, its warnings, errors and `@` included (contract:
//! php/yioop_codec.stub.php).

use crate::index::archive::{inflate, sites_ahead};
use crate::php::runtime::convert::bytes_zval;
use crate::php::runtime::engine::call_function;
use crate::php::runtime::function::{Handler, Param, Signature};
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;

php_function!(GZUNCOMPRESS, gzuncompress_handler, "seekquarry\\yioop\\executables\\gzuncompress", [Param::Value("data"), Param::Optional("max_length", "0")], DataType::Mixed, |args| {
    let data = args.take(0).dereference();
    let max_length = args.take_optional(1);
    if let (None, Some(text)) = (&max_length, data.zend_str()) {
        if let Some(out) = sites_ahead::take(text.as_bytes()) {
            return Ok(bytes_zval(&out));
        }
        if let Ok(out) = inflate::gzuncompress_with(text.as_bytes(), bytes_zval) {
            return Ok(out);
        }
    }
    let mut passed: Vec<Zval> = std::iter::once(data).chain(max_length.map(|z| &*z.dereference())).map(Zval::shallow_clone).collect();
    // A pending exception (a TypeError) is PHP's: the value is not seen.
    Ok(call_function("gzuncompress", &mut passed).unwrap_or_default())
});

/// The functions this file declares.
pub(super) static FUNCTIONS: &[(&Signature, Handler)] = &[(&GZUNCOMPRESS, gzuncompress_handler)];
