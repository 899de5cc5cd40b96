//! Words the decoder keeps but whose friendly spelling the assembler refuses, as LLVM does
//! (docs/assembler-choices.md): their text writes the refused register or constant as the
//! raw code `src(N)` (a literal as `lit(V)`, an output modifier as `omod:N`), which
//! assembles back to the same word. Words are worked out by hand from the
//! GCN 1.2 layouts:
//! - SMEM: word 0 = 0xC000_0000 | OP << 18 | IMM << 17 | SDATA << 6 | SBASE / 2, word 1 =
//!   OFFSET (an SGPR when IMM = 0); `s_load_dword` is OP 0, `s_memtime` OP 36.
//! - VINTRP in VOP3: word 0 = 0xD000_0000 | OP << 16 | VDST, word 1 = SRC0 | SRC1 << 9 |
//!   SRC2 << 18; `v_interp_p1_f32` is VOP3 OP 624 (0x270), SRC0 the attribute (attr N
//!   channel C = N | C << 6).

use wavejit_isa::gcn::asm::assemble;
use wavejit_isa::gcn::decode;
use wavejit_isa::gcn::fmt::{format, Syntax};
use wavejit_isa::Gen;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// `friendly` is refused; the word decodes, prints `raw` (in CLRX syntax `clrx`, when
/// given), and that text assembles back to it.
fn raw_round_trip(friendly: &str, raw: &str, want: &[u32]) {
    raw_round_trip2(friendly, raw, raw, want)
}

fn raw_round_trip2(friendly: &str, clrx: &str, raw: &str, want: &[u32]) {
    let e = assemble(Gen::Gfx8, friendly).expect_err(friendly);
    assert!(e.to_string().contains("src(N)"), "`{friendly}`: {e}");
    let (inst, size) = decode(Gen::Gfx8, &bytes(want), 0).expect("decodes");
    assert_eq!(size as usize, want.len() * 4);
    for (sx, text) in [(Syntax::Clrx, clrx), (Syntax::Llvm, raw)] {
        let t = format(Gen::Gfx8, &inst, 0, sx);
        assert_eq!(t, text, "{sx:?}");
        let a = assemble(Gen::Gfx8, text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
        assert_eq!(a.words(), want, "`{text}`");
    }
}

#[test]
fn m0_and_exec_as_scalar_memory_data_print_raw() {
    // SDATA = 124 (M0), SBASE = s[0:1], OFFSET = s4.
    raw_round_trip(
        "s_load_dword m0, s[0:1], s4",
        "s_load_dword src(124), s[0:1], s4",
        &[0xC000_1F00, 4],
    );
    // s_memtime OP 36, SDATA = 126 (EXEC).
    raw_round_trip("s_memtime exec", "s_memtime src(126)", &[0xC090_1F80, 0]);
}

#[test]
fn scalar_interpolation_sources_print_raw() {
    // v_interp_p1_f32_e64 v5, s1, attr0.w: VDST 5, SRC0 = 0xC0, SRC1 = 1.
    raw_round_trip2(
        "v_interp_p1_f32_e64 v5, s1, attr0.w",
        "v_interp_p1_f32 v5, src(1), attr0.w vop3",
        "v_interp_p1_f32_e64 v5, src(1), attr0.w",
        &[0xD270_0005, 0x0000_02C0],
    );
}

#[test]
fn llvm_spellings_assemble() {
    // LLVM's own test lines with llvm-mc-19's words (tests/data/gcn/llvm_tests/lines.tsv).
    for (text, want) in [
        ("s_sub_u32 s0, s0, -2+1", &[0x8080_C100u32][..]),
        ("v_add_f16 v1, 0xffff, v2", &[0x3E02_04C1]),
        (
            "v_fract_f64_e32 v[0:1], -54321",
            &[0x7E00_64FF, 0xFFFF_2BCF],
        ),
        ("v_sqrt_f32 v2, abs(lit(123))", &[0x7E04_4EFF, 0x7B]),
        (
            "v_cvt_f16_u16_e64 v5, s1 noclamp",
            &[0xD179_0005, 0x0000_0001],
        ),
        (
            "v_interp_p1_f32 v5, v2, attr0.x clamp",
            &[0xD270_8005, 0x0002_0400],
        ),
    ] {
        let a = assemble(Gen::Gfx8, text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
        assert_eq!(a.words(), want, "`{text}`");
    }
}

/// As `raw_round_trip2`, for refusals whose message names `hint` (the raw spelling).
fn raw_round_trip_hint(friendly: &str, clrx: &str, llvm: &str, hint: &str, want: &[u32]) {
    let e = assemble(Gen::Gfx8, friendly).expect_err(friendly);
    assert!(e.to_string().contains(hint), "`{friendly}`: {e}");
    let (inst, size) = decode(Gen::Gfx8, &bytes(want), 0).expect("decodes");
    assert_eq!(size as usize, want.len() * 4);
    for (sx, text) in [(Syntax::Clrx, clrx), (Syntax::Llvm, llvm)] {
        let t = format(Gen::Gfx8, &inst, 0, sx);
        assert_eq!(t, text, "{sx:?}");
        let a = assemble(Gen::Gfx8, text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
        assert_eq!(a.words(), want, "`{text}`");
    }
}

#[test]
fn constants_where_registers_are_read_print_raw() {
    // SOP1 = 0xBE80_0000 | SDST << 16 | OP << 8 | SSRC0; GCN 1.2 s_setpc_b64 is OP 0x1D
    // (llvm-mc: s_setpc_b64 s[0:1] → be801d00); SSRC0 = 128 is the constant 0.
    raw_round_trip("s_setpc_b64 0", "s_setpc_b64 src(128)", &[0xBE80_1D80]);
    // s_cbranch_join OP 0x2E: the constant 1 is code 129.
    raw_round_trip(
        "s_cbranch_join 1",
        "s_cbranch_join src(129)",
        &[0xBE80_2E81],
    );
    // SOP2 = 0x8000_0000 | OP << 23 | SDST << 16 | SSRC1 << 8 | SSRC0; s_cbranch_g_fork
    // s[6:7], s[8:9] → 94800806 (llvm-mc). Inline constants are taken (LLVM takes them);
    // a literal (SSRC1 = 255) is not, and prints as lit(V).
    assert_eq!(
        assemble(Gen::Gfx8, "s_cbranch_g_fork s[6:7], 2")
            .expect("inline constant")
            .words(),
        vec![0x9480_8206]
    );
    raw_round_trip_hint(
        "s_cbranch_g_fork s[6:7], 100",
        "s_cbranch_g_fork s[6:7], lit(0x64)",
        "s_cbranch_g_fork s[6:7], lit(0x64)",
        "lit(V)",
        &[0x9480_FF06, 100],
    );
    // VOP3 v_addc_u32 (llvm-mc: v_addc_u32_e64 v1, s[0:1], v2, v3, s[4:5] → d11c0001
    // 00120702): SRC2 = 128 (the constant 0) as the carry-in.
    raw_round_trip_hint(
        "v_addc_u32_e64 v1, s[0:1], v2, v3, 0",
        "v_addc_u32 v1, s[0:1], v2, v3, src(128)",
        "v_addc_u32_e64 v1, s[0:1], v2, v3, src(128)",
        "src(N)",
        &[0xD11C_0001, 0x0202_0702],
    );
    // v_cndmask_b32_e64 v1, v2, v3, s[4:5] → d1000001 00120702; SRC2 = 193 (-1).
    raw_round_trip_hint(
        "v_cndmask_b32_e64 v1, v2, v3, -1",
        "v_cndmask_b32 v1, v2, v3, src(193)",
        "v_cndmask_b32_e64 v1, v2, v3, src(193)",
        "src(N)",
        &[0xD100_0001, 0x0306_0702],
    );
}

#[test]
fn output_modifiers_llvm_refuses_print_raw() {
    // VOP3 word 1 has OMOD at bits 27-28; v_cmp_eq_f32_e64 vcc, v0, v1 → d042006a
    // 00020300 (llvm-mc), OMOD = 1 (mul:2) adds 0x0800_0000.
    raw_round_trip_hint(
        "v_cmp_eq_f32_e64 vcc, v0, v1 mul:2",
        "v_cmp_eq_f32 vcc, v0, v1 omod:1",
        "v_cmp_eq_f32_e64 vcc, v0, v1 omod:1",
        "omod:N",
        &[0xD042_006A, 0x0802_0300],
    );
    // v_interp_p2_f16 v5, v2, attr1.x, v3 clamp → d2768005 040e0401 (llvm-mc); without
    // clamp and with OMOD = 1.
    raw_round_trip_hint(
        "v_interp_p2_f16 v5, v2, attr1.x, v3 mul:2",
        "v_interp_p2_f16 v5, v2, attr1.x, v3 omod:1",
        "v_interp_p2_f16 v5, v2, attr1.x, v3 omod:1",
        "omod:N",
        &[0xD276_0005, 0x0C0E_0401],
    );
    // Other operations keep mul:2 (v_add_f32_e64 v1, v2, v3 mul:2 → d1010001 08020702).
    assert_eq!(
        assemble(Gen::Gfx8, "v_add_f32_e64 v1, v2, v3 mul:2")
            .expect("mul:2")
            .words(),
        vec![0xD101_0001, 0x0802_0702]
    );
}

#[test]
fn savewave_is_gcn_1_2s_message() {
    // SOPP = 0xBF80_0000 | OP << 16 | SIMM16; s_sendmsg is OP 16; MSG_SAVEWAVE is id 4.
    assert_eq!(
        assemble(Gen::Gfx8, "s_sendmsg sendmsg(MSG_SAVEWAVE)")
            .expect("gfx8")
            .words(),
        vec![0xBF90_0004]
    );
    for gen in [Gen::Gfx6, Gen::Gfx7] {
        let e = assemble(gen, "s_sendmsg sendmsg(MSG_SAVEWAVE)").unwrap_err();
        assert_eq!(
            (e.col, e.msg),
            (11, format!("MSG_SAVEWAVE does not exist on {gen}"))
        );
        assert_eq!(
            assemble(gen, "s_sendmsg 4").expect("raw").words(),
            vec![0xBF90_0004]
        );
    }
}
