//! EXEC masking, lane-mask results (VCC/SDST/EXEC), cross-lane operations and operand
//! kinds (SGPR pairs, inline constants per width, literals) of the vector ALU. Expected
//! values are worked out in each test from AMD's manuals / the spec.

mod valu_common;

use valu_common::{op, v, vop1, vop2, vop3, vopc, Machine};
use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::{DppFields, Enc, Fields, Inst, Src, Vop3Fields};
use wavejit_isa::Gen;

const VCC: u8 = 106;

#[test]
fn exec_masks_every_write() {
    let mut m = Machine::new(Gen::Gfx8);
    m.set_v(1, |l| l as u32);
    m.set_v(2, |_| 100);
    m.set_v(3, |_| 7);
    m.wave.exec = 0x8000_0000_0000_0001;
    m.valu(&vop2(op("v_add_u32"), 3, v(1), 2)).expect("add");
    for l in 0..64 {
        let want = if l == 0 || l == 63 { 100 + l as u32 } else { 7 };
        assert_eq!(m.wave.vgpr[3][l], want, "lane {l}");
    }
    assert_eq!(m.wave.vcc, 0, "no carries; inactive lanes read 0");
    // Inactive lanes' bits of a compare are 0 even where the compare would hold.
    m.wave.vcc = u64::MAX;
    m.valu(&vopc(op("v_cmp_lt_u32"), v(1), 2)).expect("cmp");
    assert_eq!(m.wave.vcc, 0x8000_0000_0000_0001);
}

#[test]
fn cmpx_writes_exec_and_the_sgpr_pair() {
    let mut m = Machine::new(Gen::Gfx8);
    m.set_v(1, |l| l as u32);
    m.wave.exec = 0xFFFF_FFFF_0000_FFFF;
    // v_cmpx_gt_u32_e64 s[8:9], 40, v1: lanes with 40 > lane.
    let inst = vop3(op("v_cmpx_gt_u32"), 8, [Src(128 + 40), v(1), Src::ZERO]);
    m.valu(&inst).expect("cmpx");
    let want = 0x0000_00FF_0000_FFFF; // lanes 0-15 and 32-39
    assert_eq!(m.wave.exec, want);
    assert_eq!(m.wave.read_sreg64(8), want);
    assert_eq!(m.wave.vcc, 0, "VCC untouched by the VOP3 form");
}

#[test]
fn vop3b_carry_out_to_an_unaligned_sgpr_pair_and_carry_in_from_one() {
    let mut m = Machine::new(Gen::Gfx8);
    m.set_v(1, |l| if l % 2 == 0 { u32::MAX } else { 5 });
    m.set_v(2, |_| 1);
    // v_add_u32_e64 v3, s[5:6], v1, v2 (VOP3B, SDST = 5: an odd pair is allowed)
    let mut add = vop3(op("v_add_u32"), 3, [v(1), v(2), Src::ZERO]);
    if let Fields::Vop3(Vop3Fields { sdst, .. }) = &mut add.fields {
        *sdst = 5;
    }
    m.valu(&add).expect("add");
    let carries = 0x5555_5555_5555_5555u64;
    assert_eq!(m.wave.read_sreg64(5), carries);
    assert_eq!((m.wave.sgpr[5], m.wave.sgpr[6]), (0x5555_5555, 0x5555_5555));
    // v_addc_u32_e64 v4, s[10:11], v2, v2, s[5:6]: 1 + 1 + carry.
    let mut addc = vop3(op("v_addc_u32"), 4, [v(2), v(2), Src(5)]);
    if let Fields::Vop3(Vop3Fields { sdst, .. }) = &mut addc.fields {
        *sdst = 10;
    }
    m.valu(&addc).expect("addc");
    for l in 0..64 {
        assert_eq!(
            m.wave.vgpr[4][l],
            if l % 2 == 0 { 3 } else { 2 },
            "lane {l}"
        );
    }
    assert_eq!(m.wave.read_sreg64(10), 0);
}

#[test]
fn cndmask_selector_from_vcc_or_an_sgpr_pair() {
    let mut m = Machine::new(Gen::Gfx7);
    m.set_v(1, |_| 10);
    m.set_v(2, |_| 20);
    m.wave.vcc = 0xF;
    m.valu(&vop2(op("v_cndmask_b32"), 3, v(1), 2))
        .expect("cndmask");
    assert_eq!(&m.wave.vgpr[3][2..6], &[20, 20, 10, 10]);
    m.wave.write_sreg64(20, 0xF0);
    m.valu(&vop3(op("v_cndmask_b32"), 3, [v(1), v(2), Src(20)]))
        .expect("cndmask e64");
    assert_eq!(&m.wave.vgpr[3][2..6], &[10, 10, 20, 20]);
}

#[test]
fn readlane_writelane_readfirstlane_ignore_exec() {
    for gen in [Gen::Gfx7, Gen::Gfx8] {
        let mut m = Machine::new(gen);
        m.set_v(1, |l| 1000 + l as u32);
        m.wave.exec = 0x10; // only lane 4 active
        m.wave.sgpr[2] = 37; // lane select
        let rl = if gen == Gen::Gfx8 {
            vop3(op("v_readlane_b32"), 9, [v(1), Src(2), Src::ZERO])
        } else {
            vop2(op("v_readlane_b32"), 9, v(1), 2)
        };
        m.valu(&rl).expect("readlane");
        assert_eq!(m.wave.sgpr[9], 1037, "{gen}");
        m.wave.sgpr[3] = 0xABCD;
        m.wave.sgpr[2] = 64 + 5; // & 63 = 5
        let wl = if gen == Gen::Gfx8 {
            vop3(op("v_writelane_b32"), 1, [Src(3), Src(2), Src::ZERO])
        } else {
            vop2(op("v_writelane_b32"), 1, Src(3), 2)
        };
        m.valu(&wl).expect("writelane");
        assert_eq!(
            m.wave.vgpr[1][5], 0xABCD,
            "{gen}: written although lane 5 is inactive"
        );
        assert_eq!(m.wave.vgpr[1][4], 1004);
        m.valu(&vop1(op("v_readfirstlane_b32"), 11, v(1)))
            .expect("readfirstlane");
        assert_eq!(m.wave.sgpr[11], 1004, "{gen}: first active lane");
        m.wave.exec = 0;
        m.valu(&vop1(op("v_readfirstlane_b32"), 11, v(1)))
            .expect("readfirstlane");
        assert_eq!(m.wave.sgpr[11], 1000, "{gen}: lane 0 when EXEC is 0");
        // M0 as the lane select.
        m.wave.m0 = 63;
        let rl = if gen == Gen::Gfx8 {
            vop3(op("v_readlane_b32"), 12, [v(1), Src::M0, Src::ZERO])
        } else {
            vop2(op("v_readlane_b32"), 12, v(1), 124)
        };
        m.valu(&rl).expect("readlane m0");
        assert_eq!(m.wave.sgpr[12], 1063);
    }
}

#[test]
fn mbcnt_counts_lanes_below() {
    let mut m = Machine::new(Gen::Gfx8);
    // v_mbcnt_lo(-1, 0) then v_mbcnt_hi(-1, that): the lane id.
    m.valu(&vop3(
        op("v_mbcnt_lo_u32_b32"),
        1,
        [Src(193), Src::ZERO, Src::ZERO],
    ))
    .expect("lo");
    m.valu(&vop3(
        op("v_mbcnt_hi_u32_b32"),
        1,
        [Src(193), v(1), Src::ZERO],
    ))
    .expect("hi");
    for l in 0..64 {
        assert_eq!(m.wave.vgpr[1][l], l as u32);
    }
    // With a mask of every other lane: the number of even lanes below.
    m.wave.sgpr[4] = 0x5555_5555;
    m.valu(&vop3(
        op("v_mbcnt_lo_u32_b32"),
        2,
        [Src(4), Src::ZERO, Src::ZERO],
    ))
    .expect("lo");
    assert_eq!(m.lanes(2, [0, 1, 2, 40]), [0, 1, 1, 16]);
}

#[test]
fn movrel_uses_m0() {
    let mut m = Machine::new(Gen::Gfx8);
    for r in 10..20 {
        m.set_v(r, |l| (r as u32) << 8 | l as u32);
    }
    m.wave.m0 = 3;
    m.valu(&vop1(op("v_movrels_b32"), 1, v(10)))
        .expect("movrels"); // v1 = v13
    assert_eq!(m.wave.vgpr[1][7], 13 << 8 | 7);
    m.valu(&vop1(op("v_movreld_b32"), 10, v(1)))
        .expect("movreld"); // v13 = v1
    assert_eq!(m.wave.vgpr[13][7], 13 << 8 | 7);
    m.wave.exec = 1;
    m.valu(&vop1(op("v_movrelsd_b32"), 11, v(12)))
        .expect("movrelsd"); // v14 = v15, lane 0
    assert_eq!(
        (m.wave.vgpr[14][0], m.wave.vgpr[14][1]),
        (15 << 8, 14 << 8 | 1)
    );
    m.wave.m0 = 250;
    let r = m.valu(&vop1(op("v_movrels_b32"), 1, v(10)));
    assert!(
        matches!(r, Err(ExecErrorKind::BadOperand(_))),
        "v260 does not exist: {r:?}"
    );
}

#[test]
fn scalar_pairs_constants_and_literals() {
    let mut m = Machine::new(Gen::Gfx8);
    // An unaligned SGPR pair as a 64-bit source: s[3:4].
    m.wave.sgpr[3] = 0;
    m.wave.sgpr[4] = 0x4000_0000; // 2.0 as f64
    m.valu(&vop3(op("v_add_f64"), 6, [Src(3), Src(3), Src::ZERO]))
        .expect("add_f64");
    assert_eq!((m.wave.vgpr[6][0], m.wave.vgpr[7][0]), (0, 0x4010_0000)); // 4.0
                                                                          // Inline constants take the operand's width: 1.0 is 0x3F800000 for f32,
                                                                          // 0x3FF0000000000000 for f64, 0x3C00 for f16; -1 sign-extends to 64 bits.
    m.valu(&vop3(op("v_add_f32"), 1, [Src(242), Src(242), Src::ZERO]))
        .expect("f32");
    assert_eq!(m.wave.vgpr[1][0], 2.0f32.to_bits());
    m.valu(&vop3(op("v_add_f64"), 2, [Src(242), Src(242), Src::ZERO]))
        .expect("f64");
    assert_eq!(m.wave.vgpr[3][0], 0x4000_0000);
    m.valu(&vop3(op("v_add_f16"), 4, [Src(242), Src(242), Src::ZERO]))
        .expect("f16");
    assert_eq!(m.wave.vgpr[4][0], 0x4000);
    m.valu(&vop3(
        op("v_lshrrev_b64"),
        8,
        [Src(128 + 4), Src(193), Src::ZERO],
    ))
    .expect("b64");
    assert_eq!(
        (m.wave.vgpr[8][0], m.wave.vgpr[9][0]),
        (u32::MAX, 0x0FFF_FFFF)
    );
    // 1/(2π) exists on GCN 1.2 only.
    m.valu(&vop1(op("v_mov_b32"), 1, Src(248))).expect("inv2pi");
    assert_eq!(m.wave.vgpr[1][0], 0x3E22_F983);
    let mut m7 = Machine::new(Gen::Gfx7);
    let r = m7.valu(&vop1(op("v_mov_b32"), 1, Src(248)));
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
    // A literal in a VOP2: 32-bit as is; an f64 operand takes it as its high half.
    let mut lit = vop2(op("v_add_f32"), 1, Src::LITERAL, 2);
    lit.literal = Some(1.5f32.to_bits());
    m.set_v(2, |_| 1.0f32.to_bits());
    m.valu(&lit).expect("literal");
    assert_eq!(m.wave.vgpr[1][0], 2.5f32.to_bits());
    let mut lit = vop1(op("v_cvt_f32_f64"), 1, Src::LITERAL);
    lit.literal = Some(0x4008_0000); // high half of 3.0
    m.valu(&lit).expect("literal f64");
    assert_eq!(m.wave.vgpr[1][0], 3.0f32.to_bits());
    // VCCZ/EXECZ/SCC as sources.
    m.wave.vcc = 0;
    m.wave.scc = 1;
    m.valu(&vop1(op("v_mov_b32"), 1, Src::VCCZ)).expect("vccz");
    m.valu(&vop1(op("v_mov_b32"), 2, Src::SCC)).expect("scc");
    assert_eq!((m.wave.vgpr[1][0], m.wave.vgpr[2][0]), (1, 1));
    // A literal named but missing, and LDS_DIRECT, are errors, not silent values.
    let r = m.valu(&vop1(op("v_mov_b32"), 1, Src::LITERAL));
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
    assert!(matches!(
        m.valu(&vop1(op("v_mov_b32"), 1, Src::LDS_DIRECT)),
        Err(wavejit_interp::ExecErrorKind::Unsupported { .. })
    ));
}

#[test]
fn sixty_four_bit_results_in_register_pairs() {
    let mut m = Machine::new(Gen::Gfx8);
    m.set_v(1, |_| 3);
    m.valu(&vop1(op("v_cvt_f64_u32"), 4, v(1))).expect("cvt");
    assert_eq!((m.wave.vgpr[4][0], m.wave.vgpr[5][0]), (0, 0x4008_0000));
    // v255 cannot hold a pair.
    let r = m.valu(&vop1(op("v_cvt_f64_u32"), 255, v(1)));
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
    let r = m.valu(&vop1(op("v_cvt_f32_f64"), 1, v(255)));
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
}

#[test]
fn sources_are_read_before_any_write() {
    // v_add_u32 v1, vcc, v1, v1 row_shl:1 — lane 0 must read lane 1's old v1.
    let mut m = Machine::new(Gen::Gfx8);
    m.set_v(1, |l| l as u32);
    let mut inst = valu_common::dpp(
        op("v_add_u32"),
        wavejit_isa::gcn::VopBase::Vop2,
        1,
        1,
        1,
        0x101,
    );
    if let Fields::Dpp(DppFields { bound_ctrl, .. }) = &mut inst.fields {
        *bound_ctrl = true;
    }
    m.valu(&inst).expect("add");
    assert_eq!(&m.wave.vgpr[1][..3], &[1, 3, 5]);
    // VOPC via VOP3 writing VCC, then a VOP2 reading VCC as carry in.
    m.set_v(2, |_| 1);
    m.valu(&vop3(op("v_cmp_eq_u32"), VCC, [v(2), Src(129), Src::ZERO]))
        .expect("cmp");
    assert_eq!(m.wave.vcc, u64::MAX);
    m.valu(&vop2(op("v_addc_u32"), 3, v(2), 2)).expect("addc");
    assert_eq!(m.wave.vgpr[3][0], 3);
}

#[test]
fn unsupported_and_malformed_are_errors() {
    let mut m = Machine::new(Gen::Gfx8);
    // A scalar instruction is not a vector ALU operation.
    let inst = Inst {
        op: op("s_mov_b32"),
        enc: Enc::Sop1,
        fields: Fields::Sop1 {
            sdst: 0,
            ssrc0: Src(1),
        },
        literal: None,
    };
    let r = m.valu(&inst);
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
    // Fields that do not match the encoding.
    let inst = Inst {
        op: op("v_add_f32"),
        enc: Enc::Vop2,
        fields: Fields::Vop1 {
            vdst: 0,
            src0: v(1),
        },
        literal: None,
    };
    let r = m.valu(&inst);
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
    // An operation that does not exist on the generation.
    let r = m.valu(&vop3(op("v_mullit_f32"), 1, [v(1), v(1), v(1)]));
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
}
