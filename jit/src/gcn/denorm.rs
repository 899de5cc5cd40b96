//! The denormal-free copy of an f32 multiply-add under a flushing MODE: one wave-wide
//! test of the operands, then the instruction without its four flushes (inputs, product,
//! result) when the test proves every flush is the identity, else the ordinary lowering.
//!
//! The shape: `d = u × b + c` (`v_mac_f32` / `v_mad_f32`, unfused: the product rounded
//! first) with `u` wave-uniform (an SGPR or a constant) and `b`, `c` VGPRs, no OMOD or
//! CLAMP (OMOD could scale a result into the denormal range after its flush). The test
//! passes when `u` is ±0 or |u| ≥ 1 (or infinite or NaN), and every lane of `b` and `c`
//! (all 64, whatever EXEC) is ±0 or has an exponent field of at least 24, |x| ≥ 2^-103
//! (or is infinite or NaN). Then, in every rounding mode:
//! * no input is denormal, so the input flushes change nothing;
//! * the product is ±0, infinite, NaN, or |u × b| ≥ 2^-103 rounded monotonically to at
//!   least 2^-103 (representable): not denormal;
//! * the sum `p + c` of two such values is not denormal: if either is ±0 the sum is the
//!   other (or ±0), an infinity or NaN gives an infinity or NaN, and two finite nonzero
//!   ones are multiples of 2^-126 (a float of magnitude ≥ 2^-103 is a multiple of its
//!   quantum, at least 2^-126), so their exact sum is 0 or at least 2^-126 in magnitude
//!   — and a sum below 2^-126 would be exact (it is a multiple of 2^-149 in the denormal
//!   range), so the rounded sum is not denormal either.
//!
//! The test costs three vector instructions per operand chunk (`2x - 1`, an unsigned
//! minimum) against four per flush and chunk.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};

use super::sem::Sem;
use super::vocab::{FOp, Fmt, Vop2Form};
use super::vplan::{VPlan, VSrc};
use crate::block::{mflags, Cx, CHUNKS, I32X4};
use crate::ctx::wave_off;

/// MODE's f32 denormal controls: set means kept (`float_rules::fp_flags`).
const F32_DENORM_BITS: u32 = 0x30;

/// `2x - 1` (wrapping) below this for some lane: that lane is nonzero with an exponent
/// field below 24 (twice an f32 drops its sign: the exponent field is then the top 8 bits).
const SMALL: u32 = (24 << 24) - 1;

/// The shape this module handles: `(u, b, c)`, the uniform multiplicand and the two VGPRs.
pub fn shape(cx: &Cx, p: &VPlan) -> Option<(VSrc, u8, u8)> {
    let Sem::Float(Fmt::F32, FOp::Mad, Vop2Form::Plain | Vop2Form::Mac) = p.sem else {
        return None;
    };
    let (fi, fo) = cx.fp_flags(Fmt::F32);
    if !(fi || fo)
        || p.omod != 0
        || p.clamp
        || p.sdwa.is_some()
        || p.dpp.is_some()
        || p.cross_lane
        || p.interp.is_some()
    {
        return None;
    }
    match p.src {
        [u @ (VSrc::S(_) | VSrc::Const(_)), VSrc::V(b), VSrc::V(c)] => Some((u, b, c)),
        _ => None,
    }
}

/// Whether the uniform multiplicand's bits pass: ±0, or an exponent field of at least 127.
fn uniform_ok(bits: u32) -> bool {
    bits & 0x7fff_ffff == 0 || bits & 0x7f80_0000 >= 0x3f80_0000
}

/// The wave-wide test (an `i8`, nonzero when it passes), or `None` when it cannot pass
/// (a constant multiplicand that fails). Reads the wave's registers (the register cache
/// must be flushed).
pub fn test(cx: &mut Cx, u: VSrc, b: u8, c: u8) -> Option<Value> {
    let flags = mflags();
    let u_ok = match u {
        VSrc::Const(k) => {
            if !uniform_ok(k as u32) {
                return None;
            }
            None
        }
        VSrc::S(s) => {
            let x =
                cx.b.ins()
                    .load(types::I32, flags, cx.wave, wave_off::sreg(s));
            let mag = cx.b.ins().band_imm_u(x, 0x7fff_ffff);
            let zero = cx.b.ins().icmp_imm_u(IntCC::Equal, mag, 0);
            let big =
                cx.b.ins()
                    .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, mag, 0x3f80_0000);
            Some(cx.b.ins().bor(zero, big))
        }
        _ => return None,
    };
    let minus1 = cx.splat32(u32::MAX);
    let regs: Vec<u8> = if b == c { vec![b] } else { vec![b, c] };
    let mut acc: Option<Value> = None;
    for ch in 0..CHUNKS {
        for &r in &regs {
            let x =
                cx.b.ins()
                    .load(I32X4, flags, cx.wave, wave_off::vgpr_chunk(r, ch));
            let twice = cx.b.ins().iadd(x, x);
            let v = cx.b.ins().iadd(twice, minus1);
            acc = Some(match acc {
                None => v,
                Some(a) => cx.b.ins().umin(a, v),
            });
        }
        // Anchor the minimum of every four chunks here: Cranelift places pure
        // instructions at their first use, the branch after the last chunk, which would
        // keep every loaded chunk live (spilled) until then.
        if let (3, Some(a)) = (ch % 4, acc) {
            let sink = cx.b.ins().iadd_imm_s(cx.jctx, crate::ctx::OFF_SINK as i64);
            cx.b.ins().store(flags, a, sink, 0);
        }
    }
    let acc = acc?;
    let small = cx.splat32(SMALL);
    let bad = cx.b.ins().icmp(IntCC::UnsignedLessThan, acc, small);
    let any_bad = cx.b.ins().vany_true(bad);
    let lanes_ok = cx.b.ins().icmp_imm_u(IntCC::Equal, any_bad, 0);
    Some(match u_ok {
        Some(k) => cx.b.ins().band(k, lanes_ok),
        None => lanes_ok,
    })
}

/// Run `emit` with MODE's f32 denormals kept (the copy the passing test selects).
pub fn kept<R>(cx: &mut Cx, emit: impl FnOnce(&mut Cx) -> R) -> R {
    let mode = cx.mode;
    cx.mode |= F32_DENORM_BITS;
    let r = emit(cx);
    cx.mode = mode;
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lane test, as the emitted code computes it.
    fn lane_bad(x: u32) -> bool {
        x.wrapping_add(x).wrapping_sub(1) < SMALL
    }

    #[test]
    fn lane_test_matches_its_definition() {
        // Nonzero with an exponent field below 24, either sign.
        for x in [
            1u32,
            0x007f_ffff,
            0x0080_0000,
            0x0b7f_ffff,
            0x8000_0001,
            0x8b7f_ffff,
        ] {
            assert!(lane_bad(x), "{x:#x}");
        }
        // ±0, exponent field 24 and above, infinities and NaNs.
        for x in [
            0u32,
            0x8000_0000,
            0x0c00_0000,
            0x8c00_0000,
            0x3f80_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0xffff_ffff,
        ] {
            assert!(!lane_bad(x), "{x:#x}");
        }
    }

    #[test]
    fn uniform_test_matches_its_definition() {
        for x in [
            0u32,
            0x8000_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x7f80_0000,
            0x7fc0_0001,
        ] {
            assert!(uniform_ok(x), "{x:#x}");
        }
        // Denormals and normals below 1.
        for x in [1u32, 0x8000_0001, 0x3f7f_ffff, 0x0080_0000, 0xbf7f_ffff] {
            assert!(!uniform_ok(x), "{x:#x}");
        }
    }
}
