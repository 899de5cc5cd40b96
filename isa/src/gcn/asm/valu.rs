//! Assembling VALU instructions: operands are bound to the layout of each candidate form
//! (32-bit, VOP3, SDWA, DPP) in order of size, and the first form that holds them wins —
//! the shortest legal encoding unless a suffix (`_e64`, `_sdwa`, `_dpp`) or a modifier
//! (`vop3`, `sdwa`, `dpp`, `dst_sel:…`, `quad_perm:…`, …) forces one.

use super::opnd::{self, err};
use super::parse::{ModVal, Modifier, Operand, PErr, Val};
use crate::arch::Gen;
use crate::gcn::fmt::shape::{Ty, ValuKind, ValuShape};
use crate::gcn::fmt::valu::{
    clamps_before_gfx8, constant_bus_reads, form_exists, is_interp, layout, mask_src_refused,
    omod_refused, to_inst, Form, Slot, Valu,
};
use crate::gcn::inst::{Inst, Src};
use crate::gcn::table::{Op, TableEnc};

/// SDWA selector values as llvm-mc spells them (it takes no other spelling).
const LLVM_SELS: [&str; 7] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
];

const SDWA_KEYS: &[&str] = &["sdwa", "dst_sel", "dst_unused", "src0_sel", "src1_sel"];
const DPP_KEYS: &[&str] = &[
    "dpp",
    "quad_perm",
    "row_shl",
    "row_shr",
    "row_ror",
    "wave_shl",
    "wave_shr",
    "wave_rol",
    "wave_ror",
    "row_mirror",
    "row_half_mirror",
    "row_bcast",
    "row_mask",
    "bank_mask",
    "bound_ctrl",
];

/// Split a mnemonic's encoding suffix off.
pub fn split_suffix(m: &str) -> (&str, Option<Form>) {
    for (s, f) in [
        ("_e32", Form::E32),
        ("_e64", Form::E64),
        ("_sdwa", Form::Sdwa),
        ("_dpp", Form::Dpp),
    ] {
        if let Some(b) = m.strip_suffix(s) {
            return (b, Some(f));
        }
    }
    (m, None)
}

/// Assemble a VALU instruction. `suffix` is the form named by the mnemonic, if any.
#[allow(clippy::too_many_arguments)]
pub fn assemble(
    gen: Gen,
    op: Op,
    shape: &ValuShape,
    suffix: Option<Form>,
    ops: &[Operand],
    mods: &[Modifier],
    head_col: u32,
    end_col: u32,
) -> Result<Inst, PErr> {
    let has = |keys: &[&str]| mods.iter().find(|m| keys.contains(&m.name.as_str()));
    let sdwa = has(SDWA_KEYS);
    let dpp = has(DPP_KEYS);
    let vop3 = has(&["vop3"]);
    let sext = ops.iter().any(|o| o.sext);
    let candidates: Vec<Form> = match (suffix, sdwa, dpp, vop3) {
        (Some(f), _, _, _) => vec![f],
        (None, Some(s), Some(d), _) => {
            return err(s.col.max(d.col), "SDWA and DPP modifiers cannot be mixed")
        }
        (None, Some(_), None, _) => vec![Form::Sdwa],
        (None, None, Some(_), _) => vec![Form::Dpp],
        (None, None, None, Some(_)) => vec![Form::E64],
        (None, None, None, None) if sext => vec![Form::Sdwa],
        _ => vec![Form::E32, Form::E64, Form::Sdwa],
    };
    // LLVM's default for dst_unused is UNUSED_PRESERVE, CLRX's UNUSED_PAD (ERRATA SDWA 10).
    // A line is LLVM syntax when it has the `_sdwa` suffix and no selector spelled as only
    // CLRX spells it: llvm-mc takes exactly `BYTE_0`..`WORD_1`, `DWORD` (CLRX also `byte0`,
    // `b1`, `w1`, `dw`, `word_1`, in any case).
    let clrx_sel = mods.iter().any(|m| {
        m.name.ends_with("_sel")
            && matches!(&m.value, Some(ModVal::Ident(v)) if !LLVM_SELS.contains(&v.as_str()))
    });
    let llvm = suffix.is_some() && !clrx_sel;
    let mut best: Option<(usize, PErr)> = None;
    for f in candidates.iter().copied() {
        if !form_exists(gen, op, shape, f) && candidates.len() > 1 {
            continue;
        }
        match bind(gen, op, shape, f, ops, mods, llvm, head_col, end_col) {
            Ok(i) => return Ok(i),
            Err((p, e)) => {
                // The form that got furthest explains best; on a tie, the shorter form.
                let better = match &best {
                    Some((bp, _)) => p > *bp,
                    None => true,
                };
                if better {
                    best = Some((p, e));
                }
            }
        }
    }
    match best {
        Some((_, e)) => Err(e),
        None => err(
            head_col,
            format!("{} has no encoding for these operands", op.mnemonic()),
        ),
    }
}

fn sel(m: &Modifier) -> Result<u8, PErr> {
    let v = match &m.value {
        Some(ModVal::Ident(s)) => match s.to_ascii_uppercase().as_str() {
            "BYTE_0" | "BYTE0" | "B0" => 0,
            "BYTE_1" | "BYTE1" | "B1" => 1,
            "BYTE_2" | "BYTE2" | "B2" => 2,
            "BYTE_3" | "BYTE3" | "B3" => 3,
            "WORD_0" | "WORD0" | "W0" => 4,
            "WORD_1" | "WORD1" | "W1" => 5,
            "DWORD" | "DW" => 6,
            _ => return err(m.col, format!("unknown SDWA selection `{s}`")),
        },
        Some(ModVal::Int(i)) if (0..=7).contains(i) => *i as u8,
        _ => {
            return err(
                m.col,
                format!("{} needs a selection (BYTE_0-3, WORD_0-1, DWORD)", m.name),
            )
        }
    };
    Ok(v)
}

fn unused(m: &Modifier) -> Result<u8, PErr> {
    match &m.value {
        Some(ModVal::Ident(s)) => match s.to_ascii_uppercase().as_str() {
            "UNUSED_PAD" | "PAD" => Ok(0),
            "UNUSED_SEXT" | "SEXT" => Ok(1),
            "UNUSED_PRESERVE" | "PRESERVE" => Ok(2),
            _ => err(m.col, format!("unknown dst_unused `{s}`")),
        },
        Some(ModVal::Int(i)) if (0..=3).contains(i) => Ok(*i as u8),
        _ => err(m.col, "dst_unused needs PAD, SEXT or PRESERVE"),
    }
}

fn int_val(m: &Modifier, lo: i128, hi: i128) -> Result<i128, PErr> {
    match &m.value {
        Some(ModVal::Int(i)) if (lo..=hi).contains(i) => Ok(*i),
        Some(ModVal::Int(i)) => err(m.col, format!("{}:{i} is out of range {lo}..{hi}", m.name)),
        _ => err(m.col, format!("{} needs a number", m.name)),
    }
}

/// DPP_CTRL of a modifier, if it is a DPP control.
fn dpp_ctrl(m: &Modifier) -> Result<Option<u16>, PErr> {
    let one = |m: &Modifier| -> Result<(), PErr> {
        match &m.value {
            None => Ok(()),
            Some(ModVal::Int(1)) => Ok(()),
            _ => err(m.col, format!("{} only shifts by 1", m.name)),
        }
    };
    Ok(Some(match m.name.as_str() {
        "quad_perm" => match &m.value {
            Some(ModVal::List(l)) if l.len() == 4 => {
                let mut c = 0u16;
                for (i, v) in l.iter().enumerate() {
                    match v {
                        Val::Int(x) if (0..=3).contains(x) => c |= (*x as u16) << (2 * i),
                        _ => return err(m.col, "quad_perm lanes are 0-3"),
                    }
                }
                c
            }
            _ => return err(m.col, "quad_perm needs [a,b,c,d]"),
        },
        "row_shl" => 0x100 + int_val(m, 1, 15)? as u16,
        "row_shr" => 0x110 + int_val(m, 1, 15)? as u16,
        "row_ror" => 0x120 + int_val(m, 1, 15)? as u16,
        "wave_shl" => {
            one(m)?;
            0x130
        }
        "wave_rol" => {
            one(m)?;
            0x134
        }
        "wave_shr" => {
            one(m)?;
            0x138
        }
        "wave_ror" => {
            one(m)?;
            0x13c
        }
        "row_mirror" => 0x140,
        "row_half_mirror" => 0x141,
        "row_bcast" => match int_val(m, 0, 31)? {
            15 => 0x142,
            31 => 0x143,
            _ => return err(m.col, "row_bcast is 15 or 31"),
        },
        _ => return Ok(None),
    }))
}

/// `abs(c)`/`neg(c)` of a float constant in a 32-bit form, which has no source modifiers:
/// the sign is folded into the constant, as LLVM does (`v_add_f32 v5, neg(1.0), v2` is
/// `v_add_f32_e32 v5, -1.0, v2`; `abs(0x3e22f983)` is the inline 1/(2π)). A hex value is
/// the operand's bits (32 or 16 of them); 64-bit hex values are left alone.
fn fold_sign(o: &Operand, ty: Ty) -> Option<Operand> {
    if !(o.abs || o.neg) || o.sext || !ty.float {
        return None;
    }
    let val = match o.val {
        Val::Float(x) => {
            let x = if o.abs { x.abs() } else { x };
            Val::Float(if o.neg { -x } else { x })
        }
        Val::Int(n) if ty.bits <= 32 => {
            let sign: i128 = if ty.bits == 16 { 0x8000 } else { 0x8000_0000 };
            if !(0..sign << 1).contains(&n) {
                return None;
            }
            let n = if o.abs { n & !sign } else { n };
            Val::Int(if o.neg { n ^ sign } else { n })
        }
        _ => return None,
    };
    // `abs(lit(123))` stays a literal.
    Some(Operand {
        lit: o.lit,
        ..Operand::plain(val, o.col)
    })
}

fn set_lit(v: &mut Valu, lit: u32, col: u32) -> Result<(), PErr> {
    match v.literal {
        Some(x) if x != lit => err(col, "only one literal constant is allowed"),
        _ => {
            v.literal = Some(lit);
            Ok(())
        }
    }
}

/// `attrN.c`.
pub fn parse_attr(o: &Operand) -> Result<(u8, u8), PErr> {
    opnd::no_mods(o)?;
    let Val::Ident(s) = &o.val else {
        return err(o.col, "expected attrN.x/y/z/w");
    };
    let l = s.to_ascii_lowercase();
    let Some(rest) = l.strip_prefix("attr") else {
        return err(o.col, "expected attrN.x/y/z/w");
    };
    let Some((n, c)) = rest.split_once('.') else {
        return err(o.col, "expected attrN.x/y/z/w");
    };
    let n: u8 = match n.parse() {
        Ok(n) if n < 64 => n,
        _ => return err(o.col, "attribute number must be 0-63"),
    };
    let c = match c {
        "x" => 0,
        "y" => 1,
        "z" => 2,
        "w" => 3,
        _ => return err(o.col, "attribute channel must be x, y, z or w"),
    };
    Ok((n, c))
}

/// `p10`, `p20`, `p0`.
pub fn parse_param(o: &Operand) -> Result<u8, PErr> {
    opnd::no_mods(o)?;
    match &o.val {
        Val::Ident(s) => match s.to_ascii_lowercase().as_str() {
            "p10" => Ok(0),
            "p20" => Ok(1),
            "p0" => Ok(2),
            _ => err(o.col, "expected p10, p20 or p0"),
        },
        _ => err(o.col, "expected p10, p20 or p0"),
    }
}

#[allow(clippy::too_many_arguments)]
fn bind(
    gen: Gen,
    op: Op,
    shape: &ValuShape,
    form: Form,
    ops: &[Operand],
    mods: &[Modifier],
    llvm: bool,
    head_col: u32,
    end_col: u32,
) -> Result<Inst, (usize, PErr)> {
    let slots = layout(shape, form);
    let at = |p: usize, e: PErr| (p, e);
    // A 32-bit compare writes VCC whether or not the text names it (LLVM accepts
    // `v_cmpx_eq_f32 -1, v2`).
    let with_vcc: Vec<Operand>;
    let ops = if form == Form::E32 && shape.kind == ValuKind::Cmp && ops.len() + 1 == slots.len() {
        let col = ops.first().map_or(end_col, |o| o.col);
        with_vcc = [&[Operand::plain(Val::Ident("vcc".into()), col)], ops].concat();
        &with_vcc[..]
    } else {
        ops
    };
    if ops.len() != slots.len() {
        let col = ops.get(slots.len()).map_or(end_col, |o| o.col);
        return Err(at(
            ops.len().min(slots.len()),
            PErr {
                col,
                msg: format!(
                    "{} takes {} operands here, found {}",
                    op.mnemonic(),
                    slots.len(),
                    ops.len()
                ),
            },
        ));
    }
    let mut v = Valu::default();
    if form != Form::E64 {
        v.sdst = 106;
        v.src[2] = Src(106);
    }
    if form == Form::Sdwa {
        v.sdwa.dst_unused = if llvm { 2 } else { 0 };
        // Selections of operands the operation does not have are 0, as LLVM encodes them.
        if shape.native == TableEnc::Vop1 {
            v.sdwa.src1_sel = 0;
        }
        if matches!(shape.kind, ValuKind::Cmp | ValuKind::Empty) {
            v.sdwa.dst_sel = 0;
            v.sdwa.dst_unused = 0;
        }
        if shape.kind == ValuKind::Empty {
            v.sdwa.src0_sel = 0;
        }
    }
    for (k, (s, o)) in slots.iter().zip(ops).enumerate() {
        let r: Result<(), PErr> = (|| {
            match *s {
                Slot::Dst => v.dst = opnd::vreg_n(o, shape.dst.max(1), "destination")?,
                Slot::SDstField => v.dst = opnd::sreg_n(gen, o, 1, "destination")? as u8,
                Slot::Sdst => v.sdst = opnd::sreg_n(gen, o, 2, "scalar destination")? as u8,
                Slot::Vcc => {
                    // Any pair binds here; `to_inst` says that only VCC fits this form, so
                    // that an SGPR pair moves the instruction to VOP3.
                    let r = opnd::sreg_n(gen, o, 2, "carry/compare register")?;
                    let is_dst = k <= 1
                        && matches!(
                            shape.kind,
                            ValuKind::CarryOut | ValuKind::CarryInOut | ValuKind::Cmp
                        );
                    if is_dst {
                        v.sdst = r as u8;
                    } else {
                        v.src[2] = Src(r);
                    }
                }
                Slot::Src(i) => {
                    let ty = shape.src[i].unwrap_or(Ty::B32);
                    let folded = if form == Form::E32 {
                        fold_sign(o, ty.in_gen(gen))
                    } else {
                        None
                    };
                    let o = folded.as_ref().unwrap_or(o);
                    let (s, lit) = opnd::src(gen, o, ty)?;
                    if mask_src_refused(shape.kind, i, s) && !opnd::is_raw(o) {
                        return err(
                            o.col,
                            "the carry-in or mask is an SGPR pair or VCC (write src(N) for a raw code)",
                        );
                    }
                    if is_interp(shape.kind) && !s.is_vgpr() && !opnd::is_raw(o) {
                        return err(
                            o.col,
                            "interpolation sources are VGPRs (write src(N) for a raw code)",
                        );
                    }
                    v.src[i] = s;
                    if let Some(l) = lit {
                        set_lit(&mut v, l, o.col)?;
                    }
                    v.neg |= (o.neg as u8) << i;
                    v.abs |= (o.abs as u8) << i;
                    v.sext |= (o.sext as u8) << i;
                }
                Slot::K => {
                    // K is always the literal dword, so `lit(K)` says nothing more.
                    opnd::no_mods(&Operand {
                        lit: false,
                        ..o.clone()
                    })?;
                    let ty = shape.src[0].unwrap_or(Ty::F32);
                    let (_, lit) = opnd::constant(gen, &o.val, ty, true, o.col)?;
                    set_lit(&mut v, lit.unwrap_or(0), o.col)?;
                }
                Slot::Attr => {
                    let (a, c) = parse_attr(o)?;
                    v.src[0] = Src(a as u16 | (c as u16) << 6);
                }
                Slot::Param => v.src[1] = Src(parse_param(o)? as u16),
            }
            Ok(())
        })();
        r.map_err(|e| at(k, e))?;
    }
    let np = slots.len() + 1;
    let mut ctrl_seen = false;
    // Progress ranks the forms' errors: a modifier this form knows but whose value is wrong
    // (`mul:3` in VOP3) outranks one the form does not know at all (`mul` in VOP1).
    for (mi, m) in mods.iter().enumerate() {
        let pn = np + 2 * mi;
        let pv = pn + 1;
        let bad = |what: &str| {
            at(
                pn,
                PErr {
                    col: m.col,
                    msg: format!("`{}` is not valid {what}", m.name),
                },
            )
        };
        match m.name.as_str() {
            "clamp" if matches!(form, Form::E64 | Form::Sdwa) => {
                if gen != Gen::Gfx8 && !clamps_before_gfx8(op, shape) {
                    return Err(at(
                        pv,
                        PErr {
                            col: m.col,
                            msg: format!("{} has no clamp before GCN 1.2", op.mnemonic()),
                        },
                    ));
                }
                v.clamp = true
            }
            "omod" if form == Form::E64 => {
                // The raw output-modifier field, for words whose operation the assembler
                // refuses `mul:`/`div:` on (`omod_refused`).
                v.omod = match &m.value {
                    Some(ModVal::Int(x)) if (0..=3).contains(x) => *x as u8,
                    _ => {
                        return Err(at(
                            pv,
                            PErr {
                                col: m.col,
                                msg: "omod:N is the raw 2-bit field (0-3)".into(),
                            },
                        ))
                    }
                }
            }
            "mul" | "div" if form == Form::E64 && omod_refused(op, shape.kind) => {
                return Err(at(
                    pv,
                    PErr {
                        col: m.col,
                        msg: format!(
                            "{} takes no output modifier (write omod:N for the raw field)",
                            op.mnemonic()
                        ),
                    },
                ))
            }
            "mul" | "div" if form == Form::E64 => {
                v.omod = match (m.name.as_str(), &m.value) {
                    ("mul", Some(ModVal::Int(2))) => 1,
                    ("mul", Some(ModVal::Int(4))) => 2,
                    ("div", Some(ModVal::Int(2))) => 3,
                    ("mul", Some(ModVal::Int(1))) | ("div", Some(ModVal::Int(1))) => 0,
                    _ => {
                        return Err(at(
                            pv,
                            PErr {
                                col: m.col,
                                msg: "output modifier is mul:2, mul:4 or div:2".into(),
                            },
                        ))
                    }
                }
            }
            "high"
                if form == Form::E64
                    && matches!(shape.kind, ValuKind::InterpP1ll | ValuKind::InterpP2) =>
            {
                v.src[0] = Src(v.src[0].0 | 0x100)
            }
            "vop3" if form == Form::E64 => {}
            "sdwa" if form == Form::Sdwa => {}
            "dpp" if form == Form::Dpp => {}
            "dst_sel" if form == Form::Sdwa => v.sdwa.dst_sel = sel(m).map_err(|e| at(pv, e))?,
            "dst_unused" if form == Form::Sdwa => {
                v.sdwa.dst_unused = unused(m).map_err(|e| at(pv, e))?
            }
            "src0_sel" if form == Form::Sdwa => v.sdwa.src0_sel = sel(m).map_err(|e| at(pv, e))?,
            "src1_sel" if form == Form::Sdwa => v.sdwa.src1_sel = sel(m).map_err(|e| at(pv, e))?,
            "row_mask" if form == Form::Dpp => {
                v.dpp.row_mask = int_val(m, 0, 15).map_err(|e| at(pv, e))? as u8
            }
            "bank_mask" if form == Form::Dpp => {
                v.dpp.bank_mask = int_val(m, 0, 15).map_err(|e| at(pv, e))? as u8
            }
            "bound_ctrl" if form == Form::Dpp => {
                int_val(m, 0, 1)
                    .or_else(|e| if m.value.is_none() { Ok(1) } else { Err(e) })
                    .map_err(|e| at(pv, e))?;
                v.dpp.bound_ctrl = true;
            }
            _ if form == Form::Dpp => match dpp_ctrl(m).map_err(|e| at(pv, e))? {
                Some(c) => {
                    if ctrl_seen {
                        return Err(at(
                            pv,
                            PErr {
                                col: m.col,
                                msg: "more than one DPP control".into(),
                            },
                        ));
                    }
                    ctrl_seen = true;
                    v.dpp.ctrl = c;
                }
                None => return Err(bad("here")),
            },
            _ => {
                let what = match form {
                    Form::E32 => "in the 32-bit encoding",
                    Form::E64 => "in VOP3",
                    Form::Sdwa => "with SDWA",
                    Form::Dpp => "with DPP",
                };
                return Err(bad(what));
            }
        }
    }
    let np = np + 2 * mods.len();
    if form == Form::Dpp && !ctrl_seen && !mods.iter().any(|m| m.name == "dpp") {
        return Err(at(
            np,
            PErr {
                col: head_col,
                msg: "DPP needs a control (quad_perm, row_shl, …)".into(),
            },
        ));
    }
    let inst = to_inst(gen, op, shape, &v, form).map_err(|m| {
        at(
            np + 1,
            PErr {
                col: head_col,
                msg: m,
            },
        )
    })?;
    if matches!(form, Form::E32 | Form::E64)
        && !matches!(shape.kind, ValuKind::ReadLane | ValuKind::WriteLane)
        && constant_bus_reads(op, shape, &v, form) > 1
    {
        // Ranked past a form mismatch: this form holds the operands, they only break a rule.
        return Err(at(
            np + 2,
            PErr {
                col: head_col,
                msg: "only one SGPR, M0, VCC or literal may be read (constant bus)".into(),
            },
        ));
    }
    Ok(inst)
}
