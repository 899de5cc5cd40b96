//! The operations of `jit/src/gcn/mixed.rs` and the integer CLAMP of add/sub: 64-bit
//! shifts, ldexp, frexp, fract, the f64 conversions — values worked out by hand, and random
//! blocks of each operation in every encoding that takes it (VOP1/VOP2/VOP3 with
//! modifiers, SDWA, DPP) from states rich in edge cases (f32 and f64 denormals, exponents
//! at the format boundaries, NaN payloads), against the interpreter, under several MODEs.

mod common;

use common::*;
use rand::rngs::StdRng;
use rand::Rng;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Enc, Inst, Op, Src};
use wavejit_isa::state::Wave;

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Case l's two inputs in lane l of v0 and v1; after `prog` on every JIT (each checked
/// against the interpreter), lane l of v2..v5 must hold case l's four results, `names`
/// naming them. The final waves, by engine.
fn two_in_four_out(
    prog: &wavejit_isa::ir::Program,
    w: &mut Wave,
    cases: &[(u32, u32, u32, u32, u32, u32)],
    names: [&str; 4],
) -> Vec<(&'static str, Box<Wave>)> {
    for (l, c) in cases.iter().enumerate() {
        w.vgpr[0][l] = c.0;
        w.vgpr[1][l] = c.1;
    }
    let mut waves = Vec::new();
    for (name, jit) in jits() {
        let out = check(&jit, prog, w, name);
        for (l, c) in cases.iter().enumerate() {
            for (i, want) in [c.2, c.3, c.4, c.5].into_iter().enumerate() {
                let what = names[i];
                assert_eq!(out.wave.vgpr[2 + i][l], want, "{name} {what} lane {l}");
            }
        }
        waves.push((name, out.wave));
    }
    waves
}

#[test]
fn shifts_64_by_hand() {
    let gen = Gen::Gfx8;
    let prog = program(
        gen,
        &[
            vop3(Op::VLshlrevB64, 4, [v(0), v(2), Src(0)]),
            vop3(Op::VLshrrevB64, 6, [v(0), v(2), Src(0)]),
            vop3(Op::VAshrrevI64, 8, [v(0), v(2), Src(0)]),
            vop3(Op::VLshrrevB64, 10, [ic(36), v(2), Src(0)]),
            endpgm(),
        ],
    );
    let mut w = Wave::new(gen);
    let x = 0x8123_4567_89ab_cdefu64;
    // (amount, left, logical right, arithmetic right); amounts are taken & 63.
    let cases = [
        (0u32, x, x, x),
        (
            4,
            0x1234_5678_9abc_def0,
            0x0812_3456_789a_bcde,
            0xf812_3456_789a_bcde,
        ),
        (63, 0x8000_0000_0000_0000, 1, u64::MAX),
        (
            64 + 8,
            0x2345_6789_abcd_ef00,
            0x0081_2345_6789_abcd,
            0xff81_2345_6789_abcd,
        ),
    ];
    for (l, c) in cases.iter().enumerate() {
        w.vgpr[0][l] = c.0;
        put64(&mut w, 2, l, x);
    }
    for (name, jit) in jits() {
        let out = check(&jit, &prog, &w, name);
        for (l, c) in cases.iter().enumerate() {
            assert_eq!(get64(&out.wave, 4, l), c.1, "{name} lshl lane {l}");
            assert_eq!(get64(&out.wave, 6, l), c.2, "{name} lshr lane {l}");
            assert_eq!(get64(&out.wave, 8, l), c.3, "{name} ashr lane {l}");
            assert_eq!(get64(&out.wave, 10, l), x >> 36, "{name} lshr 36 lane {l}");
        }
    }
}

#[test]
fn ldexp_frexp_fract_by_hand() {
    // (V_LDEXP_F32 is VOP2 on GCN 1.0/1.1, VOP3 only on 1.2.)
    let gen = Gen::Gfx7;
    let prog = program(
        gen,
        &[
            vop2(Op::VLdexpF32, 2, v(0), 1),
            vop1(Op::VFrexpExpI32F32, 3, v(0)),
            vop1(Op::VFrexpMantF32, 4, v(0)),
            vop1(Op::VFractF32, 5, v(0)),
            endpgm(),
        ],
    );
    // (x, n) → (ldexp, frexp exp, frexp mant, fract), MODE 0xF0 (denormals kept).
    let cases: [(u32, u32, u32, u32, u32, u32); 6] = [
        (f(1.5), 3, f(12.0), 1, f(0.75), f(0.5)),
        (f(-8.0), (-2i32) as u32, f(-2.0), 4, f(-0.5), f(0.0)),
        // 1.0 × 2^-149 is the smallest denormal; 2^-149 × 1.5 rounds to even (2^-148).
        (f(1.0), (-149i32) as u32, 1, 1, f(0.5), f(0.0)),
        (f(1.5), (-149i32) as u32, 2, 1, f(0.75), f(0.5)),
        // The denormal 3 × 2^-149: exponent -147 (3 × 2^-149 = 0.75 × 2^-147).
        (3, 200, f(3.0 * 2f32.powi(51)), (-147i32) as u32, f(0.75), 3),
        (
            f(-1.25),
            1 << 30,
            f(f32::NEG_INFINITY),
            1,
            f(-0.625),
            f(0.75),
        ),
    ];
    let mut w = Wave::new(gen);
    w.mode = 0xF0;
    let names = ["ldexp", "frexp_exp", "frexp_mant", "fract"];
    two_in_four_out(&prog, &mut w, &cases, names);
    // MODE 0xC0 flushes f32 denormals: ldexp(1, -149) → +0, frexp of the denormal → 0 / +0.
    w.mode = 0xC0;
    for (name, jit) in jits() {
        let out = check(&jit, &prog, &w, name);
        assert_eq!(out.wave.vgpr[2][2], 0, "{name}");
        assert_eq!(out.wave.vgpr[3][4], 0, "{name}");
        assert_eq!(out.wave.vgpr[4][4], 0, "{name}");
    }
}

#[test]
fn f64_ldexp_frexp_and_conversions_by_hand() {
    let gen = Gen::Gfx7;
    let prog = program(
        gen,
        &[
            vop3(Op::VLdexpF64, 4, [v(0), v(2), Src(0)]),
            vop1(Op::VFrexpExpI32F64, 6, v(0)),
            vop1(Op::VFrexpMantF64, 8, v(0)),
            vop1(Op::VCvtI32F64, 10, v(0)),
            vop1(Op::VCvtU32F64, 11, v(0)),
            vop1(Op::VCvtF32F64, 12, v(0)),
            vop1(Op::VCvtF64I32, 14, v(2)),
            vop1(Op::VCvtF64U32, 16, v(2)),
            vop1(Op::VCvtF64F32, 18, v(3)),
            endpgm(),
        ],
    );
    let d = |x: f64| x.to_bits();
    // MODE 0xC0: f64 denormals kept.
    struct Case {
        x: u64,
        n: u32,
        ldexp: u64,
        fexp: u32,
        fmant: u64,
        i: u32,
        u: u32,
        f: u32,
    }
    let cases = [
        Case {
            x: d(-2.5),
            n: 3,
            ldexp: d(-20.0),
            fexp: 2,
            fmant: d(-0.625),
            i: (-2i32) as u32,
            u: 0,
            f: f(-2.5),
        },
        Case {
            x: d(1e10),
            n: (-1074i32) as u32,
            // 1e10 × 2^-1074 is about 4.9e-314 = 1e10 subnormal ulps: exact.
            ldexp: 10_000_000_000,
            fexp: 34,
            fmant: d(1e10 / 17179869184.0),
            i: i32::MAX as u32,
            u: u32::MAX,
            f: f(1e10),
        },
        Case {
            // The smallest subnormal: exponent -1073, mantissa 0.5.
            x: 1,
            n: 1074 + 52,
            ldexp: d(2f64.powi(52)),
            fexp: (-1073i32) as u32,
            fmant: d(0.5),
            i: 0,
            u: 0,
            f: 0, // rounds to +0 (and is flushed) in f32
        },
        Case {
            x: d(f64::NAN),
            n: 5,
            ldexp: 0x7ff8_0000_0000_0000,
            fexp: 0,
            fmant: 0x7ff8_0000_0000_0000,
            i: 0,
            u: 0,
            f: 0x7fc0_0000,
        },
    ];
    let mut w = Wave::new(gen);
    w.mode = 0xC0;
    for (l, c) in cases.iter().enumerate() {
        put64(&mut w, 0, l, c.x);
        w.vgpr[2][l] = c.n;
        w.vgpr[3][l] = 0x8000_0001; // -2^-149: -1.4e-45 in f64 unless flushed (MODE 0xC0 flushes it)
    }
    for (name, jit) in jits() {
        let out = check(&jit, &prog, &w, name);
        for (l, c) in cases.iter().enumerate() {
            assert_eq!(get64(&out.wave, 4, l), c.ldexp, "{name} ldexp lane {l}");
            assert_eq!(out.wave.vgpr[6][l], c.fexp, "{name} frexp_exp lane {l}");
            assert_eq!(
                get64(&out.wave, 8, l),
                c.fmant,
                "{name} frexp_mant lane {l}"
            );
            assert_eq!(out.wave.vgpr[10][l], c.i, "{name} cvt_i32 lane {l}");
            assert_eq!(out.wave.vgpr[11][l], c.u, "{name} cvt_u32 lane {l}");
            assert_eq!(out.wave.vgpr[12][l], c.f, "{name} cvt_f32 lane {l}");
            let n = c.n;
            assert_eq!(
                get64(&out.wave, 14, l),
                d(n as i32 as f64),
                "{name} i32→f64 {l}"
            );
            assert_eq!(get64(&out.wave, 16, l), d(n as f64), "{name} u32→f64 {l}");
            // The f32 denormal is flushed on input: -0.0.
            assert_eq!(get64(&out.wave, 18, l), d(-0.0), "{name} f32→f64 {l}");
        }
    }
}

#[test]
fn integer_clamp_of_add_and_sub() {
    let gen = Gen::Gfx8;
    let prog = program(
        gen,
        &[
            vop3m(Op::VAddU32, 2, 20, [v(0), v(1), Src(0)], 0, 0, true, 0),
            vop3m(Op::VSubU32, 3, 22, [v(0), v(1), Src(0)], 0, 0, true, 0),
            vop3m(Op::VSubrevU32, 4, 24, [v(0), v(1), Src(0)], 0, 0, true, 0),
            vop3m(Op::VAddcU32, 5, 26, [v(0), v(1), s(20)], 0, 0, true, 0),
            endpgm(),
        ],
    );
    let mut w = Wave::new(gen);
    // (a, b) → (add, sub, subrev, addc with the add's carry)
    let cases = [
        (
            0xffff_fffeu32,
            1u32,
            0xffff_ffffu32,
            0xffff_fffdu32,
            0,
            0xffff_ffffu32,
        ),
        (0xffff_fffe, 2, 0xffff_ffff, 0xffff_fffc, 0, 0xffff_ffff),
        (1, 2, 3, 0, 1, 3),
        (5, 0xffff_fffb, 0xffff_ffff, 0, 0xffff_fff6, 0xffff_ffff),
    ];
    let names = ["add", "sub", "subrev", "addc"];
    for (name, out) in two_in_four_out(&prog, &mut w, &cases, names) {
        assert_eq!(out.sgpr[20] & 0xf, 0b1010, "{name} carries");
    }
}

// ---- random blocks ----------------------------------------------------------------------

/// f64 values at the edges: zeros, denormals, the normal boundary, large, small, specials.
const SPECIAL64: &[u64] = &[
    0,
    0x8000_0000_0000_0000,
    1,
    0x8000_0000_0000_0001,
    0x000f_ffff_ffff_ffff,
    0x0008_0000_0000_0000,
    0x0010_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff8_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0x7ff0_0000_0000_0001,
    0xfff8_1234_5678_9abc,
    0x41e0_0000_0000_0000, // 2^31
    0xc1e0_0000_0000_0000, // -2^31
    0x41ef_ffff_ffe0_0000, // 2^32 - 1
    0x41f0_0000_0000_0000, // 2^32
    0xc1e0_0000_0020_0000, // -2^31 - 1
    0x3fe0_0000_0000_0000, // 0.5
    0x3810_0000_0000_0000, // 2^-126 (f32 min normal)
    0x36a0_0000_0000_0000, // 2^-149 (f32 min denormal)
    0x3690_0000_0000_0000, // 2^-150 (half of it: rounds to even 0)
    0x3698_0000_0000_0000, // 1.5 × 2^-150
    0x47ef_ffff_e000_0000, // f32 max
    0x47ef_ffff_f000_0000, // f32 max + half ulp: overflows
];

/// Exponents of ldexp at the boundaries.
const EXPONENTS: &[i32] = &[
    0,
    1,
    -1,
    126,
    127,
    128,
    -126,
    -127,
    -149,
    -150,
    149,
    150,
    277,
    -277,
    300,
    -300,
    400,
    -400,
    401,
    -401,
    1023,
    1024,
    -1022,
    -1023,
    -1074,
    -1075,
    -1076,
    1074,
    2046,
    2047,
    -2098,
    -2200,
    2200,
    2201,
    -2201,
    5000,
    -5000,
    i32::MAX,
    i32::MIN,
];

fn rand64(rng: &mut StdRng) -> u64 {
    match rng.random_range(0..4) {
        0 | 1 => SPECIAL64[rng.random_range(0..SPECIAL64.len())],
        2 => rng.random_range(-1e6f64..1e6).to_bits(),
        _ => {
            // Any exponent, random mantissa.
            let e: u64 = rng.random_range(0..0x800);
            let m: u64 = rng.random::<u64>() & 0x000f_ffff_ffff_ffff;
            (rng.random::<u64>() & 1 << 63) | e << 52 | m
        }
    }
}

/// A wave whose registers v0-v23 hold 64-bit edge values in pairs and 32-bit edge values
/// (as `random_wave`), with ldexp exponents in v24-v27, and SGPRs s0-s15 likewise.
fn edge_wave(gen: Gen, rng: &mut StdRng, mode: u32) -> Box<Wave> {
    let mut w = random_wave(gen, rng, mode);
    for l in 0..64 {
        for r in (0..16).step_by(2) {
            if rng.random_bool(0.7) {
                put64(&mut w, r, l, rand64(rng));
            }
        }
        for r in 24..28 {
            w.vgpr[r][l] = if rng.random_bool(0.6) {
                EXPONENTS[rng.random_range(0..EXPONENTS.len())] as u32
            } else {
                rng.random_range(-1200..1200) as u32
            };
        }
    }
    for s in (0..16).step_by(2) {
        let x = rand64(rng);
        w.sgpr[s] = x as u32;
        w.sgpr[s + 1] = (x >> 32) as u32;
    }
    w.sgpr[20] = EXPONENTS[rng.random_range(0..EXPONENTS.len())] as u32;
    w
}

/// A random source (VGPR, SGPR, inline constant; `vgpr`: a VGPR only) of source `i`;
/// `exp` marks the sources that are exponents or shift amounts.
fn pick(rng: &mut StdRng, exp: bool, vgpr: bool) -> Src {
    if !vgpr {
        match rng.random_range(0..8) {
            0 => return s(if exp { 20 } else { 2 * rng.random_range(0..8) }),
            1 => return ic(rng.random_range(-16..65)),
            2 => return Src(rng.random_range(240..249)), // float inline constants
            _ => {}
        }
    }
    if exp {
        v(rng.random_range(24..28))
    } else {
        v(rng.random_range(0..12))
    }
}

fn forms(gen: Gen, rng: &mut StdRng, op: Op, exp: [bool; 2]) -> Vec<Inst> {
    let vdst = 30 + 2 * rng.random_range(0..6u8);
    op_forms(gen, rng, op, vdst, &|rng, i, vgpr| {
        pick(rng, exp[i & 1], vgpr)
    })
}

fn random_blocks(ops: &[(Op, [bool; 2])], seed: u64, cases: usize) {
    let mut rng = rng(seed);
    let modes = [0xC0u32, 0xF0, 0x00, 0x1F0, 0x30, 0x3C0, 0xC5];
    let jits = jits();
    let mut run = 0usize;
    let mut forms_seen = std::collections::HashSet::new();
    for case in 0..cases {
        let gen = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8][case % 3];
        let mut insts = Vec::new();
        while insts.len() < 8 {
            let (op, exp) = ops[rng.random_range(0..ops.len())];
            let cands: Vec<Inst> = forms(gen, &mut rng, op, exp)
                .into_iter()
                .filter(|i| encodable(gen, i))
                .collect();
            if cands.is_empty() {
                if ops.iter().all(|(o, _)| o.row(gen).is_none()) {
                    break;
                }
                continue;
            }
            let i = cands[rng.random_range(0..cands.len())];
            forms_seen.insert((op, std::mem::discriminant(&i.enc), i.enc == Enc::Vop3));
            insts.push(i);
        }
        if insts.is_empty() {
            continue;
        }
        insts.push(endpgm());
        let prog = program(gen, &insts);
        let mode = modes[rng.random_range(0..modes.len())];
        let w = edge_wave(gen, &mut rng, mode);
        for (name, jit) in &jits {
            let what = format!("case {case} {gen} MODE {mode:#x} {name}: {insts:?}");
            check(jit, &prog, &w, &what);
        }
        run += 1;
    }
    assert_compiled(&jits);
    assert!(run > cases / 2, "{run}");
    eprintln!("{run} blocks, {} (op, encoding) forms", forms_seen.len());
}

/// One test per family: random blocks of its operations (`OP @ N`: source N draws
/// exponent-edge values, the rest any values), from seed `SEED`, `CASES` blocks.
macro_rules! random_tests {
    ($($name:ident($seed:literal, $cases:literal): $($op:ident $(@ $src:literal)?),+;)+) => {$(
        #[test]
        fn $name() {
            random_blocks(&[$((Op::$op, exp_sources(&[$($src)?]))),+], $seed, $cases);
        }
    )+};
}

/// The exponent flags of sources 0 and 1 from the sources listed.
fn exp_sources(srcs: &[usize]) -> [bool; 2] {
    [srcs.contains(&0), srcs.contains(&1)]
}

random_tests! {
    random_64_bit_shifts(0x64, 240): VLshlrevB64 @ 0, VLshrrevB64 @ 0, VAshrrevI64 @ 0, VLshlB64 @ 1, VLshrB64 @ 1, VAshrI64 @ 1;
    random_ldexp_frexp_fract(0x1dec, 300): VLdexpF32 @ 1, VLdexpF64 @ 1, VFrexpExpI32F32, VFrexpExpI32F64, VFrexpMantF32, VFrexpMantF64, VFractF32, VFractF64;
    random_f64_conversions(0xc0f, 240): VCvtF64F32, VCvtF32F64, VCvtF64I32, VCvtF64U32, VCvtI32F64, VCvtU32F64, VCvtF32I32, VCvtF32U32, VCvtF32Ubyte2;
    random_add_sub_with_clamp(0xadd, 240): VAddU32, VSubU32, VSubrevU32, VAddI32, VSubI32, VSubrevI32, VMulLoU32, VXorB32;
}

/// Many lanes of ldexp at the format boundaries (one compiled block, many states).
#[test]
fn ldexp_boundaries_many_states() {
    let mut rng = rng(0x1d);
    for gen in [Gen::Gfx7, Gen::Gfx8] {
        let mut insts = Vec::new();
        for k in 0..6u8 {
            let exp = v(24 + k % 4);
            insts.push(vop3(Op::VLdexpF64, 30 + 2 * k, [v(2 * k), exp, Src(0)]));
            insts.push(vop3(Op::VLdexpF32, 50 + k, [v(2 * k + 1), exp, Src(0)]));
        }
        insts.push(endpgm());
        let prog = program(gen, &insts);
        let jit = jit();
        for i in 0..150 {
            let mode = [0xC0, 0xF0, 0x00, 0x30][i % 4];
            let w = edge_wave(gen, &mut rng, mode);
            check(&jit, &prog, &w, &format!("{gen} state {i} MODE {mode:#x}"));
        }
    }
}

/// The operations of this file run inline: no interpreter helper.
#[test]
fn lowered_without_helper() {
    let ops = [
        Op::VLshlrevB64,
        Op::VAshrI64,
        Op::VLdexpF32,
        Op::VLdexpF64,
        Op::VFrexpExpI32F32,
        Op::VFrexpExpI32F64,
        Op::VFrexpMantF32,
        Op::VFrexpMantF64,
        Op::VFractF32,
        Op::VFractF64,
        Op::VCvtF64F32,
        Op::VCvtF32F64,
        Op::VCvtF64I32,
        Op::VCvtF64U32,
        Op::VCvtI32F64,
        Op::VCvtU32F64,
    ];
    let mut rng = rng(5);
    let mut checked = 0;
    for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
        for op in ops {
            let srcs = match op {
                Op::VLshlrevB64 => [v(24), v(0), Src(0)],
                Op::VAshrI64 | Op::VLdexpF32 | Op::VLdexpF64 => [v(0), v(24), Src(0)],
                _ => [v(0), Src(0), Src(0)],
            };
            let i = vop3m(op, 30, 0, srcs, 1, 2, true, 0);
            let i = if encodable(gen, &i) {
                i
            } else {
                vop3(op, 30, srcs)
            };
            if !encodable(gen, &i) {
                continue;
            }
            let prog = program(gen, &[i, endpgm()]);
            let jit = jit();
            let w = edge_wave(gen, &mut rng, 0xC0);
            assert_inline(&jit, &prog, &w, &format!("{gen} {op:?}"));
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked}");
}
