//! `wavejit fuzz`: differential fuzzing of the interpreter against the JIT (`wavejit_fuzzing`).
//!
//! Exit status: 0 when no mismatch was found (or the self-test found its planted bug),
//! 1 when a mismatch was found (reproducers are written to `--out`), 2 on a usage error.

use std::path::PathBuf;
use std::process::ExitCode;

use wavejit::isa::Arch;
use wavejit_fuzzing::{self as fuzz, Against, Config, Summary};

use super::CmdResult;

#[derive(clap::Args)]
pub struct Args {
    /// Architecture: gfx6|gfx7|gfx8 (or any alias: tahiti, fiji, gcn1.2, …) or vp1.
    #[arg(long, required_unless_present = "self_test")]
    arch: Option<Arch>,
    /// Campaign seed: program i of seed s is the same on every machine and thread count.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of programs to run.
    #[arg(long, conflicts_with = "seconds")]
    programs: Option<u64>,
    /// Run for this many seconds instead of a number of programs (at most 1e6).
    #[arg(long, value_parser = super::seconds)]
    seconds: Option<f64>,
    /// Instructions per program (roughly; loops and EXEC regions are counted whole).
    #[arg(long, default_value_t = 24, value_parser = super::fuzz_len)]
    len: usize,
    /// Worker threads (1 to 1024; no more are started than there are programs).
    #[arg(long, default_value_t = 1, value_parser = super::threads)]
    jobs: usize,
    /// The engine compared with the interpreter: jit, tiered, threaded (pre-decoded code),
    /// or interp (a harness check).
    #[arg(long, default_value = "jit")]
    engine: Against,
    /// Directory for reproducers of mismatches.
    #[arg(long, default_value = "fuzz-repro")]
    out: PathBuf,
    /// Mismatches to minimise and write as reproducers (the rest are counted).
    #[arg(long, default_value_t = 3)]
    max_repros: usize,
    /// Initial states each program runs from (1 to 1024; default 8 on GCN, 16 on VP1):
    /// the program is compiled once and run from each (a GCN program on the JIT's
    /// optimising tier alone, one in 32, from four times as many).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    states: Option<u32>,
    /// Draw only instructions the JIT lowers inline (aim at the JIT's own code rather than
    /// its interpreter helper).
    #[arg(long)]
    inline_only: bool,
    /// Plant a known wrong lowering and show that the fuzzer finds and shrinks it.
    #[arg(long)]
    self_test: bool,
}

fn print_summary(arch: &str, seed: u64, s: &Summary) {
    println!(
        "wavejit fuzz: {arch}, seed {seed}: {} programs ({} runs), {} instructions, {} mismatches, {:.1} s, {:.0} instructions/s",
        s.programs,
        s.runs,
        s.insts,
        s.mismatches,
        s.elapsed.as_secs_f64(),
        s.insts_per_second()
    );
    println!(
        "  generator pool: {} candidates; runs ending in an error: {} (instruction limit: {})",
        s.pool, s.errors, s.inst_limits
    );
    let mut kinds: Vec<(&String, &u64)> = s.error_kinds.iter().collect();
    kinds.sort_by(|a, b| b.1.cmp(a.1));
    for (k, n) in kinds.iter().take(12) {
        println!("    {n:>7} × {k}");
    }
    if s.jit_blocks > 0 {
        println!(
            "  jit (sample of the first programs): {} blocks compiled, {} instructions, {} through helpers",
            s.jit_blocks, s.jit_insts, s.jit_helper_insts
        );
    }
    if let Some(n) = &s.note {
        println!("  note: {n}");
    }
    for f in &s.found {
        println!(
            "mismatch in program {} (state {}): {} (and {} more differences)",
            f.index,
            f.state,
            f.diffs.first(),
            f.diffs.total.saturating_sub(1)
        );
        println!(
            "  minimised to {} instructions: {}",
            f.min_len,
            f.min_diffs.first()
        );
        for l in f.min_text.lines() {
            println!("    {l}");
        }
        if let Some(p) = &f.repro {
            println!("  reproducer: {}", p.display());
        }
    }
    if s.mismatches > s.found.len() as u64 {
        let more: Vec<String> = s
            .mismatch_indices
            .iter()
            .skip(s.found.len())
            .take(20)
            .map(|i| i.to_string())
            .collect();
        println!(
            "  other mismatching programs: {}{}",
            more.join(", "),
            if s.mismatch_indices.len() > s.found.len() + 20 {
                ", …"
            } else {
                ""
            }
        );
    }
}

pub fn run(a: Args) -> CmdResult {
    if a.self_test {
        let t = fuzz::self_test(Some(&a.out), true)?;
        for (what, sum) in [
            ("planted JIT lowering: v_xor_b32 as OR", &t.jit),
            ("planted DPP bug", &t.dpp),
        ] {
            println!("== {what}");
            print_summary("gfx8", 1, sum);
            println!(
                "   {}",
                if fuzz::self_test_ok(sum) {
                    "found and minimised"
                } else if sum.found.is_empty() {
                    "NOT FOUND"
                } else {
                    "found but NOT minimised to a handful of instructions"
                }
            );
        }
        return Ok(if t.passed {
            println!("self-test passed: both planted bugs were found and minimised");
            ExitCode::SUCCESS
        } else {
            println!("self-test FAILED");
            ExitCode::from(1)
        });
    }
    let Some(arch) = a.arch else {
        return Err("--arch is required".into());
    };
    let mut cfg = Config::new(arch);
    cfg.seed = a.seed;
    cfg.programs = match (a.programs, a.seconds) {
        (Some(n), _) => Some(n),
        (None, Some(_)) => None,
        (None, None) => Some(1000),
    };
    cfg.seconds = a.seconds;
    cfg.len = a.len.max(1);
    // No more workers than programs to share out (each worker builds its own engines).
    cfg.jobs = a
        .jobs
        .clamp(1, cfg.programs.unwrap_or(u64::MAX).clamp(1, 1024) as usize);
    cfg.against = a.engine;
    cfg.out = Some(a.out);
    cfg.max_repros = a.max_repros;
    cfg.progress = true;
    cfg.inline_only = a.inline_only;
    if let Some(n) = a.states {
        cfg.states = n;
    }
    let s = fuzz::run(&cfg)?;
    print_summary(&arch.to_string(), a.seed, &s);
    Ok(if s.mismatches == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
