//! Scalar instructions as text: SOP2, SOPK, SOP1, SOPC, SOPP and scalar memory (SMRD on
//! GCN 1.0/1.1, SMEM on GCN 1.2), with the symbolic immediates LLVM prints
//! (`hwreg(...)`, `sendmsg(...)`, `vmcnt(..)`, `gpr_idx(...)`).

use super::names;
use super::names::Syntax;
use super::shape::{row_sig, Ty};
use crate::arch::Gen;
use crate::gcn::inst::{Fields, Inst, Src};
use crate::gcn::table::{Op, TableEnc};

/// SOPP branches and the SOPK fork: their 16-bit immediate is a signed dword offset.
pub fn is_branch(op: Op) -> bool {
    let m = op.mnemonic();
    m == "s_branch"
        || m.starts_with("s_cbranch_") && m != "s_cbranch_join" && m != "s_cbranch_g_fork"
}

/// The SOP1 operation with one operand that writes it (the others read it).
fn sop1_writes_only(op: Op) -> bool {
    op.mnemonic() == "s_getpc_b64"
}

/// Whether scalar memory data registers `r..r+dwords` take in M0 or EXEC, which the
/// assembler refuses there (as LLVM does: AMD's manuals give SGPRs, VCC and trap
/// registers as scalar memory destinations; a load into M0 or EXEC is not ordered with the
/// instructions that read them). The decoder keeps such words, and their text writes the
/// register as the raw code `src(N)`.
pub fn smem_data_refused(r: u8, dwords: u8) -> bool {
    (r as u16..r as u16 + dwords as u16).any(|x| matches!(x, 124 | 126 | 127))
}

/// Which numbers the scalar sources of `op` refuse, as LLVM refuses them: a program
/// counter, a join mask or a relative-move source names registers (`s_setpc_b64`,
/// `s_rfe_b64`, `s_cbranch_join`, `s_movrels_*`: no constant), and `s_cbranch_g_fork`
/// takes inline constants but no literal. The decoder keeps such words; their text writes
/// the raw `src(N)` or `lit(V)`, which assembles back to them.
pub fn refused_sources(op: Op) -> Option<RefusedSources> {
    match op.mnemonic() {
        "s_setpc_b64" | "s_rfe_b64" | "s_cbranch_join" | "s_movrels_b32" | "s_movrels_b64" => {
            Some(RefusedSources::Constants)
        }
        "s_cbranch_g_fork" => Some(RefusedSources::Literal),
        _ => None,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusedSources {
    /// Inline constants (codes 128-250) and the literal.
    Constants,
    /// The literal only.
    Literal,
}

/// A scalar memory data register as text: its name, or `src(N)` for M0/EXEC.
fn smem_data_text(gen: Gen, r: u8, dwords: u8) -> String {
    if smem_data_refused(r, dwords) {
        format!("src({r})")
    } else {
        names::sreg(gen, r as u16, dwords)
    }
}

/// SMRD/SMEM base register number of the SBASE field (`Fields` holds the register number).
pub fn sbase_reg(field: u8) -> u16 {
    field as u16
}

/// Text of a SOPP/SOPK immediate that LLVM prints as a plain number: small values in
/// decimal, others in hex (LLVM's 32-bit immediate printer on a 16-bit value).
fn imm16(v: u16) -> String {
    if v <= 64 {
        v.to_string()
    } else {
        format!("0x{v:x}")
    }
}

/// `s_waitcnt` counters (GCN 1.0-1.2: vmcnt 3:0, expcnt 6:4, lgkmcnt 11:8), or the raw
/// number when bits outside the counters are set.
pub fn waitcnt_text(v: u16) -> String {
    if v & 0xf080 != 0 {
        return format!("0x{v:x}");
    }
    let vm = v & 15;
    let exp = v >> 4 & 7;
    let lgkm = v >> 8 & 15;
    let all = vm == 15 && exp == 7 && lgkm == 15;
    let mut p = Vec::new();
    if vm != 15 || all {
        p.push(format!("vmcnt({vm})"));
    }
    if exp != 7 || all {
        p.push(format!("expcnt({exp})"));
    }
    if lgkm != 15 || all {
        p.push(format!("lgkmcnt({lgkm})"));
    }
    p.join(" ")
}

/// Hardware register names of `s_getreg`/`s_setreg` (ids 1-7 on GCN 1.0-1.2).
pub const HWREG_NAMES: [(u16, &str); 7] = [
    (1, "HW_REG_MODE"),
    (2, "HW_REG_STATUS"),
    (3, "HW_REG_TRAPSTS"),
    (4, "HW_REG_HW_ID"),
    (5, "HW_REG_GPR_ALLOC"),
    (6, "HW_REG_LDS_ALLOC"),
    (7, "HW_REG_IB_STS"),
];

/// `hwreg(id[, offset, size])`: id 5:0, offset 10:6, size-1 15:11.
pub fn hwreg_text(v: u16) -> String {
    let id = v & 63;
    let off = v >> 6 & 31;
    let size = (v >> 11) + 1;
    let name = HWREG_NAMES
        .iter()
        .find(|(i, _)| *i == id)
        .map_or(id.to_string(), |(_, n)| n.to_string());
    if off == 0 && size == 32 {
        format!("hwreg({name})")
    } else {
        format!("hwreg({name}, {off}, {size})")
    }
}

/// Message names of `s_sendmsg` (id 3:0).
pub const MSG_NAMES: [(u16, &str); 5] = [
    (1, "MSG_INTERRUPT"),
    (2, "MSG_GS"),
    (3, "MSG_GS_DONE"),
    (4, "MSG_SAVEWAVE"),
    (15, "MSG_SYSMSG"),
];
pub const GS_OPS: [&str; 4] = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"];
pub const SYSMSG_OPS: [(u16, &str); 4] = [
    (1, "SYSMSG_OP_ECC_ERR_INTERRUPT"),
    (2, "SYSMSG_OP_REG_RD"),
    (3, "SYSMSG_OP_HOST_TRAP_ACK"),
    (4, "SYSMSG_OP_TTRACE_PC"),
];

/// `sendmsg(...)` as LLVM prints it (msg 3:0, op 6:4, stream 9:8).
pub fn sendmsg_text(gen: Gen, v: u16) -> String {
    let id = v & 15;
    let op = v >> 4 & 7;
    let stream = v >> 8 & 3;
    let fits = v & !0x37f == 0;
    if fits {
        match id {
            1 if op == 0 && stream == 0 => return "sendmsg(MSG_INTERRUPT)".into(),
            4 if gen == Gen::Gfx8 && op == 0 && stream == 0 => {
                return "sendmsg(MSG_SAVEWAVE)".into()
            }
            2 | 3 => {
                let name = if id == 2 { "MSG_GS" } else { "MSG_GS_DONE" };
                if op == 0 && id == 3 && stream == 0 {
                    return "sendmsg(MSG_GS_DONE, GS_OP_NOP)".into();
                }
                if (1..=3).contains(&op) {
                    return format!("sendmsg({name}, {}, {stream})", GS_OPS[op as usize]);
                }
            }
            15 if stream == 0 => {
                if let Some((_, n)) = SYSMSG_OPS.iter().find(|(o, _)| *o == op) {
                    return format!("sendmsg(MSG_SYSMSG, {n})");
                }
            }
            _ => {}
        }
        format!("sendmsg({id}, {op}, {stream})")
    } else {
        v.to_string()
    }
}

/// `gpr_idx(SRC0,SRC1,SRC2,DST)` of s_set_gpr_idx_on/mode (bits 3:0; the decoder rejects
/// larger values, so hex is only for hand-built instructions).
pub fn gpr_idx_text(v: u16) -> String {
    if v & !15 != 0 {
        return format!("0x{v:x}");
    }
    let names = ["SRC0", "SRC1", "SRC2", "DST"];
    let on: Vec<&str> = (0..4)
        .filter(|i| v >> i & 1 != 0)
        .map(|i| names[i])
        .collect();
    format!("gpr_idx({})", on.join(","))
}

/// Print a scalar instruction (`None` when `inst` is not one).
pub fn print(gen: Gen, inst: &Inst, sx: Syntax) -> Option<String> {
    print_with_target(gen, inst, sx, None)
}

/// As `print`, writing `target` instead of the numeric offset of a branch.
pub fn print_with_target(
    gen: Gen,
    inst: &Inst,
    sx: Syntax,
    target: Option<&str>,
) -> Option<String> {
    let op = inst.op;
    let m = op.mnemonic();
    let refused = refused_sources(op);
    let src = |s: Src, d: u8| {
        let t = names::src(gen, s, Ty::scalar(d), inst.literal, sx);
        match (s.0, refused) {
            (255, Some(_)) => format!("lit({t})"),
            (128..=250, Some(RefusedSources::Constants)) => format!("src({})", s.0),
            _ => t,
        }
    };
    let mut mods: Vec<&str> = Vec::new();
    let ops: Vec<String> = match inst.fields {
        Fields::Sop2 { sdst, ssrc0, ssrc1 } => {
            let w = row_sig(gen, inst.op, TableEnc::Sop2);
            if w.len() == 2 {
                vec![src(ssrc0, w[0].1), src(ssrc1, w[1].1)]
            } else {
                let d = |i: usize| w.get(i).map_or(1, |x| x.1);
                vec![
                    names::sreg(gen, sdst as u16, d(0)),
                    src(ssrc0, d(1)),
                    src(ssrc1, d(2)),
                ]
            }
        }
        Fields::Sop1 { sdst, ssrc0 } => {
            let w = row_sig(gen, inst.op, TableEnc::Sop1);
            let d = |i: usize| w.get(i).map_or(1, |x| x.1);
            match w.len() {
                0 => vec![],
                1 if sop1_writes_only(op) => vec![names::sreg(gen, sdst as u16, d(0))],
                1 => vec![src(ssrc0, d(0))],
                _ => vec![names::sreg(gen, sdst as u16, d(0)), src(ssrc0, d(1))],
            }
        }
        Fields::Sopc { ssrc0, ssrc1 } => {
            let w = row_sig(gen, inst.op, TableEnc::Sopc);
            let d = |i: usize| w.get(i).map_or(1, |x| x.1);
            if w.get(1).is_some_and(|x| x.0 == "gpr_idx") {
                vec![src(ssrc0, d(0)), gpr_idx_text(ssrc1.0)]
            } else {
                vec![src(ssrc0, d(0)), src(ssrc1, d(1))]
            }
        }
        Fields::Sopk { sdst, simm16 } => {
            let w = row_sig(gen, inst.op, TableEnc::Sopk);
            let d = |i: usize| w.get(i).map_or(1, |x| x.1);
            match (
                w.first().map(|x| x.0.as_str()),
                w.get(1).map(|x| x.0.as_str()),
            ) {
                (Some("hwreg"), Some("imm")) => {
                    vec![
                        hwreg_text(simm16),
                        names::imm32_text(gen, inst.literal.unwrap_or(0)),
                    ]
                }
                (Some("hwreg"), _) => vec![hwreg_text(simm16), names::sreg(gen, sdst as u16, 1)],
                (_, Some("hwreg")) => vec![names::sreg(gen, sdst as u16, 1), hwreg_text(simm16)],
                _ if is_branch(op) => vec![
                    names::sreg(gen, sdst as u16, d(0)),
                    target.map_or((simm16 as i16).to_string(), str::to_string),
                ],
                _ => vec![names::sreg(gen, sdst as u16, d(0)), format!("0x{simm16:x}")],
            }
        }
        Fields::Sopp { simm16 } => {
            let w = row_sig(gen, inst.op, TableEnc::Sopp);
            match w.first().map(|x| x.0.as_str()) {
                None | Some("imm?") if simm16 == 0 => vec![],
                None => vec![imm16(simm16)],
                // `s_endpgm N`: LLVM prints this one in decimal.
                Some("imm?") => vec![simm16.to_string()],
                Some("waitcnt") => vec![waitcnt_text(simm16)],
                Some("sendmsg") => vec![sendmsg_text(gen, simm16)],
                Some("gpr_idx") => vec![gpr_idx_text(simm16)],
                _ if is_branch(op) => {
                    vec![target.map_or((simm16 as i16).to_string(), str::to_string)]
                }
                _ => vec![imm16(simm16)],
            }
        }
        Fields::Smrd(_) | Fields::Smem(_) => {
            // (encoding, data register, base, offset text, whether the data operand may
            // be a plain number: SMEM's `imm` signature word)
            let (te, sdata, sbase, off, imm_data) = match inst.fields {
                Fields::Smrd(f) => {
                    let off = if f.imm {
                        format!("0x{:x}", f.offset)
                    } else if f.offset == 255 && inst.literal.is_some() {
                        format!("0x{:x}", inst.literal.unwrap_or(0))
                    } else {
                        names::sreg(gen, f.offset as u16, 1)
                    };
                    (TableEnc::Smrd, f.sdst, f.sbase, off, false)
                }
                Fields::Smem(f) => {
                    if f.glc {
                        mods.push("glc");
                    }
                    let off = if f.imm {
                        format!("0x{:x}", f.offset)
                    } else {
                        names::sreg(gen, (f.offset & 0xff) as u16, 1)
                    };
                    (TableEnc::Smem, f.sdata, f.sbase, off, true)
                }
                _ => return None,
            };
            let w = row_sig(gen, inst.op, te);
            let d = |i: usize| w.get(i).map_or(1, |x| x.1);
            match w.len() {
                0 => vec![],
                1 => vec![smem_data_text(gen, sdata, d(0))],
                _ => {
                    let data = if imm_data && w[0].0 == "imm" {
                        sdata.to_string()
                    } else {
                        smem_data_text(gen, sdata, d(0))
                    };
                    vec![data, names::sreg(gen, sbase_reg(sbase), d(1)), off]
                }
            }
        }
        _ => return None,
    };
    let mut out = String::from(m);
    if !ops.is_empty() {
        out.push(' ');
        out.push_str(&ops.join(", "));
    }
    for md in mods {
        out.push(' ');
        out.push_str(md);
    }
    Some(out)
}
