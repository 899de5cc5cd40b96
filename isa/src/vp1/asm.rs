//! The VP1 scalar assembler: envydis/envyas syntax (one instruction per line), plus
//! `.word N` for any raw word and the annotations envydis prints: `[unknown: M]` ORs the
//! hex bits M into the word (they must not change what the text says), `[unknown operand]`
//! is accepted and ignored. Comments start with `#` or `//`.
//!
//! A mnemonic is tried against every opcode printed with it (`min` is 0x48, 0x58, 0x68 and
//! 0x78), lowest opcode first; the first whose operands parse wins, so the text envydis
//! prints for a word assembles to the lowest opcode with that text. Errors carry the line
//! and column (1-based) of the offending token.

use super::syntax::{self, Atom, BITOP_ALIASES};
use super::table::{self, OpDesc};
use super::Inst;
use crate::error::AsmError;

use super::lex::{lex, Cursor, Fail, Spanned, Tok};

/// Every (row, atoms) a mnemonic may stand for, in the order they are tried.
fn candidates(m: &str) -> Vec<(&'static OpDesc, &'static [Atom])> {
    let mut v = Vec::new();
    for &op in table::by_mnemonic(m).unwrap_or(&[]) {
        if let Some(d) = table::desc(op) {
            v.push((d, syntax::atoms(d.form)));
        }
    }
    if let Some(bitop) = table::OPS.iter().find(|d| d.form == table::Form::Bitop) {
        for (_, atoms) in BITOP_ALIASES {
            if matches!(atoms.first(), Some(Atom::Word(n)) if *n == m) {
                v.push((bitop, *atoms));
            }
        }
    }
    v
}

/// Assemble one line's tokens (non-empty) into a word.
fn assemble_line(toks: &[Spanned], eol: u32) -> Result<u32, Fail> {
    let Some(first) = toks.first() else {
        return Err(Fail {
            col: 1,
            msg: "empty line".into(),
            depth: 0,
        });
    };
    let m = match &first.tok {
        Tok::Word(w) => w.as_str(),
        Tok::Query => {
            return Err(first.fail_msg(
                "`???` is an opcode envydis does not know: write the word as `.word 0x…`".into(),
            ))
        }
        _ => return Err(first.fail("a mnemonic")),
    };
    if m == ".word" {
        let mut cur = Cursor::new(&toks[1..], eol);
        let (v, t) = cur.num()?;
        if !(0..=u32::MAX as i64).contains(&v) {
            return Err(t.fail_msg(format!("{} does not fit a 32-bit word", syntax::hex(v))));
        }
        if let Ok(extra) = cur.next_tok("") {
            return Err(extra.fail("end of line after .word"));
        }
        return Ok(v as u32);
    }
    let cands = candidates(m);
    if cands.is_empty() {
        return Err(first.fail_msg(format!("unknown mnemonic `{m}`")));
    }
    let mut best: Option<Fail> = None;
    for (d, atoms) in cands {
        let mut cur = Cursor::new(toks, eol);
        match parse_candidate(d, atoms, &mut cur) {
            Ok(w) => return Ok(w),
            Err(mut e) => {
                e.depth = e.depth.max(cur.depth());
                if best.as_ref().is_none_or(|b| e.depth > b.depth) {
                    best = Some(e);
                }
            }
        }
    }
    Err(best.unwrap_or(Fail {
        col: first.col,
        msg: "no form matches".into(),
        depth: 0,
    }))
}

fn parse_candidate(d: &OpDesc, atoms: &[Atom], cur: &mut Cursor) -> Result<u32, Fail> {
    let mut w = (d.opcode as u32) << 24;
    for a in atoms {
        a.parse(d, cur, &mut w)?;
    }
    let mut unknown: Option<(u32, u32)> = None;
    while let Ok(t) = cur.next_tok("") {
        match t.tok {
            Tok::Unknown(m) if unknown.is_none() => unknown = Some((m, t.col)),
            Tok::UnknownOperand => {}
            _ => return Err(t.fail("end of line")),
        }
    }
    let Some((m, col)) = unknown else {
        return Ok(w);
    };
    // The extra bits may only say what the text leaves unsaid.
    let full = w | m;
    let same = match (
        syntax::core(Inst { word: w }),
        syntax::core(Inst { word: full }),
    ) {
        (Some(a), Some(b)) => a.toks == b.toks,
        _ => false,
    };
    if !same {
        return Err(Fail {
            col,
            msg: format!("[unknown: {m:08x}] sets bits the operands already say (the word would read differently)"),
            depth: usize::MAX,
        });
    }
    Ok(full)
}

/// Assemble VP1 scalar text into words, one per instruction line.
pub fn assemble(text: &str) -> Result<Vec<u32>, AsmError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = n as u32 + 1;
        let toks = lex(line).map_err(|(col, msg)| AsmError {
            line: line_no,
            col,
            msg,
        })?;
        if toks.is_empty() {
            continue;
        }
        let eol = line.chars().count() as u32 + 1;
        let w = assemble_line(&toks, eol).map_err(|e| AsmError {
            line: line_no,
            col: e.col,
            msg: e.msg,
        })?;
        out.push(w);
    }
    Ok(out)
}

/// Assemble to little-endian bytes.
pub fn assemble_bytes(text: &str) -> Result<Vec<u8>, AsmError> {
    Ok(assemble(text)?
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(s: &str) -> u32 {
        match assemble(s) {
            Ok(v) if v.len() == 1 => v[0],
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn envyas_examples_from_vp1_notes() {
        for &(w, t) in crate::vp1::NOTES_EXAMPLES {
            assert_eq!(one(t), w, "{t}");
        }
    }

    #[test]
    fn annotations_and_raw_words() {
        assert_eq!(one("add $r1 $r2 $r3 [unknown: 00000003]"), 0x4c08_87c7);
        assert_eq!(one("min $r1 $r2 $r3 [unknown: 10000000]"), 0x5808_87c4);
        assert_eq!(one(".word 0x000887c4 # bmul subop 0"), 0x0008_87c4);
        // [unknown] may not change the operands: 0x800 would turn SRC2 $r3 into $r7.
        let e = assemble("add $r1 $r2 $r3 [unknown: 00000800]").expect_err("overlap");
        assert_eq!((e.line, e.col), (1, 17));
    }

    #[test]
    fn errors_are_positioned() {
        let e = assemble("snop\n  add $r1 $r2 $r99").expect_err("bad register");
        assert_eq!((e.line, e.col), (2, 15), "{e}");
        let e = assemble("mul $r5 $r6 0x400").expect_err("IMM is 11-bit signed");
        assert_eq!((e.line, e.col), (1, 13), "{e}");
        let e = assemble("frob $r1").expect_err("mnemonic");
        assert_eq!(e.col, 1);
        let e = assemble("??? [unknown instruction]").expect_err("???");
        assert!(e.msg.contains(".word"), "{e}");
        let e = assemble("mov $c1 $r2").expect_err("$c is read only");
        assert_eq!((e.line, e.col), (1, 5), "{e}");
        let e = assemble(".word 0x100000000").expect_err("33 bits");
        assert_eq!((e.line, e.col), (1, 7), "{e}");
        let e = assemble("add $r1 $r2").expect_err("SRC2 missing");
        assert_eq!((e.line, e.col), (1, 12), "{e}");
        assert!(e.msg.contains("found end of line"), "{e}");
    }
}
