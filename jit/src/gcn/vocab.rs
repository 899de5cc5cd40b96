//! The operation vocabularies of the vector lowering: what each family of operations
//! distinguishes (float format, integer/float/f16/16-bit operations, compare conditions and
//! types, conversions, carries, VOP2 operand forms, the rarer operations of `xop.rs`). Pure
//! data: nothing here emits code.

pub use wavejit_isa::gcn::desc::{CmpTy, Cond};

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

impl FOp {
    /// Sources (a VOP2 MAC/MADMK/MADAK form has three whatever its operation).
    pub fn arity(self) -> u8 {
        use FOp::*;
        match self {
            Trunc | Ceil | Floor | Rndne | Sqrt | Rcp | Fract => 1,
            Add | Sub | Subrev | Mul | Min | Max | MulLegacy => 2,
            Mad | Fma | Min3 | Max3 | Med3 => 3,
        }
    }

    /// A NaN input always gives a NaN result, whatever its payload: the result of a NaN
    /// may be left raw and canonicalised later (`fetch::lazy_nan_producer`).
    pub fn nan_in_nan_out(self) -> bool {
        use FOp::*;
        match self {
            Add | Sub | Subrev | Mul | Mad | Fma | Trunc | Ceil | Floor | Rndne | Sqrt | Rcp
            | Fract => true,
            Min | Max | Min3 | Max3 | Med3 | MulLegacy => false,
        }
    }

    /// A NaN operand is never the result (minNum/maxNum/med3 give the other operand or the
    /// canonical NaN, `float_rules`), so raw NaN inputs are fine.
    pub fn never_returns_nan_operand(self) -> bool {
        use FOp::*;
        match self {
            Min | Max | Min3 | Max3 | Med3 => true,
            Add | Sub | Subrev | Mul | Mad | Fma | Trunc | Ceil | Floor | Rndne | Sqrt | Rcp
            | Fract | MulLegacy => false,
        }
    }
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

/// 64-bit shifts (`mixed.rs`): left, logical right, arithmetic right; the `rev` forms
/// (V_*REV_B64) take the amount from SRC0 instead of SRC1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shift64 {
    Lshl,
    Lshr,
    Ashr,
    Lshlrev,
    Lshrrev,
    Ashrrev,
}

impl Shift64 {
    /// 0 left, 1 logical right, 2 arithmetic right.
    pub fn kind(self) -> u8 {
        match self {
            Shift64::Lshl | Shift64::Lshlrev => 0,
            Shift64::Lshr | Shift64::Lshrrev => 1,
            Shift64::Ashr | Shift64::Ashrrev => 2,
        }
    }

    /// The amount is SRC0.
    pub fn rev(self) -> bool {
        matches!(self, Shift64::Lshlrev | Shift64::Lshrrev | Shift64::Ashrrev)
    }
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

/// f16 operations lowered here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HOp {
    Add,
    Sub,
    Subrev,
    Mul,
    /// Unfused: the product rounded to f16, then the sum (`float::mad`).
    Mad,
    Min,
    Max,
    Trunc,
    Ceil,
    Floor,
    Rndne,
    Sqrt,
    Rcp,
    Fract,
}

impl HOp {
    pub fn arity(self) -> u8 {
        use HOp::*;
        match self {
            Trunc | Ceil | Floor | Rndne | Sqrt | Rcp | Fract => 1,
            Mad => 3,
            _ => 2,
        }
    }
}

/// Conversions with a 16-bit side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cvt16 {
    F16FromU16,
    F16FromI16,
    /// Truncating, saturating; NaN → 0.
    U16FromF16,
    I16FromF16,
    /// Rounded (GCN 1.2: f16 output flush per MODE).
    F16FromF32,
    /// Exact (GCN 1.2: f16 input flush per MODE).
    F32FromF16,
}

/// 16-bit integer operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum I16 {
    Add,
    Sub,
    Subrev,
    MulLo,
    Lshlrev,
    Lshrrev,
    Ashrrev,
    MaxU,
    MaxI,
    MinU,
    MinI,
    MadU,
    MadI,
}

impl I16 {
    pub fn arity(self) -> u8 {
        match self {
            I16::MadU | I16::MadI => 3,
            _ => 2,
        }
    }
}

/// The float format a class compare tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CFmt {
    F16,
    F32,
    F64,
}

/// The operations of this group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XOp {
    /// `v_cmp_class_*` (`x`: `v_cmpx_class_*`, the result also to EXEC).
    Class(CFmt, bool),
    /// `{carry, D} = S0 × S1 + S2` (64-bit S2 and D), unsigned or signed.
    Mad64(bool),
    PkU16U32,
    PkI16I32,
    PknormI16,
    PknormU16,
    Pkrtz,
    /// `v_cvt_pk_u8_f32` (S2 a source) and `v_cvt_pkaccum_u8_f32` (S2 is VDST).
    PkU8(bool),
    Perm,
    Msad,
    /// `v_qsad_pk_u16_u8` / `v_mqsad_pk_u16_u8` (`true`: masked), GCN 1.0's
    /// `v_qsad_u8`/`v_mqsad_u8` likewise.
    Qsad(bool),
    /// `v_min_legacy_f32` / `v_max_legacy_f32` (`true`): `S0 < S1 ? S0 : S1` (`>`).
    MinLegacy(bool),
    /// `v_mad_legacy_f32` / `v_mac_legacy_f32` (`true`: S2 is VDST): ±0 × anything is +0.
    MadLegacy(bool),
    /// `v_cvt_flr_i32_f32` (`false`) / `v_cvt_rpi_i32_f32` (`true`).
    CvtFloor(bool),
    /// `v_cvt_off_f32_i4`: `i4(S0[3:0]) / 16`.
    CvtOffI4,
    /// `v_rcp_clamp_f32/f64` (`false`: an infinite result becomes the largest finite
    /// value of its sign) and `v_rcp_legacy_f32` (`true`: it becomes 0 of its sign).
    RcpClamp(Fmt, bool),
    /// `v_fma_f16`: `S0 × S1 + S2` rounded once to f16.
    FmaF16,
    /// `v_ldexp_f16`: `S0 × 2^i16(S1)` rounded once.
    LdexpF16,
    /// `v_frexp_mant_f16` (`true`) / `v_frexp_exp_i16_f16`.
    FrexpF16(bool),
}
