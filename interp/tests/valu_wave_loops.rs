//! The lane loops of pre-decoded code (`Cx::wave_loops`: MODE passed as a constant for its
//! common values, so each of them has a lane loop of its own) against the interpreter's
//! lane loop (MODE a run-time value): every vector ALU operation of the table in VOP3 form,
//! with and without ABS/NEG/CLAMP/OMOD, VGPR and SGPR sources, full, partial and empty
//! EXEC, over float special values (signed zeros, denormals at both ends, the normal
//! boundary, infinities, NaNs with payloads and signs) and random bits, in the MODE values
//! compiled as constants and in others; and instructions with results worked out by hand,
//! run as a pre-decoded block under partial EXEC.

use wavejit_interp::threaded::Block;
use wavejit_interp::valu::{self, dispatch::Handler, driver::Cx, operands::Vop};
use wavejit_interp::{Ctx, ExecErrorKind, Step};
use wavejit_isa::arch::{Arch, Gen};
use wavejit_isa::gcn::{build, Fields, Inst, Op, Src};
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave, LANES};

/// splitmix64.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

const F32_SPECIALS: [u32; 20] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x0000_0001, // smallest denormal
    0x8000_0001,
    0x007F_FFFF, // largest denormal
    0x807F_FFFF,
    0x0080_0000, // smallest normal
    0x8080_0000,
    0x3F80_0000, // 1
    0xBF80_0000,
    0x7F7F_FFFF, // largest finite
    0xFF7F_FFFF,
    0x7F80_0000, // infinities
    0xFF80_0000,
    0x7FC0_0000, // quiet NaN
    0xFFC0_0001, // negative quiet NaN with a payload
    0x7F80_0001, // signalling NaN
    0x7FBF_FFFF,
    0x4B00_0000, // 2^23
    0x3F00_0000, // 0.5
];

const F64_SPECIALS: [u64; 16] = [
    0,
    1 << 63,
    1,
    0x800F_FFFF_FFFF_FFFF,
    0x0010_0000_0000_0000,
    0x8010_0000_0000_0000,
    0x3FF0_0000_0000_0000,
    0xBFF0_0000_0000_0000,
    0x7FEF_FFFF_FFFF_FFFF,
    0x7FF0_0000_0000_0000,
    0xFFF0_0000_0000_0000,
    0x7FF8_0000_0000_0000,
    0xFFF8_0000_0000_0001,
    0x7FF0_0000_0000_0001,
    0x4330_0000_0000_0000,
    0x3FE0_0000_0000_0000,
];

/// A 64-bit lane value (a register pair): two f32 specials, an f64 special, or random bits.
fn lane_value(rng: &mut Rng) -> u64 {
    let r = rng.next();
    match r % 5 {
        0 | 1 => {
            let lo = F32_SPECIALS[(r >> 8) as usize % F32_SPECIALS.len()];
            let hi = F32_SPECIALS[(r >> 16) as usize % F32_SPECIALS.len()];
            (hi as u64) << 32 | lo as u64
        }
        2 => F64_SPECIALS[(r >> 8) as usize % F64_SPECIALS.len()],
        // Small integers (shift counts, lane selects, bit-field widths).
        3 => (r >> 8) & 0x3F,
        _ => rng.next(),
    }
}

/// The MODE values pre-decoded code compiles as constants, then others (directed
/// roundings, denormals kept for one precision only, DX10_CLAMP alone).
const MODES: [u32; 8] = [0xC0, 0xF0, 0x3C0, 0x00, 0x35, 0xCA, 0x1F0, 0x3FF];

/// Registers the instructions here read and write: v0-v31.
const VREGS: usize = 32;

/// Copy the state the instructions here use from `src` into `dst`.
fn load(dst: &mut Wave, src: &Wave) {
    dst.vgpr[..VREGS].copy_from_slice(&src.vgpr[..VREGS]);
    dst.sgpr = src.sgpr;
    (dst.exec, dst.vcc, dst.m0, dst.scc, dst.mode) = (src.exec, src.vcc, src.m0, src.scc, src.mode);
}

/// Run one prepared instruction on `w`.
fn run(h: Handler, v: Vop, w: &mut Wave, wave_loops: bool) -> Result<(), ExecErrorKind> {
    let mut lds = Lds::new(256);
    let mem = Memory::new();
    let mut ctx = Ctx {
        wave: w,
        lds: &mut lds,
        mem: &mem,
    };
    let mut cx = Cx {
        ctx: &mut ctx,
        v,
        wave_loops,
    };
    h(&mut cx)
}

/// Where two waves differ in the state the instructions here use, if they do.
fn diff(a: &Wave, b: &Wave) -> Option<String> {
    for r in 0..VREGS {
        for l in 0..LANES {
            if a.vgpr[r][l] != b.vgpr[r][l] {
                return Some(format!(
                    "v{r} lane {l}: {:#x} vs {:#x}",
                    a.vgpr[r][l], b.vgpr[r][l]
                ));
            }
        }
    }
    if a.sgpr != b.sgpr {
        return Some("SGPRs".into());
    }
    if (a.exec, a.vcc, a.m0, a.scc) != (b.exec, b.vcc, b.m0, b.scc) {
        return Some(format!(
            "exec/vcc/m0/scc {:#x} {:#x} {} {} vs {:#x} {:#x} {} {}",
            a.exec, a.vcc, a.m0, a.scc, b.exec, b.vcc, b.m0, b.scc
        ));
    }
    None
}

/// The VOP3 form of `op` with the given sources and modifiers, if the operation has one
/// on `gen` the interpreter prepares.
fn prepared(
    gen: Gen,
    op: Op,
    src: [Src; 3],
    mods: Option<(u8, u8, bool, u8)>,
) -> Option<(Handler, Vop, Inst)> {
    let mut inst = build::vop3(op, 10, src);
    if let (Fields::Vop3(f), Some((abs, neg, clamp, omod))) = (&mut inst.fields, mods) {
        f.sdst = 12;
        (f.abs, f.neg, f.clamp, f.omod) = (abs, neg, clamp, omod);
    }
    let (h, v) = valu::prepare(gen, &inst)?;
    Some((h, v, inst))
}

#[test]
fn every_operation_wave_loops_equal_the_lane_loop() {
    let mut rng = Rng(0x7165_7201);
    let mut ops_run = 0usize;
    let mut runs = 0usize;
    for gen in [Gen::Gfx6, Gen::Gfx8] {
        let (mut a, mut b) = (Wave::new(gen), Wave::new(gen));
        for &op in wavejit_isa::gcn::table::ALL_OPS.iter() {
            let srcs = [
                [Src::vgpr(2), Src::vgpr(4), Src::vgpr(6)],
                // SGPR pair s[4:5] and an inline constant (1.0) as uniform sources.
                [Src::vgpr(2), Src(4), Src(242)],
            ];
            let mods = [
                None,
                Some((0b010, 0b101, true, 1)),
                Some((0b001, 0b010, false, 3)),
            ];
            let mut any = false;
            for src in srcs {
                for m in mods {
                    let Some((h, v, inst)) = prepared(gen, op, src, m) else {
                        continue;
                    };
                    any = true;
                    for round in 0..2 {
                        let mut w = Wave::new(gen);
                        for r in [2usize, 4, 6, 10, 12] {
                            for l in 0..LANES {
                                let x = lane_value(&mut rng);
                                w.vgpr[r][l] = x as u32;
                                w.vgpr[r + 1][l] = (x >> 32) as u32;
                            }
                        }
                        let s = lane_value(&mut rng);
                        w.sgpr[4] = s as u32;
                        w.sgpr[5] = (s >> 32) as u32;
                        w.vcc = rng.next();
                        w.sgpr[12] = rng.next() as u32;
                        for mode in MODES {
                            // Every lane; about 16 and 48 lanes (pre-decoded code computes
                            // every lane and drops the others); one lane (it computes that
                            // one alone); none.
                            let (r1, r2) = (rng.next(), rng.next());
                            for exec in [u64::MAX, r1 & r2, r1 | r2, 1 << (r1 % 64), 0] {
                                w.mode = mode;
                                w.exec = exec;
                                load(&mut a, &w);
                                load(&mut b, &w);
                                let ra = run(h, v, &mut a, false);
                                let rb = run(h, v, &mut b, true);
                                let ctx = || {
                                    format!(
                                        "{gen} {} {inst:?} round {round} MODE {mode:#x} EXEC {exec:#x}",
                                        op.mnemonic()
                                    )
                                };
                                assert_eq!(ra, rb, "{}", ctx());
                                if let Some(d) = diff(&a, &b) {
                                    panic!("{}: {d}", ctx());
                                }
                                runs += 1;
                            }
                        }
                    }
                }
            }
            ops_run += any as usize;
        }
    }
    // Both generations have several hundred vector ALU operations with a VOP3 form.
    assert!(ops_run > 600, "{ops_run} operations");
    assert!(runs > 100_000, "{runs} runs");
}

fn assemble(gen: Gen, text: &str) -> Program {
    let a = wavejit_isa::gcn::asm::assemble(gen, text).expect("assembles");
    Program::new(Arch::Gcn(gen), &a.bytes)
}

/// Run `prog` as one pre-decoded block from `w`.
fn run_block(prog: &Program, w: &mut Wave) -> (Step, u64) {
    let block = Block::build(prog, 0);
    let mut lds = Lds::new(256);
    let mem = Memory::new();
    let mut ctx = Ctx {
        wave: w,
        lds: &mut lds,
        mem: &mem,
    };
    block.run(&mut ctx, prog, 100).expect("runs")
}

/// Float results that depend on MODE, and lane-mask results, under partial EXEC, with the
/// values worked out by hand from the MODE rules (float.rs) and the IEEE definitions.
#[test]
fn hand_computed_wave_loops_under_partial_exec() {
    let gen = Gen::Gfx8;
    let prog = assemble(
        gen,
        "v_max_f32 v2, v0, v1\n\
         v_add_f32 v3, v0, v0\n\
         v_cvt_f32_u32 v4, v5\n\
         v_add_u32 v6, vcc, v5, -1\n\
         v_cmp_lt_f32 s[8:9], v1, v0\n\
         v_med3_f32 v7, v0, v1, 1.0\n\
         v_fma_f64 v[10:11], v[12:13], v[12:13], v[14:15]\n\
         s_endpgm",
    );
    // Lanes 0-31 with odd numbers, and lane 40.
    let exec = 0xAAAA_AAAAu64 | 1 << 40;
    for mode in [0xC0u32, 0xF0, 0x3C0, 0x03] {
        let mut w = Wave::new(gen);
        w.exec = exec;
        w.mode = mode;
        w.vcc = u64::MAX;
        w.sgpr[8] = 0xFFFF_FFFF;
        w.sgpr[9] = 0xFFFF_FFFF;
        for l in 0..LANES {
            w.vgpr[0][l] = 0x0000_0001; // the smallest denormal
            w.vgpr[1][l] = 0x8000_0000; // -0
            w.vgpr[5][l] = l as u32;
            for r in [2, 3, 4, 6, 7, 10, 11] {
                w.vgpr[r][l] = 0xdead;
            }
            // 1.5 and 2^-1074 (the smallest f64 denormal) as f64.
            w.vgpr[12][l] = 0;
            w.vgpr[13][l] = 0x3FF8_0000;
            w.vgpr[14][l] = 1;
            w.vgpr[15][l] = 0;
        }
        let (step, n) = run_block(&prog, &mut w);
        assert_eq!((step, n), (Step::End, 8), "MODE {mode:#x}");
        let f32_kept = mode & 0x10 != 0;
        for l in 0..LANES {
            let on = exec >> l & 1 != 0;
            let want = |x: u32| if on { x } else { 0xdead };
            // max(denormal, -0): with f32 input denormals flushed the denormal is +0, and
            // +0 is above -0; kept, the denormal is the larger.
            let max = if f32_kept { 0x0000_0001 } else { 0x0000_0000 };
            assert_eq!(w.vgpr[2][l], want(max), "MODE {mode:#x} v2 lane {l}");
            // denormal + denormal = 2^-148, a denormal: kept only when both flushes are off
            // (0x03 flushes in and out: +0).
            let sum = if f32_kept && mode & 0x20 != 0 {
                0x0000_0002
            } else {
                0
            };
            assert_eq!(w.vgpr[3][l], want(sum), "MODE {mode:#x} v3 lane {l}");
            // A lane number below 2^24 converts exactly (rounding toward zero in MODE 0x03
            // changes nothing): l as f32.
            assert_eq!(w.vgpr[4][l], want((l as f32).to_bits()), "v4 lane {l}");
            // l + 0xFFFFFFFF = l - 1 with a carry out for every l > 0.
            assert_eq!(
                w.vgpr[6][l],
                want((l as u32).wrapping_sub(1)),
                "v6 lane {l}"
            );
            // med3(denormal, -0, 1.0): flushed, med3(+0, -0, 1) = +0 (the maximum of the
            // minimum of the first two, -0, and the minimum of +0 and 1); kept, the
            // denormal.
            let med = if f32_kept { 0x0000_0001 } else { 0x0000_0000 };
            assert_eq!(w.vgpr[7][l], want(med), "MODE {mode:#x} v7 lane {l}");
            // 1.5 × 1.5 + 2^-1074 = 2.25 (the denormal is far below half an ulp of 2.25)
            // rounding to nearest, which every MODE here sets for f64; with f64 input
            // denormals flushed the addend is +0: 2.25 again.
            assert_eq!(w.vgpr[10][l], want(0), "v10 lane {l}");
            assert_eq!(w.vgpr[11][l], want(0x4002_0000), "v11 lane {l}");
        }
        // Carry out: every running lane but lane 0 (which is not running); lanes outside
        // EXEC write 0.
        assert_eq!(w.vcc, exec & !1, "MODE {mode:#x} VCC");
        // -0 < denormal: with f32 input denormals flushed, -0 < +0 is false (they are
        // equal); kept, -0 < 2^-149 is true in every running lane. Lanes outside EXEC
        // write 0.
        let lt = if f32_kept { exec } else { 0 };
        assert_eq!(w.read_sreg64(8), lt, "MODE {mode:#x} s[8:9]");
    }
}

/// The gathered-row lane loop of pre-decoded code (sources of at most 32 bits, plain
/// forms) under a partial EXEC of 33 lanes: ABS/NEG on a register and
/// on an SGPR source, a literal, an integer operation with three sources, and the
/// float-to-integer conversions (the host path of `float::to_int`), with values worked
/// out by hand. Lanes outside EXEC keep their old values.
#[test]
fn hand_computed_row_loops_under_partial_exec() {
    let gen = Gen::Gfx8;
    let prog = assemble(
        gen,
        "v_add_f32 v3, -|v0|, s4\n\
         v_mad_u32_u24 v5, v1, 3, v2\n\
         v_cvt_i32_f32 v6, v7\n\
         v_cvt_flr_i32_f32 v8, v7\n\
         v_med3_f32 v9, v7, 1.0, s4\n\
         v_cmp_gt_u32 vcc, 20, v10\n\
         s_endpgm",
    );
    // Lanes 0, 8-15, 32-39 and 48-63.
    let exec: u64 = 0xFFFF_00FF_0000_FF01;
    // Per lane of v7 (by lane % 8): -2.5, 3e9, NaN, -0, the smallest denormal, -1e-40
    // (a negative denormal), 1.5, -2^31.
    let v7 = [
        0xC020_0000u32,
        0x4F32_D05E,
        0x7FC0_0001,
        0x8000_0000,
        0x0000_0001,
        0x8001_16C2,
        0x3FC0_0000,
        0xCF00_0000,
    ];
    // i32(trunc(x)), saturated, NaN 0.
    let trunc = [
        -2i32 as u32,
        i32::MAX as u32,
        0,
        0,
        0,
        0,
        1,
        i32::MIN as u32,
    ];
    for mode in [0xC0u32, 0xF0] {
        let kept = mode & 0x10 != 0;
        // i32(floor(x)), saturated, NaN by its sign (positive: i32::MAX); a negative
        // denormal floors to -1 when f32 denormals are kept, to 0 when flushed.
        let floor = [
            -3i32 as u32,
            i32::MAX as u32,
            i32::MAX as u32,
            0,
            0,
            if kept { -1i32 as u32 } else { 0 },
            1,
            i32::MIN as u32,
        ];
        // med3(x, 1, 2): with a NaN the minimum of the others; else x clamped to [1, 2].
        let med = [
            0x3F80_0000u32,
            0x4000_0000,
            0x3F80_0000,
            0x3F80_0000,
            0x3F80_0000,
            0x3F80_0000,
            0x3FC0_0000,
            0x3F80_0000,
        ];
        let mut w = Wave::new(gen);
        w.exec = exec;
        w.mode = mode;
        w.vcc = u64::MAX;
        w.sgpr[4] = 0x4000_0000; // 2.0
        for l in 0..LANES {
            // v0 = ±(l + 1) as f32: -|v0| + 2 = 1 - l.
            let x = (l as f32 + 1.0) * if l % 2 == 0 { 1.0 } else { -1.0 };
            w.vgpr[0][l] = x.to_bits();
            // v1 = l plus bits above the low 24 (which V_MAD_U32_U24 ignores).
            w.vgpr[1][l] = l as u32 | 0xAB00_0000;
            w.vgpr[2][l] = 1000 * l as u32;
            w.vgpr[7][l] = v7[l % 8];
            w.vgpr[10][l] = l as u32;
            for r in [3, 5, 6, 8, 9] {
                w.vgpr[r][l] = 0xdead;
            }
        }
        let (step, n) = run_block(&prog, &mut w);
        assert_eq!((step, n), (Step::End, 7), "MODE {mode:#x}");
        for l in 0..LANES {
            let on = exec >> l & 1 != 0;
            let want = |x: u32| if on { x } else { 0xdead };
            let m = format!("MODE {mode:#x} lane {l}");
            assert_eq!(w.vgpr[3][l], want((1.0 - l as f32).to_bits()), "v3 {m}");
            assert_eq!(w.vgpr[5][l], want(3 * l as u32 + 1000 * l as u32), "v5 {m}");
            assert_eq!(w.vgpr[6][l], want(trunc[l % 8]), "v6 {m}");
            assert_eq!(w.vgpr[8][l], want(floor[l % 8]), "v8 {m}");
            assert_eq!(w.vgpr[9][l], want(med[l % 8]), "v9 {m}");
        }
        // 20 > l for the running lanes below 20; lanes outside EXEC write 0.
        assert_eq!(w.vcc, exec & ((1 << 20) - 1), "MODE {mode:#x} VCC");
    }
}
