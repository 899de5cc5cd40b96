//! SOPP: program control (AMD SI/CI/GCN3 ISA manuals, "SOPP Instructions"): end, branches,
//! barrier, and the instructions whose effect is only on timing.
//!
//! Branch target = pc + 4 + sext(SIMM16) × 4 (byte offsets in the code). A target outside
//! the code is reported by the next step as `PcOutOfCode`.
//!
//! No-ops, and why each is one here:
//! - `s_nop`, `s_sleep`, `s_setprio`, `s_wakeup`: they only delay the wave or change its
//!   scheduling priority; results do not depend on them.
//! - `s_waitcnt`: every memory access completes before the next instruction in this
//!   interpreter, so there is never an outstanding count to wait for.
//! - `s_icache_inv`: the code never changes while it runs.
//! - `s_incperflevel`, `s_decperflevel`: performance-counter markers with no architectural
//!   state.
//! - `s_sethalt 0`: "resume", and a running wave is not halted. `s_sethalt` with bit 0 set
//!   would stop the wave until a debugger resumes it: `Unsupported`.
//!
//! `Unsupported`: `s_sendmsg*` (messages to the graphics pipeline), `s_trap`, `s_setkill`,
//! `s_ttracedata`, the debugger branches `s_cbranch_cdbg*`, `s_endpgm_saved`, and the
//! GCN 1.2 VGPR-indexing instructions.

use wavejit_isa::gcn::Fields;
use wavejit_isa::state::Wave;

pub use super::adapt::branch_target;
use super::adapt::{R, S};
use crate::ctx::{bad_fields, unsupported, Control};

// Branch conditions (the `branch` adapter).

pub fn always(_: &Wave) -> bool {
    true
}
pub fn scc0(w: &Wave) -> bool {
    w.scc & 1 == 0
}
pub fn scc1(w: &Wave) -> bool {
    w.scc & 1 == 1
}
pub fn vccz(w: &Wave) -> bool {
    w.vcc == 0
}
pub fn vccnz(w: &Wave) -> bool {
    w.vcc != 0
}
pub fn execz(w: &Wave) -> bool {
    w.exec == 0
}
pub fn execnz(w: &Wave) -> bool {
    w.exec != 0
}

/// `s_sethalt 0` resumes a running wave: nothing to do; a set bit 0 would halt it.
pub fn s_sethalt(s: &mut S) -> R {
    match s.inst.fields {
        Fields::Sopp { simm16 } if simm16 & 1 == 0 => Ok(Control::Next),
        Fields::Sopp { .. } => Err(unsupported(s.inst)),
        _ => Err(bad_fields(s.inst)),
    }
}
