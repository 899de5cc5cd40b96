//! SOPC: scalar compares (AMD SI/CI/GCN3 ISA manuals, "SOPC Instructions"). Each writes
//! only SCC.

use wavejit_isa::gcn::{Fields, Inst, Op};

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
    let si = |f: fn(i32, i32) -> bool| -> Result<bool, ExecErrorKind> {
        Ok(f(a()? as i32, b()? as i32))
    };
    let ui = |f: fn(u32, u32) -> bool| -> Result<bool, ExecErrorKind> { Ok(f(a()?, b()?)) };
    use Op::*;
    let scc = match inst.op {
        SCmpEqI32 => si(|x, y| x == y)?,
        SCmpLgI32 => si(|x, y| x != y)?,
        SCmpGtI32 => si(|x, y| x > y)?,
        SCmpGeI32 => si(|x, y| x >= y)?,
        SCmpLtI32 => si(|x, y| x < y)?,
        SCmpLeI32 => si(|x, y| x <= y)?,
        SCmpEqU32 => ui(|x, y| x == y)?,
        SCmpLgU32 => ui(|x, y| x != y)?,
        SCmpGtU32 => ui(|x, y| x > y)?,
        SCmpGeU32 => ui(|x, y| x >= y)?,
        SCmpLtU32 => ui(|x, y| x < y)?,
        SCmpLeU32 => ui(|x, y| x <= y)?,
        // `SCC = S0[S1[4:0]] == 0` / `== 1`.
        SBitcmp0B32 => (a()? >> (b()? & 31)) & 1 == 0,
        SBitcmp1B32 => (a()? >> (b()? & 31)) & 1 == 1,
        // `SCC = S0[S1[5:0]] == 0` / `== 1` on a 64-bit S0.
        SBitcmp0B64 => (read64(w, ssrc0, lit)? >> (b()? & 63)) & 1 == 0,
        SBitcmp1B64 => (read64(w, ssrc0, lit)? >> (b()? & 63)) & 1 == 1,
        // GCN 1.2: 64-bit equality.
        SCmpEqU64 => read64(w, ssrc0, lit)? == read64(w, ssrc1, lit)?,
        SCmpLgU64 => read64(w, ssrc0, lit)? != read64(w, ssrc1, lit)?,
        // s_setvskip (vector-skip mode) and s_set_gpr_idx_on (VGPR indexing mode) change
        // how later vector instructions execute; neither mode is modelled.
        _ => return Err(unsupported(inst)),
    };
    ctx.wave.scc = scc as u32;
    Ok(())
}
