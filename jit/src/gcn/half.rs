//! GCN 1.2's 16-bit operations (f16, u16, i16) and the f16 ↔ f32 conversions, one chunk
//! at a time. Sources are the low 16 bits of their operands (`fetch.rs` masks them and
//! applies ABS/NEG to bit 15); results are written to the low 16 bits with the high bits
//! zero (ERRATA VOP3 12), before SDWA's placement. The rules are the interpreter's
//! (`wavejit_interp::valu::f16`, `float`), with MODE's f16 controls (bits 3:2, 6, 7).
//!
//! f16 arithmetic is done in f32 and rounded once to f16. That is exact for what is
//! lowered here: f16 → f32 is exact; the f32 add, subtract, multiply, divide and square
//! root of f16 values followed by a rounding to f16 equal the f16 operation rounded once,
//! because f32's 24 bits are at least 2 × 11 + 2 (double rounding is then innocuous for
//! these operations, both to nearest even; a product of two f16 values is even exact in
//! f32). V_MAD_F16 is two such operations (its product is rounded to f16 first); rounding
//! to integral values and min/max are exact. V_FMA_F16 (one rounding of a three-operand
//! sum) is not lowered.
//!
//! f32 → f16 rounding (to nearest even) is integer code: a normal result rounds the f32
//! bits at bit 13 (adding 0xFFF plus the kept lowest bit); a subnormal result comes from
//! adding 0.5 in f32 (the addition itself rounds to a multiple of 2^-24, the f16 subnormal
//! step); 65520 and above overflow to infinity.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value};

use super::opnd::{Opnd, Uni};
use super::vocab::{Cvt16, Fmt, HOp, I16};
use crate::block::{Cx, F32X4, I32X4};

/// The canonical f16 quiet NaN.
pub const QNAN16: u32 = 0x7e00;

impl Cx<'_> {
    /// f16 control bits of MODE: (flush inputs, flush outputs).
    pub(super) fn f16_flags(&self) -> (bool, bool) {
        (self.mode & 0x40 == 0, self.mode & 0x80 == 0)
    }

    /// f16 values (low 16 bits of `i32x4` lanes, high bits zero) as exact f32 values;
    /// denormals become signed zero when `flush`.
    pub(super) fn h2f(&mut self, x: Value, flush: bool) -> Value {
        let x = self.cast(I32X4, x);
        let mag_mask = self.splat32(0x7fff);
        let mut m = self.b.ins().band(x, mag_mask);
        let exp_mask = self.splat32(0x7c00);
        if flush {
            let e = self.b.ins().band(x, exp_mask);
            let z = self.splat32(0);
            let den = self.b.ins().icmp(IntCC::Equal, e, z);
            m = self.b.ins().bitselect(den, z, m);
        }
        // Exponent and mantissa moved to the f32 fields: the value × 2^-112 (an f32
        // denormal for an f16 subnormal), scaled back exactly.
        let t = self.b.ins().ishl_imm_u(m, 13);
        let tf = self.cast(F32X4, t);
        let k = self.splat32(0x7780_0000); // 2^112
        let k = self.cast(F32X4, k);
        let f = self.b.ins().fmul(tf, k);
        let f = self.cast(I32X4, f);
        // Infinity and NaN: all exponent bits set.
        let special = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, m, exp_mask);
        let inf = self.splat32(0x7f80_0000);
        let s = self.b.ins().bor(t, inf);
        let f = self.b.ins().bitselect(special, s, f);
        let sign_mask = self.splat32(0x8000);
        let sign = self.b.ins().band(x, sign_mask);
        let sign = self.b.ins().ishl_imm_u(sign, 16);
        let r = self.b.ins().bor(f, sign);
        self.cast(F32X4, r)
    }

    /// f32 values rounded to f16 (nearest even), NaN canonical; in the low 16 bits of
    /// `i32x4` lanes, high bits zero. Output denormals are flushed when `flush`.
    pub(super) fn f2h(&mut self, f: Value, flush: bool) -> Value {
        let x = self.cast(I32X4, f);
        let abs_mask = self.splat32(0x7fff_ffff);
        let a = self.b.ins().band(x, abs_mask);
        // Normal: rebias the exponent and round at bit 13 (ties to even).
        let odd = self.b.ins().ushr_imm_u(a, 13);
        let one = self.splat32(1);
        let odd = self.b.ins().band(odd, one);
        let bias = self.splat32(((-112i32) << 23) as u32 + 0xfff);
        let n = self.b.ins().iadd(a, bias);
        let n = self.b.ins().iadd(n, odd);
        let n = self.b.ins().ushr_imm_u(n, 13);
        // Subnormal (|x| < 2^-14): |x| + 0.5 rounds to a multiple of 2^-24.
        let af = self.cast(F32X4, a);
        let half = self.splat32(0x3f00_0000);
        let hf = self.cast(F32X4, half);
        let s = self.b.ins().fadd(af, hf);
        let s = self.cast(I32X4, s);
        let s = self.b.ins().isub(s, half);
        let min_normal = self.splat32(113 << 23);
        let is_sub = self.b.ins().icmp(IntCC::SignedLessThan, a, min_normal);
        let r = self.b.ins().bitselect(is_sub, s, n);
        // 65536 and above (and infinities) → infinity; 65520 to 65536 rounds there too.
        let big = self.splat32(143 << 23);
        let ovf = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, a, big);
        let inf16 = self.splat32(0x7c00);
        let r = self.b.ins().bitselect(ovf, inf16, r);
        let r = if flush {
            let e = self.b.ins().band(r, inf16);
            let z = self.splat32(0);
            let den = self.b.ins().icmp(IntCC::Equal, e, z);
            self.b.ins().bitselect(den, z, r)
        } else {
            r
        };
        let sign = self.b.ins().ushr_imm_u(x, 16);
        let sm = self.splat32(0x8000);
        let sign = self.b.ins().band(sign, sm);
        let r = self.b.ins().bor(r, sign);
        let inf32 = self.splat32(0x7f80_0000);
        let nan = self.b.ins().icmp(IntCC::SignedGreaterThan, a, inf32);
        let q = self.splat32(QNAN16);
        self.b.ins().bitselect(nan, q, r)
    }

    /// OMOD then CLAMP of f16 results (`float::omod_clamp` with MODE's f16 controls).
    pub(super) fn omod_clamp16(&mut self, r: Value, omod: u8, clamp: bool) -> Value {
        let (_, fo) = self.f16_flags();
        let mut r = self.cast(I32X4, r);
        if omod != 0 && fo {
            let k: f32 = match omod {
                1 => 2.0,
                2 => 4.0,
                _ => 0.5,
            };
            // ldexp(r, 1 | 2 | -1) in f16 (its input flushed per MODE): exact scaling in
            // f32, one rounding to f16.
            let (fi, _) = self.f16_flags();
            let x = self.h2f(r, fi);
            let kv = self.splat32(k.to_bits());
            let kv = self.cast(F32X4, kv);
            let m = self.b.ins().fmul(x, kv);
            r = self.f2h(m, true);
        }
        if clamp {
            let dx10 = self.mode & 0x100 != 0;
            // NaN → +0 (DX10_CLAMP) or NaN; ±0 stay; negative → +0; above 1.0 → 1.0.
            let mag_mask = self.splat32(0x7fff);
            let mag = self.b.ins().band(r, mag_mask);
            let inf = self.splat32(0x7c00);
            let nan = self.b.ins().icmp(IntCC::UnsignedGreaterThan, mag, inf);
            let sign_mask = self.splat32(0x8000);
            let neg = self.b.ins().band(r, sign_mask);
            let z = self.splat32(0);
            let is_neg = self.b.ins().icmp(IntCC::NotEqual, neg, z);
            let is_m0 = self.b.ins().icmp(IntCC::Equal, r, sign_mask);
            let one = self.splat32(0x3c00);
            let lim = self.b.ins().umin(r, one);
            let negv = self.b.ins().bitselect(is_m0, r, z);
            let v = self.b.ins().bitselect(is_neg, negv, lim);
            let nv = self.splat32(if dx10 { 0 } else { QNAN16 });
            r = self.b.ins().bitselect(nan, nv, v);
        }
        r
    }
}

/// An f16 operation of chunk `c` (`v` fetched: low 16 bits, modifiers applied).
pub(super) fn half_op(cx: &mut Cx, op: HOp, v: &[Opnd; 3]) -> Value {
    use HOp::*;
    let (fi, fo) = cx.f16_flags();
    match op {
        Min | Max => {
            // `float::canonical`: denormals flushed by either control, NaN canonical.
            let a = cx.h2f(v[0].v32(), fi || fo);
            let b = cx.h2f(v[1].v32(), fi || fo);
            let r = cx.fminmax(Fmt::F32, a, b, op == Min);
            cx.f2h(r, false)
        }
        Mad => {
            let a = cx.h2f(v[0].v32(), fi);
            let b = cx.h2f(v[1].v32(), fi);
            let m = cx.b.ins().fmul(a, b);
            let m = cx.f2h(m, fo);
            let m = cx.h2f(m, fi);
            let d = cx.h2f(v[2].v32(), fi);
            let r = cx.b.ins().fadd(m, d);
            cx.f2h(r, fo)
        }
        Add | Sub | Subrev | Mul | Trunc | Ceil | Floor | Rndne | Sqrt | Rcp | Fract => {
            let a = cx.h2f(v[0].v32(), fi);
            let r = match op {
                Add | Sub | Subrev | Mul => {
                    let b = cx.h2f(v[1].v32(), fi);
                    match op {
                        Add => cx.b.ins().fadd(a, b),
                        Sub => cx.b.ins().fsub(a, b),
                        Subrev => cx.b.ins().fsub(b, a),
                        _ => cx.b.ins().fmul(a, b),
                    }
                }
                Trunc => cx.b.ins().trunc(a),
                Ceil => cx.b.ins().ceil(a),
                Floor => cx.b.ins().floor(a),
                Rndne => cx.b.ins().nearest(a),
                Sqrt => cx.b.ins().sqrt(a),
                Rcp => {
                    let one = cx.splat32(1.0f32.to_bits());
                    let one = cx.cast(F32X4, one);
                    cx.b.ins().fdiv(one, a)
                }
                _ => {
                    // Fract: x - floor(x) in f16; floor is exact, the subtraction one
                    // rounding.
                    let fl = cx.b.ins().floor(a);
                    cx.b.ins().fsub(a, fl)
                }
            };
            cx.f2h(r, fo)
        }
    }
}

/// Sign-extend the low 16 bits of each lane.
pub(super) fn sext16(cx: &mut Cx, x: Value) -> Value {
    let t = cx.b.ins().ishl_imm_u(x, 16);
    cx.b.ins().sshr_imm_u(t, 16)
}

/// A 16-bit integer operation of chunk `c`; `amt` is the shift amount when it is the same
/// in every lane. Results have their high 16 bits zero.
pub(super) fn int16(cx: &mut Cx, op: I16, v: &[Opnd; 3], clamp: bool, amt: Option<Uni>) -> Value {
    use I16::*;
    let a = cx.cast(I32X4, v[0].v32());
    let b = cx.cast(I32X4, v[1].v32());
    let mask = cx.splat32(0xffff);
    let r = match op {
        Add => {
            let s = cx.b.ins().iadd(a, b);
            if clamp {
                cx.b.ins().umin(s, mask)
            } else {
                s
            }
        }
        Sub | Subrev => {
            let (x, y) = if op == Sub { (a, b) } else { (b, a) };
            let d = cx.b.ins().isub(x, y);
            if clamp {
                let z = cx.splat32(0);
                cx.b.ins().smax(d, z)
            } else {
                d
            }
        }
        MulLo => cx.b.ins().imul(a, b),
        Lshlrev | Lshrrev | Ashrrev => match amt {
            Some(k) => {
                let n = match k {
                    Uni::K(k) => cx.iconst32(k & 15),
                    Uni::S(s) => cx.b.ins().band_imm_u(s, 15),
                };
                match op {
                    Lshlrev => cx.b.ins().ishl(b, n),
                    Lshrrev => cx.b.ins().ushr(b, n),
                    _ => {
                        let sb = sext16(cx, b);
                        cx.b.ins().sshr(sb, n)
                    }
                }
            }
            None => {
                // Per-lane amounts as multiplications: b << n = b × 2^n; b >> n =
                // (b × 2^(16 - n)) >> 16, exact in 32 bits for 16-bit b.
                if op == Lshlrev {
                    let p = cx.pow2_masked(a, 15);
                    cx.b.ins().imul(b, p)
                } else {
                    let m15 = cx.splat32(15);
                    let n = cx.b.ins().band(a, m15);
                    // 2^(16 - n) with n in 0..15 is 2^1 … 2^16: built as 2^(15 - n) × 2
                    // (`pow2_masked` takes amounts & 15 here).
                    let fifteen = cx.splat32(15);
                    let k1 = cx.b.ins().isub(fifteen, n);
                    let p = cx.pow2_masked(k1, 15);
                    let p = cx.b.ins().ishl_imm_u(p, 1);
                    if op == Lshrrev {
                        let t = cx.b.ins().imul(b, p);
                        cx.b.ins().ushr_imm_u(t, 16)
                    } else {
                        let sb = sext16(cx, b);
                        let t = cx.b.ins().imul(sb, p);
                        cx.b.ins().sshr_imm_u(t, 16)
                    }
                }
            }
        },
        MaxU => cx.b.ins().umax(a, b),
        MinU => cx.b.ins().umin(a, b),
        MaxI | MinI => {
            let x = sext16(cx, a);
            let y = sext16(cx, b);
            if op == MaxI {
                cx.b.ins().smax(x, y)
            } else {
                cx.b.ins().smin(x, y)
            }
        }
        MadU => {
            let d = cx.cast(I32X4, v[2].v32());
            let m = cx.b.ins().imul(a, b);
            let t = cx.b.ins().iadd(m, d);
            if clamp {
                cx.b.ins().umin(t, mask)
            } else {
                t
            }
        }
        MadI => {
            let d = cx.cast(I32X4, v[2].v32());
            let (x, y, w) = (sext16(cx, a), sext16(cx, b), sext16(cx, d));
            let m = cx.b.ins().imul(x, y);
            let t = cx.b.ins().iadd(m, w);
            if clamp {
                let lo = cx.splat32((-32768i32) as u32);
                let hi = cx.splat32(32767);
                let t = cx.b.ins().smax(t, lo);
                cx.b.ins().smin(t, hi)
            } else {
                t
            }
        }
    };
    cx.b.ins().band(r, mask)
}

/// The 16-bit conversions of chunk `c`.
pub(super) fn cvt(cx: &mut Cx, k: Cvt16, v: &[Opnd; 3]) -> Value {
    let (fi, fo) = cx.f16_flags();
    let gfx8 = cx.gen == wavejit_isa::arch::Gen::Gfx8;
    let a = cx.cast(I32X4, v[0].v32());
    match k {
        Cvt16::F16FromU16 | Cvt16::F16FromI16 => {
            let x = if k == Cvt16::F16FromI16 {
                sext16(cx, a)
            } else {
                a
            };
            let f = cx.b.ins().fcvt_from_sint(F32X4, x);
            cx.f2h(f, fo)
        }
        Cvt16::U16FromF16 | Cvt16::I16FromF16 => {
            // Truncating, saturating, NaN → 0 (f16's range is within i32's).
            let f = cx.h2f(a, fi);
            let i = cx.b.ins().fcvt_to_sint_sat(I32X4, f);
            let (lo, hi) = if k == Cvt16::U16FromF16 {
                (0u32, 0xffffu32)
            } else {
                ((-32768i32) as u32, 32767)
            };
            let lo = cx.splat32(lo);
            let hi = cx.splat32(hi);
            let i = cx.b.ins().smax(i, lo);
            let i = cx.b.ins().smin(i, hi);
            let m = cx.splat32(0xffff);
            cx.b.ins().band(i, m)
        }
        Cvt16::F16FromF32 => {
            // GCN 1.2: f16 output flush per MODE; GCN 1.0/1.1 keep f16 denormals
            // (`vop1::v_cvt_f16_f32`). Inputs flushed per MODE's f32 control.
            let x = cx.fin(Fmt::F32, a);
            cx.f2h(x, gfx8 && fo)
        }
        Cvt16::F32FromF16 => {
            // GCN 1.2 flushes f16 input denormals per MODE; 1.0/1.1 keep them.
            let f = cx.h2f(a, gfx8 && fi);
            let f = cx.canon(Fmt::F32, f);
            cx.cast(I32X4, f)
        }
    }
}
