//! The engines a campaign compares, behind one small trait: the reference interpreter,
//! the JIT (one `Jit` per worker thread, flushed now and then so the code cache never
//! fills up and silently falls back to interpreting), and a deliberately broken
//! interpreter for the self-test (`PlantedDpp`; the JIT's own planted bug is a
//! `JitConfig` flag, see `campaign::Against::PlantedJit`).

use wavejit_interp::{Ctx, ExecError, RunStats, Step};
use wavejit_isa::gcn::{Enc, Fields, Op};
use wavejit_isa::ir::{Inst as IrInst, Program};
use wavejit_jit::{Jit, JitConfig};

/// Something that runs a GCN program like `wavejit_interp::run`.
pub trait Runner {
    fn name(&self) -> &'static str;
    fn run(
        &mut self,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        max_insts: u64,
    ) -> Result<(Step, RunStats), ExecError>;
}

/// The reference interpreter.
pub struct Interp;

impl Runner for Interp {
    fn name(&self) -> &'static str {
        "interp"
    }
    fn run(
        &mut self,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        max_insts: u64,
    ) -> Result<(Step, RunStats), ExecError> {
        wavejit_interp::run(ctx, prog, max_insts)
    }
}

/// The JIT, compiling every block on first use.
pub struct JitRunner {
    jit: Jit,
    config: JitConfig,
    runs: u64,
}

/// Programs run between two flushes of a worker's code cache (a power of two).
const FLUSH_EVERY: u64 = 256;

impl JitRunner {
    pub fn new(config: JitConfig) -> JitRunner {
        JitRunner {
            jit: Jit::new(config),
            config,
            runs: 0,
        }
    }

    /// Why the JIT cannot compile on this host, if it cannot.
    pub fn broken(&self) -> Option<String> {
        self.jit.broken().map(|e| e.to_string())
    }

    /// Compile statistics since the last flush.
    pub fn stats(&self) -> wavejit_jit::CompileStats {
        self.jit.stats()
    }

    pub fn config(&self) -> JitConfig {
        self.config
    }
}

impl Default for JitRunner {
    fn default() -> Self {
        JitRunner::new(JitConfig::default())
    }
}

impl Runner for JitRunner {
    fn name(&self) -> &'static str {
        "jit"
    }
    fn run(
        &mut self,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        max_insts: u64,
    ) -> Result<(Step, RunStats), ExecError> {
        self.runs += 1;
        if self.runs & (FLUSH_EVERY - 1) == 0 || self.jit.is_full() {
            self.jit.flush();
        }
        self.jit.run(ctx, prog, max_insts)
    }
}

/// The self-test's broken engine: the interpreter, except that `v_max_i32` with a DPP
/// `row_shr` control, BOUND_CTRL 0 and full row/bank masks zeroes the active lanes whose
/// source lane is outside the row — lanes that must keep their old value (ERRATA.md
/// VOP_DPP 1). A plausible lowering bug (a mask built from the wrong bit), hit only by a
/// corner of the input space; the fuzzer must find it and shrink it.
pub struct PlantedDpp;

/// Whether `inst` is the instruction `PlantedDpp` gets wrong.
pub fn planted_target(inst: &IrInst) -> Option<(u8, u16)> {
    let IrInst::Gcn(i) = inst else { return None };
    if i.op != Op::VMaxI32 || !matches!(i.enc, Enc::Dpp { .. }) {
        return None;
    }
    match i.fields {
        Fields::Dpp {
            vdst,
            dpp_ctrl,
            bound_ctrl: false,
            row_mask: 0xf,
            bank_mask: 0xf,
            ..
        } if (0x111..=0x11f).contains(&dpp_ctrl) => Some((vdst, dpp_ctrl & 0xf)),
        _ => None,
    }
}

impl Runner for PlantedDpp {
    fn name(&self) -> &'static str {
        "planted-dpp"
    }
    fn run(
        &mut self,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        max_insts: u64,
    ) -> Result<(Step, RunStats), ExecError> {
        let mut stats = RunStats::default();
        loop {
            if stats.insts >= max_insts {
                return Err(ExecError {
                    pc: ctx.wave.pc,
                    kind: wavejit_interp::ExecErrorKind::InstLimit(max_insts),
                });
            }
            let pc = ctx.wave.pc;
            let target = prog
                .slot_index(pc)
                .and_then(|i| prog.slots.get(i))
                .and_then(|s| s.inst.as_ref().ok())
                .and_then(planted_target);
            let exec = ctx.wave.exec;
            let step = wavejit_interp::step(ctx, prog)?;
            stats.insts += 1;
            if let Some((vdst, shift)) = target {
                // row_shr:N: lanes 0..N of each row have no source lane.
                for lane in 0..64usize {
                    if exec >> lane & 1 != 0 && (lane % 16) < shift as usize {
                        ctx.wave.vgpr[vdst as usize][lane] = 0;
                    }
                }
            }
            match step {
                Step::Continue => {}
                Step::End | Step::Barrier => return Ok((step, stats)),
            }
        }
    }
}
