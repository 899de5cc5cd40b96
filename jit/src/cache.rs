//! The code cache: compiled blocks of every program this `Jit` has seen, keyed by
//! (generation, code bytes) → per entry pc → (MODE, EXEC all ones or general).
//!
//! A program's table of `EntrySlot`s (one per dword of code) is what both the dispatcher
//! and compiled code read to find a block: a chained exit of a block loads its
//! successor's slot (the slot's address is a constant in the code) and tail-calls the
//! function there. Slots are atomics, so waves on several threads can share one cache
//! while one of them compiles.
//!
//! Code is freed only a whole epoch at a time: all modules and all programs' tables are
//! dropped together when the cache is over its size bound and the caller hands us
//! exclusive access (`Jit::flush_if_full`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Instant;

use cranelift_codegen::ir::{types, InstBuilder, UserFuncName};
use cranelift_frontend::FunctionBuilder;
use wavejit_interp::threaded::Block as ThreadedBlock;
use wavejit_isa::arch::Arch;
use wavejit_isa::ir::Program;
use wavejit_isa::state::Wave;

use crate::backend::{Backend, BackendOpts};
use crate::ctx::JitCtx;
use crate::disk::{DiskCache, Loaded, StoredUnit};
use crate::error::JitError;

/// `EntrySlot::mode` when nothing is compiled there.
pub const NO_MODE: u32 = u32::MAX;

/// The compiled variants of the block starting at one pc.
#[repr(C)]
#[derive(Debug, Default)]
pub struct EntrySlot {
    /// Code compiled for EXEC = all ones (no lane masking) at `mode`; 0 if none.
    pub full: AtomicUsize,
    /// Code for any EXEC, at `mode`; 0 if none.
    pub masked: AtomicUsize,
    /// The MODE register value both variants were specialised on (`NO_MODE`: none).
    pub mode: AtomicU32,
    /// How often the dispatcher entered this pc (tiering: compile at the threshold).
    pub hits: AtomicU32,
    /// Set when compiling this pc failed or is pointless: stay in the interpreter.
    pub never: AtomicU32,
    /// Entries into quick-tier code of the `full` and `masked` variants (the code counts
    /// them itself, at its header: loops count every iteration) until it asks for its
    /// optimised version (`ctx::EXIT_HOT_FULL`).
    pub warm_full: AtomicU32,
    pub warm_masked: AtomicU32,
}

crate::ctx::field_offsets!(EntrySlot {
    SLOT_OFF_FULL: full,
    SLOT_OFF_MASKED: masked,
    SLOT_OFF_MODE: mode,
    SLOT_OFF_WARM_FULL: warm_full,
    SLOT_OFF_WARM_MASKED: warm_masked,
} layout SLOT_LAYOUT);

/// Everything cached for one program (one generation and one code byte string).
pub struct ProgCode {
    pub arch: Arch,
    pub code: Vec<u8>,
    /// One slot per dword of code, indexed by pc / 4.
    pub slots: Box<[EntrySlot]>,
    /// With a disk cache: the units compiled or loaded for this program, to store.
    pub(crate) stored: Mutex<Stored>,
    /// The pre-decoded straight line at each pc (`JitConfig::threaded`), built on first
    /// use; indexed like `slots`.
    threaded: Box<[OnceLock<ThreadedBlock>]>,
}

/// The units of a program as the disk cache keeps them.
#[derive(Default)]
pub(crate) struct Stored {
    pub units: Vec<StoredUnit>,
    /// Something was compiled (or the file was unusable) since the last save.
    pub dirty: bool,
}

impl ProgCode {
    fn new(prog: &Program) -> ProgCode {
        let n = prog.code.len().div_ceil(4) + 1;
        let slots = (0..n)
            .map(|_| EntrySlot {
                mode: AtomicU32::new(NO_MODE),
                ..EntrySlot::default()
            })
            .collect();
        ProgCode {
            arch: prog.arch,
            code: prog.code.clone(),
            slots,
            stored: Mutex::new(Stored::default()),
            threaded: (0..n).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The pre-decoded block of `prog` (this entry's program) at `pc`, built on first use
    /// (`built` is told its length then). `None` where no slot is (a misaligned pc or one
    /// past the code).
    pub fn threaded_block(
        &self,
        prog: &Program,
        pc: u32,
        built: impl FnOnce(&ThreadedBlock),
    ) -> Option<&ThreadedBlock> {
        if !pc.is_multiple_of(4) {
            return None;
        }
        let cell = self.threaded.get((pc / 4) as usize)?;
        Some(cell.get_or_init(|| {
            let b = ThreadedBlock::build(prog, pc);
            built(&b);
            b
        }))
    }

    #[inline]
    pub fn slot(&self, pc: u32) -> Option<&EntrySlot> {
        if !pc.is_multiple_of(4) {
            return None;
        }
        self.slots.get((pc / 4) as usize)
    }

    /// Make `func` the variant `exec_all` of `pc` at `mode` (a block for another MODE
    /// replaces both variants).
    pub(crate) fn publish(&self, pc: u32, mode: u32, exec_all: bool, func: usize) {
        let Some(slot) = self.slot(pc) else {
            return;
        };
        if slot.mode.load(Ordering::Acquire) != mode {
            slot.full.store(0, Ordering::Release);
            slot.masked.store(0, Ordering::Release);
            slot.warm_full.store(0, Ordering::Relaxed);
            slot.warm_masked.store(0, Ordering::Relaxed);
            slot.mode.store(mode, Ordering::Release);
        }
        if exec_all {
            slot.full.store(func, Ordering::Release);
        } else {
            slot.masked.store(func, Ordering::Release);
        }
    }

    /// The variant `exec_all` of `pc` at `mode`, if it is compiled. A full EXEC does not
    /// take the masked variant here: waves of a grid whose first waves were partial would
    /// run masked code for good (the caller falls back to it only when no full variant
    /// can be had, `lookup_any`).
    #[inline]
    pub fn lookup(&self, pc: u32, mode: u32, exec_all: bool) -> Option<usize> {
        let s = self.slot(pc)?;
        if s.mode.load(Ordering::Acquire) != mode {
            return None;
        }
        let f = if exec_all { &s.full } else { &s.masked }.load(Ordering::Acquire);
        (f != 0).then_some(f)
    }

    /// Code that can run `pc` at `mode` with this EXEC: the exact variant, else (for a
    /// full EXEC) the masked one, which is correct for any EXEC.
    pub fn lookup_any(&self, pc: u32, mode: u32, exec_all: bool) -> Option<usize> {
        self.lookup(pc, mode, exec_all)
            .or_else(|| self.lookup(pc, mode, false))
    }
}

/// The settings of a JIT engine.
#[derive(Clone, Copy, Debug)]
pub struct JitConfig {
    /// The optimising tier's back end settings.
    pub backend: BackendOpts,
    /// The quick tier's (`BackendOpts::quick`).
    pub quick_backend: BackendOpts,
    /// Two tiers of compiled code when not 0: a unit is compiled first by the quick tier
    /// (`quick_backend`), whose code counts its own entries and, at this many, returns
    /// to the dispatcher to be compiled again by the optimising tier. 0: every unit is
    /// compiled once, optimised.
    pub hot_threshold: u32,
    /// Bound on the machine code kept (bytes); past it nothing more is compiled until
    /// `flush_if_full` drops everything.
    pub max_code_bytes: usize,
    /// Tiering: interpret a block until the dispatcher entered it this many times, then
    /// compile it. 0 or 1 = compile on first use (the `jit` engine); `NEVER_COMPILE`:
    /// never compile (with `threaded`, the `threaded` engine).
    pub tier_threshold: u32,
    /// Run what is not compiled as pre-decoded blocks (`wavejit_interp::threaded`,
    /// built on a block's first entry) instead of stepping the interpreter.
    pub threaded: bool,
    /// Emit lane-independent vector instructions chunk by chunk (4 lanes through the
    /// whole run of instructions, then the next 4) rather than instruction by instruction.
    /// Same results; far fewer live vectors, so no spills.
    pub chunk_major: bool,
    /// Quick tier: a run of lane-independent vector instructions that reads and writes no
    /// lane mask, with EXEC known to be all ones, is emitted once, as a loop over its 16
    /// chunks (the optimising tier unrolls the 16 chunks). About a sixteenth of the IR.
    pub chunk_loops: bool,
    /// Emit DS dword reads under a full EXEC inside the chunk-major segment of the vector
    /// instructions after them (`mem::fused`; with `chunk_major`): each chunk's values go
    /// straight to the instructions that read them.
    pub fuse_ds_reads: bool,
    /// Chain blocks: a block exit tail-calls the successor's compiled code when it exists.
    pub chain: bool,
    /// Count profiling events in compiled code (`wavejit_interp::profile`): every
    /// instruction adds its issue and active lanes to the run's counters, conditional
    /// branches their outcome. Such code needs a profile on every run (`Jit::run_profiled`).
    pub profile: bool,
    /// Test only: lower `v_xor_b32` as an OR, so that tests can show the diff engine
    /// finding and naming a wrong lowering.
    #[doc(hidden)]
    pub plant_xor_bug: bool,
}

/// The default tier threshold: entries of a block, run as pre-decoded code
/// (`JitConfig::threaded`) from its first entry, before it is compiled by the quick tier.
/// Chosen from measured costs (`wavejit bench --quick` and `bench --run sweep`, 2-core
/// EPYC, 2026-11-28):
/// - pre-decoding costs 0.04-0.17 µs per instruction (cold minus warm of a one-iteration
///   run) and its code runs 1.03-1.4x the interpreter's speed, so it pays for itself after
///   1-8 runs, and a block run once costs 1.06-1.12x its interpretation: hence from the
///   first entry, with no interpreter threshold before it;
/// - the quick compile pays for itself after 9-541 runs of pre-decoded code (median
///   ~190; largest on divergent's blocks of 3-4 instructions), but every run of a hot loop
///   spent before it is ~20x slower than quick code: the sweep's valu loop of 1000
///   iterations took 0.73 ms at 32, 0.89 at 64, 1.33 at 128 (0.64 eager);
/// - the sweep's worst ratio to the better of interpreter and eager JIT over its five
///   workloads (blocks run once, 20 times, 100 times, valu 1000 and 100 k iterations) is
///   1.14 at 32, 1.07 at 24 (just above the 20-run workload), 1.40 at 64, 2.1 at 128;
///   at 16 and below the 20-run blocks are compiled (3x).
///
/// 32: the smallest power of two above the sweep's 20-run blocks (worst ratio 1.14), with
/// the 100 k-iteration valu loop at 1.00x of the eager JIT (the goal is 1.1x).
pub const DEFAULT_TIER_THRESHOLD: u32 = 32;

/// `JitConfig::tier_threshold` of an engine that never compiles.
pub const NEVER_COMPILE: u32 = u32::MAX;

/// The default `JitConfig::hot_threshold`: entries of a quick-tier unit before it is
/// compiled again, optimised (see jit/README.md, "Tiers"). On ALU loops the optimising
/// compile (85-340 µs per instruction) repays itself only after 16 k-128 k runs of quick
/// code, but real kernels' quick code (memory in chunk loops) is much slower than their
/// optimised code: at 16384 the tiered engine ran `bench --real`'s tiled matmul and
/// stencil at 0.5-0.65x of the 256 before; 4096 ran them at or above it, and the ALU
/// suite's cold runs faster than 16384 too. (256 recompiled units that would never
/// repay it.)
pub const DEFAULT_HOT_THRESHOLD: u32 = 4096;

impl Default for JitConfig {
    fn default() -> Self {
        JitConfig {
            backend: BackendOpts::default(),
            quick_backend: BackendOpts::quick(),
            hot_threshold: match std::env::var("WAVEJIT_JIT_HOT").map(|v| v.parse::<u32>()) {
                Ok(Ok(n)) => n,
                _ => DEFAULT_HOT_THRESHOLD,
            },
            max_code_bytes: 64 << 20,
            tier_threshold: 1,
            threaded: false,
            chunk_major: true,
            chunk_loops: true,
            fuse_ds_reads: true,
            chain: true,
            profile: false,
            plant_xor_bug: false,
        }
    }
}

impl JitConfig {
    /// The `tiered` engine: blocks run as pre-decoded code from their first entry and
    /// are compiled at `DEFAULT_TIER_THRESHOLD` entries.
    pub fn tiered() -> JitConfig {
        JitConfig {
            tier_threshold: DEFAULT_TIER_THRESHOLD,
            threaded: true,
            ..JitConfig::default()
        }
    }

    /// The `threaded` engine: pre-decoded code only, nothing compiled.
    pub fn threaded_only() -> JitConfig {
        JitConfig {
            tier_threshold: NEVER_COMPILE,
            threaded: true,
            ..JitConfig::default()
        }
    }
}

/// Compile-time statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CompileStats {
    /// Units compiled (by either tier), their instructions.
    pub blocks: u64,
    pub insts: u64,
    /// Of those, compiled by the quick tier: units, instructions, time (ns).
    pub quick_blocks: u64,
    pub quick_insts: u64,
    pub quick_nanos: u64,
    /// Of those, optimised again because their quick code got hot: units, instructions.
    pub hot_blocks: u64,
    pub hot_insts: u64,
    /// Pre-decoded blocks built (`JitConfig::threaded`) and their instructions. Not
    /// timed: a block costs about one interpretation of it, which a clock read per block
    /// would distort (the benchmarks time it as cold minus warm runs).
    pub threaded_blocks: u64,
    pub threaded_insts: u64,
    /// Instructions lowered as helper calls into the interpreter.
    pub helper_insts: u64,
    pub code_bytes: u64,
    /// Cranelift instructions built (before optimisation).
    pub clif_insts: u64,
    /// Time spent compiling (both tiers), in nanoseconds of the compiling thread's CPU
    /// time (wall time where the OS has no thread clock).
    pub nanos: u64,
    pub failures: u64,
    /// Disk cache: units loaded instead of compiled, files ignored (corrupted, stale,
    /// unreadable), files written, and the time spent loading and saving.
    pub disk_units: u64,
    pub disk_rejected: u64,
    pub disk_written: u64,
    pub disk_nanos: u64,
}

pub(crate) struct Compiler {
    /// The optimising tier.
    pub backend: Backend,
    /// The quick tier (none when `JitConfig::hot_threshold` is 0).
    pub quick: Option<Backend>,
    /// The entry trampoline of `backend` (C convention → tail convention).
    pub trampoline: usize,
    pub stats: CompileStats,
}

/// Calls a compiled block from Rust: `(func, wave, ctx) -> exit code`.
pub type Trampoline = unsafe extern "C" fn(usize, *mut Wave, *mut JitCtx) -> u32;

impl Compiler {
    fn new(config: &JitConfig, keep_artifacts: bool) -> Result<Compiler, JitError> {
        let mut backend = Backend::new(config.backend)?;
        backend.keep_artifacts = keep_artifacts;
        let trampoline = build_trampoline(&mut backend)? as usize;
        // Quick units are kept on disk too (a later process need not compile them again);
        // a unit's optimised version replaces its quick one there when it gets hot.
        let quick = if config.hot_threshold > 0 {
            let mut q = Backend::new(config.quick_backend)?;
            q.keep_artifacts = keep_artifacts;
            Some(q)
        } else {
            None
        };
        Ok(Compiler {
            backend,
            quick,
            trampoline,
            stats: CompileStats::default(),
        })
    }
}

impl Compiler {
    /// The compiler of an engine with `config`: none for one that never compiles (the
    /// `threaded` engine), whose creation then costs no back end.
    fn start(config: &JitConfig, keep_artifacts: bool) -> Result<Option<Compiler>, JitError> {
        if config.tier_threshold == NEVER_COMPILE {
            return Ok(None);
        }
        Compiler::new(config, keep_artifacts).map(Some)
    }

    /// Machine code bytes of both tiers.
    pub fn code_bytes(&self) -> usize {
        self.backend.code_bytes() + self.quick.as_ref().map_or(0, |q| q.code_bytes())
    }
}

/// `extern "C" fn(f, wave, ctx) -> u32 { f(wave, ctx) }` with `f` in the tail convention.
fn build_trampoline(be: &mut Backend) -> Result<*const u8, JitError> {
    let csig = be.c_signature(3, true)?;
    let tsig = be.block_signature()?;
    let ptr = be.pointer_type();
    let fcfg = be.frontend_config();
    be.ctx.func.signature = csig;
    be.ctx.func.name = UserFuncName::user(0, 0);
    {
        let mut b = FunctionBuilder::new(&mut be.ctx.func, &mut be.fctx);
        let blk = b.create_block();
        b.append_block_params_for_function_params(blk);
        b.switch_to_block(blk);
        let p = b.block_params(blk).to_vec();
        let sref = b.import_signature(tsig);
        let call = b.ins().call_indirect(sref, p[0], &[p[1], p[2]]);
        let r = b.inst_results(call)[0];
        debug_assert_eq!(b.func.dfg.value_type(r), types::I32);
        let _ = ptr;
        b.ins().return_(&[r]);
        b.seal_all_blocks();
        b.finalize(fcfg);
    }
    be.compile_current()
}

/// The offsets and sizes compiled code builds in (part of the disk cache's key).
fn layout() -> String {
    use crate::ctx::{self, wave_off};
    format!(
        "layout wave {:?} ctx {:?} region {:?} x{} slot {:?}",
        wave_off::LAYOUT,
        ctx::CTX_LAYOUT,
        ctx::G_LAYOUT,
        ctx::G_SLOTS,
        SLOT_LAYOUT
    )
}

/// Programs by (architecture, hash of the code); equal hashes are told apart by the bytes.
type ProgTable = HashMap<(Arch, u64), Vec<Arc<ProgCode>>>;

/// The source of `Jit::epoch` values: unique in the process, never reused.
static EPOCHS: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// The program this thread looked up last, with the epoch of the engine that holds
    /// it. Every wave's run (and every resume after a barrier) looks its program up; a
    /// workgroup's waves all run one program, so this answers almost every lookup with
    /// one compare of the code bytes, without hashing or taking the table's lock.
    static LAST_PROG: RefCell<Option<(u64, Arc<ProgCode>)>> = const { RefCell::new(None) };
}

/// The cached code of one program, looked up once for many runs (`Jit::bind`). Valid
/// for the program it was made from, on the engine that made it, until that engine's
/// `flush` (after which runs look the program up again).
#[derive(Clone)]
pub struct ProgHandle {
    code: Arc<ProgCode>,
    epoch: u64,
}

/// A JIT engine: the code cache and the compiler. `Sync`: share it between the threads
/// of a grid (`Arc<Jit>`).
pub struct Jit {
    pub config: JitConfig,
    progs: RwLock<ProgTable>,
    pub(crate) compiler: Mutex<Option<Compiler>>,
    /// The entry trampoline of `compiler` (0: none), kept outside the lock: every
    /// dispatcher call needs it, and a wave must not wait for another thread's compile
    /// just to start. Changes only with `&mut self` (`flush`).
    entry: usize,
    /// Why the back end could not start (then everything runs in the interpreter).
    pub(crate) broken: Option<JitError>,
    /// Where compiled units are kept between processes (none: not kept).
    pub(crate) disk: Option<DiskCache>,
    /// The back end's flags and the configuration, as the disk cache's key has them.
    settings: String,
    /// This engine's current epoch (new at `flush`): which thread-local `LAST_PROG`
    /// entries are its and still valid.
    epoch: u64,
    /// Pre-decoded blocks built and their instructions (`CompileStats::threaded_*`),
    /// counted outside the compiler's lock: building one does not take it.
    pub(crate) threaded_built: [AtomicU64; 2],
}

fn hash_code(code: &[u8]) -> u64 {
    // FNV-1a over 8-byte words of at most the first 4 KiB, and the length: the key only
    // needs to spread (equality is checked on the bytes), and every wave's run looks its
    // program up, so hashing a large program byte by byte was a third of a barrier-heavy
    // kernel's time.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in code.chunks(8).take(512) {
        let mut b = [0u8; 8];
        b[..w.len()].copy_from_slice(w);
        h ^= u64::from_le_bytes(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^ code.len() as u64
}

impl Jit {
    pub fn new(config: JitConfig) -> Jit {
        Jit::with_disk_cache(config, None)
    }

    /// A JIT that loads and stores compiled units in `disk` (`crate::disk`). Code made
    /// for profiling is never stored.
    pub fn with_disk_cache(config: JitConfig, disk: Option<DiskCache>) -> Jit {
        let disk = disk.filter(|_| !config.profile);
        let (compiler, broken) = match Compiler::start(&config, disk.is_some()) {
            Ok(c) => (c, None),
            Err(e) => (None, Some(e)),
        };
        let settings = format!(
            "{}\n{}\n{}\n{:?}",
            layout(),
            compiler
                .as_ref()
                .map(|c| c.backend.fingerprint())
                .unwrap_or_default(),
            compiler
                .as_ref()
                .and_then(|c| c.quick.as_ref())
                .map(|q| q.fingerprint())
                .unwrap_or_default(),
            // Includes the tiers' settings (quick-tier code counts to `hot_threshold`).
            JitConfig {
                // The bound on code kept does not change the code.
                max_code_bytes: 0,
                ..config
            }
        );
        Jit {
            config,
            progs: RwLock::new(HashMap::new()),
            entry: compiler.as_ref().map_or(0, |c| c.trampoline),
            compiler: Mutex::new(compiler),
            broken,
            disk,
            settings,
            epoch: EPOCHS.fetch_add(1, Ordering::Relaxed),
            threaded_built: Default::default(),
        }
    }

    /// The disk cache this engine uses, if any.
    pub fn disk_cache(&self) -> Option<&DiskCache> {
        self.disk.as_ref()
    }

    /// Load the units the disk cache holds for `code` into the module and publish them.
    fn load_stored(&self, code: &ProgCode) {
        let Some(disk) = &self.disk else {
            return;
        };
        if !matches!(code.arch, Arch::Gcn(_)) || self.broken.is_some() {
            return;
        }
        let t0 = Instant::now();
        let header = crate::disk::header(&self.settings, code.arch, &code.code);
        let loaded = disk.load(&header);
        let Ok(mut guard) = self.compiler.lock() else {
            return;
        };
        let Some(comp) = guard.as_mut() else {
            return;
        };
        let Ok(mut st) = code.stored.lock() else {
            return;
        };
        match loaded {
            Loaded::Missing => {}
            Loaded::Rejected(why) => {
                comp.stats.disk_rejected += 1;
                st.dirty = true;
                if std::env::var_os("WAVEJIT_JIT_DEBUG").is_some() {
                    eprintln!("wavejit-jit: disk cache entry ignored: {why}");
                }
            }
            Loaded::Units(units) => {
                for u in units {
                    if code.slot(u.spec.pc).is_none()
                        || comp.code_bytes() >= self.config.max_code_bytes
                    {
                        st.dirty = true;
                        continue;
                    }
                    match comp.backend.define_artifact(&u.art) {
                        Ok(f) => {
                            code.publish(u.spec.pc, u.spec.mode, u.spec.exec_all, f as usize);
                            comp.stats.disk_units += 1;
                            comp.stats.code_bytes = comp.code_bytes() as u64;
                            st.units.push(u);
                        }
                        Err(_) => st.dirty = true,
                    }
                }
            }
        }
        comp.stats.disk_nanos += t0.elapsed().as_nanos() as u64;
    }

    /// Write the units of every program that has new ones to the disk cache. Errors
    /// (a read-only or full disk) only mean the next process compiles again.
    pub fn save_disk_cache(&self) {
        let Some(disk) = &self.disk else {
            return;
        };
        let t0 = Instant::now();
        let progs: Vec<Arc<ProgCode>> = match self.progs.read() {
            Ok(m) => m.values().flatten().cloned().collect(),
            Err(_) => return,
        };
        let mut written = 0;
        for p in progs {
            let Ok(mut st) = p.stored.lock() else {
                continue;
            };
            if !st.dirty {
                continue;
            }
            let header = crate::disk::header(&self.settings, p.arch, &p.code);
            if disk.store(&header, &st.units).is_ok() {
                written += 1;
            }
            st.dirty = false;
        }
        if let Ok(mut c) = self.compiler.lock() {
            if let Some(c) = c.as_mut() {
                c.stats.disk_written += written;
                c.stats.disk_nanos += t0.elapsed().as_nanos() as u64;
            }
        }
    }

    /// Why this engine cannot compile anything, if it cannot.
    pub fn broken(&self) -> Option<&JitError> {
        self.broken.as_ref()
    }

    /// A handle on the cached code of `prog` for many runs (the waves of a dispatch):
    /// `run_bound` with it skips the per-run lookup of the program.
    pub fn bind(&self, prog: &Program) -> ProgHandle {
        ProgHandle {
            code: self.prog_code(prog),
            epoch: self.epoch,
        }
    }

    /// The code of `h` if it belongs to this engine's current epoch and plausibly to
    /// `prog` (same architecture and code length; the bytes are compared in debug
    /// builds); `None`: look `prog` up.
    pub(crate) fn bound_code<'h>(&self, h: &'h ProgHandle, prog: &Program) -> Option<&'h ProgCode> {
        if h.epoch == self.epoch && h.code.arch == prog.arch && h.code.code.len() == prog.code.len()
        {
            debug_assert!(
                h.code.code == prog.code,
                "a handle used for another program"
            );
            return Some(&h.code);
        }
        None
    }

    /// The cached code of `prog` (created empty on first sight).
    pub fn prog_code(&self, prog: &Program) -> Arc<ProgCode> {
        let last = LAST_PROG.with(|l| match &*l.borrow() {
            Some((e, p)) if *e == self.epoch && p.arch == prog.arch && p.code == prog.code => {
                Some(p.clone())
            }
            _ => None,
        });
        if let Some(p) = last {
            return p;
        }
        let p = self.prog_code_table(prog);
        LAST_PROG.with(|l| *l.borrow_mut() = Some((self.epoch, p.clone())));
        p
    }

    /// `prog_code` through the table of every program.
    fn prog_code_table(&self, prog: &Program) -> Arc<ProgCode> {
        let key = (prog.arch, hash_code(&prog.code));
        if let Ok(m) = self.progs.read() {
            if let Some(v) = m.get(&key) {
                if let Some(p) = v.iter().find(|p| p.code == prog.code) {
                    return p.clone();
                }
            }
        }
        let mut m = match self.progs.write() {
            Ok(m) => m,
            Err(p) => p.into_inner(),
        };
        let v = m.entry(key).or_default();
        if let Some(p) = v.iter().find(|p| p.code == prog.code) {
            return p.clone();
        }
        let p = Arc::new(ProgCode::new(prog));
        v.push(p.clone());
        drop(m);
        self.load_stored(&p);
        p
    }

    /// The configuration this engine was made with.
    pub fn config(&self) -> &JitConfig {
        &self.config
    }

    /// Compile statistics so far (this epoch).
    pub fn stats(&self) -> CompileStats {
        let mut st = match self.compiler.lock() {
            Ok(c) => c.as_ref().map(|c| c.stats).unwrap_or_default(),
            Err(_) => CompileStats::default(),
        };
        st.threaded_blocks = self.threaded_built[0].load(Ordering::Relaxed);
        st.threaded_insts = self.threaded_built[1].load(Ordering::Relaxed);
        st
    }

    /// Machine code bytes held now.
    pub fn code_bytes(&self) -> usize {
        match self.compiler.lock() {
            Ok(c) => c.as_ref().map_or(0, |c| c.code_bytes()),
            Err(_) => 0,
        }
    }

    /// Whether the size bound is reached (nothing more will be compiled).
    pub fn is_full(&self) -> bool {
        self.code_bytes() >= self.config.max_code_bytes
    }

    /// Drop all compiled code and every program's table if the cache is over its bound.
    /// Takes `&mut self`: no wave can be running any of the code.
    pub fn flush_if_full(&mut self) {
        if self.is_full() {
            self.flush();
        }
    }

    /// Drop all compiled code (a new epoch); what the disk cache should keep is saved
    /// first.
    pub fn flush(&mut self) {
        self.save_disk_cache();
        let progs = match self.progs.get_mut() {
            Ok(p) => p,
            Err(p) => p.into_inner(),
        };
        progs.clear();
        // Entries of the old epoch in threads' `LAST_PROG` no longer match.
        self.epoch = EPOCHS.fetch_add(1, Ordering::Relaxed);
        let c = match self.compiler.get_mut() {
            Ok(c) => c,
            Err(p) => p.into_inner(),
        };
        // Tables first (they hold the code addresses), then the module itself.
        *c = None;
        self.entry = 0;
        match Compiler::start(&self.config, self.disk.is_some()) {
            Ok(n) => {
                self.entry = n.as_ref().map_or(0, |n| n.trampoline);
                *c = n;
            }
            Err(e) => self.broken = Some(e),
        }
    }

    /// The entry trampoline, if the back end is up.
    pub(crate) fn trampoline(&self) -> Option<Trampoline> {
        let t = self.entry;
        // SAFETY: `t` was compiled by `build_trampoline` with exactly this C signature,
        // and its module lives until `flush`, which takes `&mut self`.
        (t != 0).then(|| unsafe { std::mem::transmute::<usize, Trampoline>(t) })
    }
}
