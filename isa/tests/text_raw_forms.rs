//! Words the decoder keeps but whose friendly spelling the assembler refuses, as LLVM does
//! (docs/assembler-choices.md): their text writes the refused register as the raw code
//! `src(N)`, which assembles back to the same word. Words are worked out by hand from the
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
