//! Bindings of Yioop's index classes: IndexShard (`yioop_codec\shard`),
//! IndexDictionary (`yioop_codec\dictionary`), WebArchive and
//! WebArchiveBundle (`yioop_codec\archive`), IndexArchiveBundle
//! (`yioop_codec\index_bundle`), BloomFilterFile (`yioop_codec\bloom`),
//! IndexManager (`yioop_codec\index_manager`), WordIterator
//! (`yioop_codec\word_iterator`).

pub mod archive;
pub mod archive_add;
pub mod bloom;
pub mod dictionary;
pub mod index_bundle;
pub mod index_manager;
pub mod shard;
pub mod word_iterator;

use ext_php_rs::builders::ModuleBuilder;

pub fn register(module: ModuleBuilder) -> ModuleBuilder {
    let module = shard::register(module);
    let module = dictionary::register(module);
    let module = archive::register(module);
    let module = archive_add::register(module);
    let module = index_bundle::register(module);
    let module = index_manager::register(module);
    let module = word_iterator::register(module);
    bloom::register(module)
}
