//! Operand signatures of non-VALU rows (register counts from `sig`, LLVM's example operand
//! list) for the printer and the assembler; the VALU shape (`ValuShape`) is
//! `crate::gcn::valu`'s, re-exported here.

use crate::arch::Gen;
use crate::gcn::table::{Op, Row, TableEnc};

pub use crate::gcn::desc::{Ty, ValuKind};
pub use crate::gcn::valu::{valu_row, valu_shape, ValuShape};

/// Split a signature into its comma-separated words (`"v1,vcc,v1"`), `+` suffixes removed.
pub(crate) fn sig_words(sig: &str) -> Vec<&str> {
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
