//! The `interp` column's check for scalar rows (`isa/build/interp_cell.rs`, run by
//! `isa/build.rs` on every row): a scalar row without semantics, or with a word outside the
//! closed vocabulary, fails the build; a good cell becomes the tokens `for_each_gcn_op!`
//! hands to the interpreter's scalar dispatch.

#[path = "../build/interp_cell.rs"]
mod interp_cell;

use interp_cell::{is_scalar, scalar_interp_cell};

fn err(compare: bool, cell: &str) -> String {
    match scalar_interp_cell(compare, cell) {
        Err(e) => e,
        Ok(t) => panic!("`{cell}` was accepted as `{t}`"),
    }
}

#[test]
fn a_scalar_row_without_semantics_does_not_build() {
    assert!(err(false, "-").contains("needs its semantics in the interp column"));
    assert!(err(true, "-").contains("needs its semantics in the interp column"));
}

#[test]
fn the_scalar_encodings_are_checked() {
    for enc in ["Sop1", "Sop2", "Sopk", "Sopc", "Sopp"] {
        assert!(is_scalar(enc), "{enc}");
    }
    for enc in ["Smrd", "Vop2", "Vintrp", "Exp"] {
        assert!(!is_scalar(enc), "{enc}");
    }
}

#[test]
fn adapters_name_a_function_of_a_scalar_family() {
    assert_eq!(
        scalar_interp_cell(false, "sop2(sop2::s_add_u32)").as_deref(),
        Ok("sop2(sop2::s_add_u32)")
    );
    assert_eq!(
        scalar_interp_cell(false, "branch(sopp::scc0)").as_deref(),
        Ok("branch(sopp::scc0)")
    );
    assert!(err(false, "sop3(sop2::s_add_u32)").contains("unknown scalar interp adapter `sop3`"));
    assert!(err(false, "sop2(vop2::v_add_f32)").contains("not a function of"));
    assert!(err(false, "sop2(sop2::a::b)").contains("not a function of"));
    assert!(err(false, "sop2(sop2::)").contains("not a function of"));
    assert!(err(false, "sop2").contains("not ADAPTER(path)"));
}

#[test]
fn compares_and_markers() {
    assert_eq!(scalar_interp_cell(true, "cmp").as_deref(), Ok("cmp"));
    assert!(
        err(true, "sopc(sopc::s_bitcmp0_b32)").contains("a scalar compare's interp cell is cmp")
    );
    assert!(err(false, "cmp").contains("needs the compare in the cmp column"));
    for m in ["nop", "end", "barrier", "unsupported"] {
        assert_eq!(scalar_interp_cell(false, m).as_deref(), Ok(m));
    }
}
