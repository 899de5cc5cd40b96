//! The VP1 lexer: one line of envydis/envyas text as tokens with their columns, and the
//! cursor the parsers of `syntax` read them with.

/// envydis' hex: `0x1f`, `-0x400`.
pub fn hex(v: i64) -> String {
    if v < 0 {
        format!("-0x{:x}", v.unsigned_abs())
    } else {
        format!("0x{v:x}")
    }
}

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
        Tok::Num(n) => format!("`{}`", hex(*n)),
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
    pub(super) fn new(toks: &'a [Spanned], eol: u32) -> Self {
        Cursor { toks, pos: 0, eol }
    }

    pub(super) fn depth(&self) -> usize {
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
            Tok::Word(w) => match super::fields::SLCT_NAMES.iter().position(|n| n == w) {
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
