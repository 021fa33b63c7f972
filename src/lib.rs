//! yioop_codec: Yioop's posting-list codec, byte for byte, in Rust.
//!
//! The core modules know nothing of PHP; `php` (behind the `php` feature) is
//! the thin binding layer that makes this the `yioop` PHP extension.

pub mod delta;
pub mod dispatch;
pub mod modified9;
#[cfg(feature = "opencl")]
pub mod opencl;
pub mod phpnum;
pub mod posting;
pub mod posting_list;
pub mod shard;
pub mod queue_weight;

#[cfg(feature = "php")]
mod php;
