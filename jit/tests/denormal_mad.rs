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
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Inst, Op};
use wavejit_isa::state::Wave;

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
            w.vgpr[2][l] = 0xdead_0000 | l as u32;
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
