//! Vector compares on one chunk: the condition codes of each `Cond`, float compares the x64
//! back end lacks composed, and the compare of every type as an `i32x4` lane mask.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{InstBuilder, Value};

use super::opnd::Opnd;
use super::vocab::{CmpTy, Cond, Fmt};
use crate::block::{Cx, I32X4, I64X2};

fn cond_cc(cond: Cond) -> Option<(FloatCC, IntCC)> {
    use Cond::*;
    Some(match cond {
        Lt => (FloatCC::LessThan, IntCC::SignedLessThan),
        Eq => (FloatCC::Equal, IntCC::Equal),
        Le => (FloatCC::LessThanOrEqual, IntCC::SignedLessThanOrEqual),
        Gt => (FloatCC::GreaterThan, IntCC::SignedGreaterThan),
        Lg => (FloatCC::OrderedNotEqual, IntCC::NotEqual),
        Ge => (FloatCC::GreaterThanOrEqual, IntCC::SignedGreaterThanOrEqual),
        O => (FloatCC::Ordered, IntCC::Equal),
        U => (FloatCC::Unordered, IntCC::Equal),
        Nge => (FloatCC::UnorderedOrLessThan, IntCC::Equal),
        Nlg => (FloatCC::UnorderedOrEqual, IntCC::Equal),
        Ngt => (FloatCC::UnorderedOrLessThanOrEqual, IntCC::Equal),
        Nle => (FloatCC::UnorderedOrGreaterThan, IntCC::Equal),
        Neq => (FloatCC::NotEqual, IntCC::NotEqual),
        Nlt => (FloatCC::UnorderedOrGreaterThanOrEqual, IntCC::Equal),
        F | Tru => return None,
    })
}

pub(super) fn unsigned(cc: IntCC) -> IntCC {
    match cc {
        IntCC::SignedLessThan => IntCC::UnsignedLessThan,
        IntCC::SignedLessThanOrEqual => IntCC::UnsignedLessThanOrEqual,
        IntCC::SignedGreaterThan => IntCC::UnsignedGreaterThan,
        IntCC::SignedGreaterThanOrEqual => IntCC::UnsignedGreaterThanOrEqual,
        x => x,
    }
}

/// A float compare of two vectors (Cranelift's x64 back end has no vector `one`/`ueq`:
/// those are composed).
pub(super) fn fcmp_vec(cx: &mut Cx, cc: FloatCC, a: Value, b: Value) -> Value {
    match cc {
        FloatCC::OrderedNotEqual => {
            let o = cx.b.ins().fcmp(FloatCC::Ordered, a, b);
            let n = cx.b.ins().fcmp(FloatCC::NotEqual, a, b);
            cx.b.ins().band(o, n)
        }
        FloatCC::UnorderedOrEqual => {
            let u = cx.b.ins().fcmp(FloatCC::Unordered, a, b);
            let e = cx.b.ins().fcmp(FloatCC::Equal, a, b);
            cx.b.ins().bor(u, e)
        }
        cc => cx.b.ins().fcmp(cc, a, b),
    }
}

/// The compare result of a chunk as an `i32x4` lane mask.
pub(super) fn compare(cx: &mut Cx, ty: CmpTy, cond: Cond, v: &[Opnd; 3]) -> Value {
    let Some((fcc, icc)) = cond_cc(cond) else {
        return cx.splat32(if cond == Cond::Tru { u32::MAX } else { 0 });
    };
    match ty {
        CmpTy::F32 => {
            let a = cx.fin(Fmt::F32, v[0].v32());
            let b = cx.fin(Fmt::F32, v[1].v32());
            let m = fcmp_vec(cx, fcc, a, b);
            cx.cast(I32X4, m)
        }
        CmpTy::F16 | CmpTy::I16 | CmpTy::U16 => {
            compare16(cx, ty == CmpTy::F16, ty == CmpTy::I16, (fcc, icc), v)
        }
        CmpTy::I32 | CmpTy::U32 => {
            let cc = if ty == CmpTy::U32 { unsigned(icc) } else { icc };
            let a = cx.cast(I32X4, v[0].v32());
            let b = cx.cast(I32X4, v[1].v32());
            match cc {
                IntCC::UnsignedLessThan => unsigned_less(cx, a, b),
                IntCC::UnsignedGreaterThan => unsigned_less(cx, b, a),
                cc => cx.b.ins().icmp(cc, a, b),
            }
        }
        CmpTy::F64 | CmpTy::I64 | CmpTy::U64 => {
            let mut halves = [Value::from_u32(0); 2];
            for (h, out) in halves.iter_mut().enumerate() {
                *out = if ty == CmpTy::F64 {
                    let a = cx.fin(Fmt::F64, v[0].v64(h));
                    let b = cx.fin(Fmt::F64, v[1].v64(h));
                    let m = fcmp_vec(cx, fcc, a, b);
                    cx.cast(I64X2, m)
                } else {
                    let cc = if ty == CmpTy::U64 { unsigned(icc) } else { icc };
                    let a = cx.cast(I64X2, v[0].v64(h));
                    let b = cx.cast(I64X2, v[1].v64(h));
                    cx.b.ins().icmp(cc, a, b)
                };
            }
            let (lo, _) = cx.unzip64(halves);
            lo
        }
    }
}

/// The compare of two f16 or 16-bit integer chunks as an `i32x4` lane mask.
fn compare16(cx: &mut Cx, float: bool, signed: bool, cc: (FloatCC, IntCC), v: &[Opnd; 3]) -> Value {
    if float {
        let (fi, _) = cx.f16_flags();
        let a = cx.h2f(v[0].v32(), fi);
        let b = cx.h2f(v[1].v32(), fi);
        let m = fcmp_vec(cx, cc.0, a, b);
        return cx.cast(I32X4, m);
    }
    let a = cx.cast(I32X4, v[0].v32());
    let b = cx.cast(I32X4, v[1].v32());
    if signed {
        let x = super::half::sext16(cx, a);
        let y = super::half::sext16(cx, b);
        cx.b.ins().icmp(cc.1, x, y)
    } else {
        cx.b.ins().icmp(unsigned(cc.1), a, b)
    }
}

/// `a < b` (unsigned) of `i32x4` lanes. Against a splat or a constant (a scalar source,
/// `v_mov` of one) as a signed compare of both with the sign bit flipped: that operand's
/// flip is computed once for the unit, so a chunk takes two instructions where
/// Cranelift's unsigned compare (min, equal, not) takes four. Between two other
/// operands Cranelift's, whose all-ones constant costs no register (there the flip
/// constant, live across the chunks, would be spilled: three instructions and a spill).
pub(super) fn unsigned_less(cx: &mut Cx, a: Value, b: Value) -> Value {
    if !flipped_once(cx, a) && !flipped_once(cx, b) {
        return cx.b.ins().icmp(IntCC::UnsignedLessThan, a, b);
    }
    let sign = cx.splat32(0x8000_0000);
    let a = cx.b.ins().bxor(a, sign);
    let b = cx.b.ins().bxor(b, sign);
    cx.b.ins().icmp(IntCC::SignedLessThan, a, b)
}

/// Whether `v` is a splat or a vector constant (through bitcasts): the same value in
/// every chunk, whose flip Cranelift computes once.
fn flipped_once(cx: &Cx, mut v: Value) -> bool {
    use cranelift_codegen::ir::{Opcode, ValueDef};
    let dfg = &cx.b.func.dfg;
    loop {
        let ValueDef::Result(inst, _) = dfg.value_def(v) else {
            return false;
        };
        match dfg.insts[inst].opcode() {
            Opcode::Splat | Opcode::Vconst => return true,
            Opcode::Bitcast => v = dfg.inst_args(inst)[0],
            _ => return false,
        }
    }
}
