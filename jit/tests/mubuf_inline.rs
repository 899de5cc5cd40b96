//! MUBUF loads, stores and atomics lowered inline (`wavejit_jit::mem::buffer`): ADDR64
//! (GCN 1.0/1.1 global memory), raw buffers with their per-dword range check, structured
//! and swizzled buffers, the scratch layout (ADD_TID_ENABLE, ELEMENT_SIZE 4, INDEX_STRIDE
//! 64), out-of-range atomics and `format` instructions. Values worked out by hand from the
//! buffer addressing of the SI/CI/GCN3 manuals (as `wavejit_interp::mem::buffer`
//! documents it), zero helper calls, and random programs — random resources, indices,
//! offsets, SOFFSETs, EXEC, in and out of range and of the mapped regions — against the
//! interpreter.

mod common;

use common::*;
use rand::Rng;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::BufferFields;
use wavejit_isa::gcn::{Enc, Fields, Inst, Op, Src};
use wavejit_isa::state::{Lds, Wave};

const A: u64 = 0x10000;
const A_LEN: usize = 1024;
const B: u64 = 0x20000;
const B_LEN: usize = 512;

/// Region A holds byte i = i mod 256, region B byte i = 255 − i mod 256.
fn memory() -> MemInit {
    MemInit {
        regions: vec![
            (A, (0..A_LEN).map(|i| i as u8).collect()),
            (B, (0..B_LEN).map(|i| 255 - i as u8).collect()),
        ],
    }
}

/// How an instruction forms its address.
#[derive(Clone, Copy)]
struct Addr {
    vaddr: u8,
    offen: bool,
    idxen: bool,
    addr64: bool,
    soffset: Src,
    offset: u16,
}

fn off() -> Addr {
    Addr {
        vaddr: 0,
        offen: false,
        idxen: false,
        addr64: false,
        soffset: Src(128),
        offset: 0,
    }
}

fn mubuf(op: Op, vdata: u8, srsrc: u8, a: Addr, glc: bool) -> Inst {
    Inst {
        op,
        enc: Enc::Mubuf,
        fields: Fields::Mubuf(BufferFields {
            vdata,
            vaddr: a.vaddr,
            srsrc,
            soffset: a.soffset,
            offset: a.offset,
            offen: a.offen,
            idxen: a.idxen,
            glc,
            slc: false,
            tfe: false,
            lds: false,
            addr64: a.addr64,
            format: None,
        }),
        literal: None,
    }
}

/// DST_SEL xyzw, NUM_FORMAT FLOAT, DATA_FORMAT 32_32_32_32.
const WORD3: u32 = 0xfac | 7 << 12 | 14 << 15;

/// A buffer resource: base, stride, NUM_RECORDS; swizzle `(element size code, index
/// stride code)`; ADD_TID_ENABLE; the other bits of word 3.
fn rsrc(base: u64, stride: u32, nr: u32, swz: Option<(u32, u32)>, tid: bool, w3: u32) -> [u32; 4] {
    let mut w1 = (base >> 32) as u32 & 0xffff | stride << 16;
    let mut w3 = w3 | (tid as u32) << 23;
    if let Some((es, is)) = swz {
        w1 |= 1 << 31;
        w3 |= es << 19 | is << 21;
    }
    [base as u32, w1, nr, w3]
}

fn set_rsrc(w: &mut Wave, s: usize, r: [u32; 4]) {
    w.sgpr[s..s + 4].copy_from_slice(&r);
}

fn helper_steps(prog: &wavejit_isa::ir::Program, w: &Wave) -> u64 {
    let run = jit_run_stats(&jit(), prog, w, &Lds::new(0), &memory());
    run.expect("runs").1.helper_steps
}

fn run_checked(gen: Gen, insts: &[Inst], w: &Wave, what: &str) -> Box<Wave> {
    let prog = program(gen, insts);
    for (name, j) in jits() {
        let out = check_with(&j, &prog, w, &Lds::new(0), &memory(), 1000, what);
        assert!(out.result.is_ok(), "{what} ({name}): {:?}", out.result);
    }
    let out = check_with(&jit(), &prog, w, &Lds::new(0), &memory(), 1000, what);
    assert_eq!(helper_steps(&prog, w), 0, "{what}: all inline");
    out.wave
}

/// ADDR64: address = BASE + VGPR pair + SOFFSET + OFFSET, no range check.
#[test]
fn addr64_by_hand() {
    let gen = Gen::Gfx6;
    let mut w = Wave::new(gen);
    // BASE = A − 0x100, SOFFSET s12 = 0x40, OFFSET 0x10: address = A + vaddr − 0xb0.
    set_rsrc(&mut w, 8, rsrc(A - 0x100, 0, 0, None, false, WORD3));
    w.sgpr[12] = 0x40;
    for l in 0..64 {
        put64(&mut w, 0, l, 0xb0 + 0x80 + l as u64); // byte A + 0x80 + l
        put64(&mut w, 2, l, 0xb0 + 0x200 + 4 * l as u64); // dword A + 0x200 + 4l
        put64(&mut w, 4, l, 0xb0 + 0x40); // one dword for every lane
        w.vgpr[7][l] = 0x1000 + l as u32;
        w.vgpr[20][l] = 1;
    }
    let a = |vaddr| Addr {
        vaddr,
        addr64: true,
        soffset: Src(12),
        offset: 0x10,
        ..off()
    };
    let insts = vec![
        mubuf(Op::BufferLoadSbyte, 10, 8, a(0), false),
        mubuf(Op::BufferLoadUbyte, 11, 8, a(0), false),
        mubuf(Op::BufferStoreDword, 7, 8, a(2), false),
        mubuf(Op::BufferLoadDwordx2, 14, 8, a(2), false),
        mubuf(Op::BufferAtomicAdd, 20, 8, a(4), true),
        mubuf(Op::BufferLoadDword, 2, 8, a(2), false), // VDATA overlaps VADDR
        endpgm(),
    ];
    let o = run_checked(gen, &insts, &w, "addr64");
    // Byte 0x80 sign-extended; lane 5 reads 0x85.
    assert_eq!(o.vgpr[10][0], 0xffff_ff80);
    assert_eq!(o.vgpr[11][5], 0x85);
    // Stored 0x1000 + l at A + 0x200 + 4l; x2 reads lane l's and lane l + 1's dwords;
    // lane 63's second dword is A + 0x300: bytes 0x00-0x03.
    assert_eq!(o.vgpr[14][3], 0x1003);
    assert_eq!(o.vgpr[15][3], 0x1004);
    assert_eq!(o.vgpr[15][63], 0x0302_0100);
    // Every lane adds 1 to the dword at A + 0x40 (0x43424140), in lane order.
    assert_eq!(o.vgpr[20][0], 0x4342_4140);
    assert_eq!(o.vgpr[20][63], 0x4342_4140 + 63);
    assert_eq!(o.vgpr[2][9], 0x1009);
    // GCN 1.1 too; one lane past region A's end: the interpreter's error.
    let mut w7 = w.clone();
    w7.gen = Gen::Gfx7;
    run_checked(Gen::Gfx7, &insts, &w7, "addr64 gfx7");
    put64(&mut w, 0, 17, 0xb0 + A_LEN as u64);
    let prog = program(gen, &insts);
    let out = check_with(
        &jit(),
        &prog,
        &w,
        &Lds::new(0),
        &memory(),
        1000,
        "addr64 out",
    );
    assert!(out.result.is_err(), "lane 17 reads past A");
}

/// A raw buffer (STRIDE 0): each dword is range-checked on its own against NUM_RECORDS
/// bytes; out of range, loads give 0 and stores are dropped, mapped or not.
#[test]
fn raw_range_check_by_hand() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    // BASE = A + 0x100, 0x40 bytes; SOFFSET the constant 4 (not range-checked).
    set_rsrc(&mut w, 8, rsrc(A + 0x100, 0, 0x40, None, false, WORD3));
    // The same buffer, 0x1000 bytes: reads what the first one must not have written.
    set_rsrc(&mut w, 16, rsrc(A + 0x100, 0, 0x1000, None, false, WORD3));
    for l in 0..64 {
        w.vgpr[0][l] = 4 * l as u32;
        w.vgpr[7][l] = 0x1000 + l as u32;
        w.vgpr[20][l] = 1;
    }
    // Far out of range (and of every region): 0, no error.
    w.vgpr[0][40] = 0x7000_0000;
    let a = |offset| Addr {
        offen: true,
        soffset: Src(132),
        offset,
        ..off()
    };
    let insts = vec![
        mubuf(Op::BufferLoadDwordx2, 10, 8, a(0), false),
        mubuf(Op::BufferStoreDword, 7, 8, a(8), false),
        mubuf(Op::BufferLoadDword, 12, 8, a(8), false),
        mubuf(Op::BufferLoadDword, 13, 16, a(8), false),
        mubuf(Op::BufferAtomicAdd, 20, 8, a(0), true),
        endpgm(),
    ];
    let o = run_checked(gen, &insts, &w, "raw");
    // Lane l's dwords are at offsets 4l and 4l + 4, address A + 0x104 + 4l (+ 4).
    assert_eq!(o.vgpr[10][0], 0x0706_0504);
    assert_eq!(o.vgpr[11][0], 0x0b0a_0908);
    // Lane 15: 60 + 4 <= 0x40 in range (A + 0x140), 64 + 4 is not.
    assert_eq!(o.vgpr[10][15], 0x4342_4140);
    assert_eq!(o.vgpr[11][15], 0);
    assert_eq!((o.vgpr[10][16], o.vgpr[11][16]), (0, 0));
    assert_eq!((o.vgpr[10][40], o.vgpr[11][40]), (0, 0));
    // Stores at offset 4l + 8 for 4l + 12 <= 0x40: lanes 0-13 (A + 0x10c + 4l).
    assert_eq!(o.vgpr[12][13], 0x100d);
    assert_eq!(o.vgpr[12][14], 0);
    assert_eq!(o.vgpr[13][13], 0x100d);
    // Lane 14's store was dropped: A + 0x144 keeps its bytes.
    assert_eq!(o.vgpr[13][14], 0x4746_4544);
    // The atomic: lanes 0-15 in range, each its own dword at A + 0x104 + 4l (lane 2's
    // at A + 0x10c, stored by lane 0 above), the others 0.
    assert_eq!(o.vgpr[20][0], 0x0706_0504);
    assert_eq!(o.vgpr[20][1], 0x0b0a_0908);
    assert_eq!(o.vgpr[20][2], 0x1000);
    assert_eq!(o.vgpr[20][16], 0);
    assert_eq!(o.vgpr[20][40], 0);
}

/// Structured and swizzled: STRIDE 32, 12 records, ELEMENT_SIZE 16, INDEX_STRIDE 8.
/// Byte offset of (index i, offset o) = ((i / 8) × 32 + o / 16 × 16) × 8 + i % 8 × 16 +
/// o % 16; the index is range-checked, not the offset.
#[test]
fn swizzled_by_hand() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    set_rsrc(&mut w, 8, rsrc(A, 32, 12, Some((3, 0)), false, WORD3));
    for l in 0..64 {
        w.vgpr[0][l] = l as u32; // index
        w.vgpr[1][l] = 20; // offset
        w.vgpr[2][l] = 22;
    }
    let both = |vaddr| Addr {
        vaddr,
        offen: true,
        idxen: true,
        ..off()
    };
    let insts = [
        mubuf(Op::BufferLoadDword, 10, 8, both(0), false),
        mubuf(Op::BufferLoadDwordx2, 11, 8, both(0), false),
        mubuf(Op::BufferLoadSshort, 13, 8, both(1), false),
        endpgm(),
    ];
    let mut w2 = w.clone();
    // (v[1:2] as index 20/22 and offset 22: the short reads index v1.)
    for l in 0..64 {
        w2.vgpr[1][l] = l as u32;
    }
    let o = run_checked(gen, &[insts[0], insts[1], endpgm()], &w, "swizzled");
    // Index 9, offset 20: (1 × 32 + 16) × 8 + 1 × 16 + 4 = 404 = 0x194.
    assert_eq!(o.vgpr[10][9], 0x9796_9594);
    // Index 0: 16 × 8 + 4 = 132 = 0x84.
    assert_eq!(o.vgpr[10][0], 0x8786_8584);
    // The second dword, offset 24: 408.
    assert_eq!(o.vgpr[12][9], 0x9b9a_9998);
    // Index 12 and above: out of range.
    assert_eq!((o.vgpr[10][12], o.vgpr[11][12], o.vgpr[12][12]), (0, 0, 0));
    assert_eq!(o.vgpr[10][11], {
        // Index 11: (32 + 16) × 8 + 3 × 16 + 4 = 436 = 0x1b4.
        0xb7b6_b5b4
    });
    let o = run_checked(gen, &insts[2..], &w2, "swizzled short");
    // Index 0, offset 22: 128 + 6 = 0x86: bytes 0x86, 0x87, sign-extended.
    assert_eq!(o.vgpr[13][0], 0xffff_8786);
}

/// The scratch layout clang's code expects (`grid::scratch_rsrc`): swizzled, ELEMENT_SIZE
/// 4, INDEX_STRIDE 64, ADD_TID_ENABLE, STRIDE 0; the wave offset in SOFFSET. Dword k of
/// lane t is at SOFFSET + (k × 64 + t) × 4.
#[test]
fn scratch_by_hand() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    let w3 = 4 << 15 | 4 << 12;
    // BASE A − 0x40 and the wave offset 0x40: dword k of lane t at A + (k × 64 + t) × 4.
    set_rsrc(
        &mut w,
        0,
        rsrc(A - 0x40, 0, u32::MAX, Some((1, 3)), true, w3),
    );
    w.sgpr[12] = 0x40;
    for l in 0..64 {
        w.vgpr[7][l] = 0x1000 + l as u32;
        w.vgpr[1][l] = 4;
    }
    let a = |offset| Addr {
        soffset: Src(12),
        offset,
        ..off()
    };
    let insts = vec![
        mubuf(Op::BufferStoreDword, 7, 0, a(8), false),
        mubuf(Op::BufferLoadDword, 10, 0, a(8), false),
        mubuf(Op::BufferLoadDword, 11, 0, a(12), false),
        mubuf(Op::BufferLoadUbyte, 12, 0, a(9), false),
        mubuf(
            Op::BufferLoadDword,
            13,
            0,
            Addr {
                vaddr: 1,
                offen: true,
                ..a(8)
            },
            false,
        ),
        mubuf(Op::BufferLoadDwordx2, 14, 0, a(8), false),
        endpgm(),
    ];
    let o = run_checked(gen, &insts, &w, "scratch");
    // Offset 8 = dword 2: A + 2 × 256 + 4t.
    assert_eq!(o.vgpr[10][0], 0x1000);
    assert_eq!(o.vgpr[10][63], 0x103f);
    // Offset 12 = dword 3: A + 0x300 + 4t, never written: bytes 4t.. (mod 256).
    assert_eq!(o.vgpr[11][0], 0x0302_0100);
    assert_eq!(o.vgpr[11][63], 0xfffe_fdfc);
    // Offset 9: byte 1 of dword 2.
    assert_eq!(o.vgpr[12][5], 0x10);
    // OFFEN 4 + OFFSET 8 = dword 3.
    assert_eq!(o.vgpr[13][1], 0x0706_0504);
    // x2 at offset 8: dwords 2 and 3 of the lane, 256 bytes apart.
    assert_eq!((o.vgpr[14][2], o.vgpr[15][2]), (0x1002, 0x0b0a_0908));
}

/// `format` instructions run when the resource's format is 32-bit components with a raw
/// NUM_FORMAT (and identity DST_SEL for loads); other formats are the interpreter's
/// `Unsupported`, from the JIT too.
#[test]
fn format_checked_at_run_time() {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    set_rsrc(&mut w, 8, rsrc(A, 0, 0x400, None, false, WORD3));
    for l in 0..64 {
        w.vgpr[0][l] = 8 * l as u32;
    }
    let a = Addr {
        offen: true,
        ..off()
    };
    let insts = vec![mubuf(Op::BufferLoadFormatXy, 10, 8, a, false), endpgm()];
    let o = run_checked(gen, &insts, &w, "format");
    assert_eq!((o.vgpr[10][1], o.vgpr[11][1]), (0x0b0a_0908, 0x0f0e_0d0c));
    // DATA_FORMAT 32 has one component: xy is refused; so is NUM_FORMAT UNORM (0), and a
    // swapped DST_SEL.
    for w3 in [
        0xfac | 7 << 12 | 4 << 15,
        0xfac | 14 << 15,
        0xf94 | 7 << 12 | 14 << 15,
    ] {
        let mut w2 = w.clone();
        w2.sgpr[11] = w3;
        let prog = program(gen, &insts);
        let out = check_with(&jit(), &prog, &w2, &Lds::new(0), &memory(), 1000, "fmt");
        assert!(out.result.is_err(), "format {w3:#x} is refused");
    }
}

const OPS: &[Op] = &[
    Op::BufferLoadUbyte,
    Op::BufferLoadSbyte,
    Op::BufferLoadUshort,
    Op::BufferLoadSshort,
    Op::BufferLoadDword,
    Op::BufferLoadDwordx2,
    Op::BufferLoadDwordx3,
    Op::BufferLoadDwordx4,
    Op::BufferLoadFormatX,
    Op::BufferLoadFormatXyzw,
    Op::BufferStoreByte,
    Op::BufferStoreShort,
    Op::BufferStoreDword,
    Op::BufferStoreDwordx2,
    Op::BufferStoreDwordx3,
    Op::BufferStoreDwordx4,
    Op::BufferStoreFormatXy,
    Op::BufferAtomicAdd,
    Op::BufferAtomicSub,
    Op::BufferAtomicSwap,
    Op::BufferAtomicCmpswap,
    Op::BufferAtomicUmin,
    Op::BufferAtomicSmax,
    Op::BufferAtomicXor,
    Op::BufferAtomicInc,
];

fn random_inst(gen: Gen, rng: &mut rand::rngs::StdRng) -> Inst {
    if rng.random_ratio(1, 6) {
        let d = rng.random_range(24..28);
        return vop2(Op::VXorB32, d, ic(rng.random_range(1..9)), d);
    }
    let op = OPS[rng.random_range(0..OPS.len())];
    // Destinations v8..v19 (now and then an address register), data v24..v27.
    let m = op.mnemonic();
    let vdata = if m.contains("store") || m.contains("atomic") {
        rng.random_range(24..28)
    } else if rng.random_ratio(1, 10) {
        rng.random_range(0..4)
    } else {
        rng.random_range(8..16)
    };
    // v0 index, v1 offset (v[0:1] both), v[2:3] ADDR64.
    let (offen, idxen, addr64, vaddr) =
        match rng.random_range(0..if gen == Gen::Gfx8 { 4 } else { 6 }) {
            0 => (false, false, false, 0),
            1 => (true, false, false, 1),
            2 => (false, true, false, 0),
            3 => (true, true, false, 0),
            _ => (false, false, true, 2),
        };
    let soffset = match rng.random_range(0..4) {
        0 => Src(128),
        1 => Src(128 + rng.random_range(1..20)),
        2 => Src(193), // -1
        _ => Src(12),
    };
    let offset = if rng.random_bool(0.7) {
        rng.random_range(0..16) * 4
    } else {
        rng.random_range(0..4096)
    };
    let srsrc = if rng.random_bool(0.5) { 4 } else { 16 };
    mubuf(
        op,
        vdata,
        srsrc,
        Addr {
            vaddr,
            offen,
            idxen,
            addr64,
            soffset,
            offset,
        },
        rng.random_bool(0.5),
    )
}

fn random_rsrc(rng: &mut rand::rngs::StdRng) -> [u32; 4] {
    let base = match rng.random_range(0..6) {
        0 => B + rng.random_range(0..64),
        1 => A + A_LEN as u64 - 256,
        _ => A + 4 * rng.random_range(0..16),
    };
    let stride = match rng.random_range(0..4) {
        0 | 1 => 0,
        2 => 4 * rng.random_range(1..9),
        _ => rng.random_range(1..40),
    };
    let nr = match rng.random_range(0..4) {
        0 => rng.random_range(0..64),
        1 => rng.random_range(0..600),
        2 => u32::MAX,
        _ => rng.random_range(0..2048),
    };
    let swz = rng
        .random_bool(0.4)
        .then(|| (rng.random_range(0..4), rng.random_range(0..4)));
    let w3 = if rng.random_bool(0.8) {
        WORD3
    } else {
        rng.random::<u32>() & 0x7f_ffff
    };
    rsrc(base, stride, nr, swz, rng.random_bool(0.4), w3)
}

fn random_wave(gen: Gen, rng: &mut rand::rngs::StdRng) -> Box<Wave> {
    let mut w = common::random_wave(gen, rng, 0);
    w.exec = match rng.random_range(0..4) {
        0 => u64::MAX,
        1 => 0,
        _ => rand32(rng) as u64 | (rand32(rng) as u64) << 32,
    };
    let r = random_rsrc(rng);
    set_rsrc(&mut w, 4, r);
    let r = random_rsrc(rng);
    set_rsrc(&mut w, 16, r);
    w.sgpr[12] = match rng.random_range(0..3) {
        0 => 0,
        1 => 4 * rng.random_range(0..64),
        _ => rng.random_range(0..300),
    };
    let idx_max = rng.random_range(1..80);
    let off_step = [0u32, 1, 4, 8, 16][rng.random_range(0..5)];
    let off_base = rng.random_range(0..256);
    for l in 0..64 {
        w.vgpr[0][l] = if rng.random_bool(0.5) {
            l as u32 % idx_max
        } else {
            rng.random_range(0..idx_max)
        };
        w.vgpr[1][l] = if rng.random_bool(0.8) {
            off_base + off_step * l as u32
        } else {
            rng.random_range(0..1200)
        };
        let a = if rng.random_bool(0.5) {
            0x100 + 4 * l as u64
        } else {
            rng.random_range(0..0x300)
        };
        put64(&mut w, 2, l, a);
    }
    let lane = rng.random_range(0..64);
    match rng.random_range(0..6) {
        0 => w.vgpr[0][lane] = u32::MAX - rng.random_range(0..4),
        1 => w.vgpr[1][lane] = u32::MAX - rng.random_range(0..16),
        2 => put64(&mut w, 2, lane, u64::MAX - rng.random_range(0..64)),
        _ => {}
    }
    w
}

#[test]
fn random_buffer_programs_match_the_interpreter() {
    let mut rng = rng(0x006d_7562_7566);
    let jits = jits();
    let mut inline = 0;
    for (i, gen) in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8]
        .iter()
        .cycle()
        .take(900)
        .enumerate()
    {
        let n = rng.random_range(1..7);
        let (insts, prog) = random_program(*gen, &mut rng, n, random_inst);
        let w = random_wave(*gen, &mut rng);
        // Programs that ran to the end with no instruction through the interpreter.
        if let Ok((_, st)) = jit_run_stats(&jits[0].1, &prog, &w, &Lds::new(0), &memory()) {
            inline += (st.helper_steps == 0) as u32;
        }
        for (name, jit) in &jits {
            check_with(
                jit,
                &prog,
                &w,
                &Lds::new(0),
                &memory(),
                1000,
                &format!("program {i} ({name}, {gen:?}): {insts:?}"),
            );
        }
    }
    // The rest had an atomic the helper runs (inc), a lane outside the regions, a
    // misaligned atomic or a refused format.
    assert!(inline > 200, "{inline} of 900 programs wholly inline");
}
