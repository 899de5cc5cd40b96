//! Shared helpers of the interpreter's integration tests: a wave with its LDS and memory,
//! and constructors for hand-built instructions (so that the scalar and memory semantics
//! are tested independently of the decoder).
//!
//! The machine runs instructions through `wavejit_testkit::conformance`: on the
//! interpreter and on the JIT, compared bit for bit.

#![allow(dead_code)]

use wavejit_interp::exec::{exec_inst, Ctx, Step};
use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::build::with_literal;
use wavejit_isa::gcn::{BufferFields, DsFields, FlatFields, SmemFields, SmrdFields};
use wavejit_isa::gcn::{Enc, Fields, Inst, Op, Src};
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_isa::Gen;

pub struct Machine {
    pub wave: Box<Wave>,
    pub lds: Lds,
    pub mem: Memory,
}

impl Machine {
    pub fn new(gen: Gen) -> Machine {
        Machine {
            wave: Wave::new(gen),
            lds: Lds::new(Lds::MAX),
            mem: Memory::new(),
        }
    }

    /// Execute `inst` at the current pc (size 4, or 8 with a literal or a 64-bit
    /// encoding).
    pub fn exec(&mut self, inst: Inst) -> Result<Step, ExecErrorKind> {
        let size = |i: &Inst| match i.enc {
            Enc::Smem | Enc::Ds | Enc::Mubuf | Enc::Flat | Enc::Vop3 => 8,
            _ if i.literal.is_some() => 8,
            _ => 4,
        };
        let pc = self.wave.pc;
        let reference = |ctx: &mut Ctx<'_>, i: &Inst| exec_inst(ctx, i, pc, size(i));
        wavejit_testkit::conformance::exec_one(
            &mut self.wave,
            &mut self.lds,
            &self.mem,
            &inst,
            true,
            true,
            &reference,
        )
    }

    /// Execute and expect success.
    pub fn ok(&mut self, inst: Inst) -> Step {
        match self.exec(inst) {
            Ok(s) => s,
            Err(e) => panic!("{:?} failed: {e}", inst.op),
        }
    }

    pub fn s(&self, n: u8) -> u32 {
        self.wave.read_sreg(n)
    }
    pub fn s64(&self, n: u8) -> u64 {
        self.wave.read_sreg64(n)
    }
    pub fn set_s(&mut self, n: u8, v: u32) {
        self.wave.write_sreg(n, v);
    }
    pub fn set_s64(&mut self, n: u8, v: u64) {
        self.wave.write_sreg64(n, v);
    }
    pub fn scc(&self) -> u32 {
        self.wave.scc
    }
    pub fn set_scc(&mut self, c: bool) {
        self.wave.scc = c as u32;
    }
    /// Set every lane of v[r] with `f(lane)`.
    pub fn set_v(&mut self, r: usize, f: impl Fn(usize) -> u32) {
        for l in 0..64 {
            self.wave.vgpr[r][l] = f(l);
        }
    }
}

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
pub use wavejit_isa::gcn::build::{sop1, sop2, sopc, sopk, sopp};

pub fn sop2_lit(op: Op, sdst: u8, a: Src, b: Src, lit: u32) -> Inst {
    with_literal(sop2(op, sdst, a, b), lit)
}
pub fn sop1_lit(op: Op, sdst: u8, a: Src, lit: u32) -> Inst {
    with_literal(sop1(op, sdst, a), lit)
}
pub fn smrd(op: Op, sdst: u8, sbase: u8, imm: bool, offset: u8) -> Inst {
    inst(
        op,
        Enc::Smrd,
        Fields::Smrd(SmrdFields {
            sdst,
            sbase,
            imm,
            offset,
        }),
        None,
    )
}
pub fn smem(op: Op, sdata: u8, sbase: u8, imm: bool, offset: u32) -> Inst {
    inst(
        op,
        Enc::Smem,
        Fields::Smem(SmemFields {
            sdata,
            sbase,
            imm,
            glc: false,
            offset,
        }),
        None,
    )
}
pub fn ds(op: Op, vdst: u8, addr: u8, data0: u8, data1: u8, offset0: u8, offset1: u8) -> Inst {
    inst(
        op,
        Enc::Ds,
        Fields::Ds(DsFields {
            vdst,
            addr,
            data0,
            data1,
            offset0,
            offset1,
            gds: false,
        }),
        None,
    )
}

/// MUBUF fields; set the flags with struct update on the result's fields.
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
