//! Conformance of the assembler and disassembler against LLVM (llvm-mc 19), over every row of
//! every corpus file in `tests/data/gcn/` for GCN 1.0, 1.1 and 1.2:
//! - `assemble(row text)` gives the row's words exactly;
//! - decoding the words and printing them in LLVM syntax gives the row's text;
//! - printing in CLRX syntax and assembling that gives the same words again.

mod text_util;

use text_util::{hex, norm, rows, Failures, CORPORA};
use wavejit_isa::gcn::asm::assemble_inst;
use wavejit_isa::gcn::fmt::{format, Syntax};
use wavejit_isa::gcn::{decode, encode};

fn le_bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn llvm_text_assembles_to_the_corpus_words() {
    let mut f = Failures::default();
    for file in CORPORA {
        for r in rows(file) {
            f.checked += 1;
            match assemble_inst(r.gen, &r.text) {
                Err(e) => f.fail(&r, format!("assemble: {e}")),
                Ok(inst) => match encode(r.gen, &inst) {
                    Ok(w) if w == r.words => {}
                    Ok(w) => f.fail(&r, format!("assembled to {} ({inst:?})", hex(&w))),
                    Err(e) => f.fail(&r, format!("encode: {e} ({inst:?})")),
                },
            }
        }
    }
    f.finish("assemble(LLVM text)");
}

#[test]
fn corpus_words_print_as_the_llvm_text() {
    let mut f = Failures::default();
    for file in CORPORA {
        for r in rows(file) {
            f.checked += 1;
            match decode(r.gen, &le_bytes(&r.words), 0) {
                Err(e) => f.fail(&r, format!("decode: {e}")),
                Ok((inst, _)) => {
                    let t = format(r.gen, &inst, 0, Syntax::Llvm);
                    if norm(&t) != norm(&r.text) {
                        f.fail(&r, format!("printed `{t}`"));
                    }
                }
            }
        }
    }
    f.finish("format(LLVM)");
}

#[test]
fn llvm_text_prints_back_the_same() {
    // Independent of the decoder: text → instruction → text.
    let mut f = Failures::default();
    for file in CORPORA {
        for r in rows(file) {
            f.checked += 1;
            match assemble_inst(r.gen, &r.text) {
                Err(e) => f.fail(&r, format!("assemble: {e}")),
                Ok(inst) => {
                    let t = format(r.gen, &inst, 0, Syntax::Llvm);
                    if norm(&t) != norm(&r.text) {
                        f.fail(&r, format!("printed `{t}`"));
                    }
                }
            }
        }
    }
    f.finish("text → inst → LLVM text");
}

#[test]
fn clrx_text_assembles_to_the_same_words() {
    let mut f = Failures::default();
    for file in CORPORA {
        for r in rows(file) {
            f.checked += 1;
            let Ok((inst, _)) = decode(r.gen, &le_bytes(&r.words), 0) else {
                f.fail(&r, "decode failed".into());
                continue;
            };
            let t = format(r.gen, &inst, 0, Syntax::Clrx);
            match assemble_inst(r.gen, &t) {
                Err(e) => f.fail(&r, format!("CLRX `{t}`: {e}")),
                Ok(i2) if i2 == inst => {}
                Ok(i2) => f.fail(
                    &r,
                    format!("CLRX `{t}` assembled to {i2:?}, decoded {inst:?}"),
                ),
            }
        }
    }
    f.finish("CLRX text → same instruction");
}
