//! The phpinfo() / `php --ri yioop` section.

use crate::php::settings;
use crate::codec::backend::{self, Dispatch, Mode};
use crate::index::archive::record_cache;
use crate::index::shard::shared;
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
    info_table_row!("OpenCL prefix-sum min length (yioop.opencl_prefix_min_length)", current.dispatch.prefix_min_length.to_string());
    info_table_row!("OpenCL probe time limit (yioop.opencl_probe_timeout)", format!("{} s", settings::probe_timeout().as_secs()));
    block_cache_rows(current.block_cache_bytes);
    summary_cache_rows();
    info_table_row!("Record compression threads (yioop.compress_threads)", settings::compress_threads().to_string());
    let (made, used) = crate::index::archive::records_ahead::counts();
    info_table_row!("Records compressed ahead in this process", format!("{made} made, {used} used"));
    let (made, used) = crate::php::text::phrases_ahead::counts();
    info_table_row!("Pages' phrase lists made ahead in this process", format!("{made} made, {used} used"));
    info_table_row!("Record compression zlib", crate::index::archive::deflate::zlib_version());
    info_table_row!("Record deflate up to 64 KiB", native_deflate_row());
    info_table_row!(
        "Written records kept for reading back (yioop.written_cache_size)",
        format!("{} KiB, {} KiB held", settings::written_cache_bytes() >> 10, crate::index::archive::written::kept_bytes() >> 10)
    );
    opencl_rows(&current.dispatch);
    info_table_end!();
}

/// Which deflate writes records up to 64 KiB: the native one where it
/// writes the linked zlib's bytes (checked here as at the first record).
fn native_deflate_row() -> String {
    use crate::index::archive::deflate;
    if deflate::native_agrees() {
        format!("native, as zlib {} writes", deflate::zlib_version())
    } else {
        format!("zlib {} (the native deflate writes other bytes)", deflate::zlib_version())
    }
}

/// The IndexShard block cache's size and what it did in this process.
fn block_cache_rows(limit: usize) {
    let stats = shared::cache_stats();
    info_table_row!("Block cache per process (yioop.block_cache_size)", format!("{} KiB", limit >> 10));
    info_table_row!(
        "Block cache in this process",
        format!("{} KiB held, {} hits, {} misses, {} start-overs", shared::cache_size().0 >> 10, stats.hits, stats.misses, stats.start_overs)
    );
}

/// The summary record cache's size and what it did, in every process that
/// shares it.
fn summary_cache_rows() {
    let report = record_cache::cache_report();
    let stats = report.stats;
    info_table_row!("Summary cache shared by this server's processes (yioop.summary_cache_size)", format!("{} KiB", report.limit_bytes >> 10));
    info_table_row!(
        "Summary cache, all processes",
        format!("{} records in {} KiB, {} hits, {} misses, {} turnovers", report.entries, report.held_bytes >> 10, stats.hits, stats.misses, stats.turnovers)
    );
}

/// Platform, device and whether this process's context is live; or the one
/// line that says why OpenCL is off. A context is built for this only where
/// the settings could use it: building one takes a moment.
fn opencl_rows(dispatch: &Dispatch) {
    let wanted = dispatch.may_use_device();
    let status = backend::opencl_status(wanted);
    let context = if status.live { "live in this process" } else { "none" };
    info_table_row!("OpenCL context", context);
    if let Some(platform) = &status.platform {
        info_table_row!("OpenCL platform", platform.as_str());
    }
    if let Some(device) = &status.device {
        let kind = status.device_type.unwrap_or("unknown type");
        info_table_row!("OpenCL device", format!("{device} ({kind})"));
    }
    if let Some(units) = status.compute_units {
        info_table_row!("OpenCL compute units", units.to_string());
    }
    if let Some(probe) = &status.probe {
        info_table_row!("OpenCL probe", probe.as_str());
    }
    match (status.reason.as_deref(), status.live) {
        (Some(reason), true) => info_table_row!("OpenCL last error", reason),
        (Some(reason), false) => info_table_row!("OpenCL off because", reason),
        (None, _) if dispatch.mode == Mode::Off => info_table_row!("OpenCL off because", "yioop.opencl = off"),
        (None, false) if !wanted => info_table_row!(
            "OpenCL off because",
            "yioop.opencl = auto and no list reaches yioop.opencl_min_length or yioop.opencl_prefix_min_length (OpenCL was slower at every length measured on this build's reference machine; php bench/opencl-calibrate.php measures this one)"
        ),
        _ => {}
    }
}
