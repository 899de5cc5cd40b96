//! The lowering of one chunk of a planned vector instruction: masks, operand fetch
//! (`fetch.rs`), the operation by family (`int_ops`, `float_ops`, `compare`, `mixed`,
//! `half`, `xop`), write-back (`write.rs`). The top of the vector lowering: it imports
//! the families, none of them imports it.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value};

use super::compare::{compare, unsigned_less};
use super::dpp_emit::{dpp_write_mask, Gathered};
use super::fetch::{fetch, lazy_nan_producer, plain_uni, sign_mods, sign_mods16, Unis};
use super::float_ops::float_op;
use super::int_ops::int_op;
use super::opnd::{Opnd, Uni};
use super::sem::Sem;
use super::vocab::{Carry, Fmt, IOp, Shift64, I16};
use super::vplan::VPlan;
use super::vplan::VSrc;
use super::write::{float_result, write32, write64, write_mask, Masks};
use crate::block::{Cx, Raw, I32X4, I64X2};
use crate::slots::VCC_LO;

/// Lower chunk `c` of `p` (`g`: its gathered DPP source, if DPP).
pub fn emit(cx: &mut Cx, p: &VPlan, c: usize, g: Option<&Gathered>, uni: &Unis) {
    let sem = if cx.plant_xor_bug && p.sem == Sem::Int(IOp::Xor) {
        Sem::Int(IOp::Or)
    } else {
        p.sem
    };
    let shape = p.sem.shape();
    let exec = cx.exec_lanes(c);
    let dpp_mask = match p.dpp {
        Some(d) => dpp_write_mask(cx, &d, c, g.and_then(|g| g.valid[c])),
        None => None,
    };
    // Lanes written: EXEC, and for DPP its rows/banks/valid sources.
    let wmask = match (exec, dpp_mask) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(cx.b.ins().band(a, b)),
    };
    let masks = Masks {
        exec,
        dpp: dpp_mask,
    };
    // A 64-bit shift of a VGPR pair by a constant works on the pair's halves as cached:
    // no fetch of the pair as `i64x2`.
    if let Sem::Shift64(sh) = sem {
        if let Some((k, reg)) = shift64_by_constant(p, uni, sh) {
            let lo = cx.vreg(reg, c);
            let hi = cx.vreg(reg.wrapping_add(1), c);
            let (l, h) = super::mixed::shift64_halves(cx, sh.kind(), k, lo, hi);
            if let Some(d) = p.vdst {
                cx.write_vreg_masked(d, c, l, wmask);
                cx.write_vreg_masked(d.wrapping_add(1), c, h, wmask);
            }
            return;
        }
    }
    let mut v = [Opnd::W32(Value::from_u32(0)); 3];
    for (i, slot) in v.iter_mut().enumerate().take(shape.nsrc as usize) {
        *slot = fetch(cx, p, i, c, g, uni);
    }
    // BOUND_CTRL = 1: an invalid source lane reads 0 (ERRATA DPP 1).
    if let (Some(d), Some(g)) = (p.dpp, g) {
        if d.bound_ctrl {
            if let Some(valid) = g.valid[c] {
                let x = cx.cast(I32X4, v[0].v32());
                v[0] = Opnd::W32(cx.b.ins().band(x, valid));
                // Modifiers were applied to the gathered value; a zeroed lane reads +0
                // before them in the interpreter: reapply them to the zero.
                if p.abs & 1 != 0 || p.neg & 1 != 0 {
                    let z = cx.splat32(0);
                    let zm = if shape.src16 {
                        sign_mods16(cx, z, p.abs & 1 != 0, p.neg & 1 != 0)
                    } else {
                        sign_mods(cx, z, p.abs & 1 != 0, p.neg & 1 != 0, false)
                    };
                    let zm = cx.cast(I32X4, zm);
                    v[0] = Opnd::W32(cx.b.ins().bitselect(valid, x, zm));
                }
            }
        }
    }
    match sem {
        Sem::Int(op) => {
            let xs: Vec<Value> = (0..shape.nsrc as usize)
                .map(|i| cx.cast(I32X4, v[i].v32()))
                .collect();
            let mut un: [Option<Uni>; 3] = [None; 3];
            for (i, slot) in un.iter_mut().enumerate().take(shape.nsrc as usize) {
                *slot = plain_uni(p, uni, i);
            }
            let r = int_op(cx, op, &xs, c, &un);
            let r = match shape.float {
                Some(f) => cx.omod_clamp(f, r, p.omod, p.clamp),
                None => r,
            };
            write32(cx, p, c, r, wmask);
        }
        Sem::Cvt(k) => {
            let r = super::mixed::cvt(cx, k, &v);
            float_result(cx, p, c, r, wmask);
        }
        Sem::Shift64(sh) => {
            let (kind, rev) = (sh.kind(), sh.rev());
            let amt = if rev { 0 } else { 1 };
            let ua = plain_uni(p, uni, amt);
            let r = super::mixed::shift64(cx, kind, rev, &v, ua);
            write64(cx, p, c, r, wmask);
        }
        Sem::Ldexp(f) => {
            let r = super::mixed::ldexp(cx, f, &v);
            float_result(cx, p, c, r, wmask);
        }
        Sem::Frexp { f, mant } => {
            let r = super::mixed::frexp(cx, f, mant, &v);
            float_result(cx, p, c, r, wmask);
        }
        Sem::Half(op, _) => {
            let r = super::half::half_op(cx, op, &v);
            float_result(cx, p, c, Opnd::W32(r), wmask);
        }
        Sem::Int16(op) => {
            // The shift amount of the 16-bit shifts, when uniform: its low 16 bits.
            let ua = match op {
                I16::Lshlrev | I16::Lshrrev | I16::Ashrrev => match plain_uni(p, uni, 0) {
                    Some(Uni::K(k)) => Some(Uni::K(k & 0xffff)),
                    u => u,
                },
                _ => None,
            };
            let r = super::half::int16(cx, op, &v, p.clamp, ua);
            write32(cx, p, c, r, wmask);
        }
        Sem::Cvt16(k) => {
            let r = super::half::cvt(cx, k, &v);
            float_result(cx, p, c, Opnd::W32(r), wmask);
        }
        Sem::Float(f, op, _) => {
            // NaN-propagating results written whole are kept raw (`block::Raw`): their
            // canonicalisation happens where the bits become visible, if anywhere.
            let lazy = lazy_nan_producer(p) && wmask.is_none();
            cx.lazy_nan = lazy;
            let r = float_op(cx, f, op, &v, shape.nsrc as usize);
            cx.lazy_nan = false;
            let halves = if f == Fmt::F64 { 2 } else { 1 };
            let mut r = r;
            for h in r.iter_mut().take(halves) {
                *h = cx.omod_clamp(f, *h, p.omod, p.clamp);
            }
            let raw = lazy
                && r.iter()
                    .take(halves)
                    .any(|h| cx.raw_vals.contains(&(*h, f == Fmt::F64)));
            match (f, p.vdst) {
                (Fmt::F32, Some(d)) if raw => cx.set_vreg_raw(d, c, r[0], Raw::F32),
                (Fmt::F32, _) => write32(cx, p, c, r[0], wmask),
                (Fmt::F64, d) => {
                    let r0 = cx.cast(I64X2, r[0]);
                    let r1 = cx.cast(I64X2, r[1]);
                    match d {
                        Some(d) if raw => {
                            let (lo, hi) = cx.unzip64([r0, r1]);
                            let pair = [r0, r1];
                            cx.set_vreg_raw(d, c, lo, Raw::F64 { pair, hi: false });
                            cx.set_vreg_raw(d.wrapping_add(1), c, hi, Raw::F64 { pair, hi: true });
                        }
                        _ => write64(cx, p, c, [r0, r1], wmask),
                    }
                }
            }
        }
        Sem::Cmp { ty, cond, .. } => {
            let m = compare(cx, ty, cond, &v);
            write_mask(cx, p, c, m, masks);
        }
        Sem::X(op) => match super::xop::lower(cx, op, &v) {
            super::xop::XOut::W32(r) => write32(cx, p, c, r, wmask),
            super::xop::XOut::W64(r) => write64(cx, p, c, r, wmask),
            super::xop::XOut::Mask(m) => write_mask(cx, p, c, m, masks),
            super::xop::XOut::W64Mask(r, m) => {
                write64(cx, p, c, r, wmask);
                write_mask(cx, p, c, m, masks);
            }
            super::xop::XOut::Float(r) => float_result(cx, p, c, r, wmask),
        },
        Sem::Cndmask => {
            let sel = cx.lanes(p.mask_src.unwrap_or(VCC_LO), c);
            let a = cx.cast(I32X4, v[0].v32());
            let b = cx.cast(I32X4, v[1].v32());
            let r = match sel {
                Some(m) => cx.b.ins().bitselect(m, b, a),
                None => b,
            };
            write32(cx, p, c, r, wmask);
        }
        Sem::Carry(k) => {
            let a = cx.cast(I32X4, v[0].v32());
            let b = cx.cast(I32X4, v[1].v32());
            let (x, y) = if matches!(k, Carry::Subrev | Carry::Subbrev) {
                (b, a)
            } else {
                (a, b)
            };
            let cin = if shape.mask_in {
                match cx.lanes(p.mask_src.unwrap_or(VCC_LO), c) {
                    Some(m) => Some(m),
                    None => Some(cx.splat32(u32::MAX)),
                }
            } else {
                None
            };
            // An operand known below 2^31 (`Cx::ubits_of`) absorbs the carry-in without
            // wrapping: `narrow_carry`, one sum and one compare.
            let narrow = cin.and_then(|ci| narrow_carry(cx, k, x, y, ci));
            let (r, co) = match (k, narrow) {
                (_, Some(rc)) => rc,
                (Carry::Add | Carry::Addc, None) => {
                    let s = cx.b.ins().iadd(x, y);
                    // carry = s < x (unsigned), plus the carry-in's carry.
                    let c1 = unsigned_less(cx, s, x);
                    match cin {
                        None => (s, c1),
                        Some(ci) => {
                            // s + 1 where the carry-in is set (ci lanes are -1); that
                            // carries again only from s = 2^32 - 1, which x + y cannot
                            // reach when it carried.
                            let s2 = cx.b.ins().isub(s, ci);
                            let ones = cx.splat32(u32::MAX);
                            let top = cx.b.ins().icmp(IntCC::Equal, s, ones);
                            let c2 = cx.b.ins().band(ci, top);
                            (s2, cx.b.ins().bor(c1, c2))
                        }
                    }
                }
                (_, None) => {
                    let d = cx.b.ins().isub(x, y);
                    let b1 = unsigned_less(cx, x, y);
                    match cin {
                        None => (d, b1),
                        Some(ci) => {
                            // d - 1 where the borrow-in is set; that borrows again only
                            // from d = 0, which x - y cannot give when it borrowed.
                            let d2 = cx.b.ins().iadd(d, ci);
                            let z = cx.splat32(0);
                            let zero = cx.b.ins().icmp(IntCC::Equal, d, z);
                            let b2 = cx.b.ins().band(ci, zero);
                            (d2, cx.b.ins().bor(b1, b2))
                        }
                    }
                }
            };
            // CLAMP saturates: an add that carries gives all ones, a subtraction that
            // borrows 0 (`vop2::v_add_u32` …).
            let r = match (p.clamp, k) {
                (false, _) => r,
                (true, Carry::Add | Carry::Addc) => cx.b.ins().bor(r, co),
                (true, _) => cx.b.ins().band_not(r, co),
            };
            write32(cx, p, c, r, wmask);
            write_mask(cx, p, c, co, masks);
        }
    }
}

/// An add or subtract with carry-in `ci` (lanes -1 where set) when an operand is known
/// below 2^31 (`Cx::ubits_of`): that operand plus the carry-in, `t`, cannot wrap, so
/// `x + y + cin` is `x + t` and carries exactly when `x > !t` (unsigned), and `x - y - bin`
/// is `x - t` and borrows exactly when `x < t`. Both compares are signed compares of
/// sign-flipped operands, and `!t` flipped is `t ^ 0x7fff_ffff`: one instruction. For an
/// add either operand may be the narrow one; a subtraction needs its subtrahend narrow.
/// `None` when neither fits: the general sequence.
fn narrow_carry(cx: &mut Cx, k: Carry, x: Value, y: Value, ci: Value) -> Option<(Value, Value)> {
    let add = matches!(k, Carry::Add | Carry::Addc);
    let (x, y) = if cx.ubits_of(y) < 32 {
        (x, y)
    } else if add && cx.ubits_of(x) < 32 {
        (y, x)
    } else {
        return None;
    };
    let t = cx.b.ins().isub(y, ci);
    if add {
        let r = cx.b.ins().iadd(x, t);
        let sign = cx.splat32(0x8000_0000);
        let xs = cx.b.ins().bxor(x, sign);
        let low = cx.splat32(0x7fff_ffff);
        let nt = cx.b.ins().bxor(t, low);
        Some((r, cx.b.ins().icmp(IntCC::SignedGreaterThan, xs, nt)))
    } else {
        let r = cx.b.ins().isub(x, t);
        Some((r, unsigned_less(cx, x, t)))
    }
}

/// The constant amount and the source pair of a 64-bit shift whose shifted operand is a
/// VGPR pair read unmodified (no ABS/NEG) and whose amount is a constant.
fn shift64_by_constant(p: &VPlan, uni: &Unis, sh: Shift64) -> Option<(u32, u8)> {
    let (amt, src) = if sh.rev() { (0, 1) } else { (1, 0) };
    let Some(Uni::K(k)) = plain_uni(p, uni, amt) else {
        return None;
    };
    match p.src[src] {
        VSrc::V(n) if (p.abs | p.neg) >> src & 1 == 0 && p.sdwa.is_none() && p.dpp.is_none() => {
            Some((k, n))
        }
        _ => None,
    }
}
