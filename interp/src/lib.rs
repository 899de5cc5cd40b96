//! wavejit-interp: the reference semantics of every instruction, written to be obviously
//! right. It is the oracle the JIT is held to.
//!
//! Layout: `exec` (run loop and dispatch by encoding family), `valu/` (VOP1/VOP2/VOPC/VOP3
//! with SDWA and DPP: operand fetch, modifiers, per-lane semantics), `float` (MODE:
//! denormals, rounding), `vintrp`, `export` (EXP), `salu` (SOP1/SOP2/SOPK/SOPC/SOPP), `mem` (SMRD/SMEM,
//! DS, MUBUF, FLAT), `vp1` (the VP1 scalar unit), `threaded` (pre-decoded straight lines
//! run through the same functions).

#![deny(clippy::unwrap_used)]

pub mod ctx;
pub mod error;
pub mod exec;
pub mod export;
pub mod float;
pub mod mem;
pub mod profile;
pub mod salu;
pub mod threaded;
pub mod valu;
pub mod vintrp;
pub mod vp1;

pub use error::{ExecError, ExecErrorKind};
pub use exec::{run, step, Ctx, RunStats, Step};
