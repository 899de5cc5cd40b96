//! Typed, positioned errors of the ISA layer: decoding bytes and assembling text.
//! Every malformed input ends here, never in a panic.

use crate::arch::Gen;

/// Why a word sequence is not an instruction. Queryable (yaxpeax-style) via the kind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeErrorKind {
    #[error("truncated instruction: needs {needed} bytes, {available} available")]
    Truncated { needed: u32, available: u32 },
    #[error("unknown {enc} opcode {op} on {gen}")]
    UnknownOpcode {
        enc: &'static str,
        op: u32,
        gen: Gen,
    },
    #[error("{what} does not exist on {gen}")]
    NotInGeneration { what: String, gen: Gen },
    #[error("bad field {field} = {value:#x}")]
    BadField { field: &'static str, value: u32 },
    #[error("literal constant (source 255) in VOP3")]
    LiteralInVop3,
    #[error("unsupported encoding: {0}")]
    UnsupportedEncoding(&'static str),
    #[error("code is not a whole number of dwords")]
    Misaligned,
}

/// A decode failure at a byte offset of the code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("offset 0x{offset:x}: {kind}")]
pub struct DecodeError {
    pub offset: u32,
    pub kind: DecodeErrorKind,
}

/// An assembler failure at a 1-based line and column of the source text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {col}: {msg}")]
pub struct AsmError {
    pub line: u32,
    pub col: u32,
    pub msg: String,
}
