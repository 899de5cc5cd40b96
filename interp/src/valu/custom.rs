//! Vector ALU operations whose source or result types no typed adapter of `dispatch`
//! covers (conversions between widths, 64-bit shifts with a 32-bit amount, lane-index
//! inputs, flag outputs): each pairs its pure per-lane function with its types. The table's
//! `interp` cell names them as `run(custom::NAME)`.

use super::adapt::{acc_is_vdst, b32_3, fp_1, fp_of};
use super::driver::{alu, alu_bits, alu_lane, BitIn, BitOut, Cx, R};
use super::operands::Ty::{B16, B32, B64, F16, F32, F64};
use super::{f16, vop1, vop2, vop3};
use crate::float::F64 as FMT64;
use wavejit_isa::gcn::Op;

/// `v_mov_b32`
pub fn v_mov_b32(cx: &mut Cx) -> R {
    alu(cx, [B32], B32, |[a]| a)
}

/// `v_cndmask_b32`
pub fn v_cndmask_b32(cx: &mut Cx) -> R {
    alu_bits(
        cx,
        [B32, B32],
        B32,
        BitIn::VccOrSrc2,
        BitOut::None,
        |[a, b], c| (vop2::v_cndmask_b32(a as u32, b as u32, c) as u64, false),
    )
}

/// `v_ldexp_f32`
pub fn v_ldexp_f32(cx: &mut Cx) -> R {
    let m = cx.mode();
    alu(cx, [F32, B32], F32, |[a, b]| {
        vop2::v_ldexp_f32(a as u32, b as u32, m) as u64
    })
}

/// `v_mbcnt_lo_u32_b32`
pub fn v_mbcnt_lo_u32_b32(cx: &mut Cx) -> R {
    alu_lane(cx, [B32, B32], B32, |l, [a, b]| {
        vop2::v_mbcnt_lo_u32_b32(l, a as u32, b as u32) as u64
    })
}

/// `v_mbcnt_hi_u32_b32`
pub fn v_mbcnt_hi_u32_b32(cx: &mut Cx) -> R {
    alu_lane(cx, [B32, B32], B32, |l, [a, b]| {
        vop2::v_mbcnt_hi_u32_b32(l, a as u32, b as u32) as u64
    })
}

/// `v_cvt_pkaccum_u8_f32`
pub fn v_cvt_pkaccum_u8_f32(cx: &mut Cx) -> R {
    let m = cx.mode();

    acc_is_vdst(cx);
    alu(cx, [F32, B32, B32], B32, |[a, b, d]| {
        vop2::v_cvt_pkaccum_u8_f32(a as u32, b as u32, d as u32, m) as u64
    })
}

/// `v_cvt_f16_f32`
pub fn v_cvt_f16_f32(cx: &mut Cx) -> R {
    let m = cx.mode();
    let gen = cx.v.gen;
    alu(cx, [F32], F16, |[a]| {
        vop1::v_cvt_f16_f32(a as u32, m, gen) as u64
    })
}

/// `v_cvt_f32_f16`
pub fn v_cvt_f32_f16(cx: &mut Cx) -> R {
    let m = cx.mode();
    let gen = cx.v.gen;
    alu(cx, [F16], F32, |[a]| {
        vop1::v_cvt_f32_f16(a as u32, m, gen) as u64
    })
}

/// `v_cvt_off_f32_i4`
pub fn v_cvt_off_f32_i4(cx: &mut Cx) -> R {
    alu(cx, [B32], F32, |[a]| {
        vop1::v_cvt_off_f32_i4(a as u32) as u64
    })
}

/// `v_frexp_exp_i32_f32`
pub fn v_frexp_exp_i32_f32(cx: &mut Cx) -> R {
    let m = cx.mode();
    let gen = cx.v.gen;
    alu(cx, [F32], B32, |[a]| {
        vop1::frexp_exp(m.fp32(), a, gen) as u64
    })
}

/// `v_frexp_exp_i32_f64`
pub fn v_frexp_exp_i32_f64(cx: &mut Cx) -> R {
    let m = cx.mode();
    let gen = cx.v.gen;
    alu(cx, [F64], B32, |[a]| {
        vop1::frexp_exp(m.fp64(), a, gen) as u64
    })
}

/// `v_frexp_mant_f32`
pub fn v_frexp_mant_f32(cx: &mut Cx) -> R {
    let m = cx.mode();
    let gen = cx.v.gen;
    alu(cx, [F32], F32, |[a]| vop1::frexp_mant(m.fp32(), a, gen))
}

/// `v_frexp_mant_f64`
pub fn v_frexp_mant_f64(cx: &mut Cx) -> R {
    let m = cx.mode();
    let gen = cx.v.gen;
    alu(cx, [F64], F64, |[a]| vop1::frexp_mant(m.fp64(), a, gen))
}

/// `v_frexp_mant_f16`
pub fn v_frexp_mant_f16(cx: &mut Cx) -> R {
    let m = cx.mode();
    let gen = cx.v.gen;
    alu(cx, [F16], F16, |[a]| vop1::frexp_mant(m.fp16(), a, gen))
}

/// `v_frexp_exp_i16_f16`
pub fn v_frexp_exp_i16_f16(cx: &mut Cx) -> R {
    let m = cx.mode();
    alu(cx, [F16], B16, |[a]| {
        f16::v_frexp_exp_i16_f16(a as u16, m) as u64
    })
}

/// `v_rsq_clamp_f64`
pub fn v_rsq_clamp_f64(cx: &mut Cx) -> R {
    fp_1(cx, F64, |fp, a| {
        let r = vop1::rsq(fp, a);
        if FMT64.is_inf(r) {
            FMT64.max_finite(FMT64.is_neg(r))
        } else {
            r
        }
    })
}

/// `v_min3_i32`
pub fn v_min3_i32(cx: &mut Cx) -> R {
    b32_3(cx, |a, b, c| {
        vop3::min3_int(a as i32, b as i32, c as i32) as u32
    })
}

/// `v_max3_i32`
pub fn v_max3_i32(cx: &mut Cx) -> R {
    b32_3(cx, |a, b, c| {
        vop3::max3_int(a as i32, b as i32, c as i32) as u32
    })
}

/// `v_med3_i32`
pub fn v_med3_i32(cx: &mut Cx) -> R {
    b32_3(cx, |a, b, c| {
        vop3::med3_int(a as i32, b as i32, c as i32) as u32
    })
}

/// `v_cvt_pk_u8_f32`
pub fn v_cvt_pk_u8_f32(cx: &mut Cx) -> R {
    let m = cx.mode();
    alu(cx, [F32, B32, B32], B32, |[a, b, c]| {
        vop3::v_cvt_pk_u8_f32(a as u32, b as u32, c as u32, m) as u64
    })
}

/// `v_div_scale_f32` / `v_div_scale_f64`
pub fn v_div_scale_f32(cx: &mut Cx) -> R {
    let m = cx.mode();
    let op = cx.v.op;

    let ty = if op == Op::VDivScaleF32 { F32 } else { F64 };
    let fp = fp_of(m, ty);
    alu_bits(
        cx,
        [ty, ty, ty],
        ty,
        BitIn::None,
        BitOut::Mask,
        |[a, b, c], _| vop3::div_scale(fp, a, b, c),
    )
}

/// `v_div_fmas_f32` / `v_div_fmas_f64`
pub fn v_div_fmas_f32(cx: &mut Cx) -> R {
    let m = cx.mode();
    let op = cx.v.op;

    let ty = if op == Op::VDivFmasF32 { F32 } else { F64 };
    let fp = fp_of(m, ty);
    alu_bits(
        cx,
        [ty, ty, ty],
        ty,
        BitIn::Vcc,
        BitOut::None,
        |[a, b, c], v| (vop3::div_fmas(fp, a, b, c, v), false),
    )
}

/// `v_ldexp_f64`
pub fn v_ldexp_f64(cx: &mut Cx) -> R {
    let m = cx.mode();
    alu(cx, [F64, B32], F64, |[a, b]| {
        vop3::v_ldexp_f64(a, b as u32, m)
    })
}

/// `v_trig_preop_f64`
pub fn v_trig_preop_f64(cx: &mut Cx) -> R {
    let m = cx.mode();
    alu(cx, [F64, B32], F64, |[a, b]| {
        vop3::v_trig_preop_f64(a, b as u32, m)
    })
}

/// `v_lshl_b64`
pub fn v_lshl_b64(cx: &mut Cx) -> R {
    alu(cx, [B64, B32], B64, |[a, b]| vop3::v_lshl_b64(a, b as u32))
}

/// `v_lshr_b64`
pub fn v_lshr_b64(cx: &mut Cx) -> R {
    alu(cx, [B64, B32], B64, |[a, b]| vop3::v_lshr_b64(a, b as u32))
}

/// `v_ashr_i64`
pub fn v_ashr_i64(cx: &mut Cx) -> R {
    alu(cx, [B64, B32], B64, |[a, b]| vop3::v_ashr_i64(a, b as u32))
}

/// `v_lshlrev_b64`
pub fn v_lshlrev_b64(cx: &mut Cx) -> R {
    alu(cx, [B32, B64], B64, |[a, b]| {
        vop3::v_lshlrev_b64(a as u32, b)
    })
}

/// `v_lshrrev_b64`
pub fn v_lshrrev_b64(cx: &mut Cx) -> R {
    alu(cx, [B32, B64], B64, |[a, b]| {
        vop3::v_lshrrev_b64(a as u32, b)
    })
}

/// `v_ashrrev_i64`
pub fn v_ashrrev_i64(cx: &mut Cx) -> R {
    alu(cx, [B32, B64], B64, |[a, b]| {
        vop3::v_ashrrev_i64(a as u32, b)
    })
}

/// `v_qsad_pk_u16_u8` / `v_qsad_u8`
pub fn v_qsad_pk_u16_u8(cx: &mut Cx) -> R {
    alu(cx, [B64, B32, B64], B64, |[a, b, c]| {
        vop3::qsad_pk_u16_u8(a, b as u32, c, false)
    })
}

/// `v_mqsad_pk_u16_u8` / `v_mqsad_u8`
pub fn v_mqsad_pk_u16_u8(cx: &mut Cx) -> R {
    alu(cx, [B64, B32, B64], B64, |[a, b, c]| {
        vop3::qsad_pk_u16_u8(a, b as u32, c, true)
    })
}

/// A 32 × 32 + 64-bit multiply-add with a carry-out lane bit (`f` is the lane function).
fn mad64(cx: &mut Cx, f: fn(u32, u32, u64) -> (u64, bool)) -> R {
    alu_bits(
        cx,
        [B32, B32, B64],
        B64,
        BitIn::None,
        BitOut::Mask,
        |[a, b, c], _| f(a as u32, b as u32, c),
    )
}

/// `v_mad_u64_u32`
pub fn v_mad_u64_u32(cx: &mut Cx) -> R {
    mad64(cx, vop3::v_mad_u64_u32)
}

/// `v_mad_i64_i32`
pub fn v_mad_i64_i32(cx: &mut Cx) -> R {
    mad64(cx, vop3::v_mad_i64_i32)
}

/// `v_ldexp_f16`
pub fn v_ldexp_f16(cx: &mut Cx) -> R {
    let m = cx.mode();
    alu(cx, [F16, B16], F16, |[a, b]| {
        f16::v_ldexp_f16(a as u16, b as u16, m) as u64
    })
}
