//! `wavejit run`: run a program on one wavefront from a JSON state file and print (or
//! write) the final state in the same schema (`wavejit::statefile`).
//!
//! `wavejit run --arch ARCH [--engine jit|tiered|threaded|interp|diff] FILE(.s|.bin) [--state IN.json] [--out OUT.json]
//! [--max-insts N] [--no-cache]`
//!
//! The run ends at `s_endpgm`. An error of the run (a fault, an unsupported instruction,
//! running past the end of the code or past `--max-insts`) is reported with its pc and the
//! instruction there, and exits with status 2; the state is not written then.
//!
//! `--arch vp1` runs the VP1 scalar unit through `wavejit::statefile::vp1::run_vp1`, which has its
//! own state schema.

use std::path::PathBuf;
use std::process::ExitCode;

use wavejit::isa::ir::Inst;
use wavejit::isa::Arch;
use wavejit::statefile::StateFile;
use wavejit::{program_from_file, read_file_limited, Engine, Error};

use super::CmdResult;

/// Largest state file read (the parser streams, so this bounds reading, not a JSON tree).
const MAX_STATE_BYTES: u64 = 1 << 30;

#[derive(clap::Args)]
pub struct Args {
    /// gfx6|gfx7|gfx8 (or any alias: tahiti, gcn1.2, fiji, …) or vp1.
    #[arg(long)]
    arch: String,
    /// Execution engine: jit (compile every block), tiered (compile hot blocks), threaded
    /// (pre-decoded code, nothing compiled), interp (reference interpreter) or diff (interpreter and JIT side by side; the first
    /// difference is reported with the instruction that produced it).
    #[arg(long, default_value = "jit")]
    engine: String,
    /// Program: assembly text (.s) or raw code bytes (anything else).
    file: PathBuf,
    /// Initial state (JSON); default: EXEC all ones, MODE 0xC0, everything else 0.
    #[arg(long)]
    state: Option<PathBuf>,
    /// Where to write the final state (default: standard output).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Instruction budget.
    #[arg(long, default_value_t = 100_000_000)]
    max_insts: u64,
    /// Profile the run and write the counters (per instruction and in total) as JSON
    /// here; `wavejit profile-report` reads it. GCN only.
    #[arg(long, value_name = "FILE.json")]
    profile: Option<PathBuf>,
    #[command(flatten)]
    cache: super::flags::Cache,
    /// Also show the final state's words as u32, i32, hex, f32 or f16x2 on standard
    /// output (the JSON stays exact: it goes to `--out`, or is not printed).
    #[arg(long, value_parser = clap::value_parser!(super::view::Format))]
    format: Option<super::view::Format>,
}

pub fn run(a: Args) -> CmdResult {
    let arch: Arch = a.arch.parse()?;
    let engine: Engine = a.engine.parse()?;
    let prog = program_from_file(arch, &a.file)?;
    let state_text = match &a.state {
        Some(p) => {
            let bytes = read_file_limited(p, MAX_STATE_BYTES)?;
            Some(String::from_utf8(bytes).map_err(|e| {
                Error::Usage(format!(
                    "{}: not UTF-8 text (byte {})",
                    p.display(),
                    e.utf8_error().valid_up_to()
                ))
            })?)
        }
        None => None,
    };
    let gen = match arch {
        Arch::Gcn(g) => g,
        // The VP1 scalar unit has its own state schema and runner (`wavejit::statefile::vp1`).
        Arch::Vp1 => {
            let r = wavejit::statefile::vp1::run_vp1(&prog.code, state_text.as_deref(), engine)?;
            write_out(&a.out, &r.json)?;
            eprintln!("wavejit: {} VP1 words executed", r.insts);
            return Ok(ExitCode::SUCCESS);
        }
    };
    let sf = match &state_text {
        Some(text) => StateFile::parse(text).map_err(|e| {
            let p = a
                .state
                .as_deref()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            Error::Usage(format!("{p}: {e}"))
        })?,
        None => StateFile::default(),
    };
    let start = sf.build(gen)?;
    let mut end = sf.build(gen)?;
    let stats = if let Some(path) = &a.profile {
        profile_run(engine, gen, &prog, &mut end, a.max_insts, path, &a.file)
    } else {
        let exec = wavejit::engine::for_engine_cached(engine, a.cache.disk());
        let r = wavejit::engine::run_to_end(
            exec.as_ref(),
            &prog,
            &mut end.wave,
            &mut end.lds,
            &end.mem,
            a.max_insts,
        );
        exec.save_code_cache();
        r.map_err(Error::from)
    }
    .map_err(|e| {
        let e = match e {
            Error::Exec(e) => e,
            // A disagreement of the engines names its instruction already.
            other => return other.to_string(),
        };
        // Name the instruction at the failing pc when there is one.
        let text = prog
            .slot_index(e.pc)
            .and_then(|i| prog.slots.get(i))
            .and_then(|s| s.inst.as_ref().ok())
            .map(|i| match i {
                Inst::Gcn(g) => wavejit::isa::gcn::fmt::format(
                    gen,
                    g,
                    e.pc,
                    wavejit::isa::gcn::fmt::Syntax::Llvm,
                ),
                Inst::Vp1(_) => String::new(),
            });
        match text {
            Some(t) if !t.is_empty() => format!("{e} [{t}]"),
            _ => e.to_string(),
        }
    })?;
    let json = sf.dump(&start, &end);
    match a.format {
        None => write_out(&a.out, &json)?,
        Some(f) => {
            if a.out.is_some() {
                write_out(&a.out, &json)?;
            }
            print!("{}", super::view::state(f, &json)?);
        }
    }
    eprintln!(
        "wavejit: {} instructions, ended at s_endpgm (pc 0x{:x})",
        stats.insts, end.wave.pc
    );
    Ok(ExitCode::SUCCESS)
}

/// `--profile`: run the wave counting profile events and write the profile.
fn profile_run(
    engine: Engine,
    gen: wavejit::isa::Gen,
    prog: &wavejit::isa::ir::Program,
    end: &mut wavejit::statefile::Machine,
    max_insts: u64,
    path: &std::path::Path,
    file: &std::path::Path,
) -> Result<wavejit::interp::RunStats, Error> {
    use wavejit::profile::{profile_wave, KernelProfile, ProfileFile, Run};
    let (insts, counts, barriers) = profile_wave(
        engine,
        prog,
        &mut end.wave,
        &mut end.lds,
        &end.mem,
        max_insts,
    )
    .map_err(Error::from)?;
    let name = file.file_stem().map_or_else(
        || "program".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    let k = KernelProfile::build(Run {
        kernel: &name,
        gen,
        engine: engine.name(),
        prog,
        counts: &counts,
        waves: 1,
        barriers,
        barrier_waves: barriers,
        static_facts: None,
    });
    let f = ProfileFile::from_launches([&k]);
    std::fs::write(path, f.to_json()).map_err(|source| Error::Io {
        path: path.display().to_string(),
        source,
    })?;
    Ok(wavejit::interp::RunStats { insts })
}

/// Write the final state to `--out`, or print it.
fn write_out(out: &Option<PathBuf>, text: &str) -> Result<(), Error> {
    match out {
        Some(p) => std::fs::write(p, text).map_err(|source| Error::Io {
            path: p.display().to_string(),
            source,
        }),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}
