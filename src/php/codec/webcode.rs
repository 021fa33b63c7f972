//! `yioop_codec\webcode\webencode` and `webdecode`: Utility.php's
//! `webencode($str)` and `webdecode($str)` on a string (contract:
//! php/yioop_codec.stub.php). Anything else declines (null), so that
//! Yioop's PHP converts it, warns or throws as `strtr` would.

use crate::codec::webcode;
use crate::index::archive::{records_ahead, sites_ahead};
use crate::php::runtime::convert::bytes_zval;
use crate::php::runtime::function::{Handler, Param, Signature};
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;

php_function!(WEBENCODE, webencode_handler, "yioop_codec\\webcode\\webencode", [Param::Value("str")], DataType::Mixed, |args| {
    Ok(on_string(args.take(0).dereference(), webcode::webencode))
});

php_function!(WEBDECODE, webdecode_handler, "yioop_codec\\webcode\\webdecode", [Param::Value("str")], DataType::Mixed, |args| {
    let Some(text) = args.take(0).dereference().zend_str() else { return Ok(Zval::new()) };
    let decoded = webcode::webdecode(text.as_bytes());
    let out = bytes_zval(&decoded);
    // A queue server with a core to spare inflates an upload's sites ahead
    // of its gzuncompress calls (src/php/codec/uploads.rs).
    // Its records are compressed ahead on an idle core too
    // (src/php/index/archive_add.rs).
    if crate::php::settings::compress_threads() > 1 {
        sites_ahead::expect(decoded);
        if let Some(shape) = crate::php::index::archive_add::record_shape() {
            records_ahead::expect(shape);
        }
    }
    Ok(out)
});

/// `convert` of a PHP string's bytes, or null for any other value.
fn on_string(value: &Zval, convert: fn(&[u8]) -> Vec<u8>) -> Zval {
    value.zend_str().map_or_else(Zval::new, |text| bytes_zval(&convert(text.as_bytes())))
}

/// The functions this file declares.
pub(super) static FUNCTIONS: &[(&Signature, Handler)] = &[(&WEBENCODE, webencode_handler), (&WEBDECODE, webdecode_handler)];
