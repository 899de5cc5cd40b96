//! VOP_DPP (002_969c374e212b41fa.txt and ERRATA VOP_DPP 1-7): every DPP_CTRL value with
//! EXEC, ROW_MASK, BANK_MASK and BOUND_CTRL, checked lane by lane against a source-lane
//! table built here independently (row by row from the spec's prose), plus worked
//! examples, VOP2/VOPC forms, NEG/ABS and the reserved values.

// Lane loops index several per-lane arrays at once: clearer than zipped iterators.
#![allow(clippy::needless_range_loop)]

mod valu_common;

use valu_common::{dpp, op, Machine, Rng};
use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::DppFields;
use wavejit_isa::gcn::{Fields, Inst, VopBase};
use wavejit_isa::Gen;

/// Every defined DPP_CTRL (ERRATA VOP_DPP 6 lists the rest as reserved).
fn all_ctrls() -> Vec<u16> {
    let mut v: Vec<u16> = (0x00..=0xFF).collect();
    v.extend(0x101..=0x10F);
    v.extend(0x111..=0x11F);
    v.extend(0x121..=0x12F);
    v.extend([0x130, 0x134, 0x138, 0x13C, 0x140, 0x141, 0x142, 0x143]);
    v
}

/// The source lane of every lane for `ctrl` (`None`: out of range), built per row/quad.
fn table(ctrl: u16) -> [Option<usize>; 64] {
    let mut t = [None; 64];
    match ctrl {
        0x00..=0xFF => {
            for quad in 0..16 {
                for i in 0..4 {
                    let sel = ((ctrl >> (2 * i)) & 3) as usize;
                    t[quad * 4 + i] = Some(quad * 4 + sel);
                }
            }
        }
        0x101..=0x10F | 0x111..=0x11F | 0x121..=0x12F => {
            let n = (ctrl & 0xF) as i32;
            for row in 0..4 {
                for i in 0..16i32 {
                    let src = match ctrl >> 4 {
                        0x10 => i + n,               // row_shl: lane reads lane + n
                        0x11 => i - n,               // row_shr: lane reads lane - n
                        _ => (i - n).rem_euclid(16), // row_ror: rotate within the row
                    };
                    if (0..16).contains(&src) {
                        t[row * 16 + i as usize] = Some(row * 16 + src as usize);
                    }
                }
            }
        }
        0x130 | 0x134 | 0x138 | 0x13C => {
            for (l, x) in t.iter_mut().enumerate() {
                let l = l as i32;
                let src = match ctrl {
                    0x130 => l + 1,
                    0x138 => l - 1,
                    0x134 => (l + 1) % 64,
                    _ => (l + 63) % 64,
                };
                if (0..64).contains(&src) {
                    *x = Some(src as usize);
                }
            }
        }
        0x140 => {
            for row in 0..4 {
                for i in 0..16 {
                    t[row * 16 + i] = Some(row * 16 + 15 - i);
                }
            }
        }
        0x141 => {
            for half in 0..8 {
                for i in 0..8 {
                    t[half * 8 + i] = Some(half * 8 + 7 - i);
                }
            }
        }
        0x142 => {
            for (l, x) in t.iter_mut().enumerate() {
                let row = l / 16;
                *x = Some(if row == 0 { l } else { (row - 1) * 16 + 15 });
            }
        }
        0x143 => {
            for (l, x) in t.iter_mut().enumerate() {
                *x = Some(if l < 32 { l } else { 31 });
            }
        }
        _ => panic!("reserved {ctrl:#x}"),
    }
    t
}

fn set(inst: &mut Inst, bound: bool, rows: u8, banks: u8) {
    if let Fields::Dpp(DppFields {
        bound_ctrl,
        row_mask,
        bank_mask,
        ..
    }) = &mut inst.fields
    {
        *bound_ctrl = bound;
        *row_mask = rows;
        *bank_mask = banks;
    }
}

#[test]
fn every_ctrl_with_exec_masks_and_bound_ctrl() {
    let mut rng = Rng(21);
    let mut m = Machine::new(Gen::Gfx8);
    let mov = op("v_mov_b32");
    let mut checked = 0usize;
    for ctrl in all_ctrls() {
        let t = table(ctrl);
        let cases = [
            (u64::MAX, false, 0xF, 0xF),
            (u64::MAX, true, 0xF, 0xF),
            (rng.next(), false, 0xF, 0xF),
            (rng.next(), true, 0xF, 0xF),
            (
                rng.next(),
                rng.next() & 1 != 0,
                (rng.next() & 0xF) as u8,
                (rng.next() & 0xF) as u8,
            ),
        ];
        for (exec, bound, rows, banks) in cases {
            let src: Vec<u32> = (0..64).map(|l| 0x1000 + l as u32).collect();
            m.set_v(2, |l| src[l]);
            m.set_v(8, |l| 0xDEAD_0000 | l as u32);
            m.wave.exec = exec;
            let mut inst = dpp(mov, VopBase::Vop1, 8, 2, 0, ctrl);
            set(&mut inst, bound, rows, banks);
            m.valu(&inst).expect("dpp mov");
            for l in 0..64 {
                let old = 0xDEAD_0000 | l as u32;
                let enabled = exec >> l & 1 != 0
                    && rows >> (l / 16) & 1 != 0
                    && banks >> ((l / 4) % 4) & 1 != 0;
                let want = if !enabled {
                    old
                } else {
                    match t[l] {
                        Some(s) if exec >> s & 1 != 0 => src[s],
                        _ if bound => 0, // BOUND_CTRL (bit 19) set: invalid source reads 0
                        _ => old,        // clear: the lane is not written
                    }
                };
                assert_eq!(
                    m.wave.vgpr[8][l], want,
                    "ctrl {ctrl:#x} exec {exec:#x} bound {bound} rows {rows:#x} banks {banks:#x} lane {l}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, all_ctrls().len() * 5 * 64);
}

#[test]
fn the_pure_lane_map_agrees_with_the_table() {
    for ctrl in all_ctrls() {
        let t = table(ctrl);
        for (l, want) in t.iter().enumerate() {
            assert_eq!(
                wavejit_interp::valu::dpp::src_lane(ctrl, l),
                *want,
                "ctrl {ctrl:#x} lane {l}"
            );
        }
    }
    for ctrl in [0x100u16, 0x110, 0x120, 0x131, 0x13D, 0x144, 0x1FF] {
        assert!(!wavejit_interp::valu::dpp::ctrl_valid(ctrl));
        assert_eq!(wavejit_interp::valu::dpp::src_lane(ctrl, 5), None);
    }
}

#[test]
fn worked_examples() {
    let mut m = Machine::new(Gen::Gfx8);
    let mov = op("v_mov_b32");
    m.set_v(2, |l| l as u32);
    // quad_perm:[2,3,0,1] (0x4E): lanes 0..4 read 2,3,0,1.
    m.set_v(8, |_| 99);
    m.valu(&dpp(mov, VopBase::Vop1, 8, 2, 0, 0x4E))
        .expect("quad_perm");
    assert_eq!(&m.wave.vgpr[8][..8], &[2, 3, 0, 1, 6, 7, 4, 5]);
    // row_shr:1 without BOUND_CTRL: the first lane of each row keeps its old value.
    m.set_v(8, |_| 99);
    m.valu(&dpp(mov, VopBase::Vop1, 8, 2, 0, 0x111))
        .expect("row_shr");
    assert_eq!(&m.wave.vgpr[8][14..19], &[13, 14, 99, 16, 17]);
    // ... with BOUND_CTRL it reads 0.
    let mut inst = dpp(mov, VopBase::Vop1, 8, 2, 0, 0x111);
    set(&mut inst, true, 0xF, 0xF);
    m.valu(&inst).expect("row_shr bound");
    assert_eq!(&m.wave.vgpr[8][15..18], &[14, 0, 16]);
    // row_bcast:15 with row_mask 0xA: rows 1 and 3 get lane 15 / 47, rows 0 and 2 keep.
    m.set_v(8, |_| 99);
    let mut inst = dpp(mov, VopBase::Vop1, 8, 2, 0, 0x142);
    set(&mut inst, false, 0xA, 0xF);
    m.valu(&inst).expect("bcast15");
    assert_eq!(m.lanes(8, [0, 16, 33, 63]), [99, 15, 99, 47]);
    // row_bcast:31 with row_mask 0xC: rows 2 and 3 get lane 31.
    let mut inst = dpp(mov, VopBase::Vop1, 8, 2, 0, 0x143);
    set(&mut inst, false, 0xC, 0xF);
    m.set_v(8, |_| 99);
    m.valu(&inst).expect("bcast31");
    assert_eq!(
        (m.wave.vgpr[8][31], m.wave.vgpr[8][32], m.wave.vgpr[8][63]),
        (99, 31, 31)
    );
    // wave_ror:1: lane 0 reads lane 63.
    m.valu(&dpp(mov, VopBase::Vop1, 8, 2, 0, 0x13C))
        .expect("wave_ror");
    assert_eq!((m.wave.vgpr[8][0], m.wave.vgpr[8][1]), (63, 0));
    // A source lane with EXEC 0 is invalid (ERRATA VOP_DPP 1): lane 1 reads lane 0.
    m.set_v(8, |_| 99);
    m.wave.exec = !1u64;
    m.valu(&dpp(mov, VopBase::Vop1, 8, 2, 0, 0x138))
        .expect("wave_shr");
    assert_eq!(
        (m.wave.vgpr[8][0], m.wave.vgpr[8][1], m.wave.vgpr[8][2]),
        (99, 99, 1)
    );
}

#[test]
fn a_row_reduction_step_in_vop2() {
    // v_add_u32 v1, vcc, v1, v1 row_shr:1 bound_ctrl: each lane adds its left neighbour
    // (0 at a row start); SRC1 is the lane's own value (ERRATA VOP_DPP 7).
    let mut m = Machine::new(Gen::Gfx8);
    m.set_v(1, |l| l as u32 + 1);
    let mut inst = dpp(op("v_add_u32"), VopBase::Vop2, 1, 1, 1, 0x111);
    set(&mut inst, true, 0xF, 0xF);
    m.valu(&inst).expect("add");
    for l in 0..64 {
        let left = if l % 16 == 0 { 0 } else { l as u32 };
        assert_eq!(m.wave.vgpr[1][l], l as u32 + 1 + left, "lane {l}");
    }
    assert_eq!(m.wave.vcc, 0);
}

#[test]
fn masked_lanes_keep_their_vcc_bit() {
    // A lane that DPP does not write keeps VDST — and its bit of a lane-mask result.
    let mut m = Machine::new(Gen::Gfx8);
    m.set_v(1, |_| 0xFFFF_FFFF);
    m.set_v(2, |_| 1);
    m.wave.vcc = 0xF0F0_F0F0_F0F0_F0F0;
    let mut inst = dpp(op("v_add_u32"), VopBase::Vop2, 3, 1, 2, 0xE4); // identity quad_perm
    set(&mut inst, false, 0x1, 0xF); // only row 0 written
    m.valu(&inst).expect("add");
    assert_eq!(m.wave.vcc, 0xF0F0_F0F0_F0F0_FFFF);
    // VOPC: compares of disabled lanes keep the old bit; EXEC-inactive lanes read 0.
    m.wave.vcc = u64::MAX;
    m.wave.exec = 0x0000_FFFF_FFFF_FFFF;
    let mut inst = dpp(op("v_cmp_eq_u32"), VopBase::Vopc, 0, 1, 2, 0xE4);
    set(&mut inst, false, 0x3, 0xF);
    m.valu(&inst).expect("cmp");
    // rows 0,1 compare (false); row 2 keeps its old bits (ones); row 3 is inactive (0).
    assert_eq!(m.wave.vcc, 0x0000_FFFF_0000_0000);
}

#[test]
fn neg_abs_on_shared_source() {
    let mut m = Machine::new(Gen::Gfx8);
    m.set_v(1, |l| (l as f32 - 8.0).to_bits());
    m.set_v(2, |_| 0.5f32.to_bits());
    let mut inst = dpp(op("v_add_f32"), VopBase::Vop2, 4, 1, 2, 0x134); // wave_rol:1
    if let Fields::Dpp(DppFields {
        src0_abs,
        src0_neg,
        src1_neg,
        ..
    }) = &mut inst.fields
    {
        *src0_abs = true;
        *src0_neg = true;
        *src1_neg = true;
    }
    m.valu(&inst).expect("add");
    for l in 0..64 {
        let s = ((l + 1) % 64) as f32 - 8.0;
        assert_eq!(
            f32::from_bits(m.wave.vgpr[4][l]),
            -s.abs() - 0.5,
            "lane {l}"
        );
    }
}

#[test]
fn reserved_ctrl_is_an_error() {
    let mut m = Machine::new(Gen::Gfx8);
    for ctrl in [0x100u16, 0x131, 0x144, 0x1FF] {
        let r = m.valu(&dpp(op("v_mov_b32"), VopBase::Vop1, 8, 2, 0, ctrl));
        assert!(
            matches!(r, Err(ExecErrorKind::BadOperand(_))),
            "{ctrl:#x}: {r:?}"
        );
    }
}
