//! Operand meaning: what a 9-bit source code (`Src`) names on a generation, the value of
//! inline constants at each operand width, and per-row facts later code needs to read and
//! write operands (widths in dwords of each slot, 16-bit operations, implicit VCC writes).
//!
//! Source codes follow AMD's SI/CI/VI manuals and 003_5ccf112c12817a33.txt; the inline
//! float values are the manuals' list (0.5, 1.0, 2.0, 4.0 and their negatives) plus
//! 1/(2π) on GCN 1.2 (code 248).

use super::inst::Src;
use super::table::{Row, TableEnc};
use crate::arch::Gen;

/// What a source (or scalar destination) code means on a generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SrcKind {
    /// Scalar register `s[n]`.
    Sgpr(u8),
    VccLo,
    VccHi,
    TbaLo,
    TbaHi,
    TmaLo,
    TmaHi,
    /// Trap temporary `ttmp[n]`, 0-11.
    Ttmp(u8),
    M0,
    ExecLo,
    ExecHi,
    /// FLAT_SCRATCH: codes 104/105 on GCN 1.1, 102/103 on GCN 1.2.
    FlatScratchLo,
    FlatScratchHi,
    /// XNACK_MASK: codes 104/105 on GCN 1.2.
    XnackMaskLo,
    XnackMaskHi,
    /// Inline integer constant, -16..=64.
    InlineInt(i8),
    /// Inline float constant.
    InlineFloat(InlineFloat),
    Vccz,
    Execz,
    Scc,
    LdsDirect,
    /// A 32-bit literal follows the instruction.
    Literal,
    /// 249 in VOP1/VOP2/VOPC SRC0 on GCN 1.2: the VOP_SDWA dword follows.
    Sdwa,
    /// 250 in VOP1/VOP2/VOPC SRC0 on GCN 1.2: the VOP_DPP dword follows.
    Dpp,
    /// Vector register `v[n]`.
    Vgpr(u8),
    /// No meaning on this generation.
    Reserved,
}

/// The inline float constants (source codes 240-248).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InlineFloat {
    Half,
    MinusHalf,
    One,
    MinusOne,
    Two,
    MinusTwo,
    Four,
    MinusFour,
    /// 1/(2π), GCN 1.2 only.
    InvTwoPi,
}

impl InlineFloat {
    /// The value as an `f64` (exact for all but 1/(2π), which is the hardware's constant:
    /// 1/(2π) truncated to f64, one ulp below the nearest double).
    pub fn value(self) -> f64 {
        match self {
            InlineFloat::Half => 0.5,
            InlineFloat::MinusHalf => -0.5,
            InlineFloat::One => 1.0,
            InlineFloat::MinusOne => -1.0,
            InlineFloat::Two => 2.0,
            InlineFloat::MinusTwo => -2.0,
            InlineFloat::Four => 4.0,
            InlineFloat::MinusFour => -4.0,
            InlineFloat::InvTwoPi => f64::from_bits(0x3FC4_5F30_6DC9_C882),
        }
    }

    /// IEEE half, single and double bit patterns (written out by hand; see the tests).
    fn bits(self) -> (u16, u32, u64) {
        match self {
            InlineFloat::Half => (0x3800, 0x3F00_0000, 0x3FE0_0000_0000_0000),
            InlineFloat::MinusHalf => (0xB800, 0xBF00_0000, 0xBFE0_0000_0000_0000),
            InlineFloat::One => (0x3C00, 0x3F80_0000, 0x3FF0_0000_0000_0000),
            InlineFloat::MinusOne => (0xBC00, 0xBF80_0000, 0xBFF0_0000_0000_0000),
            InlineFloat::Two => (0x4000, 0x4000_0000, 0x4000_0000_0000_0000),
            InlineFloat::MinusTwo => (0xC000, 0xC000_0000, 0xC000_0000_0000_0000),
            InlineFloat::Four => (0x4400, 0x4080_0000, 0x4010_0000_0000_0000),
            InlineFloat::MinusFour => (0xC400, 0xC080_0000, 0xC010_0000_0000_0000),
            InlineFloat::InvTwoPi => (0x3118, 0x3E22_F983, 0x3FC4_5F30_6DC9_C882),
        }
    }
}

/// What `src` names on `gen`. Codes above 511 are `Reserved`.
pub fn src_kind(gen: Gen, src: Src) -> SrcKind {
    use SrcKind::*;
    let c = src.0;
    match c {
        0..=101 => Sgpr(c as u8),
        102 | 103 if gen == Gen::Gfx8 => {
            if c == 102 {
                FlatScratchLo
            } else {
                FlatScratchHi
            }
        }
        102 | 103 => Sgpr(c as u8),
        104 | 105 => match gen {
            Gen::Gfx6 => Reserved,
            Gen::Gfx7 if c == 104 => FlatScratchLo,
            Gen::Gfx7 => FlatScratchHi,
            Gen::Gfx8 if c == 104 => XnackMaskLo,
            Gen::Gfx8 => XnackMaskHi,
        },
        106 => VccLo,
        107 => VccHi,
        108 => TbaLo,
        109 => TbaHi,
        110 => TmaLo,
        111 => TmaHi,
        112..=123 => Ttmp((c - 112) as u8),
        124 => M0,
        125 => Reserved,
        126 => ExecLo,
        127 => ExecHi,
        128..=208 => match src.inline_int() {
            Some(v) => InlineInt(v as i8),
            None => Reserved,
        },
        240 => InlineFloat(self::InlineFloat::Half),
        241 => InlineFloat(self::InlineFloat::MinusHalf),
        242 => InlineFloat(self::InlineFloat::One),
        243 => InlineFloat(self::InlineFloat::MinusOne),
        244 => InlineFloat(self::InlineFloat::Two),
        245 => InlineFloat(self::InlineFloat::MinusTwo),
        246 => InlineFloat(self::InlineFloat::Four),
        247 => InlineFloat(self::InlineFloat::MinusFour),
        248 if gen == Gen::Gfx8 => InlineFloat(self::InlineFloat::InvTwoPi),
        249 if gen == Gen::Gfx8 => Sdwa,
        250 if gen == Gen::Gfx8 => Dpp,
        251 => Vccz,
        252 => Execz,
        253 => Scc,
        254 => LdsDirect,
        255 => Literal,
        256..=511 => Vgpr((c - 256) as u8),
        _ => Reserved,
    }
}

impl SrcKind {
    /// Whether this code is a register a scalar instruction may write (SDST fields).
    pub fn is_scalar_dst(self) -> bool {
        use SrcKind::*;
        matches!(
            self,
            Sgpr(_)
                | VccLo
                | VccHi
                | TbaLo
                | TbaHi
                | TmaLo
                | TmaHi
                | Ttmp(_)
                | M0
                | ExecLo
                | ExecHi
                | FlatScratchLo
                | FlatScratchHi
                | XnackMaskLo
                | XnackMaskHi
        )
    }

    /// Whether this code is an inline constant (integer or float).
    pub fn is_inline(self) -> bool {
        matches!(self, SrcKind::InlineInt(_) | SrcKind::InlineFloat(_))
    }
}

/// The width of the value an operand holds; inline constants depend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    B16,
    B32,
    B64,
}

/// The value of an inline constant code for an operand of width `width` on `gen`, or `None`
/// when `src` is not an inline constant there.
///
/// Integers are sign-extended to the width (16-bit: two's complement in the low 16 bits).
/// Float constants are the IEEE pattern of that width: f16 for `B16` on GCN 1.2, f32 for
/// `B32`, f64 for `B64`. GCN 1.0/1.1 have no 16-bit constants: `B16` gives the 32-bit
/// pattern there.
pub fn inline_constant(gen: Gen, src: Src, width: Width) -> Option<u64> {
    let width = if width == Width::B16 && gen != Gen::Gfx8 {
        Width::B32
    } else {
        width
    };
    match src_kind(gen, src) {
        SrcKind::InlineInt(v) => Some(match width {
            Width::B16 => (v as i16 as u16) as u64,
            Width::B32 => (v as i32 as u32) as u64,
            Width::B64 => v as i64 as u64,
        }),
        SrcKind::InlineFloat(f) => {
            let (h, s, d) = f.bits();
            Some(match width {
                Width::B16 => h as u64,
                Width::B32 => s as u64,
                Width::B64 => d,
            })
        }
        _ => None,
    }
}

/// The VINTRP-in-VOP3 attribute operand of GCN 1.2 (SRC0 of V_INTERP_*_e64): attribute
/// number (bits 5:0), channel (bits 7:6) and the f16 `high` flag (bit 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InterpAttr {
    pub attr: u8,
    pub chan: u8,
    pub high: bool,
}

impl InterpAttr {
    pub fn from_src(src: Src) -> InterpAttr {
        InterpAttr {
            attr: (src.0 & 0x3f) as u8,
            chan: ((src.0 >> 6) & 3) as u8,
            high: src.0 & 0x100 != 0,
        }
    }
    pub fn to_src(self) -> Src {
        Src((self.attr as u16 & 0x3f) | (self.chan as u16 & 3) << 6 | (self.high as u16) << 8)
    }
}

/// Whether `row` is a VINTRP operation in its VOP3 form (GCN 1.2), whose SRC0 holds an
/// attribute (`InterpAttr`) rather than a source operand, and whose V_INTERP_MOV SRC1 holds
/// the parameter (0 = P10, 1 = P20, 2 = P0).
pub fn is_vop3_interp(row: &Row) -> bool {
    row.enc == TableEnc::Vop3 && row.sig.split([',', '+']).any(|w| w == "attr")
}

/// Whether the VOP3 form of `row` is VOP3B (SDST in bits 14:8): native VOP3B rows and the
/// VOP3 twins of VOP2 operations with a carry out (`v_add_i32`, `v_addc_u32`, …; their
/// signature's second operand is `vcc`).
pub fn vop3_is_b(row: &Row) -> bool {
    match row.enc {
        TableEnc::Vop3b => true,
        TableEnc::Vop2 => row.sig.split(',').nth(1) == Some("vcc"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_float_patterns_worked_out_by_hand() {
        // 0.5 = 2^-1: f32 exponent 126 = 0x7E → 0x3F000000; f64 exponent 1022 = 0x3FE;
        // f16 exponent 14 → 0b0_01110_0000000000 = 0x3800.
        let half = Src(240);
        assert_eq!(
            inline_constant(Gen::Gfx8, half, Width::B32),
            Some(0x3F00_0000)
        );
        assert_eq!(
            inline_constant(Gen::Gfx8, half, Width::B64),
            Some(0x3FE0_0000_0000_0000)
        );
        assert_eq!(inline_constant(Gen::Gfx8, half, Width::B16), Some(0x3800));
        // -4.0 = -(2^2): f32 sign + exponent 129 = 0x81 → 0xC0800000; f16 exponent 17 →
        // 1_10001_0000000000 = 0xC400; f64 exponent 1025 = 0x401 → 0xC010....
        let m4 = Src(247);
        assert_eq!(
            inline_constant(Gen::Gfx7, m4, Width::B32),
            Some(0xC080_0000)
        );
        assert_eq!(inline_constant(Gen::Gfx8, m4, Width::B16), Some(0xC400));
        assert_eq!(
            inline_constant(Gen::Gfx6, m4, Width::B64),
            Some(0xC010_0000_0000_0000)
        );
        // 1/(2π) = 0.15915494309189535 = 1.2732395447351628 × 2^-3.
        let inv = Src(248);
        assert_eq!(
            inline_constant(Gen::Gfx8, inv, Width::B32),
            Some(0x3E22_F983)
        );
        assert_eq!(
            inline_constant(Gen::Gfx8, inv, Width::B64),
            Some(0x3FC4_5F30_6DC9_C882)
        );
        assert_eq!(inline_constant(Gen::Gfx8, inv, Width::B16), Some(0x3118));
        assert_eq!(inline_constant(Gen::Gfx7, inv, Width::B32), None);
        assert_eq!(src_kind(Gen::Gfx6, inv), SrcKind::Reserved);
    }

    #[test]
    fn inv_two_pi_patterns_match_an_independent_computation() {
        // 1/(2π) = 0.159154943091895335768883763372514362034459645740456…; the nearest
        // double is 0x3FC45F306DC9C883 (error +9.8e-18), the one below it 0x…882 (error
        // -1.8e-17). The hardware constant (and LLVM's) is the truncated one, 0x…882.
        let x = 1.0f64 / (2.0 * std::f64::consts::PI);
        assert_eq!(x.to_bits(), 0x3FC4_5F30_6DC9_C883);
        assert_eq!(x.to_bits() - 1, 0x3FC4_5F30_6DC9_C882);
        assert_eq!((x as f32).to_bits(), 0x3E22_F983);
        // f16: 1.2732395 × 2^-3 → exponent 12 (0b01100), mantissa round(0.2732395 × 1024)
        // = round(279.797) = 280 = 0x118 → 0b0_01100_0100011000 = 0x3118.
        assert_eq!((12u16 << 10) | 280, 0x3118);
    }

    #[test]
    fn inline_integers_sign_extend_to_the_width() {
        // 193 is -1, 208 is -16, 192 is 64, 128 is 0.
        assert_eq!(
            inline_constant(Gen::Gfx8, Src(193), Width::B32),
            Some(0xFFFF_FFFF)
        );
        assert_eq!(
            inline_constant(Gen::Gfx8, Src(193), Width::B64),
            Some(u64::MAX)
        );
        assert_eq!(
            inline_constant(Gen::Gfx8, Src(193), Width::B16),
            Some(0xFFFF)
        );
        assert_eq!(
            inline_constant(Gen::Gfx8, Src(208), Width::B64),
            Some((-16i64) as u64)
        );
        assert_eq!(inline_constant(Gen::Gfx6, Src(192), Width::B32), Some(64));
        assert_eq!(inline_constant(Gen::Gfx6, Src(128), Width::B64), Some(0));
        // GCN 1.0/1.1 have no 16-bit constants.
        assert_eq!(
            inline_constant(Gen::Gfx6, Src(193), Width::B16),
            Some(0xFFFF_FFFF)
        );
        assert_eq!(
            inline_constant(Gen::Gfx7, Src(240), Width::B16),
            Some(0x3F00_0000)
        );
        assert_eq!(inline_constant(Gen::Gfx8, Src(209), Width::B32), None);
        assert_eq!(inline_constant(Gen::Gfx8, Src(5), Width::B32), None);
    }

    #[test]
    fn special_registers_per_generation() {
        assert_eq!(src_kind(Gen::Gfx6, Src(102)), SrcKind::Sgpr(102));
        assert_eq!(src_kind(Gen::Gfx8, Src(102)), SrcKind::FlatScratchLo);
        assert_eq!(src_kind(Gen::Gfx8, Src(103)), SrcKind::FlatScratchHi);
        assert_eq!(src_kind(Gen::Gfx6, Src(104)), SrcKind::Reserved);
        assert_eq!(src_kind(Gen::Gfx7, Src(104)), SrcKind::FlatScratchLo);
        assert_eq!(src_kind(Gen::Gfx7, Src(105)), SrcKind::FlatScratchHi);
        assert_eq!(src_kind(Gen::Gfx8, Src(104)), SrcKind::XnackMaskLo);
        assert_eq!(src_kind(Gen::Gfx8, Src(105)), SrcKind::XnackMaskHi);
        assert_eq!(src_kind(Gen::Gfx7, Src(106)), SrcKind::VccLo);
        assert_eq!(src_kind(Gen::Gfx7, Src(111)), SrcKind::TmaHi);
        assert_eq!(src_kind(Gen::Gfx7, Src(112)), SrcKind::Ttmp(0));
        assert_eq!(src_kind(Gen::Gfx7, Src(123)), SrcKind::Ttmp(11));
        assert_eq!(src_kind(Gen::Gfx7, Src(124)), SrcKind::M0);
        assert_eq!(src_kind(Gen::Gfx7, Src(125)), SrcKind::Reserved);
        assert_eq!(src_kind(Gen::Gfx7, Src(127)), SrcKind::ExecHi);
        assert_eq!(src_kind(Gen::Gfx7, Src(64 + 128)), SrcKind::InlineInt(64));
        assert_eq!(src_kind(Gen::Gfx7, Src(249)), SrcKind::Reserved);
        assert_eq!(src_kind(Gen::Gfx8, Src(249)), SrcKind::Sdwa);
        assert_eq!(src_kind(Gen::Gfx8, Src(250)), SrcKind::Dpp);
        assert_eq!(src_kind(Gen::Gfx8, Src(251)), SrcKind::Vccz);
        assert_eq!(src_kind(Gen::Gfx8, Src(254)), SrcKind::LdsDirect);
        assert_eq!(src_kind(Gen::Gfx8, Src(255)), SrcKind::Literal);
        assert_eq!(src_kind(Gen::Gfx8, Src(256)), SrcKind::Vgpr(0));
        assert_eq!(src_kind(Gen::Gfx8, Src(511)), SrcKind::Vgpr(255));
        assert_eq!(src_kind(Gen::Gfx8, Src(512)), SrcKind::Reserved);
        for c in 209..240 {
            assert_eq!(src_kind(Gen::Gfx8, Src(c)), SrcKind::Reserved, "{c}");
        }
    }

    #[test]
    fn interp_attr_packs_and_unpacks() {
        // attr4.x high = 0x104 (see opcodes.tsv, v_interp_p1ll_f16).
        let a = InterpAttr::from_src(Src(0x104));
        assert_eq!(
            a,
            InterpAttr {
                attr: 4,
                chan: 0,
                high: true
            }
        );
        assert_eq!(a.to_src(), Src(0x104));
        assert_eq!(
            InterpAttr::from_src(Src(0xC2)),
            InterpAttr {
                attr: 2,
                chan: 3,
                high: false
            }
        );
    }
}
