//! What the interpreter computes for the hardware's approximate transcendentals
//! (V_EXP/V_LOG/V_SIN/V_COS of f32 and f16). AMD documents them only as approximations, so
//! the project defines them exactly:
//!
//! > the exact function value is approximated in f64 by the fixed algorithm below (range
//! > reduction that is exact, then a Taylor polynomial evaluated with IEEE f64 `+`/`×` in
//! > round-to-nearest-even; relative error below 2^-50), and that f64 is rounded once to
//! > the destination format in the MODE's rounding direction.
//!
//! The result is therefore correctly rounded except when the exact value lies within
//! about 2^-50 (relative) of a rounding boundary, and it never depends on the host's libm:
//! only basic IEEE f64 operations are used, which every supported host performs exactly
//! alike. The JIT calls these functions rather than re-deriving them.

/// ln 2 rounded to f64.
const LN_2: f64 = std::f64::consts::LN_2;
/// log2(e) rounded to f64.
const LOG2_E: f64 = std::f64::consts::LOG2_E;
/// 2π rounded to f64.
const TAU: f64 = std::f64::consts::TAU;

/// 2^n for -1022 ≤ n ≤ 1023, exactly.
fn pow2(n: i32) -> f64 {
    f64::from_bits(((n + 1023) as u64) << 52)
}

/// The nearest integer of `x` (|x| < 2^52), ties away from zero; exact.
fn nearest(x: f64) -> f64 {
    // floor/trunc are exact IEEE operations on every host (no libm involved).
    let t = x.trunc();
    let d = x - t; // exact
    if d >= 0.5 {
        t + 1.0
    } else if d <= -0.5 {
        t - 1.0
    } else {
        t
    }
}

/// 2^x for finite x in [-1000, 1000].
pub fn exp2(x: f64) -> f64 {
    let n = nearest(x);
    let f = x - n; // exact, |f| ≤ 0.5
    let t = f * LN_2;
    // e^t = Σ t^k / k!, |t| ≤ 0.347: 17 terms leave an error below 1e-21.
    let mut s = 1.0;
    for k in (1..=17).rev() {
        s = 1.0 + s * t / k as f64;
    }
    // Scale in two steps so that 2^n never leaves the f64 range.
    let n = n as i32;
    let h = n / 2;
    s * pow2(h) * pow2(n - h)
}

/// log2(x) for finite x > 0 (a normal f64).
pub fn log2(x: f64) -> f64 {
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7FF) as i32 - 1023;
    let mut m = f64::from_bits((bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000);
    if m > std::f64::consts::SQRT_2 {
        m *= 0.5; // exact
        e += 1;
    }
    // ln m = 2 atanh(s), s = (m-1)/(m+1), |s| ≤ 0.172: 13 odd terms leave < 1e-20.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut sum = 0.0;
    for k in (0..13).rev() {
        sum = 1.0 / (2 * k + 1) as f64 + s2 * sum;
    }
    e as f64 + 2.0 * s * sum * LOG2_E
}

/// sin(2πx) and cos(2πx) for finite x, |x| < 2^52.
pub fn sincos_turns(x: f64) -> (f64, f64) {
    let r = x - nearest(x); // exact, |r| ≤ 1/2
    let q = nearest(4.0 * r); // quarter turns, -2..=2
    let t = r - q * 0.25; // exact (Sterbenz), |t| ≤ 1/8
    let th = t * TAU; // |θ| ≤ π/4
    let th2 = th * th;
    // sin θ = θ Σ (-θ²)^k/(2k+1)!, cos θ = Σ (-θ²)^k/(2k)!; 12 terms: error < 1e-25.
    let mut s = 1.0;
    let mut c = 1.0;
    for k in (1..=12).rev() {
        let k = k as f64;
        s = 1.0 - s * th2 / ((2.0 * k) * (2.0 * k + 1.0));
        c = 1.0 - c * th2 / ((2.0 * k - 1.0) * (2.0 * k));
    }
    let s = s * th;
    match (q as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_points() {
        assert_eq!(exp2(0.0), 1.0);
        assert_eq!(exp2(10.0), 1024.0);
        assert_eq!(exp2(-3.0), 0.125);
        assert_eq!(log2(1.0), 0.0);
        assert_eq!(log2(8.0), 3.0);
        assert_eq!(log2(0.25), -2.0);
        assert_eq!(sincos_turns(0.25), (1.0, -0.0));
        assert_eq!(sincos_turns(0.0), (0.0, 1.0));
        assert_eq!(sincos_turns(0.5).1, -1.0);
    }

    #[test]
    fn close_to_the_host_libm() {
        // The host's libm is not the definition, but both are accurate to ~1 ulp of f64.
        for i in -400..400 {
            let x = i as f64 * 0.0371;
            assert!((exp2(x) / x.exp2() - 1.0).abs() < 1e-14, "exp2 {x}");
            let y = (i as f64 + 400.5) * 0.37;
            assert!(
                (log2(y) - y.log2()).abs() <= 1e-14 * y.log2().abs().max(1e-3),
                "log2 {y}"
            );
            let (s, c) = sincos_turns(x);
            assert!((s - (x * TAU).sin()).abs() < 1e-13, "sin {x}");
            assert!((c - (x * TAU).cos()).abs() < 1e-13, "cos {x}");
        }
    }
}
