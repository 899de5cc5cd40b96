//! Drawn pixel-shader inputs for generated states: what a GPU's rasteriser and shader
//! input setup give a pixel-shader wave (the facade's `draw` builds the same), so that
//! VINTRP and EXP run on the values real shaders see and not only on random bits.
//!
//! * **M0** = NEWPRIMMASK << 16 | the LDS byte offset of the parameter block, both valid:
//!   NUMPRIM = popcount(NEWPRIMMASK) + 1 primitives among the 16 quads.
//! * **LDS** at that offset holds `ATTRS` attributes of each primitive in the layout of
//!   001_43f5507a70f72cb4.txt: 12 dwords at dword `12 × (ATTR × NUMPRIM + PRIMID)`, P0.x
//!   P10.x P0.y P10.y P0.z P10.z P0.w P10.w P20.x P20.y P20.z P20.w, with P0 the value at
//!   vertex 0, P10 = v1 − v0 and P20 = v2 − v0 as f32 subtractions. For f16 interpolation
//!   (GCN 1.2, now and then) each dword holds two f16 parameters, low and high half, both
//!   rounded from such f32 values.
//! * **I/J**: `v[IJ_VGPR..IJ_VGPR+2]` hold the barycentrics (I, J) of each lane's pixel, a
//!   2x2 quad per 4 lanes with a random gradient (pixels outside the triangle, as helper
//!   lanes have, included); `v[IJ_VGPR+2..IJ_VGPR+4]` a second pair (another sample
//!   position). The generator draws VINTRP coordinates mostly from these registers.
//! * **EXEC** is, now and then, whole 2x2 quads with a per-quad coverage.
//!
//! Vertex values are mostly small exact fractions, sometimes wide floats, and sometimes
//! any bit pattern (NaN payloads, infinities, denormals), so that the interpolation's
//! rounding and specials are both exercised.

use rand::Rng;

use super::values;
use crate::arch::Gen;
use crate::state::{Wave, LANES};

/// Attributes laid out per primitive.
pub const ATTRS: usize = 4;
/// The first of the four VGPRs holding I/J pairs.
pub const IJ_VGPR: u8 = 0;
/// Bytes of one (attribute, primitive) parameter block.
const BLOCK: usize = 48;

/// The values of one attribute channel at the three vertices.
fn vertex_value(rng: &mut impl Rng) -> f32 {
    match rng.random_range(0..20) {
        0..=13 => rng.random_range(-512i32..=512) as f32 / 128.0,
        14..=16 => (rng.random::<f32>() - 0.5) * 2.0e4,
        17 => [0.0, -0.0, 1.0, -1.0][rng.random_range(0..4)],
        _ => f32::from_bits(values::word(rng)),
    }
}

/// The vertex values of the four channels of one attribute.
fn vertex_values(rng: &mut impl Rng) -> [[f32; 3]; 4] {
    std::array::from_fn(|_| std::array::from_fn(|_| vertex_value(rng)))
}

/// A NEWPRIMMASK (15 bits): one primitive, a few, or many.
fn new_prim_mask(rng: &mut impl Rng) -> u32 {
    match rng.random_range(0..8) {
        0..=2 => 0,
        3..=4 => 1 << rng.random_range(0..15),
        5 => 0x7FFF,
        _ => rng.random::<u32>() & rng.random::<u32>() & 0x7FFF,
    }
}

/// The parameter dword of one (vertex-0 value, delta) pair: f32 bits, or two f16.
fn param_word(f16: bool, lo: f32, hi: f32) -> u32 {
    if f16 {
        let h = |x: f32| half::f16::from_f32(x).to_bits() as u32;
        h(lo) | h(hi) << 16
    } else {
        lo.to_bits()
    }
}

/// The 12 dwords of one (attribute, primitive): `lo` the vertex values per channel (and
/// `hi` those of the high halves for f16).
fn block(f16: bool, lo: &[[f32; 3]; 4], hi: &[[f32; 3]; 4]) -> [u32; 12] {
    let mut out = [0u32; 12];
    for c in 0..4 {
        let (l, h) = (lo[c], hi[c]);
        out[2 * c] = param_word(f16, l[0], h[0]);
        out[2 * c + 1] = param_word(f16, l[1] - l[0], h[1] - h[0]);
        out[8 + c] = param_word(f16, l[2] - l[0], h[2] - h[0]);
    }
    out
}

/// Overwrite M0, the parameter block in `lds`, the I/J VGPRs and (sometimes) EXEC of a
/// generated state with drawn inputs.
pub fn apply(gen: Gen, w: &mut Wave, lds: &mut [u8], limit: usize, rng: &mut impl Rng) {
    let mask = new_prim_mask(rng);
    let nprim = mask.count_ones() as usize + 1;
    let bytes = BLOCK * ATTRS * nprim;
    // The block inside the filled part of LDS, mostly 16-byte aligned.
    let room = limit.min(lds.len()).saturating_sub(bytes) as u32;
    let mut off = rng.random_range(0..=room / 16) * 16;
    if rng.random_bool(0.2) && off + 4 <= room {
        off += 4 * rng.random_range(0..=1);
    }
    w.m0 = mask << 16 | off;
    let f16 = gen == Gen::Gfx8 && rng.random_bool(0.3);
    for a in 0..ATTRS {
        for p in 0..nprim {
            let lo = vertex_values(rng);
            let hi = if rng.random_bool(0.5) {
                lo
            } else {
                vertex_values(rng)
            };
            let at = off as usize + BLOCK * (a * nprim + p);
            for (i, d) in block(f16, &lo, &hi).iter().enumerate() {
                if let Some(dst) = lds.get_mut(at + 4 * i..at + 4 * i + 4) {
                    dst.copy_from_slice(&d.to_le_bytes());
                }
            }
        }
    }
    for pair in 0..2 {
        let (ri, rj) = (
            (IJ_VGPR + 2 * pair) as usize,
            (IJ_VGPR + 2 * pair + 1) as usize,
        );
        for q in 0..LANES / 4 {
            let i0 = rng.random_range(-0.25f32..1.25);
            let j0 = rng.random_range(-0.25f32..1.25);
            let d: [f32; 4] = std::array::from_fn(|_| rng.random_range(-0.1f32..0.1));
            for l in 0..4 {
                let (x, y) = ((l & 1) as f32, (l >> 1) as f32);
                w.vgpr[ri][4 * q + l] = (i0 + x * d[0] + y * d[1]).to_bits();
                w.vgpr[rj][4 * q + l] = (j0 + x * d[2] + y * d[3]).to_bits();
            }
        }
    }
    if rng.random_bool(0.5) {
        w.exec = 0;
        for q in 0..LANES / 4 {
            let cov: u64 = match rng.random_range(0..6) {
                0..=2 => 0xF,
                3 => 0,
                _ => rng.random_range(1..16),
            };
            w.exec |= cov << (4 * q);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_follow_the_spec_layout() {
        // Vertex values of channel c: (c, c + 2, c + 5) → P0 = c, P10 = 2, P20 = 5.
        let lo: [[f32; 3]; 4] = std::array::from_fn(|c| [c as f32, c as f32 + 2.0, c as f32 + 5.0]);
        let b = block(false, &lo, &lo);
        let f = |x: f32| x.to_bits();
        assert_eq!(
            b,
            [
                f(0.0),
                f(2.0),
                f(1.0),
                f(2.0),
                f(2.0),
                f(2.0),
                f(3.0),
                f(2.0),
                f(5.0),
                f(5.0),
                f(5.0),
                f(5.0)
            ]
        );
        // f16: 1.0 = 0x3c00 low, 2.0 = 0x4000 high (P0 of channel 0).
        let hi: [[f32; 3]; 4] = [[2.0; 3]; 4];
        let lo1: [[f32; 3]; 4] = [[1.0, 1.5, 0.0]; 4];
        let b = block(true, &lo1, &hi);
        assert_eq!(b[0], 0x4000_3c00);
        // P10 = 0.5 (0x3800) low, 0 high; P20 = -1.0 (0xbc00) low, 0 high.
        assert_eq!(b[1], 0x0000_3800);
        assert_eq!(b[8], 0x0000_bc00);
    }

    #[test]
    fn m0_names_a_block_inside_the_filled_lds() {
        for i in 0..200 {
            let mut rng = crate::progen::rng(11, i);
            let mut w = Wave::new(Gen::Gfx8);
            let mut lds = vec![0u8; 8192];
            apply(Gen::Gfx8, &mut w, &mut lds, 4096, &mut rng);
            let nprim = ((w.m0 >> 16) & 0x7FFF).count_ones() as usize + 1;
            assert_eq!(w.m0 >> 31, 0);
            let off = (w.m0 & 0xFFFF) as usize;
            assert!(off.is_multiple_of(4));
            assert!(off + BLOCK * ATTRS * nprim <= 4096, "{off} {nprim}");
            // I/J of lane 0 are finite barycentrics near the triangle.
            let i0 = f32::from_bits(w.vgpr[IJ_VGPR as usize][0]);
            assert!((-0.6..1.6).contains(&i0), "{i0}");
        }
    }
}
