//! SOPC: scalar compares (AMD SI/CI/GCN3 ISA manuals, "SOPC Instructions"). Each writes
//! only SCC. The compares' condition and type come from the table (`cmp` column,
//! `Op::compare`); the bit tests are written here.

use wavejit_isa::gcn::{CmpDesc, CmpTy, Fields, Inst, Op};

use super::operand::{read32, read64};
use crate::ctx::{bad_fields, unsupported, Ctx};
use crate::error::ExecErrorKind;

pub fn exec(ctx: &mut Ctx<'_>, inst: &Inst) -> Result<(), ExecErrorKind> {
    let Fields::Sopc { ssrc0, ssrc1 } = inst.fields else {
        return Err(bad_fields(inst));
    };
    let w = &*ctx.wave;
    let lit = inst.literal;
    let a = || read32(w, ssrc0, lit);
    let b = || read32(w, ssrc1, lit);
    if let Some(CmpDesc {
        cond: Some(cond),
        ty,
        ..
    }) = inst.op.compare()
    {
        // `SCC = S0 cond S1`, signed or unsigned, 32 or (GCN 1.2) 64 bits.
        let order = match ty {
            CmpTy::I32 => (a()? as i32).cmp(&(b()? as i32)),
            CmpTy::U32 => a()?.cmp(&b()?),
            CmpTy::U64 => read64(w, ssrc0, lit)?.cmp(&read64(w, ssrc1, lit)?),
            _ => return Err(unsupported(inst)),
        };
        ctx.wave.scc = cond.holds(Some(order)) as u32;
        return Ok(());
    }
    use Op::*;
    let scc = match inst.op {
        // `SCC = S0[S1[4:0]] == 0` / `== 1`.
        SBitcmp0B32 => (a()? >> (b()? & 31)) & 1 == 0,
        SBitcmp1B32 => (a()? >> (b()? & 31)) & 1 == 1,
        // `SCC = S0[S1[5:0]] == 0` / `== 1` on a 64-bit S0.
        SBitcmp0B64 => (read64(w, ssrc0, lit)? >> (b()? & 63)) & 1 == 0,
        SBitcmp1B64 => (read64(w, ssrc0, lit)? >> (b()? & 63)) & 1 == 1,
        // s_setvskip (vector-skip mode) and s_set_gpr_idx_on (VGPR indexing mode) change
        // how later vector instructions execute; neither mode is modelled.
        _ => return Err(unsupported(inst)),
    };
    ctx.wave.scc = scc as u32;
    Ok(())
}
