//! The match on `Op` for the vector ALU: each operation is paired with its shape (source
//! and result types, lane-bit input/output) and its pure per-lane function. Everything
//! else — operand fetch, modifiers, SDWA, DPP, EXEC, write-back — is the driver's. The
//! catch-all returns `Unsupported` naming the operation.

use wavejit_isa::gcn::{Op, Src};
use wavejit_isa::Gen;

use super::driver::{alu, alu_bits, alu_lane, compare, BitIn, BitOut, Cx, R};
use super::lanes::{self, Movrel};
use super::operands::Ty::{self, B16, B32, B64, F16, F32, F64};
use super::vopc::{self, CmpTy};
use super::{f16, vop1, vop2, vop3};
use crate::error::ExecErrorKind;
use crate::float::{Fp, Mode, F16 as FMT16, F32 as FMT32, F64 as FMT64};

// ---------------------------------------------------------------------------------------
// Typed shapes over the driver.

type Fn1<T> = fn(T, Mode) -> T;
type Fn2<T> = fn(T, T, Mode) -> T;
type Fn3<T> = fn(T, T, T, Mode) -> T;

fn f32_1(cx: &mut Cx, f: Fn1<u32>) -> R {
    let m = cx.mode();
    alu(cx, [F32], F32, |[a]| f(a as u32, m) as u64)
}
fn f32_2(cx: &mut Cx, f: Fn2<u32>) -> R {
    let m = cx.mode();
    alu(cx, [F32, F32], F32, |[a, b]| {
        f(a as u32, b as u32, m) as u64
    })
}
fn f32_3(cx: &mut Cx, f: Fn3<u32>) -> R {
    let m = cx.mode();
    alu(cx, [F32, F32, F32], F32, |[a, b, c]| {
        f(a as u32, b as u32, c as u32, m) as u64
    })
}
fn f64_2(cx: &mut Cx, f: Fn2<u64>) -> R {
    let m = cx.mode();
    alu(cx, [F64, F64], F64, |[a, b]| f(a, b, m))
}
fn f64_3(cx: &mut Cx, f: Fn3<u64>) -> R {
    let m = cx.mode();
    alu(cx, [F64, F64, F64], F64, |[a, b, c]| f(a, b, c, m))
}
fn f16_2(cx: &mut Cx, f: Fn2<u16>) -> R {
    let m = cx.mode();
    alu(cx, [F16, F16], F16, |[a, b]| {
        f(a as u16, b as u16, m) as u64
    })
}
fn f16_3(cx: &mut Cx, f: Fn3<u16>) -> R {
    let m = cx.mode();
    alu(cx, [F16, F16, F16], F16, |[a, b, c]| {
        f(a as u16, b as u16, c as u16, m) as u64
    })
}
/// A precision-generic float operation (`fn(Fp, bits) -> bits`) at type `ty`.
fn fp_1(cx: &mut Cx, ty: Ty, f: fn(Fp, u64) -> u64) -> R {
    let fp = fp_of(cx.mode(), ty);
    alu(cx, [ty], ty, |[a]| f(fp, a))
}
fn fp_3(cx: &mut Cx, ty: Ty, f: fn(Fp, u64, u64, u64) -> u64) -> R {
    let fp = fp_of(cx.mode(), ty);
    alu(cx, [ty, ty, ty], ty, |[a, b, c]| f(fp, a, b, c))
}
fn fp_of(m: Mode, ty: Ty) -> Fp {
    match ty {
        F16 | B16 => m.fp16(),
        F64 | B64 => m.fp64(),
        _ => m.fp32(),
    }
}
fn b32_1(cx: &mut Cx, f: fn(u32) -> u32) -> R {
    alu(cx, [B32], B32, |[a]| f(a as u32) as u64)
}
fn b32_2(cx: &mut Cx, f: fn(u32, u32) -> u32) -> R {
    alu(cx, [B32, B32], B32, |[a, b]| f(a as u32, b as u32) as u64)
}
fn b32_3(cx: &mut Cx, f: fn(u32, u32, u32) -> u32) -> R {
    alu(cx, [B32, B32, B32], B32, |[a, b, c]| {
        f(a as u32, b as u32, c as u32) as u64
    })
}
fn b16_2(cx: &mut Cx, f: fn(u16, u16) -> u16) -> R {
    alu(cx, [B16, B16], B16, |[a, b]| f(a as u16, b as u16) as u64)
}
/// 16-bit integer operations with CLAMP (saturation).
fn b16_2c(cx: &mut Cx, f: fn(u16, u16, bool) -> u16) -> R {
    let c = cx.v.clamp;
    alu(cx, [B16, B16], B16, |[a, b]| {
        f(a as u16, b as u16, c) as u64
    })
}
fn b16_3c(cx: &mut Cx, f: fn(u16, u16, u16, bool) -> u16) -> R {
    let c = cx.v.clamp;
    alu(cx, [B16, B16, B16], B16, |[a, b, d]| {
        f(a as u16, b as u16, d as u16, c) as u64
    })
}
/// Float operand(s) in, integer result out (conversions, packing).
fn f32_to_b32(cx: &mut Cx, f: fn(u32, Mode) -> u32) -> R {
    let m = cx.mode();
    alu(cx, [F32], B32, |[a]| f(a as u32, m) as u64)
}
fn f32x2_to_b32(cx: &mut Cx, f: fn(u32, u32, Mode) -> u32) -> R {
    let m = cx.mode();
    alu(cx, [F32, F32], B32, |[a, b]| {
        f(a as u32, b as u32, m) as u64
    })
}
fn b32_to_f32(cx: &mut Cx, f: fn(u32, Mode) -> u32) -> R {
    let m = cx.mode();
    alu(cx, [B32], F32, |[a]| f(a as u32, m) as u64)
}
/// Carry out: `D, VCC/SDST = f(S0, S1)`, CLAMP saturating.
fn carry_out(cx: &mut Cx, f: fn(u32, u32, bool) -> (u32, bool)) -> R {
    let c = cx.v.clamp;
    alu_bits(
        cx,
        [B32, B32],
        B32,
        BitIn::None,
        BitOut::Mask,
        |[a, b], _| {
            let (r, co) = f(a as u32, b as u32, c);
            (r as u64, co)
        },
    )
}
/// Carry in and out: the carry in from VCC (32-bit encodings) or SRC2 (VOP3B).
fn carry_in_out(cx: &mut Cx, f: fn(u32, u32, bool, bool) -> (u32, bool)) -> R {
    let c = cx.v.clamp;
    alu_bits(
        cx,
        [B32, B32],
        B32,
        BitIn::VccOrSrc2,
        BitOut::Mask,
        |[a, b], ci| {
            let (r, co) = f(a as u32, b as u32, ci, c);
            (r as u64, co)
        },
    )
}

/// Make SRC2 the VDST register (V_MAC*: the accumulator is VDST, whatever SRC2 holds).
fn acc_is_vdst(cx: &mut Cx) {
    cx.v.src[2] = Src::vgpr(cx.v.vdst);
}

/// The operands of V_MADMK (`S0 × K + S1`) and V_MADAK (`S0 × S1 + K`) in order.
fn madk(cx: &mut Cx, k_second: bool) {
    let [s0, s1, _] = cx.v.src;
    cx.v.src = if k_second {
        [s0, Src::LITERAL, s1]
    } else {
        [s0, s1, Src::LITERAL]
    };
}

fn compare_op(cx: &mut Cx, d: vopc::CmpDesc) -> R {
    let m = cx.mode();
    let x = d.exec;
    let fl = |f: Fp| f.flush_in;
    match (d.cond, d.ty) {
        (None, CmpTy::F16) => compare(cx, [F16, B16], x, |[a, k]| {
            vopc::cmp_class(FMT16, a, k as u32)
        }),
        (None, CmpTy::F32) => compare(cx, [F32, B32], x, |[a, k]| {
            vopc::cmp_class(FMT32, a, k as u32)
        }),
        (None, CmpTy::F64) => compare(cx, [F64, B32], x, |[a, k]| {
            vopc::cmp_class(FMT64, a, k as u32)
        }),
        (None, _) => Err(ExecErrorKind::Unsupported {
            mnemonic: cx.v.op.mnemonic().into(),
        }),
        (Some(c), ty) => match ty {
            CmpTy::F16 => compare(cx, [F16, F16], x, |[a, b]| {
                vopc::cmp_float(FMT16, fl(m.fp16()), c, a, b)
            }),
            CmpTy::F32 => compare(cx, [F32, F32], x, |[a, b]| {
                vopc::cmp_float(FMT32, fl(m.fp32()), c, a, b)
            }),
            CmpTy::F64 => compare(cx, [F64, F64], x, |[a, b]| {
                vopc::cmp_float(FMT64, fl(m.fp64()), c, a, b)
            }),
            CmpTy::I16 => compare(cx, [B16, B16], x, |[a, b]| {
                vopc::cmp_int(c, a as u16 as i16, b as u16 as i16)
            }),
            CmpTy::U16 => compare(cx, [B16, B16], x, |[a, b]| {
                vopc::cmp_int(c, a as u16, b as u16)
            }),
            CmpTy::I32 => compare(cx, [B32, B32], x, |[a, b]| {
                vopc::cmp_int(c, a as u32 as i32, b as u32 as i32)
            }),
            CmpTy::U32 => compare(cx, [B32, B32], x, |[a, b]| {
                vopc::cmp_int(c, a as u32, b as u32)
            }),
            CmpTy::I64 => compare(cx, [B64, B64], x, |[a, b]| {
                vopc::cmp_int(c, a as i64, b as i64)
            }),
            CmpTy::U64 => compare(cx, [B64, B64], x, |[a, b]| vopc::cmp_int(c, a, b)),
        },
    }
}

/// Execute `cx.v` (any vector ALU operation).
pub fn dispatch(cx: &mut Cx) -> R {
    use Op::*;
    let m = cx.mode();
    let gen: Gen = cx.v.gen;
    let op = cx.v.op;
    if let Some(d) = vopc::desc(op) {
        return compare_op(cx, d);
    }
    match op {
        VNop | VClrexcp => Ok(()), // no lane state changes (exceptions are not modelled)

        // --- moves and cross-lane
        VMovB32 => alu(cx, [B32], B32, |[a]| a),
        VCndmaskB32 => alu_bits(
            cx,
            [B32, B32],
            B32,
            BitIn::VccOrSrc2,
            BitOut::None,
            |[a, b], c| (vop2::v_cndmask_b32(a as u32, b as u32, c) as u64, false),
        ),
        VReadlaneB32 => lanes::v_readlane_b32(cx),
        VWritelaneB32 => lanes::v_writelane_b32(cx),
        VReadfirstlaneB32 => lanes::v_readfirstlane_b32(cx),
        VMovrelsB32 => lanes::movrel(cx, Movrel::S),
        VMovreldB32 => lanes::movrel(cx, Movrel::D),
        VMovrelsdB32 => lanes::movrel(cx, Movrel::Sd),

        // --- f32 arithmetic (VOP2)
        VAddF32 => f32_2(cx, vop2::v_add_f32),
        VSubF32 => f32_2(cx, vop2::v_sub_f32),
        VSubrevF32 => f32_2(cx, vop2::v_subrev_f32),
        VMulF32 => f32_2(cx, vop2::v_mul_f32),
        VMulLegacyF32 => f32_2(cx, vop2::v_mul_legacy_f32),
        VMinF32 => f32_2(cx, vop2::v_min_f32),
        VMaxF32 => f32_2(cx, vop2::v_max_f32),
        VMinLegacyF32 => f32_2(cx, vop2::v_min_legacy_f32),
        VMaxLegacyF32 => f32_2(cx, vop2::v_max_legacy_f32),
        VLdexpF32 => alu(cx, [F32, B32], F32, |[a, b]| {
            vop2::v_ldexp_f32(a as u32, b as u32, m) as u64
        }),
        VMacF32 => {
            acc_is_vdst(cx);
            f32_3(cx, vop2::v_mac_f32)
        }
        VMacLegacyF32 => {
            acc_is_vdst(cx);
            f32_3(cx, vop2::v_mac_legacy_f32)
        }
        VMadmkF32 => {
            madk(cx, true);
            f32_3(cx, vop2::v_madmk_f32)
        }
        VMadakF32 => {
            madk(cx, false);
            f32_3(cx, vop2::v_madak_f32)
        }

        // --- integer (VOP2)
        VMulI32I24 => b32_2(cx, vop2::v_mul_i32_i24),
        VMulHiI32I24 => b32_2(cx, vop2::v_mul_hi_i32_i24),
        VMulU32U24 => b32_2(cx, vop2::v_mul_u32_u24),
        VMulHiU32U24 => b32_2(cx, vop2::v_mul_hi_u32_u24),
        VMinI32 => b32_2(cx, vop2::v_min_i32),
        VMaxI32 => b32_2(cx, vop2::v_max_i32),
        VMinU32 => b32_2(cx, vop2::v_min_u32),
        VMaxU32 => b32_2(cx, vop2::v_max_u32),
        VLshrB32 => b32_2(cx, vop2::v_lshr_b32),
        VLshrrevB32 => b32_2(cx, vop2::v_lshrrev_b32),
        VAshrI32 => b32_2(cx, vop2::v_ashr_i32),
        VAshrrevI32 => b32_2(cx, vop2::v_ashrrev_i32),
        VLshlB32 => b32_2(cx, vop2::v_lshl_b32),
        VLshlrevB32 => b32_2(cx, vop2::v_lshlrev_b32),
        VAndB32 => b32_2(cx, vop2::v_and_b32),
        VOrB32 => b32_2(cx, vop2::v_or_b32),
        VXorB32 => b32_2(cx, vop2::v_xor_b32),
        VBfmB32 => b32_2(cx, vop2::v_bfm_b32),
        VBcntU32B32 => b32_2(cx, vop2::v_bcnt_u32_b32),
        VMbcntLoU32B32 => alu_lane(cx, [B32, B32], B32, |l, [a, b]| {
            vop2::v_mbcnt_lo_u32_b32(l, a as u32, b as u32) as u64
        }),
        VMbcntHiU32B32 => alu_lane(cx, [B32, B32], B32, |l, [a, b]| {
            vop2::v_mbcnt_hi_u32_b32(l, a as u32, b as u32) as u64
        }),
        VAddI32 | VAddU32 => carry_out(cx, vop2::v_add_u32),
        VSubI32 | VSubU32 => carry_out(cx, vop2::v_sub_u32),
        VSubrevI32 | VSubrevU32 => carry_out(cx, vop2::v_subrev_u32),
        VAddcU32 => carry_in_out(cx, vop2::v_addc_u32),
        VSubbU32 => carry_in_out(cx, vop2::v_subb_u32),
        VSubbrevU32 => carry_in_out(cx, vop2::v_subbrev_u32),

        // --- packing conversions (VOP2 on GCN 1.0/1.1, VOP3 on 1.2)
        VCvtPkaccumU8F32 => {
            acc_is_vdst(cx);
            alu(cx, [F32, B32, B32], B32, |[a, b, d]| {
                vop2::v_cvt_pkaccum_u8_f32(a as u32, b as u32, d as u32, m) as u64
            })
        }
        VCvtPknormI16F32 => f32x2_to_b32(cx, vop2::v_cvt_pknorm_i16_f32),
        VCvtPknormU16F32 => f32x2_to_b32(cx, vop2::v_cvt_pknorm_u16_f32),
        VCvtPkrtzF16F32 => f32x2_to_b32(cx, vop2::v_cvt_pkrtz_f16_f32),
        VCvtPkU16U32 => b32_2(cx, vop2::v_cvt_pk_u16_u32),
        VCvtPkI16I32 => b32_2(cx, vop2::v_cvt_pk_i16_i32),

        // --- VOP1 conversions
        VCvtI32F64 => alu(cx, [F64], B32, |[a]| vop1::v_cvt_i32_f64(a, m) as u64),
        VCvtF64I32 => alu(cx, [B32], F64, |[a]| vop1::v_cvt_f64_i32(a as u32, m)),
        VCvtF32I32 => b32_to_f32(cx, vop1::v_cvt_f32_i32),
        VCvtF32U32 => b32_to_f32(cx, vop1::v_cvt_f32_u32),
        VCvtU32F32 => f32_to_b32(cx, vop1::v_cvt_u32_f32),
        VCvtI32F32 => f32_to_b32(cx, vop1::v_cvt_i32_f32),
        VCvtF16F32 => alu(cx, [F32], F16, |[a]| {
            vop1::v_cvt_f16_f32(a as u32, m, gen) as u64
        }),
        VCvtF32F16 => alu(cx, [F16], F32, |[a]| {
            vop1::v_cvt_f32_f16(a as u32, m, gen) as u64
        }),
        VCvtRpiI32F32 => f32_to_b32(cx, vop1::v_cvt_rpi_i32_f32),
        VCvtFlrI32F32 => f32_to_b32(cx, vop1::v_cvt_flr_i32_f32),
        VCvtOffF32I4 => alu(cx, [B32], F32, |[a]| {
            vop1::v_cvt_off_f32_i4(a as u32) as u64
        }),
        VCvtF32F64 => alu(cx, [F64], F32, |[a]| vop1::v_cvt_f32_f64(a, m) as u64),
        VCvtF64F32 => alu(cx, [F32], F64, |[a]| vop1::v_cvt_f64_f32(a as u32, m)),
        VCvtF32Ubyte0 => alu(cx, [B32], F32, |[a]| {
            vop1::v_cvt_f32_ubyte(a as u32, 0) as u64
        }),
        VCvtF32Ubyte1 => alu(cx, [B32], F32, |[a]| {
            vop1::v_cvt_f32_ubyte(a as u32, 1) as u64
        }),
        VCvtF32Ubyte2 => alu(cx, [B32], F32, |[a]| {
            vop1::v_cvt_f32_ubyte(a as u32, 2) as u64
        }),
        VCvtF32Ubyte3 => alu(cx, [B32], F32, |[a]| {
            vop1::v_cvt_f32_ubyte(a as u32, 3) as u64
        }),
        VCvtU32F64 => alu(cx, [F64], B32, |[a]| vop1::v_cvt_u32_f64(a, m) as u64),
        VCvtF64U32 => alu(cx, [B32], F64, |[a]| vop1::v_cvt_f64_u32(a as u32, m)),

        // --- rounding, fractions, frexp (all precisions)
        VFractF32 => fp_1(cx, F32, vop1::fract),
        VFractF64 => fp_1(cx, F64, vop1::fract),
        VFractF16 => fp_1(cx, F16, vop1::fract),
        VTruncF32 => fp_1(cx, F32, vop1::trunc),
        VTruncF64 => fp_1(cx, F64, vop1::trunc),
        VTruncF16 => fp_1(cx, F16, vop1::trunc),
        VCeilF32 => fp_1(cx, F32, vop1::ceil),
        VCeilF64 => fp_1(cx, F64, vop1::ceil),
        VCeilF16 => fp_1(cx, F16, vop1::ceil),
        VRndneF32 => fp_1(cx, F32, vop1::rndne),
        VRndneF64 => fp_1(cx, F64, vop1::rndne),
        VRndneF16 => fp_1(cx, F16, vop1::rndne),
        VFloorF32 => fp_1(cx, F32, vop1::floor),
        VFloorF64 => fp_1(cx, F64, vop1::floor),
        VFloorF16 => fp_1(cx, F16, vop1::floor),
        VFrexpExpI32F32 => alu(cx, [F32], B32, |[a]| {
            vop1::frexp_exp(m.fp32(), a, gen) as u64
        }),
        VFrexpExpI32F64 => alu(cx, [F64], B32, |[a]| {
            vop1::frexp_exp(m.fp64(), a, gen) as u64
        }),
        VFrexpMantF32 => alu(cx, [F32], F32, |[a]| vop1::frexp_mant(m.fp32(), a, gen)),
        VFrexpMantF64 => alu(cx, [F64], F64, |[a]| vop1::frexp_mant(m.fp64(), a, gen)),
        VFrexpMantF16 => alu(cx, [F16], F16, |[a]| vop1::frexp_mant(m.fp16(), a, gen)),
        VFrexpExpI16F16 => alu(cx, [F16], B16, |[a]| {
            f16::v_frexp_exp_i16_f16(a as u16, m) as u64
        }),

        // --- reciprocals, roots, transcendentals
        VRcpF32 | VRcpIflagF32 => fp_1(cx, F32, vop1::rcp),
        VRcpF64 => fp_1(cx, F64, vop1::rcp),
        VRcpF16 => fp_1(cx, F16, vop1::rcp),
        VRcpClampF32 => fp_1(cx, F32, vop1::rcp_clamp),
        VRcpClampF64 => fp_1(cx, F64, vop1::rcp_clamp),
        VRcpLegacyF32 => f32_1(cx, vop1::v_rcp_legacy_f32),
        VRsqF32 => f32_1(cx, vop1::v_rsq_f32),
        VRsqClampF32 => f32_1(cx, vop1::v_rsq_clamp_f32),
        VRsqLegacyF32 => f32_1(cx, vop1::v_rsq_legacy_f32),
        VRsqF64 => fp_1(cx, F64, vop1::rsq),
        VRsqClampF64 => fp_1(cx, F64, |fp, a| {
            let r = vop1::rsq(fp, a);
            if FMT64.is_inf(r) {
                FMT64.max_finite(FMT64.is_neg(r))
            } else {
                r
            }
        }),
        VRsqF16 => fp_1(cx, F16, vop1::rsq),
        VSqrtF32 => fp_1(cx, F32, vop1::sqrt),
        VSqrtF64 => fp_1(cx, F64, vop1::sqrt),
        VSqrtF16 => fp_1(cx, F16, vop1::sqrt),
        VExpF32 | VExpLegacyF32 => fp_1(cx, F32, vop1::exp),
        VExpF16 => fp_1(cx, F16, vop1::exp),
        VLogF32 | VLogLegacyF32 => f32_1(cx, vop1::v_log_f32),
        VLogClampF32 => f32_1(cx, vop1::v_log_clamp_f32),
        VLogF16 => fp_1(cx, F16, vop1::log),
        VSinF32 => fp_1(cx, F32, vop1::sin),
        VSinF16 => fp_1(cx, F16, vop1::sin),
        VCosF32 => fp_1(cx, F32, vop1::cos),
        VCosF16 => fp_1(cx, F16, vop1::cos),

        // --- bit operations (VOP1)
        VNotB32 => b32_1(cx, vop1::v_not_b32),
        VBfrevB32 => b32_1(cx, vop1::v_bfrev_b32),
        VFfbhU32 => b32_1(cx, vop1::v_ffbh_u32),
        VFfblB32 => b32_1(cx, vop1::v_ffbl_b32),
        VFfbhI32 => b32_1(cx, vop1::v_ffbh_i32),

        // --- VOP3-only, 32-bit
        VMadLegacyF32 => f32_3(cx, vop3::v_mad_legacy_f32),
        VMadF32 => f32_3(cx, vop3::v_mad_f32),
        VMadI32I24 => b32_3(cx, vop3::v_mad_i32_i24),
        VMadU32U24 => b32_3(cx, vop3::v_mad_u32_u24),
        VCubeidF32 => f32_3(cx, vop3::v_cubeid_f32),
        VCubescF32 => f32_3(cx, vop3::v_cubesc_f32),
        VCubetcF32 => f32_3(cx, vop3::v_cubetc_f32),
        VCubemaF32 => f32_3(cx, vop3::v_cubema_f32),
        VBfeU32 => b32_3(cx, vop3::v_bfe_u32),
        VBfeI32 => b32_3(cx, vop3::v_bfe_i32),
        VBfiB32 => b32_3(cx, vop3::v_bfi_b32),
        VFmaF32 => f32_3(cx, vop3::v_fma_f32),
        VLerpU8 => b32_3(cx, vop3::v_lerp_u8),
        VAlignbitB32 => b32_3(cx, vop3::v_alignbit_b32),
        VAlignbyteB32 => b32_3(cx, vop3::v_alignbyte_b32),
        VMullitF32 => f32_3(cx, vop3::v_mullit_f32),
        VMin3F32 => fp_3(cx, F32, vop3::min3),
        VMax3F32 => fp_3(cx, F32, vop3::max3),
        VMed3F32 => fp_3(cx, F32, vop3::med3),
        VMin3I32 => b32_3(cx, |a, b, c| {
            vop3::min3_int(a as i32, b as i32, c as i32) as u32
        }),
        VMax3I32 => b32_3(cx, |a, b, c| {
            vop3::max3_int(a as i32, b as i32, c as i32) as u32
        }),
        VMed3I32 => b32_3(cx, |a, b, c| {
            vop3::med3_int(a as i32, b as i32, c as i32) as u32
        }),
        VMin3U32 => b32_3(cx, vop3::min3_int),
        VMax3U32 => b32_3(cx, vop3::max3_int),
        VMed3U32 => b32_3(cx, vop3::med3_int),
        VSadU8 => b32_3(cx, vop3::v_sad_u8),
        VSadHiU8 => b32_3(cx, vop3::v_sad_hi_u8),
        VSadU16 => b32_3(cx, vop3::v_sad_u16),
        VSadU32 => b32_3(cx, vop3::v_sad_u32),
        VMsadU8 => b32_3(cx, vop3::v_msad_u8),
        VCvtPkU8F32 => alu(cx, [F32, B32, B32], B32, |[a, b, c]| {
            vop3::v_cvt_pk_u8_f32(a as u32, b as u32, c as u32, m) as u64
        }),
        VDivFixupF32 => fp_3(cx, F32, vop3::div_fixup),
        VDivFixupF64 => fp_3(cx, F64, vop3::div_fixup),
        VDivFixupF16 => fp_3(cx, F16, vop3::div_fixup),
        VMulLoU32 => b32_2(cx, vop3::v_mul_lo_u32),
        VMulHiU32 => b32_2(cx, vop3::v_mul_hi_u32),
        VMulLoI32 => b32_2(cx, vop3::v_mul_lo_i32),
        VMulHiI32 => b32_2(cx, vop3::v_mul_hi_i32),
        VPermB32 => b32_3(cx, vop3::v_perm_b32),
        VDivScaleF32 | VDivScaleF64 => {
            let ty = if op == VDivScaleF32 { F32 } else { F64 };
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
        VDivFmasF32 | VDivFmasF64 => {
            let ty = if op == VDivFmasF32 { F32 } else { F64 };
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

        // --- VOP3-only, 64-bit
        VFmaF64 => f64_3(cx, vop3::v_fma_f64),
        VAddF64 => f64_2(cx, vop3::v_add_f64),
        VMulF64 => f64_2(cx, vop3::v_mul_f64),
        VMinF64 => f64_2(cx, vop3::v_min_f64),
        VMaxF64 => f64_2(cx, vop3::v_max_f64),
        VLdexpF64 => alu(cx, [F64, B32], F64, |[a, b]| {
            vop3::v_ldexp_f64(a, b as u32, m)
        }),
        VTrigPreopF64 => alu(cx, [F64, B32], F64, |[a, b]| {
            vop3::v_trig_preop_f64(a, b as u32, m)
        }),
        VLshlB64 => alu(cx, [B64, B32], B64, |[a, b]| vop3::v_lshl_b64(a, b as u32)),
        VLshrB64 => alu(cx, [B64, B32], B64, |[a, b]| vop3::v_lshr_b64(a, b as u32)),
        VAshrI64 => alu(cx, [B64, B32], B64, |[a, b]| vop3::v_ashr_i64(a, b as u32)),
        VLshlrevB64 => alu(cx, [B32, B64], B64, |[a, b]| {
            vop3::v_lshlrev_b64(a as u32, b)
        }),
        VLshrrevB64 => alu(cx, [B32, B64], B64, |[a, b]| {
            vop3::v_lshrrev_b64(a as u32, b)
        }),
        VAshrrevI64 => alu(cx, [B32, B64], B64, |[a, b]| {
            vop3::v_ashrrev_i64(a as u32, b)
        }),
        VQsadPkU16U8 | VQsadU8 => alu(cx, [B64, B32, B64], B64, |[a, b, c]| {
            vop3::qsad_pk_u16_u8(a, b as u32, c, false)
        }),
        VMqsadPkU16U8 | VMqsadU8 => alu(cx, [B64, B32, B64], B64, |[a, b, c]| {
            vop3::qsad_pk_u16_u8(a, b as u32, c, true)
        }),
        VMqsadU32U8 => lanes::v_mqsad_u32_u8(cx),
        VMadU64U32 => alu_bits(
            cx,
            [B32, B32, B64],
            B64,
            BitIn::None,
            BitOut::Mask,
            |[a, b, c], _| vop3::v_mad_u64_u32(a as u32, b as u32, c),
        ),
        VMadI64I32 => alu_bits(
            cx,
            [B32, B32, B64],
            B64,
            BitIn::None,
            BitOut::Mask,
            |[a, b, c], _| vop3::v_mad_i64_i32(a as u32, b as u32, c),
        ),

        // --- GCN 1.2 16-bit
        VAddF16 => f16_2(cx, f16::v_add_f16),
        VSubF16 => f16_2(cx, f16::v_sub_f16),
        VSubrevF16 => f16_2(cx, f16::v_subrev_f16),
        VMulF16 => f16_2(cx, f16::v_mul_f16),
        VMaxF16 => f16_2(cx, f16::v_max_f16),
        VMinF16 => f16_2(cx, f16::v_min_f16),
        VLdexpF16 => alu(cx, [F16, B16], F16, |[a, b]| {
            f16::v_ldexp_f16(a as u16, b as u16, m) as u64
        }),
        VMacF16 => {
            acc_is_vdst(cx);
            f16_3(cx, f16::v_mad_f16)
        }
        VMadmkF16 => {
            madk(cx, true);
            f16_3(cx, f16::v_mad_f16)
        }
        VMadakF16 => {
            madk(cx, false);
            f16_3(cx, f16::v_mad_f16)
        }
        VMadF16 => f16_3(cx, f16::v_mad_f16),
        VFmaF16 => f16_3(cx, f16::v_fma_f16),
        VAddU16 => b16_2c(cx, f16::v_add_u16),
        VSubU16 => b16_2c(cx, f16::v_sub_u16),
        VSubrevU16 => b16_2c(cx, f16::v_subrev_u16),
        VMadU16 => b16_3c(cx, f16::v_mad_u16),
        VMadI16 => b16_3c(cx, f16::v_mad_i16),
        VMulLoU16 => b16_2(cx, f16::v_mul_lo_u16),
        VLshlrevB16 => b16_2(cx, f16::v_lshlrev_b16),
        VLshrrevB16 => b16_2(cx, f16::v_lshrrev_b16),
        VAshrrevI16 => b16_2(cx, f16::v_ashrrev_i16),
        VMaxU16 => b16_2(cx, f16::v_max_u16),
        VMaxI16 => b16_2(cx, f16::v_max_i16),
        VMinU16 => b16_2(cx, f16::v_min_u16),
        VMinI16 => b16_2(cx, f16::v_min_i16),
        VCvtF16U16 => alu(cx, [B16], F16, |[a]| f16::v_cvt_f16_u16(a as u16, m) as u64),
        VCvtF16I16 => alu(cx, [B16], F16, |[a]| f16::v_cvt_f16_i16(a as u16, m) as u64),
        VCvtU16F16 => alu(cx, [F16], B16, |[a]| f16::v_cvt_u16_f16(a as u16, m) as u64),
        VCvtI16F16 => alu(cx, [F16], B16, |[a]| f16::v_cvt_i16_f16(a as u16, m) as u64),

        _ => Err(ExecErrorKind::Unsupported {
            mnemonic: op.mnemonic().to_string(),
        }),
    }
}
