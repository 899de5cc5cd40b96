//! The interpreter reads a vector ALU instruction through the operand view of
//! `wavejit_isa::gcn::valu`; what it adds: where a lane mask goes in each form (AMD GCN3
//! ISA manual, "VOP3": VOP3B operations write SDST, a VOP3 compare writes the SGPR pair its
//! VDST field names, everything else VCC) and absent sources read as inline 0.

mod valu_common;

use valu_common::{v, vop1, vop3};
use wavejit_interp::valu::operands::{Vop, VCC};
use wavejit_isa::gcn::operand::vop3_is_b;
use wavejit_isa::gcn::table::{TableEnc, ALL_OPS};
use wavejit_isa::gcn::Vop3Fields;
use wavejit_isa::gcn::{Fields, Inst, Src};
use wavejit_isa::Gen;

/// `op` in VOP3 with VDST v10 (s10 for a compare), SDST s20 and sources v1-v3.
fn vop3_20(op: wavejit_isa::gcn::Op) -> Inst {
    let mut inst = vop3(op, 10, [v(1), v(2), v(3)]);
    if let Fields::Vop3(Vop3Fields { sdst, .. }) = &mut inst.fields {
        *sdst = 20;
    }
    inst
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
            let Ok(view) = Vop::new(gen, &vop3_20(op)) else {
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
            assert_eq!(view.mask_dst, want, "{} on {gen}", op.mnemonic());
        }
    }
    assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
}

#[test]
fn absent_sources_read_as_zero() {
    let gen = Gen::Gfx8;
    let op = wavejit_isa::gcn::Op::VMovB32;
    let inst = vop1(op, 1, v(2));
    let view = Vop::new(gen, &inst).expect("v_mov_b32");
    assert_eq!(view.src, [Src::vgpr(2), Src::ZERO, Src::ZERO]);
    assert_eq!(view.mask_dst, VCC);
}
