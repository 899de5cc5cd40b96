//! MUBUF: untyped buffer loads, stores and atomics through a buffer resource (AMD
//! SI/CI/GCN3 ISA manuals, "Vector Memory Buffer Instructions").
//!
//! Per active lane:
//! - index = (IDXEN ? VGPR[VADDR] : 0) + (ADD_TID_ENABLE ? lane : 0);
//! - offset = (OFFEN ? VGPR[VADDR + IDXEN] : 0) + OFFSET (the 12-bit field);
//! - address = BASE + SOFFSET + index × STRIDE + offset, or with SWIZZLE_EN the
//!   interleaved layout of `Resource::buffer_offset` (each dword of a multi-dword access
//!   placed on its own, as the swizzle may separate them);
//! - ADDR64 (GCN 1.0/1.1): address = BASE + VGPR pair [VADDR] + SOFFSET + OFFSET, and no
//!   range check.
//!
//! Range check (see `Resource::in_range`): a load of an out-of-range dword gives 0, a store
//! of one is dropped, an out-of-range atomic does nothing and returns 0 — as the hardware
//! does. An in-range address that is not mapped in `Memory` is an `OutOfBounds` error
//! with the lane.
//!
//! `format` loads/stores run when the resource's format is made of 32-bit components
//! (DATA_FORMAT 32, 32_32, 32_32_32, 32_32_32_32 with NUM_FORMAT UINT, SINT or FLOAT) with
//! at least as many components as the instruction moves, and loads see them through the
//! identity DST_SEL: then they are dword loads/stores. Other formats, TFE, LDS-direct loads, the float atomics of GCN 1.0/1.1 and the d16
//! formats of GCN 1.2 are `Unsupported`. GLC/SLC only steer caches, except that GLC makes
//! an atomic return the old value.

use wavejit_isa::gcn::BufferFields;
use wavejit_isa::gcn::{Fields, Inst, Op};
use wavejit_isa::state::LANES;
use wavejit_isa::Gen;

use super::access::{active_lanes, lane_fault, misaligned, vreg, vregs};
use super::atomic::{global_rmw, vmem_atomic, AtomicOp, GlobalAtomicError};
use super::buffer::{dword_components, raw_num_format, Resource};
use crate::ctx::{bad_fields, unsupported, Ctx};
use crate::error::ExecErrorKind;
use crate::salu::operand::{read32, read_n};

/// How a lane's address is formed.
#[derive(Clone, Copy)]
enum Lane {
    /// GCN 1.0/1.1 ADDR64: the address of byte 0, not range-checked.
    Addr64(u64),
    /// A record index and byte offset in the buffer.
    Buffer { index: u64, off: u64 },
}

/// What a MUBUF operation moves (the JIT's inline lowering reads it too, so that each
/// operation's size, extension and format are stated once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `size` bytes (1, 2, or 4 × dwords) into VDATA; sub-dword loads extend per `sext`.
    Load {
        size: u32,
        sext: bool,
        format: bool,
    },
    Store {
        size: u32,
        format: bool,
    },
    Atomic {
        op: AtomicOp,
        size: u32,
    },
    /// Cache write-back/invalidate: nothing to do without caches.
    CacheOp,
}

/// What `op` moves (`None`: not a MUBUF operation the interpreter runs).
pub fn kind(op: Op) -> Option<Kind> {
    use Kind::*;
    use Op::*;
    let ld = |size, sext, format| Load { size, sext, format };
    let st = |size, format| Store { size, format };
    Some(match op {
        BufferLoadFormatX => ld(4, false, true),
        BufferLoadFormatXy => ld(8, false, true),
        BufferLoadFormatXyz => ld(12, false, true),
        BufferLoadFormatXyzw => ld(16, false, true),
        BufferStoreFormatX => st(4, true),
        BufferStoreFormatXy => st(8, true),
        BufferStoreFormatXyz => st(12, true),
        BufferStoreFormatXyzw => st(16, true),
        BufferLoadUbyte => ld(1, false, false),
        BufferLoadSbyte => ld(1, true, false),
        BufferLoadUshort => ld(2, false, false),
        BufferLoadSshort => ld(2, true, false),
        BufferLoadDword => ld(4, false, false),
        BufferLoadDwordx2 => ld(8, false, false),
        BufferLoadDwordx3 => ld(12, false, false),
        BufferLoadDwordx4 => ld(16, false, false),
        BufferStoreByte => st(1, false),
        BufferStoreShort => st(2, false),
        BufferStoreDword => st(4, false),
        BufferStoreDwordx2 => st(8, false),
        BufferStoreDwordx3 => st(12, false),
        BufferStoreDwordx4 => st(16, false),
        BufferWbinvl1 | BufferWbinvl1Sc | BufferWbinvl1Vol => CacheOp,
        other => {
            let (op, size) = vmem_atomic(other)?;
            Atomic { op, size }
        }
    })
}

/// Bytes per active lane (`super::access::Traffic`).
pub(crate) fn traffic(inst: &Inst) -> Option<super::access::Traffic> {
    let glc = matches!(inst.fields, Fields::Mubuf(BufferFields { glc: true, .. }));
    let (read, write) = match kind(inst.op)? {
        Kind::Load { size, .. } => (size, 0),
        Kind::Store { size, .. } => (0, size),
        Kind::Atomic { size, .. } => (if glc { size } else { 0 }, size),
        Kind::CacheOp => return None,
    };
    Some(super::access::Traffic {
        read,
        write,
        per_lane: true,
    })
}

/// Check that a format instruction moving `count` components can run as dword accesses.
fn check_format(inst: &Inst, r: &Resource, count: usize, load: bool) -> Result<(), ExecErrorKind> {
    let comps = dword_components(r.data_format);
    let identity = (0..count).all(|k| r.dst_sel[k] as usize == 4 + k);
    if comps.is_some_and(|c| c >= count) && raw_num_format(r.num_format) && (!load || identity) {
        Ok(())
    } else {
        Err(ExecErrorKind::Unsupported {
            mnemonic: format!(
                "{} with DATA_FORMAT {} NUM_FORMAT {} DST_SEL {:?}",
                inst.op.mnemonic(),
                r.data_format,
                r.num_format,
                r.dst_sel
            ),
        })
    }
}

pub fn exec(ctx: &mut Ctx<'_>, inst: &Inst) -> Result<(), ExecErrorKind> {
    let Fields::Mubuf(mb) = inst.fields else {
        return Err(bad_fields(inst));
    };
    let Some(k) = kind(inst.op) else {
        return Err(unsupported(inst));
    };
    if k == Kind::CacheOp {
        return Ok(());
    }
    let flag = |f: &str| ExecErrorKind::Unsupported {
        mnemonic: format!("{} {f}", inst.op.mnemonic()),
    };
    if mb.tfe {
        return Err(flag("tfe"));
    }
    if mb.lds {
        return Err(flag("lds"));
    }
    let w = &mut *ctx.wave;
    if mb.addr64 && (w.gen == Gen::Gfx8 || mb.offen || mb.idxen) {
        return Err(ExecErrorKind::BadOperand(format!(
            "{}: addr64 exists only on GCN 1.0/1.1 and excludes offen/idxen",
            inst.op.mnemonic()
        )));
    }
    let r = Resource::decode(read_n::<4>(w, mb.srsrc)?);
    let soff = read32(w, mb.soffset, None)? as u64;
    let inst_off = (mb.offset & 0xfff) as u64;
    // VGPRs the address needs: a pair for addr64, index and/or offset otherwise.
    let vaddr_regs = if mb.addr64 {
        2
    } else {
        mb.idxen as usize + mb.offen as usize
    };
    vregs(mb.vaddr, vaddr_regs)?;
    let vaddr = mb.vaddr as usize;
    let off_reg = vaddr + mb.idxen as usize;

    // Per lane: what addresses its bytes — `Addr64` (no range check) or a buffer index and
    // offset (range-checked, possibly swizzled).
    let lane_base = |w: &wavejit_isa::state::Wave, lane: usize| -> Lane {
        if mb.addr64 {
            let va = w.vgpr[vaddr][lane] as u64 | (w.vgpr[vaddr + 1][lane] as u64) << 32;
            Lane::Addr64(
                r.base
                    .wrapping_add(va)
                    .wrapping_add(soff)
                    .wrapping_add(inst_off),
            )
        } else {
            let index = if mb.idxen {
                w.vgpr[vaddr][lane] as u64
            } else {
                0
            } + if r.add_tid { lane as u64 } else { 0 };
            let off = if mb.offen {
                w.vgpr[off_reg][lane] as u64
            } else {
                0
            } + inst_off;
            Lane::Buffer { index, off }
        }
    };
    // The address of the `size` bytes at `rel` past the lane's start, or `None` when the
    // range check fails.
    let at = |l: Lane, rel: u64, size: u64| -> Option<u64> {
        match l {
            Lane::Addr64(a) => Some(a.wrapping_add(rel)),
            Lane::Buffer { index, off } => r.in_range(index, off + rel, size).then(|| {
                r.base
                    .wrapping_add(soff)
                    .wrapping_add(r.buffer_offset(index, off + rel))
            }),
        }
    };
    let exec = w.exec;
    let mem = ctx.mem;
    match k {
        Kind::Load { size, sext, format } => {
            let n = size.div_ceil(4) as usize;
            if format {
                check_format(inst, &r, n, true)?;
            }
            let d = vregs(mb.vdata, n)?;
            let mut out = [[0u32; LANES]; 4];
            for lane in active_lanes(exec) {
                let l = lane_base(w, lane);
                if size < 4 {
                    if let Some(a) = at(l, 0, size as u64) {
                        let mut b = [0u8; 2];
                        mem.read(a, &mut b[..size as usize])
                            .map_err(|f| lane_fault(f, lane))?;
                        out[0][lane] = match (size, sext) {
                            (1, false) => b[0] as u32,
                            (1, true) => b[0] as i8 as i32 as u32,
                            (_, false) => u16::from_le_bytes(b) as u32,
                            (_, true) => i16::from_le_bytes(b) as i32 as u32,
                        };
                    }
                    continue;
                }
                for (i, o) in out.iter_mut().take(n).enumerate() {
                    if let Some(a) = at(l, 4 * i as u64, 4) {
                        o[lane] = mem.read_u32(a).map_err(|f| lane_fault(f, lane))?;
                    }
                }
            }
            // Written after every lane has loaded, so VDATA may overlap VADDR.
            for lane in active_lanes(exec) {
                for (i, o) in out.iter().take(n).enumerate() {
                    w.vgpr[d + i][lane] = o[lane];
                }
            }
        }
        Kind::Store { size, format } => {
            let n = size.div_ceil(4) as usize;
            if format {
                check_format(inst, &r, n, false)?;
            }
            let s = vregs(mb.vdata, n)?;
            for lane in active_lanes(exec) {
                let l = lane_base(w, lane);
                if size < 4 {
                    if let Some(a) = at(l, 0, size as u64) {
                        let b = w.vgpr[s][lane].to_le_bytes();
                        mem.write(a, &b[..size as usize])
                            .map_err(|f| lane_fault(f, lane))?;
                    }
                    continue;
                }
                for i in 0..n {
                    if let Some(a) = at(l, 4 * i as u64, 4) {
                        mem.write_u32(a, w.vgpr[s + i][lane])
                            .map_err(|f| lane_fault(f, lane))?;
                    }
                }
            }
        }
        Kind::Atomic { op, size } => {
            let (src, cmp, ret) = atomic_regs(mb.vdata, op, size)?;
            for lane in active_lanes(exec) {
                let l = lane_base(w, lane);
                let (x, y) = atomic_data(w, lane, src, cmp, size);
                let old = if let Some(a) = at(l, 0, size as u64) {
                    global_rmw(mem, a, op, size, x, y).map_err(|e| match e {
                        GlobalAtomicError::Misaligned => {
                            misaligned(inst.op.mnemonic(), a, size as u64, Some(lane))
                        }
                        GlobalAtomicError::Fault(f) => lane_fault(f, lane),
                    })?
                } else {
                    0
                };
                if mb.glc {
                    write_return(w, lane, ret, size, old);
                }
            }
        }
        Kind::CacheOp => {}
    }
    Ok(())
}

/// Registers of an atomic's data: (source, compare, return). The source is the first
/// VGPR (pair); cmpswap's compare value follows it; the old value returns to the first.
pub(crate) fn atomic_regs(
    data: u8,
    op: AtomicOp,
    size: u32,
) -> Result<(usize, usize, usize), ExecErrorKind> {
    let n = (size / 4) as usize;
    let total = if op == AtomicOp::CmpSwap { 2 * n } else { n };
    let s = vregs(data, total)?;
    let cmp = if op == AtomicOp::CmpSwap {
        vreg(data, n)?
    } else {
        s
    };
    Ok((s, cmp, s))
}

/// The (source, compare) values of a lane, 32 or 64 bits.
pub(crate) fn atomic_data(
    w: &wavejit_isa::state::Wave,
    lane: usize,
    src: usize,
    cmp: usize,
    size: u32,
) -> (u64, u64) {
    let get = |r: usize| -> u64 {
        if size == 4 {
            w.vgpr[r][lane] as u64
        } else {
            w.vgpr[r][lane] as u64 | (w.vgpr[(r + 1).min(255)][lane] as u64) << 32
        }
    };
    (get(src), get(cmp))
}

/// Write an atomic's old value to the return register(s) of a lane.
pub(crate) fn write_return(
    w: &mut wavejit_isa::state::Wave,
    lane: usize,
    ret: usize,
    size: u32,
    old: u64,
) {
    w.vgpr[ret][lane] = old as u32;
    if size == 8 {
        if let Some(r) = w.vgpr.get_mut(ret + 1) {
            r[lane] = (old >> 32) as u32;
        }
    }
}
