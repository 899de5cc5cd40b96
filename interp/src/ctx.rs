//! What executing one instruction receives and answers, shared by every family module
//! (`salu`, `mem`, `valu`, `vintrp`) and the run loop (`exec`): the state it may touch
//! (`Ctx`), what it asks of the program counter (`Control`), what a step did (`Step`), and
//! the two errors every family names the same way (`unsupported`, `bad_fields`).

use wavejit_isa::gcn;
use wavejit_isa::state::{Lds, Memory, Wave};

use crate::error::ExecErrorKind;

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
    /// The wave executed `s_endpgm` (`wave.pc` still points at it).
    End,
}

/// What a family module asks of the program counter after executing an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Fall through to the next instruction.
    Next,
    /// Continue at this byte offset (a taken branch, `s_setpc_b64`, …).
    Jump(u32),
    /// `s_endpgm`.
    End,
    /// `s_barrier`: fall through, but stop the run loop so the caller can meet the group.
    Barrier,
}

/// Counters of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    pub insts: u64,
}

/// The error for an operation that decodes but has no semantics here: never a no-op.
pub fn unsupported(inst: &gcn::Inst) -> ExecErrorKind {
    ExecErrorKind::Unsupported {
        mnemonic: inst.op.mnemonic().to_string(),
    }
}

/// The error for an instruction whose fields do not match its encoding (a decoder bug or a
/// hand-built `Inst`): reported, never trusted.
pub fn bad_fields(inst: &gcn::Inst) -> ExecErrorKind {
    ExecErrorKind::BadOperand(format!(
        "`{}` carries {:?} fields, which its encoding does not have",
        inst.op.mnemonic(),
        inst.fields
    ))
}
