//! CLRX spellings as a user writes them: on/off modifiers with a value (`clamp:0`, `glc:1`,
//! `vop3:0`: 1 turns the flag on, 0 leaves it off, anything else is an error), a modifier
//! given twice (an error, as llvm-mc), short buffer formats (`format:[8_8,uint]`), the
//! integer compare names `lg`/`tru`, and `exp` with a comma after the target. Expected words
//! are llvm-mc-19's (`-mcpu=fiji -show-encoding`) for the same instruction in LLVM's words.

use wavejit_isa::gcn::asm::assemble;
use wavejit_isa::gcn::fmt::{listing, Syntax};
use wavejit_isa::Gen;

fn words(text: &str) -> Vec<u32> {
    assemble(Gen::Gfx8, text)
        .unwrap_or_else(|e| panic!("`{text}`: {e}"))
        .words()
}

#[test]
fn a_flag_with_zero_is_off_and_with_one_is_on() {
    // llvm-mc: v_add_f32_e64 v154, v21, v107 mul:2 → 9a 00 01 d1 15 d7 02 08.
    let mul2 = vec![0xd101_009a, 0x0802_d715];
    assert_eq!(words("v_add_f32 v154, v21, v107 mul:2 clamp:0"), mul2);
    // clamp is bit 15 of the first word (llvm-mc: `v_add_f32_e64 v1, v2, v3 clamp` → 01 80 01 d1).
    assert_eq!(
        words("v_add_f32 v154, v21, v107 mul:2 clamp:1"),
        vec![0xd101_809a, 0x0802_d715]
    );
    // llvm-mc: buffer_load_dword v1, off, s[4:7], s1 [glc] → 00 [40|00] 50 e0 00 01 01 01.
    assert_eq!(
        words("buffer_load_dword v1, off, s[4:7], s1 glc:0"),
        vec![0xe050_0000, 0x0101_0100]
    );
    assert_eq!(
        words("buffer_load_dword v1, off, s[4:7], s1 glc:1"),
        vec![0xe050_4000, 0x0101_0100]
    );
    // `vop3:0` does not ask for VOP3: llvm-mc v_add_f32_e32 v1, v2, v3 → 02 07 02 02.
    assert_eq!(words("v_add_f32 v1, v2, v3 vop3:0"), vec![0x0202_0702]);
    assert_eq!(
        words("v_add_f32 v1, v2, v3 vop3:1"),
        vec![0xd101_0001, 0x0002_0702]
    );
}

#[test]
fn other_values_and_repeated_modifiers_are_errors() {
    for bad in [
        "v_add_f32 v154, v21, v107 mul:2 clamp:5",
        "buffer_load_dword v1, off, s[4:7], s1 glc:2",
        "buffer_load_dword v1, off, s[4:7], s1 glc glc",
        "ds_write2_b32 v2, v4, v6 offset0:4 offset0:8",
        "v_add_f32_e64 v1, v2, v3 clamp clamp",
    ] {
        assert!(assemble(Gen::Gfx8, bad).is_err(), "`{bad}` assembles");
    }
}

#[test]
fn clrx_names_formats_and_export_targets() {
    // llvm-mc: ... format:[BUF_DATA_FORMAT_8_8,BUF_NUM_FORMAT_UINT] → 00 00 18 ea 00 01 01 01.
    let uint88 = vec![0xea18_0000, 0x0101_0100];
    assert_eq!(
        words("tbuffer_load_format_x v1, off, s[4:7], s1 format:[8_8,uint]"),
        uint88
    );
    // format:[BUF_NUM_FORMAT_SINT] → 00 00 88 ea 00 01 01 01.
    assert_eq!(
        words("tbuffer_load_format_x v1, off, s[4:7], s1 format:[sint]"),
        vec![0xea88_0000, 0x0101_0100]
    );
    // v_cmp_ne_i32_e32 vcc, v1, v2 → 01 05 8a 7d; v_cmpx_t_u64_e32 → 01 05 fe 7d;
    // v_cmp_lg_f32_e32 (a float condition of its own) → 01 05 8a 7c.
    assert_eq!(words("v_cmp_lg_i32 vcc, v1, v2"), vec![0x7d8a_0501]);
    assert_eq!(
        words("v_cmpx_tru_u64 vcc, v[1:2], v[2:3]"),
        vec![0x7dfe_0501]
    );
    assert_eq!(words("v_cmp_lg_f32 vcc, v1, v2"), vec![0x7c8a_0501]);
    // exp param5 v116, v1, off, off → 53 02 00 c4 74 01 00 00; CLRX writes a comma after
    // the target, and wavejit's CLRX listing prints it so.
    let exp = vec![0xc400_0253, 0x0000_0174];
    assert_eq!(words("exp param5, v116, v1, off, off"), exp);
    let bytes: Vec<u8> = exp.iter().flat_map(|w| w.to_le_bytes()).collect();
    let text = &listing(Gen::Gfx8, &bytes, Syntax::Clrx)[0].text;
    assert!(text.starts_with("exp param5, v116, v1"), "{text}");
    assert_eq!(words(text), exp);
}
