//! Bit patterns that break executors: float specials of every width (NaN with payloads,
//! signalling NaNs, ±inf, denormals, -0.0, ±1.0, the largest finite values), integer
//! edges (0x80000000, 0x7fffffff, −1), and plain random bits. Values are drawn per lane,
//! per register or for literals, and memory images in bulk (`fill`); the mix is biased
//! towards the specials.

use rand::Rng;

/// f32 patterns.
pub const F32: &[u32] = &[
    0x0000_0000, // +0.0
    0x8000_0000, // -0.0
    0x3F80_0000, // 1.0
    0xBF80_0000, // -1.0
    0x3F00_0000, // 0.5
    0x4000_0000, // 2.0
    0x7F80_0000, // +inf
    0xFF80_0000, // -inf
    0x7FC0_0000, // canonical quiet NaN
    0xFFC0_0000, // negative quiet NaN
    0x7FC0_0001, // quiet NaN with a payload
    0x7FA0_0000, // signalling NaN
    0x7F80_0001, // signalling NaN, smallest payload
    0xFFBF_FFFF, // negative signalling NaN, largest payload
    0x7FFF_FFFF, // quiet NaN, all payload bits
    0x0000_0001, // smallest denormal
    0x8000_0001, // smallest negative denormal
    0x007F_FFFF, // largest denormal
    0x807F_FFFF,
    0x0040_0000, // a denormal, half the largest
    0x0080_0000, // smallest normal
    0x8080_0000,
    0x7F7F_FFFF, // largest finite
    0xFF7F_FFFF,
    0x3F7F_FFFF, // 1.0 - ulp
    0x3F80_0001, // 1.0 + ulp
    0x3EFF_FFFF, // 0.5 - ulp: rounding to integral
    0x3FC0_0000, // 1.5
    0xBFC0_0000, // -1.5
    0x4040_0000, // 3.0
    0x4B00_0000, // 2^23: the float/integer boundary
    0x4B7F_FFFF,
    0x4F00_0000, // 2^31
    0xCF00_0000, // -2^31
    0x4F80_0000, // 2^32
    0x5F00_0000, // 2^63
    0x4049_0FDB, // pi
    0x3E22_F983, // 1/(2 pi)
    0x3338_0000, // tiny normal
];

/// f16 patterns (placed in the low or high half of a dword).
pub const F16: &[u16] = &[
    0x0000, 0x8000, 0x3C00, 0xBC00, 0x3800, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7E01, 0x7D00, 0x7C01,
    0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x7BFF, 0xFBFF, 0x3BFF, 0x3C01, 0x6800, 0x5640, 0x3118,
];

/// f64 patterns (as register pairs: low dword in v[n], high in v[n+1]).
pub const F64: &[u64] = &[
    0x0000_0000_0000_0000,
    0x8000_0000_0000_0000,
    0x3FF0_0000_0000_0000,
    0xBFF0_0000_0000_0000,
    0x3FE0_0000_0000_0000,
    0x7FF0_0000_0000_0000,
    0xFFF0_0000_0000_0000,
    0x7FF8_0000_0000_0000,
    0xFFF8_0000_0000_0000,
    0x7FF8_0000_0000_0001,
    0x7FF4_0000_0000_0000,
    0x7FF0_0000_0000_0001,
    0x7FFF_FFFF_FFFF_FFFF,
    0x0000_0000_0000_0001,
    0x8000_0000_0000_0001,
    0x000F_FFFF_FFFF_FFFF,
    0x0010_0000_0000_0000,
    0x7FEF_FFFF_FFFF_FFFF,
    0xFFEF_FFFF_FFFF_FFFF,
    0x3FEF_FFFF_FFFF_FFFF,
    0x3FF0_0000_0000_0001,
    0x4330_0000_0000_0000, // 2^52
    0x41E0_0000_0000_0000, // 2^31
    0xC1E0_0000_0000_0000,
    0x41F0_0000_0000_0000, // 2^32
    0x400921FB54442D18,    // pi
    0x3FC4_5F30_6DC9_C882, // 1/(2 pi) as the hardware has it
    0x3810_0000_0000_0000, // smallest f32 normal as f64
    0x36A0_0000_0000_0000, // smallest f32 denormal as f64
];

/// Integer patterns.
pub const INT: &[u32] = &[
    0,
    1,
    2,
    3,
    0xFFFF_FFFF,
    0xFFFF_FFFE,
    0x8000_0000,
    0x7FFF_FFFF,
    0x8000_0001,
    0x0000_FFFF,
    0xFFFF_0000,
    0x0000_8000,
    0x0000_7FFF,
    0x0000_0080,
    0x0000_00FF,
    0x00FF_FFFF, // 24-bit edges (mul_u24, …)
    0x0080_0000,
    0xFF80_0000,
    31,
    32,
    33,
    63,
    64,
    0x5555_5555,
    0xAAAA_AAAA,
    0x0F0F_0F0F,
    0x8080_8080,
    0x7F7F_7F7F,
];

fn pick<T: Copy>(rng: &mut impl Rng, xs: &[T]) -> T {
    xs[rng.random_range(0..xs.len())]
}

/// Of 100 `word`s, how many are plain random bits (the rest are special-biased kinds).
const RANDOM_IN_100: u32 = 22;

/// One 32-bit value, biased to the specials.
pub fn word(rng: &mut impl Rng) -> u32 {
    match rng.random_range(0..100) {
        k @ 0..78 => special(rng, k),
        _ => rng.random(),
    }
}

/// A value of `word`'s special-biased kind `k` (0-77, `100 - RANDOM_IN_100` kinds).
fn special(rng: &mut impl Rng, k: u32) -> u32 {
    match k {
        0..=29 => pick(rng, F32),
        30..=37 => {
            let lo = pick(rng, F16) as u32;
            let hi = if rng.random_bool(0.5) {
                pick(rng, F16) as u32
            } else {
                rng.random::<u16>() as u32
            };
            if rng.random_bool(0.5) {
                lo | hi << 16
            } else {
                hi | lo << 16
            }
        }
        38..=45 => {
            let d = pick(rng, F64);
            if rng.random_bool(0.5) {
                d as u32
            } else {
                (d >> 32) as u32
            }
        }
        46..=63 => pick(rng, INT),
        64..=73 => rng.random_range(0..=80u32).wrapping_sub(16),
        _ => {
            // A float near a special: a few ulps away.
            pick(rng, F32)
                .wrapping_add(rng.random_range(0..4u32))
                .wrapping_sub(2)
        }
    }
}

/// Distinct special-biased values `fill` draws per call.
pub const FILL_SPECIALS: usize = 256;

/// `word`'s mix as a stream, for values drawn in bulk (memory images, per-lane registers)
/// at a fraction of `word`'s cost: each value is plain random bits with `word`'s
/// probability (about 22 in 100), else one of `FILL_SPECIALS` values of `word`'s
/// special-biased kinds drawn when the stream is made. `word`'s unpredictable branches and
/// its two to four draws from `rng` (ChaCha) were most of a fuzzing state's generation
/// time (perf); here each value costs one step of a splitmix64 sequence seeded from `rng`,
/// and a select. Every value `word` can give, the stream can give.
pub struct Mix {
    specials: [u32; FILL_SPECIALS],
    state: u64,
}

impl Mix {
    /// A stream drawn from `rng` (its specials, then its seed).
    pub fn new(rng: &mut impl Rng) -> Mix {
        let specials: [u32; FILL_SPECIALS] = std::array::from_fn(|_| {
            let k = rng.random_range(0..100 - RANDOM_IN_100);
            special(rng, k)
        });
        Mix {
            specials,
            state: rng.random(),
        }
    }

    /// 64 random bits: the next step of splitmix64.
    fn bits(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut r = self.state;
        r = (r ^ (r >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        r = (r ^ (r >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        r ^ (r >> 31)
    }

    /// The next value (`word`'s mix).
    pub fn word(&mut self) -> u32 {
        let r = self.bits();
        // Bits 0-31: the random word; 32-39: which special; 40-55: the choice, scaled to 0-99.
        let special = self.specials[(r >> 32) as usize % FILL_SPECIALS];
        let percent = (((r >> 40) as u32 & 0xFFFF) * 100) >> 16;
        if percent < RANDOM_IN_100 {
            r as u32
        } else {
            special
        }
    }

    /// A register pair's value, `dword_pair`'s mix: an f64 special, two values, a
    /// sign-extended value or 64 random bits.
    pub fn pair(&mut self) -> u64 {
        let r = self.bits();
        // Bits 0-15: the kind, scaled to 0-9; 32-63: which f64 special.
        match ((r & 0xFFFF) * 10) >> 16 {
            0..=4 => F64[(((r >> 32) * F64.len() as u64) >> 32) as usize],
            5..=6 => self.word() as u64 | (self.word() as u64) << 32,
            7 => self.word() as i32 as i64 as u64,
            _ => self.bits(),
        }
    }

    /// Fill `out` with values.
    pub fn fill(&mut self, out: &mut [u32]) {
        for w in out {
            *w = self.word();
        }
    }

    /// Fill `out` (a byte image) with values, little-endian; a partial last dword takes
    /// the low bytes of one.
    pub fn fill_bytes(&mut self, out: &mut [u8]) {
        let mut words = out.chunks_exact_mut(4);
        for c in &mut words {
            c.copy_from_slice(&self.word().to_le_bytes());
        }
        let tail = words.into_remainder();
        let n = tail.len();
        if n > 0 {
            tail.copy_from_slice(&self.word().to_le_bytes()[..n]);
        }
    }
}

/// Fill `out` (a memory image: thousands of words) with a fresh `Mix` from `rng`.
pub fn fill(rng: &mut impl Rng, out: &mut [u32]) {
    Mix::new(rng).fill(out);
}

/// A 64-bit value for a register pair, biased to f64 specials.
pub fn dword_pair(rng: &mut impl Rng) -> u64 {
    match rng.random_range(0..10) {
        0..=4 => pick(rng, F64),
        5..=6 => word(rng) as u64 | (word(rng) as u64) << 32,
        7 => (word(rng) as i32) as i64 as u64,
        _ => rng.random(),
    }
}

/// A 64-bit lane mask (EXEC, VCC, compare results): all ones and the edge patterns
/// often, random otherwise.
pub fn lane_mask(rng: &mut impl Rng) -> u64 {
    match rng.random_range(0..20) {
        0..=6 => u64::MAX,
        7 => 0,
        8 => 0x0000_0000_FFFF_FFFF,
        9 => 0xFFFF_FFFF_0000_0000,
        10 => 0x5555_5555_5555_5555,
        11 => 0xAAAA_AAAA_AAAA_AAAA,
        12 => 1u64 << rng.random_range(0..64),
        13 => !(1u64 << rng.random_range(0..64)),
        14 => 0x0F0F_0F0F_F0F0_F0F0,
        15 => 0x8000_0000_0000_0001,
        _ => rng.random(),
    }
}

/// A literal constant for an instruction of `bits`-bit operands (16, 32 or 64).
pub fn literal(rng: &mut impl Rng) -> u32 {
    match rng.random_range(0..10) {
        0..=5 => word(rng),
        6..=7 => (pick(rng, F64) >> 32) as u32,
        _ => rng.random_range(65..100_000u32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_has_words_mix_and_fresh_random_bits() {
        let mut rng = crate::progen::rng(5, 0);
        let mut out = vec![0u32; 64 * 1024];
        fill(&mut rng, &mut out);
        let n = out.len() as f64;
        // `word` draws an f32 special in 30 of 100 (and a near one in 4): the filled words
        // are at least that often members of `F32`, and at most 30 + 18 + 10 + 8 + 8 in 100
        // (the kinds that can land on one).
        let f32s = out.iter().filter(|x| F32.contains(x)).count() as f64;
        assert!((0.28..0.60).contains(&(f32s / n)), "{f32s} of {n}");
        // About 22 in 100 are fresh random bits: nearly all distinct, where the specials
        // repeat (at most FILL_SPECIALS of them).
        let mut d = out.clone();
        d.sort_unstable();
        d.dedup();
        let distinct = d.len() as f64 / n;
        assert!((0.20..0.24).contains(&distinct), "{distinct}");
        // The same stream gives the same words.
        let mut again = vec![0u32; out.len()];
        fill(&mut crate::progen::rng(5, 0), &mut again);
        assert_eq!(out, again);
    }

    #[test]
    fn mix_pairs_have_dword_pairs_mix() {
        let mut mix = Mix::new(&mut crate::progen::rng(6, 0));
        let pairs: Vec<u64> = (0..64 * 1024).map(|_| mix.pair()).collect();
        let n = pairs.len() as f64;
        let frac = |f: &dyn Fn(u64) -> bool| pairs.iter().filter(|&&x| f(x)).count() as f64 / n;
        // `dword_pair` draws an f64 special in 5 of 10 (and two words that form one now
        // and then), a sign-extended word in 1, two words in 2, random bits in 2.
        let f64s = frac(&|x| F64.contains(&x));
        assert!((0.49..0.56).contains(&f64s), "{f64s}");
        let sext = frac(&|x| !F64.contains(&x) && x == (x as u32 as i32 as i64 as u64));
        assert!((0.09..0.16).contains(&sext), "{sext}");
        let mut d = pairs.clone();
        d.sort_unstable();
        d.dedup();
        let distinct = d.len() as f64 / n;
        assert!((0.19..0.40).contains(&distinct), "{distinct}");
    }
}
