//! Finding a device and building the program, once per context, and the
//! probe's job: the same in a child, then one launch of every kernel. Each
//! layer adds its context to the error (`anyhow`); phpinfo shows the chain
//! in one line.

use super::base::panic_text;
use super::calls::{Inner, Kernels, OpenClContext, KERNEL_GROUPS};
use super::probe::Reporter;
use anyhow::{anyhow, bail, ensure, Context as _};
use ocl::core::{self, DeviceInfo, DeviceInfoResult, PlatformInfo};
use ocl::enums::DeviceSpecifier;
use ocl::flags::DeviceType;
use ocl::{Context, Device, Platform, Program, Queue};
use std::panic;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;

const PREFIX_SUM_CL: &str = include_str!("../../../kernels/prefix_sum.cl");
const MODIFIED9_CL: &str = include_str!("../../../kernels/modified9.cl");

/// `CL_PLATFORM_NOT_FOUND_KHR`: what the ICD loader answers when it finds no
/// vendor driver.
const CL_PLATFORM_NOT_FOUND_KHR: i32 = -1001;

/// The pid of the last process that called into the driver: a child forked
/// from it cannot use OpenCL, so such a process makes no probe.
static STARTED_IN: AtomicU32 = AtomicU32::new(0);

pub(super) fn started_in_this_process() -> bool {
    STARTED_IN.load(Ordering::Relaxed) == std::process::id()
}

fn note_driver_started() {
    STARTED_IN.store(std::process::id(), Ordering::Relaxed);
}

impl OpenClContext {
    /// A context on the best device found (a GPU, else an accelerator, else
    /// any), with the kernels built. The error chain says which step failed.
    pub fn new() -> anyhow::Result<OpenClContext> {
        Self::with_tile(None)
    }

    /// The same with a given work-group size (a power of two) and elements
    /// per work item; tests use tiny tiles to cross many tile boundaries.
    pub fn with_tile(tile: Option<(usize, usize)>) -> anyhow::Result<OpenClContext> {
        note_driver_started();
        match panic::catch_unwind(|| Self::create(tile)) {
            Ok(made) => made,
            Err(payload) => Err(anyhow!("OpenCL initialisation panicked: {}", panic_text(&payload))),
        }
    }

    fn create(tile: Option<(usize, usize)>) -> anyhow::Result<OpenClContext> {
        let platforms = platforms().context("no OpenCL platform")?;
        let (platform, device) = best_device(&platforms)?;
        let platform_name = platform_name(&platform);
        let device_name = device.name().unwrap_or_else(|_| "unknown device".into()).trim().to_string();
        let device_type = device_type(&device);
        let where_ = format!("{device_name} ({platform_name})");
        let context = Context::builder()
            .platform(platform)
            .devices(DeviceSpecifier::Single(device))
            .build()
            .with_context(|| format!("cannot create an OpenCL context on {where_}"))?;
        let queue = Queue::new(&context, device, None)
            .with_context(|| format!("cannot create a command queue on {where_}"))?;
        let (work_group, items) = tile_for(&device, device_type, tile);
        let (program, kernels, work_group, max_work_group) =
            build(&context, &device, work_group, items).with_context(|| format!("on {where_}"))?;
        let made = OpenClContext {
            pid: std::process::id(),
            platform_name,
            device_name,
            device_type,
            compute_units: compute_units(&device),
            work_group,
            items,
            _context: context,
            _program: program,
            inner: Mutex::new(Inner { queue, kernels }),
            runtime_errors: AtomicU64::new(0),
            last_error: Mutex::new(None),
            zero_copy_inputs: device_type == "CPU",
            max_work_group,
            probe: String::new(),
        };
        made.self_check().with_context(|| format!("on {where_}, work groups of {work_group} x {items}"))?;
        Ok(made)
    }

    /// Runs both kernels' scans on lists that cross several tiles and
    /// compares them with the scalar path: a compiler that gets the scans
    /// wrong (PoCL 6.0 does for work groups above 1) is refused here, and
    /// every call then runs scalar, rather than giving wrong answers.
    fn self_check(&self) -> anyhow::Result<()> {
        let n = 3 * self.tile() + 5;
        let list: Vec<i64> = (0..n as i64).map(|i| (i * 7919) % 1000 - 300).collect();
        let mut on_device = list.clone();
        self.de_delta_list(&mut on_device).context("the self-check's prefix sum failed")?;
        let mut scalar = list;
        crate::codec::delta::de_delta_list(&mut scalar).expect("small sums do not overflow");
        if on_device != scalar {
            return Err(anyhow!("the device's prefix sum differs from the scalar loop (self-check)"));
        }
        let words: Vec<u8> = (0..n as u32).flat_map(|i| self_check_word(i).to_be_bytes()).collect();
        let (mut on_device, mut scalar) = (Vec::new(), Vec::new());
        self.decode_words(&words, &mut on_device).context("the self-check's decode failed")?;
        crate::codec::modified9::decode_words(&words, &mut scalar);
        if on_device != scalar {
            return Err(anyhow!("the device's decode differs from the scalar decode (self-check)"));
        }
        Ok(())
    }
}

/// An arbitrary word for the self-check (any word decodes): a hash of `i`,
/// so the selectors, and with them the element counts, vary.
fn self_check_word(i: u32) -> u32 {
    (i ^ 0x9E37_79B9).wrapping_mul(0x85EB_CA6B).rotate_left(i % 32)
}

/// Builds the program; if some kernel cannot run work groups that large,
/// rebuilds smaller. Gives the program, its kernels, the work-group size
/// used and the largest one every kernel can run.
fn build(
    context: &Context,
    device: &Device,
    mut work_group: usize,
    items: usize,
) -> anyhow::Result<(Program, Kernels, usize, usize)> {
    loop {
        let options = format!("-cl-std=CL1.2 -D WG={work_group} -D ITEMS={items}");
        let program = Program::builder()
            .src(PREFIX_SUM_CL)
            .src(MODIFIED9_CL)
            .devices(device)
            .cmplr_opt(options)
            .build(context)
            .context("OpenCL kernel build failed")?;
        let kernels = Kernels::new(&program).context("OpenCL kernels unusable")?;
        let fits = kernels.max_work_group(device).context("OpenCL kernel query failed")?;
        ensure!(fits > 0, "OpenCL kernels cannot run: no work-group size fits");
        if fits >= work_group {
            return Ok((program, kernels, work_group, fits));
        }
        work_group = prev_power_of_two(fits);
    }
}

/// The work-group size and items per work item to build with: given, or the
/// device's default, then shrunk to the device's local memory.
fn tile_for(device: &Device, device_type: &str, tile: Option<(usize, usize)>) -> (usize, usize) {
    let (work_group, mut items) = match tile {
        Some((wg, items)) => (wg.max(1).next_power_of_two(), items.max(1)),
        None => default_tile(device, device_type),
    };
    let local_mem = match device.info(DeviceInfo::LocalMemSize) {
        Ok(DeviceInfoResult::LocalMemSize(n)) => n as usize,
        _ => 32 << 10,
    };
    // ps_tiles needs TILE longs plus WG 128-bit sums of local memory.
    while items > 1 && work_group * items * 8 + work_group * 16 + 64 > local_mem {
        items /= 2;
    }
    (work_group, items)
}

fn compute_units(device: &Device) -> u32 {
    match device.info(DeviceInfo::MaxComputeUnits) {
        Ok(DeviceInfoResult::MaxComputeUnits(n)) => n,
        _ => 0,
    }
}

/// The platforms, asking the ICD loader directly first: ocl's own listing
/// retries for ten seconds when the loader finds no driver, and panics on
/// other errors.
fn platforms() -> anyhow::Result<Vec<Platform>> {
    let mut count: ocl::ffi::cl_uint = 0;
    let status = unsafe { ocl::ffi::clGetPlatformIDs(0, std::ptr::null_mut(), &mut count) };
    if status == CL_PLATFORM_NOT_FOUND_KHR || (status == 0 && count == 0) {
        bail!(
            "the ICD loader found no driver (see /etc/OpenCL/vendors, OCL_ICD_VENDORS; e.g. \
             install pocl-opencl-icd or a GPU vendor's ICD)"
        );
    }
    ensure!(status == 0, "clGetPlatformIDs failed with status {status}");
    Ok(Platform::list_from_core(core::get_platform_ids()?))
}

/// The names of the platforms the ICD loader finds (none on error).
pub(super) fn platform_names() -> Vec<String> {
    note_driver_started();
    platforms().map(|all| all.iter().map(platform_name).collect()).unwrap_or_default()
}

/// A GPU if any platform has one, else an accelerator, else any device.
fn best_device(platforms: &[Platform]) -> anyhow::Result<(Platform, Device)> {
    let mut best: Option<(u8, Platform, Device)> = None;
    for &platform in platforms {
        for device in Device::list_all(platform).unwrap_or_default() {
            if !matches!(device.info(DeviceInfo::Available), Ok(DeviceInfoResult::Available(true))) {
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
    let names: Vec<String> = platforms.iter().map(platform_name).collect();
    best.map(|(_, platform, device)| (platform, device))
        .ok_or_else(|| anyhow!("no OpenCL device available on platform(s): {}", names.join(", ")))
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

/// The probe's work, in the child process: the platforms, a context like
/// the one this process would make, and one launch of every kernel on a
/// tiny input, checked against the scalar core. Each step is reported
/// first, so that a driver that dies in it is caught in the act.
pub(super) fn launch_every_kernel(report: &Reporter) -> anyhow::Result<()> {
    report.stage("listing the OpenCL platforms");
    for name in platform_names() {
        report.platform(&name);
    }
    report.stage("building the program");
    let context = OpenClContext::new()?;
    for (group, kernels) in KERNEL_GROUPS {
        report.stage(&format!("the first launch of the {group} kernels ({})", kernels.join(", ")));
        context.run_group_once(group).with_context(|| format!("the {group} kernels failed"))?;
    }
    Ok(())
}
