//! Operand meaning: what a 9-bit source code (`Src`) names on a generation, the value of
//! inline constants at each operand width, and per-row facts later code needs to read and
//! write operands (widths in dwords of each slot, 16-bit operations, implicit VCC writes).
//!
//! Source codes follow AMD's SI/CI/VI manuals and 003_5ccf112c12817a33.txt; the inline
//! float values are the manuals' list (0.5, 1.0, 2.0, 4.0 and their negatives) plus
//! 1/(2π) on GCN 1.2 (code 248).

use super::inst::{Enc, Inst, Src};
use super::table::{Field, Op, Row, TableEnc};
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

/// What an operand of a row's signature is (the `sig` column, LLVM's operand list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A VGPR tuple of this many dwords.
    Vgpr(u8),
    /// An SGPR tuple of this many dwords (or any scalar source of that width).
    Sgpr(u8),
    /// VCC (a 64-bit lane mask), implicit in VOP2/VOPC; an SGPR pair in the VOP3 form.
    Vcc,
    /// An immediate: SIMM16, an SMRD/SMEM offset, an inline constant or the literal.
    Imm,
    /// MUBUF/MTBUF without an address VGPR (`off`).
    Off,
    /// A VINTRP attribute and channel.
    Attr,
    /// V_INTERP_MOV's parameter (P10, P20, P0).
    Param,
    Hwreg,
    Sendmsg,
    Waitcnt,
    GprIdx,
    /// EXP target.
    Tgt,
    Exec,
    M0,
    Scc,
}

impl Kind {
    fn parse(w: &str) -> Option<Kind> {
        let n = |t: &str| t.parse::<u8>().ok();
        Some(match w {
            "vcc" => Kind::Vcc,
            // `imm?`: an immediate that may be left out when zero (`s_endpgm [N]`).
            "imm" | "imm?" => Kind::Imm,
            "off" => Kind::Off,
            "attr" => Kind::Attr,
            "p" => Kind::Param,
            "hwreg" => Kind::Hwreg,
            "sendmsg" => Kind::Sendmsg,
            "waitcnt" => Kind::Waitcnt,
            "gpr_idx" => Kind::GprIdx,
            "tgt" => Kind::Tgt,
            "exec" => Kind::Exec,
            "m0" => Kind::M0,
            "scc" => Kind::Scc,
            _ if w.starts_with('v') => Kind::Vgpr(n(&w[1..])?),
            _ if w.starts_with('s') => Kind::Sgpr(n(&w[1..])?),
            _ => return None,
        })
    }

    /// Whether the operand is read through a source code (a register, an inline constant
    /// or the literal), as opposed to an immediate that merely sits in a source-sized field
    /// (`s_set_gpr_idx_on`'s index mode in SSRC1).
    pub fn is_source(self) -> bool {
        matches!(self, Kind::Vgpr(_) | Kind::Sgpr(_))
    }

    /// Register dwords this operand occupies (0 for immediates and the like).
    pub fn dwords(self) -> u8 {
        match self {
            Kind::Vgpr(n) | Kind::Sgpr(n) => n,
            Kind::Vcc | Kind::Exec => 2,
            Kind::M0 | Kind::Scc => 1,
            _ => 0,
        }
    }
}

/// One operand of an instruction form: where it is encoded and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Operand {
    pub field: Field,
    pub kind: Kind,
}

/// The operands of `row` in LLVM's order (destinations first), for the native encoding
/// (`vop3 = false`; also SDWA/DPP) or the VOP3 twin of a VOP1/VOP2/VOPC row (`vop3 = true`).
/// In the VOP3 twin, the native form's implicit VCC is an SGPR pair in a field (`Kind::Sgpr(2)`).
///
/// Memory operations list the operands of their text form without `glc`: FLAT/MUBUF
/// atomics return their old value in VDST/VDATA only when GLC is set.
pub fn operands(row: &Row, vop3: bool) -> Vec<Operand> {
    let layout = if vop3 && !matches!(row.enc, TableEnc::Vop3 | TableEnc::Vop3b) {
        row.layout64
    } else {
        row.layout
    };
    sig_words(row)
        .zip(layout.iter())
        .filter_map(|(w, &field)| {
            let kind = Kind::parse(w)?;
            let kind = if kind == Kind::Vcc && field != Field::Vcc {
                Kind::Sgpr(2)
            } else {
                kind
            };
            Some(Operand { field, kind })
        })
        .collect()
}

/// The operand words of `row`'s signature (before any `+modifier` part), one per operand.
fn sig_words(row: &Row) -> impl Iterator<Item = &'static str> {
    let sig: &'static str = row.sig;
    sig.split('+')
        .next()
        .unwrap_or("")
        .split(',')
        .filter(|w| !w.is_empty())
}

/// What the operand in `field` of `row`'s native form is, if the form has one there (as
/// `operands`, without building the list: the decoder asks for every scalar and VALU word).
pub fn native_kind(row: &Row, field: Field) -> Option<Kind> {
    sig_words(row)
        .zip(row.layout.iter())
        .find(|(_, f)| **f == field)
        .and_then(|(w, _)| Kind::parse(w))
}

/// The operands of a decoded instruction (see `operands`).
pub fn inst_operands(gen: Gen, inst: &Inst) -> Vec<Operand> {
    match row_of(gen, inst) {
        Some(r) => operands(r, inst.enc == Enc::Vop3),
        None => Vec::new(),
    }
}

/// The table row an instruction was decoded from (its native row; for VOP3 twins the
/// VOP1/VOP2/VOPC row).
pub fn row_of(gen: Gen, inst: &Inst) -> Option<&'static Row> {
    super::opcode::opcode(gen, inst.op, inst.enc)
        .ok()
        .map(|(r, _)| r)
}

/// The operand held in `field`, if the instruction form has one there.
pub fn operand_in(ops: &[Operand], field: Field) -> Option<Operand> {
    ops.iter().copied().find(|o| o.field == field)
}

/// Register widths, in dwords, of the fields of a VALU/SALU instruction form: 0 when the
/// field holds no register operand. `dst` is VDST (VGPRs, or the SGPRs of
/// `v_readlane_b32`/`v_readfirstlane_b32`/VOP3 compares) or SOP's SDST; `sdst` is VOP3B's
/// SDST; `src` are SRC0-2 (SSRC0/SSRC1 for SOP*, VSRC1 as `src[1]` in VOP2/VOPC).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Widths {
    pub dst: u8,
    pub sdst: u8,
    pub src: [u8; 3],
}

/// Operand widths of `inst` by field (see `Widths`).
pub fn widths(gen: Gen, inst: &Inst) -> Widths {
    let mut w = Widths::default();
    for o in inst_operands(gen, inst) {
        let d = o.kind.dwords();
        match o.field {
            Field::Vdst => w.dst = d,
            Field::Sdst if matches!(inst.enc, Enc::Sop2 | Enc::Sop1 | Enc::Sopk) => w.dst = d,
            Field::Sdst => w.sdst = d,
            Field::Src0 | Field::Ssrc0 => w.src[0] = d,
            Field::Src1 | Field::Vsrc1 | Field::Ssrc1 => w.src[1] = d,
            Field::Src2 => w.src[2] = d,
            _ => {}
        }
    }
    w
}

/// The type sizes a mnemonic names (`v_cvt_f16_f32` → [16, 32]; `v_add_u16` → [16]).
fn type_bits(m: &str) -> Vec<u8> {
    m.split('_')
        .skip(1)
        .filter_map(|t| {
            let (c, n) = t.split_at(1.min(t.len()));
            (matches!(c, "f" | "i" | "u" | "b") && matches!(n, "8" | "16" | "24" | "32" | "64"))
                .then(|| n.parse().ok())
                .flatten()
        })
        .collect()
}

/// Whether the VALU operation reads 16-bit source values on GCN 1.2 (f16/i16/u16
/// operations, and conversions from them), so that inline float constants are f16 there.
/// `v_sad_u16` and the packing conversions read 32-bit operands.
pub fn reads_16bit(op: Op) -> bool {
    let m = op.mnemonic();
    if !m.starts_with("v_") || m.contains("sad") || m.contains("_pk") {
        return false;
    }
    let t = type_bits(m);
    // One type: every operand; two types: destination, then sources.
    t.last() == Some(&16)
}

/// Whether the VALU operation writes a 16-bit result (ERRATA VOP3 12: low 16 bits written,
/// high bits zeroed).
pub fn writes_16bit(op: Op) -> bool {
    let m = op.mnemonic();
    if !m.starts_with("v_") || m.contains("sad") || m.contains("_pk") || m.starts_with("v_cmp") {
        return false;
    }
    type_bits(m).first() == Some(&16)
}

/// Whether `op` is a 16-bit operation of GCN 1.2 (reads or writes 16-bit values).
pub fn is_16bit(op: Op) -> bool {
    reads_16bit(op) || writes_16bit(op)
}

/// The value width of a source operand for inline constants: 64-bit for two-dword
/// operands, 16-bit for 16-bit VALU sources on GCN 1.2, 32-bit otherwise.
pub fn src_width(gen: Gen, op: Op, o: &Operand) -> Width {
    if o.kind.dwords() == 2 {
        Width::B64
    } else if gen == Gen::Gfx8 && reads_16bit(op) {
        Width::B16
    } else {
        Width::B32
    }
}

/// Whether the instruction writes VCC without naming it: VOPC and the VOP2 carry-out
/// operations in their 32-bit, SDWA and DPP forms (their VOP3 forms name an SGPR pair).
pub fn writes_vcc_implicitly(gen: Gen, inst: &Inst) -> bool {
    inst.enc != Enc::Vop3
        && inst_operands(gen, inst)
            .iter()
            .take(2)
            .any(|o| o.field == Field::Vcc)
}

/// Whether the instruction reads VCC without naming it: `v_cndmask_b32` and the VOP2
/// carry-in operations (`v_addc_u32`, …) in their 32-bit, SDWA and DPP forms.
pub fn reads_vcc_implicitly(gen: Gen, inst: &Inst) -> bool {
    inst.enc != Enc::Vop3
        && inst_operands(gen, inst)
            .iter()
            .skip(2)
            .any(|o| o.field == Field::Vcc)
}

/// Whether the operation also writes EXEC (`v_cmpx_*`, `v_cmpsx_*`, `s_*_saveexec_b64`).
pub fn writes_exec(op: Op) -> bool {
    let m = op.mnemonic();
    m.starts_with("v_cmpx_") || m.starts_with("v_cmpsx_") || m.ends_with("_saveexec_b64")
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::gcn::decode::decode;

    fn dec(gen: Gen, words: &[u32]) -> Inst {
        let b: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        decode(gen, &b, 0).expect("decodes").0
    }

    fn w(dst: u8, sdst: u8, src: [u8; 3]) -> Widths {
        Widths { dst, sdst, src }
    }

    #[test]
    fn widths_by_field() {
        // Words from opcodes.tsv; widths from the manuals' operand descriptions.
        // v_add_f64 v[2:3], v[4:5], v[6:7] (VOP3-only): all 64-bit.
        assert_eq!(
            widths(Gen::Gfx6, &dec(Gen::Gfx6, &[0xd2c80002, 0x00020d04])),
            w(2, 0, [2, 2, 0])
        );
        // v_cmp_gt_f32_e64 s[92:93], -v184, v17: the VOP3 compare writes an SGPR pair.
        assert_eq!(
            widths(Gen::Gfx8, &dec(Gen::Gfx8, &[0xd044005c, 0x200223b8])),
            w(2, 0, [1, 1, 0])
        );
        // s_getpc_b64 s[2:3] writes SDST; s_setpc_b64 / s_rfe_b64 s[4:5] read SSRC0.
        assert_eq!(
            widths(Gen::Gfx8, &dec(Gen::Gfx8, &[0xbe821c00])),
            w(2, 0, [0, 0, 0])
        );
        assert_eq!(
            widths(Gen::Gfx8, &dec(Gen::Gfx8, &[0xbe801f04])),
            w(0, 0, [2, 0, 0])
        );
        // s_bitset0_b64 s[2:3], s4
        assert_eq!(
            widths(Gen::Gfx8, &dec(Gen::Gfx8, &[0xbe821904])),
            w(2, 0, [1, 0, 0])
        );
        // v_cvt_f64_i32 v[1:2], v2 (VOP1 4 on gfx6): 64-bit result of a 32-bit source.
        let cvt = dec(Gen::Gfx6, &[0x7e020902]);
        assert_eq!(cvt.op, Op::VCvtF64I32);
        assert_eq!(widths(Gen::Gfx6, &cvt), w(2, 0, [1, 0, 0]));
    }

    #[test]
    fn carry_operations_use_vcc_or_an_sgpr_pair() {
        // v_add_i32_e32 v1, vcc, v2, v3 on gfx6 (VOP2 37): VCC implicit.
        let e32 = dec(Gen::Gfx6, &[37 << 25 | 1 << 17 | 3 << 9 | 0x102]);
        assert_eq!(e32.op, Op::VAddI32);
        assert!(writes_vcc_implicitly(Gen::Gfx6, &e32));
        assert!(!reads_vcc_implicitly(Gen::Gfx6, &e32));
        // Its VOP3B twin (256 + 37 = 293 at bits 25:17) names the carry-out SGPR pair in SDST.
        let e64 = dec(
            Gen::Gfx6,
            &[0x34 << 26 | 293 << 17 | 10 << 8 | 1, 0x102 | 0x103 << 9],
        );
        assert_eq!(e64.op, Op::VAddI32);
        assert!(!writes_vcc_implicitly(Gen::Gfx6, &e64));
        assert_eq!(widths(Gen::Gfx6, &e64), w(1, 2, [1, 1, 0]));
        // v_cndmask_b32_e32 reads VCC; its VOP3 form reads SRC2 as an SGPR pair.
        let cnd = dec(Gen::Gfx8, &[3 << 9 | 0x102]);
        assert_eq!(cnd.op, Op::VCndmaskB32);
        assert!(reads_vcc_implicitly(Gen::Gfx8, &cnd));
        let cnd64 = dec(
            Gen::Gfx8,
            &[0x34 << 26 | 256 << 16 | 1, 0x102 | 0x103 << 9 | 106 << 18],
        );
        assert_eq!(widths(Gen::Gfx8, &cnd64), w(1, 0, [1, 1, 2]));
        // VOPC writes VCC.
        let cmp = dec(Gen::Gfx8, &[0x7c2177e3]);
        assert!(writes_vcc_implicitly(Gen::Gfx8, &cmp));
        assert!(writes_exec(Op::VCmpxLtF32));
        assert!(!writes_exec(Op::VCmpLtF32));
        assert!(writes_exec(Op::SAndSaveexecB64));
    }

    #[test]
    fn sixteen_bit_operations() {
        assert!(reads_16bit(Op::VAddF16) && writes_16bit(Op::VAddF16));
        assert!(reads_16bit(Op::VCvtF32F16) && !writes_16bit(Op::VCvtF32F16));
        assert!(!reads_16bit(Op::VCvtF16F32) && writes_16bit(Op::VCvtF16F32));
        assert!(reads_16bit(Op::VCmpLtF16) && !writes_16bit(Op::VCmpLtF16));
        assert!(reads_16bit(Op::VMadU16) && reads_16bit(Op::VFrexpExpI16F16));
        assert!(!is_16bit(Op::VSadU16) && !is_16bit(Op::VCvtPkrtzF16F32));
        assert!(!is_16bit(Op::VAddF32) && !is_16bit(Op::SSextI32I16));
        let o = Operand {
            field: Field::Src0,
            kind: Kind::Vgpr(1),
        };
        assert_eq!(src_width(Gen::Gfx8, Op::VAddF16, &o), Width::B16);
        assert_eq!(src_width(Gen::Gfx7, Op::VCvtF32F16, &o), Width::B32);
        assert_eq!(src_width(Gen::Gfx8, Op::VAddF32, &o), Width::B32);
        let o2 = Operand {
            field: Field::Src0,
            kind: Kind::Vgpr(2),
        };
        assert_eq!(src_width(Gen::Gfx8, Op::VAddF64, &o2), Width::B64);
    }

    #[test]
    fn every_row_has_a_layout_for_its_operands() {
        for r in super::super::table::ROWS.iter() {
            let n = sig_words(r).count();
            assert_eq!(
                operands(r, false).len(),
                n,
                "{} line {}",
                r.op.mnemonic(),
                r.line
            );
            if r.e64.iter().any(|&e| e) {
                assert_eq!(
                    operands(r, true).len(),
                    n,
                    "{} line {}",
                    r.op.mnemonic(),
                    r.line
                );
            }
        }
    }

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
