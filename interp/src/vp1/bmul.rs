//! The bytewise multiplier shared by bmul, bmula and the opcodes that only feed the s2v bus
//! (vp1-notes.md 5, "bmul family"): per lane, signed inputs are doubled (7 to 8 fractional
//! bits), multiplied, optionally rounded, then shifted and clipped for the register, and
//! exposed as a 10-bit s2v factor.

use super::byte::{clip, lane};

/// How an opcode drives the multiplier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cfg {
    /// Source 1 / source 2 are signed bytes.
    pub sign1: bool,
    pub sign2: bool,
    /// Signed output (opcode bit 4 clear).
    pub signd: bool,
    /// Round to nearest (ties up) instead of down.
    pub rnd: bool,
    /// The s2v factor is the product >> 8 (subops 0 and 1) rather than its low bits.
    pub factor_shift: bool,
}

/// Sign-extend the low 10 bits.
pub fn sext10(v: i32) -> i16 {
    (((v << 22) >> 22) & 0xffff) as i16
}

/// One lane: (register byte, s2v factor).
pub fn lane_mul(a: u8, b: u8, cfg: Cfg) -> (u8, i16) {
    let x = if cfg.sign1 {
        (a as i8 as i32) * 2
    } else {
        a as i32
    };
    let y = if cfg.sign2 {
        (b as i8 as i32) * 2
    } else {
        b as i32
    };
    let mut p = x * y;
    if cfg.rnd {
        p += if cfg.signd { 0x100 } else { 0x80 };
    }
    let factor = sext10(if cfg.factor_shift { p >> 8 } else { p });
    // A signed result keeps 7 fractional bits (>> 9), an unsigned one 8 (>> 8).
    let r = if cfg.signd { p >> 9 } else { p >> 8 };
    (clip(r, cfg.signd), factor)
}

/// All 4 lanes: (register result, factors).
pub fn bmul(s1: u32, s2: u32, cfg: Cfg) -> (u32, [i16; 4]) {
    let mut r = 0;
    let mut f = [0i16; 4];
    for (i, fi) in f.iter_mut().enumerate() {
        let (b, fac) = lane_mul(lane(s1, i as u32), lane(s2, i as u32), cfg);
        r |= (b as u32) << (8 * i);
        *fi = fac;
    }
    (r, f)
}
