//! The operand view of a vector ALU instruction, whatever its encoding (VOP1, VOP2, VOPC,
//! VOP3A/B, SDWA, DPP): `ValuShape` (which operands the operation has and their types, from
//! the table's `shape` and `srcs` columns) and `Valu` (the operands in VOP3 numbering with
//! their ABS/NEG/SEXT bits, CLAMP and OMOD, and the SDWA and DPP controls as typed structs).
//! `from_inst` reads any encoding into it; the printer, the assembler
//! (`crate::gcn::fmt::valu::to_inst` back to fields) and the engines read this one view.

use crate::arch::Gen;
use crate::gcn::desc::{word_dwords, Ty, ValuKind};
use crate::gcn::inst::{Fields, Inst, Src};
use crate::gcn::table::{Op, Row, TableEnc};

/// The four textual forms of a VALU instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// VOP1/VOP2/VOPC (32-bit).
    E32,
    /// VOP3A/VOP3B.
    E64,
    Sdwa,
    Dpp,
}

/// SDWA selections (000_20ed934eb40eff08.txt): 0-3 bytes, 4-5 words, 6 dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SdwaCtl {
    pub dst_sel: u8,
    pub dst_unused: u8,
    pub src0_sel: u8,
    pub src1_sel: u8,
}

/// DPP controls (002_969c374e212b41fa.txt).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DppCtl {
    pub ctrl: u16,
    pub bound_ctrl: bool,
    pub row_mask: u8,
    pub bank_mask: u8,
}

pub const SEL_DWORD: u8 = 6;
pub const UNUSED_PAD: u8 = 0;
pub const UNUSED_PRESERVE: u8 = 2;

/// A VALU instruction's operands in VOP3 numbering, whatever its encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Valu {
    /// The VDST field: a VGPR, or the SGPR written by readlane/readfirstlane.
    pub dst: u8,
    /// Scalar destination: a VOPC result or a carry out (VCC in the 32-bit forms).
    pub sdst: u8,
    pub src: [Src; 3],
    /// Bit i: modifier on source i.
    pub neg: u8,
    pub abs: u8,
    pub sext: u8,
    pub clamp: bool,
    pub omod: u8,
    pub literal: Option<u32>,
    pub sdwa: SdwaCtl,
    pub dpp: DppCtl,
}

impl Default for Valu {
    fn default() -> Self {
        Valu {
            dst: 0,
            sdst: 0,
            src: [Src(0); 3],
            neg: 0,
            abs: 0,
            sext: 0,
            clamp: false,
            omod: 0,
            literal: None,
            sdwa: SdwaCtl {
                dst_sel: SEL_DWORD,
                dst_unused: UNUSED_PAD,
                src0_sel: SEL_DWORD,
                src1_sel: SEL_DWORD,
            },
            dpp: DppCtl {
                ctrl: 0,
                bound_ctrl: false,
                row_mask: 0xf,
                bank_mask: 0xf,
            },
        }
    }
}

const VCC: u8 = 106;

impl Valu {
    /// What SDWA and DPP share: VGPR sources, the lane mask in VCC, ABS/NEG of two sources.
    fn sdwa_dpp(&mut self, vdst: u8, src0: u8, vsrc1: u8, abs: u8, neg: u8) {
        self.dst = vdst;
        self.sdst = VCC;
        self.src = [Src::vgpr(src0), Src::vgpr(vsrc1), Src(VCC as u16)];
        self.abs = abs;
        self.neg = neg;
    }
}

/// The operand shape of a VALU operation in one generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValuShape {
    pub kind: ValuKind,
    /// Dwords of the vector (or, for read lanes, scalar) destination; 0 = none.
    pub dst: u8,
    /// Types of SRC0-SRC2 as the VOP3 form numbers them (`None`: absent).
    pub src: [Option<Ty>; 3],
    /// The native row is VOP3B (scalar destination in bits 14:8).
    pub vop3b: bool,
    /// The native row (VOP1/VOP2/VOPC/VOP3/VOP3B).
    pub native: TableEnc,
    /// Whether the SDWA form exists on GCN 1.2 (the row's `forms` column).
    pub sdwa: bool,
    /// Whether the DPP form exists on GCN 1.2.
    pub dpp: bool,
}

impl ValuShape {
    /// Number of sources in the VOP3 form's text.
    pub fn nsrc(&self) -> usize {
        self.src.iter().filter(|s| s.is_some()).count()
    }
}

/// The VALU row of `op` that exists in `gen`.
pub fn valu_row(gen: Gen, op: Op) -> Option<&'static Row> {
    op.rows().iter().copied().find(|r| {
        r.opcode[gen.index()].is_some()
            && matches!(
                r.enc,
                TableEnc::Vop1 | TableEnc::Vop2 | TableEnc::Vopc | TableEnc::Vop3 | TableEnc::Vop3b
            )
    })
}

/// The operand shape of a VALU operation in `gen` (`None` if `op` is no VALU op there):
/// the `shape` and `srcs` columns of its row, the destination's width from its signature.
pub fn valu_shape(gen: Gen, op: Op) -> Option<ValuShape> {
    let row = valu_row(gen, op)?;
    let kind = row.shape?;
    let dst = match kind {
        ValuKind::Empty => 0,
        ValuKind::Cmp => 2,
        // The first word of the signature, as `sig_words` splits it (without collecting
        // the rest: this runs for every instruction the interpreter executes).
        _ => row
            .sig
            .split(',')
            .map(|w| w.split('+').next().unwrap_or(w))
            .find(|w| !w.is_empty())
            .map_or(1, word_dwords),
    };
    Some(ValuShape {
        kind,
        dst,
        src: row.srcs.map(|t| t.map(|t| t.in_gen(gen))),
        vop3b: row.enc == TableEnc::Vop3b,
        native: row.enc,
        sdwa: row.sdwa,
        dpp: row.dpp,
    })
}

/// Read an instruction into the model. `None` for non-VALU instructions.
pub fn from_inst(gen: Gen, inst: &Inst) -> Option<(Valu, Form, ValuShape)> {
    let shape = valu_shape(gen, inst.op)?;
    let mut v = Valu {
        literal: inst.literal,
        ..Valu::default()
    };
    let form = match inst.fields {
        Fields::Vop1 { vdst, src0 } => {
            v.dst = vdst;
            v.src[0] = src0;
            Form::E32
        }
        Fields::Vop2 { vdst, src0, vsrc1 } => {
            v.dst = vdst;
            v.src[0] = src0;
            v.src[1] = match shape.kind {
                // The lane select of GCN 1.0/1.1 VOP2 readlane/writelane is a scalar.
                ValuKind::ReadLane | ValuKind::WriteLane => Src(vsrc1 as u16),
                _ => Src::vgpr(vsrc1),
            };
            v.sdst = VCC;
            v.src[2] = Src(VCC as u16);
            Form::E32
        }
        Fields::Vopc { src0, vsrc1 } => {
            v.sdst = VCC;
            v.src[0] = src0;
            v.src[1] = Src::vgpr(vsrc1);
            Form::E32
        }
        Fields::Vop3(f) => {
            v.dst = f.vdst;
            v.sdst = if shape.kind == ValuKind::Cmp {
                f.vdst
            } else {
                f.sdst
            };
            v.src = f.src;
            v.abs = f.abs;
            v.neg = f.neg;
            v.clamp = f.clamp;
            v.omod = f.omod;
            Form::E64
        }
        Fields::Sdwa(f) => {
            v.sdwa_dpp(f.vdst, f.src0, f.vsrc1, f.abs(), f.neg());
            v.sext = f.sext();
            v.clamp = f.clamp;
            v.sdwa = SdwaCtl {
                dst_sel: f.dst_sel,
                dst_unused: f.dst_unused,
                src0_sel: f.src0_sel,
                src1_sel: f.src1_sel,
            };
            Form::Sdwa
        }
        Fields::Dpp(f) => {
            v.sdwa_dpp(f.vdst, f.src0, f.vsrc1, f.abs(), f.neg());
            v.dpp = DppCtl {
                ctrl: f.dpp_ctrl,
                bound_ctrl: f.bound_ctrl,
                row_mask: f.row_mask,
                bank_mask: f.bank_mask,
            };
            Form::Dpp
        }
        _ => return None,
    };
    Some((v, form, shape))
}
