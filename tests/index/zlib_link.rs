//! The records `WebArchive::addObjects` writes natively are PHP's bytes only
//! when they are deflated by the zlib PHP's gzencode runs: the system's
//! libz.so.1, linked dynamically (libz-sys through pkg-config). A bundled
//! or static copy (libz-sys without zlib1g-dev, zlib-rs, miniz) may choose
//! other matches; this test fails when deflate does not come from a
//! shared libz.

use std::ffi::{c_char, c_int, c_void, CStr};

#[repr(C)]
struct DlInfo {
    dli_fname: *const c_char,
    dli_fbase: *mut c_void,
    dli_sname: *const c_char,
    dli_saddr: *mut c_void,
}

extern "C" {
    fn dladdr(address: *const c_void, info: *mut DlInfo) -> c_int;
}

/// The file the function at `address` was loaded from.
fn loaded_from(address: *const c_void) -> String {
    let mut info = DlInfo { dli_fname: std::ptr::null(), dli_fbase: std::ptr::null_mut(), dli_sname: std::ptr::null(), dli_saddr: std::ptr::null_mut() };
    assert_ne!(unsafe { dladdr(address, &mut info) }, 0, "dladdr found no object");
    unsafe { CStr::from_ptr(info.dli_fname) }.to_string_lossy().into_owned()
}

#[test]
fn deflate_is_the_shared_system_zlib() {
    for (name, address) in [("deflate", libz_sys::deflate as *const c_void), ("deflateInit2_", libz_sys::deflateInit2_ as *const c_void)] {
        let file = loaded_from(address);
        let base = file.rsplit('/').next().unwrap_or(&file);
        assert!(base.starts_with("libz.so"), "{name} comes from {file}, not the system's libz.so");
    }
}

#[test]
fn the_version_is_the_shared_librarys() {
    // zlibVersion() answers from the library that is loaded; a bundled copy
    // answers from itself, so both the file and the version are checked.
    let version = yioop_codec::index::archive::deflate::zlib_version();
    let file = loaded_from(libz_sys::zlibVersion as *const c_void);
    assert!(file.contains("libz.so"), "zlibVersion comes from {file}");
    assert!(version.starts_with("1."), "zlib version {version}");
}
