//! Address arithmetic as clang builds it — `v_lshlrev_b64` of a zero-extended index by a
//! constant, then `v_add_u32`/`v_addc_u32` with a scalar base pair, across `s_waitcnt` —
//! and 64-bit shifts by constants, lowered on the pair's 32-bit halves
//! (`gcn::mixed::shift64_halves`): values from `u64`/`u128` arithmetic, on both JIT tiers
//! and against the interpreter, under full and partial EXEC. A no-op between vector
//! instructions leaves them one segment: the unit's IR is the same as without it.

mod common;

use common::*;
use rand::Rng;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Inst, Op, Src};
use wavejit_isa::state::Wave;
use wavejit_jit::{Jit, JitConfig};

/// Lane l's 64-bit value: edges of the shifts (bits crossing the halves, sign bits,
/// zero and all ones), then random.
fn values() -> Vec<u64> {
    let edges = [
        0x8123_4567_89ab_cdef,
        0x0000_0000_ffff_ffff,
        0xffff_ffff_0000_0000,
        0x8000_0000_0000_0001,
        0x7fff_ffff_ffff_ffff,
        0,
        u64::MAX,
        0x0000_0001_8000_0000,
    ];
    let mut r = rng(0xadd5);
    (0..64)
        .map(|l| edges.get(l).copied().unwrap_or_else(|| r.random()))
        .collect()
}

/// Every register a marker, lane l's value in v[2:3], its low half alone in v10 and v12.
fn shift_wave(gen: Gen, exec: u64) -> Box<Wave> {
    let mut w = Wave::new(gen);
    for (r, row) in w.vgpr.iter_mut().enumerate().take(16) {
        for (l, x) in row.iter_mut().enumerate() {
            *x = 0xdead_0000 | (r as u32) << 8 | l as u32;
        }
    }
    for (l, x) in values().into_iter().enumerate() {
        put64(&mut w, 2, l, x);
        w.vgpr[10][l] = x as u32;
        w.vgpr[12][l] = (x >> 32) as u32;
    }
    w.exec = exec;
    w
}

/// Constant amounts (inline constants) and what the shifts take of them (`& 63`).
fn amounts() -> Vec<(Src, u32)> {
    let mut a: Vec<(Src, u32)> = [0, 1, 2, 4, 16, 31, 32, 33, 48, 63, 64]
        .iter()
        .map(|&k| (ic(k), k as u32 & 63))
        .collect();
    // -1 and -16 are 0xffff_ffff and 0xffff_fff0: amounts 63 and 48.
    a.push((ic(-1), 63));
    a.push((ic(-16), 48));
    a
}

/// Check lane by lane: active lanes `want`, inactive lanes the marker of `w`.
fn expect64(out: &Wave, w: &Wave, r: usize, want: impl Fn(usize) -> u64, what: &str) {
    for l in 0..64 {
        let got = get64(out, r, l);
        let want = if w.exec >> l & 1 != 0 {
            want(l)
        } else {
            get64(w, r, l)
        };
        assert_eq!(got, want, "{what}: v[{r}:{}] lane {l}", r + 1);
    }
}

#[test]
fn shifts_by_constants_by_hand() {
    let xs = values();
    for exec in [u64::MAX, 0x0f0f_3c3d_5555_aaa5] {
        for (amt, k) in amounts() {
            // GCN 1.2's reversed forms (the amount is SRC0); a pair whose high half the
            // segment just zeroed (`v_mov_b32 v11, 0`, as clang zero-extends an index);
            // a pair shifted in place.
            let rev = program(
                Gen::Gfx8,
                &[
                    vop3(Op::VLshlrevB64, 4, [amt, v(2), Src(0)]),
                    vop3(Op::VLshrrevB64, 6, [amt, v(2), Src(0)]),
                    vop3(Op::VAshrrevI64, 8, [amt, v(2), Src(0)]),
                    vop1(Op::VMovB32, 11, ic(0)),
                    vop3(Op::VLshlrevB64, 10, [amt, v(10), Src(0)]),
                    vop1(Op::VMovB32, 13, ic(0)),
                    vop3(Op::VLshrrevB64, 12, [amt, v(12), Src(0)]),
                    vop3(Op::VLshlrevB64, 2, [amt, v(2), Src(0)]),
                    endpgm(),
                ],
            );
            let w = shift_wave(Gen::Gfx8, exec);
            let jits = jits();
            for (name, jit) in &jits {
                let what = format!("{name} exec {exec:#x} amount {k}");
                let out = check(jit, &rev, &w, &what).wave;
                let lo = |l: usize| xs[l] & 0xffff_ffff;
                let hi = |l: usize| xs[l] >> 32;
                expect64(&out, &w, 4, |l| xs[l] << k, &format!("{what} lshlrev"));
                expect64(&out, &w, 6, |l| xs[l] >> k, &format!("{what} lshrrev"));
                let ashr = |l: usize| ((xs[l] as i64) >> k) as u64;
                expect64(&out, &w, 8, ashr, &format!("{what} ashrrev"));
                expect64(&out, &w, 10, |l| lo(l) << k, &format!("{what} zext lshl"));
                expect64(&out, &w, 12, |l| hi(l) >> k, &format!("{what} zext lshr"));
                expect64(&out, &w, 2, |l| xs[l] << k, &format!("{what} in place"));
                assert_inline(jit, &rev, &w, &what);
            }
            assert_compiled(&jits);
            // GCN 1.1's VOP3 forms (the amount is SRC1).
            let fwd = program(
                Gen::Gfx7,
                &[
                    vop3(Op::VLshlB64, 4, [v(2), amt, Src(0)]),
                    vop3(Op::VLshrB64, 6, [v(2), amt, Src(0)]),
                    vop3(Op::VAshrI64, 8, [v(2), amt, Src(0)]),
                    endpgm(),
                ],
            );
            let w = shift_wave(Gen::Gfx7, exec);
            for (name, jit) in &jits {
                let what = format!("gfx7 {name} exec {exec:#x} amount {k}");
                let out = check(jit, &fwd, &w, &what).wave;
                expect64(&out, &w, 4, |l| xs[l] << k, &format!("{what} lshl"));
                expect64(&out, &w, 6, |l| xs[l] >> k, &format!("{what} lshr"));
                let ashr = |l: usize| ((xs[l] as i64) >> k) as u64;
                expect64(&out, &w, 8, ashr, &format!("{what} ashr"));
            }
        }
    }
}

/// clang's two addresses of `x[i]` and `y[i]` (saxpy), the waits between them as no-ops.
fn clang_addresses(nops: bool) -> Vec<Inst> {
    let mut insts = vec![
        vop1(Op::VMovB32, 1, ic(0)),
        vop3(Op::VLshlrevB64, 0, [ic(2), v(0), Src(0)]),
        sopp(Op::SWaitcnt, 0),
        vop1(Op::VMovB32, 3, s(7)),
        vop2(Op::VAddU32, 2, s(6), 0),
        vop2(Op::VAddcU32, 3, v(3), 1),
        sopp(Op::SNop, 0),
        vop1(Op::VMovB32, 4, s(5)),
        vop2(Op::VAddU32, 0, s(4), 0),
        vop2(Op::VAddcU32, 1, v(4), 1),
        endpgm(),
    ];
    if !nops {
        insts.retain(|i| !matches!(i.op, Op::SWaitcnt | Op::SNop));
    }
    insts
}

/// Lane l's index in v0: edges (the shifted index carrying into the high half, the sums
/// carrying out of the low half and out of 64 bits), then random.
fn address_wave(exec: u64) -> Box<Wave> {
    let mut w = Wave::new(Gen::Gfx8);
    for (r, row) in w.vgpr.iter_mut().enumerate().take(8) {
        for (l, x) in row.iter_mut().enumerate() {
            *x = 0xbeef_0000 | (r as u32) << 8 | l as u32;
        }
    }
    let edges = [
        0u32,
        1,
        3,
        4,
        0x3fff_ffff,
        0x4000_0000,
        0xffff_ffff,
        0xc000_0000,
        0x40,
    ];
    let mut r = rng(0xadd6);
    for l in 0..64 {
        w.vgpr[0][l] = edges.get(l).copied().unwrap_or_else(|| r.random());
    }
    // s[6:7]: the low half carries for indices from 0x40 up; s[4:5]: the 64-bit sum
    // carries out for indices from 4 up.
    (w.sgpr[6], w.sgpr[7]) = (0xffff_ff00, 0x0000_0001);
    (w.sgpr[4], w.sgpr[5]) = (0xffff_fff0, 0xffff_ffff);
    w.vcc = 0x5a5a_5a5a_5a5a_5a5a;
    w.exec = exec;
    w
}

#[test]
fn clang_address_pairs_across_waits_by_hand() {
    let prog = program(Gen::Gfx8, &clang_addresses(true));
    for exec in [u64::MAX, 0xaaaa_aaaa_f0f0_c3c2] {
        let w = address_wave(exec);
        let base = |lo: usize| w.sgpr[lo] as u128 | (w.sgpr[lo + 1] as u128) << 32;
        let (s6, s4) = (base(6), base(4));
        let idx = |l: usize| (w.vgpr[0][l] as u128) << 2;
        let jits = jits();
        for (name, jit) in &jits {
            let what = format!("{name} exec {exec:#x}");
            let out = check(jit, &prog, &w, &what).wave;
            expect64(&out, &w, 2, |l| (s6 + idx(l)) as u64, &format!("{what} y"));
            expect64(&out, &w, 0, |l| (s4 + idx(l)) as u64, &format!("{what} x"));
            // VCC: the carries out of the last 64-bit sum, 0 in inactive lanes.
            let carries = (0..64)
                .filter(|&l| exec >> l & 1 != 0 && (s4 + idx(l)) >> 64 != 0)
                .fold(0u64, |a, l| a | 1 << l);
            assert_eq!(out.vcc, carries, "{what}: VCC");
            for l in 0..64 {
                let want = if exec >> l & 1 != 0 {
                    w.sgpr[5]
                } else {
                    w.vgpr[4][l]
                };
                assert_eq!(out.vgpr[4][l], want, "{what}: v4 lane {l}");
            }
            assert_inline(jit, &prog, &w, &what);
        }
        assert_compiled(&jits);
    }
}

#[test]
fn waits_leave_the_segment_whole() {
    // The same block with and without its `s_waitcnt` and `s_nop`: the no-ops build no
    // IR, and the vector instructions around them stay one segment (a segment ended at
    // each no-op would store its registers and the next reload them).
    let mut ir = Vec::new();
    for nops in [false, true] {
        let jit = up(Jit::new(JitConfig {
            hot_threshold: 0,
            ..JitConfig::default()
        }));
        let prog = program(Gen::Gfx8, &clang_addresses(nops));
        let w = address_wave(u64::MAX);
        check(&jit, &prog, &w, &format!("no-ops {nops}"));
        ir.push(jit.stats().clif_insts);
    }
    assert_eq!(ir[0], ir[1], "IR without and with the no-ops");
}
