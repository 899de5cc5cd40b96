//! GCN assembler: text in CLRX or LLVM syntax (case-insensitive, either per line) → decoded
//! instructions and bytes for one generation.
//!
//! Two passes: the first lays the program out (instruction sizes never depend on label
//! values: only SOPP branches and the SOPK fork name labels, and they are one dword), the
//! second resolves labels and encodes. A label is an identifier followed by `:` at the
//! start of a line (several may precede one statement); a branch operand is a label unless
//! it parses as a number, whatever the word means elsewhere (`done`, `glc`, `v_loop`). Directives: `.text`, `.byte`, `.short`/`.hword`,
//! `.int`/`.long`/`.word`, `.quad`, `.p2align POW[, FILL]` / `.balign BYTES[, FILL]`, which
//! pad as llvm-mc pads a code section: zero bytes up to a dword boundary, then `s_nop 0`
//! words (or FILL bytes when given), and `.rept COUNT` … `.endr`, which repeats the lines
//! between (an unrolled loop body written once). Comments: `;`, `//`, `#`, `/* */`. Every error is an
//! `AsmError` with the line and column; no text makes it panic.

pub mod lex;
pub mod mem;
pub mod opnd;
pub mod parse;
pub mod scalar;
pub mod valu;

use std::collections::HashMap;

use self::parse::{parse_line, Arg, Modifier, Operand, PErr, Stmt, Val};
use self::valu::split_suffix;
use super::fmt::scalar::is_branch;
use super::fmt::shape::valu_shape;
use super::fmt::valu::Form;
use super::inst::{Enc, Inst};
use super::table::{Op, TableEnc};
use crate::arch::Gen;
use crate::error::AsmError;

/// One assembled statement that emitted bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Byte offset in the program.
    pub offset: u32,
    pub size: u32,
    /// 1-based source line.
    pub line: u32,
    /// The source text of the statement (comments and labels removed, trimmed).
    pub text: String,
    /// The instruction, or `None` for data directives.
    pub inst: Option<Inst>,
}

/// An assembled program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assembly {
    pub bytes: Vec<u8>,
    pub items: Vec<Item>,
    /// Labels and their byte offsets.
    pub labels: Vec<(String, u32)>,
}

impl Assembly {
    /// The program as dwords (a trailing partial dword is zero-padded).
    pub fn words(&self) -> Vec<u32> {
        super::decode::le_words(&self.bytes)
    }
}

/// Size in bytes of an instruction as it will be encoded.
pub fn inst_size(inst: &Inst) -> u32 {
    let base = match inst.enc {
        Enc::Smem
        | Enc::Vop3
        | Enc::Sdwa { .. }
        | Enc::Dpp { .. }
        | Enc::Ds
        | Enc::Mubuf
        | Enc::Mtbuf
        | Enc::Mimg
        | Enc::Flat
        | Enc::Exp => 8,
        _ => 4,
    };
    base + if inst.literal.is_some() { 4 } else { 0 }
}

fn at(line: u32, e: PErr) -> AsmError {
    AsmError {
        line,
        col: e.col,
        msg: e.msg,
    }
}

/// Assemble a whole program for `gen`.
pub fn assemble(gen: Gen, text: &str) -> Result<Assembly, AsmError> {
    struct Pending {
        line: u32,
        stmt: Stmt,
        offset: u32,
        end_col: u32,
        text: String,
    }
    let mut labels: HashMap<String, u32> = HashMap::new();
    let mut order: Vec<(String, u32)> = Vec::new();
    let mut pend: Vec<Pending> = Vec::new();
    let mut pc: u32 = 0;
    for (line, raw, stmt) in expand_rept(text)? {
        for (l, col) in &stmt.labels {
            if labels.insert(l.clone(), pc).is_some() {
                return Err(AsmError {
                    line,
                    col: *col,
                    msg: format!("label `{l}` defined twice"),
                });
            }
            order.push((l.clone(), pc));
        }
        let Some((head, hcol)) = stmt.head.clone() else {
            continue;
        };
        let end_col = raw.chars().count() as u32 + 1;
        let size = if head.starts_with('.') {
            directive_bytes(&head, hcol, &stmt, pc)
                .map_err(|e| at(line, e))?
                .len() as u32
        } else {
            let here = pc;
            let dummy = move |_: &str| Some(here + 4);
            let inst = statement(gen, &stmt, pc, &dummy, end_col).map_err(|e| at(line, e))?;
            inst_size(&inst)
        };
        pc = pc.checked_add(size).ok_or(AsmError {
            line,
            col: 1,
            msg: "program too large".into(),
        })?;
        let body = statement_text(raw, hcol);
        pend.push(Pending {
            line,
            stmt,
            offset: pc - size,
            end_col,
            text: body,
        });
    }
    let mut out = Assembly {
        labels: order,
        ..Assembly::default()
    };
    for p in pend {
        let Some((head, hcol)) = p.stmt.head.clone() else {
            continue;
        };
        if head.starts_with('.') {
            let b = directive_bytes(&head, hcol, &p.stmt, p.offset).map_err(|e| at(p.line, e))?;
            if !b.is_empty() {
                out.items.push(Item {
                    offset: p.offset,
                    size: b.len() as u32,
                    line: p.line,
                    text: p.text,
                    inst: None,
                });
                out.bytes.extend(b);
            }
            continue;
        }
        let lookup = |l: &str| labels.get(l).copied();
        let inst =
            statement(gen, &p.stmt, p.offset, &lookup, p.end_col).map_err(|e| at(p.line, e))?;
        let words = super::encode(gen, &inst).map_err(|m| AsmError {
            line: p.line,
            col: hcol,
            msg: format!("cannot encode: {m}"),
        })?;
        let size = words.len() as u32 * 4;
        for w in &words {
            out.bytes.extend(w.to_le_bytes());
        }
        out.items.push(Item {
            offset: p.offset,
            size,
            line: p.line,
            text: p.text,
            inst: Some(inst),
        });
    }
    Ok(out)
}

/// Most statements `.rept` blocks may expand to: far more than any program needs, few
/// enough that a hostile count fails fast instead of exhausting memory.
const MAX_EXPANDED: usize = 1 << 16;

/// The statements of `text`, each with its 1-based line number and source line, with every
/// `.rept COUNT` … `.endr` block (nested ones too) replaced by COUNT copies of its body,
/// as llvm-mc repeats them. A label inside a block is defined once per copy, so the
/// second copy defines it twice.
fn expand_rept(text: &str) -> Result<Vec<(u32, &str, Stmt)>, AsmError> {
    type Lines<'t> = Vec<(u32, &'t str, Stmt)>;
    // The blocks open at this line, innermost last: count, line of `.rept`, body so far.
    let mut open: Vec<(usize, u32, Lines<'_>)> = Vec::new();
    let mut out: Lines<'_> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i as u32 + 1;
        let stmt = parse_line(raw).map_err(|e| at(line, e))?;
        let (head, col) = match &stmt.head {
            Some((h, c)) => (h.to_ascii_lowercase(), *c),
            None => (String::new(), 0),
        };
        if head != ".rept" && head != ".endr" {
            open.last_mut()
                .map_or(&mut out, |b| &mut b.2)
                .push((line, raw, stmt));
            continue;
        }
        if let Some((_, c)) = stmt.labels.first() {
            let msg = format!("a label cannot share a line with {head}");
            return Err(AsmError { line, col: *c, msg });
        }
        if head == ".rept" {
            let count = match stmt.args.as_slice() {
                [Arg::Op(o)] => opnd::int_in(o, 0, MAX_EXPANDED as i128, "the repeat count"),
                _ => Err(PErr {
                    col,
                    msg: ".rept takes one count".into(),
                }),
            }
            .map_err(|e| at(line, e))?;
            open.push((count as usize, line, Vec::new()));
            continue;
        }
        if !stmt.args.is_empty() {
            let msg = ".endr takes no operands".to_string();
            return Err(AsmError { line, col, msg });
        }
        let Some((count, _, body)) = open.pop() else {
            let msg = ".endr without .rept".to_string();
            return Err(AsmError { line, col, msg });
        };
        let dest = open.last_mut().map_or(&mut out, |b| &mut b.2);
        if body.len().saturating_mul(count) > MAX_EXPANDED - dest.len().min(MAX_EXPANDED) {
            let msg = format!(".rept blocks expand to more than {MAX_EXPANDED} statements");
            return Err(AsmError { line, col, msg });
        }
        for _ in 0..count {
            dest.extend(body.iter().cloned());
        }
    }
    if let Some((_, line, _)) = open.last() {
        let msg = ".rept without .endr".to_string();
        return Err(AsmError {
            line: *line,
            col: 1,
            msg,
        });
    }
    Ok(out)
}

/// The statement part of a source line: from the mnemonic on, comment removed, trimmed.
fn statement_text(raw: &str, head_col: u32) -> String {
    let s: String = raw
        .chars()
        .skip(head_col.saturating_sub(1) as usize)
        .collect();
    let mut end = s.len();
    for pat in [";", "//", "#"] {
        if let Some(i) = s.find(pat) {
            end = end.min(i);
        }
    }
    s[..end].trim().to_string()
}

/// Assemble one instruction (no labels; branch targets are raw offsets) at offset `pc`.
pub fn assemble_inst(gen: Gen, line: &str) -> Result<Inst, AsmError> {
    let stmt = parse_line(line).map_err(|e| at(1, e))?;
    if stmt.head.is_none() {
        return Err(AsmError {
            line: 1,
            col: 1,
            msg: "no instruction".into(),
        });
    }
    let none = |_: &str| None;
    statement(gen, &stmt, 0, &none, line.chars().count() as u32 + 1).map_err(|e| at(1, e))
}

/// `s_nop 0`, what llvm-mc pads code with.
const S_NOP_0: u32 = 0xbf80_0000;

/// Largest alignment `.p2align`/`.balign` accept (64 KiB), so padding stays small.
const MAX_ALIGN_POW: u32 = 16;

/// The padding of `.p2align`/`.balign` at `pc` (`pow2` = true for `.p2align`).
fn align_bytes(head: &str, col: u32, stmt: &Stmt, pc: u32, pow2: bool) -> Result<Vec<u8>, PErr> {
    let ops: Vec<&Operand> = stmt
        .args
        .iter()
        .map(|a| match a {
            Arg::Op(o) => Ok(o),
            Arg::Mod(m) => Err(PErr {
                col: m.col,
                msg: "expected a number".into(),
            }),
        })
        .collect::<Result<_, _>>()?;
    let Some(first) = ops.first() else {
        return Err(PErr {
            col,
            msg: format!("{head} needs an alignment"),
        });
    };
    if let Some(o) = ops.get(2) {
        return Err(PErr {
            col: o.col,
            msg: format!("{head}: a maximum padding is not supported"),
        });
    }
    let align: u64 = if pow2 {
        1 << opnd::int_in(first, 0, MAX_ALIGN_POW as i128, "alignment (power of two)")?
    } else {
        let a = opnd::int_in(first, 1, 1 << MAX_ALIGN_POW, "alignment")? as u64;
        if !a.is_power_of_two() {
            return Err(PErr {
                col: first.col,
                msg: format!("{head}: alignment {a} is not a power of two"),
            });
        }
        a
    };
    let fill = match ops.get(1) {
        Some(o) => Some(opnd::int_in(o, -128, 255, "fill byte")? as u8),
        None => None,
    };
    let pad = ((pc as u64).next_multiple_of(align) - pc as u64) as usize;
    Ok(match fill {
        Some(f) => vec![f; pad],
        None => {
            let mut b = vec![0u8; pad % 4];
            for _ in 0..pad / 4 {
                b.extend(S_NOP_0.to_le_bytes());
            }
            b
        }
    })
}

/// The bytes of a data or alignment directive at `pc`.
fn directive_bytes(head: &str, col: u32, stmt: &Stmt, pc: u32) -> Result<Vec<u8>, PErr> {
    let d = head.to_ascii_lowercase();
    if d == ".p2align" || d == ".balign" {
        return align_bytes(head, col, stmt, pc, d == ".p2align");
    }
    let size = match d.as_str() {
        ".text" => 0,
        ".byte" => 1,
        ".short" | ".hword" => 2,
        ".int" | ".long" | ".word" => 4,
        ".quad" => 8,
        _ => {
            return Err(PErr {
                col,
                msg: format!("unknown directive `{head}`"),
            })
        }
    };
    let mut out = Vec::new();
    if size == 0 {
        if let Some(a) = stmt.args.first() {
            let c = match a {
                Arg::Op(o) => o.col,
                Arg::Mod(m) => m.col,
            };
            return Err(PErr {
                col: c,
                msg: format!("{head} takes no operands"),
            });
        }
        return Ok(out);
    }
    if stmt.args.is_empty() {
        return Err(PErr {
            col,
            msg: format!("{head} needs values"),
        });
    }
    let bits = size * 8;
    let lo: i128 = -(1i128 << (bits - 1));
    let hi: i128 = (1i128 << bits) - 1;
    for a in &stmt.args {
        match a {
            Arg::Op(o) => {
                let v = opnd::int_in(o, lo, hi, "value")?;
                let b = (v as u128).to_le_bytes();
                out.extend_from_slice(&b[..size]);
            }
            Arg::Mod(m) => {
                return Err(PErr {
                    col: m.col,
                    msg: "expected a number".into(),
                })
            }
        }
    }
    Ok(out)
}

/// The operation named `name` (mnemonic or alias, lowercase), preferring one that exists in
/// `gen` (an alias may name another operation than the same mnemonic elsewhere), and there
/// an operation's own name over another's alias (gfx6 `v_mul_lo_i32` is its own operation;
/// on gfx8 it is `v_mul_lo_u32`).
pub fn find_op(gen: Gen, name: &str) -> Option<Op> {
    Op::from_mnemonic_in(name, gen).or_else(|| Op::from_mnemonic(name))
}

/// CLRX's names of integer compares: `lg` (≠) and `tru` (always true) for what the table
/// and LLVM call `ne` and `t` (`v_cmp_lg_i32` = `v_cmp_ne_i32`, `v_cmpx_tru_u64` =
/// `v_cmpx_t_u64`). Float compares keep `lg`/`tru`, which are their own conditions.
fn clrx_int_compare(m: &str) -> String {
    let (base, suffix) = match split_suffix(m) {
        (b, Some(_)) => (b, &m[b.len()..]),
        _ => (m, ""),
    };
    if let Some(rest) = base.strip_prefix("v_cmp") {
        for (clrx, name) in [("_lg_", "_ne_"), ("_tru_", "_t_")] {
            if let Some(at) = rest.find(clrx) {
                let ty = &rest[at + clrx.len()..];
                if matches!(ty, "i16" | "u16" | "i32" | "u32" | "i64" | "u64") {
                    return format!("v_cmp{}{name}{ty}{suffix}", &rest[..at]);
                }
            }
        }
    }
    m.to_string()
}

/// Assemble one instruction statement at `pc`.
fn statement(
    gen: Gen,
    stmt: &Stmt,
    pc: u32,
    labels: scalar::Labels,
    end_col: u32,
) -> Result<Inst, PErr> {
    let Some((head, hcol)) = &stmt.head else {
        return Err(PErr {
            col: 1,
            msg: "no instruction".into(),
        });
    };
    let hcol = *hcol;
    let lower = clrx_int_compare(&head.to_ascii_lowercase());
    let (op, suffix) = match find_op(gen, &lower) {
        Some(op) => (op, None),
        None => {
            let (base, sfx) = split_suffix(&lower);
            match (find_op(gen, base), sfx) {
                (Some(op), Some(f)) => (op, Some(f)),
                _ => {
                    return Err(PErr {
                        col: hcol,
                        msg: format!("unknown instruction `{head}`"),
                    })
                }
            }
        }
    };
    let rows: Vec<_> = op
        .rows()
        .iter()
        .copied()
        .filter(|r| r.opcode[gen.index()].is_some())
        .collect();
    if rows.is_empty() {
        return Err(PErr {
            col: hcol,
            msg: format!("{} does not exist on {gen}", op.mnemonic()),
        });
    }
    // A branch operand is a label unless it is a number (llvm-mc's rule): a bare word that
    // is a modifier elsewhere (`done`, `glc`, `row_mirror`) names a label here. Branches
    // take no modifiers, so nothing is lost.
    let branch = is_branch(op);
    let mut ops: Vec<Operand> = Vec::new();
    let mut mods: Vec<Modifier> = Vec::new();
    for a in &stmt.args {
        match a {
            Arg::Op(o) => ops.push(o.clone()),
            Arg::Mod(m) if branch && m.value.is_none() => {
                ops.push(Operand::plain(Val::Ident(m.word.clone()), m.col))
            }
            Arg::Mod(m) => mods.push(m.clone()),
        }
    }
    // `format:` follows the buffer operands (LLVM takes it before SOFFSET only from GCN 1.5
    // on: `tbuffer_store_format_x v0, v1, s[4:7], format:33, 0 idxen`; the older
    // `dfmt:`/`nfmt:` may stand there).
    if rows[0].enc == TableEnc::Mtbuf {
        let mut format_at = None;
        for a in &stmt.args {
            match a {
                Arg::Mod(m) if m.name == "format" => format_at = Some(m.col),
                Arg::Op(o) if format_at.is_some() => {
                    return Err(PErr {
                        col: o.col,
                        msg: "format: follows the buffer operands".into(),
                    })
                }
                _ => {}
            }
        }
    }
    let vintrp = rows.iter().find(|r| r.enc == TableEnc::Vintrp);
    let valu_native = rows.iter().any(|r| {
        matches!(
            r.enc,
            TableEnc::Vop1 | TableEnc::Vop2 | TableEnc::Vopc | TableEnc::Vop3 | TableEnc::Vop3b
        )
    });
    // On GCN 1.2 an interpolation with `clamp` or an output modifier and no suffix is the
    // VOP3 form, the only one that holds them (LLVM picks it so).
    let vop3_mod = mods.iter().any(|m| {
        m.name == "vop3"
            || gen == Gen::Gfx8
                && suffix.is_none()
                && valu_native
                && matches!(m.name.as_str(), "clamp" | "mul" | "div")
    });
    if let Some(r) = vintrp {
        if matches!(suffix, None | Some(Form::E32)) && !vop3_mod {
            if suffix == Some(Form::E32) && gen != Gen::Gfx8 {
                return Err(PErr {
                    col: hcol,
                    msg: "VINTRP has no _e32 suffix before GCN 1.2".into(),
                });
            }
            return mem::assemble(gen, op, r, &ops, &mods, hcol, end_col);
        }
    }
    if valu_native {
        let Some(shape) = valu_shape(gen, op) else {
            return Err(PErr {
                col: hcol,
                msg: format!("{} is no VALU operation on {gen}", op.mnemonic()),
            });
        };
        return valu::assemble(gen, op, &shape, suffix, &ops, &mods, hcol, end_col);
    }
    // LLVM accepts `_e32` on the 32-bit scalar encodings (`s_mov_b64_e32`), and only that.
    let scalar32 = matches!(
        rows[0].enc,
        TableEnc::Sop1 | TableEnc::Sop2 | TableEnc::Sopc | TableEnc::Sopk | TableEnc::Sopp
    );
    // CLRX's `_e64` on SOP1/SOP2/SOPC asks for the two-dword form: inline constants become
    // the literal dword (`s_add_u32_e64 s1, s2, 5` → SSRC1 = 255, literal 5), and a line
    // without a constant has no such form.
    let scalar64 = suffix == Some(Form::E64)
        && matches!(
            rows[0].enc,
            TableEnc::Sop1 | TableEnc::Sop2 | TableEnc::Sopc
        );
    if suffix.is_some() && !(scalar32 && suffix == Some(Form::E32)) && !scalar64 {
        return Err(PErr {
            col: hcol,
            msg: format!("{} takes no encoding suffix", op.mnemonic()),
        });
    }
    if scalar64 {
        for o in &mut ops {
            if matches!(o.val, Val::Int(_) | Val::Float(_)) {
                o.lit = true;
            }
        }
        let inst = scalar::assemble(gen, op, rows[0], &ops, &mods, hcol, end_col, pc, labels)?;
        if inst.literal.is_none() {
            return Err(PErr {
                col: hcol,
                msg: format!(
                    "{}_e64 needs a constant operand (the _e64 form is the one with a literal)",
                    op.mnemonic()
                ),
            });
        }
        return Ok(inst);
    }
    let r = rows[0];
    match r.enc {
        TableEnc::Sop2
        | TableEnc::Sopk
        | TableEnc::Sop1
        | TableEnc::Sopc
        | TableEnc::Sopp
        | TableEnc::Smrd
        | TableEnc::Smem => scalar::assemble(gen, op, r, &ops, &mods, hcol, end_col, pc, labels),
        _ => mem::assemble(gen, op, r, &ops, &mods, hcol, end_col),
    }
}
