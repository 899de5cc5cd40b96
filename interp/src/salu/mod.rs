//! The scalar unit: SOP2, SOPK, SOP1, SOPC and SOPP (AMD SI/CI/GCN3 ISA manuals).
//!
//! Each family is a module with one pure function per operation; the table's `interp`
//! column names, for each scalar row, the typed adapter (`adapt`) that fetches its
//! operands (`operand`), calls it and writes the destination and SCC, and `dispatch` is
//! generated from it. Operations the interpreter does not model carry `unsupported` and
//! report `Unsupported` with their mnemonic.

pub mod adapt;
pub mod dispatch;
pub mod operand;
pub mod sop1;
pub mod sop2;
pub mod sopc;
pub mod sopk;
pub mod sopp;

use wavejit_isa::gcn::Inst;

use crate::ctx::{Control, Ctx};
use crate::error::ExecErrorKind;

/// Execute a scalar ALU or program-control instruction at `pc` (`size` bytes long).
pub fn exec(ctx: &mut Ctx<'_>, inst: &Inst, pc: u32, size: u32) -> Result<Control, ExecErrorKind> {
    dispatch::dispatch(&mut adapt::S {
        ctx,
        inst,
        pc,
        size,
    })
}
