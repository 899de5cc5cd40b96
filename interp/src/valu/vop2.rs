//! Per-lane semantics of the 32-bit VOP2 operations (and their VOP3 forms), from AMD's
//! SI/CI/VI manuals as CLRX's GcnInstrsVop2 restates them. Each function is pure: bits in,
//! bits out; floats follow `crate::float` (MODE, NaN rule). The gfx8 16-bit VOP2
//! operations are in `f16.rs`.

use crate::float::{self, Mode, Round, ToInt, Val, F32};

/// `D = VCC[lane] ? S1 : S0` (a move: NaN payloads kept).
pub fn v_cndmask_b32(a: u32, b: u32, vcc: bool) -> u32 {
    if vcc {
        b
    } else {
        a
    }
}

/// `D = S0 + S1`
#[inline(always)]
pub fn v_add_f32(a: u32, b: u32, m: Mode) -> u32 {
    float::add(m.fp32(), a as u64, b as u64) as u32
}

/// `D = S0 - S1`
#[inline(always)]
pub fn v_sub_f32(a: u32, b: u32, m: Mode) -> u32 {
    float::sub(m.fp32(), a as u64, b as u64) as u32
}

/// `D = S1 - S0`
#[inline(always)]
pub fn v_subrev_f32(a: u32, b: u32, m: Mode) -> u32 {
    float::sub(m.fp32(), b as u64, a as u64) as u32
}

/// `D = S0 × S1`
#[inline(always)]
pub fn v_mul_f32(a: u32, b: u32, m: Mode) -> u32 {
    float::mul(m.fp32(), a as u64, b as u64) as u32
}

/// Whether an f32 operand is ±0.0 once MODE's input flush is applied.
fn is_zero_in(a: u32, m: Mode) -> bool {
    matches!(
        float::unpack(F32, a as u64, m.fp32().flush_in),
        Val::Zero(_)
    )
}

/// The "legacy" product (ERRATA VOP3 6): `(S0 == ±0 || S1 == ±0) ? +0.0 : S0 × S1`, even
/// when the other factor is an infinity or a NaN.
pub fn mul_legacy(a: u32, b: u32, m: Mode) -> u32 {
    if is_zero_in(a, m) || is_zero_in(b, m) {
        0
    } else {
        v_mul_f32(a, b, m)
    }
}

/// `D = S0 ×legacy S1` (ERRATA VOP3 6).
pub fn v_mul_legacy_f32(a: u32, b: u32, m: Mode) -> u32 {
    mul_legacy(a, b, m)
}

/// `D = S0 ×legacy S1 + D` (ERRATA VOP3 6 and 16): the product rounded, then the add.
pub fn v_mac_legacy_f32(a: u32, b: u32, d: u32, m: Mode) -> u32 {
    float::add(m.fp32(), mul_legacy(a, b, m) as u64, d as u64) as u32
}

/// The low 24 bits sign-extended.
pub fn sext24(x: u32) -> i32 {
    ((x << 8) as i32) >> 8
}

/// `D = i24(S0) × i24(S1)`, low 32 bits.
pub fn v_mul_i32_i24(a: u32, b: u32) -> u32 {
    (sext24(a) as i64 * sext24(b) as i64) as u32
}

/// `D = (i24(S0) × i24(S1)) >> 32` (the product's bits 47:32, sign-extended).
pub fn v_mul_hi_i32_i24(a: u32, b: u32) -> u32 {
    ((sext24(a) as i64 * sext24(b) as i64) >> 32) as u32
}

/// `D = u24(S0) × u24(S1)`, low 32 bits.
pub fn v_mul_u32_u24(a: u32, b: u32) -> u32 {
    ((a & 0xFF_FFFF) as u64 * (b & 0xFF_FFFF) as u64) as u32
}

/// `D = (u24(S0) × u24(S1)) >> 32`.
pub fn v_mul_hi_u32_u24(a: u32, b: u32) -> u32 {
    (((a & 0xFF_FFFF) as u64 * (b & 0xFF_FFFF) as u64) >> 32) as u32
}

/// The legacy (DX9) minimum: `S0 < S1 ? S0 : S1` — a NaN in S1 gives NaN, a NaN in S0
/// gives S1 (CLRX: "if SRC1 is NaN then NaN"). The result is arithmetic (NaN rule).
pub fn v_min_legacy_f32(a: u32, b: u32, m: Mode) -> u32 {
    legacy_pick(a, b, m, std::cmp::Ordering::Less)
}

/// The legacy (DX9) maximum: `S0 > S1 ? S0 : S1` (see `v_min_legacy_f32`).
pub fn v_max_legacy_f32(a: u32, b: u32, m: Mode) -> u32 {
    legacy_pick(a, b, m, std::cmp::Ordering::Greater)
}

/// `S0` when S0 compares to S1 as `keep_a` (an unordered pair never does), else `S1`;
/// canonicalised.
fn legacy_pick(a: u32, b: u32, m: Mode, keep_a: std::cmp::Ordering) -> u32 {
    let fp = m.fp32();
    let r = if float::compare(F32, fp.flush_in, a as u64, b as u64) == Some(keep_a) {
        a
    } else {
        b
    };
    float::canonical(fp, r as u64) as u32
}

/// `D = minimumNumber(S0, S1)` (float.rs: a single NaN loses, -0 < +0).
#[inline(always)]
pub fn v_min_f32(a: u32, b: u32, m: Mode) -> u32 {
    float::min_num(m.fp32(), a as u64, b as u64) as u32
}

/// `D = maximumNumber(S0, S1)`.
#[inline(always)]
pub fn v_max_f32(a: u32, b: u32, m: Mode) -> u32 {
    float::max_num(m.fp32(), a as u64, b as u64) as u32
}

/// `D = min(i32(S0), i32(S1))`
pub fn v_min_i32(a: u32, b: u32) -> u32 {
    (a as i32).min(b as i32) as u32
}

/// `D = max(i32(S0), i32(S1))`
pub fn v_max_i32(a: u32, b: u32) -> u32 {
    (a as i32).max(b as i32) as u32
}

/// `D = min(S0, S1)`
pub fn v_min_u32(a: u32, b: u32) -> u32 {
    a.min(b)
}

/// `D = max(S0, S1)`
pub fn v_max_u32(a: u32, b: u32) -> u32 {
    a.max(b)
}

/// `D = S0 >> (S1 & 31)`
pub fn v_lshr_b32(a: u32, b: u32) -> u32 {
    a >> (b & 31)
}

/// `D = S1 >> (S0 & 31)`
pub fn v_lshrrev_b32(a: u32, b: u32) -> u32 {
    b >> (a & 31)
}

/// `D = i32(S0) >> (S1 & 31)`
pub fn v_ashr_i32(a: u32, b: u32) -> u32 {
    ((a as i32) >> (b & 31)) as u32
}

/// `D = i32(S1) >> (S0 & 31)`
pub fn v_ashrrev_i32(a: u32, b: u32) -> u32 {
    ((b as i32) >> (a & 31)) as u32
}

/// `D = S0 << (S1 & 31)`
pub fn v_lshl_b32(a: u32, b: u32) -> u32 {
    a << (b & 31)
}

/// `D = S1 << (S0 & 31)`
pub fn v_lshlrev_b32(a: u32, b: u32) -> u32 {
    b << (a & 31)
}

/// `D = S0 & S1`
pub fn v_and_b32(a: u32, b: u32) -> u32 {
    a & b
}

/// `D = S0 | S1`
pub fn v_or_b32(a: u32, b: u32) -> u32 {
    a | b
}

/// `D = S0 ^ S1`
pub fn v_xor_b32(a: u32, b: u32) -> u32 {
    a ^ b
}

/// `D = ((1 << (S0 & 31)) - 1) << (S1 & 31)`
pub fn v_bfm_b32(a: u32, b: u32) -> u32 {
    ((1u32 << (a & 31)).wrapping_sub(1)) << (b & 31)
}

/// `D = S0 × S1 + D`, unfused (ERRATA VOP3 7: round after the multiply).
#[inline(always)]
pub fn v_mac_f32(a: u32, b: u32, d: u32, m: Mode) -> u32 {
    float::mad(m.fp32(), a as u64, b as u64, d as u64) as u32
}

/// `D = S0 × K + S1`, unfused; K is the literal.
pub fn v_madmk_f32(a: u32, k: u32, b: u32, m: Mode) -> u32 {
    float::mad(m.fp32(), a as u64, k as u64, b as u64) as u32
}

/// `D = S0 × S1 + K`, unfused; K is the literal.
pub fn v_madak_f32(a: u32, b: u32, k: u32, m: Mode) -> u32 {
    float::mad(m.fp32(), a as u64, b as u64, k as u64) as u32
}

/// `D = popcount(S0) + S1`
pub fn v_bcnt_u32_b32(a: u32, b: u32) -> u32 {
    a.count_ones().wrapping_add(b)
}

/// `D = popcount(S0 & lanes below this one, low half) + S1`
pub fn v_mbcnt_lo_u32_b32(lane: usize, a: u32, b: u32) -> u32 {
    let below = (1u64 << (lane & 63)) - 1;
    (a & below as u32).count_ones().wrapping_add(b)
}

/// `D = popcount(S0 & lanes below this one, high half) + S1`
pub fn v_mbcnt_hi_u32_b32(lane: usize, a: u32, b: u32) -> u32 {
    let below = (1u64 << (lane & 63)) - 1;
    (a & (below >> 32) as u32).count_ones().wrapping_add(b)
}

/// `D = S0 + S1`, carry out; with CLAMP the sum saturates at 0xFFFFFFFF.
pub fn v_add_u32(a: u32, b: u32, clamp: bool) -> (u32, bool) {
    let (r, c) = a.overflowing_add(b);
    (if clamp && c { u32::MAX } else { r }, c)
}

/// `D = S0 - S1`, borrow out; with CLAMP an underflow gives 0.
pub fn v_sub_u32(a: u32, b: u32, clamp: bool) -> (u32, bool) {
    let (r, c) = a.overflowing_sub(b);
    (if clamp && c { 0 } else { r }, c)
}

/// `D = S1 - S0`, borrow out.
pub fn v_subrev_u32(a: u32, b: u32, clamp: bool) -> (u32, bool) {
    v_sub_u32(b, a, clamp)
}

/// `D = S0 + S1 + carry_in`, carry out.
pub fn v_addc_u32(a: u32, b: u32, cin: bool, clamp: bool) -> (u32, bool) {
    let t = a as u64 + b as u64 + cin as u64;
    let c = t >> 32 != 0;
    (if clamp && c { u32::MAX } else { t as u32 }, c)
}

/// `D = S0 - S1 - borrow_in`, borrow out.
pub fn v_subb_u32(a: u32, b: u32, bin: bool, clamp: bool) -> (u32, bool) {
    let t = (a as u64).wrapping_sub(b as u64).wrapping_sub(bin as u64);
    let c = t >> 32 != 0;
    (if clamp && c { 0 } else { t as u32 }, c)
}

/// `D = S1 - S0 - borrow_in`, borrow out.
pub fn v_subbrev_u32(a: u32, b: u32, bin: bool, clamp: bool) -> (u32, bool) {
    v_subb_u32(b, a, bin, clamp)
}

/// `D = S0 × 2^i32(S1)`, rounded once.
pub fn v_ldexp_f32(a: u32, b: u32, m: Mode) -> u32 {
    float::ldexp(m.fp32(), a as u64, b as i32) as u32
}

/// f32 → u8 for the packing conversions: rounded to an integer in the MODE's f32
/// direction, clamped to [0, 255]; NaN → 0.
fn f32_to_u8(a: u32, m: Mode) -> u32 {
    let fp = m.fp32();
    let how = match fp.round {
        Round::NearestEven => ToInt::NearestEven,
        Round::Up => ToInt::Ceil,
        Round::Down => ToInt::Floor,
        Round::Zero => ToInt::Trunc,
    };
    float::to_int(F32, fp.flush_in, a as u64, how).map_or(0, |v| v.clamp(0, 255) as u32)
}

/// `D = (D & ~(0xFF << 8k)) | u8(S0) << 8k`, `k = S1 & 3` (u8: rounded per MODE, clamped).
pub fn v_cvt_pkaccum_u8_f32(a: u32, b: u32, d: u32, m: Mode) -> u32 {
    let sh = (b & 3) * 8;
    (d & !(0xFF << sh)) | f32_to_u8(a, m) << sh
}

/// `x × scale` computed exactly, rounded to the nearest integer (ties to even) and
/// clamped to `[lo, hi]`; NaN → 0. (The product of an f32 and a 16-bit integer is exact
/// in f64.)
fn norm16(a: u32, m: Mode, scale: f64, lo: f64, hi: f64) -> u32 {
    // A denormal input scales to far below 1/2: flushing it or not gives the same 0.
    let _ = m;
    let x = f32::from_bits(a) as f64;
    if x.is_nan() {
        return 0;
    }
    let p = (x * scale).clamp(lo, hi);
    let r = float::to_int(float::F64, false, p.to_bits(), ToInt::NearestEven).unwrap_or(0);
    r as i32 as u32 & 0xFFFF
}

/// `D = {snorm16(S1), snorm16(S0)}`: each `x × 32767`, rounded to nearest even, clamped to
/// [-32767, 32767]; NaN → 0.
pub fn v_cvt_pknorm_i16_f32(a: u32, b: u32, m: Mode) -> u32 {
    norm16(a, m, 32767.0, -32767.0, 32767.0) | norm16(b, m, 32767.0, -32767.0, 32767.0) << 16
}

/// `D = {unorm16(S1), unorm16(S0)}`: each `x × 65535`, rounded to nearest even, clamped to
/// [0, 65535]; NaN → 0.
pub fn v_cvt_pknorm_u16_f32(a: u32, b: u32, m: Mode) -> u32 {
    norm16(a, m, 65535.0, 0.0, 65535.0) | norm16(b, m, 65535.0, 0.0, 65535.0) << 16
}

/// f32 → f16 rounding toward zero (inputs flushed per the f32 MODE bits, outputs per the
/// f16 ones).
fn f32_to_f16_rtz(a: u32, m: Mode) -> u32 {
    let to = m.fp16().with_round(Round::Zero);
    float::convert(F32, m.fp32().flush_in, to, a as u64) as u32
}

/// `D = {f16_rtz(S1), f16_rtz(S0)}`
pub fn v_cvt_pkrtz_f16_f32(a: u32, b: u32, m: Mode) -> u32 {
    f32_to_f16_rtz(a, m) | f32_to_f16_rtz(b, m) << 16
}

/// `D = {min(S1, 0xFFFF), min(S0, 0xFFFF)}`
pub fn v_cvt_pk_u16_u32(a: u32, b: u32) -> u32 {
    a.min(0xFFFF) | b.min(0xFFFF) << 16
}

/// `D = {clamp_i16(S1), clamp_i16(S0)}`
pub fn v_cvt_pk_i16_i32(a: u32, b: u32) -> u32 {
    let c = |x: u32| (x as i32).clamp(-32768, 32767) as u32 & 0xFFFF;
    c(a) | c(b) << 16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_examples() {
        assert_eq!(v_mul_i32_i24(0x00FF_FFFF, 2), (-2i32) as u32);
        assert_eq!(v_mul_hi_i32_i24(0x0080_0000, 0x0080_0000), 0x4000);
        assert_eq!(v_bfm_b32(4, 8), 0xF00);
        assert_eq!(v_bfm_b32(0, 8), 0);
        assert_eq!(v_add_u32(u32::MAX, 1, false), (0, true));
        assert_eq!(v_add_u32(u32::MAX, 1, true), (u32::MAX, true));
        assert_eq!(v_subb_u32(0, 0, true, false), (u32::MAX, true));
        assert_eq!(v_cvt_pk_i16_i32(70000, (-70000i32) as u32), 0x8000_7FFF);
        assert_eq!(v_mbcnt_lo_u32_b32(5, 0xFF, 1), 6);
        assert_eq!(v_mbcnt_hi_u32_b32(34, u32::MAX, 0), 2);
        assert_eq!(v_mbcnt_hi_u32_b32(20, u32::MAX, 0), 0);
    }
}
