//! FLAT (GCN 1.1/1.2): loads, stores and atomics at the 64-bit address in the VGPR pair
//! ADDR of each active lane (AMD CI/GCN3 ISA manuals, "Flat Memory Instructions").
//!
//! Every flat address goes to global `Memory`: the LDS and scratch apertures of real
//! hardware are not modelled (a kernel that uses flat accesses to reach LDS fails with an
//! `OutOfBounds` at that address, unless the caller mapped memory there). Loads write VDST,
//! stores read DATA, atomics take their source (and cmpswap's compare value after it) from
//! DATA and, with GLC, return the old value in VDST. TFE is `Unsupported`.

use wavejit_isa::gcn::FlatFields;
use wavejit_isa::gcn::{Fields, Inst, Op};
use wavejit_isa::state::LANES;

use super::access::{active_lanes, lane_fault, misaligned, vregs};
use super::atomic::{global_rmw, vmem_atomic, GlobalAtomicError};
use super::mubuf::{atomic_data, atomic_regs, write_return};
use crate::ctx::{bad_fields, unsupported, Ctx};
use crate::error::ExecErrorKind;

enum Kind {
    Load { size: u32, sext: bool },
    Store { size: u32 },
}

fn kind(op: Op) -> Option<Kind> {
    use Kind::*;
    use Op::*;
    Some(match op {
        FlatLoadUbyte => Load {
            size: 1,
            sext: false,
        },
        FlatLoadSbyte => Load {
            size: 1,
            sext: true,
        },
        FlatLoadUshort => Load {
            size: 2,
            sext: false,
        },
        FlatLoadSshort => Load {
            size: 2,
            sext: true,
        },
        FlatLoadDword => Load {
            size: 4,
            sext: false,
        },
        FlatLoadDwordx2 => Load {
            size: 8,
            sext: false,
        },
        FlatLoadDwordx3 => Load {
            size: 12,
            sext: false,
        },
        FlatLoadDwordx4 => Load {
            size: 16,
            sext: false,
        },
        FlatStoreByte => Store { size: 1 },
        FlatStoreShort => Store { size: 2 },
        FlatStoreDword => Store { size: 4 },
        FlatStoreDwordx2 => Store { size: 8 },
        FlatStoreDwordx3 => Store { size: 12 },
        FlatStoreDwordx4 => Store { size: 16 },
        _ => return None,
    })
}

/// Bytes per active lane (`super::access::Traffic`).
pub(crate) fn traffic(inst: &Inst) -> Option<super::access::Traffic> {
    let glc = matches!(inst.fields, Fields::Flat(FlatFields { glc: true, .. }));
    let (read, write) = match kind(inst.op) {
        Some(Kind::Load { size, .. }) => (size, 0),
        Some(Kind::Store { size }) => (0, size),
        None => {
            let (_, size) = super::atomic::vmem_atomic(inst.op)?;
            (if glc { size } else { 0 }, size)
        }
    };
    Some(super::access::Traffic {
        read,
        write,
        per_lane: true,
    })
}

pub fn exec(ctx: &mut Ctx<'_>, inst: &Inst) -> Result<(), ExecErrorKind> {
    let Fields::Flat(fl) = inst.fields else {
        return Err(bad_fields(inst));
    };
    if fl.tfe {
        return Err(ExecErrorKind::Unsupported {
            mnemonic: format!("{} tfe", inst.op.mnemonic()),
        });
    }
    let w = &mut *ctx.wave;
    let mem = ctx.mem;
    let a = vregs(fl.addr, 2)?;
    let exec = w.exec;
    let lane_addr = |w: &wavejit_isa::state::Wave, lane: usize| {
        w.vgpr[a][lane] as u64 | (w.vgpr[a + 1][lane] as u64) << 32
    };
    if let Some((op, size)) = vmem_atomic(inst.op) {
        let (src, cmp, _) = atomic_regs(fl.data, op, size)?;
        let ret = vregs(fl.vdst, (size / 4) as usize)?;
        for lane in active_lanes(exec) {
            let at = lane_addr(w, lane);
            let (x, y) = atomic_data(w, lane, src, cmp, size);
            let old = global_rmw(mem, at, op, size, x, y).map_err(|e| match e {
                GlobalAtomicError::Misaligned => {
                    misaligned(inst.op.mnemonic(), at, size as u64, Some(lane))
                }
                GlobalAtomicError::Fault(f) => lane_fault(f, lane),
            })?;
            if fl.glc {
                write_return(w, lane, ret, size, old);
            }
        }
        return Ok(());
    }
    match kind(inst.op) {
        Some(Kind::Load { size, sext }) => {
            let n = size.div_ceil(4) as usize;
            let d = vregs(fl.vdst, n)?;
            let mut out = [[0u32; LANES]; 4];
            for lane in active_lanes(exec) {
                let at = lane_addr(w, lane);
                if size == 4 {
                    // A dword as one word: `read_u32` faults as `read` of its four bytes.
                    out[0][lane] = mem.read_u32(at).map_err(|f| lane_fault(f, lane))?;
                    continue;
                }
                let mut b = [0u8; 16];
                mem.read(at, &mut b[..size as usize])
                    .map_err(|f| lane_fault(f, lane))?;
                match (size, sext) {
                    (1, false) => out[0][lane] = b[0] as u32,
                    (1, true) => out[0][lane] = b[0] as i8 as i32 as u32,
                    (2, false) => out[0][lane] = u16::from_le_bytes([b[0], b[1]]) as u32,
                    (2, true) => out[0][lane] = i16::from_le_bytes([b[0], b[1]]) as i32 as u32,
                    _ => {
                        for (i, o) in out.iter_mut().take(n).enumerate() {
                            o[lane] = u32::from_le_bytes([
                                b[4 * i],
                                b[4 * i + 1],
                                b[4 * i + 2],
                                b[4 * i + 3],
                            ]);
                        }
                    }
                }
            }
            // Written after every lane has loaded, so VDST may overlap ADDR.
            for lane in active_lanes(exec) {
                for (i, o) in out.iter().take(n).enumerate() {
                    w.vgpr[d + i][lane] = o[lane];
                }
            }
            Ok(())
        }
        Some(Kind::Store { size }) => {
            let n = size.div_ceil(4) as usize;
            let s = vregs(fl.data, n)?;
            for lane in active_lanes(exec) {
                let at = lane_addr(w, lane);
                if size == 4 {
                    // A dword as one word: `write_u32` faults as `write` of its four bytes.
                    mem.write_u32(at, w.vgpr[s][lane])
                        .map_err(|f| lane_fault(f, lane))?;
                    continue;
                }
                let mut b = [0u8; 16];
                for i in 0..n {
                    b[4 * i..4 * i + 4].copy_from_slice(&w.vgpr[s + i][lane].to_le_bytes());
                }
                mem.write(at, &b[..size as usize])
                    .map_err(|f| lane_fault(f, lane))?;
            }
            Ok(())
        }
        None => Err(unsupported(inst)),
    }
}
