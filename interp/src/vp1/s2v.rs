//! What the scalar unit drives on the scalar-to-vector bus (004_1a7ba760ea192bb0.txt "Scalar
//! to vector data bus"; vp1-notes.md 6): factors, the two masks derived from them, and the
//! `$vc`-based mask of the sending instructions.

use super::byte::lane;

/// The factors every instruction without its own drives: bit i of `s1` (i < 4) sets mask
/// bits 4i..4i+3, and factors 0/1 carry that 16-bit mask doubled (vp1-notes.md 6, vecms).
pub fn junk(s1: u32) -> [i16; 4] {
    let mut mask = 0u32;
    for i in 0..4 {
        if s1 >> i & 1 != 0 {
            mask |= 0xf << (4 * i);
        }
    }
    [
        ((mask & 0xff) << 1) as i16,
        ((mask >> 8 & 0xff) << 1) as i16,
        0,
        0,
    ]
}

/// mask[0] = bits 1-8 of factors 0 and 1; mask[1] likewise of factors 2 and 3.
pub fn masks(f: [i16; 4]) -> [u16; 2] {
    let b = |x: i16| (x >> 1) as u16 & 0xff;
    [b(f[0]) | b(f[1]) << 8, b(f[2]) | b(f[3]) << 8]
}

/// bvec: each byte of `s1`, signed, doubled.
pub fn bvec(s1: u32) -> [i16; 4] {
    let f = |i| (lane(s1, i) as i8 as i16) * 2;
    [f(0), f(1), f(2), f(3)]
}

/// vec: two 9-bit immediates, each sent twice.
pub fn vec(f1: i32, f2: i32) -> [i16; 4] {
    [f1 as i16, f1 as i16, f2 as i16, f2 as i16]
}

/// bvecmad/bvecmadsel per lane: `(baseline * 256 + k * multiplicand + 0x40) >> 7`, the
/// bytes signed, `k` the unsigned prefactor.
pub fn bvecmad(base: u32, mult: u32, k: u32) -> [i16; 4] {
    let f = |i| {
        let a = lane(base, i) as i8 as i32;
        let b = lane(mult, i) as i8 as i32;
        ((a * 256 + k as i32 * b + 0x40) >> 7) as i16
    };
    [f(0), f(1), f(2), f(3)]
}

/// The `$vc` transforms: bit i of the mask is bit `XFRM[mode][i]` of the selected value.
pub const XFRM: [[u8; 16]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [2, 2, 2, 2, 6, 6, 6, 6, 10, 10, 10, 10, 14, 14, 14, 14],
    [4, 5, 4, 5, 4, 5, 4, 5, 12, 13, 12, 13, 12, 13, 12, 13],
    [0, 0, 2, 0, 4, 4, 6, 4, 8, 8, 10, 8, 12, 12, 14, 12],
    [1, 1, 1, 3, 5, 5, 5, 7, 9, 9, 9, 11, 13, 13, 13, 15],
    [0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14],
    [1, 1, 1, 1, 5, 5, 5, 5, 9, 9, 9, 9, 13, 13, 13, 13],
    [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30],
];

/// The mask from `$vc[idx]` (and `$vc[idx | 1]` for transform 7): the sf half (bits 0-15)
/// or the zf half (bits 16-31), transformed.
pub fn vcmask(vc: &[u32; 4], idx: u32, zf: bool, xfrm: u32) -> u16 {
    let half = |v: u32| if zf { v >> 16 } else { v & 0xffff };
    let val = half(vc[(idx & 3) as usize]) | half(vc[((idx | 1) & 3) as usize]) << 16;
    let tab = &XFRM[(xfrm & 7) as usize];
    (0..16).fold(0u16, |m, i| m | ((val >> tab[i] & 1) as u16) << i)
}
