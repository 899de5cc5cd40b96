//! Helpers shared by the vector-ALU tests: a machine to run one hand-built instruction on,
//! and builders for each encoding's fields.
//!
//! The machine runs instructions through `wavejit_testkit::conformance`: on the
//! interpreter and on the JIT, compared bit for bit. The test's assertions then read the
//! machine's state.
#![allow(dead_code)]

use wavejit_interp::exec::{Ctx, Step};
use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::{DppFields, SdwaFields};
use wavejit_isa::gcn::{Enc, Fields, Inst, Op, Src, VopBase};
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
            lds: Lds::new(64 * 1024),
            mem: Memory::new(),
        }
    }
    /// Run one vector ALU instruction.
    /// (The reference is the vector unit itself, which leaves `wave.pc` alone.)
    pub fn valu(&mut self, inst: &Inst) -> Result<(), ExecErrorKind> {
        let reference = |ctx: &mut Ctx<'_>, i: &Inst| {
            wavejit_interp::valu::exec(ctx, i).map(|()| Step::Continue)
        };
        wavejit_testkit::conformance::exec_one(
            &mut self.wave,
            &mut self.lds,
            &self.mem,
            inst,
            false,
            matches!(
                inst.enc,
                Enc::Vop1 | Enc::Vop2 | Enc::Vopc | Enc::Vop3 | Enc::Sdwa { .. } | Enc::Dpp { .. }
            ),
            &reference,
        )
        .map(|_| ())
    }
    /// Run one VINTRP instruction.
    pub fn vintrp(&mut self, inst: &Inst) -> Result<(), ExecErrorKind> {
        let reference = |ctx: &mut Ctx<'_>, i: &Inst| {
            wavejit_interp::vintrp::exec(ctx, i).map(|()| Step::Continue)
        };
        wavejit_testkit::conformance::exec_one(
            &mut self.wave,
            &mut self.lds,
            &self.mem,
            inst,
            false,
            // VOP3-encoded interpolation runs in the vector unit, which hands it over.
            matches!(inst.enc, Enc::Vintrp | Enc::Vop3),
            &reference,
        )
        .map(|_| ())
    }
    /// Every lane of `v[r]`.
    pub fn set_v(&mut self, r: usize, f: impl Fn(usize) -> u32) {
        for l in 0..64 {
            self.wave.vgpr[r][l] = f(l);
        }
    }
}

pub fn op(m: &str) -> Op {
    Op::from_mnemonic(m).unwrap_or_else(|| panic!("no operation `{m}` in the table"))
}

pub fn v(n: u8) -> Src {
    Src::vgpr(n)
}

// Each test binary uses a part of these.
#[allow(unused_imports)]
pub use wavejit_isa::gcn::build::{vop1, vop2, vop3, vopc};

/// SDWA fields with everything neutral (DWORD selections, PAD).
pub fn sdwa(o: Op, base: VopBase, vdst: u8, src0: u8, vsrc1: u8) -> Inst {
    Inst {
        op: o,
        enc: Enc::Sdwa { base },
        fields: Fields::Sdwa(SdwaFields {
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
        }),
        literal: None,
    }
}

/// DPP fields: all rows and banks enabled, BOUND_CTRL off.
pub fn dpp(o: Op, base: VopBase, vdst: u8, src0: u8, vsrc1: u8, ctrl: u16) -> Inst {
    Inst {
        op: o,
        enc: Enc::Dpp { base },
        fields: Fields::Dpp(DppFields {
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
        }),
        literal: None,
    }
}

/// splitmix64: a tiny deterministic generator.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
