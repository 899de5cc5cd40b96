//! Floating point for the reference interpreter: the MODE register (rounding and
//! denormal control), and a small software floating-point core (f16, f32, f64) that
//! rounds exactly in all four IEEE rounding directions. Every float operation of the
//! interpreter goes through here, so results never depend on the host's FPU state or
//! libm.
//!
//! # The NaN rule (the JIT follows it too)
//!
//! Every *arithmetic* float result that is a NaN is the canonical quiet NaN of its format,
//! positive, payload zero: `0x7E00` (f16), `0x7FC0_0000` (f32), `0x7FF8_0000_0000_0000`
//! (f64). "Arithmetic" means anything computed by this module: add, mul, fma, div, sqrt,
//! conversions between float formats, rounding to integral, min/max, OMOD and CLAMP, the
//! transcendental approximations. Moves (`v_mov_b32`, `v_cndmask_b32`, DPP/SDWA moves),
//! the ABS/NEG source modifiers (sign-bit operations) and bit operations keep NaN payloads
//! as they are. Signalling and quiet NaN inputs are not distinguished (no exceptions are
//! modelled).
//!
//! # MODE (AMD SI/CI/VI manuals; ERRATA VOP3 4)
//!
//! * bits 1:0 round mode of f32, bits 3:2 round mode of f64 and f16:
//!   0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward zero.
//! * bit 4: f32 input denormals kept (0: flushed to signed zero before the operation);
//!   bit 5: f32 output denormals kept (0: a denormal result becomes signed zero);
//!   bits 6 and 7: the same for f64 and f16.
//! * bit 8 DX10_CLAMP: CLAMP turns a NaN into +0.0 (0: the NaN stays a NaN).
//!
//! The default 0xC0 rounds to nearest even, flushes f32 denormals and keeps f64/f16 ones.
//!
//! # How rounding is exact
//!
//! Operands are unpacked to an integer significand and an exponent (`value = sig × 2^exp`)
//! and the operation is carried out on integers (`u128`), exactly or with a "sticky" bit
//! jammed into the least significant bit far below the rounding position; `round_pack`
//! then rounds once to the destination format in the requested direction, with gradual
//! underflow, overflow to infinity or to the largest finite value as the direction
//! requires, and the output flush.
//!
//! # The host fast path, and why it is exact (`float/host.rs`)
//!
//! The software core is the definition; the fast path is an optimisation that must give
//! the same bits. It takes f32 and f64 addition, subtraction, multiplication, fused
//! multiply-add, division, square root, comparison and integer-to-float conversion to the
//! host's floating-point unit only when the rounding direction of the precision is
//! round-to-nearest-even, f32 and f64 float-to-integer conversion (`to_int`, but for its
//! exactly added half) in every mode, and canonicalisation and minimum/maximum (what
//! min/max/med3 return) to bit operations in every mode and format. Every other case (the
//! three directed roundings of arithmetic, f16 arithmetic, the scaled FMA of V_DIV_FMAS,
//! float-to-float conversions, rounding to integral, the transcendentals) stays on the
//! software path. Why the two agree:
//!
//! * **The host rounds the same way.** Rust's `+ - * /`, `sqrt` and `mul_add` on `f32`
//!   and `f64` are IEEE 754 basic operations: the exact result rounded once to nearest,
//!   ties to even, with gradual underflow (no flush-to-zero; Rust code never changes the
//!   host's floating-point control register). The software core computes the same exact
//!   value on integers and rounds it once with the same rule (`round_pack`), so every
//!   finite, non-NaN result is the same number, hence the same bits (a finite non-zero
//!   value has one encoding). The fast path is compiled only for hosts where Rust's
//!   floats are IEEE hardware floats (x86-64, AArch64, x86 with SSE2).
//! * **Input flush.** When MODE flushes input denormals, the fast path replaces a
//!   denormal operand by the zero of its sign before the host sees it: exactly what
//!   `unpack` does, so both paths operate on the same values.
//! * **Output flush.** `round_pack` rounds at the denormal grid first and then, when MODE
//!   flushes outputs, replaces a result that is not normal *after rounding* by the zero
//!   of its sign. The host result is denormal exactly when the correctly rounded result
//!   is not normal, so replacing a denormal host result by its signed zero gives the same
//!   bits (a result that rounds up to the smallest normal is normal on both paths).
//! * **Signed zeros.** Exact zeros follow IEEE 754 §6.3 on both paths: a product or
//!   quotient has the XOR of the operands' signs, a sum of opposite-signed equal values
//!   is +0 under round-to-nearest (`zero_sum_sign`), `sqrt(-0)` is -0, and an underflow
//!   to zero keeps the sign of the exact result.
//! * **NaN.** The host produces a NaN exactly when an operand is a NaN or the operation
//!   is invalid (inf - inf, 0 × inf, 0/0, inf/inf, the square root of a negative number,
//!   and FMA's product cases), which are the cases in which the software path returns
//!   the canonical NaN; the fast path returns the canonical NaN for every host NaN, so
//!   the host's NaN payload and sign never show.
//! * **Comparison** involves no rounding: after the input flush, the host orders the
//!   same values the same way, -0 equals +0, and a NaN is unordered on both paths.
//! * **Canonicalisation** of a non-NaN input rounds nothing (the value is already in the
//!   format): it only flushes, which is a bit operation.
//! * **Integer to float.** Rust's `as` from an integer to `f32`/`f64` gives the nearest
//!   value, ties to even: the software path's single rounding of the same exact integer.
//!   An integer other than 0 is at least 1 in magnitude, so the result is never a
//!   denormal (no output flush applies) and 0 is +0 on both paths; every `i128` is below
//!   2^127, inside both formats' range, so nothing overflows.
//! * **Float to integer** rounds to an integer, never to the format: the integral part
//!   (`trunc`, `floor`, `ceil`, `round_ties_even` of the flushed input) of a float is a
//!   float of the same format, so the host computes it exactly, and Rust's `as` to `i64`
//!   is exact for an integral value below 2^62 in magnitude (larger ones and infinities
//!   stay on the software path, which saturates them); NaN is refused on both paths.
//! * **Minimum and maximum** compare canonical values. Mapping a non-NaN value's bits to
//!   a key (sign bit set for positive values, every bit flipped for negative ones) orders
//!   keys as the values are ordered, with -0 below +0 as the definition breaks that tie;
//!   two canonical values with the same key are the same bits (a value other than ±0
//!   has one encoding), so picking by key returns the definition's bits. NaN operands
//!   are handled before, exactly as the definition does.
//!
//! `float/host_vs_soft.rs` runs each of these operations through both paths over
//! special values (signed zeros, denormals at both ends, the normal/denormal boundary,
//! infinities, NaNs with payloads and signs, overflow neighbours) in every MODE, and over
//! random operands, and requires equal bits.

use std::cmp::Ordering;

mod host;
#[cfg(test)]
mod host_vs_soft;

/// A value of the MODE register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mode(pub u32);

impl Default for Mode {
    fn default() -> Mode {
        Mode(0xC0)
    }
}

/// IEEE rounding direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Round {
    NearestEven,
    /// Toward +infinity.
    Up,
    /// Toward -infinity.
    Down,
    /// Toward zero.
    Zero,
}

impl Round {
    /// The 2-bit MODE encoding: 0 nearest even, 1 +inf, 2 -inf, 3 zero.
    #[inline]
    pub fn from_bits(b: u32) -> Round {
        match b & 3 {
            0 => Round::NearestEven,
            1 => Round::Up,
            2 => Round::Down,
            _ => Round::Zero,
        }
    }
}

/// An IEEE binary interchange format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Format {
    pub exp_bits: u32,
    pub man_bits: u32,
}

pub const F16: Format = Format {
    exp_bits: 5,
    man_bits: 10,
};
pub const F32: Format = Format {
    exp_bits: 8,
    man_bits: 23,
};
pub const F64: Format = Format {
    exp_bits: 11,
    man_bits: 52,
};

impl Format {
    #[inline]
    pub fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }
    #[inline]
    pub fn width(self) -> u32 {
        1 + self.exp_bits + self.man_bits
    }
    #[inline]
    pub fn sign_bit(self) -> u64 {
        1u64 << (self.exp_bits + self.man_bits)
    }
    #[inline]
    fn man_mask(self) -> u64 {
        (1u64 << self.man_bits) - 1
    }
    #[inline]
    fn exp_max(self) -> u64 {
        (1u64 << self.exp_bits) - 1
    }
    /// The canonical quiet NaN (see the NaN rule at the top of this file).
    #[inline]
    pub fn qnan(self) -> u64 {
        (self.exp_max() << self.man_bits) | (1u64 << (self.man_bits - 1))
    }
    #[inline]
    pub fn inf(self, neg: bool) -> u64 {
        self.signed(neg, self.exp_max() << self.man_bits)
    }
    #[inline]
    pub fn zero(self, neg: bool) -> u64 {
        self.signed(neg, 0)
    }
    #[inline]
    pub fn one(self, neg: bool) -> u64 {
        self.signed(neg, (self.bias() as u64) << self.man_bits)
    }
    /// The largest finite magnitude with the given sign.
    pub fn max_finite(self, neg: bool) -> u64 {
        self.signed(
            neg,
            ((self.exp_max() - 1) << self.man_bits) | self.man_mask(),
        )
    }
    #[inline]
    fn signed(self, neg: bool, mag: u64) -> u64 {
        if neg {
            mag | self.sign_bit()
        } else {
            mag
        }
    }
    /// Only the bits of the format (an f32 operand is the low 32 bits of `bits`).
    #[inline]
    pub fn trim(self, bits: u64) -> u64 {
        if self.width() == 64 {
            bits
        } else {
            bits & ((1u64 << self.width()) - 1)
        }
    }
    #[inline]
    pub fn is_neg(self, bits: u64) -> bool {
        bits & self.sign_bit() != 0
    }
    #[inline]
    pub fn biased_exp(self, bits: u64) -> u64 {
        (bits >> self.man_bits) & self.exp_max()
    }
    #[inline]
    pub fn is_nan(self, bits: u64) -> bool {
        self.biased_exp(bits) == self.exp_max() && bits & self.man_mask() != 0
    }
    #[inline]
    pub fn is_inf(self, bits: u64) -> bool {
        self.biased_exp(bits) == self.exp_max() && bits & self.man_mask() == 0
    }
    /// Zero, ignoring the sign (and not flushing denormals).
    #[inline]
    pub fn is_zero(self, bits: u64) -> bool {
        self.trim(bits) & !self.sign_bit() == 0
    }
    #[inline]
    pub fn is_denormal(self, bits: u64) -> bool {
        self.biased_exp(bits) == 0 && bits & self.man_mask() != 0
    }
    /// A NaN becomes the canonical quiet NaN; anything else is unchanged.
    #[inline]
    pub fn canon(self, bits: u64) -> u64 {
        if self.is_nan(bits) {
            self.qnan()
        } else {
            self.trim(bits)
        }
    }
    /// ABS: clear the sign bit.
    #[inline]
    pub fn abs(self, bits: u64) -> u64 {
        self.trim(bits) & !self.sign_bit()
    }
    /// NEG: flip the sign bit.
    #[inline]
    pub fn neg(self, bits: u64) -> u64 {
        self.trim(bits) ^ self.sign_bit()
    }
}

/// What one float operation needs from MODE: the format, rounding direction and the
/// denormal flushes of its precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fp {
    pub fmt: Format,
    pub round: Round,
    /// Input denormals become signed zero.
    pub flush_in: bool,
    /// Denormal results become signed zero.
    pub flush_out: bool,
}

impl Fp {
    /// The same precision with another rounding direction.
    pub fn with_round(self, round: Round) -> Fp {
        Fp { round, ..self }
    }
    /// The same rounding, without any denormal flushing.
    pub fn keep_denormals(self) -> Fp {
        Fp {
            flush_in: false,
            flush_out: false,
            ..self
        }
    }
}

impl Mode {
    #[inline]
    pub fn fp32(self) -> Fp {
        Fp {
            fmt: F32,
            round: Round::from_bits(self.0),
            flush_in: self.0 & 0x10 == 0,
            flush_out: self.0 & 0x20 == 0,
        }
    }
    #[inline]
    pub fn fp64(self) -> Fp {
        Fp {
            fmt: F64,
            round: Round::from_bits(self.0 >> 2),
            flush_in: self.0 & 0x40 == 0,
            flush_out: self.0 & 0x80 == 0,
        }
    }
    /// f16 shares the f64 controls.
    #[inline]
    pub fn fp16(self) -> Fp {
        Fp {
            fmt: F16,
            ..self.fp64()
        }
    }
    /// The controls of the precision of `fmt`.
    #[inline]
    pub fn fp(self, fmt: Format) -> Fp {
        match fmt.width() {
            16 => self.fp16(),
            32 => self.fp32(),
            _ => self.fp64(),
        }
    }
    /// MODE bit 8: CLAMP turns NaN into +0.0.
    #[inline]
    pub fn dx10_clamp(self) -> bool {
        self.0 & 0x100 != 0
    }
}

// ---------------------------------------------------------------------------------------
// Unpacking and rounding.

/// A float taken apart. `Fin` is `(-1)^neg × sig × 2^exp` with `sig != 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    Nan,
    Inf(bool),
    Zero(bool),
    Fin { neg: bool, exp: i32, sig: u128 },
}

/// Take `bits` of format `fmt` apart; denormals become signed zero when `flush`.
pub fn unpack(fmt: Format, bits: u64, flush: bool) -> Val {
    let bits = fmt.trim(bits);
    let neg = fmt.is_neg(bits);
    let e = fmt.biased_exp(bits);
    let m = bits & fmt.man_mask();
    if e == fmt.exp_max() {
        return if m == 0 { Val::Inf(neg) } else { Val::Nan };
    }
    if e == 0 {
        if m == 0 || flush {
            return Val::Zero(neg);
        }
        return Val::Fin {
            neg,
            exp: 1 - fmt.bias() - fmt.man_bits as i32,
            sig: m as u128,
        };
    }
    let sig = (m | (1u64 << fmt.man_bits)) as u128;
    Val::Fin {
        neg,
        exp: e as i32 - fmt.bias() - fmt.man_bits as i32,
        sig,
    }
}

fn bit_len(x: u128) -> i64 {
    128 - x.leading_zeros() as i64
}

/// Round `(-1)^neg × sig × 2^exp` once to `fp`'s format and direction.
///
/// `sig` may carry a jammed sticky bit in its least significant bit: callers that lose
/// bits OR a 1 there and keep at least two bits between it and the rounding position
/// (every caller keeps dozens).
pub fn round_pack(fp: Fp, neg: bool, sig: u128, exp: i64) -> u64 {
    let fmt = fp.fmt;
    if sig == 0 {
        return fmt.zero(neg);
    }
    let p = fmt.man_bits as i64 + 1;
    let emin_lsb = 1 - fmt.bias() as i64 - fmt.man_bits as i64;
    let e_lsb = (exp + bit_len(sig) - p).max(emin_lsb);
    let shift = e_lsb - exp;
    let (mut kept, below, half, above_half) = if shift <= 0 {
        // Exact: fewer bits than the format holds.
        (sig << (-shift) as u32, false, false, false)
    } else if shift > 128 {
        (0u128, true, false, false)
    } else {
        let kept = if shift == 128 { 0 } else { sig >> shift as u32 };
        let rem = if shift == 128 {
            sig
        } else {
            sig & ((1u128 << shift as u32) - 1)
        };
        let h = 1u128 << (shift - 1) as u32;
        (kept, rem != 0 && rem < h, rem == h, rem > h)
    };
    let inexact = below || half || above_half;
    let up = match fp.round {
        Round::NearestEven => above_half || (half && kept & 1 == 1),
        Round::Zero => false,
        Round::Up => inexact && !neg,
        Round::Down => inexact && neg,
    };
    let mut e_lsb = e_lsb;
    if up {
        kept += 1;
        if kept >> p != 0 {
            kept >>= 1;
            e_lsb += 1;
        }
    }
    if kept == 0 {
        return fmt.zero(neg);
    }
    let normal = kept >> (p - 1) != 0;
    let biased = if normal {
        e_lsb + fmt.bias() as i64 + fmt.man_bits as i64
    } else {
        0
    };
    if biased >= fmt.exp_max() as i64 {
        return overflow(fp, neg);
    }
    if !normal && fp.flush_out {
        return fmt.zero(neg);
    }
    let bits = ((biased as u64) << fmt.man_bits) | (kept as u64 & fmt.man_mask());
    fmt.signed(neg, bits)
}

/// The result of an overflow in the direction of `fp`.
fn overflow(fp: Fp, neg: bool) -> u64 {
    let to_inf = match fp.round {
        Round::NearestEven => true,
        Round::Zero => false,
        Round::Up => !neg,
        Round::Down => neg,
    };
    if to_inf {
        fp.fmt.inf(neg)
    } else {
        fp.fmt.max_finite(neg)
    }
}

/// The sign of an exact zero sum of opposite-signed values (IEEE 754 §6.3).
fn zero_sum_sign(fp: Fp) -> bool {
    fp.round == Round::Down
}

/// Shift right, ORing every bit shifted out into bit 0 (a "jam").
fn shr_jam(x: u128, n: i64) -> u128 {
    if n <= 0 {
        x
    } else if n >= 128 {
        (x != 0) as u128
    } else {
        (x >> n as u32) | ((x & ((1u128 << n as u32) - 1)) != 0) as u128
    }
}

/// `x` shifted so that its top bit is bit 125, and the new exponent.
fn normalize(sig: u128, exp: i32) -> (u128, i64) {
    let s = 125 - (bit_len(sig) - 1);
    if s >= 0 {
        (sig << s as u32, exp as i64 - s)
    } else {
        // Only products of two f64 significands reach here: never more than 106 bits.
        (shr_jam(sig, -s), exp as i64 - s)
    }
}

/// Exact sum of two finite nonzero terms, then one rounding (scaled by 2^scale).
fn add_finite(fp: Fp, a: (bool, i32, u128), b: (bool, i32, u128), scale: i64) -> u64 {
    let (na, ea, ma) = a;
    let (nb, eb, mb) = b;
    let (ma, ea) = normalize(ma, ea);
    let (mb, eb) = normalize(mb, eb);
    // Align the smaller exponent to the larger, jamming what falls off.
    let (big, small) = if ea >= eb {
        ((na, ea, ma), (nb, eb, mb))
    } else {
        ((nb, eb, mb), (na, ea, ma))
    };
    let d = big.1 - small.1;
    let ms = shr_jam(small.2, d);
    let e = big.1;
    if big.0 == small.0 {
        round_pack(fp, big.0, big.2 + ms, e + scale)
    } else {
        match big.2.cmp(&ms) {
            Ordering::Equal => fp.fmt.zero(zero_sum_sign(fp)),
            Ordering::Greater => round_pack(fp, big.0, big.2 - ms, e + scale),
            Ordering::Less => round_pack(fp, small.0, ms - big.2, e + scale),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Arithmetic. All of these take and return bit patterns of `fp.fmt`.

/// IEEE addition.
#[inline]
pub fn add(fp: Fp, a: u64, b: u64) -> u64 {
    host::add(fp, a, b).unwrap_or_else(|| add_soft(fp, a, b))
}

/// IEEE addition, always in software.
pub(crate) fn add_soft(fp: Fp, a: u64, b: u64) -> u64 {
    let f = fp.fmt;
    match (unpack(f, a, fp.flush_in), unpack(f, b, fp.flush_in)) {
        (Val::Nan, _) | (_, Val::Nan) => f.qnan(),
        (Val::Inf(x), Val::Inf(y)) => {
            if x == y {
                f.inf(x)
            } else {
                f.qnan()
            }
        }
        (Val::Inf(x), _) | (_, Val::Inf(x)) => f.inf(x),
        (Val::Zero(x), Val::Zero(y)) => f.zero(if x == y { x } else { zero_sum_sign(fp) }),
        (Val::Zero(_), Val::Fin { neg, exp, sig }) | (Val::Fin { neg, exp, sig }, Val::Zero(_)) => {
            round_pack(fp, neg, sig, exp as i64)
        }
        (
            Val::Fin {
                neg: n1,
                exp: e1,
                sig: s1,
            },
            Val::Fin {
                neg: n2,
                exp: e2,
                sig: s2,
            },
        ) => add_finite(fp, (n1, e1, s1), (n2, e2, s2), 0),
    }
}

/// IEEE subtraction `a - b`.
#[inline]
pub fn sub(fp: Fp, a: u64, b: u64) -> u64 {
    add(fp, a, fp.fmt.neg(b))
}

/// IEEE multiplication.
#[inline]
pub fn mul(fp: Fp, a: u64, b: u64) -> u64 {
    host::mul(fp, a, b).unwrap_or_else(|| mul_soft(fp, a, b))
}

/// The exact product of two unpacked operands (`None`: a NaN, from a NaN operand or
/// infinity times zero): shared by multiplication and the fused multiply-add.
enum Product {
    Inf(bool),
    Zero(bool),
    /// Sign, exponent and significand: `±sig × 2^exp`.
    Fin(bool, i32, u128),
}

fn product(a: Val, b: Val) -> Option<Product> {
    Some(match (a, b) {
        (Val::Nan, _) | (_, Val::Nan) => return None,
        (Val::Inf(_), Val::Zero(_)) | (Val::Zero(_), Val::Inf(_)) => return None,
        (Val::Inf(x), Val::Inf(y))
        | (Val::Inf(x), Val::Fin { neg: y, .. })
        | (Val::Fin { neg: x, .. }, Val::Inf(y)) => Product::Inf(x != y),
        (Val::Zero(x), Val::Zero(y))
        | (Val::Zero(x), Val::Fin { neg: y, .. })
        | (Val::Fin { neg: x, .. }, Val::Zero(y)) => Product::Zero(x != y),
        (
            Val::Fin {
                neg: n1,
                exp: e1,
                sig: s1,
            },
            Val::Fin {
                neg: n2,
                exp: e2,
                sig: s2,
            },
        ) => Product::Fin(n1 != n2, e1 + e2, s1 * s2),
    })
}

/// IEEE multiplication, always in software.
pub(crate) fn mul_soft(fp: Fp, a: u64, b: u64) -> u64 {
    let f = fp.fmt;
    match product(unpack(f, a, fp.flush_in), unpack(f, b, fp.flush_in)) {
        None => f.qnan(),
        Some(Product::Inf(neg)) => f.inf(neg),
        Some(Product::Zero(neg)) => f.zero(neg),
        Some(Product::Fin(neg, exp, sig)) => round_pack(fp, neg, sig, exp as i64),
    }
}

/// Fused multiply-add `a × b + c`, rounded once.
#[inline]
pub fn fma(fp: Fp, a: u64, b: u64, c: u64) -> u64 {
    host::fma(fp, a, b, c).unwrap_or_else(|| fma_scaled(fp, a, b, c, 0))
}

/// `(a × b + c) × 2^scale`, rounded once (V_DIV_FMAS's post-scale).
pub fn fma_scaled(fp: Fp, a: u64, b: u64, c: u64, scale: i32) -> u64 {
    let f = fp.fmt;
    let (va, vb, vc) = (
        unpack(f, a, fp.flush_in),
        unpack(f, b, fp.flush_in),
        unpack(f, c, fp.flush_in),
    );
    if matches!(va, Val::Nan) || matches!(vb, Val::Nan) || matches!(vc, Val::Nan) {
        return f.qnan();
    }
    // The product, exactly.
    let Some(p) = product(va, vb) else {
        return f.qnan();
    };
    let scale = scale as i64;
    match (p, vc) {
        (Product::Inf(x), Val::Inf(y)) => {
            if x == y {
                f.inf(x)
            } else {
                f.qnan()
            }
        }
        (Product::Inf(x), _) | (_, Val::Inf(x)) => f.inf(x),
        (Product::Zero(x), Val::Zero(y)) => f.zero(if x == y { x } else { zero_sum_sign(fp) }),
        (Product::Zero(_), Val::Fin { neg, exp, sig }) => {
            round_pack(fp, neg, sig, exp as i64 + scale)
        }
        (Product::Fin(n, e, s), Val::Zero(_)) => round_pack(fp, n, s, e as i64 + scale),
        (Product::Fin(n, e, s), Val::Fin { neg, exp, sig }) => {
            add_finite(fp, (n, e, s), (neg, exp, sig), scale)
        }
        (_, Val::Nan) => f.qnan(),
    }
}

/// Unfused multiply-add: the product is rounded (and flushed) before the add.
#[inline(always)]
pub fn mad(fp: Fp, a: u64, b: u64, c: u64) -> u64 {
    add(fp, mul(fp, a, b), c)
}

/// IEEE division `a / b`.
#[inline]
pub fn div(fp: Fp, a: u64, b: u64) -> u64 {
    host::div(fp, a, b).unwrap_or_else(|| div_soft(fp, a, b))
}

/// IEEE division `a / b`, always in software.
pub(crate) fn div_soft(fp: Fp, a: u64, b: u64) -> u64 {
    let f = fp.fmt;
    match (unpack(f, a, fp.flush_in), unpack(f, b, fp.flush_in)) {
        (Val::Nan, _) | (_, Val::Nan) => f.qnan(),
        (Val::Inf(_), Val::Inf(_)) | (Val::Zero(_), Val::Zero(_)) => f.qnan(),
        (Val::Inf(x), Val::Zero(y)) | (Val::Inf(x), Val::Fin { neg: y, .. }) => f.inf(x != y),
        (Val::Fin { neg: x, .. }, Val::Zero(y)) => f.inf(x != y),
        (Val::Zero(x), Val::Inf(y)) | (Val::Fin { neg: x, .. }, Val::Inf(y)) => f.zero(x != y),
        (Val::Zero(x), Val::Fin { neg: y, .. }) => f.zero(x != y),
        (
            Val::Fin {
                neg: n1,
                exp: e1,
                sig: s1,
            },
            Val::Fin {
                neg: n2,
                exp: e2,
                sig: s2,
            },
        ) => {
            // Numerator at bit 125, denominator at bit 53 or below: the quotient has at
            // least 72 bits, far more than the 11/24/53 needed plus guard bits.
            let (s1, e1) = normalize(s1, e1);
            let s2x = s2 >> s2.trailing_zeros();
            let e2x = e2 as i64 + s2.trailing_zeros() as i64;
            let q = s1 / s2x;
            let r = s1 % s2x;
            round_pack(fp, n1 != n2, q | (r != 0) as u128, e1 - e2x)
        }
    }
}

/// Integer square root: `(floor(sqrt(x)), x is a perfect square)`.
fn isqrt(x: u128) -> (u128, bool) {
    if x == 0 {
        return (0, true);
    }
    // Digit-by-digit, two bits at a time, from the top.
    let mut rem = x;
    let mut root: u128 = 0;
    let mut bit: u128 = 1u128 << ((bit_len(x) - 1) & !1);
    while bit != 0 {
        if rem >= root + bit {
            rem -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    (root, rem == 0)
}

/// IEEE square root; negative (nonzero) inputs give NaN, sqrt(-0) = -0.
#[inline]
pub fn sqrt(fp: Fp, a: u64) -> u64 {
    host::sqrt(fp, a).unwrap_or_else(|| sqrt_soft(fp, a))
}

/// IEEE square root, always in software.
pub(crate) fn sqrt_soft(fp: Fp, a: u64) -> u64 {
    let f = fp.fmt;
    match unpack(f, a, fp.flush_in) {
        Val::Nan | Val::Inf(true) | Val::Fin { neg: true, .. } => f.qnan(),
        Val::Inf(false) => f.inf(false),
        Val::Zero(n) => f.zero(n),
        Val::Fin { exp, sig, .. } => {
            // sig × 2^exp with exp even and sig up to 2^124: the root has at least 60 bits.
            let (s, e) = normalize(sig, exp);
            let (s, e) = if e & 1 != 0 { (s >> 1, e + 1) } else { (s, e) };
            let (root, exact) = isqrt(s);
            round_pack(fp, false, root | (!exact) as u128, e / 2)
        }
    }
}

/// `a × b` of a `u128` and a `u64`, as 192 bits `(high 64, low 128)`.
fn mul_128_64(a: u128, b: u64) -> (u64, u128) {
    let lo = (a as u64 as u128) * b as u128;
    let hi = (a >> 64) * b as u128;
    let (low, carry) = lo.overflowing_add(hi << 64);
    ((hi >> 64) as u64 + carry as u64, low)
}

/// Correctly rounded `1 / sqrt(a)`: rsq(±0) = ±inf, rsq(+inf) = +0, negative → NaN.
pub fn rsq(fp: Fp, a: u64) -> u64 {
    let f = fp.fmt;
    match unpack(f, a, fp.flush_in) {
        Val::Nan | Val::Inf(true) | Val::Fin { neg: true, .. } => f.qnan(),
        Val::Inf(false) => f.zero(false),
        Val::Zero(n) => f.inf(n),
        Val::Fin { exp, sig, .. } => {
            // a = m × 2^e with m in [2^61, 2^63) and e even. Then 1/sqrt(a) =
            // 2^(-e/2) × 2^-94 × Y with Y = 2^94 / sqrt(m) in (2^62.5, 2^63.5]: find
            // floor(Y) bit by bit from Y² × m ≤ 2^188, exact when equality holds.
            let sh = 61 - (bit_len(sig) - 1);
            let (mut m, mut e) = (sig << sh as u32, exp as i64 - sh);
            if e & 1 != 0 {
                m <<= 1;
                e -= 1;
            }
            let m = m as u64;
            let target: (u64, u128) = (1u64 << (188 - 128), 0);
            let mut y: u128 = 0;
            for bit in (0..64).rev() {
                let c = y | (1u128 << bit);
                if mul_128_64(c * c, m) <= target {
                    y = c;
                }
            }
            let exact = mul_128_64(y * y, m) == target;
            round_pack(fp, false, y | (!exact) as u128, -94 - e / 2)
        }
    }
}

/// `a × 2^n`, rounded once (V_LDEXP).
pub fn ldexp(fp: Fp, a: u64, n: i32) -> u64 {
    let f = fp.fmt;
    match unpack(f, a, fp.flush_in) {
        Val::Nan => f.qnan(),
        Val::Inf(x) => f.inf(x),
        Val::Zero(x) => f.zero(x),
        Val::Fin { neg, exp, sig } => round_pack(fp, neg, sig, exp as i64 + n as i64),
    }
}

/// Convert between float formats: input flushed per `flush_in` (the source precision's
/// control), output rounded and flushed per `to`.
pub fn convert(from: Format, flush_in: bool, to: Fp, a: u64) -> u64 {
    match unpack(from, a, flush_in) {
        Val::Nan => to.fmt.qnan(),
        Val::Inf(x) => to.fmt.inf(x),
        Val::Zero(x) => to.fmt.zero(x),
        Val::Fin { neg, exp, sig } => round_pack(to, neg, sig, exp as i64),
    }
}

/// An integer to float, rounded per `fp`.
#[inline]
pub fn from_int(fp: Fp, v: i128) -> u64 {
    host::from_int(fp, v).unwrap_or_else(|| from_int_soft(fp, v))
}

/// An integer to float, always in software.
pub(crate) fn from_int_soft(fp: Fp, v: i128) -> u64 {
    round_pack(fp, v < 0, v.unsigned_abs(), 0)
}

/// How a float becomes an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToInt {
    Trunc,
    Floor,
    Ceil,
    NearestEven,
    /// `floor(x + 1/2)`, the half added exactly (V_CVT_RPI).
    HalfUp,
}

/// The magnitude of the integral value of `(-1)^neg × sig × 2^exp` (with `exp < 0`)
/// rounded per `how`.
fn int_mag(neg: bool, exp: i32, sig: u128, how: ToInt) -> u128 {
    let sh = -(exp as i64);
    let (int, frac_nonzero, half, above) = if sh >= 128 {
        (0u128, true, false, false)
    } else {
        let int = sig >> sh as u32;
        let frac = sig & ((1u128 << sh as u32) - 1);
        let h = 1u128 << (sh - 1) as u32;
        (int, frac != 0, frac == h, frac > h)
    };
    let up = match how {
        ToInt::Trunc => false,
        ToInt::Floor => neg && frac_nonzero,
        ToInt::Ceil => !neg && frac_nonzero,
        ToInt::NearestEven => above || (half && int & 1 == 1),
        ToInt::HalfUp => above || (half && !neg),
    };
    int + up as u128
}

/// The integral value of `a` per `how`, as an `i128` saturated to ±2^100 (so callers can
/// clamp to any narrower range); `None` for NaN. Infinities saturate.
#[inline]
pub fn to_int(fmt: Format, flush_in: bool, a: u64, how: ToInt) -> Option<i128> {
    host::to_int(fmt, flush_in, a, how).unwrap_or_else(|| to_int_soft(fmt, flush_in, a, how))
}

/// A float's integral value (`to_int`), always in software.
pub(crate) fn to_int_soft(fmt: Format, flush_in: bool, a: u64, how: ToInt) -> Option<i128> {
    const LIM: i128 = 1 << 100;
    match unpack(fmt, a, flush_in) {
        Val::Nan => None,
        Val::Inf(n) => Some(if n { -LIM } else { LIM }),
        Val::Zero(_) => Some(0),
        Val::Fin { neg, exp, sig } => {
            let mag = if exp >= 0 {
                if exp > 40 {
                    LIM
                } else {
                    ((sig as i128) << exp).min(LIM)
                }
            } else {
                int_mag(neg, exp, sig, how) as i128
            };
            Some(if neg { -mag } else { mag })
        }
    }
}

/// Round to an integral value in the same format (V_TRUNC/FLOOR/CEIL/RNDNE). The sign of
/// a zero result is the sign of the input; infinities pass; NaN → canonical NaN.
pub fn round_int(fp: Fp, a: u64, how: ToInt) -> u64 {
    let f = fp.fmt;
    match unpack(f, a, fp.flush_in) {
        Val::Nan => f.qnan(),
        Val::Inf(x) => f.inf(x),
        Val::Zero(x) => f.zero(x),
        Val::Fin { neg, exp, sig } if exp >= 0 => round_pack(fp, neg, sig, exp as i64),
        Val::Fin { neg, exp, sig } => round_pack(fp, neg, int_mag(neg, exp, sig, how), 0),
    }
}

/// IEEE comparison (after the input flush): `None` when either is a NaN. -0 == +0.
#[inline]
pub fn compare(fmt: Format, flush_in: bool, a: u64, b: u64) -> Option<Ordering> {
    match host::compare(fmt, flush_in, a, b) {
        Some(o) => o,
        None => compare_soft(fmt, flush_in, a, b),
    }
}

/// IEEE comparison, always in software.
pub(crate) fn compare_soft(fmt: Format, flush_in: bool, a: u64, b: u64) -> Option<Ordering> {
    let key = |v: Val| -> Option<(i32, i64, u128)> {
        // (sign class, exponent of the top bit, normalized significand): ordered magnitudes.
        match v {
            Val::Nan => None,
            Val::Zero(_) => Some((0, 0, 0)),
            Val::Inf(n) => Some((if n { -2 } else { 2 }, 0, 0)),
            Val::Fin { neg, exp, sig } => {
                let top = exp as i64 + bit_len(sig);
                let norm = sig << (128 - bit_len(sig)) as u32;
                Some((if neg { -1 } else { 1 }, top, norm))
            }
        }
    };
    let ka = key(unpack(fmt, a, flush_in))?;
    let kb = key(unpack(fmt, b, flush_in))?;
    Some(match ka.0.cmp(&kb.0) {
        Ordering::Equal => {
            let mag = (ka.1, ka.2).cmp(&(kb.1, kb.2));
            if ka.0 < 0 {
                mag.reverse()
            } else {
                mag
            }
        }
        o => o,
    })
}

/// The input after the flushes of `fp`, NaN canonical: what min/max/med3 return.
#[inline(always)]
pub fn canonical(fp: Fp, a: u64) -> u64 {
    host::canonical(fp, a)
}

/// The input after the flushes of `fp`, NaN canonical, always through `round_pack`: the
/// reference the fast path's bit operations are tested against.
#[cfg(test)]
pub(crate) fn canonical_soft(fp: Fp, a: u64) -> u64 {
    let f = fp.fmt;
    match unpack(f, a, fp.flush_in) {
        Val::Nan => f.qnan(),
        Val::Zero(n) => f.zero(n),
        Val::Inf(n) => f.inf(n),
        // An input kept on input may still be a denormal the output flush removes.
        Val::Fin { neg, exp, sig } => round_pack(fp, neg, sig, exp as i64),
    }
}

/// IEEE 754-2019 minimumNumber: a NaN operand loses to a number (two NaNs give NaN), and
/// -0 is below +0. (ERRATA VOP3 10: the minNum rule for a single NaN.)
#[inline(always)]
pub fn min_num(fp: Fp, a: u64, b: u64) -> u64 {
    pick(fp, a, b, true)
}

/// IEEE 754-2019 maximumNumber (see `min_num`).
#[inline(always)]
pub fn max_num(fp: Fp, a: u64, b: u64) -> u64 {
    pick(fp, a, b, false)
}

#[inline(always)]
fn pick(fp: Fp, a: u64, b: u64, min: bool) -> u64 {
    host::pick(fp, a, b, min)
}

/// `min_num` (`min`) or `max_num` of two values of format `f` that are `canonical`
/// already: the same result without canonicalising them again.
#[inline(always)]
pub fn pick_canonical(f: Format, a: u64, b: u64, min: bool) -> u64 {
    host::pick_canonical(f, a, b, min)
}

/// `min_num`/`max_num` through `compare`: the definition `host::pick` is tested against.
#[cfg(test)]
pub(crate) fn pick_soft(fp: Fp, a: u64, b: u64, min: bool) -> u64 {
    let f = fp.fmt;
    let (a, b) = (canonical_soft(fp, a), canonical_soft(fp, b));
    match (f.is_nan(a), f.is_nan(b)) {
        (true, true) => return f.qnan(),
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    let ord = match compare_soft(f, false, a, b) {
        Some(Ordering::Equal) => {
            // Equal values differ only in the sign of a zero: -0 < +0.
            f.is_neg(b).cmp(&f.is_neg(a))
        }
        Some(o) => o,
        None => Ordering::Equal,
    };
    let a_first = if min {
        ord != Ordering::Greater
    } else {
        ord != Ordering::Less
    };
    if a_first {
        a
    } else {
        b
    }
}

/// IEEE class of a value, as V_CMP_CLASS numbers its mask bits (AMD manuals): 0 signalling
/// NaN, 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal,
/// 9 +inf. Denormals are classified as such whatever MODE says.
pub fn class_bit(fmt: Format, a: u64) -> u32 {
    let a = fmt.trim(a);
    let neg = fmt.is_neg(a);
    if fmt.is_nan(a) {
        return if a & (1u64 << (fmt.man_bits - 1)) != 0 {
            1
        } else {
            0
        };
    }
    let k = if fmt.is_inf(a) {
        0
    } else if fmt.biased_exp(a) != 0 {
        1
    } else if fmt.is_denormal(a) {
        2
    } else {
        3
    };
    if neg {
        2 + k
    } else {
        9 - k
    }
}

/// OMOD then CLAMP on a float result (ERRATA VOP3 4): OMOD (1 ×2, 2 ×4, 3 ÷2) is skipped
/// when MODE keeps output denormals of this precision; CLAMP limits to [0.0, 1.0]
/// (negative values become +0.0, -0.0 stays -0.0; NaN becomes +0.0 only under DX10_CLAMP).
pub fn omod_clamp(fp: Fp, mode: Mode, bits: u64, omod: u8, clamp: bool) -> u64 {
    let f = fp.fmt;
    let mut r = f.trim(bits);
    if omod != 0 && fp.flush_out {
        let n = match omod {
            1 => 1,
            2 => 2,
            _ => -1,
        };
        r = ldexp(fp, r, n);
    }
    if clamp {
        r = if f.is_nan(r) {
            if mode.dx10_clamp() {
                f.zero(false)
            } else {
                f.qnan()
            }
        } else if f.is_zero(r) {
            r
        } else if f.is_neg(r) {
            f.zero(false)
        } else if compare(f, false, r, f.one(false)) == Some(Ordering::Greater) {
            f.one(false)
        } else {
            r
        };
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    const RNE32: Fp = Fp {
        fmt: F32,
        round: Round::NearestEven,
        flush_in: false,
        flush_out: false,
    };
    const RNE64: Fp = Fp {
        fmt: F64,
        round: Round::NearestEven,
        flush_in: false,
        flush_out: false,
    };

    fn f(x: f32) -> u64 {
        x.to_bits() as u64
    }

    #[test]
    fn mode_fields() {
        let m = Mode(0xC0);
        assert_eq!(
            m.fp32(),
            Fp {
                fmt: F32,
                round: Round::NearestEven,
                flush_in: true,
                flush_out: true
            }
        );
        assert_eq!(
            m.fp64(),
            Fp {
                fmt: F64,
                round: Round::NearestEven,
                flush_in: false,
                flush_out: false
            }
        );
        let m = Mode(0x3 | 0x8 | 0x10);
        assert_eq!(m.fp32().round, Round::Zero);
        assert!(!m.fp32().flush_in && m.fp32().flush_out);
        assert_eq!(m.fp64().round, Round::Down);
        assert_eq!(m.fp16().fmt, F16);
    }

    #[test]
    fn small_hand_cases() {
        assert_eq!(add(RNE32, f(1.0), f(2.0)), f(3.0));
        assert_eq!(add(RNE32, f(1.0), f(-1.0)), f(0.0));
        assert_eq!(add(RNE32.with_round(Round::Down), f(1.0), f(-1.0)), f(-0.0));
        assert_eq!(add(RNE32, f(-0.0), f(-0.0)), f(-0.0));
        assert_eq!(
            add(RNE32, f(f32::INFINITY), f(f32::NEG_INFINITY)),
            0x7FC0_0000
        );
        assert_eq!(mul(RNE32, f(0.0), f(f32::INFINITY)), 0x7FC0_0000);
        assert_eq!(mul(RNE32, f(-2.0), f(0.0)), f(-0.0));
        assert_eq!(div(RNE32, f(1.0), f(0.0)), f(f32::INFINITY));
        assert_eq!(div(RNE32, f(-1.0), f(0.0)), f(f32::NEG_INFINITY));
        assert_eq!(div(RNE32, f(1.0), f(3.0)), f(1.0 / 3.0));
        assert_eq!(sqrt(RNE32, f(2.0)), f(std::f32::consts::SQRT_2));
        assert_eq!(sqrt(RNE32, f(-0.0)), f(-0.0));
        assert_eq!(sqrt(RNE32, f(-1.0)), 0x7FC0_0000);
        assert_eq!(rsq(RNE32, f(4.0)), f(0.5));
        assert_eq!(rsq(RNE32, f(0.0)), f(f32::INFINITY));
        // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: even is 1.
        assert_eq!(add(RNE32, f(1.0), f(5.9604645e-8)), f(1.0));
        assert_eq!(
            add(RNE32.with_round(Round::Up), f(1.0), f(5.9604645e-8)),
            f(1.0000001)
        );
        // Overflow by direction.
        assert_eq!(mul(RNE32, f(f32::MAX), f(2.0)), f(f32::INFINITY));
        assert_eq!(
            mul(RNE32.with_round(Round::Zero), f(f32::MAX), f(2.0)),
            f(f32::MAX)
        );
        assert_eq!(
            mul(RNE32.with_round(Round::Down), f(f32::MAX), f(2.0)),
            f(f32::MAX)
        );
        assert_eq!(
            mul(RNE32.with_round(Round::Down), f(-f32::MAX), f(2.0)),
            f(f32::NEG_INFINITY)
        );
        // Flush: 2^-126 / 2 is the denormal 2^-127, flushed to +0 under flush_out.
        let tiny = f(f32::MIN_POSITIVE);
        assert_eq!(mul(RNE32, tiny, f(0.5)), 0x0040_0000);
        assert_eq!(mul(Mode(0xC0).fp32(), tiny, f(0.5)), 0);
        assert_eq!(mul(Mode(0xC0).fp32(), 0x8040_0000, f(1.0)), 0x8000_0000);
    }

    #[test]
    fn min_max_rules() {
        let fp = RNE32;
        assert_eq!(min_num(fp, f(-0.0), f(0.0)), f(-0.0));
        assert_eq!(min_num(fp, f(0.0), f(-0.0)), f(-0.0));
        assert_eq!(max_num(fp, f(-0.0), f(0.0)), f(0.0));
        assert_eq!(min_num(fp, 0x7FC0_0001, f(3.0)), f(3.0));
        assert_eq!(max_num(fp, f(3.0), 0xFF80_0001), f(3.0));
        assert_eq!(max_num(fp, 0x7F80_0001, 0xFF80_0001), 0x7FC0_0000);
        assert_eq!(min_num(fp, f(-5.0), f(2.0)), f(-5.0));
    }

    #[test]
    fn class_bits() {
        assert_eq!(class_bit(F32, 0x7F80_0001), 0);
        assert_eq!(class_bit(F32, 0x7FC0_0000), 1);
        assert_eq!(class_bit(F32, f(f32::NEG_INFINITY)), 2);
        assert_eq!(class_bit(F32, f(-1.0)), 3);
        assert_eq!(class_bit(F32, 0x8000_0001), 4);
        assert_eq!(class_bit(F32, f(-0.0)), 5);
        assert_eq!(class_bit(F32, f(0.0)), 6);
        assert_eq!(class_bit(F32, 1), 7);
        assert_eq!(class_bit(F32, f(1.0)), 8);
        assert_eq!(class_bit(F32, f(f32::INFINITY)), 9);
    }

    #[test]
    fn omod_and_clamp() {
        let m = Mode(0xC0);
        assert_eq!(omod_clamp(m.fp32(), m, f(0.75), 1, false), f(1.5));
        assert_eq!(omod_clamp(m.fp32(), m, f(0.75), 1, true), f(1.0));
        assert_eq!(omod_clamp(m.fp32(), m, f(0.75), 3, false), f(0.375));
        assert_eq!(omod_clamp(m.fp32(), m, f(-3.0), 0, true), f(0.0));
        assert_eq!(omod_clamp(m.fp32(), m, f(-0.0), 0, true), f(-0.0));
        assert_eq!(omod_clamp(m.fp32(), m, 0x7FC0_0000, 0, true), 0x7FC0_0000);
        assert_eq!(omod_clamp(m.fp32(), Mode(0x1C0), 0x7FC0_0000, 0, true), 0);
        // f64 output denormals are kept by default: OMOD is skipped.
        assert_eq!(
            omod_clamp(m.fp64(), m, 1.5f64.to_bits(), 2, false),
            1.5f64.to_bits()
        );
    }

    #[test]
    fn to_int_and_round_int() {
        assert_eq!(to_int(F32, false, f(2.5), ToInt::NearestEven), Some(2));
        assert_eq!(to_int(F32, false, f(3.5), ToInt::NearestEven), Some(4));
        assert_eq!(to_int(F32, false, f(-2.5), ToInt::Floor), Some(-3));
        assert_eq!(to_int(F32, false, f(-2.5), ToInt::Trunc), Some(-2));
        assert_eq!(to_int(F32, false, f(2.1), ToInt::Ceil), Some(3));
        assert_eq!(to_int(F32, false, 0x7FC0_0000, ToInt::Trunc), None);
        assert_eq!(round_int(RNE32, f(-0.5), ToInt::Trunc), f(-0.0));
        assert_eq!(round_int(RNE32, f(-0.5), ToInt::Floor), f(-1.0));
        assert_eq!(round_int(RNE32, f(0.5), ToInt::NearestEven), f(0.0));
        assert_eq!(round_int(RNE32, f(1.5), ToInt::NearestEven), f(2.0));
        assert_eq!(round_int(RNE32, f(1e30), ToInt::Floor), f(1e30));
        assert_eq!(
            round_int(RNE64, (-2.75f64).to_bits(), ToInt::Ceil),
            (-2.0f64).to_bits()
        );
    }
}
