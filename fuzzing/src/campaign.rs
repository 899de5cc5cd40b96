//! A campaign: programs `0..N` (or as many as fit in a time budget) of one seed, run on
//! `jobs` threads, each program in the interpreter and in the engine under test; then the
//! mismatches minimised and written as reproducers. And the self-test, which runs a
//! campaign against an engine with a planted bug and demands that it be found and shrunk
//! to a handful of instructions.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use wavejit_interp::ExecErrorKind;
use wavejit_isa::progen::gcn::Pool;
use wavejit_isa::progen::shape::{program, ShapeConfig};
use wavejit_isa::progen::state::{gcn_state, gcn_state_into, GcnState};
use wavejit_isa::progen::{self, vp1 as pvp1};
use wavejit_isa::{Arch, Gen};
use wavejit_jit::JitConfig;

use super::case::{
    gcn_program, run_gcn, run_gcn_into, run_vp1, Failure, GcnCase, GcnOutcome, GcnScratch, Vp1Case,
    Vp1Interp, Vp1Jit, Vp1Runner, MAX_INSTS,
};
use super::compare::{self, Diffs};
use super::engine::{PlantedDpp, Recycled};
use super::{minimise, probe, repro};
use wavejit::engine::{Interp, Jit, WaveEngine};

/// Tier threshold of the `tiered` campaigns: low, so that the generator's long loops
/// (5-24 trips) get compiled part-way and the hand-over from interpreted to compiled
/// iterations is what is tested. The engine's default (`DEFAULT_TIER_THRESHOLD`, 32) is a
/// speed trade-off chosen by the benchmarks and would leave those loops interpreted.
pub const TIERED_FUZZ_THRESHOLD: u32 = 8;

/// The engine compared with the interpreter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Against {
    /// The JIT, compiling every block on first use.
    Jit,
    /// The JIT with tiering (pre-decoded code for a block's first runs, then compiled).
    Tiered,
    /// Pre-decoded code only (`wavejit_interp::threaded`), nothing compiled.
    Threaded,
    /// The interpreter itself (a check of the harness: never a mismatch).
    Interp,
    /// The JIT with its test-only wrong lowering (`JitConfig::plant_xor_bug`:
    /// `v_xor_b32` lowered as an OR). Self-test only.
    PlantedJit,
    /// The interpreter with a planted DPP corner-case bug (`engine::PlantedDpp`).
    /// Self-test only.
    PlantedDpp,
}

impl Against {
    pub fn name(self) -> &'static str {
        match self {
            Against::Jit => "jit",
            Against::Tiered => "tiered",
            Against::Threaded => "threaded",
            Against::Interp => "interp",
            Against::PlantedJit => "planted-jit",
            Against::PlantedDpp => "planted-dpp",
        }
    }
}

impl std::str::FromStr for Against {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "jit" => Ok(Against::Jit),
            "tiered" => Ok(Against::Tiered),
            "threaded" => Ok(Against::Threaded),
            "interp" => Ok(Against::Interp),
            _ => Err(format!("unknown engine `{s}` (jit|tiered|threaded|interp)")),
        }
    }
}

/// What a campaign does.
#[derive(Clone, Debug)]
pub struct Config {
    pub arch: Arch,
    pub seed: u64,
    /// Number of programs (`None`: until `seconds` run out).
    pub programs: Option<u64>,
    pub seconds: Option<f64>,
    /// Instructions per program (roughly).
    pub len: usize,
    pub jobs: usize,
    pub against: Against,
    /// Where reproducers go (`None`: not written).
    pub out: Option<PathBuf>,
    /// Mismatches minimised and written (the rest are only counted).
    pub max_repros: usize,
    /// Stop at the first mismatch.
    pub stop_at_first: bool,
    /// Show a progress bar (on a terminal).
    pub progress: bool,
    /// Draw only instructions the JIT lowers inline (GCN).
    pub inline_only: bool,
    /// Initial states each program runs from (at least 1): the one drawn with the
    /// program, then `states - 1` more (`extra_gcn_state`, `extra_vp1_state`). The
    /// engine under test compiles a program once and runs it from each: every lowering
    /// meets more inputs for the cost of one compile, which is most of a program's time.
    /// A GCN program on the JIT's optimising tier alone runs from more (`states_of`).
    pub states: u32,
}

/// The default `Config::states` of GCN campaigns: with 8, compiling is about half of a
/// program's time (it is nine tenths with one state).
pub const DEFAULT_STATES: u32 = 8;

/// The default `Config::states` of VP1 campaigns: a VP1 run is a few microseconds next to
/// the program's compile, so more states cost little.
pub const DEFAULT_VP1_STATES: u32 = 16;

/// The default `Config::states` for `arch`.
pub fn default_states(arch: Arch) -> u32 {
    match arch {
        Arch::Gcn(_) => DEFAULT_STATES,
        Arch::Vp1 => DEFAULT_VP1_STATES,
    }
}

impl Config {
    pub fn new(arch: Arch) -> Config {
        Config {
            arch,
            seed: 1,
            programs: Some(1000),
            seconds: None,
            len: 24,
            jobs: 1,
            against: Against::Jit,
            out: None,
            max_repros: 3,
            stop_at_first: false,
            progress: false,
            inline_only: false,
            states: default_states(arch),
        }
    }
}

/// A mismatch, minimised.
#[derive(Clone, Debug)]
pub struct Found {
    /// The program's index in the campaign.
    pub index: u64,
    /// The initial state it mismatched from (`Config::states`).
    pub state: u32,
    /// Differences of the original program.
    pub diffs: Diffs,
    /// Differences of the minimised case, its instruction count and its text.
    pub min_diffs: Diffs,
    pub min_len: usize,
    pub min_text: String,
    /// The reproducer's `.s` file, if written.
    pub repro: Option<PathBuf>,
}

/// What a campaign did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub programs: u64,
    /// Runs: each program from each of its initial states (`Config::states`).
    pub runs: u64,
    /// Instructions executed (by the interpreter; the other engine ran as many unless
    /// they mismatch).
    pub insts: u64,
    /// Mismatching programs (a program counts once, at its first mismatching state).
    pub mismatches: u64,
    /// Indices of every mismatching program.
    pub mismatch_indices: Vec<u64>,
    /// The first mismatching state of each program of `mismatch_indices`, in its order.
    pub mismatch_states: Vec<u32>,
    pub found: Vec<Found>,
    /// Runs that ended in an error (the same one in both engines, unless mismatched).
    pub errors: u64,
    /// Runs that hit the instruction budget.
    pub inst_limits: u64,
    /// How runs that ended in an error ended (a short description → count).
    pub error_kinds: std::collections::BTreeMap<String, u64>,
    /// Candidates in the generator's pool.
    pub pool: usize,
    pub elapsed: Duration,
    /// Blocks the JIT compiled, and of their instructions how many ran as helper calls.
    pub jit_blocks: u64,
    pub jit_insts: u64,
    pub jit_helper_insts: u64,
    /// A note to print (e.g. an engine that does not exist for the architecture).
    pub note: Option<String>,
}

impl Summary {
    pub fn insts_per_second(&self) -> f64 {
        self.insts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// One worker's engines under test (the interpreter needs no state) and its buffers.
struct Workers {
    b: Recycled,
    v: Box<dyn Vp1Runner + Send>,
    g: GcnWork,
}

/// One worker's buffers for GCN runs, reused from state to state and from program to
/// program: the further initial states are drawn into `extra`, the interpreter runs into
/// `a` and the engine under test into `b`. Allocating and zeroing them for every state
/// (64 KiB of VGPRs and 64 KiB of LDS in each of the three) cost more than the runs.
struct GcnWork {
    scratch: GcnScratch,
    extra: GcnState,
    a: GcnOutcome,
    b: GcnOutcome,
}

impl GcnWork {
    fn new() -> GcnWork {
        GcnWork {
            scratch: GcnScratch::default(),
            extra: GcnState::empty(Gen::Gfx8),
            a: GcnOutcome::empty(),
            b: GcnOutcome::empty(),
        }
    }
}

fn engine_vp1(against: Against) -> Box<dyn Vp1Runner + Send> {
    match against {
        Against::Jit | Against::Tiered => Box::new(Vp1Jit::default()),
        Against::Interp | Against::Threaded | Against::PlantedJit | Against::PlantedDpp => {
            Box::new(Vp1Interp)
        }
    }
}

fn engine_b(against: Against) -> Recycled {
    if against == Against::Jit {
        return Recycled::jit_tiers();
    }
    Recycled::new(match against {
        Against::Jit => Box::new(Jit::eager()),
        Against::Tiered => Box::new(Jit::with_config(JitConfig {
            tier_threshold: TIERED_FUZZ_THRESHOLD,
            ..JitConfig::tiered()
        })),
        Against::Threaded => Box::new(Jit::threaded()),
        Against::Interp => Box::new(Interp),
        Against::PlantedJit => Box::new(Jit::with_config(JitConfig {
            plant_xor_bug: true,
            ..JitConfig::default()
        })),
        Against::PlantedDpp => Box::new(PlantedDpp),
    })
}

/// Per-program result of the parallel part (all its runs).
#[derive(Default)]
struct One {
    runs: u64,
    insts: u64,
    /// How each run that ended in an error ended (`error_key`).
    errors: Vec<String>,
    limits: u64,
    /// The first mismatching state and its differences.
    mismatch: Option<(u32, Diffs)>,
}

/// A short description of how a run failed, for the summary's histogram.
fn error_key(f: &Failure) -> String {
    match f {
        Failure::Panic(m) => format!("panic: {}", m.chars().take(60).collect::<String>()),
        Failure::Mismatch(_) => "engines disagree".into(),
        Failure::Exec(e) => match &e.kind {
            ExecErrorKind::Unsupported { mnemonic } => {
                let words: Vec<&str> = mnemonic
                    .split_whitespace()
                    .filter(|w| {
                        !w.starts_with("0x") && !w.starts_with(|c: char| c.is_ascii_digit())
                    })
                    .collect();
                format!("unsupported {}", words.join(" "))
            }
            ExecErrorKind::OutOfBounds { space, .. } => format!("{space} access out of bounds"),
            ExecErrorKind::PcOutOfCode(_) => "pc out of code".into(),
            ExecErrorKind::InstLimit(_) => "instruction limit".into(),
            ExecErrorKind::Decode(_) => "decode error".into(),
            ExecErrorKind::ExportLimit(_) => "export limit".into(),
            ExecErrorKind::BadOperand(m) => {
                // Drop numbers so that similar messages count together.
                let t: String = m.chars().filter(|c| !c.is_ascii_digit()).take(60).collect();
                format!("bad operand: {t}")
            }
        },
    }
}

fn tally(r: &Result<u64, Failure>, one: &mut One) {
    one.runs += 1;
    match r {
        Ok(n) => one.insts += *n,
        Err(f) => {
            one.errors.push(error_key(f));
            one.limits += matches!(f, Failure::Exec(e) if matches!(e.kind, ExecErrorKind::InstLimit(_)))
                as u64;
        }
    }
}

/// Program `index` of the campaign with the interpreter's outcome, after dropping the
/// instructions the interpreter refuses as unsupported (a field combination the probe did
/// not see, e.g. TFE), and — in three programs of four — an instruction whose operands
/// are invalid or whose access is out of range, so that programs run on instead of
/// ending early. The fourth keeps such errors: both engines must report them alike.
pub fn gcn_case(
    gen: Gen,
    seed: u64,
    index: u64,
    len: usize,
) -> (GcnCase, Option<(wavejit_isa::ir::Program, GcnOutcome)>) {
    gcn_case_from(probe::gcn_pool(gen), seed, index, len)
}

/// The pool a campaign draws from.
fn pool_for(cfg: &Config, gen: Gen) -> &'static Pool {
    if cfg.inline_only {
        probe::gcn_pool_inline(gen)
    } else {
        probe::gcn_pool(gen)
    }
}

/// `gcn_case` drawing from `pool`.
pub fn gcn_case_from(
    pool: &Pool,
    seed: u64,
    index: u64,
    len: usize,
) -> (GcnCase, Option<(wavejit_isa::ir::Program, GcnOutcome)>) {
    let mut out = GcnOutcome::empty();
    let (case, p) = gcn_case_in(pool, seed, index, len, &mut GcnScratch::default(), &mut out);
    (case, p.map(|p| (p, out)))
}

/// `gcn_case_from` with the interpreter's outcome in `out` (its buffers reused).
fn gcn_case_in(
    pool: &Pool,
    seed: u64,
    index: u64,
    len: usize,
    scratch: &mut GcnScratch,
    out: &mut GcnOutcome,
) -> (GcnCase, Option<wavejit_isa::ir::Program>) {
    let gen = pool.gen;
    let mut rng = progen::rng(seed, index);
    let prog = program(pool, &mut rng, &ShapeConfig { len, control: true });
    let state = gcn_state(gen, &mut rng);
    let mut case = GcnCase { prog, state };
    let keep_errors = index & 3 == 0;
    for _ in 0..8 {
        let Ok(p) = gcn_program(&case) else {
            return (case, None);
        };
        run_gcn_into(&Interp, &p, &case.state, MAX_INSTS, scratch, out);
        let drop = match &out.result {
            Err(Failure::Exec(e)) => match e.kind {
                ExecErrorKind::Unsupported { .. } => Some(e.pc),
                ExecErrorKind::BadOperand(_) | ExecErrorKind::OutOfBounds { .. }
                    if !keep_errors =>
                {
                    Some(e.pc)
                }
                _ => None,
            },
            _ => None,
        };
        if let Some(i) = drop.and_then(|pc| case.prog.item_at(pc)) {
            if i + 1 < case.prog.items.len() {
                case.prog.remove(i..i + 1);
                continue;
            }
        }
        return (case, Some(p));
    }
    let p = gcn_program(&case).ok();
    if let Some(p) = &p {
        run_gcn_into(&Interp, p, &case.state, MAX_INSTS, scratch, out);
    }
    (case, p)
}

/// VP1 program `index` of the campaign.
pub fn vp1_case(seed: u64, index: u64, len: usize) -> Vp1Case {
    let ops = probe::vp1_opcodes();
    let mut rng = progen::rng(seed, index);
    let words = pvp1::program(&mut rng, len, ops);
    let state = pvp1::state(&mut rng);
    Vp1Case { words, state }
}

/// The seed of initial state `k` (at least 1) of a campaign's programs: far from the
/// campaign's own seed, so that no program's state is another program's.
fn state_seed(seed: u64, k: u32) -> u64 {
    seed ^ (k as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// Initial state `k` (1 ≤ k < `Config::states`) of GCN program `index`: drawn from its
/// own stream, independent of the program's, with the MODE and EXEC of the program's
/// first state (`first`). Compiled code is specialised on MODE and on whether EXEC is all
/// ones, so states that keep both run the code compiled for the first one; the registers,
/// LDS and memory they start from are new.
pub fn extra_gcn_state(gen: Gen, seed: u64, index: u64, k: u32, first: &GcnState) -> GcnState {
    let mut st = GcnState::empty(gen);
    extra_gcn_state_into(gen, seed, index, k, first, &mut st);
    st
}

/// `extra_gcn_state` into `st`, reusing its allocations.
fn extra_gcn_state_into(
    gen: Gen,
    seed: u64,
    index: u64,
    k: u32,
    first: &GcnState,
    st: &mut GcnState,
) {
    gcn_state_into(gen, &mut progen::rng(state_seed(seed, k), index), st);
    st.wave.mode = first.wave.mode;
    st.wave.exec = first.wave.exec;
}

/// Initial state `k` (1 ≤ k < `Config::states`) of VP1 program `index`, of the variant
/// of the program's first state (`first`): the VP1 JIT compiles a program for a variant,
/// so states of one variant run one compiled program.
pub fn extra_vp1_state(
    seed: u64,
    index: u64,
    k: u32,
    first: &wavejit_isa::vp1::State,
) -> wavejit_isa::vp1::State {
    let mut st = pvp1::state(&mut progen::rng(state_seed(seed, k), index));
    // The variant is a field of the state; the register files do not depend on it.
    st.variant = first.variant;
    st
}

/// The initial states GCN program `index` of a campaign runs from: `Config::states`, and
/// `OPT_STATES` times as many for a program of a `jit` campaign that runs on the
/// optimising tier alone (`engine::opt_tier_program`).
pub fn states_of(cfg: &Config, index: u64) -> u32 {
    let n = cfg.states.max(1);
    if cfg.against == Against::Jit && crate::engine::opt_tier_program(index) {
        n.saturating_mul(crate::engine::OPT_STATES)
    } else {
        n
    }
}

/// GCN program `index` of the campaign from its initial state `k` (0: `gcn_case_from`'s).
fn gcn_case_state(cfg: &Config, gen: Gen, index: u64, k: u32) -> GcnCase {
    let (mut case, _) = gcn_case_from(pool_for(cfg, gen), cfg.seed, index, cfg.len);
    if k > 0 {
        case.state = extra_gcn_state(gen, cfg.seed, index, k, &case.state);
    }
    case
}

/// VP1 program `index` of the campaign from its initial state `k`.
fn vp1_case_state(cfg: &Config, index: u64, k: u32) -> Vp1Case {
    let mut case = vp1_case(cfg.seed, index, cfg.len);
    if k > 0 {
        case.state = extra_vp1_state(cfg.seed, index, k, &case.state);
    }
    case
}

fn one_gcn(cfg: &Config, gen: Gen, index: u64, b: &dyn WaveEngine, w: &mut GcnWork) -> One {
    let mut one = One::default();
    let GcnWork {
        scratch,
        extra,
        a,
        b: bo,
    } = w;
    let (case, p) = gcn_case_in(pool_for(cfg, gen), cfg.seed, index, cfg.len, scratch, a);
    let Some(p) = p else {
        // The generator made a program that does not encode: a bug of ours, reported.
        one.mismatch = Some((0, Diffs::default()));
        return one;
    };
    for k in 0..states_of(cfg, index) {
        let state = if k == 0 {
            &case.state
        } else {
            extra_gcn_state_into(gen, cfg.seed, index, k, &case.state, extra);
            run_gcn_into(&Interp, &p, extra, MAX_INSTS, scratch, a);
            &*extra
        };
        tally(&a.result, &mut one);
        run_gcn_into(b, &p, state, MAX_INSTS, scratch, bo);
        let d = compare::gcn(a, bo);
        if !d.is_empty() {
            one.mismatch = Some((k, d));
            break;
        }
    }
    one
}

fn one_vp1(cfg: &Config, index: u64, b: &mut dyn Vp1Runner) -> One {
    let mut one = One::default();
    let mut case = vp1_case(cfg.seed, index, cfg.len);
    let first = case.state.clone();
    for k in 0..cfg.states.max(1) {
        if k > 0 {
            case.state = extra_vp1_state(cfg.seed, index, k, &first);
        }
        let a = run_vp1(&mut Vp1Interp, &case);
        tally(&a.result, &mut one);
        let bo = run_vp1(b, &case);
        let d = compare::vp1(&a, &bo);
        if !d.is_empty() {
            one.mismatch = Some((k, d));
            break;
        }
    }
    one
}

/// Programs per parallel batch (between progress updates and time checks).
const BATCH: u64 = 64;

/// Run a campaign.
pub fn run(cfg: &Config) -> Result<Summary, wavejit::Error> {
    crate::heap::keep_freed_memory();
    let t0 = Instant::now();
    let jobs = cfg.jobs.max(1);
    let threads = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| wavejit::Error::Usage(format!("cannot start {jobs} threads: {e}")))?;
    let mut sum = Summary::default();
    let gen = match cfg.arch {
        Arch::Gcn(g) => Some(g),
        Arch::Vp1 => None,
    };
    let against = match (cfg.arch, cfg.against) {
        (Arch::Vp1, Against::Tiered) => {
            sum.note =
                Some("vp1: the VP1 JIT compiles whole programs (no tiering): using jit".into());
            Against::Jit
        }
        (Arch::Vp1, Against::Threaded) => {
            sum.note = Some(
                "vp1: pre-decoded code is a GCN tier: comparing the interpreter with itself".into(),
            );
            Against::Interp
        }
        (Arch::Vp1, Against::PlantedJit | Against::PlantedDpp) => {
            sum.note =
                Some("vp1: no planted bug for VP1: comparing the interpreter with itself".into());
            Against::Interp
        }
        (_, a) => a,
    };
    match gen {
        Some(g) => sum.pool = threads.install(|| pool_for(cfg, g).cands().len()),
        None => sum.pool = probe::vp1_opcodes().len(),
    }
    let workers: Vec<Mutex<Workers>> = (0..jobs)
        .map(|_| {
            Mutex::new(Workers {
                b: engine_b(against),
                v: engine_vp1(against),
                g: GcnWork::new(),
            })
        })
        .collect();
    let limit = cfg.programs.unwrap_or(u64::MAX);
    // An absurd or non-finite time runs until the programs run out (the CLI refuses it
    // first; this keeps the library from panicking on it).
    let deadline = cfg.seconds.and_then(|s| {
        Duration::try_from_secs_f64(s.max(0.0))
            .ok()
            .and_then(|d| t0.checked_add(d))
    });
    let bar = progress_bar(cfg, limit);
    let mut stop = false;
    let mut start = 0u64;
    while start < limit && !stop {
        let end = limit.min(start + BATCH * jobs as u64);
        let results: Vec<(u64, One)> = threads.install(|| {
            (start..end)
                .into_par_iter()
                .map(|i| {
                    let k = rayon::current_thread_index().unwrap_or(0) % jobs;
                    let mut w = match workers[k].lock() {
                        Ok(w) => w,
                        Err(p) => p.into_inner(),
                    };
                    let w = &mut *w;
                    let one = match gen {
                        Some(g) => one_gcn(cfg, g, i, w.b.for_program(i), &mut w.g),
                        None => one_vp1(cfg, i, &mut *w.v),
                    };
                    (i, one)
                })
                .collect()
        });
        for (i, one) in results {
            sum.programs += 1;
            sum.runs += one.runs;
            sum.insts += one.insts;
            for k in one.errors {
                sum.errors += 1;
                *sum.error_kinds.entry(k).or_default() += 1;
            }
            sum.inst_limits += one.limits;
            if let Some((k, _)) = one.mismatch {
                sum.mismatches += 1;
                sum.mismatch_indices.push(i);
                sum.mismatch_states.push(k);
                if cfg.stop_at_first {
                    stop = true;
                }
            }
        }
        bar.set_position(end.min(limit));
        bar.set_message(format!("{} mismatches", sum.mismatches));
        start = end;
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    bar.finish_and_clear();
    drop(workers);
    sum.elapsed = t0.elapsed();
    if let Some(g) = gen {
        jit_stats(&mut sum, g, cfg, against);
    }
    let mut found: Vec<(u64, u32)> = sum
        .mismatch_indices
        .iter()
        .copied()
        .zip(sum.mismatch_states.iter().copied())
        .collect();
    found.sort_unstable();
    (sum.mismatch_indices, sum.mismatch_states) = found.iter().copied().unzip();
    for &(i, k) in found.iter().take(cfg.max_repros) {
        sum.found.push(minimise_one(cfg, gen, against, i, k)?);
    }
    Ok(sum)
}

/// JIT statistics of a small sample run (the workers' own caches are flushed as they go).
fn jit_stats(sum: &mut Summary, gen: Gen, cfg: &Config, against: Against) {
    if !matches!(against, Against::Jit | Against::Tiered) {
        return;
    }
    let j = match against {
        Against::Tiered => Jit::with_config(JitConfig {
            tier_threshold: TIERED_FUZZ_THRESHOLD,
            ..JitConfig::tiered()
        }),
        _ => Jit::eager(),
    };
    if let Some(why) = j.inner().broken() {
        sum.note = Some(format!("the JIT back end is not available here: {why}"));
        return;
    }
    for i in 0..sum.programs.min(32) {
        let (case, run) = gcn_case_from(pool_for(cfg, gen), cfg.seed, i, cfg.len);
        if let Some((p, _)) = run {
            let _ = run_gcn(&j, &p, &case.state);
        }
    }
    let s = j.compile_stats();
    sum.jit_blocks = s.blocks;
    sum.jit_insts = s.insts;
    sum.jit_helper_insts = s.helper_insts;
}

fn minimise_one(
    cfg: &Config,
    gen: Option<Gen>,
    against: Against,
    index: u64,
    state: u32,
) -> Result<Found, wavejit::Error> {
    let origin = repro::Origin {
        seed: cfg.seed,
        index,
        state,
        engines: (
            "interp".into(),
            if against == Against::Jit && crate::engine::opt_tier_program(index) {
                "jit (optimising tier only: JitConfig::hot_threshold 0)".into()
            } else {
                against.name().into()
            },
        ),
    };
    let engine = if against == Against::Jit {
        String::new()
    } else {
        format!("-{}", against.name())
    };
    let at = if state > 0 {
        format!("-k{state}")
    } else {
        String::new()
    };
    let name = format!("{}-s{}-p{}{at}{}", cfg.arch, cfg.seed, index, engine);
    let (diffs, min_diffs, min_len, min_text, repro) = match gen {
        Some(g) => {
            let mut b = engine_b(against);
            let case = gcn_case_state(cfg, g, index, state);
            let mut diff = |c: &GcnCase| -> Diffs {
                match gcn_program(c) {
                    Ok(p) => compare::gcn(
                        &run_gcn(&Interp, &p, &c.state),
                        &run_gcn(b.for_program(index), &p, &c.state),
                    ),
                    Err(_) => Diffs::default(),
                }
            };
            let diffs = diff(&case);
            let small = minimise::gcn(&case, &mut |c| !diff(c).is_empty());
            let min_diffs = diff(&small);
            let code = small
                .prog
                .encode()
                .map_err(|e| wavejit::Error::Usage(e.to_string()))?;
            let min_text = repro::gcn_text(g, &code);
            let repro = match &cfg.out {
                Some(dir) => Some(repro::write_gcn(dir, &name, &small, &min_diffs, &origin)?),
                None => None,
            };
            let min_len = small.prog.items.len();
            (diffs, min_diffs, min_len, min_text, repro)
        }
        None => {
            let case = vp1_case_state(cfg, index, state);
            let mut v = engine_vp1(against);
            let mut diff =
                |c: &Vp1Case| compare::vp1(&run_vp1(&mut Vp1Interp, c), &run_vp1(&mut *v, c));
            let diffs = diff(&case);
            let small = minimise::vp1(&case, &mut |c| !diff(c).is_empty());
            let min_diffs = diff(&small);
            let min_text = repro::vp1_text(&small.words);
            let repro = match &cfg.out {
                Some(dir) => Some(repro::write_vp1(dir, &name, &small, &min_diffs, &origin)?),
                None => None,
            };
            (diffs, min_diffs, small.words.len(), min_text, repro)
        }
    };
    Ok(Found {
        index,
        state,
        diffs,
        min_diffs,
        min_len,
        min_text,
        repro,
    })
}

fn progress_bar(cfg: &Config, limit: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !cfg.progress || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = if limit == u64::MAX {
        indicatif::ProgressBar::new_spinner()
    } else {
        indicatif::ProgressBar::new(limit)
    };
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} programs ({per_sec}) {msg}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// What the self-test found.
#[derive(Clone, Debug)]
pub struct SelfTest {
    /// The campaign against the JIT with its planted wrong lowering.
    pub jit: Summary,
    /// The campaign against the interpreter with a planted DPP corner-case bug.
    pub dpp: Summary,
    /// Both bugs were found and shrunk to at most `MAX_SELF_TEST_LEN` instructions.
    pub passed: bool,
}

/// Instructions (with `s_endpgm`) a minimised planted-bug reproducer may have.
pub const MAX_SELF_TEST_LEN: usize = 6;

/// Whether a self-test campaign found its bug and shrank it enough.
pub fn self_test_ok(s: &Summary) -> bool {
    s.found
        .first()
        .is_some_and(|f| !f.min_diffs.is_empty() && f.min_len <= MAX_SELF_TEST_LEN)
}

/// Plant known bugs and show that campaigns find them and shrink them to a handful of
/// instructions: the JIT's test-only wrong lowering of `v_xor_b32` (an OR), met by most
/// programs, and a DPP corner (`engine::PlantedDpp`: `row_shr` with BOUND_CTRL 0 and full
/// masks zeroing lanes it must keep), met by about one program in several thousand.
pub fn self_test(out: Option<&Path>, progress: bool) -> Result<SelfTest, wavejit::Error> {
    let cfg = |against| Config {
        arch: Arch::Gcn(Gen::Gfx8),
        seed: 1,
        programs: Some(50_000),
        seconds: None,
        len: 24,
        jobs: 1,
        against,
        out: out.map(Path::to_path_buf),
        max_repros: 1,
        stop_at_first: true,
        progress,
        inline_only: false,
        states: DEFAULT_STATES,
    };
    let jit = run(&cfg(Against::PlantedJit))?;
    let dpp = run(&cfg(Against::PlantedDpp))?;
    let passed = self_test_ok(&jit) && self_test_ok(&dpp);
    Ok(SelfTest { jit, dpp, passed })
}
