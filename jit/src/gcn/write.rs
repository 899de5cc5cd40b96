//! Write-back, once for every family: OMOD/CLAMP of float results, SDWA's destination
//! placement, the EXEC (and DPP) lane mask, VGPR pairs, and lane-mask results (compare,
//! carry out) to their pair and, for V_CMPX, to EXEC.

use cranelift_codegen::ir::{InstBuilder, Value};

use super::opnd::Opnd;
use super::vplan::VPlan;
use crate::block::{Cx, I32X4, I64X2};
use crate::slots::{EXEC_LO, VCC_LO};

/// Write a result of chunk `c` of any width, with OMOD/CLAMP first when it is a float.
pub(super) fn float_result(cx: &mut Cx, p: &VPlan, c: usize, r: Opnd, wmask: Option<Value>) {
    let shape = p.sem.shape();
    match r {
        Opnd::W32(r) => {
            let r = match shape.float {
                Some(f) => cx.omod_clamp(f, r, p.omod, p.clamp),
                None if shape.f16 && (p.omod != 0 || p.clamp) => {
                    cx.omod_clamp16(r, p.omod, p.clamp)
                }
                None => r,
            };
            write32(cx, p, c, r, wmask)
        }
        Opnd::W64(h) => {
            let h = match shape.float {
                Some(f) => h.map(|x| cx.omod_clamp(f, x, p.omod, p.clamp)),
                None => h,
            };
            let h = h.map(|x| cx.cast(I64X2, x));
            write64(cx, p, c, h, wmask)
        }
    }
}

/// Write a 32-bit result of chunk `c` (SDWA placement, then the lane mask).
pub(super) fn write32(cx: &mut Cx, p: &VPlan, c: usize, r: Value, wmask: Option<Value>) {
    let Some(vdst) = p.vdst else { return };
    let mut r = cx.cast(I32X4, r);
    if let Some(s) = p.sdwa {
        let old = (s.dst_unused == 2).then(|| cx.vreg(vdst, c));
        r = cx.sdwa_place(r, old, s.dst_sel, s.dst_unused);
    }
    cx.write_vreg_masked(vdst, c, r, wmask);
}

pub(super) fn write64(cx: &mut Cx, p: &VPlan, c: usize, r: [Value; 2], wmask: Option<Value>) {
    let Some(vdst) = p.vdst else { return };
    let (lo, hi) = cx.unzip64(r);
    if wmask.is_none() {
        cx.zips.insert((lo, hi), r);
    }
    cx.write_vreg_masked(vdst, c, lo, wmask);
    cx.write_vreg_masked(vdst.wrapping_add(1), c, hi, wmask);
}

/// The lane masks of one chunk: EXEC, and DPP's rows/banks/valid sources (`None`: all).
#[derive(Clone, Copy)]
pub(super) struct Masks {
    pub exec: Option<Value>,
    pub dpp: Option<Value>,
}

/// Write a lane-mask result (compare, carry out) of chunk `c` to its pair (and EXEC for
/// V_CMPX), as the interpreter's driver does: lanes with EXEC 0 get 0, lanes DPP leaves
/// alone keep their old bit (and stay in EXEC).
pub(super) fn write_mask(cx: &mut Cx, p: &VPlan, c: usize, m: Value, k: Masks) {
    let dst = p.sdst.unwrap_or(VCC_LO);
    let mut v = m;
    if let Some(d) = k.dpp {
        let old = cx.lanes(dst, c).unwrap_or_else(|| cx.splat32(u32::MAX));
        v = cx.b.ins().bitselect(d, m, old);
    }
    if let Some(e) = k.exec {
        v = cx.b.ins().band(v, e);
    }
    if p.to_exec {
        let mut x = m;
        if let Some(d) = k.dpp {
            let ones = cx.splat32(u32::MAX);
            x = cx.b.ins().bitselect(d, m, ones);
        }
        if let Some(e) = k.exec {
            x = cx.b.ins().band(x, e);
        }
        if let Some(d) = p.sdst {
            cx.set_lanes(d, c, v);
        }
        cx.set_lanes(EXEC_LO, c, x);
    } else if let Some(d) = p.sdst {
        cx.set_lanes(d, c, v);
    }
}
