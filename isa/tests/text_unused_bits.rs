//! Every decodable word has a text form: the decoder rejects the bits no syntax has a place
//! for (tests/data/gcn/invalid.txt lists them: MIMG/EXP reserved bits, an unused SSAMP or
//! EXP source, a buffer VADDR without offen/idxen/addr64, VOP1 DPP's SRC1 NEG/ABS), so that
//! what it accepts prints as an instruction, never as `.long`, and assembles back.
//!
//! Here the fields that *are* used are swept exhaustively for EXP and MIMG, and the buffer
//! forms that LLVM writes with an extra register (a load's TFE status dword) are checked
//! against words worked out by hand: MUBUF w0 = `0xE000_0000 | op << 18 | flags`, w1 = VADDR
//! | VDATA << 8 | SRSRC/4 << 16 | TFE << 23 | SOFFSET << 24.

mod text_util;

use text_util::assert_no_fails;
use wavejit_isa::gcn::asm::{assemble, assemble_inst};
use wavejit_isa::gcn::fmt::mem::mimg_has_d16;
use wavejit_isa::gcn::fmt::{format, Syntax};
use wavejit_isa::gcn::table::{TableEnc, ROWS};
use wavejit_isa::gcn::{decode, encode};
use wavejit_isa::Gen;

fn bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// `words` decode, print in both syntaxes as instructions (not `.long`), and each text
/// assembles back to the same instruction and words. Returns a failure message.
fn prints_and_returns(gen: Gen, words: &[u32]) -> Option<String> {
    let (inst, size) = match decode(gen, &bytes(words), 0) {
        Ok(x) => x,
        Err(e) => return Some(format!("{gen} {words:08x?}: does not decode: {e}")),
    };
    if size as usize != words.len() * 4 {
        return Some(format!("{gen} {words:08x?}: size {size}"));
    }
    for sx in [Syntax::Llvm, Syntax::Clrx] {
        let t = format(gen, &inst, 0, sx);
        if t.starts_with(".long") {
            return Some(format!("{gen} {words:08x?}: {sx:?} falls back: {t}"));
        }
        match assemble_inst(gen, &t) {
            Ok(back) if back == inst => {}
            Ok(back) => return Some(format!("{gen} `{t}` assembles to {back:?}")),
            Err(e) => return Some(format!("{gen} `{t}`: {e}")),
        }
        if encode(gen, &inst).ok().as_deref() != Some(words) {
            return Some(format!("{gen} `{t}` does not encode to {words:08x?}"));
        }
    }
    None
}

#[test]
fn every_export_with_used_fields_only_prints_as_text() {
    // EN 3:0, TGT 9:4 (the 46 that exist: MRT0-7, MRTZ, NULL, POS0-3, PARAM0-31), COMPR 10, DONE 11, VM 12; sources v1-v4 where read.
    let targets: Vec<u32> = (0..64)
        .filter(|t| !matches!(t, 10 | 11 | 16..=31))
        .collect();
    assert_eq!(targets.len(), 8 + 2 + 4 + 32);
    let mut fails = Vec::new();
    let mut n = 0;
    for gen in Gen::ALL {
        let tag = if gen == Gen::Gfx8 {
            0xC400_0000u32
        } else {
            0xF800_0000
        };
        for &tgt in &targets {
            for flags in 0..32u32 {
                let (en, compr, done, vm) = (flags & 15, flags >> 4 & 1, tgt & 1, tgt >> 1 & 1);
                let w0 = tag | en | tgt << 4 | compr << 10 | done << 11 | vm << 12;
                let mut w1 = 0;
                for i in 0..4 {
                    let used = if compr == 1 {
                        i < 2 && en >> (2 * i) & 3 != 0
                    } else {
                        en >> i & 1 != 0
                    };
                    if used {
                        w1 |= (i + 1) << (8 * i);
                    }
                }
                n += 1;
                fails.extend(prints_and_returns(gen, &[w0, w1]));
            }
        }
    }
    assert_no_fails(&fails, &format!("of {n}"), 40);
}

#[test]
fn every_image_instruction_with_used_fields_only_prints_as_text() {
    // DMASK 11:8, UNORM 12, GLC 13, DA 14, R128 15, TFE 16, LWE 17, SLC 25 in all
    // 128 combinations; VADDR v4, VDATA v8, SRSRC s[8:…] (field 2), SSAMP s[12:15] (field 3)
    // when the operation samples; D16 (bit 63) on GCN 1.2.
    let mut fails = Vec::new();
    let mut n = 0;
    for gen in Gen::ALL {
        for r in ROWS.iter().filter(|r| r.enc == TableEnc::Mimg) {
            let Some(op) = r.opcode[gen.index()] else {
                continue;
            };
            let sampler = r.sig.split(',').count() == 4;
            for flags in 0..128u32 {
                // DMASK 0x1 with no flags and with all of them; 0xf with every combination.
                let dmasks: &[u32] = if flags == 0 || flags == 127 {
                    &[1, 0xf]
                } else {
                    &[0xf]
                };
                for &dmask in dmasks {
                    let f = |k: u32, at: u32| (flags >> k & 1) << at;
                    let w0 = 0xF000_0000
                        | dmask << 8
                        | f(0, 12)
                        | f(1, 13)
                        | f(2, 14)
                        | f(3, 15)
                        | f(4, 16)
                        | f(5, 17)
                        | (op as u32) << 18
                        | f(6, 25);
                    let w1 = 4 | 8 << 8 | 2 << 16 | if sampler { 3 << 21 } else { 0 };
                    let mut variants = vec![w1];
                    if gen == Gen::Gfx8 && mimg_has_d16(r.op) {
                        variants.push(w1 | 1 << 31);
                    }
                    for w1 in variants {
                        n += 1;
                        fails.extend(prints_and_returns(gen, &[w0, w1]));
                    }
                }
            }
        }
    }
    assert!(n > 3 * 80 * 128, "{n}");
    assert_no_fails(&fails, &format!("of {n}"), 40);
}

#[test]
fn a_load_with_tfe_names_its_status_register() {
    // gfx8 buffer_load_format_x (op 0) v[1:2] with TFE: w1 = 1 << 8 | 1 << 16 | 1 << 23 |
    // 1 << 24 = 0x01810100 (llvm-mc 19 writes the same text for these words).
    let cases: [(Gen, &str, [u32; 2]); 4] = [
        (
            Gen::Gfx8,
            "buffer_load_format_x v[1:2], off, s[4:7], s1 tfe",
            [0xE000_0000, 0x0181_0100],
        ),
        // gfx6 buffer_load_dword is op 12.
        (
            Gen::Gfx6,
            "buffer_load_dword v[1:2], off, s[4:7], s1 tfe",
            [0xE030_0000, 0x0181_0100],
        ),
        // A store's data is what it stores: TFE adds no register (gfx8 buffer_store_dword, op 28).
        (
            Gen::Gfx8,
            "buffer_store_dword v1, off, s[4:7], s1 tfe",
            [0xE070_0000, 0x0181_0100],
        ),
        // An MTBUF load likewise (gfx8 tbuffer_load_format_x, op 0, DFMT 1 at 22:19).
        (
            Gen::Gfx8,
            "tbuffer_load_format_x v[1:2], off, s[4:7], s1 tfe",
            [0xE808_0000, 0x0181_0100],
        ),
    ];
    for (gen, text, words) in cases {
        let a = assemble(gen, text).unwrap_or_else(|e| panic!("{gen} `{text}`: {e}"));
        assert_eq!(a.words(), words, "{gen} `{text}`");
        let (inst, _) = decode(gen, &bytes(&words), 0).expect("decodes");
        assert_eq!(format(gen, &inst, 0, Syntax::Llvm), text, "{gen}");
    }
    // Without the status register the TFE load does not assemble.
    let e = assemble(Gen::Gfx8, "buffer_load_format_x v1, off, s[4:7], s1 tfe").expect_err("v1");
    assert_eq!(e.col, 22, "{e}");
}
