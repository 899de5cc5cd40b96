//! wavejit: run GPU machine code (AMD GCN 1.0-1.2, NVIDIA VP1 scalar unit) on the CPU,
//! in a reference interpreter or through a Cranelift JIT.
//!
//! The facade: which `Engine` runs a program, the crate-wide `Error`, loading a program
//! from a file (`program_from_file`: raw bytes or assembly text) and running one wave to
//! its end (`run_wave`). `statefile` reads and writes the JSON state of `wavejit run`.

pub use wavejit_interp as interp;
pub use wavejit_isa as isa;

pub mod bench;
pub mod device;
pub mod fuzz;
pub mod grid;
pub mod load;
pub mod profile;
pub mod statefile;
pub mod vp1cli;

use std::path::Path;
use std::str::FromStr;

use wavejit_interp::exec::{Ctx, RunStats, Step};
use wavejit_interp::{ExecError, ExecErrorKind};
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_isa::{Arch, AsmError, DecodeError};

/// Which engine executes a program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The reference interpreter (`wavejit-interp`).
    Interp,
    /// The Cranelift JIT (`wavejit-jit`): every block compiled on first use.
    #[default]
    Jit,
    /// Interpret a block until it has run `wavejit_jit::DEFAULT_TIER_THRESHOLD` times,
    /// then compile it.
    Tiered,
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

/// Everything that can go wrong between a file and a finished run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Exec(#[from] ExecError),
    #[error(transparent)]
    Decode(#[from] DecodeError),
    #[error("assembly: {0}")]
    Asm(#[from] AsmError),
    #[error(transparent)]
    State(#[from] statefile::StateError),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// A request this build cannot serve (an engine or architecture without a runner).
    #[error("{0}")]
    Unsupported(String),
    /// A bad command-line or API argument.
    #[error("{0}")]
    Usage(String),
    /// The `diff` engine found the interpreter and the JIT disagreeing.
    #[error("engines differ: {0}")]
    Mismatch(wavejit_jit::Mismatch),
}

/// Largest program file `program_from_file` reads.
pub const MAX_PROGRAM_BYTES: u64 = 64 << 20;

/// Read a file of at most `limit` bytes (checked before reading).
pub fn read_file_limited(path: &Path, limit: u64) -> Result<Vec<u8>, Error> {
    let io = |source| Error::Io {
        path: path.display().to_string(),
        source,
    };
    let len = std::fs::metadata(path).map_err(io)?.len();
    if len > limit {
        return Err(Error::Usage(format!(
            "{}: {len} bytes is more than the {limit} allowed",
            path.display()
        )));
    }
    std::fs::read(path).map_err(io)
}

/// Assemble program text for `arch` into code bytes.
pub fn assemble(arch: Arch, text: &str) -> Result<Vec<u8>, Error> {
    match arch {
        Arch::Vp1 => Ok(wavejit_isa::vp1::asm::assemble_bytes(text)?),
        Arch::Gcn(g) => Ok(wavejit_isa::gcn::asm::assemble(g, text)?.bytes),
    }
}

/// Load a program: `.s` files are assembly text, anything else raw little-endian code.
pub fn program_from_file(arch: Arch, path: &Path) -> Result<Program, Error> {
    let bytes = read_file_limited(path, MAX_PROGRAM_BYTES)?;
    let code = if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("s"))
    {
        let text = String::from_utf8(bytes).map_err(|e| {
            Error::Usage(format!(
                "{}: not UTF-8 text (byte {})",
                path.display(),
                e.utf8_error().valid_up_to()
            ))
        })?;
        assemble(arch, &text)?
    } else {
        bytes
    };
    Ok(Program::new(arch, &code))
}

/// Run one wave of a GCN program from `wave.pc` until `s_endpgm`, with at most
/// `max_insts` instructions. The wave is a workgroup of its own, so `s_barrier` lets it
/// continue at once. Running past the budget is `InstLimit(max_insts)` at the pc it
/// reached.
pub fn run_wave(
    engine: Engine,
    prog: &Program,
    wave: &mut Wave,
    lds: &mut Lds,
    mem: &Memory,
    max_insts: u64,
) -> Result<RunStats, ExecError> {
    match engine {
        Engine::Interp => {
            let mut total = RunStats::default();
            let mut ctx = Ctx { wave, lds, mem };
            loop {
                let left = max_insts - total.insts;
                let (stop, stats) =
                    wavejit_interp::run(&mut ctx, prog, left).map_err(|e| match e.kind {
                        ExecErrorKind::InstLimit(_) => ExecError {
                            pc: e.pc,
                            kind: ExecErrorKind::InstLimit(max_insts),
                        },
                        _ => e,
                    })?;
                total.insts += stats.insts;
                if stop == Step::End {
                    return Ok(total);
                }
            }
        }
        Engine::Jit | Engine::Tiered => {
            let jit = shared_jit(engine == Engine::Tiered);
            let mut total = RunStats::default();
            let mut ctx = Ctx { wave, lds, mem };
            loop {
                let left = max_insts - total.insts;
                let (stop, stats) = jit.run(&mut ctx, prog, left).map_err(|e| match e.kind {
                    ExecErrorKind::InstLimit(_) => ExecError {
                        pc: e.pc,
                        kind: ExecErrorKind::InstLimit(max_insts),
                    },
                    _ => e,
                })?;
                total.insts += stats.insts;
                if stop == Step::End {
                    return Ok(total);
                }
            }
        }
        Engine::Diff => diff_wave(prog, wave, lds, mem, max_insts).map_err(|e| match e {
            Error::Exec(e) => e,
            other => ExecError {
                pc: wave_pc_of(&other),
                kind: ExecErrorKind::BadOperand(other.to_string()),
            },
        }),
    }
}

fn wave_pc_of(e: &Error) -> u32 {
    match e {
        Error::Mismatch(m) => m.pc,
        _ => 0,
    }
}

/// The process-wide JIT engines (`jit`, `tiered`): their code caches outlive one run, so
/// a program run again is not compiled again. When a cache reaches its size bound, the
/// rest runs in the interpreter.
fn shared_jit(tiered: bool) -> &'static wavejit_jit::Jit {
    use std::sync::OnceLock;
    static JIT: OnceLock<wavejit_jit::Jit> = OnceLock::new();
    static TIERED: OnceLock<wavejit_jit::Jit> = OnceLock::new();
    if tiered {
        TIERED.get_or_init(|| {
            wavejit_jit::Jit::new(wavejit_jit::JitConfig {
                tier_threshold: wavejit_jit::DEFAULT_TIER_THRESHOLD,
                ..wavejit_jit::JitConfig::default()
            })
        })
    } else {
        JIT.get_or_init(|| wavejit_jit::Jit::new(wavejit_jit::JitConfig::default()))
    }
}

/// Run one wave in the interpreter and the JIT side by side (the `diff` engine): the wave
/// ends in the interpreter's state; the first difference between the engines is
/// `Error::Mismatch`, naming the instruction and the register, lane or memory word.
pub fn diff_wave(
    prog: &Program,
    wave: &mut Wave,
    lds: &mut Lds,
    mem: &Memory,
    max_insts: u64,
) -> Result<RunStats, Error> {
    let mut total = RunStats::default();
    let mut ctx = Ctx { wave, lds, mem };
    loop {
        let left = max_insts - total.insts;
        let d = wavejit_jit::diff_run(&mut ctx, prog, left).map_err(|e| match e.kind {
            ExecErrorKind::InstLimit(_) => ExecError {
                pc: e.pc,
                kind: ExecErrorKind::InstLimit(max_insts),
            },
            _ => e,
        })?;
        if let Some(m) = d.mismatch {
            return Err(Error::Mismatch(m));
        }
        total.insts += d.stats.insts;
        if d.stop != Some(Step::Barrier) {
            return Ok(total);
        }
    }
}
