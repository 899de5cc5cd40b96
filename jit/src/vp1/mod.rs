//! The VP1 scalar unit through Cranelift: a program (a straight line of scalar words, no
//! branches in this unit) becomes native functions `extern "C" fn(*mut vp1::State) -> u32`
//! of up to `CHUNK` words each (`lower` builds them), run in order. A word of another VP1
//! unit stops the program there with the state of the words before it and an `Unsupported`
//! error at its pc — exactly what `wavejit_interp::vp1::run` does, which the differential
//! test checks bit for bit.
//!
//! Code is compiled per program and variant (the G80 flag bits and `$d`/`$x` files are
//! decided at compile time) into its own `Backend` (JIT module), freed when the `Vp1Code`
//! is dropped.

pub mod lower;

use cranelift_codegen::ir::{InstBuilder, UserFuncName};
use cranelift_frontend::FunctionBuilder;
use wavejit_interp::vp1::{unsupported, RunStats};
use wavejit_interp::{ExecError, ExecErrorKind};
use wavejit_isa::vp1::{Inst, State, Variant};

use crate::backend::{Backend, BackendOpts};
use crate::error::JitError;

/// Why a JIT run stopped early.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Vp1RunError {
    /// The program's own error (same as the interpreter's).
    #[error(transparent)]
    Exec(#[from] ExecError),
    /// The JIT could not compile it.
    #[error(transparent)]
    Jit(#[from] JitError),
}

/// Words per compiled function: a long program becomes several functions run one after
/// another, so compile time stays linear in the program's length.
pub const CHUNK: usize = 256;

type Entry = unsafe extern "C" fn(*mut State) -> u32;

/// A compiled VP1 program.
pub struct Vp1Code {
    // Keeps the machine code alive; dropped (and freed) with the program.
    _backend: Backend,
    /// One function per chunk of scalar words, in order.
    entries: Vec<Entry>,
    /// The words that run (those before the first word of another unit).
    ran: usize,
    /// That word of another unit, if any: (pc, word).
    stop: Option<(u32, u32)>,
    variant: Variant,
}

// SAFETY: the code is immutable once finalised and each entry only touches the `State` it
// is given; `Backend` is `Send` (see backend.rs).
unsafe impl Send for Vp1Code {}

/// Words of `code` (whole little-endian words only).
fn words_of(code: &[u8]) -> Vec<u32> {
    code.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Compile `words` for `variant`, with default back-end options.
pub fn compile(words: &[u32], variant: Variant) -> Result<Vp1Code, JitError> {
    compile_with(words, variant, BackendOpts::default())
}

/// Compile `words` for `variant`.
pub fn compile_with(
    words: &[u32],
    variant: Variant,
    opts: BackendOpts,
) -> Result<Vp1Code, JitError> {
    let mut be = Backend::new(opts)?;
    let ran = words
        .iter()
        .position(|&w| Inst { word: w }.desc().is_none())
        .unwrap_or(words.len());
    let stop = words.get(ran).map(|&w| ((ran as u32).wrapping_mul(4), w));
    let mut entries = Vec::new();
    for (k, chunk) in words[..ran].chunks(CHUNK).enumerate() {
        let sig = be.c_signature(1, true)?;
        let fcfg = be.frontend_config();
        be.ctx.func.signature = sig;
        be.ctx.func.name = UserFuncName::user(7, k as u32);
        {
            let mut b = FunctionBuilder::new(&mut be.ctx.func, &mut be.fctx);
            let blk = b.create_block();
            b.append_block_params_for_function_params(blk);
            b.switch_to_block(blk);
            let st = b.block_params(blk)[0];
            {
                let mut l = lower::Lower::new(&mut b, st, variant);
                for (i, &w) in chunk.iter().enumerate() {
                    let inst = Inst { word: w };
                    if let Some(d) = inst.desc() {
                        // Only the last word that runs leaves its s2v output behind.
                        l.word(inst, d, k * CHUNK + i + 1 == ran);
                    }
                }
                l.flush();
            }
            let r = b
                .ins()
                .iconst(cranelift_codegen::ir::types::I32, u32::MAX as i64);
            b.ins().return_(&[r]);
            b.seal_all_blocks();
            b.finalize(fcfg);
        }
        let ptr = be.compile_current()?;
        // SAFETY: `ptr` is the finalised code of a function with the host C signature
        // `(ptr) -> i32` built just above.
        entries.push(unsafe { std::mem::transmute::<*const u8, Entry>(ptr) });
    }
    Ok(Vp1Code {
        _backend: be,
        entries,
        ran,
        stop,
        variant,
    })
}

impl Vp1Code {
    /// Run on `s` (which must be of the variant the code was compiled for).
    pub fn run(&self, s: &mut State) -> Result<RunStats, ExecError> {
        if s.variant != self.variant {
            return Err(ExecError {
                pc: 0,
                kind: ExecErrorKind::BadOperand(format!(
                    "code compiled for {} run on a {} state",
                    self.variant, s.variant
                )),
            });
        }
        for entry in &self.entries {
            // SAFETY: the entry reads and writes only fields of the `State` behind the
            // pointer, at offsets taken from its `#[repr(C)]` layout, within its size.
            unsafe { entry(s as *mut State) };
        }
        match self.stop {
            None => Ok(RunStats {
                insts: self.ran as u64,
            }),
            Some((pc, w)) => Err(unsupported(Inst { word: w }, pc)),
        }
    }
}

/// Compile and run `code` on `s`: the JIT twin of `wavejit_interp::vp1::run`, with the same
/// results and errors (a trailing partial word is a decode error at its offset, after the
/// whole words ran).
pub fn run(s: &mut State, code: &[u8]) -> Result<RunStats, Vp1RunError> {
    let words = words_of(code);
    let prog = compile(&words, s.variant)?;
    let stats = prog.run(s)?;
    let whole = (words.len() * 4) as u32;
    if (whole as usize) < code.len() {
        let e = wavejit_isa::vp1::decode(code.get(whole as usize..).unwrap_or(&[]), whole)
            .err()
            .map(ExecErrorKind::Decode)
            .unwrap_or(ExecErrorKind::PcOutOfCode(whole));
        return Err(ExecError { pc: whole, kind: e }.into());
    }
    Ok(stats)
}
