//! Every vector ALU operation of the table (VOP1/VOP2/VOPC/VOP3/VOP3B rows) has semantics
//! in every generation it exists in: executed once with plain VGPR operands, none is
//! `Unsupported` (the dispatch's catch-all would say so).

mod valu_common;

use valu_common::{v, Machine};
use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::table::{TableEnc, ROWS};
use wavejit_isa::gcn::Vop3Fields;
use wavejit_isa::gcn::{Enc, Fields, Inst};
use wavejit_isa::Gen;

#[test]
fn no_vector_operation_is_left_unsupported() {
    let mut missing = Vec::new();
    let mut other = Vec::new();
    let mut count = 0;
    for row in ROWS.iter() {
        for gen in Gen::ALL {
            if row.opcode[gen.index()].is_none() {
                continue;
            }
            let (enc, fields) = match row.enc {
                TableEnc::Vop1 => (
                    Enc::Vop1,
                    Fields::Vop1 {
                        vdst: 20,
                        src0: v(10),
                    },
                ),
                TableEnc::Vop2 => (
                    Enc::Vop2,
                    Fields::Vop2 {
                        vdst: 20,
                        src0: v(10),
                        vsrc1: 12,
                    },
                ),
                TableEnc::Vopc => (
                    Enc::Vopc,
                    Fields::Vopc {
                        src0: v(10),
                        vsrc1: 12,
                    },
                ),
                TableEnc::Vop3 | TableEnc::Vop3b => (
                    Enc::Vop3,
                    Fields::Vop3(Vop3Fields {
                        vdst: 20,
                        sdst: 106,
                        src: [v(10), v(12), v(16)],
                        abs: 0,
                        neg: 0,
                        clamp: false,
                        omod: 0,
                    }),
                ),
                _ => continue,
            };
            let mut m = Machine::new(gen);
            m.wave.sgpr[0] = 1;
            let inst = Inst {
                op: row.op,
                enc,
                fields,
                literal: Some(0x3F80_0000),
            };
            count += 1;
            // (VOP3-encoded interpolation reads SRC0 = 266 as attribute 10, channel 0, high.)
            match m.valu(&inst) {
                Ok(()) => {}
                Err(ExecErrorKind::Unsupported { mnemonic }) => {
                    missing.push(format!("{gen} {}: {mnemonic}", row.op.mnemonic()))
                }
                // The fixed operands are invalid for these: V_READLANE/V_WRITELANE need a
                // scalar lane select (GCN 1.2's VOP3 form reads v12 there) and value (v10
                // in VOP2 on GCN 1.0/1.1); VOP3 V_INTERP_MOV reads SRC0 as the parameter.
                Err(ExecErrorKind::BadOperand(_))
                    if matches!(
                        row.op.mnemonic(),
                        "v_readlane_b32" | "v_writelane_b32" | "v_interp_mov_f32"
                    ) => {}
                Err(e) => other.push(format!("{gen} {}: {e}", row.op.mnemonic())),
            }
        }
    }
    assert!(count > 700, "{count}");
    assert!(
        other.is_empty(),
        "{} errors:\n{}",
        other.len(),
        other.join("\n")
    );
    assert!(
        missing.is_empty(),
        "{} unsupported:\n{}",
        missing.len(),
        missing.join("\n")
    );
}
