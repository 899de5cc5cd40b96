//! VINTRP inline (`jit/src/gcn/vintrp.rs`): V_INTERP_P1_F32, V_INTERP_P2_F32 and
//! V_INTERP_MOV_F32 in the VINTRP encoding and GCN 1.2's VOP3 form, against the
//! interpreter (random M0 offsets and NEWPRIMMASKs, attributes, channels, EXEC, MODE, LDS
//! sizes and contents — in and out of bounds), and against values worked out by hand from
//! 001_43f5507a70f72cb4.txt and ERRATA VINTRP 2-3.

mod common;

use common::*;
use rand::Rng;
use wavejit_interp::ExecErrorKind;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::operand::InterpAttr;
use wavejit_isa::gcn::{Inst, Op, Src};
use wavejit_isa::state::{Lds, Space, Wave};
use wavejit_jit::JitConfig;

/// GCN 1.2's VOP3 form: SRC0 holds the attribute, SRC1 the coordinate (or MOV's
/// parameter number).
#[allow(clippy::too_many_arguments)]
fn intrp3(
    op: Op,
    vdst: u8,
    src1: Src,
    attr: u8,
    chan: u8,
    abs: u8,
    neg: u8,
    clamp: bool,
    omod: u8,
) -> Inst {
    let a = InterpAttr {
        attr,
        chan,
        high: false,
    };
    vop3m(
        op,
        vdst,
        0,
        [a.to_src(), src1, Src(0)],
        abs,
        neg,
        clamp,
        omod,
    )
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// The byte address of parameter `which` (0 P0, 1 P10, 2 P20) of `chan` for quad `q`,
/// written out from ERRATA VINTRP 2-3 (independently of both engines).
fn param_addr(m0: u32, attr: u32, chan: u32, which: u32, q: u32) -> u32 {
    let mask = (m0 >> 16) & 0x7fff;
    let numprim = mask.count_ones() + 1;
    let primid = (0..q).filter(|b| mask >> b & 1 != 0).count() as u32;
    let dw = 12 * (attr * numprim + primid)
        + match which {
            0 => 2 * chan,
            1 => 2 * chan + 1,
            _ => 8 + chan,
        };
    (m0 & 0xffff) + 4 * dw
}

fn put(lds: &mut Lds, addr: u32, v: u32) {
    lds.bytes[addr as usize..addr as usize + 4].copy_from_slice(&v.to_le_bytes());
}

/// Two primitives (NEWPRIMMASK bit 1: quads 0-1 primitive 0, quads 2-15 primitive 1), attribute
/// 1 channel z, M0 offset 8: P1 then P2 then MOV, every value worked out by hand.
#[test]
fn interpolation_by_hand() {
    let gen = Gen::Gfx7;
    let m0 = 8 | 0b10 << 16;
    let (attr, chan) = (1, 2);
    let mut lds = Lds::new(1024);
    // Primitive 0: P0 1.0, P10 2.0, P20 4.0; primitive 1: P0 -3.0, P10 0.5, P20 8.0.
    for (q, p) in [(0, [1.0f32, 2.0, 4.0]), (2, [-3.0, 0.5, 8.0])] {
        for (which, v) in p.iter().enumerate() {
            put(&mut lds, param_addr(m0, attr, chan, which as u32, q), f(*v));
        }
    }
    // Primitive 1's P0.z is at 8 + 4 × 12 × (1 × 2 + 1) + 4 × 4 = 168.
    assert_eq!(param_addr(m0, attr, chan, 0, 2), 168);
    let prog = program(
        gen,
        &[
            vintrp(Op::VInterpP1F32, 5, 0, attr as u8, chan as u8),
            vintrp(Op::VInterpP1F32, 2, 0, attr as u8, chan as u8),
            vintrp(Op::VInterpP2F32, 2, 1, attr as u8, chan as u8),
            vintrp(Op::VInterpMovF32, 3, 1, attr as u8, chan as u8), // P20
            vintrp(Op::VInterpMovF32, 4, 2, attr as u8, chan as u8), // P0
            endpgm(),
        ],
    );
    let mut w = Wave::new(gen);
    w.m0 = m0;
    w.exec = u64::MAX;
    for l in 0..64 {
        w.vgpr[0][l] = f(0.5); // I
        w.vgpr[1][l] = f(0.25); // J
    }
    for (name, jit) in jits() {
        let out = check_with(&jit, &prog, &w, &lds, &MemInit::default(), 100, name);
        for l in 0..64 {
            let (p1, p2, p20, p0) = if l < 8 {
                // 1 + 0.5 × 2 = 2; 2 + 0.25 × 4 = 3.
                (2.0, 3.0, 4.0, 1.0)
            } else {
                // -3 + 0.5 × 0.5 = -2.75; -2.75 + 0.25 × 8 = -0.75.
                (-2.75, -0.75, 8.0, -3.0)
            };
            assert_eq!(out.wave.vgpr[5][l], f(p1), "{name} P1 lane {l}");
            assert_eq!(out.wave.vgpr[2][l], f(p2), "{name} P2 lane {l}");
            assert_eq!(out.wave.vgpr[3][l], f(p20), "{name} MOV P20 lane {l}");
            assert_eq!(out.wave.vgpr[4][l], f(p0), "{name} MOV P0 lane {l}");
        }
    }
}

/// Compiled without helper calls: the whole block runs inline.
#[test]
fn no_helper_for_f32_interpolation() {
    let gen = Gen::Gfx8;
    let jit = jit();
    let prog = program(
        gen,
        &[
            vintrp(Op::VInterpP1F32, 2, 0, 0, 1),
            vintrp(Op::VInterpP2F32, 2, 1, 0, 1),
            intrp3(Op::VInterpP1F32, 3, v(0), 2, 3, 0, 0, false, 0),
            intrp3(Op::VInterpP2F32, 3, v(1), 2, 3, 0, 0, false, 0),
            intrp3(Op::VInterpMovF32, 4, Src(2), 1, 0, 0, 0, false, 0),
            endpgm(),
        ],
    );
    let mut w = Wave::new(gen);
    w.m0 = 0;
    w.exec = 0xffff_0000_ffff_0f0f;
    let mut lds = Lds::new(4096);
    for (i, b) in lds.bytes.iter_mut().enumerate() {
        *b = (i * 7) as u8;
    }
    let (_, st) = jit_run_stats(&jit, &prog, &w, &lds, &MemInit::default()).expect("runs");
    assert_eq!(st.helper_steps, 0, "{st:?}");
    assert_eq!(st.interpreted, 0, "{st:?}");
    check_with(&jit, &prog, &w, &lds, &MemInit::default(), 100, "inline");
}

/// An out-of-bounds parameter read is the interpreter's error: same pc, lane and
/// address, and the instructions before it in the block have run.
#[test]
fn out_of_bounds_error_by_hand() {
    let gen = Gen::Gfx8;
    // LDS of 200 bytes; M0 offset 100, no new primitives: attribute 1 channel 0's P0 is at
    // 100 + 4 × 12 = 148 (fits), its P10 at 152 (fits); attribute 3's P0 at 100 + 4 × 36
    // = 244: out of bounds. EXEC's first active lane is 9.
    let prog = program(
        gen,
        &[
            vop2(Op::VAddU32, 5, ic(1), 5),
            vintrp(Op::VInterpP1F32, 2, 0, 1, 0),
            vop2(Op::VAddU32, 6, ic(2), 6),
            vintrp(Op::VInterpP1F32, 3, 0, 3, 0),
            vop2(Op::VAddU32, 7, ic(3), 7),
            endpgm(),
        ],
    );
    let mut w = Wave::new(gen);
    w.m0 = 100;
    w.exec = 0xff00_0000_0000_fe00;
    let lds = Lds::new(200);
    for (name, jit) in jits() {
        let out = check_with(&jit, &prog, &w, &lds, &MemInit::default(), 100, name);
        let e = out.result.expect_err("out of bounds");
        assert_eq!(e.pc, 12, "{name}");
        assert_eq!(
            e.kind,
            ExecErrorKind::OutOfBounds {
                space: Space::Lds,
                addr: 244,
                size: 4,
                lane: Some(9)
            },
            "{name}"
        );
        assert_eq!(
            out.wave.vgpr[5][9], 1,
            "{name}: v5 written before the error"
        );
        assert_eq!(
            out.wave.vgpr[6][9], 2,
            "{name}: v6 written before the error"
        );
        assert_eq!(out.wave.vgpr[7][9], 0, "{name}: v7 after the error is not");
    }
}

/// A segment's interpolations share one bounds check, that of the one reading furthest
/// (attribute 3 here, the last); when it fails, the first one out of bounds (attribute 2,
/// earlier) is the interpreter's error, with the instructions before it run and the
/// later ones not.
#[test]
fn shared_bounds_check_reports_the_first_failing_interpolation() {
    let gen = Gen::Gfx8;
    // LDS of 220 bytes, M0 offset 100, one primitive: attribute a's P0 of channel 0 at
    // 100 + 48 × a: attribute 1 at 148 (fits, P10 at 152), attribute 2 at 196 (its P10
    // at 200 fits, its P20 at 100 + 96 + 32 = 228 does not), attribute 3 at 244 (out).
    let prog = program(
        gen,
        &[
            vintrp(Op::VInterpP1F32, 2, 0, 1, 0),
            vop2(Op::VAddU32, 5, ic(1), 5),
            vintrp(Op::VInterpP2F32, 3, 0, 2, 0),
            vop2(Op::VAddU32, 6, ic(2), 6),
            vintrp(Op::VInterpP1F32, 4, 0, 3, 0),
            endpgm(),
        ],
    );
    let mut w = Wave::new(gen);
    w.m0 = 100;
    for exec in [u64::MAX, 0x0000_00f0_0000_0000] {
        w.exec = exec;
        let lane = exec.trailing_zeros() as usize;
        for (name, jit) in jits() {
            let out = check_with(
                &jit,
                &prog,
                &w,
                &Lds::new(220),
                &MemInit::default(),
                100,
                name,
            );
            let e = out.result.expect_err("out of bounds");
            assert_eq!(e.pc, 8, "{name}: the attribute-2 interpolation fails first");
            assert_eq!(
                e.kind,
                ExecErrorKind::OutOfBounds {
                    space: Space::Lds,
                    addr: 228,
                    size: 4,
                    lane: Some(lane as u8)
                },
                "{name}"
            );
            assert_eq!(
                out.wave.vgpr[5][lane], 1,
                "{name}: v5 written before the error"
            );
            assert_eq!(
                out.wave.vgpr[6][lane], 0,
                "{name}: v6 after the error is not"
            );
        }
    }
}

/// With no lane active, nothing is read: no error however far out M0 points.
#[test]
fn no_active_lane_reads_nothing() {
    let gen = Gen::Gfx8;
    let prog = program(
        gen,
        &[
            vintrp(Op::VInterpP1F32, 2, 0, 63, 3),
            vintrp(Op::VInterpMovF32, 3, 1, 63, 3),
            endpgm(),
        ],
    );
    let mut w = Wave::new(gen);
    w.m0 = 0x7fff_ffff;
    w.exec = 0;
    for (name, jit) in jits() {
        let out = check_with(
            &jit,
            &prog,
            &w,
            &Lds::new(0),
            &MemInit::default(),
            100,
            name,
        );
        assert!(out.result.is_ok(), "{name}: {:?}", out.result);
    }
}

/// A random interpolation (either encoding on GCN 1.2) or a plain VALU instruction.
fn random_inst(gen: Gen, rng: &mut rand::rngs::StdRng) -> Inst {
    let vdst = rng.random_range(0..12u8);
    let vs = rng.random_range(0..12u8);
    let attr = if rng.random_bool(0.7) {
        rng.random_range(0..4)
    } else {
        rng.random_range(0..64)
    };
    let chan = rng.random_range(0..4);
    let op = match rng.random_range(0..7) {
        0 | 1 => Op::VInterpP1F32,
        2 | 3 => Op::VInterpP2F32,
        4 => Op::VInterpMovF32,
        5 => return vop2(Op::VAddF32, vdst, v(vs), rng.random_range(0..12)),
        _ => return vop2(Op::VMulF32, vdst, v(vs), rng.random_range(0..12)),
    };
    if gen == Gen::Gfx8 && rng.random_bool(0.4) {
        let src1 = if op == Op::VInterpMovF32 {
            Src(rng.random_range(0..3))
        } else {
            v(vs)
        };
        // (ABS/NEG/CLAMP/OMOD are not encodable on these rows: the decoder refuses them.)
        return intrp3(op, vdst, src1, attr, chan, 0, 0, false, 0);
    }
    let vsrc = if op == Op::VInterpMovF32 {
        // (3 and up are not encodable: the decoder refuses them.)
        rng.random_range(0..3)
    } else {
        vs
    };
    vintrp(op, vdst, vsrc, attr, chan)
}

#[test]
fn random_interpolation_against_the_interpreter() {
    let mut rng = rng(0x1471);
    let modes = [0xC0u32, 0xF0, 0x1F0, 0x00, 0x30, 0x3F0, 0xC1];
    let jits: Vec<_> = jits()
        .into_iter()
        .chain([(
            "no-chain",
            up(wavejit_jit::Jit::new(JitConfig {
                chain: false,
                ..JitConfig::default()
            })),
        )])
        .collect();
    let (mut ok, mut failed) = (0, 0);
    for case in 0..600 {
        let gen = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8][case % 3];
        let n = rng.random_range(1..8);
        let mut insts: Vec<Inst> = (0..n).map(|_| random_inst(gen, &mut rng)).collect();
        insts.push(endpgm());
        let prog = program(gen, &insts);
        let mode = modes[rng.random_range(0..modes.len())];
        let mut w = random_wave(gen, &mut rng, mode);
        // M0: offset and NEWPRIMMASK (bit 31 too: it is not part of the mask).
        let off = match rng.random_range(0..4) {
            0 => 0,
            1 => rng.random_range(0..64) * 4,
            2 => rng.random_range(0..0x1_0000),
            _ => rng.random_range(0..2048),
        };
        let npm: u32 = match rng.random_range(0..4) {
            0 => 0,
            1 => rng.random_range(0..0x8000),
            2 => 0x7fff,
            _ => 1 << rng.random_range(0..15),
        };
        w.m0 = off | npm << 16 | (rng.random_range(0..2u32) << 31);
        w.exec = match rng.random_range(0..6) {
            0 | 1 => u64::MAX,
            2 => 0,
            3 => 1 << rng.random_range(0..64),
            4 => rng.random::<u64>() & 0x0000_ffff_ffff_ffff,
            _ => rng.random(),
        };
        let size = match rng.random_range(0..4) {
            0 => Lds::MAX,
            1 => rng.random_range(0..512),
            2 => rng.random_range(0..8192),
            _ => rng.random_range(0..Lds::MAX),
        };
        let mut lds = Lds::new(size);
        for b in lds.bytes.chunks_mut(4) {
            let x = rand32(&mut rng).to_le_bytes();
            b.copy_from_slice(&x[..b.len()]);
        }
        for (name, jit) in &jits {
            let what = format!("case {case} ({gen}, MODE {mode:#x}, {name}): {insts:?}");
            let out = check_with(jit, &prog, &w, &lds, &MemInit::default(), 1000, &what);
            if out.result.is_ok() {
                ok += 1;
            } else {
                failed += 1;
            }
        }
    }
    assert_compiled(&jits);
    // Both outcomes are exercised.
    assert!(ok > 300 && failed > 300, "ok {ok}, failed {failed}");
}

/// The interpolation in a loop (the benchmark's shape): chained blocks, M0 changed by
/// scalar code between iterations.
#[test]
fn interpolation_in_a_loop() {
    let gen = Gen::Gfx8;
    let mut insts = vec![
        sop1(Op::SMovB32, 124, Src(1)), // m0 = s1
        vintrp(Op::VInterpP1F32, 2, 0, 0, 0),
        vintrp(Op::VInterpP2F32, 2, 1, 0, 0),
        vop2(Op::VAddF32, 3, v(3), 2),
        vintrp(Op::VInterpMovF32, 4, 2, 1, 3),
        sop2(Op::SAddU32, 1, Src(1), ic(4)),
        sop2(Op::SSubU32, 0, Src(0), ic(1)),
        sopc(Op::SCmpLgU32, Src(0), ic(0)),
    ];
    // s_cbranch_scc1 back to the top (pc 0): offset in dwords from the next instruction.
    let words: usize = insts
        .iter()
        .map(|i| wavejit_isa::gcn::encode(gen, i).expect("encode").len())
        .sum();
    insts.push(sopp(Op::SCbranchScc1, (-(words as i32 + 1)) as u16));
    insts.push(endpgm());
    let prog = program(gen, &insts);
    let mut rng = rng(7);
    for (name, jit) in jits() {
        for iters in [1u32, 5, 40] {
            let mut w = random_wave(gen, &mut rng, 0xF0);
            w.sgpr[0] = iters;
            w.sgpr[1] = 0x0005_0000; // NEWPRIMMASK 0b101
            let mut lds = Lds::new(2048);
            for b in lds.bytes.chunks_mut(4) {
                b.copy_from_slice(&rand32(&mut rng).to_le_bytes());
            }
            let what = format!("{name} iters {iters}");
            let out = check_with(&jit, &prog, &w, &lds, &MemInit::default(), 10_000, &what);
            assert!(out.result.is_ok(), "{what}: {:?}", out.result);
        }
    }
}
