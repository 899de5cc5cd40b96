//! Typed, positioned execution errors: every way a kernel can go wrong ends here.

use wavejit_isa::state::{MemFault, Space};
use wavejit_isa::DecodeError;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExecErrorKind {
    /// The instruction decodes but is not implemented: never a silent no-op.
    #[error("unsupported instruction `{mnemonic}`")]
    Unsupported { mnemonic: String },
    #[error("{space} access of {size} bytes at 0x{addr:x} is out of bounds{}", lane.map(|l| format!(" (lane {l})")).unwrap_or_default())]
    OutOfBounds {
        space: Space,
        addr: u64,
        size: u32,
        lane: Option<u8>,
    },
    #[error("pc 0x{0:x} is not the start of an instruction in the code")]
    PcOutOfCode(u32),
    #[error("instruction limit of {0} reached")]
    InstLimit(u64),
    #[error("cannot decode: {0}")]
    Decode(DecodeError),
    #[error("bad operand: {0}")]
    BadOperand(String),
    /// The wave exported more than this many times (EXP).
    #[error("more than {0} exports in one run")]
    ExportLimit(usize),
}

impl ExecErrorKind {
    /// A memory fault seen by `lane` (if a vector access).
    pub fn fault(f: MemFault, lane: Option<u8>) -> ExecErrorKind {
        ExecErrorKind::OutOfBounds {
            space: f.space,
            addr: f.addr,
            size: f.size,
            lane,
        }
    }
}

/// An execution error at the byte offset `pc` of the instruction that raised it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("pc 0x{pc:x}: {kind}")]
pub struct ExecError {
    pub pc: u32,
    pub kind: ExecErrorKind,
}
