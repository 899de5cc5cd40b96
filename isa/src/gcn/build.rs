//! Constructors of hand-built instructions, for the tests, examples and benchmarks that
//! build the IR without going through text: each names the fields that matter for its
//! encoding and leaves the rest neutral (no modifiers, no literal; `with_literal` adds
//! one). What the instruction means is still the table's: these only fill `Fields`.

use super::inst::{Enc, Fields, Inst, Src};
use super::table::Op;
use crate::gcn::inst::{
    DppFields, DsFields, FlatFields, SdwaFields, SmemFields, SmrdFields, VintrpFields, Vop3Fields,
    VopBase,
};

fn inst(op: Op, enc: Enc, fields: Fields) -> Inst {
    Inst {
        op,
        enc,
        fields,
        literal: None,
    }
}

/// `inst` with the literal constant `lit` (read where a source is `Src(255)`).
pub fn with_literal(mut i: Inst, lit: u32) -> Inst {
    i.literal = Some(lit);
    i
}

pub fn vop1(op: Op, vdst: u8, src0: Src) -> Inst {
    inst(op, Enc::Vop1, Fields::Vop1 { vdst, src0 })
}

pub fn vop2(op: Op, vdst: u8, src0: Src, vsrc1: u8) -> Inst {
    inst(op, Enc::Vop2, Fields::Vop2 { vdst, src0, vsrc1 })
}

pub fn vopc(op: Op, src0: Src, vsrc1: u8) -> Inst {
    inst(op, Enc::Vopc, Fields::Vopc { src0, vsrc1 })
}

/// VOP3A without ABS, NEG, CLAMP or OMOD (and SDST 0).
pub fn vop3(op: Op, vdst: u8, src: [Src; 3]) -> Inst {
    let fields = Fields::Vop3(Vop3Fields {
        vdst,
        sdst: 0,
        src,
        abs: 0,
        neg: 0,
        clamp: false,
        omod: 0,
    });
    inst(op, Enc::Vop3, fields)
}

pub fn sop2(op: Op, sdst: u8, ssrc0: Src, ssrc1: Src) -> Inst {
    inst(op, Enc::Sop2, Fields::Sop2 { sdst, ssrc0, ssrc1 })
}

pub fn sop1(op: Op, sdst: u8, ssrc0: Src) -> Inst {
    inst(op, Enc::Sop1, Fields::Sop1 { sdst, ssrc0 })
}

pub fn sopk(op: Op, sdst: u8, simm16: u16) -> Inst {
    inst(op, Enc::Sopk, Fields::Sopk { sdst, simm16 })
}

pub fn sopc(op: Op, ssrc0: Src, ssrc1: Src) -> Inst {
    inst(op, Enc::Sopc, Fields::Sopc { ssrc0, ssrc1 })
}

pub fn sopp(op: Op, simm16: u16) -> Inst {
    inst(op, Enc::Sopp, Fields::Sopp { simm16 })
}

/// VOP_SDWA of the `base` encoding with neutral controls: DWORD selections, UNUSED_PAD,
/// no SEXT, ABS, NEG or CLAMP.
pub fn sdwa(op: Op, base: VopBase, vdst: u8, src0: u8, vsrc1: u8) -> Inst {
    let fields = Fields::Sdwa(SdwaFields {
        vdst,
        src0,
        vsrc1,
        dst_sel: 6,
        dst_unused: 0,
        clamp: false,
        src0_sel: 6,
        src0_sext: false,
        src0_neg: false,
        src0_abs: false,
        src1_sel: 6,
        src1_sext: false,
        src1_neg: false,
        src1_abs: false,
    });
    inst(op, Enc::Sdwa { base }, fields)
}

/// VOP_DPP of the `base` encoding with control `ctrl`, every row and bank enabled,
/// BOUND_CTRL off, no ABS or NEG.
pub fn dpp(op: Op, base: VopBase, vdst: u8, src0: u8, vsrc1: u8, ctrl: u16) -> Inst {
    let fields = Fields::Dpp(DppFields {
        vdst,
        src0,
        vsrc1,
        dpp_ctrl: ctrl,
        bound_ctrl: false,
        src0_neg: false,
        src0_abs: false,
        src1_neg: false,
        src1_abs: false,
        bank_mask: 0xF,
        row_mask: 0xF,
    });
    inst(op, Enc::Dpp { base }, fields)
}

/// VINTRP: `vdst` from attribute `attr`, channel `chan` (0-3 = x-w), with the barycentric
/// coordinate (or, for V_INTERP_MOV_F32, the parameter select) `vsrc`.
pub fn vintrp(op: Op, vdst: u8, vsrc: u8, attr: u8, chan: u8) -> Inst {
    let fields = Fields::Vintrp(VintrpFields {
        vdst,
        vsrc,
        attr,
        chan,
    });
    inst(op, Enc::Vintrp, fields)
}

/// SMRD (GCN 1.0/1.1): `sdst` from the base pair `sbase`, `offset` in dwords (`imm`) or
/// the SGPR it names.
pub fn smrd(op: Op, sdst: u8, sbase: u8, imm: bool, offset: u8) -> Inst {
    let fields = Fields::Smrd(SmrdFields {
        sdst,
        sbase,
        imm,
        offset,
    });
    inst(op, Enc::Smrd, fields)
}

/// SMEM (GCN 1.2) without GLC: `sdata` from the base pair `sbase`, `offset` in bytes
/// (`imm`) or the SGPR it names.
pub fn smem(op: Op, sdata: u8, sbase: u8, imm: bool, offset: u32) -> Inst {
    let fields = Fields::Smem(SmemFields {
        sdata,
        sbase,
        imm,
        glc: false,
        offset,
    });
    inst(op, Enc::Smem, fields)
}

/// DS without GDS: DATA0/DATA1 and OFFSET0/OFFSET1 as given.
pub fn ds(op: Op, vdst: u8, addr: u8, data: [u8; 2], offset: [u8; 2]) -> Inst {
    let fields = Fields::Ds(DsFields {
        vdst,
        addr,
        data0: data[0],
        data1: data[1],
        offset0: offset[0],
        offset1: offset[1],
        gds: false,
    });
    inst(op, Enc::Ds, fields)
}

/// FLAT without GLC, SLC or TFE.
pub fn flat(op: Op, vdst: u8, addr: u8, data: u8) -> Inst {
    let fields = Fields::Flat(FlatFields {
        vdst,
        addr,
        data,
        glc: false,
        slc: false,
        tfe: false,
    });
    inst(op, Enc::Flat, fields)
}
