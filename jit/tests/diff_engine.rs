//! The `diff` engine: agreeing engines report no mismatch and end in the interpreter's
//! state; a wrong lowering (planted for the test) is found and the instruction named.

mod common;

use common::*;
use wavejit_interp::Ctx;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::Op;
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_jit::{diff_run, diff_run_with, JitConfig};

fn kernel() -> Vec<wavejit_isa::gcn::Inst> {
    vec![
        sopk(Op::SMovkI32, 0, 3),
        vop2(Op::VAddU32, 1, v(1), 2),
        vop2(Op::VXorB32, 3, v(1), 4),
        vop2(Op::VAndB32, 5, v(3), 3),
        sop2(Op::SSubU32, 0, s(0), ic(1)),
        sopc(Op::SCmpLgU32, s(0), ic(0)),
        sopp(Op::SCbranchScc1, (-6i16) as u16),
        endpgm(),
    ]
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
    let mut lds = Lds::new(64);
    let mem = Memory::new();
    let mut ctx = Ctx {
        wave: &mut w,
        lds: &mut lds,
        mem: &mem,
    };
    let cfg = JitConfig {
        plant_xor_bug: true,
        ..JitConfig::default()
    };
    let d = diff_run_with(cfg, &mut ctx, &prog, 10_000).expect("no error");
    let m = d.mismatch.expect("the planted bug is found");
    assert!(m.narrowed, "{m}");
    assert_eq!(m.mnemonic, "v_xor_b32");
    assert_eq!(m.pc, 8, "s_movk (4) + v_add (4)");
    // v1 = 1 + 2 = 3; 3 ^ 0xff = 0xfc, the planted OR gives 0xff.
    assert_eq!(m.what, "v3 lane 0");
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
    let prog = program(
        gen,
        &[
            sopk(Op::SMovkI32, 0, 200),
            vop2(Op::VAddU32, 1, v(1), 2),
            vop2(Op::VXorB32, 3, v(1), 4),
            sop2(Op::SSubU32, 0, s(0), ic(1)),
            sopc(Op::SCmpLgU32, s(0), ic(0)),
            sopp(Op::SCbranchScc1, (-5i16) as u16),
            endpgm(),
        ],
    );
    let mut w = Wave::new(gen);
    for l in 0..64 {
        w.vgpr[2][l] = 1;
        w.vgpr[4][l] = 0x80;
    }
    let mut lds = Lds::new(64);
    let mem = Memory::new();
    let mut ctx = Ctx {
        wave: &mut w,
        lds: &mut lds,
        mem: &mem,
    };
    let cfg = JitConfig {
        plant_xor_bug: true,
        ..JitConfig::default()
    };
    let d = diff_run_with(cfg, &mut ctx, &prog, 100_000).expect("no error");
    let m = d.mismatch.expect("the planted bug is found");
    assert!(m.narrowed, "{m}");
    assert_eq!(m.mnemonic, "v_xor_b32");
    assert_eq!(m.pc, 8, "s_movk (4) + v_add (4)");
    assert_eq!(m.what, "v3 lane 0");
    assert_eq!(m.interp, "0x0");
    assert_eq!(m.jit, "0x80");
    assert!(d.blocks > 64, "{}", d.blocks);
}
