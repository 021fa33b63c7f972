//! `yioop_codec\index_bundle\getPage`: `IndexArchiveBundle::getPage`, a
//! summary read natively from its summaries bundle
//! (`crate::php::index::archive::bundle_page`). Its contract, declines
//! included: php/yioop_codec.stub.php.

use crate::php::index::archive::bundle_page;
use crate::php::runtime::function::{self, Param};
use crate::php::runtime::switched::calls_native;
use crate::php::runtime::keys::OwnedKey;
use crate::php::runtime::zval::long_of;
use crate::php_semantics::Decline;
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;

const INDEX_ARCHIVE_BUNDLE: &str = "seekquarry\\yioop\\library\\IndexArchiveBundle";
const WEB_ARCHIVE_BUNDLE: &str = "seekquarry\\yioop\\library\\WebArchiveBundle";

php_function!(GET_PAGE, get_page_handler, "yioop_codec\\index_bundle\\getPage", [Param::Value("bundle"), Param::Value("offset"), Param::Value("generation")], DataType::Mixed, |args| Ok(get_page(args).unwrap_or_else(|Decline| Zval::new())));

pub fn register(module: ext_php_rs::builders::ModuleBuilder) -> ext_php_rs::builders::ModuleBuilder {
    function::register(module, &[(&GET_PAGE, get_page_handler)])
}

fn get_page(args: &mut function::Args) -> Result<Zval, Decline> {
    let offset = long_of(args.take(1).dereference()).ok_or(Decline)?;
    let generation = long_of(args.take(2).dereference()).ok_or(Decline)?;
    Ok(index_page(args.take(0).dereference(), offset, generation, &[])?.0)
}

/// What `$index->getPage($offset, $generation)` returns, with the page's
/// top-level entries keyed in `left_out` not built, and whether it had any
/// entry: for an IndexArchiveBundle itself, whose summaries are a
/// WebArchiveBundle itself, both getPage methods switched (so Yioop's own
/// code, which this reads as). Declines before changing anything.
pub(crate) fn index_page(index: &Zval, offset: i64, generation: i64, left_out: &[OwnedKey]) -> Result<(Zval, bool), Decline> {
    let object = index.object().ok_or(Decline)?;
    if object.get_class_entry().name() != Some(INDEX_ARCHIVE_BUNDLE)
        || !calls_native(INDEX_ARCHIVE_BUNDLE, "getpage", "yioop_codec\\index_bundle\\getpage")
        || !calls_native(WEB_ARCHIVE_BUNDLE, "getpage", "yioop_codec\\archive\\getpage")
    {
        return Err(Decline);
    }
    let generation = if generation == -1 {
        let info = object.get_property::<&Zval>("generation_info").map_err(|_| Decline)?.dereference().array().ok_or(Decline)?;
        info.get("CURRENT").and_then(|g| g.dereference().long()).ok_or(Decline)?
    } else {
        generation
    };
    let summaries = object.get_property::<&Zval>("summaries").map_err(|_| Decline)?.dereference();
    if summaries.object().and_then(|o| o.get_class_entry().name()) != Some(WEB_ARCHIVE_BUNDLE) {
        return Err(Decline);
    }
    bundle_page(summaries, offset, generation, left_out)
}
