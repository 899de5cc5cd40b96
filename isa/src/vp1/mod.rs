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

/// vp1-notes.md 9: words and the envyas text they round-trip with (the assembler's and
/// the printer's tests both run them).
#[cfg(test)]
pub(crate) const NOTES_EXAMPLES: &[(u32, &str)] = &[
    (0x6510_0001, "mov $r2 0x1"),
    (0x651c_0000, "mov $r3 -0x40000"),
    (0x7510_1234, "sethi $r2 0x12340000"),
    (0x4c08_87c0, "add $r1 $c0 $r2 $r3"),
    (0x4c10_8404, "add $r2 $r2 (slct $c0 sf $r2d)"),
    (0x4d21_5091, "sub $r4 $c1 $r5 (slct $c2 b20 $r8q)"),
    (0x6df3_e000, "sub $r30 $c0 $r15 -0x400"),
    (0x6129_9ffc, "mul $r5 $r6 0x3ff"),
    (0x4208_8658, "or $r1 $c0 not $r2 $r3"),
    (0x4208_8628, "bitop 0x5 $r1 $c0 $r2 $r3"),
    (0x6308_bffc, "xor $r1 $r2 -0x1"),
    (0x3908_87fc, "bmax u $r1 $r2 0xff"),
    (0x0121_4c04, "bmul rd s $r4 s $r5 u $r6"),
    (0x3121_7f01, "bmul rn u $r4 u $r5 u 0xfc"),
    (0x2221_4081, "bmula rd s $r4 u $r5 u 0x81"),
    (0x24e8_0803, "vec 0x1 0x2 $vc1 zf 0x7"),
    (0x0442_0808, "bvecmad $r8 $r4q $c1 sf $vc0 sf 0x1"),
    (0x6a18_4010, "mov $v3 0x2 $r1"),
    (0x6b08_c010, "mov $r1 $v3 0x2"),
    (0x6a08_40a8, "mov $m33 $r1"),
    (0x6b09_c0c0, "mov $r1 $x7"),
    (0x4f00_0000, "snop"),
];

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
