//! The fast path of the software float core: f32/f64 arithmetic and integer-to-float
//! conversion on the host's FPU when it gives the software path's bits, and
//! canonicalisation and minimum/maximum as bit operations (the argument is at the top of
//! `float.rs`). Each host function answers `None` when the case is not one it may take;
//! the caller then uses the software path.

use std::cmp::Ordering;

use super::{Format, Fp, Round, ToInt, F32, F64};

/// Whether Rust's `f32`/`f64` are IEEE hardware floats here (not x87 extended precision).
const HOST_IEEE: bool = cfg!(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "x86", target_feature = "sse2")
));

/// The host may compute this precision: f32 or f64, rounding to nearest even.
#[inline]
fn takes(fp: Fp) -> bool {
    HOST_IEEE && fp.round == Round::NearestEven && fp.fmt.width() != 16
}

/// One operand as the host sees it: low bits of the format, input denormal flushed.
#[inline]
fn in32(flush: bool, a: u64) -> f32 {
    let a = a as u32;
    let a = if flush && a & 0x7F80_0000 == 0 {
        a & 0x8000_0000
    } else {
        a
    };
    f32::from_bits(a)
}

#[inline]
fn in64(flush: bool, a: u64) -> f64 {
    let a = if flush && a & 0x7FF0_0000_0000_0000 == 0 {
        a & 0x8000_0000_0000_0000
    } else {
        a
    };
    f64::from_bits(a)
}

/// A host result as the software path gives it: NaN canonical, output denormal flushed.
#[inline]
fn out32(flush: bool, r: f32) -> u64 {
    if r.is_nan() {
        return F32.qnan();
    }
    let b = r.to_bits();
    (if flush && b & 0x7F80_0000 == 0 {
        b & 0x8000_0000
    } else {
        b
    }) as u64
}

#[inline]
fn out64(flush: bool, r: f64) -> u64 {
    if r.is_nan() {
        return F64.qnan();
    }
    let b = r.to_bits();
    if flush && b & 0x7FF0_0000_0000_0000 == 0 {
        b & 0x8000_0000_0000_0000
    } else {
        b
    }
}

/// A two-operand operation on the host, in whichever of f32/f64 `fp` names.
#[inline]
fn binary(
    fp: Fp,
    a: u64,
    b: u64,
    f32_op: impl Fn(f32, f32) -> f32,
    f64_op: impl Fn(f64, f64) -> f64,
) -> Option<u64> {
    if !takes(fp) {
        return None;
    }
    Some(if fp.fmt.width() == 32 {
        out32(
            fp.flush_out,
            f32_op(in32(fp.flush_in, a), in32(fp.flush_in, b)),
        )
    } else {
        out64(
            fp.flush_out,
            f64_op(in64(fp.flush_in, a), in64(fp.flush_in, b)),
        )
    })
}

#[inline]
pub(super) fn add(fp: Fp, a: u64, b: u64) -> Option<u64> {
    binary(fp, a, b, |x, y| x + y, |x, y| x + y)
}

#[inline]
pub(super) fn mul(fp: Fp, a: u64, b: u64) -> Option<u64> {
    binary(fp, a, b, |x, y| x * y, |x, y| x * y)
}

#[inline]
pub(super) fn div(fp: Fp, a: u64, b: u64) -> Option<u64> {
    binary(fp, a, b, |x, y| x / y, |x, y| x / y)
}

#[inline]
pub(super) fn sqrt(fp: Fp, a: u64) -> Option<u64> {
    binary(fp, a, 0, |x, _| x.sqrt(), |x, _| x.sqrt())
}

#[inline]
pub(super) fn fma(fp: Fp, a: u64, b: u64, c: u64) -> Option<u64> {
    if !takes(fp) {
        return None;
    }
    let fl = fp.flush_in;
    Some(if fp.fmt.width() == 32 {
        out32(fp.flush_out, in32(fl, a).mul_add(in32(fl, b), in32(fl, c)))
    } else {
        out64(fp.flush_out, in64(fl, a).mul_add(in64(fl, b), in64(fl, c)))
    })
}

/// Comparison rounds nothing, so any rounding direction may take it; `Some(None)` is
/// "unordered".
#[inline]
pub(super) fn compare(fmt: Format, flush_in: bool, a: u64, b: u64) -> Option<Option<Ordering>> {
    if !HOST_IEEE {
        return None;
    }
    match fmt.width() {
        32 => Some(in32(flush_in, a).partial_cmp(&in32(flush_in, b))),
        64 => Some(in64(flush_in, a).partial_cmp(&in64(flush_in, b))),
        _ => None,
    }
}

/// The input after the flushes of `fp`, NaN canonical. A non-NaN input is already a
/// value of the format, so nothing rounds: only a denormal can change (to its signed
/// zero, when either flush applies). Bit operations only, in every format and mode.
#[inline(always)]
pub(super) fn canonical(fp: Fp, a: u64) -> u64 {
    let f = fp.fmt;
    let a = f.trim(a);
    if f.is_nan(a) {
        f.qnan()
    } else if f.biased_exp(a) == 0 && (fp.flush_in || fp.flush_out) {
        f.zero(f.is_neg(a))
    } else {
        a
    }
}

/// An integer converted on the host (`as`, which rounds to nearest, ties to even). A
/// non-zero integer is at least 1 in magnitude, so the result is never a denormal and no
/// flush applies; zero is +0 on both paths; `i128` is below 2^127, inside the range of f32
/// and f64, so nothing overflows.
#[inline]
pub(super) fn from_int(fp: Fp, v: i128) -> Option<u64> {
    if !takes(fp) {
        return None;
    }
    Some(if fp.fmt.width() == 32 {
        (v as f32).to_bits() as u64
    } else {
        (v as f64).to_bits()
    })
}

/// A float's integral value per `how` (`float::to_int`) on the host, for f32 and f64 in
/// every mode (nothing rounds to the format, so the rounding direction does not matter):
/// `None` for what it does not take (f16, `ToInt::HalfUp`, whose added half would round).
/// After the input flush (a bit operation, as in `unpack`), `trunc`, `floor`, `ceil` and
/// `round_ties_even` are exact: the integral value of a float is a float of the same
/// format. `as` truncates toward zero, so for `Trunc` it is the truncation itself, and of
/// an integral value below 2^62 in magnitude `as i64` is exact. Magnitudes from 2^62 up
/// (infinities too) are left to the software path, whose saturation point depends on the
/// format. A NaN is `Some(None)`, zero of either sign is 0.
#[inline]
pub(super) fn to_int(fmt: Format, flush_in: bool, a: u64, how: ToInt) -> Option<Option<i128>> {
    if !HOST_IEEE {
        return None;
    }
    let x = match fmt.width() {
        32 => in32(flush_in, a) as f64,
        64 => in64(flush_in, a),
        _ => return None,
    };
    if x.is_nan() {
        return Some(None);
    }
    // An f32 widened to f64 is the same value, so one f64 path serves both formats.
    let r = match how {
        ToInt::Trunc => x,
        ToInt::Floor => x.floor(),
        ToInt::Ceil => x.ceil(),
        ToInt::NearestEven => x.round_ties_even(),
        ToInt::HalfUp => return None,
    };
    (r.abs() < (1u64 << 62) as f64).then_some(Some(r as i64 as i128))
}

/// The key that orders the non-NaN values of a format as numbers, with -0 below +0: the
/// bits with the sign flipped for positive values and every bit flipped for negative ones
/// (a larger magnitude of a negative number is a smaller number).
#[inline(always)]
fn order_key(f: Format, a: u64) -> u64 {
    if f.is_neg(a) {
        !a & ((f.sign_bit() << 1).wrapping_sub(1))
    } else {
        a | f.sign_bit()
    }
}

/// minimumNumber/maximumNumber (`float::min_num`, `max_num`) by bit operations in every
/// format and mode. After `canonical` (flushes, NaN canonical), two values that compare
/// equal have the same bits except for ±0, and the key orders -0 below +0 as the
/// definition does; a NaN loses to a number.
#[inline(always)]
pub(super) fn pick(fp: Fp, a: u64, b: u64, min: bool) -> u64 {
    pick_canonical(fp.fmt, canonical(fp, a), canonical(fp, b), min)
}

/// `pick` of two values that are `canonical` already (`canonical` of a canonical value is
/// that value, so `pick` would compute the same).
#[inline(always)]
pub(super) fn pick_canonical(f: Format, a: u64, b: u64, min: bool) -> u64 {
    match (f.is_nan(a), f.is_nan(b)) {
        (true, true) => return f.qnan(),
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    let (ka, kb) = (order_key(f, a), order_key(f, b));
    let a_first = if min { ka <= kb } else { ka >= kb };
    if a_first {
        a
    } else {
        b
    }
}
