//! The machine the interpreter's instruction tests run one hand-built instruction on: a
//! wave with a full LDS and memory, each instruction checked on every engine by
//! [`crate::conformance::exec_one`] before the test's assertions read the state.

use wavejit_interp::exec::{exec_inst, Ctx, Step};
use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::{Enc, Inst};
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_isa::Gen;

use crate::conformance::{exec_one, Reference};

pub struct Machine {
    pub wave: Box<Wave>,
    pub lds: Lds,
    pub mem: Memory,
}

impl Machine {
    /// A fresh wave of `gen` with the largest LDS and no memory mapped.
    pub fn new(gen: Gen) -> Machine {
        Machine {
            wave: Wave::new(gen),
            lds: Lds::new(Lds::MAX),
            mem: Memory::new(),
        }
    }

    fn run(
        &mut self,
        inst: &Inst,
        advances_pc: bool,
        as_program: bool,
        reference: Reference<'_>,
    ) -> Result<Step, ExecErrorKind> {
        exec_one(
            &mut self.wave,
            &mut self.lds,
            &self.mem,
            inst,
            advances_pc,
            as_program,
            reference,
        )
    }

    /// Execute `inst` at the current pc as a program does (size 4, or 8 with a literal or
    /// a 64-bit encoding).
    pub fn exec(&mut self, inst: Inst) -> Result<Step, ExecErrorKind> {
        let size = |i: &Inst| match i.enc {
            Enc::Smem | Enc::Ds | Enc::Mubuf | Enc::Flat | Enc::Vop3 => 8,
            _ if i.literal.is_some() => 8,
            _ => 4,
        };
        let pc = self.wave.pc;
        let reference = |ctx: &mut Ctx<'_>, i: &Inst| exec_inst(ctx, i, pc, size(i));
        self.run(&inst, true, true, &reference)
    }

    /// Execute and expect success.
    pub fn ok(&mut self, inst: Inst) -> Step {
        match self.exec(inst) {
            Ok(s) => s,
            Err(e) => panic!("{:?} failed: {e}", inst.op),
        }
    }

    /// Run one vector ALU instruction on the vector unit, which leaves `wave.pc` alone (a
    /// program holds it only in a vector encoding).
    pub fn valu(&mut self, inst: &Inst) -> Result<(), ExecErrorKind> {
        let reference = |ctx: &mut Ctx<'_>, i: &Inst| {
            wavejit_interp::valu::exec(ctx, i).map(|()| Step::Continue)
        };
        let vector = matches!(
            inst.enc,
            Enc::Vop1 | Enc::Vop2 | Enc::Vopc | Enc::Vop3 | Enc::Sdwa { .. } | Enc::Dpp { .. }
        );
        self.run(inst, false, vector, &reference).map(|_| ())
    }

    /// Run one VINTRP instruction on the interpolation unit.
    pub fn vintrp(&mut self, inst: &Inst) -> Result<(), ExecErrorKind> {
        let reference = |ctx: &mut Ctx<'_>, i: &Inst| {
            wavejit_interp::vintrp::exec(ctx, i).map(|()| Step::Continue)
        };
        // VOP3-encoded interpolation runs in the vector unit, which hands it over.
        let program = matches!(inst.enc, Enc::Vintrp | Enc::Vop3);
        self.run(inst, false, program, &reference).map(|_| ())
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
    /// Lanes `lanes` of v[r].
    pub fn lanes<const N: usize>(&self, r: usize, lanes: [usize; N]) -> [u32; N] {
        lanes.map(|l| self.wave.vgpr[r][l])
    }
    /// Set every lane of v[r] with `f(lane)`.
    pub fn set_v(&mut self, r: usize, f: impl Fn(usize) -> u32) {
        for l in 0..64 {
            self.wave.vgpr[r][l] = f(l);
        }
    }
}
