//! VINTRP (001_43f5507a70f72cb4.txt, ERRATA VINTRP 1-5): the NEWPRIMMASK example of the
//! spec (0b1010011: five primitives) and its LDS layout table, M0's offset, P1/P2/MOV, the
//! GCN 1.2 VOP3 forms with the f16 variants, EXEC, and out-of-bounds LDS.

mod valu_common;

use valu_common::{op, Machine};
use wavejit_isa::gcn::operand::InterpAttr;
use wavejit_isa::gcn::{Enc, Fields, Inst, Src, Vop3Fields};
use wavejit_isa::Gen;

const MASK: u32 = 0b101_0011;
const NUMPRIM: u32 = 5;

/// The spec's table: lanes → primitive for NEWPRIMMASK 0b1010011.
fn prim_of_lane(l: usize) -> u32 {
    match l {
        0..=3 => 0,
        4..=7 => 1,
        8..=19 => 2,
        20..=27 => 3,
        _ => 4,
    }
}

/// Byte offset (from M0's base) of (attr, prim), from the spec's layout table: rows of 192
/// bytes holding four 48-byte parameter blocks, attribute-major (ATTR#0 PRIM#0..4, ATTR#1
/// PRIM#0..4, …).
fn block_offset(attr: u32, prim: u32) -> u32 {
    48 * (attr * NUMPRIM + prim)
}

/// A recognisable f32 for (attr, prim, dword): attr·1000 + prim·100 + dword.
fn param(attr: u32, prim: u32, dword: u32) -> f32 {
    (attr * 1000 + prim * 100 + dword) as f32
}

fn machine(base: u32) -> Machine {
    let mut m = Machine::new(Gen::Gfx8);
    m.wave.m0 = (MASK << 16) | base;
    for attr in 0..3 {
        for prim in 0..NUMPRIM {
            for dw in 0..12 {
                let a = base + block_offset(attr, prim) + 4 * dw;
                m.lds
                    .write_u32(a, param(attr, prim, dw).to_bits())
                    .expect("lds");
            }
        }
    }
    m
}

fn vintrp(name: &str, vdst: u8, vsrc: u8, attr: u8, chan: u8) -> Inst {
    wavejit_isa::gcn::build::vintrp(op(name), vdst, vsrc, attr, chan)
}

#[test]
fn the_layout_table_offsets() {
    // Spot checks of the table itself: offset 192 holds ATTR#0 PRIM#4, then ATTR#1 PRIM#0.
    assert_eq!(block_offset(0, 4), 192);
    assert_eq!(block_offset(1, 0), 240);
    assert_eq!(block_offset(1, 3), 384);
    assert_eq!(block_offset(2, 2), 576);
}

#[test]
fn mov_reads_each_lane_primitive_and_channel() {
    for base in [0u32, 0x100] {
        let mut m = machine(base);
        for attr in 0..3u8 {
            for chan in 0..4u8 {
                // V_INTERP_MOV's VSRC field: 0 = P10, 1 = P20, 2 = P0.
                for (p, dword) in [
                    (2u8, 2 * chan as u32),
                    (0, 2 * chan as u32 + 1),
                    (1, chan as u32 + 8),
                ] {
                    m.vintrp(&vintrp("v_interp_mov_f32", 5, p, attr, chan))
                        .expect("mov");
                    for l in 0..64 {
                        let want = param(attr as u32, prim_of_lane(l), dword);
                        assert_eq!(
                            f32::from_bits(m.wave.vgpr[5][l]),
                            want,
                            "base {base} attr {attr} chan {chan} p {p} lane {l}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn p1_then_p2_interpolate() {
    let mut m = machine(0x40);
    // I = 0.5, J = 0.25 in every lane; attr 1, channel 2 (z).
    m.set_v(1, |_| 0.5f32.to_bits());
    m.set_v(2, |_| 0.25f32.to_bits());
    m.vintrp(&vintrp("v_interp_p1_f32", 3, 1, 1, 2))
        .expect("p1");
    m.vintrp(&vintrp("v_interp_p2_f32", 3, 2, 1, 2))
        .expect("p2");
    for l in 0..64 {
        let p = prim_of_lane(l);
        // P0.z = dword 4, P10.z = dword 5, P20.z = dword 10; all exact in f32.
        let want = param(1, p, 4) + 0.5 * param(1, p, 5) + 0.25 * param(1, p, 10);
        assert_eq!(f32::from_bits(m.wave.vgpr[3][l]), want, "lane {l}");
    }
}

#[test]
fn vdst_equal_to_vsrc_reads_before_writing() {
    // ERRATA VINTRP 5: executed as written (every source read first).
    let mut m = machine(0);
    m.set_v(1, |_| 2.0f32.to_bits());
    m.vintrp(&vintrp("v_interp_p1_f32", 1, 1, 0, 0))
        .expect("p1");
    for l in 0..64 {
        let p = prim_of_lane(l);
        assert_eq!(
            f32::from_bits(m.wave.vgpr[1][l]),
            param(0, p, 0) + 2.0 * param(0, p, 1)
        );
    }
}

#[test]
fn exec_masks_and_bounds() {
    let mut m = machine(0);
    m.set_v(6, |_| 7);
    m.wave.exec = 0xF0;
    m.vintrp(&vintrp("v_interp_mov_f32", 6, 2, 0, 0))
        .expect("mov");
    for l in 0..64 {
        let want = if (4..8).contains(&l) {
            param(0, 1, 0).to_bits()
        } else {
            7
        };
        assert_eq!(m.wave.vgpr[6][l], want, "lane {l}");
    }
    // Attribute 63 of a five-primitive wave lies past the 64 KiB LDS from offset 0xFFF0.
    m.wave.exec = u64::MAX;
    m.wave.m0 = (MASK << 16) | 0xFFF0;
    let e = m
        .vintrp(&vintrp("v_interp_mov_f32", 6, 2, 63, 3))
        .expect_err("out of bounds");
    assert!(
        matches!(e, wavejit_interp::ExecErrorKind::OutOfBounds { .. }),
        "{e}"
    );
}

fn vop3_interp(name: &str, vdst: u8, attr: u8, chan: u8, high: bool, src1: Src, src2: Src) -> Inst {
    let a = InterpAttr { attr, chan, high }.to_src();
    Inst {
        op: op(name),
        enc: Enc::Vop3,
        fields: Fields::Vop3(Vop3Fields {
            vdst,
            sdst: 0,
            src: [a, src1, src2],
            abs: 0,
            neg: 0,
            clamp: false,
            omod: 0,
        }),
        literal: None,
    }
}

#[test]
fn gfx8_vop3_forms_and_f16_variants() {
    let mut m = Machine::new(Gen::Gfx8);
    m.wave.m0 = MASK << 16;
    // attr 0, prim p: P0.x = {hi: 4.0h, lo: 1.0h}, P10.x = {hi: 8.0h, lo: 2.0h}, P20.x = {hi:
    // 16.0h, lo: 3.0h} (f16: 1.0 = 0x3C00, 2.0 = 0x4000, 3.0 = 0x4200, 4.0 = 0x4400,
    // 8.0 = 0x4800, 16.0 = 0x4C00).
    for prim in 0..NUMPRIM {
        let o = block_offset(0, prim);
        m.lds.write_u32(o, 0x4400_3C00).expect("lds");
        m.lds.write_u32(o + 4, 0x4800_4000).expect("lds");
        m.lds.write_u32(o + 32, 0x4C00_4200).expect("lds");
    }
    m.set_v(1, |_| 0.5f32.to_bits()); // I
    m.set_v(2, |_| 0.25f32.to_bits()); // J
                                       // p1ll, low halves: 1 + 0.5 × 2 = 2.0 (f32)
    m.vintrp(&vop3_interp(
        "v_interp_p1ll_f16",
        3,
        0,
        0,
        false,
        Src::vgpr(1),
        Src::ZERO,
    ))
    .expect("p1ll");
    assert_eq!(f32::from_bits(m.wave.vgpr[3][9]), 2.0);
    // high halves: 4 + 0.5 × 8 = 8.0
    m.vintrp(&vop3_interp(
        "v_interp_p1ll_f16",
        3,
        0,
        0,
        true,
        Src::vgpr(1),
        Src::ZERO,
    ))
    .expect("p1ll high");
    assert_eq!(f32::from_bits(m.wave.vgpr[3][40]), 8.0);
    // p1lv: P0 from VSRC1's low half (5.0h = 0x4500): 5 + 0.5 × 2 = 6.0
    m.set_v(4, |_| 0x0000_4500);
    m.vintrp(&vop3_interp(
        "v_interp_p1lv_f16",
        3,
        0,
        0,
        false,
        Src::vgpr(1),
        Src::vgpr(4),
    ))
    .expect("p1lv");
    assert_eq!(f32::from_bits(m.wave.vgpr[3][0]), 6.0);
    // p2_f16: VSRC1 (f32 6.0) + 0.25 × P20 (3.0h) = 6.75 → f16 0x46C0 in the low half.
    m.set_v(5, |_| 6.0f32.to_bits());
    m.set_v(3, |_| 0xFFFF_FFFF);
    m.vintrp(&vop3_interp(
        "v_interp_p2_f16",
        3,
        0,
        0,
        false,
        Src::vgpr(2),
        Src::vgpr(5),
    ))
    .expect("p2 f16");
    assert_eq!(m.wave.vgpr[3][63], 0x46C0);
    // VOP3-encoded V_INTERP_MOV_F32: SRC1 holds the parameter (2 = P0).
    m.vintrp(&vop3_interp(
        "v_interp_mov_f32",
        7,
        0,
        0,
        false,
        Src(2),
        Src::ZERO,
    ))
    .expect("mov");
    assert_eq!(m.wave.vgpr[7][0], 0x4400_3C00);
    // The vector unit passes VOP3-encoded interpolation to VINTRP.
    m.set_v(7, |_| 0);
    m.valu(&vop3_interp(
        "v_interp_mov_f32",
        7,
        0,
        0,
        false,
        Src(0),
        Src::ZERO,
    ))
    .expect("via valu");
    assert_eq!(m.wave.vgpr[7][0], 0x4800_4000);
}
