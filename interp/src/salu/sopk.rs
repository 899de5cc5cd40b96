//! SOPK: scalar operations with a 16-bit immediate (AMD SI/CI/GCN3 ISA manuals, "SOPK
//! Instructions"), and the hardware-register moves `s_getreg_b32` / `s_setreg_b32` /
//! `s_setreg_imm32_b32`.
//!
//! The SDST field is the destination of movk/cmovk/addk/mulk/getreg, but the *source* of
//! cmpk and setreg. Signed operations sign-extend SIMM16; the `_u32` compares
//! zero-extend it.
//!
//! Hardware registers: only MODE (id 1) is modelled. Its bits are stored as written
//! (`Wave::mode`); float operations read the rounding and denormal fields from it. Every
//! other register (STATUS, TRAPSTS, HW_ID, GPR_ALLOC, LDS_ALLOC, IB_STS, …) reports
//! `Unsupported` naming it: their contents depend on hardware state this interpreter
//! does not have.

use wavejit_isa::gcn::{Fields, Inst, Src};

use super::adapt::{R, S};
use super::operand::{read32, write32};
use crate::ctx::{bad_fields, Control};
use crate::error::ExecErrorKind;

/// The hardware register a SIMM16 names: `{size - 1 [15:11], offset [10:6], id [5:0]}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HwReg {
    pub id: u16,
    pub offset: u32,
    pub size: u32,
}

/// The MODE register's id.
pub const HW_REG_MODE: u16 = 1;

impl HwReg {
    pub fn decode(simm16: u16) -> HwReg {
        HwReg {
            id: simm16 & 0x3f,
            offset: ((simm16 >> 6) & 0x1f) as u32,
            size: ((simm16 >> 11) & 0x1f) as u32 + 1,
        }
    }

    /// The bits of the register this field covers. An offset + size past bit 31 covers
    /// only the bits that exist.
    pub fn mask(self) -> u32 {
        let m = if self.size >= 32 {
            u32::MAX as u64
        } else {
            (1u64 << self.size) - 1
        };
        ((m << self.offset) & 0xffff_ffff) as u32
    }

    /// `D = (reg >> offset) & ((1 << size) - 1)`.
    pub fn get(self, reg: u32) -> u32 {
        (reg & self.mask()) >> self.offset
    }

    /// `reg[offset + size - 1 : offset] = v[size - 1 : 0]`.
    pub fn set(self, reg: u32, v: u32) -> u32 {
        let m = self.mask();
        (reg & !m) | ((((v as u64) << self.offset) as u32) & m)
    }
}

fn hwreg_name(id: u16) -> String {
    match id {
        1 => "HW_REG_MODE".into(),
        2 => "HW_REG_STATUS".into(),
        3 => "HW_REG_TRAPSTS".into(),
        4 => "HW_REG_HW_ID".into(),
        5 => "HW_REG_GPR_ALLOC".into(),
        6 => "HW_REG_LDS_ALLOC".into(),
        7 => "HW_REG_IB_STS".into(),
        n => format!("{n}"),
    }
}

fn unsupported_hwreg(inst: &Inst, h: HwReg) -> ExecErrorKind {
    ExecErrorKind::Unsupported {
        mnemonic: format!("{} hwreg({})", inst.op.mnemonic(), hwreg_name(h.id)),
    }
}

/// `D = sext(SIMM16)`.
pub fn s_movk_i32(k: i32) -> u32 {
    k as u32
}

/// `if SCC then D = sext(SIMM16)`.
pub fn s_cmovk_i32(k: i32, scc: bool) -> Option<u32> {
    scc.then_some(k as u32)
}

/// `D = D + sext(SIMM16); SCC = signed overflow`.
pub fn s_addk_i32(d: u32, k: i32) -> (u32, bool) {
    let (d, o) = (d as i32).overflowing_add(k);
    (d as u32, o)
}

/// `D = D * sext(SIMM16)` (low 32 bits); SCC unchanged.
pub fn s_mulk_i32(d: u32, k: i32) -> u32 {
    (d as i32).wrapping_mul(k) as u32
}

/// The MODE field SIMM16 names (any other register is `Unsupported`), and SDST.
fn mode_field(inst: &Inst) -> Result<(HwReg, u8), ExecErrorKind> {
    let Fields::Sopk { sdst, simm16 } = inst.fields else {
        return Err(bad_fields(inst));
    };
    let h = HwReg::decode(simm16);
    if h.id != HW_REG_MODE {
        return Err(unsupported_hwreg(inst, h));
    }
    Ok((h, sdst))
}

/// `D = the hardware register's field`.
pub fn s_getreg_b32(s: &mut S) -> R {
    let (h, sdst) = mode_field(s.inst)?;
    let w = &mut *s.ctx.wave;
    write32(w, sdst, h.get(w.mode))?;
    Ok(Control::Next)
}

/// `the hardware register's field = SDST`.
pub fn s_setreg_b32(s: &mut S) -> R {
    let (h, sdst) = mode_field(s.inst)?;
    let w = &mut *s.ctx.wave;
    let v = read32(w, Src(sdst as u16), None)?;
    w.mode = h.set(w.mode, v);
    Ok(Control::Next)
}

/// `the hardware register's field = the literal dword`.
pub fn s_setreg_imm32_b32(s: &mut S) -> R {
    let (h, _) = mode_field(s.inst)?;
    let v = s.inst.literal.ok_or_else(|| {
        ExecErrorKind::BadOperand("s_setreg_imm32_b32 without its literal dword".into())
    })?;
    let w = &mut *s.ctx.wave;
    w.mode = h.set(w.mode, v);
    Ok(Control::Next)
}
