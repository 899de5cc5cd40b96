//! The new memory value of a read-modify-write as Cranelift operations: what
//! `wavejit_interp::mem::atomic::AtomicOp::apply32` and `apply64` compute, on `i32` or
//! `i64` values (the type of `m`). Shared by the inline atomics that run lane by lane
//! without a host atomic (the LDS belongs to one workgroup, run by one thread).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value};
use wavejit_interp::mem::atomic::AtomicOp;

use crate::block::Cx;

/// `op` applied to the old value `m` with the operands `a` and `b` as `AtomicOp` names
/// them (`CmpSwap`: `a` new, `b` compare; `MskOr`: `a` mask, `b` bits). All three have
/// one integer type.
pub fn apply(cx: &mut Cx, op: AtomicOp, m: Value, a: Value, b: Value) -> Value {
    use AtomicOp::*;
    match op {
        Swap => a,
        CmpSwap => {
            let eq = cx.b.ins().icmp(IntCC::Equal, m, b);
            cx.b.ins().select(eq, a, m)
        }
        Add => cx.b.ins().iadd(m, a),
        Sub => cx.b.ins().isub(m, a),
        Rsub => cx.b.ins().isub(a, m),
        Smin => cx.b.ins().smin(m, a),
        Umin => cx.b.ins().umin(m, a),
        Smax => cx.b.ins().smax(m, a),
        Umax => cx.b.ins().umax(m, a),
        And => cx.b.ins().band(m, a),
        Or => cx.b.ins().bor(m, a),
        Xor => cx.b.ins().bxor(m, a),
        Inc => {
            // (m >= a) ? 0 : m + 1
            let wrap = cx.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, m, a);
            let up = cx.b.ins().iadd_imm_s(m, 1);
            let ty = cx.b.func.dfg.value_type(m);
            let zero = cx.b.ins().iconst(ty, 0);
            cx.b.ins().select(wrap, zero, up)
        }
        Dec => {
            // (m == 0 || m > a) ? a : m - 1
            let z = cx.b.ins().icmp_imm_s(IntCC::Equal, m, 0);
            let over = cx.b.ins().icmp(IntCC::UnsignedGreaterThan, m, a);
            let reset = cx.b.ins().bor(z, over);
            let down = cx.b.ins().iadd_imm_s(m, -1);
            cx.b.ins().select(reset, a, down)
        }
        MskOr => {
            let keep = cx.b.ins().band_not(m, a);
            cx.b.ins().bor(keep, b)
        }
    }
}
