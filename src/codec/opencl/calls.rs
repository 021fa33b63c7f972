//! The context type and its kernel calls: the per-call path. Errors here
//! are the typed [`Error`], which callers branch on (an overflow goes to the
//! scalar loop); making a context is `setup`'s.

use super::base::{flatten, lock, panic_text};
use crate::codec::{delta, modified9};
use ocl::core::{self, ArgVal, KernelWorkGroupInfo, KernelWorkGroupInfoResult};
use ocl::flags::MemFlags;
use ocl::{Buffer, Context, Device, Program, Queue};
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The most words one decode call takes on the device: the kernels count
/// elements in 32-bit ints, and a word gives at most 24 elements.
pub const MAX_DECODE_WORDS: usize = 1 << 27;

/// The longest list one prefix sum takes on the device: indices are 32-bit.
pub const MAX_PREFIX_SUM_LEN: usize = u32::MAX as usize - 1;

/// Work-group size of the element-wise kernels.
const ELEMENTWISE_WORK_GROUP: usize = 64;

/// The value of the overflow flag when nothing overflowed.
const NO_OVERFLOW: u32 = u32::MAX;

/// Why a device call gave no result. The list or output is as it was.
/// Typed because callers branch on it: an overflow sends the list to the
/// scalar loop, anything else is counted and shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The prefix sum at this index does not fit an int: the scalar loop
    /// overflows there (and goes on in floats).
    Overflow(usize),
    /// The input is longer than the kernels take.
    TooLong,
    /// OpenCL said no (out of memory, lost device, ...).
    Device(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Overflow(i) => write!(f, "prefix sum overflows at index {i}"),
            Error::TooLong => write!(f, "input too long for the OpenCL kernels"),
            Error::Device(reason) => write!(f, "OpenCL error: {reason}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<ocl::Error> for Error {
    fn from(e: ocl::Error) -> Self {
        Error::Device(e.to_string())
    }
}

impl From<ocl::OclCoreError> for Error {
    fn from(e: ocl::OclCoreError) -> Self {
        Error::Device(e.to_string())
    }
}

/// Facts about a live context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    pub platform: String,
    pub device: String,
    pub device_type: &'static str,
    pub compute_units: u32,
    pub work_group: usize,
    pub items: usize,
    pub pid: u32,
    /// How the probe went before this context was made: "passed in 0.4 s",
    /// or why there was none.
    pub probe: String,
    /// Device calls that failed at run time (each fell back to scalar).
    pub runtime_errors: u64,
    pub last_error: Option<String>,
}

/// The kernels by the call that launches them, as the probe names them.
pub(super) const KERNEL_GROUPS: [(&str, &[&str]); 3] = [
    ("decode", &["m9_tile_counts", "scan_tile_sums_uint", "m9_decode_tiles"]),
    ("prefix-sum", &["ps_tile_sums", "ps_scan_tile_sums", "ps_tiles"]),
    ("delta", &["delta_list"]),
];

/// The kernels, built once per context. `core::Kernel` is `Send` but not
/// `Sync` (arguments are state), hence the mutex around them.
pub(super) struct Kernels {
    m9_tile_counts: core::Kernel,
    scan_tile_sums_uint: core::Kernel,
    m9_decode_tiles: core::Kernel,
    ps_tile_sums: core::Kernel,
    ps_scan_tile_sums: core::Kernel,
    ps_tiles: core::Kernel,
    delta_list: core::Kernel,
}

pub(super) struct Inner {
    pub(super) queue: Queue,
    pub(super) kernels: Kernels,
}

/// An OpenCL context with its device, queue, built program and kernels.
pub struct OpenClContext {
    pub(super) pid: u32,
    pub(super) platform_name: String,
    pub(super) device_name: String,
    pub(super) device_type: &'static str,
    pub(super) compute_units: u32,
    pub(super) work_group: usize,
    pub(super) items: usize,
    pub(super) _context: Context,
    pub(super) _program: Program,
    pub(super) inner: Mutex<Inner>,
    pub(super) runtime_errors: AtomicU64,
    pub(super) last_error: Mutex<Option<String>>,
    /// Whether input buffers use host memory in place (CPU devices).
    pub(super) zero_copy_inputs: bool,
    /// The largest work group every kernel can run.
    pub(super) max_work_group: usize,
    /// How the probe went before this context was made.
    pub(super) probe: String,
}

impl OpenClContext {
    pub fn platform_name(&self) -> &str {
        &self.platform_name
    }

    pub fn device_name(&self) -> &str {
        &self.device_name
    }

    pub fn compute_units(&self) -> u32 {
        self.compute_units
    }

    /// The pid of the process that made this context.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Whether this context belongs to the calling process (not a parent's
    /// from before a fork, which cannot be used).
    pub fn is_live(&self) -> bool {
        self.pid == std::process::id()
    }

    pub fn info(&self) -> Info {
        Info {
            platform: self.platform_name.clone(),
            device: self.device_name.clone(),
            device_type: self.device_type,
            compute_units: self.compute_units,
            work_group: self.work_group,
            items: self.items,
            pid: self.pid,
            probe: self.probe.clone(),
            runtime_errors: self.runtime_errors.load(Ordering::Relaxed),
            last_error: lock(&self.last_error).clone(),
        }
    }

    /// Counts a run-time failure (shown in phpinfo); the caller falls back.
    pub fn note_runtime_error(&self, error: &Error) {
        if let Error::Device(_) = error {
            self.runtime_errors.fetch_add(1, Ordering::Relaxed);
            *lock(&self.last_error) = Some(flatten(&error.to_string()));
        }
    }

    pub(super) fn set_probe_summary(&mut self, summary: String) {
        self.probe = summary;
    }

    /// Launches one group of [`KERNEL_GROUPS`] on a tiny input and checks
    /// the result against the scalar core: the probe's work.
    pub(super) fn run_group_once(&self, group: &str) -> anyhow::Result<()> {
        let words = [0x3f00_0005u32, 0x8000_0007, 0x4001_0203];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
        let list = [5i64, -2, 7, 1000, 3];
        match group {
            "decode" => {
                let (mut got, mut want) = (Vec::new(), Vec::new());
                self.decode_words(&bytes, &mut got)?;
                modified9::decode_words(&bytes, &mut want);
                anyhow::ensure!(got == want, "decode gave {got:?}, the scalar core {want:?}");
            }
            "prefix-sum" => {
                let (mut got, mut want) = (list, list);
                self.de_delta_list(&mut got)?;
                let _ = delta::de_delta_list(&mut want);
                anyhow::ensure!(got == want, "prefix sum gave {got:?}, the scalar core {want:?}");
            }
            "delta" => {
                let got = self.delta_list(&list)?;
                let want = delta::delta_list(&list);
                anyhow::ensure!(got == want, "delta list gave {got:?}, the scalar core {want:?}");
            }
            other => anyhow::bail!("no kernel group {other}"),
        }
        Ok(())
    }

    pub(super) fn tile(&self) -> usize {
        self.work_group * self.items
    }

    /// Runs a device job under the lock, turning a panic into an error.
    fn run<R>(&self, job: impl FnOnce(&Inner) -> Result<R, Error>) -> Result<R, Error> {
        if !self.is_live() {
            return Err(Error::Device(
                "context belongs to another process (made before fork)".into(),
            ));
        }
        let inner = lock(&self.inner);
        match panic::catch_unwind(AssertUnwindSafe(|| job(&inner))) {
            Ok(result) => result,
            Err(payload) => Err(Error::Device(format!("panic: {}", panic_text(&payload)))),
        }
    }

    /// `modified9::decode_words` on the device: the elements of the whole
    /// big-endian words in `bytes` (trailing bytes ignored), appended to
    /// `out`. On Err, `out` is as it was.
    pub fn decode_words(&self, bytes: &[u8], out: &mut Vec<u32>) -> Result<(), Error> {
        let n_words = bytes.len() / 4;
        if n_words == 0 {
            return Ok(());
        }
        if n_words > MAX_DECODE_WORDS {
            return Err(Error::TooLong);
        }
        let old_len = out.len();
        let result =
            self.run(|inner| self.decode_on_device(inner, &bytes[..n_words * 4], out, old_len));
        if result.is_err() {
            out.truncate(old_len);
        }
        result
    }

    fn decode_on_device(
        &self,
        inner: &Inner,
        bytes: &[u8],
        out: &mut Vec<u32>,
        old_len: usize,
    ) -> Result<(), Error> {
        let (q, k) = (&inner.queue, &inner.kernels);
        let n_words = bytes.len() / 4;
        let n = n_words as u32;
        let tiles = n_words.div_ceil(self.tile());
        let input = self.buffer_from(q, bytes)?;
        let tile_sums = self.buffer::<u32>(q, tiles)?;
        let total = self.buffer::<u32>(q, 1)?;

        set_args(
            &k.m9_tile_counts,
            &[ArgVal::mem(input.as_core()), ArgVal::scalar(&n), ArgVal::mem(tile_sums.as_core())],
        )?;
        self.enqueue(q, &k.m9_tile_counts, tiles)?;
        let tiles_u32 = tiles as u32;
        set_args(
            &k.scan_tile_sums_uint,
            &[
                ArgVal::mem(tile_sums.as_core()),
                ArgVal::scalar(&tiles_u32),
                ArgVal::mem(total.as_core()),
            ],
        )?;
        self.enqueue(q, &k.scan_tile_sums_uint, 1)?;
        let mut count = [0u32];
        total.read(&mut count[..]).queue(q).enq()?;
        let count = count[0] as usize;
        if count > 24 * n_words {
            // No word holds more than 24 elements: the scan went wrong.
            return Err(Error::Device(format!("the device counted {count} elements in {n_words} words")));
        }
        if count == 0 {
            return Ok(()); // every word was an empty one
        }
        let output = self.buffer::<u32>(q, count)?;
        set_args(
            &k.m9_decode_tiles,
            &[
                ArgVal::mem(input.as_core()),
                ArgVal::scalar(&n),
                ArgVal::mem(tile_sums.as_core()),
                ArgVal::mem(output.as_core()),
                ArgVal::scalar(&(count as u32)),
            ],
        )?;
        self.enqueue(q, &k.m9_decode_tiles, tiles)?;
        // Straight into the spare capacity: no zero fill first.
        out.reserve(count);
        let status = unsafe {
            ocl::ffi::clEnqueueReadBuffer(
                q.as_core().as_ptr(),
                output.as_core().as_ptr(),
                ocl::ffi::CL_TRUE,
                0,
                count * 4,
                out.as_mut_ptr().add(old_len).cast(),
                0,
                std::ptr::null(),
                std::ptr::null_mut(),
            )
        };
        if status != 0 {
            return Err(Error::Device(format!("clEnqueueReadBuffer failed with status {status}")));
        }
        // SAFETY: the blocking read has written all `count` elements.
        unsafe { out.set_len(old_len + count) };
        Ok(())
    }

    /// `delta::de_delta_list` on the device, for lists whose sums all fit:
    /// Ok with the list summed, or Err with the list untouched; for
    /// [`Error::Overflow`], the index where the scalar loop overflows.
    pub fn de_delta_list(&self, list: &mut [i64]) -> Result<(), Error> {
        if list.len() < 2 {
            return Ok(()); // nothing to add up, as in the scalar loop
        }
        if list.len() > MAX_PREFIX_SUM_LEN {
            return Err(Error::TooLong);
        }
        self.run(|inner| self.prefix_sum_on_device(inner, list))
    }

    fn prefix_sum_on_device(&self, inner: &Inner, list: &mut [i64]) -> Result<(), Error> {
        let (q, k) = (&inner.queue, &inner.kernels);
        let n = list.len() as u32;
        let tiles = list.len().div_ceil(self.tile());
        let tiles_u32 = tiles as u32;
        let input = self.buffer_from(q, list)?;
        let output = self.buffer::<i64>(q, list.len())?;
        let tile_lo = self.buffer::<u64>(q, tiles)?;
        let tile_hi = self.buffer::<u64>(q, tiles)?;
        let overflow = self.overflow_flag(q)?;

        set_args(
            &k.ps_tile_sums,
            &[
                ArgVal::mem(input.as_core()),
                ArgVal::scalar(&n),
                ArgVal::mem(tile_lo.as_core()),
                ArgVal::mem(tile_hi.as_core()),
            ],
        )?;
        self.enqueue(q, &k.ps_tile_sums, tiles)?;
        set_args(
            &k.ps_scan_tile_sums,
            &[
                ArgVal::mem(tile_lo.as_core()),
                ArgVal::mem(tile_hi.as_core()),
                ArgVal::scalar(&tiles_u32),
            ],
        )?;
        self.enqueue(q, &k.ps_scan_tile_sums, 1)?;
        set_args(
            &k.ps_tiles,
            &[
                ArgVal::mem(input.as_core()),
                ArgVal::mem(output.as_core()),
                ArgVal::scalar(&n),
                ArgVal::mem(tile_lo.as_core()),
                ArgVal::mem(tile_hi.as_core()),
                ArgVal::mem(overflow.as_core()),
            ],
        )?;
        self.enqueue(q, &k.ps_tiles, tiles)?;
        let mut first_bad = [0u32];
        overflow.read(&mut first_bad[..]).queue(q).enq()?;
        if first_bad[0] != NO_OVERFLOW {
            return Err(Error::Overflow(first_bad[0] as usize));
        }
        if self.zero_copy_inputs {
            // The input buffer is the list itself; no command uses it any
            // more (the blocking read above came after the kernels). A failed
            // read has copied nothing: CPU drivers check before they copy.
            drop(input);
            output.read(&mut *list).queue(q).enq()?;
        } else if let Err(e) = output.read(&mut *list).queue(q).enq() {
            // The list may be half written: put the input back as it was.
            input.read(&mut *list).queue(q).enq()?;
            return Err(e.into());
        }
        Ok(())
    }

    /// `delta::delta_list` on the device (the encode-side experiment): None
    /// where some difference overflows, as in the scalar function.
    pub fn delta_list(&self, list: &[i64]) -> Result<Option<Vec<i64>>, Error> {
        if list.is_empty() {
            return Ok(Some(Vec::new()));
        }
        if list.len() > MAX_PREFIX_SUM_LEN {
            return Err(Error::TooLong);
        }
        self.run(|inner| {
            let (q, k) = (&inner.queue, &inner.kernels);
            let n = list.len() as u32;
            let input = self.buffer_from(q, list)?;
            let output = self.buffer::<i64>(q, list.len())?;
            let overflow = self.overflow_flag(q)?;
            set_args(
                &k.delta_list,
                &[
                    ArgVal::mem(input.as_core()),
                    ArgVal::mem(output.as_core()),
                    ArgVal::scalar(&n),
                    ArgVal::mem(overflow.as_core()),
                ],
            )?;
            // Element-wise: one work item per element. A fixed work-group
            // size (PoCL compiles a kernel anew for each size it meets).
            let wg = ELEMENTWISE_WORK_GROUP.min(self.max_work_group);
            unsafe {
                core::enqueue_kernel(
                    q.as_core(),
                    &k.delta_list,
                    1,
                    None,
                    &[list.len().div_ceil(wg) * wg, 1, 1],
                    Some([wg, 1, 1]),
                    None::<&core::Event>,
                    None::<&mut core::Event>,
                )?;
            }
            let mut first_bad = [0u32];
            overflow.read(&mut first_bad[..]).queue(q).enq()?;
            if first_bad[0] != NO_OVERFLOW {
                return Ok(None);
            }
            let mut deltas = vec![0i64; list.len()];
            output.read(&mut deltas[..]).queue(q).enq()?;
            Ok(Some(deltas))
        })
    }

    /// One work group per tile (`groups` of them).
    fn enqueue(&self, q: &Queue, kernel: &core::Kernel, groups: usize) -> Result<(), Error> {
        let wg = self.work_group;
        unsafe {
            core::enqueue_kernel(
                q.as_core(),
                kernel,
                1,
                None,
                &[groups * wg, 1, 1],
                Some([wg, 1, 1]),
                None::<&core::Event>,
                None::<&mut core::Event>,
            )?;
        }
        Ok(())
    }

    fn buffer<T: ocl::OclPrm>(&self, q: &Queue, len: usize) -> Result<Buffer<T>, Error> {
        Ok(Buffer::<T>::builder()
            .queue(q.clone())
            .flags(MemFlags::new().read_write())
            .len(len.max(1))
            .build()?)
    }

    /// The one-word flag a kernel sets to the first overflowing index,
    /// starting as NO_OVERFLOW.
    fn overflow_flag(&self, q: &Queue) -> Result<Buffer<u32>, Error> {
        Ok(Buffer::<u32>::builder()
            .queue(q.clone())
            .flags(MemFlags::new().read_write().copy_host_ptr())
            .len(1)
            .copy_host_slice(&[NO_OVERFLOW])
            .build()?)
    }

    /// A read-only device buffer holding `data`. On a CPU device the buffer
    /// uses the host memory itself (no copy); the caller keeps `data`
    /// borrowed until its commands have finished, which every caller here
    /// does (each call ends with a blocking read).
    fn buffer_from<T: ocl::OclPrm>(&self, q: &Queue, data: &[T]) -> Result<Buffer<T>, Error> {
        let builder = Buffer::<T>::builder().queue(q.clone()).len(data.len());
        let buffer = if self.zero_copy_inputs {
            unsafe { builder.flags(MemFlags::new().read_only()).use_host_slice(data) }
        } else {
            builder.flags(MemFlags::new().read_only().copy_host_ptr()).copy_host_slice(data)
        };
        Ok(buffer.build()?)
    }
}

impl Kernels {
    pub(super) fn new(program: &Program) -> Result<Kernels, ocl::OclCoreError> {
        let k = |name: &str| core::create_kernel(program.as_core(), name);
        Ok(Kernels {
            m9_tile_counts: k("m9_tile_counts")?,
            scan_tile_sums_uint: k("scan_tile_sums_uint")?,
            m9_decode_tiles: k("m9_decode_tiles")?,
            ps_tile_sums: k("ps_tile_sums")?,
            ps_scan_tile_sums: k("ps_scan_tile_sums")?,
            ps_tiles: k("ps_tiles")?,
            delta_list: k("delta_list")?,
        })
    }

    /// The largest work group every kernel can run on this device.
    pub(super) fn max_work_group(&self, device: &Device) -> Result<usize, ocl::OclCoreError> {
        let all = [
            &self.m9_tile_counts,
            &self.scan_tile_sums_uint,
            &self.m9_decode_tiles,
            &self.ps_tile_sums,
            &self.ps_scan_tile_sums,
            &self.ps_tiles,
            &self.delta_list,
        ];
        let mut fits = usize::MAX;
        for kernel in all {
            if let KernelWorkGroupInfoResult::WorkGroupSize(n) = core::get_kernel_work_group_info(
                kernel,
                device,
                KernelWorkGroupInfo::WorkGroupSize,
            )? {
                fits = fits.min(n);
            }
        }
        Ok(fits)
    }
}

fn set_args(kernel: &core::Kernel, args: &[ArgVal]) -> Result<(), Error> {
    for (i, arg) in args.iter().enumerate() {
        core::set_kernel_arg(kernel, i as u32, arg.clone())?;
    }
    Ok(())
}

