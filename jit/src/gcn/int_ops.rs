//! 32-bit integer operations on one chunk (`IOp`): bit operations, shifts (by a uniform
//! amount when there is one), 24-bit and 32-bit multiplies, min/max/med3, bit-field
//! operations, SADs, `v_cvt_f32_ubyte*`. The rules are the interpreter's
//! (`wavejit_interp::valu`).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};

use super::opnd::Uni;
use super::vocab::IOp;
use crate::block::{Cx, F32X4, I32X4, I8X16};

impl Cx<'_> {
    /// The `i32x4` lanes of `a` and `b` widened to `i64x2` (signed or unsigned): a's low
    /// and high halves, then b's.
    pub(super) fn widen_pair(
        &mut self,
        a: Value,
        b: Value,
        signed: bool,
    ) -> (Value, Value, Value, Value) {
        let mut widen = |x: Value| {
            if signed {
                (self.b.ins().swiden_low(x), self.b.ins().swiden_high(x))
            } else {
                (self.b.ins().uwiden_low(x), self.b.ins().uwiden_high(x))
            }
        };
        let (al, ah) = widen(a);
        let (bl, bh) = widen(b);
        (al, ah, bl, bh)
    }

    /// High 32 bits of the 64-bit products of 4 lane pairs, unsigned or signed.
    fn mulhi(&mut self, a: Value, b: Value, signed: bool) -> Value {
        let (al, ah, bl, bh) = self.widen_pair(a, b, signed);
        let pl = self.b.ins().imul(al, bl);
        let ph = self.b.ins().imul(ah, bh);
        let (_, hi) = self.unzip64([pl, ph]);
        hi
    }

    fn sext24(&mut self, x: Value) -> Value {
        let l = self.b.ins().ishl_imm_u(x, 8);
        self.b.ins().sshr_imm_u(l, 8)
    }

    fn zext24(&mut self, x: Value) -> Value {
        self.low_bits(x, 24)
    }

    /// `x * y` of 24-bit unsigned lanes (the product's width is known for later masks).
    fn mul_u24(&mut self, a: Value, b: Value) -> Value {
        let x = self.zext24(a);
        let y = self.zext24(b);
        let n = self.ubits_of(x) + self.ubits_of(y);
        let r = self.b.ins().imul(x, y);
        self.set_ubits(r, n);
        r
    }

    /// Shift every lane of `x` by its own amount (`amt & 31`; `bits.rs`).
    fn shift_lanes(&mut self, x: Value, amt: Value, kind: u8) -> Value {
        match kind {
            0 => self.shl_var(x, amt),
            1 => self.lshr_var(x, amt),
            _ => self.ashr_var(x, amt),
        }
    }

    fn sad(&mut self, a: Value, b: Value) -> Value {
        let mx = self.b.ins().umax(a, b);
        let mn = self.b.ins().umin(a, b);
        self.b.ins().isub(mx, mn)
    }
}

/// Shift `x` by the uniform amount `amt` (`& 31`, as Cranelift's vector shifts do).
fn shift_uni(cx: &mut Cx, x: Value, amt: Uni, kind: u8) -> Value {
    if let Uni::K(k) = amt {
        return cx.shift_k(x, k & 31, kind);
    }
    let a = amt.value(cx);
    match kind {
        0 => cx.b.ins().ishl(x, a),
        1 => cx.b.ins().ushr(x, a),
        _ => cx.b.ins().sshr(x, a),
    }
}

/// `|a - b|` of the unsigned `ty` lanes (bytes or halves), widened to twice the width
/// and added in adjacent pairs (the first step of a sum of absolute differences).
fn abs_diff_pairs(cx: &mut Cx, ty: types::Type, a: Value, b: Value) -> Value {
    let a = cx.cast(ty, a);
    let b = cx.cast(ty, b);
    let mx = cx.b.ins().umax(a, b);
    let mn = cx.b.ins().umin(a, b);
    let df = cx.b.ins().isub(mx, mn);
    let lo = cx.b.ins().uwiden_low(df);
    let hi = cx.b.ins().uwiden_high(df);
    cx.b.ins().iadd_pairwise(lo, hi)
}

pub(super) fn int_op(cx: &mut Cx, op: IOp, v: &[Value], c: usize, u: &[Option<Uni>; 3]) -> Value {
    use IOp::*;
    let (a, b, d) = (
        v[0],
        v.get(1).copied().unwrap_or(v[0]),
        v.get(2).copied().unwrap_or(v[0]),
    );
    match op {
        Mov => a,
        Not => cx.b.ins().bnot(a),
        Bfrev => cx.bitrev32(a),
        Ffbh => cx.ffbh(a),
        Ffbl => cx.ffbl(a),
        FfbhI => {
            // Leading bits equal to the sign: the leading zeros of x ^ sign.
            let s = cx.b.ins().sshr_imm_u(a, 31);
            let t = cx.b.ins().bxor(a, s);
            cx.ffbh(t)
        }
        MulI24 => {
            let x = cx.sext24(a);
            let y = cx.sext24(b);
            cx.b.ins().imul(x, y)
        }
        MulHiI24 => {
            let x = cx.sext24(a);
            let y = cx.sext24(b);
            cx.mulhi(x, y, true)
        }
        MulU24 => cx.mul_u24(a, b),
        MulHiU24 => {
            let x = cx.zext24(a);
            let y = cx.zext24(b);
            cx.mulhi(x, y, false)
        }
        MinI => cx.b.ins().smin(a, b),
        MaxI => cx.b.ins().smax(a, b),
        MinU => {
            let n = cx.ubits_of(a).min(cx.ubits_of(b));
            let r = cx.b.ins().umin(a, b);
            cx.set_ubits(r, n);
            r
        }
        MaxU => {
            let n = cx.ubits_of(a).max(cx.ubits_of(b));
            let r = cx.b.ins().umax(a, b);
            cx.set_ubits(r, n);
            r
        }
        Lshr | Ashr | Lshl | Lshrrev | Ashrrev | Lshlrev => {
            let kind = match op {
                Lshl | Lshlrev => 0,
                Lshr | Lshrrev => 1,
                _ => 2,
            };
            let rev = matches!(op, Lshrrev | Ashrrev | Lshlrev);
            let (x, amt, ua) = if rev { (b, a, u[0]) } else { (a, b, u[1]) };
            match ua {
                Some(k) => shift_uni(cx, x, k, kind),
                None => cx.shift_lanes(x, amt, kind),
            }
        }
        And => {
            let n = cx.ubits_of(a).min(cx.ubits_of(b));
            let r = cx.b.ins().band(a, b);
            cx.set_ubits(r, n);
            r
        }
        Or | Xor => {
            let n = cx.ubits_of(a).max(cx.ubits_of(b));
            let r = if op == Or {
                cx.b.ins().bor(a, b)
            } else {
                cx.b.ins().bxor(a, b)
            };
            cx.set_ubits(r, n);
            r
        }
        Bfm => {
            // ((1 << (S0 & 31)) - 1) << (S1 & 31)
            let p = cx.pow2_32(a);
            let one = cx.splat32(1);
            let m = cx.b.ins().isub(p, one);
            cx.shl_var(m, b)
        }
        Bcnt => {
            let p = cx.popcnt32(a);
            cx.b.ins().iadd(p, b)
        }
        MbcntLo | MbcntHi => {
            // Bits of S0 below this lane's position within its half (lanes 0-31 count bits
            // below themselves in the low half; the high half counts all of S0's... see
            // the manual: MBCNT_LO counts S0 & ((1 << lane) - 1) for lanes < 32, else all;
            // MBCNT_HI counts S0 & ((1 << (lane - 32)) - 1) for lanes >= 32, else none.)
            let masks: [u32; 4] = std::array::from_fn(|i| {
                let lane = 4 * c + i;
                if op == MbcntLo {
                    if lane < 32 {
                        ((1u64 << lane) - 1) as u32
                    } else {
                        u32::MAX
                    }
                } else if lane >= 32 {
                    ((1u64 << (lane - 32)) - 1) as u32
                } else {
                    0
                }
            });
            let m = cx.lanes32(masks);
            let x = cx.b.ins().band(a, m);
            let p = cx.popcnt32(x);
            cx.b.ins().iadd(p, b)
        }
        MulLo => cx.b.ins().imul(a, b),
        MulHiU => cx.mulhi(a, b, false),
        MulHiI => cx.mulhi(a, b, true),
        MadI24 => {
            let x = cx.sext24(a);
            let y = cx.sext24(b);
            let m = cx.b.ins().imul(x, y);
            cx.b.ins().iadd(m, d)
        }
        MadU24 => {
            let m = cx.mul_u24(a, b);
            cx.b.ins().iadd(m, d)
        }
        BfeU | BfeI if matches!((u[1], u[2]), (Some(Uni::K(_)), Some(Uni::K(_)))) => {
            let (Some(Uni::K(sh)), Some(Uni::K(w))) = (u[1], u[2]) else {
                return a;
            };
            let (sh, w) = ((sh & 31) as i64, (w & 31) as i64);
            let kind = if op == BfeU { 1 } else { 2 };
            if w == 0 {
                cx.splat32(0)
            } else if sh + w < 32 {
                let up = cx.b.ins().ishl_imm_u(a, 32 - sh - w);
                shift_uni(cx, up, Uni::K((32 - w) as u32), kind)
            } else {
                shift_uni(cx, a, Uni::K(sh as u32), kind)
            }
        }
        BfeU | BfeI => {
            // shift = S1 & 31, width = S2 & 31; width 0 → 0 (ERRATA VOP3 5); a field
            // reaching past bit 31 is S0 >> shift (003 pseudo-code). Per-lane shifts
            // (`bits.rs`) take their amounts & 31, as the scalar form did.
            let m31 = cx.splat32(31);
            let sh = cx.b.ins().band(b, m31);
            let w = cx.b.ins().band(d, m31);
            let sum = cx.b.ins().iadd(sh, w);
            let n32 = cx.splat32(32);
            let l = cx.b.ins().isub(n32, sum);
            let up = cx.shl_var(a, l);
            let rw = cx.b.ins().isub(n32, w);
            let (inner, outer) = if op == BfeU {
                (cx.lshr_var(up, rw), cx.lshr_var(a, sh))
            } else {
                (cx.ashr_var(up, rw), cx.ashr_var(a, sh))
            };
            let fits = cx.b.ins().icmp(IntCC::UnsignedLessThan, sum, n32);
            let r = cx.b.ins().bitselect(fits, inner, outer);
            let z = cx.splat32(0);
            let w0 = cx.b.ins().icmp(IntCC::Equal, w, z);
            cx.b.ins().bitselect(w0, z, r)
        }
        Bfi => {
            let t = cx.b.ins().band(a, b);
            let u = cx.b.ins().band_not(d, a);
            cx.b.ins().bor(t, u)
        }
        Lerp => {
            // Per byte: (S0 + S1 + (S2 & 1)) >> 1 = avg_round when the rounding bit is set,
            // else the truncating average.
            let a8 = cx.cast(I8X16, a);
            let b8 = cx.cast(I8X16, b);
            let rnd = cx.b.ins().avg_round(a8, b8);
            let x = cx.b.ins().bxor(a8, b8);
            let one = cx.vconst(I8X16, u128::from_le_bytes([1; 16]));
            let odd = cx.b.ins().band(x, one);
            let trunc = cx.b.ins().isub(rnd, odd);
            let d8 = cx.cast(I8X16, d);
            let bit = cx.b.ins().band(d8, one);
            let z = cx.vconst(I8X16, 0);
            let sel = cx.b.ins().icmp(IntCC::NotEqual, bit, z);
            let r = cx.b.ins().bitselect(sel, rnd, trunc);
            cx.cast(I32X4, r)
        }
        Alignbit | Alignbyte if matches!(u[2], Some(Uni::K(_))) => {
            let Some(Uni::K(k)) = u[2] else { return a };
            let k = if op == Alignbit { k & 31 } else { 8 * (k & 3) } as i64;
            if k == 0 {
                b
            } else {
                let hi = cx.shift_k(a, 32 - k as u32, 0);
                let lo = cx.shift_k(b, k as u32, 1);
                cx.b.ins().bor(hi, lo)
            }
        }
        Alignbit | Alignbyte => {
            // ((S0 << 32 | S1) >> shift)[31:0]
            let amt = if op == Alignbit {
                let m = cx.splat32(31);
                cx.b.ins().band(d, m)
            } else {
                let m = cx.splat32(3);
                let t = cx.b.ins().band(d, m);
                cx.b.ins().ishl_imm_u(t, 3)
            };
            // S1 >> amt | S0 << (32 - amt), the second part absent when amt is 0.
            let lo = cx.lshr_var(b, amt);
            let k32 = cx.splat32(32);
            let inv = cx.b.ins().isub(k32, amt);
            let hi = cx.shl_var(a, inv);
            let z = cx.splat32(0);
            let a0 = cx.b.ins().icmp(IntCC::Equal, amt, z);
            let hi = cx.b.ins().bitselect(a0, z, hi);
            cx.b.ins().bor(lo, hi)
        }
        Min3I | Min3U | Max3I | Max3U => {
            let pick = |cx: &mut Cx, x: Value, y: Value| match op {
                Min3I => cx.b.ins().smin(x, y),
                Min3U => cx.b.ins().umin(x, y),
                Max3I => cx.b.ins().smax(x, y),
                _ => cx.b.ins().umax(x, y),
            };
            let t = pick(cx, a, b);
            pick(cx, t, d)
        }
        Med3I => {
            let lo = cx.b.ins().smin(a, b);
            let hi = cx.b.ins().smax(a, b);
            let t = cx.b.ins().smin(hi, d);
            cx.b.ins().smax(lo, t)
        }
        Med3U => {
            let lo = cx.b.ins().umin(a, b);
            let hi = cx.b.ins().umax(a, b);
            let t = cx.b.ins().umin(hi, d);
            cx.b.ins().umax(lo, t)
        }
        SadU8 | SadHiU8 => {
            // Sum the four byte differences of each lane: widen to 16 then pairwise add.
            let s16 = abs_diff_pairs(cx, I8X16, a, b);
            let l2 = cx.b.ins().uwiden_low(s16);
            let h2 = cx.b.ins().uwiden_high(s16);
            let s32 = cx.b.ins().iadd_pairwise(l2, h2);
            let s = if op == SadHiU8 {
                cx.b.ins().ishl_imm_u(s32, 16)
            } else {
                s32
            };
            cx.b.ins().iadd(s, d)
        }
        SadU16 => {
            let s = abs_diff_pairs(cx, crate::block::I16X8, a, b);
            cx.b.ins().iadd(s, d)
        }
        SadU32 => {
            let s = cx.sad(a, b);
            cx.b.ins().iadd(s, d)
        }
        CvtF32Ubyte(k) => {
            let t = cx.shift_k(a, 8 * k as u32, 1);
            let t = cx.low_bits(t, 8);
            let f = cx.b.ins().fcvt_from_sint(F32X4, t);
            cx.cast(I32X4, f)
        }
    }
}
