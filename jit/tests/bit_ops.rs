//! Per-lane bit operations as SIMD code (`jit/src/gcn/bits.rs`): shifts by per-lane
//! amounts, population counts, bit scans, bit reversal, bfm and alignbit/alignbyte with
//! per-lane amounts — values worked out by hand, and random blocks (amounts 0, 31, 32, 33,
//! negative…) against the interpreter.

mod common;

use common::*;
use rand::rngs::StdRng;
use rand::Rng;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Op, Src};
use wavejit_isa::state::Wave;

#[test]
fn bit_operations_by_hand() {
    let gen = Gen::Gfx8;
    let prog = program(
        gen,
        &[
            vop2(Op::VLshlrevB32, 10, v(1), 0),
            vop2(Op::VLshrrevB32, 11, v(1), 0),
            vop2(Op::VAshrrevI32, 12, v(1), 0),
            vop1(Op::VBfrevB32, 13, v(0)),
            vop1(Op::VFfbhU32, 14, v(0)),
            vop1(Op::VFfblB32, 15, v(0)),
            vop1(Op::VFfbhI32, 16, v(0)),
            vop3(Op::VBcntU32B32, 17, [v(0), v(1), Src(0)]),
            vop3(Op::VBfmB32, 18, [v(1), v(2), Src(0)]),
            vop3(Op::VAlignbitB32, 19, [v(0), v(2), v(1)]),
            endpgm(),
        ],
    );
    // (x, n, y) → (x << n, x >> n, x >>a n, bitrev x, ffbh x, ffbl x, ffbh_i32 x,
    // popcount x + n, bfm(n, y), alignbit(x, y, n))
    let cases: [([u32; 3], [u32; 10]); 5] = [
        (
            [0x8000_0000, 31, 1],
            // alignbit: 0x80000000_00000001 >> 31 = 0x1_0000_0000: low half 0.
            [0, 1, u32::MAX, 1, 0, 31, 1, 32, 0xffff_fffe, 0],
        ),
        (
            [3, 33, 0x1234_5678],
            // Amounts & 31: 33 → 1. bfm(1, 0x78 & 31 = 24); alignbit: (3:0x12345678) >> 1.
            [
                6,
                1,
                1,
                0xc000_0000,
                30,
                0,
                30,
                35,
                0x0100_0000,
                0x891a_2b3c,
            ],
        ),
        (
            [0, 0, 0xffff_ffff],
            [0, 0, 0, 0, u32::MAX, u32::MAX, u32::MAX, 0, 0, 0xffff_ffff],
        ),
        (
            [0xffff_ffff, 32, 7],
            // 32 & 31 = 0: no shift; bfm(32 & 31 = 0, 7) = 0; ffbh_i32 of -1: none → -1.
            [
                u32::MAX,
                u32::MAX,
                u32::MAX,
                u32::MAX,
                0,
                0,
                u32::MAX,
                64,
                0,
                7,
            ],
        ),
        (
            [0x0001_8000, 4, 0xdead_beef],
            [
                0x0018_0000,
                0x0000_1800,
                0x0000_1800,
                0x0001_8000,
                15,
                15,
                15,
                6,
                // bfm(4, 0xef & 31 = 15); alignbit: 0x00018000_deadbeef >> 4.
                0x0007_8000,
                0x0dea_dbee,
            ],
        ),
    ];
    let mut w = Wave::new(gen);
    for (l, c) in cases.iter().enumerate() {
        for (r, x) in c.0.iter().enumerate() {
            w.vgpr[r][l] = *x;
        }
    }
    for (name, jit) in jits() {
        let out = check(&jit, &prog, &w, name);
        for (l, c) in cases.iter().enumerate() {
            for (k, want) in c.1.iter().enumerate() {
                assert_eq!(
                    out.wave.vgpr[10 + k][l],
                    *want,
                    "{name} lane {l} result {k}"
                );
            }
        }
    }
}

fn edge32(rng: &mut StdRng) -> u32 {
    match rng.random_range(0..6) {
        0 => {
            [0, 1, 31, 32, 33, 63, 64, u32::MAX, 0x8000_0000, 0x7fff_ffff][rng.random_range(0..10)]
        }
        1 => 1 << rng.random_range(0..32),
        2 => (1u32 << rng.random_range(0..32)).wrapping_sub(1),
        3 => rng.random_range(0..70),
        _ => rand32(rng),
    }
}

#[test]
fn random_bit_operation_blocks() {
    use Op::*;
    let ops = [
        VLshlrevB32,
        VLshrrevB32,
        VAshrrevI32,
        VLshlB32,
        VLshrB32,
        VAshrI32,
        VBfrevB32,
        VFfbhU32,
        VFfblB32,
        VFfbhI32,
        VBcntU32B32,
        VMbcntLoU32B32,
        VMbcntHiU32B32,
        VBfmB32,
        VAlignbitB32,
        VAlignbyteB32,
        VBfeU32,
        VBfeI32,
    ];
    let mut rng = rng(0xb175);
    let jits = jits();
    for case in 0..300 {
        let gen = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8][case % 3];
        let insts = random_block(&mut rng, 8, 200, |rng| {
            let op = ops[rng.random_range(0..ops.len())];
            let vdst = 20 + rng.random_range(0..8u8);
            op_forms(gen, rng, op, vdst, &|rng, _, vgpr| {
                if !vgpr && rng.random_bool(0.2) {
                    return if rng.random() {
                        s(rng.random_range(0..8))
                    } else {
                        ic(rng.random_range(-16..65))
                    };
                }
                v(rng.random_range(0..12))
            })
            .into_iter()
            .filter(|i| encodable(gen, i))
            .collect()
        });
        let prog = program(gen, &insts);
        let mut w = random_wave(gen, &mut rng, 0xC0);
        for l in 0..64 {
            for r in 0..12 {
                w.vgpr[r][l] = edge32(&mut rng);
            }
        }
        for s in 0..8 {
            w.sgpr[s] = edge32(&mut rng);
        }
        for (name, jit) in &jits {
            check(
                jit,
                &prog,
                &w,
                &format!("case {case} {gen} {name}: {insts:?}"),
            );
        }
    }
    assert_compiled(&jits);
}
