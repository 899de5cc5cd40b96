//! GCN decoder: bytes → `Inst`, driven by the table. (Being written: see issue 2.)

use super::inst::Inst;
use crate::arch::Gen;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::ir::Flow;

/// Decode the instruction at the start of `code` (which sits at byte `offset` of the
/// program). Returns it and its size in bytes.
pub fn decode(_gen: Gen, _code: &[u8], offset: u32) -> Result<(Inst, u32), DecodeError> {
    Err(DecodeError { offset, kind: DecodeErrorKind::UnsupportedEncoding("decoder not written yet") })
}

/// How `inst` (at `pc`, `size` bytes) leaves the straight line.
pub fn flow(_inst: &Inst, _pc: u32, _size: u32) -> Flow {
    Flow::Next
}
