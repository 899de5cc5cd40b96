//! One line of assembly → a statement: labels, a mnemonic (or directive), operands (with
//! their source modifiers `-x`, `|x|`, `abs(x)`, `neg(x)`, `sext(x)`, `lit(x)`) and trailing
//! modifiers (`glc`, `offset:16`, `dst_sel:BYTE_1`, `quad_perm:[0,1,2,3]`, …). Syntax-neutral:
//! both CLRX and LLVM spellings come out the same; the encoders decide what they mean.

use super::lex::{lex, Tok, TokKind};

/// A positioned parse failure (1-based column).
#[derive(Clone, Debug, PartialEq)]
pub struct PErr {
    pub col: u32,
    pub msg: String,
}

fn perr<T>(col: u32, msg: impl Into<String>) -> Result<T, PErr> {
    Err(PErr {
        col,
        msg: msg.into(),
    })
}

/// A value written as an operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// A plain word: a register name (`v1`, `vcc`, `ttmp3`), `off`, `attr0.x`, a label, …
    Ident(String),
    /// `v[a:b]`, `s[a:b]`, `ttmp[a:b]` (file letter lowercased: 'v', 's', 't').
    Tuple(char, u32, u32),
    Int(i128),
    Float(f64),
    Str(String),
    /// `name(arg, …)`: `hwreg(...)`, `sendmsg(...)`, `vmcnt(3)`, `swizzle(...)`, `gpr_idx(...)`.
    Func(String, Vec<Val>),
}

/// The hardware takes the absolute value first and negates after (`-|x|`); a negation
/// inside an absolute value (`|-v1|`, `abs(neg(1))`) has no encoding. (`|-1|` is the
/// absolute value of the number -1.)
const NEG_IN_ABS: &str =
    "a negation inside an absolute value cannot be encoded (write -|x| or |x|)";

/// An operand with its source modifiers.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    pub val: Val,
    pub neg: bool,
    pub abs: bool,
    pub sext: bool,
    /// `lit(...)`: keep the value as a literal even when an inline constant could encode it.
    pub lit: bool,
    pub col: u32,
}

impl Operand {
    /// An operand without source modifiers.
    pub fn plain(val: Val, col: u32) -> Operand {
        Operand {
            val,
            neg: false,
            abs: false,
            sext: false,
            lit: false,
            col,
        }
    }
}

/// A trailing modifier: `name` or `name:value`.
#[derive(Clone, Debug, PartialEq)]
pub struct Modifier {
    /// Lowercased.
    pub name: String,
    /// The name as written (a bare word is a label where a branch expects one).
    pub word: String,
    pub value: Option<ModVal>,
    pub col: u32,
}

/// The modifier `name` (lowercased) written as `word` at `col`.
fn modifier(name: String, word: &str, value: Option<ModVal>, col: u32) -> Arg {
    Arg::Mod(Modifier {
        name,
        word: word.to_string(),
        value,
        col,
    })
}

#[derive(Clone, Debug, PartialEq)]
pub enum ModVal {
    Int(i128),
    Ident(String),
    /// `[a,b,...]` of numbers or words.
    List(Vec<Val>),
    /// `swizzle(...)` and the like.
    Func(String, Vec<Val>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Op(Operand),
    Mod(Modifier),
}

/// A parsed line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stmt {
    pub labels: Vec<(String, u32)>,
    /// The mnemonic or directive as written, and its column.
    pub head: Option<(String, u32)>,
    pub args: Vec<Arg>,
}

/// Bare words that are modifiers, not operands.
pub const FLAG_WORDS: &[&str] = &[
    "glc",
    "slc",
    "tfe",
    "lds",
    "gds",
    "offen",
    "idxen",
    "addr64",
    "clamp",
    "high",
    "unorm",
    "da",
    "r128",
    "lwe",
    "d16",
    "done",
    "compr",
    "vm",
    "row_mirror",
    "row_half_mirror",
    "bound_ctrl",
    "sdwa",
    "dpp",
    "vop3",
    "wave_shl",
    "wave_shr",
    "wave_rol",
    "wave_ror",
];

/// Flags that LLVM also accepts with a `no` prefix, meaning off (`noclamp`, `noglc`).
const NEGATABLE: &[&str] = &[
    "glc", "slc", "tfe", "lds", "gds", "clamp", "high", "unorm", "da", "r128", "lwe", "d16",
];

struct P<'a> {
    t: &'a [Tok],
    i: usize,
    end_col: u32,
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<&'a TokKind> {
        self.t.get(self.i).map(|t| &t.kind)
    }
    fn peek2(&self) -> Option<&'a TokKind> {
        self.t.get(self.i + 1).map(|t| &t.kind)
    }
    fn col(&self) -> u32 {
        self.t.get(self.i).map_or(self.end_col, |t| t.col)
    }
    fn bump(&mut self) -> Option<&'a Tok> {
        let t = self.t.get(self.i);
        self.i += 1;
        t
    }
    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&TokKind::Punct(c))
    }
    fn expect(&mut self, c: char) -> Result<(), PErr> {
        if self.is_punct(c) {
            self.i += 1;
            Ok(())
        } else {
            perr(self.col(), format!("expected `{c}`"))
        }
    }

    /// An integer, possibly written as an expression (LLVM's absolute expressions as its
    /// tests write them: `-1+1`, `ttmp[(3+2)*2+1]`, `v[63/8+1]`): `+ - * /` with the usual
    /// precedence, unary minus and parentheses; division truncates, as LLVM's.
    fn int(&mut self) -> Result<i128, PErr> {
        self.expr(0)
    }

    fn expr(&mut self, depth: u32) -> Result<i128, PErr> {
        self.chain(depth, ['+', '-'], Self::term, |c, a, b| {
            if c == '+' {
                a.checked_add(b)
            } else {
                a.checked_sub(b)
            }
        })
    }

    fn term(&mut self, depth: u32) -> Result<i128, PErr> {
        self.chain(depth, ['*', '/'], Self::unary, |c, a, b| {
            if c == '*' {
                a.checked_mul(b)
            } else {
                a.checked_div(b)
            }
        })
    }

    /// A left-associative chain `next (op next)*` of the operators `ops`, where
    /// `apply(op, a, b)` computes one step; every value stays within 64 bits (signed or
    /// unsigned), and a division by zero is an error.
    fn chain(
        &mut self,
        depth: u32,
        ops: [char; 2],
        next: fn(&mut Self, u32) -> Result<i128, PErr>,
        apply: fn(char, i128, i128) -> Option<i128>,
    ) -> Result<i128, PErr> {
        let mut v = next(self, depth)?;
        while let Some(&TokKind::Punct(c)) = self.peek() {
            if !ops.contains(&c) {
                break;
            }
            let col = self.col();
            self.i += 1;
            let r = next(self, depth)?;
            if c == '/' && r == 0 {
                return perr(col, "division by zero");
            }
            v = apply(c, v, r)
                .filter(|x| x.unsigned_abs() <= u64::MAX as u128)
                .ok_or(PErr {
                    col,
                    msg: "the expression overflows 64 bits".into(),
                })?;
        }
        Ok(v)
    }

    fn unary(&mut self, depth: u32) -> Result<i128, PErr> {
        let col = self.col();
        if depth > 32 {
            return perr(col, "expression nested too deeply");
        }
        match self.bump().map(|t| &t.kind) {
            Some(TokKind::Punct('-')) => Ok(-self.unary(depth + 1)?),
            Some(TokKind::Punct('+')) => self.unary(depth + 1),
            Some(TokKind::Punct('(')) => {
                let v = self.expr(depth + 1)?;
                self.expect(')')?;
                Ok(v)
            }
            Some(TokKind::Int(v)) => Ok(*v),
            _ => perr(col, "expected a number"),
        }
    }

    /// Whether the tokens from here are an integer expression rather than a plain number
    /// (a number followed by an operator, or an opening parenthesis).
    fn at_expr(&self) -> bool {
        let mut k = self.i;
        while self.t.get(k).map(|t| &t.kind) == Some(&TokKind::Punct('-')) {
            k += 1;
        }
        match self.t.get(k).map(|t| &t.kind) {
            Some(TokKind::Punct('(')) => true,
            Some(TokKind::Int(_)) => matches!(
                self.t.get(k + 1).map(|t| &t.kind),
                Some(TokKind::Punct('+' | '-' | '*' | '/'))
            ),
            _ => false,
        }
    }

    /// An atom inside `f(...)` or `[...]`: number, word, string.
    fn atom(&mut self) -> Result<Val, PErr> {
        let col = self.col();
        if self.is_punct('@') {
            self.i += 1;
            return Ok(Val::Int(self.int()?));
        }
        if self.is_punct('-') {
            self.i += 1;
            return match self.bump().map(|t| &t.kind) {
                Some(TokKind::Int(v)) => Ok(Val::Int(-*v)),
                Some(TokKind::Float(v)) => Ok(Val::Float(-*v)),
                _ => perr(col, "expected a number after `-`"),
            };
        }
        match self.bump().map(|t| &t.kind) {
            Some(TokKind::Int(v)) => Ok(Val::Int(*v)),
            Some(TokKind::Float(v)) => Ok(Val::Float(*v)),
            Some(TokKind::Ident(s)) => Ok(Val::Ident(s.clone())),
            Some(TokKind::Str(s)) => Ok(Val::Str(s.clone())),
            _ => perr(col, "expected a value"),
        }
    }

    /// `(a, b, ...)` after a function name.
    fn call_args(&mut self) -> Result<Vec<Val>, PErr> {
        self.expect('(')?;
        if self.is_punct(')') {
            self.i += 1;
            return Ok(Vec::new());
        }
        self.items(')', Self::atom)
    }

    /// One or more `item`s separated by commas, up to and including `close`.
    fn items(
        &mut self,
        close: char,
        mut item: impl FnMut(&mut Self) -> Result<Val, PErr>,
    ) -> Result<Vec<Val>, PErr> {
        let mut v = Vec::new();
        loop {
            v.push(item(self)?);
            if self.is_punct(',') {
                self.i += 1;
                continue;
            }
            self.expect(close)?;
            return Ok(v);
        }
    }

    /// `[a, b, ...]`.
    fn list(&mut self) -> Result<Vec<Val>, PErr> {
        self.expect('[')?;
        self.items(']', |p| {
            // `@expr` in a list is a raw field value (CLRX's `format:[@3, uint]`), kept
            // apart from a name that is a number (`format:[32]`).
            if p.is_punct('@') {
                p.i += 1;
                Ok(Val::Func("@".into(), vec![Val::Int(p.int()?)]))
            } else {
                p.atom()
            }
        })
    }

    /// An operand with optional source modifiers.
    fn operand(&mut self) -> Result<Operand, PErr> {
        let col = self.col();
        // CLRX's `@expr`: the operand is the integer value of the expression, never a
        // register name or source modifier (`@-1` is the constant -1, `@2*3` is 6).
        if self.is_punct('@') {
            self.i += 1;
            return Ok(Operand::plain(Val::Int(self.int()?), col));
        }
        if self.at_expr() {
            return Ok(Operand::plain(Val::Int(self.int()?), col));
        }
        match self.peek() {
            Some(TokKind::Punct('-')) => {
                self.i += 1;
                // `-1.0` is a number; `-v1`, `-|v1|`, `-abs(v1)` negate an operand.
                match self.peek() {
                    Some(TokKind::Int(v)) => {
                        let v = -*v;
                        self.i += 1;
                        Ok(Operand::plain(Val::Int(v), col))
                    }
                    Some(TokKind::Float(v)) => {
                        let v = -*v;
                        self.i += 1;
                        Ok(Operand::plain(Val::Float(v), col))
                    }
                    _ => {
                        let mut o = self.operand()?;
                        if o.neg {
                            return perr(col, "double negation");
                        }
                        o.neg = true;
                        o.col = col;
                        Ok(o)
                    }
                }
            }
            Some(TokKind::Punct('|')) => {
                self.i += 1;
                let mut o = self.operand()?;
                self.expect('|')?;
                if o.abs {
                    return perr(col, "double absolute value");
                }
                if o.neg {
                    return perr(col, NEG_IN_ABS);
                }
                o.abs = true;
                o.col = col;
                Ok(o)
            }
            Some(TokKind::Ident(name)) => {
                let lname = name.to_ascii_lowercase();
                if self.peek2() == Some(&TokKind::Punct('(')) {
                    if matches!(lname.as_str(), "abs" | "neg" | "sext" | "lit") {
                        self.i += 2;
                        let mut o = self.operand()?;
                        self.expect(')')?;
                        if lname == "abs" && o.neg {
                            return perr(col, NEG_IN_ABS);
                        }
                        let flag = match lname.as_str() {
                            "abs" => &mut o.abs,
                            "neg" => &mut o.neg,
                            "sext" => &mut o.sext,
                            _ => &mut o.lit,
                        };
                        if *flag {
                            return perr(col, format!("`{lname}` given twice"));
                        }
                        *flag = true;
                        o.col = col;
                        return Ok(o);
                    }
                    self.i += 1;
                    let args = self.call_args()?;
                    return Ok(Operand::plain(Val::Func(lname, args), col));
                }
                if self.peek2() == Some(&TokKind::Punct('['))
                    && matches!(lname.as_str(), "v" | "s" | "ttmp")
                {
                    self.i += 2;
                    let lo = self.int()?;
                    let hi = if self.is_punct(':') {
                        self.i += 1;
                        self.int()?
                    } else {
                        lo
                    };
                    self.expect(']')?;
                    if lo < 0 || hi < lo || hi > 1023 {
                        return perr(col, format!("bad register range [{lo}:{hi}]"));
                    }
                    let f = lname.chars().next().unwrap_or('v');
                    return Ok(Operand::plain(Val::Tuple(f, lo as u32, hi as u32), col));
                }
                self.i += 1;
                Ok(Operand::plain(Val::Ident(name.clone()), col))
            }
            Some(TokKind::Punct('{')) => {
                // LLVM's structured immediate `{id: 51, offset: 1, size: 31}` (s_getreg /
                // s_setreg): kept as `{}`(key, value, key, value, ...).
                self.i += 1;
                let mut fields = Vec::new();
                while !self.is_punct('}') {
                    let kcol = self.col();
                    let key = match self.bump().map(|t| &t.kind) {
                        Some(TokKind::Ident(k)) => k.to_ascii_lowercase(),
                        _ => return perr(kcol, "expected a field name"),
                    };
                    self.expect(':')?;
                    let v = match self.peek() {
                        Some(TokKind::Ident(_)) => self.atom()?,
                        _ => Val::Int(self.int()?),
                    };
                    fields.push(Val::Ident(key));
                    fields.push(v);
                    if self.is_punct(',') {
                        self.i += 1;
                    } else if !self.is_punct('}') {
                        return perr(self.col(), "expected `,` or `}`");
                    }
                }
                self.i += 1;
                Ok(Operand::plain(Val::Func("{}".into(), fields), col))
            }
            Some(TokKind::Punct('[')) => {
                self.i += 1;
                let mut regs = Vec::new();
                loop {
                    let o = self.operand()?;
                    if o.neg || o.abs || o.sext || o.lit {
                        return perr(o.col, "a register list holds plain registers");
                    }
                    regs.push(o);
                    if self.is_punct(',') {
                        self.i += 1;
                        continue;
                    }
                    self.expect(']')?;
                    break;
                }
                Ok(Operand::plain(reg_list(&regs)?, col))
            }
            Some(TokKind::Int(v)) => {
                let v = *v;
                self.i += 1;
                Ok(Operand::plain(Val::Int(v), col))
            }
            Some(TokKind::Float(v)) => {
                let v = *v;
                self.i += 1;
                Ok(Operand::plain(Val::Float(v), col))
            }
            Some(TokKind::Str(s)) => {
                let s = s.clone();
                self.i += 1;
                Ok(Operand::plain(Val::Str(s), col))
            }
            Some(_) => perr(col, "expected an operand"),
            None => perr(col, "expected an operand"),
        }
    }

    /// The value after `name:`.
    fn mod_value(&mut self) -> Result<ModVal, PErr> {
        let col = self.col();
        match self.peek() {
            Some(TokKind::Punct('[')) => Ok(ModVal::List(self.list()?)),
            Some(TokKind::Punct('-' | '(')) | Some(TokKind::Int(_)) => Ok(ModVal::Int(self.int()?)),
            Some(TokKind::Ident(s)) => {
                let s = s.clone();
                self.i += 1;
                if self.is_punct('(') {
                    let args = self.call_args()?;
                    return Ok(ModVal::Func(s.to_ascii_lowercase(), args));
                }
                Ok(ModVal::Ident(s))
            }
            _ => perr(col, "expected a modifier value"),
        }
    }
}

/// One numbered register of a list (`s6`, `v[3]`, `ttmp4`) as (file letter, index).
fn list_reg(v: &Val) -> Option<(char, u32)> {
    match v {
        Val::Tuple(f, lo, hi) if lo == hi => Some((*f, *lo)),
        Val::Ident(n) => {
            let l = n.to_ascii_lowercase();
            let (f, digits) = if let Some(d) = l.strip_prefix("ttmp") {
                ('t', d)
            } else if let Some(d) = l.strip_prefix('s') {
                ('s', d)
            } else {
                ('v', l.strip_prefix('v')?)
            };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some((f, digits.parse().ok()?))
        }
        _ => None,
    }
}

/// LLVM's register list `[s6,s7]`, `[exec_lo,exec_hi]`: consecutive registers of one file,
/// or the two halves of a named 64-bit register, as the one operand they spell.
fn reg_list(regs: &[Operand]) -> Result<Val, PErr> {
    let col = regs.first().map_or(0, |o| o.col);
    if let [a, b] = regs {
        if let (Val::Ident(a), Val::Ident(b)) = (&a.val, &b.val) {
            let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
            if let (Some(x), Some(y)) = (a.strip_suffix("_lo"), b.strip_suffix("_hi")) {
                if x == y {
                    return Ok(Val::Ident(x.to_string()));
                }
            }
        }
    }
    let mut first: Option<(char, u32)> = None;
    for (k, o) in regs.iter().enumerate() {
        let Some((f, i)) = list_reg(&o.val) else {
            return perr(
                o.col,
                "a register list holds numbered registers or the halves of one",
            );
        };
        match first {
            None => first = Some((f, i)),
            Some((f0, i0)) if f0 == f && i0 + k as u32 == i => {}
            Some(_) => {
                return perr(
                    o.col,
                    "registers in a list must be consecutive and of one kind",
                )
            }
        }
    }
    let (f, lo) = first.ok_or(PErr {
        col,
        msg: "empty register list".into(),
    })?;
    Ok(Val::Tuple(f, lo, lo + regs.len() as u32 - 1))
}

/// Parse one line.
pub fn parse_line(line: &str) -> Result<Stmt, PErr> {
    let toks = lex(line).map_err(|(col, msg)| PErr { col, msg })?;
    let end_col = line.chars().count() as u32 + 1;
    let mut p = P {
        t: &toks,
        i: 0,
        end_col,
    };
    let mut st = Stmt::default();
    // Labels: `name:` at the start.
    while let (Some(TokKind::Ident(n)), Some(TokKind::Punct(':'))) = (p.peek(), p.peek2()) {
        st.labels.push((n.clone(), p.col()));
        p.i += 2;
    }
    match p.peek() {
        None => return Ok(st),
        Some(TokKind::Ident(n)) => {
            st.head = Some((n.clone(), p.col()));
            p.i += 1;
        }
        Some(_) => return perr(p.col(), "expected a mnemonic, directive or label"),
    }
    // Items are separated by commas (operands), spaces (modifiers) or `&` (waitcnt); a
    // separator must follow an item.
    let mut after_item = false;
    while p.peek().is_some() {
        if p.is_punct(',') || p.is_punct('&') {
            if !after_item {
                return perr(p.col(), "expected an operand before the separator");
            }
            after_item = false;
            let comma = p.is_punct(',');
            p.i += 1;
            // A trailing comma ends the list (LLVM accepts `flat_atomic_smax v[3:4], v5,`).
            if p.peek().is_none() && !comma {
                return perr(p.col(), "expected an operand after the separator");
            }
            continue;
        }
        after_item = true;
        let col = p.col();
        if let Some(TokKind::Ident(n)) = p.peek() {
            let l = n.to_ascii_lowercase();
            if p.peek2() == Some(&TokKind::Punct(':')) {
                p.i += 2;
                let v = p.mod_value()?;
                // CLRX's `clamp:0`, `glc:1`, `vop3:0`: an on/off flag with a value is on
                // for 1 and absent for 0. (DPP's `wave_shl:1`, `row_mirror` and LLVM's
                // `bound_ctrl:0` are controls, not flags.)
                if FLAG_WORDS.contains(&l.as_str())
                    && !(l.starts_with("wave_") || l.starts_with("row_") || l == "bound_ctrl")
                {
                    match v {
                        ModVal::Int(0) => continue,
                        ModVal::Int(1) => {
                            st.args.push(modifier(l, n, None, col));
                            continue;
                        }
                        _ => return perr(col, format!("`{l}` takes 0 or 1")),
                    }
                }
                st.args.push(modifier(l, n, Some(v), col));
                continue;
            }
            // LLVM's `noclamp`, `noglc`, …: the flag, off (as if not written).
            if l.strip_prefix("no").is_some_and(|f| NEGATABLE.contains(&f)) {
                p.i += 1;
                continue;
            }
            if FLAG_WORDS.contains(&l.as_str()) {
                p.i += 1;
                st.args.push(modifier(l, n, None, col));
                continue;
            }
        }
        let o = p.operand()?;
        st.args.push(Arg::Op(o));
    }
    // A modifier given twice is a mistake, whatever the values (as LLVM).
    let mods: Vec<&Modifier> = st
        .args
        .iter()
        .filter_map(|a| match a {
            Arg::Mod(m) => Some(m),
            Arg::Op(_) => None,
        })
        .collect();
    for (i, m) in mods.iter().enumerate() {
        if mods[..i].iter().any(|x| x.name == m.name) {
            return perr(m.col, format!("`{}` given twice", m.name));
        }
    }
    Ok(st)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn operands_and_modifiers() {
        let s = parse_line("lbl: v_add_f32_e64 v1, -|v2|, neg(1.0) clamp mul:2 ; c").unwrap();
        assert_eq!(s.labels, vec![("lbl".to_string(), 1)]);
        assert_eq!(s.head, Some(("v_add_f32_e64".to_string(), 6)));
        assert_eq!(s.args.len(), 5);
        match &s.args[1] {
            Arg::Op(o) => {
                assert!(o.neg && o.abs);
                assert_eq!(o.val, Val::Ident("v2".into()));
            }
            a => panic!("{a:?}"),
        }
        match &s.args[2] {
            Arg::Op(o) => assert!(o.neg && o.val == Val::Float(1.0)),
            a => panic!("{a:?}"),
        }
        assert!(
            matches!(&s.args[4], Arg::Mod(m) if m.name == "mul" && m.value == Some(ModVal::Int(2)))
        );
        let s = parse_line("s_load_dwordx2 s[2:3], s[4:5], 0x10").unwrap();
        assert!(matches!(&s.args[0], Arg::Op(o) if o.val == Val::Tuple('s', 2, 3)));
        let s = parse_line("v_mov_b32 v0, v1 quad_perm:[1,0,3,2] row_mask:0xa").unwrap();
        assert!(
            matches!(&s.args[2], Arg::Mod(m) if m.value == Some(ModVal::List(vec![Val::Int(1), Val::Int(0), Val::Int(3), Val::Int(2)])))
        );
        let s = parse_line("s_waitcnt vmcnt(0) & lgkmcnt(1)").unwrap();
        assert_eq!(s.args.len(), 2);
        assert_eq!(parse_line("v_mov_b32 v1, v[2").unwrap_err().col, 18);
        // The outer minus (column 15) finds its operand already negated.
        let e = parse_line("v_mov_b32 v1, --v2").unwrap_err();
        assert_eq!((e.col, e.msg.as_str()), (15, "double negation"));
    }
}
