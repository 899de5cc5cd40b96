//! The vector ALU: VOP1, VOP2, VOPC and VOP3A/VOP3B of GCN 1.0/1.1/1.2, with VOP_SDWA and
//! VOP_DPP on GCN 1.2.
//!
//! * `operands` — one view of every encoding's fields; reading a source for a lane.
//! * `driver` — the lane loop: EXEC, DPP lanes and masks, SDWA selection, ABS/NEG, OMOD
//!   and CLAMP, write-back of VDST, VCC/SDST and EXEC.
//! * `sdwa`, `dpp` — the pure selection and lane-map functions.
//! * `vop1`, `vop2`, `vop3`, `vopc`, `f16` — one pure per-lane function per operation.
//! * `approx`, `trig_preop` — the definitions of the approximate transcendentals and the
//!   bits of 2/π.
//! * `lanes` — cross-lane operations (readlane, writelane, readfirstlane, movrel).
//! * `dispatch` — the match on `Op`, generated from the table's `interp` column, that pairs
//!   each operation with its typed adapter and per-lane function; `custom` holds the
//!   operations whose types no adapter covers.

pub mod adapt;
pub mod approx;
pub mod custom;
pub mod dispatch;
pub mod dpp;
pub mod driver;
pub mod f16;
pub mod lanes;
pub mod operands;
pub mod sdwa;
pub mod trig_preop;
pub mod vop1;
pub mod vop2;
pub mod vop3;
pub mod vopc;

use std::cell::RefCell;

use wavejit_isa::{gcn, Gen};

use crate::ctx::Ctx;
use crate::error::ExecErrorKind;

/// Execute one VOP1/VOP2/VOPC/VOP3(A/B)/SDWA/DPP instruction (including V_READLANE,
/// V_WRITELANE, V_READFIRSTLANE and V_CMPX, which writes EXEC). GCN 1.2's VOP3-encoded
/// interpolation operations are passed to `crate::vintrp`. An operation without semantics
/// here is `Unsupported`, never a no-op.
pub fn exec(ctx: &mut Ctx<'_>, inst: &gcn::Inst) -> Result<(), ExecErrorKind> {
    if crate::vintrp::is_interp(inst.op) {
        return crate::vintrp::exec(ctx, inst);
    }
    let v = decoded(ctx.wave.gen, inst)?;
    let mut cx = driver::Cx {
        ctx,
        v,
        wave_loops: false,
    };
    dispatch::dispatch(&mut cx)
}

/// What pre-decoded code (`crate::threaded`) keeps of a vector ALU instruction: the
/// function of its operation and its operand view, both what `exec` would find for it.
/// `None` for what `exec` does not run through the dispatch (interpolation) and for an
/// instruction whose view is refused (`exec` reports that error when it runs).
pub fn prepare(gen: Gen, inst: &gcn::Inst) -> Option<(dispatch::Handler, operands::Vop)> {
    if crate::vintrp::is_interp(inst.op) {
        return None;
    }
    let v = operands::Vop::new(gen, inst).ok()?;
    Some((dispatch::handler(inst.op), v))
}

/// Entries of the per-thread cache of operand views (a power of two).
const VIEWS: usize = 256;

/// One remembered operand view, and the instruction and generation it is the view of.
type View = Option<(gcn::Inst, Gen, operands::Vop)>;

thread_local! {
    /// Operand views of recently executed instructions, indexed by the address of the
    /// instruction (a loop's instructions sit in its program's slots and come back).
    static VIEW_CACHE: RefCell<[View; VIEWS]> = const { RefCell::new([None; VIEWS]) };
}

/// `operands::Vop::new(gen, inst)`, remembered. Reading the operand view costs a look-up
/// in the instruction table per instruction; a loop executes the same few instructions
/// again and again. An entry is used only for an instruction equal to the one it was made
/// from, on the same generation, so the address only chooses where to look: an
/// instruction at a reused address (another program) finds a different instruction there
/// and is read again. Errors are not remembered.
fn decoded(gen: Gen, inst: &gcn::Inst) -> Result<operands::Vop, ExecErrorKind> {
    let at = (inst as *const gcn::Inst as usize as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let i = (at >> (64 - VIEWS.trailing_zeros())) as usize;
    VIEW_CACHE.with_borrow_mut(|cache| {
        if let Some((ci, cg, v)) = &cache[i] {
            if *cg == gen && ci == inst {
                return Ok(*v);
            }
        }
        let v = operands::Vop::new(gen, inst)?;
        cache[i] = Some((*inst, gen, v));
        Ok(v)
    })
}
