//! The typed adapters the table's `interp` cells name (`f32_2`, `b32_3`, `conv`, …): each
//! runs a pure per-lane function over the driver with its source and result types, and the
//! operand rearrangements of V_MAC (`acc_is_vdst`) and V_MADMK/V_MADAK (`madk`). Used by
//! the generated dispatch and by `custom`.

use wavejit_isa::gcn::Src;

use super::driver::{alu, alu_bits, BitIn, BitOut, Cx, R};
use super::operands::Ty::{self, B16, B32, B64, F16, F32, F64};
use super::vop1;
use crate::float::{Fp, Mode};

/// Evaluate `$body` with `$m` bound to the wave's MODE. Pre-decoded code
/// (`Cx::wave_loops`) gets a copy of `$body` for each common MODE value — the default
/// (0xC0: f32 denormals flushed), denormals kept (0xF0, the host's IEEE semantics) and what
/// clang's OpenCL kernel descriptors set (0x3C0: 0xC0 with DX10_CLAMP and IEEE) — in which
/// `$m` is a constant item. The closures a copy builds are then types of their own that
/// hold no MODE at run time, so each copy's lane loop (the driver's `run` and the
/// per-lane function, inlined into it as its only caller) is compiled with the mode's
/// decisions (rounding direction, flushes: whether the float core may take the host's
/// path) made at compile time instead of per lane. The value is the wave's MODE in every
/// case, so the per-lane function computes what it computes for any MODE.
macro_rules! with_mode {
    ($cx:ident, $m:ident => $body:expr) => {{
        let mode = $cx.mode();
        match ($cx.wave_loops, mode.0) {
            (true, 0xC0) => {
                #[allow(non_upper_case_globals)]
                const $m: Mode = Mode(0xC0);
                $body
            }
            (true, 0xF0) => {
                #[allow(non_upper_case_globals)]
                const $m: Mode = Mode(0xF0);
                $body
            }
            (true, 0x3C0) => {
                #[allow(non_upper_case_globals)]
                const $m: Mode = Mode(0x3C0);
                $body
            }
            _ => {
                let $m = mode;
                $body
            }
        }
    }};
}

#[inline(always)]
pub(super) fn f32_1(cx: &mut Cx, f: impl Fn(u32, Mode) -> u32) -> R {
    with_mode!(cx, m => alu(cx, [F32], F32, #[inline(always)] |[a]| f(a as u32, m) as u64))
}
#[inline(always)]
pub(super) fn f32_2(cx: &mut Cx, f: impl Fn(u32, u32, Mode) -> u32) -> R {
    with_mode!(cx, m => alu(cx, [F32, F32], F32, #[inline(always)] |[a, b]| {
        f(a as u32, b as u32, m) as u64
    }))
}
#[inline(always)]
pub(super) fn f32_3(cx: &mut Cx, f: impl Fn(u32, u32, u32, Mode) -> u32) -> R {
    with_mode!(cx, m => alu(cx, [F32, F32, F32], F32, #[inline(always)] |[a, b, c]| {
        f(a as u32, b as u32, c as u32, m) as u64
    }))
}
#[inline(always)]
pub(super) fn f64_2(cx: &mut Cx, f: impl Fn(u64, u64, Mode) -> u64) -> R {
    with_mode!(cx, m => alu(cx, [F64, F64], F64, #[inline(always)] |[a, b]| f(a, b, m)))
}
#[inline(always)]
pub(super) fn f64_3(cx: &mut Cx, f: impl Fn(u64, u64, u64, Mode) -> u64) -> R {
    with_mode!(cx, m => alu(cx, [F64, F64, F64], F64, #[inline(always)] |[a, b, c]| f(a, b, c, m)))
}
#[inline(always)]
pub(super) fn f16_2(cx: &mut Cx, f: impl Fn(u16, u16, Mode) -> u16) -> R {
    let m = cx.mode();
    alu(
        cx,
        [F16, F16],
        F16,
        #[inline(always)]
        |[a, b]| f(a as u16, b as u16, m) as u64,
    )
}
#[inline(always)]
pub(super) fn f16_3(cx: &mut Cx, f: impl Fn(u16, u16, u16, Mode) -> u16) -> R {
    let m = cx.mode();
    alu(
        cx,
        [F16, F16, F16],
        F16,
        #[inline(always)]
        |[a, b, c]| f(a as u16, b as u16, c as u16, m) as u64,
    )
}
/// A precision-generic float operation (`fn(Fp, bits) -> bits`) at type `ty`.
/// (f16 has no host path, so its MODE stays a run-time value.) Always inlined, so that
/// `ty` is a constant in each operation's arm and its lane loop is compiled for it.
#[inline(always)]
pub(super) fn fp_1(cx: &mut Cx, ty: Ty, f: impl Fn(Fp, u64) -> u64) -> R {
    if ty.bits() == 16 {
        let fp = fp_of(cx.mode(), ty);
        return alu(
            cx,
            [ty],
            ty,
            #[inline(always)]
            |[a]| f(fp, a),
        );
    }
    with_mode!(cx, m => alu(cx, [ty], ty, #[inline(always)] |[a]| f(fp_of(m, ty), a)))
}
#[inline(always)]
pub(super) fn fp_3(cx: &mut Cx, ty: Ty, f: impl Fn(Fp, u64, u64, u64) -> u64) -> R {
    if ty.bits() == 16 {
        let fp = fp_of(cx.mode(), ty);
        return alu(
            cx,
            [ty, ty, ty],
            ty,
            #[inline(always)]
            |[a, b, c]| f(fp, a, b, c),
        );
    }
    with_mode!(cx, m => alu(cx, [ty, ty, ty], ty, #[inline(always)] |[a, b, c]| f(fp_of(m, ty), a, b, c)))
}
#[inline(always)]
pub(super) fn fp_of(m: Mode, ty: Ty) -> Fp {
    match ty {
        F16 | B16 => m.fp16(),
        F64 | B64 => m.fp64(),
        _ => m.fp32(),
    }
}
#[inline(always)]
pub(super) fn b32_1(cx: &mut Cx, f: impl Fn(u32) -> u32) -> R {
    alu(
        cx,
        [B32],
        B32,
        #[inline(always)]
        |[a]| f(a as u32) as u64,
    )
}
#[inline(always)]
pub(super) fn b32_2(cx: &mut Cx, f: impl Fn(u32, u32) -> u32) -> R {
    alu(
        cx,
        [B32, B32],
        B32,
        #[inline(always)]
        |[a, b]| f(a as u32, b as u32) as u64,
    )
}
#[inline(always)]
pub(super) fn b32_3(cx: &mut Cx, f: impl Fn(u32, u32, u32) -> u32) -> R {
    alu(
        cx,
        [B32, B32, B32],
        B32,
        #[inline(always)]
        |[a, b, c]| f(a as u32, b as u32, c as u32) as u64,
    )
}
#[inline(always)]
pub(super) fn b16_2(cx: &mut Cx, f: impl Fn(u16, u16) -> u16) -> R {
    alu(
        cx,
        [B16, B16],
        B16,
        #[inline(always)]
        |[a, b]| f(a as u16, b as u16) as u64,
    )
}
/// 16-bit integer operations with CLAMP (saturation).
#[inline(always)]
pub(super) fn b16_2c(cx: &mut Cx, f: impl Fn(u16, u16, bool) -> u16) -> R {
    let c = cx.v.clamp;
    alu(
        cx,
        [B16, B16],
        B16,
        #[inline(always)]
        |[a, b]| f(a as u16, b as u16, c) as u64,
    )
}
#[inline(always)]
pub(super) fn b16_3c(cx: &mut Cx, f: impl Fn(u16, u16, u16, bool) -> u16) -> R {
    let c = cx.v.clamp;
    alu(
        cx,
        [B16, B16, B16],
        B16,
        #[inline(always)]
        |[a, b, d]| f(a as u16, b as u16, d as u16, c) as u64,
    )
}
/// Float operand(s) in, integer result out (conversions, packing).
#[inline(always)]
pub(super) fn f32_to_b32(cx: &mut Cx, f: impl Fn(u32, Mode) -> u32) -> R {
    let m = cx.mode();
    alu(
        cx,
        [F32],
        B32,
        #[inline(always)]
        |[a]| f(a as u32, m) as u64,
    )
}
#[inline(always)]
pub(super) fn f32x2_to_b32(cx: &mut Cx, f: impl Fn(u32, u32, Mode) -> u32) -> R {
    let m = cx.mode();
    alu(
        cx,
        [F32, F32],
        B32,
        #[inline(always)]
        |[a, b]| f(a as u32, b as u32, m) as u64,
    )
}
#[inline(always)]
pub(super) fn b32_to_f32(cx: &mut Cx, f: impl Fn(u32, Mode) -> u32) -> R {
    with_mode!(cx, m => alu(cx, [B32], F32, #[inline(always)] |[a]| f(a as u32, m) as u64))
}
/// A lane value as a per-lane function takes it: 16, 32 or 64 bits.
pub trait Bits: Copy {
    fn from_lane(x: u64) -> Self;
    fn to_lane(self) -> u64;
}
impl Bits for u16 {
    fn from_lane(x: u64) -> Self {
        x as u16
    }
    fn to_lane(self) -> u64 {
        self as u64
    }
}
impl Bits for u32 {
    fn from_lane(x: u64) -> Self {
        x as u32
    }
    fn to_lane(self) -> u64 {
        self as u64
    }
}
impl Bits for u64 {
    fn from_lane(x: u64) -> Self {
        x
    }
    fn to_lane(self) -> u64 {
        self
    }
}
/// A conversion: one source of type `from`, a result of type `to`.
#[inline(always)]
pub(super) fn conv<A: Bits, B: Bits>(cx: &mut Cx, from: Ty, to: Ty, f: impl Fn(A, Mode) -> B) -> R {
    let m = cx.mode();
    alu(
        cx,
        [from],
        to,
        #[inline(always)]
        |[a]| f(A::from_lane(a), m).to_lane(),
    )
}
/// V_CVT_F32_UBYTEn: byte `n` of the source as an f32.
#[inline(always)]
pub(super) fn ubyte(cx: &mut Cx, n: u32) -> R {
    alu(
        cx,
        [B32],
        F32,
        #[inline(always)]
        |[a]| vop1::v_cvt_f32_ubyte(a as u32, n) as u64,
    )
}
/// Carry out: `D, VCC/SDST = f(S0, S1)`, CLAMP saturating.
#[inline(always)]
pub(super) fn carry_out(cx: &mut Cx, f: impl Fn(u32, u32, bool) -> (u32, bool)) -> R {
    let c = cx.v.clamp;
    alu_bits(
        cx,
        [B32, B32],
        B32,
        BitIn::None,
        BitOut::Mask,
        #[inline(always)]
        |[a, b], _| {
            let (r, co) = f(a as u32, b as u32, c);
            (r as u64, co)
        },
    )
}
/// Carry in and out: the carry in from VCC (32-bit encodings) or SRC2 (VOP3B).
#[inline(always)]
pub(super) fn carry_in_out(cx: &mut Cx, f: impl Fn(u32, u32, bool, bool) -> (u32, bool)) -> R {
    let c = cx.v.clamp;
    alu_bits(
        cx,
        [B32, B32],
        B32,
        BitIn::VccOrSrc2,
        BitOut::Mask,
        #[inline(always)]
        |[a, b], ci| {
            let (r, co) = f(a as u32, b as u32, ci, c);
            (r as u64, co)
        },
    )
}

/// Make SRC2 the VDST register (V_MAC*: the accumulator is VDST, whatever SRC2 holds).
#[inline(always)]
pub(super) fn acc_is_vdst(cx: &mut Cx) {
    cx.v.src[2] = Src::vgpr(cx.v.vdst);
}

/// The operands of V_MADMK (`S0 × K + S1`) and V_MADAK (`S0 × S1 + K`) in order.
#[inline(always)]
pub(super) fn madk(cx: &mut Cx, k_second: bool) {
    let [s0, s1, _] = cx.v.src;
    cx.v.src = if k_second {
        [s0, Src::LITERAL, s1]
    } else {
        [s0, s1, Src::LITERAL]
    };
}
