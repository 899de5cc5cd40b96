//! VOPC compares: the 16 float conditions, the 8 integer ones and V_CMP_CLASS, as pure
//! functions; and what a compare mnemonic means (`CmpDesc`), read from the mnemonic of the
//! table row — `v_cmp{s}{x}_<cond>_<type>` — so no list of compare opcodes is kept here.
//! V_CMPS* (GCN 1.0/1.1 "signalling" compares) give the same results: exceptions are not
//! modelled. V_CMPX* also write EXEC (the driver does that).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::OnceLock;

use wavejit_isa::gcn::table::ALL_OPS;
use wavejit_isa::gcn::Op;

use crate::float::{self, Format};

/// A compare condition. The float ones follow IEEE: an unordered pair (a NaN) is false for
/// F/LT/EQ/LE/GT/LG/GE/O and true for U/NGE/NLG/NGT/NLE/NEQ/NLT/TRU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    /// LG for floats, NE for integers (ordered not-equal).
    Lg,
    Ge,
    O,
    U,
    Nge,
    Nlg,
    Ngt,
    Nle,
    Neq,
    Nlt,
    /// TRU for floats, T for integers.
    Tru,
}

impl Cond {
    fn parse(s: &str) -> Option<Cond> {
        Some(match s {
            "f" => Cond::F,
            "lt" => Cond::Lt,
            "eq" => Cond::Eq,
            "le" => Cond::Le,
            "gt" => Cond::Gt,
            "lg" | "ne" => Cond::Lg,
            "ge" => Cond::Ge,
            "o" => Cond::O,
            "u" => Cond::U,
            "nge" => Cond::Nge,
            "nlg" => Cond::Nlg,
            "ngt" => Cond::Ngt,
            "nle" => Cond::Nle,
            "neq" => Cond::Neq,
            "nlt" => Cond::Nlt,
            "tru" | "t" => Cond::Tru,
            _ => return None,
        })
    }

    /// The condition on an ordering (`None`: unordered).
    pub fn holds(self, o: Option<Ordering>) -> bool {
        use Ordering::*;
        match self {
            Cond::F => false,
            Cond::Lt => o == Some(Less),
            Cond::Eq => o == Some(Equal),
            Cond::Le => matches!(o, Some(Less | Equal)),
            Cond::Gt => o == Some(Greater),
            Cond::Lg => matches!(o, Some(Less | Greater)),
            Cond::Ge => matches!(o, Some(Greater | Equal)),
            Cond::O => o.is_some(),
            Cond::U => o.is_none(),
            Cond::Nge => !matches!(o, Some(Greater | Equal)),
            Cond::Nlg => !matches!(o, Some(Less | Greater)),
            Cond::Ngt => o != Some(Greater),
            Cond::Nle => !matches!(o, Some(Less | Equal)),
            Cond::Neq => o != Some(Equal),
            Cond::Nlt => o != Some(Less),
            Cond::Tru => true,
        }
    }
}

/// The operand type of a compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpTy {
    F16,
    F32,
    F64,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
}

/// What a compare does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CmpDesc {
    /// `None` for V_CMP_CLASS.
    pub cond: Option<Cond>,
    pub ty: CmpTy,
    /// V_CMPX: also writes EXEC.
    pub exec: bool,
}

/// The meaning of a compare operation, from its mnemonic; `None` for anything else.
pub fn desc(op: Op) -> Option<CmpDesc> {
    static MAP: OnceLock<HashMap<Op, CmpDesc>> = OnceLock::new();
    MAP.get_or_init(|| {
        ALL_OPS
            .iter()
            .filter_map(|&o| parse(o.mnemonic()).map(|d| (o, d)))
            .collect()
    })
    .get(&op)
    .copied()
}

fn parse(m: &str) -> Option<CmpDesc> {
    let mut parts = m.split('_');
    if parts.next()? != "v" {
        return None;
    }
    let exec = match parts.next()? {
        "cmp" | "cmps" => false,
        "cmpx" | "cmpsx" => true,
        _ => return None,
    };
    let cond = parts.next()?;
    let ty = match parts.next()? {
        "f16" => CmpTy::F16,
        "f32" => CmpTy::F32,
        "f64" => CmpTy::F64,
        "i16" => CmpTy::I16,
        "u16" => CmpTy::U16,
        "i32" => CmpTy::I32,
        "u32" => CmpTy::U32,
        "i64" => CmpTy::I64,
        "u64" => CmpTy::U64,
        _ => return None,
    };
    if parts.next().is_some() {
        return None;
    }
    let cond = if cond == "class" {
        None
    } else {
        Some(Cond::parse(cond)?)
    };
    Some(CmpDesc { cond, ty, exec })
}

/// A float compare after MODE's input flush (denormals compare as zero when flushed).
pub fn cmp_float(fmt: Format, flush_in: bool, cond: Cond, a: u64, b: u64) -> bool {
    cond.holds(float::compare(fmt, flush_in, a, b))
}

/// An integer compare.
pub fn cmp_int<T: Ord>(cond: Cond, a: T, b: T) -> bool {
    cond.holds(Some(a.cmp(&b)))
}

/// V_CMP_CLASS: whether the class of `a` (float.rs `class_bit`: 0 sNaN, 1 qNaN, 2 -inf,
/// 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf) is set in `mask`.
pub fn cmp_class(fmt: Format, a: u64, mask: u32) -> bool {
    mask >> float::class_bit(fmt, a) & 1 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mnemonics_parse() {
        assert_eq!(
            parse("v_cmpx_nlg_f64"),
            Some(CmpDesc {
                cond: Some(Cond::Nlg),
                ty: CmpTy::F64,
                exec: true
            })
        );
        assert_eq!(
            parse("v_cmps_u_f32"),
            Some(CmpDesc {
                cond: Some(Cond::U),
                ty: CmpTy::F32,
                exec: false
            })
        );
        assert_eq!(
            parse("v_cmp_ne_u16"),
            Some(CmpDesc {
                cond: Some(Cond::Lg),
                ty: CmpTy::U16,
                exec: false
            })
        );
        assert_eq!(
            parse("v_cmp_class_f16"),
            Some(CmpDesc {
                cond: None,
                ty: CmpTy::F16,
                exec: false
            })
        );
        assert_eq!(parse("v_cndmask_b32"), None);
        assert_eq!(parse("v_cmp_lt_f32_e64"), None);
        let n = ALL_OPS.iter().filter(|o| desc(**o).is_some()).count();
        assert!(n > 250, "{n} compares found in the table");
    }

    #[test]
    fn unordered_truth_table() {
        for (c, want) in [
            (Cond::Lt, false),
            (Cond::Nge, true),
            (Cond::O, false),
            (Cond::U, true),
            (Cond::Neq, true),
            (Cond::Lg, false),
        ] {
            assert_eq!(c.holds(None), want, "{c:?}");
        }
    }
}
