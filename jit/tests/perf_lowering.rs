//! The lowering's speed mechanisms (`jit/README.md`, "Lowering"): a VGPR write is stored
//! only when it is the last write of that register in its segment (dead-store
//! elimination), and the NaN results of NaN-propagating float operations stay
//! non-canonical ("raw", `block::Raw`) until their bits become visible. Both are invisible
//! by design; these tests check that with values worked out by hand — a NaN payload the
//! host's SIMD keeps (x86 quiets a signalling NaN by setting bit 22 / bit 51 and keeps the
//! rest of the payload) must never reach a register, a move, a bit operation, an SDWA
//! selection, the other format, or a helper call — and with random chains of such
//! operations and their consumers against the interpreter.

mod common;

use common::*;
use rand::Rng;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::DsFields;
use wavejit_isa::gcn::{Enc, Fields, Inst, Op, Src, VopBase};
use wavejit_isa::state::Wave;

/// The usual engines (chunk-major and op-major emission) and chunk-major emission with
/// Cranelift's optimiser off (`WAVEJIT_JIT_OPT=none`: instructions stay in emission order).
fn engines() -> Vec<(&'static str, wavejit_jit::Jit)> {
    let mut v = jits();
    let mut cfg = wavejit_jit::JitConfig::default();
    cfg.backend.optimize = false;
    v.push(("opt-none", up(wavejit_jit::Jit::new(cfg))));
    v
}

const ONE: u32 = 0x3f80_0000;
const QNAN32: u32 = 0x7fc0_0000;
const QNAN64: u64 = 0x7ff8_0000_0000_0000;

/// Lane 0: a signalling NaN with payload 1 (x86 turns it into 0x7fc00001), lane 1: a
/// negative quiet NaN with a payload, lane 2: numbers. EXEC all ones (raw results are only
/// kept for writes of all lanes), denormals kept.
fn nan_wave(gen: Gen) -> Box<Wave> {
    let mut w = Wave::new(gen);
    w.exec = u64::MAX;
    w.mode = 0xF0;
    for l in 0..64 {
        w.vgpr[2][l] = match l {
            0 => 0x7f80_0001,
            1 => 0xffc0_0123,
            _ => 1.5f32.to_bits(),
        };
        w.vgpr[3][l] = ONE;
        w.vgpr[21][l] = 0x3ff0_0000;
        w.vgpr[31][l] = 4 * l as u32;
        put64(
            &mut w,
            10,
            l,
            match l {
                0 => 0x7ff0_0000_0000_0001,
                1 => 0xfff8_0000_0000_0abc,
                _ => 3.0f64.to_bits(),
            },
        );
        put64(&mut w, 12, l, 2.0f64.to_bits());
        put64(&mut w, 14, l, 0.5f64.to_bits());
    }
    w
}

/// `ds_write_b32` of `v[data]` at the LDS address in `v[addr]` (run by the helper).
fn ds_write(addr: u8, data: u8) -> Inst {
    Inst {
        op: Op::DsWriteB32,
        enc: Enc::Ds,
        fields: Fields::Ds(DsFields {
            vdst: 0,
            addr,
            data0: data,
            data1: 0,
            offset0: 0,
            offset1: 0,
            gds: false,
        }),
        literal: None,
    }
}

#[test]
fn raw_nans_never_become_visible() {
    let gen = Gen::Gfx8;
    let prog = program(
        gen,
        &[
            // v1 = v2 + 1: NaN in lanes 0-1 (raw), 2.5 in lane 2.
            vop2(Op::VAddF32, 1, v(2), 3),
            // A NaN-propagating consumer: v4 = v1 * 1.
            vop2(Op::VMulF32, 4, v(1), 3),
            // Consumers that expose bits: a move, a bit operation, an SDWA selection.
            vop1(Op::VMovB32, 5, v(1)),
            vop2(Op::VXorB32, 6, v(1), 3),
            sdwa(
                Op::VMovB32,
                VopBase::Vop1,
                25,
                1,
                0,
                6,
                0,
                [4, 6],
                [false; 2],
            ),
            // minNum returns the number.
            vop2(Op::VMinF32, 7, v(1), 3),
            // v1 overwritten: its first value is never stored (dead store); the second is
            // raw again and must be stored canonical.
            vop2(Op::VAddF32, 1, v(1), 3),
            // f64: v[8:9] = fma(v[10:11], 2, 0.5): NaN in lanes 0-1, 6.5 in lane 2; then a
            // NaN-propagating consumer, and moves of the halves.
            vop3(Op::VFmaF64, 8, [v(10), v(12), v(14)]),
            vop3(Op::VMulF64, 16, [v(8), v(12), Src(0)]),
            vop1(Op::VMovB32, 18, v(8)),
            vop1(Op::VMovB32, 19, v(9)),
            // The low half of the raw f64 read as an f32: 0 × 2^126 (a leaked payload 1
            // would give 2^-23).
            with_lit(vop2(Op::VMulF32, 24, Src::LITERAL, 8), 0x7e80_0000),
            // A raw f32 read as the low half of an f64 (v21 = 0x3ff00000): + 0.
            vop2(Op::VAddF32, 20, v(2), 3),
            vop3(Op::VAddF64, 22, [v(20), Src(128), Src(0)]),
            // v_readlane exposes the bits of v1 (lane 0) to a scalar; ds_write_b32 runs
            // through the interpreter helper, which reads v1 from the wave after the
            // deferred store (LDS bytes 4·lane).
            vop3(Op::VReadlaneB32, 30, [v(1), Src(128), Src(0)]),
            ds_write(31, 1),
            endpgm(),
        ],
    );
    let w = nan_wave(gen);
    for (name, jit) in engines() {
        let out = check(&jit, &prog, &w, name);
        let o = &out.wave;
        for l in 0..3 {
            let nan = l < 2;
            let want = |x: f32| if nan { QNAN32 } else { x.to_bits() };
            assert_eq!(o.vgpr[1][l], want(3.5), "{name} v1 lane {l}");
            assert_eq!(o.vgpr[4][l], want(2.5), "{name} v4 lane {l}");
            assert_eq!(o.vgpr[5][l], want(2.5), "{name} v5 lane {l}");
            assert_eq!(o.vgpr[6][l], want(2.5) ^ ONE, "{name} v6 lane {l}");
            assert_eq!(o.vgpr[25][l], want(2.5) & 0xffff, "{name} v25 lane {l}");
            assert_eq!(o.vgpr[7][l], ONE, "{name} v7 lane {l}");
            let want64 = |x: f64| if nan { QNAN64 } else { x.to_bits() };
            assert_eq!(get64(o, 8, l), want64(6.5), "{name} v[8:9] lane {l}");
            assert_eq!(get64(o, 16, l), want64(13.0), "{name} v[16:17] lane {l}");
            assert_eq!(o.vgpr[18][l], want64(6.5) as u32, "{name} v18 lane {l}");
            assert_eq!(o.vgpr[19][l], (want64(6.5) >> 32) as u32, "{name} v19");
            let lo = want64(6.5) as u32;
            let v24 = if nan {
                0
            } else {
                (f32::from_bits(lo) * 2f32.powi(126)).to_bits()
            };
            assert_eq!(o.vgpr[24][l], v24, "{name} v24 lane {l}");
            // {v20 = canonical NaN bits, v21 = 0x3ff00000} is the number 1 + 0x7fc00000 ×
            // 2^-52, unchanged by + 0.
            let v22 = if nan {
                0x3ff0_0000_7fc0_0000
            } else {
                0x3ff0_0000_0000_0000 | 2.5f32.to_bits() as u64
            };
            assert_eq!(get64(o, 22, l), v22, "{name} v[22:23] lane {l}");
        }
        assert_eq!(o.sgpr[30], QNAN32, "{name} s30");
        for (l, want) in [(0, QNAN32), (1, QNAN32), (2, 3.5f32.to_bits())] {
            let b = &out.lds.bytes[4 * l..4 * l + 4];
            assert_eq!(
                u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                want,
                "{name} LDS {l}"
            );
        }
    }
}

/// A chain of overwrites of one register: only the last value is stored, every
/// intermediate one is still read by the instructions between (by hand: x = 1, then
/// x = x + x, y_k = x after each step).
#[test]
fn dead_stores_keep_intermediate_reads() {
    let gen = Gen::Gfx8;
    let mut insts = vec![vop1(Op::VMovB32, 1, ic(1))];
    for k in 0..6u8 {
        insts.push(vop2(Op::VAddU32, 1, v(1), 1));
        insts.push(vop1(Op::VMovB32, 40 + k, v(1)));
    }
    insts.push(endpgm());
    let prog = program(gen, &insts);
    let mut w = Wave::new(gen);
    w.exec = 0xffff_0000_ffff_fff0;
    for (name, jit) in engines() {
        let out = check(&jit, &prog, &w, name);
        for l in 0..64 {
            let on = w.exec >> l & 1 != 0;
            assert_eq!(
                out.wave.vgpr[1][l],
                if on { 64 } else { 0 },
                "{name} lane {l}"
            );
            for k in 0..6 {
                let want = if on { 2u32 << k } else { 0 };
                assert_eq!(
                    out.wave.vgpr[40 + k][l],
                    want,
                    "{name} v{} lane {l}",
                    40 + k
                );
            }
        }
    }
}

/// Random straight-line blocks of NaN-propagating f32/f64 operations mixed with the
/// consumers that must see canonical bits (moves, bit operations, SDWA, min/max/med3,
/// conversions, compares, the other float format, a helper), over few registers (many
/// overwrites: dead stores), from states full of NaN payloads, against the interpreter.
#[test]
fn random_nan_chains() {
    let gen = Gen::Gfx8;
    let mut rng = rng(0x6a);
    let nans32 = [
        0x7f80_0001u32,
        0xffc0_0123,
        0x7fbf_ffff,
        0x7fc0_0000,
        0xff80_0003,
    ];
    let nans64 = [
        0x7ff0_0000_0000_0001u64,
        0xfff8_0000_0000_0abc,
        0x7ff4_0000_dead_beef,
    ];
    for case in 0..800 {
        let mut w = random_wave(gen, &mut rng, if case % 3 == 0 { 0 } else { 0xF0 });
        if case % 4 != 3 {
            w.exec = u64::MAX;
        }
        for r in 0..8 {
            for l in 0..64 {
                if rng.random_bool(0.3) {
                    w.vgpr[r][l] = nans32[rng.random_range(0..nans32.len())];
                }
            }
        }
        for r in (8..16).step_by(2) {
            for l in 0..64 {
                if rng.random_bool(0.3) {
                    put64(&mut w, r, l, nans64[rng.random_range(0..nans64.len())]);
                }
            }
        }
        let mut insts: Vec<Inst> = Vec::new();
        let r32 = |rng: &mut rand::rngs::StdRng| rng.random_range(0..8u8);
        let r64 = |rng: &mut rand::rngs::StdRng| 8 + 2 * rng.random_range(0..4u8);
        for _ in 0..rng.random_range(4..24) {
            let (a, b, d) = (r32(&mut rng), r32(&mut rng), r32(&mut rng));
            let (x, y, z) = (r64(&mut rng), r64(&mut rng), r64(&mut rng));
            // An inline constant: 0, small integers (denormals as floats), -1..-16 (NaNs),
            // ±0.5, ±1, ±2, ±4, 1/(2π).
            let k = |rng: &mut rand::rngs::StdRng| {
                Src(match rng.random_range(0..3) {
                    0 => rng.random_range(128..=208),
                    _ => rng.random_range(240..=248),
                })
            };
            let lit = |rng: &mut rand::rngs::StdRng| match rng.random_range(0..3) {
                0 => rng.random_range(-70.0f32..70.0).exp2().to_bits(),
                _ => SPECIAL32[rng.random_range(0..SPECIAL32.len())],
            };
            // ±0.5, ±1, ±2, ±4, 1/(2π).
            let with_k = |rng: &mut rand::rngs::StdRng| Src(rng.random_range(240..=248));
            let i = match rng.random_range(0..36) {
                // Conversions and chains whose value ranges the lowering tracks (small
                // integers, clamps, products and sums of them, overflow to infinity).
                28 => vop1(Op::VCvtF32U32, d, v(a)),
                29 => vop1(Op::VCvtF32I32, d, v(a)),
                30 => vop3(
                    Op::VBfeU32,
                    d,
                    [
                        v(a),
                        ic(rng.random_range(0..24)),
                        ic(rng.random_range(0..16)),
                    ],
                ),
                31 => with_lit(vop2(Op::VMulF32, d, Src::LITERAL, a), lit(&mut rng)),
                32 => vop1(Op::VCvtU32F32, d, v(a)),
                33 => vop3(Op::VMed3F32, d, [v(a), with_k(&mut rng), with_k(&mut rng)]),
                34 => vop1(Op::VTruncF32, d, v(a)),
                35 => with_lit(vop2(Op::VAddF32, d, Src::LITERAL, a), lit(&mut rng)),
                22 => vop3(Op::VMed3F32, d, [v(a), k(&mut rng), k(&mut rng)]),
                23 => vop3(Op::VMed3F32, d, [k(&mut rng), v(a), k(&mut rng)]),
                24 => vop3(Op::VMed3F32, d, [v(a), v(b), k(&mut rng)]),
                25 => with_lit(vop2(Op::VMaxF32, d, Src::LITERAL, a), lit(&mut rng)),
                26 => vop3(Op::VMinF64, x, [v(y), k(&mut rng), Src(0)]),
                27 => vop3(Op::VMed3F32, d, [v(a), v(b), v(d)]),
                0 => vop2(Op::VAddF32, d, v(a), b),
                1 => vop2(Op::VMulF32, d, v(a), b),
                2 => vop2(Op::VSubF32, d, v(a), b),
                3 => vop3(Op::VFmaF32, d, [v(a), v(b), v(d)]),
                4 => vop3(Op::VMadF32, d, [v(a), v(b), v(a)]),
                5 => vop2(Op::VMacF32, d, v(a), b),
                6 => vop1(Op::VSqrtF32, d, v(a)),
                7 => vop1(Op::VFloorF32, d, v(a)),
                8 => vop3(Op::VFmaF64, x, [v(y), v(z), v(x)]),
                9 => vop3(Op::VAddF64, x, [v(y), v(z), Src(0)]),
                10 => vop3(Op::VMulF64, x, [v(y), v(z), Src(0)]),
                11 => vop1(Op::VMovB32, d, v(a)),
                12 => vop2(Op::VXorB32, d, v(a), b),
                13 => vop2(Op::VMinF32, d, v(a), b),
                14 => vop3(Op::VMed3F32, d, [v(a), v(b), ic(1)]),
                15 => vop1(Op::VCvtI32F32, d, v(a)),
                16 => vopc(Op::VCmpLtF32, v(a), b),
                17 => vop1(Op::VMovB32, d, v(x + 1)),
                18 => vop2(Op::VAddF32, d, v(x), b),
                19 => vop3(Op::VAddF64, x, [v(a & 6), v(y), Src(0)]),
                20 => sdwa(
                    Op::VAddF32,
                    VopBase::Vop2,
                    d,
                    a,
                    b,
                    rng.random_range(0..7),
                    rng.random_range(0..3),
                    [rng.random_range(0..7), 6],
                    [false; 2],
                ),
                _ => vop3(Op::VMaxF64, x, [v(y), v(z), Src(0)]),
            };
            insts.push(i);
        }
        if rng.random_bool(0.3) {
            for l in 0..64 {
                w.vgpr[31][l] = 4 * l as u32;
            }
            insts.push(vop3(
                Op::VReadlaneB32,
                30,
                [v(r32(&mut rng)), Src(128 + 5), Src(0)],
            ));
            insts.push(ds_write(31, r32(&mut rng)));
            insts.push(vop2(Op::VAddF32, 1, v(1), 2));
        }
        insts.push(endpgm());
        let insts: Vec<Inst> = insts.into_iter().filter(|i| encodable(gen, i)).collect();
        let prog = program(gen, &insts);
        for (name, jit) in engines() {
            check(&jit, &prog, &w, &format!("case {case} {name}"));
        }
    }
}

/// A lane mask written chunk by chunk is kept as scalar bits folded at each chunk's end;
/// writing it again in a later segment (after a DPP instruction ends the first) takes the
/// old chunks out of the fold. By hand: VCC = (lane < v1) then (v2 > lane) over the lanes
/// whose EXEC bit is set (0 elsewhere), read by V_CNDMASK and as scalars.
#[test]
fn lane_masks_written_twice() {
    let gen = Gen::Gfx8;
    let prog = program(
        gen,
        &[
            vopc(Op::VCmpLtU32, v(0), 1),
            vop2(Op::VCndmaskB32, 3, ic(5), 4),
            // row_shr:1 (DPP_CTRL 0x111), all rows/banks: a cross-lane segment.
            dpp(Op::VMovB32, VopBase::Vop1, 5, 0, 0, 0x111, true, 0xf, 0xf),
            vopc(Op::VCmpGtU32, v(2), 0),
            vop2(Op::VCndmaskB32, 6, ic(7), 4),
            sop1(Op::SMovB32, 10, Src(106)),
            sop1(Op::SMovB32, 11, Src(107)),
            endpgm(),
        ],
    );
    let mut w = Wave::new(gen);
    w.exec = 0xf0f0_ffff_0000_ff0f;
    for l in 0..64u32 {
        w.vgpr[0][l as usize] = l;
        w.vgpr[1][l as usize] = (l * 7) % 64;
        w.vgpr[2][l as usize] = (l * 13 + 5) % 64;
        w.vgpr[4][l as usize] = 100 + l;
    }
    for (name, jit) in engines() {
        let out = check(&jit, &prog, &w, name);
        let mut vcc = 0u64;
        for l in 0..64u32 {
            let on = w.exec >> l & 1 != 0;
            let first = l < (l * 7) % 64;
            let second = (l * 13 + 5) % 64 > l;
            let v3 = if on {
                if first {
                    100 + l
                } else {
                    5
                }
            } else {
                0
            };
            let v6 = if on {
                if second {
                    100 + l
                } else {
                    7
                }
            } else {
                0
            };
            assert_eq!(out.wave.vgpr[3][l as usize], v3, "{name} v3 lane {l}");
            assert_eq!(out.wave.vgpr[6][l as usize], v6, "{name} v6 lane {l}");
            if on && second {
                vcc |= 1 << l;
            }
        }
        assert_eq!(out.wave.vcc, vcc, "{name} vcc");
        assert_eq!(out.wave.sgpr[10], vcc as u32, "{name} s10");
        assert_eq!(out.wave.sgpr[11], (vcc >> 32) as u32, "{name} s11");
    }
}

/// Value ranges (`block::Cx::frange`) skip NaN canonicalisations and integer saturation
/// only where no NaN and no out-of-range value can occur: products overflowing to
/// infinity, an infinity of each sign added, infinity times zero. By hand, with
/// x = f32(v0): v2 = x · 2^100, v3 = x · -2^100, v4 = v2 + v3, v6 = 0 · v2, and their
/// conversions to i32 (NaN → 0).
#[test]
fn ranges_with_infinities_by_hand() {
    let gen = Gen::Gfx8;
    let prog = program(
        gen,
        &[
            vop1(Op::VCvtF32U32, 1, v(0)),
            with_lit(vop2(Op::VMulF32, 2, Src::LITERAL, 1), 0x7180_0000),
            with_lit(vop2(Op::VMulF32, 3, Src::LITERAL, 1), 0xf180_0000),
            vop2(Op::VAddF32, 4, v(2), 3),
            vop1(Op::VCvtI32F32, 5, v(4)),
            vop2(Op::VMulF32, 6, ic(0), 2),
            vop1(Op::VCvtI32F32, 7, v(6)),
            // A clamp into [-4, 4] converts without saturation: -4 .. 4.
            vop3(Op::VMed3F32, 8, [v(3), Src(247), Src(246)]),
            vop1(Op::VCvtI32F32, 9, v(8)),
            // Zero inside the range of one factor, infinity at the end of the other's.
            vop1(Op::VCvtF32I32, 12, v(13)),
            vop2(Op::VMulF32, 11, v(12), 2),
            endpgm(),
        ],
    );
    let mut w = Wave::new(gen);
    w.mode = 0xF0;
    let xs = [0u32, 0xffff_ffff, 0x1000_0000, 1];
    for l in 0..64 {
        w.vgpr[0][l] = xs[l % 4];
        w.vgpr[13][l] = if l % 4 == 1 { 0 } else { -3i32 as u32 };
    }
    const INF: u32 = 0x7f80_0000;
    let p100 = 2f32.powi(100);
    for (name, jit) in engines() {
        let out = check(&jit, &prog, &w, name);
        let o = &out.wave;
        for l in 0..64 {
            // (v2, v3, v4, v6, v8, v9) per input.
            let want: [u32; 6] = match l % 4 {
                0 => [0, 0x8000_0000, 0, 0, 0x8000_0000, 0],
                1 | 2 => [
                    INF,
                    INF | 0x8000_0000,
                    QNAN32,
                    QNAN32,
                    (-4f32).to_bits(),
                    -4i32 as u32,
                ],
                _ => [
                    p100.to_bits(),
                    (-p100).to_bits(),
                    0,
                    0,
                    (-4f32).to_bits(),
                    -4i32 as u32,
                ],
            };
            let got = [
                o.vgpr[2][l],
                o.vgpr[3][l],
                o.vgpr[4][l],
                o.vgpr[6][l],
                o.vgpr[8][l],
                o.vgpr[9][l],
            ];
            assert_eq!(got, want, "{name} lane {l}");
            assert_eq!(o.vgpr[5][l], 0, "{name} v5 lane {l}");
            assert_eq!(o.vgpr[7][l], 0, "{name} v7 lane {l}");
            let v11 = match l % 4 {
                0 => 0x8000_0000,
                1 => QNAN32,
                2 => INF | 0x8000_0000,
                _ => (-3.0 * p100).to_bits(),
            };
            assert_eq!(o.vgpr[11][l], v11, "{name} v11 lane {l}");
        }
    }
}
