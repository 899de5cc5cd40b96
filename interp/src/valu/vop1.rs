//! Per-lane semantics of the 32/64-bit VOP1 operations (and their VOP3 forms), from AMD's
//! SI/CI/VI manuals as CLRX's GcnInstrsVop1 restates them. The gfx8 16-bit VOP1 operations
//! are in `f16.rs`; cross-lane moves (readfirstlane, movrel) in `lanes.rs`.
//!
//! Precision choices the manuals leave open, and the project's definitions:
//! * `rcp`, `rsq`, `sqrt` (f32 and f64) are correctly rounded in the MODE's direction.
//! * `exp`, `log`, `sin`, `cos` follow `approx.rs`.
//! * `v_rsq_*_f32` and `v_log_*_f32` flush input denormals whatever MODE says (CLRX: "doesn't
//!   handle denormalized values regardless of MODE").

use wavejit_isa::Gen;

use super::approx;
use crate::float::{self, Format, Fp, Mode, Round, ToInt, Val, F16, F32, F64};

// ---------------------------------------------------------------------------------------
// Conversions.

/// Saturate an integral value to `[lo, hi]`.
fn sat(v: i128, lo: i128, hi: i128) -> i128 {
    v.clamp(lo, hi)
}

/// Float to i32, truncating, saturating; NaN → 0.
#[inline(always)]
fn to_i32(fmt: Format, fp: Fp, a: u64) -> u32 {
    float::to_int(fmt, fp.flush_in, a, ToInt::Trunc).map_or(0, |v| {
        sat(v, i32::MIN as i128, i32::MAX as i128) as i32 as u32
    })
}

/// Float to u32, truncating, saturating; NaN → 0.
#[inline(always)]
fn to_u32(fmt: Format, fp: Fp, a: u64) -> u32 {
    float::to_int(fmt, fp.flush_in, a, ToInt::Trunc)
        .map_or(0, |v| sat(v, 0, u32::MAX as i128) as u32)
}

/// `D = i32(trunc(S0.f64))`, saturated; NaN → 0.
pub fn v_cvt_i32_f64(a: u64, m: Mode) -> u32 {
    to_i32(F64, m.fp64(), a)
}

/// `D = f64(i32(S0))` (exact).
pub fn v_cvt_f64_i32(a: u32, m: Mode) -> u64 {
    float::from_int(m.fp64(), a as i32 as i128)
}

/// `D = f32(i32(S0))`, rounded per MODE.
#[inline(always)]
pub fn v_cvt_f32_i32(a: u32, m: Mode) -> u32 {
    float::from_int(m.fp32(), a as i32 as i128) as u32
}

/// `D = f32(S0)`, rounded per MODE.
#[inline(always)]
pub fn v_cvt_f32_u32(a: u32, m: Mode) -> u32 {
    float::from_int(m.fp32(), a as i128) as u32
}

/// `D = u32(trunc(S0))`, saturated; NaN → 0.
#[inline(always)]
pub fn v_cvt_u32_f32(a: u32, m: Mode) -> u32 {
    to_u32(F32, m.fp32(), a as u64)
}

/// `D = i32(trunc(S0))`, saturated; NaN → 0.
#[inline(always)]
pub fn v_cvt_i32_f32(a: u32, m: Mode) -> u32 {
    to_i32(F32, m.fp32(), a as u64)
}

/// `D = f16(S0)` in the low 16 bits (high bits 0). GCN 1.2 rounds with the f64/f16 MODE
/// direction and flushes f16 denormals per MODE; GCN 1.0/1.1 round with the f32 direction
/// and keep f16 denormals (CLRX).
pub fn v_cvt_f16_f32(a: u32, m: Mode, gen: Gen) -> u32 {
    let to = if gen == Gen::Gfx8 {
        m.fp16()
    } else {
        Fp {
            fmt: F16,
            round: m.fp32().round,
            flush_in: false,
            flush_out: false,
        }
    };
    float::convert(F32, m.fp32().flush_in, to, a as u64) as u32
}

/// `D = f32(S0.f16)` (exact). GCN 1.2 flushes f16 input denormals per MODE; GCN 1.0/1.1
/// keep them.
pub fn v_cvt_f32_f16(a: u32, m: Mode, gen: Gen) -> u32 {
    let flush_in = gen == Gen::Gfx8 && m.fp16().flush_in;
    float::convert(F16, flush_in, m.fp32().keep_denormals(), a as u64 & 0xFFFF) as u32
}

/// f32 to i32 with saturation, where a NaN saturates by its sign (CLRX for RPI/FLR).
fn to_i32_nan_sign(a: u32, m: Mode, how: ToInt) -> u32 {
    match float::to_int(F32, m.fp32().flush_in, a as u64, how) {
        Some(v) => sat(v, i32::MIN as i128, i32::MAX as i128) as i32 as u32,
        None if a >> 31 != 0 => i32::MIN as u32,
        None => i32::MAX as u32,
    }
}

/// `D = i32(floor(S0 + 0.5))` (the half added exactly), saturated; NaN by its sign.
pub fn v_cvt_rpi_i32_f32(a: u32, m: Mode) -> u32 {
    to_i32_nan_sign(a, m, ToInt::HalfUp)
}

/// `D = i32(floor(S0))`, saturated; NaN by its sign.
pub fn v_cvt_flr_i32_f32(a: u32, m: Mode) -> u32 {
    to_i32_nan_sign(a, m, ToInt::Floor)
}

/// `D = i4(S0[3:0]) / 16` (exact: -0.5 … 0.4375).
pub fn v_cvt_off_f32_i4(a: u32) -> u32 {
    let v = ((a << 28) as i32) >> 28;
    (v as f32 / 16.0).to_bits()
}

/// `D = f32(S0.f64)`, rounded with the f32 MODE direction; f64 inputs flushed per the f64
/// bits, f32 outputs per the f32 bits.
pub fn v_cvt_f32_f64(a: u64, m: Mode) -> u32 {
    float::convert(F64, m.fp64().flush_in, m.fp32(), a) as u32
}

/// `D = f64(S0.f32)` (exact).
pub fn v_cvt_f64_f32(a: u32, m: Mode) -> u64 {
    float::convert(F32, m.fp32().flush_in, m.fp64().keep_denormals(), a as u64)
}

/// `D = f32(S0 >> 8n & 0xFF)` (exact).
pub fn v_cvt_f32_ubyte(a: u32, n: u32) -> u32 {
    (((a >> (8 * (n & 3))) & 0xFF) as f32).to_bits()
}

/// `D = u32(trunc(S0.f64))`, saturated; NaN → 0.
pub fn v_cvt_u32_f64(a: u64, m: Mode) -> u32 {
    to_u32(F64, m.fp64(), a)
}

/// `D = f64(S0)` (exact).
pub fn v_cvt_f64_u32(a: u32, m: Mode) -> u64 {
    float::from_int(m.fp64(), a as i128)
}

// ---------------------------------------------------------------------------------------
// Rounding and fractions (both precisions: `fp` says which).

/// `D = trunc(S0)`
pub fn trunc(fp: Fp, a: u64) -> u64 {
    float::round_int(fp, a, ToInt::Trunc)
}

/// `D = ceil(S0)`
pub fn ceil(fp: Fp, a: u64) -> u64 {
    float::round_int(fp, a, ToInt::Ceil)
}

/// `D = floor(S0)`
pub fn floor(fp: Fp, a: u64) -> u64 {
    float::round_int(fp, a, ToInt::Floor)
}

/// `D = rndne(S0)` (nearest integer, ties to even)
pub fn rndne(fp: Fp, a: u64) -> u64 {
    float::round_int(fp, a, ToInt::NearestEven)
}

/// `D = S0 - floor(S0)` rounded per MODE; NaN and infinities give NaN.
pub fn fract(fp: Fp, a: u64) -> u64 {
    let f = fp.fmt;
    if f.is_nan(a) || f.is_inf(a) {
        return f.qnan();
    }
    float::sub(fp, a, floor(fp, a))
}

/// `D = frexp_exp(S0)`: the exponent e with S0 = m × 2^e, |m| in [0.5, 1); 0 for zero;
/// for infinities and NaN -1 on GCN 1.0 and 0 later (CLRX).
pub fn frexp_exp(fp: Fp, a: u64, gen: Gen) -> u32 {
    match float::unpack(fp.fmt, a, fp.flush_in) {
        Val::Fin { exp, sig, .. } => (exp + 128 - sig.leading_zeros() as i32) as u32,
        Val::Zero(_) => 0,
        Val::Nan | Val::Inf(_) => {
            if gen == Gen::Gfx6 {
                u32::MAX
            } else {
                0
            }
        }
    }
}

/// `D = frexp_mant(S0)`: |m| in [0.5, 1) with the sign of S0; zeros pass; NaN → NaN; an
/// infinity passes on GCN 1.1/1.2 and becomes NaN on GCN 1.0 (CLRX).
pub fn frexp_mant(fp: Fp, a: u64, gen: Gen) -> u64 {
    let f = fp.fmt;
    match float::unpack(f, a, fp.flush_in) {
        Val::Fin { neg, sig, .. } => {
            // sig × 2^(-bit length): in [0.5, 1), exact.
            let len = 128 - sig.leading_zeros() as i64;
            float::round_pack(fp.keep_denormals(), neg, sig, -len)
        }
        Val::Zero(n) => f.zero(n),
        Val::Nan => f.qnan(),
        Val::Inf(n) => {
            if gen == Gen::Gfx6 {
                f.qnan()
            } else {
                f.inf(n)
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Reciprocals, roots, exponentials (f32 unless named otherwise).

/// `D = 1 / S0`, correctly rounded.
pub fn rcp(fp: Fp, a: u64) -> u64 {
    float::div(fp, fp.fmt.one(false), a)
}

/// `D = 1 / S0`; an infinite result becomes the largest finite value of its sign.
pub fn rcp_clamp(fp: Fp, a: u64) -> u64 {
    clamp_inf(fp.fmt, rcp(fp, a))
}

fn clamp_inf(f: Format, r: u64) -> u64 {
    if f.is_inf(r) {
        f.max_finite(f.is_neg(r))
    } else {
        r
    }
}

/// `D = 1 / S0`, except ±0 (and any infinite result) gives 0 with the sign of S0 (CLRX).
pub fn v_rcp_legacy_f32(a: u32, m: Mode) -> u32 {
    let fp = m.fp32();
    let r = rcp(fp, a as u64);
    if F32.is_inf(r) || matches!(float::unpack(F32, a as u64, fp.flush_in), Val::Zero(_)) {
        F32.zero(a >> 31 != 0) as u32
    } else {
        r as u32
    }
}

/// `D = sqrt(S0)`, correctly rounded; negative → NaN.
pub fn sqrt(fp: Fp, a: u64) -> u64 {
    float::sqrt(fp, a)
}

/// `D = 1 / sqrt(S0)`, correctly rounded; rsq(±0) = ±inf, negative → NaN.
pub fn rsq(fp: Fp, a: u64) -> u64 {
    float::rsq(fp, a)
}

/// The f32 rsq family flushes input denormals regardless of MODE.
fn rsq_f32(a: u32, m: Mode) -> u64 {
    let fp = m.fp32();
    rsq(
        Fp {
            flush_in: true,
            ..fp
        },
        a as u64,
    )
}

/// `D = 1 / sqrt(S0)` (input denormals flushed).
pub fn v_rsq_f32(a: u32, m: Mode) -> u32 {
    rsq_f32(a, m) as u32
}

/// `D = 1 / sqrt(S0)`; an infinite result becomes the largest finite value of its sign.
pub fn v_rsq_clamp_f32(a: u32, m: Mode) -> u32 {
    clamp_inf(F32, rsq_f32(a, m)) as u32
}

/// `D = 1 / sqrt(S0)`; an infinite result becomes +0.0 (CLRX).
pub fn v_rsq_legacy_f32(a: u32, m: Mode) -> u32 {
    let r = rsq_f32(a, m);
    if F32.is_inf(r) {
        0
    } else {
        r as u32
    }
}

/// Round an `approx.rs` f64 value to `fp`.
fn from_f64(fp: Fp, x: f64) -> u64 {
    float::convert(
        F64,
        false,
        Fp {
            flush_in: false,
            ..fp
        },
        x.to_bits(),
    )
}

/// `D = 2^S0` (approx.rs). Inputs below the format's smallest normal exponent give +0.0
/// whatever MODE says (CLRX: "for values smaller than -126.0 always returns 0").
pub fn exp(fp: Fp, a: u64) -> u64 {
    let f = fp.fmt;
    let min_exp = -(f.bias() - 1) as f64;
    match float::unpack(f, a, fp.flush_in) {
        Val::Nan => f.qnan(),
        Val::Inf(false) => f.inf(false),
        Val::Inf(true) => f.zero(false),
        Val::Zero(_) => f.one(false),
        Val::Fin { .. } => {
            let x = float_value(f, a);
            if x < min_exp {
                f.zero(false)
            } else if x >= (f.bias() + 1) as f64 {
                float::round_pack(fp, false, 1, (f.bias() + 1) as i64)
            } else {
                from_f64(fp, approx::exp2(x))
            }
        }
    }
}

/// The value of a finite float of format `f` as an f64 (exact for f16/f32/f64).
fn float_value(f: Format, a: u64) -> f64 {
    f64::from_bits(float::convert(
        f,
        false,
        Fp {
            fmt: F64,
            round: Round::NearestEven,
            flush_in: false,
            flush_out: false,
        },
        a,
    ))
}

/// `D = log2(S0)` (approx.rs): log2(1) = 0, log2(±0) = -inf, negative → NaN,
/// log2(+inf) = +inf.
pub fn log(fp: Fp, a: u64) -> u64 {
    let f = fp.fmt;
    match float::unpack(f, a, fp.flush_in) {
        Val::Nan | Val::Inf(true) | Val::Fin { neg: true, .. } => f.qnan(),
        Val::Inf(false) => f.inf(false),
        Val::Zero(_) => f.inf(true),
        Val::Fin { .. } => from_f64(fp, approx::log2(float_value(f, a))),
    }
}

/// The f32 log family flushes input denormals regardless of MODE.
pub fn v_log_f32(a: u32, m: Mode) -> u32 {
    log(
        Fp {
            flush_in: true,
            ..m.fp32()
        },
        a as u64,
    ) as u32
}

/// `D = log2(S0)`; -inf becomes the most negative finite value.
pub fn v_log_clamp_f32(a: u32, m: Mode) -> u32 {
    clamp_inf(F32, v_log_f32(a, m) as u64) as u32
}

/// sin/cos of 2π·S0: valid for |S0| ≤ 256 (AMD's manuals; an input out of that range
/// gives `out_of_range`), infinities and NaN give NaN.
fn trig(fp: Fp, a: u64, cos: bool) -> u64 {
    let f = fp.fmt;
    match float::unpack(f, a, fp.flush_in) {
        Val::Nan | Val::Inf(_) => f.qnan(),
        Val::Zero(n) => {
            if cos {
                f.one(false)
            } else {
                f.zero(n)
            }
        }
        Val::Fin { .. } => {
            let x = float_value(f, a);
            if x.abs() > 256.0 {
                return if cos { f.one(false) } else { f.zero(false) };
            }
            let (s, c) = approx::sincos_turns(x);
            let r = if cos { c } else { s };
            // An exact zero of the function is +0.0 (the reduction is exact, so these are
            // the true zeros at multiples of a half or quarter turn).
            if r == 0.0 {
                f.zero(false)
            } else {
                from_f64(fp, r)
            }
        }
    }
}

/// `D = sin(2π × S0)`
pub fn sin(fp: Fp, a: u64) -> u64 {
    trig(fp, a, false)
}

/// `D = cos(2π × S0)`
pub fn cos(fp: Fp, a: u64) -> u64 {
    trig(fp, a, true)
}

// ---------------------------------------------------------------------------------------
// Bit operations.

/// `D = ~S0`
pub fn v_not_b32(a: u32) -> u32 {
    !a
}

/// `D = reverse_bits(S0)`
pub fn v_bfrev_b32(a: u32) -> u32 {
    a.reverse_bits()
}

/// `D = number of zero bits above the highest 1`, or -1 when S0 = 0.
pub fn v_ffbh_u32(a: u32) -> u32 {
    if a == 0 {
        u32::MAX
    } else {
        a.leading_zeros()
    }
}

/// `D = index of the lowest 1 bit`, or -1 when S0 = 0.
pub fn v_ffbl_b32(a: u32) -> u32 {
    if a == 0 {
        u32::MAX
    } else {
        a.trailing_zeros()
    }
}

/// `D = number of bits equal to the sign bit before the first that differs`, counted from
/// bit 31; -1 for 0 and -1.
pub fn v_ffbh_i32(a: u32) -> u32 {
    let x = if (a as i32) < 0 { !a } else { a };
    if x == 0 {
        u32::MAX
    } else {
        x.leading_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_examples() {
        let m = Mode(0xC0);
        assert_eq!(v_cvt_i32_f32(0x4F00_0000, m), i32::MAX as u32); // 2^31 saturates
        assert_eq!(v_cvt_i32_f32((-2.9f32).to_bits(), m), (-2i32) as u32);
        assert_eq!(v_cvt_u32_f32((-1.0f32).to_bits(), m), 0);
        assert_eq!(v_cvt_u32_f32(0x7FC0_0000, m), 0);
        assert_eq!(v_cvt_rpi_i32_f32((-2.5f32).to_bits(), m), (-2i32) as u32);
        assert_eq!(v_cvt_rpi_i32_f32(2.5f32.to_bits(), m), 3);
        assert_eq!(v_cvt_flr_i32_f32((-2.5f32).to_bits(), m), (-3i32) as u32);
        assert_eq!(v_cvt_flr_i32_f32(0xFFC0_0000, m), i32::MIN as u32);
        assert_eq!(v_cvt_off_f32_i4(0xF), (-0.0625f32).to_bits());
        assert_eq!(v_cvt_off_f32_i4(0x8), (-0.5f32).to_bits());
        assert_eq!(v_cvt_f32_ubyte(0x1234_5678, 3), 18.0f32.to_bits());
        assert_eq!(v_ffbh_i32(0xFFFF_0000), 16);
        assert_eq!(v_ffbh_i32(0x0000_FFFF), 16);
        assert_eq!(v_ffbh_i32(u32::MAX), u32::MAX);
        assert_eq!(frexp_exp(m.fp32(), 8.0f32.to_bits() as u64, Gen::Gfx8), 4);
        assert_eq!(
            frexp_mant(m.fp32(), (-8.0f32).to_bits() as u64, Gen::Gfx8),
            (-0.5f32).to_bits() as u64
        );
        assert_eq!(
            fract(m.fp32(), (-1.25f32).to_bits() as u64),
            0.75f32.to_bits() as u64
        );
    }
}
