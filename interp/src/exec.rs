//! The run loop: fetch the slot at `pc`, dispatch by encoding family, advance.
//!
//! `step` executes one instruction; `run` repeats it until `s_endpgm`, a barrier, an error
//! or the instruction budget. Each family module (`salu`, `mem`, `valu`, `vintrp`,
//! `export`) returns a typed error without a position; this module attaches the pc of the
//! instruction.
//! The cost of one step is the lookup of its slot (O(1)) plus the family's work (O(64)).

use wavejit_isa::gcn::{self, Enc};
use wavejit_isa::ir::{Inst, Program};

use crate::error::{ExecError, ExecErrorKind};
use crate::{mem, salu};

pub use crate::ctx::{bad_fields, unsupported, Control, Ctx, RunStats, Step};

/// Execute one decoded GCN instruction that sits at `pc` and is `size` bytes long, and move
/// `wave.pc` accordingly. Used by `step`; public so that tests and tools can run
/// instructions that were built by hand rather than decoded.
pub fn exec_inst(
    ctx: &mut Ctx<'_>,
    inst: &gcn::Inst,
    pc: u32,
    size: u32,
) -> Result<Step, ExecErrorKind> {
    let control = match inst.enc {
        Enc::Sop2 | Enc::Sopk | Enc::Sop1 | Enc::Sopc | Enc::Sopp => {
            salu::exec(ctx, inst, pc, size)?
        }
        Enc::Smrd | Enc::Smem => mem::smem::exec(ctx, inst).map(|()| Control::Next)?,
        Enc::Ds => mem::ds::exec(ctx, inst).map(|()| Control::Next)?,
        Enc::Mubuf => mem::mubuf::exec(ctx, inst).map(|()| Control::Next)?,
        Enc::Flat => mem::flat::exec(ctx, inst).map(|()| Control::Next)?,
        Enc::Vop1 | Enc::Vop2 | Enc::Vopc | Enc::Vop3 | Enc::Sdwa { .. } | Enc::Dpp { .. } => {
            vector(ctx, inst)?
        }
        Enc::Vintrp => interp_vector(ctx, inst)?,
        Enc::Exp => crate::export::exec(ctx, inst).map(|()| Control::Next)?,
        // Typed buffer and image instructions have no semantics in this project.
        Enc::Mtbuf | Enc::Mimg => return Err(unsupported(inst)),
    };
    Ok(advance(ctx, control, pc, size))
}

/// Move `wave.pc` as `control` asks of the instruction at `pc` (`size` bytes long), and
/// say what the step did.
pub(crate) fn advance(ctx: &mut Ctx<'_>, control: Control, pc: u32, size: u32) -> Step {
    let next = pc.wrapping_add(size);
    match control {
        Control::Next => {
            ctx.wave.pc = next;
            Step::Continue
        }
        Control::Jump(target) => {
            ctx.wave.pc = target;
            Step::Continue
        }
        Control::Barrier => {
            ctx.wave.pc = next;
            Step::Barrier
        }
        Control::End => {
            ctx.wave.pc = pc;
            Step::End
        }
    }
}

/// VOP1/VOP2/VOPC/VOP3 with SDWA and DPP: the vector unit (`crate::valu`).
fn vector(ctx: &mut Ctx<'_>, inst: &gcn::Inst) -> Result<Control, ExecErrorKind> {
    crate::valu::exec(ctx, inst).map(|()| Control::Next)
}

/// VINTRP: parameter interpolation (`crate::vintrp`).
fn interp_vector(ctx: &mut Ctx<'_>, inst: &gcn::Inst) -> Result<Control, ExecErrorKind> {
    crate::vintrp::exec(ctx, inst).map(|()| Control::Next)
}

/// Execute the one instruction at `ctx.wave.pc`.
///
/// A pc that is not the start of an instruction (misaligned, inside a two-dword
/// instruction, past the end of the code, or past a word that did not decode) is
/// `PcOutOfCode`; the slot of a word that did not decode reports its `DecodeError`.
pub fn step(ctx: &mut Ctx<'_>, prog: &Program) -> Result<Step, ExecError> {
    let pc = ctx.wave.pc;
    let at = |kind| ExecError { pc, kind };
    let slot = prog
        .slot_index(pc)
        .and_then(|i| prog.slots.get(i))
        .ok_or_else(|| at(ExecErrorKind::PcOutOfCode(pc)))?;
    let inst = match &slot.inst {
        Ok(Inst::Gcn(i)) => i,
        Ok(Inst::Vp1(_)) => {
            return Err(at(ExecErrorKind::Unsupported {
                mnemonic: "a VP1 instruction in the GCN interpreter (use the VP1 runner)".into(),
            }))
        }
        Err(e) => return Err(at(ExecErrorKind::Decode(e.clone()))),
    };
    exec_inst(ctx, inst, pc, slot.size).map_err(at)
}

/// Run until `s_endpgm` (or a barrier), at most `max_insts` instructions.
///
/// Returns why it stopped (`Step::End` or `Step::Barrier`) and how many instructions ran.
/// Executing instruction number `max_insts + 1` is refused with `InstLimit` at its pc.
pub fn run(
    ctx: &mut Ctx<'_>,
    prog: &Program,
    max_insts: u64,
) -> Result<(Step, RunStats), ExecError> {
    run_steps(ctx, max_insts, |ctx| step(ctx, prog))
}

/// `run`'s loop around a step function (`step`, or the profiler's counting one).
pub(crate) fn run_steps(
    ctx: &mut Ctx<'_>,
    max_insts: u64,
    mut step: impl FnMut(&mut Ctx<'_>) -> Result<Step, ExecError>,
) -> Result<(Step, RunStats), ExecError> {
    let mut stats = RunStats::default();
    loop {
        if stats.insts >= max_insts {
            return Err(ExecError {
                pc: ctx.wave.pc,
                kind: ExecErrorKind::InstLimit(max_insts),
            });
        }
        let s = step(ctx)?;
        stats.insts += 1;
        match s {
            Step::Continue => {}
            Step::Barrier | Step::End => return Ok((s, stats)),
        }
    }
}
