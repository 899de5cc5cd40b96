//! GCN decoder: bytes → `Inst`, driven by the table, plus `flow` (how an instruction leaves
//! the straight line).
//!
//! Bit layouts: ../shared/corpus/encodings.md (tags and opcode fields per generation),
//! 000/002 (SDWA, DPP), 001 (VINTRP), 003 (VOP3A/VOP3B), and AMD's SI/CI/VI manuals for the
//! memory encodings; ERRATA.md where they disagree.
//!
//! Unused bits are rejected, never dropped: every bit that has a field in `Fields` is kept,
//! so encoding again is exact; a bit that has no field (a reserved, must-be-zero bit of the
//! encoding) must be 0, and so must a field in which the operation has no operand (the
//! table's `layout` says which fields an operation uses; an ignored field cannot be written
//! in assembly), else `BadField { field: "reserved" }` / `BadField { field: "<name>" }`.
//! Field values that have no meaning (reserved source codes, SDWA selection 7,
//! DST_UNUSED 3, reserved DPP_CTRL values, reserved EXP targets) are `BadField` errors too.
//! MIMG and EXP are kept as their raw words (`Raw`), with the same rules checked on them:
//! reserved bits, an unused SSAMP, EXP sources whose enable bit is clear. Exceptions kept as
//! encoded: fields the specification says are ignored (ERRATA SDWA 4 and 8: VOP1's SDWA
//! SRC1_*, VOPC's DST_SEL/DST_UNUSED), and OMOD/CLAMP on integer operations.

use super::desc::BranchIf;
use super::inst::{Enc, Fields, Inst, Src, VopBase};
use super::operand::{
    is_vop3_interp, native_kind, operand_in, operands, src_kind, vop3_is_b, Kind as OpKind, SrcKind,
};
use super::table::{lookup, Field, Op, Row, TableEnc};
use crate::arch::Gen;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::flow::Flow;
use crate::gcn::inst::{
    BufferFields, DppFields, DsFields, FlatFields, SdwaFields, SmemFields, SmrdFields,
    VintrpFields, Vop3Fields,
};

type Kind = DecodeErrorKind;

/// Little-endian dwords of `bytes` (a trailing partial dword is zero-padded).
pub fn le_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| {
            let mut b = [0u8; 4];
            b[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(b)
        })
        .collect()
}

/// `n` bits of `w` starting at bit `lo` (`n` < 32).
fn bits(w: u32, lo: u32, n: u32) -> u32 {
    (w >> lo) & ((1u32 << n) - 1)
}

fn bit(w: u32, b: u32) -> bool {
    (w >> b) & 1 != 0
}

/// Which encoding the dword `w` starts on `gen` (encodings.md, "Tag and opcode bits": the
/// 9-bit SOP tags before SOPK before SOP2; VOP1/VOPC before VOP2). VOP3A and VOP3B share a
/// tag: `Vop3` stands for both.
pub fn classify(gen: Gen, w: u32) -> Result<TableEnc, Kind> {
    let gfx8 = gen == Gen::Gfx8;
    Ok(match w >> 23 {
        0x17D => TableEnc::Sop1,
        0x17E => TableEnc::Sopc,
        0x17F => TableEnc::Sopp,
        _ if w >> 28 == 0xB => TableEnc::Sopk,
        _ if w >> 30 == 0b10 => TableEnc::Sop2,
        _ if w >> 25 == 0x3F => TableEnc::Vop1,
        _ if w >> 25 == 0x3E => TableEnc::Vopc,
        _ if w >> 31 == 0 => TableEnc::Vop2,
        _ => match (w >> 26, gfx8) {
            (0x30 | 0x31, false) => TableEnc::Smrd,
            (0x30, true) => TableEnc::Smem,
            (0x31, true) => TableEnc::Exp,
            (0x32, false) | (0x35, true) => TableEnc::Vintrp,
            (0x34, _) => TableEnc::Vop3,
            (0x36, _) => TableEnc::Ds,
            (0x37, _) if gen == Gen::Gfx6 => {
                return Err(Kind::NotInGeneration {
                    what: "FLAT encoding".into(),
                    gen,
                })
            }
            (0x37, _) => TableEnc::Flat,
            (0x38, _) => TableEnc::Mubuf,
            (0x3A, _) => TableEnc::Mtbuf,
            (0x3C, _) => TableEnc::Mimg,
            (0x3E, false) => TableEnc::Exp,
            (tag, _) => return Err(bad("encoding", tag)),
        },
    })
}

/// One decode: the code, where it is, and the generation.
struct Dec<'a> {
    gen: Gen,
    code: &'a [u8],
}

impl Dec<'_> {
    /// Dword `i` of the instruction, or `Truncated` (the instruction needs `i + 1` dwords).
    fn word(&self, i: usize) -> Result<u32, Kind> {
        let at = i * 4;
        match self.code.get(at..at + 4) {
            Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            None => Err(Kind::Truncated {
                needed: (at + 4) as u32,
                available: self.code.len().min(u32::MAX as usize) as u32,
            }),
        }
    }

    fn row(&self, enc: TableEnc, name: &'static str, opcode: u32) -> Result<&'static Row, Kind> {
        lookup(self.gen, enc, opcode as u16).ok_or(Kind::UnknownOpcode {
            enc: name,
            op: opcode,
            gen: self.gen,
        })
    }
}

/// A field whose value the encoding does not allow (see the module comment).
fn bad(field: &'static str, value: u32) -> Kind {
    Kind::BadField { field, value }
}

/// Reserved bits must be zero.
fn reserved(value: u32) -> Result<(), Kind> {
    if value != 0 {
        return Err(bad("reserved", value));
    }
    Ok(())
}

/// A source operand of a scalar instruction (8-bit SSRC field): registers, constants,
/// VCCZ/EXECZ/SCC and the literal; not LDS_DIRECT, not the SDWA/DPP markers.
fn check_ssrc(gen: Gen, field: &'static str, s: Src) -> Result<(), Kind> {
    match src_kind(gen, s) {
        SrcKind::Reserved
        | SrcKind::LdsDirect
        | SrcKind::Sdwa
        | SrcKind::Dpp
        | SrcKind::Vgpr(_) => Err(bad(field, s.0 as u32)),
        _ => Ok(()),
    }
}

/// A scalar destination (7-bit SDST field): a register that exists on `gen`.
fn check_sdst(gen: Gen, field: &'static str, r: u8) -> Result<(), Kind> {
    if src_kind(gen, Src(r as u16)).is_scalar_dst() {
        Ok(())
    } else {
        Err(bad(field, r as u32))
    }
}

/// A source operand of a vector instruction (9-bit field).
fn check_vsrc(gen: Gen, field: &'static str, s: Src) -> Result<(), Kind> {
    match src_kind(gen, s) {
        SrcKind::Reserved | SrcKind::Sdwa | SrcKind::Dpp => Err(bad(field, s.0 as u32)),
        _ => Ok(()),
    }
}

/// Whether an instruction with these fields is followed by a 32-bit literal: when its form
/// has the literal as an operand (`s_setreg_imm32_b32`, `v_madmk_*`/`v_madak_*`: a `lit` in
/// the table's layout), when a field that holds a *source* operand is 255 (SSRC0/SSRC1 of
/// SOP1/SOP2/SOPC, SRC0 of VOP1/VOP2/VOPC; not a field the form does not use, nor one that
/// holds an immediate, such as `s_set_gpr_idx_on`'s index mode in SSRC1), and for GCN 1.1's
/// SMRD literal offset (IMM=0, OFFSET=255).
pub fn needs_literal(gen: Gen, op: Op, fields: &Fields) -> bool {
    type Srcs = [Option<(Field, Src)>; 2];
    let two = |a: Src, b: Src| -> Srcs { [Some((Field::Ssrc0, a)), Some((Field::Ssrc1, b))] };
    let src0 = |s: Src| -> Srcs { [Some((Field::Src0, s)), None] };
    let (te, srcs) = match *fields {
        Fields::Sop2 { ssrc0, ssrc1, .. } => (TableEnc::Sop2, two(ssrc0, ssrc1)),
        Fields::Sopc { ssrc0, ssrc1 } => (TableEnc::Sopc, two(ssrc0, ssrc1)),
        Fields::Sop1 { ssrc0, .. } => (TableEnc::Sop1, [Some((Field::Ssrc0, ssrc0)), None]),
        Fields::Sopk { .. } => (TableEnc::Sopk, [None, None]),
        Fields::Vop1 { src0: s, .. } => (TableEnc::Vop1, src0(s)),
        Fields::Vop2 { src0: s, .. } => (TableEnc::Vop2, src0(s)),
        Fields::Vopc { src0: s, .. } => (TableEnc::Vopc, src0(s)),
        Fields::Smrd(f) => {
            return gen == Gen::Gfx7
                && !f.imm
                && f.offset == 255
                && op
                    .row_in(gen, TableEnc::Smrd)
                    .is_some_and(|r| native_kind(r, Field::Offset).is_some())
        }
        _ => return false,
    };
    let Some(row) = op.row_in(gen, te) else {
        return false;
    };
    has_literal_operand(row)
        || srcs
            .iter()
            .flatten()
            .any(|&(f, s)| s.is_literal() && native_kind(row, f).is_some_and(OpKind::is_source))
}

/// Whether the form's literal dword is an operand of its own (`v_madmk_*`/`v_madak_*`,
/// `s_setreg_imm32_b32`): the table's layout names `lit`.
fn has_literal_operand(row: &Row) -> bool {
    row.layout.contains(&Field::Lit)
}

/// Decode the instruction at the start of `code` (which sits at byte `offset` of the
/// program). Returns it and its size in bytes. Strict: a bit set in a field the operation
/// does not use fails (the disassembler's view: such words have no text).
pub fn decode(gen: Gen, code: &[u8], offset: u32) -> Result<(Inst, u32), DecodeError> {
    let d = Dec { gen, code };
    match decode_inner(&d)
        .and_then(|(inst, words)| check_unused(gen, &inst, false).map(|_| (inst, words)))
    {
        Ok((inst, words)) => Ok((inst, words * 4)),
        Err(kind) => Err(DecodeError { offset, kind }),
    }
}

/// A field the hardware ignores for this operation but that holds a nonzero value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IgnoredBits {
    pub field: &'static str,
    pub value: u32,
}

/// Decode as the hardware executes: like [`decode`], but a nonzero value in a field the
/// operation does not use (an operand field missing from its layout, VOP3 ABS/NEG of a
/// missing source, a buffer VADDR without OFFEN/IDXEN/ADDR64, SOPP SIMM16 of an operation
/// without an operand, …) is ignored, as the hardware, LLVM and CLRX do. Those fields are
/// returned so that a caller can say so; every other check stays (unknown opcodes, bad
/// operand values, reserved bits).
pub fn decode_tolerant(
    gen: Gen,
    code: &[u8],
    offset: u32,
) -> Result<(Inst, u32, Vec<IgnoredBits>), DecodeError> {
    let d = Dec { gen, code };
    match decode_inner(&d)
        .and_then(|(inst, words)| check_unused(gen, &inst, true).map(|ig| (inst, words, ig)))
    {
        Ok((inst, words, ig)) => Ok((inst, words * 4, ig)),
        Err(kind) => Err(DecodeError { offset, kind }),
    }
}

/// Fields that the operation's form has no operand in must be zero (a field it ignores
/// cannot be written in assembly, so a nonzero value would not survive a round trip through
/// text): the operand fields missing from the row's layout, VOP3 ABS/NEG bits of missing
/// sources, and SMRD/SMEM's IMM bit when there is no offset. Scalar codes in fields that
/// hold SGPRs in a vector encoding (VOP3 compare destinations, `v_readlane_b32`,
/// `v_readfirstlane_b32`) must name a scalar register.
///
/// With `tolerate`, the unused fields are not errors but the returned list (see
/// [`decode_tolerant`]).
fn check_unused(gen: Gen, inst: &Inst, tolerate: bool) -> Result<Vec<IgnoredBits>, Kind> {
    let Ok((row, _)) = super::opcode::opcode(gen, inst.op, inst.enc) else {
        return Ok(Vec::new());
    };
    let ops = operands(row, inst.enc == Enc::Vop3);
    let has = |f: Field| ops.iter().any(|o| o.field == f);
    let ignored = std::cell::RefCell::new(Vec::new());
    let unused = |name: &'static str, v: u32| -> Result<(), Kind> {
        if tolerate {
            ignored.borrow_mut().push(IgnoredBits {
                field: name,
                value: v,
            });
            return Ok(());
        }
        Err(bad(name, v))
    };
    let zero = |f: Field, name: &'static str, v: u32| -> Result<(), Kind> {
        if v != 0 && !has(f) {
            return unused(name, v);
        }
        Ok(())
    };
    // SMRD names its data field SDST and SMEM SDATA; the table calls both `Sdata`.
    let scalar_mem = |name, sdata: u8, sbase: u8, imm: bool, offset: u32| -> Result<(), Kind> {
        zero(Field::Sdata, name, sdata as u32)?;
        zero(Field::Sbase, "sbase", sbase as u32)?;
        zero(Field::Offset, "offset", offset)?;
        zero(Field::Offset, "imm", imm as u32)
    };
    let sgpr_in = |f: Field, name: &'static str, v: u32| -> Result<(), Kind> {
        match ops.iter().find(|o| o.field == f) {
            Some(o) if matches!(o.kind, OpKind::Sgpr(_)) => {
                if v > 127 {
                    return Err(bad(name, v));
                }
                check_sdst(gen, name, v as u8)
            }
            _ => Ok(()),
        }
    };
    // A scalar operand in a vector source field (`v_readlane_b32`'s lane select,
    // `v_writelane_b32`'s value): an SGPR, M0 or constant, not a VGPR or LDS_DIRECT; in the
    // 8-bit VSRC1 field not the literal either (no literal is read for it).
    let scalar_src = |f: Field, name: &'static str, v: Src| -> Result<(), Kind> {
        match ops.iter().find(|o| o.field == f) {
            Some(o) if matches!(o.kind, OpKind::Sgpr(_)) => {
                if v.is_vgpr() || (f == Field::Vsrc1 && v.is_literal()) {
                    return Err(bad(name, v.0 as u32));
                }
                check_ssrc(gen, name, v)
            }
            _ => Ok(()),
        }
    };
    // The VGPR index mode is 4 bits wherever it sits (SSRC1 of s_set_gpr_idx_on, SIMM16 of
    // s_set_gpr_idx_mode; AMD's GCN3 manual: M0[15:12] = SIMM4); the rest of its field is
    // unused.
    let mode4 = |f: Field, v: u32| -> Result<(), Kind> {
        match operand_in(&ops, f) {
            Some(o) if o.kind == OpKind::GprIdx && v > 15 => Err(bad("gpr_idx", v)),
            _ => Ok(()),
        }
    };
    let checked: Result<(), Kind> = match inst.fields {
        Fields::Sop2 { sdst, ssrc0, ssrc1 } => {
            zero(Field::Sdst, "sdst", sdst as u32)?;
            zero(Field::Ssrc0, "ssrc0", ssrc0.0 as u32)?;
            zero(Field::Ssrc1, "ssrc1", ssrc1.0 as u32)
        }
        Fields::Sopk { sdst, simm16 } => {
            zero(Field::Sdst, "sdst", sdst as u32)?;
            zero(Field::Simm16, "simm16", simm16 as u32)
        }
        Fields::Sop1 { sdst, ssrc0 } => {
            zero(Field::Sdst, "sdst", sdst as u32)?;
            zero(Field::Ssrc0, "ssrc0", ssrc0.0 as u32)
        }
        Fields::Sopc { ssrc0, ssrc1 } => {
            zero(Field::Ssrc0, "ssrc0", ssrc0.0 as u32)?;
            zero(Field::Ssrc1, "ssrc1", ssrc1.0 as u32)?;
            mode4(Field::Ssrc1, ssrc1.0 as u32)
        }
        Fields::Sopp { simm16 } => {
            zero(Field::Simm16, "simm16", simm16 as u32)?;
            mode4(Field::Simm16, simm16 as u32)
        }
        Fields::Smrd(f) => scalar_mem("sdst", f.sdst, f.sbase, f.imm, f.offset as u32),
        Fields::Smem(f) => scalar_mem("sdata", f.sdata, f.sbase, f.imm, f.offset),
        Fields::Vop1 { vdst, src0 } => {
            zero(Field::Vdst, "vdst", vdst as u32)?;
            zero(Field::Src0, "src0", src0.0 as u32)?;
            sgpr_in(Field::Vdst, "vdst", vdst as u32)
        }
        Fields::Vop2 { vdst, src0, vsrc1 } => {
            zero(Field::Vdst, "vdst", vdst as u32)?;
            zero(Field::Src0, "src0", src0.0 as u32)?;
            zero(Field::Vsrc1, "vsrc1", vsrc1 as u32)?;
            scalar_src(Field::Src0, "src0", src0)?;
            scalar_src(Field::Vsrc1, "vsrc1", Src(vsrc1 as u16))?;
            sgpr_in(Field::Vdst, "vdst", vdst as u32)
        }
        Fields::Vopc { src0, vsrc1 } => {
            zero(Field::Src0, "src0", src0.0 as u32)?;
            zero(Field::Vsrc1, "vsrc1", vsrc1 as u32)
        }
        Fields::Sdwa(SdwaFields {
            vdst, src0, vsrc1, ..
        })
        | Fields::Dpp(DppFields {
            vdst, src0, vsrc1, ..
        }) => {
            zero(Field::Vdst, "vdst", vdst as u32)?;
            zero(Field::Src0, "src0", src0 as u32)?;
            zero(Field::Vsrc1, "vsrc1", vsrc1 as u32)
        }
        Fields::Vop3(f) => {
            let Vop3Fields { src, abs, neg, .. } = f;
            zero(Field::Vdst, "vdst", f.vdst as u32)?;
            zero(Field::Sdst, "sdst", f.sdst as u32)?;
            const F: [(Field, &str); 3] = [
                (Field::Src0, "src0"),
                (Field::Src1, "src1"),
                (Field::Src2, "src2"),
            ];
            for (i, (f, name)) in F.iter().enumerate() {
                zero(*f, name, src[i].0 as u32)?;
                zero(*f, "abs", (abs as u32 >> i) & 1)?;
                zero(*f, "neg", (neg as u32 >> i) & 1)?;
                scalar_src(*f, name, src[i])?;
            }
            if is_vop3_interp(row) {
                check_vop3_interp(row, src, abs, neg)?;
            }
            sgpr_in(Field::Vdst, "vdst", f.vdst as u32)
        }
        Fields::Ds(f) => {
            zero(Field::Vdst, "vdst", f.vdst as u32)?;
            zero(Field::Addr, "addr", f.addr as u32)?;
            zero(Field::Data0, "data0", f.data0 as u32)?;
            zero(Field::Data1, "data1", f.data1 as u32)
        }
        Fields::Mubuf(f) | Fields::Mtbuf(f) => {
            zero(Field::Vdata, "vdata", f.vdata as u32)?;
            zero(Field::Vaddr, "vaddr", f.vaddr as u32)?;
            // VADDR is read only for an index, an offset or a 64-bit address; without them
            // the text writes `off` and the field must be 0.
            if !(f.offen || f.idxen || f.addr64) && f.vaddr != 0 {
                unused("vaddr", f.vaddr as u32)?;
            }
            zero(Field::Srsrc, "srsrc", f.srsrc as u32)?;
            zero(Field::Soffset, "soffset", f.soffset.0 as u32)
        }
        Fields::Flat(f) => {
            // Atomics return the old value in VDST when GLC is set.
            if !f.glc {
                zero(Field::Vdst, "vdst", f.vdst as u32)?;
            }
            zero(Field::Addr, "addr", f.addr as u32)?;
            zero(Field::Data, "data", f.data as u32)
        }
        Fields::Vintrp(f) => {
            // V_INTERP_MOV_F32's parameter: 0 = P10, 1 = P20, 2 = P0 (001).
            if inst.op == Op::VInterpMovF32 && f.vsrc > 2 {
                return Err(bad("vsrc", f.vsrc as u32));
            }
            Ok(())
        }
        Fields::Raw { .. } => Ok(()),
    };
    checked?;
    Ok(ignored.into_inner())
}

/// The VINTRP-in-VOP3 forms of GCN 1.2: SRC0 is the attribute (no ABS/NEG), its bit 8
/// (`high`) exists only for the f16 operations, and V_INTERP_MOV's SRC1 is the parameter
/// (0-2, no ABS/NEG).
fn check_vop3_interp(row: &Row, src: [Src; 3], abs: u8, neg: u8) -> Result<(), Kind> {
    if (abs | neg) & 1 != 0 {
        return Err(bad(
            "abs/neg of the attribute",
            ((abs & 1) | (neg & 1) << 1) as u32,
        ));
    }
    let has_high = row.sig.split('+').any(|w| w == "high");
    if !has_high && src[0].0 & 0x100 != 0 {
        return Err(bad("high", 1));
    }
    if row.op == Op::VInterpMovF32 {
        if src[1].0 > 2 {
            return Err(bad("src1", src[1].0 as u32));
        }
        if (abs | neg) & 2 != 0 {
            return Err(bad("abs/neg of the parameter", ((abs | neg) & 2) as u32));
        }
    }
    Ok(())
}

fn decode_inner(d: &Dec) -> Result<(Inst, u32), Kind> {
    let gen = d.gen;
    let w = d.word(0)?;
    let class = classify(gen, w)?;
    let (op, enc, fields, words) = match class {
        TableEnc::Sop2 => {
            let row = d.row(TableEnc::Sop2, "SOP2", bits(w, 23, 7))?;
            let f = Fields::Sop2 {
                sdst: bits(w, 16, 7) as u8,
                ssrc0: Src(bits(w, 0, 8) as u16),
                ssrc1: Src(bits(w, 8, 8) as u16),
            };
            (row.op, Enc::Sop2, f, 1)
        }
        TableEnc::Sopk => {
            let row = d.row(TableEnc::Sopk, "SOPK", bits(w, 23, 5))?;
            let f = Fields::Sopk {
                sdst: bits(w, 16, 7) as u8,
                simm16: bits(w, 0, 16) as u16,
            };
            (row.op, Enc::Sopk, f, 1)
        }
        TableEnc::Sop1 => {
            let row = d.row(TableEnc::Sop1, "SOP1", bits(w, 8, 8))?;
            let f = Fields::Sop1 {
                sdst: bits(w, 16, 7) as u8,
                ssrc0: Src(bits(w, 0, 8) as u16),
            };
            (row.op, Enc::Sop1, f, 1)
        }
        TableEnc::Sopc => {
            let row = d.row(TableEnc::Sopc, "SOPC", bits(w, 16, 7))?;
            let f = Fields::Sopc {
                ssrc0: Src(bits(w, 0, 8) as u16),
                ssrc1: Src(bits(w, 8, 8) as u16),
            };
            (row.op, Enc::Sopc, f, 1)
        }
        TableEnc::Sopp => {
            let row = d.row(TableEnc::Sopp, "SOPP", bits(w, 16, 7))?;
            (
                row.op,
                Enc::Sopp,
                Fields::Sopp {
                    simm16: bits(w, 0, 16) as u16,
                },
                1,
            )
        }
        TableEnc::Smrd => {
            let row = d.row(TableEnc::Smrd, "SMRD", bits(w, 22, 5))?;
            let imm = bit(w, 8);
            let offset = bits(w, 0, 8) as u8;
            if gen == Gen::Gfx6 && !imm && offset == 255 {
                return Err(Kind::NotInGeneration {
                    what: "SMRD literal offset".into(),
                    gen,
                });
            }
            let f = Fields::Smrd(SmrdFields {
                sdst: bits(w, 15, 7) as u8,
                sbase: (bits(w, 9, 6) * 2) as u8,
                imm,
                offset,
            });
            (row.op, Enc::Smrd, f, 1)
        }
        TableEnc::Smem => {
            let row = d.row(TableEnc::Smem, "SMEM", bits(w, 18, 8))?;
            reserved(bits(w, 13, 3))?;
            let w1 = d.word(1)?;
            reserved(w1 >> 20)?;
            let f = Fields::Smem(SmemFields {
                sdata: bits(w, 6, 7) as u8,
                sbase: (bits(w, 0, 6) * 2) as u8,
                imm: bit(w, 17),
                glc: bit(w, 16),
                offset: bits(w1, 0, 20),
            });
            (row.op, Enc::Smem, f, 2)
        }
        TableEnc::Vop1 | TableEnc::Vop2 | TableEnc::Vopc => return decode_vop(d, class, w),
        TableEnc::Vop3 | TableEnc::Vop3b => return decode_vop3(d, w),
        TableEnc::Vintrp => {
            let row = d.row(TableEnc::Vintrp, "VINTRP", bits(w, 16, 2))?;
            let f = Fields::Vintrp(VintrpFields {
                vdst: bits(w, 18, 8) as u8,
                vsrc: bits(w, 0, 8) as u8,
                attr: bits(w, 10, 6) as u8,
                chan: bits(w, 8, 2) as u8,
            });
            (row.op, Enc::Vintrp, f, 1)
        }
        TableEnc::Ds => {
            let (opc, gds) = if gen == Gen::Gfx8 {
                reserved(bits(w, 25, 1))?;
                (bits(w, 17, 8), bit(w, 16))
            } else {
                reserved(bits(w, 16, 1))?;
                (bits(w, 18, 8), bit(w, 17))
            };
            let row = d.row(TableEnc::Ds, "DS", opc)?;
            let w1 = d.word(1)?;
            let f = Fields::Ds(DsFields {
                vdst: bits(w1, 24, 8) as u8,
                addr: bits(w1, 0, 8) as u8,
                data0: bits(w1, 8, 8) as u8,
                data1: bits(w1, 16, 8) as u8,
                offset0: bits(w, 0, 8) as u8,
                offset1: bits(w, 8, 8) as u8,
                gds,
            });
            (row.op, Enc::Ds, f, 2)
        }
        TableEnc::Mubuf => {
            let row = d.row(TableEnc::Mubuf, "MUBUF", bits(w, 18, 7))?;
            reserved(bits(w, 25, 1))?;
            let w1 = d.word(1)?;
            reserved(bits(w1, 21, 1))?;
            let (addr64, slc) = if gen == Gen::Gfx8 {
                reserved(bits(w, 15, 1))?;
                reserved(bits(w1, 22, 1))?;
                (false, bit(w, 17))
            } else {
                reserved(bits(w, 17, 1))?;
                (bit(w, 15), bit(w1, 22))
            };
            let f = Fields::Mubuf(BufferFields {
                slc,
                lds: bit(w, 16),
                addr64,
                ..buffer_fields(gen, w, w1)?
            });
            (row.op, Enc::Mubuf, f, 2)
        }
        TableEnc::Mtbuf => {
            let (opc, addr64) = if gen == Gen::Gfx8 {
                (bits(w, 15, 4), false)
            } else {
                (bits(w, 16, 3), bit(w, 15))
            };
            let row = d.row(TableEnc::Mtbuf, "MTBUF", opc)?;
            let w1 = d.word(1)?;
            reserved(bits(w1, 21, 1))?;
            let f = Fields::Mtbuf(BufferFields {
                slc: bit(w1, 22),
                addr64,
                format: Some((bits(w, 19, 4) as u8, bits(w, 23, 3) as u8)),
                ..buffer_fields(gen, w, w1)?
            });
            (row.op, Enc::Mtbuf, f, 2)
        }
        TableEnc::Flat => {
            let row = d.row(TableEnc::Flat, "FLAT", bits(w, 18, 7))?;
            reserved(bits(w, 0, 16))?;
            reserved(bits(w, 25, 1))?;
            let w1 = d.word(1)?;
            reserved(bits(w1, 16, 7))?;
            let f = Fields::Flat(FlatFields {
                vdst: bits(w1, 24, 8) as u8,
                addr: bits(w1, 0, 8) as u8,
                data: bits(w1, 8, 8) as u8,
                glc: bit(w, 16),
                slc: bit(w, 17),
                tfe: bit(w1, 23),
            });
            (row.op, Enc::Flat, f, 2)
        }
        TableEnc::Mimg => {
            let row = d.row(TableEnc::Mimg, "MIMG", bits(w, 18, 7))?;
            let w1 = d.word(1)?;
            check_mimg(gen, row, w, w1)?;
            (row.op, Enc::Mimg, Fields::Raw { words: [w, w1] }, 2)
        }
        TableEnc::Exp => {
            let row = d.row(TableEnc::Exp, "EXP", 0)?;
            let w1 = d.word(1)?;
            check_exp(w, w1)?;
            (row.op, Enc::Exp, Fields::Raw { words: [w, w1] }, 2)
        }
    };
    check_scalar_fields(gen, op, &fields)?;
    finish(d, op, enc, fields, words)
}

/// MIMG (AMD's SI/CI/VI manuals): DMASK 11:8, UNORM 12, GLC 13, DA 14, R128 15, TFE 16,
/// LWE 17, OP 24:18, SLC 25; VADDR 39:32, VDATA 47:40, SRSRC 52:48, SSAMP 57:53, D16 63 on
/// GCN 1.2. Bits 7:0 and 62:58 (63 before GCN 1.2) are reserved, and SSAMP is unused by the
/// operations that take no sampler (loads, stores, atomics, `image_get_resinfo`).
fn check_mimg(gen: Gen, row: &Row, w0: u32, w1: u32) -> Result<(), Kind> {
    reserved(bits(w0, 0, 8))?;
    if gen == Gen::Gfx8 {
        reserved(bits(w1, 26, 5))?;
    } else {
        reserved(bits(w1, 26, 6))?;
    }
    let ssamp = bits(w1, 21, 5);
    if ssamp != 0 && !row.layout.contains(&Field::Ssamp) {
        return Err(bad("ssamp", ssamp));
    }
    Ok(())
}

/// EXP (AMD's SI/CI/VI manuals): EN 3:0, TGT 9:4, COMPR 10, DONE 11, VM 12, bits 25:13
/// reserved; VSRC0-3 in the second dword. A source is read only when its EN bit is set;
/// compressed exports read VSRC0 (EN bits 0-1) and VSRC1 (EN bits 2-3) and never VSRC2/3.
/// Targets 10, 11 and 16-31 do not exist (0-7 MRT, 8 MRTZ, 9 NULL, 12-15 POS, 32-63 PARAM).
fn check_exp(w0: u32, w1: u32) -> Result<(), Kind> {
    reserved(bits(w0, 13, 13))?;
    let tgt = bits(w0, 4, 6);
    if matches!(tgt, 10 | 11 | 16..=31) {
        return Err(bad("tgt", tgt));
    }
    let en = bits(w0, 0, 4);
    let compr = bit(w0, 10);
    const NAMES: [&str; 4] = ["vsrc0", "vsrc1", "vsrc2", "vsrc3"];
    for (i, name) in NAMES.iter().enumerate() {
        let i = i as u32;
        let used = if compr {
            i < 2 && en >> (2 * i) & 3 != 0
        } else {
            en >> i & 1 != 0
        };
        let v = bits(w1, 8 * i, 8);
        if !used && v != 0 {
            return Err(bad(name, v));
        }
    }
    Ok(())
}

/// Source and destination codes of scalar encodings must name something on `gen`. An SSRC
/// field that holds an immediate (`s_set_gpr_idx_on`'s index mode) is checked by
/// `check_unused` instead.
fn check_scalar_fields(gen: Gen, op: Op, f: &Fields) -> Result<(), Kind> {
    let ssrc = |te: TableEnc, field: Field, name: &'static str, s: Src| {
        let imm = op
            .row_in(gen, te)
            .and_then(|r| native_kind(r, field))
            .is_some_and(|k| !k.is_source());
        if imm {
            Ok(())
        } else {
            check_ssrc(gen, name, s)
        }
    };
    match *f {
        Fields::Sop2 { sdst, ssrc0, ssrc1 } => {
            check_sdst(gen, "sdst", sdst)?;
            ssrc(TableEnc::Sop2, Field::Ssrc0, "ssrc0", ssrc0)?;
            ssrc(TableEnc::Sop2, Field::Ssrc1, "ssrc1", ssrc1)
        }
        Fields::Sopk { sdst, .. } => check_sdst(gen, "sdst", sdst),
        Fields::Sop1 { sdst, ssrc0 } => {
            check_sdst(gen, "sdst", sdst)?;
            ssrc(TableEnc::Sop1, Field::Ssrc0, "ssrc0", ssrc0)
        }
        Fields::Sopc { ssrc0, ssrc1 } => {
            ssrc(TableEnc::Sopc, Field::Ssrc0, "ssrc0", ssrc0)?;
            ssrc(TableEnc::Sopc, Field::Ssrc1, "ssrc1", ssrc1)
        }
        Fields::Smrd(f) => {
            check_sdst(gen, "sdst", f.sdst)?;
            if !f.imm && f.offset != 255 {
                check_sdst(gen, "offset", f.offset)?;
            }
            Ok(())
        }
        Fields::Smem(f) => {
            check_sdst(gen, "sdata", f.sdata)?;
            if !f.imm {
                // The SGPR offset is the low 8 bits; the rest of the field must be 0.
                if f.offset > 0xff {
                    return Err(bad("offset", f.offset));
                }
                check_sdst(gen, "offset", f.offset as u8)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Read the literal when the fields call for one and build the `Inst`.
fn finish(d: &Dec, op: Op, enc: Enc, fields: Fields, words: u32) -> Result<(Inst, u32), Kind> {
    if needs_literal(d.gen, op, &fields) {
        let lit = d.word(words as usize)?;
        Ok((
            Inst {
                op,
                enc,
                fields,
                literal: Some(lit),
            },
            words + 1,
        ))
    } else {
        Ok((
            Inst {
                op,
                enc,
                fields,
                literal: None,
            },
            words,
        ))
    }
}

/// VOP1, VOP2 and VOPC, with their SDWA and DPP extensions on GCN 1.2.
fn decode_vop(d: &Dec, class: TableEnc, w: u32) -> Result<(Inst, u32), Kind> {
    let gen = d.gen;
    let src0 = Src(bits(w, 0, 9) as u16);
    let (row, base, vdst, vsrc1) = match class {
        TableEnc::Vop1 => {
            let row = d.row(TableEnc::Vop1, "VOP1", bits(w, 9, 8))?;
            (row, VopBase::Vop1, bits(w, 17, 8) as u8, 0)
        }
        TableEnc::Vop2 => {
            let row = d.row(TableEnc::Vop2, "VOP2", bits(w, 25, 6))?;
            (
                row,
                VopBase::Vop2,
                bits(w, 17, 8) as u8,
                bits(w, 9, 8) as u8,
            )
        }
        _ => {
            let row = d.row(TableEnc::Vopc, "VOPC", bits(w, 17, 8))?;
            (row, VopBase::Vopc, 0, bits(w, 9, 8) as u8)
        }
    };
    let op = row.op;
    if src0 == Src::SDWA || src0 == Src::DPP {
        let what = if src0 == Src::SDWA {
            "VOP_SDWA"
        } else {
            "VOP_DPP"
        };
        if gen != Gen::Gfx8 {
            return Err(Kind::NotInGeneration {
                what: what.into(),
                gen,
            });
        }
        // The table's `forms` column says which VOP1/VOP2/VOPC rows have these forms.
        if !(if src0 == Src::SDWA { row.sdwa } else { row.dpp }) {
            return Err(Kind::NotInGeneration {
                what: format!("{what} form of {}", op.mnemonic()),
                gen,
            });
        }
        let e = d.word(1)?;
        let (enc, fields) = if src0 == Src::SDWA {
            sdwa_fields(base, vdst, vsrc1, e)?
        } else {
            dpp_fields(base, vdst, vsrc1, e)?
        };
        return Ok((
            Inst {
                op,
                enc,
                fields,
                literal: None,
            },
            2,
        ));
    }
    // madmk/madak carry their constant K in the literal; SRC0 = 255 reads that same dword
    // (there is only one), so SRC0 = K, which LLVM writes with the constant twice.
    check_vsrc(gen, "src0", src0)?;
    let (enc, fields) = match base {
        VopBase::Vop1 => (Enc::Vop1, Fields::Vop1 { vdst, src0 }),
        VopBase::Vop2 => (Enc::Vop2, Fields::Vop2 { vdst, src0, vsrc1 }),
        VopBase::Vopc => (Enc::Vopc, Fields::Vopc { src0, vsrc1 }),
    };
    finish(d, op, enc, fields, 1)
}

/// Check an SDWA selection field (0-6).
fn sel(field: &'static str, v: u32) -> Result<u8, Kind> {
    if v > 6 {
        return Err(bad(field, v));
    }
    Ok(v as u8)
}

/// The fields MUBUF and MTBUF keep in the same bits; SLC, LDS, ADDR64 and the formats,
/// which they do not, are left clear for the caller.
fn buffer_fields(gen: Gen, w: u32, w1: u32) -> Result<BufferFields, Kind> {
    let soffset = Src(bits(w1, 24, 8) as u16);
    check_ssrc(gen, "soffset", soffset)?;
    Ok(BufferFields {
        vdata: bits(w1, 8, 8) as u8,
        vaddr: bits(w1, 0, 8) as u8,
        srsrc: (bits(w1, 16, 5) * 4) as u8,
        soffset,
        offset: bits(w, 0, 12) as u16,
        offen: bit(w, 12),
        idxen: bit(w, 13),
        glc: bit(w, 14),
        slc: false,
        tfe: bit(w1, 23),
        lds: false,
        addr64: false,
        format: None,
    })
}

fn sdwa_fields(base: VopBase, vdst: u8, vsrc1: u8, e: u32) -> Result<(Enc, Fields), Kind> {
    reserved(bits(e, 14, 2))?;
    reserved(bits(e, 22, 2))?;
    reserved(bits(e, 30, 2))?;
    // ERRATA SDWA 4 and 8: fields an encoding does not have (VOP1's SRC1_*, VOPC's DST_*)
    // are kept as encoded and not checked.
    let (dst_sel, dst_unused) = if base == VopBase::Vopc {
        (bits(e, 8, 3) as u8, bits(e, 11, 2) as u8)
    } else {
        let u = bits(e, 11, 2);
        if u == 3 {
            return Err(bad("dst_unused", u));
        }
        (sel("dst_sel", bits(e, 8, 3))?, u as u8)
    };
    let src1_sel = if base == VopBase::Vop1 {
        bits(e, 24, 3) as u8
    } else {
        sel("src1_sel", bits(e, 24, 3))?
    };
    let f = Fields::Sdwa(SdwaFields {
        vdst,
        src0: bits(e, 0, 8) as u8,
        vsrc1,
        dst_sel,
        dst_unused,
        clamp: bit(e, 13),
        src0_sel: sel("src0_sel", bits(e, 16, 3))?,
        src0_sext: bit(e, 19),
        src0_neg: bit(e, 20),
        src0_abs: bit(e, 21),
        src1_sel,
        src1_sext: bit(e, 27),
        src1_neg: bit(e, 28),
        src1_abs: bit(e, 29),
    });
    Ok((Enc::Sdwa { base }, f))
}

/// Whether a DPP_CTRL value is defined (002_969c374e212b41fa.txt; ERRATA VOP_DPP 6).
pub fn dpp_ctrl_valid(c: u16) -> bool {
    matches!(c, 0x000..=0x0ff | 0x101..=0x10f | 0x111..=0x11f | 0x121..=0x12f | 0x130 | 0x134 | 0x138 | 0x13c | 0x140..=0x143)
}

fn dpp_fields(base: VopBase, vdst: u8, vsrc1: u8, e: u32) -> Result<(Enc, Fields), Kind> {
    reserved(bits(e, 17, 2))?;
    let dpp_ctrl = bits(e, 8, 9) as u16;
    if !dpp_ctrl_valid(dpp_ctrl) {
        return Err(bad("dpp_ctrl", dpp_ctrl as u32));
    }
    // VOP1 has no SRC1, so its NEG/ABS bits (22, 23) are unused. (ERRATA SDWA 4 keeps the
    // SRC1 bits of VOP1 *SDWA* as encoded; nothing says so of DPP, so the general rule holds.)
    if base == VopBase::Vop1 {
        reserved(bits(e, 22, 2))?;
    }
    let f = Fields::Dpp(DppFields {
        vdst,
        src0: bits(e, 0, 8) as u8,
        vsrc1,
        dpp_ctrl,
        bound_ctrl: bit(e, 19),
        src0_neg: bit(e, 20),
        src0_abs: bit(e, 21),
        src1_neg: bit(e, 22),
        src1_abs: bit(e, 23),
        bank_mask: bits(e, 24, 4) as u8,
        row_mask: bits(e, 28, 4) as u8,
    });
    Ok((Enc::Dpp { base }, f))
}

/// VOP3A / VOP3B (003_5ccf112c12817a33.txt): 9-bit opcode at 25:17 and CLAMP at bit 11 on
/// GCN 1.0/1.1; 10-bit opcode at 25:16 and CLAMP at bit 15 on GCN 1.2. VOP3B keeps SDST in
/// 14:8 and CLAMP at bit 15 on every generation.
fn decode_vop3(d: &Dec, w: u32) -> Result<(Inst, u32), Kind> {
    let gen = d.gen;
    let gfx8 = gen == Gen::Gfx8;
    let opc = if gfx8 {
        bits(w, 16, 10)
    } else {
        bits(w, 17, 9)
    };
    let row = d.row(TableEnc::Vop3, "VOP3", opc)?;
    let is_b = vop3_is_b(row);
    let (sdst, abs, clamp) = if is_b {
        if !gfx8 {
            reserved(bits(w, 16, 1))?;
        }
        (bits(w, 8, 7) as u8, 0, bit(w, 15))
    } else if gfx8 {
        reserved(bits(w, 11, 4))?;
        (0, bits(w, 8, 3) as u8, bit(w, 15))
    } else {
        reserved(bits(w, 12, 5))?;
        (0, bits(w, 8, 3) as u8, bit(w, 11))
    };
    let w1 = d.word(1)?;
    let src = [
        Src(bits(w1, 0, 9) as u16),
        Src(bits(w1, 9, 9) as u16),
        Src(bits(w1, 18, 9) as u16),
    ];
    // VINTRP in VOP3 (GCN 1.2): SRC0 is the attribute, and V_INTERP_MOV's SRC1 the parameter.
    let raw_slots = if is_vop3_interp(row) {
        if row.op == Op::VInterpMovF32 {
            2
        } else {
            1
        }
    } else {
        0
    };
    const NAMES: [&str; 3] = ["src0", "src1", "src2"];
    for (i, s) in src.iter().enumerate().skip(raw_slots) {
        if s.is_literal() {
            return Err(Kind::LiteralInVop3);
        }
        if i > 0 && *s == Src::LDS_DIRECT {
            // 003: "only SRC0 can hold LDS_DIRECT".
            return Err(bad(NAMES[i], s.0 as u32));
        }
        check_vsrc(gen, NAMES[i], *s)?;
    }
    if is_b {
        check_sdst(gen, "sdst", sdst)?;
    }
    let fields = Fields::Vop3(Vop3Fields {
        vdst: bits(w, 0, 8) as u8,
        sdst,
        src,
        abs,
        neg: bits(w1, 29, 3) as u8,
        clamp,
        omod: bits(w1, 27, 2) as u8,
    });
    Ok((
        Inst {
            op: row.op,
            enc: Enc::Vop3,
            fields,
            literal: None,
        },
        2,
    ))
}

/// How `inst` (at `pc`, `size` bytes) leaves the straight line.
///
/// SOPP branches (the table's `branch(COND)` cells, `Op::branch`) jump to
/// `pc + 4 + sext(simm16) * 4` (computed with wrap-around, so a target before the code
/// start lands far past its end); `s_endpgm` ends the program,
/// `s_barrier` ends the block, and the instructions that jump to a computed address
/// (`s_setpc_b64`, `s_swappc_b64`, the fork/join family, `s_rfe_*`, `s_trap`) are indirect.
pub fn flow(inst: &Inst, pc: u32, _size: u32) -> Flow {
    let simm = match inst.fields {
        Fields::Sopp { simm16 } => simm16 as i16 as i32,
        _ => 0,
    };
    let target = pc
        .wrapping_add(4)
        .wrapping_add((simm as u32).wrapping_mul(4));
    if let Some(b) = inst.op.branch() {
        return Flow::Branch {
            target,
            conditional: b != BranchIf::Always,
        };
    }
    match inst.op {
        Op::SEndpgm | Op::SEndpgmSaved => Flow::End,
        Op::SBarrier => Flow::Barrier,
        Op::SSetpcB64
        | Op::SSwappcB64
        | Op::SCbranchGFork
        | Op::SCbranchIFork
        | Op::SCbranchJoin
        | Op::SRfeB64
        | Op::SRfeRestoreB64
        | Op::STrap => Flow::Indirect,
        _ => Flow::Next,
    }
}
