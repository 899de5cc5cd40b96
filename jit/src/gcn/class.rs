//! `v_cmp_class_f16/f32/f64` and `v_cmpx_class_*`: whether the class of S0 is one of those
//! whose bit is set in the mask S1 (`wavejit_interp::float::class_bit`: 0 signalling NaN,
//! 1 quiet NaN, 2 −∞, 3 −normal, 4 −denormal, 5 −0, 6 +0, 7 +denormal, 8 +normal, 9 +∞).
//!
//! Each lane's class is found from its bits with integer compares (S0 is not flushed:
//! a denormal is a denormal whatever MODE says, as in the interpreter), turned into the
//! one-hot `1 << class` with selects, and tested against the mask.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Type, Value};

use super::opnd::Opnd;
use super::vocab::CFmt;
use crate::block::{Cx, I32X4, I64X2};

/// The bit layout of a format: (sign, exponent field, quiet bit, smallest normal).
fn layout(f: CFmt) -> (u64, u64, u64, u64) {
    match f {
        CFmt::F16 => (0x8000, 0x7c00, 0x200, 0x400),
        CFmt::F32 => (0x8000_0000, 0x7f80_0000, 0x40_0000, 0x80_0000),
        CFmt::F64 => (
            0x8000_0000_0000_0000,
            0x7ff0_0000_0000_0000,
            0x8_0000_0000_0000,
            0x10_0000_0000_0000,
        ),
    }
}

/// `1 << class` of each lane of `a` (lanes of type `ty`: `i32x4`, or `i64x2` for f64).
fn one_hot(cx: &mut Cx, f: CFmt, ty: Type, a: Value) -> Value {
    let (sign, exp, quiet, min_norm) = layout(f);
    let k = |cx: &mut Cx, x: u64| {
        if ty == I64X2 {
            cx.splat64(x)
        } else {
            cx.splat32(x as u32)
        }
    };
    let a = cx.cast(ty, a);
    let sm = k(cx, sign);
    let mag_m = k(cx, !sign & if ty == I64X2 { u64::MAX } else { 0xffff_ffff });
    let mag = cx.b.ins().band(a, mag_m);
    let s = cx.b.ins().band(a, sm);
    let z = k(cx, 0);
    let neg = cx.b.ins().icmp(IntCC::NotEqual, s, z);
    let e = k(cx, exp);
    let min = k(cx, min_norm);
    // Magnitudes are non-negative as signed integers: signed compares are exact.
    let is_nan = cx.b.ins().icmp(IntCC::SignedGreaterThan, mag, e);
    let is_inf = cx.b.ins().icmp(IntCC::Equal, mag, e);
    let is_zero = cx.b.ins().icmp(IntCC::Equal, mag, z);
    let is_den = cx.b.ins().icmp(IntCC::SignedLessThan, mag, min);
    let q = k(cx, quiet);
    let qb = cx.b.ins().band(a, q);
    let is_quiet = cx.b.ins().icmp(IntCC::NotEqual, qb, z);
    let pick = |cx: &mut Cx, c: Value, (yes, no): (u64, u64)| {
        let y = k(cx, 1 << yes);
        let n = k(cx, 1 << no);
        cx.b.ins().bitselect(c, y, n)
    };
    // (negative, positive) classes of each kind.
    let mut r = pick(cx, neg, (3, 8));
    for (c, pair) in [(is_den, (4, 7)), (is_zero, (5, 6)), (is_inf, (2, 9))] {
        let v = pick(cx, neg, pair);
        r = cx.b.ins().bitselect(c, v, r);
    }
    let nan = pick(cx, is_quiet, (1, 0));
    cx.b.ins().bitselect(is_nan, nan, r)
}

/// The compare's lane mask (`i32x4`) for S0 `a` and the class mask `mask`.
pub(super) fn class_mask(cx: &mut Cx, f: CFmt, a: Opnd, mask: Value) -> Value {
    let bit = match f {
        CFmt::F64 => {
            let h = [
                one_hot(cx, f, I64X2, a.v64(0)),
                one_hot(cx, f, I64X2, a.v64(1)),
            ];
            let (lo, _) = cx.unzip64(h);
            lo
        }
        _ => one_hot(cx, f, I32X4, a.v32()),
    };
    let m = cx.cast(I32X4, mask);
    let t = cx.b.ins().band(bit, m);
    let z = cx.splat32(0);
    cx.b.ins().icmp(IntCC::NotEqual, t, z)
}
