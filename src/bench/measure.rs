//! The measurements of `wavejit bench`: every suite kernel on every engine (rates,
//! compile cost, break-even), the native baselines, the tiered engine on a program that
//! runs each block once and over a range of thresholds, and multi-wave scaling. Times are
//! the best of several runs (the least disturbed by other work on the host); every
//! engine's result is checked against the kernel's independent computation before its
//! time counts.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use wavejit_isa::ir::Program;
use wavejit_isa::{Arch, Gen};
use wavejit_jit::{Jit, DEFAULT_TIER_THRESHOLD};

use super::engines::{self, Exec, Matmul};
use super::native;
use super::report::{Host, KernelResult, Once, Report, Scaling, ScalingPoint, Sweep};
use super::suite::{Kernel, Shape, WaveState, KERNELS};
use crate::Error;

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
    fn reps(&self) -> usize {
        if self.quick {
            3
        } else {
            5
        }
    }

    fn interp_reps(&self) -> usize {
        if self.quick {
            1
        } else {
            3
        }
    }

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
        tier_sweep: sweep,
        targets: Vec::new(),
        seconds: started.elapsed().as_secs_f64(),
    };
    report.targets = super::report::targets(&report);
    Ok(report)
}

/// Best time of `reps` runs of `f` (each given a fresh state by `setup`, untimed).
fn best<S, T>(
    reps: usize,
    mut setup: impl FnMut() -> Result<S, Error>,
    mut f: impl FnMut(&mut S) -> Result<T, Error>,
) -> Result<(f64, T), Error> {
    let mut best: Option<(f64, T)> = None;
    for _ in 0..reps.max(1) {
        let mut s = setup()?;
        let t0 = Instant::now();
        let out = f(&mut s)?;
        let t = secs(t0.elapsed());
        if best.as_ref().is_none_or(|(b, _)| t < *b) {
            best = Some((t, out));
        }
    }
    best.ok_or_else(|| Error::Usage("no run".into()))
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
    let (insts, lane_ops) = engines::wave_counts(k, &prog, size)?;
    let (iinsts, ilane_ops) = engines::wave_counts(k, &prog, isize)?;

    // Interpreter.
    opts.say(|| format!("{}: interp", k.name));
    let (t_interp, _) = best(
        opts.interp_reps(),
        || k.wave_state(isize),
        |st| {
            let n = engines::run_wave(Exec::Interp, &prog, st)?;
            engines::check_wave(k, isize, st).map_err(|m| wrong(k.name, "interp", m))?;
            Ok(n)
        },
    )?;

    // JIT: the first run compiles (cold); later runs reuse the code cache (warm).
    opts.say(|| format!("{}: jit", k.name));
    let jit = engines::eager_jit();
    if let Some(e) = jit.broken() {
        return Err(Error::Unsupported(format!(
            "the JIT cannot start on this host: {e}"
        )));
    }
    let mut st = k.wave_state(size)?;
    let t0 = Instant::now();
    engines::run_wave(Exec::Jit(&jit), &prog, &mut st)?;
    let t_first = secs(t0.elapsed());
    engines::check_wave(k, size, &st).map_err(|m| wrong(k.name, "jit", m))?;
    let cs = jit.stats();
    opts.say(|| format!("{}: compiled {:?}", k.name, cs));
    let (t_jit, _) = best(
        opts.reps(),
        || k.wave_state(size),
        |st| {
            let n = engines::run_wave(Exec::Jit(&jit), &prog, st)?;
            Ok(n)
        },
    )?;
    // Cold JIT and cold tiered engines, fresh each run (engine creation not timed).
    opts.say(|| format!("{}: jit and tiered from a cold cache", k.name));
    let (t_jit_cold, _) = best(
        opts.reps(),
        || Ok((engines::eager_jit(), k.wave_state(size)?)),
        |(j, st)| Ok(engines::run_wave(Exec::Jit(j), &prog, st)?),
    )?;
    let t_jit_cold = t_jit_cold.min(t_first);
    let (t_tiered, _) = best(
        opts.reps(),
        || {
            Ok((
                engines::tiered_jit(DEFAULT_TIER_THRESHOLD),
                k.wave_state(size)?,
            ))
        },
        |(j, st)| {
            let n = engines::run_wave(Exec::Jit(j), &prog, st)?;
            engines::check_wave(k, size, st).map_err(|m| wrong(k.name, "tiered", m))?;
            Ok(n)
        },
    )?;

    // Native baseline.
    let t_native = if k.native {
        opts.say(|| format!("{}: native", k.name));
        let f: fn(u32) -> Vec<[u32; 64]> = match k.name {
            "valu" => |n| native::valu(std::hint::black_box(n)).v.to_vec(),
            "sdwa" => |n| native::sdwa(std::hint::black_box(n)).v.to_vec(),
            _ => |n| native::f64_chain(std::hint::black_box(n)).v.to_vec(),
        };
        let (t, _) = best(
            opts.reps(),
            || Ok(()),
            |_| Ok(std::hint::black_box(f(size))),
        )?;
        Some(t)
    } else {
        None
    };

    Ok(KernelResult::new(
        k,
        size,
        isize,
        (insts, lane_ops),
        (iinsts, ilane_ops),
        t_interp,
        t_jit,
        t_jit_cold,
        t_tiered,
        t_native,
        cs,
    ))
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
    let mmi_ref = mmi.as_ref().unwrap_or(&mm);
    opts.say(|| format!("{}: counting (N = {size})", k.name));
    let counts = mm.counts(&prog)?;
    let icounts = if isize == size {
        counts
    } else {
        mmi_ref.counts(&prog)?
    };
    // One thread: the per-kernel rates compare engines, not cores.
    opts.say(|| format!("{}: interp", k.name));
    let (t_interp, _) = best(
        opts.interp_reps(),
        || Ok(()),
        |_| {
            let n = mmi_ref.run(Exec::Interp, &prog, 1)?;
            mmi_ref.check().map_err(|m| wrong(k.name, "interp", m))?;
            Ok(n)
        },
    )?;
    opts.say(|| format!("{}: jit", k.name));
    let jit = engines::eager_jit();
    let t0 = Instant::now();
    mm.run(Exec::Jit(&jit), &prog, 1)?;
    let t_first = secs(t0.elapsed());
    mm.check().map_err(|m| wrong(k.name, "jit", m))?;
    let cs = jit.stats();
    let (t_jit, _) = best(
        opts.reps(),
        || Ok(()),
        |_| mm.run(Exec::Jit(&jit), &prog, 1),
    )?;
    let (t_jit_cold, _) = best(
        opts.reps(),
        || Ok(engines::eager_jit()),
        |j| mm.run(Exec::Jit(j), &prog, 1),
    )?;
    let t_jit_cold = t_jit_cold.min(t_first);
    let (t_tiered, _) = best(
        opts.reps(),
        || Ok(engines::tiered_jit(DEFAULT_TIER_THRESHOLD)),
        |j| {
            let n = mm.run(Exec::Jit(j), &prog, 1)?;
            mm.check().map_err(|m| wrong(k.name, "tiered", m))?;
            Ok(n)
        },
    )?;
    Ok(KernelResult::new(
        k, size, isize, counts, icounts, t_interp, t_jit, t_jit_cold, t_tiered, None, cs,
    ))
}

/// A program of `blocks` basic blocks of eight VALU instructions each, every block run
/// exactly once (each ends in a branch to the next): the worst case for a JIT, where
/// every compile is wasted.
pub fn once_program(blocks: usize) -> Result<Program, Error> {
    let mut s = String::from("  v_mov_b32 v1, 1.0\n  v_mov_b32 v2, 0x9e3779b9\n");
    for b in 0..blocks {
        let r = 3 + (b % 8) as u32;
        s.push_str(&format!(
            "b{b}:\n  v_mul_f32 v{r}, 0.5, v1\n  v_add_f32 v1, v{r}, v1\n  v_fma_f32 v{r}, v1, v{r}, 1.0\n  v_xor_b32 v2, v2, v{r}\n  v_lshlrev_b32 v{s}, 3, v2\n  v_add_u32 v2, vcc, v{s}, v2\n  v_bfe_u32 v{s}, v2, 5, 7\n  v_min_f32 v1, 4.0, v1\n  s_branch b{n}\n",
            s = r + 8,
            n = b + 1
        ));
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

fn measure_once(opts: &Options) -> Result<Once, Error> {
    let blocks = if opts.quick { 300 } else { 1000 };
    let prog = once_program(blocks)?;
    let reps = opts.reps() + 2;
    let (t_interp, insts) = best(
        reps,
        || Ok(once_state()),
        |st| Ok(engines::run_wave(Exec::Interp, &prog, st)?),
    )?;
    let (t_tiered, _) = best(
        reps,
        || Ok((engines::tiered_jit(DEFAULT_TIER_THRESHOLD), once_state())),
        |(j, st)| Ok(engines::run_wave(Exec::Jit(j), &prog, st)?),
    )?;
    let (t_jit, _) = best(
        opts.reps(),
        || Ok((engines::eager_jit(), once_state())),
        |(j, st)| Ok(engines::run_wave(Exec::Jit(j), &prog, st)?),
    )?;
    Ok(Once {
        blocks: blocks as u64,
        insts,
        interp_s: t_interp,
        tiered_s: t_tiered,
        jit_s: t_jit,
    })
}

/// The tiered engine at several thresholds: on the run-once program and on the valu
/// kernel at 1000 iterations (a loop long enough to want compiling, short enough for the
/// warm-up to show).
fn measure_sweep(opts: &Options) -> Result<Vec<Sweep>, Error> {
    let once = once_program(1000)?;
    let valu = super::suite::kernel("valu").ok_or_else(|| Error::Usage("no valu kernel".into()))?;
    let vprog = valu.program()?;
    let mut out = Vec::new();
    for th in [2u32, 4, 8, 16, 32, 64, 128, 256, 1024] {
        opts.say(|| format!("tier threshold {th}"));
        let (t_once, _) = best(
            3,
            || Ok((engines::tiered_jit(th), once_state())),
            |(j, st)| Ok(engines::run_wave(Exec::Jit(j), &once, st)?),
        )?;
        let (t_loop, _) = best(
            3,
            || Ok((engines::tiered_jit(th), valu.wave_state(1000)?)),
            |(j, st)| Ok(engines::run_wave(Exec::Jit(j), &vprog, st)?),
        )?;
        out.push(Sweep {
            threshold: th,
            once_s: t_once,
            valu_1000_s: t_loop,
        });
    }
    Ok(out)
}

/// Many independent waves of the valu kernel on 1..=N threads that share only the
/// program and one warm code cache; each thread takes the next wave from a counter.
fn measure_scaling(opts: &Options) -> Result<Scaling, Error> {
    let max = if opts.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        opts.threads
    };
    let k = super::suite::kernel("valu").ok_or_else(|| Error::Usage("no valu kernel".into()))?;
    let prog = k.program()?;
    let iters = if opts.quick { 3_000 } else { 20_000 };
    let waves = 8 * max.max(2);
    let jit = engines::eager_jit();
    // Warm the cache (and check once).
    let mut st = k.wave_state(iters)?;
    engines::run_wave(Exec::Jit(&jit), &prog, &mut st)?;
    engines::check_wave(k, iters, &st).map_err(|m| wrong("valu (scaling)", "jit", m))?;
    let insts = {
        let (i, _) = engines::wave_counts(k, &prog, iters)?;
        i * waves as u64
    };
    let mut points = Vec::new();
    for threads in 1..=max {
        let (t, _) = best(
            opts.reps(),
            || Ok(()),
            |_| run_waves(k, &prog, &jit, waves, iters, threads),
        )?;
        points.push(ScalingPoint {
            threads: threads as u32,
            seconds: t,
            ips: insts as f64 / t,
        });
    }
    let t1 = points.first().map_or(1.0, |p| p.seconds);
    let tn = points.last().map_or(1.0, |p| p.seconds);
    Ok(Scaling {
        kernel: "valu".into(),
        waves: waves as u64,
        iters_per_wave: iters,
        threads: max as u32,
        speedup: t1 / tn,
        efficiency: t1 / tn / max as f64,
        points,
    })
}

fn run_waves(
    k: &Kernel,
    prog: &Program,
    jit: &Jit,
    waves: usize,
    iters: u32,
    threads: usize,
) -> Result<(), Error> {
    let next = AtomicUsize::new(0);
    let failed: std::sync::Mutex<Option<Error>> = std::sync::Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= waves {
                    return;
                }
                let r = k.wave_state(iters).and_then(|mut st| {
                    engines::run_wave(Exec::Jit(jit), prog, &mut st).map_err(Error::from)
                });
                if let Err(e) = r {
                    if let Ok(mut f) = failed.lock() {
                        f.get_or_insert(e);
                    }
                    return;
                }
            });
        }
    });
    match failed.into_inner() {
        Ok(Some(e)) => Err(e),
        _ => Ok(()),
    }
}

/// Run one kernel on one engine `repeat` times (profiling aid of `wavejit bench --run`);
/// returns a line with the time and rate.
pub fn run_one(name: &str, engine: &str, size: Option<u32>, repeat: u32) -> Result<String, Error> {
    let k = super::suite::kernel(name)
        .ok_or_else(|| Error::Usage(format!("unknown kernel `{name}`")))?;
    let prog = k.program()?;
    let size = size.unwrap_or(k.size.0);
    let jit = match engine {
        "jit" => Some(engines::eager_jit()),
        "tiered" => Some(engines::tiered_jit(DEFAULT_TIER_THRESHOLD)),
        "interp" | "native" => None,
        _ => {
            return Err(Error::Usage(format!(
                "unknown engine `{engine}` (try interp|jit|tiered|native)"
            )))
        }
    };
    let exec = jit.as_ref().map_or(Exec::Interp, Exec::Jit);
    let mm = if k.shape == Shape::Group {
        Some(Matmul::new(size)?)
    } else {
        None
    };
    let once = |exec: Exec<'_>| -> Result<u64, Error> {
        match &mm {
            Some(m) => m.run(exec, &prog, 1),
            None => {
                let mut st = k.wave_state(size)?;
                let n = engines::run_wave(exec, &prog, &mut st)?;
                engines::check_wave(k, size, &st).map_err(|m| wrong(k.name, engine, m))?;
                Ok(n)
            }
        }
    };
    if engine == "jit" {
        once(exec)?;
    }
    let t0 = Instant::now();
    let mut insts = 0;
    for _ in 0..repeat.max(1) {
        if engine == "native" {
            let v = match k.name {
                "valu" => native::valu(size).v.to_vec(),
                "sdwa" => native::sdwa(size).v.to_vec(),
                "f64" => native::f64_chain(size).v.to_vec(),
                _ => return Err(Error::Usage(format!("{name} has no native baseline"))),
            };
            std::hint::black_box(v);
        } else {
            insts += once(exec)?;
        }
    }
    let t = secs(t0.elapsed());
    let stats = jit
        .as_ref()
        .map(|j| format!(", compiled {:?}", j.stats()))
        .unwrap_or_default();
    Ok(format!(
        "{name} on {engine}, size {size}, {repeat} run(s): {:.3} s, {insts} wave-instructions, {:.3e} inst/s{stats}",
        t,
        insts as f64 / t
    ))
}
