//! Per-lane semantics of the VOP3-only operations of 003_5ccf112c12817a33.txt (GCN 1.0/1.1
//! and 1.2 tables), with ERRATA VOP3 1-16 applied; where 003 gives no pseudo-code, AMD's
//! manuals (as CLRX's GcnInstrsVop3 and AMD's later published pseudo-code restate them).
//! The f16/i16/u16 ones of GCN 1.2 are in `f16.rs`.

use std::cmp::Ordering;

use super::vop2::{mul_legacy, sext24};
use crate::float::{self, Format, Fp, Mode, Round, ToInt, Val, F32, F64};

/// `D = S0 ×legacy S1 + S2` (ERRATA VOP3 6: a ±0 factor makes the product +0.0), unfused.
pub fn v_mad_legacy_f32(a: u32, b: u32, c: u32, m: Mode) -> u32 {
    float::add(m.fp32(), mul_legacy(a, b, m) as u64, c as u64) as u32
}

/// `D = S0 × S1 + S2`, unfused (ERRATA VOP3 7).
#[inline(always)]
pub fn v_mad_f32(a: u32, b: u32, c: u32, m: Mode) -> u32 {
    float::mad(m.fp32(), a as u64, b as u64, c as u64) as u32
}

/// `D = i24(S0) × i24(S1) + S2` (ERRATA VOP3 8: the second factor is SRC1).
pub fn v_mad_i32_i24(a: u32, b: u32, c: u32) -> u32 {
    (sext24(a).wrapping_mul(sext24(b)) as u32).wrapping_add(c)
}

/// `D = u24(S0) × u24(S1) + S2`
pub fn v_mad_u32_u24(a: u32, b: u32, c: u32) -> u32 {
    ((a & 0xFF_FFFF).wrapping_mul(b & 0xFF_FFFF)).wrapping_add(c)
}

/// Which axis is the major one in V_CUBE*: `|z| ≥ |y| && |z| ≥ |x|` → 2, else `|y| ≥ |x|`
/// → 1, else 0 (IEEE comparisons: a NaN compares false).
fn cube_axis(x: u32, y: u32, z: u32, m: Mode) -> usize {
    let fp = m.fp32();
    let ge = |p: u32, q: u32| {
        matches!(
            float::compare(F32, fp.flush_in, F32.abs(p as u64), F32.abs(q as u64)),
            Some(Ordering::Greater | Ordering::Equal)
        )
    };
    if ge(z, y) && ge(z, x) {
        2
    } else if ge(y, x) {
        1
    } else {
        0
    }
}

/// `SIGN(v) × w` of the cube pseudo-code: ±1.0 by the sign bit of `v` (ERRATA VOP3 9).
fn sign_times(v: u32, w: u32, m: Mode) -> u32 {
    float::mul(m.fp32(), F32.one(v >> 31 != 0), w as u64) as u32
}

/// `D = face id`: major axis 2 (z) → 4/5, 1 (y) → 2/3, 0 (x) → 0/1; the even face when that
/// coordinate is ≥ 0.0 (IEEE, so -0.0 too), the odd one otherwise.
pub fn v_cubeid_f32(x: u32, y: u32, z: u32, m: Mode) -> u32 {
    let axis = cube_axis(x, y, z, m);
    let v = [x, y, z][axis];
    let nonneg = matches!(
        float::compare(F32, m.fp32().flush_in, v as u64, 0),
        Some(Ordering::Greater | Ordering::Equal)
    );
    ((2 * axis + !nonneg as usize) as f32).to_bits()
}

/// `D = SIGN(z)·x | x | -SIGN(x)·z` for major axis z | y | x.
pub fn v_cubesc_f32(x: u32, y: u32, z: u32, m: Mode) -> u32 {
    match cube_axis(x, y, z, m) {
        2 => sign_times(z, x, m),
        1 => sign_times(0, x, m),
        _ => sign_times(x ^ 0x8000_0000, z, m),
    }
}

/// `D = -y | SIGN(y)·z | -y` for major axis z | y | x.
pub fn v_cubetc_f32(x: u32, y: u32, z: u32, m: Mode) -> u32 {
    match cube_axis(x, y, z, m) {
        1 => sign_times(y, z, m),
        _ => sign_times(0x8000_0000, y, m),
    }
}

/// `D = 2 × (major axis coordinate)`
pub fn v_cubema_f32(x: u32, y: u32, z: u32, m: Mode) -> u32 {
    let v = [x, y, z][cube_axis(x, y, z, m)];
    float::mul(m.fp32(), 0x4000_0000, v as u64) as u32
}

/// `D = S0 >> (S1 & 31)` zero-extended from `S2 & 31` bits; length 0 gives 0 (ERRATA VOP3 5);
/// `shift + length ≥ 32` takes every bit above `shift`.
pub fn v_bfe_u32(a: u32, b: u32, c: u32) -> u32 {
    let (shift, len) = (b & 31, c & 31);
    if len == 0 {
        0
    } else if shift + len < 32 {
        (a << (32 - shift - len)) >> (32 - len)
    } else {
        a >> shift
    }
}

/// As `v_bfe_u32`, sign-extended from the field's top bit.
pub fn v_bfe_i32(a: u32, b: u32, c: u32) -> u32 {
    let (shift, len) = (b & 31, c & 31);
    if len == 0 {
        0
    } else if shift + len < 32 {
        (((a << (32 - shift - len)) as i32) >> (32 - len)) as u32
    } else {
        ((a as i32) >> shift) as u32
    }
}

/// `D = (S0 & S1) | (~S0 & S2)`
pub fn v_bfi_b32(a: u32, b: u32, c: u32) -> u32 {
    (a & b) | (!a & c)
}

/// `D = fma(S0, S1, S2)`, rounded once.
#[inline(always)]
pub fn v_fma_f32(a: u32, b: u32, c: u32, m: Mode) -> u32 {
    float::fma(m.fp32(), a as u64, b as u64, c as u64) as u32
}

/// `D = fma(S0, S1, S2)` in f64.
#[inline(always)]
pub fn v_fma_f64(a: u64, b: u64, c: u64, m: Mode) -> u64 {
    float::fma(m.fp64(), a, b, c)
}

/// Per byte: `(S0.b + S1.b + (S2.b & 1)) >> 1`.
pub fn v_lerp_u8(a: u32, b: u32, c: u32) -> u32 {
    (0..4).fold(0, |d, i| {
        let s = |x: u32| (x >> (8 * i)) & 0xFF;
        d | (((s(a) + s(b) + (s(c) & 1)) >> 1) << (8 * i))
    })
}

/// `D = ({S0, S1} >> (S2 & 31))[31:0]`
pub fn v_alignbit_b32(a: u32, b: u32, c: u32) -> u32 {
    ((((a as u64) << 32) | b as u64) >> (c & 31)) as u32
}

/// `D = ({S0, S1} >> 8 × (S2 & 3))[31:0]`
pub fn v_alignbyte_b32(a: u32, b: u32, c: u32) -> u32 {
    ((((a as u64) << 32) | b as u64) >> (8 * (c & 3))) as u32
}

/// `D = S2 > 0 ? S0 ×legacy S1 : -MAX_FLOAT` (003).
pub fn v_mullit_f32(a: u32, b: u32, c: u32, m: Mode) -> u32 {
    match float::compare(F32, m.fp32().flush_in, c as u64, 0) {
        Some(Ordering::Greater) => mul_legacy(a, b, m),
        _ => F32.max_finite(true) as u32,
    }
}

/// `D = MIN3(S0, S1, S2)` = min(min(S0, S1), S2) with the minNum NaN rule (ERRATA VOP3 10).
#[inline(always)]
pub fn min3(fp: Fp, a: u64, b: u64, c: u64) -> u64 {
    float::min_num(fp, float::min_num(fp, a, b), c)
}

/// `D = MAX3(S0, S1, S2)`
#[inline(always)]
pub fn max3(fp: Fp, a: u64, b: u64, c: u64) -> u64 {
    float::max_num(fp, float::max_num(fp, a, b), c)
}

/// `D = MED3(S0, S1, S2)`; with any NaN the MIN3 of the operands (ERRATA VOP3 10).
#[inline(always)]
pub fn med3(fp: Fp, a: u64, b: u64, c: u64) -> u64 {
    // min_num/max_num canonicalise their operands first; done once here, the picks take
    // the canonical values as they are. `canonical` keeps a NaN a NaN and anything else
    // not a NaN, so the NaN test may follow it.
    let f = fp.fmt;
    let (a, b, c) = (
        float::canonical(fp, a),
        float::canonical(fp, b),
        float::canonical(fp, c),
    );
    let pick = float::pick_canonical;
    if f.is_nan(a) || f.is_nan(b) || f.is_nan(c) {
        return pick(f, pick(f, a, b, true), c, true);
    }
    // max(min(a, b), min(max(a, b), c))
    let lo = pick(f, a, b, true);
    let hi = pick(f, a, b, false);
    pick(f, lo, pick(f, hi, c, true), false)
}

/// Integer MIN3/MAX3/MED3 on a total order.
pub fn min3_int<T: Ord>(a: T, b: T, c: T) -> T {
    a.min(b).min(c)
}
pub fn max3_int<T: Ord>(a: T, b: T, c: T) -> T {
    a.max(b).max(c)
}
pub fn med3_int<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.min(b).max(a.max(b).min(c))
}

fn byte(x: u32, i: u32) -> u32 {
    (x >> (8 * i)) & 0xFF
}

/// Σ |S0.b - S1.b| over the four bytes.
fn sad4(a: u32, b: u32) -> u32 {
    (0..4).map(|i| byte(a, i).abs_diff(byte(b, i))).sum()
}

/// Σ |S0.b - S1.b| over the bytes where S1.b ≠ 0.
fn msad4(a: u32, b: u32) -> u32 {
    (0..4)
        .filter(|&i| byte(b, i) != 0)
        .map(|i| byte(a, i).abs_diff(byte(b, i)))
        .sum()
}

/// `D = S2 + Σ |S0.b - S1.b|`
pub fn v_sad_u8(a: u32, b: u32, c: u32) -> u32 {
    c.wrapping_add(sad4(a, b))
}

/// `D = S2 + (Σ |S0.b - S1.b|) << 16`
pub fn v_sad_hi_u8(a: u32, b: u32, c: u32) -> u32 {
    c.wrapping_add(sad4(a, b) << 16)
}

/// `D = S2 + Σ |S0.h - S1.h|` over the two 16-bit halves.
pub fn v_sad_u16(a: u32, b: u32, c: u32) -> u32 {
    let h = |x: u32, i: u32| (x >> (16 * i)) & 0xFFFF;
    c.wrapping_add(h(a, 0).abs_diff(h(b, 0)))
        .wrapping_add(h(a, 1).abs_diff(h(b, 1)))
}

/// `D = S2 + |S0 - S1|`
pub fn v_sad_u32(a: u32, b: u32, c: u32) -> u32 {
    c.wrapping_add(a.abs_diff(b))
}

/// `D = S2 + Σ_{S1.b ≠ 0} |S0.b - S1.b|`
pub fn v_msad_u8(a: u32, b: u32, c: u32) -> u32 {
    c.wrapping_add(msad4(a, b))
}

/// `D = (S2 & ~(0xFF << 8k)) | u8(S0) << 8k`, `k = S1 & 3` (u8: rounded per MODE, clamped).
pub fn v_cvt_pk_u8_f32(a: u32, b: u32, c: u32, m: Mode) -> u32 {
    super::vop2::v_cvt_pkaccum_u8_f32(a, b, c, m)
}

/// Quad SAD with 16-bit accumulators: for n in 0..4, `D.h[n] = S2.h[n] + SAD(S0[8n+31:8n],
/// S1)` (16-bit wrap-around); `masked` skips bytes where S1.b = 0 (V_MQSAD).
pub fn qsad_pk_u16_u8(a: u64, b: u32, c: u64, masked: bool) -> u64 {
    (0..4).fold(0u64, |d, n| {
        let s = (a >> (8 * n)) as u32;
        let sad = if masked { msad4(s, b) } else { sad4(s, b) };
        let acc = ((c >> (16 * n)) as u32).wrapping_add(sad) & 0xFFFF;
        d | (acc as u64) << (16 * n)
    })
}

/// `V_MQSAD_U32_U8`: for n in 0..4, `D.d[n] = S2.d[n] + MSAD(S0[8n+31:8n], S1)` (32-bit
/// wrap-around); `c` and the result are four dwords, low first.
pub fn v_mqsad_u32_u8(a: u64, b: u32, c: [u32; 4]) -> [u32; 4] {
    let mut d = [0u32; 4];
    for (n, x) in d.iter_mut().enumerate() {
        *x = c[n].wrapping_add(msad4((a >> (8 * n)) as u32, b));
    }
    d
}

/// `D = S0 << (S1 & 63)` (64-bit)
pub fn v_lshl_b64(a: u64, b: u32) -> u64 {
    a << (b & 63)
}

/// `D = S0 >> (S1 & 63)` (64-bit)
pub fn v_lshr_b64(a: u64, b: u32) -> u64 {
    a >> (b & 63)
}

/// `D = i64(S0) >> (S1 & 63)`
pub fn v_ashr_i64(a: u64, b: u32) -> u64 {
    ((a as i64) >> (b & 63)) as u64
}

/// `D = S1 << (S0 & 63)` (64-bit)
pub fn v_lshlrev_b64(a: u32, b: u64) -> u64 {
    b << (a & 63)
}

/// `D = S1 >> (S0 & 63)` (64-bit)
pub fn v_lshrrev_b64(a: u32, b: u64) -> u64 {
    b >> (a & 63)
}

/// `D = i64(S1) >> (S0 & 63)`
pub fn v_ashrrev_i64(a: u32, b: u64) -> u64 {
    ((b as i64) >> (a & 63)) as u64
}

/// `D = S0 + S1` (f64)
pub fn v_add_f64(a: u64, b: u64, m: Mode) -> u64 {
    float::add(m.fp64(), a, b)
}

/// `D = S0 × S1` (f64)
pub fn v_mul_f64(a: u64, b: u64, m: Mode) -> u64 {
    float::mul(m.fp64(), a, b)
}

/// `D = minimumNumber(S0, S1)` (f64)
#[inline(always)]
pub fn v_min_f64(a: u64, b: u64, m: Mode) -> u64 {
    float::min_num(m.fp64(), a, b)
}

/// `D = maximumNumber(S0, S1)` (f64)
#[inline(always)]
pub fn v_max_f64(a: u64, b: u64, m: Mode) -> u64 {
    float::max_num(m.fp64(), a, b)
}

/// `D = S0 × 2^i32(S1)` (f64)
pub fn v_ldexp_f64(a: u64, b: u32, m: Mode) -> u64 {
    float::ldexp(m.fp64(), a, b as i32)
}

/// `D = (S0 × S1)[31:0]`
pub fn v_mul_lo_u32(a: u32, b: u32) -> u32 {
    a.wrapping_mul(b)
}

/// `D = (S0 × S1)[63:32]`, unsigned
pub fn v_mul_hi_u32(a: u32, b: u32) -> u32 {
    ((a as u64 * b as u64) >> 32) as u32
}

/// `D = (i32(S0) × i32(S1))[31:0]`
pub fn v_mul_lo_i32(a: u32, b: u32) -> u32 {
    (a as i32).wrapping_mul(b as i32) as u32
}

/// `D = (i32(S0) × i32(S1))[63:32]`
pub fn v_mul_hi_i32(a: u32, b: u32) -> u32 {
    ((a as i32 as i64 * b as i32 as i64) >> 32) as u32
}

/// `{VCC, D} = S0 × S1 + S2` as 65 bits: the carry of the unsigned 64-bit sum.
pub fn v_mad_u64_u32(a: u32, b: u32, c: u64) -> (u64, bool) {
    let t = a as u128 * b as u128 + c as u128;
    (t as u64, t >> 64 != 0)
}

/// `{VCC, D} = i32(S0) × i32(S1) + i64(S2)` as a 65-bit signed value: VCC is its bit 64
/// (AMD's pseudo-code `65'I(...)`: the sign of the exact result).
pub fn v_mad_i64_i32(a: u32, b: u32, c: u64) -> (u64, bool) {
    let t = a as i32 as i128 * b as i32 as i128 + c as i64 as i128;
    (t as u64, (t >> 64) & 1 != 0)
}

/// The biased exponent field.
fn exponent(f: Format, x: u64) -> i64 {
    f.biased_exp(x) as i64
}

/// V_DIV_FIXUP (both precisions): S0 quotient, S1 denominator, S2 numerator. AMD's
/// pseudo-code (GCN3/Vega manuals), with the NaN-quotient case that hardware shows
/// (CLRX, and later AMD pseudo-code): a NaN quotient of finite operands gives ±inf.
///
/// ```text
/// sign_out = sign(S1) ^ sign(S2)
/// S2 or S1 NaN            → NaN
/// S1 = S2 = 0, |S1| = |S2| = inf → NaN
/// S1 = 0 or |S2| = inf    → ±inf
/// |S1| = inf or S2 = 0    → ±0
/// exponent(S2) - exponent(S1) < -(bias + mantissa bits) → ±0 (underflow)
/// S0 NaN                  → ±inf
/// otherwise               → sign_out ? -|S0| : |S0|
/// ```
pub fn div_fixup(fp: Fp, a: u64, b: u64, c: u64) -> u64 {
    let f = fp.fmt;
    let sign_out = f.is_neg(b) != f.is_neg(c);
    let (vb, vc) = (
        float::unpack(f, b, fp.flush_in),
        float::unpack(f, c, fp.flush_in),
    );
    let zero = |v: Val| matches!(v, Val::Zero(_));
    let inf = |v: Val| matches!(v, Val::Inf(_));
    let underflow = exponent(f, c) - exponent(f, b) < -((f.bias() + f.man_bits as i32) as i64);
    if matches!(vb, Val::Nan)
        || matches!(vc, Val::Nan)
        || (zero(vb) && zero(vc))
        || (inf(vb) && inf(vc))
    {
        f.qnan()
    } else if zero(vb) || inf(vc) {
        f.inf(sign_out)
    } else if inf(vb) || zero(vc) || underflow {
        f.zero(sign_out)
    } else if f.is_nan(a) {
        f.inf(sign_out)
    } else {
        let mag = float::canonical(fp, f.abs(a));
        if sign_out {
            mag | f.sign_bit()
        } else {
            mag
        }
    }
}

/// V_DIV_SCALE (both precisions), AMD's published pseudo-code taken literally: S0 the value
/// to scale (equal to S1 or S2), S1 the denominator, S2 the numerator; returns `(D, VCC)`.
/// `DENORM` means a nonzero subnormal; `exponent` the biased exponent field; `ldexp` is
/// rounded per MODE; "D = S0" is S0 with the NaN rule applied.
///
/// ```text
/// VCC = 0
/// if S2 == 0 || S1 == 0                       D = NaN
/// elif exponent(S2) - exponent(S1) >= K       VCC = 1; if S0 == S1: D = ldexp(S0, 2s)
/// elif S1 == DENORM                           D = ldexp(S0, 2s)
/// elif 1/f64(S1) == DENORM && S2/S1 == DENORM VCC = 1; if S0 == S1: D = ldexp(S0, 2s)
/// elif 1/f64(S1) == DENORM                    D = ldexp(S0, -2s)
/// elif S2/S1 == DENORM                        VCC = 1; if S0 == S2: D = ldexp(S0, 2s)
/// elif exponent(S2) <= M                      D = ldexp(S0, 2s)
/// ```
/// with `K, 2s, M` = 96, 64, 23 (f32) and 768, 128, 53 (f64).
pub fn div_scale(fp: Fp, a: u64, b: u64, c: u64) -> (u64, bool) {
    let f = fp.fmt;
    let (k, s, mlim) = if f == F32 {
        (96, 64, 23)
    } else {
        (768, 128, 53)
    };
    let raw = Fp {
        flush_in: false,
        flush_out: false,
        round: Round::NearestEven,
        ..fp
    };
    let is_zero = |x: u64| float::compare(f, false, x, 0) == Some(Ordering::Equal);
    let eq = |x: u64, y: u64| float::compare(f, false, x, y) == Some(Ordering::Equal);
    let up = |x: u64| float::ldexp(fp, x, s);
    let keep = float::canonical(fp.keep_denormals(), a);
    let rcp64 = |x: u64| {
        let one = F64.one(false);
        let x64 = float::convert(f, false, Fp { fmt: F64, ..raw }, x);
        F64.is_denormal(float::div(Fp { fmt: F64, ..raw }, one, x64))
    };
    let q_denorm = f.is_denormal(float::div(raw, c, b));
    if is_zero(c) || is_zero(b) {
        (f.qnan(), false)
    } else if exponent(f, c) - exponent(f, b) >= k {
        (if eq(a, b) { up(a) } else { keep }, true)
    } else if f.is_denormal(b) {
        (up(a), false)
    } else if rcp64(b) && q_denorm {
        (if eq(a, b) { up(a) } else { keep }, true)
    } else if rcp64(b) {
        (float::ldexp(fp, a, -s), false)
    } else if q_denorm {
        (if eq(a, c) { up(a) } else { keep }, true)
    } else if exponent(f, c) <= mlim {
        (up(a), false)
    } else {
        (keep, false)
    }
}

/// V_DIV_FMAS (both precisions): `fma(S0, S1, S2)`, and when VCC is set for the lane, the
/// result scaled by 2^(2s) if exponent(S2) > bias (|S2| ≥ 2) and by 2^(-2s) otherwise
/// (s = 32 for f32, 64 for f64), rounded once. (AMD's pseudo-code gives only the 2^(2s)
/// case; CLRX and hardware observations the other.)
pub fn div_fmas(fp: Fp, a: u64, b: u64, c: u64, vcc: bool) -> u64 {
    let f = fp.fmt;
    if !vcc {
        return float::fma(fp, a, b, c);
    }
    let s = if f == F32 { 64 } else { 128 };
    let scale = if exponent(f, c) > f.bias() as i64 {
        s
    } else {
        -s
    };
    float::fma_scaled(fp, a, b, c, scale)
}

/// `D = permute(S0:S1 bytes, S2)`: for each result byte i, selector `S2.b[i]`: 0-7 byte of
/// `{S0, S1}` (S1 low), 8-11 the sign of 16-bit word (sel-8) replicated (0x00/0xFF), 12 →
/// 0x00, 13-255 → 0xFF.
pub fn v_perm_b32(a: u32, b: u32, c: u32) -> u32 {
    let q = ((a as u64) << 32) | b as u64;
    (0..4).fold(0u32, |d, i| {
        let sel = (c >> (8 * i)) & 0xFF;
        let r = match sel {
            0..=7 => (q >> (8 * sel)) as u32 & 0xFF,
            8..=11 => 0xFF * ((q >> ((sel - 8) * 16 + 15)) as u32 & 1),
            12 => 0,
            _ => 0xFF,
        };
        d | r << (8 * i)
    })
}

/// V_TRIG_PREOP_F64: 53 bits of 2/π selected by segment `S1[4:0]` and the exponent of S0,
/// scaled (AMD's pseudo-code):
///
/// ```text
/// shift = S1[4:0] × 53; if exponent(S0) > 1077: shift += exponent(S0) - 1077
/// result = bits shift+1 .. shift+53 of the binary fraction of 2/π, as an integer
/// scale = -53 - shift; if exponent(S0) >= 1968: scale += 128
/// D = ldexp(result, scale)
/// ```
pub fn v_trig_preop_f64(a: u64, b: u32, m: Mode) -> u64 {
    let e = exponent(F64, a);
    let mut shift = (b & 31) as i64 * 53;
    if e > 1077 {
        shift += e - 1077;
    }
    let result = super::trig_preop::two_over_pi_bits(shift as usize);
    let mut scale = -53 - shift;
    if e >= 1968 {
        scale += 128;
    }
    float::round_pack(m.fp64(), false, result as u128, scale)
}

/// The integral value of an f32 clamped to a range, with the given rounding, NaN → 0 (a
/// helper shared with the f16 conversions).
pub fn f_to_int(fmt: Format, fp: Fp, a: u64, how: ToInt, lo: i128, hi: i128) -> i128 {
    float::to_int(fmt, fp.flush_in, a, how).map_or(0, |v| v.clamp(lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_examples() {
        assert_eq!(v_bfe_u32(0xABCD_1234, 8, 8), 0x12);
        assert_eq!(v_bfe_i32(0xABCD_1234, 28, 4), 0xFFFF_FFFA);
        assert_eq!(v_bfe_u32(0xABCD_1234, 28, 8), 0xA);
        assert_eq!(v_bfe_i32(0xABCD_1234, 28, 8), 0xFFFF_FFFA);
        assert_eq!(v_bfe_u32(u32::MAX, 3, 0), 0);
        assert_eq!(v_bfe_u32(u32::MAX, 3, 32), 0); // length & 31 = 0
        assert_eq!(v_alignbit_b32(0x1234_5678, 0x9ABC_DEF0, 4), 0x89AB_CDEF);
        assert_eq!(v_alignbyte_b32(0x1234_5678, 0x9ABC_DEF0, 1), 0x789A_BCDE);
        assert_eq!(
            v_lerp_u8(0x00FF_0102, 0x00FF_0304, 0x0000_0101),
            0x00FF_0203
        );
        assert_eq!(v_sad_u8(0x0102_0304, 0x0403_0201, 10), 10 + 3 + 1 + 1 + 3);
        assert_eq!(v_msad_u8(0x0102_0304, 0x0003_0001, 0), 1 + 3);
        assert_eq!(
            v_perm_b32(0x8899_AABB, 0xCCDD_EEFF, 0x0C0D_0800),
            0x00FF_FFFF
        );
        assert_eq!(
            v_mad_u64_u32(u32::MAX, u32::MAX, u64::MAX),
            (0xFFFF_FFFE_0000_0000, true)
        );
        assert_eq!(v_mad_i64_i32((-1i32) as u32, 1, 0), (u64::MAX, true));
        assert_eq!(med3_int(3, 1, 2), 2);
        assert_eq!(med3_int(1, 3, 2), 2);
        assert_eq!(med3_int(2, 2, 9), 2);
    }
}
