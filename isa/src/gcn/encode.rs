//! GCN encoder: `Inst` → dwords, the exact inverse of `decode`, driven by the table.
//!
//! Every encoding is checked by decoding it again: what `encode` returns always decodes to
//! the instruction it was given, or `encode` fails with the reason (a field out of range,
//! an opcode the generation lacks, a value the decoder rejects).

use super::decode::{decode, needs_literal};
use super::inst::{Enc, Fields, Inst, Src, VopBase};
use super::operand::vop3_is_b;
use crate::arch::Gen;

pub use super::opcode::{opcode, EncodeError};

type R<T> = Result<T, EncodeError>;

/// `value` checked to fit in `n` bits.
fn fit(field: &'static str, value: u32, n: u32) -> R<u32> {
    if n < 32 && value >> n != 0 {
        return Err(EncodeError::OutOfRange { field, value });
    }
    Ok(value)
}

/// A register number that the encoding stores divided by `unit` (2 or 4: SGPR pairs, quads).
fn scaled(field: &'static str, reg: u8, unit: u8, n: u32) -> R<u32> {
    if reg & (unit - 1) != 0 {
        return Err(EncodeError::OutOfRange {
            field,
            value: reg as u32,
        });
    }
    fit(field, (reg / unit) as u32, n)
}

fn src(field: &'static str, s: Src, n: u32) -> R<u32> {
    fit(field, s.0 as u32, n)
}

fn b(v: bool) -> u32 {
    v as u32
}

/// Encode `inst` for `gen` as dwords, low first, literal included.
pub fn encode(gen: Gen, inst: &Inst) -> Result<Vec<u32>, EncodeError> {
    let mnemonic = inst.op.mnemonic();
    let (row, opc) = opcode(gen, inst.op, inst.enc)?;
    let opc = opc as u32;
    let gfx8 = gen == Gen::Gfx8;
    let mismatch = || EncodeError::FieldsMismatch {
        enc: inst.enc.name(),
        fields: inst.fields.name(),
    };
    let mut words = match (inst.enc, inst.fields) {
        (Enc::Sop2, Fields::Sop2 { sdst, ssrc0, ssrc1 }) => vec![
            0b10 << 30
                | opc << 23
                | fit("sdst", sdst as u32, 7)? << 16
                | src("ssrc1", ssrc1, 8)? << 8
                | src("ssrc0", ssrc0, 8)?,
        ],
        (Enc::Sopk, Fields::Sopk { sdst, simm16 }) => {
            vec![0xB << 28 | opc << 23 | fit("sdst", sdst as u32, 7)? << 16 | simm16 as u32]
        }
        (Enc::Sop1, Fields::Sop1 { sdst, ssrc0 }) => {
            vec![
                0x17D << 23
                    | fit("sdst", sdst as u32, 7)? << 16
                    | opc << 8
                    | src("ssrc0", ssrc0, 8)?,
            ]
        }
        (Enc::Sopc, Fields::Sopc { ssrc0, ssrc1 }) => {
            vec![0x17E << 23 | opc << 16 | src("ssrc1", ssrc1, 8)? << 8 | src("ssrc0", ssrc0, 8)?]
        }
        (Enc::Sopp, Fields::Sopp { simm16 }) => vec![0x17F << 23 | opc << 16 | simm16 as u32],
        (Enc::Smrd, Fields::Smrd(f)) => vec![
            0x18 << 27
                | opc << 22
                | fit("sdst", f.sdst as u32, 7)? << 15
                | scaled("sbase", f.sbase, 2, 6)? << 9
                | b(f.imm) << 8
                | f.offset as u32,
        ],
        (Enc::Smem, Fields::Smem(f)) => vec![
            0x30 << 26
                | opc << 18
                | b(f.imm) << 17
                | b(f.glc) << 16
                | fit("sdata", f.sdata as u32, 7)? << 6
                | scaled("sbase", f.sbase, 2, 6)?,
            fit("offset", f.offset, 20)?,
        ],
        (Enc::Vop1, Fields::Vop1 { vdst, src0 }) => {
            vec![0x3F << 25 | (vdst as u32) << 17 | opc << 9 | src("src0", src0, 9)?]
        }
        (Enc::Vop2, Fields::Vop2 { vdst, src0, vsrc1 }) => {
            vec![opc << 25 | (vdst as u32) << 17 | (vsrc1 as u32) << 9 | src("src0", src0, 9)?]
        }
        (Enc::Vopc, Fields::Vopc { src0, vsrc1 }) => {
            vec![0x3E << 25 | opc << 17 | (vsrc1 as u32) << 9 | src("src0", src0, 9)?]
        }
        (Enc::Sdwa { base }, Fields::Sdwa(f)) => {
            let e = f.src0 as u32
                | fit("dst_sel", f.dst_sel as u32, 3)? << 8
                | fit("dst_unused", f.dst_unused as u32, 2)? << 11
                | b(f.clamp) << 13
                | fit("src0_sel", f.src0_sel as u32, 3)? << 16
                | b(f.src0_sext) << 19
                | b(f.src0_neg) << 20
                | b(f.src0_abs) << 21
                | fit("src1_sel", f.src1_sel as u32, 3)? << 24
                | b(f.src1_sext) << 27
                | b(f.src1_neg) << 28
                | b(f.src1_abs) << 29;
            vec![vop_word(base, opc, f.vdst, f.vsrc1, Src::SDWA)?, e]
        }
        (Enc::Dpp { base }, Fields::Dpp(f)) => {
            let e = f.src0 as u32
                | fit("dpp_ctrl", f.dpp_ctrl as u32, 9)? << 8
                | b(f.bound_ctrl) << 19
                | b(f.src0_neg) << 20
                | b(f.src0_abs) << 21
                | b(f.src1_neg) << 22
                | b(f.src1_abs) << 23
                | fit("bank_mask", f.bank_mask as u32, 4)? << 24
                | fit("row_mask", f.row_mask as u32, 4)? << 28;
            vec![vop_word(base, opc, f.vdst, f.vsrc1, Src::DPP)?, e]
        }
        (Enc::Vop3, Fields::Vop3(f)) => {
            let mut w = 0x34 << 26 | opc << if gfx8 { 16 } else { 17 } | f.vdst as u32;
            if vop3_is_b(row) {
                if f.abs != 0 {
                    return Err(EncodeError::OutOfRange {
                        field: "abs",
                        value: f.abs as u32,
                    });
                }
                w |= fit("sdst", f.sdst as u32, 7)? << 8 | b(f.clamp) << 15;
            } else {
                if f.sdst != 0 {
                    return Err(EncodeError::OutOfRange {
                        field: "sdst",
                        value: f.sdst as u32,
                    });
                }
                w |= fit("abs", f.abs as u32, 3)? << 8 | b(f.clamp) << if gfx8 { 15 } else { 11 };
            }
            let w1 = src("src0", f.src[0], 9)?
                | src("src1", f.src[1], 9)? << 9
                | src("src2", f.src[2], 9)? << 18
                | fit("omod", f.omod as u32, 2)? << 27
                | fit("neg", f.neg as u32, 3)? << 29;
            vec![w, w1]
        }
        (Enc::Vintrp, Fields::Vintrp(f)) => {
            let tag: u32 = if gfx8 { 0x35 } else { 0x32 };
            vec![
                tag << 26
                    | (f.vdst as u32) << 18
                    | opc << 16
                    | fit("attr", f.attr as u32, 6)? << 10
                    | fit("chan", f.chan as u32, 2)? << 8
                    | f.vsrc as u32,
            ]
        }
        (Enc::Ds, Fields::Ds(f)) => {
            let (op_at, gds_at) = if gfx8 { (17, 16) } else { (18, 17) };
            vec![
                0x36 << 26 | opc << op_at | b(f.gds) << gds_at | f.offset() as u32,
                f.addr as u32
                    | (f.data0 as u32) << 8
                    | (f.data1 as u32) << 16
                    | (f.vdst as u32) << 24,
            ]
        }
        (Enc::Mubuf, Fields::Mubuf(f)) | (Enc::Mtbuf, Fields::Mtbuf(f)) => {
            // The two layouts differ only in where the opcode, SLC and the MTBUF formats go.
            if gfx8 && f.addr64 {
                return Err(EncodeError::OutOfRange {
                    field: "addr64",
                    value: 1,
                });
            }
            let tag: u32 = if f.format.is_some() { 0x3A } else { 0x38 };
            let mut w = tag << 26
                | b(f.addr64) << 15
                | b(f.glc) << 14
                | b(f.idxen) << 13
                | b(f.offen) << 12
                | fit("offset", f.offset as u32, 12)?;
            let mut w1 = f.vaddr as u32
                | (f.vdata as u32) << 8
                | scaled("srsrc", f.srsrc, 4, 5)? << 16
                | b(f.tfe) << 23
                | src("soffset", f.soffset, 8)? << 24;
            match f.format {
                Some((dfmt, nfmt)) => {
                    w |= fit("nfmt", nfmt as u32, 3)? << 23
                        | fit("dfmt", dfmt as u32, 4)? << 19
                        | opc << if gfx8 { 15 } else { 16 };
                    w1 |= b(f.slc) << 22;
                }
                None => {
                    w |= opc << 18 | b(f.lds) << 16;
                    if gfx8 {
                        w |= b(f.slc) << 17;
                    } else {
                        w1 |= b(f.slc) << 22;
                    }
                }
            }
            vec![w, w1]
        }
        (Enc::Flat, Fields::Flat(f)) => vec![
            0x37 << 26 | opc << 18 | b(f.slc) << 17 | b(f.glc) << 16,
            f.addr as u32 | (f.data as u32) << 8 | b(f.tfe) << 23 | (f.vdst as u32) << 24,
        ],
        (Enc::Mimg | Enc::Exp, Fields::Raw { words }) => words.to_vec(),
        _ => return Err(mismatch()),
    };
    match (needs_literal(gen, inst.op, &inst.fields), inst.literal) {
        (true, Some(l)) => words.push(l),
        (true, None) => return Err(EncodeError::MissingLiteral { mnemonic }),
        (false, Some(_)) => return Err(EncodeError::UnexpectedLiteral { mnemonic }),
        (false, None) => {}
    }
    // The encoder's promise: these words decode to `inst`.
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    match decode(gen, &bytes, 0) {
        Ok((back, n)) if back == *inst && n as usize == bytes.len() => Ok(words),
        Ok(_) => Err(EncodeError::NotRepresentable { mnemonic }),
        Err(e) => Err(EncodeError::Invalid {
            mnemonic,
            kind: e.kind,
        }),
    }
}

/// The VOP1/VOP2/VOPC word that an SDWA or DPP dword extends (SRC0 = 249 or 250).
fn vop_word(base: VopBase, opc: u32, vdst: u8, vsrc1: u8, marker: Src) -> R<u32> {
    let m = marker.0 as u32;
    Ok(match base {
        VopBase::Vop1 => 0x3F << 25 | (vdst as u32) << 17 | opc << 9 | m,
        VopBase::Vop2 => opc << 25 | (vdst as u32) << 17 | (vsrc1 as u32) << 9 | m,
        VopBase::Vopc => 0x3E << 25 | opc << 17 | (vsrc1 as u32) << 9 | m,
    })
}
