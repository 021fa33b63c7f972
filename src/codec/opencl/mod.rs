//! The OpenCL path: one context per process, the Modified9 decode and the
//! 64-bit prefix sum (`deDeltaList`) as data-parallel kernels.
//!
//! Results are those of the scalar core, always: [`OpenClContext::decode_words`]
//! gives what [`modified9::decode_words`](crate::codec::modified9::decode_words) gives,
//! and [`OpenClContext::de_delta_list`] either gives what
//! [`delta::de_delta_list`](crate::codec::delta::de_delta_list) gives or reports an
//! overflow with the list untouched, so the caller can run the scalar loop
//! (which turns the overflow into PHP floats). The kernels are in
//! `kernels/prefix_sum.cl` and `kernels/modified9.cl`.
//!
//! Top-down, each module using only those below it:
//!
//! - this file: the one context per process, made after a probe;
//! - `diagnose`: from what a probe saw to the reason phpinfo shows, cause
//!   and fix first;
//! - `setup`: finding a device and building the program (errors as
//!   `anyhow` chains, shown by phpinfo in one line), and the probe's job;
//! - `probe`: runs a job in a short-lived child process, so that a driver
//!   that aborts, crashes or hangs takes only the child down;
//! - `calls`: the context type and its kernel calls, the per-call path
//!   (typed [`Error`]);
//! - `base`: what they all share: the lock, errors and panics in one line.

mod base;
mod calls;
pub mod diagnose;
pub mod probe;
mod setup;

pub use calls::{Error, Info, OpenClContext, MAX_DECODE_WORDS, MAX_PREFIX_SUM_LEN};

use anyhow::Context as _;
use base::{lock, one_line};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What phpinfo shows about this process's OpenCL context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// Not asked for yet in this process.
    NotCreated,
    /// Made and usable.
    Live(Info),
    /// Creation failed, for this reason; not tried again in this process.
    Failed(String),
}

/// The longest a probe may take by default: a cold PoCL build of the
/// kernels takes about 6 s on 2 cores, and several workers may build at once.
pub const DEFAULT_PROBE_LIMIT: Duration = Duration::from_secs(60);

static PROBE_LIMIT_MS: AtomicU64 = AtomicU64::new(DEFAULT_PROBE_LIMIT.as_millis() as u64);

/// The time limit of the probes that later contexts of this process run
/// (INI `yioop.opencl_probe_timeout`).
pub fn set_probe_limit(limit: Duration) {
    PROBE_LIMIT_MS.store(limit.as_millis().max(1) as u64, Ordering::Relaxed);
}

pub fn probe_limit() -> Duration {
    Duration::from_millis(PROBE_LIMIT_MS.load(Ordering::Relaxed))
}

struct Slot {
    pid: u32,
    context: Result<&'static OpenClContext, &'static str>,
}

static GLOBAL: Mutex<Option<Slot>> = Mutex::new(None);

/// This process's context, made on first use after a probe in a child
/// process; a failure is remembered and its one-line reason returned from
/// then on. The context lives as long as the process.
///
/// A process forked after its parent set OpenCL up gets Err: the parent's
/// context is unusable in the child, and so is the driver itself (measured
/// with PoCL: a new context in the child builds fine, then its first kernel
/// never finishes, the driver's worker threads having stayed in the parent).
/// The child runs scalar. Let OpenCL start after the fork (it starts on
/// first use, so a master process that does no decoding is fine). A child
/// whose parent never touched OpenCL makes its own context as usual.
pub fn context() -> Result<&'static OpenClContext, &'static str> {
    let pid = std::process::id();
    let mut slot = lock(&GLOBAL);
    if let Some(s) = slot.as_ref() {
        if s.pid == pid {
            return s.context;
        }
        // Inherited across fork(): the parent's handles mean nothing here
        // (and are never released: that could hang or crash).
        let inherited = match s.context {
            Ok(parent) => Err(leak(format!(
                "OpenCL was set up in process {} before it forked this process {pid}; a forked \
                 child cannot use it (its driver threads stay in the parent), so this process \
                 runs scalar. Let OpenCL start after fork (on first use), not in a parent",
                parent.pid()
            ))),
            Err(reason) => Err(reason), // the same driver state, the same answer
        };
        *slot = Some(Slot { pid, context: inherited });
        return inherited;
    }
    let made = probed_context()
        .map(|c| &*Box::leak(Box::new(c)))
        .map_err(|e| leak(one_line(&e)));
    *slot = Some(Slot { pid, context: made });
    made
}

/// Probes in a child, then makes the context here. A process that has
/// already started OpenCL itself cannot probe (a child forked now would
/// hang in the driver), so it makes its context without one.
fn probed_context() -> anyhow::Result<OpenClContext> {
    if setup::started_in_this_process() {
        let mut context = OpenClContext::new()?;
        context.set_probe_summary("none (OpenCL was already started in this process)".into());
        return Ok(context);
    }
    let started = Instant::now();
    let limit = probe_limit();
    let probe = probe::run_in_child(limit, setup::launch_every_kernel);
    diagnose::verdict(&probe, &diagnose::Environment::of_this_process(), limit)?;
    let secs = started.elapsed().as_secs_f64();
    let mut context = OpenClContext::new().context("the probe passed, then this process failed")?;
    context.set_probe_summary(format!("passed in {secs:.2} s (child process, limit {} s)", limit.as_secs()));
    Ok(context)
}

fn leak(reason: String) -> &'static str {
    Box::leak(reason.into_boxed_str())
}

/// The state of this process's context, without making one.
pub fn state() -> State {
    let pid = std::process::id();
    let inherited = lock(&GLOBAL).as_ref().is_some_and(|s| s.pid != pid);
    if inherited {
        let _ = context(); // settles what a forked child gets, creating nothing
    }
    match lock(&GLOBAL).as_ref() {
        None => State::NotCreated,
        Some(Slot { context: Ok(c), .. }) => State::Live(c.info()),
        Some(Slot { context: Err(reason), .. }) => State::Failed(reason.to_string()),
    }
}
