//! The results of `wavejit bench`: the JSON schema (serde), the host description, the
//! speed targets judged on one run, and the text table and Markdown made from them.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use wavejit_jit::CompileStats;

use super::suite::Kernel;

/// The machine the numbers were measured on.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Host {
    pub cpu: String,
    pub cores: u32,
    pub arch: String,
    pub os: String,
    pub kernel: String,
    /// CPU features that matter to the JIT and the native baselines.
    pub features: Vec<String>,
    pub rustc: String,
    pub cranelift: String,
    /// `release` or `debug` (debug numbers mean nothing).
    pub profile: String,
    /// Instruction set of the native baselines.
    pub native_isa: String,
    /// Instruction set and vector width of the 128-bit build of the native baselines.
    #[serde(default)]
    pub native128_isa: String,
    /// Load average (1 minute) before and after: other work on the host disturbs timings.
    pub load_before: f64,
    pub load_after: f64,
    /// Seconds since the Unix epoch when the run started.
    pub unix_time: u64,
    /// The clock of the single-worker timings (`process CPU time` or `wall time`).
    #[serde(default)]
    pub clock: String,
    /// `git rev-parse --short HEAD` of the working directory (`+dirty` with local
    /// changes), if it is a checkout.
    #[serde(default)]
    pub commit: String,
}

/// The checked-out commit, `+dirty` when tracked files differ from it (the build then
/// includes work in progress).
fn commit() -> String {
    let head = command_line("git", &["rev-parse", "--short", "HEAD"]);
    let dirty = std::process::Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=no"])
        .output()
        .is_ok_and(|o| o.status.success() && !o.stdout.is_empty());
    if dirty && head != "unknown" {
        format!("{head}+dirty")
    } else {
        head
    }
}

/// The first line a command prints, or `unknown`.
fn command_line(cmd: &str, args: &[&str]) -> String {
    std::process::Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.lines().next().map(|l| l.trim().to_string()))
        .unwrap_or_else(|| "unknown".into())
}

pub fn loadavg() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok()))
        .unwrap_or(-1.0)
}

impl Host {
    pub fn probe() -> Host {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split_once(':'))
            .map_or_else(|| "unknown".to_string(), |(_, v)| v.trim().to_string());
        let mut features = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            macro_rules! feat {
                ($($f:tt),*) => {$(
                    if std::is_x86_feature_detected!($f) {
                        features.push($f.to_string());
                    }
                )*};
            }
            feat!("sse4.1", "avx", "avx2", "fma", "avx512f");
        }
        let rustc = command_line("rustc", &["--version"]);
        Host {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
            arch: std::env::consts::ARCH.into(),
            os: std::env::consts::OS.into(),
            kernel: std::fs::read_to_string("/proc/sys/kernel/osrelease")
                .map_or_else(|_| "unknown".into(), |s| s.trim().to_string()),
            features,
            rustc,
            cranelift: "0.135".into(),
            profile: if cfg!(debug_assertions) {
                "debug".into()
            } else {
                "release".into()
            },
            native_isa: super::native::isa().into(),
            native128_isa: super::native::isa_128().into(),
            load_before: loadavg(),
            load_after: -1.0,
            clock: super::clock::name().into(),
            commit: commit(),
            unix_time: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
        }
    }
}

/// One kernel's figures. Rates are per second; `*_ips` counts wave-instructions (one
/// instruction of one wave, whatever EXEC), `*_lops` lane operations (active lanes of
/// vector ALU and VINTRP instructions).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KernelResult {
    pub name: String,
    pub what: String,
    /// Iterations (N for lds_matmul) of the compiled-engine and native runs.
    pub size: u32,
    /// Iterations (N) of the interpreter runs.
    pub interp_size: u32,
    pub wave_insts: u64,
    pub lane_ops: u64,
    pub interp_ips: f64,
    /// Warm code cache (compile time not included).
    pub jit_ips: f64,
    /// Fresh engine: the run includes compiling every block.
    pub jit_cold_ips: f64,
    /// Fresh tiered engine (includes interpreting cold blocks and compiling hot ones).
    pub tiered_ips: f64,
    pub native_ips: Option<f64>,
    /// The native baseline built for 128-bit vectors (the JIT's vector width).
    #[serde(default)]
    pub native128_ips: Option<f64>,
    pub interp_lops: f64,
    pub jit_lops: f64,
    pub tiered_lops: f64,
    pub native_lops: Option<f64>,
    /// Seconds of each engine's best run.
    pub interp_s: f64,
    pub jit_s: f64,
    pub jit_cold_s: f64,
    pub tiered_s: f64,
    pub native_s: Option<f64>,
    #[serde(default)]
    pub native128_s: Option<f64>,
    pub compiled_blocks: u64,
    pub compiled_insts: u64,
    /// Instructions compiled as calls of the interpreter helper.
    pub helper_insts: u64,
    /// The JIT's own compile statistics (wall clock, so inflated on a busy host).
    pub compile_us_per_block: f64,
    pub compile_us_per_inst: f64,
    /// What getting newly warm code compiled costs: the quick tier's wall clock per
    /// instruction (the optimising tier's when there is no quick tier).
    #[serde(default)]
    pub first_us_per_inst: f64,
    /// The optimising tier's wall clock per instruction (hot code), if it compiled any.
    #[serde(default)]
    pub opt_us_per_inst: Option<f64>,
    /// Compile cost on the clock of the other timings: (cold run - warm run) / compiled
    /// instructions.
    #[serde(default)]
    pub compile_cpu_us_per_inst: f64,
    /// The same per compiled block (unit).
    #[serde(default)]
    pub compile_cpu_us_per_block: f64,
    /// Executions after which compiling a block has paid for itself, both tiers counted
    /// (quick compile, runs of the quick code, optimising compile):
    /// compile_cpu_us_per_inst / (interpreter - warm JIT time per instruction).
    pub break_even_runs: Option<f64>,
    /// Instructions per second of the quick tier's code alone (warm, never optimised).
    #[serde(default)]
    pub quick_ips: Option<f64>,
    /// The first compile's cost on the clock of the other timings: (cold run - warm run)
    /// of the quick tier alone / instructions it compiled.
    #[serde(default)]
    pub quick_cpu_us_per_inst: Option<f64>,
    /// Executions after which the first compile (the quick tier, what the tier threshold
    /// starts) has paid for itself: quick_cpu_us_per_inst / (interpreter - quick code
    /// time per instruction).
    #[serde(default)]
    pub quick_break_even_runs: Option<f64>,
    /// Runs of quick-tier code after which its optimised compile has paid for itself
    /// (what the hot threshold decides): opt_us_per_inst / (quick code - warm JIT time
    /// per instruction).
    #[serde(default)]
    pub opt_break_even_runs: Option<f64>,
    /// Instructions per second of pre-decoded code (`wavejit_interp::threaded`, the
    /// first tier of `tiered`), its blocks built.
    #[serde(default)]
    pub threaded_ips: Option<f64>,
    /// What building pre-decoded blocks costs: (cold run - warm run) of the pre-decoded
    /// tier alone on a small size (one loop iteration, one tile) / instructions it
    /// pre-decoded.
    #[serde(default)]
    pub threaded_cpu_us_per_inst: Option<f64>,
    /// Executions after which the first tier's build (pre-decoding) has paid for itself:
    /// threaded_cpu_us_per_inst / (interpreter - pre-decoded time per instruction).
    #[serde(default)]
    pub threaded_break_even_runs: Option<f64>,
    /// Runs of pre-decoded code after which the quick compile has paid for itself (what
    /// the tier threshold decides): quick_cpu_us_per_inst / (pre-decoded - quick code
    /// time per instruction).
    #[serde(default)]
    pub quick_over_threaded_runs: Option<f64>,
    /// Ratios measured in this run.
    pub jit_over_interp: f64,
    /// JIT time / native time (1.0: as fast as native Rust).
    pub jit_time_over_native: Option<f64>,
    /// JIT time / time of the 128-bit native build: the JIT's cost with the vector width
    /// difference taken out (information; the target is against `native`).
    #[serde(default)]
    pub jit_time_over_native128: Option<f64>,
    /// Tiered time / JIT time, both from a cold cache.
    pub tiered_time_over_jit: f64,
    /// Seconds of the best warm JIT run counting profile events.
    #[serde(default)]
    pub profiled_s: f64,
    /// Profiled JIT time / JIT time, both warm: what `--profile` costs.
    #[serde(default)]
    pub profiled_time_over_jit: f64,
}

impl KernelResult {
    /// The break-even of the first tier that builds anything: pre-decoded code when it
    /// was measured (results files from before it have the quick tier's).
    pub fn first_break_even_runs(&self) -> Option<f64> {
        self.threaded_break_even_runs.or(self.quick_break_even_runs)
    }
}

/// Best times (seconds) of one kernel's runs on each engine.
#[derive(Clone, Copy, Debug)]
pub struct Times {
    pub interp: f64,
    pub jit: f64,
    pub jit_cold: f64,
    pub tiered: f64,
    /// The warm JIT counting profile events.
    pub profiled: f64,
    pub native: Option<f64>,
    pub native128: Option<f64>,
    /// The quick tier alone: (warm run, cold run, instructions compiled).
    pub quick: Option<(f64, f64, u64)>,
    /// The pre-decoded tier alone: (warm run at the interpreter's size, cold minus warm
    /// time of a small run, instructions that small run pre-decoded).
    pub threaded: Option<(f64, f64, u64)>,
}

impl KernelResult {
    /// `counts` and `interp_counts`: (wave-instructions, lane operations) of the runs of
    /// `size` and `interp_size`.
    pub fn new(
        k: &Kernel,
        size: u32,
        interp_size: u32,
        counts: (u64, u64),
        interp_counts: (u64, u64),
        t: Times,
        cs: CompileStats,
    ) -> KernelResult {
        let Times {
            interp: t_interp,
            jit: t_jit,
            jit_cold: t_jit_cold,
            tiered: t_tiered,
            profiled: t_profiled,
            native: t_native,
            native128: t_native128,
            quick,
            threaded,
        } = t;
        let (insts, lops) = (counts.0 as f64, counts.1 as f64);
        let (iinsts, ilops) = (interp_counts.0 as f64, interp_counts.1 as f64);
        let interp_ips = iinsts / t_interp;
        let jit_ips = insts / t_jit;
        let compile_us_per_inst = if cs.insts > 0 {
            cs.nanos as f64 / 1e3 / cs.insts as f64
        } else {
            0.0
        };
        // Instructions compiled once each (a hot unit's optimised version is the same
        // instructions again).
        let first_insts = cs.insts - cs.hot_insts;
        let opt_insts = cs.insts - cs.quick_insts;
        let first_us_per_inst = if cs.quick_insts > 0 {
            cs.quick_nanos as f64 / 1e3 / cs.quick_insts as f64
        } else if cs.insts > 0 {
            cs.nanos as f64 / 1e3 / cs.insts as f64
        } else {
            0.0
        };
        let opt_us_per_inst =
            (opt_insts > 0).then(|| (cs.nanos - cs.quick_nanos) as f64 / 1e3 / opt_insts as f64);
        let compile_cpu_us_per_inst = if first_insts > 0 {
            (t_jit_cold - t_jit).max(0.0) * 1e6 / first_insts as f64
        } else {
            0.0
        };
        let gain_ns = 1e9 / interp_ips - 1e9 / jit_ips;
        let quick_ips = quick.map(|(warm, _, _)| insts / warm);
        let quick_cpu_us_per_inst = quick
            .filter(|q| q.2 > 0)
            .map(|(warm, cold, n)| (cold - warm).max(0.0) * 1e6 / n as f64);
        let opt_break_even_runs = match (quick_ips, opt_us_per_inst) {
            (Some(q), Some(c)) if 1e9 / q > 1e9 / jit_ips => {
                Some(c * 1e3 / (1e9 / q - 1e9 / jit_ips))
            }
            _ => None,
        };
        let quick_break_even_runs = match (quick_ips, quick_cpu_us_per_inst) {
            (Some(q), Some(c)) if 1e9 / interp_ips > 1e9 / q => {
                Some(c * 1e3 / (1e9 / interp_ips - 1e9 / q))
            }
            _ => None,
        };
        // The pre-decoded tier ran the interpreter's size.
        let threaded_ips = threaded.map(|(warm, _, _)| iinsts / warm);
        let threaded_cpu_us_per_inst = threaded
            .filter(|t| t.2 > 0)
            .map(|(_, build, n)| build.max(0.0) * 1e6 / n as f64);
        let threaded_break_even_runs = match (threaded_ips, threaded_cpu_us_per_inst) {
            (Some(t), Some(c)) if 1e9 / interp_ips > 1e9 / t => {
                Some(c * 1e3 / (1e9 / interp_ips - 1e9 / t))
            }
            _ => None,
        };
        let quick_over_threaded_runs = match (quick_ips, quick_cpu_us_per_inst, threaded_ips) {
            (Some(q), Some(c), Some(t)) if 1e9 / t > 1e9 / q => Some(c * 1e3 / (1e9 / t - 1e9 / q)),
            _ => None,
        };
        KernelResult {
            name: k.name.into(),
            what: k.what.into(),
            size,
            interp_size,
            wave_insts: counts.0,
            lane_ops: counts.1,
            interp_ips,
            jit_ips,
            jit_cold_ips: insts / t_jit_cold,
            tiered_ips: insts / t_tiered,
            native_ips: t_native.map(|t| insts / t),
            native128_ips: t_native128.map(|t| insts / t),
            interp_lops: ilops / t_interp,
            jit_lops: lops / t_jit,
            tiered_lops: lops / t_tiered,
            native_lops: t_native.map(|t| lops / t),
            interp_s: t_interp,
            jit_s: t_jit,
            jit_cold_s: t_jit_cold,
            tiered_s: t_tiered,
            native_s: t_native,
            native128_s: t_native128,
            compiled_blocks: cs.blocks,
            compiled_insts: cs.insts,
            helper_insts: cs.helper_insts,
            compile_us_per_block: if cs.blocks > 0 {
                cs.nanos as f64 / 1e3 / cs.blocks as f64
            } else {
                0.0
            },
            compile_us_per_inst,
            first_us_per_inst,
            opt_us_per_inst,
            compile_cpu_us_per_inst,
            compile_cpu_us_per_block: if cs.blocks > cs.hot_blocks {
                compile_cpu_us_per_inst * first_insts as f64 / (cs.blocks - cs.hot_blocks) as f64
            } else {
                0.0
            },
            break_even_runs: (gain_ns > 0.0 && first_insts > 0)
                .then(|| compile_cpu_us_per_inst * 1e3 / gain_ns),
            quick_ips,
            quick_cpu_us_per_inst,
            quick_break_even_runs,
            opt_break_even_runs,
            threaded_ips,
            threaded_cpu_us_per_inst,
            threaded_break_even_runs,
            quick_over_threaded_runs,
            jit_over_interp: jit_ips / interp_ips,
            jit_time_over_native: t_native.map(|t| t_jit / t),
            jit_time_over_native128: t_native128.map(|t| t_jit / t),
            tiered_time_over_jit: t_tiered / t_jit_cold,
            profiled_s: t_profiled,
            profiled_time_over_jit: t_profiled / t_jit,
        }
    }
}

/// The tiered engine on a program whose every block runs once.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Once {
    pub blocks: u64,
    pub insts: u64,
    pub interp_s: f64,
    pub tiered_s: f64,
    /// The eager JIT compiling every block (for scale; measured on the first 300 blocks
    /// and scaled to the whole program).
    pub jit_s: f64,
}

/// A short differential fuzzing campaign (`wavejit fuzz`, one job): how many
/// instructions per CPU-second the interpreter and the JIT check against each other.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct FuzzRate {
    /// `gfx8` or `vp1`.
    pub arch: String,
    pub programs: u64,
    /// Each program from each of its initial states.
    pub runs: u64,
    /// Instructions executed by the interpreter (the JIT ran as many).
    pub insts: u64,
    /// Process CPU seconds of the campaign.
    pub cpu_s: f64,
}

impl FuzzRate {
    pub fn insts_per_cpu_s(&self) -> f64 {
        self.insts as f64 / self.cpu_s.max(1e-9)
    }
}

/// One tier threshold (0: the interpreter, 1: the eager JIT) on three workloads.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Sweep {
    pub threshold: u32,
    /// 300 blocks of 8 VALU instructions, each run once.
    pub once_s: f64,
    /// The same blocks, each a loop run 20 times.
    #[serde(default)]
    pub twenty_s: f64,
    /// The valu kernel, 1000 iterations.
    pub valu_1000_s: f64,
    /// 100 blocks, each a loop run 100 times.
    #[serde(default)]
    pub hundred_s: Option<f64>,
    /// The valu kernel at `valu_full_iters` iterations (the suite's size; not run on the
    /// interpreter).
    #[serde(default)]
    pub valu_full_s: Option<f64>,
    #[serde(default)]
    pub valu_full_iters: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScalingPoint {
    pub threads: u32,
    pub seconds: f64,
    pub ips: f64,
    /// CPU seconds the process used during that run (user + system).
    #[serde(default)]
    pub cpu_s: f64,
    /// Seconds the workers spent runnable but waiting for a CPU (summed over workers):
    /// the host's other load.
    #[serde(default)]
    pub wait_s: f64,
    /// Seconds the workers ran on a CPU (summed over workers; the process's CPU time
    /// without the main thread's).
    #[serde(default)]
    pub run_s: f64,
}

impl ScalingPoint {
    /// Wave-instructions per second of CPU the workers ran: equal on 1 and N threads when
    /// nothing slows the threads down when they run together (shared data, memory
    /// bandwidth, a lower all-core clock).
    pub fn ips_per_cpu(&self) -> f64 {
        if self.run_s > 0.0 {
            self.ips * self.seconds / self.run_s
        } else {
            0.0
        }
    }
}

/// Independent waves on 1..=N threads.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Scaling {
    pub kernel: String,
    pub waves: u64,
    pub iters_per_wave: u32,
    /// The most threads used (every core unless limited).
    pub threads: u32,
    /// Time on 1 thread / time on `threads` threads.
    pub speedup: f64,
    /// speedup / threads.
    pub efficiency: f64,
    /// The speedup with each run's time reduced by the share its workers spent waiting
    /// for a CPU (a projection for an unloaded host; equal to `speedup` when nothing
    /// waited).
    #[serde(default)]
    pub speedup_unloaded: f64,
    pub points: Vec<ScalingPoint>,
    /// Calibration: the native valu baseline (`native::valu`, AVX2) run the same way,
    /// `waves` runs of `native_iters_per_wave` iterations (about as long as one wave of
    /// the JIT) on 1..=N threads. Pure compute on private data, nothing shared: the
    /// speedup this host itself gives to N threads.
    #[serde(default)]
    pub native_iters_per_wave: u32,
    #[serde(default)]
    pub native_speedup: f64,
    #[serde(default)]
    pub native_speedup_unloaded: f64,
    #[serde(default)]
    pub native_points: Vec<ScalingPoint>,
}

/// A speed target, judged on this run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Target {
    pub what: String,
    pub measured: f64,
    /// `>=` or `<=`.
    pub cmp: String,
    pub goal: f64,
    pub met: bool,
    /// Why the figure may not mean what it says (e.g. the host did not give the process
    /// the cores the scaling run asked for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The whole run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    pub host: Host,
    pub quick: bool,
    /// The tiered engine's threshold in this build.
    pub tier_threshold: u32,
    pub kernels: Vec<KernelResult>,
    pub scaling: Scaling,
    pub tiered_once: Once,
    #[serde(default)]
    pub fuzz: Vec<FuzzRate>,
    #[serde(default)]
    pub tier_sweep: Vec<Sweep>,
    #[serde(default)]
    pub targets: Vec<Target>,
    /// Wall time of the whole benchmark.
    pub seconds: f64,
}

impl Report {
    /// The largest tier threshold that keeps the tiered engine within 1.1x of the JIT on
    /// the valu loop, from this run's figures: the tiered engine interprets the loop
    /// `threshold` times before compiling it, each time losing (interpreter - JIT) time
    /// per iteration, against the cold JIT's whole run.
    pub fn tier_bound(&self) -> Option<f64> {
        let k = self.kernels.iter().find(|k| k.name == "valu")?;
        let interp = k.interp_s / k.interp_size.max(1) as f64;
        let jit = k.jit_s / k.size.max(1) as f64;
        (interp > jit && k.jit_cold_s > 0.0).then(|| 0.1 * k.jit_cold_s / (interp - jit))
    }
}

fn target(what: String, measured: f64, cmp: &str, goal: f64) -> Target {
    let met = if cmp == ">=" {
        measured >= goal
    } else {
        measured <= goal
    };
    Target {
        what,
        measured,
        cmp: cmp.into(),
        goal,
        met,
        note: None,
    }
}

/// The speed targets for the kernels measured in `r`.
pub fn targets(r: &Report) -> Vec<Target> {
    let mut t = Vec::new();
    for k in &r.kernels {
        let goal = match k.name.as_str() {
            "valu" => Some(30.0),
            "dpp" | "sdwa" | "vintrp" => Some(20.0),
            "divergent" => Some(10.0),
            _ => None,
        };
        if let Some(g) = goal {
            t.push(target(
                format!("{}: JIT / interpreter speed", k.name),
                k.jit_over_interp,
                ">=",
                g,
            ));
        }
    }
    for k in &r.kernels {
        if let Some(x) = k.jit_time_over_native {
            t.push(target(
                format!("{}: JIT time / native time", k.name),
                x,
                "<=",
                1.25,
            ));
        }
    }
    for k in &r.kernels {
        if k.profiled_s > 0.0 {
            t.push(target(
                format!("{}: profiled JIT time / JIT time", k.name),
                k.profiled_time_over_jit,
                "<=",
                1.5,
            ));
        }
    }
    let mut first: Vec<f64> = r
        .kernels
        .iter()
        .map(|k| k.first_us_per_inst)
        .filter(|x| *x > 0.0)
        .collect();
    if !first.is_empty() {
        first.sort_by(f64::total_cmp);
        let n = first.len();
        let median = if n % 2 == 1 {
            first[n / 2]
        } else {
            (first[n / 2 - 1] + first[n / 2]) / 2.0
        };
        t.push(target(
            "compile µs per instruction of newly warm code, median over the kernels".into(),
            median,
            "<=",
            30.0,
        ));
    }
    if let Some((k, be)) = r
        .kernels
        .iter()
        .filter_map(|k| Some((k, k.first_break_even_runs()?)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
    {
        t.push(target(
            format!(
                "break-even runs of the first compile (pre-decoded tier), largest over the kernels ({})",
                k.name
            ),
            be,
            "<=",
            20.0,
        ));
    }
    if r.tiered_once.interp_s > 0.0 {
        t.push(target(
            "tiered time / interpreter time, every block run once".into(),
            r.tiered_once.tiered_s / r.tiered_once.interp_s,
            "<=",
            1.25,
        ));
    }
    if let Some(k) = r.kernels.iter().find(|k| k.name == "valu") {
        t.push(target(
            format!("valu ({} iterations): tiered time / JIT time", k.size),
            k.tiered_time_over_jit,
            "<=",
            1.1,
        ));
    }
    if r.scaling.threads > 0 {
        let mut s = target(
            format!("multi-wave speedup on {} threads", r.scaling.threads),
            r.scaling.speedup,
            ">=",
            0.9 * r.scaling.threads as f64,
        );
        let mut notes = Vec::new();
        if let Some(p) = r.scaling.points.last() {
            let cores = p.cpu_s / p.seconds;
            if p.cpu_s > 0.0 && cores < 0.9 * p.threads as f64 {
                notes.push(format!(
                    "the host gave the process {cores:.2} CPUs during the {}-thread run (other load), so this measures the host; without the waits for a CPU the speedup would be {:.2}",
                    p.threads, r.scaling.speedup_unloaded
                ));
            }
        }
        if r.scaling.native_speedup > 0.0 {
            notes.push(format!(
                "the host's own ceiling in this run (native baseline, nothing shared): {:.2} ({:.2} without the waits for a CPU)",
                r.scaling.native_speedup, r.scaling.native_speedup_unloaded
            ));
        }
        if !notes.is_empty() {
            s.note = Some(notes.join("; "));
        }
        t.push(s);
    }
    t
}

fn m(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2} G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} k", x / 1e3)
    } else {
        format!("{x:.1}")
    }
}

fn opt(x: Option<f64>, f: impl Fn(f64) -> String) -> String {
    x.map_or_else(|| "-".into(), f)
}

/// The table printed by `wavejit bench` (and pasted into the Markdown).
pub fn table(r: &Report, markdown: bool) -> String {
    let head = [
        "kernel",
        "interp inst/s",
        "jit inst/s",
        "tiered inst/s",
        "native inst/s",
        "jit lane-op/s",
        "JIT/interp",
        "JIT/native (time)",
        "JIT/native-128 (time)",
        "tiered/JIT (time)",
        "profiled/JIT (time)",
        "compile µs/inst",
        "opt µs/inst",
        "cold-warm µs/inst",
        "compile ms/block",
        "quick inst/s",
        "quick cold-warm µs/inst",
        "break-even runs (quick)",
        "break-even runs (both tiers)",
        "opt break-even (quick runs)",
        "pre-decoded inst/s",
        "pre-decode cold-warm µs/inst",
        "break-even runs (pre-decoded)",
        "quick break-even (pre-decoded runs)",
    ];
    let rows: Vec<Vec<String>> = r
        .kernels
        .iter()
        .map(|k| {
            vec![
                k.name.clone(),
                m(k.interp_ips),
                m(k.jit_ips),
                m(k.tiered_ips),
                opt(k.native_ips, m),
                m(k.jit_lops),
                format!("{:.1}×", k.jit_over_interp),
                opt(k.jit_time_over_native, |x| format!("{x:.2}")),
                opt(k.jit_time_over_native128, |x| format!("{x:.2}")),
                format!("{:.2}", k.tiered_time_over_jit),
                if k.profiled_s > 0.0 {
                    format!("{:.2}", k.profiled_time_over_jit)
                } else {
                    "-".into()
                },
                format!("{:.0}", k.first_us_per_inst),
                opt(k.opt_us_per_inst, |x| format!("{x:.0}")),
                format!("{:.0}", k.compile_cpu_us_per_inst),
                format!("{:.1}", k.compile_cpu_us_per_block / 1e3),
                opt(k.quick_ips, m),
                opt(k.quick_cpu_us_per_inst, |x| format!("{x:.0}")),
                opt(k.quick_break_even_runs, |x| format!("{x:.0}")),
                opt(k.break_even_runs, |x| format!("{x:.0}")),
                opt(k.opt_break_even_runs, |x| format!("{x:.0}")),
                opt(k.threaded_ips, m),
                opt(k.threaded_cpu_us_per_inst, |x| format!("{x:.2}")),
                opt(k.threaded_break_even_runs, |x| format!("{x:.1}")),
                opt(k.quick_over_threaded_runs, |x| format!("{x:.0}")),
            ]
        })
        .collect();
    let mut s = String::new();
    if markdown {
        let _ = writeln!(s, "| {} |", head.join(" | "));
        let _ = writeln!(s, "|{}", head.iter().map(|_| "---|").collect::<String>());
        for row in &rows {
            let _ = writeln!(s, "| {} |", row.join(" | "));
        }
    } else {
        let w: Vec<usize> = (0..head.len())
            .map(|i| {
                rows.iter()
                    .map(|r| r[i].chars().count())
                    .chain([head[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: Vec<String>| -> String {
            cells
                .iter()
                .zip(&w)
                .map(|(c, w)| format!("{c:>w$}"))
                .collect::<Vec<_>>()
                .join("  ")
        };
        let _ = writeln!(s, "{}", line(head.iter().map(|h| h.to_string()).collect()));
        for row in rows {
            let _ = writeln!(s, "{}", line(row));
        }
    }
    s
}

/// This run (`new`) against a previous one (`old`): per kernel present in both, the ratio
/// new / old of the compile cost of newly warm code, the warm JIT's and the
/// interpreter's instructions per second, and of the every-block-once times.
pub fn against(new: &Report, old: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Against the previous figures (new / old; compile below 1 is cheaper, speeds above 1 are faster):"
    );
    let ratio = |n: f64, o: f64| {
        if o > 0.0 && n > 0.0 {
            format!("{:.2}", n / o)
        } else {
            "-".into()
        }
    };
    let first = |k: &KernelResult| {
        if k.first_us_per_inst > 0.0 {
            k.first_us_per_inst
        } else {
            k.compile_us_per_inst
        }
    };
    let _ = writeln!(
        s,
        "{:>10}  {:>22}  {:>14}  {:>17}  {:>17}  {:>32}",
        "kernel",
        "compile µs/inst (old)",
        "jit inst/s",
        "interp inst/s",
        "tiered inst/s",
        "first break-even runs: new, old"
    );
    let runs = |x: Option<f64>| x.map_or("-".into(), |x| format!("{x:.1}"));
    for k in &new.kernels {
        let Some(o) = old.kernels.iter().find(|o| o.name == k.name) else {
            continue;
        };
        let _ = writeln!(
            s,
            "{:>10}  {:>22}  {:>14}  {:>17}  {:>17}  {:>32}",
            k.name,
            format!("{} ({:.0})", ratio(first(k), first(o)), first(o)),
            ratio(k.jit_ips, o.jit_ips),
            ratio(k.interp_ips, o.interp_ips),
            ratio(k.tiered_ips, o.tiered_ips),
            format!(
                "{}, {}",
                runs(k.first_break_even_runs()),
                runs(o.first_break_even_runs())
            ),
        );
    }
    for f in &new.fuzz {
        if let Some(o) = old.fuzz.iter().find(|o| o.arch == f.arch) {
            let _ = writeln!(
                s,
                "fuzzing {}: inst per CPU-second {} ({:.0} k before)",
                f.arch,
                ratio(f.insts_per_cpu_s(), o.insts_per_cpu_s()),
                o.insts_per_cpu_s() / 1e3
            );
        }
    }
    let (n, o) = (&new.tiered_once, &old.tiered_once);
    if n.jit_s > 0.0 && o.jit_s > 0.0 {
        let _ = writeln!(
            s,
            "every block once: eager JIT {} ({:.0} ms before), tiered {}, interpreter {}",
            ratio(n.jit_s, o.jit_s),
            o.jit_s * 1e3,
            ratio(n.tiered_s, o.tiered_s),
            ratio(n.interp_s, o.interp_s)
        );
    }
    s
}

/// Everything after the kernel table: scaling, tiering and the targets.
pub fn summary(r: &Report, markdown: bool) -> String {
    let mut s = String::new();
    let b = if markdown { "- " } else { "" };
    let sc = &r.scaling;
    let per = |points: &[ScalingPoint]| {
        points
            .iter()
            .map(|p| {
                let per_cpu = p.ips_per_cpu();
                format!(
                    "{} thread{}: {} inst/s ({:.0}% CPU, {:.0}% waiting for one{})",
                    p.threads,
                    if p.threads == 1 { "" } else { "s" },
                    m(p.ips),
                    100.0 * p.cpu_s / p.seconds,
                    100.0 * p.wait_s / (p.seconds * p.threads as f64),
                    if per_cpu > 0.0 {
                        format!(", {} inst per CPU-second", m(per_cpu))
                    } else {
                        String::new()
                    }
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        s,
        "{b}Scaling ({} waves of {} x {} iterations, one shared code cache): {}; N-core/1-core = {:.2} on {} threads ({:.0}% efficiency)",
        sc.waves,
        sc.kernel,
        sc.iters_per_wave,
        per(&sc.points),
        sc.speedup,
        sc.threads,
        100.0 * sc.efficiency
    );
    if sc.native_speedup > 0.0 {
        let _ = writeln!(
            s,
            "{b}Host calibration (native {} baseline, {} waves x {} iterations, nothing shared): {}; N-core/1-core = {:.2} on {} threads; wavejit's scaling / the host's = {:.2}",
            sc.kernel,
            sc.waves,
            sc.native_iters_per_wave,
            per(&sc.native_points),
            sc.native_speedup,
            sc.threads,
            sc.speedup / sc.native_speedup
        );
    }
    let o = &r.tiered_once;
    if o.interp_s > 0.0 {
        let _ = writeln!(
            s,
            "{b}Every block once ({} blocks, {} instructions): interp {:.2} ms, tiered {:.2} ms ({:.2}x), eager jit {:.2} ms ({:.1}x)",
            o.blocks,
            o.insts,
            o.interp_s * 1e3,
            o.tiered_s * 1e3,
            o.tiered_s / o.interp_s,
            o.jit_s * 1e3,
            o.jit_s / o.interp_s
        );
    }
    for f in &r.fuzz {
        let _ = writeln!(
            s,
            "{b}Fuzzing {} (wavejit fuzz, one job, seed 1, 0 mismatches): {} programs, {} runs, {} instructions in {:.2} CPU-s: {:.0} k inst per CPU-second",
            f.arch,
            f.programs,
            f.runs,
            f.insts,
            f.cpu_s,
            f.insts_per_cpu_s() / 1e3
        );
    }
    if !r.tier_sweep.is_empty() {
        s.push_str(&sweep_table(&r.tier_sweep, markdown));
    }
    let mut why = Vec::new();
    if let Some((k, be)) = r
        .kernels
        .iter()
        .filter_map(|k| Some((k, k.quick_over_threaded_runs?)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
    {
        why.push(format!(
            "largest break-even of the quick compile over pre-decoded code in this run: {be:.0} ({})",
            k.name
        ));
    }
    if let Some(t) = r.tier_bound() {
        why.push(format!(
            "the 1.1x bound on the valu loop allows at most {t:.0} (0.1 x the cold JIT's time / the time an interpreted iteration loses)"
        ));
    }
    let _ = writeln!(
        s,
        "{b}Tier threshold of this build: {}{}",
        r.tier_threshold,
        if why.is_empty() {
            String::new()
        } else {
            format!(" ({})", why.join("; "))
        }
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "{}", if markdown { "**Targets:**" } else { "Targets:" });
    for t in &r.targets {
        let _ = writeln!(
            s,
            "{b}{} {}: {:.2} (goal {} {}){}",
            if t.met { "[met]   " } else { "[MISSED]" },
            t.what,
            t.measured,
            t.cmp,
            t.goal,
            t.note
                .as_ref()
                .map_or_else(String::new, |n| format!(" — note: {n}"))
        );
    }
    s
}

/// The tier threshold sweep: milliseconds per workload and threshold, and each row's
/// worst ratio to the better of the interpreter and the eager JIT on the same workload
/// (the price of not knowing in advance how often a block runs).
pub fn sweep_table(sweep: &[Sweep], markdown: bool) -> String {
    let mut s = String::new();
    let name = |t: u32| match t {
        0 => "interpreter".to_string(),
        1 => "eager JIT".to_string(),
        k => format!("tiered, {k}"),
    };
    let of = |t: u32| sweep.iter().find(|w| w.threshold == t);
    let (interp, jit) = (of(0), of(1));
    // Per row: the workloads' times, in the order of the columns.
    let cells = |w: &Sweep| -> [Option<f64>; 5] {
        [
            Some(w.once_s),
            Some(w.twenty_s),
            w.hundred_s,
            Some(w.valu_1000_s),
            w.valu_full_s,
        ]
    };
    let best: Vec<Option<f64>> = (0..5)
        .map(|i| {
            let a = interp.and_then(|w| cells(w)[i]);
            let b = jit.and_then(|w| cells(w)[i]);
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        })
        .collect();
    let full = sweep.first().map_or(0, |w| w.valu_full_iters);
    let head = [
        "engine, threshold".to_string(),
        "run once".into(),
        "run 20 times".into(),
        "run 100 times".into(),
        "valu 1000".into(),
        format!("valu {full} (/ eager JIT)"),
        "worst / better engine".into(),
    ];
    let b = if markdown { "- " } else { "" };
    let _ = writeln!(
        s,
        "{b}Tier threshold sweep (ms): 300 blocks run once / 300 blocks run 20 times / 100 blocks run 100 times / valu 1000 iterations / valu {full} iterations; worst ratio of the row to the better of interpreter and eager JIT:"
    );
    let rows: Vec<Vec<String>> = sweep
        .iter()
        .map(|w| {
            let c = cells(w);
            let worst = c
                .iter()
                .zip(&best)
                .filter_map(|(t, b)| Some(t.as_ref()? / b.as_ref()?))
                .fold(0.0, f64::max);
            let mut row = vec![name(w.threshold)];
            for (i, t) in c.iter().enumerate() {
                row.push(match (t, i) {
                    (None, _) => "-".into(),
                    (Some(t), 4) => match jit.and_then(|j| j.valu_full_s) {
                        Some(j) => format!("{:.2} ({:.2})", t * 1e3, t / j),
                        None => format!("{:.2}", t * 1e3),
                    },
                    (Some(t), _) => format!("{:.2}", t * 1e3),
                });
            }
            row.push(format!("{worst:.2}"));
            row
        })
        .collect();
    if markdown {
        let _ = writeln!(s);
        let _ = writeln!(s, "| {} |", head.join(" | "));
        let _ = writeln!(s, "|{}", head.iter().map(|_| "---|").collect::<String>());
        for r in &rows {
            let _ = writeln!(s, "| {} |", r.join(" | "));
        }
        let _ = writeln!(s);
    } else {
        let w: Vec<usize> = (0..head.len())
            .map(|i| {
                rows.iter()
                    .map(|r| r[i].chars().count())
                    .chain([head[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for r in std::iter::once(&head.to_vec()).chain(&rows) {
            let line: Vec<String> = r.iter().zip(&w).map(|(c, w)| format!("{c:>w$}")).collect();
            let _ = writeln!(s, "  {}", line.join("  "));
        }
    }
    s
}

/// The host, one paragraph.
pub fn host_line(h: &Host) -> String {
    format!(
        "{} ({} cores, {}), {} {} {}, {}, Cranelift {}, {} build, native baselines: {}{}; timed on {}; load average {:.1} before, {:.1} after",
        h.cpu,
        h.cores,
        h.features.join("/"),
        h.os,
        h.arch,
        h.kernel,
        h.rustc,
        h.cranelift,
        h.profile,
        h.native_isa,
        if h.native128_isa.is_empty() {
            String::new()
        } else {
            format!(" (and {})", h.native128_isa)
        },
        h.clock,
        h.load_before,
        h.load_after
    )
}

/// The Markdown block for the README: host, table, summary.
pub fn markdown(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Measured with `wavejit bench{}` at commit {} on {}.",
        if r.quick { " --quick" } else { "" },
        r.host.commit,
        host_line(&r.host)
    );
    let _ = writeln!(s);
    s.push_str(&table(r, true));
    let _ = writeln!(s);
    s.push_str(&summary(r, true));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A made-up report (figures chosen to sit on both sides of each goal).
    fn sample() -> Report {
        let k = |name: &str, speedup: f64, native: Option<f64>| KernelResult {
            name: name.into(),
            what: String::new(),
            size: 10,
            interp_size: 10,
            wave_insts: 100,
            lane_ops: 6400,
            interp_ips: 1e6,
            jit_ips: 1e6 * speedup,
            jit_cold_ips: 1e6 * speedup,
            tiered_ips: 1e6 * speedup,
            native_ips: native.map(|n| 1e6 * speedup * n),
            native128_ips: native.map(|n| 1e6 * speedup * n / 2.0),
            interp_lops: 6.4e7,
            jit_lops: 6.4e7 * speedup,
            tiered_lops: 6.4e7 * speedup,
            native_lops: None,
            interp_s: 1.0,
            jit_s: 1.0 / speedup,
            jit_cold_s: 1.0 / speedup,
            tiered_s: 1.05 / speedup,
            native_s: native.map(|n| 1.0 / speedup / n),
            native128_s: native.map(|n| 2.0 / speedup / n),
            compiled_blocks: 1,
            compiled_insts: 10,
            helper_insts: 0,
            compile_us_per_block: 100.0,
            compile_us_per_inst: 10.0,
            first_us_per_inst: 10.0,
            opt_us_per_inst: Some(40.0),
            compile_cpu_us_per_inst: 10.0,
            compile_cpu_us_per_block: 100.0,
            break_even_runs: Some(12.0),
            quick_ips: Some(0.5e6 * speedup),
            quick_cpu_us_per_inst: Some(5.0),
            quick_break_even_runs: Some(6.0),
            opt_break_even_runs: Some(500.0),
            threaded_ips: Some(2e6),
            threaded_cpu_us_per_inst: Some(0.1),
            threaded_break_even_runs: Some(0.2),
            quick_over_threaded_runs: Some(9.0),
            jit_over_interp: speedup,
            jit_time_over_native: native,
            jit_time_over_native128: native.map(|n| n / 2.0),
            tiered_time_over_jit: 1.05,
            profiled_s: 0.0,
            profiled_time_over_jit: 0.0,
        };
        Report {
            host: Host::default(),
            quick: true,
            tier_threshold: 16,
            kernels: vec![
                k("valu", 31.0, Some(1.3)),
                k("dpp", 19.0, None),
                k("f64", 50.0, Some(1.2)),
            ],
            scaling: Scaling {
                kernel: "valu".into(),
                waves: 16,
                iters_per_wave: 10,
                threads: 2,
                speedup: 1.5,
                efficiency: 0.75,
                speedup_unloaded: 1.95,
                points: vec![
                    ScalingPoint {
                        threads: 1,
                        seconds: 1.0,
                        ips: 1e6,
                        cpu_s: 1.0,
                        wait_s: 0.0,
                        run_s: 1.0,
                    },
                    ScalingPoint {
                        threads: 2,
                        seconds: 0.66,
                        ips: 1.5e6,
                        cpu_s: 1.0,
                        wait_s: 0.3,
                        run_s: 1.0,
                    },
                ],
                native_iters_per_wave: 30,
                native_speedup: 1.7,
                native_speedup_unloaded: 1.98,
                native_points: Vec::new(),
            },
            tiered_once: Once {
                blocks: 1,
                insts: 9,
                interp_s: 1.0,
                tiered_s: 1.3,
                jit_s: 9.0,
            },
            fuzz: vec![FuzzRate {
                arch: "gfx8".into(),
                programs: 10,
                runs: 80,
                insts: 5000,
                cpu_s: 0.25,
            }],
            tier_sweep: Vec::new(),
            targets: Vec::new(),
            seconds: 1.0,
        }
    }

    #[test]
    fn targets_are_judged_on_the_right_side() {
        let t = targets(&sample());
        let get = |w: &str| t.iter().find(|x| x.what.starts_with(w)).expect(w);
        assert!(get("valu: JIT / interp").met); // 31 >= 30
        assert!(!get("dpp: JIT / interp").met); // 19 < 20
        assert!(!get("valu: JIT time / native").met); // 1.3 > 1.25
        assert!(get("f64: JIT time / native").met); // 1.2 <= 1.25
        assert!(!get("tiered time / interpreter").met); // 1.3 > 1.25
        assert!(get("valu (10 iterations): tiered").met); // 1.05 <= 1.1
        assert!(get("compile µs per instruction").met); // median of 10s: 10 <= 30
                                                        // The pre-decoded tier's: 0.1 µs / (1000 - 500 ns) = 0.2 runs.
        assert!(get("break-even runs of the first").met);
        let be = get("break-even runs of the first");
        assert!((be.measured - 0.2).abs() < 1e-9 && be.what.contains("pre-decoded"));
        let s = get("multi-wave");
        assert!(!s.met); // 1.5 < 1.8
                         // 1.0 CPU s in 0.66 s on 2 threads: the host gave 1.5 CPUs, which is noted.
        assert!(s.note.as_deref().is_some_and(|n| n.contains("1.95")));
        // The native calibration is named beside it.
        assert!(s
            .note
            .as_deref()
            .is_some_and(|n| n.contains("ceiling") && n.contains("1.70")));
    }

    #[test]
    fn tier_bound_is_where_the_interpreted_iterations_cost_a_tenth() {
        let r = sample();
        // valu: 10 interpreted iterations in 1 s, 10 JIT iterations in 1/31 s (cold too).
        let (interp_iter, jit_iter, cold) = (0.1, 1.0 / 310.0, 1.0 / 31.0);
        let t = r.tier_bound().expect("valu is in the sample");
        assert!(
            (t * (interp_iter - jit_iter) - 0.1 * cold).abs() < 1e-12,
            "{t}"
        );
        // The sample's quick compile pays off after 9 runs of pre-decoded code.
        assert!(summary(&r, false).contains(
            "largest break-even of the quick compile over pre-decoded code in this run: 9 ("
        ));
    }

    #[test]
    fn json_round_trips_and_renders() {
        let mut r = sample();
        r.targets = targets(&r);
        let text = serde_json::to_string(&r).expect("serialises");
        let back: Report = serde_json::from_str(&text).expect("parses");
        assert_eq!(back.kernels.len(), 3);
        assert_eq!(back.targets.len(), r.targets.len());
        let svg = super::super::svg::plot(&back);
        // One bar per engine with a figure: 3 kernels x (interp, jit, tiered) + 2 native.
        assert_eq!(svg.matches("<title>").count(), 11);
        assert!(svg.contains("the host's own (native, nothing shared): 1.70"));
        let md = markdown(&back);
        assert!(md.contains("| valu |"));
        // JIT/native 1.3 and JIT/native-128 0.65 (the 128-bit build takes twice as long).
        assert!(md.contains("JIT/native-128 (time)") && md.contains("| 1.30 | 0.65 |"));
        assert!(md.contains("Host calibration"));
        assert!(md.contains("[MISSED]"));
        // 5000 instructions in 0.25 CPU-s.
        assert!(md.contains(
            "10 programs, 80 runs, 5000 instructions in 0.25 CPU-s: 20 k inst per CPU-second"
        ));
    }

    #[test]
    fn fuzz_rates_are_compared_with_the_baselines() {
        let new = sample();
        let mut old = sample();
        old.fuzz[0].cpu_s = 0.5; // 10 k inst per CPU-second: the new run is twice as fast
        let s = against(&new, &old);
        assert!(
            s.contains("fuzzing gfx8: inst per CPU-second 2.00 (10 k before)"),
            "{s}"
        );
        old.fuzz.clear(); // a baseline written before the fuzz figures: no line
        assert!(!against(&new, &old).contains("fuzzing"));
    }
}
