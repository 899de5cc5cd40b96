//! Bytewise scalar operations on the 4 bytes of a register (004_1a7ba760ea192bb0.txt
//! "Simple bytewise operations", "Bytewise bit operations"; vp1-notes.md 5 for bshr).
//! Byte 0 is bits 0-7.

use wavejit_isa::vp1::Kind;

/// Byte `i` (0-3) of `w`.
pub fn lane(w: u32, i: u32) -> u8 {
    (w >> (8 * i)) as u8
}

fn ext(b: u8, signed: bool) -> i32 {
    if signed {
        b as i8 as i32
    } else {
        b as i32
    }
}

/// Saturate to -0x80..0x7f (signed) or 0..0xff.
pub fn clip(v: i32, signed: bool) -> u8 {
    if signed {
        v.clamp(-0x80, 0x7f) as u8
    } else {
        v.clamp(0, 0xff) as u8
    }
}

/// bshr/bsar of one lane: the amount is the low 4 bits of `b`, signed (-8..7); negative
/// shifts left; the shift acts on the extended value and keeps its low 8 bits, unclipped.
pub fn shrb(a: i32, b: u8) -> u8 {
    let n = ((b << 4) as i8 >> 4) as i32;
    if n < 0 {
        (a << -n) as u8
    } else {
        (a >> n) as u8
    }
}

/// One lane of bmin/bmax/babs/bneg/badd/bsub/bshr: `a` and `b` are the raw bytes.
pub fn lane_op(kind: Kind, signed: bool, a: u8, b: u8) -> u8 {
    let (x, y) = (ext(a, signed), ext(b, signed));
    let r = match kind {
        Kind::Bmin => x.min(y),
        Kind::Bmax => x.max(y),
        Kind::Babs => x.abs(),
        Kind::Bneg => -x,
        Kind::Badd => x + y,
        Kind::Bsub => x - y,
        Kind::Bshr => return shrb(x, b),
        // Only the kinds above are byte lanes; the caller never passes others.
        _ => 0,
    };
    clip(r, signed)
}

/// A bytewise operation on all 4 lanes.
pub fn bytewise(kind: Kind, signed: bool, s1: u32, s2: u32) -> u32 {
    (0..4).fold(0, |acc, i| {
        acc | (lane_op(kind, signed, lane(s1, i), lane(s2, i)) as u32) << (8 * i)
    })
}

/// A byte replicated to the 4 lanes.
pub fn splat(b: u32) -> u32 {
    (b & 0xff) * 0x0101_0101
}
