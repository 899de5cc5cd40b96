//! Operand fetch, once for every family: a source's chunk from the register cache (raw
//! when the operation cannot see a NaN payload), a constant, a scalar read once per
//! instruction (`uniforms`), or a VINTRP parameter; then SDWA's selection and ABS/NEG
//! (`sign_mods`, ERRATA VOP3 3 and SDWA 5). `plain_uni` says when a source is the same in
//! every lane and unmodified.

use cranelift_codegen::ir::{InstBuilder, Value};

use super::dpp_emit::Gathered;
use super::opnd::{Opnd, Uni};
use super::sem::Sem;
use super::sopnd::SOpnd;
use super::vocab::FOp;
use super::vplan::{VPlan, VSrc};
use crate::block::{Cx, F32X4, F64X2, I32X4, I64X2};

/// What the chunks of an instruction share, computed once before any of its chunks (and
/// before any instruction after it writes a lane mask they might alias).
#[derive(Clone, Copy, Debug)]
pub struct Unis {
    /// The uniform (scalar) source values.
    pub s: [Option<Value>; 3],
    /// VINTRP: the parameter addresses (bounds already checked).
    pub lds: Option<super::vintrp::LdsUni>,
}

/// The shared values of `p`; `pcs` are the pcs of its segment up to and including it (a
/// VINTRP's failed bounds check runs them through the interpreter; `check` false: another
/// instruction's check covers its reads, `vintrp::covering`).
pub fn uniforms(cx: &mut Cx, p: &VPlan, pcs: &[u32], check: bool) -> Unis {
    let shape = p.sem.shape();
    let mut u = [None; 3];
    for (i, slot) in u.iter_mut().enumerate().take(shape.nsrc as usize) {
        let o = match p.src[i] {
            VSrc::S(s) => SOpnd::Slot(s),
            VSrc::Vccz => SOpnd::Vccz,
            VSrc::Execz => SOpnd::Execz,
            VSrc::Scc => SOpnd::Scc,
            VSrc::V(_) | VSrc::Const(_) | VSrc::Lds(_) => continue,
        };
        *slot = Some(if shape.w64[i] {
            cx.read_s64(o)
        } else {
            cx.read_s32(o)
        });
    }
    let lds = super::vintrp::uniforms(cx, p, pcs, check);
    Unis { s: u, lds }
}

/// Whether `p` is a float operation whose NaN results may be left raw (`block::Raw`):
/// a NaN input always gives a NaN result (`FOp::nan_in_nan_out`), and the result is
/// written whole (no SDWA placement, no DPP row masks).
pub(super) fn lazy_nan_producer(p: &VPlan) -> bool {
    matches!(p.sem, Sem::Float(_, op, _) if op.nan_in_nan_out())
        && p.sdwa.is_none()
        && p.dpp.is_none()
}

/// Whether `p` may read raw values (`block::Raw`) of its float format: its result is
/// the same whatever the payload of a NaN input — the NaN-propagating operations above
/// (their result is canonicalised, or raw itself) and those that never return a NaN
/// operand (`FOp::never_returns_nan_operand`).
fn reads_raw(p: &VPlan) -> bool {
    lazy_nan_producer(p)
        || matches!(p.sem, Sem::Float(_, op, _) if op.never_returns_nan_operand())
            && p.sdwa.is_none()
            && p.dpp.is_none()
}

pub(super) fn fetch(
    cx: &mut Cx,
    p: &VPlan,
    i: usize,
    c: usize,
    g: Option<&Gathered>,
    uni: &Unis,
) -> Opnd {
    let shape = p.sem.shape();
    let w64 = shape.w64[i];
    let raw_ok = reads_raw(p);
    // ABS/NEG: every source in VOP3 and DPP, float sources only in SDWA (ERRATA SDWA 5).
    let modifiers_apply = p.sdwa.is_none() || (shape.src_float && shape.int_srcs >> i & 1 == 0);
    if w64 {
        let pair = match p.src[i] {
            VSrc::V(n) if raw_ok => cx.vpair_raw(n, c),
            VSrc::V(n) => {
                let lo = cx.vreg(n, c);
                let hi = cx.vreg(n.wrapping_add(1), c);
                cx.zip64(lo, hi)
            }
            VSrc::Const(k) => {
                let v = cx.splat64(k);
                [v, v]
            }
            VSrc::S(_) | VSrc::Vccz | VSrc::Execz | VSrc::Scc | VSrc::Lds(_) => {
                let x = uni.s[i].unwrap_or_else(|| cx.iconst64(0));
                let v = cx.splat(I64X2, x);
                [v, v]
            }
        };
        let pair = if modifiers_apply {
            let (abs, neg) = (p.abs >> i & 1 != 0, p.neg >> i & 1 != 0);
            if neg && !abs && fma_operand(p) {
                pair.map(|v| {
                    let x = cx.cast(F64X2, v);
                    cx.b.ins().fneg(x)
                })
            } else {
                pair.map(|v| sign_mods(cx, v, abs, neg, true))
            }
        } else {
            pair
        };
        return Opnd::W64(pair);
    }
    let mut v = match (g, p.src[i]) {
        (Some(g), _) if i == 0 => g.src0[c],
        (_, VSrc::V(n)) if raw_ok => cx.vreg_raw(n, c),
        (_, VSrc::V(n)) => cx.vreg(n, c),
        (_, VSrc::Const(k)) => cx.splat32(k as u32),
        (_, VSrc::Lds(w)) => {
            let x = match (uni.lds, p.interp) {
                (Some(u), Some(at)) => super::vintrp::param(cx, &u, at.chan, w, c),
                _ => cx.iconst32(0),
            };
            cx.splat(I32X4, x)
        }
        (_, _) => {
            let x = uni.s[i].unwrap_or_else(|| cx.iconst32(0));
            cx.splat(I32X4, x)
        }
    };
    if let Some(s) = p.sdwa {
        if i < 2 {
            v = cx.sdwa_select(v, s.sel[i], s.sext[i]);
        }
    }
    if shape.src16 {
        // The low half (after SDWA's selection), its sign bit 15.
        let m = cx.splat32(0xffff);
        let x = cx.cast(I32X4, v);
        v = cx.b.ins().band(x, m);
        if modifiers_apply {
            v = sign_mods16(cx, v, p.abs >> i & 1 != 0, p.neg >> i & 1 != 0);
        }
        return Opnd::W32(v);
    }
    if modifiers_apply {
        let (abs, neg) = (p.abs >> i & 1 != 0, p.neg >> i & 1 != 0);
        if neg && !abs && fma_operand(p) {
            let x = cx.cast(F32X4, v);
            v = cx.b.ins().fneg(x);
        } else {
            v = sign_mods(cx, v, abs, neg, false);
        }
    }
    Opnd::W32(v)
}

/// Whether the sources of `p` feed a fused multiply-add directly: a NEG modifier is then
/// an `fneg` (the same sign-bit flip) that the x64 back end folds into `vfnmadd`/`vfmsub`
/// (with input denormal flushes in between it stays a separate `xor`).
fn fma_operand(p: &VPlan) -> bool {
    matches!(p.sem, Sem::Float(_, FOp::Fma, _))
}

/// ABS then NEG on bit 15 of 16-bit operands (`i32x4` lanes).
pub(super) fn sign_mods16(cx: &mut Cx, v: Value, abs: bool, neg: bool) -> Value {
    let mut v = cx.cast(I32X4, v);
    if abs {
        let m = cx.splat32(0x7fff);
        v = cx.b.ins().band(v, m);
    }
    if neg {
        let m = cx.splat32(0x8000);
        v = cx.b.ins().bxor(v, m);
    }
    v
}

/// ABS then NEG as sign-bit operations (ERRATA VOP3 3).
pub(super) fn sign_mods(cx: &mut Cx, v: Value, abs: bool, neg: bool, w64: bool) -> Value {
    // The sign bit of each lane, as an i32x4 or i64x2 constant.
    let sign = |cx: &mut Cx| {
        if w64 {
            cx.splat64(1 << 63)
        } else {
            cx.splat32(1 << 31)
        }
    };
    let ty = if w64 { I64X2 } else { I32X4 };
    let mut v = v;
    if abs {
        let m = sign(cx);
        let x = cx.cast(ty, v);
        v = cx.b.ins().band_not(x, m);
    }
    if neg {
        let m = sign(cx);
        let x = cx.cast(ty, v);
        v = cx.b.ins().bxor(x, m);
    }
    v
}

/// Source `i` of `p` as one value for every lane, when it is one (a constant or a scalar
/// read once: `uniforms`) and reaches the operation unmodified: no SDWA selection, DPP
/// gather, ABS or NEG on it, and 32 bits wide.
pub(super) fn plain_uni(p: &VPlan, uni: &Unis, i: usize) -> Option<Uni> {
    let unmodified = (p.sdwa.is_none() || i >= 2)
        && (p.dpp.is_none() || i != 0)
        && (p.abs | p.neg) >> i & 1 == 0;
    if !unmodified || p.sem.shape().w64[i] {
        return None;
    }
    match p.src[i] {
        VSrc::Const(k) => Some(Uni::K(k as u32)),
        VSrc::S(_) | VSrc::Vccz | VSrc::Execz | VSrc::Scc => uni.s[i].map(Uni::S),
        VSrc::V(_) | VSrc::Lds(_) => None,
    }
}
