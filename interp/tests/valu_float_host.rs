//! Whole instructions (decode-free, built by hand) against the host's IEEE arithmetic: random
//! f32/f64 operands, specials included, through the driver in every lane. In MODE 0xF0/0xFC
//! (denormals kept, round to nearest even) the host's `+ - × fma sqrt /` are the definition;
//! under the default MODE 0xC0 the same with f32 denormals flushed on input and output,
//! written here independently of `float.rs`.

// Lane loops index several per-lane arrays at once: clearer than zipped iterators.
#![allow(clippy::needless_range_loop)]

mod valu_common;

use valu_common::{op, v, vop3, Machine, Rng};
use wavejit_isa::gcn::Src;
use wavejit_isa::Gen;

fn canon32(x: f32) -> u32 {
    if x.is_nan() {
        0x7FC0_0000
    } else {
        x.to_bits()
    }
}

fn ftz(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn rand_f32(rng: &mut Rng) -> u32 {
    let r = rng.next();
    let sign = ((r >> 63) as u32) << 31;
    match r % 8 {
        0 => sign | (r as u32 & 0x007F_FFFF),
        1 => sign | 0x7F80_0000,
        2 => sign | 0x7FC0_0000 | (r as u32 & 0xFF),
        3 => sign,
        4 => sign | (0x3F00_0000 + (r as u32 & 0x00FF_FFFF)),
        _ => r as u32,
    }
}

type HostOp = fn(f32, f32, f32) -> f32;

#[test]
fn f32_instructions_match_the_host() {
    let ops: [(&str, usize, HostOp); 8] = [
        ("v_add_f32", 2, |a, b, _| a + b),
        ("v_sub_f32", 2, |a, b, _| a - b),
        ("v_subrev_f32", 2, |a, b, _| b - a),
        ("v_mul_f32", 2, |a, b, _| a * b),
        ("v_fma_f32", 3, |a, b, c| a.mul_add(b, c)),
        ("v_mad_f32", 3, |a, b, c| ftz_if(a * b) + c),
        ("v_sqrt_f32", 1, |a, _, _| a.sqrt()),
        ("v_rcp_f32", 1, |a, _, _| 1.0 / a),
    ];
    let mut rng = Rng(41);
    let mut m = Machine::new(Gen::Gfx8);
    for (name, n, host) in ops {
        for mode in [0xF0u32, 0xC0] {
            FLUSH.with(|f| f.set(mode == 0xC0));
            for _ in 0..40 {
                let srcs: Vec<Vec<u32>> = (0..3)
                    .map(|_| (0..64).map(|_| rand_f32(&mut rng)).collect())
                    .collect();
                for (i, s) in srcs.iter().enumerate() {
                    m.set_v(10 + i, |l| s[l]);
                }
                m.wave.mode = mode;
                let src = [
                    v(10),
                    if n > 1 { v(11) } else { Src::ZERO },
                    if n > 2 { v(12) } else { Src::ZERO },
                ];
                m.valu(&vop3(op(name), 20, src)).expect(name);
                for l in 0..64 {
                    let f = |i: usize| {
                        let x = f32::from_bits(srcs[i][l]);
                        if mode == 0xC0 {
                            ftz(x)
                        } else {
                            x
                        }
                    };
                    let r = host(f(0), f(1), f(2));
                    let want = canon32(if mode == 0xC0 { ftz(r) } else { r });
                    assert_eq!(
                        m.wave.vgpr[20][l], want,
                        "{name} mode {mode:#x} ({:#x}, {:#x}, {:#x})",
                        srcs[0][l], srcs[1][l], srcs[2][l]
                    );
                }
            }
        }
    }
}

thread_local! {
    static FLUSH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// V_MAD's product is rounded and flushed (MODE 0xC0) before the add.
fn ftz_if(x: f32) -> f32 {
    if FLUSH.with(|f| f.get()) {
        ftz(x)
    } else {
        x
    }
}

#[test]
fn f64_instructions_match_the_host() {
    let mut rng = Rng(42);
    let mut m = Machine::new(Gen::Gfx7);
    let pick = |rng: &mut Rng| -> u64 {
        let r = rng.next();
        match r % 6 {
            0 => r & 0x800F_FFFF_FFFF_FFFF,
            1 => (r & (1 << 63)) | 0x7FF0_0000_0000_0000,
            _ => r,
        }
    };
    type H = fn(f64, f64, f64) -> f64;
    let ops: [(&str, H); 4] = [
        ("v_add_f64", |a, b, _| a + b),
        ("v_mul_f64", |a, b, _| a * b),
        ("v_fma_f64", |a, b, c| a.mul_add(b, c)),
        ("v_sqrt_f64", |a, _, _| a.sqrt()),
    ];
    for (name, host) in ops {
        for _ in 0..40 {
            let srcs: Vec<Vec<u64>> = (0..3)
                .map(|_| (0..64).map(|_| pick(&mut rng)).collect())
                .collect();
            for (i, s) in srcs.iter().enumerate() {
                m.set_v(10 + 2 * i, |l| s[l] as u32);
                m.set_v(11 + 2 * i, |l| (s[l] >> 32) as u32);
            }
            m.valu(&vop3(op(name), 20, [v(10), v(12), v(14)]))
                .expect(name);
            for l in 0..64 {
                let f = |i: usize| f64::from_bits(srcs[i][l]);
                let r = host(f(0), f(1), f(2));
                let want = if r.is_nan() {
                    0x7FF8_0000_0000_0000
                } else {
                    r.to_bits()
                };
                let got = m.wave.vgpr[20][l] as u64 | (m.wave.vgpr[21][l] as u64) << 32;
                assert_eq!(got, want, "{name} lane {l}");
            }
        }
    }
}
