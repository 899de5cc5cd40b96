//! Class compares, packing conversions, the byte permute, masked and quad SADs and the
//! 64-bit multiply-add lowered inline (`jit/src/gcn/{xop,class,pack,bytes}.rs`): values
//! worked out by hand from the manuals' definitions, random blocks in every encoding
//! against the interpreter (states with NaN payloads, denormals, random EXEC, several
//! MODEs), and no interpreter helper for them.

mod common;

use common::*;
use rand::rngs::StdRng;
use rand::Rng;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::Vop3Fields;
use wavejit_isa::gcn::{Enc, Inst, Op, Src};
use wavejit_isa::state::{Lds, Wave};

const OPS: &[Op] = &[
    Op::VCmpClassF32,
    Op::VCmpxClassF32,
    Op::VCmpClassF64,
    Op::VCmpxClassF64,
    Op::VCmpClassF16,
    Op::VCmpxClassF16,
    Op::VMadU64U32,
    Op::VMadI64I32,
    Op::VCvtPkU16U32,
    Op::VCvtPkI16I32,
    Op::VCvtPknormI16F32,
    Op::VCvtPknormU16F32,
    Op::VCvtPkrtzF16F32,
    Op::VCvtPkU8F32,
    Op::VCvtPkaccumU8F32,
    Op::VPermB32,
    Op::VMsadU8,
    Op::VQsadPkU16U8,
    Op::VMqsadPkU16U8,
    Op::VQsadU8,
    Op::VMqsadU8,
    Op::VMinLegacyF32,
    Op::VMaxLegacyF32,
    Op::VMadLegacyF32,
    Op::VMacLegacyF32,
    Op::VCvtFlrI32F32,
    Op::VCvtRpiI32F32,
    Op::VCvtOffF32I4,
    Op::VRcpClampF32,
    Op::VRcpLegacyF32,
    Op::VRcpClampF64,
    Op::VFmaF16,
    Op::VLdexpF16,
    Op::VFrexpMantF16,
    Op::VFrexpExpI16F16,
    Op::VMqsadU32U8,
];

fn wave_with(gen: Gen, mode: u32) -> Box<Wave> {
    let mut w = Wave::new(gen);
    w.exec = u64::MAX;
    w.mode = mode;
    w
}

/// One value per class, in class order (0 sNaN … 9 +inf), as f32, f64 and f16 bits.
const CLASS32: [u32; 10] = [
    0x7f80_0001,
    0x7fc0_0000,
    0xff80_0000,
    0xbf80_0000,
    0x8000_0001,
    0x8000_0000,
    0,
    1,
    0x3f80_0000,
    0x7f80_0000,
];
const CLASS64: [u64; 10] = [
    0x7ff0_0000_0000_0001,
    0x7ff8_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x8000_0000_0000_0001,
    0x8000_0000_0000_0000,
    0,
    1,
    0x3ff0_0000_0000_0000,
    0x7ff0_0000_0000_0000,
];
const CLASS16: [u32; 10] = [
    0x7c01, 0x7e00, 0xfc00, 0xbc00, 0x8001, 0x8000, 0, 1, 0x3c00, 0x7c00,
];

#[test]
fn class_by_hand() {
    for gen in [Gen::Gfx6, Gen::Gfx8] {
        let mut insts = vec![
            // VCC: lanes 0-9 (own class in the mask); s[2:3]: none (every other class).
            vopc(Op::VCmpClassF32, v(0), 1),
            vop3(Op::VCmpClassF32, 2, [v(0), v(2), Src(0)]),
            vop3(Op::VCmpClassF64, 4, [v(10), v(1), Src(0)]),
            vop3(Op::VCmpClassF64, 6, [v(10), v(2), Src(0)]),
        ];
        if gen == Gen::Gfx8 {
            insts.push(vop3(Op::VCmpClassF16, 8, [v(12), v(1), Src(0)]));
            insts.push(vop3(Op::VCmpClassF16, 10, [v(12), v(2), Src(0)]));
        }
        insts.push(vopc(Op::VCmpxClassF32, v(0), 1));
        insts.push(endpgm());
        let prog = program(gen, &insts);
        // Denormals are classified as such whatever MODE flushes.
        for mode in [0x00, 0xF0] {
            let mut w = wave_with(gen, mode);
            for l in 0..64 {
                let c = l % 10;
                // Lanes 10-63: class c, but the mask of lanes 20+ is 0.
                w.vgpr[0][l] = CLASS32[c];
                w.vgpr[1][l] = if l < 20 { 1 << c } else { 0 };
                w.vgpr[2][l] = 0x3ff ^ (1 << c);
                w.vgpr[10][l] = CLASS64[c] as u32;
                w.vgpr[11][l] = (CLASS64[c] >> 32) as u32;
                // The high half of an f16 operand is ignored.
                w.vgpr[12][l] = 0xdead_0000 | CLASS16[c];
            }
            let out = check(&jit(), &prog, &w, &format!("{gen} {mode:#x}"));
            let x = &out.wave;
            let want = (1u64 << 20) - 1;
            assert_eq!(x.exec, want);
            assert_eq!(x.vcc, want);
            let pair = |s: usize| x.sgpr[s] as u64 | (x.sgpr[s + 1] as u64) << 32;
            assert_eq!((pair(2), pair(4), pair(6)), (0, want, 0), "{gen}");
            if gen == Gen::Gfx8 {
                assert_eq!((pair(8), pair(10)), (want, 0));
            }
        }
    }
}

#[test]
fn multiply_add_64_by_hand() {
    let gen = Gen::Gfx7;
    let prog = program(
        gen,
        &[
            vop3m(Op::VMadU64U32, 10, 20, [v(0), v(1), v(2)], 0, 0, false, 0),
            vop3m(Op::VMadI64I32, 12, 22, [v(0), v(1), v(2)], 0, 0, false, 0),
            endpgm(),
        ],
    );
    let mut w = wave_with(gen, 0xF0);
    // (a, b, c) per lane; the expected results are worked out in the comments.
    let cases: [(u32, u32, u64); 4] = [
        // u: 0xfffffffe_00000001 + 0xffffffff_ffffffff = 0x1_fffffffe_00000000 (carry).
        // i: (-1)(-1) + (-1) = 0 (exact 0: no carry).
        (u32::MAX, u32::MAX, u64::MAX),
        // u: 6 + 10 = 16. i: 6 + 10 = 16.
        (2, 3, 10),
        // u: 2^62 + 2^63 - 1 (no carry). i: (-2^31)^2 + (2^63 - 1) = 2^62 + 2^63 - 1:
        // positive, wraps in 64 bits, bit 64 of the exact value is 0.
        (0x8000_0000, 0x8000_0000, 0x7fff_ffff_ffff_ffff),
        // u: 6 + (2^64 - 10) = 2^64 - 4 (no carry). i: 6 - 10 = -4 (carry: the sign).
        (2, 3, (-10i64) as u64),
    ];
    for l in 0..64 {
        let (a, b, c) = cases[l % 4];
        w.vgpr[0][l] = a;
        w.vgpr[1][l] = b;
        w.vgpr[2][l] = c as u32;
        w.vgpr[3][l] = (c >> 32) as u32;
    }
    let out = check(&jit(), &prog, &w, "mad64");
    let x = &out.wave;
    let d = |r: usize, l: usize| x.vgpr[r][l] as u64 | (x.vgpr[r + 1][l] as u64) << 32;
    assert_eq!(d(10, 0), 0xffff_fffe_0000_0000);
    assert_eq!(d(10, 1), 16);
    assert_eq!(d(10, 2), 0xbfff_ffff_ffff_ffff);
    assert_eq!(d(10, 3), (-4i64) as u64);
    assert_eq!((d(12, 0), d(12, 1)), (0, 16));
    assert_eq!(d(12, 2), 0xbfff_ffff_ffff_ffff);
    assert_eq!(d(12, 3), (-4i64) as u64);
    let carry = |s: usize| x.sgpr[s] as u64 | (x.sgpr[s + 1] as u64) << 32;
    // Lanes ≡ 0 (mod 4) carry for u64; lanes ≡ 3 for i64.
    let m = |k: &[usize]| {
        (0..64)
            .filter(|l| k.contains(&(l % 4)))
            .fold(0u64, |a, l| a | 1 << l)
    };
    assert_eq!(carry(20), m(&[0]));
    assert_eq!(carry(22), m(&[3]));
}

/// Run one two-source (or three-source) VOP3 operation over per-lane inputs; lane `l`'s
/// result in v10.
fn run3(gen: Gen, op: Op, mode: u32, ins: &[[u32; 3]]) -> Vec<u32> {
    let three = matches!(
        op,
        Op::VCvtPkU8F32 | Op::VPermB32 | Op::VMsadU8 | Op::VMadLegacyF32 | Op::VFmaF16
    );
    let one = matches!(
        op,
        Op::VCvtFlrI32F32
            | Op::VCvtRpiI32F32
            | Op::VCvtOffF32I4
            | Op::VRcpClampF32
            | Op::VRcpLegacyF32
            | Op::VFrexpMantF16
            | Op::VFrexpExpI16F16
    );
    let inst = if one {
        vop1(op, 10, v(0))
    } else {
        let src2 = if three { v(2) } else { Src(0) };
        vop3(op, 10, [v(0), v(1), src2])
    };
    let prog = program(gen, &[inst, endpgm()]);
    let mut w = wave_with(gen, mode);
    for l in 0..64 {
        let x = ins[l % ins.len()];
        for (r, &val) in x.iter().enumerate() {
            w.vgpr[r][l] = val;
        }
        w.vgpr[10][l] = x[2];
    }
    let out = check(&jit(), &prog, &w, &format!("{op:?}"));
    (0..ins.len()).map(|l| out.wave.vgpr[10][l]).collect()
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn packing_by_hand() {
    let gen = Gen::Gfx8;
    assert_eq!(
        run3(
            gen,
            Op::VCvtPkU16U32,
            0xF0,
            &[[70000, 5, 0], [0xffff, 0x1_0000, 0]]
        ),
        [0x0005_ffff, 0xffff_ffff]
    );
    assert_eq!(
        run3(
            gen,
            Op::VCvtPkI16I32,
            0xF0,
            &[[70000, (-70000i32) as u32, 0], [(-5i32) as u32, 3, 0]]
        ),
        [0x8000_7fff, 0x0003_fffb]
    );
    // 1.0 → 32767; -0.5 × 32767 = -16383.5 → -16384 (even) = 0xc000; NaN → 0; -inf → -32767.
    assert_eq!(
        run3(
            gen,
            Op::VCvtPknormI16F32,
            0xF0,
            &[[f(1.0), f(-0.5), 0], [0x7fc0_0001, 0xff80_0000, 0]]
        ),
        [0xc000_7fff, 0x8001_0000]
    );
    // 0.5 × 65535 = 32767.5 → 32768 (even); 2.0 → 65535; -1 → 0.
    assert_eq!(
        run3(
            gen,
            Op::VCvtPknormU16F32,
            0xF0,
            &[[f(0.5), f(2.0), 0], [f(-1.0), f(0.25), 0]]
        ),
        // 0.25 × 65535 = 16383.75 → 16384.
        [0xffff_8000, 0x4000_0000]
    );
    // Toward zero: 65520 → 65504 (0x7bff, not inf); 1 + 2^-10 + 2^-11 → 1 + 2^-10 (0x3c01);
    // -inf stays; NaN → 0x7e00; 2^-20 → the f16 denormal 16 (0x10), or 0 when MODE
    // flushes f16 results.
    let rtz = [
        [f(1.0), f(65520.0), 0],
        [f(1.001_464_8), 0xff80_0000, 0],
        [0x7f80_0001, f(-65536.0), 0],
        [f(2f32.powi(-20)), f(-2f32.powi(-24) * 3.5), 0],
    ];
    assert_eq!(
        run3(gen, Op::VCvtPkrtzF16F32, 0xF0, &rtz),
        [0x7bff_3c00, 0xfc00_3c01, 0xfbff_7e00, 0x8003_0010]
    );
    assert_eq!(run3(gen, Op::VCvtPkrtzF16F32, 0x70, &rtz)[3], 0x8000_0000);
    // 127.5 → 128 (even) into byte 1; 257 → 255 into byte 3; -3 → 0 into byte 0; NaN → 0.
    assert_eq!(
        run3(
            gen,
            Op::VCvtPkU8F32,
            0xF0,
            &[
                [f(127.5), 1, 0x1122_3344],
                [f(257.0), 7, 0x1122_3344],
                [f(-3.0), 4, 0x1122_3344],
                [0x7fc0_0000, 2, 0x1122_3344]
            ]
        ),
        [0x1122_8044, 0xff22_3344, 0x1122_3300, 0x1100_3344]
    );
}

#[test]
fn bytes_by_hand() {
    let gen = Gen::Gfx8;
    // q = S0:S1 = 0x8899aabb_44556677, bytes from the low end 77 66 55 44 bb aa 99 88.
    let (a, b) = (0x8899_aabb, 0x4455_6677);
    assert_eq!(
        run3(
            gen,
            Op::VPermB32,
            0xF0,
            &[
                [a, b, 0x0700_0104],
                [a, b, 0x0c0d_0b08],
                [a, b, 0x0a09_ff0e]
            ]
        ),
        // 0x04 → bb, 0x01 → 66, 0x00 → 77, 0x07 → 88;
        // 8 → sign of 0x6677 (0), 0x0b → sign of 0x8899 (ff), 0x0d → ff, 0x0c → 0;
        // 0x0e, 0xff → ff, 9 → sign of 0x4455 (0), 0x0a → sign of 0xaabb (ff).
        [0x8877_66bb, 0x00ff_ff00, 0xff00_ffff]
    );
    // Bytes of S1 0x50, 0x30, 0x20, 0x00: 16 + 0 + 0 (+ skipped) = 16.
    assert_eq!(
        run3(gen, Op::VMsadU8, 0xF0, &[[0x1020_3040, 0x0020_3050, 100]]),
        [116]
    );
    // Quad SADs: S0 = 0x08070605_04030201, S1 = 0x04030201: the dwords at bytes 0-3 of S0
    // differ from S1 by 0, 1, 2, 3 per byte: SADs 0, 4, 8, 12, added to the halves of S2
    // (in lane 1, 0xfffe + 4 wraps to 2 without carrying into the next half).
    let prog = program(
        gen,
        &[
            vop3(Op::VQsadPkU16U8, 10, [v(0), v(2), v(4)]),
            vop3(Op::VMqsadPkU16U8, 12, [v(0), v(3), v(4)]),
            endpgm(),
        ],
    );
    let mut w = wave_with(gen, 0xF0);
    for l in 0..64 {
        w.vgpr[0][l] = 0x0403_0201;
        w.vgpr[1][l] = 0x0807_0605;
        w.vgpr[2][l] = 0x0403_0201;
        // Byte 1 zero: skipped by the masked SAD.
        w.vgpr[3][l] = 0x0403_0001;
        w.vgpr[4][l] = if l == 0 { 0x0002_0001 } else { 0xfffe_0001 };
        w.vgpr[5][l] = 0x0004_0003;
    }
    let out = check(&jit(), &prog, &w, "qsad");
    let x = &out.wave;
    let d = |r: usize, l: usize| x.vgpr[r][l] as u64 | (x.vgpr[r + 1][l] as u64) << 32;
    assert_eq!(d(10, 0), 0x0010_000b_0006_0001);
    assert_eq!(d(10, 1), 0x0010_000b_0002_0001);
    // Masked: n=0: 0; n=1: |2-1| + |4-3| + |5-4| = 3; n=2: 6; n=3: 9.
    assert_eq!(d(12, 0), 0x000d_0009_0005_0001);

    // V_MQSAD_U32_U8: the same four masked SADs added to whole dwords of a VGPR quad
    // (0xffffffff + 9 wraps to 8) or an SGPR quad; EXEC 0 lanes keep their values.
    let prog = program(
        gen,
        &[
            vop3(Op::VMqsadU32U8, 20, [v(0), v(3), v(4)]),
            vop3(Op::VMqsadU32U8, 24, [v(0), v(3), s(8)]),
            endpgm(),
        ],
    );
    let mut w = wave_with(gen, 0xF0);
    w.exec = 0x5555_5555_5555_5555;
    for l in 0..64 {
        w.vgpr[0][l] = 0x0403_0201;
        w.vgpr[1][l] = 0x0807_0605;
        w.vgpr[3][l] = 0x0403_0001;
        for (i, x) in [1, 2, 3, u32::MAX].into_iter().enumerate() {
            w.vgpr[4 + i][l] = x;
        }
    }
    w.sgpr[8..12].copy_from_slice(&[10, 20, 30, 40]);
    let jit = jit();
    let out = check(&jit, &prog, &w, "mqsad_u32");
    let x = &out.wave;
    let q = |r: usize, l: usize| [0, 1, 2, 3].map(|i| x.vgpr[r + i][l]);
    assert_eq!(q(20, 0), [1, 5, 9, 8]);
    assert_eq!(q(24, 2), [10, 23, 36, 49]);
    assert_eq!(q(20, 1), [0, 0, 0, 0]);
    assert_inline(&jit, &prog, &w, "mqsad_u32");
}

#[test]
fn legacy_and_floor_by_hand() {
    let gen = Gen::Gfx7;
    let nan = 0x7fc0_0001;
    // S0 < S1 ? S0 : S1: a NaN on either side gives S1 (canonical when it is the NaN);
    // -0 < +0 is false.
    assert_eq!(
        run3(
            gen,
            Op::VMinLegacyF32,
            0xF0,
            &[
                [f(1.0), f(2.0), 0],
                [nan, f(2.0), 0],
                [f(2.0), nan, 0],
                [f(-0.0), 0, 0]
            ]
        ),
        [f(1.0), f(2.0), 0x7fc0_0000, 0]
    );
    assert_eq!(
        run3(
            gen,
            Op::VMaxLegacyF32,
            0xF0,
            &[[f(1.0), f(2.0), 0], [f(3.0), nan, 0]]
        ),
        [f(2.0), 0x7fc0_0000]
    );
    // ±0 × anything (inf, NaN) is +0 before the add; -0 × 5 + -0 = +0 + -0 = +0.
    assert_eq!(
        run3(
            gen,
            Op::VMadLegacyF32,
            0xF0,
            &[
                [0, 0x7f80_0000, f(1.0)],
                [f(2.0), f(3.0), f(1.0)],
                [f(-0.0), f(5.0), f(-0.0)],
                [nan, 0, f(3.0)]
            ]
        ),
        [f(1.0), f(7.0), 0, f(3.0)]
    );
    // floor: -1.5 → -2, 2.5 → 2, a negative NaN → i32::MIN, a positive one → i32::MAX,
    // 3e9 → i32::MAX, -inf → i32::MIN.
    assert_eq!(
        run3(
            gen,
            Op::VCvtFlrI32F32,
            0xF0,
            &[
                [f(-1.5), 0, 0],
                [f(2.5), 0, 0],
                [0xffc0_0000, 0, 0],
                [nan, 0, 0],
                [f(3e9), 0, 0],
                [0xff80_0000, 0, 0]
            ]
        ),
        [
            (-2i32) as u32,
            2,
            0x8000_0000,
            0x7fff_ffff,
            0x7fff_ffff,
            0x8000_0000
        ]
    );
    // floor(x + 1/2) with the half added exactly: 0.49999997 + 0.5 < 1 → 0 (an f32 add
    // would round to 1.0); -0.5 → 0; 2.5 → 3; -2.5 → -2.
    assert_eq!(
        run3(
            gen,
            Op::VCvtRpiI32F32,
            0xF0,
            &[
                [0x3eff_ffff, 0, 0],
                [f(-0.5), 0, 0],
                [f(2.5), 0, 0],
                [f(-2.5), 0, 0]
            ]
        ),
        [0, 0, 3, (-2i32) as u32]
    );
    // i4(S0[3:0]) / 16: 8 → -0.5, 7 → 0.4375, 0x...f3 → 3/16.
    assert_eq!(
        run3(
            gen,
            Op::VCvtOffF32I4,
            0xF0,
            &[[8, 0, 0], [7, 0, 0], [0xffff_fff3, 0, 0]]
        ),
        [f(-0.5), f(0.4375), f(0.1875)]
    );
    // 1/±0 = ±inf becomes ±max finite (clamp) or ±0 (legacy), as does 1/denormal (kept
    // by MODE 0xF0); 1/2 and 1/4 are exact; NaN stays NaN (canonical).
    let rcp_in = [
        [0, 0, 0],
        [f(-0.0), 0, 0],
        [f(2.0), 0, 0],
        [1, 0, 0],
        [nan, 0, 0],
    ];
    assert_eq!(
        run3(gen, Op::VRcpClampF32, 0xF0, &rcp_in),
        [0x7f7f_ffff, 0xff7f_ffff, f(0.5), 0x7f7f_ffff, 0x7fc0_0000]
    );
    assert_eq!(
        run3(gen, Op::VRcpLegacyF32, 0xF0, &rcp_in),
        [0, 0x8000_0000, f(0.5), 0, 0x7fc0_0000]
    );
    let prog = program(gen, &[vop1(Op::VRcpClampF64, 4, v(0)), endpgm()]);
    let mut w = wave_with(gen, 0xF0);
    for l in 0..64 {
        // -0.0, 4.0
        let x: u64 = if l % 2 == 0 {
            1 << 63
        } else {
            0x4010_0000_0000_0000
        };
        w.vgpr[0][l] = x as u32;
        w.vgpr[1][l] = (x >> 32) as u32;
    }
    let out = check(&jit(), &prog, &w, "rcp_clamp_f64");
    let d = |l: usize| out.wave.vgpr[4][l] as u64 | (out.wave.vgpr[5][l] as u64) << 32;
    assert_eq!((d(0), d(1)), (0xffef_ffff_ffff_ffff, 0x3fd0_0000_0000_0000));

    // V_NOP and V_CLREXCP change nothing and need no helper.
    let prog = program(
        gen,
        &[
            vop1(Op::VNop, 0, Src(0)),
            vop1(Op::VClrexcp, 0, Src(0)),
            vop1(Op::VMovB32, 3, ic(5)),
            endpgm(),
        ],
    );
    let jit = jit();
    let w = wave_with(gen, 0xF0);
    let out = check(&jit, &prog, &w, "nop");
    assert_eq!(out.wave.vgpr[3][9], 5);
    assert_inline(&jit, &prog, &w, "nop");
}

#[test]
fn fma_f16_rounds_once() {
    let gen = Gen::Gfx8;
    // (1 + 2^-10) × 1.5 = 1.5 + 2^-10 + 2^-11: halfway between 0x3e01 and 0x3e02. Adding
    // ∓2^-24 (an f16 denormal) decides the direction: 0x3e01 below, 0x3e02 above — where
    // a product or sum rounded first would tie to the even 0x3e02 both times.
    let (a, b) = (0x3c01, 0x3e00);
    let cases = [
        [a, b, 0x8001],
        [a, b, 0x0001],
        [a, b, 0],
        // 1 + 2^-24 → 1; inf × 0 → NaN; NaN payloads → 0x7e00; -0 × 1 + 0 = +0;
        // 65504 × 2 - 65504 = 65504 (no intermediate overflow).
        [0x3c00, 0x3c00, 0x0001],
        [0x7c00, 0, 0x3c00],
        [0x7c01, 0x3c00, 0x3c00],
        [0x8000, 0x3c00, 0],
        [0x7bff, 0x4000, 0xfbff],
    ];
    assert_eq!(
        run3(gen, Op::VFmaF16, 0xF0, &cases),
        [0x3e01, 0x3e02, 0x3e02, 0x3c00, 0x7e00, 0x7e00, 0, 0x7bff]
    );
    // MODE flushing f16 denormals: ∓2^-24 is ±0, the tie goes to the even 0x3e02.
    assert_eq!(run3(gen, Op::VFmaF16, 0x30, &cases[..1]), [0x3e02]);
}

#[test]
fn ldexp_frexp_f16_by_hand() {
    let gen = Gen::Gfx8;
    let cases = [
        [0x3c00, 3, 0],
        // 2^-25: halfway between 0 and the smallest denormal → 0 (even).
        [0x3c00, (-25i32) as u32, 0],
        // 1.5 × 2^-24: halfway between 1 and 2 denormal steps → 2 (even).
        [0x3e00, (-24i32) as u32, 0],
        [0x7bff, 1, 0],
        [0x3c00, 0x8000, 0],
        [0x3c00, 0x7fff, 0],
        [0x7e01, 1, 0],
        // Only S1's low 16 bits count: 3.
        [0x3c00, 0xffff_0003, 0],
    ];
    assert_eq!(
        run3(gen, Op::VLdexpF16, 0xF0, &cases),
        [0x4800, 0, 0x0002, 0x7c00, 0, 0x7c00, 0x7e00, 0x4800]
    );
    // MODE flushing f16 results: the denormal 2 × 2^-24 becomes 0.
    assert_eq!(run3(gen, Op::VLdexpF16, 0x30, &cases[2..3]), [0]);
    // 6 = 0.75 × 2^3; -2^-24 = -0.5 × 2^-23; ±inf: the infinity (exponent 0); 0: 0.
    let cases = [[0x4600, 0, 0], [0x8001, 0, 0], [0xfc00, 0, 0], [0, 0, 0]];
    assert_eq!(
        run3(gen, Op::VFrexpMantF16, 0xF0, &cases),
        [0x3a00, 0xb800, 0xfc00, 0]
    );
    assert_eq!(
        run3(gen, Op::VFrexpExpI16F16, 0xF0, &cases),
        [3, 0xffe9, 0, 0]
    );
    // MODE flushing f16 inputs: the denormal is -0.
    assert_eq!(run3(gen, Op::VFrexpExpI16F16, 0x30, &cases[1..2]), [0]);
    assert_eq!(run3(gen, Op::VFrexpMantF16, 0x30, &cases[1..2]), [0x8000]);
}

/// Many f16 triples against the interpreter: random bits, and products with a tiny or
/// nearly cancelling addend (where a second rounding would show).
#[test]
fn fma_f16_random_lanes() {
    let gen = Gen::Gfx8;
    let prog = program(gen, &[vop3(Op::VFmaF16, 10, [v(0), v(1), v(2)]), endpgm()]);
    let jit = jit();
    let mut rng = rng(0xf16);
    for k in 0..400 {
        let mode = [0xF0, 0x30, 0xB0, 0x70][k % 4];
        let mut w = wave_with(gen, mode);
        for l in 0..64 {
            let a: u32 = rng.random_range(0..0x10000);
            let b: u32 = rng.random_range(0..0x10000);
            let c: u32 = match rng.random_range(0..4) {
                // Tiny (denormal or near the smallest normals), either sign.
                0 => rng.random_range(0..0x0800) | rng.random_range(0..2) << 15,
                // Close to -(a × b) in magnitude: cancellation.
                1 => (a ^ 0x8000).wrapping_add(rng.random_range(0..4)) & 0xffff,
                _ => rng.random_range(0..0x10000),
            };
            w.vgpr[0][l] = a | rng.random::<u32>() << 16;
            w.vgpr[1][l] = b;
            w.vgpr[2][l] = c;
        }
        check(&jit, &prog, &w, &format!("round {k} MODE {mode:#x}"));
    }
}

/// A source for op `op`'s operand `i`: VGPRs (pairs for 64-bit operands), SGPR pairs,
/// constants.
fn pick(rng: &mut StdRng, _i: usize, vgpr_only: bool) -> Src {
    if vgpr_only || rng.random_bool(0.7) {
        return v(2 * rng.random_range(0..8));
    }
    match rng.random_range(0..3) {
        0 => s(2 * rng.random_range(0..8)),
        1 => ic(rng.random_range(-16..65)),
        _ => Src(240 + rng.random_range(0..8)),
    }
}

/// A state whose registers hold useful inputs: f32/f16/f64 specials, selector bytes,
/// byte patterns.
fn rich_wave(gen: Gen, rng: &mut StdRng, mode: u32) -> Box<Wave> {
    let mut w = random_wave(gen, rng, mode);
    for r in 0..16 {
        for l in 0..64 {
            w.vgpr[r][l] = match rng.random_range(0..6) {
                0 => CLASS32[rng.random_range(0..10)],
                1 => CLASS16[rng.random_range(0..10)] | rng.random::<u32>() << 16,
                2 => (CLASS64[rng.random_range(0..10)] >> (32 * rng.random_range(0..2))) as u32,
                3 => u32::from_le_bytes([0, 1, 2, 3].map(|_| rng.random_range(0..16))),
                4 => rng.random_range(0..1024),
                _ => rand32(rng),
            };
        }
    }
    w
}

#[test]
fn random_blocks_against_the_interpreter() {
    let mut rng = rng(0xc1a5);
    let mut checked = 0;
    for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
        for round in 0..12 {
            let mut insts: Vec<Inst> = Vec::new();
            for &op in OPS {
                let vdst = 20 + 2 * rng.random_range(0..6);
                let mut forms = op_forms(gen, &mut rng, op, vdst, &pick);
                // VOP3B's carry-out pair.
                for i in forms.iter_mut() {
                    if let wavejit_isa::gcn::Fields::Vop3(Vop3Fields { sdst, .. }) = &mut i.fields {
                        *sdst = 2 * rng.random_range(0..8);
                    }
                }
                insts.extend(forms.into_iter().filter(|i| encodable(gen, i)));
            }
            // Shuffle, keep blocks short enough for many states.
            for k in (1..insts.len()).rev() {
                insts.swap(k, rng.random_range(0..=k));
            }
            for chunk in insts.chunks(12) {
                let mut body = chunk.to_vec();
                body.push(endpgm());
                let prog = program(gen, &body);
                for (name, jit) in jits() {
                    for k in 0..3 {
                        let mode = [0xF0, 0x00, 0x70, 0x3C][(round + k) % 4];
                        let w = rich_wave(gen, &mut rng, mode);
                        check(&jit, &prog, &w, &format!("{gen} {name} {mode:#x} {body:?}"));
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 400, "{checked}");
}

/// These operations run inline (MODE rounding to nearest even), in every encoding that
/// has no 64-bit operand in SDWA/DPP.
#[test]
fn lowered_without_helper() {
    let mut rng = rng(11);
    let mut checked = 0;
    for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
        for &op in OPS.iter().filter(|&&o| o != Op::VMqsadU32U8) {
            let forms = op_forms(gen, &mut rng, op, 20, &pick);
            for i in forms.into_iter().filter(|i| encodable(gen, i)) {
                let wide = matches!(
                    op,
                    Op::VCmpClassF64
                        | Op::VCmpxClassF64
                        | Op::VMadU64U32
                        | Op::VMadI64I32
                        | Op::VQsadPkU16U8
                        | Op::VMqsadPkU16U8
                        | Op::VQsadU8
                        | Op::VMqsadU8
                        | Op::VRcpClampF64
                );
                if wide && matches!(i.enc, Enc::Sdwa { .. } | Enc::Dpp { .. }) {
                    continue;
                }
                let prog = program(gen, &[i, endpgm()]);
                let jit = jit();
                let w = rich_wave(gen, &mut rng, 0xF0);
                let none = MemInit::default();
                if let Ok((_, st)) = jit_run_stats(&jit, &prog, &w, &Lds::new(0), &none) {
                    assert_eq!(st.helper_steps + st.interpreted, 0, "{gen} {i:?}: {st:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 80, "{checked}");
}
