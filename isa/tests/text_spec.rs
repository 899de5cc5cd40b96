//! The syntax of the spec documents: every example of 002 (SDWA, DPP), the modifier syntax
//! of 003 (VOP3) and 001 (VINTRP), and the encoding choice, each with words computed from the
//! documents' field tables by an independent script (`tests/data/gcn/text/spec_examples.py`).
//! Also whole programs: labels, branches, directives and comments.

mod text_util;

use text_util::{assert_no_fails, hex, table};
use wavejit_isa::gcn::asm::assemble;
use wavejit_isa::gcn::decode;
use wavejit_isa::gcn::fmt::{format, listing, Syntax};
use wavejit_isa::Gen;

#[test]
fn spec_examples_assemble_to_the_documented_fields() {
    let mut fails = Vec::new();
    let mut n = 0;
    for (i, c) in table("text/spec_examples.txt") {
        let c: Vec<&str> = c.iter().map(String::as_str).collect();
        let gen: Gen = c[0].parse().expect("gen");
        let want: Vec<u32> = c[2]
            .split_whitespace()
            .map(|w| u32::from_str_radix(w, 16).expect("hex"))
            .collect();
        n += 1;
        match assemble(gen, c[1]) {
            Ok(a) if a.words() == want => {
                // And back: the disassembly in either syntax assembles to the same words.
                let Ok((inst, _)) = decode(gen, &a.bytes, 0) else {
                    fails.push(format!("line {}: `{}` does not decode", i + 1, c[1]));
                    continue;
                };
                for sx in [Syntax::Clrx, Syntax::Llvm] {
                    let t = format(gen, &inst, 0, sx);
                    match assemble(gen, &t) {
                        Ok(b) if b.words() == want => {}
                        r => fails.push(format!(
                            "line {}: `{}` printed {sx:?} `{t}` → {:?}",
                            i + 1,
                            c[1],
                            r.map(|b| hex(&b.words()))
                        )),
                    }
                }
            }
            Ok(a) => fails.push(format!(
                "line {} ({}): `{}` → {}, want {}",
                i + 1,
                c[3],
                c[1],
                hex(&a.words()),
                c[2]
            )),
            Err(e) => fails.push(format!("line {} ({}): `{}`: {e}", i + 1, c[3], c[1])),
        }
    }
    assert_no_fails(&fails, &format!("of {n}"), fails.len());
}

#[test]
fn a_program_with_labels_directives_and_comments() {
    let src = "\
        .text                         // CLRX and LLVM comments both\n\
        start:  s_mov_b32 s0, 3        ; counter\n\
        loop:   v_add_f32 v1, v1, v2   # body\n\
                s_sub_u32 s0, s0, 1\n\
                s_cmp_lg_u32 s0, 0\n\
                s_cbranch_scc1 loop\n\
                s_branch end\n\
                .byte 0x11, 0x22\n\
                .short 0x3344\n\
        end:    s_endpgm\n\
                .int -1\n";
    let a = assemble(Gen::Gfx8, src).expect("assembles");
    // s_mov_b32 s0, 3: SOP1 be800000 | ssrc0 131 (inline 3).
    // v_add_f32_e32 v1, v1, v2: VOP2 op 1: 1<<25 | 1<<17 | 2<<9 | 257.
    // s_sub_u32 s0, s0, 1: SOP2 op 1: 0x80000000 | 1<<23 | ssrc1 129 << 8 | ssrc0 0.
    // s_cmp_lg_u32 s0, 0: SOPC op 7: bf000000 | 7<<16 | 128<<8 | 0.
    // s_cbranch_scc1 loop: at 0x10, target 0x4: (4 - 0x14) / 4 = -4 → bf85fffc.
    // s_branch end: at 0x14, `end` at 0x1c (after 4 bytes of data): (0x1c - 0x18)/4 = 1.
    let want: [u32; 8] = [
        0xbe80_0083,
        0x0202_0501,
        0x8080_8100,
        0xbf07_8000,
        0xbf85_fffc,
        0xbf82_0001,
        0x3344_2211,
        0xbf81_0000,
    ];
    let mut w = want.to_vec();
    w.push(0xffff_ffff);
    assert_eq!(a.words(), w, "{}", hex(&a.words()));
    assert_eq!(
        a.labels,
        vec![
            ("start".into(), 0),
            ("loop".into(), 4),
            ("end".into(), 0x1c)
        ]
    );
    assert_eq!(a.items.len(), 10);
    assert_eq!(a.items[4].text, "s_cbranch_scc1 loop");

    // The CLRX listing names the branch targets; assembled again it gives the same bytes.
    let lines = listing(Gen::Gfx8, &a.bytes, Syntax::Clrx);
    let text: Vec<String> = lines.iter().map(|l| l.text.clone()).collect();
    assert!(text.iter().any(|t| t == "s_cbranch_scc1 .L4"), "{text:?}");
    assert!(text.iter().any(|t| t == "s_branch .L28"), "{text:?}");
    assert!(
        text.iter()
            .any(|t| t.starts_with(".L4: v_add_f32 v1, v1, v2")),
        "{text:?}"
    );
    let again = assemble(Gen::Gfx8, &text.join("\n")).expect("listing assembles");
    assert_eq!(again.bytes, a.bytes);
    // LLVM syntax keeps numeric offsets.
    let llvm: Vec<String> = listing(Gen::Gfx8, &a.bytes, Syntax::Llvm)
        .into_iter()
        .map(|l| l.text)
        .collect();
    assert!(llvm.iter().any(|t| t == "s_cbranch_scc1 -4"), "{llvm:?}");
    let again = assemble(Gen::Gfx8, &llvm.join("\n")).expect("LLVM listing assembles");
    assert_eq!(again.bytes, a.bytes);
}

#[test]
fn listing_prints_undecodable_words_as_data() {
    // 0xffffffff decodes on no generation (tag 111111 is unassigned); the sweep goes on.
    let code: Vec<u8> = [0xffff_ffffu32, 0xbf81_0000]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    for gen in Gen::ALL {
        let l = listing(gen, &code, Syntax::Clrx);
        assert_eq!(l.len(), 2);
        assert!(
            l[0].text.starts_with(".long 0xffffffff //"),
            "{}",
            l[0].text
        );
        assert_eq!(l[1].text, "s_endpgm");
        assert_eq!(l[1].pc, 4);
    }
}
