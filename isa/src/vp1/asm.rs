//! The VP1 scalar assembler: envydis/envyas syntax (one instruction per line), plus
//! `.word N` for any raw word and the annotations envydis prints: `[unknown: M]` ORs the
//! hex bits M into the word (they must not change what the text says), `[unknown operand]`
//! is accepted and ignored. Comments start with `#` or `//`.
//!
//! A mnemonic is tried against every opcode printed with it (`min` is 0x48, 0x58, 0x68 and
//! 0x78), lowest opcode first; the first whose operands parse wins, so the text envydis
//! prints for a word assembles to the lowest opcode with that text. Errors carry the line
//! and column (1-based) of the offending token.

use super::fields as f;
use super::fmt;
use super::syntax::{self, Atom, BITOP_ALIASES};
use super::table::{self, OpDesc};
use super::Inst;
use crate::error::AsmError;

/// A token of one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A word: mnemonic, keyword (`s`, `rn`, `slct`, `sf`, `not`, ...), `.word`.
    Word(String),
    /// `$name`, without the `$`, lowercased.
    Reg(String),
    Num(i64),
    LParen,
    RParen,
    /// `[unknown: M]`.
    Unknown(u32),
    /// `[unknown operand]`.
    UnknownOperand,
    /// `[unknown instruction]`.
    UnknownInstruction,
    /// `???`.
    Query,
}

/// A token and its 1-based column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned {
    pub tok: Tok,
    pub col: u32,
}

/// Why a candidate did not parse: a column and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fail {
    pub col: u32,
    pub msg: String,
    /// Tokens consumed before failing: the candidate that got furthest explains best.
    pub depth: usize,
}

impl Spanned {
    pub fn fail(&self, want: &str) -> Fail {
        Fail {
            col: self.col,
            msg: format!("expected {want}, found {}", describe(&self.tok)),
            depth: 0,
        }
    }
    pub fn fail_msg(&self, msg: String) -> Fail {
        Fail {
            col: self.col,
            msg,
            depth: 0,
        }
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Word(s) => format!("`{s}`"),
        Tok::Reg(s) => format!("`${s}`"),
        Tok::Num(n) => format!("`{}`", syntax::hex(*n)),
        Tok::LParen => "`(`".into(),
        Tok::RParen => "`)`".into(),
        Tok::Unknown(m) => format!("`[unknown: {m:08x}]`"),
        Tok::UnknownOperand => "`[unknown operand]`".into(),
        Tok::UnknownInstruction => "`[unknown instruction]`".into(),
        Tok::Query => "`???`".into(),
    }
}

/// Split a register name into prefix, number and suffix: `r12d` -> ("r", Some(12), "d").
pub fn split_reg(r: &str) -> (&str, Option<u32>, &str) {
    let p = r.find(|c: char| c.is_ascii_digit()).unwrap_or(r.len());
    let (prefix, rest) = r.split_at(p);
    let d = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (digits, suffix) = rest.split_at(d);
    let n = if digits.is_empty() || digits.len() > 3 {
        None
    } else {
        digits.parse().ok()
    };
    (prefix, n, suffix)
}

/// The tokens of one line after its mnemonic position, with a read position.
pub struct Cursor<'a> {
    toks: &'a [Spanned],
    pos: usize,
    /// Column just past the line's end, for "expected X, found end of line".
    eol: u32,
}

impl<'a> Cursor<'a> {
    fn new(toks: &'a [Spanned], eol: u32) -> Self {
        Cursor { toks, pos: 0, eol }
    }

    fn depth(&self) -> usize {
        self.pos
    }

    pub fn next_tok(&mut self, want: &str) -> Result<&'a Spanned, Fail> {
        match self.toks.get(self.pos) {
            Some(t) => {
                self.pos += 1;
                Ok(t)
            }
            None => Err(Fail {
                col: self.eol,
                msg: format!("expected {want}, found end of line"),
                depth: 0,
            }),
        }
    }

    pub fn peek_is(&self, t: &Tok) -> bool {
        self.toks.get(self.pos).is_some_and(|s| &s.tok == t)
    }

    /// The next token split as a register, if it is one.
    pub fn peek_reg(&self) -> Option<(&'a str, Option<u32>, &'a str)> {
        match self.toks.get(self.pos) {
            Some(Spanned {
                tok: Tok::Reg(r), ..
            }) => Some(split_reg(r)),
            _ => None,
        }
    }

    /// Expect keyword `s`.
    pub fn word(&mut self, s: &str) -> Result<(), Fail> {
        let t = self.next_tok(&format!("`{s}`"))?;
        match &t.tok {
            Tok::Word(w) if w == s => Ok(()),
            _ => Err(t.fail(&format!("`{s}`"))),
        }
    }

    /// A number.
    pub fn num(&mut self) -> Result<(i64, &'a Spanned), Fail> {
        let t = self.next_tok("a number")?;
        match t.tok {
            Tok::Num(n) => Ok((n, t)),
            _ => Err(t.fail("a number")),
        }
    }

    /// `$rN` (N 0-31) or the number 0 for `$r31`.
    pub fn gpr(&mut self) -> Result<u32, Fail> {
        let t = self.next_tok("a $r register")?;
        match &t.tok {
            Tok::Num(0) => Ok(31),
            Tok::Reg(r) => match split_reg(r) {
                ("r", Some(n), "") if n <= 31 => Ok(n),
                _ => Err(t.fail("$r0-$r31 or 0x0")),
            },
            _ => Err(t.fail("a $r register")),
        }
    }

    /// `$rN<suffix>` (N 0-31).
    pub fn gpr_suffixed(&mut self, suffix: char) -> Result<u32, Fail> {
        let want = format!("$rN{suffix}");
        let t = self.next_tok(&want)?;
        match &t.tok {
            Tok::Reg(r) => match split_reg(r) {
                ("r", Some(n), s) if n <= 31 && s.len() == 1 && s.starts_with(suffix) => Ok(n),
                _ => Err(t.fail(&want)),
            },
            _ => Err(t.fail(&want)),
        }
    }

    /// `$c0`-`$c3`.
    pub fn creg(&mut self) -> Result<u32, Fail> {
        let t = self.next_tok("$c0-$c3")?;
        match &t.tok {
            Tok::Reg(r) => match split_reg(r) {
                ("c", Some(n), "") if n <= 3 => Ok(n),
                _ => Err(t.fail("$c0-$c3")),
            },
            _ => Err(t.fail("$c0-$c3")),
        }
    }

    /// A `$c` flag name (`sf`, `b20`, `unk11`, `false`, ...): its SLCT value.
    pub fn flag_name(&mut self) -> Result<(u32, &'a Spanned), Fail> {
        let t = self.next_tok("a flag name")?;
        match &t.tok {
            Tok::Word(w) => match f::SLCT_NAMES.iter().position(|n| n == w) {
                Some(i) => Ok((i as u32, t)),
                None => Err(t.fail("a flag name (sf, zf, b19, b20d, b20, b21, b19a, b18, asf, azf, aef, lzf, true, ...)")),
            },
            _ => Err(t.fail("a flag name")),
        }
    }
}

/// Split one line into tokens; `Err` is (column, message).
pub fn lex(line: &str) -> Result<Vec<Spanned>, (u32, String)> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let col = |i: usize| i as u32 + 1;
    while let Some(&c) = chars.get(i) {
        let start = i;
        if c.is_whitespace() {
            i += 1;
        } else if c == '#' || (c == '/' && chars.get(i + 1) == Some(&'/')) {
            break;
        } else if c == '(' || c == ')' {
            out.push(Spanned {
                tok: if c == '(' { Tok::LParen } else { Tok::RParen },
                col: col(i),
            });
            i += 1;
        } else if c == '$' {
            i += 1;
            while chars
                .get(i)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
            {
                i += 1;
            }
            if i == start + 1 {
                return Err((col(start), "`$` without a register name".into()));
            }
            let name: String = chars[start + 1..i]
                .iter()
                .collect::<String>()
                .to_ascii_lowercase();
            out.push(Spanned {
                tok: Tok::Reg(name),
                col: col(start),
            });
        } else if c.is_ascii_digit()
            || (c == '-' && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit()))
        {
            let neg = c == '-';
            if neg {
                i += 1;
            }
            let hexa = chars.get(i) == Some(&'0') && matches!(chars.get(i + 1), Some('x' | 'X'));
            if hexa {
                i += 2;
            }
            let ds = i;
            while chars.get(i).is_some_and(|c| c.is_ascii_alphanumeric()) {
                i += 1;
            }
            let digits: String = chars[ds..i].iter().collect();
            let v = if hexa {
                u64::from_str_radix(&digits, 16)
            } else {
                digits.parse::<u64>()
            };
            let v = match v {
                Ok(v) if v <= u32::MAX as u64 => v as i64,
                Ok(_) => return Err((col(start), "number too large for 32 bits".into())),
                Err(_) => {
                    let t: String = chars[start..i].iter().collect();
                    return Err((col(start), format!("bad number `{t}`")));
                }
            };
            out.push(Spanned {
                tok: Tok::Num(if neg { -v } else { v }),
                col: col(start),
            });
        } else if c == '[' {
            let Some(close) = chars[i..].iter().position(|&c| c == ']') else {
                return Err((col(start), "`[` without `]`".into()));
            };
            let inner: String = chars[i + 1..i + close].iter().collect();
            let inner = inner.trim();
            let tok = if let Some(m) = inner.strip_prefix("unknown:") {
                let m = m.trim();
                let m = m.strip_prefix("0x").unwrap_or(m);
                match u32::from_str_radix(m, 16) {
                    Ok(v) if !m.is_empty() => Tok::Unknown(v),
                    _ => return Err((col(start), format!("bad mask in `[{inner}]`"))),
                }
            } else if inner == "unknown operand" {
                Tok::UnknownOperand
            } else if inner == "unknown instruction" {
                Tok::UnknownInstruction
            } else {
                return Err((col(start), format!("unknown annotation `[{inner}]`")));
            };
            out.push(Spanned {
                tok,
                col: col(start),
            });
            i += close + 1;
        } else if c == '?' {
            while chars.get(i) == Some(&'?') {
                i += 1;
            }
            out.push(Spanned {
                tok: Tok::Query,
                col: col(start),
            });
        } else if c.is_ascii_alphabetic() || c == '_' || c == '.' {
            while chars
                .get(i)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
            {
                i += 1;
            }
            let w: String = chars[start..i]
                .iter()
                .collect::<String>()
                .to_ascii_lowercase();
            out.push(Spanned {
                tok: Tok::Word(w),
                col: col(start),
            });
        } else {
            return Err((col(start), format!("unexpected character `{c}`")));
        }
    }
    Ok(out)
}

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
    let same = match (fmt::core(Inst { word: w }), fmt::core(Inst { word: full })) {
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
        for (w, t) in [
            (0x6510_0001, "mov $r2 0x1"),
            (0x651c_0000, "mov $r3 -0x40000"),
            (0x7510_1234, "sethi $r2 0x12340000"),
            (0x4c08_87c0, "add $r1 $c0 $r2 $r3"),
            (0x4c10_8404, "add $r2 $r2 (slct $c0 sf $r2d)"),
            (0x4d21_5091, "sub $r4 $c1 $r5 (slct $c2 b20 $r8q)"),
            (0x6df3_e000, "sub $r30 $c0 $r15 -0x400"),
            (0x6129_9ffc, "mul $r5 $r6 0x3ff"),
            (0x4208_8658, "or $r1 $c0 not $r2 $r3"),
            (0x4208_8628, "bitop 0x5 $r1 $c0 $r2 $r3"),
            (0x6308_bffc, "xor $r1 $r2 -0x1"),
            (0x3908_87fc, "bmax u $r1 $r2 0xff"),
            (0x0121_4c04, "bmul rd s $r4 s $r5 u $r6"),
            (0x3121_7f01, "bmul rn u $r4 u $r5 u 0xfc"),
            (0x2221_4081, "bmula rd s $r4 u $r5 u 0x81"),
            (0x24e8_0803, "vec 0x1 0x2 $vc1 zf 0x7"),
            (0x0442_0808, "bvecmad $r8 $r4q $c1 sf $vc0 sf 0x1"),
            (0x6a18_4010, "mov $v3 0x2 $r1"),
            (0x6b08_c010, "mov $r1 $v3 0x2"),
            (0x6a08_40a8, "mov $m33 $r1"),
            (0x6b09_c0c0, "mov $r1 $x7"),
            (0x4f00_0000, "snop"),
        ] {
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
        assert!(assemble("mov $c1 $r2").is_err(), "$c is read only");
        assert!(assemble(".word 0x100000000").is_err());
        assert!(assemble("add $r1 $r2").is_err());
    }
}
