//! Constructors of hand-built instructions, for the tests, examples and benchmarks that
//! build the IR without going through text: each names the fields that matter for its
//! encoding and leaves the rest neutral (no modifiers, no literal; `with_literal` adds
//! one). What the instruction means is still the table's: these only fill `Fields`.

use super::inst::{Enc, Fields, Inst, Src};
use super::table::Op;
use crate::gcn::inst::Vop3Fields;

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
