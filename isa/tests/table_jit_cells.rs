//! The `jit` column's check (`isa/build/jit_cell.rs`, run by `isa/build.rs` on every row):
//! a vector or scalar ALU row without a lowering, or with a word outside the closed vocabulary, fails
//! the build; a good cell becomes the tokens `for_each_gcn_op!` hands to the JIT.

#[path = "../build/jit_cell.rs"]
mod jit_cell;

use jit_cell::{jit_cell, RowFacts};

/// A VOP2 f32 row such as `v_add_f32`.
fn vop2_f32() -> RowFacts<'static> {
    RowFacts {
        scalar: None,
        shape: Some("plain"),
        vintrp: false,
        src0: Some("f32"),
        cond: None,
        interp: "f32_2(vop2::v_add_f32)",
    }
}

fn err(row: &RowFacts, cell: &str) -> String {
    match jit_cell(row, cell) {
        Err(e) => e,
        Ok(t) => panic!("`{cell}` was accepted as `{t}`"),
    }
}

#[test]
fn a_vector_alu_row_without_a_lowering_does_not_build() {
    assert!(err(&vop2_f32(), "-").contains("needs its lowering in the jit column"));
}

#[test]
fn an_interpolation_row_without_a_lowering_does_not_build() {
    let row = RowFacts {
        scalar: None,
        shape: None,
        vintrp: true,
        src0: None,
        cond: None,
        interp: "vintrp",
    };
    assert!(err(&row, "-").contains("needs its lowering"));
    assert_eq!(jit_cell(&row, "vintrp").as_deref(), Ok("vintrp"));
    assert_eq!(jit_cell(&row, "helper").as_deref(), Ok("helper"));
    assert!(err(&row, "float(mad)").contains("vintrp or helper"));
}

#[test]
fn generic_lowerings_become_vocabulary_variants() {
    let row = vop2_f32();
    assert_eq!(jit_cell(&row, "float(add)").as_deref(), Ok("float(Add)"));
    assert_eq!(
        jit_cell(&row, "float(mul_legacy)").as_deref(),
        Ok("float(MulLegacy)")
    );
    assert_eq!(
        jit_cell(&row, "int(cvt_f32_ubyte(1))").as_deref(),
        Ok("int(CvtF32Ubyte(1))")
    );
    assert_eq!(
        jit_cell(&row, "x(rcp_clamp(f64,false))").as_deref(),
        Ok("x(RcpClamp(f64, false))")
    );
    assert_eq!(jit_cell(&row, "helper").as_deref(), Ok("helper"));
    assert_eq!(jit_cell(&row, "ldexp").as_deref(), Ok("ldexp"));
}

#[test]
fn words_outside_the_vocabulary_do_not_build() {
    let row = vop2_f32();
    assert!(err(&row, "fadd").contains("unknown jit lowering"));
    assert!(err(&row, "simd(add)").contains("unknown jit lowering"));
    assert!(err(&row, "float").contains("needs its operation"));
    assert!(err(&row, "helper(add)").contains("takes no operation"));
    assert!(err(&row, "float(Add)").contains("snake-case"));
    assert!(err(&row, "int(bfe(-1))").contains("argument `-1`"));
}

#[test]
fn a_float_lowering_needs_a_float_first_source() {
    let row = RowFacts {
        src0: Some("b32"),
        ..vop2_f32()
    };
    assert!(err(&row, "float(add)").contains("must be f32 or f64"));
    assert!(err(&row, "frexp(mant)").contains("must be f32 or f64"));
    assert_eq!(jit_cell(&row, "int(add)").as_deref(), Ok("int(Add)"));
}

#[test]
fn compares_take_their_meaning_from_the_cmp_column() {
    let lt = RowFacts {
        shape: Some("cmpx"),
        cond: Some("lt"),
        interp: "cmp",
        ..vop2_f32()
    };
    assert_eq!(jit_cell(&lt, "cmp").as_deref(), Ok("cmp"));
    assert!(err(&lt, "class").contains("does not match the cmp column"));
    assert!(err(&lt, "float(min)").contains("a compare is cmp, class or helper"));
    let class = RowFacts {
        cond: Some("class"),
        ..lt
    };
    assert_eq!(jit_cell(&class, "class").as_deref(), Ok("class"));
    assert!(err(&class, "cmp").contains("does not match the cmp column"));
}

#[test]
fn memory_and_program_control_rows_have_no_lowering() {
    let mem = RowFacts {
        scalar: None,
        shape: None,
        vintrp: false,
        src0: None,
        cond: None,
        interp: "-",
    };
    assert_eq!(jit_cell(&mem, "-").as_deref(), Ok("-"));
    assert!(err(&mem, "helper").contains("vector ALU and interpolation rows"));
}

#[test]
fn nop_needs_the_interpreters_nop() {
    let row = RowFacts {
        shape: Some("empty"),
        src0: None,
        interp: "nop",
        ..vop2_f32()
    };
    assert_eq!(jit_cell(&row, "nop").as_deref(), Ok("nop"));
    assert!(err(&vop2_f32(), "nop").contains("interp cell nop"));
}

/// A scalar ALU row of encoding `enc`, a compare if `cond` is given.
fn scalar(enc: &'static str, cond: Option<&'static str>) -> RowFacts<'static> {
    RowFacts {
        scalar: Some(enc),
        shape: None,
        vintrp: false,
        src0: None,
        cond,
        interp: "-",
    }
}

#[test]
fn a_scalar_alu_row_without_a_lowering_does_not_build() {
    assert!(err(&scalar("sop2", None), "-").contains("needs its lowering in the jit column"));
}

#[test]
fn scalar_lowerings_are_named_by_their_encoding() {
    let sop1 = scalar("sop1", None);
    assert_eq!(
        jit_cell(&sop1, "sop1(saveexec(and,false))").as_deref(),
        Ok("sop1(Saveexec(And, false))")
    );
    assert_eq!(
        jit_cell(&sop1, "sop1(bcnt0_b64)").as_deref(),
        Ok("sop1(Bcnt0B64)")
    );
    assert_eq!(
        jit_cell(&scalar("sopk", None), "sopk(setreg(0,none))").as_deref(),
        Ok("sopk(Setreg(0, none))")
    );
    assert_eq!(jit_cell(&sop1, "helper").as_deref(), Ok("helper"));
    // Another encoding's family, or a vector family, is refused.
    assert!(err(&sop1, "sop2(add_u)").contains("a sop1 row's lowering is"));
    assert!(err(&sop1, "int(add)").contains("a sop1 row's lowering is"));
}

#[test]
fn a_scalar_compare_needs_its_condition() {
    assert_eq!(
        jit_cell(&scalar("sopc", Some("lt")), "sopc(cmp)").as_deref(),
        Ok("sopc(cmp)")
    );
    assert!(err(&scalar("sopc", None), "sopc(cmp)").contains("needs the cmp column"));
}

/// A SOPP row with the interp cell `interp`.
fn sopp(interp: &'static str) -> RowFacts<'static> {
    RowFacts {
        interp,
        ..scalar("sopp", None)
    }
}

#[test]
fn sopp_rows_say_what_they_are_and_agree_with_the_interpreter() {
    assert!(err(&sopp("nop"), "-").contains("needs its lowering in the jit column"));
    assert_eq!(jit_cell(&sopp("nop"), "nop").as_deref(), Ok("nop"));
    assert_eq!(jit_cell(&sopp("end"), "end").as_deref(), Ok("end"));
    assert_eq!(
        jit_cell(&sopp("barrier"), "barrier").as_deref(),
        Ok("barrier")
    );
    assert!(err(&sopp("nop"), "end").contains("end needs the interp cell end"));
    assert_eq!(
        jit_cell(&sopp("branch(sopp::vccnz)"), "branch(vccnz)").as_deref(),
        Ok("branch(Vccnz)")
    );
    // A branch the interpreter takes on another condition, or does not take, is refused.
    assert!(err(&sopp("branch(sopp::vccz)"), "branch(vccnz)")
        .contains("needs the interp cell branch(sopp::vccnz)"));
    assert!(err(&sopp("nop"), "branch(always)").contains("needs the interp cell"));
    assert_eq!(
        jit_cell(&sopp("unsupported"), "branch(debugger)").as_deref(),
        Ok("branch(Debugger)")
    );
    assert!(err(&sopp("branch(sopp::scc2)"), "branch(scc2)").contains("unknown branch condition"));
    assert!(err(&sopp("nop"), "sopp(nop)").contains("a SOPP row's lowering is"));
}
