//! Vector ALU lowering: VOP1, VOP2, VOPC and VOP3, with SDWA and DPP, one chunk (4 lanes)
//! at a time.
//!
//! `plan` (pure) turns a decoded instruction into a `VPlan`: which semantics (`Sem`), the
//! operands (VGPR, scalar slot, constant), modifiers, and the lane-mask registers it reads
//! and writes; anything it does not recognise stays with the interpreter helper. `emit`
//! then lowers chunk `c` of a planned instruction: operand fetch (DPP gather, SDWA
//! selection, ABS/NEG), the operation (`ops.rs`), OMOD/CLAMP, SDWA placement and the
//! EXEC-masked write-back. Modifier order and the float rules (NaN, denormals, MODE) are
//! those of the interpreter (`wavejit_interp::float`, ERRATA "VOP3" and "VOP_SDWA").

use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::operand::{inline_constant, src_kind, SrcKind, Width};
use wavejit_isa::gcn::{Enc, Fields, Inst, Src, VopBase};

use super::emit::emit;
use super::fetch::{uniforms, Unis};
use super::sem;
use super::vocab::Vop2Form;
use super::vplan::{Dpp, Sdwa, VPlan, VSrc};
use crate::block::{Cx, CHUNKS};

/// The source of operand `s` at width `w64`, or `None` if the JIT does not handle it
/// (reserved codes, LDS_DIRECT, a literal for a 64-bit operand).
fn vsrc(gen: Gen, s: Src, lit: Option<u32>, w64: bool, w16: bool) -> Option<VSrc> {
    let width = match (w64, w16) {
        (true, _) => Width::B64,
        (_, true) => Width::B16,
        _ => Width::B32,
    };
    Some(match src_kind(gen, s) {
        SrcKind::Vgpr(n) => VSrc::V(n),
        SrcKind::InlineInt(_) | SrcKind::InlineFloat(_) => {
            VSrc::Const(inline_constant(gen, s, width)?)
        }
        SrcKind::Literal if !w64 => VSrc::Const(lit? as u64),
        SrcKind::Vccz => VSrc::Vccz,
        SrcKind::Execz => VSrc::Execz,
        SrcKind::Scc => VSrc::Scc,
        k if k.is_scalar_dst() => {
            if w64 && !(s.0 < 127 && src_kind(gen, Src(s.0 + 1)).is_scalar_dst()) {
                return None;
            }
            VSrc::S(s.0 as u8)
        }
        _ => return None,
    })
}

/// Plan a vector ALU instruction for `mode`; `None` leaves it to the interpreter.
pub fn plan(gen: Gen, inst: &Inst, mode: u32) -> Option<VPlan> {
    if wavejit_interp::vintrp::is_interp(inst.op) {
        return super::vintrp::plan(gen, inst, mode);
    }
    let sem = sem::sem(inst.op)?;
    let shape = sem.shape();
    let lit = inst.literal;
    let mut p = VPlan {
        op: inst.op,
        sem,
        vdst: None,
        sdst: None,
        to_exec: false,
        src: [VSrc::Const(0); 3],
        mask_src: None,
        abs: 0,
        neg: 0,
        clamp: false,
        omod: 0,
        sdwa: None,
        dpp: None,
        cross_lane: false,
        interp: None,
    };
    let n = shape.nsrc as usize;
    match (inst.enc, inst.fields) {
        (Enc::Vop1, Fields::Vop1 { vdst, src0 }) => {
            if n != 1 {
                return None;
            }
            p.src[0] = vsrc(gen, src0, lit, shape.w64[0], shape.src16)?;
            p.vdst = Some(vdst);
        }
        (Enc::Vop2, Fields::Vop2 { vdst, src0, vsrc1 }) => {
            p.src[0] = vsrc(gen, src0, lit, shape.w64[0], shape.src16)?;
            p.src[1] = VSrc::V(vsrc1);
            p.vdst = Some(vdst);
            match shape.vop2 {
                Vop2Form::Plain if n == 2 => {}
                Vop2Form::Mac => p.src[2] = VSrc::V(vdst),
                Vop2Form::MadMk => {
                    p.src[1] = VSrc::Const(lit? as u64);
                    p.src[2] = VSrc::V(vsrc1);
                }
                Vop2Form::MadAk => p.src[2] = VSrc::Const(lit? as u64),
                _ => return None,
            }
            if shape.mask_in {
                p.mask_src = Some(106);
            }
            if shape.mask_out {
                p.sdst = Some(106);
            }
        }
        (Enc::Vopc, Fields::Vopc { src0, vsrc1 }) => {
            p.src[0] = vsrc(gen, src0, lit, shape.w64[0], shape.src16)?;
            p.src[1] = VSrc::V(vsrc1);
            if shape.w64[1] {
                // vsrc1 of a 64-bit compare is a register pair: V(n) means v[n:n+1].
            }
            p.sdst = Some(106);
        }
        (
            Enc::Vop3,
            Fields::Vop3 {
                vdst,
                sdst,
                src,
                abs,
                neg,
                clamp,
                omod,
            },
        ) => {
            if lit.is_some() {
                return None;
            }
            for (i, s) in src.iter().enumerate().take(n) {
                p.src[i] = vsrc(gen, *s, None, shape.w64[i], shape.src16)?;
            }
            p.abs = abs;
            p.neg = neg;
            p.clamp = clamp;
            p.omod = omod;
            match shape.vop2 {
                Vop2Form::Mac => p.src[2] = VSrc::V(vdst),
                Vop2Form::MadMk | Vop2Form::MadAk => return None,
                _ => {}
            }
            if shape.is_cmp {
                // VOPC in VOP3: the result pair is in the VDST field.
                if vdst > 126 {
                    return None;
                }
                p.sdst = Some(vdst);
            } else {
                p.vdst = Some(vdst);
                if shape.mask_out {
                    if sdst > 126 {
                        return None;
                    }
                    p.sdst = Some(sdst);
                }
            }
            if shape.mask_in {
                // V_CNDMASK / carry in: the third source is the mask pair.
                match src[n] {
                    s if s.0 <= 126 && src_kind(gen, s).is_scalar_dst() => {
                        p.mask_src = Some(s.0 as u8)
                    }
                    _ => return None,
                }
            }
        }
        (
            Enc::Sdwa { base },
            Fields::Sdwa {
                vdst,
                src0,
                vsrc1,
                dst_sel,
                dst_unused,
                clamp,
                src0_sel,
                src0_sext,
                src0_neg,
                src0_abs,
                src1_sel,
                src1_sext,
                src1_neg,
                src1_abs,
            },
        ) => {
            if shape.w64.iter().any(|&w| w) || shape.w64_dst {
                return None;
            }
            p.src[0] = VSrc::V(src0);
            p.src[1] = VSrc::V(vsrc1);
            p.abs = src0_abs as u8 | (src1_abs as u8) << 1;
            p.neg = src0_neg as u8 | (src1_neg as u8) << 1;
            p.clamp = clamp;
            let have_src1 = n >= 2;
            p.sdwa = Some(Sdwa {
                dst_sel,
                dst_unused,
                sel: [src0_sel, if have_src1 { src1_sel } else { 6 }],
                sext: [src0_sext, have_src1 && src1_sext],
            });
            match base {
                VopBase::Vop1 if n == 1 => p.vdst = Some(vdst),
                VopBase::Vop2 => {
                    p.vdst = Some(vdst);
                    match shape.vop2 {
                        Vop2Form::Plain if n == 2 => {}
                        Vop2Form::Mac => p.src[2] = VSrc::V(vdst),
                        _ => return None,
                    }
                    if shape.mask_in {
                        p.mask_src = Some(106);
                    }
                    if shape.mask_out {
                        p.sdst = Some(106);
                    }
                }
                VopBase::Vopc if shape.is_cmp => {
                    p.sdst = Some(106);
                    p.sdwa = p.sdwa.map(|s| Sdwa {
                        dst_sel: 6,
                        dst_unused: 0,
                        ..s
                    });
                }
                _ => return None,
            }
        }
        (
            Enc::Dpp { base },
            Fields::Dpp {
                vdst,
                src0,
                vsrc1,
                dpp_ctrl,
                bound_ctrl,
                src0_neg,
                src0_abs,
                src1_neg,
                src1_abs,
                bank_mask,
                row_mask,
            },
        ) => {
            if shape.w64.iter().any(|&w| w) || shape.w64_dst {
                return None;
            }
            super::dpp::gather(dpp_ctrl, 0)?;
            p.src[0] = VSrc::V(src0);
            p.src[1] = VSrc::V(vsrc1);
            p.abs = src0_abs as u8 | (src1_abs as u8) << 1;
            p.neg = src0_neg as u8 | (src1_neg as u8) << 1;
            p.dpp = Some(Dpp {
                ctrl: dpp_ctrl,
                bound_ctrl,
                row_mask,
                bank_mask,
            });
            p.cross_lane = true;
            match base {
                VopBase::Vop1 if n == 1 => p.vdst = Some(vdst),
                VopBase::Vop2 => {
                    p.vdst = Some(vdst);
                    match shape.vop2 {
                        Vop2Form::Plain if n == 2 => {}
                        Vop2Form::Mac => p.src[2] = VSrc::V(vdst),
                        _ => return None,
                    }
                    if shape.mask_in {
                        p.mask_src = Some(106);
                    }
                    if shape.mask_out {
                        p.sdst = Some(106);
                    }
                }
                VopBase::Vopc if shape.is_cmp => p.sdst = Some(106),
                _ => return None,
            }
        }
        _ => return None,
    }
    if shape.is_cmpx {
        p.to_exec = true;
    }
    // A lane-mask destination overlapping (not equal to) the mask source or EXEC would be
    // read back half-written between chunks: leave those to the interpreter.
    let overlap = |a: u8, b: u8| {
        let (a1, b1) = (a.wrapping_add(1) & 127, b.wrapping_add(1) & 127);
        a != b && (a == b1 || a1 == b || a1 == b1)
    };
    if let Some(d) = p.sdst {
        if overlap(d, 126) || p.mask_src.is_some_and(|m| overlap(d, m)) {
            return None;
        }
    }
    // v255 cannot start a 64-bit pair (the interpreter reports it).
    if shape.w64_dst && p.vdst == Some(255) {
        return None;
    }
    for i in 0..n {
        if shape.w64[i] && p.src[i] == VSrc::V(255) {
            return None;
        }
    }
    if !sem::lowered_under(p.sem, mode) {
        return None;
    }
    Some(p)
}

/// Emit every chunk of one planned instruction that reads across lanes.
pub fn emit_cross(cx: &mut Cx, p: &VPlan) -> Option<()> {
    let uni = uniforms(cx, p, &[]);
    let g = cx.dpp_gather(p)?;
    for c in 0..CHUNKS {
        emit(cx, p, c, Some(&g), &uni);
    }
    Some(())
}

/// Emit chunk `c` of a lane-independent instruction (`uni`: its `fetch::uniforms`).
pub fn emit_chunk(cx: &mut Cx, p: &VPlan, c: usize, uni: &Unis) {
    emit(cx, p, c, None, uni);
}
