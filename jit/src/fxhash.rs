//! A fast, non-cryptographic hasher for the lowering's maps. Their keys are Cranelift
//! `Value`s and `Type`s (small dense integers) and constants, produced by the compiler
//! itself, never by an adversary: std's SipHash (DoS-resistant) cost more than a tenth
//! of a quick-tier compile. Each word is mixed in by a rotate, xor and multiply by an odd
//! constant (the high bits of the product, which the table's control bytes use, depend on
//! every bit of the key).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The multiplier: 2^64 divided by the golden ratio, rounded to odd.
const K: u64 = 0x9e37_79b9_7f4a_7c15;

#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

impl FxHasher {
    #[inline]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(K);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.add(i as u64);
        self.add((i >> 64) as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
pub type FxSet<K> = HashSet<K, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn h<T: Hash>(x: T) -> u64 {
        BuildHasherDefault::<FxHasher>::default().hash_one(x)
    }

    #[test]
    fn distinct_small_keys_spread_over_the_top_bits() {
        // hashbrown takes its control byte from the top 7 bits: consecutive keys (as
        // Cranelift's value numbers are) must not all share them.
        let tops: FxSet<u64> = (0u32..1000).map(|i| h(i) >> 57).collect();
        assert!(tops.len() > 64, "{}", tops.len());
        assert_ne!(h((1u32, 2u8)), h((2u32, 1u8)));
        assert_ne!(h(1u128 << 64), h(1u128));
    }
}
