//! The measurements of `wavejit bench`: every suite kernel on every engine (rates,
//! compile cost, break-even), the native baselines, the tiered engine on a program that
//! runs each block once and over a range of thresholds, multi-wave scaling, and the rate of
//! short differential fuzzing campaigns. Times are
//! the best of several runs (the least disturbed by other work on the host); every
//! engine's result is checked against the kernel's independent computation before its
//! time counts.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use wavejit_isa::ir::Program;
use wavejit_isa::{Arch, Gen};
use wavejit_jit::DEFAULT_TIER_THRESHOLD;

use super::engines::{self, Matmul};
use super::report::{
    FuzzRate, Host, KernelResult, Once, Report, Scaling, ScalingPoint, Sweep, Times,
};
use super::suite::{Kernel, Shape, WaveState, KERNELS};
use super::{clock, native};
use wavejit::engine::{Engine, Interp, Jit, WaveEngine};
use wavejit::Error;
use wavejit_fuzzing::campaign;

/// What to measure.
#[derive(Clone, Debug)]
pub struct Options {
    /// The short suite (under a minute on a 2-core host).
    pub quick: bool,
    /// Only these kernels (empty: all).
    pub kernels: Vec<String>,
    /// Most threads for the scaling runs (0: every core).
    pub threads: usize,
    /// Print what is being measured to stderr.
    pub verbose: bool,
}

impl Options {
    fn say(&self, msg: impl FnOnce() -> String) {
        if self.verbose {
            eprintln!("bench: {}", msg());
        }
    }
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64().max(1e-9)
}

/// A mismatch against the reference is an error of the whole benchmark: a fast wrong
/// answer measures nothing.
fn wrong(kernel: &str, engine: &str, msg: String) -> Error {
    Error::Usage(format!("{kernel} on {engine}: wrong result: {msg}"))
}

/// Run the suite.
pub fn run(opts: &Options) -> Result<Report, Error> {
    let started = Instant::now();
    let host = Host::probe();
    let mut kernels = Vec::new();
    for k in KERNELS.iter() {
        if !opts.kernels.is_empty() && !opts.kernels.iter().any(|n| n == k.name) {
            continue;
        }
        let r = match k.shape {
            Shape::Wave => measure_wave_kernel(k, opts)?,
            Shape::Group => measure_group_kernel(k, opts)?,
        };
        kernels.push(r);
    }
    opts.say(|| "tiered engine on a program that runs each block once".into());
    let once = measure_once(opts)?;
    opts.say(|| "short fuzzing campaigns".into());
    let fuzz = measure_fuzz(opts)?;
    let sweep = if opts.quick {
        Vec::new()
    } else {
        measure_sweep(opts)?
    };
    opts.say(|| "multi-wave scaling".into());
    let scaling = measure_scaling(opts)?;
    let mut host = host;
    host.load_after = super::report::loadavg();
    let mut report = Report {
        host,
        quick: opts.quick,
        tier_threshold: DEFAULT_TIER_THRESHOLD,
        kernels,
        scaling,
        tiered_once: once,
        fuzz,
        tier_sweep: sweep,
        targets: Vec::new(),
        seconds: started.elapsed().as_secs_f64(),
    };
    report.targets = super::report::targets(&report);
    Ok(report)
}

/// How often to repeat a timed run: at most `reps` times, and no more once `budget`
/// seconds have been spent (at least once).
#[derive(Clone, Copy)]
struct Reps {
    reps: usize,
    budget: f64,
}

impl Options {
    fn fast(&self) -> Reps {
        if self.quick {
            Reps {
                reps: 3,
                budget: 1.0,
            }
        } else {
            Reps {
                reps: 7,
                budget: 6.0,
            }
        }
    }

    fn slow(&self) -> Reps {
        if self.quick {
            Reps {
                reps: 1,
                budget: 0.0,
            }
        } else {
            Reps {
                reps: 3,
                budget: 6.0,
            }
        }
    }
}

/// The best time of repeated runs of `run`, each from a fresh state made by `setup`
/// (untimed); the result of the first run is given to `check` (untimed).
fn best<S>(
    r: Reps,
    mut setup: impl FnMut() -> Result<S, Error>,
    mut run: impl FnMut(&mut S) -> Result<(), Error>,
    mut check: impl FnMut(&S) -> Result<(), Error>,
) -> Result<f64, Error> {
    let mut best = f64::INFINITY;
    let mut spent = 0.0;
    for i in 0..r.reps.max(1) {
        if i > 0 && spent >= r.budget {
            break;
        }
        let mut s = setup()?;
        let t0 = clock::now();
        run(&mut s)?;
        let t = (clock::now() - t0).max(1e-9);
        spent += t;
        best = best.min(t);
        if i == 0 {
            check(&s)?;
        }
    }
    Ok(best)
}

/// Run a wave of `prog` on `exec`.
fn runner<'a>(
    exec: &'a dyn WaveEngine,
    prog: &'a Program,
) -> impl FnMut(&mut WaveState) -> Result<(), Error> + 'a {
    move |st| {
        engines::run_wave(exec, prog, st)
            .map(|_| ())
            .map_err(Error::from)
    }
}

fn no_check<S>(_: &S) -> Result<(), Error> {
    Ok(())
}

fn measure_wave_kernel(k: &Kernel, opts: &Options) -> Result<KernelResult, Error> {
    let prog = k.program()?;
    let size = k.size(opts.quick);
    let isize = k.interp_size(opts.quick);
    opts.say(|| {
        format!(
            "{}: counting (size {size}, interpreter size {isize})",
            k.name
        )
    });
    let counts = engines::wave_counts(k, &prog, size)?;
    let icounts = engines::wave_counts(k, &prog, isize)?;
    let run = |exec| runner(exec, &prog);
    let check = |engine: &'static str, n: u32| {
        move |st: &WaveState| engines::check_wave(k, n, st).map_err(|m| wrong(k.name, engine, m))
    };

    opts.say(|| format!("{}: interp", k.name));
    let t_interp = best(
        opts.slow(),
        || k.wave_state(isize),
        run(&Interp),
        check("interp", isize),
    )?;

    // JIT: the first run compiles (cold); later runs reuse the code cache (warm).
    opts.say(|| format!("{}: jit", k.name));
    let jit = engines::eager_jit();
    if let Some(e) = jit.inner().broken() {
        return Err(Error::Unsupported(format!(
            "the JIT cannot start on this host: {e}"
        )));
    }
    let first = Reps {
        reps: 1,
        budget: 0.0,
    };
    let t_first = best(first, || k.wave_state(size), run(&jit), check("jit", size))?;
    let cs = jit.compile_stats();
    opts.say(|| format!("{}: compiled {:?}", k.name, cs));
    let t_jit = best(opts.fast(), || k.wave_state(size), run(&jit), no_check)?;

    // The same JIT counting profile events (its profiling code compiled by a first run).
    opts.say(|| format!("{}: jit, profiling", k.name));
    let profiled = |st: &mut WaveState| {
        engines::run_wave_profiled(&jit, &prog, st)
            .map(|_| ())
            .map_err(Error::from)
    };
    best(
        first,
        || k.wave_state(size),
        profiled,
        check("profiled jit", size),
    )?;
    let t_profiled = best(opts.fast(), || k.wave_state(size), profiled, no_check)?;

    // Cold JIT and cold tiered engines, fresh for each run (engine creation not timed).
    opts.say(|| format!("{}: jit and tiered from a cold cache", k.name));
    let cold = |mk: fn() -> Jit| move || Ok((mk(), k.wave_state(size)?));
    let run_cold = |(j, st): &mut (Jit, WaveState)| {
        engines::run_wave(j, &prog, st)
            .map(|_| ())
            .map_err(Error::from)
    };
    let t_jit_cold = best(opts.fast(), cold(engines::eager_jit), run_cold, no_check)?.min(t_first);
    let tiered = || engines::tiered_jit(DEFAULT_TIER_THRESHOLD);
    let t_tiered = best(
        opts.fast(),
        cold(tiered),
        run_cold,
        |(_, st): &(_, WaveState)| check("tiered", size)(st),
    )?;

    // The quick tier alone: its code warm, and from a cold cache (what the first compile
    // costs and what a run of its code gains over the interpreter).
    opts.say(|| format!("{}: quick tier alone", k.name));
    let qjit = engines::quick_jit();
    let t_quick_first = best(
        first,
        || k.wave_state(size),
        run(&qjit),
        check("quick", size),
    )?;
    let quick_stats = qjit.compile_stats();
    let t_quick = best(opts.fast(), || k.wave_state(size), run(&qjit), no_check)?;
    let t_quick_cold =
        best(opts.fast(), cold(engines::quick_jit), run_cold, no_check)?.min(t_quick_first);

    // The pre-decoded tier alone (the first tier of `tiered`): its speed at the
    // interpreter's size with its blocks built, and what building them costs, from one
    // iteration on a fresh engine against one on a warm one (runs of microseconds, so the
    // difference is not lost in the noise of a long run).
    opts.say(|| format!("{}: pre-decoded tier alone", k.name));
    let tjit = engines::threaded_jit();
    best(
        first,
        || k.wave_state(isize),
        run(&tjit),
        check("threaded", isize),
    )?;
    let t_thr = best(opts.fast(), || k.wave_state(isize), run(&tjit), no_check)?;
    let cold_thr = || Ok((engines::threaded_jit(), k.wave_state(1)?));
    let t_thr_cold1 = best(TINY, cold_thr, run_cold, no_check)?;
    let tjit1 = engines::threaded_jit();
    best(first, || k.wave_state(1), run(&tjit1), no_check)?;
    let thr_insts = tjit1.compile_stats().threaded_insts;
    let t_thr_warm1 = best(TINY, || k.wave_state(1), run(&tjit1), no_check)?;

    // The native baselines, 256-bit and 128-bit builds alternating (same disturbances).
    let (mut t_native, mut t_native128) = (None, None);
    if let (Some(f), Some(f128)) = (native_fn(k.name, false), native_fn(k.name, true)) {
        opts.say(|| format!("{}: native (256-bit and 128-bit builds)", k.name));
        let time = |f: fn(u32) -> u64| {
            best(
                Reps {
                    reps: 1,
                    budget: 0.0,
                },
                || Ok(()),
                |_| {
                    std::hint::black_box(f(std::hint::black_box(size)));
                    Ok(())
                },
                no_check,
            )
        };
        let (mut a, mut b, mut spent) = (f64::INFINITY, f64::INFINITY, 0.0);
        let r = opts.fast();
        for i in 0..r.reps.max(1) {
            if i > 0 && spent >= r.budget {
                break;
            }
            let (x, y) = (time(f)?, time(f128)?);
            (a, b, spent) = (a.min(x), b.min(y), spent + x + y);
        }
        (t_native, t_native128) = (Some(a), Some(b));
    }

    let t = Times {
        interp: t_interp,
        jit: t_jit,
        jit_cold: t_jit_cold,
        tiered: t_tiered,
        profiled: t_profiled,
        native: t_native,
        native128: t_native128,
        quick: Some((t_quick, t_quick_cold, quick_stats.insts)),
        threaded: Some((t_thr, t_thr_cold1 - t_thr_warm1, thr_insts)),
    };
    Ok(KernelResult::new(k, size, isize, counts, icounts, t, cs))
}

/// Repetitions of a run of microseconds (the best of them is kept).
const TINY: Reps = Reps {
    reps: 200,
    budget: 0.05,
};

/// The native baseline of kernel `name` (`narrow`: its 128-bit build) as a function of
/// the iteration count (`black_box` keeps every register's result alive).
fn native_fn(name: &str, narrow: bool) -> Option<fn(u32) -> u64> {
    let f: fn(u32) -> u64 = match (name, narrow) {
        ("valu", false) => |n| std::hint::black_box(native::valu(n)).vcc,
        ("valu", true) => |n| std::hint::black_box(native::valu_128(n)).vcc,
        ("sdwa", false) => |n| std::hint::black_box(native::sdwa(n)).vcc,
        ("sdwa", true) => |n| std::hint::black_box(native::sdwa_128(n)).vcc,
        ("f64", false) => |n| std::hint::black_box(native::f64_chain(n)).v[4][0] as u64,
        ("f64", true) => |n| std::hint::black_box(native::f64_chain_128(n)).v[4][0] as u64,
        _ => return None,
    };
    Some(f)
}

fn measure_group_kernel(k: &Kernel, opts: &Options) -> Result<KernelResult, Error> {
    let prog = k.program()?;
    let size = k.size(opts.quick);
    let isize = k.interp_size(opts.quick);
    let mm = Matmul::new(size)?;
    let mmi = if isize == size {
        None
    } else {
        Some(Matmul::new(isize)?)
    };
    let mmi = mmi.as_ref().unwrap_or(&mm);
    opts.say(|| format!("{}: counting (N = {size})", k.name));
    let counts = mm.counts(&prog)?;
    let icounts = if isize == size {
        counts
    } else {
        mmi.counts(&prog)?
    };
    let check = |m: &Matmul, engine: &'static str| m.check().map_err(|e| wrong(k.name, engine, e));
    // One thread: the per-kernel rates compare engines, not cores.
    opts.say(|| format!("{}: interp", k.name));
    let t_interp = best(
        opts.slow(),
        || Ok(()),
        |_| mmi.run(&Interp, &prog, 1).map(|_| ()),
        |_| check(mmi, "interp"),
    )?;
    opts.say(|| format!("{}: jit", k.name));
    let jit = engines::eager_jit();
    let first = Reps {
        reps: 1,
        budget: 0.0,
    };
    let run = |j: &Jit| mm.run(j, &prog, 1).map(|_| ());
    let t_first = best(first, || Ok(()), |_| run(&jit), |_| check(&mm, "jit"))?;
    let cs = jit.compile_stats();
    let t_jit = best(opts.fast(), || Ok(()), |_| run(&jit), no_check)?;
    opts.say(|| format!("{}: jit, profiling", k.name));
    let profiled = |_: &mut ()| mm.run_profiled(&jit, &prog, 1).map(|_| ());
    best(first, || Ok(()), profiled, |_| check(&mm, "profiled jit"))?;
    let t_profiled = best(opts.fast(), || Ok(()), profiled, no_check)?;
    let t_jit_cold = best(
        opts.fast(),
        || Ok(engines::eager_jit()),
        |j| run(j),
        no_check,
    )?
    .min(t_first);
    let t_tiered = best(
        opts.fast(),
        || Ok(engines::tiered_jit(DEFAULT_TIER_THRESHOLD)),
        |j| run(j),
        |_| check(&mm, "tiered"),
    )?;
    opts.say(|| format!("{}: quick tier alone", k.name));
    let qjit = engines::quick_jit();
    let t_quick_first = best(first, || Ok(()), |_| run(&qjit), |_| check(&mm, "quick"))?;
    let quick_stats = qjit.compile_stats();
    let t_quick = best(opts.fast(), || Ok(()), |_| run(&qjit), no_check)?;
    let t_quick_cold = best(
        opts.fast(),
        || Ok(engines::quick_jit()),
        |j| run(j),
        no_check,
    )?
    .min(t_quick_first);
    // As for the wave kernels: speed at the interpreter's size, the build cost from the
    // smallest grid (one 16x16 tile) on a fresh engine against a warm one.
    opts.say(|| format!("{}: pre-decoded tier alone", k.name));
    let tjit = engines::threaded_jit();
    let run_i = |j: &Jit| mmi.run(j, &prog, 1).map(|_| ());
    best(
        first,
        || Ok(()),
        |_| run_i(&tjit),
        |_| check(mmi, "threaded"),
    )?;
    let t_thr = best(opts.fast(), || Ok(()), |_| run_i(&tjit), no_check)?;
    let small = Matmul::new(16)?;
    let run_s = |j: &Jit| small.run(j, &prog, 1).map(|_| ());
    let t_thr_cold1 = best(TINY, || Ok(engines::threaded_jit()), |j| run_s(j), no_check)?;
    let tjit1 = engines::threaded_jit();
    best(
        first,
        || Ok(()),
        |_| run_s(&tjit1),
        |_| check(&small, "threaded"),
    )?;
    let thr_insts = tjit1.compile_stats().threaded_insts;
    let t_thr_warm1 = best(TINY, || Ok(()), |_| run_s(&tjit1), no_check)?;
    let t = Times {
        interp: t_interp,
        jit: t_jit,
        jit_cold: t_jit_cold,
        tiered: t_tiered,
        profiled: t_profiled,
        native: None,
        native128: None,
        quick: Some((t_quick, t_quick_cold, quick_stats.insts)),
        threaded: Some((t_thr, t_thr_cold1 - t_thr_warm1, thr_insts)),
    };
    Ok(KernelResult::new(k, size, isize, counts, icounts, t, cs))
}

/// A program of `blocks` basic blocks of eight VALU instructions each, every block run
/// exactly once (each ends in a branch to the next): the worst case for a JIT, where
/// every compile is wasted.
pub fn once_program(blocks: usize) -> Result<Program, Error> {
    repeat_program(blocks, 1)
}

/// As `once_program`, but each block is a loop run `times` times (s0 counts).
pub fn repeat_program(blocks: usize, times: u32) -> Result<Program, Error> {
    let mut s = String::from("  v_mov_b32 v1, 1.0\n  v_mov_b32 v2, 0x9e3779b9\n");
    for b in 0..blocks {
        let r = 3 + (b % 8) as u32;
        let body = format!(
            "  v_mul_f32 v{r}, 0.5, v1\n  v_add_f32 v1, v{r}, v1\n  v_fma_f32 v{r}, v1, v{r}, 1.0\n  v_xor_b32 v2, v2, v{r}\n  v_lshlrev_b32 v{s}, 3, v2\n  v_add_u32 v2, vcc, v{s}, v2\n  v_bfe_u32 v{s}, v2, 5, 7\n  v_min_f32 v1, 4.0, v1\n",
            s = r + 8
        );
        if times <= 1 {
            s.push_str(&format!("b{b}:\n{body}  s_branch b{}\n", b + 1));
        } else {
            s.push_str(&format!(
                "b{b}:\n  s_mov_b32 s0, {times}\nl{b}:\n{body}  s_sub_u32 s0, s0, 1\n  s_cmp_lg_u32 s0, 0\n  s_cbranch_scc1 l{b}\n"
            ));
        }
    }
    s.push_str(&format!("b{blocks}:\n  s_endpgm\n"));
    let asm = wavejit_isa::gcn::asm::assemble(Gen::Gfx8, &s).map_err(Error::Asm)?;
    Ok(Program::new(Arch::Gcn(Gen::Gfx8), &asm.bytes))
}

fn once_state() -> WaveState {
    WaveState {
        wave: {
            let mut w = wavejit_isa::state::Wave::new(Gen::Gfx8);
            w.mode = 0xF0;
            w
        },
        lds: wavejit_isa::state::Lds::new(0),
        mem: wavejit_isa::state::Memory::new(),
    }
}

/// `wavejit fuzz` on gfx8 and VP1 for a fixed number of programs (one job, seed 1): the
/// rate at which the interpreter and the JIT are compared. A mismatch is an error of the
/// benchmark, as a wrong result of a kernel is.
fn measure_fuzz(opts: &Options) -> Result<Vec<FuzzRate>, Error> {
    let programs = if opts.quick { 100 } else { 300 };
    let mut out = Vec::new();
    for arch in [Arch::Gcn(Gen::Gfx8), Arch::Vp1] {
        let mut cfg = campaign::Config::new(arch);
        cfg.programs = Some(programs);
        let t0 = clock::now();
        let sum = campaign::run(&cfg)?;
        let cpu_s = clock::now() - t0;
        if sum.mismatches > 0 {
            return Err(wrong(
                &format!("fuzzing {arch}"),
                "jit",
                format!("{} mismatching programs", sum.mismatches),
            ));
        }
        out.push(FuzzRate {
            arch: arch.to_string(),
            programs: sum.programs,
            runs: sum.runs,
            insts: sum.insts,
            cpu_s,
        });
    }
    Ok(out)
}

fn measure_once(opts: &Options) -> Result<Once, Error> {
    let blocks = if opts.quick { 1000 } else { 3000 };
    let prog = once_program(blocks)?;
    let insts = {
        let mut st = once_state();
        engines::run_wave(&Interp, &prog, &mut st)?
    };
    // The interpreter and the tiered engine alternate, so that both see the same
    // disturbances from other work on the host; each keeps its best time.
    let (mut t_interp, mut t_tiered) = (f64::INFINITY, f64::INFINITY);
    let interp = || -> Result<f64, Error> {
        let mut st = once_state();
        let t0 = clock::now();
        engines::run_wave(&Interp, &prog, &mut st)?;
        Ok((clock::now() - t0).max(1e-9))
    };
    let tiered = || -> Result<f64, Error> {
        let j = engines::tiered_jit(DEFAULT_TIER_THRESHOLD);
        let mut st = once_state();
        let t0 = clock::now();
        engines::run_wave(&j, &prog, &mut st)?;
        Ok((clock::now() - t0).max(1e-9))
    };
    for rep in 0..if opts.quick { 8 } else { 16 } {
        // Alternate which goes first, so that neither always finds warm caches.
        if rep % 2 == 0 {
            t_interp = t_interp.min(interp()?);
            t_tiered = t_tiered.min(tiered()?);
        } else {
            t_tiered = t_tiered.min(tiered()?);
            t_interp = t_interp.min(interp()?);
        }
    }
    // The eager JIT compiles every block: slow, measured once (on a part) for scale.
    let part = once_program(blocks.min(300))?;
    let j = engines::eager_jit();
    let mut st = once_state();
    let t0 = clock::now();
    let n = engines::run_wave(&j, &part, &mut st)?;
    let t_jit = (clock::now() - t0).max(1e-9) * insts as f64 / n.max(1) as f64;
    Ok(Once {
        blocks: blocks as u64,
        insts,
        interp_s: t_interp,
        tiered_s: t_tiered,
        jit_s: t_jit,
    })
}

/// The thresholds of the sweep (0: the interpreter, 1: the eager JIT).
pub const SWEEP_THRESHOLDS: [u32; 16] = [
    0, 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 512, 1024,
];

/// The tiered engine at several thresholds (and, for scale, the interpreter as
/// threshold 0 and the eager JIT as threshold 1) on five workloads: 300 blocks run once,
/// 300 blocks run 20 times each and 100 blocks run 100 times each (compiled at low
/// thresholds, then barely used), the valu kernel at 1000 iterations and at the suite's
/// size (loops that want compiling; the latter is the issue's "within 1.1x of the JIT on
/// the 100k-iteration loop", not run on the interpreter).
pub fn measure_sweep(opts: &Options) -> Result<Vec<Sweep>, Error> {
    let once = once_program(300)?;
    let twenty = repeat_program(300, 20)?;
    let hundred = repeat_program(100, 100)?;
    let valu = super::suite::kernel("valu").ok_or_else(|| Error::Usage("no valu kernel".into()))?;
    let vprog = valu.program()?;
    let full = valu.size(opts.quick);
    let r = Reps {
        reps: 3,
        budget: 1.0,
    };
    let engine = |th: u32| match th {
        0 => None,
        1 => Some(engines::eager_jit()),
        k => Some(engines::tiered_jit(k)),
    };
    let time = |th: u32, prog: &Program, st: &dyn Fn() -> Result<WaveState, Error>| {
        best(
            r,
            || Ok((engine(th), st()?)),
            |(j, st)| {
                let exec = engines::engine(j.as_ref());
                engines::run_wave(exec, prog, st)
                    .map(|_| ())
                    .map_err(Error::from)
            },
            no_check,
        )
    };
    let fresh = || Ok(once_state());
    let mut out = Vec::new();
    for th in SWEEP_THRESHOLDS {
        opts.say(|| format!("tier threshold {th}"));
        out.push(Sweep {
            threshold: th,
            once_s: time(th, &once, &fresh)?,
            twenty_s: time(th, &twenty, &fresh)?,
            hundred_s: Some(time(th, &hundred, &fresh)?),
            valu_1000_s: time(th, &vprog, &|| valu.wave_state(1000))?,
            valu_full_s: if th == 0 {
                None
            } else {
                Some(time(th, &vprog, &|| valu.wave_state(full))?)
            },
            valu_full_iters: full,
        });
    }
    Ok(out)
}

/// Many independent waves of the valu kernel on 1..=N threads that share only the
/// program and one warm code cache; each thread takes the next wave from a counter. The
/// native valu baseline runs the same way as the calibration: waves of pure compute on
/// private data, nothing shared, so its speedup is what the host itself gives N threads
/// (a lower all-core clock, vCPUs that share a physical core, memory bandwidth).
fn measure_scaling(opts: &Options) -> Result<Scaling, Error> {
    let max = if opts.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        opts.threads
    };
    let k = super::suite::kernel("valu").ok_or_else(|| Error::Usage("no valu kernel".into()))?;
    let prog = k.program()?;
    // 16 waves of 20 000 iterations: ~60 ms per thread on 2 threads at ~100 M inst/s.
    let iters = if opts.quick { 20_000 } else { 40_000 };
    let waves = 8 * max.max(2);
    let jit = engines::eager_jit();
    // Warm the cache (and check once).
    let mut st = k.wave_state(iters)?;
    engines::run_wave(&jit, &prog, &mut st)?;
    engines::check_wave(k, iters, &st).map_err(|m| wrong("valu (scaling)", "jit", m))?;
    let per_wave = |n: u32| -> Result<u64, Error> { Ok(engines::wave_counts(k, &prog, n)?.0) };
    let jit_wave = || -> Result<(), Error> {
        let mut st = k.wave_state(iters)?;
        engines::run_wave(&jit, &prog, &mut st)?;
        Ok(())
    };
    // Native waves about as long as the JIT's, so that both runs see the host for about
    // as long (best of three single waves on the CPU clock).
    let t_one = |f: &dyn Fn() -> Result<(), Error>| -> Result<f64, Error> {
        let mut t = f64::INFINITY;
        for _ in 0..3 {
            let t0 = clock::now();
            f()?;
            t = t.min((clock::now() - t0).max(1e-9));
        }
        Ok(t)
    };
    let t_jit_wave = t_one(&jit_wave)?;
    let t_native_iters = t_one(&|| {
        std::hint::black_box(native::valu(std::hint::black_box(iters)));
        Ok(())
    })?;
    let native_iters =
        ((iters as f64 * t_jit_wave / t_native_iters).round() as u32).clamp(iters, 64 * iters);
    let native_wave = || -> Result<(), Error> {
        std::hint::black_box(native::valu(std::hint::black_box(native_iters)));
        Ok(())
    };
    let insts = per_wave(iters)? * waves as u64;
    let native_insts = per_wave(native_iters)? * waves as u64;
    let (mut points, mut native_points) = (Vec::new(), Vec::new());
    // Many short runs: on a shared host the best of them is the one that had the cores.
    let reps = if opts.quick {
        Reps {
            reps: 9,
            budget: 3.0,
        }
    } else {
        Reps {
            reps: 15,
            budget: 8.0,
        }
    };
    for threads in 1..=max {
        // Best wall time of each, the JIT's and the native runs alternating so that both
        // see the same disturbances from other work on the host.
        let (mut a, mut b): (Option<ScalingPoint>, Option<ScalingPoint>) = (None, None);
        let mut spent = 0.0;
        for i in 0..reps.reps.max(1) {
            if i > 0 && spent >= reps.budget {
                break;
            }
            let p = scaling_point(threads, waves, insts, &jit_wave)?;
            let q = scaling_point(threads, waves, native_insts, &native_wave)?;
            spent += p.seconds + q.seconds;
            if a.as_ref().is_none_or(|x| p.seconds < x.seconds) {
                a = Some(p);
            }
            if b.as_ref().is_none_or(|x| q.seconds < x.seconds) {
                b = Some(q);
            }
        }
        points.extend(a);
        native_points.extend(b);
    }
    let (speedup, speedup_unloaded) = speedups(&points);
    let (native_speedup, native_speedup_unloaded) = speedups(&native_points);
    Ok(Scaling {
        kernel: "valu".into(),
        waves: waves as u64,
        iters_per_wave: iters,
        threads: max as u32,
        speedup,
        efficiency: speedup / max as f64,
        speedup_unloaded,
        points,
        native_iters_per_wave: native_iters,
        native_speedup,
        native_speedup_unloaded,
        native_points,
    })
}

/// Time on the first point / time on the last, as measured and with the waits for a CPU
/// taken out.
fn speedups(points: &[ScalingPoint]) -> (f64, f64) {
    // What the wall time would be if no worker had waited for a CPU: each worker's
    // lifetime is its running plus its waiting time, so the run scales by
    // running / (running + waiting).
    let free = |p: &ScalingPoint| {
        let run = if p.run_s > 0.0 { p.run_s } else { p.cpu_s };
        if run > 0.0 && p.wait_s >= 0.0 {
            p.seconds * run / (run + p.wait_s)
        } else {
            p.seconds
        }
    };
    match (points.first(), points.last()) {
        (Some(a), Some(b)) => (a.seconds / b.seconds, free(a) / free(b)),
        _ => (1.0, 1.0),
    }
}

/// One timed run of `waves` calls of `wave` on `threads` threads (`insts`: the
/// wave-instructions they execute together): wall time, the process's CPU time, and the
/// workers' running and waiting times.
///
/// The clock runs from the moment every worker is up (a barrier: creating threads and
/// waking idle CPUs is not the engine's work) until the last worker finishes its last
/// wave (its own clock reading, not the main thread's wake-up after the join).
fn scaling_point(
    threads: usize,
    waves: usize,
    insts: u64,
    wave: &(dyn Fn() -> Result<(), Error> + Sync),
) -> Result<ScalingPoint, Error> {
    let threads = threads.max(1);
    let next = AtomicUsize::new(0);
    let failed: std::sync::Mutex<Option<Error>> = std::sync::Mutex::new(None);
    // (running ns, waiting ns, latest finish)
    let acc = std::sync::Mutex::new((0u64, 0u64, None::<Instant>));
    // Workers wait for `go` once all are up; if one cannot be started, `abort` sends the
    // ones already running home (a barrier would wait for the missing one forever).
    let up = AtomicUsize::new(0);
    let go = std::sync::atomic::AtomicBool::new(false);
    let abort = std::sync::atomic::AtomicBool::new(false);
    let started = std::thread::scope(|s| {
        for i in 0..threads {
            let spawned = std::thread::Builder::new().spawn_scoped(s, || {
                up.fetch_add(1, Ordering::SeqCst);
                while !go.load(Ordering::SeqCst) {
                    std::thread::yield_now();
                }
                if abort.load(Ordering::SeqCst) {
                    return;
                }
                let start = clock::thread_sched();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= waves {
                        break;
                    }
                    if let Err(e) = wave() {
                        if let Ok(mut f) = failed.lock() {
                            f.get_or_insert(e);
                        }
                        break;
                    }
                }
                let done = Instant::now();
                if let Ok(mut t) = acc.lock() {
                    if let (Some(a), Some(b)) = (start, clock::thread_sched()) {
                        t.0 += b.0.saturating_sub(a.0);
                        t.1 += b.1.saturating_sub(a.1);
                    }
                    t.2 = Some(t.2.map_or(done, |x| x.max(done)));
                }
            });
            if let Err(e) = spawned {
                abort.store(true, Ordering::SeqCst);
                go.store(true, Ordering::SeqCst);
                return Err(Error::Usage(format!(
                    "cannot start thread {} of {threads}: {e}",
                    i + 1
                )));
            }
        }
        while up.load(Ordering::SeqCst) < threads {
            std::thread::yield_now();
        }
        let t = (Instant::now(), clock::cpu_time().unwrap_or(0.0));
        go.store(true, Ordering::SeqCst);
        Ok(t)
    });
    let (t0, c0) = started?;
    let c = clock::cpu_time().unwrap_or(0.0) - c0;
    if let Ok(Some(e)) = failed.into_inner() {
        return Err(e);
    }
    let (ran, waited, end) = acc.into_inner().unwrap_or((0, 0, None));
    let w = secs(
        end.unwrap_or_else(Instant::now)
            .saturating_duration_since(t0),
    );
    Ok(ScalingPoint {
        threads: threads as u32,
        seconds: w,
        ips: insts as f64 / w,
        cpu_s: c,
        wait_s: waited as f64 * 1e-9,
        run_s: ran as f64 * 1e-9,
    })
}

/// Run one kernel on one engine `repeat` times (profiling aid of `wavejit bench --run`);
/// returns a line with the time and rate.
pub fn run_one(
    name: &str,
    engine: &str,
    size: Option<u32>,
    repeat: u32,
    threads: usize,
) -> Result<String, Error> {
    if name == "once" {
        return run_once_program(engine, size.unwrap_or(1000), repeat);
    }
    if name == "scaling" {
        return run_scaling(engine, size.unwrap_or(10_000), repeat, threads);
    }
    if name == "sweep" {
        let opts = Options {
            quick: false,
            kernels: Vec::new(),
            threads,
            verbose: false,
        };
        let mut out = Vec::new();
        for _ in 0..repeat.max(1) {
            out.push(super::report::sweep_table(&measure_sweep(&opts)?, false));
        }
        return Ok(out.join("\n"));
    }
    if let Some(case) = super::real::Case::from_name(name) {
        let e = match engine {
            "interp" => Engine::Interp,
            "jit" => Engine::Jit,
            "tiered" => Engine::Tiered,
            _ => {
                return Err(Error::Usage(format!(
                    "{name} runs on interp, jit or tiered, not `{engine}`"
                )))
            }
        };
        return super::real::run_case(case, e, repeat).map_err(Error::Usage);
    }
    let k = super::suite::kernel(name)
        .ok_or_else(|| Error::Usage(format!("unknown kernel `{name}`")))?;
    let prog = k.program()?;
    let size = size.unwrap_or(k.size.0);
    let jit = match engine {
        "jit" => Some(engines::eager_jit()),
        "tiered" => Some(engines::tiered_jit(DEFAULT_TIER_THRESHOLD)),
        "threaded" => Some(engines::threaded_jit()),
        "interp" | "native" | "native128" => None,
        _ => {
            return Err(Error::Usage(format!(
                "unknown engine `{engine}` (try interp|jit|tiered|threaded|native|native128)"
            )))
        }
    };
    let exec = engines::engine(jit.as_ref());
    let mm = if k.shape == Shape::Group {
        Some(Matmul::new(size)?)
    } else {
        None
    };
    let once = |exec: &dyn WaveEngine, check: bool| -> Result<u64, Error> {
        match &mm {
            Some(m) => {
                let n = m.run(exec, &prog, 1)?;
                if check {
                    m.check().map_err(|e| wrong(k.name, engine, e))?;
                }
                Ok(n)
            }
            None => {
                let mut st = k.wave_state(size)?;
                let n = engines::run_wave(exec, &prog, &mut st)?;
                if check {
                    engines::check_wave(k, size, &st).map_err(|m| wrong(k.name, engine, m))?;
                }
                Ok(n)
            }
        }
    };
    let native = |size: u32| -> Result<(), Error> {
        let f = native_fn(k.name, engine == "native128")
            .ok_or_else(|| Error::Usage(format!("{name} has no native baseline")))?;
        std::hint::black_box(f(size));
        Ok(())
    };
    // The wave-instructions the native baseline's run stands for (counted, untimed).
    let native_insts = if engine.starts_with("native") && k.shape == Shape::Wave {
        engines::wave_counts(k, &prog, size)?.0
    } else {
        0
    };
    if engine == "jit" {
        // Warm the code cache (and check the result, untimed).
        once(exec, true)?;
    }
    let t0 = clock::now();
    let mut insts = 0;
    for _ in 0..repeat.max(1) {
        if engine.starts_with("native") {
            native(size)?;
            insts += native_insts;
        } else {
            insts += once(exec, false)?;
        }
    }
    let t = (clock::now() - t0).max(1e-9);
    if !engine.starts_with("native") && engine != "jit" {
        once(exec, true)?;
    }
    let stats = jit
        .as_ref()
        .map(|j| format!(", compiled {:?}", j.compile_stats()))
        .unwrap_or_default();
    Ok(format!(
        "{name} on {engine}, size {size}, {repeat} run(s): {:.3} s, {insts} wave-instructions, {:.3e} inst/s{stats}",
        t,
        insts as f64 / t
    ))
}

/// `wavejit bench --run scaling`: the scaling workload (16 waves of valu, `iters`
/// iterations each, one warm shared code cache; `native`: the native baseline's waves) on
/// `threads` threads, `repeat` times (for `perf record`/`perf stat` of one thread count).
fn run_scaling(engine: &str, iters: u32, repeat: u32, threads: usize) -> Result<String, Error> {
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    let k = super::suite::kernel("valu").ok_or_else(|| Error::Usage("no valu kernel".into()))?;
    let prog = k.program()?;
    let jit = engines::eager_jit();
    let waves = 16;
    let wave: Box<dyn Fn() -> Result<(), Error> + Sync> = match engine {
        "jit" => {
            let mut st = k.wave_state(iters)?;
            engines::run_wave(&jit, &prog, &mut st)?;
            engines::check_wave(k, iters, &st).map_err(|m| wrong("valu", "jit", m))?;
            Box::new(|| {
                let mut st = k.wave_state(iters)?;
                engines::run_wave(&jit, &prog, &mut st)?;
                Ok(())
            })
        }
        "native" => Box::new(|| {
            std::hint::black_box(native::valu(std::hint::black_box(iters)));
            Ok(())
        }),
        _ => {
            return Err(Error::Usage(format!(
                "unknown engine `{engine}` for scaling (try jit|native)"
            )))
        }
    };
    let insts = engines::wave_counts(k, &prog, iters)?.0 * waves as u64;
    let mut lines = Vec::new();
    for _ in 0..repeat.max(1) {
        let p = scaling_point(threads, waves, insts, &*wave)?;
        lines.push(format!(
            "scaling on {engine}, {waves} waves x {iters} iterations, {threads} thread(s): {:.4} s wall, {:.3e} inst/s, {:.0}% CPU, workers ran {:.4} s and waited {:.4} s",
            p.seconds,
            p.ips,
            100.0 * p.cpu_s / p.seconds,
            p.run_s,
            p.wait_s
        ));
    }
    Ok(lines.join("\n"))
}

/// `wavejit bench --run once`: the run-once program of `blocks` blocks, on a fresh engine
/// each time (the tiered engine never compiles it; the eager JIT compiles every block).
fn run_once_program(engine: &str, blocks: u32, repeat: u32) -> Result<String, Error> {
    let prog = once_program(blocks as usize)?;
    let mut total = 0.0;
    let mut insts = 0;
    for _ in 0..repeat.max(1) {
        let jit = match engine {
            "jit" => Some(engines::eager_jit()),
            "tiered" => Some(engines::tiered_jit(DEFAULT_TIER_THRESHOLD)),
            "threaded" => Some(engines::threaded_jit()),
            "interp" => None,
            _ => {
                return Err(Error::Usage(format!(
                    "unknown engine `{engine}` for once (try interp|jit|tiered|threaded)"
                )))
            }
        };
        let exec = engines::engine(jit.as_ref());
        let mut st = once_state();
        let t0 = clock::now();
        insts += engines::run_wave(exec, &prog, &mut st)?;
        total += clock::now() - t0;
    }
    Ok(format!(
        "once ({blocks} blocks) on {engine}, {repeat} run(s): {total:.3} s, {insts} wave-instructions, {:.3e} inst/s",
        insts as f64 / total
    ))
}
