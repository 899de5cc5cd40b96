//! Shared helpers of the interpreter's integration tests: a wave with its LDS and memory,
//! and constructors for hand-built instructions (so that the scalar and memory semantics
//! are tested independently of the decoder).
//!
//! The machine (`wavejit_testkit::machine`) runs instructions through
//! `wavejit_testkit::conformance`: on the interpreter and on the JIT, compared bit for
//! bit.

#![allow(dead_code)]

use wavejit_isa::gcn::build::with_literal;
use wavejit_isa::gcn::{BufferFields, Enc, Fields, FlatFields, Inst, Op, Src};

// Each test binary uses a part of these.
#[allow(unused_imports)]
pub use wavejit_testkit::machine::Machine;

/// An SGPR operand.
pub fn s(n: u16) -> Src {
    Src(n)
}
/// An inline integer constant (-16..=64).
pub fn int(v: i32) -> Src {
    if v >= 0 {
        Src(128 + v as u16)
    } else {
        Src((192 - v) as u16)
    }
}

fn inst(op: Op, enc: Enc, fields: Fields, literal: Option<u32>) -> Inst {
    Inst {
        op,
        enc,
        fields,
        literal,
    }
}

// Each test binary uses a part of these.
#[allow(unused_imports)]
pub use wavejit_isa::gcn::build::{smem, smrd, sop1, sop2, sopc, sopk, sopp};

pub fn sop2_lit(op: Op, sdst: u8, a: Src, b: Src, lit: u32) -> Inst {
    with_literal(sop2(op, sdst, a, b), lit)
}
pub fn sop1_lit(op: Op, sdst: u8, a: Src, lit: u32) -> Inst {
    with_literal(sop1(op, sdst, a), lit)
}
pub fn ds(op: Op, vdst: u8, addr: u8, data0: u8, data1: u8, offset0: u8, offset1: u8) -> Inst {
    wavejit_isa::gcn::build::ds(op, vdst, addr, [data0, data1], [offset0, offset1])
}

/// MUBUF fields.
pub struct Buf {
    pub vdata: u8,
    pub vaddr: u8,
    pub srsrc: u8,
    pub soffset: Src,
    pub offset: u16,
    pub offen: bool,
    pub idxen: bool,
    pub glc: bool,
    pub addr64: bool,
}

impl Default for Buf {
    fn default() -> Buf {
        Buf {
            vdata: 0,
            vaddr: 0,
            srsrc: 0,
            soffset: int(0),
            offset: 0,
            offen: false,
            idxen: false,
            glc: false,
            addr64: false,
        }
    }
}

/// Builders of `Buf`: every flag clear unless set.
impl Buf {
    /// VDATA `vdata`, the resource descriptor at SGPR `srsrc`.
    pub fn new(vdata: u8, srsrc: u8) -> Buf {
        Buf {
            vdata,
            srsrc,
            ..Buf::default()
        }
    }
    pub fn vaddr(self, vaddr: u8) -> Buf {
        Buf { vaddr, ..self }
    }
    pub fn offset(self, offset: u16) -> Buf {
        Buf { offset, ..self }
    }
    pub fn soffset(self, soffset: Src) -> Buf {
        Buf { soffset, ..self }
    }
    pub fn offen(self) -> Buf {
        Buf {
            offen: true,
            ..self
        }
    }
    pub fn idxen(self) -> Buf {
        Buf {
            idxen: true,
            ..self
        }
    }
    pub fn glc(self) -> Buf {
        Buf { glc: true, ..self }
    }
    pub fn addr64(self) -> Buf {
        Buf {
            addr64: true,
            ..self
        }
    }
}

pub fn mubuf(op: Op, b: Buf) -> Inst {
    inst(
        op,
        Enc::Mubuf,
        Fields::Mubuf(BufferFields {
            vdata: b.vdata,
            vaddr: b.vaddr,
            srsrc: b.srsrc,
            soffset: b.soffset,
            offset: b.offset,
            offen: b.offen,
            idxen: b.idxen,
            glc: b.glc,
            slc: false,
            tfe: false,
            lds: false,
            addr64: b.addr64,
            format: None,
        }),
        None,
    )
}

pub fn flat(op: Op, vdst: u8, addr: u8, data: u8, glc: bool) -> Inst {
    inst(
        op,
        Enc::Flat,
        Fields::Flat(FlatFields {
            vdst,
            addr,
            data,
            glc,
            slc: false,
            tfe: false,
        }),
        None,
    )
}
