//! The quick tier's MUBUF accesses (`wavejit_jit::mem::buffer`): the range check and the
//! accesses are each one loop over the chunks, a fraction of the unrolled IR. Their
//! results against the interpreter are `tests/mubuf_inline.rs`'s (its engines include the
//! quick tier); here, a few runs from random waves on the quick tier, then the size.

mod common;

use common::*;
use wavejit_isa::arch::Gen;
use wavejit_isa::ir::Program;
use wavejit_jit::{Jit, JitConfig};

const BASE: u64 = 0x4000;
const LEN: usize = 4096;

/// Loads, stores and atomics through offsets, indices (ADD_TID_ENABLE in the resource of
/// `s[8:11]`: each lane's number joins its index) and both, on GCN 1.0 and 1.2.
const CASES: &[(Gen, &str)] = &[
    (Gen::Gfx8, "buffer_load_dword v1, v2, s[4:7], s12 offen"),
    (
        Gen::Gfx8,
        "buffer_store_dwordx2 v[4:5], v2, s[4:7], 0 offen offset:8",
    ),
    (Gen::Gfx8, "buffer_atomic_add v1, v2, s[4:7], 0 offen glc"),
    (Gen::Gfx8, "buffer_load_ushort v1, v3, s[8:11], 0 idxen"),
    (
        Gen::Gfx6,
        "buffer_load_dwordx2 v[6:7], v[2:3], s[8:11], 0 idxen offen",
    ),
    (
        Gen::Gfx6,
        "buffer_store_byte v1, v3, s[8:11], s12 idxen offset:3",
    ),
];

fn program(gen: Gen, src: &str) -> Program {
    assemble_text(gen, &format!("{src}\ns_endpgm\n"))
}

/// `s[4:7]`: a raw buffer over the region (stride 0, NUM_RECORDS its length);
/// `s[8:11]`: a structured one of stride 12 with ADD_TID_ENABLE and 256 records.
fn wave(gen: Gen, r: &mut rand::rngs::StdRng) -> Box<wavejit_isa::state::Wave> {
    let mut w = random_wave(gen, r, 0xF0);
    let words = |base: u64, stride: u32, nr: u32, w3: u32| {
        [base as u32, (base >> 32) as u32 | stride << 16, nr, w3]
    };
    // DST_SEL/NUM_FORMAT/DATA_FORMAT: a 32-bit raw format, as clang sets them.
    let w3 = 0x0002_7fac;
    for (s, v) in [
        (4, words(BASE, 0, LEN as u32, w3)),
        (8, words(BASE, 12, 256, w3 | 1 << 23)),
    ] {
        w.sgpr[s..s + 4].copy_from_slice(&v);
    }
    w.sgpr[12] = 16;
    for l in 0..64 {
        // Offsets and indices mostly in range, a few lanes far out of it.
        let x = w.vgpr[2][l];
        w.vgpr[2][l] = if x.is_multiple_of(11) {
            x
        } else {
            (x % 1000) & !3
        };
        w.vgpr[3][l] %= 200;
    }
    w
}

#[test]
fn quick_tier_buffer_accesses_match_the_interpreter() {
    let mut r = rng(0x00b0_ffe7);
    let mem = MemInit {
        regions: vec![(BASE, (0..LEN).map(|i| (i * 7) as u8).collect())],
    };
    for &(gen, src) in CASES {
        let prog = program(gen, src);
        let jit = up(Jit::new(JitConfig::default()));
        for k in 0..16 {
            let w = wave(gen, &mut r);
            check_with(
                &jit,
                &prog,
                &w,
                &wavejit_isa::state::Lds::new(0),
                &mem,
                1000,
                &format!("{src} ({gen:?}), wave {k}"),
            );
        }
        assert_eq!(jit.stats().quick_blocks, 2, "{src}: both variants, quick");
    }
}

/// Cranelift instructions of the quick tier's unit at pc 0, with or without its chunk
/// loops.
fn quick_clif(gen: Gen, src: &str, exec_all: bool, chunk_loops: bool) -> u64 {
    let config = JitConfig {
        chunk_loops,
        ..JitConfig::default()
    };
    quick_unit_clif(&program(gen, src), config, exec_all)
}

#[test]
fn quick_tier_buffer_accesses_loop_over_the_chunks() {
    for &(gen, src) in CASES {
        for exec_all in [true, false] {
            let looped = quick_clif(gen, src, exec_all, true);
            let unrolled = quick_clif(gen, src, exec_all, false);
            assert!(
                3 * looped < unrolled,
                "{src} exec_all {exec_all}: {looped} CLIF instructions in loops, {unrolled} unrolled"
            );
        }
    }
}
