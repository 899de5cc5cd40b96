//! The scalar unit: SOP2, SOPK, SOP1, SOPC and SOPP (AMD SI/CI/GCN3 ISA manuals).
//!
//! Each family is a module with one pure function per non-trivial operation and an `exec`
//! that fetches scalar operands (`operand`), computes, and writes the destination and SCC.
//! Operations the interpreter does not model report `Unsupported` with their mnemonic.

pub mod operand;
pub mod sop1;
pub mod sop2;
pub mod sopc;
pub mod sopk;
pub mod sopp;

use wavejit_isa::gcn::{Enc, Inst};

use crate::ctx::{unsupported, Control, Ctx};
use crate::error::ExecErrorKind;

/// Execute a scalar ALU or program-control instruction at `pc` (`size` bytes long).
pub fn exec(ctx: &mut Ctx<'_>, inst: &Inst, pc: u32, size: u32) -> Result<Control, ExecErrorKind> {
    match inst.enc {
        Enc::Sop2 => sop2::exec(ctx, inst).map(|()| Control::Next),
        Enc::Sopk => sopk::exec(ctx, inst).map(|()| Control::Next),
        Enc::Sop1 => sop1::exec(ctx, inst, pc, size),
        Enc::Sopc => sopc::exec(ctx, inst).map(|()| Control::Next),
        Enc::Sopp => sopp::exec(ctx, inst, pc),
        _ => Err(unsupported(inst)),
    }
}
