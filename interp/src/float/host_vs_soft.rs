//! The host fast path against the software path: every operation the fast path takes,
//! over special values in every MODE and over random operands, equal bit for bit.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;

/// Specials of a format: signed zeros, the smallest and largest denormals, the
/// normal/denormal boundary and its neighbours, ones and their neighbours, the largest
/// finite values, infinities, and NaNs (canonical, signalling, payloads, negative).
fn specials(f: Format) -> Vec<u64> {
    let man = (1u64 << f.man_bits) - 1;
    let min_norm = 1u64 << f.man_bits;
    let one = f.one(false);
    let inf = f.inf(false);
    let mags = [
        0,
        1,
        2,
        3,
        man >> 1,
        man,
        min_norm,
        min_norm + 1,
        min_norm * 2 - 1,
        min_norm * 2,
        one - 1,
        one,
        one + 1,
        one + min_norm, // 2.0
        one - min_norm, // 0.5
        one | (man >> 1),
        f.max_finite(false) - 1,
        f.max_finite(false),
        inf,
        inf | 1,
        inf | (1 << (f.man_bits - 1)),
        inf | man,
        inf | 0x55,
    ];
    let mut v = Vec::new();
    for m in mags {
        v.push(m);
        v.push(m | f.sign_bit());
    }
    v
}

/// Every MODE that matters to the precision of `f` (rounding and the two flushes).
fn modes(f: Format) -> Vec<Fp> {
    (0..256u32).map(|m| Mode(m).fp(f)).collect::<Vec<_>>()
}

fn check2(fp: Fp, a: u64, b: u64) {
    let names = ["add", "mul", "div", "sub"];
    let fast = [add(fp, a, b), mul(fp, a, b), div(fp, a, b), sub(fp, a, b)];
    let soft = [
        add_soft(fp, a, b),
        mul_soft(fp, a, b),
        div_soft(fp, a, b),
        add_soft(fp, a, fp.fmt.neg(b)),
    ];
    for i in 0..4 {
        assert_eq!(
            fast[i], soft[i],
            "{} {fp:?} {a:#x} {b:#x}: host {:#x}, software {:#x}",
            names[i], fast[i], soft[i]
        );
    }
    assert_eq!(
        compare(fp.fmt, fp.flush_in, a, b),
        compare_soft(fp.fmt, fp.flush_in, a, b),
        "compare {fp:?} {a:#x} {b:#x}"
    );
    assert_eq!(
        min_num(fp, a, b),
        pick_soft(fp, a, b, true),
        "min {fp:?} {a:#x} {b:#x}"
    );
    assert_eq!(
        max_num(fp, a, b),
        pick_soft(fp, a, b, false),
        "max {fp:?} {a:#x} {b:#x}"
    );
}

fn check_int(fp: Fp, v: i128) {
    assert_eq!(from_int(fp, v), from_int_soft(fp, v), "from_int {fp:?} {v}");
}

/// Integers where conversions round: around the significand widths (2^11, 2^24, 2^53)
/// with halfway cases, the ends of the 32- and 64-bit integer ranges, and the extremes of
/// `i128`.
fn special_ints() -> Vec<i128> {
    let mut v = vec![0, 1, 2, 3, i128::MAX, i128::MIN, i128::MIN + 1];
    for w in [11u32, 12, 24, 25, 31, 32, 53, 54, 63, 64, 100, 126] {
        let p = 1i128 << w;
        for d in [-3i128, -2, -1, 0, 1, 2, 3] {
            v.push(p + d);
        }
        // Halfway between two neighbours at the next precision step, and next to it.
        v.push(p + (p >> 24) + 1);
        v.push(p + (p >> 25));
        v.push(p + (p >> 54));
        v.push(p + 3 * (p >> 25));
    }
    let neg: Vec<i128> = v.iter().map(|x| x.wrapping_neg()).collect();
    v.extend(neg);
    v
}

fn check1(fp: Fp, a: u64) {
    assert_eq!(sqrt(fp, a), sqrt_soft(fp, a), "sqrt {fp:?} {a:#x}");
    for how in [
        ToInt::Trunc,
        ToInt::Floor,
        ToInt::Ceil,
        ToInt::NearestEven,
        ToInt::HalfUp,
    ] {
        assert_eq!(
            to_int(fp.fmt, fp.flush_in, a, how),
            to_int_soft(fp.fmt, fp.flush_in, a, how),
            "to_int {how:?} {fp:?} {a:#x}"
        );
    }
    assert_eq!(
        canonical(fp, a),
        canonical_soft(fp, a),
        "canonical {fp:?} {a:#x}"
    );
}

fn check3(fp: Fp, a: u64, b: u64, c: u64) {
    assert_eq!(
        fma(fp, a, b, c),
        fma_scaled(fp, a, b, c, 0),
        "fma {fp:?} {a:#x} {b:#x} {c:#x}"
    );
    assert_eq!(
        mad(fp, a, b, c),
        add_soft(fp, mul_soft(fp, a, b), c),
        "mad {fp:?} {a:#x} {b:#x} {c:#x}"
    );
}

#[test]
fn special_values_in_every_mode() {
    for f in [F32, F64, F16] {
        let sp = specials(f);
        for fp in modes(f) {
            for v in special_ints() {
                check_int(fp, v);
            }
            for &a in &sp {
                check1(fp, a);
                for &b in &sp {
                    check2(fp, a, b);
                }
            }
        }
        // FMA over triples: the sixteen distinct controls of the precision are enough
        // (the other MODE bits do not reach it), each triple of specials.
        let mut distinct = modes(f);
        distinct.sort_by_key(|fp| (fp.round as u8, fp.flush_in, fp.flush_out));
        distinct.dedup();
        assert_eq!(distinct.len(), 16);
        for fp in distinct {
            for &a in &sp {
                for &b in &sp {
                    for &c in &sp {
                        check3(fp, a, b, c);
                    }
                }
            }
        }
    }
}

/// A random operand: any bit pattern, or one with an exponent near the extremes or near
/// one (where overflow, underflow and cancellation happen).
fn operand(rng: &mut StdRng, f: Format) -> u64 {
    let bits: u64 = rng.random::<u64>() & ((f.sign_bit() << 1).wrapping_sub(1));
    let man = bits & ((1u64 << f.man_bits) - 1);
    let sign = bits & f.sign_bit();
    let emax = (1u64 << f.exp_bits) - 1;
    let exp = match rng.random_range(0..5) {
        0 => return bits,
        1 => rng.random_range(0..4u64),
        2 => emax - rng.random_range(1..4u64),
        3 => f.bias() as u64 + rng.random_range(0..8u64) - 4,
        _ => rng.random_range(0..=emax),
    };
    sign | (exp << f.man_bits) | man
}

#[test]
fn random_values() {
    let mut rng = StdRng::seed_from_u64(0x5EED_F10A7);
    for f in [F32, F64] {
        let ms = modes(f);
        for i in 0..300_000 {
            let fp = if i % 2 == 0 {
                // Half the cases in the modes the fast path takes.
                Mode(rng.random_range(0..256u32) & !0xF).fp(f)
            } else {
                ms[rng.random_range(0..ms.len())]
            };
            let (a, b, c) = (
                operand(&mut rng, f),
                operand(&mut rng, f),
                operand(&mut rng, f),
            );
            // Near-cancellation: b close to -a.
            let b = if i % 7 == 0 {
                f.neg(a) ^ rng.random_range(0..4u64)
            } else {
                b
            };
            check1(fp, a);
            check2(fp, a, b);
            check3(fp, a, b, c);
            // An integer of a random width, so that every magnitude is met.
            let w = rng.random_range(0..128u32);
            check_int(fp, (rng.random::<u128>() >> w) as i128);
        }
    }
}
