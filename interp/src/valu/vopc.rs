//! VOPC compares: the 16 float conditions, the 8 integer ones and V_CMP_CLASS, as pure
//! functions. What a compare computes (`CmpDesc`: condition, type, EXEC write) is the `cmp`
//! column of the table (`Op::compare`). V_CMPS* (GCN 1.0/1.1 "signalling" compares) give the
//! same results: exceptions are not modelled. V_CMPX* also write EXEC (the driver does that).

use std::cmp::Ordering;

pub use wavejit_isa::gcn::{CmpDesc, CmpTy, Cond};

use crate::float::{self, Format};

/// A condition as a truth table over the four outcomes of a comparison (bit 0 less,
/// 1 equal, 2 greater, 3 unordered), built once per instruction from `Cond::holds`, so
/// that each lane looks its outcome up instead of matching on the condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Truth(u8);

/// The outcomes in the order of `Truth`'s bits.
const OUTCOMES: [Option<Ordering>; 4] = [
    Some(Ordering::Less),
    Some(Ordering::Equal),
    Some(Ordering::Greater),
    None,
];

impl Truth {
    pub fn of(cond: Cond) -> Truth {
        Truth(
            OUTCOMES
                .iter()
                .enumerate()
                .fold(0, |t, (i, &o)| t | (cond.holds(o) as u8) << i),
        )
    }

    /// Whether the condition holds on outcome `o` (what `Cond::holds` answers).
    #[inline(always)]
    pub fn holds(self, o: Option<Ordering>) -> bool {
        // Less, Equal and Greater are -1, 0 and 1 as integers.
        let bit = o.map_or(3, |o| (o as i8 + 1) as u32);
        self.0 >> bit & 1 != 0
    }
}

/// A float compare after MODE's input flush (denormals compare as zero when flushed).
#[inline(always)]
pub fn cmp_float(fmt: Format, flush_in: bool, cond: Truth, a: u64, b: u64) -> bool {
    cond.holds(float::compare(fmt, flush_in, a, b))
}

/// An integer compare.
#[inline(always)]
pub fn cmp_int<T: Ord>(cond: Truth, a: T, b: T) -> bool {
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
    use wavejit_isa::gcn::table::ALL_OPS;
    use wavejit_isa::gcn::Op;

    #[test]
    fn the_table_describes_every_compare() {
        assert_eq!(
            Op::VCmpxNlgF64.compare(),
            Some(CmpDesc {
                cond: Some(Cond::Nlg),
                ty: CmpTy::F64,
                exec: true
            })
        );
        assert_eq!(
            Op::VCmpsUF32.compare(),
            Some(CmpDesc {
                cond: Some(Cond::U),
                ty: CmpTy::F32,
                exec: false
            })
        );
        assert_eq!(
            Op::VCmpNeU16.compare(),
            Some(CmpDesc {
                cond: Some(Cond::Lg),
                ty: CmpTy::U16,
                exec: false
            })
        );
        assert_eq!(
            Op::VCmpClassF16.compare(),
            Some(CmpDesc {
                cond: None,
                ty: CmpTy::F16,
                exec: false
            })
        );
        assert_eq!(Op::VCndmaskB32.compare(), None);
        // Every mnemonic spelled like a compare is one (the table has no gaps).
        for o in ALL_OPS {
            let m = o.mnemonic();
            let like = [
                "v_cmp_", "v_cmpx_", "v_cmps_", "v_cmpsx_", "s_cmp_", "s_cmpk_",
            ]
            .iter()
            .any(|p| m.starts_with(p));
            assert_eq!(like, o.compare().is_some(), "{m}");
        }
        let n = ALL_OPS.iter().filter(|o| o.compare().is_some()).count();
        assert!(n > 250, "{n} compares found in the table");
    }

    #[test]
    fn truth_tables_answer_as_the_conditions() {
        use wavejit_isa::gcn::table::ALL_OPS;
        let conds: Vec<Cond> = ALL_OPS.iter().filter_map(|o| o.compare()?.cond).collect();
        let mut seen = std::collections::HashSet::new();
        for c in conds {
            seen.insert(c);
            for o in OUTCOMES {
                assert_eq!(Truth::of(c).holds(o), c.holds(o), "{c:?} {o:?}");
            }
        }
        // The 16 float conditions (the 8 integer ones are among them).
        assert_eq!(seen.len(), 16);
        // By hand: GT holds on greater only, NLT on all but less (unordered included).
        assert_eq!(Truth::of(Cond::Gt), Truth(0b0100));
        assert_eq!(Truth::of(Cond::Nlt), Truth(0b1110));
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
