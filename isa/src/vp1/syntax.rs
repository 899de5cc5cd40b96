//! The written shape of every VP1 scalar form, in envydis' syntax: a list of operand atoms
//! per [`Form`]. Each atom prints itself (for `fmt`) and parses itself (for `asm`) next to
//! each other here, so the two directions cannot drift apart.
//!
//! While printing, each atom also records which bits envydis consumes (envydis reports the
//! unconsumed bits of the low byte as `[unknown: M]`) and the bits its text stands for when
//! assembled back (`canon`): the lossless printer appends whatever the text does not say.

use super::fields::{self as f, Field};
pub use super::lex::hex;
use super::lex::{split_reg, Cursor, Fail, Tok};
use super::rfile::{self, Dir, File};
use super::table::{Form, OpDesc, Sign};
use super::Inst;

/// Immediate operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Num {
    /// BIMM, bits 3-10, printed unsigned.
    Bimm,
    /// IMM, bits 3-13, signed.
    Imm,
    /// IMM19, bits 0-18, signed.
    Imm19,
    /// IMM16 << 16 (sethi), printed as the shifted value.
    ImmHi,
    /// BIMMMUL << 2.
    BimmMul,
    /// BIMMBAD, bits 0-7.
    BimmBad,
    /// vec's factors, 9-bit signed.
    Factor1,
    Factor2,
    /// bitop's truth table, bits 3-6.
    BitopVal,
}

/// One operand (or keyword) of a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atom {
    /// The row's mnemonic.
    Mnemonic,
    /// A fixed keyword (`not`, a bitop alias name).
    Word(&'static str),
    /// A field the keyword before it implies (bitop aliases set BITOP).
    Fixed(Field, u32),
    /// `s`/`u` of the opcode (the table's sign column; chooses between opcodes).
    OpSign,
    /// `rd`/`rn`: RND (bit 8).
    Rnd,
    /// `u`/`s` of a one-bit field (1 = `s`): SIGN1, SIGN2.
    SignBit(Field),
    /// `$rN`; `$r31` (hardwired 0) is printed `0x0`.
    Reg(Field),
    /// `$rNq` (bvecmad's register pair).
    RegQ(Field),
    /// `$cN` if CDST < 4; nothing otherwise (CDST 4-7 all mean "no `$c` write").
    Mcdst,
    /// SRC2 with source mangling: `(slct $cCOND <flag> $rNd)`, `...$rNq)` for SLCT 4, or a
    /// plain `$rN` for SLCT 14 (the always-0 flag).
    Slct,
    /// bvecmad's predicate: `$cCOND <flag>` (SLCT 14 is `false`).
    Pred,
    /// The s2v `$vc` selection: `$vcN sf|zf XFRM`.
    Vc,
    Num(Num),
    /// The other register file of mov 0x6a/0x6b (index in DST for `To`, SRC1 for `From`).
    Other(Dir),
    /// CDST consumed but not shown (mov to/from other files; canonical 0).
    IgnCd,
    /// Bits 0-23 consumed but not shown (snop; canonical 0).
    IgnAll,
}

use Atom::*;

/// The multiplies' atoms: `rd|rn s|u $rD s|u $rA s|u LAST`.
macro_rules! bmul {
    ($last:expr) => {
        &[
            Mnemonic,
            Rnd,
            OpSign,
            Reg(f::DST),
            SignBit(f::SIGN1),
            Reg(f::SRC1),
            SignBit(f::SIGN2),
            $last,
        ]
    };
}

/// The atoms of every form except `bitop` (see [`bitop_atoms`]) and `raw` (no syntax).
pub fn atoms(form: Form) -> &'static [Atom] {
    match form {
        Form::BmulR => bmul!(Reg(f::SRC2)),
        Form::BmulI => bmul!(Num(Num::BimmMul)),
        Form::BmulaI => bmul!(Num(Num::BimmBad)),
        Form::Vecmad => &[Mnemonic, Reg(f::SRC1), RegQ(f::SRC2), Pred, Vc],
        Form::ByteR => &[Mnemonic, OpSign, Reg(f::DST), Mcdst, Reg(f::SRC1), Slct],
        Form::ByteI => &[
            Mnemonic,
            OpSign,
            Reg(f::DST),
            Mcdst,
            Reg(f::SRC1),
            Num(Num::Bimm),
        ],
        Form::ByteU => &[Mnemonic, OpSign, Reg(f::DST), Mcdst, Reg(f::SRC1)],
        Form::Vsend => &[Mnemonic, Reg(f::SRC1), Vc],
        Form::Vec => &[Mnemonic, Num(Num::Factor1), Num(Num::Factor2), Vc],
        Form::Blog => &[Mnemonic, Reg(f::DST), Reg(f::SRC1), Num(Num::Bimm)],
        Form::ArithR => &[Mnemonic, Reg(f::DST), Mcdst, Reg(f::SRC1), Slct],
        Form::ArithI => &[Mnemonic, Reg(f::DST), Mcdst, Reg(f::SRC1), Num(Num::Imm)],
        Form::Unary => &[Mnemonic, Reg(f::DST), Mcdst, Reg(f::SRC1)],
        Form::Bitop => BITOP_GENERIC,
        Form::MovI => &[Mnemonic, Reg(f::DST), Num(Num::Imm19)],
        Form::Sethi => &[Mnemonic, Reg(f::DST), Num(Num::ImmHi)],
        Form::MovTo => &[Mnemonic, Other(Dir::To), Reg(f::SRC1), IgnCd],
        Form::MovFrom => &[Mnemonic, Reg(f::DST), Other(Dir::From), IgnCd],
        Form::Snop => &[Mnemonic, IgnAll],
        Form::Raw => &[],
    }
}

/// `bitop BITOP DST [$c] SRC1 SRC2`, for truth tables without an alias.
const BITOP_GENERIC: &[Atom] = &[
    Mnemonic,
    Num(Num::BitopVal),
    Reg(f::DST),
    Mcdst,
    Reg(f::SRC1),
    Reg(f::SRC2),
];

/// One entry of `BITOP_ALIASES`: the BITOP value, the alias, then its operands after
/// `$rD [$c]` (`NOT` before the source it inverts).
macro_rules! bitop_alias {
    ($v:literal, $name:literal, $($atom:expr),*) => {
        ($v, &[Word($name), Fixed(f::BITOP, $v), Reg(f::DST), Mcdst, $($atom),*])
    };
}
const NOT: Atom = Word("not");
const S1: Atom = Reg(f::SRC1);
const S2: Atom = Reg(f::SRC2);

/// The names envydis gives the common bitop truth tables (bit `(s1 << 1) | s2` of BITOP is
/// the result bit; ERRATA VP1 2): `and $rD $rA not $rB` is `s1 & ~s2` = 0x4, and so on.
/// These spell opcode 0x42 with a BITOP value; they are not further opcodes.
pub const BITOP_ALIASES: &[(u32, &[Atom])] = &[
    bitop_alias!(0x1, "nor", S1, S2),
    bitop_alias!(0x2, "and", NOT, S1, S2),
    bitop_alias!(0x4, "and", S1, NOT, S2),
    bitop_alias!(0x6, "xor", S1, S2),
    bitop_alias!(0x7, "nand", S1, S2),
    bitop_alias!(0x8, "and", S1, S2),
    bitop_alias!(0x9, "nxor", S1, S2),
    bitop_alias!(0xb, "or", NOT, S1, S2),
    bitop_alias!(0xd, "or", S1, NOT, S2),
    bitop_alias!(0xe, "or", S1, S2),
];

/// The atoms bitop word `inst` is printed with.
pub fn bitop_atoms(inst: Inst) -> &'static [Atom] {
    BITOP_ALIASES
        .iter()
        .find(|(v, _)| *v == inst.bitop())
        .map_or(BITOP_GENERIC, |(_, a)| *a)
}

/// The atoms `inst` is printed with; `None` when envydis has no syntax for it (`???`, an
/// unknown register file, another unit's word).
pub fn atoms_of(inst: Inst) -> Option<(&'static OpDesc, &'static [Atom])> {
    let d = inst.desc()?;
    let a = match d.form {
        Form::Raw => return None,
        Form::Bitop => bitop_atoms(inst),
        Form::MovTo => {
            rfile::file(inst.rfile(), Dir::To)?;
            atoms(d.form)
        }
        Form::MovFrom => {
            rfile::file(inst.rfile(), Dir::From)?;
            atoms(d.form)
        }
        form => atoms(form),
    };
    Some((d, a))
}

fn reg_name(v: u32) -> String {
    if v == 31 {
        "0x0".to_string()
    } else {
        format!("$r{v}")
    }
}

/// A number operand's field(s): where its bits live.
fn num_mask(n: Num) -> u32 {
    match n {
        Num::Bimm => f::BIMM.mask(),
        Num::Imm => f::IMM.mask(),
        Num::Imm19 => f::IMM19.mask(),
        Num::ImmHi => f::IMM16.mask(),
        Num::BimmMul => f::SRC2.mask() | f::BIT0.mask(),
        Num::BimmBad => f::BIMMBAD.mask(),
        Num::Factor1 => f::FACTOR1.mask(),
        Num::Factor2 => f::FACTOR2.mask(),
        Num::BitopVal => f::BITOP.mask(),
    }
}

fn num_value(n: Num, i: Inst) -> i64 {
    match n {
        Num::Bimm => i.bimm() as i64,
        Num::Imm => i.imm() as i64,
        Num::Imm19 => i.imm19() as i64,
        Num::ImmHi => (i.imm16() as i64) << 16,
        Num::BimmMul => (i.bimmmul() as i64) << 2,
        Num::BimmBad => i.bimmbad() as i64,
        Num::Factor1 => i.factor1() as i64,
        Num::Factor2 => i.factor2() as i64,
        Num::BitopVal => i.bitop() as i64,
    }
}

/// Encode number `v` of kind `n` into `w`, or say why it does not fit.
fn num_put(n: Num, w: u32, v: i64) -> Result<u32, String> {
    let range = |lo: i64, hi: i64| -> Result<u32, String> {
        if (lo..=hi).contains(&v) {
            Ok(v as u32)
        } else {
            Err(format!("{} out of range {}..={}", hex(v), hex(lo), hex(hi)))
        }
    };
    Ok(match n {
        Num::Bimm => f::BIMM.put(w, range(0, 0xff)?),
        Num::Imm => f::IMM.put(w, range(-0x400, 0x3ff)?),
        Num::Imm19 => f::IMM19.put(w, range(-0x40000, 0x3ffff)?),
        Num::ImmHi => {
            let x = range(0, 0xffff_0000)?;
            if x & 0xffff != 0 {
                return Err(format!(
                    "{} has low 16 bits set: sethi sets only the high half",
                    hex(v)
                ));
            }
            f::IMM16.put(w, x >> 16)
        }
        Num::BimmMul => {
            let x = range(0, 0xfc)?;
            if x & 3 != 0 {
                return Err(format!("{} is not a multiple of 4", hex(v)));
            }
            f::BIT0.put(f::SRC2.put(w, x >> 2), x >> 7)
        }
        Num::BimmBad => f::BIMMBAD.put(w, range(0, 0xff)?),
        Num::Factor1 => f::FACTOR1.put(w, range(-0x100, 0xff)?),
        Num::Factor2 => f::FACTOR2.put(w, range(-0x100, 0xff)?),
        Num::BitopVal => f::BITOP.put(w, range(0, 0xf)?),
    })
}

impl Atom {
    /// Print this atom of `inst` (row `d`) into `out`.
    pub fn print(self, inst: Inst, d: &OpDesc, out: &mut Out) {
        let w = inst.word;
        match self {
            Mnemonic => {
                out.push(d.mnemonic.unwrap_or("???"));
                out.canon |= (d.canon as u32) << 24;
            }
            Word(s) => out.push(s),
            Fixed(fld, v) => out.take(fld.mask(), fld.put(0, v)),
            OpSign => out.push(if d.sign == Sign::S { "s" } else { "u" }),
            Rnd => {
                out.push(if inst.rnd() { "rn" } else { "rd" });
                out.take(f::RND.mask(), w & f::RND.mask());
            }
            SignBit(fld) => {
                out.push(if fld.get(w) != 0 { "s" } else { "u" });
                out.take(fld.mask(), w & fld.mask());
            }
            Reg(fld) => {
                out.push(&reg_name(fld.get(w)));
                out.take(fld.mask(), w & fld.mask());
            }
            RegQ(fld) => {
                out.push(&format!("$r{}q", fld.get(w)));
                out.take(fld.mask(), w & fld.mask());
            }
            Mcdst => {
                let c = inst.cdst();
                if c < 4 {
                    out.push(&format!("$c{c}"));
                    out.take(f::CDST.mask(), c);
                } else {
                    out.take(f::CDST.mask(), 4);
                }
            }
            Slct => {
                let (s, r) = (inst.slct(), inst.src2());
                let m = f::SLCT.mask() | f::SRC2.mask();
                if s == f::SLCT_PLAIN {
                    out.push(&reg_name(r));
                    out.take(m, w & m);
                } else {
                    let suffix = if s == f::SLCT_QUAD { 'q' } else { 'd' };
                    let name = f::SLCT_NAMES.get(s as usize).copied().unwrap_or("?");
                    out.push(&format!("(slct $c{} {name} $r{r}{suffix})", inst.cond()));
                    let m = m | f::COND.mask();
                    out.take(m, w & m);
                    out.unknown_operand |= f::slct_is_unknown(s);
                }
            }
            Pred => {
                let s = inst.slct();
                out.push(&format!("$c{}", inst.cond()));
                out.push(f::SLCT_NAMES.get(s as usize).copied().unwrap_or("?"));
                let m = f::COND.mask() | f::SLCT.mask();
                out.take(m, w & m);
                out.unknown_operand |= f::slct_is_unknown(s);
            }
            Vc => {
                out.push(&format!("$vc{}", inst.vcidx()));
                out.push(if inst.vcflag() { "zf" } else { "sf" });
                out.push(&hex(inst.vcxfrm() as i64));
                let m = f::VCIDX.mask() | f::VCFLAG.mask() | f::VCXFRM_LO.mask() | f::BIT0.mask();
                out.take(m, w & m);
            }
            Num(n) => {
                out.push(&hex(num_value(n, inst)));
                let m = num_mask(n);
                out.take(m, w & m);
            }
            Other(dir) => {
                let Some(file) = rfile::file(inst.rfile(), dir) else {
                    // atoms_of() keeps unknown files away from here.
                    out.push("$???");
                    return;
                };
                let idx_field = if dir == Dir::To { f::DST } else { f::SRC1 };
                let idx = idx_field.get(w) & ((1 << file.printed_bits()) - 1);
                let shown = match file {
                    File::M { high: true } => idx + 32,
                    _ => idx,
                };
                match file.specials().iter().find(|(n, _)| *n == shown) {
                    Some((_, name)) => out.push(&format!("${name}")),
                    None => out.push(&format!("${}{shown}", file.prefix())),
                }
                if let File::V { word } = file {
                    out.push(&hex(word as i64));
                }
                out.take(
                    f::RFILE.mask() | idx_field.mask(),
                    f::RFILE.put(idx_field.put(0, idx), file.rfile()),
                );
            }
            IgnCd => out.take(f::CDST.mask(), 0),
            IgnAll => out.take(0x00ff_ffff, 0),
        }
    }

    /// Parse this atom from `cur` into word `w` for row `d`.
    pub fn parse(self, d: &OpDesc, cur: &mut Cursor, w: &mut u32) -> Result<(), Fail> {
        match self {
            Mnemonic => {
                let t = cur.next_tok("a mnemonic")?;
                match t.tok {
                    Tok::Word(ref s) if Some(s.as_str()) == d.mnemonic => Ok(()),
                    _ => Err(t.fail("a mnemonic")),
                }
            }
            Word(s) => cur.word(s),
            Fixed(fld, v) => {
                *w = fld.put(*w, v);
                Ok(())
            }
            OpSign => cur.word(if d.sign == Sign::S { "s" } else { "u" }),
            Rnd => {
                let t = cur.next_tok("rd or rn")?;
                let v = match t.tok {
                    Tok::Word(ref s) if s == "rd" => 0,
                    Tok::Word(ref s) if s == "rn" => 1,
                    _ => return Err(t.fail("rd or rn")),
                };
                *w = f::RND.put(*w, v);
                Ok(())
            }
            SignBit(fld) => {
                let t = cur.next_tok("s or u")?;
                let v = match t.tok {
                    Tok::Word(ref s) if s == "s" => 1,
                    Tok::Word(ref s) if s == "u" => 0,
                    _ => return Err(t.fail("s or u")),
                };
                *w = fld.put(*w, v);
                Ok(())
            }
            Reg(fld) => {
                let v = cur.gpr()?;
                *w = fld.put(*w, v);
                Ok(())
            }
            RegQ(fld) => {
                let v = cur.gpr_suffixed('q')?;
                *w = fld.put(*w, v);
                Ok(())
            }
            Mcdst => {
                let c = match cur.peek_reg() {
                    Some(("c", Some(n), "")) => {
                        let t = cur.next_tok("$c")?;
                        if n > 3 {
                            return Err(t.fail("$c0-$c3"));
                        }
                        n
                    }
                    _ => 4,
                };
                *w = f::CDST.put(*w, c);
                Ok(())
            }
            Slct => {
                if !cur.peek_is(&Tok::LParen) {
                    let v = cur.gpr()?;
                    *w = f::SRC2.put(f::COND.put(f::SLCT.put(*w, f::SLCT_PLAIN), 0), v);
                    return Ok(());
                }
                cur.next_tok("(")?;
                cur.word("slct")?;
                let c = cur.creg()?;
                let (s, t) = cur.flag_name()?;
                if s == f::SLCT_PLAIN {
                    return Err(
                        t.fail("a flag name: SLCT 14 (false) is written as a plain register")
                    );
                }
                let suffix = if s == f::SLCT_QUAD { 'q' } else { 'd' };
                let r = cur.gpr_suffixed(suffix)?;
                let t = cur.next_tok(")")?;
                if t.tok != Tok::RParen {
                    return Err(t.fail(")"));
                }
                *w = f::SRC2.put(f::COND.put(f::SLCT.put(*w, s), c), r);
                Ok(())
            }
            Pred => {
                let c = cur.creg()?;
                let (s, _) = cur.flag_name()?;
                *w = f::COND.put(f::SLCT.put(*w, s), c);
                Ok(())
            }
            Vc => {
                let t = cur.next_tok("$vc0-$vc3")?;
                let idx = match t.tok {
                    Tok::Reg(ref r) => match split_reg(r) {
                        ("vc", Some(n), "") if n <= 3 => n,
                        _ => return Err(t.fail("$vc0-$vc3")),
                    },
                    _ => return Err(t.fail("$vc0-$vc3")),
                };
                let t = cur.next_tok("sf or zf")?;
                let flag = match t.tok {
                    Tok::Word(ref s) if s == "sf" => 0,
                    Tok::Word(ref s) if s == "zf" => 1,
                    _ => return Err(t.fail("sf or zf")),
                };
                let (x, t) = cur.num()?;
                if !(0..=7).contains(&x) {
                    return Err(t.fail("a $vc transform 0x0-0x7"));
                }
                let x = x as u32;
                *w = f::BIT0.put(
                    f::VCXFRM_LO.put(f::VCFLAG.put(f::VCIDX.put(*w, idx), flag), x & 3),
                    x >> 2,
                );
                Ok(())
            }
            Num(n) => {
                let (v, t) = cur.num()?;
                *w = num_put(n, *w, v).map_err(|m| t.fail_msg(m))?;
                Ok(())
            }
            Other(dir) => {
                let t = cur.next_tok("a register of another file")?;
                let Tok::Reg(ref r) = t.tok else {
                    return Err(t.fail("a register of another file"));
                };
                let named = [
                    ("tick", File::Sr, 30),
                    ("csreq", File::Sr, 31),
                    ("uccfg", File::Uc, 16),
                ];
                let (mut file, idx) = match (named.iter().find(|(n, _, _)| n == r), split_reg(r)) {
                    (Some(&(_, file, idx)), _) => (file, idx),
                    (None, (p, Some(n), "")) => match File::from_prefix(p) {
                        Some(file) => (file, n),
                        None => return Err(t.fail("a register of another file")),
                    },
                    _ => return Err(t.fail("a register of another file")),
                };
                let mut idx = idx;
                match file {
                    File::V { .. } => {
                        let (word, t) = cur.num()?;
                        if !(0..=3).contains(&word) {
                            return Err(t.fail("a $v word 0x0-0x3"));
                        }
                        file = File::V { word: word as u32 };
                    }
                    File::M { .. } if idx >= 32 => {
                        file = File::M { high: true };
                        idx -= 32;
                    }
                    _ => {}
                }
                if idx >= 1 << file.printed_bits() {
                    return Err(t.fail_msg(format!("${} has no register {idx}", file.prefix())));
                }
                if rfile::file(file.rfile(), dir) != Some(file) {
                    return Err(t.fail_msg(format!("${} cannot be written by mov", file.prefix())));
                }
                let idx_field = if dir == Dir::To { f::DST } else { f::SRC1 };
                *w = f::RFILE.put(idx_field.put(*w, idx), file.rfile());
                Ok(())
            }
            IgnCd | IgnAll => Ok(()),
        }
    }
}
/// What printing a word produced: its tokens, the bits envydis consumes, the word the
/// tokens assemble to, and whether envydis flags an unknown operand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub toks: Vec<String>,
    pub consumed: u32,
    pub canon: u32,
    pub unknown_operand: bool,
}

impl Out {
    pub fn push(&mut self, s: &str) {
        self.toks.push(s.to_string());
    }
    /// Record that the text consumed `mask` and stands for `bits` there.
    pub fn take(&mut self, mask: u32, bits: u32) {
        self.consumed |= mask;
        self.canon |= bits & mask;
    }
    pub fn text(&self) -> String {
        self.toks.join(" ")
    }
}

/// The envydis tokens of `inst`, or `None` when it has no envydis syntax.
pub fn core(inst: Inst) -> Option<Out> {
    let (d, atoms) = atoms_of(inst)?;
    let mut out = Out {
        consumed: 0xff00_0000,
        ..Out::default()
    };
    for a in atoms {
        a.print(inst, d, &mut out);
    }
    Some(out)
}
