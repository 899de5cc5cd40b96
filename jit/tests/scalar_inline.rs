//! The scalar instructions with a run-time register index or next pc, and MODE's hardware
//! register, lowered inline (`jit/src/gcn/dynamic.rs`, `salu.rs`): `s_movrels_b32/b64`,
//! `s_movreld_b32/b64` (SGPR `base + M0`, checked against s103), `s_setpc_b64`,
//! `s_swappc_b64`, `s_getreg_b32`/`s_setreg_b32`/`s_setreg_imm32_b32` of MODE — values
//! worked out by hand from the manuals' definitions, errors out of range equal to the
//! interpreter's, random blocks against the interpreter, and no helper call in range.

mod common;

use common::*;
use rand::rngs::StdRng;
use rand::Rng;
use wavejit_interp::ExecErrorKind;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Inst, Op, Src};
use wavejit_isa::state::Wave;

const M0: u8 = 124;

/// `hwreg(id, offset, size)` as SIMM16.
fn hwreg(id: u16, offset: u16, size: u16) -> u16 {
    id | offset << 6 | (size - 1) << 11
}

fn base_wave(gen: Gen) -> Box<Wave> {
    let mut w = Wave::new(gen);
    for i in 0..104 {
        w.sgpr[i] = 0x1000 + i as u32;
    }
    w.exec = u64::MAX;
    w
}

#[test]
fn relative_moves_by_hand() {
    let gen = Gen::Gfx8;
    // s_movrels_b32 s10, s2 with M0 = 3 reads s5; the b64 form with M0 = 4 reads s[6:7];
    // s_movreld_b32 s2, s0 with M0 = 5 writes s7. A value written just before (s5 = 42,
    // still in the register cache) must be what the relative read sees, and a relative
    // write must be what a later read of the register sees.
    let prog = program(
        gen,
        &[
            sopk(Op::SMovkI32, M0, 3),
            sopk(Op::SMovkI32, 5, 42),
            sop1(Op::SMovrelsB32, 10, s(2)),
            sopk(Op::SMovkI32, M0, 4),
            sop1(Op::SMovrelsB64, 12, s(2)),
            sopk(Op::SMovkI32, M0, 5),
            sop1(Op::SMovreldB32, 2, ic(-7)),
            sop2(Op::SAddU32, 14, s(7), ic(1)),
            sopk(Op::SMovkI32, M0, 100),
            sop1(Op::SMovreldB64, 2, s(12)),
            sop1(Op::SMovB64, 16, s(102)),
            endpgm(),
        ],
    );
    let w = base_wave(gen);
    let jit = jit();
    let out = check(&jit, &prog, &w, "relative moves");
    let x = &out.wave;
    assert_eq!(x.sgpr[10], 42);
    assert_eq!((x.sgpr[12], x.sgpr[13]), (0x1006, 0x1007));
    assert_eq!(x.sgpr[7], (-7i32) as u32);
    assert_eq!(x.sgpr[14], (-6i32) as u32);
    // M0 = 100, base 2: s102/s103 (the last pair in range) receive s[12:13].
    assert_eq!((x.sgpr[102], x.sgpr[103]), (0x1006, 0x1007));
    assert_eq!((x.sgpr[16], x.sgpr[17]), (0x1006, 0x1007));
    assert_eq!(x.m0, 100);
    assert_inline(&jit, &prog, &w, "inline");
}

#[test]
fn relative_move_out_of_range_is_the_interpreters_error() {
    let gen = Gen::Gfx7;
    // (instruction, M0): base + M0 + width passes 104 in each, or M0 wraps.
    let cases: [(Inst, u32); 6] = [
        (sop1(Op::SMovrelsB32, 10, s(100)), 4),
        (sop1(Op::SMovrelsB64, 10, s(100)), 3),
        (sop1(Op::SMovreldB32, 0, s(1)), 104),
        (sop1(Op::SMovreldB64, 2, s(1)), 101),
        (sop1(Op::SMovrelsB32, 10, s(0)), u32::MAX),
        (sop1(Op::SMovreldB32, 3, s(0)), 0xffff_fffd),
    ];
    for (i, (inst, m0)) in cases.into_iter().enumerate() {
        let prog = program(
            gen,
            &[
                sopk(Op::SMovkI32, 20, 9),
                inst,
                sopk(Op::SMovkI32, 21, 1),
                endpgm(),
            ],
        );
        let mut w = base_wave(gen);
        w.m0 = m0;
        let out = check(&jit(), &prog, &w, &format!("case {i}"));
        let err = out.result.expect_err("out of range");
        assert_eq!(err.pc, 4, "case {i}");
        assert!(
            matches!(&err.kind, ExecErrorKind::BadOperand(m) if m.contains("outside s0-s103")),
            "case {i}: {err:?}"
        );
        // The instruction before the failing one took effect; the one after did not.
        assert_eq!(out.wave.sgpr[20], 9);
        assert_eq!(out.wave.sgpr[21], 0x1015);
    }
    // In range by one: base 100 + M0 3 + 1 = 104.
    let prog = program(gen, &[sop1(Op::SMovrelsB32, 10, s(100)), endpgm()]);
    let mut w = base_wave(gen);
    w.m0 = 3;
    let out = check(&jit(), &prog, &w, "last slot");
    assert_eq!(out.wave.sgpr[10], 0x1000 + 103);
}

#[test]
fn program_counter_moves_by_hand() {
    let gen = Gen::Gfx8;
    // 0: s_getpc_b64 s[0:1]        s[0:1] = 4
    // 4: s_add_u32 s0, s0, 16      s0 = 20
    // 8: s_setpc_b64 s[0:1]        → 20
    // 12: s_mov_b32 s20, 1
    // 16: s_endpgm
    // 20: s_mov_b32 s21, 2
    // 24: s_mov_b64 s[4:5], 12
    // 28: s_swappc_b64 s[2:3], s[4:5]   s[2:3] = 32, → 12
    let prog = program(
        gen,
        &[
            sop1(Op::SGetpcB64, 0, Src(0)),
            sop2(Op::SAddU32, 0, s(0), ic(16)),
            sop1(Op::SSetpcB64, 0, s(0)),
            sop1(Op::SMovB32, 20, ic(1)),
            endpgm(),
            sop1(Op::SMovB32, 21, ic(2)),
            sop1(Op::SMovB64, 4, ic(12)),
            sop1(Op::SSwappcB64, 2, s(4)),
            endpgm(),
        ],
    );
    let w = base_wave(gen);
    let jit = jit();
    let out = check(&jit, &prog, &w, "setpc/swappc");
    let x = &out.wave;
    assert_eq!((x.sgpr[0], x.sgpr[1]), (20, 0));
    assert_eq!((x.sgpr[2], x.sgpr[3]), (32, 0));
    assert_eq!((x.sgpr[20], x.sgpr[21]), (1, 2));
    assert_eq!(x.pc, 16);
    assert_inline(&jit, &prog, &w, "inline");

    // A target with high bits set is outside the code: the interpreter's error.
    let prog = program(
        gen,
        &[
            sop1(Op::SMovB32, 7, ic(1)),
            sop1(Op::SSwappcB64, 8, s(6)),
            endpgm(),
        ],
    );
    let out = check(&jit, &prog, &w, "setpc far");
    let err = out.result.expect_err("far target");
    assert_eq!(err.pc, 4);
    // The link pair was not written.
    assert_eq!(out.wave.sgpr[8], 0x1008);
}

#[test]
fn mode_register_by_hand() {
    let gen = Gen::Gfx7;
    let prog = program(
        gen,
        &[
            sopk(Op::SGetregB32, 3, hwreg(1, 0, 32)),
            sopk(Op::SGetregB32, 4, hwreg(1, 4, 4)),
            with_lit(sopk(Op::SSetregImm32B32, 0, hwreg(1, 0, 4)), 0x13),
            sopk(Op::SGetregB32, 5, hwreg(1, 0, 32)),
            sopk(Op::SMovkI32, 7, 0x5a),
            sopk(Op::SSetregB32, 7, hwreg(1, 4, 4)),
            sopk(Op::SGetregB32, 6, hwreg(1, 0, 32)),
            endpgm(),
        ],
    );
    let mut w = base_wave(gen);
    w.mode = 0xF0;
    let jit = jit();
    let out = check(&jit, &prog, &w, "getreg/setreg");
    let x = &out.wave;
    assert_eq!(x.sgpr[3], 0xF0);
    assert_eq!(x.sgpr[4], 0xF);
    // MODE[3:0] = 0x13 & 0xF: 0xF3.
    assert_eq!(x.sgpr[5], 0xF3);
    // MODE[7:4] = 0x5a & 0xF (the low bits of the value go to the field): 0xA3.
    assert_eq!(x.sgpr[6], 0xA3);
    assert_eq!(x.mode, 0xA3);
    assert_inline(&jit, &prog, &w, "inline");

    // Any other hardware register is unsupported in both engines.
    let prog = program(gen, &[sopk(Op::SGetregB32, 3, hwreg(2, 0, 32)), endpgm()]);
    let out = check(&jit, &prog, &w, "getreg STATUS");
    assert!(matches!(
        out.result.expect_err("unsupported").kind,
        ExecErrorKind::Unsupported { .. }
    ));
}

/// A random scalar source: an SGPR (often near the relative bases), VCC, M0, EXEC or a
/// constant.
fn ssrc(rng: &mut StdRng) -> Src {
    match rng.random_range(0..8) {
        0 => s(106),
        1 => s(124),
        2 => ic(rng.random_range(-16..65)),
        3 => s(126),
        _ => s(rng.random_range(0..24)),
    }
}

fn random_block(rng: &mut StdRng, n: usize) -> Vec<Inst> {
    let mut out = Vec::new();
    for _ in 0..n {
        let d = rng.random_range(0..24u8);
        out.push(match rng.random_range(0..12) {
            0 => sopk(
                Op::SMovkI32,
                M0,
                if rng.random_bool(0.85) {
                    rng.random_range(0..110)
                } else {
                    rng.random()
                },
            ),
            1 => sop1(Op::SMovrelsB32, d, s(rng.random_range(0..24))),
            2 => sop1(Op::SMovrelsB64, d & !1, s(rng.random_range(0..24))),
            3 => sop1(Op::SMovreldB32, rng.random_range(0..24), ssrc(rng)),
            4 => sop1(
                Op::SMovreldB64,
                rng.random_range(0..24),
                s(rng.random_range(0..22)),
            ),
            5 => sop2(Op::SAddU32, d, ssrc(rng), ssrc(rng)),
            6 => sop2(Op::SXorB64, d & !1, s(rng.random_range(0..22)), s(106)),
            7 => sop1(Op::SMovB32, d, ssrc(rng)),
            // A compare writing a pair in lane form (VCC or an SGPR pair).
            8 => vop3(
                Op::VCmpLtU32,
                [0, 2, 4, 106][rng.random_range(0..4)],
                [v(rng.random_range(0..4)), v(rng.random_range(0..4)), Src(0)],
            ),
            9 => sopk(Op::SGetregB32, d, hwreg(1, rng.random_range(0..8), 8)),
            10 => sop1(Op::SGetpcB64, d & !1, Src(0)),
            _ => sopc(Op::SCmpEqU32, ssrc(rng), ssrc(rng)),
        });
    }
    out
}

#[test]
fn random_blocks_against_the_interpreter() {
    let mut rng = rng(0x4b5c);
    let mut runs = 0;
    let mut errors = 0;
    for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
        for b in 0..40 {
            let mut insts = random_block(&mut rng, 3 + b % 12);
            if b % 5 == 0 {
                // A setreg in the middle: the rest runs in a unit for the new MODE.
                let at = rng.random_range(0..insts.len());
                insts.insert(
                    at,
                    with_lit(
                        sopk(Op::SSetregImm32B32, 0, hwreg(1, 0, 8)),
                        rng.random_range(0..256),
                    ),
                );
            }
            insts.push(endpgm());
            let prog = program(gen, &insts);
            for (name, jit) in jits() {
                for k in 0..4 {
                    let mut w = random_wave(gen, &mut rng, [0xF0, 0x00, 0x3C][k % 3]);
                    w.m0 = rng.random_range(0..120);
                    let out = check(&jit, &prog, &w, &format!("{gen} block {b} {name} {k}"));
                    runs += 1;
                    errors += out.result.is_err() as usize;
                }
            }
        }
    }
    // Both in-range and out-of-range runs happened.
    assert!(
        runs == 960 && errors > 50 && errors < 900,
        "{runs} {errors}"
    );
}

/// In-range relative moves, program-counter moves and MODE accesses run without the
/// interpreter helper.
#[test]
fn lowered_without_helper() {
    let mut rng = rng(7);
    for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
        for _ in 0..30 {
            let mut insts = vec![sopk(Op::SMovkI32, M0, rng.random_range(0..60))];
            for _ in 0..8 {
                let d = rng.random_range(0..40u8);
                insts.push(match rng.random_range(0..5) {
                    0 => sop1(Op::SMovrelsB32, d, s(rng.random_range(0..40))),
                    1 => sop1(Op::SMovrelsB64, d & !1, s(rng.random_range(0..40))),
                    2 => sop1(
                        Op::SMovreldB32,
                        rng.random_range(0..40),
                        s(rng.random_range(0..40)),
                    ),
                    3 => sop1(
                        Op::SMovreldB64,
                        rng.random_range(0..40),
                        s(rng.random_range(0..40)),
                    ),
                    _ => sopk(Op::SGetregB32, d, hwreg(1, 0, 32)),
                });
            }
            insts.push(endpgm());
            let prog = program(gen, &insts);
            let jit = jit();
            let w = random_wave(gen, &mut rng, 0xF0);
            check(&jit, &prog, &w, &format!("{gen}"));
            assert_inline(&jit, &prog, &w, &gen.to_string());
        }
    }
}
