//! Leaving compiled code through the interpreter: a cold path that has stored the state
//! runs instructions with `ctx::helper_step` (which reports the interpreter's own error,
//! with its pc, lane and address) and returns to the dispatcher.

use cranelift_codegen::ir::{types, InstBuilder};

use crate::block::Cx;
use crate::ctx;

/// A side exit (current block, state already stored): run the instructions at `pcs`
/// through the interpreter one by one, returning the first exit code that is not
/// `EXIT_NEXT` (the error an inline check predicted). Used before any chunk of the
/// segment holding the last of them is emitted, so the state stored is the one before the
/// first.
pub fn through_helper(cx: &mut Cx, pcs: &[u32]) {
    let mut sig = cranelift_codegen::ir::Signature::new(cranelift_codegen::isa::CallConv::SystemV);
    sig.params
        .push(cranelift_codegen::ir::AbiParam::new(cx.ptr));
    sig.params
        .push(cranelift_codegen::ir::AbiParam::new(cx.ptr));
    sig.params
        .push(cranelift_codegen::ir::AbiParam::new(types::I64));
    sig.returns
        .push(cranelift_codegen::ir::AbiParam::new(types::I32));
    let sref = cx.b.import_signature(sig);
    for &pc in pcs {
        let f =
            cx.b.ins()
                .load(cx.ptr, crate::block::mflags(), cx.jctx, ctx::OFF_HELPER);
        let pcv = cx.b.ins().iconst(types::I64, pc as i64);
        let call = cx.b.ins().call_indirect(sref, f, &[cx.wave, cx.jctx, pcv]);
        let r = cx.b.inst_results(call)[0];
        let out = cx.b.create_block();
        let go = cx.b.create_block();
        cx.b.set_cold_block(out);
        cx.b.set_cold_block(go);
        cx.b.ins().brif(r, out, &[], go, &[]);
        cx.b.switch_to_block(out);
        cx.b.seal_block(out);
        cx.b.ins().return_(&[r]);
        cx.b.switch_to_block(go);
        cx.b.seal_block(go);
    }
    // The interpreter ran them all without the predicted error (never expected): the
    // wave is at the next pc; let the dispatcher continue there.
    let v = cx.b.ins().iconst(types::I32, ctx::EXIT_NEXT as i64);
    cx.b.ins().return_(&[v]);
}
