//! The f32 multiply-add's denormal-free copy (`gcn::denorm`): `v_mac_f32` and `v_mad_f32`
//! with a uniform multiplicand under every MODE of f32 denormals, against an independent
//! formula (host f32 arithmetic with MODE's flushes written out: each input, the rounded
//! product, the sum) and the interpreter, on both JIT tiers. The lanes put a value on
//! each side of the wave-wide test's bounds — an exponent field of 24 in the VGPR
//! operands, |u| = 1 in the uniform one — with results that are denormal (flushed) only
//! when an operand is on the wrong side, so a test that let such a wave through would
//! give an unflushed result.

mod common;

use common::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Inst, Op};
use wavejit_isa::state::Wave;
use wavejit_jit::{Jit, JitConfig};

/// MODE values: f32 inputs and outputs flushed (0xC0), inputs kept (0xD0), outputs kept
/// (0xE0), both kept (0xF0); f64/f16 denormals kept in all.
const MODES: [u32; 4] = [0xC0, 0xD0, 0xE0, 0xF0];

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// 2^e as f32 bits (normal range).
fn pow2(e: i32) -> u32 {
    ((e + 127) as u32) << 23
}

/// `x` with a denormal flushed to its signed zero.
fn fz(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

/// `u × b + c` rounded twice, MODE's flushes (inputs `fi`, outputs `fo`), NaN canonical.
fn mad(u: u32, b: u32, c: u32, mode: u32) -> u32 {
    let (fi, fo) = (mode & 0x10 == 0, mode & 0x20 == 0);
    let inp = |x: u32| if fi { fz(x) } else { x };
    let out = |x: u32| if fo { fz(x) } else { x };
    let p = f32::from_bits(inp(u)) * f32::from_bits(inp(b));
    let p = inp(out(p.to_bits()));
    let r = f32::from_bits(p) + f32::from_bits(inp(c));
    if r.is_nan() {
        0x7fc0_0000
    } else {
        out(r.to_bits())
    }
}

/// (b, c) per lane for the uniform `u`: ordinary values, zeros, infinities, NaN, and the
/// bounds' edge cases; lanes past the list repeat ordinary values.
fn lanes(u: u32) -> Vec<(u32, u32)> {
    let mut l = vec![
        (f(1.5), f(-2.25)),
        (f(0.0), f(3.0)),
        (0x8000_0000, 0x8000_0000),
        (0x7f80_0000, f(1.0)),
        (0x7fc0_1234, f(2.0)),
        (f(1e30), f(-1e30)),
        (f(-7.0), 0),
    ];
    if u == f(1.0) {
        // b = 2^-104 (exponent field 23): the product 2^-104 plus -(2^-104 + 2^-127) is
        // -2^-127, denormal: flushed when outputs are.
        l.push((pow2(-104), 0x8000_0000 | (pow2(-104) + 1)));
        // b = 2^-103 (exponent field 24): the sum is -2^-126, the smallest normal.
        l.push((pow2(-103), 0x8000_0000 | (pow2(-103) + 1)));
    }
    if u == pow2(-30) {
        // |u| < 1: 2^-30 × 2^-100 = 2^-130, a denormal product, flushed when outputs are.
        l.push((pow2(-100), 0));
    }
    if u == 1 {
        // A denormal u: 2^-149 × 2^100 is 2^-49 when kept, 0 when inputs are flushed.
        l.push((pow2(100), 0));
    }
    let mut k = 0u32;
    while l.len() < 64 {
        k += 1;
        l.push((f(k as f32 * 0.375), f(100.0 - k as f32)));
    }
    l
}

/// Run `insts` (reading b in v0, c in v1, u in s2, result in v1 or v2) and check `v{dst}`
/// lane by lane against `want`, every MODE, both tiers.
fn run(insts: &[Inst], u: u32, dst: usize, exec: u64, extra: &[(usize, u32)], what: &str) {
    let prog = program(Gen::Gfx8, insts);
    let ops = lanes(u);
    for mode in MODES {
        let mut w = Wave::new(Gen::Gfx8);
        for (l, &(b, c)) in ops.iter().enumerate() {
            w.vgpr[0][l] = b;
            w.vgpr[1][l] = c;
        }
        for &(l, x) in extra {
            w.vgpr[0][l] = x;
        }
        w.sgpr[2] = u;
        w.mode = mode;
        w.exec = exec;
        let jits = jits();
        for (name, jit) in &jits {
            let what = format!("{what} u {u:#x} MODE {mode:#x} {name}");
            let out = check(jit, &prog, &w, &what);
            for (l, &(_, c)) in ops.iter().enumerate() {
                let want = if exec >> l & 1 == 0 {
                    w.vgpr[dst][l]
                } else {
                    mad(u, w.vgpr[0][l], c, mode)
                };
                assert_eq!(out.wave.vgpr[dst][l], want, "{what} lane {l}");
            }
            assert_inline(jit, &prog, &w, &what);
        }
        assert_compiled(&jits);
    }
}

/// Uniform multiplicands: 1.75 (saxpy's), 1 (the bound), -2^100, ±0, infinity, NaN
/// (all pass the uniform test), 2^-30 and a denormal (fail it).
const UNIFORMS: [u32; 9] = [
    0x3fe0_0000,
    0x3f80_0000,
    0xf180_0000,
    0,
    0x8000_0000,
    0x7f80_0000,
    0x7fc0_0000,
    0x3080_0000,
    1,
];

#[test]
fn mac_with_an_sgpr_by_formula() {
    let mac = [vop2(Op::VMacF32, 1, s(2), 0), endpgm()];
    for u in UNIFORMS {
        run(&mac, u, 1, u64::MAX, &[], "v_mac_f32");
    }
}

#[test]
fn mad_with_an_sgpr_by_formula() {
    let mad = [vop3(Op::VMadF32, 2, [s(2), v(0), v(1)]), endpgm()];
    for u in UNIFORMS {
        run(&mad, u, 2, u64::MAX, &[], "v_mad_f32");
    }
}

#[test]
fn a_denormal_lane_takes_the_flushing_copy() {
    let mac = [vop2(Op::VMacF32, 1, s(2), 0), endpgm()];
    // A denormal b in lane 40 (flushed to 0 when inputs are) and an exponent field of 23
    // in lane 41: both fail the lane test.
    let extra = [(40, 0x0000_0400), (41, pow2(-104) | 0x8000_0000)];
    run(&mac, 0x3fe0_0000, 1, u64::MAX, &extra, "denormal lane");
    // The same lanes inactive: the test still sees them (the result is the same).
    let exec = !(3u64 << 40);
    run(&mac, 0x3fe0_0000, 1, exec, &extra, "denormal lane inactive");
    run(
        &mac,
        0x3fe0_0000,
        1,
        0x0000_ffff_0000_ffff,
        &[],
        "partial EXEC",
    );
}

#[test]
fn constant_multiplicands_by_formula() {
    // Inline 2.0 (passes the uniform test), 0.5 (fails: no test is emitted).
    for (k, u) in [(244u16, f(2.0)), (240, f(0.5))] {
        let mac = [vop2(Op::VMacF32, 1, s(k), 0), endpgm()];
        run(&mac, u, 1, u64::MAX, &[], "v_mac_f32 constant");
    }
}

/// A random f32 near the bounds: exponent fields 0-2 (zero and denormals), 22-26 (the lane
/// bound), 125-129 (|u| = 1), any, or the top (infinities, NaNs); mantissas at their ends
/// or random; either sign.
fn near_bound(rng: &mut StdRng) -> u32 {
    let e: u32 = match rng.random_range(0..5) {
        0 => rng.random_range(0..3),
        1 => rng.random_range(22..27),
        2 => rng.random_range(125..130),
        3 => rng.random_range(0..256),
        _ => 255,
    };
    let m: u32 = match rng.random_range(0..4) {
        0 => 0,
        1 => 1,
        2 => 0x7f_ffff,
        _ => rng.random_range(0..0x80_0000),
    };
    (rng.random::<u32>() & 0x8000_0000) | e << 23 | m
}

/// A lane value the wave-wide test lets through: ±0, an exponent field of 24 or more.
fn passing(rng: &mut StdRng) -> u32 {
    loop {
        let x = near_bound(rng);
        if x & 0x7fff_ffff == 0 || x >> 23 & 0xff >= 24 {
            return x;
        }
    }
}

/// Random waves around the bounds against the interpreter, in every f32 rounding mode and
/// denormal setting, with NEG/ABS on `v_mad_f32`'s sources. A wave has only lanes the test
/// passes (the copy without flushes runs), or those and one to three edge lanes (an
/// exponent field of 23, or a denormal: the test must fail), or lanes near the bounds at
/// random; half the addends cancel the product to within a few units, so that sums land
/// near 2^-126, denormal for an edge lane.
#[test]
fn random_operands_near_the_bounds_match_the_interpreter() {
    let mut rng = StdRng::seed_from_u64(0x5eed_de70);
    let jit = up(Jit::new(JitConfig {
        hot_threshold: 0,
        ..JitConfig::default()
    }));
    for round in 0..240 {
        let mac = round % 2 == 0;
        let (abs, neg) = (rng.random_range(0..8u8), rng.random_range(0..8u8));
        let prog = program(
            Gen::Gfx8,
            &[
                if mac {
                    vop2(Op::VMacF32, 1, s(2), 0)
                } else {
                    vop3m(Op::VMadF32, 2, 0, [s(2), v(0), v(1)], abs, neg, false, 0)
                },
                endpgm(),
            ],
        );
        let mut w = Wave::new(Gen::Gfx8);
        let kind = round / 2 % 3;
        // Edge waves (kind 1) mostly flush outputs and round to nearest, where an edge
        // lane's cancelling sum is denormal and flushed.
        let (den, rnd) = match kind {
            1 if rng.random_range(0..4) != 0 => (rng.random_range(0..2u32), 0),
            _ => (rng.random_range(0..4u32), rng.random_range(0..4u32)),
        };
        w.mode = 0xC0 | den << 4 | rnd;
        w.exec = if rng.random() { u64::MAX } else { rng.random() };
        w.sgpr[2] = if kind == 1 {
            // 1 <= |u| < 2: an edge lane's product can stay below 2^-103, where its
            // units are 2^-127 and a cancelling sum is denormal; 1/2 <= |u| < 1 (one wave
            // in four, failing the uniform test) does that with lanes that pass.
            let e = if rng.random_range(0..4) == 0 {
                126
            } else {
                127
            };
            (rng.random::<u32>() & 0x8000_0000) | e << 23 | rng.random_range(0..0x80_0000)
        } else if rng.random_range(0..4) == 0 {
            near_bound(&mut rng)
        } else {
            // ±0 or |u| >= 1: the uniform test passes.
            loop {
                let x = near_bound(&mut rng);
                if x & 0x7fff_ffff == 0 || x >> 23 & 0xff >= 127 {
                    break x;
                }
            }
        };
        let u_small = kind == 1 && w.sgpr[2] >> 23 & 0xff == 126;
        let edges: Vec<usize> = (0..rng.random_range(1..4))
            .map(|_| rng.random_range(0..64))
            .collect();
        for l in 0..64 {
            w.vgpr[2][l] = 0xdead_0000 | l as u32;
            if u_small && rng.random() {
                // b near 2^-103 / |u| (an exponent field of 24) and c = ∓2^-103: lanes
                // the test passes whose product is within a unit (2^-127) of -c, so that
                // the sum is 0 or ±2^-127, denormal.
                let q = f32::from_bits(pow2(-103)) / f32::from_bits(w.sgpr[2] & 0x7fff_ffff);
                let b = q
                    .to_bits()
                    .wrapping_add(rng.random_range(0..3))
                    .wrapping_sub(1)
                    | rng.random::<u32>() & 0x8000_0000;
                let p = (f32::from_bits(w.sgpr[2]) * f32::from_bits(b)).to_bits();
                w.vgpr[0][l] = b;
                w.vgpr[1][l] = pow2(-103) | !p & 0x8000_0000;
                continue;
            }
            let b = match kind {
                0 => passing(&mut rng),
                1 if edges.contains(&l) => {
                    let e = if rng.random() { 23 } else { 0 };
                    (rng.random::<u32>() & 0x8000_0000) | e << 23 | rng.random_range(1..0x80_0000)
                }
                1 => passing(&mut rng),
                _ => near_bound(&mut rng),
            };
            let p = (f32::from_bits(w.sgpr[2]) * f32::from_bits(b)).to_bits();
            // An addend that cancels the product to within a few units (for the lanes that
            // must pass, only one that passes: near a zero or NaN product it need not).
            let near = (p ^ 0x8000_0000)
                .wrapping_add(rng.random_range(0..5))
                .wrapping_sub(2);
            let c = if kind == 1 && edges.contains(&l) {
                // One unit of the product off its negation: a sum of ±1 unit.
                if rng.random() {
                    (p ^ 0x8000_0000).wrapping_add(1)
                } else {
                    (p ^ 0x8000_0000).wrapping_sub(1)
                }
            } else if rng.random()
                && (kind == 2 || near & 0x7fff_ffff == 0 || near >> 23 & 0xff >= 24)
            {
                near
            } else if kind == 2 {
                near_bound(&mut rng)
            } else {
                passing(&mut rng)
            };
            w.vgpr[0][l] = b;
            w.vgpr[1][l] = c;
        }
        let what = format!(
            "round {round} mac {mac} abs {abs} neg {neg} MODE {:#x} u {:#x}",
            w.mode, w.sgpr[2]
        );
        check(&jit, &prog, &w, &what);
    }
    assert_compiled(&[("chunk-major", jit)]);
}
