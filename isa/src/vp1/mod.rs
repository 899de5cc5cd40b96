//! NVIDIA VP1 scalar unit (004_1a7ba760ea192bb0.txt, corrected by vp1-notes.md and the VP1
//! section of ERRATA.md): instruction words, decoding, envydis-syntax printing and
//! assembly, and the state both engines run on.
//!
//! - `table` — the opcode table generated from `isa/tables/vp1.tsv` (what each opcode does
//!   and how it is written); the only list of opcodes.
//! - `fields` — the bit fields of a word; `rfile` — the register files mov 0x6a/0x6b reach.
//! - `syntax` — the operand shapes of each form, shared by `fmt` and `asm`.
//! - `fmt` — disassembly: envydis' exact text, and a lossless variant that assembles back.
//! - `asm` — the assembler (envydis/envyas syntax plus `.word`).
//! - `state` — registers, other register files, `$c`, the s2v bus output.
//!
//! Every 32-bit word decodes: scalar opcodes 0x00-0x7f through the table, words of the other
//! VP1 units (opcode 0x80-0xff) as [`Unit::Vector`], [`Unit::Address`] or [`Unit::Branch`]
//! words that can be printed (as `.word`) but not executed (ERRATA VP1 7).

pub mod asm;
pub mod fields;
pub mod fmt;
pub mod lex;
pub mod rfile;
pub mod state;
pub mod syntax;
pub mod table;

pub use state::{S2v, State, Variant, C_ALWAYS_ONE, C_ALWAYS_ZERO};
pub use table::{CMode, Form, Kind, OpDesc, S2vSrc, Sign, Src2};

use crate::error::{DecodeError, DecodeErrorKind};

/// A decoded VP1 instruction word. Fields are read through accessors (`fields.rs`); what the
/// opcode does through [`Inst::desc`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    pub word: u32,
}

/// The VP1 execution unit an opcode belongs to (vp1-notes.md 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// 0x00-0x7f: the scalar unit, the one wavejit executes.
    Scalar,
    /// 0x80-0xbf.
    Vector,
    /// 0xc0-0xdf.
    Address,
    /// 0xe0-0xff.
    Branch,
}

impl Unit {
    pub fn name(self) -> &'static str {
        match self {
            Unit::Scalar => "scalar",
            Unit::Vector => "vector",
            Unit::Address => "address",
            Unit::Branch => "branch",
        }
    }
}

impl Inst {
    pub fn unit(self) -> Unit {
        match self.op() {
            0x00..=0x7f => Unit::Scalar,
            0x80..=0xbf => Unit::Vector,
            0xc0..=0xdf => Unit::Address,
            _ => Unit::Branch,
        }
    }

    /// The table row of a scalar word; `None` for a word of another unit.
    pub fn desc(self) -> Option<&'static OpDesc> {
        table::desc(self.op())
    }
}

/// Decode one VP1 word (little-endian) at byte `offset`. Returns the instruction and its
/// size (4). Only a truncated word fails.
pub fn decode(code: &[u8], offset: u32) -> Result<(Inst, u32), DecodeError> {
    let Some(bytes) = code.get(..4).and_then(|s| <[u8; 4]>::try_from(s).ok()) else {
        return Err(DecodeError {
            offset,
            kind: DecodeErrorKind::Truncated {
                needed: 4,
                available: code.len().min(4) as u32,
            },
        });
    };
    Ok((
        Inst {
            word: u32::from_le_bytes(bytes),
        },
        4,
    ))
}

/// Encode an instruction as its 4 little-endian bytes.
pub fn encode(inst: &Inst) -> [u8; 4] {
    inst.word.to_le_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_words_and_truncation() {
        let (i, n) = decode(&[0xc0, 0x87, 0x08, 0x4c, 0xff], 8).expect("decodes");
        assert_eq!((i.word, n), (0x4c08_87c0, 4));
        assert_eq!(i.unit(), Unit::Scalar);
        assert_eq!(i.desc().map(|d| d.kind), Some(Kind::Add));
        let e = decode(&[1, 2, 3], 12).expect_err("truncated");
        assert_eq!(e.offset, 12);
        assert_eq!(
            e.kind,
            DecodeErrorKind::Truncated {
                needed: 4,
                available: 3
            }
        );
        let (v, _) = decode(&0xbf00_0000u32.to_le_bytes(), 0).expect("decodes");
        assert_eq!((v.unit(), v.desc()), (Unit::Vector, None));
        assert_eq!(encode(&i), [0xc0, 0x87, 0x08, 0x4c]);
    }
}
