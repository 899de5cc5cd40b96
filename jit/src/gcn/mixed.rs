//! Vector operations whose sources and result differ in width or kind: 64-bit shifts,
//! conversions (f32/f64/i32/u32), `ldexp` and `frexp` — one chunk (4 lanes) at a time, with
//! the interpreter's rules (`wavejit_interp::valu::{vop1, vop3}`, `float`):
//!
//! * `ldexp` is exact scaling then one rounding. f32: the f32 value is widened to f64
//!   (exact), multiplied by 2^n in f64 (exact for the clamped n), then narrowed once
//!   (`cvtpd2ps`: one IEEE rounding with gradual underflow). f64: up to three
//!   multiplications by powers of two, arranged so that only the last can round (the
//!   scaling of `scalbn`: steps of 2^1023 up, or 2^-969 down, which stay normal unless the
//!   result is below half the smallest subnormal anyway).
//! * `frexp` takes the exponent and mantissa fields apart; a subnormal input (kept by
//!   MODE) is first converted from its integer mantissa, exactly, to find its leading bit.
//! * f64 → i32/u32 truncates, clamps to the integer range, maps NaN to 0, and reads the
//!   integer from the bits of `x + 1.5·2^52` (or `x + 2^52`), exact for integral values of
//!   that range.
//!
//! These rely on the host's default floating-point environment (round to nearest even,
//! no flush-to-zero), which compiled code never changes.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{InstBuilder, Value};

use super::opnd::{Opnd, Uni};
use super::vocab::{Cvt, Fmt};
use crate::block::{Cx, F32X4, F64X2, I32X4, I64X2};

/// Byte shuffle: lanes 2-3 of an `i32x4` down to lanes 0-1.
const HIGH_PAIR: [u8; 16] = [8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15];
/// Byte shuffle: lanes 0-1 of the first vector, then lanes 0-1 of the second.
const LOW_PAIRS: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];

/// Quiet NaNs of the formats (the interpreter's canonical NaN).
const QNAN32: u32 = 0x7fc0_0000;
const QNAN64: u64 = 0x7ff8_0000_0000_0000;

impl Cx<'_> {
    /// The four f32 lanes of `a` as two `f64x2` (exact).
    pub(super) fn widen_f32(&mut self, a: Value) -> [Value; 2] {
        let a = self.cast(F32X4, a);
        let lo = self.b.ins().fvpromote_low(a);
        let h = self.shuffle(a, a, HIGH_PAIR);
        let h = self.cast(F32X4, h);
        let hi = self.b.ins().fvpromote_low(h);
        [lo, hi]
    }

    /// Two `f64x2` narrowed to the four lanes of an `f32x4` (one rounding each).
    fn narrow_f64(&mut self, h: [Value; 2]) -> Value {
        let a = self.cast(F64X2, h[0]);
        let b = self.cast(F64X2, h[1]);
        let lo = self.b.ins().fvdemote(a);
        let hi = self.b.ins().fvdemote(b);
        let r = self.shuffle(lo, hi, LOW_PAIRS);
        self.cast(F32X4, r)
    }

    /// The low dwords of two `i64x2` (lanes 0-1, 2-3) as one `i32x4`.
    fn low_dwords(&mut self, h: [Value; 2]) -> Value {
        self.unzip64(h).0
    }

    /// `2^k` as f64 bits for `i64x2` exponents `k` in [-1022, 1023].
    fn pow2_64(&mut self, k: Value) -> Value {
        let bias = self.splat64(1023);
        let e = self.b.ins().iadd(k, bias);
        let e = self.b.ins().ishl_imm_u(e, 52);
        self.cast(F64X2, e)
    }

    /// The exact f64 value of the integers `m` (`i64x2`, 0 ≤ m < 2^52), as bits.
    fn small_u64_to_f64_bits(&mut self, m: Value) -> Value {
        let magic = self.splat64(0x4330_0000_0000_0000);
        let t = self.b.ins().bor(m, magic);
        let t = self.cast(F64X2, t);
        let k = self.splat64(0x4330_0000_0000_0000);
        let k = self.cast(F64X2, k);
        let v = self.b.ins().fsub(t, k);
        self.cast(I64X2, v)
    }
}

/// A 64-bit shift by the constant `k` (`& 63`) of 4 lanes held as their (low dwords,
/// high dwords) `i32x4` halves, giving the result's halves: each half is one or two
/// 32-bit shifts of the source halves (`kind` 0 left, 1 logical right, 2 arithmetic
/// right), with no interleaving into `i64x2` and back — clang's `v_lshlrev_b64 v[a:a+1],
/// 2, v[b:b+1]` of every address is two to four instructions a chunk, where the
/// interleaving takes six. A high half known to be zero (`v_mov_b32 v[b+1], 0` in the
/// same segment) drops its part, and the results' known widths (`Cx::ubits`) follow the
/// shifts.
pub(super) fn shift64_halves(
    cx: &mut Cx,
    kind: u8,
    k: u32,
    lo: Value,
    hi: Value,
) -> (Value, Value) {
    let k = k & 63;
    if k == 0 {
        return (lo, hi);
    }
    let zero = cx.splat32(0);
    // The bits a half receives from the other half across the 32-bit boundary.
    let join = |cx: &mut Cx, a: Value, b: Value| {
        if cx.ubits_of(a) == 0 {
            b
        } else if cx.ubits_of(b) == 0 {
            a
        } else {
            cx.b.ins().bor(a, b)
        }
    };
    match (kind, k < 32) {
        (0, true) => {
            let l = cx.shift_k(lo, k, 0);
            let from_lo = cx.shift_k(lo, 32 - k, 1);
            let h = if cx.ubits_of(hi) == 0 {
                from_lo
            } else {
                let h = cx.shift_k(hi, k, 0);
                join(cx, h, from_lo)
            };
            (l, h)
        }
        (0, false) => (zero, cx.shift_k(lo, k - 32, 0)),
        (_, true) => {
            let l = cx.shift_k(lo, k, 1);
            let from_hi = cx.shift_k(hi, 32 - k, 0);
            let l = join(cx, l, from_hi);
            (l, cx.shift_k(hi, k, kind))
        }
        (1, false) => (cx.shift_k(hi, k - 32, 1), zero),
        (_, false) => (cx.shift_k(hi, k - 32, 2), cx.shift_k(hi, 31, 2)),
    }
}

/// A 64-bit shift of chunk `c`: `v` are the fetched sources; `amt`, when the amount is the
/// same in every lane, is it.
pub(super) fn shift64(
    cx: &mut Cx,
    kind: u8,
    rev: bool,
    v: &[Opnd; 3],
    amt: Option<Uni>,
) -> [Value; 2] {
    let (x, a) = if rev { (v[1], v[0]) } else { (v[0], v[1]) };
    let xs = [cx.cast(I64X2, x.v64(0)), cx.cast(I64X2, x.v64(1))];
    let shift = |cx: &mut Cx, x: Value, s: Value| match kind {
        0 => cx.b.ins().ishl(x, s),
        1 => cx.b.ins().ushr(x, s),
        _ => cx.b.ins().sshr(x, s),
    };
    match amt {
        Some(Uni::K(k)) => {
            let k = (k & 63) as i64;
            xs.map(|h| match kind {
                0 => cx.b.ins().ishl_imm_u(h, k),
                1 => cx.b.ins().ushr_imm_u(h, k),
                _ => cx.b.ins().sshr_imm_u(h, k),
            })
        }
        Some(Uni::S(s)) => {
            let s = cx.b.ins().band_imm_u(s, 63);
            xs.map(|h| shift(cx, h, s))
        }
        None => {
            // Each lane by its own amount (`& 63`): no SIMD form before AVX2.
            let a = cx.cast(I32X4, a.v32());
            let mut out = xs;
            for l in 0..4u8 {
                let (h, i) = ((l / 2) as usize, l % 2);
                let xl = cx.b.ins().extractlane(xs[h], i);
                let sl = cx.b.ins().extractlane(a, l);
                let sl = cx.b.ins().band_imm_u(sl, 63);
                let r = shift(cx, xl, sl);
                out[h] = cx.b.ins().insertlane(out[h], r, i);
            }
            out
        }
    }
}

/// `x × 2^n` of chunk `c` (`vop2::v_ldexp_f32`, `vop3::v_ldexp_f64`: `float::ldexp`).
pub(super) fn ldexp(cx: &mut Cx, f: Fmt, v: &[Opnd; 3]) -> Opnd {
    let n = cx.cast(I32X4, v[1].v32());
    match f {
        Fmt::F32 => {
            // Beyond ±400 every nonzero f32 overflows or rounds to zero either way, and
            // within it the f64 product is exact.
            let lo = cx.splat32((-400i32) as u32);
            let hi = cx.splat32(400);
            let n = cx.b.ins().smax(n, lo);
            let n = cx.b.ins().smin(n, hi);
            let a = cx.fin(Fmt::F32, v[0].v32());
            let w = cx.widen_f32(a);
            let ns = [cx.b.ins().swiden_low(n), cx.b.ins().swiden_high(n)];
            let mut r = w;
            for h in 0..2 {
                let p = cx.pow2_64(ns[h]);
                r[h] = cx.b.ins().fmul(w[h], p);
            }
            let r = cx.narrow_f64(r);
            Opnd::W32(cx.fout(Fmt::F32, r))
        }
        Fmt::F64 => {
            // Beyond ±2200 every nonzero f64 overflows or rounds to zero either way.
            let lo = cx.splat32((-2200i32) as u32);
            let hi = cx.splat32(2200);
            let n = cx.b.ins().smax(n, lo);
            let n = cx.b.ins().smin(n, hi);
            let ns = [cx.b.ins().swiden_low(n), cx.b.ins().swiden_high(n)];
            let mut out = [Value::from_u32(0); 2];
            for (h, o) in out.iter_mut().enumerate() {
                let mut x = cx.fin(Fmt::F64, v[0].v64(h));
                let mut n = ns[h];
                // Two scalbn steps bring n into [-1022, 1023]: 2200 → 1177 → 154,
                // -2200 → -1231 → -262. A step down by 2^-969 is exact unless the value
                // falls below 2^-1022, i.e. |x| < 2^-53, where the final result is below
                // 2^-1075 and rounds to zero along either path.
                for _ in 0..2 {
                    let up = cx.splat64(1023);
                    let down = cx.splat64(-1022i64 as u64);
                    let gt = cx.b.ins().icmp(IntCC::SignedGreaterThan, n, up);
                    let lt = cx.b.ins().icmp(IntCC::SignedLessThan, n, down);
                    let kd = cx.splat64(-969i64 as u64);
                    let z = cx.splat64(0);
                    let k = cx.b.ins().bitselect(lt, kd, z);
                    let k = cx.b.ins().bitselect(gt, up, k);
                    let p = cx.pow2_64(k);
                    x = cx.b.ins().fmul(x, p);
                    n = cx.b.ins().isub(n, k);
                }
                let p = cx.pow2_64(n);
                let r = cx.b.ins().fmul(x, p);
                *o = cx.fout(Fmt::F64, r);
            }
            Opnd::W64(out)
        }
    }
}

/// The bit layout `frexp` works on: f32 in `i32x4` lanes or f64 in `i64x2` lanes.
struct FrexpLayout {
    wide: bool,
    man_bits: u32,
    exp_max: u64,
    /// The exponent field minus this is a normal number's `frexp` exponent (126, 1022).
    bias: u64,
    /// A subnormal `m × 2^-k` has `frexp` exponent `E(m) - bias - k`: `bias + k` (275, 2096).
    sub_bias: u64,
    /// The exponent field of 0.5.
    half: u64,
    qnan: u64,
}

const FREXP_F32: FrexpLayout = FrexpLayout {
    wide: false,
    man_bits: 23,
    exp_max: 0xff,
    bias: 126,
    sub_bias: 126 + 149,
    half: 0x3f00_0000,
    qnan: QNAN32 as u64,
};

const FREXP_F64: FrexpLayout = FrexpLayout {
    wide: true,
    man_bits: 52,
    exp_max: 0x7ff,
    bias: 1022,
    sub_bias: 1022 + 1074,
    half: 0x3fe0_0000_0000_0000,
    qnan: QNAN64,
};

impl FrexpLayout {
    fn splat(&self, cx: &mut Cx, x: u64) -> Value {
        if self.wide {
            cx.splat64(x)
        } else {
            cx.splat32(x as u32)
        }
    }

    /// `frexp` of the float bits `x` (integer lanes): the exponent (`mant` false) or the
    /// mantissa bits, in the same lane width.
    fn frexp(&self, cx: &mut Cx, gfx6: bool, mant: bool, x: Value) -> Value {
        let sign_bit = 1u64 << (self.man_bits + self.exp_bits());
        let e = cx.b.ins().ushr_imm_u(x, self.man_bits as i64);
        let ff = self.splat(cx, self.exp_max);
        let e = cx.b.ins().band(e, ff);
        let mm = self.splat(cx, (1u64 << self.man_bits) - 1);
        let m = cx.b.ins().band(x, mm);
        // A subnormal's mantissa as an exact float: its exponent field says where the
        // leading bit is.
        let mf = if self.wide {
            cx.small_u64_to_f64_bits(m)
        } else {
            let f = cx.b.ins().fcvt_from_sint(F32X4, m);
            cx.cast(I32X4, f)
        };
        let z = self.splat(cx, 0);
        let sub = cx.b.ins().icmp(IntCC::Equal, e, z);
        let mag_mask = self.splat(cx, sign_bit - 1);
        let mag = cx.b.ins().band(x, mag_mask);
        let zero = cx.b.ins().icmp(IntCC::Equal, mag, z);
        let special = cx.b.ins().icmp(IntCC::Equal, e, ff);
        // Infinities and NaN: exponent -1 on GCN 1.0, else 0; mantissa NaN on GCN 1.0, else
        // the infinity (NaN stays NaN).
        if !mant {
            let k = self.splat(cx, self.bias);
            let norm = cx.b.ins().isub(e, k);
            let em = cx.b.ins().ushr_imm_u(mf, self.man_bits as i64);
            let em = cx.b.ins().band(em, ff);
            let k = self.splat(cx, self.sub_bias);
            let subn = cx.b.ins().isub(em, k);
            let r = cx.b.ins().bitselect(sub, subn, norm);
            let r = cx.b.ins().bitselect(zero, z, r);
            let sv = self.splat(cx, if gfx6 { u64::MAX } else { 0 });
            return cx.b.ins().bitselect(special, sv, r);
        }
        let half = self.splat(cx, self.half);
        let keep = self.splat(cx, sign_bit | ((1u64 << self.man_bits) - 1));
        let norm = cx.b.ins().band(x, keep);
        let norm = cx.b.ins().bor(norm, half);
        let sign_mask = self.splat(cx, sign_bit);
        let sign = cx.b.ins().band(x, sign_mask);
        let subm = cx.b.ins().band(mf, mm);
        let subm = cx.b.ins().bor(subm, half);
        let subm = cx.b.ins().bor(subm, sign);
        let r = cx.b.ins().bitselect(sub, subm, norm);
        let r = cx.b.ins().bitselect(zero, x, r);
        let q = self.splat(cx, self.qnan);
        let sv = if gfx6 {
            q
        } else {
            let nan = cx.b.ins().icmp(IntCC::NotEqual, m, z);
            cx.b.ins().bitselect(nan, q, x)
        };
        cx.b.ins().bitselect(special, sv, r)
    }

    fn exp_bits(&self) -> u32 {
        self.exp_max.count_ones()
    }
}

/// `frexp` of chunk `c`: the exponent (`mant` false; `vop1::frexp_exp`) or the mantissa
/// (`vop1::frexp_mant`).
pub(super) fn frexp(cx: &mut Cx, f: Fmt, mant: bool, v: &[Opnd; 3]) -> Opnd {
    let gfx6 = cx.gen == wavejit_isa::arch::Gen::Gfx6;
    match f {
        Fmt::F32 => {
            let x = cx.fin(Fmt::F32, v[0].v32());
            let x = cx.cast(I32X4, x);
            Opnd::W32(FREXP_F32.frexp(cx, gfx6, mant, x))
        }
        Fmt::F64 => {
            let mut out = [Value::from_u32(0); 2];
            for (h, o) in out.iter_mut().enumerate() {
                let x = cx.fin(Fmt::F64, v[0].v64(h));
                let x = cx.cast(I64X2, x);
                *o = FREXP_F64.frexp(cx, gfx6, mant, x);
            }
            if mant {
                Opnd::W64(out)
            } else {
                Opnd::W32(cx.low_dwords(out))
            }
        }
    }
}

/// The conversions to and from f64 of chunk `c`.
pub(super) fn cvt(cx: &mut Cx, k: Cvt, v: &[Opnd; 3]) -> Opnd {
    match k {
        Cvt::F64FromF32 => {
            let a = cx.fin(Fmt::F32, v[0].v32());
            let w = cx.widen_f32(a);
            Opnd::W64(w.map(|h| cx.canon(Fmt::F64, h)))
        }
        Cvt::F32FromF64 => {
            let h = [cx.fin(Fmt::F64, v[0].v64(0)), cx.fin(Fmt::F64, v[0].v64(1))];
            let r = cx.narrow_f64(h);
            Opnd::W32(cx.fout(Fmt::F32, r))
        }
        Cvt::F64FromI32 => {
            let a = cx.cast(I32X4, v[0].v32());
            // (`fcvt_from_sint` of `swiden_low` is one `cvtdq2pd`.)
            let l = cx.b.ins().swiden_low(a);
            let lo = cx.b.ins().fcvt_from_sint(F64X2, l);
            let h = cx.shuffle(a, a, HIGH_PAIR);
            let h = cx.cast(I32X4, h);
            let h = cx.b.ins().swiden_low(h);
            let hi = cx.b.ins().fcvt_from_sint(F64X2, h);
            Opnd::W64([lo, hi])
        }
        Cvt::F64FromU32 => {
            let a = cx.cast(I32X4, v[0].v32());
            let w = [cx.b.ins().uwiden_low(a), cx.b.ins().uwiden_high(a)];
            Opnd::W64(w.map(|h| cx.small_u64_to_f64_bits(h)))
        }
        Cvt::I32FromF64 | Cvt::U32FromF64 => {
            let signed = k == Cvt::I32FromF64;
            let (lo, hi, magic) = if signed {
                (-2147483648.0f64, 2147483647.0f64, 6755399441055744.0f64)
            } else {
                (0.0, 4294967295.0, 4503599627370496.0)
            };
            let mut out = [Value::from_u32(0); 2];
            for (h, o) in out.iter_mut().enumerate() {
                let x = cx.fin(Fmt::F64, v[0].v64(h));
                let t = cx.b.ins().trunc(x);
                let l = cx.splat64(lo.to_bits());
                let l = cx.cast(F64X2, l);
                let u = cx.splat64(hi.to_bits());
                let u = cx.cast(F64X2, u);
                let t = cx.b.ins().fmax(t, l);
                let t = cx.b.ins().fmin(t, u);
                let nan = cx.b.ins().fcmp(FloatCC::Unordered, x, x);
                let nan = cx.cast(F64X2, nan);
                let z = cx.vconst(F64X2, 0);
                let t = cx.b.ins().bitselect(nan, z, t);
                let mg = cx.splat64(magic.to_bits());
                let mg = cx.cast(F64X2, mg);
                let r = cx.b.ins().fadd(t, mg);
                *o = cx.cast(I64X2, r);
            }
            Opnd::W32(cx.low_dwords(out))
        }
        Cvt::F32FromI32 | Cvt::F32FromU32 => {
            let a = cx.cast(I32X4, v[0].v32());
            // Integers of known width (`Cx::ubits_of`) are small non-negative numbers;
            // rounding to f32 may reach 2^n.
            let n = cx.ubits_of(a);
            let r = if k == Cvt::F32FromI32 {
                cx.b.ins().fcvt_from_sint(F32X4, a)
            } else {
                cx.b.ins().fcvt_from_uint(F32X4, a)
            };
            let range = match (k, n) {
                (_, n) if n < 32 => (0.0, (1u64 << n) as f64),
                (Cvt::F32FromI32, _) => (-2147483648.0, 2147483648.0),
                _ => (0.0, 4294967296.0),
            };
            cx.set_range(Fmt::F32, r, range);
            Opnd::W32(r)
        }
        Cvt::I32FromF32 | Cvt::U32FromF32 => {
            // Truncating and saturating, NaN → 0: Cranelift's saturating conversions —
            // or one `cvttps2dq` for numbers known to truncate into the range (it agrees
            // with the saturating forms there; -1 < x < 0 truncates to 0).
            let x = cx.fin(Fmt::F32, v[0].v32());
            let fits = match cx.range_of(Fmt::F32, x) {
                Some((lo, hi)) if k == Cvt::I32FromF32 => lo >= -2147483648.0 && hi < 2147483648.0,
                Some((lo, hi)) => lo > -1.0 && hi < 2147483648.0,
                None => false,
            };
            Opnd::W32(if fits {
                let x = cx.cast(F32X4, x);
                cx.b.ins().x86_cvtt2dq(I32X4, x)
            } else if k == Cvt::I32FromF32 {
                cx.b.ins().fcvt_to_sint_sat(I32X4, x)
            } else {
                cx.b.ins().fcvt_to_uint_sat(I32X4, x)
            })
        }
    }
}
