//! Per-lane semantics of GCN 1.2's 16-bit operations (f16, i16, u16): they read the low
//! 16 bits of their operands and write the low 16 bits of VDST, zeroing the high bits
//! (ERRATA VOP3 12; the driver does the zeroing and SDWA's DST_SEL placement). f16 follows
//! MODE's f64/f16 controls (bits 3:2 and 7:6). Operations that exist for several
//! precisions (floor, rcp, sin, …) are the generic functions of `vop1.rs` called with
//! `Mode::fp16()`.

use crate::float::{self, Mode, ToInt, Val, F16};

/// `D = S0 + S1` (f16)
pub fn v_add_f16(a: u16, b: u16, m: Mode) -> u16 {
    float::add(m.fp16(), a as u64, b as u64) as u16
}

/// `D = S0 - S1` (f16)
pub fn v_sub_f16(a: u16, b: u16, m: Mode) -> u16 {
    float::sub(m.fp16(), a as u64, b as u64) as u16
}

/// `D = S1 - S0` (f16)
pub fn v_subrev_f16(a: u16, b: u16, m: Mode) -> u16 {
    float::sub(m.fp16(), b as u64, a as u64) as u16
}

/// `D = S0 × S1` (f16)
pub fn v_mul_f16(a: u16, b: u16, m: Mode) -> u16 {
    float::mul(m.fp16(), a as u64, b as u64) as u16
}

/// `D = S0 × S1 + S2` (f16), unfused: V_MAD_F16, V_MAC_F16 (S2 = D), V_MADMK_F16
/// (S1 = K), V_MADAK_F16 (S2 = K).
pub fn v_mad_f16(a: u16, b: u16, c: u16, m: Mode) -> u16 {
    float::mad(m.fp16(), a as u64, b as u64, c as u64) as u16
}

/// `D = fma(S0, S1, S2)` (f16), rounded once.
pub fn v_fma_f16(a: u16, b: u16, c: u16, m: Mode) -> u16 {
    float::fma(m.fp16(), a as u64, b as u64, c as u64) as u16
}

/// `D = minimumNumber(S0, S1)` (f16)
pub fn v_min_f16(a: u16, b: u16, m: Mode) -> u16 {
    float::min_num(m.fp16(), a as u64, b as u64) as u16
}

/// `D = maximumNumber(S0, S1)` (f16)
pub fn v_max_f16(a: u16, b: u16, m: Mode) -> u16 {
    float::max_num(m.fp16(), a as u64, b as u64) as u16
}

/// `D = S0 × 2^i16(S1)` (f16)
pub fn v_ldexp_f16(a: u16, b: u16, m: Mode) -> u16 {
    float::ldexp(m.fp16(), a as u64, b as i16 as i32) as u16
}

/// `D = S0 + S1` (u16); CLAMP saturates at 0xFFFF.
pub fn v_add_u16(a: u16, b: u16, clamp: bool) -> u16 {
    if clamp {
        a.saturating_add(b)
    } else {
        a.wrapping_add(b)
    }
}

/// `D = S0 - S1` (u16); CLAMP saturates at 0.
pub fn v_sub_u16(a: u16, b: u16, clamp: bool) -> u16 {
    if clamp {
        a.saturating_sub(b)
    } else {
        a.wrapping_sub(b)
    }
}

/// `D = S1 - S0` (u16)
pub fn v_subrev_u16(a: u16, b: u16, clamp: bool) -> u16 {
    v_sub_u16(b, a, clamp)
}

/// `D = (S0 × S1)[15:0]`
pub fn v_mul_lo_u16(a: u16, b: u16) -> u16 {
    a.wrapping_mul(b)
}

/// `D = S1 << (S0 & 15)`
pub fn v_lshlrev_b16(a: u16, b: u16) -> u16 {
    b << (a & 15)
}

/// `D = S1 >> (S0 & 15)`
pub fn v_lshrrev_b16(a: u16, b: u16) -> u16 {
    b >> (a & 15)
}

/// `D = i16(S1) >> (S0 & 15)`
pub fn v_ashrrev_i16(a: u16, b: u16) -> u16 {
    ((b as i16) >> (a & 15)) as u16
}

/// `D = max(S0, S1)` (u16)
pub fn v_max_u16(a: u16, b: u16) -> u16 {
    a.max(b)
}

/// `D = max(i16(S0), i16(S1))`
pub fn v_max_i16(a: u16, b: u16) -> u16 {
    (a as i16).max(b as i16) as u16
}

/// `D = min(S0, S1)` (u16)
pub fn v_min_u16(a: u16, b: u16) -> u16 {
    a.min(b)
}

/// `D = min(i16(S0), i16(S1))`
pub fn v_min_i16(a: u16, b: u16) -> u16 {
    (a as i16).min(b as i16) as u16
}

/// `D = S0 × S1 + S2` (u16); CLAMP saturates the full sum at 0xFFFF.
pub fn v_mad_u16(a: u16, b: u16, c: u16, clamp: bool) -> u16 {
    let t = a as u32 * b as u32 + c as u32;
    if clamp {
        t.min(0xFFFF) as u16
    } else {
        t as u16
    }
}

/// `D = i16(S0) × i16(S1) + i16(S2)`; CLAMP saturates to [-32768, 32767].
pub fn v_mad_i16(a: u16, b: u16, c: u16, clamp: bool) -> u16 {
    let t = a as i16 as i32 * b as i16 as i32 + c as i16 as i32;
    if clamp {
        t.clamp(-32768, 32767) as u16
    } else {
        t as u16
    }
}

/// `D = f16(S0)` (u16 → f16, rounded per MODE)
pub fn v_cvt_f16_u16(a: u16, m: Mode) -> u16 {
    float::from_int(m.fp16(), a as i128) as u16
}

/// `D = f16(i16(S0))`
pub fn v_cvt_f16_i16(a: u16, m: Mode) -> u16 {
    float::from_int(m.fp16(), a as i16 as i128) as u16
}

/// `D = u16(trunc(S0))`, saturated; NaN → 0.
pub fn v_cvt_u16_f16(a: u16, m: Mode) -> u16 {
    float::to_int(F16, m.fp16().flush_in, a as u64, ToInt::Trunc)
        .map_or(0, |v| v.clamp(0, 0xFFFF) as u16)
}

/// `D = i16(trunc(S0))`, saturated; NaN → 0.
pub fn v_cvt_i16_f16(a: u16, m: Mode) -> u16 {
    float::to_int(F16, m.fp16().flush_in, a as u64, ToInt::Trunc)
        .map_or(0, |v| v.clamp(-32768, 32767) as u16)
}

/// `D = frexp_exp(S0)` as i16; 0 for zeros, infinities and NaN (CLRX).
pub fn v_frexp_exp_i16_f16(a: u16, m: Mode) -> u16 {
    match float::unpack(F16, a as u64, m.fp16().flush_in) {
        Val::Fin { exp, sig, .. } => (exp + 128 - sig.leading_zeros() as i32) as u16,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_examples() {
        let m = Mode(0xC0);
        // 1.0 + 2.0 = 3.0: 0x3C00 + 0x4000 = 0x4200.
        assert_eq!(v_add_f16(0x3C00, 0x4000, m), 0x4200);
        assert_eq!(v_add_u16(0xFFFF, 2, false), 1);
        assert_eq!(v_add_u16(0xFFFF, 2, true), 0xFFFF);
        assert_eq!(v_sub_u16(1, 2, true), 0);
        assert_eq!(v_ashrrev_i16(17, 0x8000), 0xC000); // shift 17 & 15 = 1
        assert_eq!(v_mad_i16(0x7FFF, 2, 0, true), 0x7FFF);
        assert_eq!(v_cvt_i16_f16(0xFC00, m), 0x8000); // -inf saturates
        assert_eq!(v_cvt_f16_u16(2049, m), 0x6800); // 2049 ties to 2048
        assert_eq!(v_frexp_exp_i16_f16(0x4400, m), 3); // 4.0 = 0.5 × 2^3
    }
}
