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

use wavejit_isa::gcn::{Fields, Inst, Op};

use crate::ctx::{bad_fields, unsupported, Control, Ctx};
use crate::error::ExecErrorKind;

/// Target of a branch at `pc` with offset `simm16` (in dwords, relative to pc + 4).
pub fn branch_target(pc: u32, simm16: u16) -> u32 {
    let t = pc as i64 + 4 + (simm16 as i16 as i64) * 4;
    // Negative or huge targets wrap to an offset no program has: `PcOutOfCode` next step.
    t as u32
}

pub fn exec(ctx: &mut Ctx<'_>, inst: &Inst, pc: u32) -> Result<Control, ExecErrorKind> {
    let Fields::Sopp { simm16 } = inst.fields else {
        return Err(bad_fields(inst));
    };
    let w = &*ctx.wave;
    let branch_if = |cond: bool| {
        if cond {
            Control::Jump(branch_target(pc, simm16))
        } else {
            Control::Next
        }
    };
    use Op::*;
    Ok(match inst.op {
        SEndpgm => Control::End,
        SBranch => branch_if(true),
        SCbranchScc0 => branch_if(w.scc & 1 == 0),
        SCbranchScc1 => branch_if(w.scc & 1 == 1),
        SCbranchVccz => branch_if(w.vcc == 0),
        SCbranchVccnz => branch_if(w.vcc != 0),
        SCbranchExecz => branch_if(w.exec == 0),
        SCbranchExecnz => branch_if(w.exec != 0),
        SBarrier => Control::Barrier,
        SNop | SWaitcnt | SSleep | SSetprio | SWakeup | SIcacheInv | SIncperflevel
        | SDecperflevel => Control::Next,
        SSethalt if simm16 & 1 == 0 => Control::Next,
        _ => return Err(unsupported(inst)),
    })
}
