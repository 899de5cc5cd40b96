//! The engines that run a wave, behind one trait ([`WaveEngine`]): the reference
//! interpreter ([`Interp`]), the Cranelift JIT compiling every block on first use or once
//! it is hot ([`Jit`]), and both side by side, compared after every block ([`Diff`]).
//! `run_wave`, the grid (`grid::run`), the `Device`, the fuzzer and the benchmarks all
//! run waves through it. [`Engine`] names the kinds on the command line.

#![cfg_attr(not(test), deny(clippy::unwrap_used))]

use std::str::FromStr;
use std::sync::OnceLock;

use wavejit_interp::profile::Profile;
use wavejit_interp::{ExecError, ExecErrorKind, RunStats, Step};
use wavejit_isa::ir::{Inst, Program};
use wavejit_isa::state::{Lds, Memory, Wave};

use crate::Error;

mod runner;
pub use runner::{schedule, GroupStop, GroupWaves, WaveError, WaveRunner};

/// Where the JIT engines keep compiled units between processes (`for_engine_cached`).
pub use wavejit_jit::DiskCache;

/// Which engine executes a program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The reference interpreter (`wavejit-interp`).
    Interp,
    /// The Cranelift JIT (`wavejit-jit`): every block compiled on first use.
    #[default]
    Jit,
    /// Run a block as pre-decoded code (`wavejit_interp::threaded`) until it has run
    /// `wavejit_jit::DEFAULT_TIER_THRESHOLD` times, then compile it.
    Tiered,
    /// Pre-decoded code only (`wavejit_interp::threaded`): every block decoded once,
    /// its instructions run by the interpreter's own functions; nothing compiled.
    Threaded,
    /// Interpreter and JIT side by side, compared after every block; the first
    /// difference is an error naming the instruction (`wavejit_jit::diff`).
    Diff,
}

impl Engine {
    /// Every engine, by its command-line name.
    pub const ALL: &'static [(&'static str, Engine)] = &[
        ("interp", Engine::Interp),
        ("jit", Engine::Jit),
        ("tiered", Engine::Tiered),
        ("threaded", Engine::Threaded),
        ("diff", Engine::Diff),
    ];

    pub fn name(self) -> &'static str {
        Engine::ALL
            .iter()
            .find(|(_, e)| *e == self)
            .map_or("?", |(n, _)| n)
    }
}

impl FromStr for Engine {
    type Err = Error;
    fn from_str(s: &str) -> Result<Engine, Error> {
        let l = s.trim().to_ascii_lowercase();
        Engine::ALL
            .iter()
            .find(|(n, _)| *n == l)
            .map(|(_, e)| *e)
            .ok_or_else(|| {
                let names: Vec<&str> = Engine::ALL.iter().map(|(n, _)| *n).collect();
                Error::Usage(format!("unknown engine `{s}` (try {})", names.join("|")))
            })
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Executes a wave until it ends or reaches a barrier: the interpreter or a JIT.
pub trait WaveEngine: Send + Sync {
    /// Run at most `budget` instructions; returns why it stopped and how many ran.
    /// Reaching the budget is `ExecErrorKind::InstLimit`.
    fn run(
        &self,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        budget: u64,
    ) -> Result<(Step, u64), ExecError>;

    /// `run`, with the failures that are not execution errors kept apart (the `diff`
    /// engine's mismatches). The grid calls this one.
    fn run_checked(
        &self,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        budget: u64,
    ) -> Result<(Step, u64), WaveError> {
        self.run(prog, wave, lds, mem, budget)
            .map_err(WaveError::Exec)
    }

    /// What the engine looks up per program (a JIT: its code cache entry), looked up once
    /// for the runs of one dispatch; `run_bound` takes it back. The default keeps
    /// nothing.
    fn bind(&self, prog: &Program) -> Bound {
        let _ = prog;
        Bound::default()
    }

    /// `run_checked` of `prog`, with `b` from `bind(prog)` on this engine.
    fn run_bound(
        &self,
        b: &Bound,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        budget: u64,
    ) -> Result<(Step, u64), WaveError> {
        let _ = b;
        self.run_checked(prog, wave, lds, mem, budget)
    }

    /// Call `f` once with a runner of `prog` (`b` from `bind(prog)`) over `lds` and `mem`,
    /// for the waves of one workgroup. The default runs each wave through `run_bound`.
    fn with_runner(
        &self,
        b: &Bound,
        prog: &Program,
        lds: &mut Lds,
        mem: &Memory,
        f: &mut dyn FnMut(&mut dyn WaveRunner),
    ) {
        f(&mut BoundRunner {
            engine: self,
            b,
            prog,
            lds,
            mem,
        })
    }

    /// `run_checked`, counting profile events into `prof` (`wavejit_interp::profile`).
    /// Engines that cannot count refuse with `Unsupported`.
    fn run_profiled(
        &self,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        budget: u64,
        prof: &mut Profile,
    ) -> Result<(Step, u64), WaveError> {
        let _ = (prog, lds, mem, budget, prof);
        Err(WaveError::Exec(ExecError {
            pc: wave.pc,
            kind: ExecErrorKind::Unsupported {
                mnemonic: format!("profiling on the {} engine", self.name()),
            },
        }))
    }

    /// Name shown in summaries.
    fn name(&self) -> &'static str;

    /// The most host threads this engine can run a grid on (`None`: any).
    fn max_threads(&self) -> Option<usize> {
        None
    }

    /// What the engine did besides running (a JIT: blocks compiled), for summaries.
    fn report(&self) -> Option<String> {
        None
    }

    /// Whether the engine's code cache has reached its size bound (from then on a JIT
    /// interprets what it has not compiled yet).
    fn code_cache_full(&self) -> bool {
        false
    }

    /// Forget compiled code (a JIT's code cache); engines without one do nothing.
    fn flush(&mut self) {}

    /// Write what was compiled since the last save to the engine's disk cache, if it
    /// has one (`wavejit_jit::disk`). A failed write only costs the next process time.
    fn save_code_cache(&self) {}

    /// The compiler's counters, for engines that compile.
    fn compile_stats(&self) -> Option<wavejit_jit::CompileStats> {
        None
    }
}

/// The default runner: each wave through the engine's `run_bound`.
struct BoundRunner<'a, E: ?Sized> {
    engine: &'a E,
    b: &'a Bound,
    prog: &'a Program,
    lds: &'a mut Lds,
    mem: &'a Memory,
}

impl<E: WaveEngine + ?Sized> WaveRunner for BoundRunner<'_, E> {
    fn run(&mut self, wave: &mut Wave, budget: u64) -> Result<(Step, u64), WaveError> {
        self.engine
            .run_bound(self.b, self.prog, wave, self.lds, self.mem, budget)
    }

    fn clear_lds(&mut self) {
        self.lds.bytes.fill(0);
    }
}

/// The JIT's runner: one `wavejit_jit::WaveSession` for all the waves of a host worker.
struct SessionRunner<'a>(wavejit_jit::WaveSession<'a>);

impl WaveRunner for SessionRunner<'_> {
    /// Inlined into this runner's `run_group` (the schedule's per-wave call).
    #[inline(always)]
    fn run(&mut self, wave: &mut Wave, budget: u64) -> Result<(Step, u64), WaveError> {
        Ok(self.0.run(wave, budget)?)
    }

    fn clear_lds(&mut self) {
        self.0.clear_lds();
    }
}

/// What `WaveEngine::bind` kept of a program for the runs of one dispatch (engine-specific;
/// empty for engines that look nothing up).
#[derive(Default)]
pub struct Bound(Option<Box<dyn std::any::Any + Send + Sync>>);

/// The reference interpreter.
#[derive(Clone, Copy, Debug, Default)]
pub struct Interp;

impl WaveEngine for Interp {
    fn run(
        &self,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        budget: u64,
    ) -> Result<(Step, u64), ExecError> {
        let mut ctx = wavejit_interp::Ctx { wave, lds, mem };
        let (step, stats) = wavejit_interp::run(&mut ctx, prog, budget)?;
        Ok((step, stats.insts))
    }

    fn run_profiled(
        &self,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        budget: u64,
        prof: &mut Profile,
    ) -> Result<(Step, u64), WaveError> {
        let mut ctx = wavejit_interp::Ctx { wave, lds, mem };
        let (step, stats) = wavejit_interp::profile::run(&mut ctx, prog, budget, prof)?;
        Ok((step, stats.insts))
    }

    fn name(&self) -> &'static str {
        "interp"
    }
}

/// The Cranelift JIT (`wavejit-jit`): compiles each block on first use (`jit`) or once it
/// is hot (`tiered`), interpreting the rest. One engine (and code cache) is shared by all
/// the worker threads of a grid.
pub struct Jit {
    jit: wavejit_jit::Jit,
    /// The same engine compiling code that counts profile events, made on the first
    /// profiled run (its code is kept apart: it is slower).
    profiling: OnceLock<wavejit_jit::Jit>,
    name: &'static str,
}

impl Jit {
    /// Compile every block on first use.
    pub fn eager() -> Jit {
        Jit::with_config(wavejit_jit::JitConfig::default())
    }

    /// Run blocks as pre-decoded code until they are hot, then compile them.
    pub fn tiered() -> Jit {
        Jit::with_config(wavejit_jit::JitConfig::tiered())
    }

    /// Run every block as pre-decoded code; compile nothing.
    pub fn threaded() -> Jit {
        Jit::with_config(wavejit_jit::JitConfig::threaded_only())
    }

    /// A JIT configured by `config`: `threaded` when it never compiles, `tiered` when its
    /// tier threshold is above 1, else `jit`.
    pub fn with_config(config: wavejit_jit::JitConfig) -> Jit {
        Jit::with_disk_cache(config, None)
    }

    /// As `with_config`, keeping compiled units in `disk` between processes.
    pub fn with_disk_cache(
        config: wavejit_jit::JitConfig,
        disk: Option<wavejit_jit::DiskCache>,
    ) -> Jit {
        Jit {
            jit: wavejit_jit::Jit::with_disk_cache(config, disk),
            profiling: OnceLock::new(),
            name: match config.tier_threshold {
                wavejit_jit::NEVER_COMPILE => "threaded",
                0 | 1 => "jit",
                _ => "tiered",
            },
        }
    }

    /// The compiler's counters so far.
    pub fn compile_stats(&self) -> wavejit_jit::CompileStats {
        self.jit.stats()
    }

    /// The underlying `wavejit_jit::Jit` (its configuration, statistics, health).
    pub fn inner(&self) -> &wavejit_jit::Jit {
        &self.jit
    }
}

impl WaveEngine for Jit {
    fn run(
        &self,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        budget: u64,
    ) -> Result<(Step, u64), ExecError> {
        let mut ctx = wavejit_interp::Ctx { wave, lds, mem };
        let (step, stats) = self.jit.run(&mut ctx, prog, budget)?;
        Ok((step, stats.insts))
    }

    fn bind(&self, prog: &Program) -> Bound {
        Bound(Some(Box::new(self.jit.bind(prog))))
    }

    fn run_bound(
        &self,
        b: &Bound,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        budget: u64,
    ) -> Result<(Step, u64), WaveError> {
        let Some(h) =
            b.0.as_ref()
                .and_then(|h| h.downcast_ref::<wavejit_jit::ProgHandle>())
        else {
            return self.run_checked(prog, wave, lds, mem, budget);
        };
        let mut ctx = wavejit_interp::Ctx { wave, lds, mem };
        let (step, stats) = self.jit.run_bound(h, &mut ctx, prog, budget)?;
        Ok((step, stats.insts))
    }

    fn with_runner(
        &self,
        b: &Bound,
        prog: &Program,
        lds: &mut Lds,
        mem: &Memory,
        f: &mut dyn FnMut(&mut dyn WaveRunner),
    ) {
        let h =
            b.0.as_ref()
                .and_then(|h| h.downcast_ref::<wavejit_jit::ProgHandle>());
        match h.and_then(|h| self.jit.session(h, prog, lds, mem)) {
            Some(s) => f(&mut SessionRunner(s)),
            None => f(&mut BoundRunner {
                engine: self,
                b,
                prog,
                lds,
                mem,
            }),
        }
    }

    fn run_profiled(
        &self,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        budget: u64,
        prof: &mut Profile,
    ) -> Result<(Step, u64), WaveError> {
        let jit = self.profiling.get_or_init(|| {
            wavejit_jit::Jit::new(wavejit_jit::JitConfig {
                profile: true,
                ..*self.jit.config()
            })
        });
        let mut ctx = wavejit_interp::Ctx { wave, lds, mem };
        let (step, stats) = jit.run_profiled(&mut ctx, prog, budget, prof)?;
        Ok((step, stats.insts))
    }

    fn name(&self) -> &'static str {
        self.name
    }

    fn report(&self) -> Option<String> {
        if let Some(e) = self.jit.broken() {
            return Some(format!(
                "JIT unavailable ({e}); every instruction was interpreted"
            ));
        }
        let mut s = self.jit.stats();
        if let Some(p) = self.profiling.get() {
            let q = p.stats();
            s.blocks += q.blocks;
            s.insts += q.insts;
            s.helper_insts += q.helper_insts;
            s.nanos += q.nanos;
            s.failures += q.failures;
            s.hot_blocks += q.hot_blocks;
        }
        let disk = if self.jit.disk_cache().is_some() {
            format!(
                ", {} from the disk cache ({:.1} ms loading and saving{})",
                s.disk_units,
                s.disk_nanos as f64 / 1e6,
                if s.disk_rejected > 0 {
                    format!(", {} stale or corrupted entries ignored", s.disk_rejected)
                } else {
                    String::new()
                }
            )
        } else {
            String::new()
        };
        Some(format!(
            "{} blocks ({} instructions, {} through interpreter helpers) compiled in {:.1} ms{}{disk}{}",
            s.blocks,
            s.insts,
            s.helper_insts,
            s.nanos as f64 / 1e6,
            if s.hot_blocks > 0 {
                format!(" ({} of them hot blocks compiled again, optimised)", s.hot_blocks)
            } else {
                String::new()
            },
            if s.failures > 0 {
                format!(
                    ", {} blocks failed to compile and were interpreted",
                    s.failures
                )
            } else {
                String::new()
            }
        ))
    }

    fn code_cache_full(&self) -> bool {
        self.jit.is_full()
    }

    fn save_code_cache(&self) {
        self.jit.save_disk_cache();
    }

    fn compile_stats(&self) -> Option<wavejit_jit::CompileStats> {
        Some(self.jit.stats())
    }

    fn flush(&mut self) {
        self.jit.flush();
        if let Some(p) = self.profiling.get_mut() {
            p.flush();
        }
    }
}

/// The interpreter and the JIT side by side (`wavejit_jit::diff_run`): every block runs in
/// both from the same state and everything it can change is compared; the first
/// difference is an error naming the instruction. The waves continue from the
/// interpreter's state. Slow (memory is compared after every block) and one thread only
/// (other workgroups must not write memory while a block is compared).
#[derive(Clone, Copy, Debug, Default)]
pub struct Diff;

impl WaveEngine for Diff {
    /// A mismatch becomes a `BadOperand` error carrying its description here;
    /// `run_checked` keeps it typed.
    fn run(
        &self,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        budget: u64,
    ) -> Result<(Step, u64), ExecError> {
        self.run_checked(prog, wave, lds, mem, budget)
            .map_err(|e| match e {
                WaveError::Exec(e) => e,
                WaveError::Mismatch(m) => ExecError {
                    pc: m.pc,
                    kind: ExecErrorKind::BadOperand(format!(
                        "the interpreter and the JIT disagree: {m}"
                    )),
                },
            })
    }

    fn run_checked(
        &self,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        budget: u64,
    ) -> Result<(Step, u64), WaveError> {
        let mut ctx = wavejit_interp::Ctx { wave, lds, mem };
        let d = with_diff_jit(|jit| wavejit_jit::diff_run_on(jit, &mut ctx, prog, budget))?;
        if let Some(m) = d.mismatch {
            return Err(WaveError::Mismatch(m));
        }
        Ok((d.stop.unwrap_or(Step::Continue), d.stats.insts))
    }

    fn run_profiled(
        &self,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        budget: u64,
        prof: &mut Profile,
    ) -> Result<(Step, u64), WaveError> {
        let mut ctx = wavejit_interp::Ctx { wave, lds, mem };
        let d = with_diff_jit(|jit| {
            wavejit_jit::diff_run_profiled_on(jit, &mut ctx, prog, budget, prof)
        })?;
        if let Some(m) = d.mismatch {
            return Err(WaveError::Mismatch(m));
        }
        Ok((d.stop.unwrap_or(Step::Continue), d.stats.insts))
    }

    fn name(&self) -> &'static str {
        "diff"
    }

    fn max_threads(&self) -> Option<usize> {
        Some(1)
    }
}

/// The process's JIT of the `diff` engine, for `f`: its code cache outlives a run, so
/// the waves of a grid (and programs run again) compile each block once; emptied when it
/// reaches its size bound, so that blocks are always compiled, never quietly interpreted
/// on both sides. One run at a time (the engine is single-threaded).
fn with_diff_jit<T>(f: impl FnOnce(&wavejit_jit::Jit) -> T) -> T {
    static JIT: std::sync::Mutex<Option<wavejit_jit::Jit>> = std::sync::Mutex::new(None);
    let mut guard = match JIT.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    };
    let jit = guard.get_or_insert_with(|| wavejit_jit::diff_jit(wavejit_jit::JitConfig::default()));
    jit.flush_if_full();
    f(jit)
}

/// A new engine of kind `engine` (with a code cache of its own).
pub fn for_engine(engine: Engine) -> Box<dyn WaveEngine> {
    match engine {
        Engine::Interp => Box::new(Interp),
        Engine::Jit => Box::new(Jit::eager()),
        Engine::Tiered => Box::new(Jit::tiered()),
        Engine::Threaded => Box::new(Jit::threaded()),
        Engine::Diff => Box::new(Diff),
    }
}

/// As `for_engine`, the JIT engines keeping compiled units in `disk` between processes
/// (`wavejit_jit::disk`; the CLI passes `DiskCache::from_env()` unless `--no-cache`).
pub fn for_engine_cached(
    engine: Engine,
    disk: Option<wavejit_jit::DiskCache>,
) -> Box<dyn WaveEngine> {
    let tiered = wavejit_jit::JitConfig::tiered();
    match engine {
        Engine::Jit => Box::new(Jit::with_disk_cache(
            wavejit_jit::JitConfig::default(),
            disk,
        )),
        Engine::Tiered => Box::new(Jit::with_disk_cache(tiered, disk)),
        other => for_engine(other),
    }
}

/// The engine called `name` on the command line (`interp`, `jit`, `tiered`, `threaded`,
/// `diff`).
pub fn by_name(name: &str) -> Result<Box<dyn WaveEngine>, String> {
    name.parse::<Engine>()
        .map(for_engine)
        .map_err(|e| e.to_string())
}

/// The process-wide engine of kind `engine`: its code cache outlives one run, so a
/// program run again is not compiled again. When a cache reaches its size bound, the
/// rest runs in the interpreter.
pub fn shared(engine: Engine) -> &'static dyn WaveEngine {
    static JIT: OnceLock<Jit> = OnceLock::new();
    static TIERED: OnceLock<Jit> = OnceLock::new();
    static THREADED: OnceLock<Jit> = OnceLock::new();
    match engine {
        Engine::Interp => &Interp,
        Engine::Jit => JIT.get_or_init(Jit::eager),
        Engine::Tiered => TIERED.get_or_init(Jit::tiered),
        Engine::Threaded => THREADED.get_or_init(Jit::threaded),
        Engine::Diff => &Diff,
    }
}

/// Run the interpreter one instruction at a time, with at most `budget` instructions,
/// calling `after(wave, inst, exec)` after each with the instruction it ran (`None` where
/// the pc holds none) and the EXEC it ran under: for engines that observe or perturb the
/// reference (benchmark counters, planted faults). Stops as `WaveEngine::run` does.
pub fn interp_stepwise(
    prog: &Program,
    wave: &mut Wave,
    lds: &mut Lds,
    mem: &Memory,
    budget: u64,
    mut after: impl FnMut(&mut Wave, Option<&Inst>, u64),
) -> Result<(Step, u64), ExecError> {
    let mut ctx = wavejit_interp::Ctx { wave, lds, mem };
    let mut n = 0u64;
    loop {
        if n >= budget {
            return Err(ExecError {
                pc: ctx.wave.pc,
                kind: ExecErrorKind::InstLimit(budget),
            });
        }
        let inst = prog
            .slot_index(ctx.wave.pc)
            .and_then(|i| prog.slots.get(i))
            .and_then(|s| s.inst.as_ref().ok());
        let exec = ctx.wave.exec;
        let step = wavejit_interp::step(&mut ctx, prog)?;
        n += 1;
        after(ctx.wave, inst, exec);
        if step != Step::Continue {
            return Ok((step, n));
        }
    }
}

/// Run one wave from `wave.pc` until `s_endpgm` on `engine`, with at most `max_insts`
/// instructions. The wave is a workgroup of its own, so `s_barrier` lets it continue at
/// once. Running past the budget is `InstLimit(max_insts)` at the pc it reached.
pub fn run_to_end(
    engine: &dyn WaveEngine,
    prog: &Program,
    wave: &mut Wave,
    lds: &mut Lds,
    mem: &Memory,
    max_insts: u64,
) -> Result<RunStats, WaveError> {
    let mut total = RunStats::default();
    loop {
        let left = max_insts.saturating_sub(total.insts);
        let limit = |pc| {
            WaveError::Exec(ExecError {
                pc,
                kind: ExecErrorKind::InstLimit(max_insts),
            })
        };
        if left == 0 {
            return Err(limit(wave.pc));
        }
        let (stop, n) = engine
            .run_checked(prog, wave, lds, mem, left)
            .map_err(|e| match e {
                WaveError::Exec(ExecError {
                    pc,
                    kind: ExecErrorKind::InstLimit(_),
                }) => limit(pc),
                other => other,
            })?;
        total.insts += n;
        match stop {
            Step::End => return Ok(total),
            Step::Barrier => {}
            Step::Continue => return Err(limit(wave.pc)),
        }
    }
}
