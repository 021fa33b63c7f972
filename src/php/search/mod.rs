//! Bindings of the search page's work: `Model::getSnippets`
//! (`yioop_codec\snippets`), `ParallelModel::nonNetworkGetCrawlItems`
//! (`yioop_codec\crawl_items`) and `SearchverticalsModel::isFiltered`
//! (`yioop_codec\search_filter`).

pub mod crawl_items;
pub mod search_filter;
pub mod snippets;

use ext_php_rs::builders::ModuleBuilder;

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    search_filter::register(crawl_items::register(snippets::register(module)))
}
