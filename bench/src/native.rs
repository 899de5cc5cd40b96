//! Native baselines for the valu, sdwa and f64 kernels: the same per-lane
//! computation as the GCN code, written as plain Rust over the register file's layout
//! (`[[u32; 64]; N]`: one register is 64 consecutive lanes), one lane loop per loop
//! iteration that loads the registers it reads and stores every register the kernel
//! writes (the kernel's observable result), as a careful Rust programmer would write it
//! for speed. Each is compiled for the baseline x86-64 target and with
//! `#[target_feature(enable = "avx2,fma")]`, chosen at run time when the host has them, so
//! the lane loops vectorise to 256-bit AVX2 and `mul_add` is one `vfmadd` (see
//! `docs/bench/RESULTS.md` for the inspected assembly).
//!
//! A second build of the same source (`*_128`: extra information, not a target) runs the
//! lane loop in 16-byte chunks (4 lanes of 32 bits, 2 of an f64 kernel) whose index LLVM
//! cannot see through, so it vectorises within a chunk only: 128-bit `xmm` code with the
//! same AVX2/FMA instructions, the vector width Cranelift's x86-64 back end emits. The
//! JIT's time over this one is its lowering cost with the width difference taken out.
//!
//! They are also the independent computation the valu, sdwa and f64 results are checked
//! against: nothing here shares code with the interpreter or the JIT.

/// Registers v0-v28 of the valu kernel.
pub type ValuRegs = [[u32; 64]; 29];
/// Registers v0-v24 of the sdwa kernel.
pub type SdwaRegs = [[u32; 64]; 25];
/// Registers v0-v21 of the f64 kernel.
pub type F64Regs = [[u32; 64]; 22];

/// The result of a native run: the registers and VCC.
#[derive(Clone)]
pub struct NativeOut<const N: usize> {
    pub v: Box<[[u32; 64]; N]>,
    pub vcc: u64,
}

/// Which instruction set the native baselines run with on this host.
pub fn isa() -> &'static str {
    if wide() {
        "x86-64 + AVX2 + FMA (256-bit)"
    } else {
        "baseline target (no AVX2/FMA detected)"
    }
}

/// Which instruction set the 128-bit builds (`*_128`) run with on this host.
pub fn isa_128() -> &'static str {
    if wide() {
        "x86-64 + AVX2 + FMA, 128-bit vectors (lane loop in 16-byte chunks)"
    } else {
        "baseline target, lane loop in 16-byte chunks"
    }
}

fn wide() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The lane loop of the baselines: `f(l)` for every lane. `W = 64`: one loop over all
/// lanes, vectorised as wide as the target allows. `W < 64`: chunks of `W` lanes; the
/// chunk index goes through `black_box`, so LLVM cannot merge chunks into wider vectors
/// and vectorises each chunk of `W` lanes on its own (`W` = 16 bytes / lane size gives
/// 128-bit code).
#[inline(always)]
fn lanes<const W: usize>(mut f: impl FnMut(usize)) {
    if W >= 64 {
        for l in 0..64 {
            f(l)
        }
    } else {
        for c in 0..64 / W {
            // The modulo keeps the index provably in range (no bounds checks).
            let c = std::hint::black_box(c) % (64 / W);
            for l in c * W..c * W + W {
                f(l)
            }
        }
    }
}

/// Defines `pub fn $name(iters) -> NativeOut<N>` that runs `$body` with the widest
/// instruction set the host has, and `pub fn $narrow(iters)` that runs it with the same
/// instruction set in chunks of `$w` lanes (128-bit vectors).
macro_rules! multiversion {
    ($name:ident, $wide:ident, $narrow:ident, $narrow_wide:ident, $body:ident, $n:expr, $w:expr) => {
        pub fn $name(iters: u32) -> NativeOut<$n> {
            let mut v: Box<[[u32; 64]; $n]> = Box::new([[0; 64]; $n]);
            let vcc;
            #[cfg(target_arch = "x86_64")]
            {
                if wide() {
                    // SAFETY: AVX2 and FMA were detected on this CPU just now.
                    vcc = unsafe { $wide(&mut v, iters) };
                    return NativeOut { v, vcc };
                }
            }
            vcc = $body::<64>(&mut v, iters);
            NativeOut { v, vcc }
        }

        pub fn $narrow(iters: u32) -> NativeOut<$n> {
            let mut v: Box<[[u32; 64]; $n]> = Box::new([[0; 64]; $n]);
            let vcc;
            #[cfg(target_arch = "x86_64")]
            {
                if wide() {
                    // SAFETY: AVX2 and FMA were detected on this CPU just now.
                    vcc = unsafe { $narrow_wide(&mut v, iters) };
                    return NativeOut { v, vcc };
                }
            }
            vcc = $body::<$w>(&mut v, iters);
            NativeOut { v, vcc }
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn $wide(v: &mut [[u32; 64]; $n], iters: u32) -> u64 {
            $body::<64>(v, iters)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn $narrow_wide(v: &mut [[u32; 64]; $n], iters: u32) -> u64 {
            $body::<$w>(v, iters)
        }
    };
}

multiversion!(valu, valu_wide, valu_128, valu_128_avx2, valu_body, 29, 4);
multiversion!(sdwa, sdwa_wide, sdwa_128, sdwa_128_avx2, sdwa_body, 25, 4);
multiversion!(
    f64_chain,
    f64_wide,
    f64_chain_128,
    f64_128_avx2,
    f64_body,
    22,
    2
);

/// Pack per-lane carry flags into a 64-bit lane mask.
#[inline(always)]
fn mask(bits: &[u32; 64]) -> u64 {
    bits.iter()
        .enumerate()
        .fold(0, |m, (l, &b)| m | ((b & 1) as u64) << l)
}

#[inline(always)]
fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

/// GCN's V_MED3_F32 for non-NaN inputs: max(min(a, b), min(max(a, b), c)).
#[inline(always)]
fn med3f(a: f32, b: f32, c: f32) -> f32 {
    a.min(b).max(a.max(b).min(c))
}

/// V_CVT_I32_F32: truncate, saturate, NaN → 0 — written so that it vectorises (Rust's
/// saturating `as` becomes a branchy scalar sequence per lane): clamp into range, convert
/// unchecked (`cvttps2dq`), select 0 for NaN and i32::MAX at or above 2^31.
#[inline(always)]
#[allow(clippy::manual_clamp)] // `clamp` passes NaN through; max/min turn it into a bound.
fn cvt_i32(x: f32) -> i32 {
    let c = x.max(-2_147_483_648.0).min(2_147_483_520.0);
    // SAFETY: `c` is finite and in [-2^31, 2^31 - 128], so it converts without overflow
    // (`max`/`min` return the non-NaN operand, so `c` is never NaN).
    let i = unsafe { c.to_int_unchecked::<i32>() };
    if x.is_nan() {
        0
    } else if x >= 2_147_483_648.0 {
        i32::MAX
    } else {
        i
    }
}

#[inline(always)]
fn med3i(a: i32, b: i32, c: i32) -> i32 {
    a.min(b).max(a.max(b).min(c))
}

/// bench/kernels/valu.s, line by line (the numbers are the kernel's).
#[inline(always)]
fn valu_body<const W: usize>(r: &mut [[u32; 64]; 29], iters: u32) -> u64 {
    let [v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28] =
        r;
    lanes::<W>(|l| {
        v0[l] = l as u32;
        let x = 2.0 - (v0[l] as f32) * f(0x3d80_0000);
        v1[l] = x.to_bits();
        v2[l] = (x * -0.5 + 1.0).to_bits();
        v3[l] = v0[l].wrapping_mul(0x9e37_79b9);
        v4[l] = v0[l].wrapping_mul(0x85eb_ca6b) ^ v3[l];
    });
    let mut carry = [0u32; 64];
    for _ in 0..iters {
        lanes::<W>(|l| {
            let (x, y, a, b) = (f(v1[l]), f(v2[l]), v3[l], v4[l]);
            let t = 0.5 * x; // 1
            let u = t + y; // 2
            let w = u.mul_add(t, x); // 3
            let m = w * 0.5 + y; // 4
            let c = (-4.0f32).max(4.0f32.min(m)); // 5, 6
            let md = med3f(c, w, u) - t; // 7, 8
            let x2 = med3f(md, -4.0, 4.0); // 9
            let h = a ^ b; // 10
            let s12 = h << 5; // 11
            let s13 = a >> 3; // 12
            let (s, _) = s12.overflowing_add(s13); // 13
            let fb = (s >> 7) & 0x1fff; // 14
            let g = (h & s) | (!h & b); // 15
            let k = (g << 21) | (fb >> 11); // 16: ({g, fb} >> 11)[31:0]
            let p = k.wrapping_mul(s13); // 17
            let q = (k & 0xff_ffff).wrapping_mul(fb).wrapping_add(b); // 18
            let sh = ((p as i32) >> 2) as u32; // 19
            let mn = q.min(sh); // 20
            let mx = (q as i32).max(sh as i32) as u32; // 21
            let md3 = med3i(mn as i32, mx as i32, h as i32) as u32; // 22
            let a2 = md3 ^ k; // 23
            let ff = fb as f32 * f(0x3980_0000); // 24, 25
            let y2 = (ff + c) * 0.5; // 26, 27
            let ti = cvt_i32(x2) as u32; // 28
            let z = ti ^ g; // 29
            let z1 = z >> 1; // 30
            let (b2, cy) = z1.overflowing_add(q); // 31
            v5[l] = t.to_bits();
            v6[l] = u.to_bits();
            v7[l] = w.to_bits();
            v8[l] = m.to_bits();
            v9[l] = c.to_bits();
            v10[l] = md.to_bits();
            v1[l] = x2.to_bits();
            v11[l] = h;
            v12[l] = s12;
            v13[l] = s13;
            v14[l] = s;
            v15[l] = fb;
            v16[l] = g;
            v17[l] = k;
            v18[l] = p;
            v19[l] = q;
            v20[l] = sh;
            v21[l] = mn;
            v22[l] = mx;
            v23[l] = md3;
            v3[l] = a2;
            v24[l] = ff.to_bits();
            v2[l] = y2.to_bits();
            v25[l] = ti;
            v26[l] = z;
            v27[l] = z1;
            v4[l] = b2;
            v28[l] = (ti as i32 as f32).to_bits(); // 32
            carry[l] = cy as u32;
        });
    }
    if iters == 0 {
        0
    } else {
        mask(&carry)
    }
}

#[inline(always)]
fn byte(x: u32, i: u32) -> u32 {
    (x >> (8 * i)) & 0xff
}

/// bench/kernels/sdwa.s, line by line.
#[inline(always)]
fn sdwa_body<const W: usize>(r: &mut [[u32; 64]; 25], iters: u32) -> u64 {
    let [v0, v1, v2, _, _, _, _, _, _, _, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24] =
        r;
    lanes::<W>(|l| {
        v0[l] = l as u32;
        v1[l] = v0[l].wrapping_mul(0x9e37_79b9);
        v2[l] = v0[l].wrapping_mul(0x7feb_352d) ^ v1[l];
        v22[l] = 0;
    });
    let mut carry = [0u32; 64];
    for _ in 0..iters {
        lanes::<W>(|l| {
            let (p, q, old22) = (v1[l], v2[l], v22[l]);
            let (b0, b1, b2, b3) = (byte(p, 0), byte(p, 1), byte(p, 2), byte(p, 3));
            let (w0, w1) = (q & 0xffff, q >> 16);
            let m16 = b2 * w1;
            let m17 = ((b3 as u8 as i8 as i32).max(w0 as u16 as i16 as i32)) as u32;
            // (b0 ^ w1) into the high word; SEXT of a high word shifts the sign out.
            let x18 = ((b0 ^ w1) & 0xffff) << 16;
            let n19 = b1.min(b2) << 16;
            let (sum, cy) = (m16 & 0xffff).overflowing_add(m17);
            let a20 = sum as u16 as i16 as i32 as u32;
            let s21 = w0 << (b3 & 31);
            let n22 = ((byte(s21, 2) & w1) & 0xff) << 8 | (old22 & !0xff00);
            let mut p23 = (b0 | b3) & 0xff;
            p23 = ((byte(m16, 1) ^ b1) & 0xff) << 8 | (p23 & !0xff00);
            p23 = ((byte(a20, 0) * b2) & 0xff) << 16 | (p23 & !0xff_0000);
            p23 = (m17 & 0xff) << 24 | (p23 & 0x00ff_ffff);
            let mut q24 = ((x18 >> 16) | (n19 >> 16)) & 0xffff;
            q24 = (n22 & 0xffff) << 16 | (q24 & 0xffff);
            v10[l] = b0;
            v11[l] = b1;
            v12[l] = b2;
            v13[l] = b3;
            v14[l] = w0;
            v15[l] = w1;
            v16[l] = m16;
            v17[l] = m17;
            v18[l] = x18;
            v19[l] = n19;
            v20[l] = a20;
            v21[l] = s21;
            v22[l] = n22;
            v23[l] = p23;
            v24[l] = q24;
            v1[l] = p.rotate_right(7) ^ p23;
            v2[l] = q.rotate_right(13) ^ q24;
            carry[l] = cy as u32;
        });
    }
    if iters == 0 {
        0
    } else {
        mask(&carry)
    }
}

#[inline(always)]
fn d(lo: u32, hi: u32) -> f64 {
    f64::from_bits(lo as u64 | (hi as u64) << 32)
}

/// bench/kernels/f64.s, line by line.
#[inline(always)]
fn f64_body<const W: usize>(r: &mut [[u32; 64]; 22], iters: u32) -> u64 {
    let [v0, _, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, _, _, _, _, v20, v21] =
        r;
    lanes::<W>(|l| {
        v0[l] = l as u32;
        let x = (l as f64 - 32.0) * (1.0 / 64.0);
        let k1 = (l as f64).mul_add(1.0 / 128.0, 0.5);
        (v2[l], v3[l]) = (x.to_bits() as u32, (x.to_bits() >> 32) as u32);
        (v12[l], v13[l]) = (k1.to_bits() as u32, (k1.to_bits() >> 32) as u32);
        (v14[l], v15[l]) = (0, 0xbfd0_0000);
        (v20[l], v21[l]) = (0, 0x3f80_0000);
        (v4[l], v5[l], v6[l], v7[l], v8[l], v9[l], v10[l], v11[l]) = (0, 0, 0, 0, 0, 0, 0, 0);
    });
    for _ in 0..iters {
        lanes::<W>(|l| {
            let x = d(v2[l], v3[l]);
            let k1 = d(v12[l], v13[l]);
            let k2 = d(v14[l], v15[l]);
            let (mut a, mut b, mut c, mut e) = (
                d(v4[l], v5[l]),
                d(v6[l], v7[l]),
                d(v8[l], v9[l]),
                d(v10[l], v11[l]),
            );
            for _ in 0..8 {
                a = a.mul_add(x, k1);
                b = (-b).mul_add(x, k2);
                c = c.mul_add(x, a);
                e = (-e).mul_add(x, b);
            }
            (v4[l], v5[l]) = (a.to_bits() as u32, (a.to_bits() >> 32) as u32);
            (v6[l], v7[l]) = (b.to_bits() as u32, (b.to_bits() >> 32) as u32);
            (v8[l], v9[l]) = (c.to_bits() as u32, (c.to_bits() >> 32) as u32);
            (v10[l], v11[l]) = (e.to_bits() as u32, (e.to_bits() >> 32) as u32);
        });
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn med3_is_the_median() {
        assert_eq!(med3f(3.0, 1.0, 2.0), 2.0);
        assert_eq!(med3f(1.0, 3.0, 2.0), 2.0);
        assert_eq!(med3f(2.0, 1.0, 3.0), 2.0);
        assert_eq!(med3i(-5, 7, 0), 0);
    }

    #[test]
    fn cvt_i32_saturates_like_gcn() {
        assert_eq!(cvt_i32(-3.9), -3);
        assert_eq!(cvt_i32(3e9), i32::MAX);
        assert_eq!(cvt_i32(2_147_483_520.0), 2_147_483_520);
        assert_eq!(cvt_i32(-3e9), i32::MIN);
        assert_eq!(cvt_i32(f32::NAN), 0);
    }

    #[test]
    fn the_128_bit_builds_compute_the_same() {
        for n in [0, 1, 3] {
            let (a, b) = (valu(n), valu_128(n));
            assert!(a.v == b.v && a.vcc == b.vcc, "valu x{n}");
            let (a, b) = (sdwa(n), sdwa_128(n));
            assert!(a.v == b.v && a.vcc == b.vcc, "sdwa x{n}");
            assert!(f64_chain(n).v == f64_chain_128(n).v, "f64 x{n}");
        }
    }

    #[test]
    fn mask_packs_lane_bits() {
        let mut b = [0u32; 64];
        b[0] = 1;
        b[63] = 1;
        b[5] = 2; // only bit 0 counts
        assert_eq!(mask(&b), 1 | 1 << 63);
    }
}
