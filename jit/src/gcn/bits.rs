//! Per-lane bit operations as SIMD code on `i32x4`: shifts by per-lane amounts, population
//! count, bit scans and bit reversal. Cranelift's vector shifts take one scalar amount and
//! its `popcnt`/`clz`/`ctz`/`bitrev` have no 32-bit vector lowering on x86, so each of these
//! would otherwise be four extract/compute/insert round trips:
//!
//! * `x << n` is `x × 2^n`, with `2^n` built in the f32 exponent field and converted by
//!   `cvttps2dq` (2^31 converts to 0x80000000, which is 2^31's bit pattern);
//! * `x >> n` (logical) is the high half of `x × 2^(32 − n)` (n ≠ 0), arithmetic shifts
//!   are logical ones on `x ^ sign`;
//! * population count is Cranelift's byte `popcnt` (a `pshufb` nibble table) summed per
//!   lane with two pairwise multiply-adds;
//! * the leading-zero count comes from the exponent of the exact f64 value of the lane
//!   (the 2^52 trick), the trailing-zero count from `popcnt((x & -x) - 1)`;
//! * bit reversal reverses the bytes of each lane and the bits of each byte through two
//!   `pshufb` nibble tables.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value};

use crate::block::{Cx, F32X4, F64X2, I16X8, I32X4, I64X2, I8X16};

impl Cx<'_> {
    /// `2^(n & 31)` per lane (lane 31 gives 0x80000000).
    pub(super) fn pow2_32(&mut self, n: Value) -> Value {
        self.pow2_masked(n, 31)
    }

    /// `2^(n & mask)` per lane, `mask` at most 31 (exact: built in the f32 exponent
    /// field, then converted; 2^31 converts to 0x80000000, x86's out-of-range result).
    pub(super) fn pow2_masked(&mut self, n: Value, mask: u32) -> Value {
        let m = self.splat32(mask);
        let n = self.b.ins().band(n, m);
        let b = self.splat32(127);
        let e = self.b.ins().iadd(n, b);
        let e = self.b.ins().ishl_imm_u(e, 23);
        let f = self.cast(F32X4, e);
        self.b.ins().x86_cvtt2dq(I32X4, f)
    }

    /// `x << (n & 31)` per lane.
    pub(super) fn shl_var(&mut self, x: Value, n: Value) -> Value {
        let p = self.pow2_32(n);
        self.b.ins().imul(x, p)
    }

    /// `x >> (n & 31)` per lane, logical.
    pub(super) fn lshr_var(&mut self, x: Value, n: Value) -> Value {
        let m = self.splat32(31);
        let s = self.b.ins().band(n, m);
        // 2^(32 - s) for s in 1..31 is 2^1 … 2^31; s = 0 keeps x.
        let k32 = self.splat32(32);
        let e = self.b.ins().isub(k32, s);
        let p = self.pow2_32(e);
        let hi = self.mulhi_u(x, p);
        let z = self.splat32(0);
        let s0 = self.b.ins().icmp(IntCC::Equal, s, z);
        self.b.ins().bitselect(s0, x, hi)
    }

    /// `x >> (n & 31)` per lane, arithmetic.
    pub(super) fn ashr_var(&mut self, x: Value, n: Value) -> Value {
        let sign = self.b.ins().sshr_imm_u(x, 31);
        let t = self.b.ins().bxor(x, sign);
        let r = self.lshr_var(t, n);
        self.b.ins().bxor(r, sign)
    }

    /// High 32 bits of the unsigned 64-bit products of 4 lane pairs.
    fn mulhi_u(&mut self, a: Value, b: Value) -> Value {
        let al = self.b.ins().uwiden_low(a);
        let ah = self.b.ins().uwiden_high(a);
        let bl = self.b.ins().uwiden_low(b);
        let bh = self.b.ins().uwiden_high(b);
        let pl = self.b.ins().imul(al, bl);
        let ph = self.b.ins().imul(ah, bh);
        self.unzip64([pl, ph]).1
    }

    /// The number of set bits of each lane.
    pub(super) fn popcnt32(&mut self, x: Value) -> Value {
        let b = self.cast(I8X16, x);
        let c = self.b.ins().popcnt(b);
        let lo = self.b.ins().uwiden_low(c);
        let hi = self.b.ins().uwiden_high(c);
        let s16 = self.b.ins().iadd_pairwise(lo, hi);
        let lo = self.b.ins().swiden_low(s16);
        let hi = self.b.ins().swiden_high(s16);
        self.b.ins().iadd_pairwise(lo, hi)
    }

    /// Trailing zeros of each lane; -1 (all ones) for 0 (V_FFBL_B32).
    pub(super) fn ffbl(&mut self, x: Value) -> Value {
        let z = self.splat32(0);
        let neg = self.b.ins().isub(z, x);
        let low = self.b.ins().band(x, neg);
        let one = self.splat32(1);
        let below = self.b.ins().isub(low, one);
        let n = self.popcnt32(below);
        let is0 = self.b.ins().icmp(IntCC::Equal, x, z);
        let m1 = self.splat32(u32::MAX);
        self.b.ins().bitselect(is0, m1, n)
    }

    /// Leading zeros of each lane; -1 (all ones) for 0 (V_FFBH_U32).
    pub(super) fn ffbh(&mut self, x: Value) -> Value {
        // Each lane as an exact f64: its biased exponent is 1023 + floor(log2 x).
        let magic = self.splat64(0x4330_0000_0000_0000);
        let mf = self.cast(F64X2, magic);
        let mut e = [Value::from_u32(0); 2];
        for (h, o) in e.iter_mut().enumerate() {
            let w = if h == 0 {
                self.b.ins().uwiden_low(x)
            } else {
                self.b.ins().uwiden_high(x)
            };
            let t = self.b.ins().bor(w, magic);
            let t = self.cast(F64X2, t);
            let v = self.b.ins().fsub(t, mf);
            let v = self.cast(I64X2, v);
            *o = self.b.ins().ushr_imm_u(v, 52);
        }
        let biased = self.unzip64(e).0;
        // clz = 31 - floor(log2 x) = 1054 - exponent.
        let k = self.splat32(1054);
        let n = self.b.ins().isub(k, biased);
        let z = self.splat32(0);
        let is0 = self.b.ins().icmp(IntCC::Equal, x, z);
        let m1 = self.splat32(u32::MAX);
        self.b.ins().bitselect(is0, m1, n)
    }

    /// The bits of each lane in reverse order.
    pub(super) fn bitrev32(&mut self, x: Value) -> Value {
        // Bytes reversed within each lane, then the bits of every byte through nibble
        // tables: rev(b) = rev4(b & 15) << 4 | rev4(b >> 4).
        const BSWAP: [u8; 16] = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];
        let rev4 = |i: u8| (i & 1) << 3 | (i & 2) << 1 | (i & 4) >> 1 | (i & 8) >> 3;
        let t_hi: [u8; 16] = std::array::from_fn(|i| rev4(i as u8) << 4);
        let t_lo: [u8; 16] = std::array::from_fn(|i| rev4(i as u8));
        let y = self.shuffle(x, x, BSWAP);
        let low_mask = self.vconst(I8X16, u128::from_le_bytes([0x0f; 16]));
        let lo = self.b.ins().band(y, low_mask);
        let y16 = self.cast(I16X8, y);
        let sh = self.b.ins().ushr_imm_u(y16, 4);
        let sh = self.cast(I8X16, sh);
        let hi = self.b.ins().band(sh, low_mask);
        let th = self.vconst(I8X16, u128::from_le_bytes(t_hi));
        let tl = self.vconst(I8X16, u128::from_le_bytes(t_lo));
        let a = self.b.ins().x86_pshufb(th, lo);
        let b = self.b.ins().x86_pshufb(tl, hi);
        let r = self.b.ins().bor(a, b);
        self.cast(I32X4, r)
    }
}
