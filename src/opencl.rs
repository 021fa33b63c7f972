//! The OpenCL path: one context per process, the Modified9 decode and the
//! 64-bit prefix sum (`deDeltaList`) as data-parallel kernels.
//!
//! Results are those of the scalar core, always: [`OpenClContext::decode_words`]
//! gives what [`modified9::decode_words`](crate::modified9::decode_words) gives,
//! and [`OpenClContext::de_delta_list`] either gives what
//! [`delta::de_delta_list`](crate::delta::de_delta_list) gives or reports an
//! overflow with the list untouched, so the caller can run the scalar loop
//! (which turns the overflow into PHP floats). The kernels are in
//! `kernels/prefix_sum.cl` and `kernels/modified9.cl`.
//!
//! One context per process, made on first use by [`context`], which records
//! the pid it was made for. A context made before `fork()` is unusable in the
//! child, and so is the driver: a forked child of a process that set OpenCL
//! up never touches the parent's context and gets a reason instead (it runs
//! scalar); any other process makes its own.

use ocl::core::{self, ArgVal, DeviceInfo, DeviceInfoResult, KernelWorkGroupInfo};
use ocl::core::{KernelWorkGroupInfoResult, PlatformInfo};
use ocl::enums::DeviceSpecifier;
use ocl::flags::{DeviceType, MemFlags};
use ocl::{Buffer, Context, Device, Platform, Program, Queue};
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

const PREFIX_SUM_CL: &str = include_str!("../kernels/prefix_sum.cl");
const MODIFIED9_CL: &str = include_str!("../kernels/modified9.cl");

/// The most words one decode call takes on the device: the kernels count
/// elements in 32-bit ints, and a word gives at most 24 elements.
pub const MAX_DECODE_WORDS: usize = 1 << 27;

/// The longest list one prefix sum takes on the device: indices are 32-bit.
pub const MAX_PREFIX_SUM_LEN: usize = u32::MAX as usize - 1;

/// Work-group size of the element-wise kernels.
const ELEMENTWISE_WORK_GROUP: usize = 64;

/// The value of the overflow flag when nothing overflowed.
const NO_OVERFLOW: u32 = u32::MAX;

/// `CL_PLATFORM_NOT_FOUND_KHR`: what the ICD loader answers when it finds no
/// vendor driver.
const CL_PLATFORM_NOT_FOUND_KHR: i32 = -1001;

/// Why a device call gave no result. The list or output is as it was.
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

impl From<ocl::Error> for Error {
    fn from(e: ocl::Error) -> Self {
        Error::Device(one_line(&e.to_string()))
    }
}

impl From<ocl::OclCoreError> for Error {
    fn from(e: ocl::OclCoreError) -> Self {
        Error::Device(one_line(&e.to_string()))
    }
}

/// The kernels, built once per context. `core::Kernel` is `Send` but not
/// `Sync` (arguments are state), hence the mutex around them.
struct Kernels {
    m9_tile_counts: core::Kernel,
    scan_tile_sums_uint: core::Kernel,
    m9_decode_tiles: core::Kernel,
    ps_tile_sums: core::Kernel,
    ps_scan_tile_sums: core::Kernel,
    ps_tiles: core::Kernel,
    delta_list: core::Kernel,
}

struct Inner {
    queue: Queue,
    kernels: Kernels,
}

/// An OpenCL context with its device, queue, built program and kernels.
pub struct OpenClContext {
    pid: u32,
    platform_name: String,
    device_name: String,
    device_type: &'static str,
    compute_units: u32,
    work_group: usize,
    items: usize,
    _context: Context,
    _program: Program,
    inner: Mutex<Inner>,
    runtime_errors: AtomicU64,
    last_error: Mutex<Option<String>>,
    /// Whether input buffers use host memory in place (CPU devices).
    zero_copy_inputs: bool,
    /// The largest work group every kernel can run.
    max_work_group: usize,
}

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
    /// Device calls that failed at run time (each fell back to scalar).
    pub runtime_errors: u64,
    pub last_error: Option<String>,
}

struct Slot {
    pid: u32,
    context: Result<&'static OpenClContext, &'static str>,
}

static GLOBAL: Mutex<Option<Slot>> = Mutex::new(None);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// This process's context, made on first use; a failure is remembered and
/// its reason returned from then on. The context lives as long as the
/// process.
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
                parent.pid
            ))),
            Err(reason) => Err(reason), // the same driver state, the same answer
        };
        *slot = Some(Slot { pid, context: inherited });
        return inherited;
    }
    let made = OpenClContext::new().map(|c| &*Box::leak(Box::new(c))).map_err(leak);
    *slot = Some(Slot { pid, context: made });
    made
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

impl OpenClContext {
    /// A context on the best device found (a GPU, else an accelerator, else
    /// any), with the kernels built. Err is a one-line reason for phpinfo.
    pub fn new() -> Result<OpenClContext, String> {
        Self::with_tile(None)
    }

    /// The same with a given work-group size (a power of two) and elements
    /// per work item; tests use tiny tiles to cross many tile boundaries.
    pub fn with_tile(tile: Option<(usize, usize)>) -> Result<OpenClContext, String> {
        match panic::catch_unwind(|| Self::create(tile)) {
            Ok(made) => made,
            Err(payload) => {
                Err(format!("OpenCL initialisation panicked: {}", panic_text(&payload)))
            }
        }
    }

    fn create(tile: Option<(usize, usize)>) -> Result<OpenClContext, String> {
        let platforms = platforms()?;
        let (platform, device) = best_device(&platforms)?;
        let platform_name = platform_name(&platform);
        let device_name =
            device.name().unwrap_or_else(|_| "unknown device".into()).trim().to_string();
        let device_type = device_type(&device);
        let compute_units = match device.info(DeviceInfo::MaxComputeUnits) {
            Ok(DeviceInfoResult::MaxComputeUnits(n)) => n,
            _ => 0,
        };
        let where_ = format!("{device_name} ({platform_name})");
        let context = Context::builder()
            .platform(platform)
            .devices(DeviceSpecifier::Single(device))
            .build()
            .map_err(|e| {
                format!("cannot create an OpenCL context on {where_}: {}", one_line(&e.to_string()))
            })?;
        let queue = Queue::new(&context, device, None).map_err(|e| {
            format!("cannot create a command queue on {where_}: {}", one_line(&e.to_string()))
        })?;

        let (mut work_group, mut items) = match tile {
            Some((wg, items)) => (wg.max(1).next_power_of_two(), items.max(1)),
            None => default_tile(&device, device_type),
        };
        let local_mem = match device.info(DeviceInfo::LocalMemSize) {
            Ok(DeviceInfoResult::LocalMemSize(n)) => n as usize,
            _ => 32 << 10,
        };
        // ps_tiles needs TILE longs plus WG 128-bit sums of local memory.
        while items > 1 && work_group * items * 8 + work_group * 16 + 64 > local_mem {
            items /= 2;
        }
        // Build; if some kernel cannot run work groups that large, rebuild smaller.
        loop {
            let options = format!("-cl-std=CL1.2 -D WG={work_group} -D ITEMS={items}");
            let program = Program::builder()
                .src(PREFIX_SUM_CL)
                .src(MODIFIED9_CL)
                .devices(device)
                .cmplr_opt(options)
                .build(&context)
                .map_err(|e| {
                    format!("OpenCL kernel build failed on {where_}: {}", clip(&e.to_string(), 600))
                })?;
            let kernels = Kernels::new(&program).map_err(|e| {
                format!("OpenCL kernels unusable on {where_}: {}", one_line(&e.to_string()))
            })?;
            let fits = kernels.max_work_group(&device).map_err(|e| {
                format!("OpenCL kernel query failed on {where_}: {}", one_line(&e.to_string()))
            })?;
            if fits < work_group {
                if fits == 0 {
                    return Err(format!(
                        "OpenCL kernels cannot run on {where_}: no work-group size fits"
                    ));
                }
                work_group = prev_power_of_two(fits);
                continue;
            }
            return Ok(OpenClContext {
                pid: std::process::id(),
                platform_name,
                device_name,
                device_type,
                compute_units,
                work_group,
                items,
                _context: context,
                _program: program,
                inner: Mutex::new(Inner { queue, kernels }),
                runtime_errors: AtomicU64::new(0),
                last_error: Mutex::new(None),
                zero_copy_inputs: device_type == "CPU",
                max_work_group: fits,
            });
        }
    }

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
            runtime_errors: self.runtime_errors.load(Ordering::Relaxed),
            last_error: lock(&self.last_error).clone(),
        }
    }

    /// Counts a run-time failure (shown in phpinfo); the caller falls back.
    pub fn note_runtime_error(&self, error: &Error) {
        if let Error::Device(_) = error {
            self.runtime_errors.fetch_add(1, Ordering::Relaxed);
            *lock(&self.last_error) = Some(error.to_string());
        }
    }

    fn tile(&self) -> usize {
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
    fn new(program: &Program) -> Result<Kernels, ocl::OclCoreError> {
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
    fn max_work_group(&self, device: &Device) -> Result<usize, ocl::OclCoreError> {
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

/// The platforms, asking the ICD loader directly first: ocl's own listing
/// retries for ten seconds when the loader finds no driver, and panics on
/// other errors.
fn platforms() -> Result<Vec<Platform>, String> {
    let mut count: ocl::ffi::cl_uint = 0;
    let status = unsafe { ocl::ffi::clGetPlatformIDs(0, std::ptr::null_mut(), &mut count) };
    if status == CL_PLATFORM_NOT_FOUND_KHR || (status == 0 && count == 0) {
        return Err(
            "no OpenCL platform: the ICD loader found no driver (see /etc/OpenCL/vendors, \
                    OCL_ICD_VENDORS; e.g. install pocl-opencl-icd or a GPU vendor's ICD)"
                .into(),
        );
    }
    if status != 0 {
        return Err(format!("no OpenCL platform: clGetPlatformIDs failed with status {status}"));
    }
    let ids = core::get_platform_ids()
        .map_err(|e| format!("no OpenCL platform: {}", one_line(&e.to_string())))?;
    Ok(Platform::list_from_core(ids))
}

/// A GPU if any platform has one, else an accelerator, else any device.
fn best_device(platforms: &[Platform]) -> Result<(Platform, Device), String> {
    let mut best: Option<(u8, Platform, Device)> = None;
    for &platform in platforms {
        for device in Device::list_all(platform).unwrap_or_default() {
            if !matches!(device.info(DeviceInfo::Available), Ok(DeviceInfoResult::Available(true)))
            {
                continue;
            }
            let rank = match device_type(&device) {
                "GPU" => 0,
                "accelerator" => 1,
                _ => 2,
            };
            if best.as_ref().is_none_or(|(r, _, _)| rank < *r) {
                best = Some((rank, platform, device));
            }
        }
    }
    match best {
        Some((_, platform, device)) => Ok((platform, device)),
        None => {
            let names: Vec<String> = platforms.iter().map(platform_name).collect();
            Err(format!("no OpenCL device available on platform(s): {}", names.join(", ")))
        }
    }
}

fn platform_name(platform: &Platform) -> String {
    match platform.info(PlatformInfo::Name) {
        Ok(name) => name.to_string().trim().to_string(),
        Err(_) => "unknown platform".into(),
    }
}

fn device_type(device: &Device) -> &'static str {
    match device.info(DeviceInfo::Type) {
        Ok(DeviceInfoResult::Type(t)) if t.contains(DeviceType::GPU) => "GPU",
        Ok(DeviceInfoResult::Type(t)) if t.contains(DeviceType::ACCELERATOR) => "accelerator",
        Ok(DeviceInfoResult::Type(t)) if t.contains(DeviceType::CPU) => "CPU",
        _ => "other",
    }
}

/// Work-group size and elements per work item. GPUs: 256 x 8, the usual
/// scan tile. CPU drivers (PoCL) run a work group as a loop on one core:
/// there one work item scanning 4096 elements serially measured best (of
/// 1x1024, 1x4096, 4x1024, 16x256, 64x64, 8x256, 256x8, 1x16384).
fn default_tile(device: &Device, device_type: &str) -> (usize, usize) {
    let max = device.max_wg_size().unwrap_or(256).max(1);
    if device_type == "CPU" {
        (1, 4096)
    } else {
        (prev_power_of_two(max.min(256)), 8)
    }
}

fn prev_power_of_two(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        1 << (usize::BITS - 1 - n.leading_zeros())
    }
}

fn one_line(s: &str) -> String {
    clip(&s.split_whitespace().collect::<Vec<_>>().join(" "), 300)
}

fn clip(s: &str, max: usize) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    match s.char_indices().nth(max) {
        Some((cut, _)) => format!("{}...", &s[..cut]),
        None => s,
    }
}

fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown".into())
}
