//! Yioop's posting codec (`Utility.php`): Modified9 words, postings, delta
//! lists and crawl-queue weights, and the choice of backend per call.
//!
//! - [`modified9`]: the word codec and the framing of postings into words
//!   (`modified9::format` documents the format).
//! - [`posting`]: one posting (a doc index and its positions), both on-disk lines.
//! - [`posting_list`]: many postings decoded in one call.
//! - [`delta`]: delta lists; [`queue_weight`]: crawl-queue weight info.
//! - [`webcode`]: `webencode`/`webdecode`, the base64 of fetchers' uploads.
//! - [`backend`]: scalar or OpenCL, per call; `opencl`: the device side.

pub mod backend;
pub mod delta;
pub mod modified9;
#[cfg(feature = "opencl")]
pub mod opencl;
pub mod posting;
pub mod posting_list;
pub mod queue_weight;
pub mod webcode;
