//! Conformance of the assembler and disassembler against LLVM (llvm-mc 19), over every row of
//! every corpus file in `tests/data/gcn/` for GCN 1.0, 1.1 and 1.2:
//! - `assemble(row text)` gives the row's words exactly;
//! - decoding the words and printing them in LLVM syntax gives the row's text;
//! - printing in CLRX syntax and assembling that gives the same words again.

mod text_util;

use text_util::{hex, norm, rows, Failures, Row, CORPORA};
use wavejit_isa::gcn::asm::assemble_inst;
use wavejit_isa::gcn::fmt::{format, Syntax};
use wavejit_isa::gcn::{decode, encode, Inst};

fn le_bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Run `check` on every row of every corpus; fail with every row it refuses (`what`
/// names the property).
fn every_row(what: &str, check: impl Fn(&Row) -> Result<(), String>) {
    let mut f = Failures::default();
    for file in CORPORA {
        for r in rows(file) {
            f.checked += 1;
            if let Err(e) = check(&r) {
                f.fail(&r, e);
            }
        }
    }
    f.finish(what);
}

/// The row's words, decoded.
fn decoded(r: &Row) -> Result<Inst, String> {
    decode(r.gen, &le_bytes(&r.words), 0)
        .map(|(inst, _)| inst)
        .map_err(|e| format!("decode: {e}"))
}

/// The row's LLVM text, assembled (independent of the decoder).
fn assembled(r: &Row) -> Result<Inst, String> {
    assemble_inst(r.gen, &r.text).map_err(|e| format!("assemble: {e}"))
}

/// `inst` prints in LLVM syntax as the row's text.
fn prints_as_the_row(r: &Row, inst: &Inst) -> Result<(), String> {
    let t = format(r.gen, inst, 0, Syntax::Llvm);
    if norm(&t) == norm(&r.text) {
        Ok(())
    } else {
        Err(format!("printed `{t}`"))
    }
}

#[test]
fn llvm_text_assembles_to_the_corpus_words() {
    every_row("assemble(LLVM text)", |r| {
        let inst = assembled(r)?;
        match encode(r.gen, &inst) {
            Ok(w) if w == r.words => Ok(()),
            Ok(w) => Err(format!("assembled to {} ({inst:?})", hex(&w))),
            Err(e) => Err(format!("encode: {e} ({inst:?})")),
        }
    });
}

#[test]
fn corpus_words_print_as_the_llvm_text() {
    every_row("format(LLVM)", |r| prints_as_the_row(r, &decoded(r)?));
}

#[test]
fn llvm_text_prints_back_the_same() {
    // Independent of the decoder: text → instruction → text.
    every_row("text → inst → LLVM text", |r| {
        prints_as_the_row(r, &assembled(r)?)
    });
}

#[test]
fn clrx_text_assembles_to_the_same_words() {
    every_row("CLRX text → same instruction", |r| {
        let inst = decoded(r)?;
        let t = format(r.gen, &inst, 0, Syntax::Clrx);
        match assemble_inst(r.gen, &t) {
            Err(e) => Err(format!("CLRX `{t}`: {e}")),
            Ok(i2) if i2 == inst => Ok(()),
            Ok(i2) => Err(format!("CLRX `{t}` assembled to {i2:?}, decoded {inst:?}")),
        }
    });
}
