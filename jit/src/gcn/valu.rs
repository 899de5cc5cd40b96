//! Vector ALU planning and emission: VOP1, VOP2, VOPC and VOP3, with SDWA and DPP.
//!
//! `plan` (pure) turns a decoded instruction into a `VPlan`: its semantics (`sem.rs`), and
//! from isa's one operand view (`wavejit_isa::gcn::valu::from_inst`, the same the printer
//! and assembler read) the operands (VGPR, scalar slot, constant), modifiers and the
//! lane-mask registers it reads and writes; what the lowering does not handle stays with
//! the interpreter helper. `emit_cross`/`emit_chunk` then emit it chunk by chunk through
//! `emit.rs`. Modifier order and the float rules (NaN, denormals, MODE) are those of the
//! interpreter (`wavejit_interp::float`, ERRATA "VOP3" and "VOP_SDWA").

use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::operand::{inline_constant, src_kind, SrcKind, Width};
use wavejit_isa::gcn::valu::Form;
use wavejit_isa::gcn::{Enc, Inst, Src, VopBase};

use super::emit::emit;
use super::fetch::{uniforms, Unis};
use super::sem;
use super::vocab::Vop2Form;
use super::vplan::{Dpp, Sdwa, VPlan, VSrc};
use crate::block::{Cx, CHUNKS};
use crate::slots::{EXEC_LO, VCC_LO};

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
    // The encoding's fields in VOP3 numbering (isa's one operand view): what differs by
    // form below is only which of them the form may carry.
    let (v, form, _) = wavejit_isa::gcn::valu::from_inst(gen, inst)?;
    let base = match inst.enc {
        Enc::Vop1 => Some(VopBase::Vop1),
        Enc::Vop2 => Some(VopBase::Vop2),
        Enc::Vopc => Some(VopBase::Vopc),
        Enc::Sdwa { base } | Enc::Dpp { base } => Some(base),
        _ => None,
    };
    if form != Form::E64 {
        // SDWA and DPP have 32-bit operands only; a VOP1/VOP2/VOPC source 0 may be any
        // source, the others are VGPRs (a MADMK/MADAK literal is placed below).
        if form != Form::E32 && (shape.w64.iter().any(|&w| w) || shape.w64_dst) {
            return None;
        }
        for i in 0..n.min(2) {
            p.src[i] = vsrc(gen, v.src[i], lit, shape.w64[i], shape.src16)?;
        }
        p.abs = v.abs & 3;
        p.neg = v.neg & 3;
        p.clamp = v.clamp;
        match base? {
            VopBase::Vop1 if n == 1 => p.vdst = Some(v.dst),
            VopBase::Vop2 => {
                p.vdst = Some(v.dst);
                match shape.vop2 {
                    Vop2Form::Plain if n == 2 => {}
                    Vop2Form::Mac => p.src[2] = VSrc::V(v.dst),
                    Vop2Form::MadMk if form == Form::E32 => {
                        p.src[2] = p.src[1];
                        p.src[1] = VSrc::Const(lit? as u64);
                    }
                    Vop2Form::MadAk if form == Form::E32 => p.src[2] = VSrc::Const(lit? as u64),
                    _ => return None,
                }
                if shape.mask_in {
                    p.mask_src = Some(VCC_LO);
                }
                if shape.mask_out {
                    p.sdst = Some(VCC_LO);
                }
            }
            VopBase::Vopc if shape.is_cmp => p.sdst = Some(VCC_LO),
            _ => return None,
        }
    }
    match form {
        Form::E32 => {}
        Form::E64 => {
            if lit.is_some() {
                return None;
            }
            for i in 0..n {
                p.src[i] = vsrc(gen, v.src[i], None, shape.w64[i], shape.src16)?;
            }
            p.abs = v.abs;
            p.neg = v.neg;
            p.clamp = v.clamp;
            p.omod = v.omod;
            match shape.vop2 {
                Vop2Form::Mac => p.src[2] = VSrc::V(v.dst),
                Vop2Form::MadMk | Vop2Form::MadAk => return None,
                _ => {}
            }
            if shape.is_cmp {
                // VOPC in VOP3: the result pair is in the VDST field.
                if v.dst > 126 {
                    return None;
                }
                p.sdst = Some(v.dst);
            } else {
                p.vdst = Some(v.dst);
                if shape.mask_out {
                    if v.sdst > 126 {
                        return None;
                    }
                    p.sdst = Some(v.sdst);
                }
            }
            if shape.mask_in {
                // V_CNDMASK / carry in: the third source is the mask pair.
                match v.src[n] {
                    s if s.0 <= 126 && src_kind(gen, s).is_scalar_dst() => {
                        p.mask_src = Some(s.0 as u8)
                    }
                    _ => return None,
                }
            }
        }
        Form::Sdwa => {
            let sdwa = v.sdwa;
            let have_src1 = n >= 2;
            p.sdwa = Some(Sdwa {
                dst_sel: sdwa.dst_sel,
                dst_unused: sdwa.dst_unused,
                sel: [sdwa.src0_sel, if have_src1 { sdwa.src1_sel } else { 6 }],
                sext: [v.sext & 1 != 0, have_src1 && v.sext & 2 != 0],
            });
            if shape.is_cmp {
                // A compare writes a lane mask: no destination selection.
                p.sdwa = p.sdwa.map(|s| Sdwa {
                    dst_sel: 6,
                    dst_unused: 0,
                    ..s
                });
            }
        }
        Form::Dpp => {
            super::dpp::gather(v.dpp.ctrl, 0)?;
            p.dpp = Some(Dpp {
                ctrl: v.dpp.ctrl,
                bound_ctrl: v.dpp.bound_ctrl,
                row_mask: v.dpp.row_mask,
                bank_mask: v.dpp.bank_mask,
            });
            p.cross_lane = true;
        }
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
        if overlap(d, EXEC_LO) || p.mask_src.is_some_and(|m| overlap(d, m)) {
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
    let uni = uniforms(cx, p, &[], true);
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
