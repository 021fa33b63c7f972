//! `yioop_codec\search_filter\isFiltered`: SearchverticalsModel's
//! `isFiltered($url, $compute_hash_key)`, which a search's word iterators
//! ask about the host of every posting they take (contract:
//! php/yioop_codec.stub.php). Yioop remembers each host's answer in the
//! model's `memory_filter` for the request; a host answered already is read
//! from there natively. The rest (a database look-up, a `query_filter` to
//! search, a host to work out from a URL) is left to Yioop's PHP.

use crate::php::runtime::classes::loaded_named;
use crate::php::runtime::function::{self, Param};
use crate::php::runtime::keys::{find, Key};
use crate::php::runtime::object::Object;
use crate::php::runtime::switched::calls_native;
use ext_php_rs::flags::DataType;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendObject, Zval};

const SEARCHVERTICALS_MODEL: &str = "seekquarry\\yioop\\models\\SearchverticalsModel";

php_function!(IS_FILTERED, is_filtered_handler, "yioop_codec\\search_filter\\isFiltered", [Param::Value("model"), Param::Value("url"), Param::Value("compute_hash_key")], DataType::Mixed, |args| {
    let model = args.take(0).dereference_mut();
    let [url, compute_hash_key] = [args.take(1).dereference(), args.take(2).dereference()];
    let Some(model) = model.object_mut() else { return Ok(Zval::new()) };
    Ok(remembered(model, url, compute_hash_key.coerce_to_bool()).unwrap_or_default())
});

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    function::register(module, &[(&IS_FILTERED, is_filtered_handler)])
}

/// Whether `filter` is Yioop's own SearchverticalsModel, its isFiltered
/// switched: then [`remembered`] may answer for it.
pub(in crate::php) fn is_switched_model(filter: &ZendObject) -> bool {
    loaded_named(SEARCHVERTICALS_MODEL).is_some_and(|class| std::ptr::eq(filter.ce, class))
        && calls_native(SEARCHVERTICALS_MODEL, "isfiltered", "yioop_codec\\search_filter\\isfiltered")
}

/// `$model->isFiltered($url, $compute_hash_key)` where Yioop's answer is
/// `$this->memory_filter[$url]`: no query_filter, no hash key to compute,
/// the host remembered. None otherwise.
pub(in crate::php) fn remembered(model: &mut ZendObject, url: &Zval, compute_hash_key: bool) -> Option<Zval> {
    let model = Object(model);
    let query_filter = model.property("query_filter");
    if compute_hash_key || query_filter.is_some_and(Zval::coerce_to_bool) {
        return None;
    }
    let memory = model.property("memory_filter")?.array()?;
    let answer = unsafe { &*find(memory, Key::of_value(url)?)? }.dereference();
    (!answer.is_null()).then(|| answer.shallow_clone())
}
