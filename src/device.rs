//! A simulated GPU device, the library's way to run real kernels: allocate buffers in its
//! global memory, launch a kernel of a loaded code object on a grid with arguments, read
//! the buffers back — what a GPU runtime (HSA, OpenCL) does, on the CPU.
//!
//! ```no_run
//! use wavejit::device::{Arg, Device};
//! use wavejit::load::CodeObject;
//!
//! let code = CodeObject::from_file("vadd.hsaco".as_ref())?;
//! let mut dev = Device::new();
//! let n = 1000u32;
//! let a = dev.alloc_slice(&(0..n).collect::<Vec<u32>>())?;
//! let b = dev.alloc_slice(&vec![7u32; n as usize])?;
//! let c = dev.alloc_zeroed(4 * n as u64)?;
//! let stats = dev.launch(&code, "vadd", [n, 1, 1], [64, 1, 1],
//!                        &[Arg::Buffer(a), Arg::Buffer(b), Arg::Buffer(c), Arg::U32(n)])?;
//! let sums: Vec<u32> = dev.read_vec(c)?;
//! println!("{stats}");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```
//!
//! Memory layout: buffers from 4 GiB up (so kernels' 64-bit address arithmetic is
//! exercised), each followed by an unmapped 64 KiB guard gap, so a kernel that runs off a
//! buffer's end faults instead of reading its neighbour. The kernarg segment, the HSA
//! dispatch packet, the queue and the scratch regions live in their own mapped regions.

#![cfg_attr(not(test), deny(clippy::unwrap_used))]

use std::fmt;
use std::time::{Duration, Instant};

use wavejit_interp::ExecErrorKind;
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Memory, Space};
use wavejit_isa::Arch;

use crate::engine::{self, WaveEngine};
use crate::grid::{self, Dispatch, GridError, Scratch};
use crate::load::kd::UserSgpr;
use crate::load::{ArgMeta, CodeObject, Kernel, LoadError};
use crate::profile::{self, KernelProfile, ProfileFile, StaticFacts};
use wavejit_interp::profile::Profile;

/// Default bound on the device's mapped memory.
pub const DEFAULT_MEMORY_LIMIT: u64 = 8 << 30;
/// Largest scratch per work-item (the hardware's limit on GCN 1.2 is 8 MiB per wave).
const MAX_SCRATCH_PER_LANE: u32 = 128 << 10;
/// Extra scratch per work-item for a kernel with a dynamic stack.
const DYNAMIC_STACK_PER_LANE: u32 = 16 << 10;
/// An access this close to a buffer is reported as running off it.
const NEAR: u64 = 1 << 30;
/// Where buffers start.
const BUFFER_BASE: u64 = 0x1_0000_0000;
/// Unmapped bytes after each mapped region.
const GUARD: u64 = 0x1_0000;
/// Where the dispatch's system structures start (below the buffers).
const SYSTEM_BASE: u64 = 0x1000_0000;
/// Where the first code object is loaded: above every buffer (`map_region` keeps them
/// below it) and below 2^48, so that a buffer resource's 48-bit base reaches the object's
/// data. Each further object gets the next `LOAD_STRIDE` bytes.
pub const LOAD_BASE: u64 = 0x7000_0000_0000;
/// The address space of one loaded code object (its highest virtual address must fit).
const LOAD_STRIDE: u64 = 1 << 36;
/// How many code objects one device can load.
const MAX_OBJECTS: u64 = ((1 << 48) - LOAD_BASE) / LOAD_STRIDE;
/// Size of the `amd_queue_t` the queue pointer points at.
const QUEUE_BYTES: u64 = 256;
/// Offsets in `amd_queue_t` of the shared and private aperture bases (high halves).
const QUEUE_SHARED_APERTURE: u64 = 0x40;
const QUEUE_PRIVATE_APERTURE: u64 = 0x44;
/// Size of the HSA kernel dispatch packet.
const PACKET_BYTES: u64 = 64;

/// A buffer in the device's memory: a handle (copy it freely).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Buffer {
    pub addr: u64,
    pub len: u64,
}

/// A kernel argument, in the kernel's argument order.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A pointer argument: the buffer's address.
    Buffer(Buffer),
    /// A `__local` pointer argument: this many bytes of dynamic LDS per workgroup.
    Local(u32),
    U32(u32),
    I32(i32),
    U64(u64),
    I64(i64),
    F32(f32),
    F64(f64),
    /// Raw bytes of a by-value argument (a struct), exactly the argument's size.
    Bytes(Vec<u8>),
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Buffer(b) => write!(f, "a buffer of {} bytes", b.len),
            Arg::Local(n) => write!(f, "{n} bytes of local memory"),
            Arg::U32(v) => write!(f, "u32 {v}"),
            Arg::I32(v) => write!(f, "i32 {v}"),
            Arg::U64(v) => write!(f, "u64 {v}"),
            Arg::I64(v) => write!(f, "i64 {v}"),
            Arg::F32(v) => write!(f, "f32 {v}"),
            Arg::F64(v) => write!(f, "f64 {v}"),
            Arg::Bytes(b) => write!(f, "{} raw bytes", b.len()),
        }
    }
}

/// What a launch did.
#[derive(Clone, Debug)]
pub struct LaunchStats {
    pub kernel: String,
    pub engine: &'static str,
    pub threads: usize,
    pub workgroups: u64,
    pub waves: u64,
    pub insts: u64,
    pub elapsed: Duration,
    /// The engine's own report (a JIT: what it compiled so far).
    pub engine_report: Option<String>,
}

impl LaunchStats {
    /// Wave instructions per second.
    pub fn insts_per_sec(&self) -> f64 {
        self.insts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl fmt::Display for LaunchStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} workgroups, {} waves, {} instructions in {:.3} s ({:.2} M instructions/s; {} engine, {} threads)",
            self.kernel,
            self.workgroups,
            self.waves,
            self.insts,
            self.elapsed.as_secs_f64(),
            self.insts_per_sec() / 1e6,
            self.engine,
            self.threads
        )?;
        if let Some(r) = &self.engine_report {
            write!(f, "; {r}")?;
        }
        Ok(())
    }
}

/// Why a launch failed.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("kernel `{kernel}`: {msg}")]
    Args { kernel: String, msg: String },
    #[error("memory: {0}")]
    Memory(String),
    #[error("kernel `{kernel}`: {source}{}", hint.as_ref().map(|h| format!(" ({h})")).unwrap_or_default())]
    Run {
        kernel: String,
        source: GridError,
        hint: Option<String>,
    },
}

/// A named mapped region, for error messages.
#[derive(Clone, Debug)]
struct Named {
    buf: Buffer,
    what: String,
}

/// Scalars that can be stored in buffers (little-endian).
pub trait Scalar: Copy {
    const SIZE: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(b: &[u8]) -> Self;
}

macro_rules! scalar {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&b[..std::mem::size_of::<$t>()]);
                <$t>::from_le_bytes(a)
            }
        }
    )*};
}
scalar!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// Most host threads a device runs workgroups on.
pub const MAX_THREADS: usize = 1024;

/// Bytes `read_to` and `alloc_from_reader` move at a time.
const STREAM_CHUNK: u64 = 1 << 20;

/// The simulated device: its memory, engine and thread count.
pub struct Device {
    mem: Memory,
    exec: Box<dyn WaveEngine>,
    threads: usize,
    max_insts: u64,
    /// Bytes mapped so far, and the most that may be.
    mapped: u64,
    memory_limit: u64,
    next: u64,
    next_system: u64,
    named: Vec<Named>,
    buffers: usize,
    /// Code objects loaded so far: (fingerprint, whether its data is placed); the one at
    /// index `i` is loaded at `LOAD_BASE + i * LOAD_STRIDE`.
    loaded: Vec<(u64, bool)>,
    /// Reused between launches: (kernarg, packet, queue) regions and scratch slots.
    kernarg: Option<Buffer>,
    packet: Option<Buffer>,
    queue: Option<Buffer>,
    scratch: Vec<Buffer>,
    dispatch_id: u64,
    /// Bounds on each dispatch (`set_max_insts_total`, `set_time_limit`, `cancel_token`).
    max_insts_total: Option<u64>,
    time_limit: Option<std::time::Duration>,
    cancel: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Profile every launch (`set_profiling`); the launches' profiles so far.
    profiling: bool,
    profiles: Vec<KernelProfile>,
    /// The program of the last launch, decoded: a program launched again (a solver's
    /// steps) is not decoded again (decoding a code section costs as much as hundreds of
    /// its waves' dispatch).
    last_prog: Option<std::sync::Arc<Program>>,
}

impl Default for Device {
    fn default() -> Self {
        Device::new()
    }
}

impl Device {
    /// A device running the reference interpreter on every host core.
    pub fn new() -> Device {
        Device::with_exec(Box::new(engine::Interp))
    }

    /// A device running waves on `engine`.
    pub fn with_engine(engine: crate::Engine) -> Device {
        Device::with_exec(engine::for_engine(engine))
    }

    /// A device running waves with `exec`.
    pub fn with_exec(exec: Box<dyn WaveEngine>) -> Device {
        Device {
            mem: Memory::new(),
            exec,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_insts: grid::DEFAULT_MAX_INSTS,
            mapped: 0,
            memory_limit: DEFAULT_MEMORY_LIMIT,
            next: BUFFER_BASE,
            next_system: SYSTEM_BASE,
            named: Vec::new(),
            buffers: 0,
            loaded: Vec::new(),
            kernarg: None,
            packet: None,
            queue: None,
            scratch: Vec::new(),
            dispatch_id: 0,
            profiling: false,
            profiles: Vec::new(),
            last_prog: None,
            max_insts_total: None,
            time_limit: None,
            cancel: Default::default(),
        }
    }

    /// Most wave-instructions one launch may run in all (default: unbounded; each wave is
    /// still bounded by `set_max_insts_per_wave`). Checked between workgroups.
    pub fn set_max_insts_total(&mut self, n: Option<u64>) -> &mut Self {
        self.max_insts_total = n;
        self
    }

    /// Longest one launch may run (checked between workgroups).
    pub fn set_time_limit(&mut self, t: Option<std::time::Duration>) -> &mut Self {
        self.time_limit = t;
        self
    }

    /// A flag that stops the running (and every later) launch between workgroups when set,
    /// from any thread or a signal handler; clear it to launch again.
    pub fn cancel_token(&self) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
        self.cancel.clone()
    }

    /// Count profile events in every launch from now on (`crate::profile`): the same
    /// counts on every engine; the JIT counts in compiled code made for profiling.
    pub fn set_profiling(&mut self, on: bool) -> &mut Self {
        self.profiling = on;
        self
    }

    /// The profiles of the launches made while profiling, one per launch, oldest first.
    pub fn launch_profiles(&self) -> &[KernelProfile] {
        &self.profiles
    }

    /// The launches' profiles as one file (whole dispatch and per kernel), and forget them.
    pub fn take_profile(&mut self) -> ProfileFile {
        let f = ProfileFile::from_launches(&self.profiles);
        self.profiles.clear();
        f
    }

    /// Host threads that run workgroups (default: all cores), 1 to `MAX_THREADS`.
    pub fn set_threads(&mut self, n: usize) -> &mut Self {
        self.threads = n.clamp(1, MAX_THREADS);
        self
    }

    /// Instruction budget of each wave (default 100 million).
    /// The most bytes of global memory (buffers, kernarg, scratch) the device maps
    /// (default 8 GiB): a request past it is an error, not an exhausted host.
    pub fn set_memory_limit(&mut self, bytes: u64) -> &mut Self {
        self.memory_limit = bytes;
        self
    }

    pub fn set_max_insts_per_wave(&mut self, n: u64) -> &mut Self {
        self.max_insts = n;
        self
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The engine running the waves (its compile statistics, its report).
    pub fn engine(&self) -> &dyn WaveEngine {
        self.exec.as_ref()
    }

    /// The device's global memory.
    pub fn memory(&self) -> &Memory {
        &self.mem
    }

    /// Map `len` bytes (at least 1) 256-byte aligned in the system area (below the buffers,
    /// while it has room) or the buffer area, followed by an unmapped guard gap.
    fn map_region(&mut self, system: bool, len: u64, what: String) -> Result<Buffer, LaunchError> {
        let span = len.max(1).next_multiple_of(256).checked_add(GUARD);
        let fits_system = span
            .and_then(|s| self.next_system.next_multiple_of(256).checked_add(s))
            .is_some_and(|e| e <= BUFFER_BASE);
        let cursor = if system && fits_system {
            &mut self.next_system
        } else {
            &mut self.next
        };
        let addr = cursor.next_multiple_of(256);
        let end = span
            .and_then(|s| addr.checked_add(s))
            .filter(|&e| e <= LOAD_BASE);
        let end = end.ok_or_else(|| {
            LaunchError::Memory(format!("no address space left for {len} bytes ({what})"))
        })?;
        let total = self.mapped.saturating_add(len.max(1));
        if total > self.memory_limit {
            return Err(LaunchError::Memory(format!(
                "{len} bytes for {what} would bring the device's memory to {total} bytes, past its limit of {} (Device::set_memory_limit)",
                self.memory_limit
            )));
        }
        self.mem
            .map(addr, len.max(1))
            .map_err(|e| LaunchError::Memory(format!("cannot map {len} bytes for {what}: {e}")))?;
        self.mapped = total;
        *cursor = end;
        let buf = Buffer { addr, len };
        self.named.push(Named { buf, what });
        Ok(buf)
    }

    fn map_system(&mut self, len: u64, what: &str) -> Result<Buffer, LaunchError> {
        self.map_region(true, len, what.to_string())
    }

    /// A zero-filled buffer of `len` bytes.
    pub fn alloc_zeroed(&mut self, len: u64) -> Result<Buffer, LaunchError> {
        self.buffers += 1;
        let what = format!("buffer #{}", self.buffers);
        self.map_region(false, len, what)
    }

    /// A buffer holding `data`.
    pub fn alloc(&mut self, data: &[u8]) -> Result<Buffer, LaunchError> {
        let b = self.alloc_zeroed(data.len() as u64)?;
        self.write(b, data)?;
        Ok(b)
    }

    /// A buffer holding `data` as little-endian scalars.
    pub fn alloc_slice<T: Scalar>(&mut self, data: &[T]) -> Result<Buffer, LaunchError> {
        let mut bytes = Vec::with_capacity(data.len() * T::SIZE);
        for v in data {
            v.put(&mut bytes);
        }
        self.alloc(&bytes)
    }

    /// Give a buffer a name for error messages (e.g. the argument it is passed as).
    pub fn name_buffer(&mut self, b: Buffer, name: &str) {
        if let Some(n) = self.named.iter_mut().find(|n| n.buf == b) {
            n.what = name.to_string();
        }
    }

    /// Overwrite a buffer's first bytes.
    pub fn write(&self, b: Buffer, data: &[u8]) -> Result<(), LaunchError> {
        if data.len() as u64 > b.len {
            return Err(LaunchError::Memory(format!(
                "{} bytes do not fit a buffer of {}",
                data.len(),
                b.len
            )));
        }
        self.mem
            .write(b.addr, data)
            .map_err(|e| LaunchError::Memory(e.to_string()))
    }

    /// A buffer's bytes (allocated fallibly: a buffer the host cannot copy is an error).
    pub fn read(&self, b: Buffer) -> Result<Vec<u8>, LaunchError> {
        let len =
            usize::try_from(b.len).map_err(|_| LaunchError::Memory("buffer too large".into()))?;
        let mut out = Vec::new();
        out.try_reserve_exact(len).map_err(|_| {
            LaunchError::Memory(format!(
                "the host cannot allocate {len} bytes to copy a buffer out (Device::read_to streams it)"
            ))
        })?;
        out.resize(len, 0);
        if len > 0 {
            self.mem
                .read(b.addr, &mut out)
                .map_err(|e| LaunchError::Memory(e.to_string()))?;
        }
        Ok(out)
    }

    /// Write a buffer's bytes to `w` a chunk at a time (no copy of the whole buffer).
    pub fn read_to(&self, b: Buffer, w: &mut dyn std::io::Write) -> Result<(), LaunchError> {
        let mut chunk = vec![0u8; STREAM_CHUNK.min(b.len) as usize];
        let mut off = 0u64;
        while off < b.len {
            let n = (b.len - off).min(STREAM_CHUNK) as usize;
            self.mem
                .read(b.addr + off, &mut chunk[..n])
                .map_err(|e| LaunchError::Memory(e.to_string()))?;
            w.write_all(&chunk[..n])
                .map_err(|e| LaunchError::Memory(format!("writing a buffer out: {e}")))?;
            off += n as u64;
        }
        Ok(())
    }

    /// A buffer of `len` bytes filled from `r` a chunk at a time (no copy of the whole
    /// input); bytes `r` does not have stay zero. Reading more than `len` bytes is an error.
    pub fn alloc_from_reader(
        &mut self,
        len: u64,
        r: &mut dyn std::io::Read,
    ) -> Result<Buffer, LaunchError> {
        let b = self.alloc_zeroed(len)?;
        let mut chunk = vec![0u8; STREAM_CHUNK.min(len.max(1)) as usize];
        let mut off = 0u64;
        loop {
            let n = r
                .read(&mut chunk)
                .map_err(|e| LaunchError::Memory(format!("reading a buffer in: {e}")))?;
            if n == 0 {
                return Ok(b);
            }
            if off + n as u64 > len {
                return Err(LaunchError::Memory(format!(
                    "the input has more than the buffer's {len} bytes"
                )));
            }
            self.mem
                .write(b.addr + off, &chunk[..n])
                .map_err(|e| LaunchError::Memory(e.to_string()))?;
            off += n as u64;
        }
    }

    /// A buffer's contents as little-endian scalars (a trailing partial element is dropped).
    pub fn read_vec<T: Scalar>(&self, b: Buffer) -> Result<Vec<T>, LaunchError> {
        Ok(self.read(b)?.chunks_exact(T::SIZE).map(T::get).collect())
    }

    /// Launch `kernel` of `code` over `grid` work-items in workgroups of `block`, and wait.
    pub fn launch(
        &mut self,
        code: &CodeObject,
        kernel: &str,
        grid: [u32; 3],
        block: [u32; 3],
        args: &[Arg],
    ) -> Result<LaunchStats, LaunchError> {
        self.launch_with_progress(code, kernel, grid, block, args, None)
    }

    /// [`Device::launch`], calling `progress(workgroups_done)` as workgroups finish.
    pub fn launch_with_progress(
        &mut self,
        code: &CodeObject,
        kernel: &str,
        grid: [u32; 3],
        block: [u32; 3],
        args: &[Arg],
        progress: Option<&(dyn Fn(u64) + Sync)>,
    ) -> Result<LaunchStats, LaunchError> {
        let k = code.kernel(kernel)?;
        let args_err = |msg: String| LaunchError::Args {
            kernel: k.name.clone(),
            msg,
        };
        if k.code_relocations > 0 {
            return Err(args_err(format!(
                "its code section has {} unresolved relocations; link the object first (ld.lld -shared)",
                k.code_relocations
            )));
        }
        if grid.contains(&0) || block.contains(&0) {
            return Err(args_err(format!(
                "grid {grid:?} and block {block:?} must be at least 1 in every dimension"
            )));
        }
        let items: u64 = block.iter().map(|&b| b as u64).product();
        if items > 1024 {
            return Err(args_err(format!(
                "a workgroup of {items} work-items is more than the 1024 GCN allows"
            )));
        }
        let dims = if grid[2] > 1 || block[2] > 1 {
            3
        } else if grid[1] > 1 || block[1] > 1 {
            2
        } else {
            1
        };
        let fixed_lds = k.kd.group_segment_fixed_size;
        let layout = kernarg_image(k, args, grid, block, dims, fixed_lds).map_err(args_err)?;
        let lds_bytes = fixed_lds as u64 + layout.dynamic_lds as u64;
        if lds_bytes > wavejit_isa::state::Lds::MAX as u64 {
            return Err(args_err(format!(
                "needs {lds_bytes} bytes of LDS per workgroup; GCN has 64 KiB"
            )));
        }

        // System structures: kernarg segment, dispatch packet, queue.
        let kernarg = self.system_region(Slot::Kernarg, layout.bytes.len() as u64)?;
        self.mem
            .write(kernarg.addr, &vec![0u8; kernarg.len as usize])
            .map_err(|e| LaunchError::Memory(e.to_string()))?;
        self.mem
            .write(kernarg.addr, &layout.bytes)
            .map_err(|e| LaunchError::Memory(e.to_string()))?;
        let packet = self.system_region(Slot::Packet, PACKET_BYTES)?;
        let queue = self.system_region(Slot::Queue, QUEUE_BYTES)?;
        let mut q = vec![0u8; QUEUE_BYTES as usize];
        q[QUEUE_SHARED_APERTURE as usize..][..4]
            .copy_from_slice(&grid::SHARED_APERTURE_HI.to_le_bytes());
        q[QUEUE_PRIVATE_APERTURE as usize..][..4]
            .copy_from_slice(&grid::PRIVATE_APERTURE_HI.to_le_bytes());
        self.mem
            .write(queue.addr, &q)
            .map_err(|e| LaunchError::Memory(e.to_string()))?;

        // Scratch: one region per worker thread, each for one workgroup's waves.
        if k.kd.private_segment_fixed_size > MAX_SCRATCH_PER_LANE {
            return Err(args_err(format!(
                "asks for {} bytes of scratch per work-item; wavejit gives at most {MAX_SCRATCH_PER_LANE}",
                k.kd.private_segment_fixed_size
            )));
        }
        // A dynamic stack has no size in the object: add a fixed allowance (wavejit's
        // choice, documented in examples/opencl/README.md).
        let dynamic = if k.kd.uses_dynamic_stack() {
            DYNAMIC_STACK_PER_LANE
        } else {
            0
        };
        let per_lane = (k.kd.private_segment_fixed_size + dynamic).next_multiple_of(4);
        let wants_scratch = k.kd.private_segment()
            || per_lane > 0
            || k.kd.enables(UserSgpr::PrivateSegmentBuffer)
            || k.kd.enables(UserSgpr::FlatScratchInit);
        let block_items = block.iter().map(|&b| b as u64).product::<u64>();
        // Host workers that can be busy: no more than the workgroups, nor than the engine runs.
        let groups: u64 = (0..3)
            .map(|i| grid[i].div_ceil(block[i]) as u64)
            .fold(1u64, u64::saturating_mul);
        let workers = (self.threads as u64)
            .min(groups)
            .min(self.exec.max_threads().unwrap_or(usize::MAX) as u64)
            .max(1) as usize;
        let waves_per_group = block_items.div_ceil(64);
        let scratch = if wants_scratch {
            let need = (waves_per_group * per_lane as u64 * 64).max(256);
            Some(Scratch {
                per_lane,
                slots: self.scratch_slots(need, workers)?,
            })
        } else {
            None
        };

        let mut d = Dispatch {
            gen: code.gen,
            kd: k.kd,
            entry: k.entry,
            // Set below, once the code is loaded.
            code_base: 0,
            grid,
            block,
            kernarg: kernarg.addr,
            dispatch_packet: packet.addr,
            queue: queue.addr,
            dispatch_id: self.dispatch_id,
            lds_bytes: lds_bytes as u32,
            scratch,
            max_insts_per_wave: self.max_insts,
            limits: grid::Limits {
                max_insts: self.max_insts_total,
                deadline: self.time_limit.and_then(|t| Instant::now().checked_add(t)),
                cancel: Some(self.cancel.clone()),
            },
        };
        self.dispatch_id += 1;
        self.mem
            .write(
                packet.addr,
                &dispatch_packet(&d, dims, per_lane, lds_bytes as u32, kernarg.addr),
            )
            .map_err(|e| LaunchError::Memory(e.to_string()))?;

        // The program is the whole code section and the waves start at the kernel's entry:
        // a call may reach a function placed anywhere in it (before the entry too, as
        // clang places `noinline` helpers), and kernels of one object share compiled code.
        let arch = Arch::Gcn(code.gen);
        let prog = match &self.last_prog {
            Some(p) if p.arch == arch && p.code[..] == k.code[..] => p.clone(),
            _ => {
                let p = std::sync::Arc::new(Program::new(arch, &k.code));
                self.last_prog = Some(p.clone());
                p
            }
        };
        d.code_base = self.load_object(code, k, uses_getpc(&prog))?;
        let t0 = Instant::now();
        let mut counts = self.profiling.then(|| Profile::for_program(&prog));
        let r = match counts.as_mut() {
            Some(c) => grid::run_profiled(
                &d,
                &prog,
                &self.mem,
                self.exec.as_ref(),
                self.threads,
                progress,
                c,
            ),
            None => grid::run(
                &d,
                &prog,
                &self.mem,
                self.exec.as_ref(),
                self.threads,
                progress,
            ),
        };
        let elapsed = t0.elapsed();
        // Compiled code is valid whatever the kernel did: keep it for the next process.
        self.exec.save_code_cache();
        let s = r.map_err(|e| {
            let hint = self.fault_hint(&e);
            LaunchError::Run {
                kernel: k.name.clone(),
                source: e,
                hint,
            }
        })?;
        if let Some(c) = &counts {
            self.profiles.push(KernelProfile::build(profile::Run {
                kernel: &k.name,
                gen: code.gen,
                engine: self.exec.name(),
                prog: &prog,
                counts: c,
                waves: s.waves,
                barriers: s.barriers,
                barrier_waves: s.barrier_waves,
                static_facts: Some(StaticFacts::of(
                    code.gen,
                    &k.kd,
                    lds_bytes as u32,
                    waves_per_group as u32,
                )),
            }));
        }
        Ok(LaunchStats {
            kernel: k.name.clone(),
            engine: self.exec.name(),
            threads: self
                .threads
                .min(self.exec.max_threads().unwrap_or(usize::MAX)),
            workgroups: s.workgroups,
            waves: s.waves,
            insts: s.insts,
            elapsed,
            engine_report: self.exec.report(),
        })
    }

    fn system_region(&mut self, which: Slot, len: u64) -> Result<Buffer, LaunchError> {
        let cur = match which {
            Slot::Kernarg => self.kernarg,
            Slot::Packet => self.packet,
            Slot::Queue => self.queue,
        };
        if let Some(b) = cur.filter(|b| b.len >= len) {
            return Ok(b);
        }
        let (len, what) = match which {
            Slot::Kernarg => (len.next_multiple_of(256), "the kernarg segment"),
            Slot::Packet => (len, "the dispatch packet"),
            Slot::Queue => (len, "the queue"),
        };
        let b = self.map_system(len, what)?;
        match which {
            Slot::Kernarg => self.kernarg = Some(b),
            Slot::Packet => self.packet = Some(b),
            Slot::Queue => self.queue = Some(b),
        }
        Ok(b)
    }

    /// One scratch region of `need` bytes per host worker that will run (`workers`).
    fn scratch_slots(&mut self, need: u64, workers: usize) -> Result<Vec<u64>, LaunchError> {
        if self.scratch.len() < workers || self.scratch.iter().any(|b| b.len < need) {
            // The old regions stay mapped (the device keeps its address space simple),
            // but they no longer count against the limit twice over: reuse when possible.
            let mut v = Vec::new();
            v.try_reserve_exact(workers).map_err(|_| {
                LaunchError::Memory(format!("no host memory for {workers} workers"))
            })?;
            for i in 0..workers {
                v.push(self.map_system(need, &format!("scratch of worker {i}"))?);
            }
            self.scratch = v;
        }
        Ok(self.scratch.iter().take(workers).map(|b| b.addr).collect())
    }

    /// For an out-of-bounds global access: which region it missed, and by how much.
    fn fault_hint(&self, e: &GridError) -> Option<String> {
        let GridError::Exec { err, .. } = e else {
            return None;
        };
        let ExecErrorKind::OutOfBounds {
            space: Space::Global | Space::Constant,
            addr,
            size,
            ..
        } = err.kind
        else {
            return None;
        };
        let distance = |n: &Named| {
            let (a, e) = (n.buf.addr, n.buf.addr.saturating_add(n.buf.len));
            if addr < a {
                a - addr
            } else {
                addr.saturating_sub(e)
            }
        };
        let near = self
            .named
            .iter()
            .min_by_key(|n| distance(n))
            .filter(|n| distance(n) < NEAR);
        let Some(near) = near else {
            return Some(format!(
                "0x{addr:x} is not near any buffer: a null or garbage pointer, a runtime service \
                 wavejit does not provide (printf, hostcall, device enqueue), or data the kernel \
                 addresses relative to its code that the object does not have"
            ));
        };
        let (a, end) = (near.buf.addr, near.buf.addr.saturating_add(near.buf.len));
        Some(if addr >= end {
            format!(
                "the {size}-byte access at 0x{addr:x} is {} bytes past the end of {} [0x{a:x}, 0x{end:x})",
                addr - end,
                near.what
            )
        } else if addr < a {
            format!(
                "the access at 0x{addr:x} is {} bytes before {} [0x{a:x}, 0x{end:x})",
                a - addr,
                near.what
            )
        } else {
            format!(
                "the {size}-byte access at 0x{addr:x} runs past the end of {} [0x{a:x}, 0x{end:x})",
                near.what
            )
        })
    }

    /// Load the code object `code` (which holds `k`) the way a runtime does: at a load
    /// base of its own, the code section at base + its virtual address and, if `data`, the
    /// data segments at base + theirs, with each `R_AMDGPU_RELATIVE64` pointer set to base +
    /// addend. Returns the address of the code section's first byte (the program's pc 0,
    /// what `s_getpc_b64` counts from). An object is loaded once; later kernels of it reuse
    /// its base and data, like a runtime's loaded globals.
    fn load_object(
        &mut self,
        code: &CodeObject,
        k: &Kernel,
        data: bool,
    ) -> Result<u64, LaunchError> {
        // The section's virtual address (0 in a relocatable object, which has none).
        let section = k
            .entry_vaddr
            .and_then(|e| e.checked_sub(k.entry as u64))
            .unwrap_or(0);
        let key = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            section.hash(&mut h);
            k.code.hash(&mut h);
            code.data_segments.hash(&mut h);
            h.finish()
        };
        let i = match self.loaded.iter().position(|&(f, _)| f == key) {
            Some(i) => i,
            None if (self.loaded.len() as u64) < MAX_OBJECTS => {
                self.loaded.push((key, false));
                self.loaded.len() - 1
            }
            None => {
                return Err(LaunchError::Memory(format!(
                    "a device loads at most {MAX_OBJECTS} code objects (launch this one on a new Device)"
                )))
            }
        };
        let base = LOAD_BASE + i as u64 * LOAD_STRIDE;
        let fits = |vaddr: u64, len: u64| vaddr.checked_add(len).is_some_and(|e| e <= LOAD_STRIDE);
        if !fits(section, k.code.len() as u64) {
            return Err(LaunchError::Memory(format!(
                "the code section at 0x{section:x} lies past the {LOAD_STRIDE}-byte address space of a code object"
            )));
        }
        if !data || self.loaded[i].1 {
            return Ok(base + section);
        }
        for seg in &code.data_segments {
            let what = format!("the code object's data at 0x{:x}", seg.vaddr);
            if !fits(seg.vaddr, seg.memsz) {
                return Err(LaunchError::Memory(format!(
                    "{what} ({} bytes) lies past the {LOAD_STRIDE}-byte address space of a code object",
                    seg.memsz
                )));
            }
            let at = base + seg.vaddr;
            let total = self.mapped.saturating_add(seg.memsz);
            if total > self.memory_limit {
                return Err(LaunchError::Memory(format!(
                    "{what} would pass the device's memory limit"
                )));
            }
            self.mem
                .map(at, seg.memsz)
                .map_err(|e| LaunchError::Memory(format!("{what}: {e}")))?;
            self.mapped = total;
            self.mem
                .write(at, &seg.bytes)
                .map_err(|e| LaunchError::Memory(e.to_string()))?;
            // Pointers between the object's data: virtual address A is loaded at base + A.
            for &(off, addend) in &seg.relative {
                self.mem
                    .write(at + off, &base.wrapping_add(addend).to_le_bytes())
                    .map_err(|e| LaunchError::Memory(e.to_string()))?;
            }
            self.named.push(Named {
                buf: Buffer {
                    addr: at,
                    len: seg.memsz,
                },
                what,
            });
        }
        self.loaded[i].1 = true;
        Ok(base + section)
    }
}

#[derive(Clone, Copy)]
enum Slot {
    Kernarg,
    Packet,
    Queue,
}

/// Whether the program reads its own address (to reach data next to its code, or to call).
fn uses_getpc(prog: &Program) -> bool {
    prog.slots.iter().any(|s| {
        matches!(&s.inst, Ok(wavejit_isa::ir::Inst::Gcn(i)) if i.op == wavejit_isa::gcn::Op::SGetpcB64)
    })
}

/// The kernarg segment of a launch.
struct KernargImage {
    bytes: Vec<u8>,
    dynamic_lds: u32,
}

/// The bytes of one user argument for `meta` (size and kind checked).
/// What an OpenCL scalar type holds, from the metadata's type name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScalarKind {
    Int,
    Float,
}

fn scalar_class(meta: &ArgMeta) -> Option<ScalarKind> {
    let t = meta.type_name.as_deref()?.trim();
    match t {
        "float" | "double" | "half" => Some(ScalarKind::Float),
        "char" | "uchar" | "short" | "ushort" | "int" | "uint" | "long" | "ulong" | "bool"
        | "size_t" | "unsigned char" | "unsigned short" | "unsigned int" | "unsigned long" => {
            Some(ScalarKind::Int)
        }
        _ => None,
    }
}

fn arg_bytes(a: &Arg, meta: &ArgMeta, what: &str) -> Result<Vec<u8>, String> {
    let size = meta.size as usize;
    let kind = meta.value_kind.as_str();
    let mismatch = || format!("{what} takes {size} bytes ({kind}), but {a} was given");
    let int = |v: i128| -> Result<Vec<u8>, String> {
        let fits = match size {
            1 => (i8::MIN as i128..=u8::MAX as i128).contains(&v),
            2 => (i16::MIN as i128..=u16::MAX as i128).contains(&v),
            4 => (i32::MIN as i128..=u32::MAX as i128).contains(&v),
            8 => (i64::MIN as i128..=u64::MAX as i128).contains(&v),
            _ => false,
        };
        if fits {
            Ok(v.to_le_bytes()[..size].to_vec())
        } else {
            Err(format!("{what} takes {size} bytes, and {a} does not fit"))
        }
    };
    match kind {
        "global_buffer" => match a {
            Arg::Buffer(b) => Ok(b.addr.to_le_bytes()[..size.min(8)].to_vec()),
            Arg::U64(v) if size == 8 => Ok(v.to_le_bytes().to_vec()),
            _ => Err(format!("{what} is a pointer to global memory; give it a buffer (in:, out:, inout:), not {a}")),
        },
        "by_value" if scalar_class(meta) == Some(ScalarKind::Int) && matches!(a, Arg::F32(_) | Arg::F64(_)) => Err(format!(
            "{what} is an integer ({}); give it u32:, i32:, u64: or i64:, not {a}",
            meta.type_name.as_deref().unwrap_or("")
        )),
        "by_value" if scalar_class(meta) == Some(ScalarKind::Float) && matches!(a, Arg::U32(_) | Arg::I32(_) | Arg::U64(_) | Arg::I64(_)) => Err(format!(
            "{what} is a float ({}); give it f32: or f64:, not {a}",
            meta.type_name.as_deref().unwrap_or("")
        )),
        "by_value" => match a {
            Arg::U32(v) if size <= 4 => int(*v as i128),
            Arg::I32(v) if size <= 4 => int(*v as i128),
            Arg::U64(v) if size == 8 => int(*v as i128),
            Arg::I64(v) if size == 8 => int(*v as i128),
            Arg::F32(v) if size == 4 => Ok(v.to_le_bytes().to_vec()),
            Arg::F64(v) if size == 8 => Ok(v.to_le_bytes().to_vec()),
            Arg::Bytes(b) if b.len() == size => Ok(b.clone()),
            Arg::Buffer(_) => Err(format!("{what} is a {size}-byte value, not a pointer; give it a scalar (u32:, f32:, …)")),
            _ => Err(mismatch()),
        },
        other => Err(format!("{what} has kind `{other}`, which wavejit cannot pass")),
    }
}

/// Lay out the kernarg segment: user arguments from `args` (in order), hidden arguments
/// from the launch geometry, dynamic LDS offsets for `__local` pointers.
fn kernarg_image(
    k: &Kernel,
    args: &[Arg],
    grid: [u32; 3],
    block: [u32; 3],
    dims: u16,
    fixed_lds: u32,
) -> Result<KernargImage, String> {
    let Some(meta) = &k.meta else {
        return raw_kernarg_image(k, args);
    };
    let size = meta
        .args
        .iter()
        .map(|a| a.offset as u64 + a.size as u64)
        .chain([meta.kernarg_segment_size as u64, k.kd.kernarg_size as u64])
        .max()
        .unwrap_or(0);
    if size > 1 << 20 {
        return Err(format!("a kernarg segment of {size} bytes is implausible"));
    }
    let mut bytes = vec![0u8; size as usize];
    let user: Vec<(usize, &ArgMeta)> = meta
        .args
        .iter()
        .enumerate()
        .filter(|(_, a)| !a.is_hidden())
        .collect();
    if user.len() != args.len() {
        let list: Vec<String> = user.iter().map(|(i, a)| a.describe(*i)).collect();
        return Err(format!(
            "takes {} arguments, {} given; the kernel's arguments are: {}",
            user.len(),
            args.len(),
            if list.is_empty() {
                "none".to_string()
            } else {
                list.join(", ")
            }
        ));
    }
    let mut lds = fixed_lds;
    for ((i, m), a) in user.iter().zip(args) {
        let what = m.describe(*i);
        let v = if m.value_kind == "dynamic_shared_pointer" {
            let Arg::Local(n) = a else {
                return Err(format!(
                    "{what} is a __local pointer; give it a size (local:BYTES), not {a}"
                ));
            };
            // Align each dynamic block to 16 bytes (the largest natural alignment of a
            // vector element a kernel can ask for below that).
            let at = lds.next_multiple_of(16);
            lds = at
                .checked_add(*n)
                .filter(|&e| e as usize <= wavejit_isa::state::Lds::MAX)
                .ok_or_else(|| {
                    format!("{what}: {n} bytes of local memory do not fit the 64 KiB LDS")
                })?;
            at.to_le_bytes()[..(m.size as usize).min(4)].to_vec()
        } else {
            arg_bytes(a, m, &what)?
        };
        put(&mut bytes, m.offset, &v);
    }
    let dynamic_lds = lds - fixed_lds;
    let groups = [0, 1, 2].map(|d| grid[d].div_ceil(block[d]));
    for m in meta.args.iter().filter(|a| a.is_hidden()) {
        let kind = m.value_kind.as_str();
        let axis = |s: &str| -> Option<usize> {
            kind.strip_prefix(s)
                .and_then(|r| ["x", "y", "z"].iter().position(|a| *a == r))
        };
        let v: u64 = if let Some(d) = axis("hidden_block_count_") {
            groups[d] as u64
        } else if let Some(d) = axis("hidden_group_size_") {
            block[d] as u64
        } else if let Some(d) = axis("hidden_remainder_") {
            (grid[d] % block[d]) as u64
        } else if axis("hidden_global_offset_").is_some() {
            0
        } else {
            match kind {
                "hidden_grid_dims" => dims as u64,
                "hidden_dynamic_lds_size" => dynamic_lds as u64,
                "hidden_private_base" => grid::PRIVATE_APERTURE_HI as u64,
                "hidden_shared_base" => grid::SHARED_APERTURE_HI as u64,
                // Services wavejit does not provide (printf, hostcall, device enqueue,
                // multigrid sync, heap, queue, …) get a null pointer: a kernel that uses one
                // faults at address 0 with a clear out-of-bounds error.
                _ => 0,
            }
        };
        let n = (m.size as usize).min(8);
        put(&mut bytes, m.offset, &v.to_le_bytes()[..n]);
    }
    Ok(KernargImage { bytes, dynamic_lds })
}

/// Without a metadata note (hand-written assembly): user arguments packed in order at their
/// natural alignment, no hidden arguments.
fn raw_kernarg_image(k: &Kernel, args: &[Arg]) -> Result<KernargImage, String> {
    let mut bytes = Vec::new();
    for a in args {
        let (v, align): (Vec<u8>, usize) = match a {
            Arg::Buffer(b) => (b.addr.to_le_bytes().to_vec(), 8),
            Arg::U32(v) => (v.to_le_bytes().to_vec(), 4),
            Arg::I32(v) => (v.to_le_bytes().to_vec(), 4),
            Arg::F32(v) => (v.to_le_bytes().to_vec(), 4),
            Arg::U64(v) => (v.to_le_bytes().to_vec(), 8),
            Arg::I64(v) => (v.to_le_bytes().to_vec(), 8),
            Arg::F64(v) => (v.to_le_bytes().to_vec(), 8),
            Arg::Bytes(b) => (b.clone(), 8),
            Arg::Local(_) => {
                return Err("without a metadata note, __local arguments cannot be placed".into())
            }
        };
        bytes.resize(bytes.len().next_multiple_of(align), 0);
        bytes.extend_from_slice(&v);
    }
    let size = k.kd.kernarg_size as usize;
    if bytes.len() > size {
        return Err(format!(
            "the arguments take {} bytes, but the kernel descriptor's kernarg segment has {size} (no metadata note says more)",
            bytes.len()
        ));
    }
    bytes.resize(size, 0);
    Ok(KernargImage {
        bytes,
        dynamic_lds: 0,
    })
}

fn put(bytes: &mut [u8], offset: u32, v: &[u8]) {
    let o = offset as usize;
    if let Some(dst) = bytes.get_mut(o..o + v.len()) {
        dst.copy_from_slice(v);
    }
}

/// The HSA kernel dispatch packet (64 bytes): header, setup (dimensions), workgroup size,
/// grid size, private and group segment sizes, kernel object, kernarg address.
fn dispatch_packet(d: &Dispatch, dims: u16, per_lane: u32, lds: u32, kernarg: u64) -> [u8; 64] {
    let mut p = [0u8; 64];
    // Header: HSA_PACKET_TYPE_KERNEL_DISPATCH (2), barrier bit, system-scope fences.
    let header: u16 = 2 | 1 << 8 | 2 << 9 | 2 << 11;
    p[0..2].copy_from_slice(&header.to_le_bytes());
    p[2..4].copy_from_slice(&dims.to_le_bytes());
    for dim in 0..3 {
        p[4 + 2 * dim..6 + 2 * dim].copy_from_slice(&(d.block[dim] as u16).to_le_bytes());
        p[12 + 4 * dim..16 + 4 * dim].copy_from_slice(&d.grid[dim].to_le_bytes());
    }
    p[24..28].copy_from_slice(&per_lane.to_le_bytes());
    p[28..32].copy_from_slice(&lds.to_le_bytes());
    p[40..48].copy_from_slice(&kernarg.to_le_bytes());
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::kd::KernelDescriptor;
    use crate::load::KernelMeta;

    fn arg(offset: u32, size: u32, kind: &str) -> ArgMeta {
        ArgMeta {
            offset,
            size,
            value_kind: kind.into(),
            ..ArgMeta::default()
        }
    }

    fn kernel(args: Vec<ArgMeta>, size: u32) -> Kernel {
        Kernel {
            name: "k".into(),
            kd: KernelDescriptor::parse(&[0; 64]).unwrap(),
            meta: Some(KernelMeta {
                name: "k".into(),
                symbol: "k.kd".into(),
                args,
                kernarg_segment_size: size,
                ..KernelMeta::default()
            }),
            code: std::sync::Arc::from(vec![0u8; 4]),
            entry: 0,
            code_relocations: 0,
            entry_vaddr: None,
        }
    }

    fn word(b: &[u8], at: usize, n: usize) -> u64 {
        let mut v = [0u8; 8];
        v[..n].copy_from_slice(&b[at..at + n]);
        u64::from_le_bytes(v)
    }

    #[test]
    fn kernarg_layout_and_hidden_arguments() {
        let k = kernel(
            vec![
                arg(0, 8, "global_buffer"),
                arg(8, 4, "dynamic_shared_pointer"),
                arg(12, 2, "by_value"),
                arg(16, 8, "by_value"),
                arg(24, 4, "dynamic_shared_pointer"),
                arg(32, 4, "hidden_block_count_x"),
                arg(36, 4, "hidden_block_count_y"),
                arg(40, 4, "hidden_block_count_z"),
                arg(44, 2, "hidden_group_size_x"),
                arg(46, 2, "hidden_group_size_y"),
                arg(48, 2, "hidden_group_size_z"),
                arg(50, 2, "hidden_remainder_x"),
                arg(52, 2, "hidden_remainder_y"),
                arg(54, 2, "hidden_remainder_z"),
                arg(72, 8, "hidden_global_offset_x"),
                arg(96, 2, "hidden_grid_dims"),
                arg(100, 4, "hidden_dynamic_lds_size"),
                arg(104, 8, "hidden_printf_buffer"),
                arg(224, 4, "hidden_private_base"),
                arg(228, 4, "hidden_shared_base"),
            ],
            288,
        );
        let buf = Buffer {
            addr: 0x1_2345_6700,
            len: 64,
        };
        let args = [
            Arg::Buffer(buf),
            Arg::Local(100),
            Arg::I32(-2),
            Arg::F64(1.5),
            Arg::Local(8),
        ];
        // Grid 1000 x 7 x 1 in blocks of 64 x 2 x 1, fixed LDS 40 bytes.
        let img = kernarg_image(&k, &args, [1000, 7, 1], [64, 2, 1], 2, 40).unwrap();
        let b = &img.bytes;
        assert_eq!(b.len(), 288);
        assert_eq!(word(b, 0, 8), 0x1_2345_6700);
        // Dynamic LDS: the first block at 48 (40 rounded up to 16), 100 bytes; the second at
        // 160 (148 rounded up), 8 bytes: 168 - 40 = 128 dynamic bytes.
        assert_eq!(word(b, 8, 4), 48);
        assert_eq!(word(b, 12, 2), 0xfffe);
        assert_eq!(word(b, 16, 8), 1.5f64.to_bits());
        assert_eq!(word(b, 24, 4), 160);
        assert_eq!(img.dynamic_lds, 128);
        assert_eq!(
            [word(b, 32, 4), word(b, 36, 4), word(b, 40, 4)],
            [16, 4, 1],
            "ceil(1000/64), ceil(7/2), 1"
        );
        assert_eq!([word(b, 44, 2), word(b, 46, 2), word(b, 48, 2)], [64, 2, 1]);
        assert_eq!(
            [word(b, 50, 2), word(b, 52, 2), word(b, 54, 2)],
            [1000 % 64, 1, 0]
        );
        assert_eq!(word(b, 72, 8), 0);
        assert_eq!(word(b, 96, 2), 2);
        assert_eq!(word(b, 100, 4), 128);
        assert_eq!(word(b, 104, 8), 0, "no printf buffer");
        assert_eq!(word(b, 224, 4), grid::PRIVATE_APERTURE_HI as u64);
        assert_eq!(word(b, 228, 4), grid::SHARED_APERTURE_HI as u64);
    }

    #[test]
    fn kernarg_argument_errors() {
        let k = kernel(
            vec![
                arg(0, 8, "global_buffer"),
                arg(8, 4, "by_value"),
                arg(16, 1, "by_value"),
                arg(24, 8, "image"),
            ],
            32,
        );
        let buf = Arg::Buffer(Buffer {
            addr: 0x1000,
            len: 4,
        });
        let e = |args: &[Arg]| {
            kernarg_image(&k, args, [1; 3], [1; 3], 1, 0)
                .err()
                .unwrap_or_default()
        };
        assert!(e(std::slice::from_ref(&buf)).contains("takes 4 arguments, 1 given"));
        assert!(e(&[Arg::U32(1), Arg::U32(1), Arg::U32(1), Arg::U32(1)]).contains("pointer"));
        assert!(e(&[buf.clone(), Arg::U64(1), Arg::U32(1), Arg::U32(1)]).contains("takes 4 bytes"));
        assert!(e(&[buf.clone(), Arg::U32(1), Arg::U32(256), Arg::U32(1)]).contains("does not fit"));
        assert!(e(&[buf.clone(), Arg::U32(1), Arg::I32(-128), Arg::U32(1)]).contains("image"));
        assert!(
            e(&[buf.clone(), Arg::Local(4), Arg::U32(1), Arg::U32(1)]).contains("takes 4 bytes")
        );
    }

    #[test]
    fn raw_layout_without_metadata() {
        let mut k = kernel(vec![], 0);
        k.meta = None;
        let mut kd = [0u8; 64];
        kd[8..12].copy_from_slice(&24u32.to_le_bytes());
        k.kd = KernelDescriptor::parse(&kd).unwrap();
        let img = kernarg_image(
            &k,
            &[Arg::U32(7), Arg::U64(0x1122_3344_5566_7788), Arg::F32(2.0)],
            [1; 3],
            [1; 3],
            1,
            0,
        )
        .unwrap();
        assert_eq!(word(&img.bytes, 0, 4), 7);
        assert_eq!(
            word(&img.bytes, 8, 8),
            0x1122_3344_5566_7788,
            "aligned to 8"
        );
        assert_eq!(word(&img.bytes, 16, 4), 2.0f32.to_bits() as u64);
        assert_eq!(img.bytes.len(), 24);
        // Four u64 take 32 bytes; the descriptor gives 24.
        let Err(e) = kernarg_image(
            &k,
            &[Arg::U64(1), Arg::U64(2), Arg::U64(3), Arg::U64(4)],
            [1; 3],
            [1; 3],
            1,
            0,
        ) else {
            panic!("32 bytes of arguments in 24");
        };
        assert!(
            e.starts_with(
                "the arguments take 32 bytes, but the kernel descriptor's kernarg segment has 24"
            ),
            "{e}"
        );
    }

    #[test]
    fn dispatch_packet_fields() {
        let d = Dispatch {
            gen: wavejit_isa::Gen::Gfx8,
            kd: KernelDescriptor::parse(&[0; 64]).unwrap(),
            entry: 0,
            code_base: 0,
            grid: [1000, 7, 3],
            block: [64, 2, 1],
            kernarg: 0,
            dispatch_packet: 0,
            queue: 0,
            dispatch_id: 0,
            lds_bytes: 0,
            scratch: None,
            max_insts_per_wave: 1,
            limits: grid::Limits::default(),
        };
        let p = dispatch_packet(&d, 3, 16, 2048, 0xabcd_0000);
        // hsa_kernel_dispatch_packet_t: header u16, setup u16, workgroup_size_x/y/z u16 at
        // 4/6/8, grid_size_x/y/z u32 at 12/16/20, private/group segment size at 24/28,
        // kernel_object at 32, kernarg_address at 40.
        assert_eq!(word(&p, 0, 2) & 0xff, 2, "HSA_PACKET_TYPE_KERNEL_DISPATCH");
        assert_eq!(word(&p, 2, 2), 3);
        assert_eq!([word(&p, 4, 2), word(&p, 6, 2), word(&p, 8, 2)], [64, 2, 1]);
        assert_eq!(
            [word(&p, 12, 4), word(&p, 16, 4), word(&p, 20, 4)],
            [1000, 7, 3]
        );
        assert_eq!([word(&p, 24, 4), word(&p, 28, 4)], [16, 2048]);
        assert_eq!(word(&p, 40, 8), 0xabcd_0000);
    }
}
