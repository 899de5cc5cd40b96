//! GCN 1.2's 16-bit operations lowered inline (`jit/src/gcn/half.rs`): f16 arithmetic done
//! in f32 and rounded once, u16/i16 arithmetic with CLAMP, the f16 conversions and the
//! 16-bit compares — values worked out by hand (rounding ties, overflow, denormals under
//! MODE, the zeroed high half of ERRATA VOP3 12), and random blocks in every encoding from
//! states full of f16 edge values and f32 values halfway between f16 values.

mod common;

use common::*;
use rand::rngs::StdRng;
use rand::Rng;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Op, Src};
use wavejit_isa::state::Wave;

const GEN: Gen = Gen::Gfx8;

/// Run `prog` on lanes 0.. set from `cases` (v0, v1, v2 = the three operands, high halves
/// filled with junk) under `mode`; return the outcome after checking both JITs.
fn run(prog: &wavejit_isa::ir::Program, cases: &[[u32; 3]], mode: u32) -> Box<Wave> {
    let mut w = Wave::new(GEN);
    w.mode = mode;
    for (l, c) in cases.iter().enumerate() {
        for (r, x) in c.iter().enumerate() {
            w.vgpr[r][l] = *x;
        }
    }
    let mut last = None;
    for (name, jit) in jits() {
        last = Some(check(&jit, prog, &w, name).wave);
    }
    last.expect("two engines")
}

#[test]
fn f16_arithmetic_by_hand() {
    let prog = program(
        GEN,
        &[
            vop2(Op::VAddF16, 10, v(0), 1),
            vop2(Op::VMulF16, 11, v(0), 1),
            vop3(Op::VMadF16, 12, [v(0), v(1), v(2)]),
            vop2(Op::VMaxF16, 13, v(0), 1),
            endpgm(),
        ],
    );
    // (a, b, c) → (add, mul, mad, max); the high halves of the sources are junk (0xdead)
    // and the results' high halves are zero.
    let j = 0xdead_0000;
    let cases = [
        // 1 + 2^-11: a tie between 1 and 1 + 2^-10 → 1 (even). 1 × 2^-11 = 2^-11.
        (
            [j | 0x3c00, j | 0x1000, 0],
            [0x3c00, 0x1000, 0x1000, 0x3c00],
        ),
        // 1 + 3·2^-11: a tie between 1 + 2^-10 and 1 + 2^-9 → 1 + 2^-9 (even).
        ([0x3c00, 0x1600, 0], [0x3c02, 0x1600, 0x1600, 0x3c00]),
        // max × 2 overflows; max + 2 rounds back to max.
        ([0x7bff, 0x4000, 0], [0x7bff, 0x7c00, 0x7c00, 0x7bff]),
        // (1 + 2^-10)² = 1 + 2^-9 + 2^-20 → 1 + 2^-9 after the product's rounding: the
        // unfused mad with c = -(1 + 2^-9) is 0 (a fused one would be 2^-20).
        ([0x3c01, 0x3c01, 0xbc02], [0x4001, 0x3c02, 0, 0x3c01]),
        // NaN with a payload: every result is the canonical 0x7e00; max picks the number.
        ([0xfe12, 0x3c00, 0], [0x7e00, 0x7e00, 0x7e00, 0x3c00]),
        // The smallest subnormal × 0.5 = 2^-25, a tie between 0 and 2^-24 → +0.
        // (0.5 + 2^-24 rounds to 0.5.)
        ([0x0001, 0x3800, 0x0001], [0x3800, 0, 0x0001, 0x3800]),
    ];
    let ins: Vec<[u32; 3]> = cases.iter().map(|c| c.0).collect();
    let out = run(&prog, &ins, 0xF0); // f16 denormals kept
    for (l, c) in cases.iter().enumerate() {
        for (k, want) in c.1.iter().enumerate() {
            assert_eq!(out.vgpr[10 + k][l], *want, "lane {l} result {k}");
        }
    }
    // MODE 0x30 flushes f16 denormals on input and output: the subnormal 0x0001 reads as
    // +0 (0 + 0.5 = 0.5 in the add, 0 in the mul).
    let out = run(&prog, &ins, 0x30);
    assert_eq!(out.vgpr[10][5], 0x3800);
    assert_eq!(out.vgpr[11][5], 0);
}

#[test]
fn u16_i16_by_hand() {
    let prog = program(
        GEN,
        &[
            vop3m(Op::VAddU16, 10, 0, [v(0), v(1), Src(0)], 0, 0, true, 0),
            vop2(Op::VAddU16, 11, v(0), 1),
            vop3m(Op::VSubU16, 12, 0, [v(0), v(1), Src(0)], 0, 0, true, 0),
            vop3m(Op::VMadI16, 13, 0, [v(0), v(1), v(2)], 0, 0, true, 0),
            vop2(Op::VLshlrevB16, 14, v(1), 0),
            vop2(Op::VAshrrevI16, 15, v(1), 0),
            vop2(Op::VLshrrevB16, 16, v(1), 0),
            vop2(Op::VMaxI16, 17, v(0), 1),
            endpgm(),
        ],
    );
    // (a, b, c) → (add with CLAMP, add, sub with CLAMP, mad_i16 with CLAMP, a << b,
    // i16(a) >> b, a >> b, max_i16); the shifts are the `rev` forms with the amount in v1
    // (& 15).
    let cases = [
        (
            [0xffff, 1, 0],
            [0xffff, 0, 0xfffe, 0xffff, 0xfffe, 0xffff, 0x7fff, 1],
        ),
        (
            [0x8000, 4, 0],
            // a × b + c as i16: -32768 × 4 saturates at -32768.
            [0x8004, 0x8004, 0x7ffc, 0x8000, 0x0000, 0xf800, 0x0800, 4],
        ),
        (
            [0x8001, 17, 0],
            // Amounts are & 15: 17 → 1. -32767 × 17 saturates at -32768.
            [0x8012, 0x8012, 0x7ff0, 0x8000, 0x0002, 0xc000, 0x4000, 17],
        ),
        (
            [1, 2, 0xabcd_0005],
            // 1 - 2 clamps at 0; 1 × 2 + 5 = 7 (c's high half ignored).
            [3, 3, 0, 7, 4, 0, 0, 2],
        ),
    ];
    let ins: Vec<[u32; 3]> = cases.iter().map(|c| c.0).collect();
    let out = run(&prog, &ins, 0xC0);
    for (l, c) in cases.iter().enumerate() {
        for (k, want) in c.1.iter().enumerate() {
            assert_eq!(out.vgpr[10 + k][l], *want, "lane {l} result {k}");
        }
    }
}

#[test]
fn f16_conversions_by_hand() {
    let prog = program(
        GEN,
        &[
            vop1(Op::VCvtF16F32, 10, v(0)),
            vop1(Op::VCvtF32F16, 11, v(1)),
            vop1(Op::VCvtU16F16, 12, v(1)),
            vop1(Op::VCvtI16F16, 13, v(1)),
            vop1(Op::VCvtF16U16, 14, v(2)),
            endpgm(),
        ],
    );
    let f = |x: f32| x.to_bits();
    // (f32, f16, u16) → (f16(f32), f32(f16), u16(f16), i16(f16), f16(u16))
    let cases = [
        (
            [f(65520.0), 0x7c00, 65535],
            [0x7c00, f(f32::INFINITY), 0xffff, 0x7fff, 0x7c00],
        ),
        (
            [f(65519.0), 0xbe00, 2049],
            [0x7bff, f(-1.5), 0, 0xffff, 0x6800],
        ),
        // 2049 is a tie between 2048 and 2050 → 2048 (even); 2051 → 2052.
        (
            [f(2049.0), 0x7e01, 2051],
            [0x6800, 0x7fc0_0000, 0, 0, 0x6802],
        ),
        // 2^-25 ties to 0; 3 × 2^-25 ties to 2 × 2^-24 (even); f16 0x0001 = 2^-24.
        (
            [f(2f32.powi(-25)), 0x0001, 1],
            [0, f(2f32.powi(-24)), 0, 0, 0x3c00],
        ),
        (
            [f(3.0 * 2f32.powi(-25)), 0x5640, 0],
            [0x0002, f(100.0), 100, 100, 0],
        ),
    ];
    let ins: Vec<[u32; 3]> = cases.iter().map(|c| c.0).collect();
    let out = run(&prog, &ins, 0xF0);
    for (l, c) in cases.iter().enumerate() {
        for (k, want) in c.1.iter().enumerate() {
            assert_eq!(out.vgpr[10 + k][l], *want, "lane {l} result {k}");
        }
    }
    // MODE 0x30: f16 denormals flushed (input and output): 3 × 2^-25 → +0, f32(0x0001) → 0.
    let out = run(&prog, &ins, 0x30);
    assert_eq!(out.vgpr[10][4], 0);
    assert_eq!(out.vgpr[11][3], 0);
}

// ---- random blocks ------------------------------------------------------------------------

const SPECIAL16: &[u32] = &[
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0200, 0x0400, 0x8400, 0x3c00, 0xbc00, 0x3800, 0x3c01,
    0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe12, 0x3555, 0x4000, 0x5bff, 0x0800, 0x1000,
    0x1400, 0xffff, 0x7fff, 0x000f, 0x0010, 0x0011, 0x3bff, 0x3e00,
];

/// An f32 close to the f16 range whose bits below f16 precision are a tie, just off a tie,
/// zero or random.
fn f32_near_f16(rng: &mut StdRng) -> u32 {
    let e: u32 = rng.random_range(98..146);
    let low = [
        0,
        0x1000,
        0x0fff,
        0x1001,
        0x0800,
        rng.random_range(0..0x2000),
    ][rng.random_range(0..6)];
    let hi: u32 = rng.random::<u32>() & 0x007f_e000;
    (rng.random::<u32>() & 0x8000_0000) | e << 23 | hi | low
}

fn rand16(rng: &mut StdRng) -> u32 {
    let junk = rng.random::<u32>() & 0xffff_0000;
    match rng.random_range(0..6) {
        0..=2 => junk | SPECIAL16[rng.random_range(0..SPECIAL16.len())],
        3 => junk | rng.random_range(0..0x10000),
        4 => f32_near_f16(rng),
        _ => rand32(rng),
    }
}

fn edge_wave16(rng: &mut StdRng, mode: u32) -> Box<Wave> {
    let mut w = random_wave(GEN, rng, mode);
    for l in 0..64 {
        for r in 0..12 {
            w.vgpr[r][l] = rand16(rng);
        }
    }
    for s in 0..16 {
        w.sgpr[s] = rand16(rng);
    }
    w
}

#[test]
fn random_16_bit_blocks() {
    use Op::*;
    let ops = [
        VAddF16,
        VSubF16,
        VSubrevF16,
        VMulF16,
        VMadF16,
        VMacF16,
        VMadmkF16,
        VMadakF16,
        VMinF16,
        VMaxF16,
        VTruncF16,
        VCeilF16,
        VFloorF16,
        VRndneF16,
        VSqrtF16,
        VRcpF16,
        VFractF16,
        VAddU16,
        VSubU16,
        VSubrevU16,
        VMulLoU16,
        VLshlrevB16,
        VLshrrevB16,
        VAshrrevI16,
        VMaxU16,
        VMaxI16,
        VMinU16,
        VMinI16,
        VMadU16,
        VMadI16,
        VCvtF16U16,
        VCvtF16I16,
        VCvtU16F16,
        VCvtI16F16,
        VCvtF16F32,
        VCvtF32F16,
        VCmpLtF16,
        VCmpNltF16,
        VCmpLgF16,
        VCmpxUF16,
        VCmpGtI16,
        VCmpLeU16,
        VCmpNeI16,
    ];
    let mut rng = rng(0x16);
    let modes = [0xC0u32, 0xF0, 0x00, 0x30, 0x70, 0xB0, 0x1C0, 0xC8];
    let jits = jits();
    let mut forms = std::collections::HashSet::new();
    for case in 0..500 {
        let mut insts = Vec::new();
        while insts.len() < 8 {
            let op = ops[rng.random_range(0..ops.len())];
            let vdst = 30 + rng.random_range(0..8u8);
            let cands: Vec<_> = op_forms(GEN, &mut rng, op, vdst, &|rng, _, vgpr| {
                if !vgpr {
                    match rng.random_range(0..6) {
                        0 => return s(rng.random_range(0..16)),
                        1 => return ic(rng.random_range(-16..65)),
                        2 => return Src(rng.random_range(240..249)),
                        _ => {}
                    }
                }
                v(rng.random_range(0..12))
            })
            .into_iter()
            .filter(|i| encodable(GEN, i))
            .collect();
            if cands.is_empty() {
                continue;
            }
            let i = cands[rng.random_range(0..cands.len())];
            forms.insert((op, std::mem::discriminant(&i.enc)));
            insts.push(i);
        }
        insts.push(endpgm());
        let prog = program(GEN, &insts);
        let mode = modes[rng.random_range(0..modes.len())];
        let w = edge_wave16(&mut rng, mode);
        for (name, jit) in &jits {
            let what = format!("case {case} MODE {mode:#x} {name}: {insts:?}");
            check(jit, &prog, &w, &what);
        }
    }
    assert_compiled(&jits);
    // VOP1/VOP2/VOPC, VOP3, SDWA and DPP forms of most operations.
    assert!(forms.len() > 120, "{}", forms.len());
}

/// The 16-bit operations run inline (no interpreter helper) under MODE's default.
#[test]
fn lowered_without_helper() {
    let prog = program(
        GEN,
        &[
            vop2(Op::VAddF16, 10, v(0), 1),
            vop3(Op::VMadF16, 11, [v(0), v(1), v(2)]),
            vop2(Op::VMinF16, 12, v(0), 1),
            vop1(Op::VSqrtF16, 13, v(0)),
            vop3m(Op::VMadU16, 14, 0, [v(0), v(1), v(2)], 0, 0, true, 0),
            vop2(Op::VLshrrevB16, 15, v(1), 0),
            vop1(Op::VCvtF16F32, 16, v(0)),
            vop1(Op::VCvtF32F16, 17, v(0)),
            vopc(Op::VCmpLtF16, v(0), 1),
            endpgm(),
        ],
    );
    let jit = jit();
    let mut rng = rng(3);
    let w = edge_wave16(&mut rng, 0xC0);
    assert_inline(&jit, &prog, &w, "f16 operations");
}

/// Every f16 value through the unary operations and conversions, and against a few fixed
/// second operands, under MODEs that keep and flush f16 denormals.
#[test]
fn every_f16_value() {
    let prog = program(
        GEN,
        &[
            vop1(Op::VSqrtF16, 10, v(0)),
            vop1(Op::VRcpF16, 11, v(0)),
            vop1(Op::VFloorF16, 12, v(0)),
            vop1(Op::VRndneF16, 13, v(0)),
            vop1(Op::VFractF16, 14, v(0)),
            vop1(Op::VCvtF32F16, 15, v(0)),
            vop1(Op::VCvtI16F16, 16, v(0)),
            vop1(Op::VCvtF16I16, 17, v(0)),
            vop2(Op::VAddF16, 18, v(0), 1),
            vop2(Op::VMulF16, 19, v(0), 1),
            vop2(Op::VSubrevF16, 20, v(0), 1),
            vop2(Op::VMaxF16, 21, v(0), 1),
            vop1(Op::VCvtF16F32, 22, v(2)),
            endpgm(),
        ],
    );
    let jit = jit();
    let seconds = [0x3c00u32, 0x0001, 0x3555, 0xc200, 0x7bff, 0x8000];
    let mut rng = rng(0xf16);
    for mode in [0xF0u32, 0x30] {
        for chunk in 0..1024u32 {
            let mut w = Wave::new(GEN);
            w.mode = mode;
            for l in 0..64u32 {
                let h = chunk * 64 + l;
                w.vgpr[0][l as usize] = h;
                w.vgpr[1][l as usize] = seconds[(chunk as usize + l as usize) % seconds.len()];
                // f32 values around h's magnitude, ties included.
                let f = f32_near_f16(&mut rng);
                w.vgpr[2][l as usize] = f;
            }
            check(
                &jit,
                &prog,
                &w,
                &format!("MODE {mode:#x} f16 {:#06x}..", chunk * 64),
            );
        }
    }
}
