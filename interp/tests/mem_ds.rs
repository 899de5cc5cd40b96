//! DS (local data share) semantics with hand-worked or formula-derived values: addressing
//! and offsets, sub-dword extension, two-address forms, EXEC masking, atomics serialised in
//! lane order, cross-lane swizzle/permute, bounds and alignment errors.

mod exec_util;

use exec_util::*;
use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::DsFields;
use wavejit_isa::gcn::Op;
use wavejit_isa::state::Space;
use wavejit_isa::Gen;

fn lds_u32(m: &Machine, addr: u32) -> u32 {
    m.lds.read_u32(addr).unwrap()
}

#[test]
fn write_read_b32_with_offset() {
    let mut m = Machine::new(Gen::Gfx8);
    m.set_v(0, |l| 4 * l as u32); // address
    m.set_v(1, |l| 1000 + l as u32); // data
                                     // offset1:offset0 = 0x01:0x10 = 272 bytes.
    m.ok(ds(Op::DsWriteB32, 0, 0, 1, 0, 0x10, 0x01));
    assert_eq!(lds_u32(&m, 272), 1000);
    assert_eq!(lds_u32(&m, 272 + 4 * 63), 1063);
    assert_eq!(lds_u32(&m, 268), 0);
    m.set_v(2, |_| 7);
    m.ok(ds(Op::DsReadB32, 2, 0, 0, 0, 0x10, 0x01));
    assert_eq!(m.wave.vgpr[2][5], 1005);
    // EXEC: only the active lanes write.
    m.wave.exec = 0b1010;
    m.set_v(1, |_| 0xaaaa);
    m.ok(ds(Op::DsWriteB32, 0, 0, 1, 0, 0x10, 0x01));
    assert_eq!(
        (
            lds_u32(&m, 272),
            lds_u32(&m, 276),
            lds_u32(&m, 280),
            lds_u32(&m, 284)
        ),
        (1000, 0xaaaa, 1002, 0xaaaa)
    );
    m.set_v(3, |_| 9);
    m.ok(ds(Op::DsReadB32, 3, 0, 0, 0, 0x10, 0x01));
    assert_eq!(&m.wave.vgpr[3][..4], &[9, 0xaaaa, 9, 0xaaaa]);
}

#[test]
fn sub_dword_reads_extend() {
    let mut m = Machine::new(Gen::Gfx7);
    m.lds
        .write(0, &[0x80, 0x7f, 0xfe, 0xff, 0x34, 0x12])
        .unwrap();
    m.wave.exec = 1;
    let mut rd = |op, addr: u32| {
        m.wave.vgpr[0][0] = addr;
        m.ok(ds(op, 1, 0, 0, 0, 0, 0));
        m.wave.vgpr[1][0]
    };
    assert_eq!(rd(Op::DsReadU8, 0), 0x80);
    assert_eq!(rd(Op::DsReadI8, 0), 0xffff_ff80);
    assert_eq!(rd(Op::DsReadI8, 1), 0x7f);
    assert_eq!(rd(Op::DsReadU16, 2), 0xfffe);
    assert_eq!(rd(Op::DsReadI16, 2), 0xffff_fffe);
    assert_eq!(rd(Op::DsReadI16, 4), 0x1234);
    // Sub-dword writes touch only their bytes.
    m.wave.vgpr[0][0] = 1;
    m.wave.vgpr[2][0] = 0xaabb_ccdd;
    m.ok(ds(Op::DsWriteB8, 0, 0, 2, 0, 0, 0));
    m.wave.vgpr[0][0] = 4;
    m.ok(ds(Op::DsWriteB16, 0, 0, 2, 0, 0, 0));
    assert_eq!(lds_u32(&m, 0), 0xfffe_dd80);
    assert_eq!(lds_u32(&m, 4), 0x0000_ccdd);
}

#[test]
fn wide_and_two_address_forms() {
    let mut m = Machine::new(Gen::Gfx8);
    m.wave.exec = 0b11;
    m.set_v(0, |l| 64 * l as u32);
    for r in 0..4 {
        m.set_v(10 + r, |l| (l as u32) << 8 | r as u32);
    }
    m.ok(ds(Op::DsWriteB128, 0, 0, 10, 0, 0, 0));
    assert_eq!((lds_u32(&m, 64), lds_u32(&m, 76)), (0x100, 0x103));
    m.ok(ds(Op::DsReadB96, 20, 0, 0, 0, 0, 0));
    assert_eq!(
        &[m.wave.vgpr[20][1], m.wave.vgpr[21][1], m.wave.vgpr[22][1]],
        &[0x100, 0x101, 0x102]
    );
    // b96/b128 need 16-byte alignment.
    let r = m.exec(ds(Op::DsReadB96, 20, 0, 0, 0, 4, 0));
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
    m.ok(ds(Op::DsReadB64, 20, 0, 0, 0, 8, 0));
    assert_eq!((m.wave.vgpr[20][0], m.wave.vgpr[21][0]), (2, 3));
    // write2_b32: DATA0 at addr + 4×OFFSET0, DATA1 at addr + 4×OFFSET1.
    m.ok(ds(Op::DsWrite2B32, 0, 0, 10, 11, 40, 50));
    assert_eq!((lds_u32(&m, 160), lds_u32(&m, 200)), (0, 1));
    assert_eq!(
        (lds_u32(&m, 64 + 160), lds_u32(&m, 64 + 200)),
        (0x100, 0x101)
    );
    m.ok(ds(Op::DsRead2B32, 30, 0, 0, 0, 50, 40));
    assert_eq!((m.wave.vgpr[30][1], m.wave.vgpr[31][1]), (0x101, 0x100));
    // st64: offsets × 64 × 4 bytes: lane 0 writes at 256 × 1 and 256 × 2.
    m.ok(ds(Op::DsWrite2st64B32, 0, 0, 12, 13, 1, 2));
    assert_eq!((lds_u32(&m, 256), lds_u32(&m, 512)), (2, 3));
    // write2_b64: 8-byte elements: lane 0 at 8 × 3 and 8 × 5.
    m.ok(ds(Op::DsWrite2B64, 0, 0, 10, 12, 3, 5));
    assert_eq!(
        (
            lds_u32(&m, 24),
            lds_u32(&m, 28),
            lds_u32(&m, 40),
            lds_u32(&m, 44)
        ),
        (0, 1, 2, 3)
    );
    m.ok(ds(Op::DsRead2st64B64, 40, 0, 0, 0, 0, 1));
    // Lane 0: addr 0 → bytes 0-7, and 512 × 1 → bytes 512-519.
    assert_eq!(
        &[
            m.wave.vgpr[40][0],
            m.wave.vgpr[41][0],
            m.wave.vgpr[42][0],
            m.wave.vgpr[43][0]
        ],
        &[lds_u32(&m, 0), lds_u32(&m, 4), 3, 0]
    );
}

#[test]
fn atomics_serialise_in_lane_order() {
    let mut m = Machine::new(Gen::Gfx8);
    m.lds.write_u32(32, 100).unwrap();
    m.set_v(0, |_| 32);
    m.set_v(1, |l| l as u32);
    m.ok(ds(Op::DsAddRtnU32, 2, 0, 1, 0, 0, 0));
    // Lane l sees 100 + (0 + 1 + … + l-1).
    for l in 0..64u32 {
        assert_eq!(
            m.wave.vgpr[2][l as usize],
            100 + l * l.saturating_sub(1) / 2,
            "lane {l}"
        );
    }
    assert_eq!(lds_u32(&m, 32), 100 + 63 * 64 / 2);
    // Non-returning forms leave VDST alone.
    m.set_v(2, |_| 5);
    m.ok(ds(Op::DsSubU32, 2, 0, 1, 0, 0, 0));
    assert_eq!(lds_u32(&m, 32), 100);
    assert_eq!(m.wave.vgpr[2][9], 5);
}

/// One lane: LDS[0] = mem, data0, data1 → (new LDS[0], returned).
fn one(op: Op, mem: u32, d0: u32, d1: u32) -> (u32, u32) {
    let mut m = Machine::new(Gen::Gfx8);
    m.wave.exec = 1;
    m.lds.write_u32(0, mem).unwrap();
    m.wave.vgpr[0][0] = 0;
    m.wave.vgpr[1][0] = d0;
    m.wave.vgpr[2][0] = d1;
    m.wave.vgpr[3][0] = 0xdead;
    m.ok(ds(op, 3, 0, 1, 2, 0, 0));
    (lds_u32(&m, 0), m.wave.vgpr[3][0])
}

#[test]
fn atomic_operations() {
    assert_eq!(one(Op::DsRsubRtnU32, 10, 3, 0), (3u32.wrapping_sub(10), 10));
    assert_eq!(one(Op::DsSubRtnU32, 10, 3, 0), (7, 10));
    // inc: M >= D ? 0 : M + 1. dec: M == 0 || M > D ? D : M - 1.
    assert_eq!(one(Op::DsIncRtnU32, 5, 5, 0), (0, 5));
    assert_eq!(one(Op::DsIncRtnU32, 4, 5, 0), (5, 4));
    assert_eq!(one(Op::DsDecRtnU32, 0, 5, 0), (5, 0));
    assert_eq!(one(Op::DsDecRtnU32, 9, 5, 0), (5, 9));
    assert_eq!(one(Op::DsDecRtnU32, 3, 5, 0), (2, 3));
    assert_eq!(
        one(Op::DsMinRtnI32, 0xffff_ffff, 1, 0),
        (0xffff_ffff, 0xffff_ffff)
    );
    assert_eq!(one(Op::DsMinRtnU32, 0xffff_ffff, 1, 0), (1, 0xffff_ffff));
    assert_eq!(one(Op::DsMaxRtnI32, 0xffff_ffff, 1, 0), (1, 0xffff_ffff));
    assert_eq!(
        one(Op::DsMaxRtnU32, 0xffff_ffff, 1, 0),
        (0xffff_ffff, 0xffff_ffff)
    );
    assert_eq!(one(Op::DsAndRtnB32, 0xff0, 0x0ff, 0), (0x0f0, 0xff0));
    assert_eq!(one(Op::DsOrRtnB32, 0xff0, 0x0ff, 0), (0xfff, 0xff0));
    assert_eq!(one(Op::DsXorRtnB32, 0xff0, 0x0ff, 0), (0xf0f, 0xff0));
    // mskor: (M & ~DATA0) | DATA1.
    assert_eq!(
        one(Op::DsMskorRtnB32, 0xffff, 0x00f0, 0x0005),
        (0xff0f, 0xffff)
    );
    assert_eq!(one(Op::DsWrxchgRtnB32, 7, 8, 0), (8, 7));
    // cmpst: compare with DATA0, store DATA1.
    assert_eq!(one(Op::DsCmpstRtnB32, 7, 7, 99), (99, 7));
    assert_eq!(one(Op::DsCmpstRtnB32, 7, 6, 99), (7, 7));
    assert_eq!(one(Op::DsCmpstB32, 7, 7, 99), (99, 0xdead));
}

#[test]
fn atomics_64() {
    let mut m = Machine::new(Gen::Gfx8);
    m.wave.exec = 1;
    m.lds
        .write(8, &0x0000_0001_ffff_ffffu64.to_le_bytes())
        .unwrap();
    m.wave.vgpr[0][0] = 8;
    m.wave.vgpr[1][0] = 1; // data0 = 0x00000000_00000001
    m.wave.vgpr[2][0] = 0;
    m.ok(ds(Op::DsAddRtnU64, 4, 0, 1, 0, 0, 0));
    assert_eq!(
        (lds_u32(&m, 8), lds_u32(&m, 12)),
        (0, 2),
        "carry into the high half"
    );
    assert_eq!((m.wave.vgpr[4][0], m.wave.vgpr[5][0]), (0xffff_ffff, 1));
    // cmpst_b64: DATA0 pair compared, DATA1 pair stored.
    m.wave.vgpr[1][0] = 0;
    m.wave.vgpr[2][0] = 2;
    m.wave.vgpr[6][0] = 0x1111;
    m.wave.vgpr[7][0] = 0x2222;
    m.ok(ds(Op::DsCmpstRtnB64, 4, 0, 1, 6, 0, 0));
    assert_eq!((lds_u32(&m, 8), lds_u32(&m, 12)), (0x1111, 0x2222));
    // min_i64: -1 < 0x2222_00001111.
    m.wave.vgpr[1][0] = 0xffff_ffff;
    m.wave.vgpr[2][0] = 0xffff_ffff;
    m.ok(ds(Op::DsMinI64, 0, 0, 1, 0, 0, 0));
    assert_eq!(
        (lds_u32(&m, 8), lds_u32(&m, 12)),
        (0xffff_ffff, 0xffff_ffff)
    );
    m.ok(ds(Op::DsMaxU64, 0, 0, 6, 0, 0, 0));
    assert_eq!(
        (lds_u32(&m, 8), lds_u32(&m, 12)),
        (0xffff_ffff, 0xffff_ffff),
        "unsigned max keeps all ones"
    );
}

#[test]
fn wrxchg2_returns_both() {
    let mut m = Machine::new(Gen::Gfx8);
    m.wave.exec = 1;
    m.lds.write_u32(4, 44).unwrap();
    m.lds.write_u32(12, 1212).unwrap();
    m.wave.vgpr[0][0] = 0;
    m.wave.vgpr[1][0] = 1;
    m.wave.vgpr[2][0] = 2;
    m.ok(ds(Op::DsWrxchg2RtnB32, 5, 0, 1, 2, 1, 3));
    assert_eq!((m.wave.vgpr[5][0], m.wave.vgpr[6][0]), (44, 1212));
    assert_eq!((lds_u32(&m, 4), lds_u32(&m, 12)), (1, 2));
}

#[test]
fn swizzle_and_permute() {
    let mut m = Machine::new(Gen::Gfx8);
    m.set_v(1, |l| 100 + l as u32);
    // The source is the VGPR in ADDR (v1 here, as LLVM encodes `ds_swizzle_b32 v2, v1`);
    // DATA0 names v0, whose values would show through if it were read instead.
    m.set_v(0, |l| 900 + l as u32);
    // Quad mode: lane k of each quad reads lane OFFSET[2k+1:2k]: 0b00_01_10_11 reverses.
    m.ok(ds(Op::DsSwizzleB32, 2, 1, 0, 0, 0b0001_1011, 0x80));
    assert_eq!(
        &m.wave.vgpr[2][..8],
        &[103, 102, 101, 100, 107, 106, 105, 104]
    );
    // Bit-mask mode: and 0x1f, or 0, xor 1 → neighbours swap: offset = 1 << 10 | 0x1f.
    let off = 1u16 << 10 | 0x1f;
    m.ok(ds(
        Op::DsSwizzleB32,
        2,
        1,
        0,
        0,
        off as u8,
        (off >> 8) as u8,
    ));
    assert_eq!(&m.wave.vgpr[2][30..34], &[131, 130, 133, 132]);
    // and 0x10 (keeps bit 4), or 0: lanes 0-15 read lane 0, 16-31 read lane 16; the upper
    // 32 lanes likewise from 32 and 48.
    m.ok(ds(Op::DsSwizzleB32, 2, 1, 0, 0, 0x10, 0));
    assert_eq!(m.lanes(2, [15, 17, 40, 63]), [100, 116, 132, 148]);
    // An inactive source lane reads 0.
    m.wave.exec = !1;
    m.set_v(2, |_| 7);
    m.ok(ds(Op::DsSwizzleB32, 2, 1, 0, 0, 0x00, 0));
    assert_eq!(
        (m.wave.vgpr[2][0], m.wave.vgpr[2][5]),
        (7, 0),
        "lane 0 inactive keeps 7; others read lane 0"
    );
    m.wave.exec = u64::MAX;
    // bpermute: lane l fetches lane (ADDR/4) — here (l + 1) mod 64.
    m.set_v(0, |l| 4 * ((l as u32 + 1) % 64));
    m.ok(ds(Op::DsBpermuteB32, 3, 0, 1, 0, 0, 0));
    assert_eq!((m.wave.vgpr[3][0], m.wave.vgpr[3][63]), (101, 100));
    // permute: lane l sends to lane (ADDR/4): lane (l+1) receives l.
    m.ok(ds(Op::DsPermuteB32, 4, 0, 1, 0, 0, 0));
    assert_eq!((m.wave.vgpr[4][0], m.wave.vgpr[4][1]), (163, 100));
    // Several senders to one lane: the highest wins; a lane nobody sends to gets 0.
    m.set_v(0, |_| 8);
    m.ok(ds(Op::DsPermuteB32, 4, 0, 1, 0, 0, 0));
    assert_eq!((m.wave.vgpr[4][2], m.wave.vgpr[4][3]), (163, 0));
    // The offset field is added to the address; addresses wrap modulo 64 lanes.
    m.set_v(0, |_| 256 + 4);
    m.ok(ds(Op::DsBpermuteB32, 4, 0, 1, 0, 8, 0));
    assert_eq!(m.wave.vgpr[4][9], 103);
}

#[test]
fn out_of_bounds_and_misaligned() {
    let mut m = Machine::new(Gen::Gfx8);
    m.set_v(0, |l| 0x800 * l as u32);
    let e = m.exec(ds(Op::DsReadB32, 1, 0, 0, 0, 0, 0)).unwrap_err();
    assert_eq!(
        e,
        ExecErrorKind::OutOfBounds {
            space: Space::Lds,
            addr: 0x10000,
            size: 4,
            lane: Some(32)
        }
    );
    // Lane 32 inactive: lane 33 is the first to fault.
    m.wave.exec = !(1u64 << 32);
    let e = m.exec(ds(Op::DsWriteB32, 0, 0, 0, 0, 0, 0)).unwrap_err();
    assert!(
        matches!(e, ExecErrorKind::OutOfBounds { lane: Some(33), .. }),
        "{e}"
    );
    // Address + offset past 32 bits.
    m.wave.exec = 1;
    m.set_v(0, |_| u32::MAX - 3);
    let e = m
        .exec(ds(Op::DsReadB32, 1, 0, 0, 0, 0xfc, 0xff))
        .unwrap_err();
    assert!(
        matches!(
            e,
            ExecErrorKind::OutOfBounds {
                space: Space::Lds,
                lane: Some(0),
                ..
            }
        ),
        "{e}"
    );
    // Misaligned.
    m.set_v(0, |_| 2);
    assert!(matches!(
        m.exec(ds(Op::DsReadB32, 1, 0, 0, 0, 0, 0)),
        Err(ExecErrorKind::BadOperand(_))
    ));
    m.set_v(0, |_| 4);
    assert!(matches!(
        m.exec(ds(Op::DsReadB64, 1, 0, 0, 0, 0, 0)),
        Err(ExecErrorKind::BadOperand(_))
    ));
    let r = m.exec(ds(Op::DsReadU16, 1, 0, 0, 0, 1, 0));
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
    assert!(m.exec(ds(Op::DsReadU8, 1, 0, 0, 0, 1, 0)).is_ok());
    // VDST range past v255.
    assert!(matches!(
        m.exec(ds(Op::DsReadB128, 254, 0, 0, 0, 0, 0)),
        Err(ExecErrorKind::BadOperand(_))
    ));
    // GDS and unmodelled operations.
    let mut g = ds(Op::DsWriteB32, 0, 0, 0, 0, 0, 0);
    if let wavejit_isa::gcn::Fields::Ds(DsFields { gds, .. }) = &mut g.fields {
        *gds = true;
    }
    assert!(matches!(m.exec(g), Err(ExecErrorKind::Unsupported { .. })));
    assert!(matches!(
        m.exec(ds(Op::DsAddF32, 0, 0, 0, 0, 0, 0)),
        Err(ExecErrorKind::Unsupported { .. })
    ));
}

#[test]
fn read2_faults_at_the_address_outside() {
    // LDS is 64 KiB: a dword at 0xfff8 is inside, one at 0x10000 (0xfff8 + 2 dwords) is
    // not. Whichever of the two addresses is outside is the one reported.
    let mut m = Machine::new(Gen::Gfx8);
    m.wave.exec = 1;
    m.set_v(0, |_| 0xfff8);
    let outside = ExecErrorKind::OutOfBounds {
        space: Space::Lds,
        addr: 0x10000,
        size: 4,
        lane: Some(0),
    };
    for (offset0, offset1) in [(0, 2), (2, 0)] {
        let e = m
            .exec(ds(Op::DsRead2B32, 1, 0, 0, 0, offset0, offset1))
            .unwrap_err();
        assert_eq!(e, outside, "offsets {offset0}, {offset1}");
    }
    // Both inside: the two dwords land in VDST and VDST + 1.
    m.lds.bytes[0xfff8..0xfffc].copy_from_slice(&7u32.to_le_bytes());
    m.lds.bytes[0xfffc..0x10000].copy_from_slice(&9u32.to_le_bytes());
    m.ok(ds(Op::DsRead2B32, 1, 0, 0, 0, 1, 0));
    assert_eq!((m.wave.vgpr[1][0], m.wave.vgpr[2][0]), (9, 7));
}
