//! DS: the local data share (AMD SI/CI/GCN3 ISA manuals, "Data Share Operations").
//!
//! Per active lane, address = VGPR[ADDR] + OFFSET, where OFFSET = OFFSET1:OFFSET0 (16 bits)
//! for one-address operations. The two-address forms (`read2`, `write2`, `wrxchg2`) use
//! ADDR + OFFSET0 × size and ADDR + OFFSET1 × size, with size the element size (4 or 8) and
//! × 64 more for the `st64` forms. Lanes run in order 0-63, so same-address atomics see
//! the lanes before them.
//!
//! Choices where the manuals are silent:
//! - Accesses must be naturally aligned (b16: 2, b32: 4, b64: 8, b96/b128: 16 bytes,
//!   two-address forms per element); a misaligned address is an error of the run, not a
//!   silently rounded address.
//! - M0's LDS size clamp (GCN 1.0/1.1) is not applied: the bound is the LDS itself.
//! - `ds_swizzle_b32` and `ds_permute/bpermute_b32` read 0 from a source lane whose EXEC
//!   bit is 0, as DPP does (ERRATA.md, VOP_DPP 1). For permute, when several lanes write
//!   one destination lane the highest-numbered wins (GCN3 manual).
//! - `ds_swizzle_b32` swizzles the VGPR in ADDR (its only VGPR operand), not DATA0: the
//!   manuals say only "swizzle(vgpr_data)", and LLVM, whose code runs on the hardware,
//!   encodes `__builtin_amdgcn_ds_swizzle`'s source there (`ds_swizzle_b32 v2, v2` is
//!   `D87A041F 02000002`: ADDR = v2, DATA0 = v0; `isa/tables/gcn.tsv` gives it `vdst,addr`).
//! - GDS, the float atomics (`ds_*_f32/f64`, `ds_add_f32`), the `src2` forms,
//!   `ds_condxchg32`, `ds_wrap`, `ds_append`/`ds_consume`, `ds_ordered_count` and the GWS
//!   operations are `Unsupported`.

use wavejit_isa::gcn::DsFields;
use wavejit_isa::gcn::{Fields, Inst, Op};
use wavejit_isa::state::{Lds, MemFault, Space, Wave, LANES};

use super::access::{active_lanes, lane_fault, misaligned, vregs};
use super::atomic::AtomicOp;
use crate::ctx::{bad_fields, unsupported, Ctx};
use crate::error::ExecErrorKind;

/// What a DS operation does, by shape (the JIT's DS lowering reads it too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Read `size` bytes into VDST (sign-extending sub-dword reads when `sext`).
    Read {
        size: u32,
        sext: bool,
    },
    /// Write the low `size` bytes of DATA0.
    Write {
        size: u32,
    },
    /// Two reads of `size` (4 or 8) bytes into VDST, VDST + size/4.
    Read2 {
        size: u32,
        st64: bool,
    },
    /// Two writes: DATA0 at OFFSET0, DATA1 at OFFSET1.
    Write2 {
        size: u32,
        st64: bool,
    },
    /// Read-modify-write of `size` (4 or 8) bytes; `rtn` returns the old value in VDST.
    Atomic {
        op: AtomicOp,
        size: u32,
        rtn: bool,
    },
    /// Two exchanges (DATA0 at OFFSET0, DATA1 at OFFSET1), returning both old values.
    Wrxchg2 {
        size: u32,
        st64: bool,
    },
    Swizzle,
    Permute,
    Bpermute,
    Nop,
}

/// The shape of DS operation `op`, or `None` for an operation not run here.
pub fn kind(op: Op) -> Option<Kind> {
    use AtomicOp as A;
    use Kind::*;
    use Op::*;
    let at = |op, size, rtn| Atomic { op, size, rtn };
    Some(match op {
        DsReadI8 => Read {
            size: 1,
            sext: true,
        },
        DsReadU8 => Read {
            size: 1,
            sext: false,
        },
        DsReadI16 => Read {
            size: 2,
            sext: true,
        },
        DsReadU16 => Read {
            size: 2,
            sext: false,
        },
        DsReadB32 => Read {
            size: 4,
            sext: false,
        },
        DsReadB64 => Read {
            size: 8,
            sext: false,
        },
        DsReadB96 => Read {
            size: 12,
            sext: false,
        },
        DsReadB128 => Read {
            size: 16,
            sext: false,
        },
        DsWriteB8 => Write { size: 1 },
        DsWriteB16 => Write { size: 2 },
        DsWriteB32 => Write { size: 4 },
        DsWriteB64 => Write { size: 8 },
        DsWriteB96 => Write { size: 12 },
        DsWriteB128 => Write { size: 16 },
        DsRead2B32 => Read2 {
            size: 4,
            st64: false,
        },
        DsRead2st64B32 => Read2 {
            size: 4,
            st64: true,
        },
        DsRead2B64 => Read2 {
            size: 8,
            st64: false,
        },
        DsRead2st64B64 => Read2 {
            size: 8,
            st64: true,
        },
        DsWrite2B32 => Write2 {
            size: 4,
            st64: false,
        },
        DsWrite2st64B32 => Write2 {
            size: 4,
            st64: true,
        },
        DsWrite2B64 => Write2 {
            size: 8,
            st64: false,
        },
        DsWrite2st64B64 => Write2 {
            size: 8,
            st64: true,
        },
        DsAddU32 => at(A::Add, 4, false),
        DsSubU32 => at(A::Sub, 4, false),
        DsRsubU32 => at(A::Rsub, 4, false),
        DsIncU32 => at(A::Inc, 4, false),
        DsDecU32 => at(A::Dec, 4, false),
        DsMinI32 => at(A::Smin, 4, false),
        DsMaxI32 => at(A::Smax, 4, false),
        DsMinU32 => at(A::Umin, 4, false),
        DsMaxU32 => at(A::Umax, 4, false),
        DsAndB32 => at(A::And, 4, false),
        DsOrB32 => at(A::Or, 4, false),
        DsXorB32 => at(A::Xor, 4, false),
        DsMskorB32 => at(A::MskOr, 4, false),
        DsCmpstB32 => at(A::CmpSwap, 4, false),
        DsAddRtnU32 => at(A::Add, 4, true),
        DsSubRtnU32 => at(A::Sub, 4, true),
        DsRsubRtnU32 => at(A::Rsub, 4, true),
        DsIncRtnU32 => at(A::Inc, 4, true),
        DsDecRtnU32 => at(A::Dec, 4, true),
        DsMinRtnI32 => at(A::Smin, 4, true),
        DsMaxRtnI32 => at(A::Smax, 4, true),
        DsMinRtnU32 => at(A::Umin, 4, true),
        DsMaxRtnU32 => at(A::Umax, 4, true),
        DsAndRtnB32 => at(A::And, 4, true),
        DsOrRtnB32 => at(A::Or, 4, true),
        DsXorRtnB32 => at(A::Xor, 4, true),
        DsMskorRtnB32 => at(A::MskOr, 4, true),
        DsWrxchgRtnB32 => at(A::Swap, 4, true),
        DsCmpstRtnB32 => at(A::CmpSwap, 4, true),
        DsAddU64 => at(A::Add, 8, false),
        DsSubU64 => at(A::Sub, 8, false),
        DsRsubU64 => at(A::Rsub, 8, false),
        DsIncU64 => at(A::Inc, 8, false),
        DsDecU64 => at(A::Dec, 8, false),
        DsMinI64 => at(A::Smin, 8, false),
        DsMaxI64 => at(A::Smax, 8, false),
        DsMinU64 => at(A::Umin, 8, false),
        DsMaxU64 => at(A::Umax, 8, false),
        DsAndB64 => at(A::And, 8, false),
        DsOrB64 => at(A::Or, 8, false),
        DsXorB64 => at(A::Xor, 8, false),
        DsMskorB64 => at(A::MskOr, 8, false),
        DsCmpstB64 => at(A::CmpSwap, 8, false),
        DsAddRtnU64 => at(A::Add, 8, true),
        DsSubRtnU64 => at(A::Sub, 8, true),
        DsRsubRtnU64 => at(A::Rsub, 8, true),
        DsIncRtnU64 => at(A::Inc, 8, true),
        DsDecRtnU64 => at(A::Dec, 8, true),
        DsMinRtnI64 => at(A::Smin, 8, true),
        DsMaxRtnI64 => at(A::Smax, 8, true),
        DsMinRtnU64 => at(A::Umin, 8, true),
        DsMaxRtnU64 => at(A::Umax, 8, true),
        DsAndRtnB64 => at(A::And, 8, true),
        DsOrRtnB64 => at(A::Or, 8, true),
        DsXorRtnB64 => at(A::Xor, 8, true),
        DsMskorRtnB64 => at(A::MskOr, 8, true),
        DsWrxchgRtnB64 => at(A::Swap, 8, true),
        DsCmpstRtnB64 => at(A::CmpSwap, 8, true),
        DsWrxchg2RtnB32 => Wrxchg2 {
            size: 4,
            st64: false,
        },
        DsWrxchg2st64RtnB32 => Wrxchg2 {
            size: 4,
            st64: true,
        },
        DsWrxchg2RtnB64 => Wrxchg2 {
            size: 8,
            st64: false,
        },
        DsWrxchg2st64RtnB64 => Wrxchg2 {
            size: 8,
            st64: true,
        },
        DsSwizzleB32 => Swizzle,
        DsPermuteB32 => Permute,
        DsBpermuteB32 => Bpermute,
        DsNop => Nop,
        _ => return None,
    })
}

/// The LDS accesses one lane of `inst` makes, as byte offsets from VGPR[ADDR] and the size
/// of each (`count` of `offsets` are used), or `None` when the instruction reads or writes
/// no LDS memory (swizzle, permute, nop, GDS, or an operation not run here). The
/// profiler's bank-conflict count reads this; `exec` below forms the same addresses.
pub fn lane_accesses(inst: &Inst) -> Option<LaneAccesses> {
    let Fields::Ds(f @ DsFields { gds: false, .. }) = inst.fields else {
        return None;
    };
    let (offset0, offset1) = (f.offset0, f.offset1);
    let one = |size| LaneAccesses {
        offsets: [f.offset() as u64, 0],
        count: 1,
        size,
    };
    let two = |size: u32, st64: bool| {
        let scale = size as u64 * if st64 { 64 } else { 1 };
        LaneAccesses {
            offsets: [offset0 as u64 * scale, offset1 as u64 * scale],
            count: 2,
            size,
        }
    };
    Some(match kind(inst.op)? {
        Kind::Read { size, .. } | Kind::Write { size } | Kind::Atomic { size, .. } => one(size),
        Kind::Read2 { size, st64 } | Kind::Write2 { size, st64 } | Kind::Wrxchg2 { size, st64 } => {
            two(size, st64)
        }
        Kind::Swizzle | Kind::Permute | Kind::Bpermute | Kind::Nop => return None,
    })
}

/// See [`lane_accesses`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneAccesses {
    pub offsets: [u64; 2],
    pub count: usize,
    /// Bytes of each access.
    pub size: u32,
}

/// Dwords that `size` bytes occupy in VGPRs.
fn dwords(size: u32) -> usize {
    size.div_ceil(4) as usize
}

/// Natural alignment the LDS requires for an access of `size` bytes.
pub fn alignment(size: u32) -> u64 {
    match size {
        1 => 1,
        2 => 2,
        4 => 4,
        8 => 8,
        _ => 16,
    }
}

/// The LDS byte address of a lane's access, checked for alignment.
#[inline]
fn lds_addr(
    base: u32,
    offset: u64,
    size: u32,
    lane: usize,
    what: &str,
) -> Result<u64, ExecErrorKind> {
    let a = base as u64 + offset;
    let align = alignment(size);
    if a & (align - 1) != 0 {
        return Err(misaligned(what, a, align, Some(lane)));
    }
    Ok(a)
}

fn lds_fault(addr: u64, size: u32, lane: usize) -> ExecErrorKind {
    lane_fault(
        MemFault {
            space: Space::Lds,
            addr,
            size,
        },
        lane,
    )
}

/// Read `out.len()` dwords at `addr` (bytes); `size` may be 1 or 2 for sub-dword reads.
fn lds_read(lds: &Lds, addr: u64, size: u32, lane: usize) -> Result<[u8; 16], ExecErrorKind> {
    let mut buf = [0u8; 16];
    // Inside LDS (nearly always): the bytes straight from it, with a copy of constant
    // length for the usual sizes. Outside, `Lds::read` names the fault.
    if let Some(src) = lds_bytes(lds, addr, size) {
        match src.len() {
            4 => buf[..4].copy_from_slice(src),
            8 => buf[..8].copy_from_slice(src),
            n => buf[..n].copy_from_slice(src),
        }
        return Ok(buf);
    }
    let a = u32::try_from(addr).map_err(|_| lds_fault(addr, size, lane))?;
    lds.read(a, &mut buf[..size as usize])
        .map_err(|f| lane_fault(f, lane))?;
    Ok(buf)
}

/// The dword of LDS at `addr` when its four bytes are inside LDS (else `lds_read` reports
/// the fault): what `lds_read` gives for a dword, without its byte buffer.
#[inline]
fn lds_dword(lds: &Lds, addr: u64) -> Option<u32> {
    let b = lds_bytes(lds, addr, 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// The `size` bytes of LDS at `addr`, when they are all inside it (`Lds::read`'s check).
#[inline]
fn lds_bytes(lds: &Lds, addr: u64, size: u32) -> Option<&[u8]> {
    let a = usize::try_from(addr).ok()?;
    lds.bytes.get(a..a.checked_add(size as usize)?)
}

fn lds_write(lds: &mut Lds, addr: u64, bytes: &[u8], lane: usize) -> Result<(), ExecErrorKind> {
    // Inside LDS: written straight (as `lds_read`).
    let end = usize::try_from(addr)
        .ok()
        .and_then(|a| Some(a..a.checked_add(bytes.len())?));
    if let Some(dst) = end.and_then(|r| lds.bytes.get_mut(r)) {
        match bytes.len() {
            4 => dst[..4].copy_from_slice(&bytes[..4]),
            8 => dst[..8].copy_from_slice(&bytes[..8]),
            _ => dst.copy_from_slice(bytes),
        }
        return Ok(());
    }
    let a = u32::try_from(addr).map_err(|_| lds_fault(addr, bytes.len() as u32, lane))?;
    lds.write(a, bytes).map_err(|f| lane_fault(f, lane))
}

fn word(b: &[u8; 16], i: usize) -> u32 {
    u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
}

/// `n` dwords of a lane from VGPRs `s`, `s + 1`, … as little-endian bytes (what a write
/// stores).
fn lane_bytes(w: &Wave, s: usize, n: usize, lane: usize) -> [u8; 16] {
    let mut b = [0u8; 16];
    for i in 0..n {
        b[4 * i..4 * i + 4].copy_from_slice(&w.vgpr[s + i][lane].to_le_bytes());
    }
    b
}

/// The two addresses of a lane of READ2/WRITE2/WRXCHG2: ADDR plus OFFSET0 and OFFSET1 in
/// units of the access size (times 64 for the ST64 forms), each checked as `lds_addr`.
#[inline]
fn pair_addrs(
    base: u32,
    offsets: [u8; 2],
    size: u32,
    st64: bool,
    lane: usize,
    what: &str,
) -> Result<[u64; 2], ExecErrorKind> {
    let scale = size as u64 * if st64 { 64 } else { 1 };
    Ok([
        lds_addr(base, offsets[0] as u64 * scale, size, lane, what)?,
        lds_addr(base, offsets[1] as u64 * scale, size, lane, what)?,
    ])
}

pub fn exec(ctx: &mut Ctx<'_>, inst: &Inst) -> Result<(), ExecErrorKind> {
    let Fields::Ds(f) = inst.fields else {
        return Err(bad_fields(inst));
    };
    if f.gds {
        return Err(ExecErrorKind::Unsupported {
            mnemonic: format!("{} gds", inst.op.mnemonic()),
        });
    }
    let Some(k) = kind(inst.op) else {
        return Err(unsupported(inst));
    };
    let what = inst.op.mnemonic();
    let offset = f.offset() as u64;
    let w = &mut *ctx.wave;
    let lds = &mut *ctx.lds;
    let exec = w.exec;
    match k {
        Kind::Nop => {}
        Kind::Read { size, sext } => {
            let n = dwords(size);
            let d = vregs(f.vdst, n)?;
            for lane in active_lanes(exec) {
                let a = lds_addr(w.vgpr[f.addr as usize][lane], offset, size, lane, what)?;
                if size == 4 {
                    if let Some(x) = lds_dword(lds, a) {
                        w.vgpr[d][lane] = x;
                        continue;
                    }
                }
                let b = lds_read(lds, a, size, lane)?;
                match (size, sext) {
                    (1, true) => w.vgpr[d][lane] = b[0] as i8 as i32 as u32,
                    (1, false) => w.vgpr[d][lane] = b[0] as u32,
                    (2, true) => w.vgpr[d][lane] = i16::from_le_bytes([b[0], b[1]]) as i32 as u32,
                    (2, false) => w.vgpr[d][lane] = u16::from_le_bytes([b[0], b[1]]) as u32,
                    _ => {
                        for i in 0..n {
                            w.vgpr[d + i][lane] = word(&b, i);
                        }
                    }
                }
            }
        }
        Kind::Write { size } => {
            let n = dwords(size);
            let s = vregs(f.data0, n)?;
            for lane in active_lanes(exec) {
                let a = lds_addr(w.vgpr[f.addr as usize][lane], offset, size, lane, what)?;
                let b = lane_bytes(w, s, n, lane);
                lds_write(lds, a, &b[..size as usize], lane)?;
            }
        }
        Kind::Read2 { size, st64 } => {
            let n = dwords(size);
            let d = vregs(f.vdst, 2 * n)?;
            for lane in active_lanes(exec) {
                let base = w.vgpr[f.addr as usize][lane];
                let [a0, a1] = pair_addrs(base, [f.offset0, f.offset1], size, st64, lane, what)?;
                if size == 4 {
                    if let (Some(x0), Some(x1)) = (lds_dword(lds, a0), lds_dword(lds, a1)) {
                        w.vgpr[d][lane] = x0;
                        w.vgpr[d + 1][lane] = x1;
                        continue;
                    }
                }
                let b0 = lds_read(lds, a0, size, lane)?;
                let b1 = lds_read(lds, a1, size, lane)?;
                for i in 0..n {
                    w.vgpr[d + i][lane] = word(&b0, i);
                    w.vgpr[d + n + i][lane] = word(&b1, i);
                }
            }
        }
        Kind::Write2 { size, st64 } => {
            let n = dwords(size);
            let (s0, s1) = (vregs(f.data0, n)?, vregs(f.data1, n)?);
            for lane in active_lanes(exec) {
                let base = w.vgpr[f.addr as usize][lane];
                let [a0, a1] = pair_addrs(base, [f.offset0, f.offset1], size, st64, lane, what)?;
                let (b0, b1) = (lane_bytes(w, s0, n, lane), lane_bytes(w, s1, n, lane));
                lds_write(lds, a0, &b0[..size as usize], lane)?;
                lds_write(lds, a1, &b1[..size as usize], lane)?;
            }
        }
        Kind::Atomic { op, size, rtn } => {
            let n = dwords(size);
            // DATA1 is read only by the two-operand atomics (cmpst, mskor).
            let two = matches!(op, AtomicOp::CmpSwap | AtomicOp::MskOr);
            let s0 = vregs(f.data0, n)?;
            let s1 = if two { vregs(f.data1, n)? } else { s0 };
            let d = if rtn { vregs(f.vdst, n)? } else { 0 };
            for lane in active_lanes(exec) {
                let a = lds_addr(w.vgpr[f.addr as usize][lane], offset, size, lane, what)?;
                let old = lds_read(lds, a, size, lane)?;
                let pair = |r: usize| w.vgpr[r][lane] as u64 | (w.vgpr[r + 1][lane] as u64) << 32;
                // DS operand order: cmpst compares with DATA0 and stores DATA1 (GCN3
                // manual: `MEM = (MEM == DATA) ? DATA2 : MEM`); mskor masks with DATA0 and
                // sets DATA1. `AtomicOp` takes (new, compare) and (mask, bits).
                let (new, old_words) = if size == 4 {
                    let m = word(&old, 0);
                    let (x, y) = (w.vgpr[s0][lane], w.vgpr[s1][lane]);
                    let (a_, b_) = if op == AtomicOp::CmpSwap {
                        (y, x)
                    } else {
                        (x, y)
                    };
                    (op.apply32(m, a_, b_) as u64, [m, 0])
                } else {
                    let m = word(&old, 0) as u64 | (word(&old, 1) as u64) << 32;
                    let (x, y) = (pair(s0), pair(s1));
                    let (a_, b_) = if op == AtomicOp::CmpSwap {
                        (y, x)
                    } else {
                        (x, y)
                    };
                    (op.apply64(m, a_, b_), [m as u32, (m >> 32) as u32])
                };
                lds_write(lds, a, &new.to_le_bytes()[..size as usize], lane)?;
                if rtn {
                    for (i, v) in old_words.iter().take(n).enumerate() {
                        w.vgpr[d + i][lane] = *v;
                    }
                }
            }
        }
        Kind::Wrxchg2 { size, st64 } => {
            let n = dwords(size);
            let (s0, s1) = (vregs(f.data0, n)?, vregs(f.data1, n)?);
            let d = vregs(f.vdst, 2 * n)?;
            for lane in active_lanes(exec) {
                let base = w.vgpr[f.addr as usize][lane];
                let [a0, a1] = pair_addrs(base, [f.offset0, f.offset1], size, st64, lane, what)?;
                let (new0, new1) = (lane_bytes(w, s0, n, lane), lane_bytes(w, s1, n, lane));
                let old0 = lds_read(lds, a0, size, lane)?;
                lds_write(lds, a0, &new0[..size as usize], lane)?;
                let old1 = lds_read(lds, a1, size, lane)?;
                lds_write(lds, a1, &new1[..size as usize], lane)?;
                for i in 0..n {
                    w.vgpr[d + i][lane] = word(&old0, i);
                    w.vgpr[d + n + i][lane] = word(&old1, i);
                }
            }
        }
        Kind::Swizzle => {
            let src = w.vgpr[f.addr as usize];
            let mut out = [0u32; LANES];
            for (lane, o) in out.iter_mut().enumerate() {
                let from = swizzle_source(offset as u16, lane);
                if (exec >> from) & 1 != 0 {
                    *o = src[from];
                }
            }
            write_active(&mut w.vgpr[f.vdst as usize], &out, exec);
        }
        Kind::Permute | Kind::Bpermute => {
            let src = w.vgpr[f.data0 as usize];
            let index = w.vgpr[f.addr as usize];
            let lane_of = |l: usize| ((index[l] as u64 + offset) / 4 % LANES as u64) as usize;
            let mut out = [0u32; LANES];
            if k == Kind::Permute {
                // Forward: lane i sends its DATA0 to lane (ADDR[i] + offset) / 4.
                for lane in active_lanes(exec) {
                    out[lane_of(lane)] = src[lane];
                }
            } else {
                // Backward: lane i fetches DATA0 of lane (ADDR[i] + offset) / 4.
                for lane in active_lanes(exec) {
                    let from = lane_of(lane);
                    if (exec >> from) & 1 != 0 {
                        out[lane] = src[from];
                    }
                }
            }
            write_active(&mut w.vgpr[f.vdst as usize], &out, exec);
        }
    }
    Ok(())
}

/// Source lane of `lane` for `ds_swizzle_b32` with the 16-bit OFFSET (GCN3 manual):
/// bit 15 set — quad permute: lane reads lane `(lane & ~3) | OFFSET[2k+1:2k]` for
/// k = lane & 3; bit 15 clear — bit masks within each group of 32 lanes:
/// `((lane & and_mask) | or_mask) ^ xor_mask` with and = OFFSET[4:0], or = OFFSET[9:5],
/// xor = OFFSET[14:10].
pub fn swizzle_source(offset: u16, lane: usize) -> usize {
    if offset & 0x8000 != 0 {
        let k = lane & 3;
        (lane & !3) | ((offset as usize >> (2 * k)) & 3)
    } else {
        let and = offset as usize & 0x1f;
        let or = (offset as usize >> 5) & 0x1f;
        let xor = (offset as usize >> 10) & 0x1f;
        (lane & 0x20) | ((((lane & 0x1f) & and) | or) ^ xor)
    }
}

fn write_active(dst: &mut [u32; LANES], vals: &[u32; LANES], exec: u64) {
    for lane in active_lanes(exec) {
        dst[lane] = vals[lane];
    }
}
