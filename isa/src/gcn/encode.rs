//! GCN encoder: `Inst` → words, driven by the table. (Being written: see issue 2.)

use super::inst::Inst;
use crate::arch::Gen;

/// Encode `inst` for `gen` as little-endian dwords (literal included).
pub fn encode(_gen: Gen, _inst: &Inst) -> Result<Vec<u32>, String> {
    Err("encoder not written yet".into())
}
