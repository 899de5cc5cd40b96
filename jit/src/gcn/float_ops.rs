//! f32 and f64 arithmetic on one chunk (`FOp`), with the ranges it establishes for later
//! operations (`float_rules.rs`): add, subtract, multiply, mad/fma, min/max/med3, rounding,
//! square root, reciprocal, fract.

use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::{InstBuilder, Value};

use super::float_rules::ftype;
use super::opnd::Opnd;
use super::vocab::{FOp, Fmt};
use crate::block::Cx;

pub(super) fn float_op(cx: &mut Cx, f: Fmt, op: FOp, v: &[Opnd; 3], n: usize) -> [Value; 2] {
    // f64 works on two i64x2 halves; f32 on one i32x4 (the second result is unused).
    let halves = if f == Fmt::F64 { 2 } else { 1 };
    let mut out = [Value::from_u32(0); 2];
    for (h, o) in out.iter_mut().enumerate().take(halves) {
        let raw: Vec<Value> = (0..n)
            .map(|i| {
                if f == Fmt::F64 {
                    v[i].v64(h)
                } else {
                    v[i].v32()
                }
            })
            .collect();
        *o = float_lanes(cx, f, op, &raw);
    }
    out
}

fn float_lanes(cx: &mut Cx, f: Fmt, op: FOp, raw: &[Value]) -> Value {
    use FOp::*;
    match op {
        Med3 => {
            let a = cx.fminmax_in(f, raw[0]);
            let b = cx.fminmax_in(f, raw[1]);
            let d = cx.fminmax_in(f, raw[2]);
            cx.med3(f, [a, b, d])
        }
        Min | Max | Min3 | Max3 => {
            let min = matches!(op, Min | Min3);
            let a = cx.fminmax_in(f, raw[0]);
            let b = cx.fminmax_in(f, raw[1]);
            let r = cx.fminmax(f, a, b, min);
            if matches!(op, Min3 | Max3) {
                let d = cx.fminmax_in(f, raw[2]);
                cx.fminmax(f, r, d, min)
            } else {
                r
            }
        }
        _ => {
            let a = cx.fin(f, raw[0]);
            let r = match op {
                Add | Sub | Subrev | Mul => {
                    let b = cx.fin(f, raw[1]);
                    match op {
                        Add => cx.b.ins().fadd(a, b),
                        Sub => cx.b.ins().fsub(a, b),
                        Subrev => cx.b.ins().fsub(b, a),
                        _ => cx.b.ins().fmul(a, b),
                    }
                }
                MulLegacy => {
                    let b = cx.fin(f, raw[1]);
                    let m = cx.b.ins().fmul(a, b);
                    // ±0 × anything (inf, NaN included) is +0 (ERRATA VOP3 6).
                    let z = cx.vconst(ftype(f), 0);
                    let az = cx.b.ins().fcmp(FloatCC::Equal, a, z);
                    let bz = cx.b.ins().fcmp(FloatCC::Equal, b, z);
                    let any = cx.b.ins().bor(az, bz);
                    let any = cx.cast(ftype(f), any);
                    cx.b.ins().bitselect(any, z, m)
                }
                Mad => {
                    let b = cx.fin(f, raw[1]);
                    let m = cx.b.ins().fmul(a, b);
                    let m = cx.fout(f, m);
                    let m = cx.fin(f, m);
                    let d = cx.fin(f, raw[2]);
                    cx.b.ins().fadd(m, d)
                }
                Fma => {
                    let b = cx.fin(f, raw[1]);
                    let d = cx.fin(f, raw[2]);
                    cx.b.ins().fma(a, b, d)
                }
                Trunc => cx.b.ins().trunc(a),
                Ceil => cx.b.ins().ceil(a),
                Floor => cx.b.ins().floor(a),
                Rndne => cx.b.ins().nearest(a),
                Sqrt => cx.b.ins().sqrt(a),
                Fract => {
                    // x - floor(x): infinities give inf - inf and NaN stays NaN, both the
                    // canonical NaN after `fout`, as `vop1::fract` says.
                    let fl = cx.b.ins().floor(a);
                    cx.b.ins().fsub(a, fl)
                }
                Rcp => {
                    let one = match f {
                        Fmt::F32 => cx.splat32(1.0f32.to_bits()),
                        Fmt::F64 => cx.splat64(1.0f64.to_bits()),
                    };
                    let one = cx.cast(ftype(f), one);
                    cx.b.ins().fdiv(one, a)
                }
                Min | Max | Min3 | Max3 | Med3 => a,
            };
            // The result's range, from the operands' (NaN-free results need no NaN
            // canonicalisation; `mixed::cvt` uses ranges too).
            let rng = |cx: &mut Cx, i: usize| {
                let x = *raw.get(i)?;
                let x = cx.fin(f, x);
                cx.range_of(f, x)
            };
            let range = match op {
                Add => range_add(f, rng(cx, 0), rng(cx, 1)),
                Sub => range_add(f, rng(cx, 0), rng(cx, 1).map(neg_range)),
                Subrev => range_add(f, rng(cx, 1), rng(cx, 0).map(neg_range)),
                Mul => range_mul(f, rng(cx, 0), rng(cx, 1)),
                Mad => {
                    let m = range_mul(f, rng(cx, 0), rng(cx, 1))
                        .map(|(lo, hi)| (lo.min(0.0), hi.max(0.0)));
                    range_add(f, m, rng(cx, 2))
                }
                Fma => match (rng(cx, 0), rng(cx, 1), rng(cx, 2)) {
                    // The exact product of numbers never overflows: a NaN needs a NaN or
                    // infinite operand.
                    (Some(x), Some(y), Some(z))
                        if [x, y, z].iter().all(|r| r.0.is_finite() && r.1.is_finite()) =>
                    {
                        Some((f64::NEG_INFINITY, f64::INFINITY))
                    }
                    _ => None,
                },
                Trunc | Ceil | Floor | Rndne => rng(cx, 0).map(|(lo, hi)| (lo.floor(), hi.ceil())),
                _ => None,
            };
            if let Some(x) = range {
                cx.set_range(f, r, x);
            }
            cx.fout(f, r)
        }
    }
}

/// `x` rounded to format `f`'s precision (range bounds of f32 results are f32 values).
fn in_fmt(f: Fmt, x: f64) -> f64 {
    match f {
        Fmt::F32 => x as f32 as f64,
        Fmt::F64 => x,
    }
}

fn neg_range(r: (f64, f64)) -> (f64, f64) {
    (-r.1, -r.0)
}

/// The range of `a + b` in format `f` (rounding is monotonic: the bounds' sums bound the
/// sums), `None` if an infinity of each sign may meet (NaN) or a range is unknown.
fn range_add(f: Fmt, a: Option<(f64, f64)>, b: Option<(f64, f64)>) -> Option<(f64, f64)> {
    let (a, b) = (a?, b?);
    let inf = f64::INFINITY;
    if (a.1 == inf && b.0 == -inf) || (a.0 == -inf && b.1 == inf) {
        return None;
    }
    let add = |x: f64, y: f64| match f {
        Fmt::F32 => (x as f32 + y as f32) as f64,
        Fmt::F64 => x + y,
    };
    Some((in_fmt(f, add(a.0, b.0)), in_fmt(f, add(a.1, b.1))))
}

/// The range of `a × b` in format `f` (the extremes are products of bounds), `None` if
/// zero may meet an infinity (NaN) or a range is unknown.
fn range_mul(f: Fmt, a: Option<(f64, f64)>, b: Option<(f64, f64)>) -> Option<(f64, f64)> {
    let (a, b) = (a?, b?);
    let zero = |r: (f64, f64)| r.0 <= 0.0 && r.1 >= 0.0;
    let inf = |r: (f64, f64)| r.0.is_infinite() || r.1.is_infinite();
    if (zero(a) && inf(b)) || (zero(b) && inf(a)) {
        return None;
    }
    let mul = |x: f64, y: f64| match f {
        Fmt::F32 => (x as f32 * y as f32) as f64,
        Fmt::F64 => x * y,
    };
    let p = [mul(a.0, b.0), mul(a.0, b.1), mul(a.1, b.0), mul(a.1, b.1)];
    if p.iter().any(|x| x.is_nan()) {
        return None;
    }
    let lo = p.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = p.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some((lo, hi))
}
