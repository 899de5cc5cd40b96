//! Compile cost linear in the length of a basic block: a block longer than
//! `MAX_UNIT_LEN` instructions is compiled as units of at most that many, chained, so the
//! IR built per instruction (a deterministic measure of the compile cost, which grows
//! faster than linearly only with the size of one function) stays the same however long
//! the block; and the quick tier's chunk loops build a fraction of the unrolled IR.

mod common;

use common::*;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::Op;
use wavejit_isa::state::Lds;
use wavejit_jit::gcn::MAX_UNIT_LEN;
use wavejit_jit::{Jit, JitConfig};

/// `n` `v_mov_b32` (each register copied from the one below, so every unit reads what
/// the previous one wrote) and `s_endpgm`.
fn moves(n: u32) -> Vec<wavejit_isa::gcn::Inst> {
    let mut p: Vec<_> = (0..n)
        .map(|i| {
            let d = 1 + (i % 200) as u8;
            vop1(Op::VMovB32, d, v(d - 1))
        })
        .collect();
    p.push(endpgm());
    p
}

#[test]
fn long_blocks_compile_in_units_of_bounded_length_with_constant_ir_per_instruction() {
    let gen = Gen::Gfx8;
    let mut r = rng(31);
    let mut w = random_wave(gen, &mut r, 0xF0);
    w.exec = u64::MAX;
    let mut per_inst = Vec::new();
    for n in [10_000u32, 50_000, 100_000] {
        let jit = Jit::new(JitConfig::default());
        let prog = program(gen, &moves(n));
        check_with(
            &jit,
            &prog,
            &w,
            &Lds::new(0),
            &MemInit::default(),
            2 * n as u64,
            &format!("{n} moves"),
        );
        let st = jit.stats();
        // Each unit ends after MAX_UNIT_LEN instructions or at `s_endpgm`: the units
        // are ceil((n + 1) / MAX_UNIT_LEN), every instruction compiled once.
        assert_eq!(st.insts, n as u64 + 1, "{n}: {st:?}");
        assert_eq!(
            st.blocks,
            (n + MAX_UNIT_LEN) as u64 / MAX_UNIT_LEN as u64,
            "{n}: {st:?}"
        );
        per_inst.push(st.clif_insts as f64 / st.insts as f64);
    }
    // The IR per instruction of the longest block within 2% of the shortest's.
    let (a, b) = (per_inst[0], per_inst[2]);
    assert!((b - a).abs() <= 0.02 * a, "IR per instruction {per_inst:?}");
}

#[test]
fn the_quick_tier_loops_over_chunks_with_the_interpreters_results() {
    // A lane-independent run under EXEC all ones and under a partial EXEC, compiled with
    // and without chunk loops: same results, and the loop builds far less IR. Lane masks
    // are read and written in the loop: a compare into VCC read by `v_cndmask`, carries
    // out and in through VCC and through an SGPR pair, read by a VOP3 `v_cndmask`, and
    // a scalar read of VCC after the loop.
    let gen = Gen::Gfx8;
    let body = vec![
        vop2(Op::VAddF32, 3, v(1), 2),
        vop2(Op::VMulF32, 4, v(3), 1),
        vop2(Op::VXorB32, 5, v(4), 3),
        vop3(Op::VFmaF32, 6, [v(5), v(3), v(4)]),
        vop1(Op::VCvtF32U32, 7, v(6)),
        vop2(Op::VLshlrevB32, 8, ic(3), 7),
        vopc(Op::VCmpLtF32, v(1), 2),
        vop2(Op::VCndmaskB32, 9, v(4), 5),
        vop2(Op::VAddU32, 10, v(9), 8),
        vop2(Op::VAddcU32, 11, v(10), 2),
        vop3m(Op::VAddcU32, 12, 26, [v(11), v(1), s(20)], 0, 0, false, 0),
        vop3(Op::VCndmaskB32, 13, [v(12), v(3), s(26)]),
        vop2(Op::VSubF32, 14, v(13), 9),
        sop2(Op::SAndB64, 30, s(106), s(126)),
        endpgm(),
    ];
    let prog = program(gen, &body);
    let mut r = rng(32);
    for exec in [u64::MAX, 0x00ff_00ff_f0f0_0f0f, 0x8000_0000_0000_0001] {
        let mut w = random_wave(gen, &mut r, 0xF0);
        w.exec = exec;
        let mut ir = Vec::new();
        for loops in [true, false] {
            let jit = Jit::new(JitConfig {
                chunk_loops: loops,
                ..JitConfig::default()
            });
            check(&jit, &prog, &w, &format!("exec {exec:#x}, loops {loops}"));
            let st = jit.stats();
            assert_eq!(st.quick_blocks, 1, "{st:?}");
            ir.push(st.clif_insts);
        }
        // 13 vector instructions: one loop body against 16 unrolled chunks.
        assert!(4 * ir[0] < ir[1], "exec {exec:#x}: IR with loops {ir:?}");
    }
}

#[test]
fn a_carry_or_compare_writing_exec_ends_a_chunk_loop() {
    // A carry out written to EXEC changes the lanes the next instructions write; a loop
    // body reads EXEC's lanes from before the loop, so such a writer is not looped.
    let gen = Gen::Gfx8;
    let prog = program(
        gen,
        &[
            vop2(Op::VAddF32, 3, v(1), 2),
            vop3m(Op::VMadU64U32, 4, 126, [v(1), v(2), v(6)], 0, 0, false, 0),
            vop2(Op::VMulF32, 8, v(3), 2),
            vop2(Op::VSubF32, 9, v(8), 1),
            endpgm(),
        ],
    );
    let mut r = rng(33);
    for exec in [u64::MAX, 0x00ff_00ff_f0f0_0f0f] {
        let mut w = random_wave(gen, &mut r, 0xF0);
        w.exec = exec;
        check(&jit(), &prog, &w, &format!("exec {exec:#x}"));
    }
}
