//! FLAT addresses found lane-linear at compile time (`gcn::lanelin`): clang's address
//! arithmetic from a VGPR tested at the unit's header (`mem::global::lane_linear`) skips
//! the 16-chunk contiguity test. Values worked out by hand on both tiers, against the
//! interpreter: the VGPR lane-linear; not (two lanes swapped); lane-linear but wrapping
//! past 2^32 (the addresses jump back 16 GiB); and shapes the analysis must not take for
//! lane-linear although lanes 0 and 63 look contiguous — an add of another VGPR, a
//! write under a partial EXEC, a carry pair overwritten between the two halves' adds.

mod common;

use common::*;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Inst, Op};
use wavejit_isa::state::{Lds, Wave};
use wavejit_jit::{Jit, JitConfig};

const A: u64 = 0x10000;
const A_LEN: usize = 1024;
const B: u64 = 0x20000;
const B_LEN: usize = 512;
const EXEC: u8 = 126;

/// Region A holds byte i = i mod 256, region B byte i = 255 − i mod 256.
fn memory() -> MemInit {
    MemInit {
        regions: vec![
            (A, (0..A_LEN).map(|i| i as u8).collect()),
            (B, (0..B_LEN).map(|i| 255 - i as u8).collect()),
        ],
    }
}

/// The dword at offset `off` of region A, and of region B.
fn dword_a(off: u64) -> u32 {
    u32::from_le_bytes(std::array::from_fn(|i| (off as usize + i) as u8))
}
fn dword_b(off: u64) -> u32 {
    u32::from_le_bytes(std::array::from_fn(|i| 255 - (off as usize + i) as u8))
}

fn tiers() -> [(Jit, &'static str); 2] {
    let opt = up(Jit::new(JitConfig {
        hot_threshold: 0,
        ..JitConfig::default()
    }));
    [(jit(), "quick"), (opt, "optimised")]
}

/// clang-19's saxpy at gfx803 after its bounds test, with `before` in front: from the
/// element index in v0, `x = s[4:5] + 4·v0` into v[0:1] and `y = s[6:7] + 4·v0` into
/// v[2:3]; v0 = x's dword, v1 = y's, x's dword stored over y's and read back into v5.
fn saxpy_like(before: &[Inst], between: &[Inst]) -> Vec<Inst> {
    let mut p = before.to_vec();
    p.extend([
        vop1(Op::VMovB32, 1, ic(0)),
        vop3(Op::VLshlrevB64, 0, [ic(2), v(0), s(0)]),
        vop1(Op::VMovB32, 3, s(7)),
        vop2(Op::VAddU32, 2, s(6), 0),
    ]);
    p.extend_from_slice(between);
    p.extend([
        vop2(Op::VAddcU32, 3, v(3), 1),
        vop1(Op::VMovB32, 4, s(5)),
        vop2(Op::VAddU32, 0, s(4), 0),
        vop2(Op::VAddcU32, 1, v(4), 1),
        flat(Op::FlatLoadDword, 0, 0, 0),
        flat(Op::FlatLoadDword, 1, 2, 0),
        flat(Op::FlatStoreDword, 0, 2, 0),
        flat(Op::FlatLoadDword, 5, 2, 0),
        endpgm(),
    ]);
    p
}

/// Byte offset of instruction `k` of `insts` (gfx8 encodings).
fn pc_of(insts: &[Inst], k: usize) -> u32 {
    insts[..k]
        .iter()
        .map(|i| {
            4 * wavejit_isa::gcn::encode(Gen::Gfx8, i)
                .expect("encodes")
                .len() as u32
        })
        .sum()
}

/// Element indices `first + l` (modulo 2^32) in v0, x at A and y at B, v9 = the lane.
fn wave(first: u32) -> Box<Wave> {
    let mut w = Wave::new(Gen::Gfx8);
    for l in 0..64 {
        w.vgpr[0][l] = first.wrapping_add(l as u32);
        w.vgpr[9][l] = l as u32;
    }
    w.sgpr[4] = A as u32;
    w.sgpr[6] = B as u32;
    w
}

/// Run on both tiers against the interpreter; element index of each lane `idx(l)`:
/// v0 = A's dword at 4·idx, v1 = B's, and the store puts A's dword over B's (v5).
fn assert_elements(prog: &[Inst], w: &Wave, idx: impl Fn(usize) -> u64, what: &str) {
    let p = program(Gen::Gfx8, prog);
    for (j, tier) in tiers() {
        let out = check_with(&j, &p, w, &Lds::new(0), &memory(), 1000, tier);
        assert!(out.result.is_ok(), "{what}, {tier}: {:?}", out.result);
        let o = &out.wave;
        for l in 0..64 {
            let off = 4 * idx(l);
            assert_eq!(o.vgpr[0][l], dword_a(off), "{what}, {tier}: x lane {l}");
            assert_eq!(o.vgpr[1][l], dword_b(off), "{what}, {tier}: y lane {l}");
            assert_eq!(o.vgpr[5][l], dword_a(off), "{what}, {tier}: y' lane {l}");
        }
        let st = jit_run_stats(&j, &p, w, &Lds::new(0), &memory())
            .expect("runs")
            .1;
        assert_eq!(st.helper_steps, 0, "{what}, {tier}: in bounds, inline");
    }
}

#[test]
fn lane_linear_index_by_hand() {
    // Elements 16-79: x at A + 64 + 4l, y at B + 64 + 4l.
    assert_elements(
        &saxpy_like(&[], &[]),
        &wave(16),
        |l| 16 + l as u64,
        "linear",
    );
    // Lanes 5 and 6 swapped: the header's test fails, the chunks' test decides.
    let mut w = wave(16);
    w.vgpr[0].swap(5, 6);
    let idx = |l: usize| match l {
        5 => 22,
        6 => 21,
        _ => 16 + l as u64,
    };
    assert_elements(&saxpy_like(&[], &[]), &w, idx, "lanes 5 and 6 swapped");
}

#[test]
fn lane_linear_index_wrapping_past_2_32() {
    // Elements 2^32 − 16 + l modulo 2^32: lanes 16-63 wrap to elements 0-47, whose
    // addresses are 2^34 bytes below lanes 0-15's. With s[4:5] = A + 128 − 2^34, lane 0
    // loads A + 64 and lane 16 the first address in no region: A + 128 − 2^34. y's
    // lanes 0-15 are in B likewise (taken for contiguous, both loads would succeed).
    let prog = saxpy_like(&[], &[]);
    let mut w = wave(0u32.wrapping_sub(16));
    let x = (A + 128).wrapping_sub(1 << 34);
    let y = (B + 128).wrapping_sub(1 << 34);
    [w.sgpr[4], w.sgpr[5]] = [x as u32, (x >> 32) as u32];
    [w.sgpr[6], w.sgpr[7]] = [y as u32, (y >> 32) as u32];
    let p = program(Gen::Gfx8, &prog);
    for (j, tier) in tiers() {
        let out = check_with(&j, &p, &w, &Lds::new(0), &memory(), 1000, tier);
        assert_global_fault(&out, pc_of(&prog, 8), x, 16, tier);
    }
}

#[test]
fn lane_linear_shapes_the_analysis_refuses() {
    // v0 += v8 with v8 zero but in lane 5 (1): lanes 5 and 6 both at element 22.
    let mut w = wave(16);
    w.vgpr[8][5] = 1;
    // (v0 as the first source: an analysis taking the add for lane-linear would test v0.)
    let prog = saxpy_like(&[vop2(Op::VAddU32, 0, v(0), 8)], &[]);
    let idx = |l: usize| if l == 5 { 22 } else { 16 + l as u64 };
    assert_elements(&prog, &w, idx, "v0 + v8");
    // v0 += 1 under an EXEC without lane 5, then EXEC all ones again: lane 5 stays at
    // element 21, the others move to 17 + l (lanes 4 and 5 both at 21).
    let mut w = wave(16);
    let others = !(1u64 << 5);
    w.sgpr[10] = others as u32;
    w.sgpr[11] = (others >> 32) as u32;
    let before = [
        sop1(Op::SMovB64, EXEC, s(10)),
        vop2(Op::VAddU32, 0, ic(1), 0),
        sop1(Op::SMovB64, EXEC, ic(-1)),
    ];
    let idx = |l: usize| if l == 5 { 21 } else { 17 + l as u64 };
    assert_elements(&saxpy_like(&before, &[]), &w, idx, "masked add");
    // VCC rewritten between y's two adds (lane 5 only, from v9 = the lane): y's lane 5
    // gets 1 in its high half, 4 GiB past B + 84, in no region; the load of y faults
    // there (x's load, the instruction before, is in bounds).
    let prog = saxpy_like(&[], &[vopc(Op::VCmpEqU32, ic(5), 9)]);
    let p = program(Gen::Gfx8, &prog);
    let w = wave(16);
    for (j, tier) in tiers() {
        let out = check_with(&j, &p, &w, &Lds::new(0), &memory(), 1000, tier);
        assert_global_fault(&out, pc_of(&prog, 10), B + 84 + (1 << 32), 5, tier);
    }
}
