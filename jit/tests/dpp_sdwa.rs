//! DPP and SDWA lowering against the interpreter: every DPP_CTRL value × BOUND_CTRL × a
//! few ROW_MASK/BANK_MASK pairs, and every SDWA selection combination, each from random
//! states (random EXEC included), compared bit for bit. Many instructions share one
//! program (distinct destinations) so that the test compiles a few hundred blocks, not
//! thousands.

mod common;

use common::*;
use rand::Rng;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{DppFields, Fields, Inst, Op, SdwaFields, VopBase};

fn valid_ctrls() -> Vec<u16> {
    (0u16..0x100)
        .chain(0x101..0x110)
        .chain(0x111..0x120)
        .chain(0x121..0x130)
        .chain([0x130, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143])
        .collect()
}

fn run_batch(jit: &wavejit_jit::Jit, insts: &[Inst], seed: u64, what: &str) {
    let gen = Gen::Gfx8;
    let mut all = insts.to_vec();
    all.push(endpgm());
    let prog = program(gen, &all);
    let mut r = rng(seed);
    for k in 0..2 {
        let mut w = random_wave(gen, &mut r, 0xC0);
        if k == 0 {
            w.exec = u64::MAX;
        }
        check(jit, &prog, &w, &format!("{what} (state {k})"));
    }
}

/// Instructions gathered into programs of `size` (distinct destinations), each program
/// run by `run_batch` as it fills (seeds `seed`, `seed + 1`, ...).
struct Batches<'a> {
    jit: &'a wavejit_jit::Jit,
    insts: Vec<Inst>,
    size: usize,
    seed: u64,
    batch: u64,
    what: &'static str,
    count: usize,
}

impl<'a> Batches<'a> {
    fn new(jit: &'a wavejit_jit::Jit, size: usize, seed: u64, what: &'static str) -> Self {
        Batches {
            jit,
            insts: Vec::new(),
            size,
            seed,
            batch: 0,
            what,
            count: 0,
        }
    }

    /// Instructions in the program being gathered.
    fn len(&self) -> usize {
        self.insts.len()
    }

    fn push(&mut self, inst: Inst) {
        self.insts.push(inst);
        self.count += 1;
        if self.insts.len() == self.size {
            let what = format!("{} batch {}", self.what, self.batch);
            run_batch(self.jit, &self.insts, self.seed + self.batch, &what);
            self.insts.clear();
            self.batch += 1;
        }
    }

    /// Run the last, partly filled program; how many instructions ran in all. Every unit
    /// must have compiled, and every instruction run inline.
    fn finish(self) -> usize {
        if !self.insts.is_empty() {
            let what = format!("{} last batch", self.what);
            run_batch(self.jit, &self.insts, self.seed + self.batch, &what);
        }
        let st = self.jit.stats();
        assert_eq!(st.failures, 0, "{st:?}");
        assert_eq!(st.helper_insts, 0, "{} must be inline: {st:?}", self.what);
        self.count
    }
}

#[test]
fn every_dpp_control_bound_ctrl_and_masks() {
    let jit = jit();
    let masks = [(0xf, 0xf), (0xa, 0xf), (0xf, 0x5), (0x3, 0xc)];
    let ctrls = valid_ctrls();
    assert_eq!(ctrls.len(), 256 + 15 * 3 + 8);
    let mut batches = Batches::new(&jit, 24, 1000, "dpp");
    for &ctrl in &ctrls {
        for bound in [false, true] {
            for (i, &(row, bank)) in masks.iter().enumerate() {
                // Alternate a move, an integer op and a float op with modifiers.
                let (op, base, src0, vsrc1) = [
                    (Op::VMovB32, VopBase::Vop1, 1, 0),
                    (Op::VAddU32, VopBase::Vop2, 2, 3),
                    (Op::VMulF32, VopBase::Vop2, 4, 5),
                ][(ctrl as usize + i) % 3];
                let vdst = 20 + (batches.len() as u8);
                let mut inst = dpp(op, base, vdst, src0, vsrc1, ctrl, bound, row, bank);
                let vop1 = matches!(
                    inst.enc,
                    wavejit_isa::gcn::Enc::Dpp {
                        base: VopBase::Vop1
                    }
                );
                if let Fields::Dpp(DppFields {
                    src0_neg, src1_abs, ..
                }) = &mut inst.fields
                {
                    *src0_neg = ctrl & 1 != 0;
                    // VOP1 has no SRC1: its modifier bits are reserved (the decoder refuses them).
                    *src1_abs = !vop1 && ctrl & 2 != 0;
                }
                batches.push(inst);
            }
        }
    }
    assert_eq!(batches.finish(), ctrls.len() * 2 * masks.len());
}

/// DPP reading a source whose lanes are partly inactive (ERRATA DPP 1: such a source is
/// invalid), a compare with DPP writing VCC (kept lanes keep their bit), and v_cmpx.
#[test]
fn dpp_compares_and_source_exec() {
    let jit = jit();
    let mut r = rng(5);
    for case in 0..40 {
        let ctrl = valid_ctrls()[r.random_range(0..valid_ctrls().len())];
        let bound = r.random();
        let row = r.random_range(1..16);
        let bank = r.random_range(1..16);
        let insts = vec![
            dpp(
                Op::VCmpGtI32,
                VopBase::Vopc,
                0,
                1,
                2,
                ctrl,
                bound,
                row,
                bank,
            ),
            dpp(
                Op::VCndmaskB32,
                VopBase::Vop2,
                7,
                3,
                4,
                ctrl,
                bound,
                row,
                bank,
            ),
            dpp(
                Op::VCmpxLtF32,
                VopBase::Vopc,
                0,
                5,
                6,
                ctrl,
                bound,
                row,
                bank,
            ),
            dpp(Op::VMovB32, VopBase::Vop1, 8, 8, 0, ctrl, bound, row, bank),
        ];
        run_batch(
            &jit,
            &insts,
            7000 + case,
            &format!("dpp compare case {case} ctrl {ctrl:#x}"),
        );
    }
}

#[test]
fn every_sdwa_selection_combination() {
    let jit = jit();
    let mut batches = Batches::new(&jit, 32, 2000, "sdwa");
    for dst_sel in 0..7u8 {
        for unused in 0..3u8 {
            for s0 in 0..7u8 {
                for s1 in 0..7u8 {
                    for sext in [[false, false], [true, false], [false, true], [true, true]] {
                        // A move (VOP1: SRC1_SEL 6), integer ops and a float op.
                        let (op, base, src0, src1, sel1) = [
                            (Op::VAddU32, VopBase::Vop2, 1, 2, s1),
                            (Op::VXorB32, VopBase::Vop2, 3, 4, s1),
                            (Op::VMovB32, VopBase::Vop1, 5, 0, 6),
                            (Op::VMulF32, VopBase::Vop2, 6, 7, s1),
                        ][((dst_sel + unused + s0 + s1) % 4) as usize];
                        let vdst = 20 + (batches.len() as u8);
                        let sels = [s0, sel1];
                        let inst = sdwa(op, base, vdst, src0, src1, dst_sel, unused, sels, sext);
                        batches.push(inst);
                    }
                }
            }
        }
    }
    assert_eq!(batches.finish(), 7 * 3 * 7 * 7 * 4);
}

/// SDWA compares (VCC only), float NEG/ABS and CLAMP.
#[test]
fn sdwa_compares_modifiers_and_clamp() {
    let jit = jit();
    let mut r = rng(9);
    for case in 0..30 {
        let mut insts = Vec::new();
        for i in 0..8u8 {
            let sel = [r.random_range(0..7), r.random_range(0..7)];
            let sext = [r.random(), r.random()];
            let mut inst = if i % 3 == 0 {
                sdwa(Op::VCmpLtF32, VopBase::Vopc, 0, 1, 2, 0, 0, sel, sext)
            } else {
                let (op, a, b) = [(Op::VAddF32, 3, 4), (Op::VCndmaskB32, 5, 6)][i as usize % 3 - 1];
                let (dst_sel, unused) = (r.random_range(0..7), r.random_range(0..3));
                sdwa(op, VopBase::Vop2, 30 + i, a, b, dst_sel, unused, sel, sext)
            };
            if let Fields::Sdwa(SdwaFields {
                src0_neg,
                src1_abs,
                clamp,
                ..
            }) = &mut inst.fields
            {
                *src0_neg = r.random();
                *src1_abs = r.random();
                *clamp = inst.op == Op::VAddF32 && r.random();
            }
            insts.push(inst);
        }
        run_batch(
            &jit,
            &insts,
            9000 + case,
            &format!("sdwa modifiers case {case}"),
        );
    }
}
