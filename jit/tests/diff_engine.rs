//! The `diff` engine: agreeing engines report no mismatch and end in the interpreter's
//! state; a wrong lowering (planted for the test) is found and the instruction named.

mod common;

use common::*;
use wavejit_interp::Ctx;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::Op;
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_jit::{diff_run, diff_run_with, DiffRun, JitConfig, Mismatch};

fn kernel() -> Vec<wavejit_isa::gcn::Inst> {
    let body = [
        vop2(Op::VAddU32, 1, v(1), 2),
        vop2(Op::VXorB32, 3, v(1), 4),
        vop2(Op::VAndB32, 5, v(3), 3),
    ];
    counted_loop(Gen::Gfx8, 3, &body)
}

/// Run `prog` from `w` on the diff engine whose JIT has the planted XOR bug (an OR): the
/// mismatch must be found, narrowed to one instruction and named `v_xor_b32` at pc 8
/// (s_movk (4) + v_add (4)), writing v3 lane 0.
fn planted_bug_found(prog: &Program, w: &mut Wave, max: u64) -> (Mismatch, DiffRun) {
    let mut lds = Lds::new(64);
    let mem = Memory::new();
    let mut ctx = Ctx {
        wave: w,
        lds: &mut lds,
        mem: &mem,
    };
    let cfg = JitConfig {
        plant_xor_bug: true,
        ..JitConfig::default()
    };
    let mut d = diff_run_with(cfg, &mut ctx, prog, max).expect("no error");
    let m = d.mismatch.take().expect("the planted bug is found");
    assert!(m.narrowed, "{m}");
    assert_eq!(m.mnemonic, "v_xor_b32");
    assert_eq!(m.pc, 8, "s_movk (4) + v_add (4)");
    assert_eq!(m.what, "v3 lane 0");
    (m, d)
}

#[test]
fn agreeing_engines_report_nothing() {
    let gen = Gen::Gfx8;
    let prog = program(gen, &kernel());
    let mut r = rng(3);
    let w0 = random_wave(gen, &mut r, 0xC0);
    let mut w = w0.clone();
    let mut lds = Lds::new(64);
    let mem = Memory::new();
    let d = {
        let mut ctx = Ctx {
            wave: &mut w,
            lds: &mut lds,
            mem: &mem,
        };
        diff_run(&mut ctx, &prog, 10_000).expect("no error")
    };
    assert_eq!(d.mismatch, None);
    // 1 + 3 × 6 + 1 instructions (hand count: three trips round the loop).
    assert_eq!(d.stats.insts, 20);
    // The caller's state is the interpreter's.
    let out = run_interp(&prog, &w0, &Lds::new(64), &MemInit::default(), 10_000);
    assert_eq!(out.wave.vgpr[..], w.vgpr[..]);
}

#[test]
fn a_wrong_lowering_is_found_and_named() {
    let gen = Gen::Gfx8;
    let prog = program(gen, &kernel());
    let mut w = Wave::new(gen);
    for l in 0..64 {
        w.vgpr[1][l] = 1;
        w.vgpr[2][l] = 2;
        w.vgpr[4][l] = 0xff;
    }
    let (m, _) = planted_bug_found(&prog, &mut w, 10_000);
    // v1 = 1 + 2 = 3; 3 ^ 0xff = 0xfc, the planted OR gives 0xff.
    assert_eq!(m.interp, "0xfc");
    assert_eq!(m.jit, "0xff");
}

/// A wrong lowering that shows only after many blocks (past the diff engine's periodic
/// comparison of whole states: between those it compares what each block can write) is
/// still found and named.
#[test]
fn a_late_difference_is_found_and_named() {
    let gen = Gen::Gfx8;
    // v1 counts up by 1 from 0; v1 ^ 0x80 and the planted v1 | 0x80 first differ when
    // v1 reaches 0x80, in the 128th trip (hand count).
    let body = [vop2(Op::VAddU32, 1, v(1), 2), vop2(Op::VXorB32, 3, v(1), 4)];
    let prog = program(gen, &counted_loop(gen, 200, &body));
    let mut w = Wave::new(gen);
    for l in 0..64 {
        w.vgpr[2][l] = 1;
        w.vgpr[4][l] = 0x80;
    }
    let (m, d) = planted_bug_found(&prog, &mut w, 100_000);
    assert_eq!(m.interp, "0x0");
    assert_eq!(m.jit, "0x80");
    assert!(d.blocks > 64, "{}", d.blocks);
}
