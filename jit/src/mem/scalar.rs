//! Scalar loads inline: `s_load_dword{,x2,x4,x8,x16}` of SMRD (GCN 1.0/1.1) and SMEM
//! (GCN 1.2) (`wavejit_interp::mem::smem` defines them): address = SGPR pair + offset with
//! its two low bits cleared, the dwords into consecutive SGPRs. One address per
//! instruction, checked with the global region cache (`global::region_delta`).
//!
//! Lowered only when the base pair, the offset register and the destinations are plain
//! SGPRs (not VCC, M0, EXEC or a constant); buffer loads and stores stay with the helper.

use cranelift_codegen::ir::types;
use cranelift_codegen::ir::InstBuilder;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Inst, Op, SmemOffset};

use super::access::{host_flags, At};
use super::global::region_delta;
use crate::block::Cx;

/// SGPRs below this are plain registers on every generation (GCN 1.2 has 102).
const PLAIN_SGPRS: u32 = 102;

/// Where the offset comes from.
#[derive(Clone, Copy, Debug)]
pub enum SOffset {
    /// Bytes.
    Imm(u64),
    /// An SGPR holding bytes.
    Sgpr(u8),
}

/// A scalar load lowered inline.
#[derive(Clone, Copy, Debug)]
pub struct SmemPlan {
    pub sdst: u8,
    pub sbase: u8,
    pub offset: SOffset,
    pub dwords: u32,
}

fn dwords(op: Op) -> Option<u32> {
    use Op::*;
    Some(match op {
        SLoadDword => 1,
        SLoadDwordx2 => 2,
        SLoadDwordx4 => 4,
        SLoadDwordx8 => 8,
        SLoadDwordx16 => 16,
        _ => return None,
    })
}

/// Plan a scalar load.
pub fn plan(gen: Gen, inst: &Inst) -> Option<SmemPlan> {
    let n = dwords(inst.op)?;
    let m = inst.scalar_mem(gen)?;
    let (sdst, sbase) = (m.sdata, m.sbase);
    let offset = match m.offset {
        SmemOffset::Bytes(b) => SOffset::Imm(b),
        SmemOffset::Sgpr(r) if (r as u32) < PLAIN_SGPRS => SOffset::Sgpr(r),
        SmemOffset::Sgpr(_) => return None,
    };
    if sbase as u32 + 2 > PLAIN_SGPRS || sdst as u32 + n > PLAIN_SGPRS {
        return None;
    }
    Some(SmemPlan {
        sdst,
        sbase,
        offset,
        dwords: n,
    })
}

/// Emit a scalar load.
pub fn emit(cx: &mut Cx, p: &SmemPlan, at: At) {
    let base = cx.sreg64(p.sbase);
    let addr = match p.offset {
        SOffset::Imm(k) => cx.b.ins().iadd_imm_s(base, k as i64),
        SOffset::Sgpr(s) => {
            let o = cx.sreg(s);
            let o = cx.b.ins().uextend(types::I64, o);
            cx.b.ins().iadd(base, o)
        }
    };
    let addr = cx.b.ins().band_imm_u(addr, !3u64 as i64);
    // A span that wraps past 2^64 gives `end < lo`: never a hit, and `mem_span` refuses it.
    let end = cx.b.ins().iadd_imm_s(addr, 4 * p.dwords as i64);
    let delta = region_delta(cx, addr, end, at, super::global::SCALAR_SLOT);
    let host = cx.b.ins().iadd(addr, delta);
    for i in 0..p.dwords {
        let v =
            cx.b.ins()
                .load(types::I32, host_flags(), host, 4 * i as i32);
        cx.set_sreg(p.sdst + i as u8, v);
    }
}
