//! MUBUF, FLAT and scalar memory semantics with hand-worked values: buffer addressing
//! (offen/idxen/soffset/offset, addr64, swizzle), the range check (zeros and dropped
//! stores), sub-dword extension, atomics with GLC, and faults that name the lane.

mod exec_util;

use exec_util::*;
use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::Op;
use wavejit_isa::state::Space;
use wavejit_isa::Gen;

const BASE: u64 = 0x1000;

/// A machine with 1 KiB mapped at BASE holding dword i = 0x100 + i, and a raw buffer
/// resource of `num_records` bytes at s[4:7].
fn setup(gen: Gen, num_records: u32, stride: u32) -> Machine {
    let mut m = Machine::new(gen);
    let bytes: Vec<u8> = (0..256u32)
        .flat_map(|i| (0x100 + i).to_le_bytes())
        .collect();
    m.mem.map_bytes(BASE, &bytes).unwrap();
    let rsrc = [
        BASE as u32,
        ((BASE >> 32) as u32) | stride << 16,
        num_records,
        0,
    ];
    for (i, d) in rsrc.iter().enumerate() {
        m.set_s(4 + i as u8, *d);
    }
    m
}

fn mem32(m: &Machine, addr: u64) -> u32 {
    m.mem.read_u32(addr).unwrap()
}

#[test]
fn raw_buffer_loads_with_range_check() {
    let mut m = setup(Gen::Gfx8, 64, 0);
    m.set_v(0, |l| 4 * l as u32);
    m.ok(mubuf(Op::BufferLoadDword, Buf::new(1, 4).vaddr(0).offen()));
    // Offsets 0-60 are inside the 64 bytes; 64 and up read 0 although memory is mapped.
    assert_eq!(m.wave.vgpr[1][0], 0x100);
    assert_eq!(m.wave.vgpr[1][15], 0x10f);
    assert_eq!(m.wave.vgpr[1][16], 0);
    assert_eq!(m.wave.vgpr[1][63], 0);
    // OFFSET field and SOFFSET: the SGPR offset moves the address but is not range-checked.
    m.set_s(8, 16);
    m.ok(mubuf(
        Op::BufferLoadDword,
        Buf::new(2, 4).vaddr(0).offset(8).soffset(s(8)).offen(),
    ));
    // lane l: offset 4l + 8 checked against 64 → lanes 0-13; address BASE + 16 + 4l + 8.
    assert_eq!(m.wave.vgpr[2][0], 0x106);
    assert_eq!(m.wave.vgpr[2][13], 0x106 + 13);
    assert_eq!(m.wave.vgpr[2][14], 0);
    // A dwordx4 straddling the end: dwords at 56 and 60 load, 64 and 68 read 0.
    m.wave.exec = 1;
    m.ok(mubuf(Op::BufferLoadDwordx4, Buf::new(4, 4).offset(56)));
    assert_eq!(
        &[
            m.wave.vgpr[4][0],
            m.wave.vgpr[5][0],
            m.wave.vgpr[6][0],
            m.wave.vgpr[7][0]
        ],
        &[0x10e, 0x10f, 0, 0]
    );
    // Inactive lanes keep their VDATA.
    m.wave.exec = 0b10;
    m.set_v(9, |_| 77);
    m.ok(mubuf(Op::BufferLoadDword, Buf::new(9, 4).vaddr(0).offen()));
    assert_eq!(&m.wave.vgpr[9][..3], &[77, 0x101, 77]);
}

#[test]
fn stores_out_of_range_are_dropped() {
    let mut m = setup(Gen::Gfx7, 8, 0);
    m.set_v(0, |l| 4 * l as u32);
    m.set_v(1, |l| 0xa000 + l as u32);
    m.ok(mubuf(Op::BufferStoreDword, Buf::new(1, 4).vaddr(0).offen()));
    assert_eq!((mem32(&m, BASE), mem32(&m, BASE + 4)), (0xa000, 0xa001));
    assert_eq!(mem32(&m, BASE + 8), 0x102, "lane 2 is out of range");
    assert_eq!(mem32(&m, BASE + 252), 0x13f);
    // Sub-dword stores and loads.
    m.wave.exec = 1;
    m.set_v(2, |_| 0x1234_5680);
    m.ok(mubuf(Op::BufferStoreByte, Buf::new(2, 4).offset(1)));
    m.ok(mubuf(Op::BufferStoreShort, Buf::new(2, 4).offset(6)));
    // 0xa000 is bytes [00 a0 00 00]; byte 1 becomes 0x80.
    assert_eq!(mem32(&m, BASE), 0x8000);
    assert_eq!(mem32(&m, BASE + 4), 0x5680_a001);
    let mut ld = |op, off| {
        m.ok(mubuf(op, Buf::new(3, 4).offset(off)));
        m.wave.vgpr[3][0]
    };
    assert_eq!(ld(Op::BufferLoadUbyte, 1), 0x80);
    assert_eq!(ld(Op::BufferLoadSbyte, 1), 0xffff_ff80);
    assert_eq!(ld(Op::BufferLoadUshort, 6), 0x5680);
    assert_eq!(ld(Op::BufferLoadSshort, 6), 0x5680);
    assert_eq!(ld(Op::BufferLoadSshort, 0), 0xffff_8000);
    assert_eq!(ld(Op::BufferLoadUbyte, 8), 0, "byte 8 is past NUM_RECORDS");
}

#[test]
fn structured_buffers_check_the_index() {
    // Stride 16, 4 records.
    let mut m = setup(Gen::Gfx8, 4, 16);
    m.set_v(0, |l| l as u32); // index
    m.set_v(1, |_| 4); // offset within the record
    m.ok(mubuf(
        Op::BufferLoadDword,
        Buf::new(2, 4).vaddr(0).offen().idxen(),
    ));
    // Record i, byte 4: dword 4i + 1.
    assert_eq!(&m.wave.vgpr[2][..5], &[0x101, 0x105, 0x109, 0x10d, 0]);
    // ADD_TID_ENABLE adds the lane to the index.
    m.set_s(7, 1 << 23);
    m.set_v(0, |_| 0);
    m.ok(mubuf(Op::BufferLoadDword, Buf::new(2, 4).vaddr(0).idxen()));
    assert_eq!(&m.wave.vgpr[2][..5], &[0x100, 0x104, 0x108, 0x10c, 0]);
}

#[test]
fn swizzled_scratch_layout() {
    // The private-segment V#: SWIZZLE_EN, ELEMENT_SIZE 4, INDEX_STRIDE 64, ADD_TID_ENABLE:
    // dword k of lane t sits at (64k + t) × 4.
    let mut m = setup(Gen::Gfx8, u32::MAX, 0);
    m.set_s(5, 1 << 31);
    m.set_s(7, 1 << 19 | 3 << 21 | 1 << 23);
    m.set_v(0, |_| 4); // per-lane byte offset 4 = dword 1 of each lane
    m.set_v(1, |l| 0xb000 + l as u32);
    m.ok(mubuf(Op::BufferStoreDword, Buf::new(1, 4).vaddr(0).offen()));
    assert_eq!(mem32(&m, BASE + 256), 0xb000);
    assert_eq!(mem32(&m, BASE + 256 + 4 * 63), 0xb03f);
    assert_eq!(mem32(&m, BASE), 0x100, "dword 0 untouched");
    // A dwordx2 at offset 0: its two dwords are 256 bytes apart.
    m.wave.exec = 1 << 5;
    m.ok(mubuf(Op::BufferLoadDwordx2, Buf::new(2, 4)));
    assert_eq!((m.wave.vgpr[2][5], m.wave.vgpr[3][5]), (0x105, 0xb005));
}

#[test]
fn addr64_on_gcn_1_0_and_1_1() {
    let mut m = setup(Gen::Gfx6, 0, 0);
    // Resource base 0 plus the 64-bit VGPR address; no range check (NUM_RECORDS is 0).
    m.set_s(4, 0);
    m.set_v(0, |l| (BASE as u32) + 8 * l as u32);
    m.set_v(1, |_| 0);
    m.ok(mubuf(
        Op::BufferLoadDword,
        Buf::new(2, 4).vaddr(0).offset(4).addr64(),
    ));
    assert_eq!((m.wave.vgpr[2][0], m.wave.vgpr[2][3]), (0x101, 0x107));
    // ADDR64 does not exist on GCN 1.2.
    let mut m8 = setup(Gen::Gfx8, 0, 0);
    let r = m8.exec(mubuf(Op::BufferLoadDword, Buf::new(2, 4).addr64()));
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
}

#[test]
fn buffer_atomics() {
    let mut m = setup(Gen::Gfx8, 1024, 0);
    m.wave.exec = 0b111;
    m.set_v(0, |_| 8);
    m.set_v(1, |l| 10 * (l as u32 + 1));
    m.ok(mubuf(
        Op::BufferAtomicAdd,
        Buf::new(1, 4).vaddr(0).offen().glc(),
    ));
    // 0x102 + 10, + 20, + 30 in lane order; GLC returns what each lane saw.
    assert_eq!(mem32(&m, BASE + 8), 0x102 + 60);
    assert_eq!(&m.wave.vgpr[1][..3], &[0x102, 0x102 + 10, 0x102 + 30]);
    // cmpswap: DATA[0] is the new value, DATA[1] the compare value.
    m.wave.exec = 1;
    m.wave.vgpr[2][0] = 0x5555;
    m.wave.vgpr[3][0] = 0x103;
    m.ok(mubuf(
        Op::BufferAtomicCmpswap,
        Buf::new(2, 4).offset(12).glc(),
    ));
    assert_eq!((mem32(&m, BASE + 12), m.wave.vgpr[2][0]), (0x5555, 0x103));
    // Without GLC nothing is returned.
    m.wave.vgpr[4][0] = 1;
    m.ok(mubuf(Op::BufferAtomicSub, Buf::new(4, 4).offset(12)));
    assert_eq!((mem32(&m, BASE + 12), m.wave.vgpr[4][0]), (0x5554, 1));
    // 64-bit: smax of two signed qwords.
    m.wave.vgpr[6][0] = 0;
    m.wave.vgpr[7][0] = 0x8000_0000; // most negative
    m.ok(mubuf(
        Op::BufferAtomicSmaxX2,
        Buf::new(6, 4).offset(16).glc(),
    ));
    assert_eq!((mem32(&m, BASE + 16), mem32(&m, BASE + 20)), (0x104, 0x105));
    assert_eq!((m.wave.vgpr[6][0], m.wave.vgpr[7][0]), (0x104, 0x105));
    m.ok(mubuf(Op::BufferAtomicUmaxX2, Buf::new(6, 4).offset(16)));
    assert_eq!(
        (mem32(&m, BASE + 16), mem32(&m, BASE + 20)),
        (0x104, 0x105),
        "equal: unchanged"
    );
    // Out of range: nothing happens, GLC returns 0.
    m.wave.vgpr[8][0] = 5;
    m.ok(mubuf(
        Op::BufferAtomicAdd,
        Buf::new(8, 4).offset(1024).glc(),
    ));
    assert_eq!(m.wave.vgpr[8][0], 0);
    // Misaligned atomics are refused.
    assert!(matches!(
        m.exec(mubuf(Op::BufferAtomicAdd, Buf::new(8, 4).offset(2))),
        Err(ExecErrorKind::BadOperand(_))
    ));
}

#[test]
fn format_loads_run_only_for_32_bit_formats() {
    let mut m = setup(Gen::Gfx8, 64, 0);
    m.wave.exec = 1;
    // DATA_FORMAT 32_32 (11), NUM_FORMAT FLOAT (7), DST_SEL X Y Z W.
    m.set_s(7, 11 << 15 | 7 << 12 | 4 | 5 << 3 | 6 << 6 | 7 << 9);
    m.ok(mubuf(Op::BufferLoadFormatXy, Buf::new(2, 4).offset(4)));
    assert_eq!((m.wave.vgpr[2][0], m.wave.vgpr[3][0]), (0x101, 0x102));
    // Three components from a two-component format, or an 8-bit format: not modelled.
    assert!(matches!(
        m.exec(mubuf(Op::BufferLoadFormatXyz, Buf::new(2, 4))),
        Err(ExecErrorKind::Unsupported { .. })
    ));
    m.set_s(7, 1 << 15 | 4 << 12);
    let r = m.exec(mubuf(Op::BufferLoadFormatX, Buf::new(2, 4)));
    assert!(matches!(r, Err(ExecErrorKind::Unsupported { .. })), "{r:?}");
    let r = m.exec(mubuf(Op::BufferStoreFormatX, Buf::new(2, 4)));
    assert!(matches!(r, Err(ExecErrorKind::Unsupported { .. })), "{r:?}");
}

#[test]
fn unmapped_addresses_fault_with_the_lane() {
    let mut m = setup(Gen::Gfx8, u32::MAX, 0);
    m.set_v(0, |l| 32 * l as u32);
    let e = m
        .exec(mubuf(Op::BufferLoadDword, Buf::new(1, 4).vaddr(0).offen()))
        .unwrap_err();
    // 1 KiB mapped: lane 32 reads BASE + 1024.
    assert_eq!(
        e,
        ExecErrorKind::OutOfBounds {
            space: Space::Global,
            addr: BASE + 1024,
            size: 4,
            lane: Some(32)
        }
    );
    // The loads of lanes 0-31 were not written (all-or-nothing VDATA).
    assert_eq!(m.wave.vgpr[1][0], 0);
}

#[test]
fn flat_memory() {
    let mut m = setup(Gen::Gfx7, 0, 0);
    m.set_v(0, |l| BASE as u32 + 4 * l as u32);
    m.set_v(1, |_| 0);
    m.ok(flat(Op::FlatLoadDword, 2, 0, 0, false));
    assert_eq!((m.wave.vgpr[2][0], m.wave.vgpr[2][63]), (0x100, 0x13f));
    m.wave.exec = 0b11;
    m.ok(flat(Op::FlatLoadDwordx2, 4, 0, 0, false));
    assert_eq!((m.wave.vgpr[4][1], m.wave.vgpr[5][1]), (0x101, 0x102));
    m.set_v(6, |l| 0xc000 + l as u32);
    m.ok(flat(Op::FlatStoreShort, 0, 0, 6, false));
    assert_eq!((mem32(&m, BASE), mem32(&m, BASE + 4)), (0xc000, 0xc001));
    m.ok(flat(Op::FlatLoadSbyte, 7, 0, 0, false));
    assert_eq!(m.wave.vgpr[7][0], 0);
    m.ok(flat(Op::FlatLoadSshort, 7, 0, 0, false));
    assert_eq!(m.wave.vgpr[7][1], 0xffff_c001);
    // Atomics: DATA is the source, VDST gets the old value with GLC.
    m.set_v(8, |_| 1);
    m.ok(flat(Op::FlatAtomicAdd, 9, 0, 8, true));
    assert_eq!((m.wave.vgpr[9][1], mem32(&m, BASE + 4)), (0xc001, 0xc002));
    m.wave.exec = 1;
    m.wave.vgpr[10][0] = 0xfeed;
    m.wave.vgpr[11][0] = 0xc001;
    m.ok(flat(Op::FlatAtomicCmpswap, 12, 0, 10, true));
    assert_eq!((mem32(&m, BASE), m.wave.vgpr[12][0]), (0xfeed, 0xc001));
    // Faults name the lane; the address is the full 64 bits.
    m.wave.exec = u64::MAX;
    m.set_v(1, |l| (l == 7) as u32);
    let e = m
        .exec(flat(Op::FlatStoreDword, 0, 0, 6, false))
        .unwrap_err();
    assert_eq!(
        e,
        ExecErrorKind::OutOfBounds {
            space: Space::Global,
            addr: 1 << 32 | (BASE + 28),
            size: 4,
            lane: Some(7)
        }
    );
}

#[test]
fn scalar_loads_and_stores() {
    // GCN 1.2 SMEM: byte offsets.
    let mut m = setup(Gen::Gfx8, 0, 0);
    m.set_s64(2, BASE);
    m.ok(smem(Op::SLoadDwordx4, 8, 2, true, 8));
    assert_eq!((m.s(8), m.s(11)), (0x102, 0x105));
    // The two low address bits are ignored.
    m.ok(smem(Op::SLoadDword, 8, 2, true, 7));
    assert_eq!(m.s(8), 0x101);
    // SGPR offset.
    m.set_s(20, 12);
    m.ok(smem(Op::SLoadDwordx2, 8, 2, false, 20));
    assert_eq!((m.s(8), m.s(9)), (0x103, 0x104));
    m.set_s(30, 0xfeed);
    m.ok(smem(Op::SStoreDword, 30, 2, true, 0));
    assert_eq!(mem32(&m, BASE), 0xfeed);
    // Buffer loads: base from the resource, dwords past NUM_RECORDS read 0.
    m.set_s(5, 0);
    m.set_s(6, 16);
    m.ok(smem(Op::SBufferLoadDwordx8, 8, 4, true, 8));
    assert_eq!(&m.wave.sgpr[8..16], &[0x102, 0x103, 0, 0, 0, 0, 0, 0]);
    // Faults have no lane.
    m.set_s64(2, 0x10_0000);
    let e = m.exec(smem(Op::SLoadDword, 8, 2, true, 0)).unwrap_err();
    assert_eq!(
        e,
        ExecErrorKind::OutOfBounds {
            space: Space::Global,
            addr: 0x10_0000,
            size: 4,
            lane: None
        }
    );
    // x16 into s[120:135] runs past the register slots: refused.
    m.set_s64(2, BASE);
    assert!(matches!(
        m.exec(smem(Op::SLoadDwordx16, 120, 2, true, 0)),
        Err(ExecErrorKind::BadOperand(_))
    ));
    // x2 into VCC is a register pair like any other.
    m.ok(smem(Op::SLoadDwordx2, 106, 2, true, 0));
    assert_eq!(m.wave.vcc, 0x101 << 32 | 0xfeed);

    // GCN 1.0 SMRD: the 8-bit immediate counts dwords.
    let mut m = setup(Gen::Gfx6, 0, 0);
    m.set_s64(2, BASE);
    m.ok(smrd(Op::SLoadDword, 8, 2, true, 3));
    assert_eq!(m.s(8), 0x103);
    m.set_s(9, 20);
    m.ok(smrd(Op::SLoadDword, 8, 2, false, 9));
    assert_eq!(m.s(8), 0x105, "an SGPR offset counts bytes");
    // GCN 1.1 literal offset (OFFSET = 255, IMM = 0): dwords.
    let mut m = setup(Gen::Gfx7, 0, 0);
    m.set_s64(2, BASE);
    let mut i = smrd(Op::SLoadDword, 8, 2, false, 255);
    i.literal = Some(100);
    m.ok(i);
    assert_eq!(m.s(8), 0x100 + 100);
}
