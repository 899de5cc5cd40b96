//! Hand-worked values for a few vector operations through the JIT (and the interpreter,
//! compared bit for bit): med3 with and without NaNs, the canonical NaN, denormal
//! flushing under MODE, and OMOD/CLAMP.

mod common;

use common::*;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Op, Src};
use wavejit_isa::state::Wave;

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn med3_f32_by_hand() {
    let gen = Gen::Gfx8;
    let jit = jit();
    let prog = program(gen, &[vop3(Op::VMed3F32, 3, [v(0), v(1), v(2)]), endpgm()]);
    let mut w = Wave::new(gen);
    // (a, b, c) → expected: the median; with a NaN, the minimum of the others
    // (ERRATA VOP3 10: MED3 with NaNs is MIN3, and a single NaN loses).
    let cases: [(u32, u32, u32, u32); 6] = [
        (f(1.0), f(3.0), f(2.0), f(2.0)),
        (f(-5.0), f(-7.0), f(9.0), f(-5.0)),
        (0x7fc0_0001, f(3.0), f(2.0), f(2.0)),
        (f(4.0), f(1.0), 0xffc0_1234, f(1.0)),
        (0x7fc0_0001, 0x7f80_0001, 0xffc0_1234, 0x7fc0_0000),
        (f(-0.0), f(0.0), f(0.0), f(0.0)),
    ];
    for (l, &(a, b, c, _)) in cases.iter().enumerate() {
        w.vgpr[0][l] = a;
        w.vgpr[1][l] = b;
        w.vgpr[2][l] = c;
    }
    let out = check(&jit, &prog, &w, "med3");
    for (l, &(_, _, _, want)) in cases.iter().enumerate() {
        assert_eq!(out.wave.vgpr[3][l], want, "lane {l}");
    }
}

#[test]
fn nan_is_canonical_and_denormals_flush_per_mode() {
    let gen = Gen::Gfx8;
    let jit = jit();
    let prog = program(
        gen,
        &[
            vop2(Op::VAddF32, 2, v(0), 1),
            vop2(Op::VMulF32, 3, v(0), 1),
            endpgm(),
        ],
    );
    let mut w = Wave::new(gen);
    // Lane 0: NaN + 1 → canonical 0x7FC00000 (not the input's payload).
    w.vgpr[0][0] = 0xffc0_1234;
    w.vgpr[1][0] = f(1.0);
    // Lane 1: 2^-126 × 0.5 = 2^-127, a denormal: flushed to +0 under MODE 0xC0.
    w.vgpr[0][1] = 0x0080_0000;
    w.vgpr[1][1] = f(0.5);
    // Lane 2: a denormal input (0x00000001) + 0 → +0 when inputs are flushed.
    w.vgpr[0][2] = 1;
    w.vgpr[1][2] = 0;
    let out = check(&jit, &prog, &w, "mode 0xC0");
    assert_eq!(out.wave.vgpr[2][0], 0x7fc0_0000);
    assert_eq!(out.wave.vgpr[3][1], 0);
    assert_eq!(out.wave.vgpr[2][2], 0);
    // MODE 0xF0 keeps f32 denormals: 2^-127 = 0x00400000, 1 + 0 = 1.
    w.mode = 0xF0;
    let out = check(&jit, &prog, &w, "mode 0xF0");
    assert_eq!(out.wave.vgpr[3][1], 0x0040_0000);
    assert_eq!(out.wave.vgpr[2][2], 1);
}

#[test]
fn omod_and_clamp_by_hand() {
    let gen = Gen::Gfx7;
    let jit = jit();
    // v2 = clamp((v0 + v1) × 2), v3 = (v0 + v1) ÷ 2.
    let prog = program(
        gen,
        &[
            vop3m(Op::VAddF32, 2, 0, [v(0), v(1), Src(0)], 0, 0, true, 1),
            vop3m(Op::VAddF32, 3, 0, [v(0), v(1), Src(0)], 0, 0, false, 3),
            endpgm(),
        ],
    );
    let mut w = Wave::new(gen);
    let cases = [
        (0.25f32, 0.0f32, 0.5f32, 0.125f32),
        (1.0, 2.0, 1.0, 1.5),
        (-1.0, 0.5, 0.0, -0.25),
    ];
    for (l, &(a, b, _, _)) in cases.iter().enumerate() {
        w.vgpr[0][l] = f(a);
        w.vgpr[1][l] = f(b);
    }
    let out = check(&jit, &prog, &w, "omod clamp");
    for (l, &(_, _, c, h)) in cases.iter().enumerate() {
        assert_eq!(out.wave.vgpr[2][l], f(c), "clamp lane {l}");
        assert_eq!(out.wave.vgpr[3][l], f(h), "div2 lane {l}");
    }
}

/// minNum/maxNum/med3 with constant operands (inline constants, literals including NaNs
/// and denormals), whose NaN tests the lowering skips when the constant is a number,
/// against the interpreter in every form.
#[test]
fn min_max_med3_with_constants() {
    use rand::Rng;
    use wavejit_isa::gcn::Fields;
    let ops = [
        Op::VMinF32,
        Op::VMaxF32,
        Op::VMin3F32,
        Op::VMax3F32,
        Op::VMed3F32,
        Op::VMinF64,
        Op::VMaxF64,
        Op::VMinF16,
        Op::VMaxF16,
    ];
    let lits = [
        0x7fc0_0001u32,
        0xffc0_0000,
        0x0000_0001,
        0x8000_0000,
        0x4080_0000,
        0xc080_0000,
        0x7f80_0000,
        0x0000_3c00,
    ];
    let mut rng = rng(0x3ed3);
    let jits = jits();
    for case in 0..400 {
        let gen = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8][case % 3];
        let insts = random_block(&mut rng, 6, 100, |rng| {
            let op = ops[rng.random_range(0..ops.len())];
            let vdst = 20 + 2 * rng.random_range(0..4);
            op_forms(gen, rng, op, vdst, &|rng, _, vgpr| {
                if !vgpr && rng.random_bool(0.5) {
                    return if rng.random() {
                        Src(rng.random_range(240..249))
                    } else {
                        ic(rng.random_range(-16..65))
                    };
                }
                v(2 * rng.random_range(0..6))
            })
            .into_iter()
            .filter(|i| encodable(gen, i))
            .map(|mut i| {
                if i.literal.is_some() {
                    i.literal = Some(lits[rng.random_range(0..lits.len())]);
                }
                i
            })
            .filter(|i| !matches!(i.fields, Fields::Vop3(_)) || i.literal.is_none())
            .collect()
        });
        let prog = program(gen, &insts);
        let mode = [0xC0, 0xF0, 0x00, 0x1F0, 0x30][rng.random_range(0..5)];
        let w = random_wave(gen, &mut rng, mode);
        for (name, jit) in &jits {
            check(
                jit,
                &prog,
                &w,
                &format!("case {case} {gen} MODE {mode:#x} {name}: {insts:?}"),
            );
        }
    }
    assert_compiled(&jits);
}
