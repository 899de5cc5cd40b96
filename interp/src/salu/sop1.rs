//! SOP1: scalar operations with one source (AMD SI/CI/GCN3 ISA manuals, "SOP1
//! Instructions"): moves, bit counting and scanning, EXEC save-and-modify, program-counter
//! moves and relative (M0-indexed) SGPR moves.

use wavejit_isa::gcn::{Fields, Inst, Op, Src};

use super::operand::{read32, read64, write32, write64};
use crate::ctx::{bad_fields, unsupported, Control, Ctx};
use crate::error::ExecErrorKind;

/// Whole-quad mode: every 4-bit group of D is all ones when any bit of that group of S0 is
/// set, else zero.
pub fn s_wqm_b64(a: u64) -> u64 {
    let mut d = 0u64;
    for q in 0..16 {
        if (a >> (4 * q)) & 0xf != 0 {
            d |= 0xf << (4 * q);
        }
    }
    d
}

/// `s_wqm_b32`: the low 32 bits of `s_wqm_b64`.
pub fn s_wqm_b32(a: u32) -> u32 {
    s_wqm_b64(a as u64) as u32
}

/// Quad mask: bit q of D is set when any bit of the 4-bit group q of S0 is set.
pub fn s_quadmask_b64(a: u64) -> u64 {
    let mut d = 0u64;
    for q in 0..16 {
        if (a >> (4 * q)) & 0xf != 0 {
            d |= 1 << q;
        }
    }
    d
}

/// `s_quadmask_b32`: 8 groups of 4 bits.
pub fn s_quadmask_b32(a: u32) -> u32 {
    s_quadmask_b64(a as u64) as u32
}

/// Index of the lowest set bit, or -1 (0xffffffff) when none is set (`s_ff1_*`).
/// `s_ff0_*` is this of the complement.
pub fn find_first_one(a: u64, bits: u32) -> u32 {
    let masked = if bits == 64 {
        a
    } else {
        a & ((1u64 << bits) - 1)
    };
    if masked == 0 {
        u32::MAX
    } else {
        masked.trailing_zeros()
    }
}

/// `s_flbit_i32_b32/_b64`: number of zero bits above the highest set bit (counting from the
/// MSB), or -1 when S0 is 0.
pub fn flbit_unsigned(a: u64, bits: u32) -> u32 {
    let masked = if bits == 64 {
        a
    } else {
        a & ((1u64 << bits) - 1)
    };
    if masked == 0 {
        u32::MAX
    } else {
        masked.leading_zeros() - (64 - bits)
    }
}

/// `s_flbit_i32/_i32_i64`: position (from the MSB) of the first bit that differs from the
/// sign bit, or -1 when every bit equals the sign bit (0 and -1).
/// Manual examples: 0x0000cccc → 16, 0xffff3333 → 16, 0x7fffffff → 1, 0x80000000 → 1.
pub fn flbit_signed(a: u64, bits: u32) -> u32 {
    let sign = (a >> (bits - 1)) & 1 != 0;
    flbit_unsigned(if sign { !a } else { a }, bits)
}

/// The 32-bit number of bits set in the low `bits` bits (`s_bcnt1_*`).
fn popcount(a: u64) -> u32 {
    a.count_ones()
}

/// EXEC-modifying operations: the new EXEC from S0 and the old EXEC.
fn saveexec(op: Op, s0: u64, exec: u64) -> Option<u64> {
    use Op::*;
    Some(match op {
        SAndSaveexecB64 => s0 & exec,
        SOrSaveexecB64 => s0 | exec,
        SXorSaveexecB64 => s0 ^ exec,
        SAndn2SaveexecB64 => s0 & !exec,
        SOrn2SaveexecB64 => s0 | !exec,
        SNandSaveexecB64 => !(s0 & exec),
        SNorSaveexecB64 => !(s0 | exec),
        SXnorSaveexecB64 => !(s0 ^ exec),
        _ => return None,
    })
}

/// Number of scalar general-purpose registers that relative moves may address.
const SGPRS: u32 = 104;

/// The slot `base + M0` of a relative move, checked to stay among the SGPRs (with room for
/// `width` registers).
fn relative_slot(base: u8, m0: u32, width: u32, what: &str) -> Result<u8, ExecErrorKind> {
    let idx = (base as u32).checked_add(m0);
    match idx {
        Some(i) if base < 128 && i.checked_add(width).is_some_and(|end| end <= SGPRS) => {
            Ok(i as u8)
        }
        _ => Err(ExecErrorKind::BadOperand(format!(
            "{what}: s{base} + M0 ({m0}) is outside s0-s{}",
            SGPRS - 1
        ))),
    }
}

/// The SGPR a relative-move source names (it must be a register, not a constant).
fn sgpr_of(src: Src, what: &str) -> Result<u8, ExecErrorKind> {
    if src.0 < SGPRS as u16 {
        Ok(src.0 as u8)
    } else {
        Err(ExecErrorKind::BadOperand(format!(
            "{what}: source {} is not an SGPR",
            src.0
        )))
    }
}

pub fn exec(ctx: &mut Ctx<'_>, inst: &Inst, pc: u32, size: u32) -> Result<Control, ExecErrorKind> {
    let Fields::Sop1 { sdst, ssrc0 } = inst.fields else {
        return Err(bad_fields(inst));
    };
    let w = &mut *ctx.wave;
    let lit = inst.literal;
    let scc = w.scc & 1 != 0;
    use Op::*;
    // Results: (32-bit D | 64-bit D | nothing, new SCC).
    let mut d32: Option<u32> = None;
    let mut d64: Option<u64> = None;
    let mut new_scc: Option<bool> = None;
    let mut control = Control::Next;
    match inst.op {
        SMovB32 => d32 = Some(read32(w, ssrc0, lit)?),
        SMovB64 => d64 = Some(read64(w, ssrc0, lit)?),
        SCmovB32 => {
            let v = read32(w, ssrc0, lit)?;
            if scc {
                d32 = Some(v);
            }
        }
        SCmovB64 => {
            let v = read64(w, ssrc0, lit)?;
            if scc {
                d64 = Some(v);
            }
        }
        SNotB32 => {
            let d = !read32(w, ssrc0, lit)?;
            d32 = Some(d);
            new_scc = Some(d != 0);
        }
        SNotB64 => {
            let d = !read64(w, ssrc0, lit)?;
            d64 = Some(d);
            new_scc = Some(d != 0);
        }
        SWqmB32 => {
            let d = s_wqm_b32(read32(w, ssrc0, lit)?);
            d32 = Some(d);
            new_scc = Some(d != 0);
        }
        SWqmB64 => {
            let d = s_wqm_b64(read64(w, ssrc0, lit)?);
            d64 = Some(d);
            new_scc = Some(d != 0);
        }
        SBrevB32 => d32 = Some(read32(w, ssrc0, lit)?.reverse_bits()),
        SBrevB64 => d64 = Some(read64(w, ssrc0, lit)?.reverse_bits()),
        SBcnt0I32B32 => {
            let d = 32 - popcount(read32(w, ssrc0, lit)? as u64);
            d32 = Some(d);
            new_scc = Some(d != 0);
        }
        SBcnt0I32B64 => {
            let d = 64 - popcount(read64(w, ssrc0, lit)?);
            d32 = Some(d);
            new_scc = Some(d != 0);
        }
        SBcnt1I32B32 => {
            let d = popcount(read32(w, ssrc0, lit)? as u64);
            d32 = Some(d);
            new_scc = Some(d != 0);
        }
        SBcnt1I32B64 => {
            let d = popcount(read64(w, ssrc0, lit)?);
            d32 = Some(d);
            new_scc = Some(d != 0);
        }
        SFf0I32B32 => d32 = Some(find_first_one(!read32(w, ssrc0, lit)? as u64, 32)),
        SFf0I32B64 => d32 = Some(find_first_one(!read64(w, ssrc0, lit)?, 64)),
        SFf1I32B32 => d32 = Some(find_first_one(read32(w, ssrc0, lit)? as u64, 32)),
        SFf1I32B64 => d32 = Some(find_first_one(read64(w, ssrc0, lit)?, 64)),
        SFlbitI32B32 => d32 = Some(flbit_unsigned(read32(w, ssrc0, lit)? as u64, 32)),
        SFlbitI32B64 => d32 = Some(flbit_unsigned(read64(w, ssrc0, lit)?, 64)),
        SFlbitI32 => d32 = Some(flbit_signed(read32(w, ssrc0, lit)? as u64, 32)),
        SFlbitI32I64 => d32 = Some(flbit_signed(read64(w, ssrc0, lit)?, 64)),
        SSextI32I8 => d32 = Some(read32(w, ssrc0, lit)? as u8 as i8 as i32 as u32),
        SSextI32I16 => d32 = Some(read32(w, ssrc0, lit)? as u16 as i16 as i32 as u32),
        // `D[S0[4:0]] = 0/1`: D is read, one bit changed, written back.
        SBitset0B32 | SBitset1B32 => {
            let bit = read32(w, ssrc0, lit)? & 31;
            let old = read32(w, Src(sdst as u16), None)?;
            d32 = Some(if inst.op == SBitset0B32 {
                old & !(1 << bit)
            } else {
                old | (1 << bit)
            });
        }
        SBitset0B64 | SBitset1B64 => {
            let bit = read32(w, ssrc0, lit)? & 63;
            let old = read64(w, Src(sdst as u16), None)?;
            d64 = Some(if inst.op == SBitset0B64 {
                old & !(1 << bit)
            } else {
                old | (1 << bit)
            });
        }
        // The address of the next instruction. Code addresses are byte offsets from the
        // start of the program.
        SGetpcB64 => d64 = Some(pc as u64 + size as u64),
        SSetpcB64 => control = Control::Jump(code_address(read64(w, ssrc0, lit)?, inst)?),
        SSwappcB64 => {
            let target = code_address(read64(w, ssrc0, lit)?, inst)?;
            d64 = Some(pc as u64 + size as u64);
            control = Control::Jump(target);
        }
        op @ (SAndSaveexecB64 | SOrSaveexecB64 | SXorSaveexecB64 | SAndn2SaveexecB64
        | SOrn2SaveexecB64 | SNandSaveexecB64 | SNorSaveexecB64 | SXnorSaveexecB64) => {
            // `D = EXEC; EXEC = S0 op EXEC; SCC = EXEC != 0`, with S0 read before anything
            // is written (S0 may be EXEC or overlap D).
            let s0 = read64(w, ssrc0, lit)?;
            let old = w.exec;
            let new = saveexec(op, s0, old).unwrap_or(old);
            write64(w, sdst, old)?;
            w.exec = new;
            w.scc = (new != 0) as u32;
            return Ok(Control::Next);
        }
        SQuadmaskB32 => {
            let d = s_quadmask_b32(read32(w, ssrc0, lit)?);
            d32 = Some(d);
            new_scc = Some(d != 0);
        }
        SQuadmaskB64 => {
            let d = s_quadmask_b64(read64(w, ssrc0, lit)?);
            d64 = Some(d);
            new_scc = Some(d != 0);
        }
        // `D = SGPR[S0.addr + M0]`.
        SMovrelsB32 => {
            let slot = relative_slot(sgpr_of(ssrc0, "s_movrels_b32")?, w.m0, 1, "s_movrels_b32")?;
            d32 = Some(w.read_sreg(slot));
        }
        SMovrelsB64 => {
            let slot = relative_slot(sgpr_of(ssrc0, "s_movrels_b64")?, w.m0, 2, "s_movrels_b64")?;
            d64 = Some(w.read_sreg64(slot));
        }
        // `SGPR[D.addr + M0] = S0`.
        SMovreldB32 => {
            let v = read32(w, ssrc0, lit)?;
            let slot = relative_slot(sdst, w.m0, 1, "s_movreld_b32")?;
            w.write_sreg(slot, v);
            return Ok(Control::Next);
        }
        SMovreldB64 => {
            let v = read64(w, ssrc0, lit)?;
            let slot = relative_slot(sdst, w.m0, 2, "s_movreld_b64")?;
            w.write_sreg64(slot, v);
            return Ok(Control::Next);
        }
        // `D = |S0|` (|-2^31| stays 0x80000000); `SCC = D != 0`.
        SAbsI32 => {
            let d = (read32(w, ssrc0, lit)? as i32).wrapping_abs() as u32;
            d32 = Some(d);
            new_scc = Some(d != 0);
        }
        // s_rfe_b64 (trap return), s_cbranch_join (control stack) and the GCN 1.2 VGPR
        // indexing mode (s_set_gpr_idx_idx) are not modelled.
        _ => return Err(unsupported(inst)),
    }
    if let Some(d) = d32 {
        write32(w, sdst, d)?;
    }
    if let Some(d) = d64 {
        write64(w, sdst, d)?;
    }
    if let Some(c) = new_scc {
        w.scc = c as u32;
    }
    Ok(control)
}

/// A 64-bit jump target as a code offset: targets beyond 32 bits are outside any program.
fn code_address(v: u64, inst: &Inst) -> Result<u32, ExecErrorKind> {
    u32::try_from(v).map_err(|_| {
        ExecErrorKind::BadOperand(format!(
            "{} target 0x{v:x} is outside the code",
            inst.op.mnemonic()
        ))
    })
}
