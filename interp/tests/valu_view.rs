//! The interpreter reads a vector ALU instruction through the operand view of
//! `wavejit_isa::gcn::valu`; what it adds: where a lane mask goes in each form (AMD GCN3
//! ISA manual, "VOP3": VOP3B operations write SDST, a VOP3 compare writes the SGPR pair its
//! VDST field names, everything else VCC) and absent sources read as inline 0.

use wavejit_interp::valu::operands::{Vop, VCC};
use wavejit_isa::gcn::operand::vop3_is_b;
use wavejit_isa::gcn::table::{TableEnc, ALL_OPS};
use wavejit_isa::gcn::{Enc, Fields, Inst, Src};
use wavejit_isa::Gen;

fn vop3(op: wavejit_isa::gcn::Op) -> Inst {
    Inst {
        op,
        enc: Enc::Vop3,
        fields: Fields::Vop3 {
            vdst: 10,
            sdst: 20,
            src: [Src::vgpr(1), Src::vgpr(2), Src::vgpr(3)],
            abs: 0,
            neg: 0,
            clamp: false,
            omod: 0,
        },
        literal: None,
    }
}

#[test]
fn a_vop3_lane_mask_goes_where_its_form_says() {
    let mut seen = [0usize; 3];
    for gen in Gen::ALL {
        for &op in ALL_OPS.iter() {
            let Some(row) = op.row(gen) else { continue };
            let vop3_form =
                row.e64[gen.index()] || matches!(row.enc, TableEnc::Vop3 | TableEnc::Vop3b);
            if row.shape.is_none() || !vop3_form {
                continue;
            }
            let Ok(v) = Vop::new(gen, &vop3(op)) else {
                continue;
            };
            let want = if vop3_is_b(row) {
                seen[0] += 1;
                20
            } else if row.enc == TableEnc::Vopc {
                seen[1] += 1;
                10
            } else {
                seen[2] += 1;
                VCC
            };
            assert_eq!(v.mask_dst, want, "{} on {gen}", op.mnemonic());
        }
    }
    assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
}

#[test]
fn absent_sources_read_as_zero() {
    let gen = Gen::Gfx8;
    let op = wavejit_isa::gcn::Op::VMovB32;
    let inst = Inst {
        op,
        enc: Enc::Vop1,
        fields: Fields::Vop1 {
            vdst: 1,
            src0: Src::vgpr(2),
        },
        literal: None,
    };
    let v = Vop::new(gen, &inst).expect("v_mov_b32");
    assert_eq!(v.src, [Src::vgpr(2), Src::ZERO, Src::ZERO]);
    assert_eq!(v.mask_dst, VCC);
}
