//! A cache-line prefetch hint, for loops that know where their next reads
//! are but find them scattered over (or far ahead in) memory. A hint never
//! faults, so any address will do, even past the end of a buffer.

#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
