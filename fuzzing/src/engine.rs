//! What a campaign runs besides the facade's engines (`wavejit::engine`): the per-thread
//! engine under test, whose code cache is emptied now and then so that it never fills up
//! and silently falls back to interpreting ([`Recycled`]), and a deliberately broken
//! interpreter for the self-test ([`PlantedDpp`]; the JIT's own planted bug is a
//! `JitConfig` flag, see `campaign::Against::PlantedJit`).

use wavejit::engine::{interp_stepwise, Jit, WaveEngine};
use wavejit_interp::{ExecError, Step};
use wavejit_isa::gcn::DppFields;
use wavejit_isa::gcn::{Enc, Fields, Op};
use wavejit_isa::ir::{Inst as IrInst, Program};
use wavejit_isa::state::{Lds, Memory, Wave};

/// Programs run between two flushes of a worker's code cache (a power of two).
const FLUSH_EVERY: u64 = 256;

/// One program in this many runs on the optimising tier alone (`Recycled::jit_tiers`).
///
/// Such a program costs about 4.6 quick-tier programs of 8 states each (user time of
/// `wavejit fuzz --arch gfx8 --programs 200`, every program on the optimising tier:
/// 14.8 ms a program against 3.2): the optimising tier emits each of a unit's 16 lane
/// chunks, runs Cranelift's e-graph pass and the backtracking register allocator, about
/// 26 M instructions (callgrind) of `regalloc2::ion` per unit against 0.6 M for the quick
/// tier's single-pass allocator: at one program in 8 they took two fifths of a campaign's time.
pub const OPT_EVERY: u64 = 32;

/// A program on the optimising tier alone runs from this many times `Config::states`
/// initial states (`campaign::states_of`): its compile is the expensive part, each further
/// state costs what it costs on the quick tier, so the optimising tier meets as many
/// initial states per program of the campaign as it did at one program in 8, from a
/// quarter as many programs.
pub const OPT_STATES: u32 = 4;

/// Whether program `index` of a `jit` campaign runs on the optimising tier alone.
pub fn opt_tier_program(index: u64) -> bool {
    index % OPT_EVERY == OPT_EVERY - 1
}

/// An engine owned by one worker thread, flushed every `FLUSH_EVERY` programs and
/// whenever its code cache is full.
pub struct Recycled {
    engine: Box<dyn WaveEngine + Send>,
    /// The engine of every `OPT_EVERY`-th program (`for_program`), if any.
    opt_only: Option<Box<dyn WaveEngine + Send>>,
    runs: u64,
}

impl Recycled {
    pub fn new(engine: Box<dyn WaveEngine + Send>) -> Recycled {
        Recycled {
            engine,
            opt_only: None,
            runs: 0,
        }
    }

    /// The JIT's two tiers: programs on the default JIT (the quick tier first, the
    /// optimised one only for code that gets hot), and every `OPT_EVERY`-th program
    /// (`opt_tier_program`) on the optimising tier alone, so that both tiers' lowerings are
    /// fuzzed on every kind of program and not only on hot loops (`OPT_EVERY` says what
    /// such a program costs).
    pub fn jit_tiers() -> Recycled {
        Recycled {
            engine: Box::new(Jit::eager()),
            opt_only: Some(Box::new(Jit::with_config(wavejit_jit::JitConfig {
                hot_threshold: 0,
                ..wavejit_jit::JitConfig::default()
            }))),
            runs: 0,
        }
    }

    /// The engine for program `index` of a campaign (the same for the same index, so a
    /// mismatch replays on the engine that found it).
    pub fn for_program(&mut self, index: u64) -> &dyn WaveEngine {
        self.runs += 1;
        let flush = self.runs & (FLUSH_EVERY - 1) == 0;
        match &mut self.opt_only {
            Some(opt_only) if opt_tier_program(index) => {
                if flush || opt_only.code_cache_full() {
                    opt_only.flush();
                }
                &**opt_only
            }
            _ => {
                if flush || self.engine.code_cache_full() {
                    self.engine.flush();
                }
                &*self.engine
            }
        }
    }

    /// The eager JIT.
    pub fn jit() -> Recycled {
        Recycled::new(Box::new(Jit::eager()))
    }

    /// The engine, for the next program.
    pub fn for_next_program(&mut self) -> &dyn WaveEngine {
        self.runs += 1;
        if self.runs & (FLUSH_EVERY - 1) == 0 || self.engine.code_cache_full() {
            self.engine.flush();
        }
        &*self.engine
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
        Fields::Dpp(
            f @ DppFields {
                bound_ctrl: false,
                row_mask: 0xf,
                bank_mask: 0xf,
                ..
            },
        ) if (0x111..=0x11f).contains(&f.dpp_ctrl) => Some((f.vdst, f.dpp_ctrl & 0xf)),
        _ => None,
    }
}

impl WaveEngine for PlantedDpp {
    fn name(&self) -> &'static str {
        "planted-dpp"
    }

    fn run(
        &self,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        max_insts: u64,
    ) -> Result<(Step, u64), ExecError> {
        interp_stepwise(prog, wave, lds, mem, max_insts, |wave, inst, exec| {
            if let Some((vdst, shift)) = inst.and_then(planted_target) {
                // row_shr:N: lanes 0..N of each row have no source lane.
                for lane in 0..64usize {
                    if exec >> lane & 1 != 0 && (lane % 16) < shift as usize {
                        wave.vgpr[vdst as usize][lane] = 0;
                    }
                }
            }
        })
    }
}
