//! Vector operations outside the core families (`int_ops`, `float_ops`, `mixed`,
//! `half`): the class compares (`class.rs`), the packing conversions and the floor
//! conversions `v_cvt_flr/rpi_i32_f32` (`pack.rs`), the byte permute and masked/quad SADs
//! (`bytes.rs`), and here the 64-bit multiply-add `v_mad_u64_u32`/`v_mad_i64_i32`, the
//! legacy min/max/mad/mac, `v_cvt_off_f32_i4`, `v_rcp_clamp_f32/f64`/`v_rcp_legacy_f32`,
//! `v_fma_f16`, `v_ldexp_f16` and `v_frexp_mant_f16`/`v_frexp_exp_i16_f16`. Their operands
//! are fetched (`fetch.rs`) and their results written (`write.rs`) as for every operation;
//! `lower` makes one chunk's result.
//!
//! The semantics are the interpreter's (`wavejit_interp::valu::{vopc, vop2, vop3}`).

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{InstBuilder, Value};

use super::opnd::Opnd;
use super::vocab::{Fmt, XOp};
use crate::block::{Cx, F32X4, F64X2, I32X4, I64X2};

/// What an operation produces for a chunk.
pub(super) enum XOut {
    W32(Value),
    W64([Value; 2]),
    /// A lane mask (`i32x4`) for the compare's destination pair.
    Mask(Value),
    /// A 64-bit result and a carry-out lane mask.
    W64Mask([Value; 2], Value),
    /// A float result (OMOD and CLAMP follow).
    Float(Opnd),
}

/// Lower one chunk of `op` from its fetched operands.
pub(super) fn lower(cx: &mut Cx, op: XOp, v: &[Opnd; 3]) -> XOut {
    match op {
        XOp::Class(f, _) => XOut::Mask(super::class::class_mask(cx, f, v[0], v[1].v32())),
        XOp::Mad64(signed) => {
            let (r, m) = mad64(cx, signed, v);
            XOut::W64Mask(r, m)
        }
        XOp::PkU16U32 | XOp::PkI16I32 | XOp::PknormI16 | XOp::PknormU16 | XOp::Pkrtz => {
            XOut::W32(super::pack::pack2(cx, op, v[0].v32(), v[1].v32()))
        }
        XOp::PkU8(_) => XOut::W32(super::pack::pk_u8(cx, v[0].v32(), v[1].v32(), v[2].v32())),
        XOp::Perm => XOut::W32(super::bytes::perm(cx, v[0].v32(), v[1].v32(), v[2].v32())),
        XOp::Msad => XOut::W32(super::bytes::msad(cx, v[0].v32(), v[1].v32(), v[2].v32())),
        XOp::Qsad(masked) => {
            let a = [v[0].v64(0), v[0].v64(1)];
            let c = [v[2].v64(0), v[2].v64(1)];
            XOut::W64(super::bytes::qsad(cx, masked, a, v[1].v32(), c))
        }
        XOp::MinLegacy(max) => XOut::Float(Opnd::W32(min_legacy(cx, max, v))),
        XOp::MadLegacy(_) => XOut::Float(Opnd::W32(mad_legacy(cx, v))),
        XOp::CvtFloor(half_up) => XOut::W32(super::pack::floor_i32(cx, half_up, v[0].v32())),
        XOp::CvtOffI4 => {
            let a = cx.cast(I32X4, v[0].v32());
            let t = cx.b.ins().ishl_imm_u(a, 28);
            let t = cx.b.ins().sshr_imm_u(t, 28);
            let f = cx.b.ins().fcvt_from_sint(F32X4, t);
            let k = cx.splat32(0.0625f32.to_bits());
            let k = cx.cast(F32X4, k);
            // Exact: -0.5 … 0.4375.
            XOut::Float(Opnd::W32(cx.b.ins().fmul(f, k)))
        }
        XOp::FmaF16 => XOut::Float(Opnd::W32(fma16(cx, v))),
        XOp::LdexpF16 => XOut::Float(Opnd::W32(ldexp16(cx, v))),
        XOp::FrexpF16(mant) => {
            // Through the f32 lowering (`mixed::frexp`): an f16 value is an f32 normal
            // (never flushed there), its mantissa exact in f16.
            let (fin, fout) = cx.f16_flags();
            let x = cx.h2f(v[0].v32(), fin);
            let z = Opnd::W32(x);
            let r = super::mixed::frexp(cx, Fmt::F32, mant, &[z, z, z]).v32();
            if mant {
                XOut::Float(Opnd::W32(cx.f2h(r, fout)))
            } else {
                let r = cx.cast(I32X4, r);
                let m = cx.splat32(0xffff);
                XOut::W32(cx.b.ins().band(r, m))
            }
        }
        XOp::RcpClamp(f, legacy) => XOut::Float(match f {
            Fmt::F32 => Opnd::W32(rcp_clamp(cx, f, legacy, v[0].v32())),
            Fmt::F64 => Opnd::W64([
                rcp_clamp(cx, f, legacy, v[0].v64(0)),
                rcp_clamp(cx, f, legacy, v[0].v64(1)),
            ]),
        }),
    }
}

/// `1 / x` correctly rounded (`vop1::rcp`), then an infinite result replaced by the
/// largest finite value of its sign, or (`legacy`) by 0 of its sign — an infinite
/// reciprocal has the sign of x, as `vop1::v_rcp_legacy_f32`'s zero does.
fn rcp_clamp(cx: &mut Cx, f: Fmt, legacy: bool, x: Value) -> Value {
    let a = cx.fin(f, x);
    let (one, sign, mag, inf, max) = match f {
        Fmt::F32 => (
            cx.splat32(1.0f32.to_bits()),
            cx.splat32(0x8000_0000),
            cx.splat32(0x7fff_ffff),
            cx.splat32(0x7f80_0000),
            cx.splat32(0x7f7f_ffff),
        ),
        Fmt::F64 => (
            cx.splat64(1.0f64.to_bits()),
            cx.splat64(0x8000_0000_0000_0000),
            cx.splat64(0x7fff_ffff_ffff_ffff),
            cx.splat64(0x7ff0_0000_0000_0000),
            cx.splat64(0x7fef_ffff_ffff_ffff),
        ),
    };
    let ity = if f == Fmt::F64 { I64X2 } else { I32X4 };
    let fty = if f == Fmt::F64 { F64X2 } else { F32X4 };
    let one = cx.cast(fty, one);
    let r = cx.b.ins().fdiv(one, a);
    let r = cx.fout(f, r);
    let r = cx.cast(ity, r);
    let m = cx.b.ins().band(r, mag);
    let is_inf = cx.b.ins().icmp(IntCC::Equal, m, inf);
    let s = cx.b.ins().band(r, sign);
    let repl = if legacy { s } else { cx.b.ins().bor(s, max) };
    cx.b.ins().bitselect(is_inf, repl, r)
}

/// `S0 < S1 ? S0 : S1` (`>` for max) on inputs flushed per MODE, the result as any f32
/// result (output flush, canonical NaN): a NaN on either side gives S1
/// (`vop2::v_min_legacy_f32`).
fn min_legacy(cx: &mut Cx, max: bool, v: &[Opnd; 3]) -> Value {
    let a = cx.fin(Fmt::F32, v[0].v32());
    let b = cx.fin(Fmt::F32, v[1].v32());
    let c = if max {
        cx.b.ins().fcmp(FloatCC::GreaterThan, a, b)
    } else {
        cx.b.ins().fcmp(FloatCC::LessThan, a, b)
    };
    // The mask as f32x4: the CLIF verifier wants it typed like the data.
    let c = cx.cast(F32X4, c);
    let r = cx.b.ins().bitselect(c, a, b);
    cx.fout(Fmt::F32, r)
}

/// `(S0 ×legacy S1) + S2`, unfused: the product rounded (output flush, NaN canonical) or
/// +0 when a flushed factor is ±0, then flushed as an input of the add
/// (`vop3::v_mad_legacy_f32`).
fn mad_legacy(cx: &mut Cx, v: &[Opnd; 3]) -> Value {
    let a = cx.fin(Fmt::F32, v[0].v32());
    let b = cx.fin(Fmt::F32, v[1].v32());
    let m = cx.b.ins().fmul(a, b);
    let m = cx.fout(Fmt::F32, m);
    let z = cx.vconst(F32X4, 0);
    let az = cx.b.ins().fcmp(FloatCC::Equal, a, z);
    let bz = cx.b.ins().fcmp(FloatCC::Equal, b, z);
    let any = cx.b.ins().bor(az, bz);
    let any = cx.cast(F32X4, any);
    let m = cx.cast(F32X4, m);
    let m = cx.b.ins().bitselect(any, z, m);
    let m = cx.fin(Fmt::F32, m);
    let d = cx.fin(Fmt::F32, v[2].v32());
    let r = cx.b.ins().fadd(m, d);
    cx.fout(Fmt::F32, r)
}

/// `S0 × S1 + S2` over 64-bit lanes (`vop3::v_mad_u64_u32`, `v_mad_i64_i32`): the product
/// of the widened 32-bit sources is exact in 64 bits; the carry is bit 64 of the exact sum —
/// unsigned: the 64-bit sum wrapped; signed: the exact sum is negative.
fn mad64(cx: &mut Cx, signed: bool, v: &[Opnd; 3]) -> ([Value; 2], Value) {
    let a = cx.cast(I32X4, v[0].v32());
    let b = cx.cast(I32X4, v[1].v32());
    let (al, ah, bl, bh) = cx.widen_pair(a, b, signed);
    let mut out = [Value::from_u32(0); 2];
    let mut carry = [Value::from_u32(0); 2];
    for (h, (x, y)) in [(al, bl), (ah, bh)].into_iter().enumerate() {
        let p = cx.b.ins().imul(x, y);
        let c = cx.cast(I64X2, v[2].v64(h));
        let s = cx.b.ins().iadd(p, c);
        carry[h] = if signed {
            // sign(exact) = sign(s) ^ overflow, overflow = (p ^ s) & !(p ^ c) at bit 63.
            let ps = cx.b.ins().bxor(p, s);
            let pc = cx.b.ins().bxor(p, c);
            let o = cx.b.ins().band_not(ps, pc);
            let t = cx.b.ins().bxor(s, o);
            let z = cx.splat64(0);
            cx.b.ins().icmp(IntCC::SignedLessThan, t, z)
        } else {
            cx.b.ins().icmp(IntCC::UnsignedLessThan, s, p)
        };
        out[h] = s;
    }
    let (m, _) = cx.unzip64(carry);
    (out, m)
}

/// `fma(S0, S1, S2)` of f16 values rounded once (`float::fma` with MODE's f16 controls).
///
/// In f64 the product of two f16 values is exact (22 bits) and so is its sum with the
/// third unless the two terms are more than 2^31 apart — then the larger is S2 (an f16
/// value the exact sum also rounds to; a product that large overflows f16 either way), or
/// the smaller survives as f64 bits below f32's precision. That f64 value is rounded to
/// f32 *to odd* (truncated, the last bit set when inexact), which has 13 bits more than
/// f16: rounding it to f16 (nearest even, `half::f2h`) gives the correctly rounded result.
fn fma16(cx: &mut Cx, v: &[Opnd; 3]) -> Value {
    let (fin, fout) = cx.f16_flags();
    let x: Vec<Value> = (0..3).map(|i| cx.h2f(v[i].v32(), fin)).collect();
    let hi_lanes = [8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15];
    let mut sums = [Value::from_u32(0); 2];
    for (h, sum) in sums.iter_mut().enumerate() {
        let d: Vec<Value> = x
            .iter()
            .map(|&f| {
                let f = if h == 0 {
                    f
                } else {
                    let t = cx.shuffle(f, f, hi_lanes);
                    cx.cast(F32X4, t)
                };
                cx.b.ins().fvpromote_low(f)
            })
            .collect();
        let p = cx.b.ins().fmul(d[0], d[1]);
        *sum = cx.b.ins().fadd(p, d[2]);
    }
    // f64 → f32 to odd: the nearest f32, one step toward zero where it is above the
    // exact magnitude, the last bit set where it is inexact.
    let mut near = [Value::from_u32(0); 2];
    let mut above = [Value::from_u32(0); 2];
    let mut inexact = [Value::from_u32(0); 2];
    for h in 0..2 {
        let s = sums[h];
        let r = cx.b.ins().fvdemote(s);
        let back = cx.b.ins().fvpromote_low(r);
        let ab = cx.b.ins().fabs(back);
        let asum = cx.b.ins().fabs(s);
        let gt = cx.b.ins().fcmp(FloatCC::GreaterThan, ab, asum);
        let ne = cx.b.ins().fcmp(FloatCC::NotEqual, back, s);
        near[h] = cx.cast(I32X4, r);
        above[h] = cx.cast(I64X2, gt);
        inexact[h] = cx.cast(I64X2, ne);
    }
    // The two f32 results (lanes 0-1 of each) side by side; the masks' low dwords.
    let r = cx.shuffle(
        near[0],
        near[1],
        [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23],
    );
    let r = cx.cast(I32X4, r);
    let (gt, _) = cx.unzip64(above);
    let (ne, _) = cx.unzip64(inexact);
    // `gt` lanes are -1: adding them steps the magnitude down by one.
    let r = cx.b.ins().iadd(r, gt);
    let one = cx.splat32(1);
    let sticky = cx.b.ins().band(ne, one);
    let odd = cx.b.ins().bor(r, sticky);
    let odd = cx.cast(F32X4, odd);
    cx.f2h(odd, fout)
}

/// `S0 × 2^i16(S1)` of an f16 value rounded once (`f16::v_ldexp_f16`): in f32 with the
/// exponent clamped to ±50 the product is exact (an f16 value times 2^50 overflows f16,
/// times 2^-50 is below half its smallest denormal either way), then rounded to f16.
fn ldexp16(cx: &mut Cx, v: &[Opnd; 3]) -> Value {
    let (fin, fout) = cx.f16_flags();
    let x = cx.h2f(v[0].v32(), fin);
    let n = cx.cast(I32X4, v[1].v32());
    let n = cx.b.ins().ishl_imm_u(n, 16);
    let n = cx.b.ins().sshr_imm_u(n, 16);
    let hi = cx.splat32(50);
    let lo = cx.splat32((-50i32) as u32);
    let n = cx.b.ins().smin(n, hi);
    let n = cx.b.ins().smax(n, lo);
    let bias = cx.splat32(127);
    let e = cx.b.ins().iadd(n, bias);
    let e = cx.b.ins().ishl_imm_u(e, 23);
    let p = cx.cast(F32X4, e);
    let y = cx.b.ins().fmul(x, p);
    cx.f2h(y, fout)
}
