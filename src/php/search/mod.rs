//! Bindings of the search page's work: `Model::getSnippets` (`yioop_codec\snippets`).

pub mod snippets;

use ext_php_rs::builders::ModuleBuilder;

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    snippets::register(module)
}
