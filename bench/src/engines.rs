//! Running a suite kernel on an engine: one wave from its state (`run_wave`), or the
//! lds_matmul grid (`Matmul`), with the reference interpreter or a `wavejit_jit::Jit`
//! (eager or tiered, shared by all threads). Also counts lane operations.

use wavejit::engine::{interp_stepwise, run_to_end, Interp, Jit, WaveEngine, WaveError};
use wavejit_interp::profile::Profile;
use wavejit_interp::{ExecError, Step};
use wavejit_isa::ir::{Inst, Program};
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_jit::JitConfig;

use super::reference;
use super::suite::{Kernel, Shape, WaveState, GEN};
use wavejit::grid::{self, Dispatch};
use wavejit::load::kd::{KernelDescriptor, UserSgpr};
use wavejit::profile::profile_wave_on;

/// Per-wave instruction budget of a benchmark run (far above any run of the suite).
pub const BUDGET: u64 = 1 << 40;

/// The interpreter, or `jit` when there is one.
pub fn engine(jit: Option<&Jit>) -> &dyn WaveEngine {
    match jit {
        Some(j) => j,
        None => &Interp,
    }
}

/// A JIT engine that compiles every block on first use.
pub fn eager_jit() -> Jit {
    Jit::with_config(JitConfig {
        tier_threshold: 1,
        ..JitConfig::default()
    })
}

/// A JIT that compiles every block on first use by the quick tier alone (its code never
/// asks for the optimising tier): what the first compile costs and gives.
pub fn quick_jit() -> Jit {
    Jit::with_config(JitConfig {
        tier_threshold: 1,
        hot_threshold: u32::MAX,
        ..JitConfig::default()
    })
}

/// A tiered engine with the given threshold (`wavejit_jit::DEFAULT_TIER_THRESHOLD` by
/// default): pre-decoded code until then.
pub fn tiered_jit(threshold: u32) -> Jit {
    Jit::with_config(JitConfig {
        tier_threshold: threshold.max(2),
        ..JitConfig::tiered()
    })
}

/// The pre-decoded tier alone (`wavejit_interp::threaded`): what the first tier costs to
/// build and gives.
pub fn threaded_jit() -> Jit {
    Jit::threaded()
}

/// Run one wave to `s_endpgm` (a barrier lets it continue: it is alone in its group).
/// Returns the wave-instructions executed.
pub fn run_wave(
    exec: &dyn WaveEngine,
    prog: &Program,
    st: &mut WaveState,
) -> Result<u64, WaveError> {
    run_to_end(exec, prog, &mut st.wave, &mut st.lds, &st.mem, BUDGET).map(|s| s.insts)
}
/// `run_wave` with profile counters (a fresh profile each run; `exec` keeps its
/// profiling code warm across runs). Returns the wave-instructions executed.
pub fn run_wave_profiled(
    exec: &dyn WaveEngine,
    prog: &Program,
    st: &mut WaveState,
) -> Result<u64, WaveError> {
    let mut prof = Profile::for_program(prog);
    profile_wave_on(
        exec,
        prog,
        &mut st.wave,
        &mut st.lds,
        &st.mem,
        BUDGET,
        &mut prof,
    )
    .map(|(n, _)| n)
}

/// Lane operations of a run: the active lanes (EXEC) of every vector ALU and VINTRP
/// instruction executed; scalar, memory and branch instructions count none. Counted by
/// stepping the interpreter (`LaneCounter`).
pub fn count_lane_ops(prog: &Program, st: &mut WaveState) -> Result<(u64, u64), WaveError> {
    let counter = LaneCounter::default();
    run_to_end(&counter, prog, &mut st.wave, &mut st.lds, &st.mem, BUDGET)?;
    let insts = counter.insts.load(std::sync::atomic::Ordering::Relaxed);
    let lanes = counter.lanes.load(std::sync::atomic::Ordering::Relaxed);
    Ok((insts, lanes))
}

/// Wave-instructions and lane operations of a loop kernel run of `size` iterations,
/// from exact counts of runs of 1 and 2 iterations (every iteration does the same work).
pub fn wave_counts(k: &Kernel, prog: &Program, size: u32) -> Result<(u64, u64), wavejit::Error> {
    let mut one = k.wave_state(1)?;
    let (i1, l1) = count_lane_ops(prog, &mut one)?;
    let mut two = k.wave_state(2)?;
    let (i2, l2) = count_lane_ops(prog, &mut two)?;
    let n = size.max(1) as u64 - 1;
    Ok((i1 + n * (i2 - i1), l1 + n * (l2 - l1)))
}

/// The lds_matmul grid: memory with A, B, C and the kernarg segment, and the dispatch.
pub struct Matmul {
    pub n: u32,
    pub mem: Memory,
    pub dispatch: Dispatch,
    c_addr: u64,
}

const A_ADDR: u64 = 0x1_0000_0000;
const KERNARG: u64 = 0x1000;

impl Matmul {
    /// Set up C = A x B for N x N (N a multiple of 16, at least 16).
    pub fn new(n: u32) -> Result<Matmul, wavejit::Error> {
        if n < 16 || !n.is_multiple_of(16) || n > 4096 {
            return Err(wavejit::Error::Usage(format!(
                "lds_matmul: N = {n} is not a multiple of 16 in 16..=4096"
            )));
        }
        let bytes = n as u64 * n as u64 * 4;
        let stride = bytes.next_multiple_of(0x1_0000) + 0x1_0000;
        let (a, b, c) = (A_ADDR, A_ADDR + stride, A_ADDR + 2 * stride);
        let mut mem = Memory::new();
        let fault = |e: wavejit_isa::state::MapError| {
            wavejit::Error::Usage(format!("lds_matmul memory: {e}"))
        };
        let mat = |f: fn(u32, u32) -> f32| -> Vec<u8> {
            (0..n * n)
                .flat_map(|i| f(i / n, i % n).to_bits().to_le_bytes())
                .collect()
        };
        mem.map_bytes(a, &mat(reference::matmul_a)).map_err(fault)?;
        mem.map_bytes(b, &mat(reference::matmul_b)).map_err(fault)?;
        mem.map(c, bytes).map_err(fault)?;
        let mut args = Vec::new();
        for p in [a, b, c] {
            args.extend_from_slice(&p.to_le_bytes());
        }
        args.extend_from_slice(&n.to_le_bytes());
        args.extend_from_slice(&[0; 4]);
        mem.map_bytes(KERNARG, &args).map_err(fault)?;
        // Kernarg pointer in s[0:1] (USER_SGPR_COUNT 2), workgroup id X, Y in s2, s3,
        // work-item id X, Y in v0, v1, MODE 0xF0 (FP_DENORM in rsrc1 bits 12-19).
        let kd = KernelDescriptor {
            group_segment_fixed_size: 2048,
            private_segment_fixed_size: 0,
            kernarg_size: args.len() as u32,
            kernel_code_entry_byte_offset: 0,
            compute_pgm_rsrc3: 0,
            compute_pgm_rsrc1: 0xF0 << 12,
            compute_pgm_rsrc2: 2 << 1 | 1 << 7 | 1 << 8 | 1 << 11,
            kernel_code_properties: UserSgpr::KernargSegmentPtr.enable_bit(),
        };
        let dispatch = Dispatch {
            gen: GEN,
            kd,
            entry: 0,
            code_base: 0,
            grid: [n, n, 1],
            block: [16, 16, 1],
            kernarg: KERNARG,
            dispatch_packet: 0,
            queue: 0,
            dispatch_id: 0,
            lds_bytes: 2048,
            scratch: None,
            max_insts_per_wave: BUDGET,
            limits: grid::Limits::default(),
        };
        Ok(Matmul {
            n,
            mem,
            dispatch,
            c_addr: c,
        })
    }

    /// Run the grid on `threads` threads; returns the wave-instructions executed.
    pub fn run(
        &self,
        exec: &dyn WaveEngine,
        prog: &Program,
        threads: usize,
    ) -> Result<u64, wavejit::Error> {
        let st = grid::run(&self.dispatch, prog, &self.mem, exec, threads, None)
            .map_err(|e| wavejit::Error::Usage(format!("lds_matmul: {e}")))?;
        Ok(st.insts)
    }

    /// `run` with profile counters (one profile for the whole grid).
    pub fn run_profiled(
        &self,
        exec: &dyn WaveEngine,
        prog: &Program,
        threads: usize,
    ) -> Result<u64, wavejit::Error> {
        let mut prof = Profile::for_program(prog);
        let st = grid::run_profiled(
            &self.dispatch,
            prog,
            &self.mem,
            exec,
            threads,
            None,
            &mut prof,
        )
        .map_err(|e| wavejit::Error::Usage(format!("lds_matmul: {e}")))?;
        Ok(st.insts)
    }

    /// Compare C with the reference product.
    pub fn check(&self) -> Result<(), String> {
        let want = reference::matmul(self.n);
        for (i, w) in want.iter().enumerate() {
            let addr = self.c_addr + 4 * i as u64;
            let mut b = [0u8; 4];
            self.mem.read(addr, &mut b).map_err(|e| e.to_string())?;
            let g = u32::from_le_bytes(b);
            if g != *w {
                let n = self.n as usize;
                return Err(format!(
                    "C[{}][{}]: expected {} (0x{w:08x}), got {} (0x{g:08x})",
                    i / n,
                    i % n,
                    f32::from_bits(*w),
                    f32::from_bits(g)
                ));
            }
        }
        Ok(())
    }

    /// Wave-instructions and lane operations of one grid (interpreter, stepped).
    pub fn counts(&self, prog: &Program) -> Result<(u64, u64), wavejit::Error> {
        let counter = LaneCounter::default();
        grid::run(&self.dispatch, prog, &self.mem, &counter, 1, None)
            .map_err(|e| wavejit::Error::Usage(format!("lds_matmul: {e}")))?;
        let insts = counter.insts.load(std::sync::atomic::Ordering::Relaxed);
        let lanes = counter.lanes.load(std::sync::atomic::Ordering::Relaxed);
        Ok((insts, lanes))
    }
}

/// A `WaveEngine` that steps the interpreter and counts lane operations.
#[derive(Default)]
struct LaneCounter {
    insts: std::sync::atomic::AtomicU64,
    lanes: std::sync::atomic::AtomicU64,
}

impl WaveEngine for LaneCounter {
    fn run(
        &self,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        budget: u64,
    ) -> Result<(Step, u64), ExecError> {
        interp_stepwise(prog, wave, lds, mem, budget, |_, inst, exec| {
            self.insts
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if matches!(inst, Some(Inst::Gcn(i)) if i.enc.is_vector()) {
                self.lanes.fetch_add(
                    exec.count_ones() as u64,
                    std::sync::atomic::Ordering::Relaxed,
                );
            }
        })
    }

    fn name(&self) -> &'static str {
        "count"
    }
}

/// Check a finished single-wave run against the kernel's independent computation.
pub fn check_wave(k: &Kernel, size: u32, st: &WaveState) -> Result<(), String> {
    use super::native;
    let cmp_all = |v: &[[u32; 64]], vcc: Option<u64>| -> Result<(), String> {
        let want: Vec<(usize, [u32; 64])> = v.iter().copied().enumerate().collect();
        reference::compare_vgprs(&st.wave, &want)?;
        if let Some(w) = vcc {
            if st.wave.vcc != w {
                return Err(format!(
                    "VCC: expected 0x{w:016x}, got 0x{:016x}",
                    st.wave.vcc
                ));
            }
        }
        Ok(())
    };
    match (k.name, k.shape) {
        ("valu", _) => {
            let n = native::valu(size);
            cmp_all(&n.v[..], Some(n.vcc))
        }
        ("sdwa", _) => {
            let n = native::sdwa(size);
            cmp_all(&n.v[..], Some(n.vcc))
        }
        ("f64", _) => cmp_all(&native::f64_chain(size).v[..], None),
        ("dpp", _) => reference::compare_vgprs(&st.wave, &reference::dpp(size)),
        ("divergent", _) => {
            reference::compare_vgprs(&st.wave, &reference::divergent(size))?;
            if st.wave.exec != u64::MAX {
                return Err(format!(
                    "EXEC: expected all ones, got 0x{:016x}",
                    st.wave.exec
                ));
            }
            Ok(())
        }
        ("vintrp", _) => {
            let fresh = k.wave_state(size).map_err(|e| e.to_string())?;
            let want = reference::vintrp(size, &fresh.lds, fresh.wave.sgpr[4], fresh.wave.sgpr[5])?;
            reference::compare_vgprs(&st.wave, &want)
        }
        (_, Shape::Group) => Err(format!(
            "{}: a grid kernel is checked through Matmul::check",
            k.name
        )),
        (name, _) => Err(format!("{name}: no reference computation")),
    }
}
