//! The packing conversions (`wavejit_interp::valu::vop2`, `vop3`): two 32-bit values to
//! the two 16-bit halves of the result (`v_cvt_pk_u16_u32`, `v_cvt_pk_i16_i32`,
//! `v_cvt_pknorm_i16_f32`, `v_cvt_pknorm_u16_f32`, `v_cvt_pkrtz_f16_f32`), and an f32 to
//! one byte of a 32-bit value (`v_cvt_pk_u8_f32`, `v_cvt_pkaccum_u8_f32`).
//!
//! * pknorm: `x × 32767` (or 65535) is exact in f64, clamped, rounded to nearest even by
//!   adding 1.5 × 2^52 (the integer is then the low dword of the bits); NaN gives 0.
//! * pkrtz: f32 → f16 toward zero on the bits: normal results keep the top 10 mantissa
//!   bits, f16 denormals are `trunc(|x| × 2^24)` (exact scaling), overflow gives the
//!   largest finite f16 (65504), NaN the quiet NaN 0x7E00; inputs flushed per MODE's f32
//!   control, denormal results per the f16 one.
//! * `v_cvt_flr_i32_f32`, `v_cvt_rpi_i32_f32` (`floor_i32`): on f64 lanes, saturated.
//! * u8: `x` rounded to nearest even (the block's MODE rounds so; others stay with the
//!   interpreter), clamped to [0, 255], NaN 0, shifted into byte `S1 & 3` of S2.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{InstBuilder, Value};

use super::vocab::{Fmt, XOp};
use crate::block::{Cx, F32X4, F64X2, I32X4, I64X2};

/// Two sources to the halves of one dword: `f(a) | f(b) << 16`.
pub(super) fn pack2(cx: &mut Cx, op: XOp, a: Value, b: Value) -> Value {
    let lo = half(cx, op, a);
    let hi = half(cx, op, b);
    let hi = cx.b.ins().ishl_imm_u(hi, 16);
    cx.b.ins().bor(lo, hi)
}

/// One 16-bit half (in the low bits, the rest zero).
fn half(cx: &mut Cx, op: XOp, x: Value) -> Value {
    let x = cx.cast(I32X4, x);
    match op {
        XOp::PkU16U32 => {
            let m = cx.splat32(0xffff);
            cx.b.ins().umin(x, m)
        }
        XOp::PkI16I32 => {
            let hi = cx.splat32(32767);
            let lo = cx.splat32((-32768i32) as u32);
            let t = cx.b.ins().smin(x, hi);
            let t = cx.b.ins().smax(t, lo);
            let m = cx.splat32(0xffff);
            cx.b.ins().band(t, m)
        }
        XOp::PknormI16 => norm16(cx, x, 32767.0, -32767.0),
        XOp::PknormU16 => norm16(cx, x, 65535.0, 0.0),
        _ => rtz16(cx, x),
    }
}

/// `clamp(x × scale, lo, scale)` rounded to nearest even, as 16 bits; NaN → 0.
fn norm16(cx: &mut Cx, x: Value, scale: f64, lo: f64) -> Value {
    let xf = cx.cast(F32X4, x);
    let nan = cx.b.ins().fcmp(FloatCC::Unordered, xf, xf);
    let s = cx.vconst(F64X2, splat64(scale.to_bits()));
    let l = cx.vconst(F64X2, splat64(lo.to_bits()));
    let magic = cx.vconst(F64X2, splat64(0x4338_0000_0000_0000));
    let mut parts = cx.widen_f32(xf);
    for part in parts.iter_mut() {
        let p = cx.b.ins().fmul(*part, s);
        let p = clamp_f64(cx, p, l, s);
        // Adding 1.5 × 2^52 rounds to an integer (nearest even) in the low bits.
        let r = cx.b.ins().fadd(p, magic);
        *part = cx.cast(I64X2, r);
    }
    let (lo_dw, _) = cx.unzip64(parts);
    let m = cx.splat32(0xffff);
    let v = cx.b.ins().band(lo_dw, m);
    let nan = cx.cast(I32X4, nan);
    cx.b.ins().band_not(v, nan)
}

/// `d` limited to `[lo, hi]` (`f64x2`; NaN lanes pass through: the callers select them).
fn clamp_f64(cx: &mut Cx, d: Value, lo: Value, hi: Value) -> Value {
    // (Masks cast to the data's type: the CLIF verifier wants them alike.)
    let gt = cx.b.ins().fcmp(FloatCC::GreaterThan, d, hi);
    let gt = cx.cast(F64X2, gt);
    let d = cx.b.ins().bitselect(gt, hi, d);
    let lt = cx.b.ins().fcmp(FloatCC::LessThan, d, lo);
    let lt = cx.cast(F64X2, lt);
    cx.b.ins().bitselect(lt, lo, d)
}

fn splat64(x: u64) -> u128 {
    x as u128 | (x as u128) << 64
}

/// f32 bits → f16 bits rounded toward zero (`vop2::f32_to_f16_rtz`).
fn rtz16(cx: &mut Cx, x: Value) -> Value {
    let (flush_in, _) = cx.fp_flags(Fmt::F32);
    let (_, flush_out) = cx.f16_flags();
    let x = if flush_in {
        let f = cx.fin(Fmt::F32, x);
        cx.cast(I32X4, f)
    } else {
        x
    };
    let k = |cx: &mut Cx, v: u32| cx.splat32(v);
    let mm = k(cx, 0x7fff_ffff);
    let a = cx.b.ins().band(x, mm);
    let s = cx.b.ins().ushr_imm_u(x, 16);
    let sm = k(cx, 0x8000);
    let sign = cx.b.ins().band(s, sm);
    // Normal f16 range: rebias the exponent (127 → 15) and drop 13 mantissa bits.
    let rebias = k(cx, 112 << 23);
    let n = cx.b.ins().isub(a, rebias);
    let normal = cx.b.ins().ushr_imm_u(n, 13);
    // f16 denormals: |x| × 2^24, truncated.
    let af = cx.cast(F32X4, a);
    let scale = k(cx, 0x4b80_0000);
    let scale = cx.cast(F32X4, scale);
    let sc = cx.b.ins().fmul(af, scale);
    let tr = cx.b.ins().trunc(sc);
    let den = cx.b.ins().x86_cvtt2dq(I32X4, tr);
    let den = if flush_out { k(cx, 0) } else { den };
    let min_norm = k(cx, 0x3880_0000);
    let is_den = cx.b.ins().icmp(IntCC::SignedLessThan, a, min_norm);
    let mut r = cx.b.ins().bitselect(is_den, den, normal);
    let big = k(cx, 0x4780_0000);
    let ovf = cx.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, a, big);
    let maxf = k(cx, 0x7bff);
    r = cx.b.ins().bitselect(ovf, maxf, r);
    let inf = k(cx, 0x7f80_0000);
    let is_inf = cx.b.ins().icmp(IntCC::Equal, a, inf);
    let inf16 = k(cx, 0x7c00);
    r = cx.b.ins().bitselect(is_inf, inf16, r);
    r = cx.b.ins().bor(r, sign);
    let is_nan = cx.b.ins().icmp(IntCC::SignedGreaterThan, a, inf);
    let qnan = k(cx, 0x7e00);
    cx.b.ins().bitselect(is_nan, qnan, r)
}

/// `(S2 & ~(0xFF << 8k)) | u8(S0) << 8k`, `k = S1 & 3`.
pub(super) fn pk_u8(cx: &mut Cx, a: Value, b: Value, d: Value) -> Value {
    let xf = cx.fin(Fmt::F32, a);
    let r = cx.b.ins().nearest(xf);
    let z = cx.vconst(F32X4, 0);
    let top = cx.splat32(255.0f32.to_bits());
    let top = cx.cast(F32X4, top);
    // NaN and negatives (and -0) → 0, above 255 → 255.
    let pos = cx.b.ins().fcmp(FloatCC::GreaterThan, r, z);
    let pos = cx.cast(F32X4, pos);
    let r = cx.b.ins().bitselect(pos, r, z);
    let gt = cx.b.ins().fcmp(FloatCC::GreaterThan, r, top);
    let gt = cx.cast(F32X4, gt);
    let r = cx.b.ins().bitselect(gt, top, r);
    // An integer in 0..=255 plus 2^23: the integer is the low mantissa bits.
    let magic = cx.splat32(0x4b00_0000);
    let magic = cx.cast(F32X4, magic);
    let t = cx.b.ins().fadd(r, magic);
    let t = cx.cast(I32X4, t);
    let m = cx.splat32(0xff);
    let byte = cx.b.ins().band(t, m);
    let b = cx.cast(I32X4, b);
    let three = cx.splat32(3);
    let k = cx.b.ins().band(b, three);
    let sh = cx.b.ins().ishl_imm_u(k, 3);
    let field = cx.shl_var(m, sh);
    let put = cx.shl_var(byte, sh);
    let d = cx.cast(I32X4, d);
    let keep = cx.b.ins().band_not(d, field);
    cx.b.ins().bor(keep, put)
}

/// `i32(floor(x))`, or `i32(floor(x + 1/2))` with the half added exactly (`half_up`),
/// saturated; NaN gives `i32::MIN` or `i32::MAX` by its sign (`vop1::to_i32_nan_sign`).
/// Computed on f64 lanes, where `x + 1/2` is exact for every f32 below 2^52 (above, x is
/// an even integer and the tie rounds back to it).
pub(super) fn floor_i32(cx: &mut Cx, half_up: bool, x: Value) -> Value {
    let xf = cx.fin(Fmt::F32, x);
    let nan = cx.b.ins().fcmp(FloatCC::Unordered, xf, xf);
    let half = cx.vconst(F64X2, splat64(0.5f64.to_bits()));
    let hi = cx.vconst(F64X2, splat64((i32::MAX as f64).to_bits()));
    let lo = cx.vconst(F64X2, splat64((i32::MIN as f64).to_bits()));
    let magic = cx.vconst(F64X2, splat64(0x4338_0000_0000_0000));
    let mut parts = cx.widen_f32(xf);
    for part in parts.iter_mut() {
        let d = *part;
        let d = if half_up { cx.b.ins().fadd(d, half) } else { d };
        let d = cx.b.ins().floor(d);
        let d = clamp_f64(cx, d, lo, hi);
        let r = cx.b.ins().fadd(d, magic);
        *part = cx.cast(I64X2, r);
    }
    let (v, _) = cx.unzip64(parts);
    // NaN: 0x7fffffff + (sign bit) wraps to 0x80000000 for a negative NaN.
    let xi = cx.cast(I32X4, x);
    let sign = cx.b.ins().ushr_imm_u(xi, 31);
    let max = cx.splat32(i32::MAX as u32);
    let nv = cx.b.ins().iadd(max, sign);
    let nan = cx.cast(I32X4, nan);
    cx.b.ins().bitselect(nan, nv, v)
}
