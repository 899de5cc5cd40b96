//! Which operations have SDWA and DPP forms is one column of the table (`forms`), read by the
//! decoder, the printer, the assembler and the program generator alike. Expected words are
//! llvm-mc-19's (`-mcpu=tonga -show-encoding`), which also rejects the forms marked absent.

use wavejit_isa::gcn::asm::assemble;
use wavejit_isa::gcn::decode;
use wavejit_isa::gcn::fmt::{format, Syntax};
use wavejit_isa::Gen;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Assembles to `want`, decodes back, and prints (either syntax) text that assembles to
/// the same words without a `.long` fallback.
fn round_trip(text: &str, want: &[u32]) {
    let a = assemble(Gen::Gfx8, text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
    assert_eq!(a.words(), want, "`{text}`");
    let (inst, size) = decode(Gen::Gfx8, &bytes(want), 0).expect("decodes");
    assert_eq!(size as usize, want.len() * 4);
    for sx in [Syntax::Clrx, Syntax::Llvm] {
        let t = format(Gen::Gfx8, &inst, 0, sx);
        assert!(!t.contains(".long"), "{sx:?} prints `{t}`");
        let b = assemble(Gen::Gfx8, &t).unwrap_or_else(|e| panic!("`{t}`: {e}"));
        assert_eq!(b.words(), want, "{sx:?} `{t}`");
    }
}

#[test]
fn v_nop_has_dpp_and_sdwa_forms() {
    // llvm-mc-19: fa 00 00 7e 00 e4 00 ff
    round_trip(
        "v_nop_dpp quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
        &[0x7e00_00fa, 0xff00_e400],
    );
    // llvm-mc-19: f9 00 00 7e 00 00 00 00
    round_trip("v_nop_sdwa", &[0x7e00_00f9, 0x0000_0000]);
}

#[test]
fn forms_llvm_rejects_are_rejected_everywhere() {
    // The assembler's refusals (llvm-mc-19: "sdwa/dpp variant of this instruction is not
    // supported") are rows of tests/data/gcn/text/asm_errors.txt.
    // The same words do not decode (v_clrexcp is VOP1 opcode 0x35 on GCN 1.2).
    for words in [[0x7e00_6afa_u32, 0xff00_e400], [0x7e00_6af9, 0]] {
        let e = decode(Gen::Gfx8, &bytes(&words), 0).expect_err("v_clrexcp SDWA/DPP");
        assert!(
            matches!(e.kind, wavejit_isa::DecodeErrorKind::NotInGeneration { .. }),
            "{e:?}"
        );
    }
}
