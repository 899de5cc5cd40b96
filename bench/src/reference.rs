//! What the dpp, vintrp, divergent and lds_matmul kernels must compute, worked out in
//! plain Rust from what each kernel means (a prefix sum is a prefix sum, a matrix product
//! a matrix product) — not by re-implementing the instructions — so that a result that
//! passes here is right whichever engine produced it. valu, sdwa and f64 are checked
//! against `native`.

use wavejit_isa::state::{Lds, Wave, LANES};

/// Compare the registers `regs` of `got` with `want` (same numbering); the first
/// difference is the error.
pub fn compare_vgprs(got: &Wave, want: &[(usize, [u32; LANES])]) -> Result<(), String> {
    for (r, lanes) in want {
        for (l, (&w, &g)) in lanes.iter().zip(got.vgpr[*r].iter()).enumerate() {
            if w != g {
                return Err(format!("v{r} lane {l}: expected 0x{w:08x}, got 0x{g:08x}"));
            }
        }
    }
    Ok(())
}

/// The dpp kernel after `iters` iterations: v1-v8.
pub fn dpp(iters: u32) -> Vec<(usize, [u32; LANES])> {
    let lane = |l: usize| l as u32;
    let mut x: [u32; LANES] = std::array::from_fn(|l| lane(l).wrapping_mul(0x9e37_79b9));
    let (mut vals, mut incl, mut quad, mut excl) =
        ([0u32; LANES], [0u32; LANES], [0u32; LANES], [0u32; LANES]);
    let (mut s6, mut s7, mut s8) = ([0u32; LANES], [0u32; LANES], [0u32; LANES]);
    for _ in 0..iters {
        for (l, xl) in x.iter_mut().enumerate() {
            *xl = (*xl & 0xff_ffff)
                .wrapping_mul(0x5b_d1e9)
                .wrapping_add(lane(l));
        }
        for l in 0..LANES {
            vals[l] = x[l] >> 8;
        }
        let mut sum = 0u32;
        for l in 0..LANES {
            excl[l] = sum;
            sum = sum.wrapping_add(vals[l]);
            incl[l] = sum;
        }
        for (l, ql) in quad.iter_mut().enumerate() {
            let q = l & !3;
            *ql = vals[q..q + 4].iter().copied().max().unwrap_or(0);
        }
        for l in 0..LANES {
            s6[l] = s6[l].wrapping_add(incl[l]);
            s7[l] = s7[l].wrapping_add(quad[l]);
            s8[l] ^= excl[l];
        }
    }
    vec![
        (1, x),
        (2, vals),
        (3, incl),
        (4, quad),
        (5, excl),
        (6, s6),
        (7, s7),
        (8, s8),
    ]
}

/// The vintrp kernel after `iters` iterations from the LDS parameters `lds` and the
/// steps `di`, `dj` (f32 bits): v1, v2, v10-v25, v26.
pub fn vintrp(
    iters: u32,
    lds: &Lds,
    di: u32,
    dj: u32,
) -> Result<Vec<(usize, [u32; LANES])>, String> {
    // Spec 001 / ERRATA VINTRP 3: attribute a's parameters are 12 dwords at dword 12 a:
    // P0.x P10.x P0.y P10.y P0.z P10.z P0.w P10.w P20.x P20.y P20.z P20.w.
    let dword = |i: u32| {
        lds.read_u32(4 * i)
            .map(f32::from_bits)
            .map_err(|e| format!("reference: {e}"))
    };
    let mut p = [[[0f32; 3]; 4]; 4];
    for (a, pa) in p.iter_mut().enumerate() {
        for (c, pc) in pa.iter_mut().enumerate() {
            let base = 12 * a as u32;
            *pc = [
                dword(base + 2 * c as u32)?,
                dword(base + 2 * c as u32 + 1)?,
                dword(base + 8 + c as u32)?,
            ];
        }
    }
    let (di, dj) = (f32::from_bits(di), f32::from_bits(dj));
    let mut out_i = [0u32; LANES];
    let mut out_j = [0u32; LANES];
    let mut acc = [[0u32; LANES]; 16];
    for l in 0..LANES {
        let mut i = (l & 7) as f32 * 0.125;
        let mut j = (l >> 3) as f32 * 0.125;
        let mut sums = [0f32; 16];
        for _ in 0..iters {
            i += di;
            j += dj;
            for a in 0..4 {
                for c in 0..4 {
                    let [p0, p10, p20] = p[a][c];
                    // Unfused: the product is rounded before the add (as V_MAD_F32).
                    let v = (p0 + i * p10) + j * p20;
                    sums[4 * a + c] += v;
                }
            }
        }
        out_i[l] = i.to_bits();
        out_j[l] = j.to_bits();
        for (k, s) in sums.iter().enumerate() {
            acc[k][l] = s.to_bits();
        }
    }
    let mut want = vec![(1, out_i), (2, out_j)];
    want.extend(acc.iter().enumerate().map(|(k, a)| (10 + k, *a)));
    want.push((26, [p[0][0][0].to_bits(); LANES]));
    Ok(want)
}

/// The divergent kernel after `reps` repetitions: v1-v7.
pub fn divergent(reps: u32) -> Vec<(usize, [u32; LANES])> {
    let mut want: [[u32; LANES]; 8] = [[0; LANES]; 8];
    // One lane at a time, as the lane sees its own loop.
    #[allow(clippy::needless_range_loop)]
    for l in 0..LANES {
        let trips = 16 + ((l as u32 * 37) & 63);
        let mut h = l as u32;
        let mut sum = 0f32;
        let (mut x, mut xs) = (0, 0);
        for _ in 0..reps {
            for k in 1..=trips {
                x = h ^ k;
                xs = x << 3;
                h = (x & 0xff_ffff).wrapping_mul(5).wrapping_add(xs);
                sum += k as f32 * 0.5;
            }
        }
        want[1][l] = trips;
        want[2][l] = trips;
        want[3][l] = h;
        want[4][l] = sum.to_bits();
        want[5][l] = x;
        want[6][l] = xs;
        want[7][l] = (trips as f32).to_bits();
    }
    (1..8).map(|r| (r, want[r])).collect()
}

/// Element (i, j) of the lds_matmul inputs: small integers, so that every product and
/// sum is exact in f32 (|C| <= N * 64 < 2^24) whatever the summation order.
pub fn matmul_a(i: u32, j: u32) -> f32 {
    ((i * 7 + j * 3) % 17) as f32 - 8.0
}

pub fn matmul_b(i: u32, j: u32) -> f32 {
    ((i * 5 + j * 11) % 13) as f32 - 6.0
}

/// C = A x B, row-major, as f32 bits.
pub fn matmul(n: u32) -> Vec<u32> {
    let mut c = Vec::with_capacity((n * n) as usize);
    for i in 0..n {
        for j in 0..n {
            let s: i64 = (0..n)
                .map(|k| matmul_a(i, k) as i64 * matmul_b(k, j) as i64)
                .sum();
            c.push((s as f32).to_bits());
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dpp_prefix_sums_by_hand() {
        // One iteration: x1 = u24(lane * 0x9e3779b9) * 0x5bd1e9 + lane.
        let w = dpp(1);
        let x0 = 0u32; // lane 0
        let x1 = 0u32.wrapping_mul(0x9e37_79b9);
        assert_eq!(w[0].1[0], (x1 & 0xff_ffff).wrapping_mul(0x5b_d1e9) + x0);
        let v = &w[1].1;
        assert_eq!(w[2].1[63], v.iter().fold(0u32, |a, &b| a.wrapping_add(b)));
        assert_eq!(w[4].1[0], 0);
        assert_eq!(w[4].1[1], v[0]);
        assert_eq!(w[3].1[5], v[4].max(v[5]).max(v[6]).max(v[7]));
    }

    #[test]
    fn divergent_trip_counts() {
        let w = divergent(1);
        assert_eq!(w[0].1[0], 16);
        assert_eq!(w[0].1[1], 16 + 37);
        assert_eq!(w[0].1[2], 16 + (74 & 63));
        // sum of k/2 for k = 1..=16
        assert_eq!(f32::from_bits(w[3].1[0]), 68.0);
    }

    #[test]
    fn matmul_small() {
        let c = matmul(2);
        let a = |i, j| matmul_a(i, j);
        let b = |i, j| matmul_b(i, j);
        assert_eq!(f32::from_bits(c[1]), a(0, 0) * b(0, 1) + a(0, 1) * b(1, 1));
    }
}
