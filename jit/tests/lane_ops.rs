//! Lane and register indices known only at run time, lowered inline (`jit/src/gcn/
//! lanes.rs`): `v_readlane_b32`, `v_writelane_b32`, `v_readfirstlane_b32` and the
//! M0-relative `v_movrels_b32`/`v_movreld_b32`/`v_movrelsd_b32` — values worked out by
//! hand (AMD manuals: `SDST = S0[S1 & 63]`, `VDST[S1 & 63] = S0` ignoring EXEC, the lowest
//! EXEC lane or lane 0, `VGPR[base + M0]` under EXEC), a register index past v255 giving
//! the interpreter's error, random blocks against the interpreter, no helper calls.

mod common;

use common::*;
use rand::rngs::StdRng;
use rand::Rng;
use wavejit_interp::ExecErrorKind;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Inst, Op, Src};
use wavejit_isa::state::Wave;

const M0: u8 = 124;

/// `v_readlane_b32 s[sdst], src, lane` in the generation's encoding (VOP2 with a scalar
/// code in VSRC1 on GCN 1.0/1.1, VOP3 on 1.2).
fn readlane(gen: Gen, sdst: u8, src: Src, lane: Src) -> Inst {
    if gen == Gen::Gfx8 {
        vop3(Op::VReadlaneB32, sdst, [src, lane, Src(0)])
    } else {
        vop2(Op::VReadlaneB32, sdst, src, lane.0 as u8)
    }
}

fn writelane(gen: Gen, vdst: u8, val: Src, lane: Src) -> Inst {
    if gen == Gen::Gfx8 {
        vop3(Op::VWritelaneB32, vdst, [val, lane, Src(0)])
    } else {
        vop2(Op::VWritelaneB32, vdst, val, lane.0 as u8)
    }
}

/// v[r] lane l = 0x100 × r + l; s[i] = 0x1000 + i.
fn hand_wave(gen: Gen, exec: u64) -> Box<Wave> {
    let mut w = Wave::new(gen);
    for r in 0..256 {
        for l in 0..64 {
            w.vgpr[r][l] = 0x100 * r as u32 + l as u32;
        }
    }
    for i in 0..104 {
        w.sgpr[i] = 0x1000 + i as u32;
    }
    w.exec = exec;
    w
}

#[test]
fn reads_and_writes_by_hand() {
    for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
        let prog = program(
            gen,
            &[
                sopk(Op::SMovkI32, 2, 70),
                readlane(gen, 10, v(1), s(2)),
                readlane(gen, 11, v(1), ic(63)),
                vop1(Op::VReadfirstlaneB32, 12, v(3)),
                // A value still in the register cache: v4 = 7 in active lanes.
                vop1(Op::VMovB32, 4, ic(7)),
                readlane(gen, 13, v(4), ic(5)),
                readlane(gen, 14, v(4), ic(4)),
                // Write lane 65 & 63 = 1 (EXEC 0 there), then read it back through an add.
                sopk(Op::SMovkI32, 3, 0x5eed),
                sopk(Op::SMovkI32, 5, 65),
                writelane(gen, 6, s(3), s(5)),
                vop2(Op::VOrB32, 7, ic(1), 6),
                readlane(gen, 15, v(6), ic(1)),
                readlane(gen, 16, v(6), ic(2)),
                // A scalar source: the same value whatever the lane.
                readlane(gen, 17, s(3), ic(9)),
                endpgm(),
            ],
        );
        // EXEC: lanes 4-7 and 32-63.
        let exec = 0xffff_ffff_0000_00f0;
        let w = hand_wave(gen, exec);
        let jit = jit();
        let out = check(&jit, &prog, &w, &format!("{gen}"));
        let x = &out.wave;
        assert_eq!(x.sgpr[10], 0x106, "{gen}");
        assert_eq!(x.sgpr[11], 0x13f);
        assert_eq!(x.sgpr[12], 0x304);
        assert_eq!(x.sgpr[13], 7);
        assert_eq!(x.sgpr[14], 7);
        // Lane 1 of v6 is written although EXEC is 0 there; v7 = v6 + 1 only where active.
        assert_eq!(x.vgpr[6][1], 0x5eed);
        assert_eq!(x.vgpr[6][2], 0x602);
        assert_eq!(x.vgpr[7][1], 0x701);
        assert_eq!(x.vgpr[7][4], 0x605);
        assert_eq!((x.sgpr[15], x.sgpr[16]), (0x5eed, 0x602));
        assert_eq!(x.sgpr[17], 0x5eed);
        assert_inline(&jit, &prog, &w, &gen.to_string());

        // V_READFIRSTLANE with EXEC = 0 reads lane 0; with EXEC = 1 << 63, lane 63.
        let prog = program(gen, &[vop1(Op::VReadfirstlaneB32, 12, v(3)), endpgm()]);
        for (exec, want) in [(0u64, 0x300), (1 << 63, 0x33f), (u64::MAX, 0x300)] {
            let out = check(&jit, &prog, &hand_wave(gen, exec), "readfirstlane");
            assert_eq!(out.wave.sgpr[12], want, "{gen} {exec:#x}");
        }
    }
    // VOP3 ABS/NEG act on bit 31 of the value read.
    let gen = Gen::Gfx8;
    let prog = program(
        gen,
        &[
            vop3m(
                Op::VReadlaneB32,
                10,
                0,
                [v(1), ic(2), Src(0)],
                0,
                1,
                false,
                0,
            ),
            vop3m(
                Op::VReadlaneB32,
                11,
                0,
                [v(2), ic(0), Src(0)],
                1,
                0,
                false,
                0,
            ),
            vop1(Op::VNotB32, 3, v(0)),
            vop3m(
                Op::VReadlaneB32,
                12,
                0,
                [v(3), ic(0), Src(0)],
                1,
                1,
                true,
                1,
            ),
            vop3m(
                Op::VMovrelsB32,
                13,
                0,
                [v(4), Src(0), Src(0)],
                0,
                1,
                false,
                0,
            ),
            endpgm(),
        ],
    );
    let out = check(&jit(), &prog, &hand_wave(gen, u64::MAX), "modifiers");
    assert_eq!(out.wave.sgpr[10], 0x8000_0102);
    assert_eq!(out.wave.sgpr[11], 0x200);
    // M0 = 0: v13 = -v4 as bits.
    assert_eq!(out.wave.vgpr[13][3], 0x8000_0403);
    // !0 = 0xffffffff: ABS clears bit 31, NEG sets it again.
    assert_eq!(out.wave.sgpr[12], 0xffff_ffff);
}

#[test]
fn relative_moves_by_hand() {
    let gen = Gen::Gfx7;
    let prog = program(
        gen,
        &[
            sopk(Op::SMovkI32, M0, 2),
            vop1(Op::VMovrelsB32, 5, v(1)),
            sopk(Op::SMovkI32, M0, 3),
            // A value in the register cache is what the relative move reads.
            vop1(Op::VMovB32, 1, ic(-3)),
            vop1(Op::VMovreldB32, 5, v(1)),
            sopk(Op::SMovkI32, M0, 1),
            vop1(Op::VMovrelsdB32, 9, v(8)),
            // A relative write is what a later read sees.
            vop2(Op::VOrB32, 11, ic(1), 10),
            endpgm(),
        ],
    );
    let exec = 0x0000_0000_ffff_0001;
    let w = hand_wave(gen, exec);
    let jit = jit();
    let out = check(&jit, &prog, &w, "movrel");
    let x = &out.wave;
    // v5 = v3 where active (lanes 0, 16-31); elsewhere its own value.
    assert_eq!(
        (x.vgpr[5][0], x.vgpr[5][1], x.vgpr[5][20]),
        (0x300, 0x501, 0x314)
    );
    // v8 = v1 = -3 where active.
    assert_eq!((x.vgpr[8][0], x.vgpr[8][1]), ((-3i32) as u32, 0x801));
    // v10 = v9 (M0 = 1 on both sides) where active: v9 was untouched.
    assert_eq!((x.vgpr[10][16], x.vgpr[10][40]), (0x910, 0xa28));
    assert_eq!((x.vgpr[11][16], x.vgpr[11][40]), (0x911, 0xb28));
    assert_inline(&jit, &prog, &w, "inline");
}

#[test]
fn relative_move_past_v255_is_the_interpreters_error() {
    let gen = Gen::Gfx8;
    let cases: [(Inst, u32); 4] = [
        (vop1(Op::VMovrelsB32, 5, v(250)), 6),
        (vop1(Op::VMovreldB32, 255, v(0)), 1),
        (vop1(Op::VMovrelsdB32, 1, v(200)), 56),
        (vop1(Op::VMovreldB32, 0, v(0)), u32::MAX),
    ];
    for (i, (inst, m0)) in cases.into_iter().enumerate() {
        let prog = program(gen, &[vop1(Op::VMovB32, 3, ic(1)), inst, endpgm()]);
        let mut w = hand_wave(gen, u64::MAX);
        w.m0 = m0;
        let out = check(&jit(), &prog, &w, &format!("case {i}"));
        let err = out.result.expect_err("past v255");
        assert_eq!(err.pc, 4, "case {i}");
        assert!(
            matches!(&err.kind, ExecErrorKind::BadOperand(m) if m.contains("past v255")),
            "case {i}: {err:?}"
        );
        assert_eq!(out.wave.vgpr[3][0], 1);
    }
    // The last register in range: v250 + 5.
    let prog = program(gen, &[vop1(Op::VMovrelsB32, 5, v(250)), endpgm()]);
    let mut w = hand_wave(gen, u64::MAX);
    w.m0 = 5;
    let out = check(&jit(), &prog, &w, "v255");
    assert_eq!(out.wave.vgpr[5][7], 0xff07);
}

fn random_inst(gen: Gen, rng: &mut StdRng) -> Inst {
    let vr = |rng: &mut StdRng| rng.random_range(0..12u8);
    let sr = |rng: &mut StdRng| match rng.random_range(0..6) {
        0 => s(124),
        1 => ic(rng.random_range(-16..65)),
        2 => s(106),
        _ => s(rng.random_range(0..16)),
    };
    match rng.random_range(0..12) {
        0 | 1 => readlane(gen, rng.random_range(0..16), v(vr(rng)), sr(rng)),
        2 => vop1(Op::VReadfirstlaneB32, rng.random_range(0..16), v(vr(rng))),
        3 | 4 => writelane(gen, vr(rng), sr(rng), sr(rng)),
        5 => vop1(Op::VMovrelsB32, vr(rng), v(vr(rng))),
        6 => vop1(
            Op::VMovreldB32,
            vr(rng),
            if rng.random() { v(vr(rng)) } else { sr(rng) },
        ),
        7 => vop1(Op::VMovrelsdB32, vr(rng), v(vr(rng))),
        8 => sopk(Op::SMovkI32, M0, rng.random_range(0..14)),
        9 => vop2(Op::VOrB32, vr(rng), sr(rng), vr(rng)),
        10 => vop3(
            Op::VCmpLtU32,
            [0, 2, 106][rng.random_range(0..3)],
            [v(vr(rng)), v(vr(rng)), Src(0)],
        ),
        _ => vop2(Op::VXorB32, vr(rng), v(vr(rng)), vr(rng)),
    }
}

#[test]
fn random_blocks_against_the_interpreter() {
    let mut rng = rng(0x1a4e);
    let mut runs = 0;
    let mut errors = 0;
    for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
        for b in 0..40 {
            let mut insts: Vec<Inst> = (0..4 + b % 10)
                .map(|_| random_inst(gen, &mut rng))
                .collect();
            if b % 4 == 0 {
                // EXEC from a compare in the middle.
                let at = rng.random_range(0..insts.len());
                insts.insert(at, vop3(Op::VCmpxLtU32, 0, [v(0), v(1), Src(0)]));
            }
            insts.push(endpgm());
            let prog = program(gen, &insts);
            for (name, jit) in jits() {
                for k in 0..4 {
                    let mut w = random_wave(gen, &mut rng, 0xF0);
                    // Mostly in range (base < 12, M0 < 14), sometimes past v255.
                    w.m0 = if k == 3 {
                        rng.random_range(240..300)
                    } else {
                        rng.random_range(0..14)
                    };
                    let out = check(&jit, &prog, &w, &format!("{gen} block {b} {name} {k}"));
                    runs += 1;
                    errors += out.result.is_err() as usize;
                }
            }
        }
    }
    assert!(
        runs == 960 && errors > 20 && errors < 400,
        "{runs} {errors}"
    );
}
