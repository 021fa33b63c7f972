//! The PHP functions, named and shaped as in Yioop's Utility.php, and PHP's
//! `gzuncompress` where Yioop's executables call it (`uploads.rs`). Each one
//! converts its arguments the way Yioop's code would use them, calls the
//! core, and converts back. Where Yioop's PHP would throw on an argument
//! (arithmetic on an array, count() of a non-array, ...) these throw the same
//! error class.

mod args;
mod delta;
mod modified9;
mod posting;
mod queue_weight;
mod uploads;
mod webcode;

use crate::php::runtime::function;

pub(crate) use posting::pack_posting;
use ext_php_rs::prelude::*;


/// Yioop's string callables (`C\\NS_LIB . "unpackListModified9"`) never
/// fall back to the global namespace: these are registered there too.
const NAMESPACE: &str = "seekquarry\\yioop\\library\\";

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    let files = [posting::FUNCTIONS, modified9::FUNCTIONS, delta::FUNCTIONS, queue_weight::FUNCTIONS, webcode::FUNCTIONS, uploads::FUNCTIONS];
    let module = files.iter().fold(module, |module, functions| function::register(module, functions));
    modified9::NAMESPACED.iter().chain(queue_weight::NAMESPACED).fold(module, |module, &(signature, handler)| {
        module.function(signature.function_named(format!("{NAMESPACE}{}", signature.name), handler))
    })
}
