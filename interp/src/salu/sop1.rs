//! SOP1: scalar operations with one source (AMD SI/CI/GCN3 ISA manuals, "SOP1
//! Instructions"): moves, bit counting and scanning, EXEC save-and-modify, program-counter
//! moves and relative (M0-indexed) SGPR moves.

//!
//! One pure function per operation (`super::adapt` says how its signature is read); the
//! program-counter and relative moves take the whole instruction.

use wavejit_isa::gcn::{Fields, Inst, Src};

use super::adapt::{R, S};
use super::operand::{read32, read64, write32, write64};
use crate::ctx::{bad_fields, Control};
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

/// The low `bits` (32 or 64) bits of `a`.
fn low_bits(a: u64, bits: u32) -> u64 {
    if bits == 64 {
        a
    } else {
        a & ((1u64 << bits) - 1)
    }
}

/// Index of the lowest set bit, or -1 (0xffffffff) when none is set (`s_ff1_*`).
/// `s_ff0_*` is this of the complement.
pub fn find_first_one(a: u64, bits: u32) -> u32 {
    let masked = low_bits(a, bits);
    if masked == 0 {
        u32::MAX
    } else {
        masked.trailing_zeros()
    }
}

/// `s_flbit_i32_b32/_b64`: number of zero bits above the highest set bit (counting from the
/// MSB), or -1 when S0 is 0.
pub fn flbit_unsigned(a: u64, bits: u32) -> u32 {
    let masked = low_bits(a, bits);
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

/// The pc of the code address `v` for a wave whose pc 0 is at `base`: an address below
/// the base, or 4 GiB or more past it, is refused here; one past the end of the code is
/// `PcOutOfCode` at the next step, as for a branch.
fn code_address(v: u64, base: u64, inst: &Inst) -> Result<u32, ExecErrorKind> {
    v.checked_sub(base)
        .and_then(|d| u32::try_from(d).ok())
        .ok_or_else(|| {
            ExecErrorKind::BadOperand(format!(
                "{} target 0x{v:x} is outside the code",
                inst.op.mnemonic()
            ))
        })
}

pub fn s_mov_b32(a: u32) -> u32 {
    a
}
pub fn s_mov_b64(a: u64) -> u64 {
    a
}

/// `if SCC then D = S0`.
pub fn s_cmov_b32(a: u32, scc: bool) -> Option<u32> {
    scc.then_some(a)
}
pub fn s_cmov_b64(a: u64, scc: bool) -> Option<u64> {
    scc.then_some(a)
}

/// `D = !S0`; `SCC = D != 0`.
pub fn s_not_b32(a: u32) -> u32 {
    !a
}
pub fn s_not_b64(a: u64) -> u64 {
    !a
}

pub fn s_brev_b32(a: u32) -> u32 {
    a.reverse_bits()
}
pub fn s_brev_b64(a: u64) -> u64 {
    a.reverse_bits()
}

/// The number of zero bits; `SCC = D != 0`.
pub fn s_bcnt0_i32_b32(a: u32) -> u32 {
    32 - a.count_ones()
}
pub fn s_bcnt0_i32_b64(a: u64) -> u32 {
    64 - a.count_ones()
}
/// The number of one bits; `SCC = D != 0`.
pub fn s_bcnt1_i32_b32(a: u32) -> u32 {
    a.count_ones()
}
pub fn s_bcnt1_i32_b64(a: u64) -> u32 {
    a.count_ones()
}

pub fn s_ff0_i32_b32(a: u32) -> u32 {
    find_first_one(!a as u64, 32)
}
pub fn s_ff0_i32_b64(a: u64) -> u32 {
    find_first_one(!a, 64)
}
pub fn s_ff1_i32_b32(a: u32) -> u32 {
    find_first_one(a as u64, 32)
}
pub fn s_ff1_i32_b64(a: u64) -> u32 {
    find_first_one(a, 64)
}
pub fn s_flbit_i32_b32(a: u32) -> u32 {
    flbit_unsigned(a as u64, 32)
}
pub fn s_flbit_i32_b64(a: u64) -> u32 {
    flbit_unsigned(a, 64)
}
pub fn s_flbit_i32(a: u32) -> u32 {
    flbit_signed(a as u64, 32)
}
pub fn s_flbit_i32_i64(a: u64) -> u32 {
    flbit_signed(a, 64)
}

pub fn s_sext_i32_i8(a: u32) -> u32 {
    a as u8 as i8 as i32 as u32
}
pub fn s_sext_i32_i16(a: u32) -> u32 {
    a as u16 as i16 as i32 as u32
}

/// `D[S0[4:0]] = 0`: D is read, one bit changed, written back.
pub fn s_bitset0_b32(d: u32, s0: u32) -> u32 {
    d & !(1 << (s0 & 31))
}
/// `D[S0[4:0]] = 1`.
pub fn s_bitset1_b32(d: u32, s0: u32) -> u32 {
    d | (1 << (s0 & 31))
}
/// `D[S0[5:0]] = 0` on 64 bits.
pub fn s_bitset0_b64(d: u64, s0: u32) -> u64 {
    d & !(1 << (s0 & 63))
}
/// `D[S0[5:0]] = 1` on 64 bits.
pub fn s_bitset1_b64(d: u64, s0: u32) -> u64 {
    d | (1 << (s0 & 63))
}

// `D = EXEC; EXEC = S0 op EXEC; SCC = EXEC != 0` (the `saveexec` adapter): the new EXEC.

pub fn s_and_saveexec_b64(s0: u64, exec: u64) -> u64 {
    s0 & exec
}
pub fn s_or_saveexec_b64(s0: u64, exec: u64) -> u64 {
    s0 | exec
}
pub fn s_xor_saveexec_b64(s0: u64, exec: u64) -> u64 {
    s0 ^ exec
}
pub fn s_andn2_saveexec_b64(s0: u64, exec: u64) -> u64 {
    s0 & !exec
}
pub fn s_orn2_saveexec_b64(s0: u64, exec: u64) -> u64 {
    s0 | !exec
}
pub fn s_nand_saveexec_b64(s0: u64, exec: u64) -> u64 {
    !(s0 & exec)
}
pub fn s_nor_saveexec_b64(s0: u64, exec: u64) -> u64 {
    !(s0 | exec)
}
pub fn s_xnor_saveexec_b64(s0: u64, exec: u64) -> u64 {
    !(s0 ^ exec)
}

/// `D = |S0|` (|-2^31| stays 0x80000000); `SCC = D != 0`.
pub fn s_abs_i32(a: u32) -> u32 {
    (a as i32).wrapping_abs() as u32
}

fn sop1_fields(inst: &Inst) -> Result<(u8, Src), ExecErrorKind> {
    match inst.fields {
        Fields::Sop1 { sdst, ssrc0 } => Ok((sdst, ssrc0)),
        _ => Err(bad_fields(inst)),
    }
}

/// The address of the instruction after the one at `s.pc`: the wave's code base plus
/// its byte offset in the program.
fn next_address(s: &S) -> u64 {
    s.ctx
        .wave
        .code_base
        .wrapping_add(s.pc as u64 + s.size as u64)
}

/// `D = the address of the next instruction`.
pub fn s_getpc_b64(s: &mut S) -> R {
    let (sdst, _) = sop1_fields(s.inst)?;
    write64(s.ctx.wave, sdst, next_address(s))?;
    Ok(Control::Next)
}

/// `PC = S0`.
pub fn s_setpc_b64(s: &mut S) -> R {
    let (_, ssrc0) = sop1_fields(s.inst)?;
    let target = read64(s.ctx.wave, ssrc0, s.inst.literal)?;
    Ok(Control::Jump(code_address(
        target,
        s.ctx.wave.code_base,
        s.inst,
    )?))
}

/// `D = the address of the next instruction; PC = S0`.
pub fn s_swappc_b64(s: &mut S) -> R {
    let (sdst, ssrc0) = sop1_fields(s.inst)?;
    let v = read64(s.ctx.wave, ssrc0, s.inst.literal)?;
    let target = code_address(v, s.ctx.wave.code_base, s.inst)?;
    write64(s.ctx.wave, sdst, next_address(s))?;
    Ok(Control::Jump(target))
}

/// `D = SGPR[S0.addr + M0]` of `dwords` (1 or 2) dwords.
fn movrels(s: &mut S, dwords: u32) -> R {
    let (sdst, ssrc0) = sop1_fields(s.inst)?;
    let what = s.inst.op.mnemonic();
    let w = &mut *s.ctx.wave;
    let slot = relative_slot(sgpr_of(ssrc0, what)?, w.m0, dwords, what)?;
    if dwords == 2 {
        write64(w, sdst, w.read_sreg64(slot))?;
    } else {
        write32(w, sdst, w.read_sreg(slot))?;
    }
    Ok(Control::Next)
}

/// `SGPR[D.addr + M0] = S0` of `dwords` (1 or 2) dwords.
fn movreld(s: &mut S, dwords: u32) -> R {
    let (sdst, ssrc0) = sop1_fields(s.inst)?;
    let what = s.inst.op.mnemonic();
    let w = &mut *s.ctx.wave;
    if dwords == 2 {
        let v = read64(w, ssrc0, s.inst.literal)?;
        w.write_sreg64(relative_slot(sdst, w.m0, 2, what)?, v);
    } else {
        let v = read32(w, ssrc0, s.inst.literal)?;
        w.write_sreg(relative_slot(sdst, w.m0, 1, what)?, v);
    }
    Ok(Control::Next)
}

pub fn s_movrels_b32(s: &mut S) -> R {
    movrels(s, 1)
}

pub fn s_movrels_b64(s: &mut S) -> R {
    movrels(s, 2)
}

pub fn s_movreld_b32(s: &mut S) -> R {
    movreld(s, 1)
}

pub fn s_movreld_b64(s: &mut S) -> R {
    movreld(s, 2)
}
