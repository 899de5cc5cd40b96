//! Fields that sit where a source operand would but hold immediates, through the assembler,
//! the encoder, the decoder and the printer alike:
//! - `s_set_gpr_idx_on`'s SSRC1 is the 4-bit VGPR index mode (AMD's GCN3 manual: M0[15:12] =
//!   SIMM4): no literal is read for it, and only 0-15 exist; its SSRC0 is a real source.
//! - `s_set_gpr_idx_mode` holds the same mode in SIMM16.
//! - `s_setreg_imm32_b32` always carries its literal; `s_cbranch_g_fork` reads two sources.
//!
//! Words are worked out by hand: SOPC = `0xBF00_0000 | op << 16 | ssrc1 << 8 | ssrc0` (op 17
//! on GCN 1.2), SOPP = `0xBF80_0000 | op << 16 | simm16` (op 29), SOPK = `0xB000_0000 |
//! op << 23 | sdst << 16 | simm16` (op 21 on GCN 1.0/1.1, 20 on 1.2), SOP2 = `0x8000_0000 |
//! op << 23 | sdst << 16 | ssrc1 << 8 | ssrc0` (g_fork: op 43 / 41); gpr_idx bits SRC0 1,
//! SRC1 2, SRC2 4, DST 8; hwreg(HW_REG_MODE) = id 1 | (32 - 1) << 11 = 0xF801.

use wavejit_isa::error::DecodeErrorKind;
use wavejit_isa::gcn::asm::{assemble, assemble_inst};
use wavejit_isa::gcn::fmt::{format, Syntax};
use wavejit_isa::gcn::{decode, encode, EncodeError, Fields, Src};
use wavejit_isa::Gen;

fn bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// `text` assembles to `words` on `gen`, and `words` decode and print (LLVM syntax) as
/// `text`, which assembles back to the same instruction.
fn both_ways(gen: Gen, text: &str, words: &[u32]) {
    let a = assemble(gen, text).unwrap_or_else(|e| panic!("{gen} `{text}`: {e}"));
    assert_eq!(a.words(), words, "{gen} `{text}` assembles");
    let (inst, size) =
        decode(gen, &bytes(words), 0).unwrap_or_else(|e| panic!("{gen} `{text}`: {e}"));
    assert_eq!(size as usize, words.len() * 4, "{gen} `{text}` size");
    assert_eq!(
        encode(gen, &inst).expect("encodes"),
        words,
        "{gen} `{text}`"
    );
    assert_eq!(format(gen, &inst, 0, Syntax::Llvm), text, "{gen} prints");
    let clrx = format(gen, &inst, 0, Syntax::Clrx);
    assert_eq!(
        assemble_inst(gen, &clrx).expect("CLRX text assembles"),
        inst,
        "{gen} `{clrx}`"
    );
}

#[test]
fn the_gpr_index_mode_is_an_immediate_not_a_source() {
    let g = Gen::Gfx8;
    both_ways(g, "s_set_gpr_idx_on s2, gpr_idx(SRC0,DST)", &[0xBF11_0902]);
    // The literal belongs to SSRC0 (255), not to the mode.
    both_ways(
        g,
        "s_set_gpr_idx_on 0x12345678, gpr_idx(SRC0,DST)",
        &[0xBF11_09FF, 0x1234_5678],
    );
    both_ways(g, "s_set_gpr_idx_on s0, gpr_idx()", &[0xBF11_0000]);
    both_ways(g, "s_set_gpr_idx_mode gpr_idx(SRC1,SRC2)", &[0xBF9D_0006]);
    // A number is the mode itself.
    assert_eq!(
        assemble(g, "s_set_gpr_idx_on s2, 9")
            .expect("assembles")
            .words(),
        [0xBF11_0902]
    );
    assert_eq!(
        assemble(g, "s_set_gpr_idx_mode 15")
            .expect("assembles")
            .words(),
        [0xBF9D_000F]
    );
    // Modes beyond 4 bits do not exist: the assembler refuses them, the decoder rejects the
    // words, the encoder the fields.
    for (src, col) in [
        ("s_set_gpr_idx_on s0, 16", 22),
        ("s_set_gpr_idx_on s0, 255", 22),
        ("s_set_gpr_idx_mode 16", 20),
    ] {
        let e = assemble(g, src).expect_err(src);
        assert_eq!((e.line, e.col), (1, col), "`{src}`: {e}");
        assert!(e.msg.contains("out of range 0..15"), "`{src}`: {e}");
    }
    for (w, value) in [
        ([0xBF11_FF00u32, 0x1234_5678], 255),
        ([0xBF11_1000, 0], 16),
        ([0xBF9D_0010, 0], 16),
    ] {
        let e = decode(g, &bytes(&w), 0).expect_err("mode > 15");
        assert_eq!(
            e.kind,
            DecodeErrorKind::BadField {
                field: "gpr_idx",
                value
            },
            "{w:08x?}"
        );
    }
    let mut inst = decode(g, &bytes(&[0xBF11_0902]), 0).expect("decodes").0;
    inst.fields = Fields::Sopc {
        ssrc0: Src(2),
        ssrc1: Src(16),
    };
    assert_eq!(
        encode(g, &inst),
        Err(EncodeError::Invalid {
            mnemonic: "s_set_gpr_idx_on",
            kind: DecodeErrorKind::BadField {
                field: "gpr_idx",
                value: 16
            }
        }),
        "mode 16 encodes"
    );
}

#[test]
fn setreg_imm32_always_has_its_literal_and_g_fork_reads_sources() {
    for (gen, op) in [(Gen::Gfx6, 21u32), (Gen::Gfx7, 21), (Gen::Gfx8, 20)] {
        both_ways(
            gen,
            "s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x12345678",
            &[0xB000_0000 | op << 23 | 0xF801, 0x1234_5678],
        );
    }
    for (gen, op) in [(Gen::Gfx6, 43u32), (Gen::Gfx7, 43), (Gen::Gfx8, 41)] {
        both_ways(
            gen,
            "s_cbranch_g_fork s[2:3], s[4:5]",
            &[0x8000_0000 | op << 23 | 4 << 8 | 2],
        );
        // A literal source is read as one (llvm-mc disassembles such words the same way).
        let w = [0x8000_0000 | op << 23 | 4 << 8 | 0xFF, 0x1234_5678];
        let (inst, size) = decode(gen, &bytes(&w), 0).expect("decodes");
        assert_eq!((size, inst.literal), (8, Some(0x1234_5678)), "{gen}");
        assert_eq!(encode(gen, &inst).expect("encodes"), w, "{gen}");
    }
}
