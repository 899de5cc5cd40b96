//! VALU instructions (VOP1, VOP2, VOPC, VOP3A/B, SDWA, DPP) as text: the operand layout of
//! each form, the conversion from the operand view (`crate::gcn::valu::Valu`) back to each
//! encoding's fields, and the printer. The assembler builds a `Valu`
//! and converts it with `to_inst`, trying the shortest form first.

use super::names;
use super::names::Syntax;
use super::shape::{Ty, ValuKind, ValuShape};
use crate::arch::Gen;
use crate::gcn::inst::{DppFields, Enc, Fields, Inst, SdwaFields, Src, Vop3Fields, VopBase};
use crate::gcn::table::{Op, TableEnc};

pub use crate::gcn::valu::{
    from_inst, DppCtl, Form, SdwaCtl, Valu, SEL_DWORD, UNUSED_PAD, UNUSED_PRESERVE,
};

const VCC: u8 = 106;

/// One operand position of a form's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The VDST field as a VGPR tuple.
    Dst,
    /// The VDST field as an SGPR (readlane, readfirstlane).
    SDstField,
    /// `Valu::sdst` as a 64-bit scalar destination.
    Sdst,
    /// The word `vcc` (implicit in 32-bit forms).
    Vcc,
    /// Source i, with its modifiers.
    Src(usize),
    /// The 32-bit constant of madmk/madak.
    K,
    /// `attrN.c` held in SRC0 of VOP3-encoded interpolation.
    Attr,
    /// `p10`/`p20`/`p0` held in SRC1 of VOP3-encoded V_INTERP_MOV_F32.
    Param,
}

/// The operand layout of `shape` in `form`.
pub fn layout(shape: &ValuShape, form: Form) -> Vec<Slot> {
    use Slot::*;
    let e64 = form == Form::E64;
    let srcs = |n: usize| (0..n).map(Src).collect::<Vec<_>>();
    let mut v = match shape.kind {
        ValuKind::Empty => vec![],
        ValuKind::Plain => {
            let mut v = vec![Dst];
            if shape.vop3b {
                v.push(Sdst);
            }
            v.extend(srcs(shape.nsrc()));
            v
        }
        ValuKind::CarryOut if e64 => vec![Dst, Sdst, Src(0), Src(1)],
        ValuKind::CarryOut => vec![Dst, Vcc, Src(0), Src(1)],
        ValuKind::CarryInOut if e64 => vec![Dst, Sdst, Src(0), Src(1), Src(2)],
        ValuKind::CarryInOut => vec![Dst, Vcc, Src(0), Src(1), Vcc],
        ValuKind::Cndmask if e64 => vec![Dst, Src(0), Src(1), Src(2)],
        ValuKind::Cndmask => vec![Dst, Src(0), Src(1), Vcc],
        ValuKind::MadMk => vec![Dst, Src(0), K, Src(1)],
        ValuKind::MadAk => vec![Dst, Src(0), Src(1), K],
        ValuKind::Mac => vec![Dst, Src(0), Src(1)],
        ValuKind::Cmp if e64 => vec![Sdst, Src(0), Src(1)],
        ValuKind::Cmp => vec![Vcc, Src(0), Src(1)],
        ValuKind::ReadLane => vec![SDstField, Src(0), Src(1)],
        ValuKind::WriteLane => vec![Dst, Src(0), Src(1)],
        ValuKind::ReadFirstLane => vec![SDstField, Src(0)],
        ValuKind::InterpP | ValuKind::InterpP1ll => vec![Dst, Src(1), Attr],
        ValuKind::InterpMov => vec![Dst, Param, Attr],
        ValuKind::InterpP2 => vec![Dst, Src(1), Attr, Src(2)],
    };
    v.shrink_to_fit();
    v
}

/// Whether `form` exists for `shape`'s operation in `gen` at all.
pub fn form_exists(gen: Gen, op: Op, shape: &ValuShape, form: Form) -> bool {
    let native32 = matches!(
        shape.native,
        TableEnc::Vop1 | TableEnc::Vop2 | TableEnc::Vopc
    );
    let e64_twin = op.row(gen).is_some_and(|r| r.e64[gen.index()]);
    match form {
        Form::E32 => native32,
        Form::E64 => !native32 || e64_twin,
        Form::Sdwa => gen == Gen::Gfx8 && shape.sdwa,
        Form::Dpp => gen == Gen::Gfx8 && shape.dpp,
    }
}

fn base(shape: &ValuShape) -> Option<VopBase> {
    match shape.native {
        TableEnc::Vop1 => Some(VopBase::Vop1),
        TableEnc::Vop2 => Some(VopBase::Vop2),
        TableEnc::Vopc => Some(VopBase::Vopc),
        _ => None,
    }
}

/// Build the instruction of `form` from the model, or say why that form cannot hold it.
pub fn to_inst(gen: Gen, op: Op, shape: &ValuShape, v: &Valu, form: Form) -> Result<Inst, String> {
    if !form_exists(gen, op, shape, form) {
        return Err(match form {
            Form::E32 => format!("{} has no 32-bit encoding", op.mnemonic()),
            Form::E64 => format!("{} has no VOP3 encoding on {gen}", op.mnemonic()),
            Form::Sdwa if gen != Gen::Gfx8 => "SDWA exists only on GCN 1.2".to_string(),
            Form::Dpp if gen != Gen::Gfx8 => "DPP exists only on GCN 1.2".to_string(),
            _ => format!("{} has no {:?} form", op.mnemonic(), form),
        });
    }
    let kind = shape.kind;
    let uses_src2_vcc = matches!(kind, ValuKind::CarryInOut | ValuKind::Cndmask);
    let uses_sdst = matches!(
        kind,
        ValuKind::CarryOut | ValuKind::CarryInOut | ValuKind::Cmp
    );
    let nsrc = match kind {
        ValuKind::CarryInOut | ValuKind::Cndmask => 2,
        _ => shape.nsrc(),
    };
    if form != Form::E64 {
        if uses_sdst && v.sdst != VCC {
            return Err("the 32-bit, SDWA and DPP forms write VCC only".into());
        }
        if uses_src2_vcc && v.src[2] != Src(VCC as u16) {
            return Err("the 32-bit, SDWA and DPP forms read the carry/mask from VCC only".into());
        }
        if v.omod != 0 {
            return Err("output modifier needs VOP3".into());
        }
    }
    match form {
        Form::E32 => {
            if v.neg != 0 || v.abs != 0 || v.sext != 0 {
                return Err("source modifiers need VOP3, SDWA or DPP".into());
            }
            if v.clamp {
                return Err("clamp needs VOP3 or SDWA".into());
            }
            let fields = match shape.native {
                TableEnc::Vop1 => Fields::Vop1 {
                    vdst: v.dst,
                    src0: v.src[0],
                },
                TableEnc::Vop2 => {
                    let vsrc1 = match kind {
                        ValuKind::ReadLane | ValuKind::WriteLane => {
                            // An 8-bit scalar source; 255 only as written `src(255)`.
                            if v.src[1].0 > 255 || v.src[1].is_literal() && v.literal.is_some() {
                                return Err(
                                    "lane select must be an SGPR or an inline constant".into()
                                );
                            }
                            v.src[1].0 as u8
                        }
                        _ => v.src[1]
                            .as_vgpr()
                            .ok_or("the second source of a 32-bit VOP2 must be a VGPR")?,
                    };
                    Fields::Vop2 {
                        vdst: v.dst,
                        src0: v.src[0],
                        vsrc1,
                    }
                }
                _ => Fields::Vopc {
                    src0: v.src[0],
                    vsrc1: v.src[1]
                        .as_vgpr()
                        .ok_or("the second source of a 32-bit VOPC must be a VGPR")?,
                },
            };
            let needs_lit =
                v.src[0].is_literal() || matches!(kind, ValuKind::MadMk | ValuKind::MadAk);
            if needs_lit != v.literal.is_some() {
                return Err("literal constant mismatch".into());
            }
            Ok(Inst {
                op,
                enc: Enc::native(shape.native),
                fields,
                literal: v.literal,
            })
        }
        Form::E64 => {
            if v.literal.is_some() {
                return Err("VOP3 cannot hold a literal constant on GCN 1.0-1.2".into());
            }
            if v.sext != 0 {
                return Err("sext() needs SDWA".into());
            }
            let (vdst, sdst) = match kind {
                ValuKind::Cmp => (v.sdst, 0),
                _ if shape.vop3b || matches!(kind, ValuKind::CarryOut | ValuKind::CarryInOut) => {
                    (v.dst, v.sdst)
                }
                _ => (v.dst, 0),
            };
            let is_b = shape.vop3b || matches!(kind, ValuKind::CarryOut | ValuKind::CarryInOut);
            if is_b && v.abs != 0 {
                return Err("VOP3B has no abs modifier".into());
            }
            // Source fields the text has no operand for are 0, as LLVM encodes them.
            let used = used_sources(shape);
            let mut src = v.src;
            for (i, s) in src.iter_mut().enumerate() {
                if !used[i] {
                    *s = Src(0);
                }
            }
            Ok(Inst {
                op,
                enc: Enc::Vop3,
                fields: Fields::Vop3(Vop3Fields {
                    vdst,
                    sdst,
                    src,
                    abs: v.abs,
                    neg: v.neg,
                    clamp: v.clamp,
                    omod: v.omod,
                }),
                literal: None,
            })
        }
        Form::Sdwa | Form::Dpp => {
            let b = base(shape).ok_or("no 32-bit base encoding")?;
            // An operation without sources (`v_nop`) encodes SRC0 = 0, as LLVM does.
            let s0 = if nsrc == 0 {
                0
            } else {
                v.src[0].as_vgpr().ok_or("SDWA/DPP sources must be VGPRs")?
            };
            let s1 = if nsrc >= 2 {
                v.src[1].as_vgpr().ok_or("SDWA/DPP sources must be VGPRs")?
            } else {
                v.src[1].as_vgpr().unwrap_or(0)
            };
            if v.literal.is_some() {
                return Err("SDWA/DPP cannot hold a literal constant".into());
            }
            let vdst = if b == VopBase::Vopc { 0 } else { v.dst };
            let bit = |m: u8, i: u8| m >> i & 1 != 0;
            if form == Form::Sdwa {
                let s = v.sdwa;
                Ok(Inst {
                    op,
                    enc: Enc::Sdwa { base: b },
                    fields: Fields::Sdwa(SdwaFields {
                        vdst,
                        src0: s0,
                        vsrc1: s1,
                        dst_sel: s.dst_sel,
                        dst_unused: s.dst_unused,
                        clamp: v.clamp,
                        src0_sel: s.src0_sel,
                        src0_sext: bit(v.sext, 0),
                        src0_neg: bit(v.neg, 0),
                        src0_abs: bit(v.abs, 0),
                        src1_sel: s.src1_sel,
                        src1_sext: bit(v.sext, 1),
                        src1_neg: bit(v.neg, 1),
                        src1_abs: bit(v.abs, 1),
                    }),
                    literal: None,
                })
            } else {
                if v.clamp {
                    return Err("DPP has no clamp".into());
                }
                if v.sext != 0 {
                    return Err("sext() needs SDWA".into());
                }
                let d = v.dpp;
                Ok(Inst {
                    op,
                    enc: Enc::Dpp { base: b },
                    fields: Fields::Dpp(DppFields {
                        vdst,
                        src0: s0,
                        vsrc1: s1,
                        dpp_ctrl: d.ctrl,
                        bound_ctrl: d.bound_ctrl,
                        src0_neg: bit(v.neg, 0),
                        src0_abs: bit(v.abs, 0),
                        src1_neg: bit(v.neg, 1),
                        src1_abs: bit(v.abs, 1),
                        bank_mask: d.bank_mask,
                        row_mask: d.row_mask,
                    }),
                    literal: None,
                })
            }
        }
    }
}

/// Which of SRC0-SRC2 the VOP3 form's text sets (the others encode as 0).
pub fn used_sources(shape: &ValuShape) -> [bool; 3] {
    match shape.kind {
        ValuKind::CarryInOut | ValuKind::Cndmask => [true, true, true],
        ValuKind::InterpP | ValuKind::InterpMov | ValuKind::InterpP1ll => [true, true, false],
        ValuKind::InterpP2 => [true, true, true],
        _ => [
            shape.src[0].is_some(),
            shape.src[1].is_some(),
            shape.src[2].is_some(),
        ],
    }
}

/// Whether the VOP3 CLAMP bit means something for `op` on GCN 1.0/1.1: float results
/// only. Compares, carries and integer operations gained their (saturating) clamp on
/// GCN 1.2; LLVM refuses `clamp` on them before, and so does the assembler.
pub fn clamps_before_gfx8(op: Op, shape: &ValuShape) -> bool {
    if matches!(
        shape.kind,
        ValuKind::Cmp | ValuKind::CarryOut | ValuKind::CarryInOut
    ) {
        return false;
    }
    let int = |t: &Option<Ty>| t.is_some_and(|t| !t.float);
    // An integer source makes an integer operation unless the result is a float (the
    // conversions to float, whose destination type leads their name).
    !(shape.src.iter().flatten().count() > 0
        && shape.src.iter().filter(|t| t.is_some()).all(int)
        && !op.mnemonic().starts_with("v_cvt_f"))
}

/// The scalar value an operation reads without naming it (LLVM counts it on the constant
/// bus): `v_div_fmas_*` read VCC, `v_movrel*` read M0. As (register, 64-bit).
fn implicit_scalar_read(op: Op) -> Option<(u16, bool)> {
    match op {
        Op::VDivFmasF32 | Op::VDivFmasF64 => Some((106, true)),
        Op::VMovreldB32 | Op::VMovrelsB32 | Op::VMovrelsdB32 => Some((124, false)),
        _ => None,
    }
}

/// Scalar-bus reads of a VOP3 or 32-bit form: distinct scalar values read (ERRATA VOP3 2:
/// one allowed). An SGPR read as 32 and as 64 bits counts twice (`s0` and `s[0:1]`, as
/// LLVM), and so do VCCZ, EXECZ and SCC, the implicit VCC of 32-bit carry/cndmask forms and
/// of `v_div_fmas_*`, the M0 of `v_movrel*`, and the K literal of `v_madmk`/`v_madak`.
pub fn constant_bus_reads(op: Op, shape: &ValuShape, v: &Valu, form: Form) -> usize {
    let mut seen: Vec<(u16, bool)> = implicit_scalar_read(op).into_iter().collect();
    let wide = |i: usize| {
        matches!(shape.kind, ValuKind::CarryInOut | ValuKind::Cndmask) && i == 2
            || shape.src[i].is_some_and(|t| t.bits == 64)
    };
    let nsrc = match shape.kind {
        ValuKind::CarryInOut | ValuKind::Cndmask => 3,
        ValuKind::InterpP | ValuKind::InterpMov | ValuKind::InterpP1ll | ValuKind::InterpP2 => 0,
        _ => shape.nsrc(),
    };
    for (i, s) in v.src.iter().enumerate().take(nsrc) {
        if form == Form::E32
            && i >= 1
            && !matches!(shape.kind, ValuKind::CarryInOut | ValuKind::Cndmask)
        {
            continue;
        }
        let key = (s.0, wide(i));
        if (s.0 < 128 || matches!(s.0, 251..=253)) && !seen.contains(&key) {
            seen.push(key);
        }
    }
    let mut n = seen.len();
    let k = matches!(shape.kind, ValuKind::MadMk | ValuKind::MadAk);
    if form == Form::E32 && v.literal.is_some() && (v.src[0].is_literal() || k) {
        n += 1;
    }
    n
}

/// The mnemonic suffix LLVM prints for `form`.
fn llvm_suffix(gen: Gen, op: Op, shape: &ValuShape, form: Form) -> &'static str {
    match form {
        Form::E32 => {
            let twin = op.row(gen).is_some_and(|r| r.e64[gen.index()]);
            if twin && shape.kind != ValuKind::Empty {
                "_e32"
            } else {
                ""
            }
        }
        Form::E64 => {
            let native32 = matches!(
                shape.native,
                TableEnc::Vop1 | TableEnc::Vop2 | TableEnc::Vopc
            );
            let other_rows = op.rows().iter().any(|r| {
                r.opcode[gen.index()].is_some()
                    && !matches!(r.enc, TableEnc::Vop3 | TableEnc::Vop3b)
            });
            if native32 || other_rows {
                "_e64"
            } else {
                ""
            }
        }
        Form::Sdwa if shape.kind == ValuKind::Cmp => "",
        Form::Sdwa => "_sdwa",
        Form::Dpp => "_dpp",
    }
}

/// Text of one source with its modifiers.
fn src_text(gen: Gen, v: &Valu, i: usize, ty: Ty, sx: Syntax) -> String {
    let mut t = names::src(gen, v.src[i], ty, v.literal, sx);
    let is_const = !(v.src[i].0 < 128 || v.src[i].0 >= 256);
    if v.sext >> i & 1 != 0 {
        t = format!("sext({t})");
    }
    let abs = v.abs >> i & 1 != 0;
    let neg = v.neg >> i & 1 != 0;
    if abs {
        t = match sx {
            Syntax::Llvm => format!("|{t}|"),
            Syntax::Clrx => format!("abs({t})"),
        };
    }
    if neg {
        t = if !abs && (is_const || t.starts_with('-')) {
            format!("neg({t})")
        } else {
            format!("-{t}")
        };
    }
    t
}

/// SDWA selection names, per syntax.
pub fn sel_text(sel: u8, sx: Syntax) -> String {
    let l = [
        "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
    ];
    match l.get(sel as usize) {
        Some(n) if sx == Syntax::Llvm => n.to_string(),
        Some(n) => n.to_ascii_lowercase(),
        None => format!("{sel}"),
    }
}

pub fn unused_text(u: u8, sx: Syntax) -> String {
    let l = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"];
    match l.get(u as usize) {
        Some(n) if sx == Syntax::Llvm => n.to_string(),
        Some(n) => n.trim_start_matches("UNUSED_").to_ascii_lowercase(),
        None => format!("{u}"),
    }
}

/// Text of a DPP_CTRL value (`None` for reserved values).
pub fn dpp_ctrl_text(c: u16) -> Option<String> {
    Some(match c {
        0x000..=0x0ff => format!(
            "quad_perm:[{},{},{},{}]",
            c & 3,
            c >> 2 & 3,
            c >> 4 & 3,
            c >> 6 & 3
        ),
        0x101..=0x10f => format!("row_shl:{}", c & 15),
        0x111..=0x11f => format!("row_shr:{}", c & 15),
        0x121..=0x12f => format!("row_ror:{}", c & 15),
        0x130 => "wave_shl:1".into(),
        0x134 => "wave_rol:1".into(),
        0x138 => "wave_shr:1".into(),
        0x13c => "wave_ror:1".into(),
        0x140 => "row_mirror".into(),
        0x141 => "row_half_mirror".into(),
        0x142 => "row_bcast:15".into(),
        0x143 => "row_bcast:31".into(),
        _ => return None,
    })
}

/// The VINTRP operations (in VOP3 on GCN 1.2), whose data sources LLVM takes only as VGPRs.
pub fn is_interp(k: ValuKind) -> bool {
    matches!(
        k,
        ValuKind::InterpP | ValuKind::InterpMov | ValuKind::InterpP1ll | ValuKind::InterpP2
    )
}

/// Whether source `i` is the carry-in or mask register of a VOP3 `v_addc`/`v_subb`/
/// `v_cndmask` holding a constant: LLVM takes only an SGPR pair or VCC there, and so does
/// the assembler; the words run (the constant is the mask) and print the raw `src(N)`.
pub fn mask_src_refused(k: ValuKind, i: usize, s: Src) -> bool {
    i == 2 && matches!(k, ValuKind::CarryInOut | ValuKind::Cndmask) && (128..256).contains(&s.0)
}

/// Whether the output modifier of `op` (of kind `k`) is refused by the assembler, as LLVM
/// refuses it: on compares (their result is a lane mask) and on `v_interp_p2_f16`. Such
/// words run and print the raw field `omod:N`.
pub fn omod_refused(op: Op, k: ValuKind) -> bool {
    k == ValuKind::Cmp || op.mnemonic() == "v_interp_p2_f16"
}

/// Print a VALU instruction (`None` when `inst` is not one).
pub fn print(gen: Gen, inst: &Inst, sx: Syntax) -> Option<String> {
    let (v, form, shape) = from_inst(gen, inst)?;
    let op = inst.op;
    let mut out = String::from(super::names::mnemonic(gen, op, sx));
    if sx == Syntax::Llvm {
        out.push_str(llvm_suffix(gen, op, &shape, form));
    }
    let slots = layout(&shape, form);
    let mut ops: Vec<String> = Vec::new();
    for s in &slots {
        ops.push(match *s {
            Slot::Dst => names::vreg(v.dst, shape.dst.max(1)),
            Slot::SDstField => names::sreg(gen, v.dst as u16, 1),
            Slot::Sdst => names::sreg(gen, v.sdst as u16, 2),
            Slot::Vcc => "vcc".to_string(),
            Slot::Src(i)
                if is_interp(shape.kind) && !v.src[i].is_vgpr()
                    || mask_src_refused(shape.kind, i, v.src[i]) =>
            {
                // The assembler takes only VGPRs here (as LLVM); other codes run, and
                // print raw.
                let mut raw = v;
                raw.src[i] = Src(256);
                let t = src_text(gen, &raw, i, Ty::B32, sx);
                t.replacen("v0", &format!("src({})", v.src[i].0), 1)
            }
            Slot::Src(i) => {
                let ty = shape.src[i].unwrap_or(Ty::B32);
                src_text(gen, &v, i, ty, sx)
            }
            Slot::K => format!("0x{:x}", v.literal.unwrap_or(0)),
            Slot::Attr => names::attr((v.src[0].0 & 63) as u8, (v.src[0].0 >> 6 & 3) as u8),
            Slot::Param => names::interp_param(v.src[1].0),
        });
    }
    if !ops.is_empty() {
        out.push(' ');
        out.push_str(&ops.join(", "));
    }
    let mut mods: Vec<String> = Vec::new();
    if matches!(shape.kind, ValuKind::InterpP1ll | ValuKind::InterpP2) && v.src[0].0 & 0x100 != 0 {
        mods.push("high".into());
    }
    if v.clamp {
        mods.push("clamp".into());
    }
    match v.omod {
        1..=3 if omod_refused(op, shape.kind) => mods.push(format!("omod:{}", v.omod)),
        1 => mods.push("mul:2".into()),
        2 => mods.push("mul:4".into()),
        3 => mods.push("div:2".into()),
        _ => {}
    }
    match form {
        Form::Sdwa => {
            let s = v.sdwa;
            let is_c = matches!(shape.kind, ValuKind::Cmp | ValuKind::Empty);
            let has_src0 = shape.kind != ValuKind::Empty;
            let has_src1 = shape.native != TableEnc::Vop1;
            let llvm = sx == Syntax::Llvm;
            let n = mods.len();
            // VOPC and v_nop have no DST_SEL/DST_UNUSED, VOP1 no SRC1_SEL, v_nop no SRC0_SEL;
            // LLVM encodes them as 0. Other
            // values (the decoder keeps them, ERRATA SDWA 4) print as the usual modifiers,
            // which only wavejit's assembler accepts there.
            let dst_sel = if is_c {
                s.dst_sel != 0
            } else {
                llvm || s.dst_sel != SEL_DWORD
            };
            let dst_unused = if is_c {
                s.dst_unused != 0
            } else {
                llvm || s.dst_unused != UNUSED_PAD
            };
            let src1_sel = if has_src1 {
                llvm || s.src1_sel != SEL_DWORD
            } else {
                s.src1_sel != 0
            };
            if dst_sel {
                mods.push(format!("dst_sel:{}", sel_text(s.dst_sel, sx)));
            }
            if dst_unused {
                mods.push(format!("dst_unused:{}", unused_text(s.dst_unused, sx)));
            }
            let src0_sel = if has_src0 {
                llvm || s.src0_sel != SEL_DWORD
            } else {
                s.src0_sel != 0
            };
            if src0_sel {
                mods.push(format!("src0_sel:{}", sel_text(s.src0_sel, sx)));
            }
            if src1_sel {
                mods.push(format!("src1_sel:{}", sel_text(s.src1_sel, sx)));
            }
            if !llvm && mods.len() == n {
                mods.push("sdwa".into());
            }
        }
        Form::Dpp => {
            let d = v.dpp;
            mods.push(dpp_ctrl_text(d.ctrl).unwrap_or_else(|| format!("dpp_ctrl:0x{:x}", d.ctrl)));
            match sx {
                Syntax::Llvm => {
                    mods.push(format!("row_mask:0x{:x}", d.row_mask));
                    mods.push(format!("bank_mask:0x{:x}", d.bank_mask));
                    if d.bound_ctrl {
                        mods.push("bound_ctrl:1".into());
                    }
                }
                Syntax::Clrx => {
                    if d.row_mask != 0xf {
                        mods.push(format!("row_mask:0x{:x}", d.row_mask));
                    }
                    if d.bank_mask != 0xf {
                        mods.push(format!("bank_mask:0x{:x}", d.bank_mask));
                    }
                    if d.bound_ctrl {
                        mods.push("bound_ctrl".into());
                    }
                }
            }
        }
        Form::E64 if sx == Syntax::Clrx => {
            // CLRX has no suffixes: say `vop3` when the 32-bit form (or VINTRP) could hold
            // this too.
            let vintrp = op
                .rows()
                .iter()
                .any(|r| r.enc == TableEnc::Vintrp && r.opcode[gen.index()].is_some());
            if vintrp
                || form_exists(gen, op, &shape, Form::E32)
                    && to_inst(gen, op, &shape, &v, Form::E32).is_ok()
            {
                mods.push("vop3".into());
            }
        }
        _ => {}
    }
    if !mods.is_empty() {
        out.push(' ');
        out.push_str(&mods.join(" "));
    }
    Some(out)
}
