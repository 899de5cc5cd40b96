//! The run loop: fetch the slot at `pc`, dispatch by encoding family, advance.
//! (Being written: issue 3.)

use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave};

use crate::error::ExecError;

/// Everything an instruction may touch.
pub struct Ctx<'a> {
    pub wave: &'a mut Wave,
    pub lds: &'a mut Lds,
    pub mem: &'a Memory,
}

/// What one instruction did to the control flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `wave.pc` now holds the next pc.
    Continue,
    /// The wave reached `s_barrier` (`wave.pc` is past it).
    Barrier,
    /// The wave executed `s_endpgm`.
    End,
}

/// Counters of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    pub insts: u64,
}

/// Execute the one instruction at `ctx.wave.pc`.
pub fn step(_ctx: &mut Ctx<'_>, _prog: &Program) -> Result<Step, ExecError> {
    todo!("issue 3")
}

/// Run until `s_endpgm` (or a barrier), at most `max_insts` instructions.
pub fn run(_ctx: &mut Ctx<'_>, _prog: &Program, _max_insts: u64) -> Result<(Step, RunStats), ExecError> {
    todo!("issue 3")
}
