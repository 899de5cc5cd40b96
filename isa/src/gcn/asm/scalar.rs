//! Assembling scalar instructions: SOP2, SOPK, SOP1, SOPC, SOPP, SMRD and SMEM, including
//! the symbolic immediates (`hwreg(...)`, `sendmsg(...)`, `vmcnt(..)`, `gpr_idx(...)`) and
//! branch targets given as labels or raw offsets.

use super::opnd::{self, err, expect_n};
use super::parse::{Modifier, Operand, PErr, Val};
use crate::arch::Gen;
use crate::gcn::fmt::scalar::{
    is_branch, refused_sources, smem_data_refused, RefusedSources, GS_OPS, HWREG_NAMES, MSG_NAMES,
    SYSMSG_OPS,
};
use crate::gcn::fmt::shape::{sig_dwords, Ty};
use crate::gcn::inst::{Enc, Fields, Inst, SmemFields, SmrdFields, Src};
use crate::gcn::table::{Op, Row, TableEnc};

/// Where branch labels are resolved: label → byte offset (`None`: unknown).
pub type Labels<'a> = &'a dyn Fn(&str) -> Option<u32>;

fn no_mods_allowed(mods: &[Modifier], allowed: &[&str]) -> Result<(), PErr> {
    for m in mods {
        if !allowed.contains(&m.name.as_str()) {
            return err(m.col, format!("`{}` is not valid here", m.name));
        }
    }
    Ok(())
}

/// Sources of a SOP instruction (at most one literal value).
struct Lit(Option<u32>);

impl Lit {
    fn src(&mut self, gen: Gen, o: &Operand, d: u8) -> Result<Src, PErr> {
        if o.neg || o.abs || o.sext {
            return err(o.col, "scalar operands take no modifiers");
        }
        let (s, l) = opnd::src(gen, o, Ty::scalar(d))?;
        if let Some(l) = l {
            match self.0 {
                Some(x) if x != l => return err(o.col, "only one literal constant is allowed"),
                _ => self.0 = Some(l),
            }
        }
        if s.is_vgpr() {
            return err(o.col, "scalar instructions cannot read VGPRs");
        }
        Ok(s)
    }
}

fn sdst(gen: Gen, o: &Operand, d: u8) -> Result<u8, PErr> {
    Ok(opnd::sreg_n(gen, o, d, "destination")? as u8)
}

/// The data (destination or store source) register of a scalar memory instruction: not M0
/// or EXEC (`smem_data_refused`), unless written as the raw code `src(N)`, which the
/// disassembler prints for such words.
fn smem_data(gen: Gen, o: &Operand, d: u8) -> Result<u8, PErr> {
    if let Val::Func(f, args) = &o.val {
        if f == "src" {
            opnd::no_mods(o)?;
            return match args.as_slice() {
                [Val::Int(n)] if (0..=127).contains(n) => Ok(*n as u8),
                _ => err(o.col, "src(N) of a scalar register is 0-127"),
            };
        }
    }
    let r = sdst(gen, o, d)?;
    if smem_data_refused(r, d) {
        return err(
            o.col,
            "M0 and EXEC cannot be scalar memory data (write src(N) for the raw code)",
        );
    }
    Ok(r)
}

/// A branch operand: a label (→ dword offset from the next instruction) or a raw number.
fn branch(o: &Operand, pc: u32, labels: Labels) -> Result<u16, PErr> {
    opnd::no_mods(o)?;
    match &o.val {
        Val::Int(v) if (-32768..=65535).contains(v) => Ok(*v as u16),
        Val::Int(v) => err(o.col, format!("branch offset {v} does not fit 16 bits")),
        Val::Ident(l) => {
            let t = labels(l).ok_or(PErr {
                col: o.col,
                msg: format!("unknown label `{l}`"),
            })?;
            let d = t as i64 - (pc as i64 + 4);
            if d % 4 != 0 {
                return err(
                    o.col,
                    format!("label `{l}` is not dword aligned relative to the branch"),
                );
            }
            let d = d / 4;
            if !(-32768..=32767).contains(&d) {
                return err(o.col, format!("label `{l}` is too far ({d} dwords)"));
            }
            Ok(d as i16 as u16)
        }
        _ => err(o.col, "expected a label or an offset"),
    }
}

fn imm16(o: &Operand) -> Result<u16, PErr> {
    Ok(opnd::int_in(o, -32768, 65535, "immediate")? as u16)
}

fn ident_args(args: &[Val]) -> Vec<Option<String>> {
    args.iter()
        .map(|a| match a {
            Val::Ident(s) => Some(s.to_ascii_uppercase()),
            _ => None,
        })
        .collect()
}

fn int_arg(a: Option<&Val>, lo: i128, hi: i128, col: u32, what: &str) -> Result<u16, PErr> {
    match a {
        Some(Val::Int(v)) if (lo..=hi).contains(v) => Ok(*v as u16),
        Some(Val::Int(v)) => err(col, format!("{what} {v} is out of range {lo}..{hi}")),
        _ => err(col, format!("{what} must be a number")),
    }
}

/// `hwreg(id[, offset, size])` or a raw 16-bit number.
pub fn hwreg(o: &Operand) -> Result<u16, PErr> {
    opnd::no_mods(o)?;
    match &o.val {
        Val::Func(f, args) if f == "hwreg" => {
            let names = ident_args(args);
            let id = match (args.first(), names.first().cloned().flatten()) {
                (_, Some(n)) => {
                    let n = n.strip_prefix("HW_REG_").unwrap_or(&n).to_string();
                    match HWREG_NAMES
                        .iter()
                        .find(|(_, x)| x.strip_prefix("HW_REG_") == Some(n.as_str()))
                    {
                        Some((i, _)) => *i,
                        None => return err(o.col, format!("unknown hardware register `{n}`")),
                    }
                }
                (a, None) => int_arg(a, 0, 63, o.col, "hardware register id")?,
            };
            match args.len() {
                1 => Ok(id | 31 << 11),
                3 => {
                    let off = int_arg(args.get(1), 0, 31, o.col, "bit offset")?;
                    let size = int_arg(args.get(2), 1, 32, o.col, "bit size")?;
                    Ok(id | off << 6 | (size - 1) << 11)
                }
                _ => err(o.col, "hwreg takes (id) or (id, offset, size)"),
            }
        }
        Val::Func(f, fields) if f == "{}" => {
            // `{id: N, offset: N, size: N}`, each field optional (id 0, offset 0, size 32).
            let mut got: [Option<&Val>; 3] = [None; 3];
            for kv in fields.chunks(2) {
                let (Some(Val::Ident(k)), Some(v)) = (kv.first(), kv.get(1)) else {
                    return err(o.col, "expected `name: value` fields");
                };
                let slot = match k.as_str() {
                    "id" => 0,
                    "offset" => 1,
                    "size" => 2,
                    _ => return err(o.col, format!("unknown hwreg field `{k}`")),
                };
                if got[slot].replace(v).is_some() {
                    return err(o.col, format!("hwreg field `{k}` given twice"));
                }
            }
            let id = match got[0] {
                None => 0,
                Some(Val::Ident(n)) => {
                    let n = n.to_ascii_uppercase();
                    let n = n.strip_prefix("HW_REG_").unwrap_or(&n).to_string();
                    match HWREG_NAMES
                        .iter()
                        .find(|(_, x)| x.strip_prefix("HW_REG_") == Some(n.as_str()))
                    {
                        Some((i, _)) => *i,
                        None => return err(o.col, format!("unknown hardware register `{n}`")),
                    }
                }
                a => int_arg(a, 0, 63, o.col, "hardware register id")?,
            };
            let off = match got[1] {
                None => 0,
                a => int_arg(a, 0, 31, o.col, "bit offset")?,
            };
            let size = match got[2] {
                None => 32,
                a => int_arg(a, 1, 32, o.col, "bit size")?,
            };
            Ok(id | off << 6 | (size - 1) << 11)
        }
        Val::Int(_) => imm16(o),
        _ => err(o.col, "expected hwreg(...)"),
    }
}

/// `sendmsg(msg[, op[, stream]])` or a raw number. `MSG_SAVEWAVE` is GCN 1.2's (LLVM
/// refuses the name before; the number 4 stays writable).
pub fn sendmsg(gen: Gen, o: &Operand) -> Result<u16, PErr> {
    opnd::no_mods(o)?;
    match &o.val {
        Val::Func(f, args) if f == "sendmsg" => {
            let names = ident_args(args);
            let id = match names.first().cloned().flatten() {
                Some(n) => {
                    let n = n.strip_prefix("MSG_").unwrap_or(&n).to_string();
                    match MSG_NAMES
                        .iter()
                        .find(|(_, x)| x.strip_prefix("MSG_") == Some(n.as_str()))
                    {
                        Some((4, _)) if gen != Gen::Gfx8 => {
                            return err(o.col, format!("MSG_SAVEWAVE does not exist on {gen}"))
                        }
                        Some((i, _)) => *i,
                        None => return err(o.col, format!("unknown message `{n}`")),
                    }
                }
                None => int_arg(args.first(), 0, 15, o.col, "message id")?,
            };
            let op = match (args.get(1), names.get(1).cloned().flatten()) {
                (None, _) => 0,
                (_, Some(n)) => {
                    let gs = n.strip_prefix("GS_OP_").unwrap_or(&n).to_string();
                    let sys = n.strip_prefix("SYSMSG_OP_").unwrap_or(&n).to_string();
                    if let Some(i) = GS_OPS
                        .iter()
                        .position(|x| x.strip_prefix("GS_OP_") == Some(gs.as_str()))
                    {
                        i as u16
                    } else if let Some((i, _)) = SYSMSG_OPS
                        .iter()
                        .find(|(_, x)| x.strip_prefix("SYSMSG_OP_") == Some(sys.as_str()))
                    {
                        *i
                    } else {
                        return err(o.col, format!("unknown message operation `{n}`"));
                    }
                }
                (a, None) => int_arg(a, 0, 7, o.col, "message operation")?,
            };
            let stream = match args.get(2) {
                None => 0,
                a => int_arg(a, 0, 3, o.col, "stream")?,
            };
            if args.len() > 3 {
                return err(o.col, "sendmsg takes at most 3 arguments");
            }
            Ok(id | op << 4 | stream << 8)
        }
        Val::Int(_) => imm16(o),
        _ => err(o.col, "expected sendmsg(...)"),
    }
}

/// `vmcnt(n) expcnt(n) lgkmcnt(n)` in any order and number, or one raw number.
pub fn waitcnt(ops: &[Operand], col: u32) -> Result<u16, PErr> {
    if let [o] = ops {
        if let Val::Int(_) = o.val {
            return imm16(o);
        }
    }
    if ops.is_empty() {
        return err(col, "s_waitcnt needs vmcnt(..), expcnt(..) or lgkmcnt(..)");
    }
    let mut v: u16 = 0xf7f;
    for o in ops {
        opnd::no_mods(o)?;
        let Val::Func(f, args) = &o.val else {
            return err(o.col, "expected vmcnt(..), expcnt(..) or lgkmcnt(..)");
        };
        if args.len() != 1 {
            return err(o.col, format!("{f} takes one number"));
        }
        // `NAME_sat(n)`: n saturated to the counter's largest value (LLVM).
        let sat = |max: u16| -> Result<u16, PErr> {
            let n = opnd::int_in(
                &Operand::plain(args[0].clone(), o.col),
                0,
                i128::from(u64::MAX),
                "count",
            )?;
            Ok(n.min(max as i128) as u16)
        };
        match f.as_str() {
            "vmcnt_sat" => v = v & !0xf | sat(15)?,
            "expcnt_sat" => v = v & !0x70 | sat(7)? << 4,
            "lgkmcnt_sat" => v = v & !0xf00 | sat(15)? << 8,
            "vmcnt" => v = v & !0xf | int_arg(args.first(), 0, 15, o.col, "vmcnt")?,
            "expcnt" => v = v & !0x70 | int_arg(args.first(), 0, 7, o.col, "expcnt")? << 4,
            "lgkmcnt" => v = v & !0xf00 | int_arg(args.first(), 0, 15, o.col, "lgkmcnt")? << 8,
            _ => return err(o.col, format!("unknown counter `{f}`")),
        }
    }
    Ok(v)
}

/// `gpr_idx(SRC0,SRC1,SRC2,DST)` or a number 0-15: the 4-bit VGPR index mode of
/// `s_set_gpr_idx_on` (in SSRC1, no literal) and `s_set_gpr_idx_mode` (in SIMM16).
pub fn gpr_idx(o: &Operand) -> Result<u16, PErr> {
    opnd::no_mods(o)?;
    match &o.val {
        Val::Func(f, args) if f == "gpr_idx" => {
            let mut v = 0u16;
            for a in ident_args(args) {
                let bit = match a.as_deref() {
                    Some("SRC0") => 1,
                    Some("SRC1") => 2,
                    Some("SRC2") => 4,
                    Some("DST") => 8,
                    _ => return err(o.col, "gpr_idx takes SRC0, SRC1, SRC2, DST"),
                };
                if v & bit != 0 {
                    return err(o.col, "gpr_idx mode given twice");
                }
                v |= bit;
            }
            Ok(v)
        }
        Val::Int(_) => Ok(opnd::int_in(o, 0, 15, "index mode")? as u16),
        _ => err(o.col, "expected gpr_idx(...)"),
    }
}

/// How many operands a scalar memory form with `n` signature words is written with: the
/// data, the base and the offset, or fewer for the cache controls.
fn smem_operands(n: usize) -> usize {
    if n >= 2 {
        3
    } else {
        n
    }
}

/// Assemble a scalar instruction of `row` at byte offset `pc`.
#[allow(clippy::too_many_arguments)]
pub fn assemble(
    gen: Gen,
    op: Op,
    row: &Row,
    ops: &[Operand],
    mods: &[Modifier],
    head_col: u32,
    end_col: u32,
    pc: u32,
    labels: Labels,
) -> Result<Inst, PErr> {
    let w = sig_dwords(row);
    let words: Vec<&str> = w.iter().map(|x| x.0.as_str()).collect();
    let d = |i: usize| w.get(i).map_or(1, |x| x.1);
    let m = op.mnemonic();
    let mut lit = Lit(None);
    let smem_mods: &[&str] = if row.enc == TableEnc::Smem {
        &["glc"]
    } else {
        &[]
    };
    no_mods_allowed(mods, smem_mods)?;
    // A scalar memory load without its offset reads at offset 0 (LLVM).
    let padded: Vec<Operand>;
    let ops =
        if matches!(row.enc, TableEnc::Smrd | TableEnc::Smem) && w.len() == 3 && ops.len() == 2 {
            padded = [ops, &[Operand::plain(Val::Int(0), end_col)]].concat();
            &padded[..]
        } else {
            ops
        };
    if let Some(refused) = refused_sources(op) {
        let srcs = if words.len() == 1 || row.enc == TableEnc::Sop2 && words.len() == 2 {
            ops
        } else {
            ops.get(1..).unwrap_or(&[])
        };
        for o in srcs {
            if !matches!(o.val, Val::Int(_) | Val::Float(_)) || o.lit {
                continue;
            }
            let what = match refused {
                RefusedSources::Constants => "constant",
                RefusedSources::Literal => {
                    // Inline constants are fine; a value that needs the literal is not.
                    let (s, _) = opnd::src(gen, o, Ty::scalar(d(0)))?;
                    if s.0 != 255 {
                        continue;
                    }
                    "literal"
                }
            };
            return err(
                o.col,
                format!("{m} takes no {what} here (write src(N) or lit(V) for a raw code)"),
            );
        }
    }
    let fields = match row.enc {
        TableEnc::Sop2 => {
            if w.len() == 2 {
                expect_n(ops, 2, m, end_col)?;
                Fields::Sop2 {
                    sdst: 0,
                    ssrc0: lit.src(gen, &ops[0], d(0))?,
                    ssrc1: lit.src(gen, &ops[1], d(1))?,
                }
            } else {
                expect_n(ops, 3, m, end_col)?;
                Fields::Sop2 {
                    sdst: sdst(gen, &ops[0], d(0))?,
                    ssrc0: lit.src(gen, &ops[1], d(1))?,
                    ssrc1: lit.src(gen, &ops[2], d(2))?,
                }
            }
        }
        TableEnc::Sop1 => match w.len() {
            0 => {
                expect_n(ops, 0, m, end_col)?;
                Fields::Sop1 {
                    sdst: 0,
                    ssrc0: Src(0),
                }
            }
            1 if m == "s_getpc_b64" => {
                expect_n(ops, 1, m, end_col)?;
                Fields::Sop1 {
                    sdst: sdst(gen, &ops[0], d(0))?,
                    ssrc0: Src(0),
                }
            }
            1 => {
                expect_n(ops, 1, m, end_col)?;
                Fields::Sop1 {
                    sdst: 0,
                    ssrc0: lit.src(gen, &ops[0], d(0))?,
                }
            }
            _ => {
                expect_n(ops, 2, m, end_col)?;
                Fields::Sop1 {
                    sdst: sdst(gen, &ops[0], d(0))?,
                    ssrc0: lit.src(gen, &ops[1], d(1))?,
                }
            }
        },
        TableEnc::Sopc => {
            expect_n(ops, 2, m, end_col)?;
            if words.get(1) == Some(&"gpr_idx") {
                Fields::Sopc {
                    ssrc0: lit.src(gen, &ops[0], d(0))?,
                    ssrc1: Src(gpr_idx(&ops[1])?),
                }
            } else {
                Fields::Sopc {
                    ssrc0: lit.src(gen, &ops[0], d(0))?,
                    ssrc1: lit.src(gen, &ops[1], d(1))?,
                }
            }
        }
        TableEnc::Sopk => {
            expect_n(ops, 2, m, end_col)?;
            match (words.first().copied(), words.get(1).copied()) {
                (Some("hwreg"), Some("imm")) => {
                    let h = hwreg(&ops[0])?;
                    opnd::no_mods(&ops[1])?;
                    let (_, l) = opnd::constant(gen, &ops[1].val, Ty::F32, true, ops[1].col)?;
                    lit.0 = l;
                    Fields::Sopk { sdst: 0, simm16: h }
                }
                (Some("hwreg"), _) => Fields::Sopk {
                    sdst: sdst(gen, &ops[1], 1)?,
                    simm16: hwreg(&ops[0])?,
                },
                (_, Some("hwreg")) => Fields::Sopk {
                    sdst: sdst(gen, &ops[0], 1)?,
                    simm16: hwreg(&ops[1])?,
                },
                _ if is_branch(op) => Fields::Sopk {
                    sdst: sdst(gen, &ops[0], d(0))?,
                    simm16: branch(&ops[1], pc, labels)?,
                },
                // The unsigned compares take 0-65535 (a negative number is refused, as
                // LLVM does: it would compare against its 16-bit pattern, zero-extended).
                _ if m.starts_with("s_cmpk_") && m.ends_with("_u32") => Fields::Sopk {
                    sdst: sdst(gen, &ops[0], d(0))?,
                    simm16: opnd::int_in(&ops[1], 0, 65535, "unsigned immediate")? as u16,
                },
                _ => Fields::Sopk {
                    sdst: sdst(gen, &ops[0], d(0))?,
                    simm16: imm16(&ops[1])?,
                },
            }
        }
        TableEnc::Sopp => {
            let simm16 = match words.first().copied() {
                None => {
                    expect_n(ops, 0, m, end_col)?;
                    0
                }
                Some("waitcnt") => waitcnt(ops, end_col)?,
                // An optional immediate (`s_endpgm [N]`, as LLVM accepts it).
                Some("imm?") if ops.is_empty() => 0,
                Some("imm?") if ops.len() > 1 => {
                    return err(
                        ops[1].col,
                        format!("{m} takes at most 1 operand, found {}", ops.len()),
                    )
                }
                Some(w0) => {
                    expect_n(ops, 1, m, end_col)?;
                    match w0 {
                        "sendmsg" => sendmsg(gen, &ops[0])?,
                        "gpr_idx" => gpr_idx(&ops[0])?,
                        _ if is_branch(op) => branch(&ops[0], pc, labels)?,
                        _ => imm16(&ops[0])?,
                    }
                }
            };
            Fields::Sopp { simm16 }
        }
        TableEnc::Smrd => {
            // Fields without an operand stay 0.
            let mut f = SmrdFields::default();
            expect_n(ops, smem_operands(w.len()), m, end_col)?;
            if !w.is_empty() {
                f.sdst = smem_data(gen, &ops[0], d(0))?;
            }
            if w.len() >= 2 {
                f.sbase = sbase(gen, &ops[1], d(1))?;
                (f.imm, f.offset) = match offset_sgpr(gen, &ops[2])? {
                    Some(r) => (false, r),
                    None => {
                        let v = opnd::int_in(&ops[2], 0, u32::MAX as i128, "offset")?;
                        if v <= 255 && !ops[2].lit {
                            (true, v as u8)
                        } else if gen == Gen::Gfx7 {
                            lit.0 = Some(v as u32);
                            (false, 255)
                        } else {
                            return err(
                                ops[2].col,
                                format!("SMRD offset {v} does not fit 8 bits on {gen}"),
                            );
                        }
                    }
                };
            }
            Fields::Smrd(f)
        }
        _ => {
            let mut f = SmemFields {
                glc: mods.iter().any(|m| m.name == "glc"),
                ..SmemFields::default()
            };
            expect_n(ops, smem_operands(w.len()), m, end_col)?;
            if w.len() == 1 {
                f.sdata = smem_data(gen, &ops[0], d(0))?;
            }
            if w.len() >= 2 {
                f.sdata = if words.first() == Some(&"imm") {
                    opnd::int_in(&ops[0], 0, 127, "sdata")? as u8
                } else {
                    smem_data(gen, &ops[0], d(0))?
                };
                f.sbase = sbase(gen, &ops[1], d(1))?;
                (f.imm, f.offset) = match offset_sgpr(gen, &ops[2])? {
                    Some(r) => (false, r as u32),
                    None => (true, opnd::int_in(&ops[2], 0, 0xfffff, "offset")? as u32),
                };
            }
            Fields::Smem(f)
        }
    };
    let _ = head_col;
    Ok(Inst {
        op,
        enc: Enc::native(row.enc),
        fields,
        literal: lit.0,
    })
}

/// The SGPR of a scalar memory offset written as a register (`None`: it is a number).
fn offset_sgpr(gen: Gen, o: &Operand) -> Result<Option<u8>, PErr> {
    match opnd::scalar_reg(gen, &o.val, o.col)? {
        Some((r, 1)) => {
            opnd::no_mods(o)?;
            Ok(Some(r as u8))
        }
        Some(_) => err(o.col, "the offset register is one SGPR"),
        None => Ok(None),
    }
}

/// SBASE: an even SGPR pair (or quad for buffer loads), held as its register number.
fn sbase(gen: Gen, o: &Operand, d: u8) -> Result<u8, PErr> {
    let r = opnd::sreg_n(gen, o, d, "base")?;
    if r % 2 != 0 {
        return err(o.col, "the base register must be even");
    }
    Ok(r as u8)
}
