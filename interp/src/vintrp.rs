//! VINTRP: barycentric interpolation of primitive attributes held in LDS
//! (001_43f5507a70f72cb4.txt, ERRATA VINTRP 1-5), in the VINTRP encoding and in GCN 1.2's
//! VOP3 encoding (including the f16 variants V_INTERP_P1LL_F16, V_INTERP_P1LV_F16 and
//! V_INTERP_P2_F16 with their `high` half select).
//!
//! * M0[15:0] is the LDS byte offset of the parameter block; M0[30:16] is NEWPRIMMASK: bit
//!   i set means quad i+1 starts a new primitive. `PRIMID(q)` = number of NEWPRIMMASK bits
//!   set below bit q; `NUMPRIM` = popcount(NEWPRIMMASK) + 1.
//! * The parameters of (attribute, primitive) are 12 dwords at dword
//!   `12 × (ATTR × NUMPRIM + PRIMID)`: P0.x P10.x P0.y P10.y P0.z P10.z P0.w P10.w P20.x
//!   P20.y P20.z P20.w; the byte address is `M0[15:0] + 4 × dword` (ERRATA VINTRP 3). A
//!   read outside LDS is an error of the run.
//! * P1: `D = P0 + I × P10`; P2: `D = D + J × P20`; MOV: `D = P0 | P10 | P20` (a move).
//!   The multiply-adds are unfused (rounded after the multiply, as V_MAD_F32), in f32 under
//!   MODE. The f16 variants read f16 parameters from the low (or, with `high`, the high)
//!   half of their dword, widen them exactly to f32 and compute as the f32 forms;
//!   V_INTERP_P2_F16 rounds its f32 result to f16 (MODE's f16 direction), written to the
//!   low half with the high half zero.
//! * Sources are read for every lane before VDST is written (ERRATA VINTRP 5).

use wavejit_isa::gcn::operand::InterpAttr;
use wavejit_isa::gcn::{Enc, Fields, Inst, Op};
use wavejit_isa::state::{Lds, LANES};

use crate::ctx::Ctx;
use crate::error::ExecErrorKind;
use crate::float::{self, Mode, F16, F32};

/// Whether `op` is an interpolation operation (either encoding).
pub fn is_interp(op: Op) -> bool {
    matches!(
        op,
        Op::VInterpP1F32
            | Op::VInterpP2F32
            | Op::VInterpMovF32
            | Op::VInterpP1llF16
            | Op::VInterpP1lvF16
            | Op::VInterpP2F16
    )
}

/// The primitive of quad `q` (0-15) under NEWPRIMMASK `mask` (ERRATA VINTRP 2).
pub fn prim_id(mask: u32, q: usize) -> u32 {
    (mask & ((1u32 << (q & 15)) - 1)).count_ones()
}

/// The number of primitives of the wave.
pub fn num_prim(mask: u32) -> u32 {
    mask.count_ones() + 1
}

/// NEWPRIMMASK from M0 (bits 30:16).
pub fn new_prim_mask(m0: u32) -> u32 {
    (m0 >> 16) & 0x7FFF
}

/// The dword index (from M0's offset) of a parameter of `lane`: `which` 0 = P0, 1 = P10,
/// 2 = P20.
pub fn param_dword(m0: u32, attr: u32, chan: u32, which: u32, lane: usize) -> u32 {
    let mask = new_prim_mask(m0);
    let s = 12 * (attr * num_prim(mask) + prim_id(mask, lane / 4));
    s + match which {
        0 => chan * 2,
        1 => chan * 2 + 1,
        _ => chan + 8,
    }
}

/// Read a parameter dword of `lane` from LDS.
fn read_param(
    lds: &Lds,
    m0: u32,
    attr: u32,
    chan: u32,
    which: u32,
    lane: usize,
) -> Result<u32, ExecErrorKind> {
    let dw = param_dword(m0, attr, chan, which, lane);
    let addr = (m0 & 0xFFFF) as u64 + 4 * dw as u64;
    let a32 = u32::try_from(addr).map_err(|_| ExecErrorKind::OutOfBounds {
        space: wavejit_isa::state::Space::Lds,
        addr,
        size: 4,
        lane: Some(lane as u8),
    })?;
    lds.read_u32(a32)
        .map_err(|f| ExecErrorKind::fault(f, Some(lane as u8)))
}

/// `a + b × c`, unfused, in f32 under MODE.
fn mad(a: u32, b: u32, c: u32, m: Mode) -> u32 {
    float::add(m.fp32(), float::mul(m.fp32(), b as u64, c as u64), a as u64) as u32
}

/// An f16 half of a dword widened to f32 (exact; f16 denormals flushed per MODE).
fn half(x: u32, high: bool, m: Mode) -> u32 {
    let h = if high { x >> 16 } else { x & 0xFFFF };
    float::convert(F16, m.fp16().flush_in, m.fp32().keep_denormals(), h as u64) as u32
}

/// Operands of one interpolation instruction, from either encoding.
struct Interp {
    op: Op,
    vdst: u8,
    /// The I/J coordinate VGPR (P1/P2), or the parameter for MOV (0 P10, 1 P20, 2 P0).
    vsrc: u16,
    /// V_INTERP_P1LV_F16 / V_INTERP_P2_F16's extra VGPR.
    vsrc1: Option<u8>,
    attr: u32,
    chan: u32,
    high: bool,
    neg: u8,
    abs: u8,
    clamp: bool,
    omod: u8,
}

fn operands(inst: &Inst) -> Result<Interp, ExecErrorKind> {
    let bad = || {
        ExecErrorKind::BadOperand(format!(
            "`{}` with {:?} fields",
            inst.op.mnemonic(),
            inst.fields
        ))
    };
    match (inst.enc, inst.fields) {
        (Enc::Vintrp, Fields::Vintrp(f)) => Ok(Interp {
            op: inst.op,
            vdst: f.vdst,
            vsrc: if inst.op == Op::VInterpMovF32 {
                f.vsrc as u16
            } else {
                256 + f.vsrc as u16
            },
            vsrc1: None,
            attr: f.attr as u32 & 63,
            chan: f.chan as u32 & 3,
            high: false,
            neg: 0,
            abs: 0,
            clamp: false,
            omod: 0,
        }),
        (Enc::Vop3, Fields::Vop3(f)) => {
            let a = InterpAttr::from_src(f.src[0]);
            let vsrc1 = match inst.op {
                Op::VInterpP1lvF16 | Op::VInterpP2F16 => Some(f.src[2].as_vgpr().ok_or_else(bad)?),
                _ => None,
            };
            Ok(Interp {
                op: inst.op,
                vdst: f.vdst,
                vsrc: f.src[1].0,
                vsrc1,
                attr: a.attr as u32,
                chan: a.chan as u32,
                high: a.high,
                neg: f.neg,
                abs: f.abs,
                clamp: f.clamp,
                omod: f.omod,
            })
        }
        _ => Err(bad()),
    }
}

/// Execute one VINTRP instruction (or GCN 1.2's VOP3 form of one).
pub fn exec(ctx: &mut Ctx<'_>, inst: &Inst) -> Result<(), ExecErrorKind> {
    let ip = operands(inst)?;
    let w = &*ctx.wave;
    let m = Mode(w.mode);
    let m0 = w.m0;
    let exec = w.exec;
    let lds = &*ctx.lds;
    // The coordinate (VGPR) of P1/P2, with VOP3's ABS/NEG of source 1.
    let coord = |lane: usize| -> Result<u32, ExecErrorKind> {
        let n = (ip.vsrc.checked_sub(256))
            .filter(|n| *n < 256)
            .ok_or_else(|| {
                ExecErrorKind::BadOperand(format!("`{}` needs a VGPR coordinate", ip.op.mnemonic()))
            })?;
        let mut x = w.vgpr[n as usize][lane];
        if ip.abs & 2 != 0 {
            x &= 0x7FFF_FFFF;
        }
        if ip.neg & 2 != 0 {
            x ^= 0x8000_0000;
        }
        Ok(x)
    };
    let extra = |lane: usize| -> u32 {
        let x = ip.vsrc1.map_or(0, |r| w.vgpr[r as usize][lane]);
        let (a, n) = (ip.abs & 4 != 0, ip.neg & 4 != 0);
        // The f32 P1 result of P2_F16, or the f16 half holding P0 of P1LV_F16.
        let sign = if ip.op == Op::VInterpP2F16 || ip.high {
            0x8000_0000
        } else {
            0x8000
        };
        let x = if a { x & !sign } else { x };
        if n {
            x ^ sign
        } else {
            x
        }
    };
    let param = |which: u32, lane: usize| read_param(lds, m0, ip.attr, ip.chan, which, lane);
    let mut out = [0u32; LANES];
    for (lane, o) in out.iter_mut().enumerate() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let d = w.vgpr[ip.vdst as usize][lane];
        *o = match ip.op {
            Op::VInterpP1F32 => mad(param(0, lane)?, coord(lane)?, param(1, lane)?, m),
            Op::VInterpP2F32 => mad(d, coord(lane)?, param(2, lane)?, m),
            Op::VInterpMovF32 => match ip.vsrc {
                0 => param(1, lane)?,
                1 => param(2, lane)?,
                2 => param(0, lane)?,
                p => {
                    return Err(ExecErrorKind::BadOperand(format!(
                        "V_INTERP_MOV parameter {p}"
                    )))
                }
            },
            Op::VInterpP1llF16 => mad(
                half(param(0, lane)?, ip.high, m),
                coord(lane)?,
                half(param(1, lane)?, ip.high, m),
                m,
            ),
            Op::VInterpP1lvF16 => mad(
                half(extra(lane), ip.high, m),
                coord(lane)?,
                half(param(1, lane)?, ip.high, m),
                m,
            ),
            Op::VInterpP2F16 => {
                let r = mad(
                    extra(lane),
                    coord(lane)?,
                    half(param(2, lane)?, ip.high, m),
                    m,
                );
                float::convert(F32, m.fp32().flush_in, m.fp16(), r as u64) as u32
            }
            _ => {
                return Err(ExecErrorKind::Unsupported {
                    mnemonic: ip.op.mnemonic().into(),
                })
            }
        };
        if ip.op != Op::VInterpMovF32 && (ip.clamp || ip.omod != 0) {
            let (fp, bits) = if ip.op == Op::VInterpP2F16 {
                (m.fp16(), *o as u64)
            } else {
                (m.fp32(), *o as u64)
            };
            *o = float::omod_clamp(fp, m, bits, ip.omod, ip.clamp) as u32;
        }
    }
    for (lane, o) in out.iter().enumerate() {
        if exec >> lane & 1 != 0 {
            ctx.wave.vgpr[ip.vdst as usize][lane] = *o;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitive_ids_of_the_spec_example() {
        // 001: NEWPRIMMASK 0b1010011 → lanes 0-3 prim 0, 4-7 prim 1, 8-19 prim 2,
        // 20-27 prim 3, 28-63 prim 4.
        let mask = 0b101_0011;
        let want = |lane: usize| match lane {
            0..=3 => 0,
            4..=7 => 1,
            8..=19 => 2,
            20..=27 => 3,
            _ => 4,
        };
        for lane in 0..64 {
            assert_eq!(prim_id(mask, lane / 4), want(lane), "lane {lane}");
        }
        assert_eq!(num_prim(mask), 5);
    }
}
