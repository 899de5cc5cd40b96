//! Helpers shared by the vector-ALU tests: a machine to run one hand-built instruction on,
//! and builders for each encoding's fields.
//!
//! The machine (`wavejit_testkit::machine`) runs instructions through
//! `wavejit_testkit::conformance`: on the interpreter and on the JIT, compared bit for
//! bit. The test's assertions then read the machine's state.
#![allow(dead_code)]

use wavejit_isa::gcn::{Op, Src};

// Each test binary uses a part of these.
#[allow(unused_imports)]
pub use wavejit_testkit::machine::Machine;

pub fn op(m: &str) -> Op {
    Op::from_mnemonic(m).unwrap_or_else(|| panic!("no operation `{m}` in the table"))
}

pub fn v(n: u8) -> Src {
    Src::vgpr(n)
}

// Each test binary uses a part of these.
#[allow(unused_imports)]
pub use wavejit_isa::gcn::build::{dpp, sdwa, vop1, vop2, vop3, vopc};

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
