//! Bindings of the search page's work: `Model::getSnippets`
//! (`yioop_codec\snippets`) and `ParallelModel::nonNetworkGetCrawlItems`
//! (`yioop_codec\crawl_items`).

pub mod crawl_items;
pub mod snippets;

use ext_php_rs::builders::ModuleBuilder;

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    crawl_items::register(snippets::register(module))
}
