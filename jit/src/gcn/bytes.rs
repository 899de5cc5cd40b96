//! Byte-wise operations (`wavejit_interp::valu::vop3`): `v_perm_b32` (each result byte
//! chosen by a selector byte of S2 from the eight bytes of `{S0, S1}`, a word's sign, 0 or
//! 0xFF), `v_msad_u8` (SAD of the bytes where S1's byte is not 0) and the quad SADs
//! `v_qsad_pk_u16_u8`/`v_mqsad_pk_u16_u8` (four SADs of S0's 64 bits shifted by 0-3 bytes
//! against S1, each added to a 16-bit half of S2).
//!
//! `v_perm_b32` is two byte `swizzle`s (`pshufb`) per chunk with indices computed from the
//! selectors (an index of 0x80 reads 0), a sign spread by an arithmetic shift, and selects.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value};

use crate::block::{Cx, I16X8, I32X4, I8X16};

fn splat8(cx: &mut Cx, x: u8) -> Value {
    cx.vconst(I8X16, u128::from_le_bytes([x; 16]))
}

/// `v_perm_b32`: `q = S0 << 32 | S1`; result byte i from selector `S2.b[i]`: 0-7 byte of q,
/// 8-11 0xFF × bit 15 of word `sel - 8` of q, 12 → 0, 13-255 → 0xFF.
pub(super) fn perm(cx: &mut Cx, a: Value, b: Value, c: Value) -> Value {
    let a8 = cx.cast(I8X16, a);
    let b8 = cx.cast(I8X16, b);
    let s = cx.cast(I8X16, c);
    // The first byte of each byte's lane.
    let mut base = [0u8; 16];
    for (i, x) in base.iter_mut().enumerate() {
        *x = (i & !3) as u8;
    }
    let base = cx.vconst(I8X16, u128::from_le_bytes(base));
    let k8 = splat8(cx, 8);
    let k12 = splat8(cx, 12);
    let below8 = cx.b.ins().icmp(IntCC::UnsignedLessThan, s, k8);
    let below12 = cx.b.ins().icmp(IntCC::UnsignedLessThan, s, k12);
    // Which byte of q: the selector, or for a sign 2 × (sel − 8) + 1 = 2 × sel − 15.
    let two = cx.b.ins().iadd(s, s);
    let k15 = splat8(cx, 15);
    let sgn = cx.b.ins().isub(two, k15);
    let t = cx.b.ins().bitselect(below8, s, sgn);
    // t in 0..8 where the selector reads q: S1 holds bytes 0-3, S0 bytes 4-7.
    let k4 = splat8(cx, 4);
    let in_b = cx.b.ins().icmp(IntCC::UnsignedLessThan, t, k4);
    let at = cx.b.ins().iadd(base, t);
    let off = splat8(cx, 0x80);
    let none = off;
    let ib = cx.b.ins().band(in_b, below12);
    let idx_b = cx.b.ins().bitselect(ib, at, none);
    let at_a = cx.b.ins().isub(at, k4);
    let ia = cx.b.ins().band_not(below12, in_b);
    let idx_a = cx.b.ins().bitselect(ia, at_a, none);
    let from_b = cx.b.ins().swizzle(b8, idx_b);
    let from_a = cx.b.ins().swizzle(a8, idx_a);
    let byte = cx.b.ins().bor(from_b, from_a);
    let spread = cx.b.ins().sshr_imm_u(byte, 7);
    let r = cx.b.ins().bitselect(below8, byte, spread);
    let eq12 = cx.b.ins().icmp(IntCC::Equal, s, k12);
    let zero = splat8(cx, 0);
    let ff = splat8(cx, 0xff);
    let hi = cx.b.ins().bitselect(eq12, zero, ff);
    let r = cx.b.ins().bitselect(below12, r, hi);
    cx.cast(I32X4, r)
}

/// Per lane, `Σ |a.b − b.b|` over the four bytes, skipping bytes where `b.b` is 0 when
/// `masked`.
fn sad4(cx: &mut Cx, a: Value, b: Value, masked: bool) -> Value {
    let a8 = cx.cast(I8X16, a);
    let b8 = cx.cast(I8X16, b);
    let mx = cx.b.ins().umax(a8, b8);
    let mn = cx.b.ins().umin(a8, b8);
    let mut df = cx.b.ins().isub(mx, mn);
    if masked {
        let z = splat8(cx, 0);
        let bz = cx.b.ins().icmp(IntCC::Equal, b8, z);
        df = cx.b.ins().band_not(df, bz);
    }
    let lo = cx.b.ins().uwiden_low(df);
    let hi = cx.b.ins().uwiden_high(df);
    let s16 = cx.b.ins().iadd_pairwise(lo, hi);
    let s16 = cx.cast(I16X8, s16);
    let l2 = cx.b.ins().uwiden_low(s16);
    let h2 = cx.b.ins().uwiden_high(s16);
    cx.b.ins().iadd_pairwise(l2, h2)
}

/// `v_msad_u8`: `S2 + Σ_{S1.b ≠ 0} |S0.b − S1.b|`.
pub(super) fn msad(cx: &mut Cx, a: Value, b: Value, c: Value) -> Value {
    let s = sad4(cx, a, b, true);
    let c = cx.cast(I32X4, c);
    cx.b.ins().iadd(s, c)
}

/// The quad SADs over 64-bit lanes `a` (S0) and `c` (S2), both as two `i64x2`.
pub(super) fn qsad(
    cx: &mut Cx,
    masked: bool,
    a: [Value; 2],
    b: Value,
    c: [Value; 2],
) -> [Value; 2] {
    let (alo, ahi) = cx.unzip64(a);
    let (clo, chi) = cx.unzip64(c);
    let b = cx.cast(I32X4, b);
    let mut sads = [Value::from_u32(0); 4];
    for (n, sad) in sads.iter_mut().enumerate() {
        // The dword of S0 starting at byte n.
        let s = if n == 0 {
            alo
        } else {
            let l = cx.b.ins().ushr_imm_u(alo, 8 * n as i64);
            let h = cx.b.ins().ishl_imm_u(ahi, 32 - 8 * n as i64);
            cx.b.ins().bor(l, h)
        };
        *sad = sad4(cx, s, b, masked);
    }
    let m = cx.splat32(0xffff);
    let mut halves = [Value::from_u32(0); 2];
    for (h, (cw, out)) in [clo, chi].into_iter().zip(halves.iter_mut()).enumerate() {
        let l = cx.b.ins().iadd(cw, sads[2 * h]);
        let l = cx.b.ins().band(l, m);
        let up = cx.b.ins().ushr_imm_u(cw, 16);
        let u = cx.b.ins().iadd(up, sads[2 * h + 1]);
        let u = cx.b.ins().ishl_imm_u(u, 16);
        *out = cx.b.ins().bor(l, u);
    }
    cx.zip64(halves[0], halves[1])
}
