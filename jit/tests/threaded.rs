//! The pre-decoded tier (`wavejit_interp::threaded`, the `threaded` engine and the first
//! tier of `tiered`) against the interpreter: random programs of the table-driven generator
//! for GCN 1.0, 1.1 and 1.2 (straight lines of every operation, and programs with loops,
//! EXEC regions and branches), with whole budgets and budgets that run out part-way;
//! instructions with results worked out by hand; errors at the pc of the failing
//! instruction.

mod common;

use common::*;
use rand::SeedableRng;
use wavejit_interp::{Ctx, ExecErrorKind, Step};
use wavejit_isa::arch::{Arch, Gen};
use wavejit_isa::ir::Program;
use wavejit_isa::progen::gcn::Pool;
use wavejit_isa::progen::shape::ShapeConfig;
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_jit::{Jit, JitConfig};

/// Run `cases` random programs on the interpreter and on `jit`, each with every budget in
/// `budgets`, and compare everything. Returns how many programs ran and how many
/// instructions the engine ran as pre-decoded code.
fn differential(
    jit: &Jit,
    gen: Gen,
    seed: u64,
    cases: usize,
    cfg: ShapeConfig,
    budgets: &[u64],
) -> (usize, u64) {
    let pool = Pool::new(gen, |_| true);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let (mut n, mut threaded) = (0, 0);
    for case in 0..cases {
        let Some((p, prog, wave, lds, mem)) = progen_case(gen, &pool, &mut rng, &cfg) else {
            continue;
        };
        for &max in budgets {
            let a = run_interp(&prog, &wave, &lds, &mem, max);
            let b = run_jit(jit, &prog, &wave, &lds, &mem, max);
            if let Some(d) = compare(&a, &b) {
                let text: Vec<String> = p.items.iter().map(|i| format!("{:?}", i.inst)).collect();
                panic!(
                    "{gen} seed {seed} case {case} budget {max}: {d}\nprogram:\n{}",
                    text.join("\n")
                );
            }
        }
        if let Ok((_, s)) = jit_run_stats(jit, &prog, &wave, &lds, &mem) {
            threaded += s.threaded;
        }
        n += 1;
    }
    (n, threaded)
}

const GENS: [Gen; 3] = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8];

#[test]
fn random_straight_lines_of_every_operation() {
    let jit = Jit::new(JitConfig::threaded_only());
    for gen in GENS {
        let cfg = ShapeConfig {
            len: 24,
            control: false,
        };
        let (n, threaded) = differential(&jit, gen, 7001 + gen as u64, 300, cfg, &[20_000]);
        assert!(n > 250, "{gen}: {n} programs");
        assert!(threaded > 0, "{gen}: nothing ran pre-decoded");
    }
    let st = jit.stats();
    // Nothing is compiled by this engine; blocks were built.
    assert_eq!((st.blocks, st.quick_blocks), (0, 0), "{st:?}");
    assert!(st.threaded_blocks > 0 && st.threaded_insts >= st.threaded_blocks);
}

#[test]
fn random_programs_with_control_flow_and_short_budgets() {
    let jit = Jit::new(JitConfig::threaded_only());
    for gen in GENS {
        let cfg = ShapeConfig {
            len: 40,
            control: true,
        };
        // Budgets that end inside blocks, inside loops, and none.
        let (n, _) = differential(
            &jit,
            gen,
            7101 + gen as u64,
            150,
            cfg,
            &[1, 2, 7, 31, 20_000],
        );
        assert!(n > 120, "{gen}: {n} programs");
    }
}

#[test]
fn tiered_hands_pre_decoded_loops_to_compiled_code() {
    // A low threshold: the generator's loops (5-24 trips) start pre-decoded and finish
    // compiled.
    let jit = up(Jit::new(JitConfig {
        tier_threshold: 3,
        ..JitConfig::tiered()
    }));
    for gen in GENS {
        let cfg = ShapeConfig {
            len: 40,
            control: true,
        };
        differential(&jit, gen, 7201 + gen as u64, 100, cfg, &[20_000, 9]);
    }
    let st = jit.stats();
    assert!(st.blocks > 0 && st.threaded_blocks > 0, "{st:?}");
}

fn assemble(gen: Gen, text: &str) -> Program {
    let a = wavejit_isa::gcn::asm::assemble(gen, text).expect("assembles");
    Program::new(Arch::Gcn(gen), &a.bytes)
}

/// Run `prog` from `w` on the threaded engine: the outcome and the run's counters.
fn run_threaded(
    prog: &Program,
    w: &mut Wave,
    max: u64,
) -> (
    Result<(Step, wavejit_jit::JitRunStats), wavejit_interp::ExecError>,
    Box<Wave>,
) {
    let jit = Jit::new(JitConfig::threaded_only());
    let mut lds = Lds::new(256);
    let mem = Memory::new();
    let mut ctx = Ctx {
        wave: w,
        lds: &mut lds,
        mem: &mem,
    };
    let r = jit.run_with_stats(&mut ctx, prog, max);
    (r, Box::new(w.clone()))
}

#[test]
fn hand_computed_lanes_under_partial_exec() {
    let gen = Gen::Gfx8;
    let prog = assemble(
        gen,
        "v_add_f32 v2, v0, v1\n\
         v_mul_u32_u24 v3, v0, 3\n\
         v_mov_b32_dpp v4, v5 row_shr:1 row_mask:0xf bank_mask:0xf\n\
         v_mov_b32_sdwa v6, v5 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0\n\
         v_cmp_gt_u32 vcc, v5, 10\n\
         s_endpgm",
    );
    let mut w = Wave::new(gen);
    // Even lanes and lane 1 run.
    w.exec = 0x5555_5555_5555_5555 | 2;
    for l in 0..64 {
        w.vgpr[0][l] = 0x3fc0_0000; // 1.5
        w.vgpr[1][l] = 0x4010_0000; // 2.25
        w.vgpr[5][l] = 0x1200 + l as u32;
        w.vgpr[2][l] = 0xdead;
        w.vgpr[3][l] = 0xdead;
        w.vgpr[4][l] = 0xdead;
        w.vgpr[6][l] = 0xabcd_0077;
    }
    let (r, w) = run_threaded(&prog, &mut w, 100);
    let (step, stats) = r.expect("runs");
    assert_eq!(step, Step::End);
    assert_eq!((stats.insts, stats.threaded, stats.interpreted), (6, 6, 0));
    for l in 0..64 {
        let on = l % 2 == 0 || l == 1;
        // 1.5 + 2.25 = 3.75 = 0x40700000.
        assert_eq!(
            w.vgpr[2][l],
            if on { 0x4070_0000 } else { 0xdead },
            "lane {l}"
        );
        // u24(0x3fc00000) = 0xc00000; * 3 = 0x2400000.
        assert_eq!(
            w.vgpr[3][l],
            if on { 0x0240_0000 } else { 0xdead },
            "lane {l}"
        );
        // row_shr:1 reads lane l-1 of its row of 16; lane 0 of a row has no source (and
        // BOUND_CTRL is off), nor has a lane whose source is outside EXEC: it keeps v4.
        let src_ok = l % 16 != 0 && ((l - 1) % 2 == 0 || l - 1 == 1);
        let dpp = if on && src_ok {
            0x1200 + l as u32 - 1
        } else {
            0xdead
        };
        assert_eq!(w.vgpr[4][l], dpp, "lane {l}");
        // Byte 0 of v5 (0x00 + l) into the high word, the low word kept.
        let sdwa = if on {
            (l as u32) << 16 | 0x0077
        } else {
            0xabcd_0077
        };
        assert_eq!(w.vgpr[6][l], sdwa, "lane {l}");
    }
    // 0x1200 + l > 10 for every lane: VCC = EXEC.
    assert_eq!(w.vcc, 0x5555_5555_5555_5557);
}

#[test]
fn errors_name_the_failing_instruction() {
    let gen = Gen::Gfx8;
    // v_add_f64 with VDST patched to v255: the vector unit refuses the pair when the
    // instruction runs (third instruction, at byte 8: two 4-byte instructions before it).
    let a = wavejit_isa::gcn::asm::assemble(
        gen,
        "v_mov_b32 v0, 1\n\
         v_mov_b32 v1, 2\n\
         v_add_f64 v[254:255], v[0:1], v[2:3]\n\
         s_endpgm",
    )
    .expect("assembles");
    let mut bytes = a.bytes.clone();
    assert_eq!(
        bytes[8], 254,
        "VOP3 VDST is the low byte of its first dword"
    );
    bytes[8] = 255;
    let prog = Program::new(Arch::Gcn(gen), &bytes);
    let mut w = Wave::new(gen);
    let (r, after) = run_threaded(&prog, &mut w, 100);
    let e = r.expect_err("v255 pair");
    assert_eq!(e.pc, 8);
    assert!(matches!(e.kind, ExecErrorKind::BadOperand(_)), "{e:?}");
    assert_eq!(after.pc, 8);
    // The two moves before it ran.
    assert_eq!((after.vgpr[0][5], after.vgpr[1][5]), (1, 2));
    // The interpreter says the same.
    let mut wi = Wave::new(gen);
    let mut lds = Lds::new(256);
    let mem = Memory::new();
    let mut ctx = Ctx {
        wave: &mut wi,
        lds: &mut lds,
        mem: &mem,
    };
    assert_eq!(
        wavejit_interp::run(&mut ctx, &prog, 100).expect_err("fails"),
        e
    );

    // A pc where no instruction starts, and the budget: the interpreter's errors.
    let prog = assemble(gen, "v_add_f64 v[0:1], v[0:1], v[2:3]\ns_endpgm");
    let mut w = Wave::new(gen);
    w.pc = 4;
    let e = run_threaded(&prog, &mut w, 100)
        .0
        .expect_err("mid-instruction");
    assert_eq!((e.pc, e.kind), (4, ExecErrorKind::PcOutOfCode(4)));
    let mut w = Wave::new(gen);
    let e = run_threaded(&prog, &mut w, 1).0.expect_err("budget");
    assert_eq!((e.pc, e.kind), (8, ExecErrorKind::InstLimit(1)));
}

#[test]
fn a_long_straight_line_is_cut_into_blocks() {
    // 3000 moves and s_endpgm: blocks of at most 1024 instructions, so three.
    let gen = Gen::Gfx8;
    let mut text = String::new();
    for i in 0..3000 {
        text.push_str(&format!("v_mov_b32 v{}, {}\n", i % 4, i % 60));
    }
    text.push_str("s_endpgm\n");
    let prog = assemble(gen, &text);
    let jit = Jit::new(JitConfig::threaded_only());
    let mut w = Wave::new(gen);
    let mut lds = Lds::new(256);
    let mem = Memory::new();
    let mut ctx = Ctx {
        wave: &mut w,
        lds: &mut lds,
        mem: &mem,
    };
    let (step, st) = jit.run_with_stats(&mut ctx, &prog, 10_000).expect("runs");
    assert_eq!((step, st.insts, st.threaded), (Step::End, 3001, 3001));
    assert_eq!(wavejit_interp::threaded::MAX_BLOCK_LEN, 1024);
    let cs = jit.stats();
    assert_eq!((cs.threaded_blocks, cs.threaded_insts), (3, 3001));
    // The last moves: v0..v3 of instructions 2996..2999 hold (i % 60).
    assert_eq!(
        [w.vgpr[0][0], w.vgpr[1][0], w.vgpr[2][0], w.vgpr[3][0]],
        [2996 % 60, 2997 % 60, 2998 % 60, 2999 % 60]
    );
}
