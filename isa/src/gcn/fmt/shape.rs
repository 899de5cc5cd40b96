//! Operand signatures of non-VALU rows (register counts from `sig`, LLVM's example operand
//! list) for the printer and the assembler; the VALU shape (`ValuShape`) is
//! `crate::gcn::valu`'s, re-exported here.

use crate::arch::Gen;
use crate::gcn::table::{Op, Row, TableEnc};

use crate::gcn::desc::sig_words;
pub use crate::gcn::desc::{word_dwords, Ty, ValuKind};
pub use crate::gcn::valu::{valu_row, valu_shape, ValuShape};

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
