//! The scalar slots the lowering names, by their operand encoding numbers (SGPRs are
//! 0-103; `wavejit_isa::gcn::Src` has the same numbers). The register cache keeps every
//! slot (`block.rs`); these are the ones instructions read or write implicitly.

use wavejit_isa::gcn::Src;

/// VCC, low and high halves (implicit lane-mask source/destination of VOPC, carries,
/// V_CNDMASK).
pub const VCC_LO: u8 = Src::VCC_LO.0 as u8;
pub const VCC_HI: u8 = VCC_LO + 1;
/// M0 (VINTRP's parameter base, S_MOVREL's index, LDS limits).
pub const M0: u8 = Src::M0.0 as u8;
/// EXEC, low and high halves.
pub const EXEC_LO: u8 = Src::EXEC_LO.0 as u8;
pub const EXEC_HI: u8 = EXEC_LO + 1;
