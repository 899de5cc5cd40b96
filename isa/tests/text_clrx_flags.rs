//! CLRX spellings as a user writes them: on/off modifiers with a value (`clamp:0`, `glc:1`,
//! `vop3:0`: 1 turns the flag on, 0 leaves it off, anything else is an error), a modifier
//! given twice (an error, as llvm-mc), short buffer formats (`format:[8_8,uint]`), the
//! integer compare names `lg`/`tru` (accepted, and printed by the CLRX listing as CLRX's
//! disassembler prints them), `exp` with a comma after the target, `@expr` raw values,
//! `_e64` on scalar instructions (the literal form), and `_sdwa` lines with CLRX's selector
//! spellings (CLRX's UNUSED_PAD default). Expected words are llvm-mc-19's (`-mcpu=fiji
//! -show-encoding`) for the same instruction in LLVM's words.

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

#[test]
fn clrx_listing_names_integer_compares_lg_and_tru() {
    // CLRX's instruction table names the integer compares ne/t `lg`/`tru` (GCNInstructions:
    // `v_cmp_lg_u32`, `v_cmpx_tru_u64`); llvm-mc's words for the same: v_cmp_ne_i32_e32 vcc,
    // v1, v2 → 7d8a0501; v_cmp_t_u32_e32 → 7d9e0501; v_cmpx_ne_u64_e64 s[0:1], v[1:2],
    // v[3:4] → d0fd0000 00020701. Float compares keep their names (v_cmp_lg_f32 → 7c8a0501).
    for (w, clrx, llvm) in [
        (
            vec![0x7d8a_0501u32],
            "v_cmp_lg_i32 vcc, v1, v2",
            "v_cmp_ne_i32_e32 vcc, v1, v2",
        ),
        (
            vec![0x7d9e_0501],
            "v_cmp_tru_u32 vcc, v1, v2",
            "v_cmp_t_u32_e32 vcc, v1, v2",
        ),
        (
            vec![0xd0fd_0000, 0x0002_0701],
            "v_cmpx_lg_u64 s[0:1], v[1:2], v[3:4]",
            "v_cmpx_ne_u64_e64 s[0:1], v[1:2], v[3:4]",
        ),
        (
            vec![0x7c8a_0501],
            "v_cmp_lg_f32 vcc, v1, v2",
            "v_cmp_lg_f32_e32 vcc, v1, v2",
        ),
    ] {
        let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(listing(Gen::Gfx8, &bytes, Syntax::Clrx)[0].text, clrx);
        assert_eq!(listing(Gen::Gfx8, &bytes, Syntax::Llvm)[0].text, llvm);
        assert_eq!(words(clrx), w, "{clrx}");
    }
}

#[test]
fn at_sign_gives_a_raw_value() {
    // `@expr` is the expression's integer value: v_add_f32_e32 v1, -1, v2 → 020204c1;
    // v_add_f32_e64 v1, 6, v2 → d1010001 00020486.
    assert_eq!(words("v_add_f32 v1, @-1, v2"), vec![0x0202_04c1]);
    assert_eq!(
        words("v_add_f32_e64 v1, @2*3, v2"),
        vec![0xd101_0001, 0x0002_0486]
    );
    // hwreg(@5, 0, 32): register id 5 (s_getreg_b32 s2, hwreg(5, 0, 32) → b882f805).
    assert_eq!(
        words("s_getreg_b32 s2, hwreg(@5, 0, 32)"),
        vec![0xb882_f805]
    );
    // format:[@3, uint] is data format 3 (BUF_DATA_FORMAT_8_8) → ea180000 01010100, while
    // a plain number is a format name (`[32]` = BUF_DATA_FORMAT_32, 4).
    assert_eq!(
        words("tbuffer_load_format_x v1, off, s[4:7], s1 format:[@3,uint]"),
        vec![0xea18_0000, 0x0101_0100]
    );
    assert_eq!(
        words("tbuffer_load_format_x v1, off, s[4:7], s1 format:[@3,@4]"),
        vec![0xea18_0000, 0x0101_0100]
    );
    // `@v2` and `format:[@16,..]` are refused: rows of asm_errors.txt.
}

#[test]
fn e64_on_scalar_instructions_is_the_literal_form() {
    // SOP2 = 0x80000000 | OP << 23 | SDST << 16 | SSRC1 << 8 | SSRC0 (s_add_u32 is OP 0);
    // llvm-mc: s_add_u32 s1, s2, 0x12345 → 8001ff02 00012345, s_add_u32 s1, s2, 5 →
    // 80018502. `_e64` moves the inline constant into the literal dword.
    assert_eq!(words("s_add_u32 s1, s2, 5"), vec![0x8001_8502]);
    assert_eq!(words("s_add_u32_e64 s1, s2, 5"), vec![0x8001_ff02, 5]);
    // s_mov_b32 s1, 0x3f800001 → be8100ff; 1.0 as a literal is 0x3f800000.
    assert_eq!(
        words("s_mov_b32_e64 s1, 1.0"),
        vec![0xbe81_00ff, 0x3f80_0000]
    );
    // SOPC: s_cmp_eq_u32 s1, -3 → bf06c301; as a literal SSRC1 = 255.
    assert_eq!(
        words("s_cmp_eq_u32_e64 s1, -3"),
        vec![0xbf06_ff01, 0xffff_fffd]
    );
    // Without a constant there is no two-dword form; SOPP/SOPK/SMEM take no `_e64`
    // (rows of asm_errors.txt).
}

#[test]
fn sdwa_suffix_with_clrx_selectors_keeps_clrx_defaults() {
    // llvm-mc takes only `WORD_1`-style selectors; a line spelled `word1`/`w1`/`dword` is
    // CLRX's, whose DST_UNUSED default is UNUSED_PAD (ERRATA SDWA 10). llvm-mc:
    // v_add_f32_sdwa v1, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD
    // src1_sel:DWORD → 020206f9 06060502; with LLVM's default (UNUSED_PRESERVE) → 06061502.
    let pad = vec![0x0202_06f9, 0x0606_0502];
    assert_eq!(words("v_add_f32_sdwa v1, v2, v3 dst_sel:word1"), pad);
    assert_eq!(
        words("v_add_f32_sdwa v1, v2, v3 dst_sel:w1 src0_sel:dword"),
        pad
    );
    assert_eq!(words("v_add_f32 v1, v2, v3 dst_sel:word_1"), pad);
    assert_eq!(
        words("v_add_f32_sdwa v1, v2, v3 dst_sel:WORD_1"),
        vec![0x0202_06f9, 0x0606_1502]
    );
}

#[test]
fn llvm_structured_hwreg() {
    // llvm-mc: s_getreg_b32 s2, {id: 51, offset: 1, size: 31} → b882f073 (= hwreg(51, 1,
    // 31)); `{}` is id 0, offset 0, size 32 → b882f800.
    assert_eq!(
        words("s_getreg_b32 s2, {id: 51, offset: 1, size: 31}"),
        vec![0xb882_f073]
    );
    assert_eq!(
        words("s_getreg_b32 s2, {size: 32, id: 51}"),
        vec![0xb882_f833]
    );
    assert_eq!(words("s_getreg_b32 s2, {}"), vec![0xb882_f800]);
    // Bad fields, repeats and an unclosed brace: rows of asm_errors.txt.
}
