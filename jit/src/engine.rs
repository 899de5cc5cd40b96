//! The dispatcher: run a wave with compiled blocks, compiling on first use (`jit`) or
//! after a block has been entered `tier_threshold` times (`tiered`), and running what is
//! not (yet) compiled as pre-decoded blocks (`JitConfig::threaded`) or stepping the
//! interpreter. Same contract as
//! `wavejit_interp::run`: stops at `s_endpgm` or a barrier, returns the same errors, and
//! refuses instruction number `max_insts + 1` with `InstLimit` at the same pc.

use std::marker::PhantomData;
use std::sync::atomic::Ordering;

use wavejit_interp::profile::Profile;
use wavejit_interp::{Ctx, ExecError, ExecErrorKind, RunStats, Step};
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave};

use crate::cache::{Compiler, Jit, ProgCode, ProgHandle, Trampoline, NEVER_COMPILE, NO_MODE};
use crate::ctx::{
    JitCtx, EXIT_BARRIER, EXIT_END, EXIT_ERROR, EXIT_HOT_FULL, EXIT_HOT_MASKED, EXIT_NEXT,
};
use crate::disk::StoredUnit;
use crate::gcn::{self, NoUnit, Spec};

/// Counters of a JIT run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JitRunStats {
    pub insts: u64,
    /// Instructions the dispatcher stepped in the interpreter.
    pub interpreted: u64,
    /// Calls into compiled code from the dispatcher (each may chain many blocks).
    pub entries: u64,
    /// Instructions compiled code ran through the interpreter helper.
    pub helper_steps: u64,
    /// Instructions run as pre-decoded blocks (`JitConfig::threaded`).
    pub threaded: u64,
}

impl Jit {
    /// Run like `wavejit_interp::run`, with compiled code where the policy says so.
    pub fn run(
        &self,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        max_insts: u64,
    ) -> Result<(Step, RunStats), ExecError> {
        self.run_with_stats(ctx, prog, max_insts)
            .map(|(s, st)| (s, RunStats { insts: st.insts }))
    }

    pub fn run_with_stats(
        &self,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        max_insts: u64,
    ) -> Result<(Step, JitRunStats), ExecError> {
        if self.config.profile {
            // Code compiled for profiling always counts somewhere.
            let mut scratch = Profile::for_program(prog);
            return self.run_inner(ctx, prog, max_insts, Some(&mut scratch));
        }
        self.run_inner(ctx, prog, max_insts, None)
    }

    /// `run_with_stats` with the code of `h`, a handle `bind` made for `prog` (no lookup
    /// of the program per run).
    pub fn run_bound(
        &self,
        h: &ProgHandle,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        max_insts: u64,
    ) -> Result<(Step, JitRunStats), ExecError> {
        if self.config.profile {
            return self.run_with_stats(ctx, prog, max_insts);
        }
        match self.bound_code(h, prog) {
            Some(code) => self.run_code(code, ctx, prog, max_insts, None),
            None => self.run_code(&self.prog_code(prog), ctx, prog, max_insts, None),
        }
    }

    /// Run like `run`, counting profile events into `prof` (`wavejit_interp::profile`):
    /// the same counts the interpreter gives. Compiled code counts them itself when the
    /// engine was made with `JitConfig::profile`; otherwise every instruction is
    /// interpreted (exact, slow).
    pub fn run_profiled(
        &self,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        max_insts: u64,
        prof: &mut Profile,
    ) -> Result<(Step, JitRunStats), ExecError> {
        if prof.insts.len() < prog.slots.len() {
            prof.insts.resize(prog.slots.len(), Default::default());
        }
        if !self.config.profile {
            let (s, st) = wavejit_interp::profile::run(ctx, prog, max_insts, prof)?;
            return Ok((
                s,
                JitRunStats {
                    insts: st.insts,
                    interpreted: st.insts,
                    ..JitRunStats::default()
                },
            ));
        }
        self.run_inner(ctx, prog, max_insts, Some(prof))
    }

    fn run_inner(
        &self,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        max_insts: u64,
        prof: Option<&mut Profile>,
    ) -> Result<(Step, JitRunStats), ExecError> {
        let code = self.prog_code(prog);
        self.run_code(&code, ctx, prog, max_insts, prof)
    }

    /// A run of `prog` (whose code cache entry is `code`) from `ctx`, with a context of
    /// its own, counting into `prof` if given.
    fn run_code(
        &self,
        code: &ProgCode,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        max_insts: u64,
        prof: Option<&mut Profile>,
    ) -> Result<(Step, JitRunStats), ExecError> {
        let mut jc = context(&mut *ctx.lds, ctx.mem, prog, code);
        if let Some(p) = prof {
            if p.insts.len() < prog.slots.len() {
                p.insts.resize(prog.slots.len(), Default::default());
            }
            jc.set_profile(p);
        }
        let tramp = self.live_trampoline();
        self.run_in(code, &mut jc, tramp, ctx.wave, ctx.mem, prog, max_insts)
    }

    /// The trampoline into compiled code, unless the back end could not start.
    fn live_trampoline(&self) -> Option<Trampoline> {
        if self.broken.is_none() {
            self.trampoline()
        } else {
            None
        }
    }

    /// The dispatcher's loop: run `wave` from its pc with at most `max_insts`
    /// instructions, entering compiled code through `tramp` with the context `jc` (made
    /// for `prog`'s `code` over the run's LDS and `mem`; its budget, error and helper count
    /// are set here, so one context serves many runs).
    #[allow(clippy::too_many_arguments)]
    fn run_in(
        &self,
        code: &ProgCode,
        jc: &mut JitCtx,
        tramp: Option<Trampoline>,
        wave: &mut Wave,
        mem: &Memory,
        prog: &Program,
        max_insts: u64,
    ) -> Result<(Step, JitRunStats), ExecError> {
        let start_budget = start(jc, max_insts);
        let run = Run {
            code,
            tramp,
            mem,
            prog,
            max_insts,
            start_budget,
        };
        self.run_from(&run, jc, wave, JitRunStats::default(), None)
    }

    /// The dispatcher's loop of `run` (its context `jc` set up by `start`), with `stats`
    /// so far; `entered`: compiled code was entered already and returned this exit.
    fn run_from(
        &self,
        run: &Run,
        jc: &mut JitCtx,
        wave: &mut Wave,
        mut stats: JitRunStats,
        mut entered: Option<Entered>,
    ) -> Result<(Step, JitRunStats), ExecError> {
        let &Run {
            code,
            tramp,
            mem,
            prog,
            max_insts,
            start_budget,
        } = run;
        let finish = |jc: &JitCtx, stats: JitRunStats| finish(jc, start_budget, stats);
        loop {
            let entry = match entered.take() {
                Some(e) => Some(e),
                None => {
                    let pc = wave.pc;
                    let func = match tramp {
                        Some(_) => {
                            self.find_or_compile(code, prog, pc, wave.mode, wave.exec == u64::MAX)
                        }
                        None => None,
                    };
                    match (func, tramp) {
                        (Some(f), Some(t)) => {
                            let before = jc.budget;
                            stats.entries += 1;
                            // SAFETY: `f` is a block compiled for this program by this
                            // engine, whose module lives as long as `self`; `wave` and
                            // `jc` are live and exclusive.
                            let exit = unsafe { t(f, &mut *wave, &mut *jc) };
                            Some(Entered { exit, pc, before })
                        }
                        _ => None,
                    }
                }
            };
            if let Some(Entered { exit, pc, before }) = entry {
                match exit {
                    EXIT_NEXT => {
                        if jc.budget != before || wave.pc != pc {
                            continue;
                        }
                        // Not enough budget for the whole block: step it below.
                    }
                    EXIT_HOT_FULL | EXIT_HOT_MASKED => {
                        self.tier_up(code, prog, hot_spec(wave, exit));
                        continue;
                    }
                    EXIT_END => return Ok((Step::End, finish(jc, stats))),
                    EXIT_BARRIER => return Ok((Step::Barrier, finish(jc, stats))),
                    EXIT_ERROR => {
                        let e = jc.err.take().unwrap_or(ExecError {
                            pc: wave.pc,
                            kind: ExecErrorKind::BadOperand(
                                "compiled code failed without an error".into(),
                            ),
                        });
                        return Err(e);
                    }
                    other => {
                        return Err(ExecError {
                            pc: wave.pc,
                            kind: ExecErrorKind::BadOperand(format!(
                                "compiled code returned {other}"
                            )),
                        })
                    }
                }
            }
            // Interpret one instruction, or the pre-decoded block here.
            if jc.budget <= 0 {
                return Err(ExecError {
                    pc: wave.pc,
                    kind: ExecErrorKind::InstLimit(max_insts),
                });
            }
            if self.config.threaded && jc.counters_mut().is_none() {
                let built = |b: &wavejit_interp::threaded::Block| {
                    self.threaded_built[0].fetch_add(1, Ordering::Relaxed);
                    self.threaded_built[1].fetch_add(b.len() as u64, Ordering::Relaxed);
                };
                if let Some(b) = code.threaded_block(prog, wave.pc, built) {
                    // SAFETY: as below.
                    let lds = unsafe { &mut *jc.lds };
                    let mut ic = Ctx {
                        wave: &mut *wave,
                        lds,
                        mem,
                    };
                    let (s, n) = b.run(&mut ic, prog, jc.budget as u64)?;
                    jc.budget -= n as i64;
                    stats.threaded += n;
                    match s {
                        Step::Continue => continue,
                        Step::End | Step::Barrier => return Ok((s, finish(jc, stats))),
                    }
                }
            }
            let s = {
                // SAFETY: `jc.lds` was made from the run's LDS and is not otherwise used
                // while this reborrow lives.
                let lds = unsafe { &mut *jc.lds };
                let mut ic = Ctx {
                    wave: &mut *wave,
                    lds,
                    mem,
                };
                match jc.counters_mut() {
                    // The counters compiled code adds to, reached through the same pointer.
                    Some(c) => wavejit_interp::profile::step_counting(&mut ic, prog, c)?,
                    None => wavejit_interp::step(&mut ic, prog)?,
                }
            };
            jc.budget -= 1;
            stats.interpreted += 1;
            match s {
                Step::Continue => {}
                Step::End | Step::Barrier => return Ok((s, finish(jc, stats))),
            }
        }
    }

    /// The compiled code for `pc` in this state, compiling it when the tier policy says
    /// so. `None`: interpret. Inline: the lookup of code compiled already is most of
    /// what the dispatcher does per wave of a streaming kernel, and a call around it
    /// would cost as much again.
    #[inline]
    fn find_or_compile(
        &self,
        code: &ProgCode,
        prog: &Program,
        pc: u32,
        mode: u32,
        exec_all: bool,
    ) -> Option<usize> {
        if self.config.tier_threshold == NEVER_COMPILE {
            return None;
        }
        if let Some(f) = code.lookup(pc, mode, exec_all) {
            return Some(f);
        }
        self.count_or_compile(code, prog, pc, mode, exec_all)
    }

    /// `find_or_compile` where no code for this state is compiled yet: count the entry,
    /// and compile at the tier threshold.
    #[inline(never)]
    fn count_or_compile(
        &self,
        code: &ProgCode,
        prog: &Program,
        pc: u32,
        mode: u32,
        exec_all: bool,
    ) -> Option<usize> {
        let slot = code.slot(pc)?;
        let f = if slot.never.load(Ordering::Relaxed) != 0
            || slot.hits.fetch_add(1, Ordering::Relaxed).saturating_add(1)
                < self.config.tier_threshold
        {
            None
        } else {
            self.compile_slot(
                code,
                prog,
                Spec {
                    pc,
                    mode,
                    exec_all,
                    max_len: 0,
                },
            )
        };
        // Not compiled (yet, never, or the code budget is spent): the masked variant, if
        // there is one, still runs a full EXEC faster than the interpreter.
        f.or_else(|| code.lookup_any(pc, mode, exec_all))
    }

    /// Compile one variant and publish it in its slot: by the quick tier when there is
    /// one (the optimising tier if the quick one cannot), else optimised.
    pub(crate) fn compile_slot(
        &self,
        code: &ProgCode,
        prog: &Program,
        spec: Spec,
    ) -> Option<usize> {
        self.compile_tier(code, prog, spec, false)
    }

    /// Compile the optimised variant of a unit whose quick-tier code is hot
    /// (`EXIT_HOT_*`) and publish it in its place. A failure leaves the quick code.
    ///
    /// The unit's other variant, if it is quick code, is optimised too: a block is hot
    /// for both EXECs once it is hot for one, and the other variant's own count may never
    /// get there in a run (a stencil's border waves are a sixth of its waves) or get
    /// there only in a later launch, whose time then includes the compile.
    pub(crate) fn tier_up(&self, code: &ProgCode, prog: &Program, spec: Spec) {
        if self.compile_tier(code, prog, spec, true).is_none() {
            return;
        }
        let other = Spec {
            exec_all: !spec.exec_all,
            ..spec
        };
        if code.lookup(other.pc, other.mode, other.exec_all).is_some()
            && !self.optimised(code, other)
        {
            let _ = self.compile_tier(code, prog, other, true);
        }
    }

    /// Whether variant `spec` is (or is to be) optimised code: its quick code counted up
    /// to the threshold, or it was compiled optimised (`mark_optimised`).
    fn optimised(&self, code: &ProgCode, spec: Spec) -> bool {
        let t = self.config.hot_threshold;
        t == 0
            || code
                .slot(spec.pc)
                .is_some_and(|s| warm(s, spec.exec_all).load(Ordering::Relaxed) >= t)
    }

    fn compile_tier(
        &self,
        code: &ProgCode,
        prog: &Program,
        spec: Spec,
        hot: bool,
    ) -> Option<usize> {
        let slot = code.slot(spec.pc)?;
        let mut guard = self.compiler.lock().ok()?;
        let comp = guard.as_mut()?;
        // Another thread may have compiled it meanwhile.
        // (A hot unit is compiled again: its quick code is what the lookup finds.)
        if let (Some(f), false) = (code.lookup(spec.pc, spec.mode, spec.exec_all), hot) {
            return Some(f);
        }
        if comp.code_bytes() >= self.config.max_code_bytes {
            return None;
        }
        let t0 = crate::cputime::Timer::start();
        let threshold = self.config.hot_threshold;
        // A variant whose sibling is already optimised is compiled optimised right away.
        let other = Spec {
            exec_all: !spec.exec_all,
            ..spec
        };
        let optimise = hot || self.optimised(code, other);
        let r = match (optimise, comp.quick.as_mut()) {
            (false, Some(q)) if threshold > 0 => {
                match gcn::compile(q, &self.config, prog, code, spec, Some(threshold)) {
                    // The single-pass register allocator refuses some constraints: such a
                    // unit is compiled optimised right away.
                    Err(NoUnit::Failed(_)) => None,
                    r => Some(r),
                }
            }
            _ => None,
        };
        let quick = matches!(r, Some(Ok(_)));
        let r = match r {
            Some(r) => r,
            None => gcn::compile(&mut comp.backend, &self.config, prog, code, spec, None),
        };
        let nanos = t0.nanos();
        comp.stats.nanos += nanos;
        match r {
            Ok(u) => {
                comp.stats.blocks += 1;
                comp.stats.insts += u.insts as u64;
                if quick {
                    comp.stats.quick_blocks += 1;
                    comp.stats.quick_insts += u.insts as u64;
                    comp.stats.quick_nanos += nanos;
                } else if hot {
                    comp.stats.hot_blocks += 1;
                    comp.stats.hot_insts += u.insts as u64;
                }
                self.record(comp, code, spec, &u, quick);
                comp.stats.helper_insts += u.helpers as u64;
                comp.stats.clif_insts += u.clif_insts as u64;
                comp.stats.code_bytes = comp.code_bytes() as u64;
                code.publish(spec.pc, spec.mode, spec.exec_all, u.func);
                if !quick {
                    // Optimised code counts nothing: mark it so (`optimised`).
                    warm(slot, spec.exec_all).fetch_max(threshold, Ordering::Relaxed);
                }
                Some(u.func)
            }
            Err(_) if hot => {
                comp.stats.failures += 1;
                None
            }
            Err(NoUnit::Pointless) => {
                slot.never.store(1, Ordering::Relaxed);
                None
            }
            Err(NoUnit::Failed(e)) => {
                comp.stats.failures += 1;
                if std::env::var_os("WAVEJIT_JIT_DEBUG").is_some() {
                    eprintln!("wavejit-jit: block at pc 0x{:x} not compiled: {e}", spec.pc);
                }
                slot.never.store(1, Ordering::Relaxed);
                let _ = NO_MODE;
                None
            }
        }
    }
}

/// Runs of many waves of one program over one LDS and memory, one after another (the
/// waves of a workgroup): the context compiled code receives is made once for all of them
/// (with the thread's region cache looked up, making one costs about a tenth of what a
/// streaming kernel's wave costs outside its compiled code).
pub struct WaveSession<'a> {
    jit: &'a Jit,
    code: &'a ProgCode,
    prog: &'a Program,
    mem: &'a Memory,
    jc: JitCtx,
    tramp: Option<Trampoline>,
    /// `tramp` when the engine compiles at all (not `NEVER_COMPILE`): what `run`'s direct
    /// entry goes through.
    direct: Option<Trampoline>,
    /// `jc` points at the LDS: the session holds its borrow.
    _lds: PhantomData<&'a mut Lds>,
}

impl Jit {
    /// A session running waves of `prog`, bound as `h`, over `lds` and `mem`; `None`
    /// when `h` is not this engine's current handle of `prog` or the engine compiles
    /// profiling code (run each wave with `run_bound` then).
    pub fn session<'a>(
        &'a self,
        h: &'a ProgHandle,
        prog: &'a Program,
        lds: &'a mut Lds,
        mem: &'a Memory,
    ) -> Option<WaveSession<'a>> {
        if self.config.profile {
            return None;
        }
        let code = self.bound_code(h, prog)?;
        let tramp = self.live_trampoline();
        Some(WaveSession {
            jit: self,
            code,
            prog,
            mem,
            jc: context(lds, mem, prog, code),
            tramp,
            direct: tramp.filter(|_| self.config.tier_threshold != NEVER_COMPILE),
            _lds: PhantomData,
        })
    }
}

impl WaveSession<'_> {
    /// Run `wave` as `Jit::run_bound` does, with at most `max_insts` instructions;
    /// returns where it stopped and the instructions it ran.
    ///
    /// Inline and small, with the dispatcher's first step written out: a wave whose
    /// compiled code runs from its start to its end or barrier in one entry (a streaming
    /// kernel's every wave, a barrier kernel's every switch) costs a lookup and a call
    /// here, without the dispatcher's loop or its statistics; everything else goes
    /// through `run_rest`, out of line, so that this inlines into the caller's schedule.
    #[inline(always)]
    pub fn run(&mut self, wave: &mut Wave, max_insts: u64) -> Result<(Step, u64), ExecError> {
        // Only the budget is set here (`start` less its error and helper resets): the
        // session's context holds no error between runs, since the dispatcher takes the
        // error of every `EXIT_ERROR`, and the helper count is not reported.
        let start_budget = max_insts.min(i64::MAX as u64) as i64;
        self.jc.budget = start_budget;
        let pc = wave.pc;
        let func = match self.direct {
            Some(t) => self
                .code
                .lookup(pc, wave.mode, wave.exec == u64::MAX)
                .map(|f| (f, t)),
            None => None,
        };
        let Some((f, t)) = func else {
            return self.run_rest(wave, max_insts, start_budget, None);
        };
        let before = self.jc.budget;
        // SAFETY: as in `run_from`: `f` is this engine's code for this program, `wave`
        // and the session's context are live and exclusive.
        let exit = unsafe { t(f, &mut *wave, &mut self.jc) };
        let step = match exit {
            EXIT_END => Step::End,
            EXIT_BARRIER => Step::Barrier,
            _ => {
                let entered = Entered { exit, pc, before };
                return self.run_rest(wave, max_insts, start_budget, Some(entered));
            }
        };
        // The instructions as `finish` counts them.
        Ok((step, (start_budget - self.jc.budget) as u64))
    }

    /// The dispatcher's loop for what `run` does not finish itself: a wave that starts
    /// in code not compiled (yet), or whose first entry returned something other than
    /// its end or a barrier (`entered`).
    #[inline(never)]
    fn run_rest(
        &mut self,
        wave: &mut Wave,
        max_insts: u64,
        start_budget: i64,
        entered: Option<Entered>,
    ) -> Result<(Step, u64), ExecError> {
        if entered.is_none() {
            // Nothing ran yet: the whole of `start`, should an error have been left.
            start(&mut self.jc, max_insts);
        }
        let run = Run {
            code: self.code,
            tramp: self.tramp,
            mem: self.mem,
            prog: self.prog,
            max_insts,
            start_budget,
        };
        let stats = JitRunStats {
            entries: entered.is_some() as u64,
            ..JitRunStats::default()
        };
        self.jit
            .run_from(&run, &mut self.jc, wave, stats, entered)
            .map(|(step, stats)| (step, stats.insts))
    }

    /// Zero the LDS the session's waves run over (its size stays).
    pub fn clear_lds(&mut self) {
        // SAFETY: `jc.lds` is the LDS this session borrows exclusively for its lifetime
        // (`_lds`); no compiled code runs during this call, and nothing is resized, so
        // the context's `lds_base` and `lds_len` stay valid.
        unsafe { (*self.jc.lds).bytes.fill(0) };
    }
}

/// What one run of the dispatcher works with besides its context and wave.
struct Run<'a> {
    code: &'a ProgCode,
    tramp: Option<Trampoline>,
    mem: &'a Memory,
    prog: &'a Program,
    max_insts: u64,
    /// `jc.budget` at the start (`start`).
    start_budget: i64,
}

/// An entry into compiled code at `pc` with `before` instructions of budget left, and the
/// exit code it returned.
struct Entered {
    exit: u32,
    pc: u32,
    before: i64,
}

/// Set `jc` up for a run of at most `max_insts` instructions; returns its budget.
#[inline]
fn start(jc: &mut JitCtx, max_insts: u64) -> i64 {
    let budget = max_insts.min(i64::MAX as u64) as i64;
    jc.budget = budget;
    // Usually empty already (the dispatcher takes the error of every `EXIT_ERROR`).
    if jc.err.is_some() {
        jc.err = None;
    }
    jc.helper_steps = 0;
    budget
}

/// `stats` with the instructions a run that started with `start_budget` ran and the
/// helper steps of `jc`.
#[inline]
fn finish(jc: &JitCtx, start_budget: i64, mut stats: JitRunStats) -> JitRunStats {
    stats.insts = (start_budget - jc.budget) as u64;
    stats.helper_steps = jc.helper_steps;
    stats
}

/// What one dispatcher step did (the diff engine walks a run this way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitStep {
    /// Instructions executed.
    pub insts: u64,
    /// `Some` when the wave stopped (end of program or barrier).
    pub stop: Option<Step>,
    /// Whether compiled code ran (else the interpreter stepped one instruction).
    pub compiled: bool,
}

impl Jit {
    /// Run the one compiled unit at `ctx.wave.pc` (compiling it if needed), or else one
    /// interpreted instruction. With `chain` off in the config, exactly one block runs.
    pub fn step_unit(
        &self,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        budget: u64,
    ) -> Result<UnitStep, ExecError> {
        let code = self.prog_code(prog);
        let f = if self.broken.is_none() {
            self.find_or_compile(
                &code,
                prog,
                ctx.wave.pc,
                ctx.wave.mode,
                ctx.wave.exec == u64::MAX,
            )
        } else {
            None
        };
        match f {
            Some(f) => self.call_unit(ctx, prog, f, budget),
            None => interp_one(ctx, prog, budget),
        }
    }

    /// Compile the unit `spec` of `prog` as a first use would (the quick tier when there
    /// is one) and publish it, without running anything; `None` if it stays interpreted.
    /// Measurements of the compiler (`examples/compile_cost.rs`) go through this.
    pub fn precompile(&self, prog: &Program, spec: Spec) -> Option<usize> {
        if self.broken.is_some() {
            return None;
        }
        let code = self.prog_code(prog);
        self.compile_slot(&code, prog, spec)
    }

    /// Compile the unit `spec` of `prog` without publishing it (diff engine: prefixes of a
    /// block). The code lives until the next flush.
    pub fn compile_detached(&self, prog: &Program, spec: Spec) -> Option<usize> {
        let code = self.prog_code(prog);
        let mut guard = self.compiler.lock().ok()?;
        let comp = guard.as_mut()?;
        let u = gcn::compile(&mut comp.backend, &self.config, prog, &code, spec, None).ok()?;
        // Not published, so not stored either.
        comp.backend.last = None;
        Some(u.func)
    }

    /// Call compiled unit `f` once from the current state.
    pub fn call_unit(
        &self,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        f: usize,
        budget: u64,
    ) -> Result<UnitStep, ExecError> {
        let Some(t) = self.trampoline() else {
            return interp_one(ctx, prog, budget);
        };
        let start = budget.min(i64::MAX as u64) as i64;
        let code = self.prog_code(prog);
        let mut jc = context(&mut *ctx.lds, ctx.mem, prog, &code);
        jc.budget = start;
        let pc = ctx.wave.pc;
        let mut f = f;
        let r = loop {
            // SAFETY: as in `run_with_stats`.
            let r = unsafe { t(f, &mut *ctx.wave, &mut jc) };
            if !matches!(r, EXIT_HOT_FULL | EXIT_HOT_MASKED) {
                break r;
            }
            self.tier_up(&code, prog, hot_spec(ctx.wave, r));
            if jc.budget != start || ctx.wave.pc != pc {
                break EXIT_NEXT;
            }
            // Nothing ran: run the unit again, optimised now (or the quick code again,
            // which does not ask twice).
            match code.lookup_any(pc, ctx.wave.mode, ctx.wave.exec == u64::MAX) {
                Some(g) => f = g,
                None => return interp_one(ctx, prog, budget),
            }
        };
        let insts = (start - jc.budget) as u64;
        let stop = match r {
            EXIT_NEXT => None,
            EXIT_END => Some(Step::End),
            EXIT_BARRIER => Some(Step::Barrier),
            _ => {
                return Err(jc.err.take().unwrap_or(ExecError {
                    pc: ctx.wave.pc,
                    kind: ExecErrorKind::BadOperand(format!("compiled code returned {r}")),
                }))
            }
        };
        if stop.is_none() && insts == 0 && ctx.wave.pc == pc {
            // Not enough budget for the whole unit.
            return interp_one(ctx, prog, budget);
        }
        Ok(UnitStep {
            insts,
            stop,
            compiled: true,
        })
    }
}

impl Jit {
    /// Keep the unit just compiled for `code` (when there is a disk cache).
    fn record(&self, comp: &mut Compiler, code: &ProgCode, spec: Spec, u: &gcn::Unit, quick: bool) {
        if self.disk.is_none() {
            return;
        }
        let last = match (quick, comp.quick.as_mut()) {
            (true, Some(q)) => q.last.take(),
            _ => comp.backend.last.take(),
        };
        let Some(art) = last else {
            return;
        };

        if let Ok(mut st) = code.stored.lock() {
            // A unit compiled again (its slot went to another MODE meanwhile) replaces
            // the stored one, so files do not grow from run to run.
            st.units.retain(|s| s.spec != spec);
            st.units.push(StoredUnit {
                spec,
                insts: u.insts,
                helpers: u.helpers,
                clif_insts: u.clif_insts,
                art,
            });
            st.dirty = true;
        }
    }
}

/// The `JitCtx` of runs of `prog` (whose code cache entry is `code`) over `lds` and `mem`
/// (`run_in` sets its budget).
fn context(lds: &mut Lds, mem: &Memory, prog: &Program, code: &ProgCode) -> JitCtx {
    JitCtx::new(
        0,
        lds,
        mem,
        prog,
        code.slots.as_ptr().cast(),
        (
            crate::mem::global::mem_span as *const () as usize,
            crate::mem::lds::ZEROS.as_ptr(),
        ),
    )
}

/// The unit that returned `EXIT_HOT_*` code `r` at the wave's pc.
/// The quick-code entry counter of a slot's variant.
fn warm(slot: &crate::cache::EntrySlot, exec_all: bool) -> &std::sync::atomic::AtomicU32 {
    if exec_all {
        &slot.warm_full
    } else {
        &slot.warm_masked
    }
}

fn hot_spec(wave: &wavejit_isa::state::Wave, r: u32) -> Spec {
    Spec {
        pc: wave.pc,
        mode: wave.mode,
        exec_all: r == EXIT_HOT_FULL,
        max_len: 0,
    }
}

fn interp_one(ctx: &mut Ctx<'_>, prog: &Program, budget: u64) -> Result<UnitStep, ExecError> {
    if budget == 0 {
        return Err(ExecError {
            pc: ctx.wave.pc,
            kind: ExecErrorKind::InstLimit(0),
        });
    }
    let s = wavejit_interp::step(ctx, prog)?;
    Ok(UnitStep {
        insts: 1,
        stop: match s {
            Step::Continue => None,
            s => Some(s),
        },
        compiled: false,
    })
}
