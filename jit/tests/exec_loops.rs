//! Vector instructions that write EXEC (`v_cmpx`, a compare or carry whose destination is
//! EXEC) inside the quick tier's chunk loops: such an instruction ends its loop, masks its
//! own lanes with the EXEC before it, and the instructions after it see the EXEC it wrote
//! — the interpreter's registers on every tier, from waves with EXEC all ones, random and
//! patterned.

mod common;

use common::*;
use wavejit_isa::arch::Gen;
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Wave};
use wavejit_jit::{Jit, JitConfig};

fn asm(gen: Gen, src: &str) -> Program {
    assemble_text(gen, src)
}

/// Blocks where instructions before an EXEC write must see the old EXEC and those after
/// it the new one (their writes, VCC and carry masks are all masked by EXEC).
const CASES: &[(&str, &str)] = &[
    (
        "v_cmpx between vector instructions",
        "v_add_f32 v3, v1, v2
         v_cmpx_gt_f32 vcc, v1, v2
         v_mov_b32 v4, v1
         v_cmp_lt_u32 vcc, v1, v2
         v_cndmask_b32 v5, v1, v2, vcc
         s_mov_b64 s[10:11], exec
         s_endpgm",
    ),
    (
        "f16 v_cmpx twice, then a carry out",
        "v_cmpx_gt_f16 vcc, v1, v2
         v_cmpx_lt_f16 vcc, v3, v2
         v_add_f16 v8, v1, v2
         v_add_u32 v9, vcc, v1, v2
         s_endpgm",
    ),
    (
        "VOP3 v_cmpx to an SGPR pair, then a compare to another",
        "v_sub_u32 v6, vcc, v1, v2
         v_cmpx_lt_i32_e64 s[4:5], v1, v2
         v_add_u32 v7, vcc, v1, v2
         v_cmp_eq_u32_e64 s[6:7], v7, v1
         s_endpgm",
    ),
    (
        "a compare whose destination is EXEC",
        "v_mul_lo_u32 v3, v1, v2
         v_cmp_ne_u32_e64 exec, v1, v2
         v_mov_b32 v4, 7
         v_cmp_gt_u32 vcc, v4, v3
         s_endpgm",
    ),
    (
        "a loop whose v_cmpx narrows EXEC each trip",
        "s_movk_i32 s0, 0x6
         loop:
         v_add_u32 v1, vcc, 0x1000, v1
         v_cmpx_gt_u32 vcc, v2, v1
         v_add_u32 v3, vcc, v3, v1
         s_sub_u32 s0, s0, 1
         s_cmp_lg_u32 s0, 0
         s_cbranch_scc1 loop
         s_endpgm",
    ),
];

/// The engines: the default JIT (quick tier first, whose chunk loops are under test),
/// the optimising tier alone (unrolled chunks), and the tiered engine.
fn engines() -> Vec<(&'static str, Jit)> {
    vec![
        ("quick", up(Jit::new(JitConfig::default()))),
        (
            "optimising",
            up(Jit::new(JitConfig {
                hot_threshold: 0,
                ..JitConfig::default()
            })),
        ),
        ("tiered", up(Jit::new(JitConfig::tiered()))),
    ]
}

#[test]
fn exec_writes_in_chunk_loops_match_the_interpreter() {
    let gen = Gen::Gfx8;
    let mut r = rng(0x5eed_e8ec);
    for (name, src) in CASES {
        let prog = asm(gen, src);
        for (ename, jit) in engines() {
            for k in 0..24 {
                let mut w = random_wave(gen, &mut r, 0xF0);
                // Small values in v1/v2 for the loop case (its EXEC shrinks over the
                // trips), random ones otherwise.
                if k % 3 == 0 {
                    for l in 0..64 {
                        w.vgpr[1][l] = (l as u32) << 12;
                        w.vgpr[2][l] = 0x20000 + (l as u32 % 7) * 0x3000;
                    }
                }
                check(&jit, &prog, &w, &format!("{name} on {ename}, wave {k}"));
                if ename == "quick" {
                    assert_inline(&jit, &prog, &w, name);
                }
            }
            assert_eq!(jit.stats().failures, 0, "{name} on {ename}");
        }
    }
}

/// Cranelift instructions of the quick tier's unit at pc 0 of `src` (`exec_all`: the
/// all-ones variant).
fn quick_clif(src: &str, exec_all: bool) -> u64 {
    quick_unit_clif(&asm(Gen::Gfx8, src), JitConfig::default(), exec_all)
}

/// A `v_cmpx` is one loop body on the quick tier, as its `v_cmp` is: its unit is about as
/// large as the `v_cmp`'s (the accumulated EXEC and its store more), not sixteen chunks
/// of the compare.
#[test]
fn the_quick_tier_loops_over_the_chunks_of_a_cmpx() {
    for exec_all in [true, false] {
        for ty in ["f16", "f32", "i32"] {
            let cmp = quick_clif(&format!("v_cmp_gt_{ty} vcc, v1, v2\ns_endpgm"), exec_all);
            let cmpx = quick_clif(&format!("v_cmpx_gt_{ty} vcc, v1, v2\ns_endpgm"), exec_all);
            assert!(
                cmpx < 2 * cmp,
                "{ty} exec_all {exec_all}: v_cmpx {cmpx} CLIF instructions, v_cmp {cmp}"
            );
        }
    }
}

/// A scalar load whose data reaches EXEC_LO (raw code: `src(126)`; assemblers refuse it,
/// the interpreter writes EXEC) runs through the interpreter helper, and the vector
/// instruction after it must see the new EXEC, not the all-ones EXEC the unit was entered
/// with (cargo-fuzz's decode_diff found the JIT keeping the old one). By hand: EXEC_LO
/// becomes 0x5555_5555, so v5 takes v0 in the even lanes below 32 and in every lane from
/// 32 (EXEC_HI stays all ones) and keeps 0 in the odd lanes below 32.
#[test]
fn a_scalar_load_into_exec_is_seen_by_what_follows() {
    const BASE: u64 = 0x1000;
    for (gen, load) in [
        (Gen::Gfx7, "s_load_dword src(126), s[0:1], 0x0"),
        (Gen::Gfx7, "s_buffer_load_dword src(126), s[4:7], 0x0"),
        (Gen::Gfx8, "s_load_dword src(126), s[0:1], 0x0"),
        (Gen::Gfx8, "s_buffer_load_dword src(126), s[4:7], 0x0"),
    ] {
        let src = format!("{load}\ns_waitcnt lgkmcnt(0)\nv_cndmask_b32 v5, 7, v0, vcc\ns_endpgm\n");
        let prog = asm(gen, &src);
        let mem = MemInit {
            regions: vec![(BASE, 0x5555_5555u32.to_le_bytes().repeat(16))],
        };
        for (ename, jit) in engines() {
            let mut w = Wave::new(gen);
            w.exec = u64::MAX;
            w.vcc = u64::MAX;
            w.sgpr[0] = BASE as u32;
            // s[4:7]: a raw buffer over the region (stride 0, 64 bytes).
            w.sgpr[4] = BASE as u32;
            w.sgpr[6] = 64;
            for l in 0..64 {
                w.vgpr[0][l] = 100 + l as u32;
            }
            let out = check_with(
                &jit,
                &prog,
                &w,
                &Lds::new(0),
                &mem,
                100,
                &format!("{load} on {ename}"),
            );
            assert_eq!(out.wave.exec, 0xFFFF_FFFF_5555_5555, "{load} on {ename}");
            for l in 0..64 {
                let want = match l < 32 && l % 2 == 1 {
                    true => 0,
                    false => 100 + l as u32,
                };
                assert_eq!(out.wave.vgpr[5][l], want, "{load} on {ename}, lane {l}");
            }
        }
    }
}
