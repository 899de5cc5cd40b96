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
        (
            Enc::Smrd,
            Fields::Smrd {
                sdst,
                sbase,
                imm,
                offset,
            },
        ) => vec![
            0x18 << 27
                | opc << 22
                | fit("sdst", sdst as u32, 7)? << 15
                | scaled("sbase", sbase, 2, 6)? << 9
                | b(imm) << 8
                | offset as u32,
        ],
        (
            Enc::Smem,
            Fields::Smem {
                sdata,
                sbase,
                imm,
                glc,
                offset,
            },
        ) => vec![
            0x30 << 26
                | opc << 18
                | b(imm) << 17
                | b(glc) << 16
                | fit("sdata", sdata as u32, 7)? << 6
                | scaled("sbase", sbase, 2, 6)?,
            fit("offset", offset, 20)?,
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
        (
            Enc::Sdwa { base },
            Fields::Sdwa {
                vdst,
                src0,
                vsrc1,
                dst_sel,
                dst_unused,
                clamp,
                src0_sel,
                src0_sext,
                src0_neg,
                src0_abs,
                src1_sel,
                src1_sext,
                src1_neg,
                src1_abs,
            },
        ) => {
            let e = src0 as u32
                | fit("dst_sel", dst_sel as u32, 3)? << 8
                | fit("dst_unused", dst_unused as u32, 2)? << 11
                | b(clamp) << 13
                | fit("src0_sel", src0_sel as u32, 3)? << 16
                | b(src0_sext) << 19
                | b(src0_neg) << 20
                | b(src0_abs) << 21
                | fit("src1_sel", src1_sel as u32, 3)? << 24
                | b(src1_sext) << 27
                | b(src1_neg) << 28
                | b(src1_abs) << 29;
            vec![vop_word(base, opc, vdst, vsrc1, Src::SDWA)?, e]
        }
        (
            Enc::Dpp { base },
            Fields::Dpp {
                vdst,
                src0,
                vsrc1,
                dpp_ctrl,
                bound_ctrl,
                src0_neg,
                src0_abs,
                src1_neg,
                src1_abs,
                bank_mask,
                row_mask,
            },
        ) => {
            let e = src0 as u32
                | fit("dpp_ctrl", dpp_ctrl as u32, 9)? << 8
                | b(bound_ctrl) << 19
                | b(src0_neg) << 20
                | b(src0_abs) << 21
                | b(src1_neg) << 22
                | b(src1_abs) << 23
                | fit("bank_mask", bank_mask as u32, 4)? << 24
                | fit("row_mask", row_mask as u32, 4)? << 28;
            vec![vop_word(base, opc, vdst, vsrc1, Src::DPP)?, e]
        }
        (
            Enc::Vop3,
            Fields::Vop3 {
                vdst,
                sdst,
                src: s,
                abs,
                neg,
                clamp,
                omod,
            },
        ) => {
            let mut w = 0x34 << 26 | opc << if gfx8 { 16 } else { 17 } | vdst as u32;
            if vop3_is_b(row) {
                if abs != 0 {
                    return Err(EncodeError::OutOfRange {
                        field: "abs",
                        value: abs as u32,
                    });
                }
                w |= fit("sdst", sdst as u32, 7)? << 8 | b(clamp) << 15;
            } else {
                if sdst != 0 {
                    return Err(EncodeError::OutOfRange {
                        field: "sdst",
                        value: sdst as u32,
                    });
                }
                w |= fit("abs", abs as u32, 3)? << 8 | b(clamp) << if gfx8 { 15 } else { 11 };
            }
            let w1 = src("src0", s[0], 9)?
                | src("src1", s[1], 9)? << 9
                | src("src2", s[2], 9)? << 18
                | fit("omod", omod as u32, 2)? << 27
                | fit("neg", neg as u32, 3)? << 29;
            vec![w, w1]
        }
        (
            Enc::Vintrp,
            Fields::Vintrp {
                vdst,
                vsrc,
                attr,
                chan,
            },
        ) => {
            let tag: u32 = if gfx8 { 0x35 } else { 0x32 };
            vec![
                tag << 26
                    | (vdst as u32) << 18
                    | opc << 16
                    | fit("attr", attr as u32, 6)? << 10
                    | fit("chan", chan as u32, 2)? << 8
                    | vsrc as u32,
            ]
        }
        (
            Enc::Ds,
            Fields::Ds {
                vdst,
                addr,
                data0,
                data1,
                offset0,
                offset1,
                gds,
            },
        ) => {
            let (op_at, gds_at) = if gfx8 { (17, 16) } else { (18, 17) };
            vec![
                0x36 << 26
                    | opc << op_at
                    | b(gds) << gds_at
                    | (offset1 as u32) << 8
                    | offset0 as u32,
                addr as u32 | (data0 as u32) << 8 | (data1 as u32) << 16 | (vdst as u32) << 24,
            ]
        }
        (Enc::Mubuf, Fields::Mubuf { .. }) | (Enc::Mtbuf, Fields::Mtbuf { .. }) => {
            // The two layouts differ only in where the opcode, SLC and the MTBUF formats go.
            let f = inst.fields.buffer().ok_or_else(mismatch)?;
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
        (
            Enc::Flat,
            Fields::Flat {
                vdst,
                addr,
                data,
                glc,
                slc,
                tfe,
            },
        ) => vec![
            0x37 << 26 | opc << 18 | b(slc) << 17 | b(glc) << 16,
            addr as u32 | (data as u32) << 8 | b(tfe) << 23 | (vdst as u32) << 24,
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
