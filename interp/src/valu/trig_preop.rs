//! The bits of 2/π that V_TRIG_PREOP_F64 hands out, computed once at first use with exact
//! integer arithmetic (Machin's formula for π, then a long division) rather than copied
//! from a table: `two_over_pi_bits(k)` is the integer formed by fraction bits k+1 … k+53
//! of 2/π (bit 1 is the 2^-1 place). The hardware keeps 1201 bits; bits past that are 0.

use std::sync::OnceLock;

/// Fraction bits of 2/π the hardware holds.
pub const BITS: usize = 1201;

/// Working precision of the fixed-point π (bits after the binary point).
const PREC: usize = BITS + 128;
const LIMBS: usize = PREC / 32 + 4;

/// A fixed-point number with `PREC` fraction bits, little-endian u32 limbs.
type Fix = [u32; LIMBS];

fn add(a: &mut Fix, b: &Fix) {
    let mut carry = 0u64;
    for (x, y) in a.iter_mut().zip(b) {
        let t = *x as u64 + *y as u64 + carry;
        *x = t as u32;
        carry = t >> 32;
    }
}

fn sub(a: &mut Fix, b: &Fix) {
    let mut borrow = 0i64;
    for (x, y) in a.iter_mut().zip(b) {
        let t = *x as i64 - *y as i64 - borrow;
        *x = t as u32;
        borrow = (t < 0) as i64;
    }
}

fn div_small(a: &Fix, d: u32) -> Fix {
    let mut q = [0u32; LIMBS];
    let mut rem = 0u64;
    for i in (0..LIMBS).rev() {
        let cur = (rem << 32) | a[i] as u64;
        q[i] = (cur / d as u64) as u32;
        rem = cur % d as u64;
    }
    q
}

fn is_zero(a: &Fix) -> bool {
    a.iter().all(|&x| x == 0)
}

/// `m · 2^PREC` as a fixed-point number.
fn int(m: u32) -> Fix {
    let mut a = [0u32; LIMBS];
    a[PREC / 32] = m << (PREC % 32);
    a
}

/// atan(1/x) = Σ (-1)^k / ((2k+1) x^(2k+1)), truncated term by term.
fn atan_inv(x: u32) -> Fix {
    let mut sum = [0u32; LIMBS];
    let mut power = div_small(&int(1), x); // 1/x^(2k+1)
    let mut k = 0u32;
    while !is_zero(&power) {
        let term = div_small(&power, 2 * k + 1);
        if k & 1 == 0 {
            add(&mut sum, &term);
        } else {
            sub(&mut sum, &term);
        }
        power = div_small(&div_small(&power, x), x);
        k += 1;
    }
    sum
}

/// The fraction bits of 2/π, bit 1 first (`bits[0]` is the 2^-1 place).
fn compute() -> Vec<bool> {
    // π = 16 atan(1/5) - 4 atan(1/239); the truncation errors are a few units of 2^-PREC.
    let a = atan_inv(5);
    let b = atan_inv(239);
    let mut pi = [0u32; LIMBS];
    for _ in 0..16 {
        add(&mut pi, &a);
    }
    for _ in 0..4 {
        sub(&mut pi, &b);
    }
    // 2/π by binary long division of 2·2^PREC by π·2^PREC, one quotient bit at a time.
    let mut rem = int(2);
    let mut bits = Vec::with_capacity(BITS);
    // 2/π < 1: the integer part is 0; the first fraction bit comes from 2·rem.
    for _ in 0..BITS {
        let top = rem[LIMBS - 1] >> 31;
        let mut carry = 0u32;
        for x in rem.iter_mut() {
            let nc = *x >> 31;
            *x = (*x << 1) | carry;
            carry = nc;
        }
        let ge = top != 0 || !less(&rem, &pi);
        if ge {
            sub(&mut rem, &pi);
        }
        bits.push(ge);
    }
    bits
}

fn less(a: &Fix, b: &Fix) -> bool {
    for i in (0..LIMBS).rev() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

fn table() -> &'static [bool] {
    static T: OnceLock<Vec<bool>> = OnceLock::new();
    T.get_or_init(compute)
}

/// Fraction bits `k+1 … k+53` of 2/π as a 53-bit integer (bits past 1201 read as 0).
pub fn two_over_pi_bits(k: usize) -> u64 {
    let t = table();
    (0..53).fold(0u64, |acc, i| {
        (acc << 1) | t.get(k + i).map_or(0, |&b| b as u64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_bits_are_two_over_pi() {
        // 2/π = 0.63661977236758134308 = 0x0.A2F9836E4E441529FC27…; the first 53 bits as
        // an integer, checked against the f64 value of 2/π (which is those bits rounded).
        let first = two_over_pi_bits(0);
        assert_eq!(first >> 52, 1);
        let x = first as f64 / (1u64 << 53) as f64;
        assert!(
            (x - std::f64::consts::FRAC_2_PI).abs() <= f64::EPSILON,
            "{x}"
        );
        // The well-known hexadecimal expansion's first 64 bits.
        let hi = (two_over_pi_bits(0) << 11) | (two_over_pi_bits(53) >> 42);
        assert_eq!(hi, 0xA2F9_836E_4E44_1529);
        assert_eq!(two_over_pi_bits(1300), 0);
    }
}
