//! Scalar memory: SMRD (GCN 1.0/1.1) and SMEM (GCN 1.2) loads and stores into SGPRs
//! (AMD SI/CI/GCN3 ISA manuals, "Scalar Memory Operations").
//!
//! Address = SGPR pair at SBASE + offset, with its two low bits ignored (scalar accesses
//! are dword-aligned). The offset is:
//! - SMRD, IMM=1: the 8-bit field in dwords; IMM=0: the SGPR it names, in bytes; GCN 1.1's
//!   literal form (IMM=0, OFFSET=255): the literal dword, in dwords;
//! - SMEM, IMM=1: the 20-bit field in bytes; IMM=0: the SGPR in its low 8 bits, in bytes.
//!
//! `s_buffer_*` address through the buffer resource at SBASE (4 SGPRs): its base, and a
//! range check of each dword against NUM_RECORDS as a byte count: a dword past it loads
//! 0 and is not stored.
//!
//! Cache maintenance (`s_dcache_inv*`, `s_dcache_wb*`) does nothing here: there is no
//! cache, every store is visible at once. `s_memtime`, `s_memrealtime` (clocks, which would
//! make results nondeterministic) and `s_atc_probe*` are `Unsupported`.

use wavejit_isa::gcn::{Fields, Inst, Op, ScalarMem, SmemOffset, Src};

use super::buffer::Resource;
use crate::ctx::{bad_fields, unsupported, Ctx};
use crate::error::ExecErrorKind;
use crate::salu::operand::{read32, read_into, read_n, write_n};

enum Kind {
    Load,
    BufferLoad,
    Store,
    BufferStore,
}

/// (kind, dwords) of a scalar memory operation, `None` for the cache and clock operations.
fn kind(op: Op) -> Option<(Kind, usize)> {
    use Kind::*;
    use Op::*;
    Some(match op {
        SLoadDword => (Load, 1),
        SLoadDwordx2 => (Load, 2),
        SLoadDwordx4 => (Load, 4),
        SLoadDwordx8 => (Load, 8),
        SLoadDwordx16 => (Load, 16),
        SBufferLoadDword => (BufferLoad, 1),
        SBufferLoadDwordx2 => (BufferLoad, 2),
        SBufferLoadDwordx4 => (BufferLoad, 4),
        SBufferLoadDwordx8 => (BufferLoad, 8),
        SBufferLoadDwordx16 => (BufferLoad, 16),
        SStoreDword => (Store, 1),
        SStoreDwordx2 => (Store, 2),
        SStoreDwordx4 => (Store, 4),
        SBufferStoreDword => (BufferStore, 1),
        SBufferStoreDwordx2 => (BufferStore, 2),
        SBufferStoreDwordx4 => (BufferStore, 4),
        _ => return None,
    })
}

/// Bytes per instruction (`super::access::Traffic`).
pub(crate) fn traffic(inst: &Inst) -> Option<super::access::Traffic> {
    let (k, dwords) = kind(inst.op)?;
    let bytes = 4 * dwords as u32;
    let (read, write) = match k {
        Kind::Load | Kind::BufferLoad => (bytes, 0),
        Kind::Store | Kind::BufferStore => (0, bytes),
    };
    Some(super::access::Traffic {
        read,
        write,
        per_lane: false,
    })
}

pub fn exec(ctx: &mut Ctx<'_>, inst: &Inst) -> Result<(), ExecErrorKind> {
    let w = &*ctx.wave;
    if !matches!(inst.fields, Fields::Smrd(_) | Fields::Smem(_)) {
        return Err(bad_fields(inst));
    }
    let ScalarMem {
        sdata,
        sbase,
        offset,
    } = inst.scalar_mem(w.gen).ok_or_else(|| {
        ExecErrorKind::BadOperand("SMRD literal offset without its literal dword".into())
    })?;
    let offset = match offset {
        SmemOffset::Bytes(b) => b,
        SmemOffset::Sgpr(r) => read32(w, Src(r as u16), None)? as u64,
    };
    let Some((kind, n)) = kind(inst.op) else {
        return match inst.op {
            Op::SDcacheInv | Op::SDcacheInvVol | Op::SDcacheWb | Op::SDcacheWbVol => Ok(()),
            _ => Err(unsupported(inst)),
        };
    };
    let fault = |f| ExecErrorKind::fault(f, None);
    let mut vals = [0u32; 16];
    let vals = &mut vals[..n];
    match kind {
        Kind::Load | Kind::Store => {
            if sbase > 126 {
                return Err(ExecErrorKind::BadOperand(format!(
                    "SBASE s{sbase} has no pair"
                )));
            }
            let addr = w.read_sreg64(sbase).wrapping_add(offset) & !3;
            if matches!(kind, Kind::Load) {
                for (i, v) in vals.iter_mut().enumerate() {
                    *v = ctx
                        .mem
                        .read_u32(addr.wrapping_add(4 * i as u64))
                        .map_err(fault)?;
                }
                write_n(ctx.wave, sdata, vals)
            } else {
                read_into(w, sdata, vals)?;
                for (i, v) in vals.iter().enumerate() {
                    ctx.mem
                        .write_u32(addr.wrapping_add(4 * i as u64), *v)
                        .map_err(fault)?;
                }
                Ok(())
            }
        }
        Kind::BufferLoad | Kind::BufferStore => {
            let r = Resource::decode(read_n::<4>(w, sbase)?);
            let off = offset & !3;
            if matches!(kind, Kind::BufferLoad) {
                for (i, v) in vals.iter_mut().enumerate() {
                    let o = off + 4 * i as u64;
                    if r.in_range(0, o, 4) {
                        *v = ctx.mem.read_u32(r.base.wrapping_add(o)).map_err(fault)?;
                    }
                }
                write_n(ctx.wave, sdata, vals)
            } else {
                read_into(w, sdata, vals)?;
                for (i, v) in vals.iter().enumerate() {
                    let o = off + 4 * i as u64;
                    if r.in_range(0, o, 4) {
                        ctx.mem
                            .write_u32(r.base.wrapping_add(o), *v)
                            .map_err(fault)?;
                    }
                }
                Ok(())
            }
        }
    }
}
