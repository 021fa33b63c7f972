//! The PHP binding layer: the `yioop` module, its INI settings, its phpinfo
//! section and the functions. Everything PHP-specific lives under here.

// The runtime glue first: its `php_function!` is used by every binding.
#[macro_use]
mod runtime;

mod codec;
mod index;
mod info;
mod search;
mod settings;
mod text;

use ext_php_rs::error::php_error;
use ext_php_rs::flags::ErrorType;
use ext_php_rs::prelude::*;

// The runtime glue reads php-src's internals as PHP 8.2 to 8.4 lay them out
// (packed arrays, method statics, streams); another PHP fails the build here.
const _: () = assert!(
    ext_php_rs::ffi::ZEND_MODULE_API_NO >= 20220829 && ext_php_rs::ffi::ZEND_MODULE_API_NO <= 20240924,
    "yioop_codec builds for PHP 8.2 to 8.4 (8.2 and 8.4 are tested)"
);

/// Named `yioop` so that Yioop's own `extension_loaded("yioop")` guards
/// switch it over to the native functions.
pub const MODULE_NAME: &str = "yioop";

pub extern "C" fn startup(_type: i32, module_number: i32) -> i32 {
    settings::register(module_number);
    runtime::errors::observe();
    for problem in settings::startup_problems() {
        php_error(&ErrorType::CoreWarning, &problem);
    }
    // Mapped before a forking server forks: its workers share the memory.
    crate::index::archive::record_cache::start(settings::summary_cache_bytes());
    // The CLI runs in the process that starts the module: build the OpenCL
    // context now. Forking SAPIs (php-fpm, Apache prefork) start modules
    // before fork(), and a context does not survive fork(): their workers
    // build one on their first request instead. Either way a probe in a
    // child process comes first (src/codec/opencl/probe.rs), once per process.
    if is_cli() {
        prepare_opencl();
    }
    0
}

fn is_cli() -> bool {
    let name = unsafe { ext_php_rs::ffi::sapi_module.name };
    !name.is_null() && unsafe { std::ffi::CStr::from_ptr(name) }.to_bytes() == b"cli"
}

/// Makes this process's OpenCL context if the settings could ever use it.
/// A failure is remembered and shown by phpinfo; calls then run scalar.
fn prepare_opencl() {
    if settings::current().dispatch.may_use_device() {
        #[cfg(feature = "opencl")]
        crate::codec::opencl::set_probe_limit(settings::probe_timeout());
        let _ = crate::codec::backend::opencl_status(true);
    }
}

extern "C" fn shutdown(_type: i32, module_number: i32) -> i32 {
    settings::unregister(module_number);
    crate::index::archive::record_cache::stop();
    crate::index::archive::sites_ahead::forget(); // its thread joined before PHP unloads the library
    text::phrases_ahead::forget(); // so is this one
    index::shard::release_objects();
    index::dictionary::release_objects();
    text::locale::forget_all();
    runtime::immutable::release_dropped();
    0
}

extern "C" fn request_startup(_type: i32, _module_number: i32) -> i32 {
    settings::refresh();
    runtime::engine::next_request();
    runtime::immutable::release_dropped(); // no request holds them now
    index::dictionary::forget_objects(); // first: its files are closed with the shards'
    index::shard::forget_objects();
    crate::index::archive::written::forget(); // an earlier request's writes
    crate::index::archive::sites_ahead::forget(); // an earlier request's upload
    if !is_cli() {
        prepare_opencl(); // once per worker process: the context records its pid
    }
    0
}

#[php_module]
#[php(startup = "startup")]
pub fn get_module(module: ModuleBuilder) -> ModuleBuilder {
    let module = module
        .name(MODULE_NAME)
        .version(env!("CARGO_PKG_VERSION"))
        .request_startup_function(request_startup)
        .shutdown_function(shutdown)
        .info_function(info::module_info);
    let module = codec::register(module);
    let module = index::register(module);
    let module = text::register(module);
    search::register(module)
}
