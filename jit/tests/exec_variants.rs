//! A block's two compiled variants (EXEC all ones, and any EXEC) on one engine whose
//! first wave reached the block with lanes off, as the first workgroup of a stencil
//! grid does at its border: the later full-EXEC waves get (and chain to) the full
//! variant, and every wave's memory, registers and errors are the interpreter's — on
//! the optimising tier, the quick tier, the tiered engine and the diff engine.

mod common;

use common::*;
use wavejit_interp::Ctx;
use wavejit_isa::arch::{Arch, Gen};
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Wave};
use wavejit_jit::{diff_jit, diff_run_on, Jit, JitConfig};

/// The buffer, placed so that the 64-bit address adds carry past 2^32 inside it (at
/// byte 0x100, word 64).
const BASE: u64 = 0x2_ffff_ff00;
const WORDS: u32 = 160;
/// Width of the buffer's rows: each group of 16 lanes reads one row (a 16 x 4 tile of a
/// 2-D workgroup, as clang's stencil waves do).
const ROW: u32 = 40;

/// `mem[v0] = 3 * mem[v0] + v0` in the lanes of EXEC & s[2:3], as clang compiles a
/// guarded statement: `s_and_saveexec`, a skip when no lane is left, the body (a block
/// of its own, at byte 8), and EXEC restored at `skip`; then, in every lane again,
/// `v7 = v0 + 5` and masks of the restored EXEC (all ones, and known so in the code
/// compiled for a full EXEC: the JIT folds the masks ANDed or ORed with it).
const SOURCE: &str = "
    s_and_saveexec_b64 s[0:1], s[2:3]
    s_cbranch_execz skip
    v_lshlrev_b32 v2, 2, v0
    v_mov_b32 v5, s5
    v_add_u32 v4, vcc, s4, v2
    v_addc_u32 v5, vcc, 0, v5, vcc
    flat_load_dword v6, v[4:5]
    s_waitcnt vmcnt(0) lgkmcnt(0)
    v_mul_lo_u32 v6, v6, 3
    v_add_u32 v6, vcc, v6, v0
    flat_store_dword v[4:5], v6
    s_waitcnt vmcnt(0) lgkmcnt(0)
skip:
    s_or_b64 exec, exec, s[0:1]
    v_add_u32 v7, vcc, 5, v0
    s_and_b64 s[12:13], exec, s[16:17]
    s_or_b64 s[14:15], s[16:17], exec
    s_endpgm
";

/// s[16:17]: a mask with lanes on and off in both halves.
const PATTERN: u64 = 0x1234_5678_9abc_def0;

/// Byte address of the body block.
const BODY: u32 = 8;

fn prog() -> Program {
    let a = wavejit_isa::gcn::asm::assemble(Gen::Gfx8, SOURCE).expect("assembles");
    Program::new(Arch::Gcn(Gen::Gfx8), &a.bytes)
}

/// The buffer's initial word `k`.
fn word(k: u32) -> u32 {
    k.wrapping_mul(0x0100_0193) ^ 0x5bd1_e995
}

fn memory() -> MemInit {
    MemInit {
        regions: vec![(
            BASE,
            (0..WORDS).flat_map(|k| word(k).to_le_bytes()).collect(),
        )],
    }
}

/// Lane `l`'s word: row `l / 16`, column `l % 16`, from word 3.
fn index(l: usize) -> u32 {
    (l as u32 / 16) * ROW + l as u32 % 16 + 3
}

/// A wave about to run `SOURCE` with the lanes of `mask`; lane `bad` (if any) addresses
/// a word far past the buffer.
fn wave(mask: u64, bad: Option<usize>) -> Box<Wave> {
    let mut w = Wave::new(Gen::Gfx8);
    w.sgpr[2] = mask as u32;
    w.sgpr[3] = (mask >> 32) as u32;
    w.sgpr[4] = BASE as u32;
    w.sgpr[5] = (BASE >> 32) as u32;
    w.sgpr[16] = PATTERN as u32;
    w.sgpr[17] = (PATTERN >> 32) as u32;
    for l in 0..64 {
        w.vgpr[0][l] = if Some(l) == bad { 10_000 } else { index(l) };
    }
    w
}

/// The buffer after a run with `mask`, worked out word by word.
fn expected(mask: u64) -> Vec<u8> {
    let mut m: Vec<u32> = (0..WORDS).map(word).collect();
    for l in (0..64).filter(|l| mask >> l & 1 == 1) {
        let k = index(l);
        m[k as usize] = word(k).wrapping_mul(3).wrapping_add(k);
    }
    m.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Run `w` on `jit` and on the interpreter: the same outcome; for a wave without a bad
/// lane, the buffer and `v6` of the hand computation.
fn run(jit: &Jit, prog: &Program, mask: u64, bad: Option<usize>, what: &str) {
    let w = wave(mask, bad);
    let o = check_with(jit, prog, &w, &Lds::new(0), &memory(), 1000, what);
    if bad.is_none() {
        assert_eq!(o.mem, vec![(BASE, expected(mask))], "{what}: buffer");
        for l in 0..64 {
            let k = index(l);
            let want = if mask >> l & 1 == 1 {
                word(k).wrapping_mul(3).wrapping_add(k)
            } else {
                0
            };
            assert_eq!(o.wave.vgpr[6][l], want, "{what}: v6 lane {l}");
        }
        assert_eq!(o.wave.exec, u64::MAX, "{what}: EXEC restored");
        for l in 0..64 {
            assert_eq!(o.wave.vgpr[7][l], index(l) + 5, "{what}: v7 lane {l}");
        }
        let pair = |r: usize| o.wave.sgpr[r] as u64 | (o.wave.sgpr[r + 1] as u64) << 32;
        assert_eq!(pair(12), PATTERN, "{what}: EXEC & s[16:17]");
        assert_eq!(pair(14), u64::MAX, "{what}: s[16:17] | EXEC");
    } else {
        let e = o.result.as_ref().expect_err("a lane out of range faults");
        assert_eq!(e.pc, 24, "{what}: the flat_load_dword faults: {e}");
    }
}

/// Lanes 0-39: the first wave of a grid whose workgroup sticks out past its edge.
const PARTIAL: u64 = (1 << 40) - 1;

#[test]
fn full_waves_after_a_partial_one_run_the_full_variant() {
    let prog = prog();
    for (name, jit) in jits() {
        let what = |s: &str| format!("{name}: {s}");
        run(&jit, &prog, PARTIAL, None, &what("partial first wave"));
        let code = jit.prog_code(&prog);
        let slot = code.slot(BODY).expect("a slot");
        let masked = slot.masked.load(std::sync::atomic::Ordering::Acquire);
        assert_ne!(masked, 0, "{}", what("the body's masked variant"));
        assert_eq!(
            slot.full.load(std::sync::atomic::Ordering::Acquire),
            0,
            "{}",
            what("no full variant yet")
        );
        // A full wave: the body is reached by a chained exit whose EXEC is only known
        // at run time; it gets the full variant compiled, not the masked one.
        run(&jit, &prog, u64::MAX, None, &what("first full wave"));
        let full = slot.full.load(std::sync::atomic::Ordering::Acquire);
        assert_ne!(full, 0, "{}", what("the body's full variant"));
        let blocks = jit.stats().blocks;
        for k in 0..3 {
            run(
                &jit,
                &prog,
                u64::MAX,
                None,
                &what(&format!("full wave {k}")),
            );
            run(
                &jit,
                &prog,
                PARTIAL,
                None,
                &what(&format!("partial wave {k}")),
            );
        }
        // Both variants stayed: nothing compiled again.
        assert_eq!(jit.stats().blocks, blocks, "{}", what("compiled again"));
        assert_eq!(
            slot.masked.load(std::sync::atomic::Ordering::Acquire),
            masked
        );
        // Faults in the full variant are the interpreter's (pc and lane).
        for bad in [0, 37, 63] {
            run(
                &jit,
                &prog,
                u64::MAX,
                Some(bad),
                &what(&format!("lane {bad} out")),
            );
            run(
                &jit,
                &prog,
                PARTIAL,
                Some(bad.min(39)),
                &what("partial, out"),
            );
        }
    }
}

#[test]
fn tiered_engine_takes_the_full_variant_past_its_threshold() {
    let prog = prog();
    let jit = up(Jit::new(JitConfig {
        tier_threshold: 3,
        ..JitConfig::default()
    }));
    // Interpreted, then the masked variant compiled, then full waves: the masked code
    // runs them until the full variant is compiled.
    for k in 0..4 {
        run(&jit, &prog, PARTIAL, None, &format!("tiered partial {k}"));
    }
    for k in 0..6 {
        run(&jit, &prog, u64::MAX, None, &format!("tiered full {k}"));
    }
    let code = jit.prog_code(&prog);
    let slot = code.slot(BODY).expect("a slot");
    assert_ne!(slot.full.load(std::sync::atomic::Ordering::Acquire), 0);
    assert_ne!(slot.masked.load(std::sync::atomic::Ordering::Acquire), 0);
    run(&jit, &prog, u64::MAX, Some(37), "tiered, lane 37 out");
}

#[test]
fn diff_engine_agrees_on_both_variants() {
    let prog = prog();
    let jit = diff_jit(JitConfig::default());
    for (mask, bad) in [
        (PARTIAL, None),
        (u64::MAX, None),
        (u64::MAX, None),
        (u64::MAX, Some(37)),
    ] {
        let mut w = wave(mask, bad);
        let mut lds = Lds::new(0);
        let mem = memory().build();
        let mut ctx = Ctx {
            wave: &mut w,
            lds: &mut lds,
            mem: &mem,
        };
        let r = diff_run_on(&jit, &mut ctx, &prog, 1000);
        let want = run_interp(&prog, &wave(mask, bad), &Lds::new(0), &memory(), 1000);
        match (r, &want.result) {
            (Ok(d), Ok(_)) => {
                assert!(d.mismatch.is_none(), "{mask:x}: {:?}", d.mismatch);
                assert_eq!(w.vgpr[6], want.wave.vgpr[6], "{mask:x}: v6");
                let mut got = vec![0u8; WORDS as usize * 4];
                mem.read(BASE, &mut got).expect("read back");
                assert_eq!(got, expected(mask), "{mask:x}: buffer");
            }
            (Err(e), Err(i)) => assert_eq!(&e, i, "{mask:x}: the interpreter's error"),
            (r, i) => panic!("{mask:x}: diff {r:?}, interpreter {i:?}"),
        }
    }
    assert_ne!(
        jit.prog_code(&prog)
            .slot(BODY)
            .expect("a slot")
            .full
            .load(std::sync::atomic::Ordering::Acquire),
        0,
        "the diff engine's full waves compiled the full variant"
    );
}

#[test]
fn a_hot_block_has_both_variants_optimised() {
    let prog = prog();
    let jit = up(Jit::new(JitConfig {
        hot_threshold: 4,
        ..JitConfig::default()
    }));
    // Quick code for both variants of the body (the partial wave's masked one first).
    run(&jit, &prog, PARTIAL, None, "quick partial");
    run(&jit, &prog, u64::MAX, None, "quick full");
    let quick = jit.stats();
    assert_eq!(quick.hot_blocks, 0, "{quick:?}");
    assert_eq!(quick.quick_blocks, quick.blocks, "{quick:?}");
    let code = jit.prog_code(&prog);
    let slot = code.slot(BODY).expect("a slot");
    let masked = slot.masked.load(std::sync::atomic::Ordering::Acquire);
    // Full waves only: the full variant gets hot (4 entries) and is optimised, and so is
    // the masked one, which ran once.
    for k in 0..4 {
        run(&jit, &prog, u64::MAX, None, &format!("full {k}"));
    }
    assert_ne!(
        slot.masked.load(std::sync::atomic::Ordering::Acquire),
        masked,
        "the masked variant was replaced"
    );
    let hot = jit.stats();
    assert!(hot.hot_blocks >= 2, "{hot:?}");
    // Partial waves now run optimised masked code: nothing more is compiled.
    for k in 0..6 {
        run(&jit, &prog, PARTIAL, None, &format!("partial {k}"));
        run(&jit, &prog, u64::MAX, None, &format!("full again {k}"));
    }
    assert_eq!(jit.stats().blocks, hot.blocks, "{:?}", jit.stats());
    run(
        &jit,
        &prog,
        PARTIAL,
        Some(20),
        "optimised masked, lane 20 out",
    );
}
