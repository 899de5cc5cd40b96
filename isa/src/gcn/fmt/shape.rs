//! Operand shapes: which operands an instruction's text has, in which order, and of which
//! type. Read from the table row (its `shape` and `srcs` columns, and `sig`, LLVM's example
//! operand list, for register counts), so that the printer and the assembler read one
//! description.

use crate::arch::Gen;
use crate::gcn::table::{Op, Row, TableEnc};

pub use crate::gcn::desc::{Ty, ValuKind};

/// The operand shape of a VALU operation in one generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValuShape {
    pub kind: ValuKind,
    /// Dwords of the vector (or, for read lanes, scalar) destination; 0 = none.
    pub dst: u8,
    /// Types of SRC0-SRC2 as the VOP3 form numbers them (`None`: absent).
    pub src: [Option<Ty>; 3],
    /// The native row is VOP3B (scalar destination in bits 14:8).
    pub vop3b: bool,
    /// The native row (VOP1/VOP2/VOPC/VOP3/VOP3B).
    pub native: TableEnc,
    /// Whether the SDWA form exists on GCN 1.2 (the row's `forms` column).
    pub sdwa: bool,
    /// Whether the DPP form exists on GCN 1.2.
    pub dpp: bool,
}

impl ValuShape {
    /// Number of sources in the VOP3 form's text.
    pub fn nsrc(&self) -> usize {
        self.src.iter().filter(|s| s.is_some()).count()
    }
}

/// Split a signature into its comma-separated words (`"v1,vcc,v1"`), `+` suffixes removed.
fn sig_words(sig: &str) -> Vec<&str> {
    if sig.is_empty() {
        return Vec::new();
    }
    sig.split(',')
        .map(|w| w.split('+').next().unwrap_or(w))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Register count of a signature word (`v2` → 2, `s4` → 4, anything else 1).
pub fn word_dwords(w: &str) -> u8 {
    w.get(1..).and_then(|n| n.parse().ok()).unwrap_or(1)
}

/// The VALU row of `op` that exists in `gen`.
pub fn valu_row(gen: Gen, op: Op) -> Option<&'static Row> {
    op.rows().iter().copied().find(|r| {
        r.opcode[gen.index()].is_some()
            && matches!(
                r.enc,
                TableEnc::Vop1 | TableEnc::Vop2 | TableEnc::Vopc | TableEnc::Vop3 | TableEnc::Vop3b
            )
    })
}

/// The operand shape of a VALU operation in `gen` (`None` if `op` is no VALU op there):
/// the `shape` and `srcs` columns of its row, the destination's width from its signature.
pub fn valu_shape(gen: Gen, op: Op) -> Option<ValuShape> {
    let row = valu_row(gen, op)?;
    let kind = row.shape?;
    let dst = match kind {
        ValuKind::Empty => 0,
        ValuKind::Cmp => 2,
        _ => sig_words(row.sig).first().map_or(1, |w| word_dwords(w)),
    };
    Some(ValuShape {
        kind,
        dst,
        src: row.srcs.map(|t| t.map(|t| t.in_gen(gen))),
        vop3b: row.enc == TableEnc::Vop3b,
        native: row.enc,
        sdwa: row.sdwa,
        dpp: row.dpp,
    })
}

/// Dwords of each register operand of a non-VALU row's signature, in text order.
pub fn sig_dwords(row: &Row) -> Vec<(String, u8)> {
    sig_words(row.sig)
        .iter()
        .map(|w| (w.to_string(), word_dwords(w)))
        .collect()
}

/// `sig_dwords` of `op`'s row in native encoding `enc` on `gen` (empty when it has none).
pub fn row_sig(gen: Gen, op: Op, enc: TableEnc) -> Vec<(String, u8)> {
    op.row_in(gen, enc).map(sig_dwords).unwrap_or_default()
}
