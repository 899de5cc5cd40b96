//! Leaving compiled code through the interpreter: a cold path that has stored the state
//! runs instructions with `ctx::helper_step` (which reports the interpreter's own error,
//! with its pc, lane and address) and returns to the dispatcher.

use cranelift_codegen::ir::{types, InstBuilder, Value};

use crate::block::Cx;
use crate::ctx;

/// Call the interpreter helper (`ctx::helper_step`, its address read from `JitCtx`) for
/// the instruction at `pc`, registers stored, and leave the unit with its exit code unless
/// that is `EXIT_NEXT` (the instruction completed). `cold`: the call sits on a cold path,
/// so both continuations are cold too.
pub fn call_helper(cx: &mut Cx, pc: u32, cold: bool) {
    call_helper_n(cx, pc, 1, cold);
}

/// `call_helper` for the `n` instructions from `pc` on, in program order (one call).
fn call_helper_n(cx: &mut Cx, pc: u32, n: u32, cold: bool) {
    let sref = cx.helper_sig();
    let f =
        cx.b.ins()
            .load(cx.ptr, crate::block::mflags(), cx.jctx, ctx::OFF_HELPER);
    // `helper_step`'s argument: the count in the high half, the pc in the low one.
    let arg = ((n.max(1) as u64) << 32 | pc as u64) as i64;
    let pcv = cx.b.ins().iconst(types::I64, arg);
    let call = cx.b.ins().call_indirect(sref, f, &[cx.wave, cx.jctx, pcv]);
    let r = cx.b.inst_results(call)[0];
    let out = cx.b.create_block();
    let go = cx.b.create_block();
    if cold {
        cx.b.set_cold_block(out);
        cx.b.set_cold_block(go);
    }
    cx.b.ins().brif(r, out, &[], go, &[]);
    cx.b.switch_to_block(out);
    cx.b.seal_block(out);
    cx.b.ins().return_(&[r]);
    cx.b.switch_to_block(go);
    cx.b.seal_block(go);
}

/// A side exit (current block, state already stored): run the instructions at `pcs` —
/// consecutive in program order, as a segment's are — through the interpreter, returning
/// the first exit code that is not `EXIT_NEXT` (the error an inline check predicted). One
/// helper call runs them all (a call per instruction made a run of n checked instructions
/// cost n²/2 calls of IR). Used before any chunk of the segment holding the last of them
/// is emitted, so the state stored is the one before the first.
pub fn through_helper(cx: &mut Cx, pcs: &[u32]) {
    if let Some(&first) = pcs.first() {
        call_helper_n(cx, first, pcs.len() as u32, true);
    }
    // The interpreter ran them all without the predicted error (never expected): the
    // wave is at the next pc; let the dispatcher continue there.
    let v = cx.b.ins().iconst(types::I32, ctx::EXIT_NEXT as i64);
    cx.b.ins().return_(&[v]);
}

/// Branch to a cold block when `fail` (an `i8` truth value) holds, fill it with `side`
/// (which must leave the unit), and continue on the main line.
pub fn if_cold(cx: &mut Cx, fail: Value, side: impl FnOnce(&mut Cx)) {
    let cold = cx.b.create_block();
    let cont = cx.b.create_block();
    cx.b.set_cold_block(cold);
    cx.b.ins().brif(fail, cold, &[], cont, &[]);
    cx.b.switch_to_block(cold);
    cx.b.seal_block(cold);
    side(cx);
    cx.b.switch_to_block(cont);
    cx.b.seal_block(cont);
}
