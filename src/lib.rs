//! wavejit: run GPU machine code (AMD GCN 1.0-1.2, NVIDIA VP1 scalar unit) on the CPU,
//! in a reference interpreter or through a Cranelift JIT.
//!
//! The facade: which `Engine` runs a program, the crate-wide `Error`, loading a program
//! from a file (`program_from_file`: raw bytes or assembly text) and running one wave to
//! its end (`run_wave`). `statefile` reads and writes the JSON state of `wavejit run`;
//! `draw` rasterises triangles and runs a pixel shader on them.

pub use wavejit_interp as interp;
pub use wavejit_isa as isa;

pub mod device;
pub mod draw;
pub mod emit;
pub mod engine;
pub mod grid;
pub mod load;
pub mod profile;
pub mod statefile;

use std::path::Path;

pub use engine::{Engine, WaveEngine, WaveError, WaveRunner};
use wavejit_interp::exec::RunStats;
use wavejit_interp::ExecError;
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_isa::{Arch, AsmError, DecodeError};

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
    #[error(transparent)]
    Draw(#[from] draw::DrawError),
    /// The `diff` engine found the interpreter and the JIT disagreeing.
    #[error("engines differ: {0}")]
    Mismatch(wavejit_jit::Mismatch),
}

impl From<WaveError> for Error {
    fn from(e: WaveError) -> Error {
        match e {
            WaveError::Exec(e) => Error::Exec(e),
            WaveError::Mismatch(m) => Error::Mismatch(m),
        }
    }
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

/// Run one wave of a GCN program from `wave.pc` until `s_endpgm` on the process-wide
/// `engine` (`engine::shared`), with at most `max_insts` instructions. The wave is a
/// workgroup of its own, so `s_barrier` lets it continue at once. Running past the budget
/// is `InstLimit(max_insts)` at the pc it reached; the `diff` engine's first disagreement
/// is `WaveError::Mismatch`.
pub fn run_wave(
    engine: Engine,
    prog: &Program,
    wave: &mut Wave,
    lds: &mut Lds,
    mem: &Memory,
    max_insts: u64,
) -> Result<RunStats, WaveError> {
    engine::run_to_end(engine::shared(engine), prog, wave, lds, mem, max_insts)
}
