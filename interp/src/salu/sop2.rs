//! SOP2: scalar operations with two sources (AMD SI/CI/GCN3 ISA manuals, "SOP2
//! Instructions"). One pure function per operation, returning the result and, where the
//! operation writes it, the new SCC (`super::adapt` says how a function's signature is
//! read); the table's `interp` column names the function of each operation.
//!
//! Shift amounts and bit-field offsets use the low 5 bits (6 for 64-bit data) of their
//! operand, as the manuals' `S1.u[4:0]` says: a shift by 33 is a shift by 1.

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

/// `D = SCC ? S0 : S1`; SCC unchanged.
pub fn s_cselect_b32(a: u32, b: u32, scc: bool) -> u32 {
    if scc {
        a
    } else {
        b
    }
}

/// `D = SCC ? S0 : S1` on 64 bits.
pub fn s_cselect_b64(a: u64, b: u64, scc: bool) -> u64 {
    if scc {
        a
    } else {
        b
    }
}

/// `D = S0 * S1`: the low 32 bits of the signed product, which are the same for unsigned;
/// SCC unchanged.
pub fn s_mul_i32(a: u32, b: u32) -> u32 {
    a.wrapping_mul(b)
}

// The bitwise operations; `SCC = D != 0` (the `sop2_nz` adapter).

pub fn s_and_b32(a: u32, b: u32) -> u32 {
    a & b
}
pub fn s_and_b64(a: u64, b: u64) -> u64 {
    a & b
}
pub fn s_or_b32(a: u32, b: u32) -> u32 {
    a | b
}
pub fn s_or_b64(a: u64, b: u64) -> u64 {
    a | b
}
pub fn s_xor_b32(a: u32, b: u32) -> u32 {
    a ^ b
}
pub fn s_xor_b64(a: u64, b: u64) -> u64 {
    a ^ b
}
pub fn s_andn2_b32(a: u32, b: u32) -> u32 {
    a & !b
}
pub fn s_andn2_b64(a: u64, b: u64) -> u64 {
    a & !b
}
pub fn s_orn2_b32(a: u32, b: u32) -> u32 {
    a | !b
}
pub fn s_orn2_b64(a: u64, b: u64) -> u64 {
    a | !b
}
pub fn s_nand_b32(a: u32, b: u32) -> u32 {
    !(a & b)
}
pub fn s_nand_b64(a: u64, b: u64) -> u64 {
    !(a & b)
}
pub fn s_nor_b32(a: u32, b: u32) -> u32 {
    !(a | b)
}
pub fn s_nor_b64(a: u64, b: u64) -> u64 {
    !(a | b)
}
pub fn s_xnor_b32(a: u32, b: u32) -> u32 {
    !(a ^ b)
}
pub fn s_xnor_b64(a: u64, b: u64) -> u64 {
    !(a ^ b)
}

// Shifts by S1[4:0] (S1[5:0] for 64-bit data); `SCC = D != 0`.

pub fn s_lshl_b32(a: u32, b: u32) -> u32 {
    a << (b & 31)
}
pub fn s_lshl_b64(a: u64, b: u32) -> u64 {
    a << (b & 63)
}
pub fn s_lshr_b32(a: u32, b: u32) -> u32 {
    a >> (b & 31)
}
pub fn s_lshr_b64(a: u64, b: u32) -> u64 {
    a >> (b & 63)
}
pub fn s_ashr_i32(a: u32, b: u32) -> u32 {
    ((a as i32) >> (b & 31)) as u32
}
pub fn s_ashr_i64(a: u64, b: u32) -> u64 {
    ((a as i64) >> (b & 63)) as u64
}
