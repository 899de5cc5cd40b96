//! Which ALU operations stay with the interpreter helper: every SOP1/SOP2/SOPK/SOPC and
//! VOP1/VOP2/VOPC/VOP3 operation of the table is lowered inline
//! (`wavejit_jit::gcn::lowers_inline`) except the kinds `jit/README.md` ("Helper") gives a
//! reason for. A new helper-only operation fails here until it is lowered or listed.

use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::table::{TableEnc, ROWS};

/// Mnemonic prefixes of the operations the README keeps on the helper, with the reason.
const HELPER: &[(&str, &str)] = &[
    // Not modelled by the interpreter either (its `Unsupported` error).
    ("s_rfe_", "trap return: not modelled"),
    ("s_cbranch_join", "control stack: not modelled"),
    ("s_cbranch_g_fork", "control stack: not modelled"),
    ("s_cbranch_i_fork", "control stack: not modelled"),
    ("s_setvskip", "not modelled"),
    ("s_set_gpr_idx_", "VGPR indexing mode: not modelled"),
    // Approximations defined by the interpreter's own algorithms.
    ("v_exp_", "transcendental"),
    ("v_log_", "transcendental"),
    ("v_rsq_", "transcendental"),
    ("v_sin_", "transcendental"),
    ("v_cos_", "transcendental"),
    // Rare, many special cases.
    ("v_div_scale_", "division fix-ups"),
    ("v_div_fmas_", "division fix-ups"),
    ("v_div_fixup_", "division fix-ups"),
    ("v_trig_preop_", "bits of 2/pi"),
    ("v_cube", "cube map"),
    ("v_mullit_", "lighting"),
    // f16 operations not lowered yet.
    ("v_interp_p1ll_f16", "f16 interpolation"),
    ("v_interp_p1lv_f16", "f16 interpolation"),
    ("v_interp_p2_f16", "f16 interpolation"),
];

#[test]
fn alu_operations_are_inline_or_listed() {
    let alu = [
        TableEnc::Sop1,
        TableEnc::Sop2,
        TableEnc::Sopk,
        TableEnc::Sopc,
        TableEnc::Vop1,
        TableEnc::Vop2,
        TableEnc::Vopc,
        TableEnc::Vop3,
        TableEnc::Vop3b,
    ];
    let mut unlisted = Vec::new();
    let mut counts = [0usize; 3];
    for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
        for r in ROWS.iter() {
            if r.opcode[gen.index()].is_none() || !alu.contains(&r.enc) {
                continue;
            }
            if wavejit_jit::gcn::lowers_inline(gen, r.op) {
                continue;
            }
            counts[gen.index()] += 1;
            let m = r.op.mnemonic();
            if !HELPER.iter().any(|(p, _)| m.starts_with(p)) {
                unlisted.push(format!("{gen} {m}"));
            }
        }
    }
    assert!(
        unlisted.is_empty(),
        "on the helper without a reason: {unlisted:?}"
    );
    // The scalar ALU, compares, conversions, SAD/permute/pack and lane operations are all
    // inline: what is left is the list above (GCN 1.0 / 1.1 / 1.2 rows).
    assert_eq!(counts, [27, 29, 36], "{counts:?}");
}
