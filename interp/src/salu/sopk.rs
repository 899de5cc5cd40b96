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

use wavejit_isa::gcn::{CmpDesc, CmpTy, Fields, Inst, Op, Src};

use super::operand::{read32, write32};
use crate::ctx::{bad_fields, unsupported, Ctx};
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

pub fn exec(ctx: &mut Ctx<'_>, inst: &Inst) -> Result<(), ExecErrorKind> {
    let Fields::Sopk { sdst, simm16 } = inst.fields else {
        return Err(bad_fields(inst));
    };
    let w = &mut *ctx.wave;
    let simm = simm16 as i16 as i32;
    let uimm = simm16 as u32;
    let reg = || read32(w, Src(sdst as u16), None);
    use Op::*;
    // `SCC = D cond SIMM16` (sign-extended for a signed compare, zero-extended for an
    // unsigned one): condition and type from the table (`cmp` column).
    if let Some(CmpDesc {
        cond: Some(cond),
        ty,
        ..
    }) = inst.op.compare()
    {
        let order = match ty {
            CmpTy::I32 => (reg()? as i32).cmp(&simm),
            CmpTy::U32 => reg()?.cmp(&uimm),
            _ => return Err(unsupported(inst)),
        };
        w.scc = cond.holds(Some(order)) as u32;
        return Ok(());
    }
    let new_scc = match inst.op {
        SMovkI32 => {
            write32(w, sdst, simm as u32)?;
            None
        }
        SCmovkI32 => {
            if w.scc & 1 != 0 {
                write32(w, sdst, simm as u32)?;
            }
            None
        }
        // `D = D + sext(SIMM16); SCC = signed overflow`.
        SAddkI32 => {
            let (d, o) = (reg()? as i32).overflowing_add(simm);
            write32(w, sdst, d as u32)?;
            Some(o)
        }
        // `D = D * sext(SIMM16)` (low 32 bits); SCC unchanged.
        SMulkI32 => {
            let d = (reg()? as i32).wrapping_mul(simm);
            write32(w, sdst, d as u32)?;
            None
        }
        SGetregB32 => {
            let h = HwReg::decode(simm16);
            if h.id != HW_REG_MODE {
                return Err(unsupported_hwreg(inst, h));
            }
            write32(w, sdst, h.get(w.mode))?;
            None
        }
        SSetregB32 | SSetregImm32B32 => {
            let h = HwReg::decode(simm16);
            if h.id != HW_REG_MODE {
                return Err(unsupported_hwreg(inst, h));
            }
            let v = if inst.op == SSetregB32 {
                reg()?
            } else {
                inst.literal.ok_or_else(|| {
                    ExecErrorKind::BadOperand("s_setreg_imm32_b32 without its literal dword".into())
                })?
            };
            w.mode = h.set(w.mode, v);
            None
        }
        // s_cbranch_i_fork needs the control stack, which is not modelled.
        _ => return Err(unsupported(inst)),
    };
    if let Some(c) = new_scc {
        w.scc = c as u32;
    }
    Ok(())
}
