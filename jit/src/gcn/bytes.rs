//! Byte-wise operations (`wavejit_interp::valu::vop3`): `v_perm_b32` (each result byte
//! chosen by a selector byte of S2 from the eight bytes of `{S0, S1}`, a word's sign, 0 or
//! 0xFF), `v_msad_u8` (SAD of the bytes where S1's byte is not 0) and the quad SADs
//! `v_qsad_pk_u16_u8`/`v_mqsad_pk_u16_u8` (four SADs of S0's 64 bits shifted by 0-3 bytes
//! against S1, each added to a 16-bit half of S2).
//!
//! `v_mqsad_u32_u8` (four such SADs, each added to a whole dword of a four-register S2,
//! into four registers) is planned and emitted as a whole instruction (`lanes.rs`).
//!
//! `v_perm_b32` is two byte `swizzle`s (`pshufb`) per chunk with indices computed from the
//! selectors (an index of 0x80 reads 0), a sign spread by an arithmetic shift, and selects.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value};
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::operand::{src_kind, SrcKind};
use wavejit_isa::gcn::{Enc, Fields, Inst};

use super::fetch::sign_mods;
use super::sopnd::{src32, src64, SOpnd};
use crate::block::{Cx, CHUNKS, I16X8, I32X4, I8X16};

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

/// The dword of a 64-bit lane (`lo`, `hi` halves) starting at byte `n` (0-3).
fn dword_at_byte(cx: &mut Cx, lo: Value, hi: Value, n: usize) -> Value {
    if n == 0 {
        return lo;
    }
    let l = cx.b.ins().ushr_imm_u(lo, 8 * n as i64);
    let h = cx.b.ins().ishl_imm_u(hi, 32 - 8 * n as i64);
    cx.b.ins().bor(l, h)
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
        let s = dword_at_byte(cx, alo, ahi, n);
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

/// A 32- or 64-bit source: a VGPR (pair) or a uniform scalar operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QSrc {
    V(u8),
    S(SOpnd),
}

/// A planned `v_mqsad_u32_u8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mqsad {
    vdst: u8,
    a: QSrc,
    b: QSrc,
    /// S2: four VGPRs from `V(n)`, or four scalar slots from `S(Slot(n))`.
    c: QSrc,
    abs: u8,
    neg: u8,
}

/// Plan `v_mqsad_u32_u8` (VOP3) as `lanes::v_mqsad_u32_u8` reads it; `None` for what the
/// interpreter refuses (a quad past v255 or s103, other S2 codes).
pub fn plan_mqsad(gen: Gen, inst: &Inst) -> Option<Mqsad> {
    let (Enc::Vop3, Fields::Vop3(f)) = (inst.enc, inst.fields) else {
        return None;
    };
    let src = f.src;
    if inst.literal.is_some() || f.vdst > 252 {
        return None;
    }
    let a = match src_kind(gen, src[0]) {
        SrcKind::Vgpr(n) if n < 255 => QSrc::V(n),
        SrcKind::Vgpr(_) => return None,
        _ => QSrc::S(src64(gen, src[0], None)?),
    };
    let b = match src_kind(gen, src[1]) {
        SrcKind::Vgpr(n) => QSrc::V(n),
        _ => QSrc::S(src32(gen, src[1], None)?),
    };
    let c = match src_kind(gen, src[2]) {
        SrcKind::Vgpr(n) if n <= 252 => QSrc::V(n),
        _ if src[2].0 < 104 => QSrc::S(SOpnd::Slot(src[2].0 as u8)),
        _ => return None,
    };
    Some(Mqsad {
        vdst: f.vdst,
        a,
        b,
        c,
        abs: f.abs,
        neg: f.neg,
    })
}

/// `D.d[n] = S2.d[n] + MSAD(S0[8n+31:8n], S1)` for n in 0..4, under EXEC
/// (`vop3::v_mqsad_u32_u8`; VOP3's ABS/NEG on the sign bits of S0 and S1).
pub fn emit_mqsad(cx: &mut Cx, q: &Mqsad) {
    let a_uni = match q.a {
        QSrc::S(o) => {
            let mut x = cx.read_s64(o);
            if q.abs & 1 != 0 {
                x = cx.b.ins().band_imm_u(x, i64::MAX);
            }
            if q.neg & 1 != 0 {
                x = cx.b.ins().bxor_imm_u(x, i64::MIN);
            }
            let (lo, hi) = cx.split64(x);
            Some((cx.splat(I32X4, lo), cx.splat(I32X4, hi)))
        }
        QSrc::V(_) => None,
    };
    let b_uni = match q.b {
        QSrc::S(o) => {
            let x = cx.read_s32(o);
            Some(cx.splat(I32X4, x))
        }
        QSrc::V(_) => None,
    };
    let c_uni: Option<Vec<Value>> = match q.c {
        QSrc::S(SOpnd::Slot(n)) => Some(
            (0..4u8)
                .map(|i| {
                    let x = cx.sreg((n + i) & 127);
                    cx.splat(I32X4, x)
                })
                .collect(),
        ),
        _ => None,
    };
    for ch in 0..CHUNKS {
        let (alo, mut ahi) = match (q.a, a_uni) {
            (_, Some(u)) => u,
            (QSrc::V(n), None) => (cx.vreg(n, ch), cx.vreg(n + 1, ch)),
            _ => return,
        };
        let mut b = match (q.b, b_uni) {
            (_, Some(u)) => u,
            (QSrc::V(n), None) => cx.vreg(n, ch),
            _ => return,
        };
        if a_uni.is_none() {
            ahi = sign_mods(cx, ahi, q.abs & 1 != 0, q.neg & 1 != 0, false);
        }
        b = sign_mods(cx, b, q.abs & 2 != 0, q.neg & 2 != 0, false);
        let mut out = [Value::from_u32(0); 4];
        for (n, o) in out.iter_mut().enumerate() {
            let s = dword_at_byte(cx, alo, ahi, n);
            let sad = sad4(cx, s, b, true);
            let acc = match (&c_uni, q.c) {
                (Some(u), _) => u[n],
                (None, QSrc::V(r)) => cx.vreg(r + n as u8, ch),
                _ => return,
            };
            *o = cx.b.ins().iadd(acc, sad);
        }
        // Every source of the chunk is read before any destination register is written.
        for (n, o) in out.into_iter().enumerate() {
            cx.write_vreg(q.vdst + n as u8, ch, o);
        }
    }
}
