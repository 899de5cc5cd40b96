//! The vector operations the JIT lowers inline: which `Op` means what (`sem`), the shape
//! of its operands, and the lowering of one chunk (operand fetch with modifiers, the
//! operation, OMOD/CLAMP, write-back).
//!
//! Float rules follow `wavejit_interp::float`: inputs flushed when MODE says so, results
//! flushed when MODE says so, every arithmetic NaN result the canonical quiet NaN
//! (0x7FC00000 / 0x7FF8000000000000). Only round-to-nearest-even is lowered (the
//! host's default); a block specialised on another MODE rounding leaves float operations
//! to the interpreter helper.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, InstBuilder, Value};
use wavejit_isa::gcn::Op;

use super::half::{Cvt16, HOp, I16};
use super::valu::{dpp_write_mask, Gathered, VPlan, VSrc};
use crate::block::{Cx, Raw, F32X4, F64X2, I32X4, I64X2, I8X16};

/// The float format of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fmt {
    F32,
    F64,
}

/// 32-bit integer operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IOp {
    Mov,
    Not,
    Bfrev,
    Ffbh,
    Ffbl,
    FfbhI,
    MulI24,
    MulHiI24,
    MulU24,
    MulHiU24,
    MinI,
    MaxI,
    MinU,
    MaxU,
    Lshr,
    Lshrrev,
    Ashr,
    Ashrrev,
    Lshl,
    Lshlrev,
    And,
    Or,
    Xor,
    Bfm,
    Bcnt,
    MbcntLo,
    MbcntHi,
    MulLo,
    MulHiU,
    MulHiI,
    MadI24,
    MadU24,
    BfeU,
    BfeI,
    Bfi,
    Lerp,
    Alignbit,
    Alignbyte,
    Min3I,
    Min3U,
    Max3I,
    Max3U,
    Med3I,
    Med3U,
    SadU8,
    SadHiU8,
    SadU16,
    SadU32,
    CvtF32Ubyte(u8),
}

/// f32 / f64 arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FOp {
    Add,
    Sub,
    Subrev,
    Mul,
    Mad,
    Fma,
    Min,
    Max,
    Min3,
    Max3,
    /// Median of three; any NaN input gives MIN3 (ERRATA VOP3 10, `vop3::med3`).
    Med3,
    MulLegacy,
    Trunc,
    Ceil,
    Floor,
    Rndne,
    Sqrt,
    /// `1 / x`, correctly rounded (`vop1::rcp`).
    Rcp,
    /// `x - floor(x)`; infinities and NaN give NaN (`vop1::fract`).
    Fract,
}

/// Compare conditions (float conditions are IEEE; `N*` are the negated, unordered-true
/// forms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Lg,
    Ge,
    O,
    U,
    Nge,
    Nlg,
    Ngt,
    Nle,
    Neq,
    Nlt,
    Tru,
}

/// Compared value types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CTy {
    F32,
    F64,
    I32,
    U32,
    I64,
    U64,
    F16,
    I16,
    U16,
}

/// Add/subtract with a carry (borrow) out, and optionally in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carry {
    Add,
    Sub,
    Subrev,
    Addc,
    Subb,
    Subbrev,
}

/// Conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cvt {
    F32FromI32,
    F32FromU32,
    /// Truncating, saturating; NaN → 0 (`vop1::to_i32`).
    I32FromF32,
    U32FromF32,
    /// Exact widening; NaN canonical (`vop1::v_cvt_f64_f32`).
    F64FromF32,
    /// Rounded with MODE's f32 direction (`vop1::v_cvt_f32_f64`).
    F32FromF64,
    /// Exact (`vop1::v_cvt_f64_i32`, `v_cvt_f64_u32`).
    F64FromI32,
    F64FromU32,
    /// Truncating, saturating; NaN → 0 (`vop1::v_cvt_i32_f64`, `v_cvt_u32_f64`).
    I32FromF64,
    U32FromF64,
}

/// How VOP2 operands map (V_MAC: the destination is the third source; MADMK/MADAK: the
/// literal is the second or third).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vop2Form {
    Plain,
    Mac,
    MadMk,
    MadAk,
}

/// What an operation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sem {
    Int(IOp),
    Float(Fmt, FOp, Vop2Form),
    Cmp {
        ty: CTy,
        cond: Cond,
        x: bool,
    },
    Cndmask,
    Carry(Carry),
    Cvt(Cvt),
    /// 64-bit shifts (`mixed.rs`): kind 0 left, 1 logical right, 2 arithmetic right; `rev`
    /// takes the amount from SRC0 (V_*REV_B64) instead of SRC1.
    Shift64 {
        kind: u8,
        rev: bool,
    },
    /// `x × 2^n` rounded once (`mixed.rs`).
    Ldexp(Fmt),
    /// The exponent (`mant` false, an i32) or mantissa of `frexp` (`mixed.rs`).
    Frexp {
        f: Fmt,
        mant: bool,
    },
    /// GCN 1.2's f16 arithmetic (`half.rs`).
    Half(HOp, Vop2Form),
    /// GCN 1.2's 16-bit integer arithmetic (`half.rs`).
    Int16(I16),
    /// Conversions with a 16-bit side (`half.rs`).
    Cvt16(Cvt16),
    /// Class compares, packing conversions, byte permute, masked/quad SADs, 64-bit
    /// multiply-add (`xop.rs`).
    X(super::xop::XOp),
}

/// The operand shape of a `Sem`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub nsrc: u8,
    pub w64: [bool; 3],
    pub w64_dst: bool,
    pub vop2: Vop2Form,
    pub mask_in: bool,
    pub mask_out: bool,
    pub is_cmp: bool,
    pub is_cmpx: bool,
    /// The result is a float of this format (OMOD/CLAMP apply).
    pub float: Option<Fmt>,
    /// The sources are floats (SDWA applies NEG/ABS to float sources only)...
    pub src_float: bool,
    /// ...except these (bit i: source i is an integer, e.g. V_LDEXP's exponent).
    pub int_srcs: u8,
    /// The sources are 16-bit (the low half of the operand; ABS/NEG on bit 15; 16-bit
    /// inline constants).
    pub src16: bool,
    /// The result is an f16 float (f16 OMOD/CLAMP; MODE's f16 rounding).
    pub f16: bool,
}

impl IOp {
    pub fn arity(self) -> u8 {
        use IOp::*;
        match self {
            Mov | Not | Bfrev | Ffbh | Ffbl | FfbhI | CvtF32Ubyte(_) => 1,
            MadI24 | MadU24 | BfeU | BfeI | Bfi | Lerp | Alignbit | Alignbyte | Min3I | Min3U
            | Max3I | Max3U | Med3I | Med3U | SadU8 | SadHiU8 | SadU16 | SadU32 => 3,
            _ => 2,
        }
    }
}

impl FOp {
    pub fn arity(self) -> u8 {
        use FOp::*;
        match self {
            Trunc | Ceil | Floor | Rndne | Sqrt | Rcp | Fract => 1,
            Mad | Fma | Min3 | Max3 | Med3 => 3,
            _ => 2,
        }
    }
}

impl Sem {
    pub fn shape(self) -> Shape {
        let mut s = Shape {
            nsrc: 2,
            w64: [false; 3],
            w64_dst: false,
            vop2: Vop2Form::Plain,
            mask_in: false,
            mask_out: false,
            is_cmp: false,
            is_cmpx: false,
            float: None,
            src_float: false,
            int_srcs: 0,
            src16: false,
            f16: false,
        };
        match self {
            Sem::Int(op) => {
                s.nsrc = op.arity();
                if let IOp::CvtF32Ubyte(_) = op {
                    s.float = Some(Fmt::F32);
                }
            }
            Sem::Float(f, op, form) => {
                s.nsrc = if form == Vop2Form::Plain {
                    op.arity()
                } else {
                    3
                };
                s.vop2 = form;
                s.float = Some(f);
                s.src_float = true;
                if f == Fmt::F64 {
                    s.w64 = [true; 3];
                    s.w64_dst = true;
                }
            }
            Sem::Cmp { ty, x, .. } => {
                s.is_cmp = true;
                s.is_cmpx = x;
                if matches!(ty, CTy::F64 | CTy::I64 | CTy::U64) {
                    s.w64 = [true, true, false];
                }
                s.src16 = matches!(ty, CTy::F16 | CTy::I16 | CTy::U16);
                s.src_float = matches!(ty, CTy::F32 | CTy::F64 | CTy::F16);
            }
            Sem::Cndmask => s.mask_in = true,
            Sem::Carry(k) => {
                s.mask_out = true;
                s.mask_in = matches!(k, Carry::Addc | Carry::Subb | Carry::Subbrev);
            }
            Sem::Cvt(k) => {
                s.nsrc = 1;
                match k {
                    Cvt::F32FromI32 | Cvt::F32FromU32 => s.float = Some(Fmt::F32),
                    Cvt::I32FromF32 | Cvt::U32FromF32 => s.src_float = true,
                    Cvt::F64FromF32 => {
                        s.src_float = true;
                        s.float = Some(Fmt::F64);
                        s.w64_dst = true;
                    }
                    Cvt::F32FromF64 => {
                        s.src_float = true;
                        s.float = Some(Fmt::F32);
                        s.w64[0] = true;
                    }
                    Cvt::F64FromI32 | Cvt::F64FromU32 => {
                        s.float = Some(Fmt::F64);
                        s.w64_dst = true;
                    }
                    Cvt::I32FromF64 | Cvt::U32FromF64 => {
                        s.src_float = true;
                        s.w64[0] = true;
                    }
                }
            }
            Sem::Shift64 { rev, .. } => {
                s.w64 = [!rev, rev, false];
                s.w64_dst = true;
            }
            Sem::Ldexp(f) => {
                s.float = Some(f);
                s.src_float = true;
                s.int_srcs = 2;
                s.w64 = [f == Fmt::F64, false, false];
                s.w64_dst = f == Fmt::F64;
            }
            Sem::Half(op, form) => {
                s.nsrc = if form == Vop2Form::Plain {
                    op.arity()
                } else {
                    3
                };
                s.vop2 = form;
                s.src16 = true;
                s.f16 = true;
                s.src_float = true;
            }
            Sem::Int16(op) => {
                s.nsrc = op.arity();
                s.src16 = true;
            }
            Sem::Cvt16(k) => {
                s.nsrc = 1;
                match k {
                    Cvt16::F16FromU16 | Cvt16::F16FromI16 => {
                        s.src16 = true;
                        s.f16 = true;
                    }
                    Cvt16::U16FromF16 | Cvt16::I16FromF16 => {
                        s.src16 = true;
                        s.src_float = true;
                    }
                    Cvt16::F16FromF32 => {
                        s.src_float = true;
                        s.f16 = true;
                    }
                    Cvt16::F32FromF16 => {
                        s.src16 = true;
                        s.src_float = true;
                        s.float = Some(Fmt::F32);
                    }
                }
            }
            Sem::X(op) => super::xop::shape(op, &mut s),
            Sem::Frexp { f, mant } => {
                s.nsrc = 1;
                s.src_float = true;
                s.w64[0] = f == Fmt::F64;
                if mant {
                    s.float = Some(f);
                    s.w64_dst = f == Fmt::F64;
                }
            }
        }
        s
    }
}

fn parse_cmp(m: &str) -> Option<Sem> {
    let rest = m.strip_prefix("v_cmp")?;
    // Signalling compares (v_cmps*) raise exceptions only: same results.
    let rest = rest.strip_prefix('s').unwrap_or(rest);
    let (x, rest) = match rest.strip_prefix('x') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let rest = rest.strip_prefix('_')?;
    let (cond, ty) = rest.split_once('_')?;
    let ty = match ty {
        "f32" => CTy::F32,
        "f64" => CTy::F64,
        "i32" => CTy::I32,
        "u32" => CTy::U32,
        "i64" => CTy::I64,
        "u64" => CTy::U64,
        "f16" => CTy::F16,
        "i16" => CTy::I16,
        "u16" => CTy::U16,
        _ => return None,
    };
    let float = matches!(ty, CTy::F32 | CTy::F64 | CTy::F16);
    let cond = match cond {
        "f" => Cond::F,
        "lt" => Cond::Lt,
        "eq" => Cond::Eq,
        "le" => Cond::Le,
        "gt" => Cond::Gt,
        "lg" if float => Cond::Lg,
        "ne" | "lg" => Cond::Neq,
        "ge" => Cond::Ge,
        "o" if float => Cond::O,
        "u" if float => Cond::U,
        "nge" if float => Cond::Nge,
        "nlg" if float => Cond::Nlg,
        "ngt" if float => Cond::Ngt,
        "nle" if float => Cond::Nle,
        "neq" if float => Cond::Neq,
        "nlt" if float => Cond::Nlt,
        "tru" if float => Cond::Tru,
        "t" if !float => Cond::Tru,
        _ => return None,
    };
    Some(Sem::Cmp { ty, cond, x })
}

/// The semantics of `op`, if lowered inline.
pub fn sem(op: Op) -> Option<Sem> {
    use Op::*;
    let f32 = |o: FOp| Sem::Float(Fmt::F32, o, Vop2Form::Plain);
    let f64 = |o: FOp| Sem::Float(Fmt::F64, o, Vop2Form::Plain);
    Some(match op {
        VMovB32 => Sem::Int(IOp::Mov),
        VNotB32 => Sem::Int(IOp::Not),
        VBfrevB32 => Sem::Int(IOp::Bfrev),
        VMulI32I24 => Sem::Int(IOp::MulI24),
        VMulHiI32I24 => Sem::Int(IOp::MulHiI24),
        VMulU32U24 => Sem::Int(IOp::MulU24),
        VMulHiU32U24 => Sem::Int(IOp::MulHiU24),
        VMinI32 => Sem::Int(IOp::MinI),
        VMaxI32 => Sem::Int(IOp::MaxI),
        VMinU32 => Sem::Int(IOp::MinU),
        VMaxU32 => Sem::Int(IOp::MaxU),
        VLshrB32 => Sem::Int(IOp::Lshr),
        VLshrrevB32 => Sem::Int(IOp::Lshrrev),
        VAshrI32 => Sem::Int(IOp::Ashr),
        VAshrrevI32 => Sem::Int(IOp::Ashrrev),
        VLshlB32 => Sem::Int(IOp::Lshl),
        VLshlrevB32 => Sem::Int(IOp::Lshlrev),
        VAndB32 => Sem::Int(IOp::And),
        VOrB32 => Sem::Int(IOp::Or),
        VXorB32 => Sem::Int(IOp::Xor),
        VBfmB32 => Sem::Int(IOp::Bfm),
        VMulLoU32 | VMulLoI32 => Sem::Int(IOp::MulLo),
        VMulHiU32 => Sem::Int(IOp::MulHiU),
        VMulHiI32 => Sem::Int(IOp::MulHiI),
        VMadI32I24 => Sem::Int(IOp::MadI24),
        VMadU32U24 => Sem::Int(IOp::MadU24),
        VBfeU32 => Sem::Int(IOp::BfeU),
        VBfeI32 => Sem::Int(IOp::BfeI),
        VBfiB32 => Sem::Int(IOp::Bfi),
        VLerpU8 => Sem::Int(IOp::Lerp),
        VAlignbitB32 => Sem::Int(IOp::Alignbit),
        VAlignbyteB32 => Sem::Int(IOp::Alignbyte),
        VMin3I32 => Sem::Int(IOp::Min3I),
        VMin3U32 => Sem::Int(IOp::Min3U),
        VMax3I32 => Sem::Int(IOp::Max3I),
        VMax3U32 => Sem::Int(IOp::Max3U),
        VMed3I32 => Sem::Int(IOp::Med3I),
        VMed3U32 => Sem::Int(IOp::Med3U),
        VSadU8 => Sem::Int(IOp::SadU8),
        VSadHiU8 => Sem::Int(IOp::SadHiU8),
        VSadU16 => Sem::Int(IOp::SadU16),
        VSadU32 => Sem::Int(IOp::SadU32),
        VCndmaskB32 => Sem::Cndmask,
        VAddI32 | VAddU32 => Sem::Carry(Carry::Add),
        VSubI32 | VSubU32 => Sem::Carry(Carry::Sub),
        VSubrevI32 | VSubrevU32 => Sem::Carry(Carry::Subrev),
        VAddcU32 => Sem::Carry(Carry::Addc),
        VSubbU32 => Sem::Carry(Carry::Subb),
        VSubbrevU32 => Sem::Carry(Carry::Subbrev),
        VAddF32 => f32(FOp::Add),
        VSubF32 => f32(FOp::Sub),
        VSubrevF32 => f32(FOp::Subrev),
        VMulF32 => f32(FOp::Mul),
        VMadF32 => f32(FOp::Mad),
        VFmaF32 => f32(FOp::Fma),
        VMacF32 => Sem::Float(Fmt::F32, FOp::Mad, Vop2Form::Mac),
        VMadmkF32 => Sem::Float(Fmt::F32, FOp::Mad, Vop2Form::MadMk),
        VMadakF32 => Sem::Float(Fmt::F32, FOp::Mad, Vop2Form::MadAk),
        VMinF32 => f32(FOp::Min),
        VMaxF32 => f32(FOp::Max),
        VMin3F32 => f32(FOp::Min3),
        VMax3F32 => f32(FOp::Max3),
        VMed3F32 => f32(FOp::Med3),
        VMulLegacyF32 => f32(FOp::MulLegacy),
        VTruncF32 => f32(FOp::Trunc),
        VCeilF32 => f32(FOp::Ceil),
        VFloorF32 => f32(FOp::Floor),
        VRndneF32 => f32(FOp::Rndne),
        VSqrtF32 => f32(FOp::Sqrt),
        VAddF64 => f64(FOp::Add),
        VMulF64 => f64(FOp::Mul),
        VFmaF64 => f64(FOp::Fma),
        VMinF64 => f64(FOp::Min),
        VMaxF64 => f64(FOp::Max),
        VTruncF64 => f64(FOp::Trunc),
        VCeilF64 => f64(FOp::Ceil),
        VFloorF64 => f64(FOp::Floor),
        VRndneF64 => f64(FOp::Rndne),
        VSqrtF64 => f64(FOp::Sqrt),
        VCvtF32I32 => Sem::Cvt(Cvt::F32FromI32),
        VCvtF32U32 => Sem::Cvt(Cvt::F32FromU32),
        VCvtI32F32 => Sem::Cvt(Cvt::I32FromF32),
        VCvtU32F32 => Sem::Cvt(Cvt::U32FromF32),
        VRcpF32 | VRcpIflagF32 => f32(FOp::Rcp),
        VRcpF64 => f64(FOp::Rcp),
        VFractF32 => f32(FOp::Fract),
        VFractF64 => f64(FOp::Fract),
        VCvtF64F32 => Sem::Cvt(Cvt::F64FromF32),
        VCvtF32F64 => Sem::Cvt(Cvt::F32FromF64),
        VCvtF64I32 => Sem::Cvt(Cvt::F64FromI32),
        VCvtF64U32 => Sem::Cvt(Cvt::F64FromU32),
        VCvtI32F64 => Sem::Cvt(Cvt::I32FromF64),
        VCvtU32F64 => Sem::Cvt(Cvt::U32FromF64),
        VLshlB64 => Sem::Shift64 {
            kind: 0,
            rev: false,
        },
        VLshrB64 => Sem::Shift64 {
            kind: 1,
            rev: false,
        },
        VAshrI64 => Sem::Shift64 {
            kind: 2,
            rev: false,
        },
        VLshlrevB64 => Sem::Shift64 { kind: 0, rev: true },
        VLshrrevB64 => Sem::Shift64 { kind: 1, rev: true },
        VAshrrevI64 => Sem::Shift64 { kind: 2, rev: true },
        VLdexpF32 => Sem::Ldexp(Fmt::F32),
        VLdexpF64 => Sem::Ldexp(Fmt::F64),
        VFrexpExpI32F32 => Sem::Frexp {
            f: Fmt::F32,
            mant: false,
        },
        VFrexpExpI32F64 => Sem::Frexp {
            f: Fmt::F64,
            mant: false,
        },
        VFrexpMantF32 => Sem::Frexp {
            f: Fmt::F32,
            mant: true,
        },
        VFrexpMantF64 => Sem::Frexp {
            f: Fmt::F64,
            mant: true,
        },
        VAddF16 => Sem::Half(HOp::Add, Vop2Form::Plain),
        VSubF16 => Sem::Half(HOp::Sub, Vop2Form::Plain),
        VSubrevF16 => Sem::Half(HOp::Subrev, Vop2Form::Plain),
        VMulF16 => Sem::Half(HOp::Mul, Vop2Form::Plain),
        VMadF16 => Sem::Half(HOp::Mad, Vop2Form::Plain),
        VMacF16 => Sem::Half(HOp::Mad, Vop2Form::Mac),
        VMadmkF16 => Sem::Half(HOp::Mad, Vop2Form::MadMk),
        VMadakF16 => Sem::Half(HOp::Mad, Vop2Form::MadAk),
        VMinF16 => Sem::Half(HOp::Min, Vop2Form::Plain),
        VMaxF16 => Sem::Half(HOp::Max, Vop2Form::Plain),
        VTruncF16 => Sem::Half(HOp::Trunc, Vop2Form::Plain),
        VCeilF16 => Sem::Half(HOp::Ceil, Vop2Form::Plain),
        VFloorF16 => Sem::Half(HOp::Floor, Vop2Form::Plain),
        VRndneF16 => Sem::Half(HOp::Rndne, Vop2Form::Plain),
        VSqrtF16 => Sem::Half(HOp::Sqrt, Vop2Form::Plain),
        VRcpF16 => Sem::Half(HOp::Rcp, Vop2Form::Plain),
        VFractF16 => Sem::Half(HOp::Fract, Vop2Form::Plain),
        VAddU16 => Sem::Int16(I16::Add),
        VSubU16 => Sem::Int16(I16::Sub),
        VSubrevU16 => Sem::Int16(I16::Subrev),
        VMulLoU16 => Sem::Int16(I16::MulLo),
        VLshlrevB16 => Sem::Int16(I16::Lshlrev),
        VLshrrevB16 => Sem::Int16(I16::Lshrrev),
        VAshrrevI16 => Sem::Int16(I16::Ashrrev),
        VMaxU16 => Sem::Int16(I16::MaxU),
        VMaxI16 => Sem::Int16(I16::MaxI),
        VMinU16 => Sem::Int16(I16::MinU),
        VMinI16 => Sem::Int16(I16::MinI),
        VMadU16 => Sem::Int16(I16::MadU),
        VMadI16 => Sem::Int16(I16::MadI),
        VCvtF16U16 => Sem::Cvt16(Cvt16::F16FromU16),
        VCvtF16I16 => Sem::Cvt16(Cvt16::F16FromI16),
        VCvtU16F16 => Sem::Cvt16(Cvt16::U16FromF16),
        VCvtI16F16 => Sem::Cvt16(Cvt16::I16FromF16),
        VCvtF16F32 => Sem::Cvt16(Cvt16::F16FromF32),
        VCvtF32F16 => Sem::Cvt16(Cvt16::F32FromF16),
        VCvtF32Ubyte0 => Sem::Int(IOp::CvtF32Ubyte(0)),
        VCvtF32Ubyte1 => Sem::Int(IOp::CvtF32Ubyte(1)),
        VCvtF32Ubyte2 => Sem::Int(IOp::CvtF32Ubyte(2)),
        VCvtF32Ubyte3 => Sem::Int(IOp::CvtF32Ubyte(3)),
        VFfbhU32 => Sem::Int(IOp::Ffbh),
        VFfblB32 => Sem::Int(IOp::Ffbl),
        VFfbhI32 => Sem::Int(IOp::FfbhI),
        VBcntU32B32 => Sem::Int(IOp::Bcnt),
        VMbcntLoU32B32 => Sem::Int(IOp::MbcntLo),
        VMbcntHiU32B32 => Sem::Int(IOp::MbcntHi),
        _ => {
            return super::xop::sem(op)
                .map(Sem::X)
                .or_else(|| parse_cmp(op.mnemonic()))
        }
    })
}

/// Whether the modifiers and MODE of a plan are ones the lowering handles; otherwise the
/// instruction stays with the interpreter.
pub fn modifiers_ok(p: &VPlan, mode: u32) -> bool {
    let shape = p.sem.shape();
    match shape.float {
        Some(Fmt::F32) if mode & 3 != 0 => return false,
        Some(Fmt::F64) if (mode >> 2) & 3 != 0 => return false,
        _ => {}
    }
    // f16 results round with MODE's f64/f16 direction; GCN 1.0/1.1's V_CVT_F16_F32 with
    // the f32 one: both must be nearest even.
    if shape.f16 && mode & 0xf != 0 {
        return false;
    }
    if let Sem::Float(_, FOp::Fma, _) = p.sem {
        if !crate::backend::host_has_fma() {
            return false;
        }
    }
    if let Sem::X(op) = p.sem {
        if !super::xop::mode_ok(op, mode) {
            return false;
        }
    }
    // OMOD and CLAMP act on float results only (`interp::valu::driver::float_post`); on
    // anything else the interpreter ignores them, except the integer CLAMP (saturation) of
    // add/sub with carry, lowered in `Sem::Carry`.
    true
}

// ---- float helpers ------------------------------------------------------------------

impl Cx<'_> {
    pub(super) fn fp_flags(&self, f: Fmt) -> (bool, bool) {
        match f {
            // (flush inputs, flush outputs)
            Fmt::F32 => (self.mode & 0x10 == 0, self.mode & 0x20 == 0),
            Fmt::F64 => (self.mode & 0x40 == 0, self.mode & 0x80 == 0),
        }
    }

    /// Denormals of `x` (integer lanes of format `f`) become signed zero.
    pub(super) fn flush_den(&mut self, f: Fmt, x: Value) -> Value {
        match f {
            Fmt::F32 => {
                let x = self.cast(I32X4, x);
                let e = self.splat32(0x7f80_0000);
                let s = self.splat32(0x8000_0000);
                let t = self.b.ins().band(x, e);
                let z = self.splat32(0);
                let den = self.b.ins().icmp(IntCC::Equal, t, z);
                let signed0 = self.b.ins().band(x, s);
                self.b.ins().bitselect(den, signed0, x)
            }
            Fmt::F64 => {
                let x = self.cast(I64X2, x);
                let e = self.splat64(0x7ff0_0000_0000_0000);
                let s = self.splat64(0x8000_0000_0000_0000);
                let t = self.b.ins().band(x, e);
                let z = self.splat64(0);
                let den = self.b.ins().icmp(IntCC::Equal, t, z);
                let signed0 = self.b.ins().band(x, s);
                self.b.ins().bitselect(den, signed0, x)
            }
        }
    }

    /// Whether the constant `v` has a lane of format `f` for which `bad(bits)` holds.
    fn const_lane(&self, f: Fmt, v: Value, bad: impl Fn(u64) -> bool) -> Option<bool> {
        let bits = *self.const_bits.get(&v)?;
        Some(match f {
            Fmt::F32 => (0..4).any(|i| bad((bits >> (32 * i)) as u32 as u64)),
            Fmt::F64 => (0..2).any(|i| bad((bits >> (64 * i)) as u64)),
        })
    }

    /// Whether no lane of `v` (format `f`) can be a NaN.
    pub(super) fn known_notnan(&self, f: Fmt, v: Value) -> bool {
        if self.notnan.contains(&(v, f == Fmt::F64))
            || self.frange.contains_key(&(v, f == Fmt::F64))
        {
            return true;
        }
        let (exp, man) = match f {
            Fmt::F32 => (0x7f80_0000u64, 0x007f_ffffu64),
            Fmt::F64 => (0x7ff0_0000_0000_0000, 0x000f_ffff_ffff_ffff),
        };
        self.const_lane(f, v, |x| x & exp == exp && x & man != 0) == Some(false)
    }

    /// The range of the numbers in `v` (format `f`), if every lane is known to be one.
    pub(super) fn range_of(&self, f: Fmt, v: Value) -> Option<(f64, f64)> {
        if let Some(&r) = self.frange.get(&(v, f == Fmt::F64)) {
            return Some(r);
        }
        let bits = *self.const_bits.get(&v)?;
        let lanes: Vec<f64> = match f {
            Fmt::F32 => (0..4)
                .map(|i| f32::from_bits((bits >> (32 * i)) as u32) as f64)
                .collect(),
            Fmt::F64 => (0..2)
                .map(|i| f64::from_bits((bits >> (64 * i)) as u64))
                .collect(),
        };
        if lanes.iter().any(|x| x.is_nan()) {
            return None;
        }
        let lo = lanes.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = lanes.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Some((lo, hi))
    }

    /// Record that every lane of `v` is a number in `r` (ignored if `r` has a NaN bound).
    pub(super) fn set_range(&mut self, f: Fmt, v: Value, r: (f64, f64)) {
        if r.0.is_nan() || r.1.is_nan() {
            return;
        }
        self.frange.insert((v, f == Fmt::F64), r);
        self.notnan.insert((v, f == Fmt::F64));
    }

    /// `x` with denormal lanes flushed (once per value; values known clean pass).
    fn flush_cached(&mut self, f: Fmt, x: Value) -> Value {
        if self.noden.contains(&x) {
            return x;
        }
        let (exp, man) = match f {
            Fmt::F32 => (0x7f80_0000u64, 0x007f_ffffu64),
            Fmt::F64 => (0x7ff0_0000_0000_0000, 0x000f_ffff_ffff_ffff),
        };
        if self.const_lane(f, x, |b| b & exp == 0 && b & man != 0) == Some(false) {
            return x;
        }
        let key = (x, f == Fmt::F64);
        if let Some(&v) = self.flushed.get(&key) {
            return v;
        }
        let nn = self.known_notnan(f, x);
        let range = self.range_of(f, x);
        let v = self.flush_den(f, x);
        self.noden.insert(v);
        if nn {
            self.notnan.insert((v, f == Fmt::F64));
        }
        if let Some((lo, hi)) = range {
            // Denormals become ±0.
            self.set_range(f, v, (lo.min(0.0), hi.max(0.0)));
        }
        self.flushed.insert(key, v);
        v
    }

    /// An operand as the float vector an operation reads (input flush per MODE).
    pub(super) fn fin(&mut self, f: Fmt, x: Value) -> Value {
        let (fi, _) = self.fp_flags(f);
        let x = if fi { self.flush_cached(f, x) } else { x };
        self.cast(ftype(f), x)
    }

    /// A float result as stored: output flush per MODE, NaN canonical — or, while
    /// `lazy_nan` is set, NaNs left as they are (the value is then in `raw_vals` unless it
    /// is known to hold no NaN; `block::Raw`).
    pub(super) fn fout(&mut self, f: Fmt, r: Value) -> Value {
        let (_, fo) = self.fp_flags(f);
        let r = if fo {
            let range = self.range_of(f, r);
            let x = self.flush_den(f, r);
            if let Some((lo, hi)) = range {
                self.set_range(f, x, (lo.min(0.0), hi.max(0.0)));
            }
            x
        } else {
            r
        };
        let r = if self.lazy_nan {
            let r = self.cast(ftype(f), r);
            if !self.known_notnan(f, r) {
                self.raw_vals.insert((r, f == Fmt::F64));
            }
            r
        } else {
            self.canon(f, r)
        };
        if fo {
            self.noden.insert(r);
        }
        r
    }

    /// NaN lanes become the canonical quiet NaN.
    pub(super) fn canon(&mut self, f: Fmt, r: Value) -> Value {
        let r = self.cast(ftype(f), r);
        if self.known_notnan(f, r) {
            return r;
        }
        let nan = self.isnan(f, r);
        let q = match f {
            Fmt::F32 => self.splat32(0x7fc0_0000),
            Fmt::F64 => self.splat64(0x7ff8_0000_0000_0000),
        };
        let q = self.cast(ftype(f), q);
        self.b.ins().bitselect(nan, q, r)
    }

    /// The lanes of `x` (format `f`) that are NaNs, as a float-typed mask (one compare
    /// per value: Cranelift's optimiser, which would merge repeated ones, is off).
    pub(super) fn isnan(&mut self, f: Fmt, x: Value) -> Value {
        self.nan_mask(f == Fmt::F64, x)
    }

    /// Whether `v` is a constant whose lanes (format `f`) are all numbers other than ±0:
    /// x86's `minps`/`maxps` against it are then exactly minNum/maxNum (a NaN operand
    /// gives the constant, and equal values have equal bits).
    fn nonzero_number(&self, f: Fmt, v: Value) -> bool {
        let (exp, sign) = match f {
            Fmt::F32 => (0x7f80_0000u64, 0x8000_0000u64),
            Fmt::F64 => (0x7ff0_0000_0000_0000, 0x8000_0000_0000_0000),
        };
        self.const_lane(f, v, |x| {
            x & !sign == 0 || (x & exp == exp && x & !(exp | sign) != 0)
        }) == Some(false)
    }

    /// minNum/maxNum of two operands known not to be NaNs: the `minps` pair, -0 < +0.
    fn fminmax_num(&mut self, a: Value, b: Value, min: bool) -> Value {
        let m1 = self.pminmax(a, b, min);
        let m2 = self.pminmax(b, a, min);
        if min {
            self.b.ins().bor(m1, m2)
        } else {
            self.b.ins().band(m1, m2)
        }
    }

    /// IEEE minimumNumber / maximumNumber of the interpreter (`float::min_num`): a NaN
    /// operand loses to a number, two NaNs give the canonical NaN, -0 < +0.
    ///
    /// x86's `minps x, y` is `x < y ? x : y` (the second operand on NaN or equality), so
    /// `minps(a, b) | minps(b, a)` is the minimum of numbers with -0 below +0 (`&` of the
    /// `maxps` pair: the maximum, +0 above -0), and `minps(a, b)` is `b` when `a` is a NaN,
    /// `minps(b, a)` is `a` when `b` is: two selects on the NaN tests of the operands,
    /// skipped for an operand known to be a number, and the canonical NaN when both are.
    pub(super) fn fminmax(&mut self, f: Fmt, a: Value, b: Value, min: bool) -> Value {
        let ty = ftype(f);
        let a = self.cast(ty, a);
        let b = self.cast(ty, b);
        let clean = self.noden.contains(&a) && self.noden.contains(&b);
        // Against a constant number other than ±0: one `minps` (NaN → the constant).
        let full = (f64::NEG_INFINITY, f64::INFINITY);
        // The range of the result: a NaN operand gives the other one, so an unknown
        // operand counts as any number.
        let pick = |x: (f64, f64), y: (f64, f64)| {
            if min {
                (x.0.min(y.0), x.1.min(y.1))
            } else {
                (x.0.max(y.0), x.1.max(y.1))
            }
        };
        for (x, k) in [(a, b), (b, a)] {
            if self.nonzero_number(f, k) {
                let r = self.pminmax(x, k, min);
                let rx = self.range_of(f, x).unwrap_or(full);
                if let Some(rk) = self.range_of(f, k) {
                    self.set_range(f, r, pick(rx, rk));
                }
                self.notnan.insert((r, f == Fmt::F64));
                if clean {
                    self.noden.insert(r);
                }
                return r;
            }
        }
        let ra = self.range_of(f, a).unwrap_or(full);
        let rb = self.range_of(f, b).unwrap_or(full);
        let (a_num, b_num) = (self.known_notnan(f, a), self.known_notnan(f, b));
        let m1 = self.pminmax(a, b, min);
        let m2 = self.pminmax(b, a, min);
        let mut r = if min {
            self.b.ins().bor(m1, m2)
        } else {
            self.b.ins().band(m1, m2)
        };
        if !a_num {
            let an = self.isnan(f, a);
            r = self.b.ins().bitselect(an, m1, r);
        }
        if !b_num {
            let bn = self.isnan(f, b);
            r = self.b.ins().bitselect(bn, m2, r);
        }
        if !a_num && !b_num {
            // Both NaN: the last select picked `a`'s payload.
            r = self.canon(f, r);
        } else {
            self.notnan.insert((r, f == Fmt::F64));
            self.set_range(f, r, pick(ra, rb));
        }
        if clean {
            self.noden.insert(r);
        }
        r
    }

    /// V_MED3 (`vop3::med3`) of flushed operands: the median (-0 < +0), or with any NaN
    /// operand the minimum of the others (MIN3; all three NaN: the canonical NaN).
    ///
    /// With two constant numbers other than ±0 it is a clamp between their minimum `lo`
    /// and maximum `hi`: `minps(maxps(x, lo), hi)` (a NaN `x` gives `lo`, as MIN3 does).
    /// Otherwise NaN operands are replaced by +inf, which makes the MIN3 of the others the
    /// minimum of all three, so both candidates come from NaN-free minNum/maxNum pairs.
    fn med3(&mut self, f: Fmt, x: [Value; 3]) -> Value {
        let ty = ftype(f);
        let x = x.map(|v| self.cast(ty, v));
        let consts: Vec<usize> = (0..3).filter(|&i| self.nonzero_number(f, x[i])).collect();
        if consts.len() >= 2 {
            let (k1, k2) = (x[consts[0]], x[consts[1]]);
            let v = x[(0..3).find(|i| !consts[..2].contains(i)).unwrap_or(0)];
            let b1 = self.const_bits.get(&k1).copied().unwrap_or(0);
            let b2 = self.const_bits.get(&k2).copied().unwrap_or(0);
            let (lanes, width) = match f {
                Fmt::F32 => (4, 32),
                Fmt::F64 => (2, 64),
            };
            let (mut lo, mut hi) = (0u128, 0u128);
            for i in 0..lanes {
                let m = if width == 32 {
                    0xffff_ffffu128
                } else {
                    u64::MAX as u128
                };
                let (p, q) = ((b1 >> (width * i)) & m, (b2 >> (width * i)) & m);
                let less = match f {
                    Fmt::F32 => f32::from_bits(p as u32) < f32::from_bits(q as u32),
                    Fmt::F64 => f64::from_bits(p as u64) < f64::from_bits(q as u64),
                };
                let (l, h) = if less { (p, q) } else { (q, p) };
                lo |= l << (width * i);
                hi |= h << (width * i);
            }
            let lo = self.vconst(ty, lo);
            let hi = self.vconst(ty, hi);
            let t = self.pminmax(v, lo, false);
            let r = self.pminmax(t, hi, true);
            if let (Some(l), Some(h)) = (self.range_of(f, lo), self.range_of(f, hi)) {
                self.set_range(f, r, (l.0, h.1));
            }
            self.notnan.insert((r, f == Fmt::F64));
            if self.noden.contains(&v) {
                self.noden.insert(r);
            }
            return r;
        }
        let inf = match f {
            Fmt::F32 => self.splat32(0x7f80_0000),
            Fmt::F64 => self.splat64(0x7ff0_0000_0000_0000),
        };
        let inf = self.cast(ty, inf);
        let mut any: Option<Value> = None;
        let mut all: Option<Value> = None;
        let mut unknown = Vec::new();
        let mut y = x;
        for v in y.iter_mut() {
            if self.known_notnan(f, *v) {
                continue;
            }
            unknown.push(*v);
            let n = self.isnan(f, *v);
            *v = self.b.ins().bitselect(n, inf, *v);
            any = Some(match any {
                None => n,
                Some(m) => self.b.ins().bor(m, n),
            });
            all = Some(match all {
                None => n,
                Some(m) => self.b.ins().band(m, n),
            });
        }
        let n_unknown = unknown.len();
        if n_unknown == 2 {
            // One compare for both (a compare result selects with one `blendv`).
            let m = self
                .b
                .ins()
                .fcmp(FloatCC::Unordered, unknown[0], unknown[1]);
            any = Some(self.cast(ty, m));
        }
        let lo = self.fminmax_num(y[0], y[1], true);
        let hi = self.fminmax_num(y[0], y[1], false);
        let t = self.fminmax_num(hi, y[2], true);
        let med = self.fminmax_num(lo, t, false);
        let r = match any {
            None => med,
            Some(n) => {
                let m3 = self.fminmax_num(lo, y[2], true);
                let r = self.b.ins().bitselect(n, m3, med);
                match all {
                    Some(all) if n_unknown == 3 => {
                        let q = match f {
                            Fmt::F32 => self.splat32(0x7fc0_0000),
                            Fmt::F64 => self.splat64(0x7ff8_0000_0000_0000),
                        };
                        let q = self.cast(ty, q);
                        self.b.ins().bitselect(all, q, r)
                    }
                    _ => r,
                }
            }
        };
        if n_unknown < 3 {
            // A median or minimum of the operands, NaN ones left out.
            let full = (f64::NEG_INFINITY, f64::INFINITY);
            let rs = x.map(|v| self.range_of(f, v).unwrap_or(full));
            let lo = rs.iter().map(|r| r.0).fold(f64::INFINITY, f64::min);
            let hi = rs.iter().map(|r| r.1).fold(f64::NEG_INFINITY, f64::max);
            self.set_range(f, r, (lo, hi));
        }
        if x.iter().all(|v| self.noden.contains(v)) {
            self.noden.insert(r);
        }
        r
    }

    /// x86 `minps`/`maxps` (`minpd`/`maxpd`): `x < y ? x : y`, `y < x ? x : y`.
    fn pminmax(&mut self, x: Value, y: Value, min: bool) -> Value {
        let ty = self.b.func.dfg.value_type(x);
        let c = if min {
            self.b.ins().fcmp(FloatCC::LessThan, x, y)
        } else {
            self.b.ins().fcmp(FloatCC::LessThan, y, x)
        };
        let mut fl = cranelift_codegen::ir::MemFlagsData::new();
        fl.set_endianness(cranelift_codegen::ir::Endianness::Little);
        let c = self.b.ins().bitcast(ty, fl, c);
        self.b.ins().bitselect(c, x, y)
    }

    /// The operand of min/max/med3 (`float::flushed`): denormals flushed by either
    /// control, NaN canonical.
    fn fminmax_in(&mut self, f: Fmt, x: Value) -> Value {
        let (fi, fo) = self.fp_flags(f);
        let x = if fi || fo { self.flush_cached(f, x) } else { x };
        self.cast(ftype(f), x)
    }

    /// OMOD then CLAMP on a float result (`float::omod_clamp`).
    pub(super) fn omod_clamp(&mut self, f: Fmt, r: Value, omod: u8, clamp: bool) -> Value {
        let (_, fo) = self.fp_flags(f);
        let mut r = self.cast(ftype(f), r);
        if omod != 0 && fo {
            let k: f64 = match omod {
                1 => 2.0,
                2 => 4.0,
                _ => 0.5,
            };
            let kv = match f {
                Fmt::F32 => self.splat32((k as f32).to_bits()),
                Fmt::F64 => self.splat64(k.to_bits()),
            };
            let kv = self.cast(ftype(f), kv);
            let m = self.b.ins().fmul(r, kv);
            r = self.fout(f, m);
        }
        if clamp {
            let dx10 = self.mode & 0x100 != 0;
            r = match f {
                Fmt::F32 => {
                    let x = self.cast(I32X4, r);
                    let one = self.splat32(0x3f80_0000);
                    let lim = self.b.ins().smin(x, one);
                    let z = self.splat32(0);
                    let neg = self.b.ins().icmp(IntCC::SignedLessThan, x, z);
                    let m0 = self.splat32(0x8000_0000);
                    let is_m0 = self.b.ins().icmp(IntCC::Equal, x, m0);
                    let negv = self.b.ins().band(x, is_m0);
                    let v = self.b.ins().bitselect(neg, negv, lim);
                    let xf = self.cast(F32X4, x);
                    let nan = self.b.ins().fcmp(FloatCC::Unordered, xf, xf);
                    let nan = self.cast(I32X4, nan);
                    let nv = if dx10 {
                        self.splat32(0)
                    } else {
                        self.splat32(0x7fc0_0000)
                    };
                    let v = self.b.ins().bitselect(nan, nv, v);
                    self.cast(F32X4, v)
                }
                Fmt::F64 => {
                    let x = self.cast(I64X2, r);
                    let one = self.splat64(0x3ff0_0000_0000_0000);
                    let gt = self.b.ins().icmp(IntCC::SignedGreaterThan, x, one);
                    let lim = self.b.ins().bitselect(gt, one, x);
                    let z = self.splat64(0);
                    let neg = self.b.ins().icmp(IntCC::SignedLessThan, x, z);
                    let m0 = self.splat64(0x8000_0000_0000_0000);
                    let is_m0 = self.b.ins().icmp(IntCC::Equal, x, m0);
                    let negv = self.b.ins().band(x, is_m0);
                    let v = self.b.ins().bitselect(neg, negv, lim);
                    let xf = self.cast(F64X2, x);
                    let nan = self.b.ins().fcmp(FloatCC::Unordered, xf, xf);
                    let nan = self.cast(I64X2, nan);
                    let nv = if dx10 {
                        self.splat64(0)
                    } else {
                        self.splat64(0x7ff8_0000_0000_0000)
                    };
                    let v = self.b.ins().bitselect(nan, nv, v);
                    self.cast(F64X2, v)
                }
            };
        }
        r
    }
}

pub(super) fn ftype(f: Fmt) -> types::Type {
    match f {
        Fmt::F32 => F32X4,
        Fmt::F64 => F64X2,
    }
}

// ---- 64-bit lanes -------------------------------------------------------------------

/// Byte shuffle constants: interleave two `i32x4` (low halves, high halves) into two
/// `i64x2` holding lanes 0-1 and 2-3; and the inverse.
const ZIP_LO: [u8; 16] = [0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23];
const ZIP_HI: [u8; 16] = [8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31];
const UNZIP_LO: [u8; 16] = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27];
const UNZIP_HI: [u8; 16] = [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31];

impl Cx<'_> {
    pub fn shuffle(&mut self, a: Value, b: Value, mask: [u8; 16]) -> Value {
        let a = self.cast(I8X16, a);
        let b = self.cast(I8X16, b);
        let imm = self.b.func.dfg.immediates.push(mask.to_vec().into());
        self.b.ins().shuffle(a, b, imm)
    }

    /// Two `i32x4` halves (low dwords, high dwords of 4 lanes) → two `i64x2`.
    pub fn zip64(&mut self, lo: Value, hi: Value) -> [Value; 2] {
        if let Some(&p) = self.zips.get(&(lo, hi)) {
            return p;
        }
        let a = self.shuffle(lo, hi, ZIP_LO);
        let b = self.shuffle(lo, hi, ZIP_HI);
        let p = [self.cast(I64X2, a), self.cast(I64X2, b)];
        self.zips.insert((lo, hi), p);
        p
    }

    /// Two `i64x2` (lanes 0-1, 2-3) → (low dwords, high dwords) as `i32x4`.
    pub fn unzip64(&mut self, p: [Value; 2]) -> (Value, Value) {
        let lo = self.shuffle(p[0], p[1], UNZIP_LO);
        let hi = self.shuffle(p[0], p[1], UNZIP_HI);
        (self.cast(I32X4, lo), self.cast(I32X4, hi))
    }
}

// ---- operands -------------------------------------------------------------------------

/// A fetched operand: 4 lanes of 32 bits, or 4 lanes of 64 bits as two `i64x2`.
#[derive(Clone, Copy)]
pub(super) enum Opnd {
    W32(Value),
    W64([Value; 2]),
}

impl Opnd {
    pub(super) fn v32(self) -> Value {
        match self {
            Opnd::W32(v) => v,
            Opnd::W64(p) => p[0],
        }
    }
    pub(super) fn v64(self, i: usize) -> Value {
        match self {
            Opnd::W64(p) => p[i],
            Opnd::W32(v) => v,
        }
    }
}

/// What the chunks of an instruction share, computed once before any of its chunks (and
/// before any instruction after it writes a lane mask they might alias).
#[derive(Clone, Copy, Debug)]
pub struct Unis {
    /// The uniform (scalar) source values.
    pub s: [Option<Value>; 3],
    /// VINTRP: the parameter addresses (bounds already checked).
    pub lds: Option<super::vintrp::LdsUni>,
}

/// The shared values of `p`; `pcs` are the pcs of its segment up to and including it (a
/// VINTRP's failed bounds check runs them through the interpreter).
pub fn uniforms(cx: &mut Cx, p: &VPlan, pcs: &[u32]) -> Unis {
    let shape = p.sem.shape();
    let mut u = [None; 3];
    for (i, slot) in u.iter_mut().enumerate().take(shape.nsrc as usize) {
        let o = match p.src[i] {
            VSrc::S(s) => super::salu::SOpnd::Slot(s),
            VSrc::Vccz => super::salu::SOpnd::Vccz,
            VSrc::Execz => super::salu::SOpnd::Execz,
            VSrc::Scc => super::salu::SOpnd::Scc,
            VSrc::V(_) | VSrc::Const(_) | VSrc::Lds(_) => continue,
        };
        *slot = Some(if shape.w64[i] {
            cx.read_s64(o)
        } else {
            cx.read_s32(o)
        });
    }
    let lds = super::vintrp::uniforms(cx, p, pcs);
    Unis { s: u, lds }
}

/// Whether `p` is a float operation whose NaN results may be left raw (`block::Raw`):
/// a NaN input always gives a NaN result (whatever its payload), and the result is
/// written whole (no SDWA placement, no DPP row masks).
fn lazy_nan_producer(p: &VPlan) -> bool {
    use FOp::*;
    matches!(
        p.sem,
        Sem::Float(
            _,
            Add | Sub
                | Subrev
                | Mul
                | Mad
                | Fma
                | Trunc
                | Ceil
                | Floor
                | Rndne
                | Sqrt
                | Rcp
                | Fract,
            _
        )
    ) && p.sdwa.is_none()
        && p.dpp.is_none()
}

/// Whether `p` may read raw values (`block::Raw`) of its float format: its result is
/// the same whatever the payload of a NaN input — the NaN-propagating operations above
/// (their result is canonicalised, or raw itself) and minNum/maxNum/med3 (a NaN operand
/// is never returned: the other operand, or the canonical NaN, `fminmax`).
fn reads_raw(p: &VPlan) -> bool {
    use FOp::*;
    lazy_nan_producer(p)
        || matches!(p.sem, Sem::Float(_, Min | Max | Min3 | Max3 | Med3, _))
            && p.sdwa.is_none()
            && p.dpp.is_none()
}

fn fetch(cx: &mut Cx, p: &VPlan, i: usize, c: usize, g: Option<&Gathered>, uni: &Unis) -> Opnd {
    let shape = p.sem.shape();
    let w64 = shape.w64[i];
    let raw_ok = reads_raw(p);
    // ABS/NEG: every source in VOP3 and DPP, float sources only in SDWA (ERRATA SDWA 5).
    let modifiers_apply = p.sdwa.is_none() || (shape.src_float && shape.int_srcs >> i & 1 == 0);
    if w64 {
        let pair = match p.src[i] {
            VSrc::V(n) if raw_ok => cx.vpair_raw(n, c),
            VSrc::V(n) => {
                let lo = cx.vreg(n, c);
                let hi = cx.vreg(n.wrapping_add(1), c);
                cx.zip64(lo, hi)
            }
            VSrc::Const(k) => {
                let v = cx.splat64(k);
                [v, v]
            }
            VSrc::S(_) | VSrc::Vccz | VSrc::Execz | VSrc::Scc | VSrc::Lds(_) => {
                let x = uni.s[i].unwrap_or_else(|| cx.iconst64(0));
                let v = cx.splat(I64X2, x);
                [v, v]
            }
        };
        let pair = if modifiers_apply {
            let (abs, neg) = (p.abs >> i & 1 != 0, p.neg >> i & 1 != 0);
            if neg && !abs && fma_operand(p) {
                pair.map(|v| {
                    let x = cx.cast(F64X2, v);
                    cx.b.ins().fneg(x)
                })
            } else {
                pair.map(|v| sign_mods(cx, v, abs, neg, true))
            }
        } else {
            pair
        };
        return Opnd::W64(pair);
    }
    let mut v = match (g, p.src[i]) {
        (Some(g), _) if i == 0 => g.src0[c],
        (_, VSrc::V(n)) if raw_ok => cx.vreg_raw(n, c),
        (_, VSrc::V(n)) => cx.vreg(n, c),
        (_, VSrc::Const(k)) => cx.splat32(k as u32),
        (_, VSrc::Lds(w)) => {
            let x = match (uni.lds, p.interp) {
                (Some(u), Some(at)) => super::vintrp::param(cx, &u, at.chan, w, c),
                _ => cx.iconst32(0),
            };
            cx.splat(I32X4, x)
        }
        (_, _) => {
            let x = uni.s[i].unwrap_or_else(|| cx.iconst32(0));
            cx.splat(I32X4, x)
        }
    };
    if let Some(s) = p.sdwa {
        if i < 2 {
            v = cx.sdwa_select(v, s.sel[i], s.sext[i]);
        }
    }
    if shape.src16 {
        // The low half (after SDWA's selection), its sign bit 15.
        let m = cx.splat32(0xffff);
        let x = cx.cast(I32X4, v);
        v = cx.b.ins().band(x, m);
        if modifiers_apply {
            v = sign_mods16(cx, v, p.abs >> i & 1 != 0, p.neg >> i & 1 != 0);
        }
        return Opnd::W32(v);
    }
    if modifiers_apply {
        let (abs, neg) = (p.abs >> i & 1 != 0, p.neg >> i & 1 != 0);
        if neg && !abs && fma_operand(p) {
            let x = cx.cast(F32X4, v);
            v = cx.b.ins().fneg(x);
        } else {
            v = sign_mods(cx, v, abs, neg, false);
        }
    }
    Opnd::W32(v)
}

/// Whether the sources of `p` feed a fused multiply-add directly: a NEG modifier is then
/// an `fneg` (the same sign-bit flip) that the x64 back end folds into `vfnmadd`/`vfmsub`
/// (with input denormal flushes in between it stays a separate `xor`).
fn fma_operand(p: &VPlan) -> bool {
    matches!(p.sem, Sem::Float(_, FOp::Fma, _))
}

/// ABS then NEG on bit 15 of 16-bit operands (`i32x4` lanes).
fn sign_mods16(cx: &mut Cx, v: Value, abs: bool, neg: bool) -> Value {
    let mut v = cx.cast(I32X4, v);
    if abs {
        let m = cx.splat32(0x7fff);
        v = cx.b.ins().band(v, m);
    }
    if neg {
        let m = cx.splat32(0x8000);
        v = cx.b.ins().bxor(v, m);
    }
    v
}

/// ABS then NEG as sign-bit operations (ERRATA VOP3 3).
fn sign_mods(cx: &mut Cx, v: Value, abs: bool, neg: bool, w64: bool) -> Value {
    let mut v = v;
    if abs {
        let m = if w64 {
            cx.splat64(0x7fff_ffff_ffff_ffff)
        } else {
            cx.splat32(0x7fff_ffff)
        };
        let x = cx.cast(if w64 { I64X2 } else { I32X4 }, v);
        v = cx.b.ins().band(x, m);
    }
    if neg {
        let m = if w64 {
            cx.splat64(0x8000_0000_0000_0000)
        } else {
            cx.splat32(0x8000_0000)
        };
        let x = cx.cast(if w64 { I64X2 } else { I32X4 }, v);
        v = cx.b.ins().bxor(x, m);
    }
    v
}

// ---- integer helpers ------------------------------------------------------------------

impl Cx<'_> {
    /// High 32 bits of the 64-bit products of 4 lane pairs, unsigned or signed.
    fn mulhi(&mut self, a: Value, b: Value, signed: bool) -> Value {
        let (al, ah, bl, bh) = if signed {
            (
                self.b.ins().swiden_low(a),
                self.b.ins().swiden_high(a),
                self.b.ins().swiden_low(b),
                self.b.ins().swiden_high(b),
            )
        } else {
            (
                self.b.ins().uwiden_low(a),
                self.b.ins().uwiden_high(a),
                self.b.ins().uwiden_low(b),
                self.b.ins().uwiden_high(b),
            )
        };
        let pl = self.b.ins().imul(al, bl);
        let ph = self.b.ins().imul(ah, bh);
        let (_, hi) = self.unzip64([pl, ph]);
        hi
    }

    fn sext24(&mut self, x: Value) -> Value {
        let l = self.b.ins().ishl_imm_u(x, 8);
        self.b.ins().sshr_imm_u(l, 8)
    }

    fn zext24(&mut self, x: Value) -> Value {
        self.low_bits(x, 24)
    }

    /// `x * y` of 24-bit unsigned lanes (the product's width is known for later masks).
    fn mul_u24(&mut self, a: Value, b: Value) -> Value {
        let x = self.zext24(a);
        let y = self.zext24(b);
        let n = self.ubits_of(x) + self.ubits_of(y);
        let r = self.b.ins().imul(x, y);
        self.set_ubits(r, n);
        r
    }

    /// Shift every lane of `x` by its own amount (`amt & 31`; `bits.rs`).
    fn shift_lanes(&mut self, x: Value, amt: Value, kind: u8) -> Value {
        match kind {
            0 => self.shl_var(x, amt),
            1 => self.lshr_var(x, amt),
            _ => self.ashr_var(x, amt),
        }
    }

    fn sad(&mut self, a: Value, b: Value) -> Value {
        let mx = self.b.ins().umax(a, b);
        let mn = self.b.ins().umin(a, b);
        self.b.ins().isub(mx, mn)
    }
}

/// A source that is the same in every lane: a compile-time constant or a scalar value.
#[derive(Clone, Copy)]
pub(super) enum Uni {
    K(u32),
    S(Value),
}

impl Uni {
    pub(super) fn value(self, cx: &mut Cx) -> Value {
        match self {
            Uni::K(k) => cx.iconst32(k),
            Uni::S(v) => v,
        }
    }
}

/// Shift `x` by the uniform amount `amt` (`& 31`, as Cranelift's vector shifts do).
fn shift_uni(cx: &mut Cx, x: Value, amt: Uni, kind: u8) -> Value {
    if let Uni::K(k) = amt {
        return cx.shift_k(x, k & 31, kind);
    }
    let a = amt.value(cx);
    match kind {
        0 => cx.b.ins().ishl(x, a),
        1 => cx.b.ins().ushr(x, a),
        _ => cx.b.ins().sshr(x, a),
    }
}

fn int_op(cx: &mut Cx, op: IOp, v: &[Value], c: usize, u: &[Option<Uni>; 3]) -> Value {
    use IOp::*;
    let (a, b, d) = (
        v[0],
        v.get(1).copied().unwrap_or(v[0]),
        v.get(2).copied().unwrap_or(v[0]),
    );
    match op {
        Mov => a,
        Not => cx.b.ins().bnot(a),
        Bfrev => cx.bitrev32(a),
        Ffbh => cx.ffbh(a),
        Ffbl => cx.ffbl(a),
        FfbhI => {
            // Leading bits equal to the sign: the leading zeros of x ^ sign.
            let s = cx.b.ins().sshr_imm_u(a, 31);
            let t = cx.b.ins().bxor(a, s);
            cx.ffbh(t)
        }
        MulI24 => {
            let x = cx.sext24(a);
            let y = cx.sext24(b);
            cx.b.ins().imul(x, y)
        }
        MulHiI24 => {
            let x = cx.sext24(a);
            let y = cx.sext24(b);
            cx.mulhi(x, y, true)
        }
        MulU24 => cx.mul_u24(a, b),
        MulHiU24 => {
            let x = cx.zext24(a);
            let y = cx.zext24(b);
            cx.mulhi(x, y, false)
        }
        MinI => cx.b.ins().smin(a, b),
        MaxI => cx.b.ins().smax(a, b),
        MinU => {
            let n = cx.ubits_of(a).min(cx.ubits_of(b));
            let r = cx.b.ins().umin(a, b);
            cx.set_ubits(r, n);
            r
        }
        MaxU => {
            let n = cx.ubits_of(a).max(cx.ubits_of(b));
            let r = cx.b.ins().umax(a, b);
            cx.set_ubits(r, n);
            r
        }
        Lshr | Ashr | Lshl | Lshrrev | Ashrrev | Lshlrev => {
            let kind = match op {
                Lshl | Lshlrev => 0,
                Lshr | Lshrrev => 1,
                _ => 2,
            };
            let rev = matches!(op, Lshrrev | Ashrrev | Lshlrev);
            let (x, amt, ua) = if rev { (b, a, u[0]) } else { (a, b, u[1]) };
            match ua {
                Some(k) => shift_uni(cx, x, k, kind),
                None => cx.shift_lanes(x, amt, kind),
            }
        }
        And => {
            let n = cx.ubits_of(a).min(cx.ubits_of(b));
            let r = cx.b.ins().band(a, b);
            cx.set_ubits(r, n);
            r
        }
        Or | Xor => {
            let n = cx.ubits_of(a).max(cx.ubits_of(b));
            let r = if op == Or {
                cx.b.ins().bor(a, b)
            } else {
                cx.b.ins().bxor(a, b)
            };
            cx.set_ubits(r, n);
            r
        }
        Bfm => {
            // ((1 << (S0 & 31)) - 1) << (S1 & 31)
            let p = cx.pow2_32(a);
            let one = cx.splat32(1);
            let m = cx.b.ins().isub(p, one);
            cx.shl_var(m, b)
        }
        Bcnt => {
            let p = cx.popcnt32(a);
            cx.b.ins().iadd(p, b)
        }
        MbcntLo | MbcntHi => {
            // Bits of S0 below this lane's position within its half (lanes 0-31 count bits
            // below themselves in the low half; the high half counts all of S0's... see
            // the manual: MBCNT_LO counts S0 & ((1 << lane) - 1) for lanes < 32, else all;
            // MBCNT_HI counts S0 & ((1 << (lane - 32)) - 1) for lanes >= 32, else none.)
            let masks: [u32; 4] = std::array::from_fn(|i| {
                let lane = 4 * c + i;
                if op == MbcntLo {
                    if lane < 32 {
                        ((1u64 << lane) - 1) as u32
                    } else {
                        u32::MAX
                    }
                } else if lane >= 32 {
                    ((1u64 << (lane - 32)) - 1) as u32
                } else {
                    0
                }
            });
            let m = cx.lanes32(masks);
            let x = cx.b.ins().band(a, m);
            let p = cx.popcnt32(x);
            cx.b.ins().iadd(p, b)
        }
        MulLo => cx.b.ins().imul(a, b),
        MulHiU => cx.mulhi(a, b, false),
        MulHiI => cx.mulhi(a, b, true),
        MadI24 => {
            let x = cx.sext24(a);
            let y = cx.sext24(b);
            let m = cx.b.ins().imul(x, y);
            cx.b.ins().iadd(m, d)
        }
        MadU24 => {
            let m = cx.mul_u24(a, b);
            cx.b.ins().iadd(m, d)
        }
        BfeU | BfeI if matches!((u[1], u[2]), (Some(Uni::K(_)), Some(Uni::K(_)))) => {
            let (Some(Uni::K(sh)), Some(Uni::K(w))) = (u[1], u[2]) else {
                return a;
            };
            let (sh, w) = ((sh & 31) as i64, (w & 31) as i64);
            let kind = if op == BfeU { 1 } else { 2 };
            if w == 0 {
                cx.splat32(0)
            } else if sh + w < 32 {
                let up = cx.b.ins().ishl_imm_u(a, 32 - sh - w);
                shift_uni(cx, up, Uni::K((32 - w) as u32), kind)
            } else {
                shift_uni(cx, a, Uni::K(sh as u32), kind)
            }
        }
        BfeU | BfeI => {
            // shift = S1 & 31, width = S2 & 31; width 0 → 0 (ERRATA VOP3 5); a field
            // reaching past bit 31 is S0 >> shift (003 pseudo-code). Per-lane shifts
            // (`bits.rs`) take their amounts & 31, as the scalar form did.
            let m31 = cx.splat32(31);
            let sh = cx.b.ins().band(b, m31);
            let w = cx.b.ins().band(d, m31);
            let sum = cx.b.ins().iadd(sh, w);
            let n32 = cx.splat32(32);
            let l = cx.b.ins().isub(n32, sum);
            let up = cx.shl_var(a, l);
            let rw = cx.b.ins().isub(n32, w);
            let (inner, outer) = if op == BfeU {
                (cx.lshr_var(up, rw), cx.lshr_var(a, sh))
            } else {
                (cx.ashr_var(up, rw), cx.ashr_var(a, sh))
            };
            let fits = cx.b.ins().icmp(IntCC::UnsignedLessThan, sum, n32);
            let r = cx.b.ins().bitselect(fits, inner, outer);
            let z = cx.splat32(0);
            let w0 = cx.b.ins().icmp(IntCC::Equal, w, z);
            cx.b.ins().bitselect(w0, z, r)
        }
        Bfi => {
            let t = cx.b.ins().band(a, b);
            let u = cx.b.ins().band_not(d, a);
            cx.b.ins().bor(t, u)
        }
        Lerp => {
            // Per byte: (S0 + S1 + (S2 & 1)) >> 1 = avg_round when the rounding bit is set,
            // else the truncating average.
            let a8 = cx.cast(I8X16, a);
            let b8 = cx.cast(I8X16, b);
            let rnd = cx.b.ins().avg_round(a8, b8);
            let x = cx.b.ins().bxor(a8, b8);
            let one = cx.vconst(I8X16, u128::from_le_bytes([1; 16]));
            let odd = cx.b.ins().band(x, one);
            let trunc = cx.b.ins().isub(rnd, odd);
            let d8 = cx.cast(I8X16, d);
            let bit = cx.b.ins().band(d8, one);
            let z = cx.vconst(I8X16, 0);
            let sel = cx.b.ins().icmp(IntCC::NotEqual, bit, z);
            let r = cx.b.ins().bitselect(sel, rnd, trunc);
            cx.cast(I32X4, r)
        }
        Alignbit | Alignbyte if matches!(u[2], Some(Uni::K(_))) => {
            let Some(Uni::K(k)) = u[2] else { return a };
            let k = if op == Alignbit { k & 31 } else { 8 * (k & 3) } as i64;
            if k == 0 {
                b
            } else {
                let hi = cx.shift_k(a, 32 - k as u32, 0);
                let lo = cx.shift_k(b, k as u32, 1);
                cx.b.ins().bor(hi, lo)
            }
        }
        Alignbit | Alignbyte => {
            // ((S0 << 32 | S1) >> shift)[31:0]
            let amt = if op == Alignbit {
                let m = cx.splat32(31);
                cx.b.ins().band(d, m)
            } else {
                let m = cx.splat32(3);
                let t = cx.b.ins().band(d, m);
                cx.b.ins().ishl_imm_u(t, 3)
            };
            // S1 >> amt | S0 << (32 - amt), the second part absent when amt is 0.
            let lo = cx.lshr_var(b, amt);
            let k32 = cx.splat32(32);
            let inv = cx.b.ins().isub(k32, amt);
            let hi = cx.shl_var(a, inv);
            let z = cx.splat32(0);
            let a0 = cx.b.ins().icmp(IntCC::Equal, amt, z);
            let hi = cx.b.ins().bitselect(a0, z, hi);
            cx.b.ins().bor(lo, hi)
        }
        Min3I => {
            let t = cx.b.ins().smin(a, b);
            cx.b.ins().smin(t, d)
        }
        Min3U => {
            let t = cx.b.ins().umin(a, b);
            cx.b.ins().umin(t, d)
        }
        Max3I => {
            let t = cx.b.ins().smax(a, b);
            cx.b.ins().smax(t, d)
        }
        Max3U => {
            let t = cx.b.ins().umax(a, b);
            cx.b.ins().umax(t, d)
        }
        Med3I => {
            let lo = cx.b.ins().smin(a, b);
            let hi = cx.b.ins().smax(a, b);
            let t = cx.b.ins().smin(hi, d);
            cx.b.ins().smax(lo, t)
        }
        Med3U => {
            let lo = cx.b.ins().umin(a, b);
            let hi = cx.b.ins().umax(a, b);
            let t = cx.b.ins().umin(hi, d);
            cx.b.ins().umax(lo, t)
        }
        SadU8 | SadHiU8 => {
            let a8 = cx.cast(I8X16, a);
            let b8 = cx.cast(I8X16, b);
            let mx = cx.b.ins().umax(a8, b8);
            let mn = cx.b.ins().umin(a8, b8);
            let df = cx.b.ins().isub(mx, mn);
            // Sum the four byte differences of each lane: widen to 16 then pairwise add.
            let lo = cx.b.ins().uwiden_low(df);
            let hi = cx.b.ins().uwiden_high(df);
            let s16 = cx.b.ins().iadd_pairwise(lo, hi);
            let l2 = cx.b.ins().uwiden_low(s16);
            let h2 = cx.b.ins().uwiden_high(s16);
            let s32 = cx.b.ins().iadd_pairwise(l2, h2);
            let s = if op == SadHiU8 {
                cx.b.ins().ishl_imm_u(s32, 16)
            } else {
                s32
            };
            cx.b.ins().iadd(s, d)
        }
        SadU16 => {
            let a16 = cx.cast(crate::block::I16X8, a);
            let b16 = cx.cast(crate::block::I16X8, b);
            let mx = cx.b.ins().umax(a16, b16);
            let mn = cx.b.ins().umin(a16, b16);
            let df = cx.b.ins().isub(mx, mn);
            let lo = cx.b.ins().uwiden_low(df);
            let hi = cx.b.ins().uwiden_high(df);
            let s = cx.b.ins().iadd_pairwise(lo, hi);
            cx.b.ins().iadd(s, d)
        }
        SadU32 => {
            let s = cx.sad(a, b);
            cx.b.ins().iadd(s, d)
        }
        CvtF32Ubyte(k) => {
            let t = cx.shift_k(a, 8 * k as u32, 1);
            let t = cx.low_bits(t, 8);
            let f = cx.b.ins().fcvt_from_sint(F32X4, t);
            cx.cast(I32X4, f)
        }
    }
}

// ---- the chunk lowering ---------------------------------------------------------------

/// Lower chunk `c` of `p` (`g`: its gathered DPP source, if DPP).
pub fn emit(cx: &mut Cx, p: &VPlan, c: usize, g: Option<&Gathered>, uni: &Unis) {
    let sem = if cx.plant_xor_bug && p.sem == Sem::Int(IOp::Xor) {
        Sem::Int(IOp::Or)
    } else {
        p.sem
    };
    let shape = p.sem.shape();
    let exec = cx.exec_lanes(c);
    let dpp_mask = match p.dpp {
        Some(d) => dpp_write_mask(cx, &d, c, g.and_then(|g| g.valid[c])),
        None => None,
    };
    // Lanes written: EXEC, and for DPP its rows/banks/valid sources.
    let wmask = match (exec, dpp_mask) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(cx.b.ins().band(a, b)),
    };
    let masks = Masks {
        exec,
        dpp: dpp_mask,
    };
    let mut v = [Opnd::W32(Value::from_u32(0)); 3];
    for (i, slot) in v.iter_mut().enumerate().take(shape.nsrc as usize) {
        *slot = fetch(cx, p, i, c, g, uni);
    }
    // BOUND_CTRL = 1: an invalid source lane reads 0 (ERRATA DPP 1).
    if let (Some(d), Some(g)) = (p.dpp, g) {
        if d.bound_ctrl {
            if let Some(valid) = g.valid[c] {
                let x = cx.cast(I32X4, v[0].v32());
                v[0] = Opnd::W32(cx.b.ins().band(x, valid));
                // Modifiers were applied to the gathered value; a zeroed lane reads +0
                // before them in the interpreter: reapply them to the zero.
                if p.abs & 1 != 0 || p.neg & 1 != 0 {
                    let z = cx.splat32(0);
                    let zm = if shape.src16 {
                        sign_mods16(cx, z, p.abs & 1 != 0, p.neg & 1 != 0)
                    } else {
                        sign_mods(cx, z, p.abs & 1 != 0, p.neg & 1 != 0, false)
                    };
                    let zm = cx.cast(I32X4, zm);
                    v[0] = Opnd::W32(cx.b.ins().bitselect(valid, x, zm));
                }
            }
        }
    }
    match sem {
        Sem::Int(op) => {
            let xs: Vec<Value> = (0..shape.nsrc as usize)
                .map(|i| cx.cast(I32X4, v[i].v32()))
                .collect();
            // Sources the same in every lane, unmodified (no SDWA/DPP/ABS/NEG on them).
            let mut un: [Option<Uni>; 3] = [None; 3];
            for (i, slot) in un.iter_mut().enumerate().take(shape.nsrc as usize) {
                let plain = (p.sdwa.is_none() || i >= 2)
                    && (p.dpp.is_none() || i != 0)
                    && (p.abs | p.neg) >> i & 1 == 0;
                if plain && !shape.w64[i] {
                    *slot = match p.src[i] {
                        VSrc::Const(k) => Some(Uni::K(k as u32)),
                        VSrc::S(_) | VSrc::Vccz | VSrc::Execz | VSrc::Scc => uni.s[i].map(Uni::S),
                        VSrc::V(_) | VSrc::Lds(_) => None,
                    };
                }
            }
            let r = int_op(cx, op, &xs, c, &un);
            let r = match shape.float {
                Some(f) => cx.omod_clamp(f, r, p.omod, p.clamp),
                None => r,
            };
            write32(cx, p, c, r, wmask);
        }
        Sem::Cvt(k) => {
            let r = super::mixed::cvt(cx, k, &v);
            float_result(cx, p, c, r, wmask);
        }
        Sem::Shift64 { kind, rev } => {
            let amt = if rev { 0 } else { 1 };
            let plain = p.sdwa.is_none() && (p.abs | p.neg) >> amt & 1 == 0;
            let ua = match p.src[amt] {
                VSrc::Const(k) if plain => Some(Uni::K(k as u32)),
                VSrc::S(_) | VSrc::Vccz | VSrc::Execz | VSrc::Scc if plain => {
                    uni.s[amt].map(Uni::S)
                }
                _ => None,
            };
            let r = super::mixed::shift64(cx, kind, rev, &v, ua);
            write64(cx, p, c, r, wmask);
        }
        Sem::Ldexp(f) => {
            let r = super::mixed::ldexp(cx, f, &v);
            float_result(cx, p, c, r, wmask);
        }
        Sem::Frexp { f, mant } => {
            let r = super::mixed::frexp(cx, f, mant, &v);
            float_result(cx, p, c, r, wmask);
        }
        Sem::Half(op, _) => {
            let r = super::half::half_op(cx, op, &v);
            float_result(cx, p, c, Opnd::W32(r), wmask);
        }
        Sem::Int16(op) => {
            let ua = match (op, p.src[0]) {
                (I16::Lshlrev | I16::Lshrrev | I16::Ashrrev, VSrc::Const(k))
                    if p.sdwa.is_none() && (p.abs | p.neg) & 1 == 0 =>
                {
                    Some(Uni::K(k as u32 & 0xffff))
                }
                (
                    I16::Lshlrev | I16::Lshrrev | I16::Ashrrev,
                    VSrc::S(_) | VSrc::Vccz | VSrc::Execz | VSrc::Scc,
                ) if p.sdwa.is_none() && (p.abs | p.neg) & 1 == 0 => uni.s[0].map(Uni::S),
                _ => None,
            };
            let r = super::half::int16(cx, op, &v, p.clamp, ua);
            write32(cx, p, c, r, wmask);
        }
        Sem::Cvt16(k) => {
            let r = super::half::cvt(cx, k, &v);
            float_result(cx, p, c, Opnd::W32(r), wmask);
        }
        Sem::Float(f, op, _) => {
            // NaN-propagating results written whole are kept raw (`block::Raw`): their
            // canonicalisation happens where the bits become visible, if anywhere.
            let lazy = lazy_nan_producer(p) && wmask.is_none();
            cx.lazy_nan = lazy;
            let r = float_op(cx, f, op, &v, shape.nsrc as usize);
            cx.lazy_nan = false;
            let halves = if f == Fmt::F64 { 2 } else { 1 };
            let mut r = r;
            for h in r.iter_mut().take(halves) {
                *h = cx.omod_clamp(f, *h, p.omod, p.clamp);
            }
            let raw = lazy
                && r.iter()
                    .take(halves)
                    .any(|h| cx.raw_vals.contains(&(*h, f == Fmt::F64)));
            match (f, p.vdst) {
                (Fmt::F32, Some(d)) if raw => cx.set_vreg_raw(d, c, r[0], Raw::F32),
                (Fmt::F32, _) => write32(cx, p, c, r[0], wmask),
                (Fmt::F64, d) => {
                    let r0 = cx.cast(I64X2, r[0]);
                    let r1 = cx.cast(I64X2, r[1]);
                    match d {
                        Some(d) if raw => {
                            let (lo, hi) = cx.unzip64([r0, r1]);
                            let pair = [r0, r1];
                            cx.set_vreg_raw(d, c, lo, Raw::F64 { pair, hi: false });
                            cx.set_vreg_raw(d.wrapping_add(1), c, hi, Raw::F64 { pair, hi: true });
                        }
                        _ => write64(cx, p, c, [r0, r1], wmask),
                    }
                }
            }
        }
        Sem::Cmp { ty, cond, .. } => {
            let m = compare(cx, ty, cond, &v);
            write_mask(cx, p, c, m, masks);
        }
        Sem::X(op) => match super::xop::lower(cx, op, &v) {
            super::xop::XOut::W32(r) => write32(cx, p, c, r, wmask),
            super::xop::XOut::W64(r) => write64(cx, p, c, r, wmask),
            super::xop::XOut::Mask(m) => write_mask(cx, p, c, m, masks),
            super::xop::XOut::W64Mask(r, m) => {
                write64(cx, p, c, r, wmask);
                write_mask(cx, p, c, m, masks);
            }
            super::xop::XOut::Float(r) => float_result(cx, p, c, r, wmask),
        },
        Sem::Cndmask => {
            let sel = cx.lanes(p.mask_src.unwrap_or(106), c);
            let a = cx.cast(I32X4, v[0].v32());
            let b = cx.cast(I32X4, v[1].v32());
            let r = match sel {
                Some(m) => cx.b.ins().bitselect(m, b, a),
                None => b,
            };
            write32(cx, p, c, r, wmask);
        }
        Sem::Carry(k) => {
            let a = cx.cast(I32X4, v[0].v32());
            let b = cx.cast(I32X4, v[1].v32());
            let (x, y) = if matches!(k, Carry::Subrev | Carry::Subbrev) {
                (b, a)
            } else {
                (a, b)
            };
            let cin = if shape.mask_in {
                match cx.lanes(p.mask_src.unwrap_or(106), c) {
                    Some(m) => Some(m),
                    None => Some(cx.splat32(u32::MAX)),
                }
            } else {
                None
            };
            let (r, co) = match k {
                Carry::Add | Carry::Addc => {
                    let s = cx.b.ins().iadd(x, y);
                    // carry = s < x (unsigned), plus the carry-in's carry.
                    let c1 = cx.b.ins().icmp(IntCC::UnsignedLessThan, s, x);
                    match cin {
                        None => (s, c1),
                        Some(ci) => {
                            // s + 1 where the carry-in is set (ci lanes are -1).
                            let s2 = cx.b.ins().isub(s, ci);
                            let c2 = cx.b.ins().icmp(IntCC::UnsignedLessThan, s2, s);
                            (s2, cx.b.ins().bor(c1, c2))
                        }
                    }
                }
                _ => {
                    let d = cx.b.ins().isub(x, y);
                    let b1 = cx.b.ins().icmp(IntCC::UnsignedGreaterThan, y, x);
                    match cin {
                        None => (d, b1),
                        Some(ci) => {
                            // d - 1 where the borrow-in is set.
                            let d2 = cx.b.ins().iadd(d, ci);
                            let b2 = cx.b.ins().icmp(IntCC::UnsignedGreaterThan, d2, d);
                            (d2, cx.b.ins().bor(b1, b2))
                        }
                    }
                }
            };
            // CLAMP saturates: an add that carries gives all ones, a subtraction that
            // borrows 0 (`vop2::v_add_u32` …).
            let r = match (p.clamp, k) {
                (false, _) => r,
                (true, Carry::Add | Carry::Addc) => cx.b.ins().bor(r, co),
                (true, _) => cx.b.ins().band_not(r, co),
            };
            write32(cx, p, c, r, wmask);
            write_mask(cx, p, c, co, masks);
        }
    }
}

fn float_op(cx: &mut Cx, f: Fmt, op: FOp, v: &[Opnd; 3], n: usize) -> [Value; 2] {
    // f64 works on two i64x2 halves; f32 on one i32x4 (the second result is unused).
    let halves = if f == Fmt::F64 { 2 } else { 1 };
    let mut out = [Value::from_u32(0); 2];
    for (h, o) in out.iter_mut().enumerate().take(halves) {
        let raw: Vec<Value> = (0..n)
            .map(|i| {
                if f == Fmt::F64 {
                    v[i].v64(h)
                } else {
                    v[i].v32()
                }
            })
            .collect();
        *o = float_lanes(cx, f, op, &raw);
    }
    out
}

fn float_lanes(cx: &mut Cx, f: Fmt, op: FOp, raw: &[Value]) -> Value {
    use FOp::*;
    match op {
        Med3 => {
            let a = cx.fminmax_in(f, raw[0]);
            let b = cx.fminmax_in(f, raw[1]);
            let d = cx.fminmax_in(f, raw[2]);
            cx.med3(f, [a, b, d])
        }
        Min | Max | Min3 | Max3 => {
            let min = matches!(op, Min | Min3);
            let a = cx.fminmax_in(f, raw[0]);
            let b = cx.fminmax_in(f, raw[1]);
            let r = cx.fminmax(f, a, b, min);
            if matches!(op, Min3 | Max3) {
                let d = cx.fminmax_in(f, raw[2]);
                cx.fminmax(f, r, d, min)
            } else {
                r
            }
        }
        _ => {
            let a = cx.fin(f, raw[0]);
            let r = match op {
                Add | Sub | Subrev | Mul => {
                    let b = cx.fin(f, raw[1]);
                    match op {
                        Add => cx.b.ins().fadd(a, b),
                        Sub => cx.b.ins().fsub(a, b),
                        Subrev => cx.b.ins().fsub(b, a),
                        _ => cx.b.ins().fmul(a, b),
                    }
                }
                MulLegacy => {
                    let b = cx.fin(f, raw[1]);
                    let m = cx.b.ins().fmul(a, b);
                    // ±0 × anything (inf, NaN included) is +0 (ERRATA VOP3 6).
                    let z = cx.vconst(ftype(f), 0);
                    let az = cx.b.ins().fcmp(FloatCC::Equal, a, z);
                    let bz = cx.b.ins().fcmp(FloatCC::Equal, b, z);
                    let any = cx.b.ins().bor(az, bz);
                    let any = cx.cast(ftype(f), any);
                    cx.b.ins().bitselect(any, z, m)
                }
                Mad => {
                    let b = cx.fin(f, raw[1]);
                    let m = cx.b.ins().fmul(a, b);
                    let m = cx.fout(f, m);
                    let m = cx.fin(f, m);
                    let d = cx.fin(f, raw[2]);
                    cx.b.ins().fadd(m, d)
                }
                Fma => {
                    let b = cx.fin(f, raw[1]);
                    let d = cx.fin(f, raw[2]);
                    cx.b.ins().fma(a, b, d)
                }
                Trunc => cx.b.ins().trunc(a),
                Ceil => cx.b.ins().ceil(a),
                Floor => cx.b.ins().floor(a),
                Rndne => cx.b.ins().nearest(a),
                Sqrt => cx.b.ins().sqrt(a),
                Fract => {
                    // x - floor(x): infinities give inf - inf and NaN stays NaN, both the
                    // canonical NaN after `fout`, as `vop1::fract` says.
                    let fl = cx.b.ins().floor(a);
                    cx.b.ins().fsub(a, fl)
                }
                Rcp => {
                    let one = match f {
                        Fmt::F32 => cx.splat32(1.0f32.to_bits()),
                        Fmt::F64 => cx.splat64(1.0f64.to_bits()),
                    };
                    let one = cx.cast(ftype(f), one);
                    cx.b.ins().fdiv(one, a)
                }
                Min | Max | Min3 | Max3 | Med3 => a,
            };
            // The result's range, from the operands' (NaN-free results need no NaN
            // canonicalisation; `mixed::cvt` uses ranges too).
            let rng = |cx: &mut Cx, i: usize| {
                let x = *raw.get(i)?;
                let x = cx.fin(f, x);
                cx.range_of(f, x)
            };
            let range = match op {
                Add => range_add(f, rng(cx, 0), rng(cx, 1)),
                Sub => range_add(f, rng(cx, 0), rng(cx, 1).map(neg_range)),
                Subrev => range_add(f, rng(cx, 1), rng(cx, 0).map(neg_range)),
                Mul => range_mul(f, rng(cx, 0), rng(cx, 1)),
                Mad => {
                    let m = range_mul(f, rng(cx, 0), rng(cx, 1))
                        .map(|(lo, hi)| (lo.min(0.0), hi.max(0.0)));
                    range_add(f, m, rng(cx, 2))
                }
                Fma => match (rng(cx, 0), rng(cx, 1), rng(cx, 2)) {
                    // The exact product of numbers never overflows: a NaN needs a NaN or
                    // infinite operand.
                    (Some(x), Some(y), Some(z))
                        if [x, y, z].iter().all(|r| r.0.is_finite() && r.1.is_finite()) =>
                    {
                        Some((f64::NEG_INFINITY, f64::INFINITY))
                    }
                    _ => None,
                },
                Trunc | Ceil | Floor | Rndne => rng(cx, 0).map(|(lo, hi)| (lo.floor(), hi.ceil())),
                _ => None,
            };
            if let Some(x) = range {
                cx.set_range(f, r, x);
            }
            cx.fout(f, r)
        }
    }
}

/// `x` rounded to format `f`'s precision (range bounds of f32 results are f32 values).
fn in_fmt(f: Fmt, x: f64) -> f64 {
    match f {
        Fmt::F32 => x as f32 as f64,
        Fmt::F64 => x,
    }
}

fn neg_range(r: (f64, f64)) -> (f64, f64) {
    (-r.1, -r.0)
}

/// The range of `a + b` in format `f` (rounding is monotonic: the bounds' sums bound the
/// sums), `None` if an infinity of each sign may meet (NaN) or a range is unknown.
fn range_add(f: Fmt, a: Option<(f64, f64)>, b: Option<(f64, f64)>) -> Option<(f64, f64)> {
    let (a, b) = (a?, b?);
    let inf = f64::INFINITY;
    if (a.1 == inf && b.0 == -inf) || (a.0 == -inf && b.1 == inf) {
        return None;
    }
    let add = |x: f64, y: f64| match f {
        Fmt::F32 => (x as f32 + y as f32) as f64,
        Fmt::F64 => x + y,
    };
    Some((in_fmt(f, add(a.0, b.0)), in_fmt(f, add(a.1, b.1))))
}

/// The range of `a × b` in format `f` (the extremes are products of bounds), `None` if
/// zero may meet an infinity (NaN) or a range is unknown.
fn range_mul(f: Fmt, a: Option<(f64, f64)>, b: Option<(f64, f64)>) -> Option<(f64, f64)> {
    let (a, b) = (a?, b?);
    let zero = |r: (f64, f64)| r.0 <= 0.0 && r.1 >= 0.0;
    let inf = |r: (f64, f64)| r.0.is_infinite() || r.1.is_infinite();
    if (zero(a) && inf(b)) || (zero(b) && inf(a)) {
        return None;
    }
    let mul = |x: f64, y: f64| match f {
        Fmt::F32 => (x as f32 * y as f32) as f64,
        Fmt::F64 => x * y,
    };
    let p = [mul(a.0, b.0), mul(a.0, b.1), mul(a.1, b.0), mul(a.1, b.1)];
    if p.iter().any(|x| x.is_nan()) {
        return None;
    }
    let lo = p.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = p.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some((lo, hi))
}

fn cond_cc(cond: Cond) -> Option<(FloatCC, IntCC)> {
    use Cond::*;
    Some(match cond {
        Lt => (FloatCC::LessThan, IntCC::SignedLessThan),
        Eq => (FloatCC::Equal, IntCC::Equal),
        Le => (FloatCC::LessThanOrEqual, IntCC::SignedLessThanOrEqual),
        Gt => (FloatCC::GreaterThan, IntCC::SignedGreaterThan),
        Lg => (FloatCC::OrderedNotEqual, IntCC::NotEqual),
        Ge => (FloatCC::GreaterThanOrEqual, IntCC::SignedGreaterThanOrEqual),
        O => (FloatCC::Ordered, IntCC::Equal),
        U => (FloatCC::Unordered, IntCC::Equal),
        Nge => (FloatCC::UnorderedOrLessThan, IntCC::Equal),
        Nlg => (FloatCC::UnorderedOrEqual, IntCC::Equal),
        Ngt => (FloatCC::UnorderedOrLessThanOrEqual, IntCC::Equal),
        Nle => (FloatCC::UnorderedOrGreaterThan, IntCC::Equal),
        Neq => (FloatCC::NotEqual, IntCC::NotEqual),
        Nlt => (FloatCC::UnorderedOrGreaterThanOrEqual, IntCC::Equal),
        F | Tru => return None,
    })
}

pub(super) fn unsigned(cc: IntCC) -> IntCC {
    match cc {
        IntCC::SignedLessThan => IntCC::UnsignedLessThan,
        IntCC::SignedLessThanOrEqual => IntCC::UnsignedLessThanOrEqual,
        IntCC::SignedGreaterThan => IntCC::UnsignedGreaterThan,
        IntCC::SignedGreaterThanOrEqual => IntCC::UnsignedGreaterThanOrEqual,
        x => x,
    }
}

/// A float compare of two vectors (Cranelift's x64 back end has no vector `one`/`ueq`:
/// those are composed).
pub(super) fn fcmp_vec(cx: &mut Cx, cc: FloatCC, a: Value, b: Value) -> Value {
    match cc {
        FloatCC::OrderedNotEqual => {
            let o = cx.b.ins().fcmp(FloatCC::Ordered, a, b);
            let n = cx.b.ins().fcmp(FloatCC::NotEqual, a, b);
            cx.b.ins().band(o, n)
        }
        FloatCC::UnorderedOrEqual => {
            let u = cx.b.ins().fcmp(FloatCC::Unordered, a, b);
            let e = cx.b.ins().fcmp(FloatCC::Equal, a, b);
            cx.b.ins().bor(u, e)
        }
        cc => cx.b.ins().fcmp(cc, a, b),
    }
}

/// The compare result of a chunk as an `i32x4` lane mask.
fn compare(cx: &mut Cx, ty: CTy, cond: Cond, v: &[Opnd; 3]) -> Value {
    let Some((fcc, icc)) = cond_cc(cond) else {
        return cx.splat32(if cond == Cond::Tru { u32::MAX } else { 0 });
    };
    match ty {
        CTy::F32 => {
            let a = cx.fin(Fmt::F32, v[0].v32());
            let b = cx.fin(Fmt::F32, v[1].v32());
            let m = fcmp_vec(cx, fcc, a, b);
            cx.cast(I32X4, m)
        }
        CTy::F16 | CTy::I16 | CTy::U16 => {
            super::half::compare16(cx, ty == CTy::F16, ty == CTy::I16, (fcc, icc), v)
        }
        CTy::I32 | CTy::U32 => {
            let cc = if ty == CTy::U32 { unsigned(icc) } else { icc };
            let a = cx.cast(I32X4, v[0].v32());
            let b = cx.cast(I32X4, v[1].v32());
            cx.b.ins().icmp(cc, a, b)
        }
        CTy::F64 | CTy::I64 | CTy::U64 => {
            let mut halves = [Value::from_u32(0); 2];
            for (h, out) in halves.iter_mut().enumerate() {
                *out = if ty == CTy::F64 {
                    let a = cx.fin(Fmt::F64, v[0].v64(h));
                    let b = cx.fin(Fmt::F64, v[1].v64(h));
                    let m = fcmp_vec(cx, fcc, a, b);
                    cx.cast(I64X2, m)
                } else {
                    let cc = if ty == CTy::U64 { unsigned(icc) } else { icc };
                    let a = cx.cast(I64X2, v[0].v64(h));
                    let b = cx.cast(I64X2, v[1].v64(h));
                    cx.b.ins().icmp(cc, a, b)
                };
            }
            let (lo, _) = cx.unzip64(halves);
            lo
        }
    }
}

/// Write a result of chunk `c` of any width, with OMOD/CLAMP first when it is a float.
fn float_result(cx: &mut Cx, p: &VPlan, c: usize, r: Opnd, wmask: Option<Value>) {
    let shape = p.sem.shape();
    match r {
        Opnd::W32(r) => {
            let r = match shape.float {
                Some(f) => cx.omod_clamp(f, r, p.omod, p.clamp),
                None if shape.f16 && (p.omod != 0 || p.clamp) => {
                    cx.omod_clamp16(r, p.omod, p.clamp)
                }
                None => r,
            };
            write32(cx, p, c, r, wmask)
        }
        Opnd::W64(h) => {
            let h = match shape.float {
                Some(f) => h.map(|x| cx.omod_clamp(f, x, p.omod, p.clamp)),
                None => h,
            };
            let h = h.map(|x| cx.cast(I64X2, x));
            write64(cx, p, c, h, wmask)
        }
    }
}

/// Write a 32-bit result of chunk `c` (SDWA placement, then the lane mask).
pub(super) fn write32(cx: &mut Cx, p: &VPlan, c: usize, r: Value, wmask: Option<Value>) {
    let Some(vdst) = p.vdst else { return };
    let mut r = cx.cast(I32X4, r);
    if let Some(s) = p.sdwa {
        let old = (s.dst_unused == 2).then(|| cx.vreg(vdst, c));
        r = cx.sdwa_place(r, old, s.dst_sel, s.dst_unused);
    }
    cx.write_vreg_masked(vdst, c, r, wmask);
}

pub(super) fn write64(cx: &mut Cx, p: &VPlan, c: usize, r: [Value; 2], wmask: Option<Value>) {
    let Some(vdst) = p.vdst else { return };
    let (lo, hi) = cx.unzip64(r);
    if wmask.is_none() {
        cx.zips.insert((lo, hi), r);
    }
    cx.write_vreg_masked(vdst, c, lo, wmask);
    cx.write_vreg_masked(vdst.wrapping_add(1), c, hi, wmask);
}

/// The lane masks of one chunk: EXEC, and DPP's rows/banks/valid sources (`None`: all).
#[derive(Clone, Copy)]
struct Masks {
    exec: Option<Value>,
    dpp: Option<Value>,
}

/// Write a lane-mask result (compare, carry out) of chunk `c` to its pair (and EXEC for
/// V_CMPX), as the interpreter's driver does: lanes with EXEC 0 get 0, lanes DPP leaves
/// alone keep their old bit (and stay in EXEC).
fn write_mask(cx: &mut Cx, p: &VPlan, c: usize, m: Value, k: Masks) {
    let dst = p.sdst.unwrap_or(106);
    let mut v = m;
    if let Some(d) = k.dpp {
        let old = cx.lanes(dst, c).unwrap_or_else(|| cx.splat32(u32::MAX));
        v = cx.b.ins().bitselect(d, m, old);
    }
    if let Some(e) = k.exec {
        v = cx.b.ins().band(v, e);
    }
    if p.to_exec {
        let mut x = m;
        if let Some(d) = k.dpp {
            let ones = cx.splat32(u32::MAX);
            x = cx.b.ins().bitselect(d, m, ones);
        }
        if let Some(e) = k.exec {
            x = cx.b.ins().band(x, e);
        }
        if let Some(d) = p.sdst {
            cx.set_lanes(d, c, v);
        }
        cx.set_lanes(126, c, x);
    } else if let Some(d) = p.sdst {
        cx.set_lanes(d, c, v);
    }
}
