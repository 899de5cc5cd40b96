//! The engine the interpreter's tests run their instructions (GCN and VP1) on: here, the
//! interpreter itself, called directly.
//!
//! One test list, two engines. The harnesses (`valu_common::Machine`,
//! `exec_util::Machine`) and the program-level tests (`exec_run`) never call the
//! interpreter themselves: they call `crate::engine::{exec_one, run, step}`, so the engine
//! is whatever module the test binary's crate root names `engine`. Every test file of this
//! directory declares `mod engine;` (this file). The JIT's test binary
//! `jit/tests/interp_suite.rs` includes the same test files as modules (with `#[path]`) and
//! has its own crate-root `engine` (`jit/tests/interp_engine/mod.rs`): it runs each
//! instruction through compiled code, checks the whole final state against the
//! interpreter bit for bit, and leaves the JIT's state for the test's own assertions. (In
//! that binary the included files' `mod engine;` still compiles this module, unused.)
#![allow(dead_code)]

use wavejit_interp::exec::{Ctx, Step};
use wavejit_interp::vp1::RunStats as Vp1Stats;
use wavejit_interp::{ExecError, ExecErrorKind, RunStats};
use wavejit_isa::gcn::Inst;
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_isa::vp1::State;

/// The interpreter's own code for a hand-built instruction, as the harness calls it.
pub type Reference<'r> = &'r dyn Fn(&mut Ctx<'_>, &Inst) -> Result<Step, ExecErrorKind>;

/// Run the hand-built `inst` at `wave.pc`. `reference` is the interpreter's code for it;
/// `advances_pc` says whether `reference` moves `wave.pc` past the instruction (the vector
/// harness calls the vector unit, which leaves the pc alone); `as_program` whether
/// `reference` is what executing `inst` in a program runs (not so when a test hands the
/// vector unit a scalar instruction to see it refused).
pub fn exec_one(
    wave: &mut Wave,
    lds: &mut Lds,
    mem: &Memory,
    inst: &Inst,
    advances_pc: bool,
    as_program: bool,
    reference: Reference<'_>,
) -> Result<Step, ExecErrorKind> {
    let _ = (advances_pc, as_program);
    reference(&mut Ctx { wave, lds, mem }, inst)
}

/// `wavejit_interp::run`.
pub fn run(
    ctx: &mut Ctx<'_>,
    prog: &Program,
    max_insts: u64,
) -> Result<(Step, RunStats), ExecError> {
    wavejit_interp::run(ctx, prog, max_insts)
}

/// `wavejit_interp::step`: one instruction.
pub fn step(ctx: &mut Ctx<'_>, prog: &Program) -> Result<Step, ExecError> {
    wavejit_interp::step(ctx, prog)
}

/// `wavejit_interp::vp1::run`: a VP1 program from its bytes.
pub fn vp1_run(s: &mut State, code: &[u8]) -> Result<Vp1Stats, ExecError> {
    wavejit_interp::vp1::run(s, code)
}

/// `wavejit_interp::vp1::run_words`: VP1 words, undecoded.
pub fn vp1_run_words(s: &mut State, words: &[u32]) -> Result<Vp1Stats, ExecError> {
    wavejit_interp::vp1::run_words(s, words)
}
