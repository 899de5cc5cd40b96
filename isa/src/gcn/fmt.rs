//! GCN disassembler: decoded instructions → text, in CLRX syntax (the spec documents'
//! syntax, the default) or LLVM syntax (as llvm-mc 19 prints it), one instruction at a time
//! or as a whole-program listing with labels.
//!
//! The operand layouts live in `shape` (from the table) and `valu` (VALU forms); the
//! assembler (`super::asm`) parses exactly what is printed here.

pub mod mem;
pub mod names;
pub mod scalar;
pub mod shape;
pub mod valu;

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::decode::le_words;
use super::inst::{Fields, Inst};
use crate::arch::Gen;

pub use names::{mnemonic, Syntax};

/// The text of one instruction. `pc` is its byte offset (the text itself holds branch
/// offsets as numbers, as LLVM does; `listing` turns them into labels).
///
/// The text always assembles back to the same words: an instruction whose fields no text
/// can carry (bits the syntax has no place for in the raw MIMG/EXP words, or operands the
/// assembler refuses, such as two scalar values on the constant bus, which the decoder
/// accepts — ERRATA VOP3 2) is printed as `.long` data with its reading in a comment.
pub fn format(gen: Gen, inst: &Inst, pc: u32, syntax: Syntax) -> String {
    let _ = pc;
    let text = text_of(gen, inst, syntax);
    let why = match super::asm::assemble_inst(gen, &text) {
        Ok(back) if back == *inst => return text,
        Ok(_) => "the text does not hold every bit".to_string(),
        Err(e) => e.msg,
    };
    match super::encode(gen, inst) {
        Ok(words) => format!("{} // {text} ({why})", long_text(&words)),
        Err(_) => text,
    }
}

/// `.long 0x…, 0x…`: words as data.
fn long_text(words: &[u32]) -> String {
    let hex: Vec<String> = words.iter().map(|w| format!("0x{w:08x}")).collect();
    format!(".long {}", hex.join(", "))
}

/// The text of one instruction in `syntax`, without the check that it assembles back.
pub fn text_of(gen: Gen, inst: &Inst, syntax: Syntax) -> String {
    let text = valu::print(gen, inst, syntax)
        .or_else(|| scalar::print(gen, inst, syntax))
        .or_else(|| mem::print(gen, inst, syntax));
    match text {
        Some(t) => t,
        None => format!(
            "{} /* unprintable fields {:?} */",
            inst.op.mnemonic(),
            inst.fields
        ),
    }
}

/// Branch target (byte offset) of a SOPP branch or SOPK fork at `pc`, if `inst` is one.
pub fn branch_target(inst: &Inst, pc: u32) -> Option<u32> {
    let simm = match inst.fields {
        Fields::Sopp { simm16 } if scalar::is_branch(inst.op) => simm16,
        Fields::Sopk { simm16, .. } if scalar::is_branch(inst.op) => simm16,
        _ => return None,
    };
    let t = pc as i64 + 4 + 4 * (simm as i16 as i64);
    u32::try_from(t).ok()
}

/// One line of a listing: the instruction's words and text.
pub struct ListingLine {
    pub pc: u32,
    pub words: Vec<u32>,
    pub text: String,
}

/// Disassemble a whole program. Every decodable instruction gets one line; a word that does
/// not decode is printed as `.long` with the decoder's reason, and the sweep goes on at the
/// next dword. In CLRX syntax, branch targets inside the program become labels
/// (`.L<offset>`); in LLVM syntax they stay numeric, as llvm-mc prints them.
pub fn listing(gen: Gen, code: &[u8], syntax: Syntax) -> Vec<ListingLine> {
    listing_with_labels(gen, code, syntax, &label_name)
}

/// [`listing`] with CLRX labels named by `label` from their byte offset (a code object's
/// functions each list from offset 0, so their labels need names of their own).
pub fn listing_with_labels(
    gen: Gen,
    code: &[u8],
    syntax: Syntax,
    label: &dyn Fn(u32) -> String,
) -> Vec<ListingLine> {
    let mut insts: Vec<(u32, u32, Result<Inst, String>)> = Vec::new();
    let mut pc = 0u32;
    while (pc as usize) < code.len() {
        let rest = code.get(pc as usize..).unwrap_or(&[]);
        match super::decode(gen, rest, pc) {
            Ok((inst, n)) if n > 0 => {
                insts.push((pc, n, Ok(inst)));
                pc += n;
            }
            Ok(_) => break,
            Err(e) => match super::decode::decode_tolerant(gen, rest, pc) {
                // Runs (the hardware ignores the bits) but has no text: kept as words,
                // with what it executes as.
                Ok((inst, n, ig)) if n > 0 && !ig.is_empty() => {
                    let bits: Vec<String> = ig
                        .iter()
                        .map(|b| format!("{} = {:#x}", b.field, b.value))
                        .collect();
                    let why = format!(
                        "{}; runs as `{}` (the hardware ignores {})",
                        e.kind,
                        format(gen, &inst, pc, syntax),
                        bits.join(", ")
                    );
                    insts.push((pc, n, Err(why)));
                    pc += n;
                }
                _ => {
                    let n = rest.len().min(4) as u32;
                    insts.push((pc, n, Err(e.kind.to_string())));
                    pc += n;
                }
            },
        }
    }
    let starts: BTreeSet<u32> = insts.iter().map(|(p, _, _)| *p).collect();
    let mut labels: BTreeSet<u32> = BTreeSet::new();
    if syntax == Syntax::Clrx {
        for (p, _, i) in &insts {
            if let Ok(i) = i {
                if let Some(t) = branch_target(i, *p) {
                    if starts.contains(&t) {
                        labels.insert(t);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for (p, n, i) in insts {
        let bytes = code.get(p as usize..(p + n) as usize).unwrap_or(&[]);
        let words = le_words(bytes);
        let mut text = String::new();
        if labels.contains(&p) {
            let _ = write!(text, "{}: ", label(p));
        }
        match &i {
            Ok(inst) => {
                let lab = branch_target(inst, p)
                    .filter(|t| labels.contains(t))
                    .map(label);
                let plain = format(gen, inst, p, syntax);
                let t = match lab {
                    Some(l) if !plain.starts_with(".long") => {
                        scalar::print_with_target(gen, inst, syntax, Some(&l)).unwrap_or(plain)
                    }
                    _ => plain,
                };
                text.push_str(&t);
            }
            Err(e) => {
                let _ = write!(text, "{} // {e}", long_text(&words));
            }
        }
        out.push(ListingLine { pc: p, words, text });
    }
    out
}

/// The label of a byte offset in CLRX listings.
pub fn label_name(pc: u32) -> String {
    format!(".L{pc}")
}
