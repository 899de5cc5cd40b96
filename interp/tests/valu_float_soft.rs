//! The software float core (`wavejit_interp::float`) checked against independent formulas:
//! the host's IEEE arithmetic in round-to-nearest-even (x86-64 SSE and AArch64 both round
//! correctly), the `half` crate's f32→f16 conversion, and, for the directed rounding modes,
//! exact bracketing of the true result computed with error-free transformations in f64.

use std::cmp::Ordering;
use wavejit_interp::float::{self, Fp, Round, F16, F32, F64};

/// splitmix64: a tiny deterministic generator (no dependency, same stream everywhere).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// f32 bit patterns biased toward interesting values: denormals, near-overflow,
    /// exponents close together (cancellation), plain random.
    fn f32(&mut self) -> u32 {
        let r = self.next();
        let sign = ((r >> 63) as u32) << 31;
        match r % 6 {
            0 => sign | (r as u32 & 0x007F_FFFF), // denormal/zero
            1 => sign | (0x7E80_0000 + (r as u32 & 0x00FF_FFFF)), // huge
            2 => sign | (0x3F00_0000 + (r as u32 & 0x01FF_FFFF)), // around 1
            3 => sign | (0x0080_0000 + (r as u32 & 0x01FF_FFFF)), // just normal
            _ => r as u32,
        }
    }
    fn f64(&mut self) -> u64 {
        let r = self.next();
        let sign = r & (1 << 63);
        match r % 5 {
            0 => sign | (r & 0x000F_FFFF_FFFF_FFFF),
            1 => sign | (0x3FE0_0000_0000_0000 + (r & 0x003F_FFFF_FFFF_FFFF)),
            2 => sign | (0x7FD0_0000_0000_0000 + (r & 0x001F_FFFF_FFFF_FFFF)),
            _ => r,
        }
    }
}

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

/// The host result with NaNs made canonical (the project's NaN rule).
fn canon32(x: f32) -> u64 {
    if x.is_nan() {
        0x7FC0_0000
    } else {
        x.to_bits() as u64
    }
}
fn canon64(x: f64) -> u64 {
    if x.is_nan() {
        0x7FF8_0000_0000_0000
    } else {
        x.to_bits()
    }
}

/// Each `(name, got, host's value)` that differs, described with the operands (up to 20
/// in all).
fn note_mismatches(bad: &mut Vec<String>, [a, b, c]: [u64; 3], checks: &[(&str, u64, u64)]) {
    for &(name, got, want) in checks {
        if got != want && bad.len() < 20 {
            bad.push(format!(
                "{name}({a:#x}, {b:#x}, {c:#x}) = {got:#x}, host {want:#x}"
            ));
        }
    }
}

#[test]
fn f32_ops_match_host_round_to_nearest_even() {
    let mut rng = Rng(1);
    let mut bad = Vec::new();
    for _ in 0..200_000 {
        let (a, b, c) = (rng.f32(), rng.f32(), rng.f32());
        let (x, y, z) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
        let (a, b, c) = (a as u64, b as u64, c as u64);
        let checks = [
            ("add", float::add(RNE32, a, b), canon32(x + y)),
            ("sub", float::sub(RNE32, a, b), canon32(x - y)),
            ("mul", float::mul(RNE32, a, b), canon32(x * y)),
            ("div", float::div(RNE32, a, b), canon32(x / y)),
            ("sqrt", float::sqrt(RNE32, a), canon32(x.sqrt())),
            ("fma", float::fma(RNE32, a, b, c), canon32(x.mul_add(y, z))),
            (
                "cvt_f64",
                float::convert(F32, false, RNE64, a),
                canon64(x as f64),
            ),
        ];
        note_mismatches(&mut bad, [a, b, c], &checks);
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn f64_ops_match_host_round_to_nearest_even() {
    let mut rng = Rng(2);
    let mut bad = Vec::new();
    for _ in 0..100_000 {
        let (a, b, c) = (rng.f64(), rng.f64(), rng.f64());
        let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
        let checks = [
            ("add", float::add(RNE64, a, b), canon64(x + y)),
            ("mul", float::mul(RNE64, a, b), canon64(x * y)),
            ("div", float::div(RNE64, a, b), canon64(x / y)),
            ("sqrt", float::sqrt(RNE64, a), canon64(x.sqrt())),
            ("fma", float::fma(RNE64, a, b, c), canon64(x.mul_add(y, z))),
            (
                "cvt_f32",
                float::convert(F64, false, RNE32, a),
                canon32(x as f32),
            ),
        ];
        note_mismatches(&mut bad, [a, b, c], &checks);
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn f32_to_f16_matches_the_half_crate() {
    let mut rng = Rng(3);
    let fp16 = Fp {
        fmt: F16,
        round: Round::NearestEven,
        flush_in: false,
        flush_out: false,
    };
    for i in 0..200_000u32 {
        // Every exponent near the f16 range, random mantissas, both signs.
        let a = if i < 100_000 {
            (i << 13) ^ (rng.next() as u32 & 0x1FFF)
        } else {
            rng.f32()
        };
        let a = a & 0x3FFF_FFFF | (0x3000_0000 * (i & 1)) | ((i >> 1 & 1) << 31);
        let want = half::f16::from_f32(f32::from_bits(a));
        let want = if want.is_nan() {
            0x7E00
        } else {
            want.to_bits() as u64
        };
        assert_eq!(float::convert(F32, false, fp16, a as u64), want, "{a:#x}");
    }
}

/// `r` (an f32, exactly an f64) against the exact value `s + e` (a two-sum pair, |e| at
/// most half an ulp of `s`).
fn cmp_exact(r: f32, s: f64, e: f64) -> Ordering {
    let r = r as f64;
    match r.partial_cmp(&s) {
        Some(Ordering::Equal) => 0.0f64.partial_cmp(&e).unwrap_or(Ordering::Equal),
        Some(o) => o,
        None => Ordering::Equal,
    }
}

fn next_up(x: f32) -> f32 {
    if x == 0.0 {
        f32::from_bits(1)
    } else if x > 0.0 {
        f32::from_bits(x.to_bits() + 1)
    } else {
        f32::from_bits(x.to_bits() - 1)
    }
}

/// For f32 add and mul the exact result is available in f64 (mul: exactly; add: as a
/// two-sum pair). Each directed result must bracket it, be adjacent to the other side, and
/// round-to-zero must pick the side toward zero.
#[test]
fn f32_directed_rounding_brackets_the_exact_result() {
    let mut rng = Rng(4);
    let mut bad = Vec::new();
    let fp = |r| Fp {
        fmt: F32,
        round: r,
        flush_in: false,
        flush_out: false,
    };
    for i in 0..200_000 {
        let (a, b) = (rng.f32(), rng.f32());
        let (x, y) = (f32::from_bits(a) as f64, f32::from_bits(b) as f64);
        if !x.is_finite() || !y.is_finite() {
            continue;
        }
        let is_mul = i % 2 == 0;
        let (s, e) = if is_mul {
            (x * y, 0.0) // 24 × 24 bits: exact in f64 (barring f64 underflow, not reachable)
        } else {
            let s = x + y;
            let bb = s - x;
            (s, (x - (s - bb)) + (y - bb))
        };
        let op = |r| {
            let bits = if is_mul {
                float::mul(fp(r), a as u64, b as u64)
            } else {
                float::add(fp(r), a as u64, b as u64)
            };
            f32::from_bits(bits as u32)
        };
        let (dn, up, tz) = (op(Round::Down), op(Round::Up), op(Round::Zero));
        let exact_is = |r: f32| cmp_exact(r, s, e);
        let mut ok = true;
        if dn.is_finite() && up.is_finite() {
            let cd = exact_is(dn);
            let cu = exact_is(up);
            ok &= cd != Ordering::Greater && cu != Ordering::Less;
            if cd == Ordering::Equal {
                ok &= dn.to_bits() == up.to_bits() || (dn == 0.0 && up == 0.0);
            } else {
                ok &= next_up(dn) == up || (dn == 0.0 && up == f32::from_bits(1));
            }
            let toward_zero = if s + e > 0.0 || (s + e == 0.0 && dn >= 0.0) {
                dn
            } else {
                up
            };
            ok &= tz.to_bits() == toward_zero.to_bits() || (tz == 0.0 && toward_zero == 0.0);
        } else {
            // Overflow: +inf only upward for positive results, -inf only downward.
            ok &= !(dn == f32::INFINITY && s + e > 0.0 && up != f32::INFINITY);
            ok &= tz.is_finite();
        }
        if !ok && bad.len() < 20 {
            bad.push(format!(
                "{} {a:#x} {b:#x}: down {dn:e} up {up:e} zero {tz:e}",
                if is_mul { "mul" } else { "add" }
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Division and square root: the remainder of the true result against the directed
/// results, computed exactly with host fma in f64 (f32 operands make every product exact).
#[test]
fn f32_directed_div_sqrt_bracket_the_exact_result() {
    let mut rng = Rng(5);
    let fp = |r| Fp {
        fmt: F32,
        round: r,
        flush_in: false,
        flush_out: false,
    };
    for _ in 0..100_000 {
        let (a, b) = (rng.f32() & 0x7FFF_FFFF, rng.f32());
        let (x, y) = (f32::from_bits(a) as f64, f32::from_bits(b) as f64);
        if !x.is_finite() || !y.is_finite() || y == 0.0 || x == 0.0 {
            continue;
        }
        for r in [Round::Down, Round::Up] {
            // q ≤ x / y ⇔ q·y ≤ x for y > 0; q·y is exact in f64 (24 + 24 bits).
            let q = f32::from_bits(float::div(fp(r), a as u64, b as u64) as u32) as f64;
            if q.is_finite() && q != 0.0 {
                let prod = q * y;
                let below = if y > 0.0 { prod <= x } else { prod >= x };
                let above = if y > 0.0 { prod >= x } else { prod <= x };
                assert!(
                    if r == Round::Down { below } else { above },
                    "div {r:?} {a:#x} {b:#x} -> {q:e}"
                );
            }
            let s = f32::from_bits(float::sqrt(fp(r), a as u64) as u32) as f64;
            if s.is_finite() && s != 0.0 {
                let sq = s * s; // exact
                assert!(
                    if r == Round::Down { sq <= x } else { sq >= x },
                    "sqrt {r:?} {a:#x} -> {s:e}"
                );
            }
        }
    }
}

/// rsq is correctly rounded: its value r satisfies r² × x ≤ 1 rounding down and ≥ 1
/// rounding up, and round-to-nearest is one of the two.
#[test]
fn rsq_is_correctly_rounded() {
    let mut rng = Rng(6);
    let fp = |r| Fp {
        fmt: F32,
        round: r,
        flush_in: false,
        flush_out: false,
    };
    for _ in 0..50_000 {
        let a = rng.f32() & 0x7FFF_FFFF;
        let x = f32::from_bits(a) as f64;
        if !x.is_finite() || x == 0.0 {
            continue;
        }
        let dn = f32::from_bits(float::rsq(fp(Round::Down), a as u64) as u32);
        let up = f32::from_bits(float::rsq(fp(Round::Up), a as u64) as u32);
        let ne = f32::from_bits(float::rsq(fp(Round::NearestEven), a as u64) as u32);
        // r² × x in f64: r has 24 bits, r² 48 bits, times x (24 bits) may round: compare
        // with an error bound of 2^-50 relative, far below the ulp of the answer.
        let t = |r: f32| (r as f64) * (r as f64) * x;
        assert!(
            t(dn) <= 1.0 + 1e-15 && t(up) >= 1.0 - 1e-15,
            "{a:#x}: {dn:e} {up:e}"
        );
        assert!(ne == dn || ne == up, "{a:#x}");
        assert!(up == dn || next_up(dn) == up, "{a:#x}: {dn:e} {up:e}");
        // And against the host: 1/sqrt in f64 is within 1 ulp of f32's correct result.
        let host = (1.0 / x.sqrt()) as f32;
        assert!(
            host == dn || host == up,
            "{a:#x}: host {host:e}, ours {dn:e}..{up:e}"
        );
    }
}

#[test]
fn flushes_follow_the_mode_bits() {
    let den = 0x0000_0001u64; // smallest positive f32 denormal
                              // MODE 0x00: flush in and out: den + 0 = +0.
    let m = float::Mode(0x00).fp32();
    assert_eq!(float::add(m, den, 0), 0);
    // MODE 0x10: inputs kept, outputs flushed: den + den = 2 den (denormal) → 0.
    let m = float::Mode(0x10).fp32();
    assert_eq!(float::add(m, den, den), 0);
    // MODE 0x20: inputs flushed, outputs kept: den × 2^100 = 0 (the input was flushed).
    let m = float::Mode(0x20).fp32();
    assert_eq!(float::ldexp(m, den, 100), 0);
    // MODE 0x30: both kept.
    let m = float::Mode(0x30).fp32();
    assert_eq!(float::add(m, den, den), 2);
    // -denormal flushes to -0.
    assert_eq!(
        float::add(float::Mode(0).fp32(), 0x8000_0001, 0x8000_0000),
        0x8000_0000
    );
}
