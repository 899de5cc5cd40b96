//! Operations that move data between lanes or between the vector and scalar files, which
//! the per-lane driver cannot express: V_READLANE, V_WRITELANE (both ignore EXEC),
//! V_READFIRSTLANE, and the M0-relative moves V_MOVRELS/V_MOVRELD/V_MOVRELSD (under EXEC).

use wavejit_isa::state::LANES;

use super::driver::{Cx, R};
use super::operands::{lane_value, modifiers, resolve, Form, Operand, Ty};
use crate::error::ExecErrorKind;

fn bad(msg: String) -> ExecErrorKind {
    ExecErrorKind::BadOperand(msg)
}

/// The lane-select source of V_READLANE/V_WRITELANE: SRC1 (a scalar source code, also in
/// GCN 1.0/1.1's VOP2 form, whose VSRC1 field holds one).
fn lane_select(cx: &Cx) -> Result<usize, ExecErrorKind> {
    match resolve(cx.ctx.wave, &cx.v, cx.v.src[1], Ty::B32)? {
        Operand::Uniform(x) => Ok(x as usize & 63),
        Operand::Vgpr(n) => Err(bad(format!("v{n} as a lane select (a scalar is needed)"))),
    }
}

/// `SDST = VSRC0[SSRC1 & 63]` (EXEC ignored).
pub fn v_readlane_b32(cx: &mut Cx) -> R {
    let lane = lane_select(cx)?;
    let o = resolve(cx.ctx.wave, &cx.v, cx.v.src[0], Ty::B32)?;
    let x = modifiers(&cx.v, 0, Ty::B32, lane_value(cx.ctx.wave, o, Ty::B32, lane));
    cx.ctx.wave.write_sreg(cx.v.vdst & 127, x as u32);
    Ok(())
}

/// `VDST[SSRC1 & 63] = SSRC0` (EXEC ignored).
pub fn v_writelane_b32(cx: &mut Cx) -> R {
    let lane = lane_select(cx)?;
    let x = match resolve(cx.ctx.wave, &cx.v, cx.v.src[0], Ty::B32)? {
        Operand::Uniform(x) => x,
        Operand::Vgpr(n) => {
            return Err(bad(format!(
                "v{n} as V_WRITELANE's value (a scalar is needed)"
            )))
        }
    };
    let x = modifiers(&cx.v, 0, Ty::B32, x);
    cx.ctx.wave.vgpr[cx.v.vdst as usize][lane] = x as u32;
    Ok(())
}

/// `SDST = VSRC0[first lane whose EXEC bit is set]`, lane 0 when EXEC is 0.
pub fn v_readfirstlane_b32(cx: &mut Cx) -> R {
    let exec = cx.ctx.wave.exec;
    let lane = if exec == 0 {
        0
    } else {
        exec.trailing_zeros() as usize
    };
    let o = resolve(cx.ctx.wave, &cx.v, cx.v.src[0], Ty::B32)?;
    let x = modifiers(&cx.v, 0, Ty::B32, lane_value(cx.ctx.wave, o, Ty::B32, lane));
    cx.ctx.wave.write_sreg(cx.v.vdst & 127, x as u32);
    Ok(())
}

/// Which register numbers the M0-relative moves use.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Movrel {
    /// `VDST = VGPR[SRC0 + M0]`
    S,
    /// `VGPR[VDST + M0] = SRC0`
    D,
    /// `VGPR[VDST + M0] = VGPR[SRC0 + M0]`
    Sd,
}

fn offset(reg: u8, m0: u32, what: &str) -> Result<usize, ExecErrorKind> {
    let r = reg as u64 + m0 as u64;
    if r > 255 {
        return Err(bad(format!("{what} v{reg} + M0 ({m0}) is past v255")));
    }
    Ok(r as usize)
}

/// V_MOVRELS_B32 / V_MOVRELD_B32 / V_MOVRELSD_B32, under EXEC. A register index past v255
/// is an error of the run.
pub fn movrel(cx: &mut Cx, kind: Movrel) -> R {
    if matches!(cx.v.form, Form::Sdwa(_) | Form::Dpp(_)) {
        return Err(ExecErrorKind::Unsupported {
            mnemonic: format!("{} with SDWA/DPP", cx.v.op.mnemonic()),
        });
    }
    let m0 = cx.ctx.wave.m0;
    let dst = if kind == Movrel::S {
        cx.v.vdst as usize
    } else {
        offset(cx.v.vdst, m0, "destination")?
    };
    let src = match (kind, cx.v.src[0].as_vgpr()) {
        (Movrel::D, _) => resolve(cx.ctx.wave, &cx.v, cx.v.src[0], Ty::B32)?,
        (_, Some(n)) => Operand::Vgpr(offset(n, m0, "source")? as u8),
        (_, None) => return Err(bad(format!("`{}` needs a VGPR source", cx.v.op.mnemonic()))),
    };
    let exec = cx.ctx.wave.exec;
    let mut vals = [0u32; LANES];
    for (lane, v) in vals.iter_mut().enumerate() {
        *v = modifiers(
            &cx.v,
            0,
            Ty::B32,
            lane_value(cx.ctx.wave, src, Ty::B32, lane),
        ) as u32;
    }
    for (lane, v) in vals.iter().enumerate() {
        if exec >> lane & 1 != 0 {
            cx.ctx.wave.vgpr[dst][lane] = *v;
        }
    }
    Ok(())
}

/// V_MQSAD_U32_U8: a four-dword SRC2 and VDST (VGPR or SGPR quads), per lane under EXEC.
pub fn v_mqsad_u32_u8(cx: &mut Cx) -> R {
    if cx.v.vdst > 252 {
        return Err(bad(format!("v{} cannot start four registers", cx.v.vdst)));
    }
    let w = &*cx.ctx.wave;
    let a = resolve(w, &cx.v, cx.v.src[0], Ty::B64)?;
    let b = resolve(w, &cx.v, cx.v.src[1], Ty::B32)?;
    let c = cx.v.src[2];
    let quad = |lane: usize| -> Result<[u32; 4], ExecErrorKind> {
        let mut q = [0u32; 4];
        if let Some(n) = c.as_vgpr() {
            if n > 252 {
                return Err(bad(format!("v{n} cannot start four registers")));
            }
            for (i, x) in q.iter_mut().enumerate() {
                *x = w.vgpr[n as usize + i][lane];
            }
        } else if c.0 < 104 {
            for (i, x) in q.iter_mut().enumerate() {
                *x = w.read_sreg((c.0 as u8 + i as u8) & 127);
            }
        } else {
            return Err(ExecErrorKind::Unsupported {
                mnemonic: format!("v_mqsad_u32_u8 with source code {} as SRC2", c.0),
            });
        }
        Ok(q)
    };
    let mut out = [[0u32; 4]; LANES];
    let exec = w.exec;
    for (lane, o) in out.iter_mut().enumerate() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let x = modifiers(&cx.v, 0, Ty::B64, lane_value(w, a, Ty::B64, lane));
        let y = modifiers(&cx.v, 1, Ty::B32, lane_value(w, b, Ty::B32, lane));
        *o = super::vop3::v_mqsad_u32_u8(x, y as u32, quad(lane)?);
    }
    let d = cx.v.vdst as usize;
    for (lane, o) in out.iter().enumerate() {
        if exec >> lane & 1 != 0 {
            for (i, x) in o.iter().enumerate() {
                cx.ctx.wave.vgpr[d + i][lane] = *x;
            }
        }
    }
    Ok(())
}
