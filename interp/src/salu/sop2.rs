//! SOP2: scalar operations with two sources (AMD SI/CI/GCN3 ISA manuals, "SOP2
//! Instructions"). One pure function per operation, returning the result and, where the
//! operation writes it, the new SCC; `exec` fetches operands and writes results.
//!
//! Shift amounts and bit-field offsets use the low 5 bits (6 for 64-bit data) of their
//! operand, as the manuals' `S1.u[4:0]` says: a shift by 33 is a shift by 1.

use wavejit_isa::gcn::{Fields, Inst, Op};

use super::operand::{read32, read64, write32, write64};
use crate::ctx::{bad_fields, unsupported, Ctx};
use crate::error::ExecErrorKind;

/// `D = S0 + S1; SCC = carry out`.
pub fn s_add_u32(a: u32, b: u32) -> (u32, bool) {
    a.overflowing_add(b)
}

/// `D = S0 - S1; SCC = borrow (S1 > S0 unsigned)`.
pub fn s_sub_u32(a: u32, b: u32) -> (u32, bool) {
    a.overflowing_sub(b)
}

/// `D = S0 + S1; SCC = signed overflow` (both sources' signs equal and differ from D's).
pub fn s_add_i32(a: u32, b: u32) -> (u32, bool) {
    let (d, o) = (a as i32).overflowing_add(b as i32);
    (d as u32, o)
}

/// `D = S0 - S1; SCC = signed overflow`.
pub fn s_sub_i32(a: u32, b: u32) -> (u32, bool) {
    let (d, o) = (a as i32).overflowing_sub(b as i32);
    (d as u32, o)
}

/// `D = S0 + S1 + SCC; SCC = carry out of the 33-bit sum`.
pub fn s_addc_u32(a: u32, b: u32, scc: bool) -> (u32, bool) {
    let s = a as u64 + b as u64 + scc as u64;
    (s as u32, s >> 32 != 0)
}

/// `D = S0 - S1 - SCC; SCC = borrow ((S1 + SCC) > S0 unsigned)`.
pub fn s_subb_u32(a: u32, b: u32, scc: bool) -> (u32, bool) {
    let sub = b as u64 + scc as u64;
    ((a as u64).wrapping_sub(sub) as u32, sub > a as u64)
}

/// `D = S0 < S1 ? S0 : S1` (signed); `SCC = 1 if S0 was chosen` (strictly less).
pub fn s_min_i32(a: u32, b: u32) -> (u32, bool) {
    let lt = (a as i32) < (b as i32);
    (if lt { a } else { b }, lt)
}

/// `D = S0 < S1 ? S0 : S1` (unsigned); `SCC = S0 < S1`.
pub fn s_min_u32(a: u32, b: u32) -> (u32, bool) {
    let lt = a < b;
    (if lt { a } else { b }, lt)
}

/// `D = S0 > S1 ? S0 : S1` (signed); `SCC = S0 > S1`.
pub fn s_max_i32(a: u32, b: u32) -> (u32, bool) {
    let gt = (a as i32) > (b as i32);
    (if gt { a } else { b }, gt)
}

/// `D = S0 > S1 ? S0 : S1` (unsigned); `SCC = S0 > S1`.
pub fn s_max_u32(a: u32, b: u32) -> (u32, bool) {
    let gt = a > b;
    (if gt { a } else { b }, gt)
}

/// `D = ((1 << S0[4:0]) - 1) << S1[4:0]`: a mask of S0 bits starting at bit S1.
pub fn s_bfm_b32(a: u32, b: u32) -> u32 {
    (1u32 << (a & 31)).wrapping_sub(1) << (b & 31)
}

/// `D = ((1 << S0[5:0]) - 1) << S1[5:0]`.
pub fn s_bfm_b64(a: u32, b: u32) -> u64 {
    (1u64 << (a & 63)).wrapping_sub(1) << (b & 63)
}

/// A mask of the low `width` bits of a 64-bit value (all ones from 64 up).
fn low_mask64(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// `D = (S0 >> S1[4:0]) & ((1 << S1[22:16]) - 1)`; `SCC = D != 0`.
///
/// The width field is 7 bits. A width of 0 gives 0; bits shifted in from above bit 31 are
/// zero, so an offset + width past 32 extracts only the bits that exist; a width ≥ 32
/// keeps every bit (the mask saturates).
pub fn s_bfe_u32(a: u32, b: u32) -> u32 {
    let off = b & 31;
    let width = (b >> 16) & 0x7f;
    ((a >> off) as u64 & low_mask64(width)) as u32
}

/// Signed `s_bfe_u32`: the field is sign-extended from its top bit (bit `width - 1` of the
/// shifted value; bits above bit 31 of S0 are copies of its sign). Width 0 gives 0.
pub fn s_bfe_i32(a: u32, b: u32) -> u32 {
    let off = b & 31;
    let width = (b >> 16) & 0x7f;
    if width == 0 {
        return 0;
    }
    let x = (a as i32) >> off;
    if width >= 32 {
        return x as u32;
    }
    ((x << (32 - width)) >> (32 - width)) as u32
}

/// `D = (S0 >> S1[5:0]) & ((1 << S1[22:16]) - 1)` on 64-bit data; `SCC = D != 0`.
pub fn s_bfe_u64(a: u64, b: u32) -> u64 {
    let off = b & 63;
    let width = (b >> 16) & 0x7f;
    (a >> off) & low_mask64(width)
}

/// Signed `s_bfe_u64`.
pub fn s_bfe_i64(a: u64, b: u32) -> u64 {
    let off = b & 63;
    let width = (b >> 16) & 0x7f;
    if width == 0 {
        return 0;
    }
    let x = (a as i64) >> off;
    if width >= 64 {
        return x as u64;
    }
    ((x << (64 - width)) >> (64 - width)) as u64
}

/// `D = S0 - S1; if D < 0 then D = -D` in 32-bit arithmetic, as the manual's pseudo-code
/// writes it (so a difference that wraps is taken as the wrapped value); `SCC = D != 0`.
pub fn s_absdiff_i32(a: u32, b: u32) -> u32 {
    (a as i32).wrapping_sub(b as i32).wrapping_abs() as u32
}

/// What an operation produces.
enum Out {
    /// A 32-bit result and, if the operation writes it, SCC.
    D32(u32, Option<bool>),
    D64(u64, Option<bool>),
}
use Out::{D32, D64};

/// `SCC = D != 0`, the rule of the logical, shift, bit-field and absdiff operations.
fn nz32(d: u32) -> Out {
    D32(d, Some(d != 0))
}
fn nz64(d: u64) -> Out {
    D64(d, Some(d != 0))
}

pub fn exec(ctx: &mut Ctx<'_>, inst: &Inst) -> Result<(), ExecErrorKind> {
    let Fields::Sop2 { sdst, ssrc0, ssrc1 } = inst.fields else {
        return Err(bad_fields(inst));
    };
    let w = &*ctx.wave;
    let lit = inst.literal;
    let a32 = || read32(w, ssrc0, lit);
    let b32 = || read32(w, ssrc1, lit);
    let a64 = || read64(w, ssrc0, lit);
    let b64 = || read64(w, ssrc1, lit);
    let scc = w.scc & 1 != 0;
    let with_scc = |(d, c): (u32, bool)| D32(d, Some(c));
    use Op::*;
    let out = match inst.op {
        SAddU32 => with_scc(s_add_u32(a32()?, b32()?)),
        SSubU32 => with_scc(s_sub_u32(a32()?, b32()?)),
        SAddI32 => with_scc(s_add_i32(a32()?, b32()?)),
        SSubI32 => with_scc(s_sub_i32(a32()?, b32()?)),
        SAddcU32 => with_scc(s_addc_u32(a32()?, b32()?, scc)),
        SSubbU32 => with_scc(s_subb_u32(a32()?, b32()?, scc)),
        SMinI32 => with_scc(s_min_i32(a32()?, b32()?)),
        SMinU32 => with_scc(s_min_u32(a32()?, b32()?)),
        SMaxI32 => with_scc(s_max_i32(a32()?, b32()?)),
        SMaxU32 => with_scc(s_max_u32(a32()?, b32()?)),
        // `D = SCC ? S0 : S1`; SCC unchanged.
        SCselectB32 => D32(if scc { a32()? } else { b32()? }, None),
        SCselectB64 => D64(if scc { a64()? } else { b64()? }, None),
        SAndB32 => nz32(a32()? & b32()?),
        SAndB64 => nz64(a64()? & b64()?),
        SOrB32 => nz32(a32()? | b32()?),
        SOrB64 => nz64(a64()? | b64()?),
        SXorB32 => nz32(a32()? ^ b32()?),
        SXorB64 => nz64(a64()? ^ b64()?),
        SAndn2B32 => nz32(a32()? & !b32()?),
        SAndn2B64 => nz64(a64()? & !b64()?),
        SOrn2B32 => nz32(a32()? | !b32()?),
        SOrn2B64 => nz64(a64()? | !b64()?),
        SNandB32 => nz32(!(a32()? & b32()?)),
        SNandB64 => nz64(!(a64()? & b64()?)),
        SNorB32 => nz32(!(a32()? | b32()?)),
        SNorB64 => nz64(!(a64()? | b64()?)),
        SXnorB32 => nz32(!(a32()? ^ b32()?)),
        SXnorB64 => nz64(!(a64()? ^ b64()?)),
        SLshlB32 => nz32(a32()? << (b32()? & 31)),
        SLshlB64 => nz64(a64()? << (b32()? & 63)),
        SLshrB32 => nz32(a32()? >> (b32()? & 31)),
        SLshrB64 => nz64(a64()? >> (b32()? & 63)),
        SAshrI32 => nz32(((a32()? as i32) >> (b32()? & 31)) as u32),
        SAshrI64 => nz64(((a64()? as i64) >> (b32()? & 63)) as u64),
        SBfmB32 => D32(s_bfm_b32(a32()?, b32()?), None),
        SBfmB64 => D64(s_bfm_b64(a32()?, b32()?), None),
        // `D = S0 * S1` (low 32 bits of the signed product, which are the same for
        // unsigned); SCC unchanged.
        SMulI32 => D32(a32()?.wrapping_mul(b32()?), None),
        SBfeU32 => nz32(s_bfe_u32(a32()?, b32()?)),
        SBfeI32 => nz32(s_bfe_i32(a32()?, b32()?)),
        SBfeU64 => nz64(s_bfe_u64(a64()?, b32()?)),
        SBfeI64 => nz64(s_bfe_i64(a64()?, b32()?)),
        SAbsdiffI32 => nz32(s_absdiff_i32(a32()?, b32()?)),
        // s_cbranch_g_fork and s_rfe_restore_b64 need the control-stack and trap
        // machinery, which this interpreter does not model.
        _ => return Err(unsupported(inst)),
    };
    let w = &mut *ctx.wave;
    let scc_out = match out {
        D32(d, c) => {
            write32(w, sdst, d)?;
            c
        }
        D64(d, c) => {
            write64(w, sdst, d)?;
            c
        }
    };
    if let Some(c) = scc_out {
        w.scc = c as u32;
    }
    Ok(())
}
