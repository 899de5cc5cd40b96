//! 64-bit lane arithmetic through VCC (`v_add_u32` + `v_addc_u32`, `v_sub_u32` +
//! `v_subb_u32`, `v_subrev_u32` + `v_subbrev_u32`, the way compilers build addresses),
//! against sums and differences worked out with `u128` arithmetic, on both JIT tiers and
//! checked against the interpreter: carries across 2^32 in the low and the high half, a
//! carry-in meeting a high half of all ones (and a borrow-in meeting a zero one), VCC read
//! after the pair as a scalar and as lanes, a scalar operand, partial EXEC, and a pair
//! split across two blocks. The unsigned 32-bit compares (lowered as the carries are: a
//! signed compare of sign-flipped operands) against Rust's.

mod common;

use common::*;
use rand::Rng;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Inst, Op};
use wavejit_isa::state::Wave;

const VCC: u16 = 106;

/// Lane l's 64-bit operands a (v[0:1]) and b (v[4:5]): the first lanes are the edges,
/// the others random.
fn operands() -> Vec<(u64, u64)> {
    let edges = [
        (0xffff_ffff, 1),                               // low half carries into the high
        (0x0000_0001_ffff_fff0, 0x10),                  // the same, high half not zero
        (0xffff_ffff_ffff_ffff, 1),                     // carries out of both halves
        (0xffff_fffe_ffff_ffff, 0x0000_0001_0000_0001), // carry-in meets 0xffff_ffff
        (0xffff_ffff_0000_0000, 0x0000_0001_0000_0000), // the high half alone carries
        (0x1234_5678_9abc_def0, 0),                     // nothing carries
        (0, 0),                                         // zero
        (0, 1),                                         // borrows in both halves
        (0x0000_0001_0000_0000, 1),                     // borrow-in meets a zero high half
        (0x0000_0002_0000_0000, 0x0000_0001_0000_0001), // borrow from the high half
        (0x8000_0000_0000_0000, 0x8000_0000_0000_0000), // sign bits meet
        (0x7fff_ffff_7fff_ffff, 0x0000_0000_8000_0001), // signed overflow, no carry
        (0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff), // both all ones
        (0x0000_0000_ffff_ffff, 0xffff_ffff_0000_0001), // carry into a high sum of ones
    ];
    let mut rng = rng(12);
    (0..64)
        .map(|l| {
            edges
                .get(l)
                .copied()
                .unwrap_or_else(|| (rng.random(), rng.random()))
        })
        .collect()
}

/// The wave: a in v[0:1], b in v[4:5], v8 = 0 and v9 = 1 (the V_CNDMASK choices), s30:s31
/// a scalar 64-bit operand, every other register a marker, EXEC `exec`.
fn wave(exec: u64) -> Box<Wave> {
    let mut w = Wave::new(Gen::Gfx8);
    for (r, row) in w.vgpr.iter_mut().enumerate().take(32) {
        for (l, x) in row.iter_mut().enumerate() {
            *x = 0xdead_0000 | (r as u32) << 8 | l as u32;
        }
    }
    for (l, (a, b)) in operands().into_iter().enumerate() {
        put64(&mut w, 0, l, a);
        put64(&mut w, 4, l, b);
        w.vgpr[8][l] = 0;
        w.vgpr[9][l] = 1;
    }
    w.sgpr[30] = 0xffff_fff8;
    w.sgpr[31] = 0xffff_ffff;
    w.vcc = 0x5a5a_5a5a_5a5a_5a5a;
    w.exec = exec;
    w
}

fn vcc_of(w: &Wave, s: usize) -> u64 {
    w.sgpr[s] as u64 | (w.sgpr[s + 1] as u64) << 32
}

/// Checks the pair v[r:r+1] of `out` lane by lane against `f` over `ops`: an active lane
/// holds `f`'s value, an inactive lane `inactive(lane)`, and the SGPR pair `vcc` the
/// carries of the active lanes only.
fn check_pair(
    out: &Wave,
    ops: &[(u64, u64)],
    exec: u64,
    (r, vcc): (usize, usize),
    f: fn(u64, u64) -> (u64, bool),
    inactive: impl Fn(usize) -> u64,
    what: &str,
) {
    let mut carries = 0u64;
    for (l, &(a, b)) in ops.iter().enumerate() {
        let got = get64(out, r, l);
        if exec >> l & 1 == 0 {
            assert_eq!(
                got,
                inactive(l),
                "{what} v[{r}:{}] lane {l} inactive",
                r + 1
            );
            continue;
        }
        let (want, carry) = f(a, b);
        assert_eq!(
            got,
            want,
            "{what} v[{r}:{}] lane {l}: {a:#x}, {b:#x}",
            r + 1
        );
        carries |= (carry as u64) << l;
    }
    assert_eq!(
        vcc_of(out, vcc),
        carries,
        "{what} carries of v[{r}:{}]",
        r + 1
    );
}

/// Each result's 64 lanes: (register pair, expected value per lane, VCC copy's SGPR).
type Want = (usize, fn(u64, u64) -> (u64, bool), usize);

/// The expected results by `u128` arithmetic: value and carry (borrow) out.
const ADD: fn(u64, u64) -> (u64, bool) = |a, b| {
    let s = a as u128 + b as u128;
    (s as u64, s >> 64 != 0)
};
const SUB: fn(u64, u64) -> (u64, bool) = |a, b| (a.wrapping_sub(b), (a as u128) < b as u128);
const SUBREV: fn(u64, u64) -> (u64, bool) = |a, b| SUB(b, a);

/// Run `insts` on both tiers from `wave(exec)` and check every `Want` lane by lane:
/// active lanes the result, inactive lanes their marker, the VCC copy the carries of the
/// active lanes only. The pair in v[14:15] adds s[30:31] where the others take b.
fn run(insts: &[Inst], exec: u64, wants: &[Want], what: &str) {
    let prog = program(Gen::Gfx8, insts);
    let w = wave(exec);
    let ops = operands();
    let jits = jits();
    for (name, jit) in &jits {
        let out = check(jit, &prog, &w, &format!("{what} {name}"));
        for &(r, f, vcc) in wants {
            let s_pair = w.sgpr[30] as u64 | (w.sgpr[31] as u64) << 32;
            let lanes: Vec<(u64, u64)> = ops
                .iter()
                .map(|&(a, b)| (a, if r == 14 { s_pair } else { b }))
                .collect();
            let marker = |l| get64(&w, r, l);
            let what = format!("{what} {name}");
            check_pair(&out.wave, &lanes, exec, (r, vcc), f, marker, &what);
        }
        // V_CNDMASK read the add's carries as lanes.
        for (l, &(a, b)) in ops.iter().enumerate() {
            if exec >> l & 1 != 0 && wants.iter().any(|w| w.0 == 2) {
                let want = ADD(a, b).1 as u32;
                assert_eq!(out.wave.vgpr[6][l], want, "{what} {name} cndmask lane {l}");
            }
        }
        assert_inline(jit, &prog, &w, &format!("{what} {name}"));
    }
    assert_compiled(&jits);
}

/// The three pairs and the scalar-operand add in one block, each pair's VCC copied to
/// SGPRs after it and read as lanes by V_CNDMASK.
fn one_block() -> Vec<Inst> {
    vec![
        vop2(Op::VAddU32, 2, v(0), 4),
        vop2(Op::VAddcU32, 3, v(1), 5),
        sop1(Op::SMovB64, 20, s(VCC)),
        vop2(Op::VCndmaskB32, 6, v(8), 9),
        vop2(Op::VSubU32, 10, v(0), 4),
        vop2(Op::VSubbU32, 11, v(1), 5),
        sop1(Op::SMovB64, 22, s(VCC)),
        vop2(Op::VSubrevU32, 12, v(0), 4),
        vop2(Op::VSubbrevU32, 13, v(1), 5),
        sop1(Op::SMovB64, 24, s(VCC)),
        // As clang builds an address: the scalar base's high half moved to a VGPR first.
        vop1(Op::VMovB32, 15, s(31)),
        vop2(Op::VAddU32, 14, s(30), 0),
        vop2(Op::VAddcU32, 15, v(15), 1),
        sop1(Op::SMovB64, 26, s(VCC)),
        endpgm(),
    ]
}

/// The pairs of `one_block` (v[14:15] is a + s[30:31]: `run` takes b from the SGPRs).
const WANTS: [Want; 4] = [(2, ADD, 20), (10, SUB, 22), (12, SUBREV, 24), (14, ADD, 26)];

#[test]
fn pairs_in_one_block_by_hand() {
    run(&one_block(), u64::MAX, &WANTS, "full EXEC");
}

#[test]
fn pairs_under_partial_exec_by_hand() {
    // Every edge lane both active and inactive across the two masks.
    for exec in [0x5555_5555_0f0f_3c3du64, 0xaaaa_aaaa_f0f0_c3c2] {
        run(&one_block(), exec, &WANTS, &format!("EXEC {exec:#x}"));
    }
}

#[test]
fn pair_split_across_blocks_by_hand() {
    // `s_branch` to the next instruction ends the first block: the carry reaches
    // `v_addc_u32` through the VCC the first unit stored.
    for op in [Op::SBranch, Op::SNop] {
        let insts = vec![
            vop2(Op::VAddU32, 2, v(0), 4),
            sopp(op, 0),
            vop2(Op::VAddcU32, 3, v(1), 5),
            sop1(Op::SMovB64, 20, s(VCC)),
            vop2(Op::VCndmaskB32, 6, v(8), 9),
            endpgm(),
        ];
        for exec in [u64::MAX, 0x0f0f_3c3d_5555_5555] {
            run(
                &insts,
                exec,
                &[(2, ADD, 20)],
                &format!("{op:?} EXEC {exec:#x}"),
            );
        }
    }
}

#[test]
fn unsigned_compares_by_hand() {
    // Lane l: (v0, v1) around the sign bit and the ends; s30 = 0x8000_0000.
    let edges = [
        (0x7fff_ffffu32, 0x8000_0000u32),
        (0x8000_0000, 0x7fff_ffff),
        (0, 0xffff_ffff),
        (0xffff_ffff, 0),
        (0x8000_0000, 0x8000_0000),
        (0, 0),
        (0xffff_fffe, 0xffff_ffff),
        (1, 0x8000_0001),
    ];
    let mut rng = rng(13);
    let pairs: Vec<(u32, u32)> = (0..64)
        .map(|l| {
            edges
                .get(l)
                .copied()
                .unwrap_or_else(|| (rng.random(), rng.random()))
        })
        .collect();
    let prog = program(
        Gen::Gfx8,
        &[
            vopc(Op::VCmpGtU32, v(0), 1),
            sop1(Op::SMovB64, 20, s(VCC)),
            vopc(Op::VCmpLtU32, v(0), 1),
            sop1(Op::SMovB64, 22, s(VCC)),
            // A scalar first operand, as clang's bounds test `n > i` is.
            vopc(Op::VCmpGtU32, s(30), 1),
            sop1(Op::SMovB64, 24, s(VCC)),
            vopc(Op::VCmpLtU32, s(30), 1),
            sop1(Op::SMovB64, 26, s(VCC)),
            endpgm(),
        ],
    );
    let jits = jits();
    for exec in [u64::MAX, 0x0f0f_3c3d_5555_5555] {
        let mut w = Wave::new(Gen::Gfx8);
        for (l, &(a, b)) in pairs.iter().enumerate() {
            w.vgpr[0][l] = a;
            w.vgpr[1][l] = b;
        }
        w.sgpr[30] = 0x8000_0000;
        w.exec = exec;
        let mask = |f: &dyn Fn(u32, u32) -> bool, scalar: bool| {
            pairs.iter().enumerate().fold(0u64, |m, (l, &(a, b))| {
                let a = if scalar { 0x8000_0000 } else { a };
                m | (f(a, b) as u64) << l
            }) & exec
        };
        let wants = [
            (20, mask(&|a, b| a > b, false)),
            (22, mask(&|a, b| a < b, false)),
            (24, mask(&|a, b| a > b, true)),
            (26, mask(&|a, b| a < b, true)),
        ];
        for (name, jit) in &jits {
            let out = check(jit, &prog, &w, name);
            for (sg, want) in wants {
                assert_eq!(vcc_of(&out.wave, sg), want, "{name} s{sg} EXEC {exec:#x}");
            }
            assert_inline(jit, &prog, &w, name);
        }
    }
    assert_compiled(&jits);
}

/// Lane l's operands of `narrow_operands_by_hand`: the first lanes put a high half of
/// 2^31 - 1 (after the shift) against 2^31 with and without a carry (borrow) in, and a
/// high half of all ones against 0 with a carry in; the others random.
fn narrow_operands() -> Vec<(u64, u64)> {
    let edges = [
        (0x8000_0000_ffff_ffff, 0xffff_ffff_0000_0001), // 2^31 + (2^31 - 1) + 1 carries
        (0x8000_0000_0000_0000, 0xffff_ffff_0000_0001), // 2^31 + (2^31 - 1): no carry
        (0xffff_ffff_ffff_ffff, 0x0000_0001_0000_0001), // all ones + 0 + 1 carries
        (0x7fff_ffff_0000_0000, 0xffff_ffff_0000_0001), // (2^31 - 1) - (2^31 - 1) - 1
        (0xffff_ffff_0000_0001, 0x8000_0000_ffff_ffff), // the same sums, operands swapped
        (0xffff_ffff_0000_0000, 0x8000_0000_0000_0000),
        (0x0000_0001_0000_0001, 0xffff_ffff_ffff_ffff),
        (0, 0),
        (0, 1),
        (0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff),
    ];
    let mut rng = rng(14);
    (0..64)
        .map(|l| {
            edges
                .get(l)
                .copied()
                .unwrap_or_else(|| (rng.random(), rng.random()))
        })
        .collect()
}

/// A high half shifted right by one: what `v_lshrrev_b32 …, 1, …` makes of the pair.
fn hi_half_shifted(x: u64) -> u64 {
    (x >> 33) << 32 | (x & 0xffff_ffff)
}

#[test]
fn narrow_operands_by_hand() {
    // The high halves' adds and subtractions where one operand is a shifted right high
    // half (below 2^31, which the JIT knows): a in v[0:1], b in v[4:5], the narrow
    // halves made in the carry's segment, right before it. Expected values by `u128`
    // arithmetic on the 64-bit operands with the shifted half.
    let insts = vec![
        // a + (b with its high half >> 1): the narrow operand second.
        vop2(Op::VAddU32, 2, v(0), 4),
        vop2(Op::VLshrrevB32, 16, ic(1), 5),
        vop2(Op::VAddcU32, 3, v(1), 16),
        sop1(Op::SMovB64, 20, s(VCC)),
        // (a with its high half >> 1) + b: the narrow operand first.
        vop2(Op::VAddU32, 6, v(0), 4),
        vop2(Op::VLshrrevB32, 17, ic(1), 1),
        vop2(Op::VAddcU32, 7, v(17), 5),
        sop1(Op::SMovB64, 22, s(VCC)),
        // a - (b with its high half >> 1): a narrow subtrahend.
        vop2(Op::VSubU32, 10, v(0), 4),
        vop2(Op::VLshrrevB32, 16, ic(1), 5),
        vop2(Op::VSubbU32, 11, v(1), 16),
        sop1(Op::SMovB64, 24, s(VCC)),
        // The same through SUBREV: D = src1 - src0, src0 the narrow subtrahend.
        vop2(Op::VSubrevU32, 12, v(4), 0),
        vop2(Op::VLshrrevB32, 16, ic(1), 5),
        vop2(Op::VSubbrevU32, 13, v(16), 1),
        sop1(Op::SMovB64, 26, s(VCC)),
        // (a with its high half >> 1) - b: a narrow minuend (the general sequence).
        vop2(Op::VSubU32, 14, v(0), 4),
        vop2(Op::VLshrrevB32, 17, ic(1), 1),
        vop2(Op::VSubbU32, 15, v(17), 5),
        sop1(Op::SMovB64, 28, s(VCC)),
        endpgm(),
    ];
    type F = fn(u64, u64) -> (u64, bool);
    let wants: [(usize, usize, F); 5] = [
        (2, 20, |a, b| ADD(a, hi_half_shifted(b))),
        (6, 22, |a, b| ADD(hi_half_shifted(a), b)),
        (10, 24, |a, b| SUB(a, hi_half_shifted(b))),
        (12, 26, |a, b| SUB(a, hi_half_shifted(b))),
        (14, 28, |a, b| SUB(hi_half_shifted(a), b)),
    ];
    let prog = program(Gen::Gfx8, &insts);
    let ops = narrow_operands();
    let jits = jits();
    for exec in [u64::MAX, 0x5555_5555_0f0f_3c3d, 0xaaaa_aaaa_f0f0_c3c2] {
        let mut w = Wave::new(Gen::Gfx8);
        for (l, &(a, b)) in ops.iter().enumerate() {
            put64(&mut w, 0, l, a);
            put64(&mut w, 4, l, b);
        }
        w.vcc = 0x5a5a_5a5a_5a5a_5a5a;
        w.exec = exec;
        for (name, jit) in &jits {
            let what = format!("{name} EXEC {exec:#x}");
            let out = check(jit, &prog, &w, &what);
            for &(r, sg, f) in &wants {
                check_pair(&out.wave, &ops, exec, (r, sg), f, |_| 0, &what);
            }
            assert_inline(jit, &prog, &w, &what);
        }
    }
    assert_compiled(&jits);
}
