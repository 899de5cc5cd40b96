//! Random VP1 programs and states for differential testing and fuzzing (`wavejit fuzz
//! --arch vp1`, `jit/tests/vp1_diff.rs`). Deterministic for a seed (splitmix64), with no
//! dependency on a random-number crate's version.
//!
//! Programs draw every scalar opcode 0x00-0x7f (from the table) with random operand bits,
//! biased towards a few registers and towards the register files the movs reach, so that
//! words feed each other; now and then a word of another unit ends the run with an error.

use super::fields as f;
use super::state::{State, Variant};
use super::table::{Form, OPS};

/// splitmix64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.next_u32() as u64 * n as u64) >> 32) as u32
    }

    pub fn chance(&mut self, one_in: u32) -> bool {
        self.below(one_in) == 0
    }
}

/// A value with the edges arithmetic cares about more often than uniform bits would.
fn value(rng: &mut Rng) -> u32 {
    match rng.below(8) {
        0 => [
            0,
            1,
            0xffff_ffff,
            0x8000_0000,
            0x7fff_ffff,
            0x8080_8080,
            0x7f7f_7f7f,
            0x0010_0000,
        ][rng.below(8) as usize],
        1 => rng.next_u32() & 0xff,
        2 => rng.next_u32() >> rng.below(32),
        _ => rng.next_u32(),
    }
}

/// One random word: mostly scalar, sometimes (1 in `other_unit`) another unit's.
pub fn word(rng: &mut Rng, other_unit: u32) -> u32 {
    if other_unit > 0 && rng.chance(other_unit) {
        return (0x80 + rng.below(0x80)) << 24 | rng.next_u32() >> 8;
    }
    let op = rng.below(128);
    let mut w = op << 24 | rng.next_u32() >> 8;
    // Reuse a handful of registers so that results feed later words.
    if rng.below(4) != 0 {
        for fld in [f::DST, f::SRC1, f::SRC2] {
            w = fld.put(w, rng.below(6) + if rng.chance(8) { 26 } else { 0 });
        }
    }
    let form = OPS.get(op as usize).map(|d| d.form);
    if matches!(form, Some(Form::MovTo | Form::MovFrom)) && rng.below(4) != 0 {
        // The files that exist, and the alias 18.
        let files = [0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 18, 20, 21, 22, 23, 24];
        w = f::RFILE.put(w, files[rng.below(files.len() as u32) as usize]);
    }
    if rng.chance(3) {
        // $c writes more often.
        w = f::CDST.put(w, rng.below(4));
    }
    w
}

/// A random program of `len` words.
pub fn program(rng: &mut Rng, len: usize, other_unit: u32) -> Vec<u32> {
    (0..len).map(|_| word(rng, other_unit)).collect()
}

/// A random state (either variant, `$c` as the hardware can hold it).
pub fn state(rng: &mut Rng) -> State {
    let mut s = State::new(if rng.chance(2) {
        Variant::G80
    } else {
        Variant::Nv41
    });
    for r in s.r.iter_mut().take(31) {
        *r = value(rng);
    }
    for c in &mut s.c {
        *c = rng.next_u32() as u16;
    }
    s.normalize_c();
    for l in &mut s.l {
        *l = rng.next_u32() as u16;
    }
    for v in &mut s.vc {
        *v = rng.next_u32();
    }
    for v in &mut s.v {
        for w in v.iter_mut() {
            *w = value(rng);
        }
    }
    for file in [
        &mut s.a[..],
        &mut s.m[..],
        &mut s.sr[..],
        &mut s.mi[..],
        &mut s.uc[..],
        &mut s.d[..],
        &mut s.f[..],
        &mut s.x[..],
    ] {
        for x in file {
            *x = value(rng);
        }
    }
    s
}
