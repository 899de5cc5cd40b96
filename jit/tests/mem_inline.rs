//! Memory instructions lowered inline (`wavejit_jit::mem`): FLAT loads and stores, DS
//! reads and writes (one- and two-address), DS atomics, scalar loads, contiguous dwords.
//! Values worked out by hand, zero helper calls where every access is in bounds, and
//! random programs — addresses in range, out of range, misaligned, straddling two
//! regions, contiguous, random EXEC, destinations overlapping addresses — against the
//! interpreter (results, errors with pc and lane, memory and LDS bytes).

mod common;

use common::*;
use rand::Rng;
use wavejit_interp::{Ctx, ExecErrorKind};
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::build::{ds, smem, smrd};
use wavejit_isa::gcn::{Fields, FlatFields, Inst, Op, Src};
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Wave};
use wavejit_jit::{Jit, JitConfig};

const A: u64 = 0x10000;
const A_LEN: usize = 1024;
const B: u64 = 0x20000;
const B_LEN: usize = 512;
const LDS_LEN: usize = 512;

fn flat_glc(op: Op, vdst: u8, addr: u8, data: u8) -> Inst {
    let mut i = flat(op, vdst, addr, data);
    if let Fields::Flat(FlatFields { glc, .. }) = &mut i.fields {
        *glc = true;
    }
    i
}

/// Region A holds byte i = i mod 256, region B byte i = 255 − i mod 256.
fn memory() -> MemInit {
    MemInit {
        regions: vec![
            (A, (0..A_LEN).map(|i| i as u8).collect()),
            (B, (0..B_LEN).map(|i| 255 - i as u8).collect()),
        ],
    }
}

/// LDS dword i = 3 × i.
fn lds() -> Lds {
    let mut l = Lds::new(LDS_LEN);
    for i in 0..LDS_LEN / 4 {
        l.bytes[4 * i..4 * i + 4].copy_from_slice(&(3 * i as u32).to_le_bytes());
    }
    l
}

/// `prog` from `w` matches the interpreter on `j` and ends with its error for a DS read
/// at byte `pc` whose first failing lane, `lane`, reads past the 512-byte LDS.
fn assert_lds_end_fault(j: &Jit, prog: &Program, w: &Wave, pc: u32, lane: u8, what: &str) {
    let out = check_with(j, prog, w, &lds(), &memory(), 1000, what);
    let e = out.result.expect_err(what);
    assert_eq!(e.pc, pc, "{what}: {e:?}");
    assert!(
        matches!(e.kind, ExecErrorKind::OutOfBounds { lane: Some(l), addr: 512, .. } if l == lane),
        "{what}: {e:?}"
    );
}

/// A JIT that compiles every unit optimised at once (the quick tier leaves the paths by
/// chunks and windows to it).
fn opt_jit() -> Jit {
    up(Jit::new(JitConfig {
        hot_threshold: 0,
        ..JitConfig::default()
    }))
}

/// The optimising tier with DS reads kept out of vector segments (`fuse_ds_reads` off):
/// the same hand values must come out of the unfused DS paths.
fn unfused_jit() -> Jit {
    up(Jit::new(JitConfig {
        hot_threshold: 0,
        fuse_ds_reads: false,
        ..JitConfig::default()
    }))
}

/// Run `prog` from `w` with this file's LDS and memory on the JIT, compared with the
/// interpreter; the run must end without an error.
fn run_ok(prog: &wavejit_isa::ir::Program, w: &Wave, what: &str) -> Outcome {
    let out = check_with(&jit(), prog, w, &lds(), &memory(), 1000, what);
    assert!(out.result.is_ok(), "{:?}", out.result);
    out
}

fn helper_steps(prog: &wavejit_isa::ir::Program, w: &Wave) -> u64 {
    let run = jit_run_stats(&jit(), prog, w, &lds(), &memory());
    run.expect("runs").1.helper_steps
}

#[test]
fn loads_and_stores_by_hand() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    for l in 0..64 {
        put64(&mut w, 0, l, A + 0x80 + l as u64); // bytes 0x80 + l
        put64(&mut w, 2, l, A + 0x100 + 2 * l as u64); // shorts at 0x100 + 2l
        put64(&mut w, 4, l, A + 0x200 + 4 * l as u64); // dwords
        w.vgpr[6][l] = 4 * l as u32; // LDS dword l
        w.vgpr[7][l] = 0x1000 + l as u32;
    }
    w.sgpr[4] = A as u32;
    w.sgpr[5] = 0;
    let insts = vec![
        flat(Op::FlatLoadSbyte, 10, 0, 0),
        flat(Op::FlatLoadUbyte, 11, 0, 0),
        flat(Op::FlatLoadSshort, 12, 2, 0),
        flat(Op::FlatLoadUshort, 13, 2, 0),
        flat(Op::FlatStoreDword, 0, 4, 7),
        flat(Op::FlatLoadDwordx2, 14, 4, 0),
        ds(Op::DsRead2B32, 16, 6, [0, 0], [1, 5]),
        ds(Op::DsWriteB32, 0, 6, [7, 0], [0, 0]),
        ds(Op::DsReadB32, 18, 6, [0, 0], [4, 0]),
        smem(Op::SLoadDwordx2, 20, 4, true, 8),
        flat(Op::FlatLoadDword, 0, 0, 0), // VDST overlaps ADDR
        endpgm(),
    ];
    let prog = program(gen, &insts);
    let out = run_ok(&prog, &w, "by hand");
    let o = &out.wave;
    // Lane 0: byte 0x80 sign-extended; lane 5: byte 0x85.
    assert_eq!(o.vgpr[10][0], 0xffff_ff80);
    assert_eq!(o.vgpr[11][5], 0x85);
    // Lane 0: bytes 0x00, 0x01 at 0x100 → 0x0100 (positive); lane 64 would wrap.
    assert_eq!(o.vgpr[12][0], 0x0100);
    // Lane 63: bytes 0x7e, 0x7f at 0x17e → 0x7f7e; region offset 0x100 + 126.
    assert_eq!(o.vgpr[13][63], 0x7f7e);
    // Stored 0x1000 + l at 0x200 + 4l, then x2 reads lane l's and lane l+1's dwords.
    assert_eq!(o.vgpr[14][3], 0x1003);
    assert_eq!(o.vgpr[15][3], 0x1004);
    // Lane 63's second dword is byte pattern 0x300..0x303 (never stored).
    assert_eq!(o.vgpr[15][63], 0x0302_0100);
    // read2: dwords l + 1 and l + 5 of the LDS (3 × index).
    assert_eq!(o.vgpr[16][2], 9);
    assert_eq!(o.vgpr[17][2], 21);
    // The write replaced dword l with 0x1000 + l; offset 4 reads dword l + 1.
    assert_eq!(o.vgpr[18][2], 0x1003);
    assert_eq!(o.vgpr[18][63], 3 * 64);
    assert_eq!(o.sgpr[20], 0x0b0a_0908);
    assert_eq!(o.sgpr[21], 0x0f0e_0d0c);
    assert_eq!(o.vgpr[0][1], 0x8483_8281);
    assert_eq!(
        helper_steps(&prog, &w),
        0,
        "every access in bounds: all inline"
    );
    // Partial EXEC: inactive lanes are neither loaded nor stored, even out of bounds.
    let mut w2 = w.clone();
    w2.exec = 0x00ff_0000_f0f0_0001;
    for l in 0..64 {
        if (w2.exec >> l) & 1 == 0 {
            put64(&mut w2, 0, l, 0xdead_0000_0000);
            w2.vgpr[6][l] = 0x7fff_0001;
        }
    }
    let out = check_with(&jit(), &prog, &w2, &lds(), &memory(), 1000, "exec");
    assert!(out.result.is_ok(), "{:?}", out.result);
    assert_eq!(out.wave.vgpr[10][1], w2.vgpr[10][1], "lane 1 inactive");
    assert_eq!(helper_steps(&prog, &w2), 0);
}

/// The quick tier emits the lanes of FLAT and DS accesses (one, and runs of loads) as one
/// loop body over the 16 chunks: the interpreter's results under full and partial EXEC
/// (inactive lanes' addresses far out of bounds), with a fraction of the unrolled IR.
#[test]
fn quick_tier_memory_accesses_loop_over_chunks() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    for l in 0..64 {
        put64(&mut w, 0, l, A + 0x80 + l as u64);
        put64(&mut w, 2, l, A + 0x100 + 2 * l as u64);
        w.vgpr[6][l] = 4 * l as u32;
        w.vgpr[7][l] = 0x1000 + l as u32;
    }
    let insts = vec![
        flat(Op::FlatLoadUbyte, 11, 0, 0),
        flat(Op::FlatStoreShort, 0, 2, 7),
        ds(Op::DsWriteB32, 0, 6, [7, 0], [0, 0]),
        ds(Op::DsRead2B32, 16, 6, [0, 0], [1, 5]),
        ds(Op::DsReadB32, 18, 6, [0, 0], [4, 0]),
        flat(Op::FlatLoadSshort, 12, 2, 0),
        endpgm(),
    ];
    let prog = program(gen, &insts);
    for exec in [u64::MAX, 0x00ff_0000_f0f0_0001] {
        let mut w = w.clone();
        w.exec = exec;
        for l in (0..64).filter(|l| (exec >> l) & 1 == 0) {
            put64(&mut w, 0, l, 0xdead_0000_0000);
            put64(&mut w, 2, l, 0xdead_0000_0000);
            w.vgpr[6][l] = 0x7fff_0001;
        }
        let mut ir = Vec::new();
        for loops in [true, false] {
            let jit = Jit::new(JitConfig {
                chunk_loops: loops,
                ..JitConfig::default()
            });
            let what = format!("exec {exec:#x}, loops {loops}");
            let out = check_with(&jit, &prog, &w, &lds(), &memory(), 1000, &what);
            assert!(out.result.is_ok(), "{what}: {:?}", out.result);
            let st = jit.stats();
            assert_eq!((st.quick_blocks, st.helper_insts), (1, 0), "{what}: {st:?}");
            ir.push(st.clif_insts);
        }
        // Unrolled, each access is 64 lanes' pointers, loads and stores; looped, 4 lanes'
        // (the per-instruction checks over all 16 chunks stay unrolled): 3870 against
        // 1420 under the partial EXEC when this was written.
        assert!(2 * ir[0] < ir[1], "exec {exec:#x}: IR with loops {ir:?}");
    }
}

/// FLAT dwords with EXEC all ones whose chunks of four lanes are each consecutive but not
/// one after another (rows of a 2-D workgroup; chunks in reverse order; two chunks storing
/// to the same dwords, the higher lanes winning), next to a chunk that is not consecutive
/// (lane by lane) and one whose low halves carry past 2^32 (the interpreter's error).
#[test]
fn row_dwords_by_hand() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    for l in 0..64u64 {
        // Rows of 16 lanes, 0x100 bytes apart.
        put64(&mut w, 0, l as usize, A + 0x100 * (l / 16) + 4 * (l % 16));
        // Chunks in reverse order in B.
        put64(&mut w, 2, l as usize, B + 16 * (15 - l / 4) + 4 * (l % 4));
        // Chunk 5 stores to chunk 0's dwords.
        let c = if l / 4 == 5 { 0 } else { l / 4 };
        put64(&mut w, 4, l as usize, A + 0x200 + 16 * c + 4 * (l % 4));
        w.vgpr[6][l as usize] = 0x7000 + l as u32;
    }
    let insts = vec![
        flat(Op::FlatLoadDword, 10, 0, 0),
        flat(Op::FlatLoadDword, 11, 2, 0),
        flat(Op::FlatStoreDword, 0, 4, 6),
        flat(Op::FlatLoadDword, 12, 4, 0),
        endpgm(),
    ];
    let prog = program(gen, &insts);
    let le = |b: u64| u32::from_le_bytes([0, 1, 2, 3].map(|i| b as u8 + i));
    let be = |b: u64| u32::from_le_bytes([0, 1, 2, 3].map(|i| 255 - (b as u8 + i)));
    // The quick tier has no path by chunks; the optimising tier has.
    for (j, tier) in [(jit(), "quick"), (opt_jit(), "optimised")] {
        let out = check_with(&j, &prog, &w, &lds(), &memory(), 1000, tier);
        assert!(out.result.is_ok(), "{tier}: {:?}", out.result);
        let o = &out.wave;
        for l in 0..64u64 {
            let lu = l as usize;
            // Region A byte i = i mod 256; B byte i = 255 - i mod 256.
            let a = le(0x100 * (l / 16) + 4 * (l % 16));
            assert_eq!(o.vgpr[10][lu], a, "{tier}: A rows, lane {l}");
            let b = be(16 * (15 - l / 4) + 4 * (l % 4));
            assert_eq!(o.vgpr[11][lu], b, "{tier}: B reversed, lane {l}");
            // Chunk 0's dwords hold chunk 5's data (lanes 20-23 after lanes 0-3).
            let src = if l / 4 == 0 || l / 4 == 5 {
                20 + l % 4
            } else {
                l
            };
            assert_eq!(
                o.vgpr[12][lu],
                0x7000 + src as u32,
                "{tier}: stored, lane {l}"
            );
        }
        // Lanes 1 and 2 of chunk 3 swapped: lane by lane, the same values.
        let mut w2 = w.clone();
        put64(&mut w2, 0, 13, A + 4 * 14);
        put64(&mut w2, 0, 14, A + 4 * 13);
        let out = check_with(&j, &prog, &w2, &lds(), &memory(), 1000, tier);
        assert!(out.result.is_ok(), "{tier}: {:?}", out.result);
        assert_eq!(out.wave.vgpr[10][13], le(4 * 14), "{tier}");
        // Chunk 2 from 8 bytes below 2^32 in A's high half: its lanes 2 and 3 wrap to
        // low half 0 and 4, in no region.
        let mut w3 = w.clone();
        for l in 8..12 {
            put64(&mut w3, 0, l, 0xffff_fff8 + 4 * (l as u64 - 8));
        }
        let out = check_with(&j, &prog, &w3, &lds(), &memory(), 1000, tier);
        let e = out.result.expect_err("lanes outside every region");
        assert_eq!(e.pc, 0, "{tier}");
        assert!(
            matches!(e.kind, ExecErrorKind::OutOfBounds { lane: Some(8), .. }),
            "{tier}: {e:?}"
        );
    }
    assert_eq!(
        helper_steps(&prog, &w),
        0,
        "every access in bounds: all inline"
    );
}

/// DS dword reads under a full EXEC whose lanes lie within 16 bytes of their chunk's
/// lane 0 (a row read by consecutive lanes, a value broadcast to 16 lanes: one 16-byte
/// load and a byte shuffle per chunk), next to reads that do not (lanes of a chunk in
/// reverse order; a window running past the LDS's end while every lane is in bounds), a
/// destination overlapping its address, and a lane out of bounds or misaligned.
#[test]
fn window_reads_by_hand() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    for l in 0..64u32 {
        w.vgpr[0][l as usize] = 4 * (l % 16);
        w.vgpr[1][l as usize] = 64 * (l / 16);
        w.vgpr[2][l as usize] = 4 * (4 * (l / 4) + 3 - l % 4);
        w.vgpr[3][l as usize] = 500 + 4 * (l % 4 / 2);
        w.vgpr[4][l as usize] = 4 * l;
    }
    // Runs of reads (split by a nop): windows only; one reversed; one past the end.
    let insts = vec![
        ds(Op::DsRead2B32, 10, 0, [0, 0], [1, 2]),
        ds(Op::DsReadB32, 12, 1, [0, 0], [8, 0]),
        ds(Op::DsRead2st64B32, 16, 0, [0, 0], [0, 1]),
        ds(Op::DsReadB32, 4, 4, [0, 0], [0, 1]),
        sopp(Op::SNop, 0),
        ds(Op::DsReadB32, 13, 2, [0, 0], [0, 0]),
        sopp(Op::SNop, 0),
        ds(Op::DsRead2B32, 14, 3, [0, 0], [0, 1]),
        endpgm(),
    ];
    let prog = program(gen, &insts);
    // The quick tier reads lane by lane; the optimising tier has the windows.
    for (j, tier) in [(jit(), "quick"), (opt_jit(), "optimised")] {
        let out = check_with(&j, &prog, &w, &lds(), &memory(), 1000, tier);
        assert!(out.result.is_ok(), "{tier}: {:?}", out.result);
        window_values(&out.wave, tier);
    }
    assert_eq!(
        helper_steps(&prog, &w),
        0,
        "every access in bounds: all inline"
    );
    // Lane 9 of the row out of bounds (offset1 8 bytes on from 508), then misaligned: the
    // interpreter's error, pc and lane (`check_with` compares them).
    for (bad, what) in [(508, "out of bounds"), (2, "misaligned")] {
        let mut w2 = w.clone();
        w2.vgpr[0][9] = bad;
        let out = check_with(&opt_jit(), &prog, &w2, &lds(), &memory(), 1000, what);
        let e = out.result.expect_err(what);
        assert_eq!(e.pc, 0, "{what}: {e:?}");
        let lane9 = match &e.kind {
            ExecErrorKind::OutOfBounds { lane, .. } => *lane == Some(9),
            ExecErrorKind::BadOperand(m) => m.contains("(lane 9)") && m.contains("aligned"),
            _ => false,
        };
        assert!(lane9, "{what}: {e:?}");
    }
}

/// DS accesses of one unit sharing their address registers' checks: row writes (one
/// 16-byte store per chunk; two chunks writing the same dwords, a two-address write
/// whose windows overlap across chunks, one whose offsets are a dword apart: lane order
/// decides), reads between VALU work, a
/// broadcast, a pattern that differs between chunks (lane by lane), a read overwriting
/// its address register and a read of that register rewritten; then a later access of a
/// group out of bounds, and an address register rewritten out of bounds: the
/// interpreter's error at that access's pc and lane.
#[test]
fn shared_checks_by_hand() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    for l in 0..64u32 {
        let lu = l as usize;
        w.vgpr[1][lu] = 4 * l;
        w.vgpr[2][lu] = 1000 + l;
        w.vgpr[3][lu] = 2000 + l;
        w.vgpr[4][lu] = 256 + 16 * (l / 16);
        w.vgpr[5][lu] = 4 * (l % 16);
        w.vgpr[6][lu] = if l < 4 { 4 * l } else { 16 * (l / 4) };
    }
    let insts = vec![
        ds(Op::DsWriteB32, 0, 1, [2, 0], [0, 0]),
        ds(Op::DsWrite2B32, 0, 5, [2, 3], [64, 72]),
        ds(Op::DsWrite2B32, 0, 5, [2, 3], [96, 97]),
        vop2(Op::VXorB32, 7, v(2), 3),
        ds(Op::DsRead2B32, 10, 1, [0, 0], [1, 2]),
        ds(Op::DsReadB32, 12, 4, [0, 0], [0, 0]),
        ds(Op::DsReadB32, 13, 6, [0, 0], [0, 0]),
        ds(Op::DsReadB32, 1, 1, [0, 0], [0, 0]),
        vop1(Op::VMovB32, 1, v(4)),
        ds(Op::DsReadB32, 14, 1, [0, 0], [4, 0]),
        endpgm(),
    ];
    let prog = program(gen, &insts);
    for (j, tier) in [(jit(), "quick"), (opt_jit(), "optimised")] {
        let out = check_with(&j, &prog, &w, &lds(), &memory(), 1000, tier);
        assert!(out.result.is_ok(), "{tier}: {:?}", out.result);
        let (o, lds) = (&out.wave, &out.lds);
        let dword = |i: usize| u32::from_le_bytes(lds.bytes[4 * i..4 * i + 4].try_into().unwrap());
        for i in 0..64 {
            assert_eq!(dword(i), 1000 + i as u32, "{tier}: row write, dword {i}");
        }
        // The write2: lane l writes dword 64 + l % 16, then dword 72 + l % 16; the last
        // lane in lane order wins (dwords 72-79 last written by lanes 56-63's first
        // access, after lanes 48-55's second).
        for i in 0..8 {
            assert_eq!(dword(64 + i), 1048 + i as u32, "{tier}: dword {}", 64 + i);
            assert_eq!(dword(72 + i), 1056 + i as u32, "{tier}: dword {}", 72 + i);
            assert_eq!(dword(80 + i), 2056 + i as u32, "{tier}: dword {}", 80 + i);
        }
        assert_eq!(dword(88), 3 * 88, "{tier}: dword 88 untouched");
        // Offsets a dword apart: lane l's second access and lane l + 1's first meet, and
        // the later lane wins (its first access): dword 96 + k holds lane 48 + k's DATA0,
        // dword 112 lane 63's DATA1.
        for k in 0..16 {
            assert_eq!(dword(96 + k), 1048 + k as u32, "{tier}: dword {}", 96 + k);
        }
        assert_eq!(dword(112), 2063, "{tier}: dword 112");
        for l in 0..64u32 {
            let lu = l as usize;
            let after = |k: u32| match l + k {
                n if n < 64 => 1000 + n,
                n => 1048 + n - 64,
            };
            assert_eq!(
                (o.vgpr[10][lu], o.vgpr[11][lu]),
                (after(1), after(2)),
                "{tier}: read2 after the writes, lane {l}"
            );
            let bc = [1048, 1052, 1056, 1060][lu / 16];
            assert_eq!(o.vgpr[12][lu], bc, "{tier}: broadcast, lane {l}");
            let mixed = if l < 4 { 1000 + l } else { 1000 + 4 * (l / 4) };
            assert_eq!(o.vgpr[13][lu], mixed, "{tier}: mixed chunks, lane {l}");
            assert_eq!(o.vgpr[1][lu], 256 + 16 * (l / 16), "{tier}: v1 rewritten");
            let bc4 = [1049, 1053, 1057, 1061][lu / 16];
            assert_eq!(
                o.vgpr[14][lu], bc4,
                "{tier}: read of the rewritten v1, lane {l}"
            );
        }
    }
    assert_eq!(
        helper_steps(&prog, &w),
        0,
        "every access in bounds: all inline"
    );
    // A later read of the group past the LDS (lane 63 at 252 + 260 = 512), and v1
    // rewritten to 16 × lane (lane 32 at 512): both engines stop there.
    let late = [
        ds(Op::DsReadB32, 10, 1, [0, 0], [0, 0]),
        vop2(Op::VXorB32, 7, v(2), 3),
        ds(Op::DsReadB32, 11, 1, [0, 0], [4, 1]),
        endpgm(),
    ];
    let rewritten = [
        ds(Op::DsReadB32, 10, 1, [0, 0], [0, 0]),
        vop2(Op::VLshlrevB32, 1, ic(2), 1),
        ds(Op::DsReadB32, 11, 1, [0, 0], [0, 0]),
        endpgm(),
    ];
    for (insts, lane, what) in [(&late[..], 63, "late"), (&rewritten[..], 32, "rewritten")] {
        let prog = program(gen, insts);
        for (j, tier) in [(jit(), "quick"), (opt_jit(), "optimised")] {
            let out = check_with(&j, &prog, &w, &lds(), &memory(), 1000, what);
            let e = out.result.expect_err(what);
            assert_eq!(e.pc, 12, "{what} ({tier}): {e:?}");
            assert!(
                matches!(e.kind, ExecErrorKind::OutOfBounds { lane: Some(l), addr: 512, .. } if l == lane),
                "{what} ({tier}): {e:?}"
            );
        }
    }
}

/// DS reads emitted inside the vector segment after them (`mem::fused`): a read2 whose
/// values feed an add across an `s_waitcnt`, a broadcast feeding a multiply, a register
/// read twice (the first value used, the second kept), the address register rewritten
/// after its reads and read through again (a new segment, checked from the new value).
/// Rows and broadcasts take the window copy, lanes reversed within their chunks the
/// lane-by-lane copy; both tiers, and with fusion off; values from LDS dword i = 3 i by
/// hand; no helper call in bounds; out of bounds at the first read and at the read after
/// the rewrite: the interpreter's error at that read's pc and lane.
#[test]
fn fused_reads_by_hand() {
    let gen = Gen::Gfx8;
    let insts = vec![
        ds(Op::DsRead2B32, 10, 1, [0, 0], [1, 2]),
        sopp(Op::SWaitcnt, 0),
        vop2(Op::VAddU32, 20, v(10), 11),
        ds(Op::DsReadB32, 12, 2, [0, 0], [0, 0]),
        vop3(Op::VMulLoU32, 21, [v(12), v(10), Src(0)]),
        ds(Op::DsReadB32, 10, 1, [0, 0], [8, 0]),
        vop2(Op::VAddU32, 1, ic(4), 1),
        ds(Op::DsReadB32, 13, 1, [0, 0], [8, 0]),
        vop2(Op::VXorB32, 22, v(13), 10),
        endpgm(),
    ];
    let prog = program(gen, &insts);
    let dw = |addr: u32| 3 * (addr / 4);
    // v1: a row (window copy) or each chunk's lanes reversed (lane by lane); v2 a
    // broadcast of dword 16 × (l / 16).
    let row = |l: u32| 4 * l;
    let reversed = |l: u32| 4 * (4 * (l / 4) + 3 - l % 4);
    for (addr, pattern) in [(row as fn(u32) -> u32, "row"), (reversed, "reversed")] {
        let mut w = Wave::new(gen);
        for l in 0..64u32 {
            w.vgpr[1][l as usize] = addr(l);
            w.vgpr[2][l as usize] = 64 * (l / 16);
        }
        for (j, tier) in [
            (jit(), "quick"),
            (opt_jit(), "optimised"),
            (unfused_jit(), "unfused"),
        ] {
            let what = format!("{pattern}, {tier}");
            let out = check_with(&j, &prog, &w, &lds(), &memory(), 1000, &what);
            assert!(out.result.is_ok(), "{what}: {:?}", out.result);
            let o = &out.wave;
            for l in 0..64u32 {
                let (lu, a) = (l as usize, addr(l));
                let first = dw(a + 4);
                assert_eq!(
                    o.vgpr[11][lu],
                    dw(a + 8),
                    "{what}: read2's second, lane {l}"
                );
                assert_eq!(o.vgpr[20][lu], first + dw(a + 8), "{what}: add, lane {l}");
                let bc = dw(64 * (l / 16));
                assert_eq!(o.vgpr[12][lu], bc, "{what}: broadcast, lane {l}");
                assert_eq!(
                    o.vgpr[21][lu],
                    bc.wrapping_mul(first),
                    "{what}: mul, lane {l}"
                );
                assert_eq!(
                    o.vgpr[10][lu],
                    dw(a + 8),
                    "{what}: v10 read again, lane {l}"
                );
                assert_eq!(o.vgpr[1][lu], a + 4, "{what}: v1 rewritten, lane {l}");
                assert_eq!(
                    o.vgpr[13][lu],
                    dw(a + 12),
                    "{what}: read of new v1, lane {l}"
                );
                assert_eq!(
                    o.vgpr[22][lu],
                    dw(a + 12) ^ dw(a + 8),
                    "{what}: xor, lane {l}"
                );
            }
        }
        assert_eq!(helper_steps(&prog, &w), 0, "{pattern}: all inline");
    }
    // Lane 9 at 504: the read2's second dword is at 512, past the LDS (the first
    // instruction). Lane 40 at 500: every read before the rewrite fits (the furthest
    // ends at byte 512); the last one, after v1 += 4, reads at 504 + 8 = 512.
    for (lane, base, at) in [(9u32, 504u32, 0usize), (40, 500, 7)] {
        let mut w = Wave::new(gen);
        for l in 0..64u32 {
            w.vgpr[1][l as usize] = 4 * l;
            w.vgpr[2][l as usize] = 64 * (l / 16);
        }
        w.vgpr[1][lane as usize] = base;
        for (j, tier) in [
            (jit(), "quick"),
            (opt_jit(), "optimised"),
            (unfused_jit(), "unfused"),
        ] {
            let what = format!("lane {lane} at {base}, {tier}");
            assert_lds_end_fault(&j, &prog, &w, prog.slots[at].pc, lane as u8, &what);
        }
    }
}

/// Reads emitted for their registers' lane patterns (`mem::fused::Path::Patterned`, the
/// optimised tier). `guess` takes v1's reads (offsets 4 bytes apart) for a broadcast and
/// v2's (64 bytes apart) for a row. Values by hand when both registers have the guessed
/// pattern (v1's last chunk at the LDS's last two dwords, where no 16-byte window fits,
/// and v2's last row ending at the LDS's end), when the patterns are swapped or both
/// registers hold rows (the window copy) and when v2's chunks are reversed (lane by
/// lane), on every tier; reads past the
/// LDS through either register: the interpreter's error, pc and lane.
#[test]
fn patterned_reads_by_hand() {
    use wavejit_jit::mem::fused::{guess, Pattern};
    assert_eq!(guess(&[0, 4]), Pattern::Broadcast);
    assert_eq!(guess(&[8, 64, 12]), Pattern::Broadcast);
    assert_eq!(guess(&[0, 64, 128]), Pattern::Row);
    assert_eq!(guess(&[16, 0]), Pattern::Row);
    assert_eq!(guess(&[8, 8]), Pattern::Row);
    assert_eq!(guess(&[8]), Pattern::Row);
    let gen = Gen::Gfx8;
    let prog = program(
        gen,
        &[
            ds(Op::DsRead2B32, 10, 1, [0, 0], [0, 1]),
            ds(Op::DsRead2B32, 12, 2, [0, 0], [0, 16]),
            sopp(Op::SWaitcnt, 0),
            vop3(Op::VMulLoU32, 20, [v(10), v(12), Src(0)]),
            vop3(Op::VMulLoU32, 21, [v(11), v(13), Src(0)]),
            vop2(Op::VAddU32, 22, v(20), 21),
            endpgm(),
        ],
    );
    let dw = |addr: u32| 3 * (addr / 4);
    let tiers = || {
        [
            (jit(), "quick"),
            (opt_jit(), "optimised"),
            (unfused_jit(), "unfused"),
        ]
    };
    // v1: chunk c's lanes at 384 + 8c (chunk 15 at 504: dwords 504 and 508); v2: rows
    // of 16 lanes at 384 + 4 (l % 16) (the furthest, lane 15's second read, ends at 512).
    fn bcast(l: u32) -> u32 {
        384 + 8 * (l / 4)
    }
    fn row(l: u32) -> u32 {
        384 + 4 * (l % 16)
    }
    fn reversed(l: u32) -> u32 {
        384 + 4 * (4 * (l % 16 / 4) + 3 - l % 4)
    }
    type Case = (fn(u32) -> u32, fn(u32) -> u32, &'static str);
    let cases: [Case; 4] = [
        (bcast, row, "as guessed"),
        (|l| 4 * l, |l| 64 * (l / 16), "swapped"),
        (|l| 4 * l, row, "both rows"),
        (bcast, reversed, "v2 reversed"),
    ];
    assert_eq!(bcast(63), 504);
    assert_eq!(
        (0..4).map(reversed).collect::<Vec<_>>(),
        [396, 392, 388, 384]
    );
    for (a1, a2, pattern) in cases {
        let mut w = Wave::new(gen);
        for l in 0..64u32 {
            w.vgpr[1][l as usize] = a1(l);
            w.vgpr[2][l as usize] = a2(l);
        }
        for (j, tier) in tiers() {
            let what = format!("{pattern}, {tier}");
            let out = check_with(&j, &prog, &w, &lds(), &memory(), 1000, &what);
            assert!(out.result.is_ok(), "{what}: {:?}", out.result);
            let o = &out.wave;
            for l in 0..64u32 {
                let (lu, x, y) = (l as usize, a1(l), a2(l));
                let (p, q) = (
                    dw(x).wrapping_mul(dw(y)),
                    dw(x + 4).wrapping_mul(dw(y + 64)),
                );
                assert_eq!(o.vgpr[10][lu], dw(x), "{what}: v10, lane {l}");
                assert_eq!(o.vgpr[11][lu], dw(x + 4), "{what}: v11, lane {l}");
                assert_eq!(o.vgpr[12][lu], dw(y), "{what}: v12, lane {l}");
                assert_eq!(o.vgpr[13][lu], dw(y + 64), "{what}: v13, lane {l}");
                assert_eq!(o.vgpr[20][lu], p, "{what}: v20, lane {l}");
                assert_eq!(o.vgpr[21][lu], q, "{what}: v21, lane {l}");
                assert_eq!(o.vgpr[22][lu], p.wrapping_add(q), "{what}: v22, lane {l}");
            }
        }
        assert_eq!(helper_steps(&prog, &w), 0, "{pattern}: all inline");
    }
    // v1's chunk 15 at 508 (its second dword at 512), or v2's lane 37 at 448 (its
    // second read at 512): (v1, v2, pc, failing lane).
    type Fault = (fn(u32) -> u32, fn(u32) -> u32, usize, u32);
    let faults: [Fault; 2] = [
        (|l| if l >= 60 { 508 } else { bcast(l) }, row, 0, 60),
        (bcast, |l| if l == 37 { 448 } else { row(l) }, 1, 37),
    ];
    for (a1, a2, at, lane) in faults {
        let mut w = Wave::new(gen);
        for l in 0..64u32 {
            w.vgpr[1][l as usize] = a1(l);
            w.vgpr[2][l as usize] = a2(l);
        }
        for (j, tier) in tiers() {
            let what = format!("lane {lane} of v{} past the end, {tier}", at + 1);
            assert_lds_end_fault(&j, &prog, &w, prog.slots[at].pc, lane as u8, &what);
        }
    }
}

/// The one-pass test of a DS address register (`lds::facts`) at its edges, on every
/// tier and with fusion off: rows whose last window ends at the LDS's last byte (values
/// by hand), one chunk whose distances from its lane 0 differ from the other chunks'
/// (read and row write lane by lane: values by hand), a broadcast with one chunk moved
/// by 2 bytes (the distances agree, the alignment does not), a row with one chunk moved
/// past the LDS, and one whose chunk wraps past 2^32: the interpreter's error, pc and
/// lane.
#[test]
fn one_pass_address_test_by_hand() {
    let gen = Gen::Gfx8;
    let dw = |addr: u32| 3 * (addr / 4);
    let tiers = || {
        [
            (jit(), "quick"),
            (opt_jit(), "optimised"),
            (unfused_jit(), "unfused"),
        ]
    };
    // A read alone (its own run) and a read feeding an add (fused into the segment).
    let reads = program(
        gen,
        &[
            ds(Op::DsReadB32, 10, 0, [0, 0], [0, 0]),
            sopp(Op::SNop, 0),
            ds(Op::DsReadB32, 11, 0, [0, 0], [0, 0]),
            vop2(Op::VAddU32, 12, v(11), 11),
            endpgm(),
        ],
    );
    // Lanes 448 + 4 (l % 16): the last window at 496 + 16 = 512.
    let end_row = |l: u32| 448 + 4 * (l % 16);
    // Rows of 16 lanes at 4 (l % 16), but chunk 7 (lanes 28-31) reversed.
    let odd_chunk = |l: u32| {
        if l / 4 == 7 {
            48 + 4 * (3 - l % 4)
        } else {
            4 * (l % 16)
        }
    };
    for (addr, pattern) in [
        (end_row as fn(u32) -> u32, "row at the end"),
        (odd_chunk, "one chunk reversed"),
    ] {
        let mut w = Wave::new(gen);
        for l in 0..64u32 {
            w.vgpr[0][l as usize] = addr(l);
        }
        for (j, tier) in tiers() {
            let what = format!("{pattern}, {tier}");
            let out = check_with(&j, &reads, &w, &lds(), &memory(), 1000, &what);
            assert!(out.result.is_ok(), "{what}: {:?}", out.result);
            for l in 0..64u32 {
                let (lu, a) = (l as usize, addr(l));
                assert_eq!(out.wave.vgpr[10][lu], dw(a), "{what}: read, lane {l}");
                assert_eq!(out.wave.vgpr[12][lu], 2 * dw(a), "{what}: add, lane {l}");
            }
        }
        assert_eq!(helper_steps(&reads, &w), 0, "{pattern}: all inline");
    }
    // The odd chunk's addresses: lanes 28-31 at 60, 56, 52, 48 (a row: 48-60).
    assert_eq!(
        (28..32).map(odd_chunk).collect::<Vec<_>>(),
        [60, 56, 52, 48]
    );
    // A row write (lanes 4 (l % 16) + 64 (l / 16), chunk 7 reversed as above) of 1000 + l:
    // every dword written once, so dword d holds 1000 + the lane at it.
    let write = program(gen, &[ds(Op::DsWriteB32, 0, 0, [1, 0], [0, 0]), endpgm()]);
    let mut w = Wave::new(gen);
    for l in 0..64u32 {
        w.vgpr[0][l as usize] = odd_chunk(l) + 64 * (l / 16);
        w.vgpr[1][l as usize] = 1000 + l;
    }
    for (j, tier) in tiers() {
        let out = check_with(&j, &write, &w, &lds(), &memory(), 1000, tier);
        assert!(out.result.is_ok(), "{tier}: {:?}", out.result);
        let dword =
            |i: usize| u32::from_le_bytes(out.lds.bytes[4 * i..4 * i + 4].try_into().unwrap());
        for i in 0..64u32 {
            let lane = if (28..32).contains(&i) { 59 - i } else { i };
            assert_eq!(dword(i as usize), 1000 + lane, "{tier}: dword {i}");
        }
        assert_eq!(dword(64), 3 * 64, "{tier}: dword 64 untouched");
    }
    // Faults: (pattern, first failing lane, its address, misaligned rather than out of
    // bounds).
    type Fault = (fn(u32) -> u32, u32, u32, bool, &'static str);
    let faults: [Fault; 3] = [
        (
            |l| 64 * (l / 16) + if l / 4 == 5 { 2 } else { 0 },
            20,
            66,
            true,
            "chunk 5 moved by 2",
        ),
        (
            |l| 4 * (l % 16) + if l >= 60 { 512 } else { 0 },
            60,
            512 + 48,
            false,
            "chunk 15 past the end",
        ),
        (
            |l| match l / 4 {
                3 => 0xffff_fff8u32.wrapping_add(4 * (l % 4)),
                _ => 4 * (l % 16),
            },
            12,
            0xffff_fff8,
            false,
            "chunk 3 wrapping",
        ),
    ];
    for (addr, lane, at, misaligned, what) in &faults {
        let mut w = Wave::new(gen);
        for l in 0..64u32 {
            w.vgpr[0][l as usize] = addr(l);
        }
        for (j, tier) in tiers() {
            let what = format!("{what}, {tier}");
            let out = check_with(&j, &reads, &w, &lds(), &memory(), 1000, &what);
            let e = out.result.expect_err(&what);
            assert_eq!(e.pc, 0, "{what}: {e:?}");
            let ok = match &e.kind {
                ExecErrorKind::OutOfBounds { lane: l, addr, .. } => {
                    !misaligned && *l == Some(*lane as u8) && *addr == *at as u64
                }
                ExecErrorKind::BadOperand(m) => {
                    *misaligned && m.contains(&format!("(lane {lane})")) && m.contains("aligned")
                }
                _ => false,
            };
            assert!(ok, "{what}: {e:?}");
        }
    }
}

/// The checks' horizontal reductions (maximum, minimum, OR of a chunk's four lanes) find
/// the one failing lane wherever it sits in its chunk: lanes 1, 2 and 3 of chunk 0 and
/// lanes at positions 2, 3 and 1 of chunks 5, 9 and 15, in bounds everywhere else. DS
/// dword reads alone (windows) and fused, a dword row write and a `ds_read_b64` (the
/// per-instruction check): one lane at byte 512, the LDS's end, or off its alignment;
/// FLAT dword loads: one lane just below region A or at its end. Every tier, the
/// interpreter's error with that pc, lane and address.
#[test]
fn lane_reductions_by_hand() {
    let gen = Gen::Gfx8;
    let tiers = || {
        [
            (jit(), "quick"),
            (opt_jit(), "optimised"),
            (unfused_jit(), "unfused"),
        ]
    };
    let lanes = [1u32, 2, 3, 22, 39, 61];
    // Rows of 16 lanes, 64 bytes apart: bytes 0-252, every dword aligned.
    let row = |l: u32| 4 * (l % 16) + 64 * (l / 16);
    let progs = [
        (
            program(gen, &[ds(Op::DsReadB32, 10, 0, [0, 0], [0, 0]), endpgm()]),
            4,
            "read",
        ),
        (
            program(
                gen,
                &[
                    ds(Op::DsReadB32, 11, 0, [0, 0], [0, 0]),
                    vop2(Op::VAddU32, 12, v(11), 11),
                    endpgm(),
                ],
            ),
            4,
            "fused read",
        ),
        (
            program(gen, &[ds(Op::DsWriteB32, 0, 0, [1, 0], [0, 0]), endpgm()]),
            4,
            "row write",
        ),
        (
            program(gen, &[ds(Op::DsReadB64, 10, 0, [0, 0], [0, 0]), endpgm()]),
            8,
            "read_b64",
        ),
    ];
    for (prog, size, kind) in &progs {
        // The b64 read's lanes 8 bytes apart: bytes 0-504, its last at 504 + 8 = 512.
        let base = |l: u32| if *size == 8 { 8 * l } else { row(l) };
        for &lane in &lanes {
            for (bad, misaligned) in [(512u32, false), (base(lane) + *size / 2, true)] {
                let mut w = Wave::new(gen);
                for l in 0..64u32 {
                    w.vgpr[0][l as usize] = base(l);
                    w.vgpr[1][l as usize] = 1000 + l;
                }
                w.vgpr[0][lane as usize] = bad;
                for (j, tier) in tiers() {
                    let what = format!("{kind}, lane {lane} at {bad}, {tier}");
                    let out = check_with(&j, prog, &w, &lds(), &memory(), 1000, &what);
                    let e = out.result.expect_err(&what);
                    assert_eq!(e.pc, 0, "{what}: {e:?}");
                    let ok = match &e.kind {
                        ExecErrorKind::OutOfBounds { lane: l, addr, .. } => {
                            !misaligned && *l == Some(lane as u8) && *addr == bad as u64
                        }
                        ExecErrorKind::BadOperand(m) => {
                            misaligned
                                && m.contains(&format!("(lane {lane})"))
                                && m.contains("aligned")
                        }
                        _ => false,
                    };
                    assert!(ok, "{what}: {e:?}");
                }
            }
        }
    }
    // FLAT: lane l at A + 4 l (high half 0), one lane at A - 4 (below every region) or
    // at A + 1024 (region A's end).
    let load = program(gen, &[flat(Op::FlatLoadDword, 10, 0, 0), endpgm()]);
    for &lane in &lanes {
        for bad in [A - 4, A + A_LEN as u64] {
            let mut w = Wave::new(gen);
            for l in 0..64u32 {
                w.vgpr[0][l as usize] = A as u32 + 4 * l;
            }
            w.vgpr[0][lane as usize] = bad as u32;
            for (j, tier) in tiers() {
                let what = format!("flat, lane {lane} at {bad:#x}, {tier}");
                let out = check_with(&j, &load, &w, &lds(), &memory(), 1000, &what);
                assert_global_fault(&out, 0, bad, lane as u8, &what);
            }
        }
    }
}

/// A segment whose vector instructions write EXEC after its fused reads (`v_cmpx`): the
/// reads under the full EXEC before it, the move after it under the new EXEC (lanes
/// 0-31), in both copies (a row and chunks reversed) and both tiers; values from LDS
/// dword i = 3 i by hand.
#[test]
fn fused_reads_then_exec_write() {
    let gen = Gen::Gfx8;
    let insts = vec![
        ds(Op::DsRead2B32, 10, 1, [0, 0], [0, 1]),
        vopc(Op::VCmpxGtU32, ic(32), 4),
        vop1(Op::VMovB32, 12, v(11)),
        endpgm(),
    ];
    let prog = program(gen, &insts);
    let dw = |addr: u32| 3 * (addr / 4);
    let row = |l: u32| 4 * l;
    let reversed = |l: u32| 4 * (4 * (l / 4) + 3 - l % 4);
    for (addr, pattern) in [(row as fn(u32) -> u32, "row"), (reversed, "reversed")] {
        let mut w = Wave::new(gen);
        for l in 0..64u32 {
            w.vgpr[1][l as usize] = addr(l);
            w.vgpr[4][l as usize] = l;
            w.vgpr[12][l as usize] = 7;
        }
        for (j, tier) in [(jit(), "quick"), (opt_jit(), "optimised")] {
            let what = format!("{pattern}, {tier}");
            let out = check_with(&j, &prog, &w, &lds(), &memory(), 1000, &what);
            assert!(out.result.is_ok(), "{what}: {:?}", out.result);
            let o = &out.wave;
            assert_eq!(o.exec, 0xffff_ffff, "{what}: EXEC");
            for l in 0..64u32 {
                let (lu, a) = (l as usize, addr(l));
                assert_eq!(o.vgpr[10][lu], dw(a), "{what}: v10, lane {l}");
                assert_eq!(o.vgpr[11][lu], dw(a + 4), "{what}: v11, lane {l}");
                let moved = if l < 32 { dw(a + 4) } else { 7 };
                assert_eq!(o.vgpr[12][lu], moved, "{what}: v12, lane {l}");
            }
        }
    }
}

/// The values of `window_reads_by_hand`'s reads, worked out from LDS dword i = 3 i.
fn window_values(o: &Wave, tier: &str) {
    for l in 0..64u32 {
        let lu = l as usize;
        let row = (3 * (l % 16 + 1), 3 * (l % 16 + 2));
        assert_eq!(
            (o.vgpr[10][lu], o.vgpr[11][lu]),
            row,
            "{tier}: row, lane {l}"
        );
        let bc = 3 * (16 * (l / 16) + 2);
        assert_eq!(o.vgpr[12][lu], bc, "{tier}: broadcast, lane {l}");
        let rev = 3 * (4 * (l / 4) + 3 - l % 4);
        assert_eq!(o.vgpr[13][lu], rev, "{tier}: reversed, lane {l}");
        // Bytes 500 + 4 (l % 4 / 2): dword 125 or 126, then the next.
        let d = 125 + l % 4 / 2;
        let end = (3 * d, 3 * (d + 1));
        assert_eq!(
            (o.vgpr[14][lu], o.vgpr[15][lu]),
            end,
            "{tier}: end, lane {l}"
        );
        // st64: offset1 is 64 dwords on.
        let st64 = (3 * (l % 16), 3 * (l % 16 + 64));
        assert_eq!(
            (o.vgpr[16][lu], o.vgpr[17][lu]),
            st64,
            "{tier}: st64, lane {l}"
        );
        // The address register overwritten by its own read: dword l + 64 (offset 256).
        assert_eq!(o.vgpr[4][lu], 3 * (l + 64), "{tier}: VDST = ADDR, lane {l}");
    }
}

/// FLAT dwords with EXEC all ones, addresses lane 0's + 4 × lane (one 16-byte host access
/// per four lanes) and not quite (one lane elsewhere: lane by lane); a run of two loads,
/// a store, VDST overlapping ADDR, and a contiguous span running out of its region.
#[test]
fn contiguous_dwords_by_hand() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    for l in 0..64 {
        put64(&mut w, 0, l, A + 0x40 + 4 * l as u64);
        put64(&mut w, 2, l, B + 0x10 + 4 * l as u64);
        put64(&mut w, 4, l, A + 0x40 + 4 * l as u64);
        w.vgpr[6][l] = 0x5000 + l as u32;
    }
    put64(&mut w, 4, 37, A);
    let insts = vec![
        flat(Op::FlatLoadDword, 10, 0, 0),
        flat(Op::FlatLoadDword, 11, 2, 0),
        flat(Op::FlatLoadDword, 12, 4, 0),
        flat(Op::FlatStoreDword, 0, 2, 6),
        flat(Op::FlatLoadDword, 13, 2, 0),
        flat(Op::FlatLoadDword, 0, 0, 0),
        endpgm(),
    ];
    let prog = program(gen, &insts);
    let out = run_ok(&prog, &w, "contiguous");
    let o = &out.wave;
    // Region A: byte i is i mod 256. Lane 0 reads bytes 0x40-0x43; lane 63 offset
    // 0x40 + 252 = 0x13c, bytes 0x3c-0x3f.
    assert_eq!(o.vgpr[10][0], 0x4342_4140);
    assert_eq!(o.vgpr[10][63], 0x3f3e_3d3c);
    // Region B: byte i is 255 - i mod 256. Lane 0 offset 0x10: 0xef, 0xee, 0xed, 0xec;
    // lane 63 offset 0x10c: 0xf3, 0xf2, 0xf1, 0xf0.
    assert_eq!(o.vgpr[11][0], 0xeced_eeef);
    assert_eq!(o.vgpr[11][63], 0xf0f1_f2f3);
    // Lane 37 reads A's first dword; lane 36 offset 0x40 + 144 = 0xd0.
    assert_eq!(o.vgpr[12][37], 0x0302_0100);
    assert_eq!(o.vgpr[12][36], 0xd3d2_d1d0);
    // The store then the load of the same dwords.
    assert_eq!(o.vgpr[13][0], 0x5000);
    assert_eq!(o.vgpr[13][63], 0x503f);
    // VDST = the address's low half: lane 1 read offset 0x44.
    assert_eq!(o.vgpr[0][1], 0x4746_4544);
    assert_eq!(
        helper_steps(&prog, &w),
        0,
        "every access in bounds: all inline"
    );
    // Contiguous from 128 bytes before A's end: lanes 32-63 are out of range; the JIT
    // reports the interpreter's error (compared by `check_with`).
    let mut w2 = w.clone();
    for l in 0..64 {
        put64(&mut w2, 0, l, A + A_LEN as u64 - 128 + 4 * l as u64);
    }
    let out = check_with(&jit(), &prog, &w2, &lds(), &memory(), 1000, "past the end");
    // The first load (pc 0) faults at lane 32, the first lane past A's end.
    assert_global_fault(&out, 0, A + A_LEN as u64, 32, "lane 32 reads past A");
    // Lane 37's low half in the run but its high half one more: 4 GiB past A, in no
    // region (a test of the low halves alone would read A there), on both tiers.
    let mut w3 = w.clone();
    let far = (1u64 << 32) + A + 0x40 + 4 * 37;
    put64(&mut w3, 4, 37, far);
    for (j, tier) in [(jit(), "quick"), (opt_jit(), "optimised")] {
        let out = check_with(&j, &prog, &w3, &lds(), &memory(), 1000, tier);
        // The third FLAT instruction: byte 16.
        assert_global_fault(&out, 16, far, 37, &format!("{tier}: lane 37's high half"));
    }
}

/// The contiguity test looks at lane 63 first (a wave spanning rows fails there without
/// the test of the 16 chunks): lanes contiguous but lane 63 elsewhere in the region, or
/// with another high half (4 GiB on: the interpreter's error), or lanes contiguous in
/// 64 bits whose low halves wrap (lane 63 at lane 0's low half + 252 modulo 2^32 and the
/// next high half; a low-half wrap with the same high half in every lane, lane 63 low),
/// on both tiers against the interpreter; values by hand where the accesses succeed.
#[test]
fn lane63_tested_first_by_hand() {
    let gen = Gen::Gfx8;
    let prog = program(
        gen,
        &[
            flat(Op::FlatLoadDword, 10, 0, 0),
            flat(Op::FlatStoreDword, 0, 0, 6),
            flat(Op::FlatLoadDword, 11, 0, 0),
            endpgm(),
        ],
    );
    let mut w = Wave::new(gen);
    for l in 0..64 {
        put64(&mut w, 0, l, A + 0x40 + 4 * l as u64);
        w.vgpr[6][l] = 0x7000 + l as u32;
    }
    put64(&mut w, 0, 63, A + 0x8);
    for (j, tier) in [(jit(), "quick"), (opt_jit(), "optimised")] {
        let out = check_with(&j, &prog, &w, &lds(), &memory(), 1000, tier);
        assert!(out.result.is_ok(), "{tier}: {:?}", out.result);
        let o = &out.wave;
        // Lane 62 reads offset 0x40 + 248 = 0x138, lane 63 offset 8.
        assert_eq!(o.vgpr[10][62], 0x3b3a_3938, "{tier}");
        assert_eq!(o.vgpr[10][63], 0x0b0a_0908, "{tier}");
        // The store then the load through the same pair.
        assert_eq!(o.vgpr[11][0], 0x7000, "{tier}");
        assert_eq!(o.vgpr[11][63], 0x703f, "{tier}");
        assert_eq!(
            jit_run_stats(&j, &prog, &w, &lds(), &memory())
                .expect("runs")
                .1
                .helper_steps,
            0,
            "{tier}: in bounds, inline"
        );
    }
    // Lane 63 at its contiguous low half but 4 GiB on.
    let mut w2 = w.clone();
    let far = (1u64 << 32) + A + 0x40 + 4 * 63;
    put64(&mut w2, 0, 63, far);
    for (j, tier) in [(jit(), "quick"), (opt_jit(), "optimised")] {
        let out = check_with(&j, &prog, &w2, &lds(), &memory(), 1000, tier);
        assert_global_fault(&out, 0, far, 63, &format!("{tier}: lane 63's high half"));
    }
    // Contiguous in 64 bits across a 4 GiB boundary (lane 63's low half is lane 0's +
    // 252 modulo 2^32), in no region: lane 0's address is the first fault.
    let mut w3 = w.clone();
    let start = (1u64 << 32) - 128;
    for l in 0..64 {
        put64(&mut w3, 0, l, start + 4 * l as u64);
    }
    // The low halves wrapping with one high half: lanes 32-63 at 0-124, in no region.
    let mut w4 = w.clone();
    for l in 0..64 {
        put64(
            &mut w4,
            0,
            l,
            (start as u32).wrapping_add(4 * l as u32) as u64,
        );
    }
    for (wave, first, what) in [(&w3, start, "64-bit run"), (&w4, start, "low halves")] {
        for (j, tier) in [(jit(), "quick"), (opt_jit(), "optimised")] {
            let out = check_with(&j, &prog, wave, &lds(), &memory(), 1000, tier);
            assert_global_fault(&out, 0, first, 0, &format!("{tier}: {what}"));
        }
    }
}

/// A unit tests a FLAT address pair for contiguity once and reuses the result for later
/// accesses through the pair until an instruction writes either register: a pair moved by
/// a VALU add is tested again (the store lands at the new addresses, read back through
/// another pair), and so is a pair a load overwrote (the store through the loaded data
/// faults where the interpreter does).
#[test]
fn contiguity_test_reused_until_written() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    for l in 0..64 {
        put64(&mut w, 0, l, A + 0x40 + 4 * l as u64);
        put64(&mut w, 2, l, B + 0x10 + 4 * l as u64);
        put64(&mut w, 4, l, B + 0x50 + 4 * l as u64);
        w.vgpr[6][l] = 0x6000 + l as u32;
    }
    let moved = program(
        gen,
        &[
            flat(Op::FlatLoadDword, 11, 2, 0),
            // v2 += 64: still contiguous, 64 bytes on.
            vop2(Op::VAddU32, 2, ic(64), 2),
            flat(Op::FlatStoreDword, 0, 2, 6),
            flat(Op::FlatLoadDword, 13, 4, 0),
            endpgm(),
        ],
    );
    let overwritten = program(
        gen,
        &[
            flat(Op::FlatLoadDword, 0, 0, 0),
            flat(Op::FlatStoreDword, 0, 0, 6),
            endpgm(),
        ],
    );
    // The high half reloaded by a load of its own (the s_nop ends the first load's run).
    let reloaded = program(
        gen,
        &[
            flat(Op::FlatLoadDword, 11, 2, 0),
            sopp(Op::SNop, 0),
            flat(Op::FlatLoadDword, 3, 4, 0),
            flat(Op::FlatStoreDword, 0, 2, 6),
            endpgm(),
        ],
    );
    for (j, tier) in [(jit(), "quick"), (opt_jit(), "optimised")] {
        // v3 lane 0 = B's bytes 0x50-0x53 (0xaf, 0xae, 0xad, 0xac): the store (byte 20)
        // goes to 0xacad_aeaf_0002_0010, in no region.
        let out = check_with(&j, &reloaded, &w, &lds(), &memory(), 1000, tier);
        assert_global_fault(
            &out,
            20,
            0xacad_aeaf_0000_0000 | (B + 0x10),
            0,
            &format!("{tier}: reloaded"),
        );
        let out = check_with(&j, &moved, &w, &lds(), &memory(), 1000, tier);
        assert!(out.result.is_ok(), "{tier}: {:?}", out.result);
        // B byte i = 255 - i mod 256: lane 0 read offset 0x10.
        assert_eq!(out.wave.vgpr[11][0], 0xeced_eeef, "{tier}");
        for l in 0..64 {
            assert_eq!(out.wave.vgpr[13][l], 0x6000 + l as u32, "{tier}: lane {l}");
        }
        // Lane 0 loads A's bytes 0x40-0x43 into v0: the store's address is 0x4342_4140
        // (v1 = 0), in no region; lane 0 is the first to fail, at the store (byte 8).
        let out = check_with(&j, &overwritten, &w, &lds(), &memory(), 1000, tier);
        assert_global_fault(&out, 8, 0x4342_4140, 0, tier);
    }
}

#[test]
fn atomics_by_hand() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    for l in 0..64 {
        put64(&mut w, 0, l, A + 0x40); // every lane on one dword
        put64(&mut w, 2, l, A + 0x80 + 4 * (l as u64 % 4)); // four dwords
        w.vgpr[4][l] = 1;
        w.vgpr[5][l] = l as u32;
        w.vgpr[6][l] = 0x8b8a_8988; // dword 0x88 of A before anything: cmpswap's compare
    }
    let insts = vec![
        flat_glc(Op::FlatAtomicAdd, 10, 0, 4),
        flat(Op::FlatAtomicUmax, 0, 2, 5),
        flat_glc(Op::FlatAtomicCmpswap, 11, 2, 5),
        flat_glc(Op::FlatLoadDwordx4, 12, 2, 0),
        endpgm(),
    ];
    // (cmpswap reads v5 as the new value and v6 as the compare value.)
    let prog = program(gen, &insts);
    let out = run_ok(&prog, &w, "atomics");
    let o = &out.wave;
    // Dword 0x40 of A is 0x43424140; lane l added 1 after lanes 0..l: old = that + l.
    assert_eq!(o.vgpr[10][0], 0x4342_4140);
    assert_eq!(o.vgpr[10][63], 0x4342_4140 + 63);
    // umax of lanes ≡ k (mod 4) into dword k: the bytes are larger than any lane number, so
    // nothing changed; cmpswap replaced dword 2 (0x8b8a8988) with lane 2's v5 = 2, so lane
    // 6 saw 2 and left it.
    assert_eq!(o.vgpr[11][2], 0x8b8a_8988);
    assert_eq!(o.vgpr[11][6], 2);
    assert_eq!(o.vgpr[12][0], 0x8382_8180);
    assert_eq!(o.vgpr[14][0], 2);
    assert_eq!(helper_steps(&prog, &w), 0);
}

#[test]
fn ds_atomics_by_hand() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    for l in 0..64 {
        w.vgpr[0][l] = 0; // LDS dword 0 (the LDS holds 3 × i at dword i)
        w.vgpr[1][l] = l as u32;
        w.vgpr[2][l] = 5;
        w.vgpr[3][l] = 6;
        w.vgpr[4][l] = 100 + l as u32;
        w.vgpr[5][l] = 1;
        w.vgpr[6][l] = 0x10;
        w.vgpr[7][l] = (l as i32 - 32) as u32;
        w.vgpr[8][l] = (l as i32).wrapping_neg() as u32;
    }
    let insts = vec![
        ds(Op::DsAddRtnU32, 10, 0, [1, 0], [0, 0]),
        ds(Op::DsIncRtnU32, 11, 0, [2, 0], [4, 0]),
        ds(Op::DsCmpstRtnB32, 12, 0, [3, 4], [8, 0]),
        ds(Op::DsMskorB32, 0, 0, [5, 6], [12, 0]),
        ds(Op::DsMaxI32, 0, 0, [7, 0], [16, 0]),
        ds(Op::DsMinRtnI32, 13, 0, [8, 0], [20, 0]),
        ds(Op::DsWrxchgRtnB32, 14, 0, [1, 0], [24, 0]),
        ds(Op::DsReadB128, 16, 0, [0, 0], [0, 0]),
        ds(Op::DsReadB64, 20, 0, [0, 0], [16, 0]),
        ds(Op::DsReadB32, 22, 0, [0, 0], [24, 0]),
        endpgm(),
    ];
    let prog = program(gen, &insts);
    let out = run_ok(&prog, &w, "ds atomics");
    let o = &out.wave;
    for l in 0..64u32 {
        // Lanes in order: lane l sees the sum of the lanes before it.
        assert_eq!(
            o.vgpr[10][l as usize],
            l * (l.max(1) - 1) / 2,
            "add lane {l}"
        );
    }
    assert_eq!(o.vgpr[16][0], 63 * 64 / 2);
    // inc with limit 5 from 3: 3, 4, 5, then 0..5 again from lane 3.
    assert_eq!(o.vgpr[11][0], 3);
    assert_eq!(o.vgpr[11][2], 5);
    assert_eq!(o.vgpr[11][3], 0);
    assert_eq!(o.vgpr[11][10], 1);
    assert_eq!(o.vgpr[11][63], 0);
    assert_eq!(o.vgpr[17][0], 1);
    // cmpst: DATA0 (6) compared, DATA1 (100 + lane) stored: only lane 0 swaps.
    assert_eq!(o.vgpr[12][0], 6);
    assert_eq!(o.vgpr[12][5], 100);
    assert_eq!(o.vgpr[18][0], 100);
    // mskor: (9 & !1) | 0x10.
    assert_eq!(o.vgpr[19][0], 0x18);
    // Signed max of 12 and -32..31; signed min of 15 and 0, -1, .., -63.
    assert_eq!(o.vgpr[20][0], 31);
    assert_eq!(o.vgpr[13][1], 0);
    assert_eq!(o.vgpr[13][2], (-1i32) as u32);
    assert_eq!(o.vgpr[21][0], (-63i32) as u32);
    // wrxchg: lane l gets lane l - 1's value (lane 0: dword 6 = 18); lane 63's stays.
    assert_eq!(o.vgpr[14][0], 18);
    assert_eq!(o.vgpr[14][40], 39);
    assert_eq!(o.vgpr[22][0], 63);
    assert_eq!(helper_steps(&prog, &w), 0, "all inline");
    // Lane 9 inactive, lane 7 past the LDS: the interpreter's error (pc, lane, address).
    let mut w2 = w.clone();
    w2.exec = !(1u64 << 9);
    w2.vgpr[0][9] = 0x7fff_0000;
    w2.vgpr[0][7] = LDS_LEN as u32 - 4;
    let out = check_with(
        &jit(),
        &prog,
        &w2,
        &lds(),
        &memory(),
        1000,
        "ds atomics out of range",
    );
    let e = out.result.expect_err("lane 7 out of range");
    assert_eq!(
        e.pc,
        4 * 2,
        "the inc at offset 4 is the first access past the end"
    );
}

#[test]
fn smrd_loads_on_gcn11() {
    let gen = Gen::Gfx7;
    let mut w = Wave::new(gen);
    w.sgpr[2] = B as u32;
    w.sgpr[3] = 0;
    w.sgpr[9] = 17; // byte offset, low two bits dropped
    let insts = vec![
        smrd(Op::SLoadDwordx4, 12, 2, true, 3),
        smrd(Op::SLoadDword, 16, 2, false, 9),
        endpgm(),
    ];
    let prog = program(gen, &insts);
    let out = check_with(&jit(), &prog, &w, &lds(), &memory(), 1000, "smrd");
    // Byte i of B is 255 − i: dword 3 = bytes 12..15 = 0xf0f1f2f3; offset 16.
    assert_eq!(out.wave.sgpr[12], 0xf0f1_f2f3);
    assert_eq!(out.wave.sgpr[16], 0xeced_eeef);
    assert_eq!(helper_steps(&prog, &w), 0);
}

/// The DS atomics lowered inline (32-bit), for the random programs.
const DS_ATOMICS: [Op; 29] = [
    Op::DsAddU32,
    Op::DsSubU32,
    Op::DsRsubU32,
    Op::DsIncU32,
    Op::DsDecU32,
    Op::DsMinI32,
    Op::DsMaxI32,
    Op::DsMinU32,
    Op::DsMaxU32,
    Op::DsAndB32,
    Op::DsOrB32,
    Op::DsXorB32,
    Op::DsMskorB32,
    Op::DsCmpstB32,
    Op::DsAddRtnU32,
    Op::DsSubRtnU32,
    Op::DsRsubRtnU32,
    Op::DsIncRtnU32,
    Op::DsDecRtnU32,
    Op::DsMinRtnI32,
    Op::DsMaxRtnI32,
    Op::DsMinRtnU32,
    Op::DsMaxRtnU32,
    Op::DsAndRtnB32,
    Op::DsOrRtnB32,
    Op::DsXorRtnB32,
    Op::DsMskorRtnB32,
    Op::DsWrxchgRtnB32,
    Op::DsCmpstRtnB32,
];

/// A random memory instruction (and the ALU work around it) for the random programs.
fn random_inst(gen: Gen, rng: &mut rand::rngs::StdRng) -> Inst {
    // Address registers: v[0:1] in A, v[2:3] in B, v4 LDS (aligned), v5 LDS (any).
    let flat_ops = [
        Op::FlatLoadUbyte,
        Op::FlatLoadSbyte,
        Op::FlatLoadUshort,
        Op::FlatLoadSshort,
        Op::FlatLoadDword,
        Op::FlatLoadDwordx2,
        Op::FlatLoadDwordx3,
        Op::FlatLoadDwordx4,
        Op::FlatStoreByte,
        Op::FlatStoreShort,
        Op::FlatStoreDword,
        Op::FlatStoreDwordx2,
        Op::FlatStoreDwordx3,
        Op::FlatStoreDwordx4,
    ];
    let ds_ops = [
        Op::DsReadU8,
        Op::DsReadI8,
        Op::DsReadU16,
        Op::DsReadI16,
        Op::DsReadB32,
        Op::DsReadB64,
        Op::DsReadB96,
        Op::DsReadB128,
        Op::DsWriteB8,
        Op::DsWriteB16,
        Op::DsWriteB32,
        Op::DsWriteB64,
        Op::DsWriteB96,
        Op::DsWriteB128,
        Op::DsRead2B32,
        Op::DsRead2st64B32,
        Op::DsRead2B64,
        Op::DsWrite2B32,
        Op::DsWrite2st64B32,
        Op::DsWrite2B64,
    ];
    // Destinations v8..v23 (sometimes an address register), data v24..v31.
    let dst = if rng.random_ratio(1, 12) {
        rng.random_range(0..6)
    } else {
        rng.random_range(8..20)
    };
    let data = rng.random_range(24..28);
    match rng.random_range(0..11) {
        10 if gen != Gen::Gfx6 => {
            let ops = [
                Op::FlatAtomicAdd,
                Op::FlatAtomicSub,
                Op::FlatAtomicSwap,
                Op::FlatAtomicCmpswap,
                Op::FlatAtomicUmin,
                Op::FlatAtomicSmax,
                Op::FlatAtomicXor,
                Op::FlatAtomicAddX2,
            ];
            let op = ops[rng.random_range(0..ops.len())];
            let addr = if rng.random_bool(0.5) { 0 } else { 2 };
            if rng.random_bool(0.5) {
                flat_glc(op, dst, addr, data)
            } else {
                flat(op, 0, addr, data)
            }
        }
        0..=3 if gen != Gen::Gfx6 => {
            let op = flat_ops[rng.random_range(0..flat_ops.len())];
            let addr = if rng.random_bool(0.5) { 0 } else { 2 };
            // Fields an operation does not use must be zero (the encoder checks).
            if op.mnemonic().contains("store") {
                flat(op, 0, addr, data)
            } else {
                flat(op, dst, addr, 0)
            }
        }
        0..=6 if rng.random_ratio(1, 3) => {
            let op = DS_ATOMICS[rng.random_range(0..DS_ATOMICS.len())];
            let addr = if rng.random_ratio(1, 4) { 5 } else { 4 };
            let off = [4 * rng.random_range(0..4), 0];
            let m = op.mnemonic();
            let two = m.contains("cmpst") || m.contains("mskor");
            let d1 = if two { data + 1 } else { 0 };
            let vd = if m.contains("rtn") { dst } else { 0 };
            ds(op, vd, addr, [data, d1], off)
        }
        0..=6 => {
            let op = ds_ops[rng.random_range(0..ds_ops.len())];
            let addr = if rng.random_ratio(1, 4) { 5 } else { 4 };
            let off = [rng.random_range(0..8), rng.random_range(0..8)];
            let m = op.mnemonic();
            if m.contains("write2") {
                ds(op, 0, addr, [data, data + 2], off)
            } else if m.contains("write") {
                ds(op, 0, addr, [data, 0], off)
            } else {
                ds(op, dst, addr, [0, 0], off)
            }
        }
        7 => {
            let ops = [
                Op::SLoadDword,
                Op::SLoadDwordx2,
                Op::SLoadDwordx4,
                Op::SLoadDwordx8,
                Op::SLoadDwordx16,
            ];
            let op = ops[rng.random_range(0..ops.len())];
            let sd = 4 * rng.random_range(5..12);
            if gen == Gen::Gfx8 {
                if rng.random_bool(0.5) {
                    smem(op, sd, 4, true, rng.random_range(0..1100))
                } else {
                    smem(op, sd, 4, false, 6)
                }
            } else {
                smrd(op, sd, 4, rng.random_bool(0.5), rng.random_range(0..10))
            }
        }
        _ => vop2(Op::VXorB32, data, ic(rng.random_range(1..9)), data),
    }
}

fn random_wave_for_mem(gen: Gen, rng: &mut rand::rngs::StdRng) -> Box<Wave> {
    let mut w = random_wave(gen, rng, 0);
    w.exec = match rng.random_range(0..4) {
        0 => u64::MAX,
        1 => 0,
        _ => rand64(rng),
    };
    for l in 0..64 {
        put64(&mut w, 0, l, A + rng.random_range(0..A_LEN as u64 - 16));
        put64(&mut w, 2, l, B + rng.random_range(0..B_LEN as u64 - 16));
        w.vgpr[4][l] = 16 * rng.random_range(0..(LDS_LEN as u32 - 64) / 16);
        w.vgpr[5][l] = rng.random_range(0..LDS_LEN as u32 - 64);
    }
    // Now and then a lane out of range, past a region's end, in the other region, or
    // misaligned in the LDS.
    // Now and then contiguous dwords (lane 0's address + 4 × lane), the fast path of
    // full-EXEC dword accesses.
    if rng.random_range(0..3) == 0 {
        let (a, b) = (
            A + 4 * rng.random_range(0..(A_LEN as u64 - 256) / 4),
            B + 4 * rng.random_range(0..(B_LEN as u64 - 256) / 4),
        );
        for l in 0..64 {
            put64(&mut w, 0, l, a + 4 * l as u64);
            put64(&mut w, 2, l, b + 4 * l as u64);
        }
    }
    // Now and then LDS addresses whose chunks all have one lane pattern (0, 4, 8 or 12
    // bytes past the chunk's lane 0; rows half the time), at random 16-byte-aligned chunk
    // bases (chunks overlapping, in any order): the full-EXEC window reads and row writes.
    if rng.random_range(0..3) == 0 {
        let rows = rng.random_bool(0.5);
        let pat: [u32; 4] = std::array::from_fn(|i| match rows {
            true => 4 * i as u32,
            false => 4 * rng.random_range(0..4),
        });
        for c in 0..16 {
            let base = 16 * rng.random_range(0..(LDS_LEN as u32 - 64) / 16);
            for (i, p) in pat.iter().enumerate() {
                w.vgpr[4][4 * c + i] = base + p;
            }
        }
    }
    let lane = rng.random_range(0..64);
    match rng.random_range(0..8) {
        0 => put64(&mut w, 0, lane, A + A_LEN as u64 - 2),
        1 => put64(&mut w, 0, lane, B + 8),
        2 => put64(&mut w, 2, lane, u64::MAX - 1),
        3 => w.vgpr[4][lane] = LDS_LEN as u32 - 4,
        4 => w.vgpr[4][lane] += 2,
        5 => w.vgpr[4][lane] = u32::MAX - 3,
        _ => {}
    }
    w.sgpr[4] = A as u32;
    w.sgpr[5] = 0;
    w.sgpr[6] = rng.random_range(0..1100);
    w
}

fn rand64(rng: &mut rand::rngs::StdRng) -> u64 {
    (rand32(rng) as u64) << 32 | rand32(rng) as u64
}

#[test]
fn random_memory_programs_match_the_interpreter() {
    let mut rng = rng(0x6d656d);
    let jits = jits();
    for (i, gen) in [Gen::Gfx8, Gen::Gfx7, Gen::Gfx6]
        .iter()
        .cycle()
        .take(600)
        .enumerate()
    {
        let n = rng.random_range(1..10);
        let (insts, prog) = random_program(*gen, &mut rng, n, random_inst);
        let w = random_wave_for_mem(*gen, &mut rng);
        for (name, jit) in &jits {
            check_with(
                jit,
                &prog,
                &w,
                &lds(),
                &memory(),
                1000,
                &format!("program {i} ({name}, {gen:?}): {insts:?}"),
            );
        }
    }
}

/// The region cache outlives a run on its thread only for the same `Memory` with the same
/// regions: a memory swapped into the place of another (same address, other regions)
/// and an empty one are seen as they are.
#[test]
fn region_cache_follows_the_memory() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    for l in 0..64 {
        put64(&mut w, 0, l, A + 4 * l as u64);
    }
    let prog = program(gen, &[flat(Op::FlatLoadDword, 10, 0, 0), endpgm()]);
    let jit = jit();
    let run = |m: &wavejit_isa::state::Memory| {
        let (mut wj, mut l) = (Box::new(w.clone()), lds());
        let mut ctx = Ctx {
            wave: &mut wj,
            lds: &mut l,
            mem: m,
        };
        jit.run(&mut ctx, &prog, 100).map(|_| wj.vgpr[10][1])
    };
    // Every memory made first: making one maps regions, which alone would clear the cache.
    let mut m1 = memory().build();
    let mut other = MemInit {
        regions: vec![(A, vec![0x5a; A_LEN])],
    }
    .build();
    let mut empty = wavejit_isa::state::Memory::new();
    // A's dword 1: bytes 4-7.
    assert_eq!(run(&m1), Ok(0x0706_0504));
    assert_eq!(run(&m1), Ok(0x0706_0504));
    std::mem::swap(&mut m1, &mut other);
    assert_eq!(run(&m1), Ok(0x5a5a_5a5a), "the swapped-in memory's bytes");
    std::mem::swap(&mut m1, &mut empty);
    assert!(run(&m1).is_err(), "nothing is mapped at A any more");
    std::mem::swap(&mut m1, &mut empty);
    assert_eq!(run(&m1), Ok(0x5a5a_5a5a));
}
