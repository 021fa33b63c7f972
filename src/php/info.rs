//! The phpinfo() / `php --ri yioop` section.

use super::settings;
use ext_php_rs::zend::ModuleEntry;
use ext_php_rs::{info_table_end, info_table_row, info_table_start};

pub extern "C" fn module_info(_module: *mut ModuleEntry) {
    let current = settings::current();
    info_table_start!();
    info_table_row!("yioop_codec support", "enabled");
    info_table_row!("Version", env!("CARGO_PKG_VERSION"));
    info_table_row!("Posting format (yioop.format)", current.format.name());
    info_table_row!("OpenCL mode (yioop.opencl)", current.dispatch.mode.name());
    info_table_row!("OpenCL min length (yioop.opencl_min_length)", current.dispatch.min_length.to_string());
    info_table_end!();
}
